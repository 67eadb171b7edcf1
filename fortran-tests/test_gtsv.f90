! test_gtsv_f: numgpu's tridiagonal solvers from Fortran through `use numgpu`.
!
! - The generic wrappers numgpu_gtsv_spike, numgpu_gtsv_batched_strided and
!   numgpu_gtsv_batched_interleaved for real(c_float), real(c_double),
!   complex(c_float_complex), complex(c_double_complex); n in {1, 2, 3, 4, 31, 32, 33, 100},
!   nrhs 1 and 3 (the interleaved form: 1), both pivoting modes, against LAPACK's
!   sgtsv/dgtsv/cgtsv/zgtsv (the Fortran routines, from OpenBLAS) on copies of the same
!   systems. Classes: diagonally dominant, non-dominant (uniform), every third diagonal entry
!   zero, singular (a zero column). The no-pivoting mode gets the dominant class only (what
!   it is for), except on the CPU handle, which always pivots.
!   Per system: info as LAPACK's (equal on the CPU handle; on AUTO, > 0 exactly where
!   LAPACK's is); where info > 0, B bitwise unchanged; else the residual ratio
!   ||b - T x||_1 / (||T||_1 ||x||_1 n eps) <= 30 and x against LAPACK's:
!   ||x - xref||_1 / (||xref||_1 kappa_1 eps) <= 30, kappa_1 from zgttrf + zgtcon in double
!   complex; on the CPU handle x equals LAPACK's bitwise. The diagonals come back unchanged,
!   and the padding row of B (ldb = n + 1) too.
! - The strided form with size(d, 2) = 1 (one T for the whole batch).
! - The wrappers' own shape checks (size(dl), the diagonals' shapes, size(info)) and numgpu's
!   checks through a wrapper (pivoting out of range: argument 10, 13, 9; ldb < n: argument 8),
!   all writing nothing.
! Each case runs on the handle numgpu_create picks (AUTO) and on an explicit CPU handle.
!
! Prints "test_gtsv_f: N passed, M failed" and stops with code 1 on any failure.
program test_gtsv_f
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_associated, c_int32_t, c_int64_t, c_float, c_double, &
        c_float_complex, c_double_complex
    use numgpu
    implicit none

    ! LAPACK (OpenBLAS): the reference and the condition number.
    interface
        subroutine sgtsv(n, nrhs, dl, d, du, b, ldb, info)
            import :: c_float
            integer, intent(in) :: n, nrhs, ldb
            real(c_float), intent(inout) :: dl(*), d(*), du(*), b(ldb, *)
            integer, intent(out) :: info
        end subroutine
        subroutine dgtsv(n, nrhs, dl, d, du, b, ldb, info)
            import :: c_double
            integer, intent(in) :: n, nrhs, ldb
            real(c_double), intent(inout) :: dl(*), d(*), du(*), b(ldb, *)
            integer, intent(out) :: info
        end subroutine
        subroutine cgtsv(n, nrhs, dl, d, du, b, ldb, info)
            import :: c_float_complex
            integer, intent(in) :: n, nrhs, ldb
            complex(c_float_complex), intent(inout) :: dl(*), d(*), du(*), b(ldb, *)
            integer, intent(out) :: info
        end subroutine
        subroutine zgtsv(n, nrhs, dl, d, du, b, ldb, info)
            import :: c_double_complex
            integer, intent(in) :: n, nrhs, ldb
            complex(c_double_complex), intent(inout) :: dl(*), d(*), du(*), b(ldb, *)
            integer, intent(out) :: info
        end subroutine
        subroutine zgttrf(n, dl, d, du, du2, ipiv, info)
            import :: c_double_complex
            integer, intent(in) :: n
            complex(c_double_complex), intent(inout) :: dl(*), d(*), du(*)
            complex(c_double_complex), intent(out) :: du2(*)
            integer, intent(out) :: ipiv(*), info
        end subroutine
        subroutine zgtcon(norm, n, dl, d, du, du2, ipiv, anorm, rcond, work, info)
            import :: c_double, c_double_complex
            character, intent(in) :: norm
            integer, intent(in) :: n, ipiv(*)
            complex(c_double_complex), intent(in) :: dl(*), d(*), du(*), du2(*)
            real(c_double), intent(in) :: anorm
            real(c_double), intent(out) :: rcond
            complex(c_double_complex), intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
    end interface

    integer, parameter :: dp = c_double
    real(dp), parameter :: tol = 30.0_dp
    complex(dp), parameter :: sentinel = (777.0_dp, -777.0_dp)
    character(len=*), parameter :: letters = "sdcz"
    character(len=*), parameter :: class_names(4) = ["dominant", "uniform ", "zerodiag", "singular"]
    integer :: passed = 0, failed = 0
    type(c_ptr) :: hauto = c_null_ptr, hcpu = c_null_ptr
    integer(c_int32_t) :: backend = -1_c_int32_t

    call check(numgpu_create(hauto) == NUMGPU_SUCCESS, "numgpu_create: " // numgpu_last_error_string())
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int32_t) == NUMGPU_SUCCESS, &
        "numgpu_create_with(CPU): " // numgpu_last_error_string())
    if (.not. (c_associated(hauto) .and. c_associated(hcpu))) call finish()
    call check(numgpu_get_backend(hauto, backend) == NUMGPU_SUCCESS, "numgpu_get_backend")
    if (backend == NUMGPU_BACKEND_CUDA) then
        print '(a)', "test_gtsv_f: AUTO handle runs on CUDA"
    else
        print '(a)', "test_gtsv_f: AUTO handle runs on CPU"
    end if

    call shape_checks(hauto)
    call sweep(hauto, "AUTO", backend == NUMGPU_BACKEND_CPU)
    call sweep(hcpu, "CPU", .true.)

    call check(numgpu_destroy(hauto) == NUMGPU_SUCCESS, "numgpu_destroy(AUTO)")
    call check(numgpu_destroy(hcpu) == NUMGPU_SUCCESS, "numgpu_destroy(CPU)")
    call finish()

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (ok) then
            passed = passed + 1
        else
            failed = failed + 1
            if (failed <= 40) print '(2a)', "FAIL: ", what
        end if
    end subroutine

    subroutine finish()
        print '(a,i0,a,i0,a)', "test_gtsv_f: ", passed, " passed, ", failed, " failed"
        if (failed > 0 .or. passed == 0) stop 1
        stop
    end subroutine

    function itoa(i) result(s)
        integer, intent(in) :: i
        character(len=:), allocatable :: s
        character(len=24) :: buf
        write(buf, '(i0)') i
        s = trim(buf)
    end function

    real(dp) function eps_of(prec)
        integer, intent(in) :: prec
        if (prec == 1 .or. prec == 3) then
            eps_of = real(epsilon(1.0_c_float), dp)
        else
            eps_of = epsilon(1.0_dp)
        end if
    end function

    ! Rounds double complex values to precision prec (1 s, 2 d, 3 c, 4 z), as they are passed.
    elemental function rounded(x, prec) result(y)
        complex(dp), intent(in) :: x
        integer, intent(in) :: prec
        complex(dp) :: y
        select case (prec)
        case (1)
            y = cmplx(real(real(x, c_float), dp), 0.0_dp, dp)
        case (2)
            y = cmplx(real(x, dp), 0.0_dp, dp)
        case (3)
            y = cmplx(cmplx(x, kind=c_float_complex), kind=dp)
        case default
            y = x
        end select
    end function

    ! Uniform in [-1, 1) in both parts, rounded to the precision.
    subroutine random_fill(x, prec)
        complex(dp), intent(out) :: x(:)
        integer, intent(in) :: prec
        real(dp) :: re(size(x)), im(size(x))
        call random_number(re)
        call random_number(im)
        x = rounded(cmplx(2.0_dp * re - 1.0_dp, 2.0_dp * im - 1.0_dp, dp), prec)
    end subroutine

    ! One system of class cls (1 dominant, 2 uniform, 3 zero diagonal entries, 4 a zero column)
    ! and its right-hand sides, in precision prec.
    subroutine make_system(cls, prec, dl, d, du, b)
        integer, intent(in) :: cls, prec
        complex(dp), intent(out) :: dl(:), d(:), du(:), b(:,:)
        integer :: n, j, k
        n = size(d)
        call random_fill(dl, prec)
        call random_fill(d, prec)
        call random_fill(du, prec)
        do j = 1, size(b, 2)
            call random_fill(b(:, j), prec)
        end do
        if (cls == 1 .or. cls == 4) d = rounded(d + merge(5.0_dp, -5.0_dp, real(d) >= 0.0_dp), prec)
        if (cls == 3) then
            do k = 2, n, 3
                d(k) = (0.0_dp, 0.0_dp)
            end do
        end if
        if (cls == 4) then
            j = n / 2 + 1
            d(j) = (0.0_dp, 0.0_dp)
            if (j > 1) du(j - 1) = (0.0_dp, 0.0_dp)
            if (j < n) dl(j) = (0.0_dp, 0.0_dp)
        end if
    end subroutine

    ! T x for the tridiagonal T (dl, d, du).
    function tri_apply(dl, d, du, x) result(y)
        complex(dp), intent(in) :: dl(:), d(:), du(:), x(:)
        complex(dp) :: y(size(x))
        integer :: n
        n = size(d)
        y = d * x
        if (n > 1) then
            y(2:n) = y(2:n) + dl * x(1:n - 1)
            y(1:n - 1) = y(1:n - 1) + du * x(2:n)
        end if
    end function

    ! ||T||_1, the largest column sum.
    real(dp) function tri_norm1(dl, d, du)
        complex(dp), intent(in) :: dl(:), d(:), du(:)
        real(dp) :: col(size(d))
        integer :: n
        n = size(d)
        col = abs(d)
        if (n > 1) then
            col(1:n - 1) = col(1:n - 1) + abs(dl)
            col(2:n) = col(2:n) + abs(du)
        end if
        tri_norm1 = maxval(col)
    end function

    ! kappa_1(T) = ||T||_1 / rcond from zgttrf + zgtcon (huge when singular).
    real(dp) function kappa1(dl, d, du)
        complex(dp), intent(in) :: dl(:), d(:), du(:)
        complex(dp) :: l(size(dl)), dd(size(d)), u(size(du)), u2(max(size(d) - 2, 1)), work(2 * size(d))
        integer :: ipiv(size(d)), info
        real(dp) :: anorm, rcond
        l = dl
        dd = d
        u = du
        anorm = tri_norm1(dl, d, du)
        call zgttrf(size(d), l, dd, u, u2, ipiv, info)
        if (info /= 0) then
            kappa1 = huge(1.0_dp)
            return
        end if
        call zgtcon("1", size(d), l, dd, u, u2, ipiv, anorm, rcond, work, info)
        kappa1 = merge(anorm / rcond, huge(1.0_dp), rcond > 0.0_dp)
    end function

    ! a / b for a test ratio, where b = 0 means "only 0 is exact".
    real(dp) function ratio_of(a, b)
        real(dp), intent(in) :: a, b
        if (b > 0.0_dp) then
            ratio_of = a / b
        else if (a == 0.0_dp) then
            ratio_of = 0.0_dp
        else
            ratio_of = huge(1.0_dp)
        end if
    end function

    ! LAPACK ?gtsv in precision prec on copies: b becomes X (when info = 0).
    subroutine lapack_gtsv(prec, dl, d, du, b, info)
        integer, intent(in) :: prec
        complex(dp), intent(in) :: dl(:), d(:), du(:)
        complex(dp), intent(inout) :: b(:,:)
        integer, intent(out) :: info
        real(c_float), allocatable :: ls(:), ds(:), us(:), bs(:,:)
        real(c_double), allocatable :: ld(:), dd(:), ud(:), bd(:,:)
        complex(c_float_complex), allocatable :: lc(:), dc(:), uc(:), bc(:,:)
        complex(c_double_complex), allocatable :: lz(:), dz(:), uz(:), bz(:,:)
        integer :: n, nrhs
        n = size(d)
        nrhs = size(b, 2)
        select case (prec)
        case (1)
            allocate(ls, source=real(dl, c_float))
            allocate(ds, source=real(d, c_float))
            allocate(us, source=real(du, c_float))
            allocate(bs, source=real(b, c_float))
            call sgtsv(n, nrhs, ls, ds, us, bs, max(n, 1), info)
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ld, source=real(dl, c_double))
            allocate(dd, source=real(d, c_double))
            allocate(ud, source=real(du, c_double))
            allocate(bd, source=real(b, c_double))
            call dgtsv(n, nrhs, ld, dd, ud, bd, max(n, 1), info)
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(lc, source=cmplx(dl, kind=c_float_complex))
            allocate(dc, source=cmplx(d, kind=c_float_complex))
            allocate(uc, source=cmplx(du, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call cgtsv(n, nrhs, lc, dc, uc, bc, max(n, 1), info)
            b = cmplx(bc, kind=dp)
        case default
            allocate(lz, source=dl)
            allocate(dz, source=d)
            allocate(uz, source=du)
            allocate(bz, source=b)
            call zgtsv(n, nrhs, lz, dz, uz, bz, max(n, 1), info)
            b = bz
        end select
    end subroutine

    ! Checks one system's result: x (n x nrhs) is B after the call, info its info.
    subroutine check_system(what, prec, exact_lapack, dl, d, du, b, x, info)
        character(len=*), intent(in) :: what
        integer, intent(in) :: prec
        logical, intent(in) :: exact_lapack
        complex(dp), intent(in) :: dl(:), d(:), du(:), b(:,:), x(:,:)
        integer(c_int32_t), intent(in) :: info
        complex(dp) :: xref(size(b, 1), size(b, 2))
        integer :: ref_info, j, n
        real(dp) :: res, fwd, kappa, eps, tnorm
        n = size(d)
        eps = eps_of(prec)
        xref = b
        call lapack_gtsv(prec, dl, d, du, xref, ref_info)
        if (exact_lapack) then
            call check(info == ref_info, what // ": info " // itoa(int(info)) // ", LAPACK's " // itoa(ref_info))
        else
            call check((info > 0) .eqv. (ref_info > 0), what // ": info " // itoa(int(info)) // ", LAPACK's " // itoa(ref_info))
        end if
        if (ref_info > 0) then
            call check(info >= 1 .and. info <= n .and. all(x == b), what // ": singular, but B was written or info out of range")
            return
        end if
        if (exact_lapack) call check(all(x == xref), what // ": X differs from LAPACK's bitwise")
        tnorm = tri_norm1(dl, d, du)
        kappa = kappa1(dl, d, du)
        do j = 1, size(b, 2)
            res = ratio_of(sum(abs(b(:, j) - tri_apply(dl, d, du, x(:, j)))), tnorm * sum(abs(x(:, j))) * n * eps)
            fwd = ratio_of(sum(abs(x(:, j) - xref(:, j))), sum(abs(xref(:, j))) * kappa * eps)
            call check(res <= tol, what // ": residual ratio " // trim(fmt(res)) // " > 30")
            call check(fwd <= tol, what // ": forward error ratio " // trim(fmt(fwd)) // " > 30")
        end do
    end subroutine

    function fmt(x) result(s)
        real(dp), intent(in) :: x
        character(len=24) :: s
        write(s, '(es10.3)') x
    end function

    ! ---- numgpu through the generic wrappers, in precision prec, on double complex data ----
    ! same: whether the diagonals came back unchanged.

    subroutine ng_spike(h, prec, dl, d, du, b, info, piv, status, errmsg, same)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(in) :: dl(:), d(:), du(:)
        complex(dp), intent(inout) :: b(:,:)
        integer(c_int32_t), intent(inout) :: info
        integer(c_int32_t), intent(in) :: piv
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        logical, intent(out) :: same
        real(c_float), allocatable :: ls(:), ds(:), us(:), bs(:,:)
        real(c_double), allocatable :: ld(:), dd(:), ud(:), bd(:,:)
        complex(c_float_complex), allocatable :: lc(:), dc(:), uc(:), bc(:,:)
        complex(c_double_complex), allocatable :: lz(:), dz(:), uz(:), bz(:,:)
        select case (prec)
        case (1)
            allocate(ls, source=real(dl, c_float))
            allocate(ds, source=real(d, c_float))
            allocate(us, source=real(du, c_float))
            allocate(bs, source=real(b, c_float))
            call numgpu_gtsv_spike(h, ls, ds, us, bs, info, piv, status, errmsg)
            same = all(ls == real(dl, c_float)) .and. all(ds == real(d, c_float)) .and. all(us == real(du, c_float))
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ld, source=real(dl, c_double))
            allocate(dd, source=real(d, c_double))
            allocate(ud, source=real(du, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_gtsv_spike(h, ld, dd, ud, bd, info, piv, status, errmsg)
            same = all(ld == real(dl, c_double)) .and. all(dd == real(d, c_double)) .and. all(ud == real(du, c_double))
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(lc, source=cmplx(dl, kind=c_float_complex))
            allocate(dc, source=cmplx(d, kind=c_float_complex))
            allocate(uc, source=cmplx(du, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_gtsv_spike(h, lc, dc, uc, bc, info, piv, status, errmsg)
            same = all(lc == cmplx(dl, kind=c_float_complex)) .and. all(dc == cmplx(d, kind=c_float_complex)) .and. &
                all(uc == cmplx(du, kind=c_float_complex))
            b = cmplx(bc, kind=dp)
        case default
            allocate(lz, source=dl)
            allocate(dz, source=d)
            allocate(uz, source=du)
            allocate(bz, source=b)
            call numgpu_gtsv_spike(h, lz, dz, uz, bz, info, piv, status, errmsg)
            same = all(lz == dl) .and. all(dz == d) .and. all(uz == du)
            b = bz
        end select
    end subroutine

    ! dl, d, du: (n, nb) each (column i: system i's diagonals, row n of dl and du unused).
    subroutine ng_strided(h, prec, dl, d, du, b, info, piv, status, errmsg, same)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(in) :: dl(:,:), d(:,:), du(:,:)
        complex(dp), intent(inout) :: b(:,:,:)
        integer(c_int32_t), intent(inout), contiguous :: info(:)
        integer(c_int32_t), intent(in) :: piv
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        logical, intent(out) :: same
        real(c_float), allocatable :: ls(:,:), ds(:,:), us(:,:), bs(:,:,:)
        real(c_double), allocatable :: ld(:,:), dd(:,:), ud(:,:), bd(:,:,:)
        complex(c_float_complex), allocatable :: lc(:,:), dc(:,:), uc(:,:), bc(:,:,:)
        complex(c_double_complex), allocatable :: lz(:,:), dz(:,:), uz(:,:), bz(:,:,:)
        select case (prec)
        case (1)
            allocate(ls, source=real(dl, c_float))
            allocate(ds, source=real(d, c_float))
            allocate(us, source=real(du, c_float))
            allocate(bs, source=real(b, c_float))
            call numgpu_gtsv_batched_strided(h, ls, ds, us, bs, info, piv, status, errmsg)
            same = all(ls == real(dl, c_float)) .and. all(ds == real(d, c_float)) .and. all(us == real(du, c_float))
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ld, source=real(dl, c_double))
            allocate(dd, source=real(d, c_double))
            allocate(ud, source=real(du, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_gtsv_batched_strided(h, ld, dd, ud, bd, info, piv, status, errmsg)
            same = all(ld == real(dl, c_double)) .and. all(dd == real(d, c_double)) .and. all(ud == real(du, c_double))
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(lc, source=cmplx(dl, kind=c_float_complex))
            allocate(dc, source=cmplx(d, kind=c_float_complex))
            allocate(uc, source=cmplx(du, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_gtsv_batched_strided(h, lc, dc, uc, bc, info, piv, status, errmsg)
            same = all(lc == cmplx(dl, kind=c_float_complex)) .and. all(dc == cmplx(d, kind=c_float_complex)) .and. &
                all(uc == cmplx(du, kind=c_float_complex))
            b = cmplx(bc, kind=dp)
        case default
            allocate(lz, source=dl)
            allocate(dz, source=d)
            allocate(uz, source=du)
            allocate(bz, source=b)
            call numgpu_gtsv_batched_strided(h, lz, dz, uz, bz, info, piv, status, errmsg)
            same = all(lz == dl) .and. all(dz == d) .and. all(uz == du)
            b = bz
        end select
    end subroutine

    ! dl, d, du, b: (batch, n) each.
    subroutine ng_interleaved(h, prec, dl, d, du, b, info, piv, status, errmsg, same)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(in) :: dl(:,:), d(:,:), du(:,:)
        complex(dp), intent(inout) :: b(:,:)
        integer(c_int32_t), intent(inout), contiguous :: info(:)
        integer(c_int32_t), intent(in) :: piv
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        logical, intent(out) :: same
        real(c_float), allocatable :: ls(:,:), ds(:,:), us(:,:), bs(:,:)
        real(c_double), allocatable :: ld(:,:), dd(:,:), ud(:,:), bd(:,:)
        complex(c_float_complex), allocatable :: lc(:,:), dc(:,:), uc(:,:), bc(:,:)
        complex(c_double_complex), allocatable :: lz(:,:), dz(:,:), uz(:,:), bz(:,:)
        select case (prec)
        case (1)
            allocate(ls, source=real(dl, c_float))
            allocate(ds, source=real(d, c_float))
            allocate(us, source=real(du, c_float))
            allocate(bs, source=real(b, c_float))
            call numgpu_gtsv_batched_interleaved(h, ls, ds, us, bs, info, piv, status, errmsg)
            same = all(ls == real(dl, c_float)) .and. all(ds == real(d, c_float)) .and. all(us == real(du, c_float))
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ld, source=real(dl, c_double))
            allocate(dd, source=real(d, c_double))
            allocate(ud, source=real(du, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_gtsv_batched_interleaved(h, ld, dd, ud, bd, info, piv, status, errmsg)
            same = all(ld == real(dl, c_double)) .and. all(dd == real(d, c_double)) .and. all(ud == real(du, c_double))
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(lc, source=cmplx(dl, kind=c_float_complex))
            allocate(dc, source=cmplx(d, kind=c_float_complex))
            allocate(uc, source=cmplx(du, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_gtsv_batched_interleaved(h, lc, dc, uc, bc, info, piv, status, errmsg)
            same = all(lc == cmplx(dl, kind=c_float_complex)) .and. all(dc == cmplx(d, kind=c_float_complex)) .and. &
                all(uc == cmplx(du, kind=c_float_complex))
            b = cmplx(bc, kind=dp)
        case default
            allocate(lz, source=dl)
            allocate(dz, source=d)
            allocate(uz, source=du)
            allocate(bz, source=b)
            call numgpu_gtsv_batched_interleaved(h, lz, dz, uz, bz, info, piv, status, errmsg)
            same = all(lz == dl) .and. all(dz == d) .and. all(uz == du)
            b = bz
        end select
    end subroutine

    ! ---- the sweep -------------------------------------------------------------------------

    subroutine sweep(h, hname, cpu)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        logical, intent(in) :: cpu
        integer, parameter :: ns(8) = [1, 2, 3, 4, 31, 32, 33, 100]
        integer :: prec, ni, cls, nrhs, m
        integer(c_int32_t) :: piv
        do prec = 1, 4
            do ni = 1, size(ns)
                do cls = 1, 4
                    do m = 0, 1
                        piv = int(m, c_int32_t)
                        if (piv == NUMGPU_GTSV_NOPIVOT .and. cls /= 1 .and. .not. cpu) cycle
                        do nrhs = 1, 3, 2
                            call run_case(h, hname, cpu, prec, ns(ni), nrhs, cls, piv)
                        end do
                    end do
                end do
            end do
        end do
    end subroutine

    subroutine run_case(h, hname, cpu, prec, n, nrhs, cls, piv)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        logical, intent(in) :: cpu
        integer, intent(in) :: prec, n, nrhs, cls
        integer(c_int32_t), intent(in) :: piv
        integer, parameter :: nb = 3
        complex(dp) :: dl(n - 1, nb), d(n, nb), du(n - 1, nb), b(n, nrhs, nb)
        complex(dp) :: sdl(n, nb), sdu(n, nb), bp(n + 1, nrhs, nb), il(nb, n), id(nb, n), iu(nb, n), ib(nb, n)
        integer(c_int32_t) :: info1, info(nb), status
        character(len=256) :: errmsg
        character(len=:), allocatable :: what
        logical :: same
        integer :: i
        complex(dp) :: sent
        sent = rounded(sentinel, prec)
        what = letters(prec:prec) // "gtsv " // trim(class_names(cls)) // " n=" // itoa(n) // " nrhs=" // itoa(nrhs) // &
            " pivoting=" // itoa(int(piv)) // " on " // hname
        ! System 2 of the batch is of class cls, the others dominant.
        do i = 1, nb
            call make_system(merge(cls, 1, i == 2), prec, dl(:, i), d(:, i), du(:, i), b(:, :, i))
        end do

        ! One system (system 2), B with a padding row.
        bp = sentinel
        bp(1:n, :, 1) = b(:, :, 2)
        info1 = -7
        errmsg = ""
        call ng_spike(h, prec, dl(:, 2), d(:, 2), du(:, 2), bp(:, :, 1), info1, piv, status, errmsg, same)
        call check(status == NUMGPU_SUCCESS, what // " spike: status " // itoa(int(status)) // ": " // trim(errmsg))
        call check(same .and. all(bp(n + 1, :, 1) == sent), what // " spike: diagonals or padding written")
        call check_system(what // " spike", prec, cpu, dl(:, 2), d(:, 2), du(:, 2), b(:, :, 2), bp(1:n, :, 1), info1)

        ! Strided: the diagonals in (n, nb) arrays (row n of dl and du unused: sentinel).
        sdl = sentinel
        sdu = sentinel
        sdl(1:n - 1, :) = dl
        sdu(1:n - 1, :) = du
        bp = sentinel
        bp(1:n, :, :) = b
        info = -7
        call ng_strided(h, prec, sdl, d, sdu, bp, info, piv, status, errmsg, same)
        call check(status == NUMGPU_SUCCESS, what // " strided: status " // itoa(int(status)) // ": " // trim(errmsg))
        call check(same .and. all(bp(n + 1, :, :) == sent), what // " strided: diagonals or padding written")
        do i = 1, nb
            call check_system(what // " strided system " // itoa(i), prec, cpu, dl(:, i), d(:, i), du(:, i), b(:, :, i), &
                bp(1:n, :, i), info(i))
        end do

        ! Strided, one T (system 2's) for the whole batch.
        bp = sentinel
        bp(1:n, :, :) = b
        info = -7
        call ng_strided(h, prec, sdl(:, 2:2), d(:, 2:2), sdu(:, 2:2), bp, info, piv, status, errmsg, same)
        call check(status == NUMGPU_SUCCESS .and. same, what // " strided shared T: status " // itoa(int(status)))
        do i = 1, nb
            call check_system(what // " strided shared T, B " // itoa(i), prec, cpu, dl(:, 2), d(:, 2), du(:, 2), &
                b(:, :, i), bp(1:n, :, i), info(i))
        end do

        ! Interleaved (first right-hand sides): X(i, k), dl(:, 1) and du(:, n) unused.
        if (nrhs /= 1) return
        il = sentinel
        iu = sentinel
        do i = 1, nb
            il(i, 2:n) = dl(:, i)
            iu(i, 1:n - 1) = du(:, i)
            id(i, :) = d(:, i)
            ib(i, :) = b(:, 1, i)
        end do
        info = -7
        call ng_interleaved(h, prec, il, id, iu, ib, info, piv, status, errmsg, same)
        call check(status == NUMGPU_SUCCESS .and. same, what // " interleaved: status " // itoa(int(status)) // ": " // &
            trim(errmsg))
        do i = 1, nb
            call check_system(what // " interleaved system " // itoa(i), prec, cpu, dl(:, i), d(:, i), du(:, i), &
                b(:, 1:1, i), reshape(ib(i, :), [n, 1]), info(i))
        end do
    end subroutine

    ! ---- argument and shape checks ---------------------------------------------------------

    subroutine shape_checks(h)
        type(c_ptr), intent(in) :: h
        real(c_double) :: dl(3), d(4), du(3), b(4, 2), b0(4, 2), b3(3, 2)
        real(c_double) :: sd(4, 2), sb(4, 1, 2), sb0(4, 1, 2), id(2, 4), ib(2, 4), ib0(2, 4)
        integer(c_int32_t) :: info, infos(2), status
        character(len=256) :: errmsg
        dl = 1.0_dp
        du = 1.0_dp
        d = 4.0_dp
        b = 2.0_dp
        b0 = b
        info = -7
        infos = -7
        ! Wrapper shape checks: nothing is called.
        errmsg = ""
        call numgpu_gtsv_spike(h, dl(1:2), d, du, b, info, NUMGPU_GTSV_DIAG_PIVOT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "shapes do not conform") > 0 .and. &
            all(b == b0) .and. info == -7, "spike with size(dl) = n - 2: " // trim(errmsg))
        sd = 4.0_dp
        sb = 2.0_dp
        sb0 = sb
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, sd(1:3, :), sd, sd, sb, infos, NUMGPU_GTSV_DIAG_PIVOT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "shapes do not conform") > 0 .and. &
            all(sb == sb0) .and. all(infos == -7), "strided with dl of another shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, sd, sd, sd, sb, infos(1:1), NUMGPU_GTSV_DIAG_PIVOT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(sb == sb0) .and. &
            infos(1) == -7, "strided with size(info) = 1: " // trim(errmsg))
        id = 4.0_dp
        ib = 2.0_dp
        ib0 = ib
        errmsg = ""
        call numgpu_gtsv_batched_interleaved(h, id, id, id, ib(:, 1:3), infos, NUMGPU_GTSV_DIAG_PIVOT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "shapes do not conform") > 0 .and. &
            all(ib == ib0) .and. all(infos == -7), "interleaved with B of another shape: " // trim(errmsg))
        ! numgpu's own checks through the wrappers: the argument's position and nothing written.
        errmsg = ""
        call numgpu_gtsv_spike(h, dl, d, du, b, info, 2_c_int32_t, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 10 .and. all(b == b0) .and. &
            info == -7 .and. index(errmsg, "pivoting") > 0, "spike with pivoting 2: " // trim(errmsg))
        b3 = 2.0_dp
        errmsg = ""
        call numgpu_gtsv_spike(h, dl, d, du, b3, info, NUMGPU_GTSV_NOPIVOT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 8 .and. all(b3 == 2.0_dp) .and. &
            info == -7, "spike with ldb = 3 < n: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, sd, sd, sd, sb, infos, -1_c_int32_t, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 13 .and. all(sb == sb0) .and. &
            all(infos == -7), "strided with pivoting -1: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_interleaved(h, id, id, id, ib, infos, 5_c_int32_t, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 9 .and. all(ib == ib0) .and. &
            all(infos == -7), "interleaved with pivoting 5: " // trim(errmsg))
        ! The valid calls of the same arrays succeed (T = tridiag(1, 4, 1)).
        call numgpu_gtsv_spike(h, dl, d, du, b, info, NUMGPU_GTSV_NOPIVOT, status)
        call check(status == NUMGPU_SUCCESS .and. info == 0 .and. &
            maxval(abs(tri_apply(cmplx(dl, kind=dp), cmplx(d, kind=dp), cmplx(du, kind=dp), cmplx(b(:, 1), kind=dp)) - 2.0_dp)) &
            < 1e-14_dp, "spike on tridiag(1, 4, 1)")
    end subroutine

end program test_gtsv_f
