! test_geqrf_f: numgpu's batched QR by Givens rotations from Fortran through `use numgpu`.
!
! - The generic wrappers numgpu_geqrf_givens_batched, numgpu_orgqr_givens_batched,
!   numgpu_ormqr_givens_batched and numgpu_gels_givens_batched for real(c_float),
!   real(c_double), complex(c_float_complex), complex(c_double_complex); n in {1, 2, 3, 8, 17,
!   32, 33} with m = n, n + 1, 2n, batches of 1 to 3, random matrices. Per case:
!   * geqrf: the cosines in [0, 1], c**2 + |s|**2 = 1 within 30 eps, CS untouched where i <= j;
!   * orgqr (thin, k = n): max_j ||a_j - Q r_j|| / (m eps ||a_j||) <= 30 and
!     ||I - Q^H Q||_1 / (m eps) <= 30 (matmul in double complex);
!   * orgqr on an m x m array (the whole Q): ||I - Q^H Q||_1 / (m eps) <= 30, and ormqr for
!     side L and R, trans N and T (real) / C (complex) against that explicit Q:
!     ||C - op(Q) C0||_F / (m eps ||C0||_F) <= 30;
!   * gels against LAPACK's sgels/dgels/cgels/zgels (the Fortran routines, from OpenBLAS) on
!     the same matrices: info 0 from both, the optimality ratio ||A^H (b - A x)|| / (m eps
!     ||A||_F (||A||_F ||x|| + ||b||)) <= 30 per column, and x within the least-squares
!     perturbation bound of LAPACK's: ||x - xref|| / (m eps kappa (||x|| + ||b|| / ||A||_F +
!     kappa ||r|| / ||A||_F)) <= 30, kappa = ||R||_F ||R^-1||_F.
!   * singular: column j = n/2 + 1 of every matrix zero (n >= 2): gels gives info = j, as
!     LAPACK's ?gels does, and leaves B bitwise unchanged.
!   Each case runs on the handle numgpu_create picks (AUTO) and on an explicit CPU handle.
! - The wrappers' own shape checks (CS, info, B, and ormqr's CS of the wrong shape) and
!   numgpu's checks through a wrapper (side out of range: argument 2; trans C for real and T
!   for complex: argument 3; n > m: argument 3), all writing nothing.
! - A direct bind(C) call of the pointer-array form numgpu_dgeqrf_givens_batched with an array
!   of c_ptr, against the generic wrapper on the same matrices (bitwise the same: one
!   implementation, deterministic).
!
! Prints "test_geqrf_f: N passed, M failed" and stops with code 1 on any failure.
program test_geqrf_f
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated, c_int32_t, c_int64_t, &
        c_float, c_double, c_float_complex, c_double_complex
    use numgpu
    implicit none

    ! LAPACK (OpenBLAS), the reference.
    interface
        subroutine sgels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info)
            import :: c_float
            character, intent(in) :: trans
            integer, intent(in) :: m, n, nrhs, lda, ldb, lwork
            real(c_float), intent(inout) :: a(lda, *), b(ldb, *)
            real(c_float), intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
        subroutine dgels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info)
            import :: c_double
            character, intent(in) :: trans
            integer, intent(in) :: m, n, nrhs, lda, ldb, lwork
            real(c_double), intent(inout) :: a(lda, *), b(ldb, *)
            real(c_double), intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
        subroutine cgels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info)
            import :: c_float_complex
            character, intent(in) :: trans
            integer, intent(in) :: m, n, nrhs, lda, ldb, lwork
            complex(c_float_complex), intent(inout) :: a(lda, *), b(ldb, *)
            complex(c_float_complex), intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
        subroutine zgels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info)
            import :: c_double_complex
            character, intent(in) :: trans
            integer, intent(in) :: m, n, nrhs, lda, ldb, lwork
            complex(c_double_complex), intent(inout) :: a(lda, *), b(ldb, *)
            complex(c_double_complex), intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
    end interface

    integer, parameter :: dp = c_double
    real(dp), parameter :: tol = 30.0_dp
    character(len=*), parameter :: letters = "sdcz"
    integer :: passed = 0, failed = 0
    type(c_ptr) :: hauto = c_null_ptr, hcpu = c_null_ptr
    integer(c_int32_t) :: backend = -1_c_int32_t

    call check(numgpu_create(hauto) == NUMGPU_SUCCESS, "numgpu_create: " // numgpu_last_error_string())
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int32_t) == NUMGPU_SUCCESS, &
        "numgpu_create_with(CPU): " // numgpu_last_error_string())
    if (.not. (c_associated(hauto) .and. c_associated(hcpu))) call finish()
    call check(numgpu_get_backend(hauto, backend) == NUMGPU_SUCCESS, "numgpu_get_backend")
    if (backend == NUMGPU_BACKEND_CUDA) then
        print '(a)', "test_geqrf_f: AUTO handle runs on CUDA"
    else
        print '(a)', "test_geqrf_f: AUTO handle runs on CPU"
    end if

    call direct_call(hauto)
    call shape_checks(hauto)
    call sweep(hauto, "AUTO")
    call sweep(hcpu, "CPU")

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
        print '(a,i0,a,i0,a)', "test_geqrf_f: ", passed, " passed, ", failed, " failed"
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

    ! NUMGPU_OP_T for the real precisions (1, 2), NUMGPU_OP_C for the complex ones: Q^H.
    integer(c_int32_t) function adjoint_of(prec)
        integer, intent(in) :: prec
        adjoint_of = merge(NUMGPU_OP_C, NUMGPU_OP_T, prec >= 3)
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
        complex(dp), intent(out) :: x(:,:,:)
        integer, intent(in) :: prec
        real(dp), allocatable :: re(:,:,:), im(:,:,:)
        allocate(re(size(x, 1), size(x, 2), size(x, 3)), im(size(x, 1), size(x, 2), size(x, 3)))
        call random_number(re)
        call random_number(im)
        x = rounded(cmplx(2.0_dp * re - 1.0_dp, 2.0_dp * im - 1.0_dp, dp), prec)
    end subroutine

    real(dp) function fro(x)
        complex(dp), intent(in) :: x(:,:)
        fro = sqrt(sum(abs(x)**2))
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

    ! ||I - Q^H Q||_1 / (m eps) for the m x k matrix q.
    real(dp) function orth_ratio(q, eps)
        complex(dp), intent(in) :: q(:,:)
        real(dp), intent(in) :: eps
        complex(dp), allocatable :: g(:,:)
        integer :: j
        allocate(g, source=matmul(conjg(transpose(q)), q))
        do j = 1, size(g, 1)
            g(j, j) = g(j, j) - (1.0_dp, 0.0_dp)
        end do
        orth_ratio = 0.0_dp
        do j = 1, size(g, 2)
            orth_ratio = max(orth_ratio, sum(abs(g(:, j))))
        end do
        orth_ratio = orth_ratio / (real(size(q, 1), dp) * eps)
    end function

    ! The upper triangle of the first n rows of f (n = size(f, 2)).
    function upper(f) result(r)
        complex(dp), intent(in) :: f(:,:)
        complex(dp), allocatable :: r(:,:)
        integer :: i, j
        allocate(r(size(f, 2), size(f, 2)))
        do j = 1, size(f, 2)
            do i = 1, size(f, 2)
                r(i, j) = merge(f(i, j), (0.0_dp, 0.0_dp), i <= j)
            end do
        end do
    end function

    ! ||R||_F ||R^-1||_F of the upper triangular r (its inverse by back substitution).
    real(dp) function kappa_f(r)
        complex(dp), intent(in) :: r(:,:)
        complex(dp), allocatable :: x(:,:)
        integer :: i, j, n
        n = size(r, 1)
        allocate(x(n, n))
        x = (0.0_dp, 0.0_dp)
        do j = 1, n
            x(j, j) = (1.0_dp, 0.0_dp) / r(j, j)
            do i = j - 1, 1, -1
                x(i, j) = -sum(r(i, i + 1:j) * x(i + 1:j, j)) / r(i, i)
            end do
        end do
        kappa_f = fro(r) * fro(x)
    end function

    ! ---- numgpu through the generic wrappers, in precision prec, on double complex data ----

    subroutine ng_geqrf(h, prec, a, cs, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:,:)
        real(dp), intent(inout) :: cs(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:), css(:,:,:)
        real(c_double), allocatable :: ad(:,:,:), csd(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(css, source=real(cs, c_float))
            call numgpu_geqrf_givens_batched(h, as, css, status, errmsg)
            a = cmplx(as, 0.0_c_float, dp)
            cs = real(css, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(csd, source=real(cs, c_double))
            call numgpu_geqrf_givens_batched(h, ad, csd, status, errmsg)
            a = cmplx(ad, 0.0_c_double, dp)
            cs = real(csd, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(css, source=real(cs, c_float))
            call numgpu_geqrf_givens_batched(h, ac, css, status, errmsg)
            a = cmplx(ac, kind=dp)
            cs = real(css, dp)
        case default
            allocate(az, source=a)
            allocate(csd, source=real(cs, c_double))
            call numgpu_geqrf_givens_batched(h, az, csd, status, errmsg)
            a = az
            cs = real(csd, dp)
        end select
    end subroutine

    subroutine ng_orgqr(h, prec, a, cs, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:,:)
        real(dp), intent(in) :: cs(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:), css(:,:,:)
        real(c_double), allocatable :: ad(:,:,:), csd(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(css, source=real(cs, c_float))
            call numgpu_orgqr_givens_batched(h, as, css, status, errmsg)
            a = cmplx(as, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(csd, source=real(cs, c_double))
            call numgpu_orgqr_givens_batched(h, ad, csd, status, errmsg)
            a = cmplx(ad, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(css, source=real(cs, c_float))
            call numgpu_orgqr_givens_batched(h, ac, css, status, errmsg)
            a = cmplx(ac, kind=dp)
        case default
            allocate(az, source=a)
            allocate(csd, source=real(cs, c_double))
            call numgpu_orgqr_givens_batched(h, az, csd, status, errmsg)
            a = az
        end select
    end subroutine

    subroutine ng_ormqr(h, prec, side, trans, a, cs, c, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        integer(c_int32_t), intent(in) :: side, trans
        complex(dp), intent(in) :: a(:,:,:)
        real(dp), intent(in) :: cs(:,:,:)
        complex(dp), intent(inout) :: c(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:), css(:,:,:), cs1(:,:,:)
        real(c_double), allocatable :: ad(:,:,:), csd(:,:,:), cd(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:), cc(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:), cz(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(css, source=real(cs, c_float))
            allocate(cs1, source=real(c, c_float))
            call numgpu_ormqr_givens_batched(h, side, trans, as, css, cs1, status, errmsg)
            c = cmplx(cs1, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(csd, source=real(cs, c_double))
            allocate(cd, source=real(c, c_double))
            call numgpu_ormqr_givens_batched(h, side, trans, ad, csd, cd, status, errmsg)
            c = cmplx(cd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(css, source=real(cs, c_float))
            allocate(cc, source=cmplx(c, kind=c_float_complex))
            call numgpu_ormqr_givens_batched(h, side, trans, ac, css, cc, status, errmsg)
            c = cmplx(cc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(csd, source=real(cs, c_double))
            allocate(cz, source=c)
            call numgpu_ormqr_givens_batched(h, side, trans, az, csd, cz, status, errmsg)
            c = cz
        end select
    end subroutine

    subroutine ng_gels(h, prec, a, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:,:), b(:,:,:)
        integer(c_int32_t), intent(inout), contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:), bs(:,:,:)
        real(c_double), allocatable :: ad(:,:,:), bd(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:), bc(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:), bz(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(bs, source=real(b, c_float))
            call numgpu_gels_givens_batched(h, as, bs, info, status, errmsg)
            a = cmplx(as, 0.0_c_float, dp)
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_gels_givens_batched(h, ad, bd, info, status, errmsg)
            a = cmplx(ad, 0.0_c_double, dp)
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_gels_givens_batched(h, ac, bc, info, status, errmsg)
            a = cmplx(ac, kind=dp)
            b = cmplx(bc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(bz, source=b)
            call numgpu_gels_givens_batched(h, az, bz, info, status, errmsg)
            a = az
            b = bz
        end select
    end subroutine

    ! LAPACK ?gels (trans N) in precision prec on one m x n problem.
    subroutine lapack_gels(prec, a, b, info)
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:), b(:,:)
        integer, intent(out) :: info
        real(c_float), allocatable :: as(:,:), bs(:,:), ws(:)
        real(c_double), allocatable :: ad(:,:), bd(:,:), wd(:)
        complex(c_float_complex), allocatable :: ac(:,:), bc(:,:), wc(:)
        complex(c_double_complex), allocatable :: az(:,:), bz(:,:), wz(:)
        integer :: m, n, nrhs, lwork
        m = size(a, 1)
        n = size(a, 2)
        nrhs = size(b, 2)
        lwork = max(1, (m + nrhs) * 64)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(bs, source=real(b, c_float))
            allocate(ws(lwork))
            call sgels("N", m, n, nrhs, as, m, bs, m, ws, lwork, info)
            a = cmplx(as, 0.0_c_float, dp)
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(bd, source=real(b, c_double))
            allocate(wd(lwork))
            call dgels("N", m, n, nrhs, ad, m, bd, m, wd, lwork, info)
            a = cmplx(ad, 0.0_c_double, dp)
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            allocate(wc(lwork))
            call cgels("N", m, n, nrhs, ac, m, bc, m, wc, lwork, info)
            a = cmplx(ac, kind=dp)
            b = cmplx(bc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(bz, source=b)
            allocate(wz(lwork))
            call zgels("N", m, n, nrhs, az, m, bz, m, wz, lwork, info)
            a = az
            b = bz
        end select
    end subroutine

    ! ---- one case ------------------------------------------------------------------------

    subroutine run_case(h, hname, prec, m, n, batch)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, intent(in) :: prec, m, n, batch
        integer, parameter :: nrhs = 2, nc = 3
        complex(dp), allocatable :: a0(:,:,:), f(:,:,:), q(:,:,:), qf(:,:,:), c0(:,:,:), c(:,:,:), cref(:,:)
        complex(dp), allocatable :: b0(:,:,:), x(:,:,:), g(:,:,:), la(:,:), lb(:,:), r(:,:), res(:,:)
        real(dp), allocatable :: cs(:,:,:)
        integer(c_int32_t), allocatable :: info(:)
        integer(c_int32_t) :: status, side, trans
        integer :: i, j, k, bad, linfo, sd, tr
        character(len=512) :: errmsg
        character(len=160) :: what
        character(len=640) :: msg
        real(dp) :: eps, worst, worst2, qq, an, xn, bn, rn, kap, cc

        eps = eps_of(prec)
        write(what, '(3a,a1,a,i0,a,i0,a,i0)') hname, " handle, ", "", letters(prec:prec), " m=", m, " n=", n, &
            " batch=", batch
        allocate(a0(m, n, batch), b0(m, nrhs, batch))
        call random_fill(a0, prec)
        call random_fill(b0, prec)

        ! geqrf: rotations unitary with 0 <= c <= 1; CS untouched where i <= j.
        allocate(f, source=a0)
        allocate(cs(m, n, batch))
        cs = -1.0_dp
        errmsg = ""
        call ng_geqrf(h, prec, f, cs, status, errmsg)
        call check(status == NUMGPU_SUCCESS, trim(what) // ": geqrf status " // itoa(int(status)) // " " // trim(errmsg))
        if (status /= NUMGPU_SUCCESS) return
        bad = 0
        do k = 1, batch
            do j = 1, n
                do i = 1, m
                    cc = cs(i, j, k)
                    if (i <= j) then
                        if (cc /= -1.0_dp) bad = bad + 1
                    else if (.not. (cc >= 0.0_dp .and. cc <= 1.0_dp .and. &
                            abs(cc**2 + abs(f(i, j, k))**2 - 1.0_dp) <= tol * eps)) then
                        bad = bad + 1
                    end if
                end do
            end do
        end do
        call check(bad == 0, trim(what) // ": geqrf: " // itoa(bad) // &
            " cosines out of [0, 1], rotations not unitary, or CS written where i <= j")

        ! orgqr, thin (k = n): A = Q R, Q^H Q = I.
        allocate(q, source=f)
        errmsg = ""
        call ng_orgqr(h, prec, q, cs, status, errmsg)
        worst = 0.0_dp
        worst2 = 0.0_dp
        do k = 1, batch
            allocate(r, source=upper(f(:, :, k)))
            allocate(res, source=a0(:, :, k) - matmul(q(:, :, k), r))
            do j = 1, n
                qq = ratio_of(sqrt(sum(abs(res(:, j))**2)), real(m, dp) * eps * sqrt(sum(abs(a0(:, j, k))**2)))
                if (.not. (qq <= worst)) worst = qq
            end do
            qq = orth_ratio(q(:, :, k), eps)
            if (.not. (qq <= worst2)) worst2 = qq
            deallocate(r, res)
        end do
        write(msg, '(a,i0,a,g0.3,a,g0.3,1x,a)') ": orgqr thin status ", status, ", ||A - QR|| ratio ", worst, &
            ", ||I - Q^H Q|| ratio ", worst2, trim(errmsg)
        call check(status == NUMGPU_SUCCESS .and. worst <= tol .and. worst2 <= tol, trim(what) // trim(msg))

        ! orgqr on m x m: the whole Q; then ormqr, every side and trans, against it.
        allocate(qf(m, m, batch))
        qf = (0.0_dp, 0.0_dp)
        qf(:, 1:n, :) = f
        errmsg = ""
        call ng_orgqr(h, prec, qf, cs, status, errmsg)
        worst = 0.0_dp
        do k = 1, batch
            qq = orth_ratio(qf(:, :, k), eps)
            if (.not. (qq <= worst)) worst = qq
        end do
        write(msg, '(a,i0,a,g0.3,1x,a)') ": orgqr m x m status ", status, ", ||I - Q^H Q|| ratio ", worst, trim(errmsg)
        call check(status == NUMGPU_SUCCESS .and. worst <= tol, trim(what) // trim(msg))
        do sd = 0, 1
            do tr = 0, 1
                side = merge(NUMGPU_SIDE_RIGHT, NUMGPU_SIDE_LEFT, sd == 1)
                trans = merge(adjoint_of(prec), NUMGPU_OP_N, tr == 1)
                if (sd == 0) then
                    allocate(c0(m, nc, batch))
                else
                    allocate(c0(nc, m, batch))
                end if
                call random_fill(c0, prec)
                allocate(c, source=c0)
                errmsg = ""
                call ng_ormqr(h, prec, side, trans, f, cs, c, status, errmsg)
                worst = 0.0_dp
                do k = 1, batch
                    if (tr == 0) then
                        allocate(r, source=qf(:, :, k))
                    else
                        allocate(r, source=conjg(transpose(qf(:, :, k))))
                    end if
                    if (sd == 0) then
                        allocate(cref, source=matmul(r, c0(:, :, k)))
                    else
                        allocate(cref, source=matmul(c0(:, :, k), r))
                    end if
                    qq = ratio_of(fro(c(:, :, k) - cref), real(m, dp) * eps * fro(c0(:, :, k)))
                    if (.not. (qq <= worst)) worst = qq
                    deallocate(r, cref)
                end do
                write(msg, '(a,i0,a,i0,a,i0,a,g0.3,1x,a)') ": ormqr side ", side, " trans ", trans, " status ", status, &
                    ", ratio against the explicit Q ", worst, trim(errmsg)
                call check(status == NUMGPU_SUCCESS .and. worst <= tol, trim(what) // trim(msg))
                deallocate(c0, c)
            end do
        end do

        ! gels against LAPACK's ?gels.
        allocate(g, source=a0)
        allocate(x, source=b0)
        allocate(info(batch))
        info = -99
        errmsg = ""
        call ng_gels(h, prec, g, x, info, status, errmsg)
        call check(status == NUMGPU_SUCCESS .and. all(info == 0), trim(what) // ": gels status " // &
            itoa(int(status)) // ", info 0 for random matrices " // trim(errmsg))
        worst = 0.0_dp
        worst2 = 0.0_dp
        bad = 0
        do k = 1, batch
            allocate(la, source=a0(:, :, k))
            allocate(lb, source=b0(:, :, k))
            call lapack_gels(prec, la, lb, linfo)
            if (linfo /= 0) bad = bad + 1
            allocate(res, source=b0(:, :, k) - matmul(a0(:, :, k), x(1:n, :, k)))
            an = fro(a0(:, :, k))
            allocate(r, source=upper(la))
            kap = kappa_f(r)
            do j = 1, nrhs
                xn = sqrt(sum(abs(x(1:n, j, k))**2))
                bn = sqrt(sum(abs(b0(:, j, k))**2))
                rn = sqrt(sum(abs(res(:, j))**2))
                qq = ratio_of(sqrt(sum(abs(matmul(conjg(transpose(a0(:, :, k))), res(:, j)))**2)), &
                    an * real(m, dp) * eps * (an * xn + bn))
                if (.not. (qq <= worst)) worst = qq
                qq = ratio_of(sqrt(sum(abs(x(1:n, j, k) - lb(1:n, j))**2)), &
                    real(m, dp) * eps * kap * (xn + bn / an + kap * rn / an))
                if (.not. (qq <= worst2)) worst2 = qq
            end do
            deallocate(la, lb, res, r)
        end do
        write(msg, '(a,i0,a,g0.3,a,g0.3)') ": gels against ?gels: ", bad, " LAPACK failures, optimality ratio ", &
            worst, ", X ratio ", worst2
        call check(bad == 0 .and. worst <= tol .and. worst2 <= tol, trim(what) // trim(msg))

        ! Singular: column n/2 + 1 zero: info = n/2 + 1 (as LAPACK's) and B unchanged.
        if (n >= 2) then
            g = a0
            g(:, n / 2 + 1, :) = (0.0_dp, 0.0_dp)
            allocate(la, source=g(:, :, 1))
            allocate(lb, source=b0(:, :, 1))
            call lapack_gels(prec, la, lb, linfo)
            x = b0
            info = -99
            errmsg = ""
            call ng_gels(h, prec, g, x, info, status, errmsg)
            write(msg, '(a,i0,a,i0,a,i0,1x,a)') ": gels with a zero column: status ", status, ", info(1) ", info(1), &
                ", LAPACK's ", linfo, trim(errmsg)
            call check(status == NUMGPU_SUCCESS .and. all(info == n / 2 + 1) .and. linfo == n / 2 + 1 .and. &
                all(x == b0), trim(what) // trim(msg) // " (want info = " // itoa(n / 2 + 1) // ", B unchanged)")
        end if
    end subroutine

    subroutine sweep(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, parameter :: sizes(7) = [1, 2, 3, 8, 17, 32, 33]
        integer :: prec, s, mi, m, counter
        counter = 0
        do prec = 1, 4
            do s = 1, size(sizes)
                do mi = 1, 3
                    m = merge(sizes(s), merge(sizes(s) + 1, 2 * sizes(s), mi == 2), mi == 1)
                    counter = counter + 1
                    call run_case(h, hname, prec, m, sizes(s), 1 + mod(counter, 3))
                end do
            end do
        end do
    end subroutine

    ! Shapes that do not conform are refused by the wrappers before any call, and numgpu's own
    ! checks come back through them; nothing is written either way.
    subroutine shape_checks(h)
        type(c_ptr), intent(in) :: h
        real(c_double) :: a(4, 3, 2), a0(4, 3, 2), cs(4, 3, 2), cs_bad(4, 2, 2), b(4, 2, 2), c(4, 2, 2), c0(4, 2, 2)
        real(c_double) :: b1(4, 2, 1), cs1(4, 3, 1)
        real(c_double) :: wide(2, 3, 1), wide0(2, 3, 1), cs_wide(2, 3, 1)
        complex(c_float_complex) :: ac(4, 3, 2), ac0(4, 3, 2), cc(2, 4, 2), cc0(2, 4, 2)
        real(c_float) :: csc(4, 3, 2), ure(2, 4, 2), uim(2, 4, 2)
        integer(c_int32_t) :: info(2), info_bad(3), status
        character(len=256) :: errmsg
        call random_number(a)
        a0 = a
        cs = 0.5_dp
        cs_bad = 0.5_dp
        b = 1.0_dp
        c = 2.0_dp
        c0 = c
        info = -5
        info_bad = -5

        errmsg = ""
        call numgpu_geqrf_givens_batched(h, a, cs_bad, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, &
            "numgpu_geqrf_givens_batched: shapes do not conform: CS is 4 x 2 x 2") == 1 .and. all(a == a0) .and. &
            all(cs_bad == 0.5_dp), "wrapper refuses CS of the wrong shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gels_givens_batched(h, a, b, info_bad, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(a == a0) .and. &
            all(b == 1.0_dp) .and. all(info_bad == -5), "wrapper refuses info of the wrong size: " // trim(errmsg))
        errmsg = ""
        b1 = 1.0_dp
        call numgpu_gels_givens_batched(h, a, b1, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(B, 3)") > 0 .and. all(a == a0) .and. &
            all(b1 == 1.0_dp) .and. all(info == -5), "wrapper refuses a batch of B that differs from A's: " // trim(errmsg))
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, NUMGPU_OP_N, a, cs_bad, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_ormqr_givens_batched: shapes do not") == 1 &
            .and. all(c == c0), "ormqr wrapper refuses CS that does not match A: " // trim(errmsg))
        errmsg = ""
        cs1 = 0.5_dp
        call numgpu_orgqr_givens_batched(h, a, cs1, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(CS, 3)") > 0 .and. all(a == a0), &
            "orgqr wrapper refuses CS of another batch: " // trim(errmsg))

        ! numgpu's own checks, through the wrappers (argument numbers of the strided forms).
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, 5_c_int32_t, NUMGPU_OP_N, a, cs, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. index(errmsg, &
            "numgpu_dormqr_givens_batched_strided: argument 2 (side = 5)") == 1 .and. all(c == c0), &
            "side = 5 is refused by numgpu with argument 2: " // trim(errmsg))
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, NUMGPU_OP_C, a, cs, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. index(errmsg, &
            "(trans = NUMGPU_OP_C)") > 0 .and. all(c == c0), "trans C for real is refused with argument 3: " // trim(errmsg))
        call random_number(ure)
        call random_number(uim)
        cc = cmplx(ure, uim, c_float_complex)
        cc0 = cc
        ac = (1.0_c_float, 2.0_c_float)
        ac0 = ac
        csc = 0.5_c_float
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_RIGHT, NUMGPU_OP_T, ac, csc, cc, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. index(errmsg, &
            "numgpu_cunmqr_givens_batched_strided: argument 3 (trans = NUMGPU_OP_T)") == 1 .and. all(cc == cc0) .and. &
            all(ac == ac0), "trans T for complex is refused with argument 3: " // trim(errmsg))
        call random_number(wide)
        wide0 = wide
        cs_wide = 0.5_dp
        errmsg = ""
        call numgpu_geqrf_givens_batched(h, wide, cs_wide, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. index(errmsg, &
            "(n = 3) must be <= m = 2") > 0 .and. all(wide == wide0) .and. all(cs_wide == 0.5_dp), &
            "n > m is refused by numgpu with argument 3: " // trim(errmsg))
        ! Without errmsg the status still tells.
        call numgpu_geqrf_givens_batched(h, a, cs_bad, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(a == a0), "wrapper without errmsg returns the status")
    end subroutine

    ! The pointer-array form through its bind(C) interface, against the generic wrapper.
    subroutine direct_call(h)
        type(c_ptr), intent(in) :: h
        real(c_double), target :: a(6, 4, 3), cs(6, 4, 3)
        real(c_double) :: aw(6, 4, 3), csw(6, 4, 3)
        type(c_ptr), target :: pa(3), pcs(3)
        integer(c_int32_t) :: status
        integer :: i
        call random_number(a)
        aw = a
        cs = -1.0_dp
        csw = -1.0_dp
        do i = 1, 3
            pa(i) = c_loc(a(1, 1, i))
            pcs(i) = c_loc(cs(1, 1, i))
        end do
        status = numgpu_dgeqrf_givens_batched(h, 6_c_int64_t, 4_c_int64_t, c_loc(pa), 6_c_int64_t, c_loc(pcs), &
            6_c_int64_t, 3_c_int64_t)
        if (status == NUMGPU_SUCCESS) status = numgpu_synchronize(h)
        call check(status == NUMGPU_SUCCESS, "numgpu_dgeqrf_givens_batched with c_ptr arrays: " // &
            numgpu_last_error_string())
        call numgpu_geqrf_givens_batched(h, aw, csw, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_geqrf_givens_batched (generic) beside the direct call")
        call check(all(a == aw) .and. all(cs == csw), &
            "numgpu_dgeqrf_givens_batched (pointer arrays) and the generic wrapper give the same factors")
    end subroutine

end program test_geqrf_f
