! test_getrf_f: numgpu's batched LU with complete pivoting from Fortran through `use numgpu`.
!
! - The generic wrappers numgpu_getrf_batched_fullpivot, numgpu_gesc2_batched,
!   numgpu_getrs_batched_fullpivot and numgpu_gesv_batched_fullpivot for real(c_float),
!   real(c_double), complex(c_float_complex), complex(c_double_complex); n in {1, 2, 3, 7, 8,
!   16, 31, 32, 33, 64}, batches of 1, 3 and 37; random matrices, tie-rich matrices (phased
!   Hadamard blocks of order <= 16: every modulus ties, the elimination is exact) and
!   rank-deficient ones (a random
!   r x r block, r = n/2, zero elsewhere). Per case:
!   * mode GETC2 against LAPACK's sgetc2/dgetc2/cgetc2/zgetc2 called from Fortran on the same
!     matrices: ipiv, jpiv and info identical, ||F - Fref||_F / (n eps ||Fref||_F) <= 30;
!   * gesc2 on the LAPACK factors against ?gesc2: scale equal within 30 n eps, and
!     ||L U Q^-1 (x - xref)|| / (||L|| ||U|| ||x|| n eps) <= 30 (the same solution up to the
!     rounding of the factored solve);
!   * getrs (N, T, C) on numgpu's factors where info = 0 and gesv: residual
!     max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 n eps) <= 30 (matmul in double
!     complex); gesv on the rank-deficient matrices gives info = r + 1 and leaves B unchanged.
!   Each case runs on the handle numgpu_create picks (AUTO) and on an explicit CPU handle.
! - The wrappers' own shape checks (ipiv, info, rhs of the wrong shape) and numgpu's mode
!   check through a wrapper (argument 10 of the strided form), all writing nothing.
! - A direct bind(C) call of the pointer-array form numgpu_dgetrf_batched_fullpivot with an
!   array of c_ptr, against dgetc2.
!
! Prints "test_getrf_f: N passed, M failed" and stops with code 1 on any failure.
program test_getrf_f
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated, c_int32_t, c_int64_t, &
        c_float, c_double, c_float_complex, c_double_complex
    use numgpu
    implicit none

    ! LAPACK (OpenBLAS), the reference.
    interface
        subroutine sgetc2(n, a, lda, ipiv, jpiv, info)
            import :: c_float
            integer, intent(in) :: n, lda
            real(c_float), intent(inout) :: a(lda, *)
            integer, intent(out) :: ipiv(*), jpiv(*), info
        end subroutine
        subroutine dgetc2(n, a, lda, ipiv, jpiv, info)
            import :: c_double
            integer, intent(in) :: n, lda
            real(c_double), intent(inout) :: a(lda, *)
            integer, intent(out) :: ipiv(*), jpiv(*), info
        end subroutine
        subroutine cgetc2(n, a, lda, ipiv, jpiv, info)
            import :: c_float_complex
            integer, intent(in) :: n, lda
            complex(c_float_complex), intent(inout) :: a(lda, *)
            integer, intent(out) :: ipiv(*), jpiv(*), info
        end subroutine
        subroutine zgetc2(n, a, lda, ipiv, jpiv, info)
            import :: c_double_complex
            integer, intent(in) :: n, lda
            complex(c_double_complex), intent(inout) :: a(lda, *)
            integer, intent(out) :: ipiv(*), jpiv(*), info
        end subroutine
        subroutine sgesc2(n, a, lda, rhs, ipiv, jpiv, scale)
            import :: c_float
            integer, intent(in) :: n, lda, ipiv(*), jpiv(*)
            real(c_float), intent(in) :: a(lda, *)
            real(c_float), intent(inout) :: rhs(*)
            real(c_float), intent(out) :: scale
        end subroutine
        subroutine dgesc2(n, a, lda, rhs, ipiv, jpiv, scale)
            import :: c_double
            integer, intent(in) :: n, lda, ipiv(*), jpiv(*)
            real(c_double), intent(in) :: a(lda, *)
            real(c_double), intent(inout) :: rhs(*)
            real(c_double), intent(out) :: scale
        end subroutine
        subroutine cgesc2(n, a, lda, rhs, ipiv, jpiv, scale)
            import :: c_float, c_float_complex
            integer, intent(in) :: n, lda, ipiv(*), jpiv(*)
            complex(c_float_complex), intent(in) :: a(lda, *)
            complex(c_float_complex), intent(inout) :: rhs(*)
            real(c_float), intent(out) :: scale
        end subroutine
        subroutine zgesc2(n, a, lda, rhs, ipiv, jpiv, scale)
            import :: c_double, c_double_complex
            integer, intent(in) :: n, lda, ipiv(*), jpiv(*)
            complex(c_double_complex), intent(in) :: a(lda, *)
            complex(c_double_complex), intent(inout) :: rhs(*)
            real(c_double), intent(out) :: scale
        end subroutine
    end interface

    integer, parameter :: dp = c_double
    real(dp), parameter :: tol = 30.0_dp
    character(len=*), parameter :: letters = "sdcz", opc = "NTC"
    integer :: passed = 0, failed = 0
    type(c_ptr) :: hauto = c_null_ptr, hcpu = c_null_ptr
    integer(c_int32_t) :: backend = -1_c_int32_t

    call check(numgpu_create(hauto) == NUMGPU_SUCCESS, "numgpu_create: " // numgpu_last_error_string())
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int32_t) == NUMGPU_SUCCESS, &
        "numgpu_create_with(CPU): " // numgpu_last_error_string())
    if (.not. (c_associated(hauto) .and. c_associated(hcpu))) call finish()
    call check(numgpu_get_backend(hauto, backend) == NUMGPU_SUCCESS, "numgpu_get_backend")
    if (backend == NUMGPU_BACKEND_CUDA) then
        print '(a)', "test_getrf_f: AUTO handle runs on CUDA"
    else
        print '(a)', "test_getrf_f: AUTO handle runs on CPU"
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
        print '(a,i0,a,i0,a)', "test_getrf_f: ", passed, " passed, ", failed, " failed"
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
        complex(dp), intent(out) :: x(:,:,:)
        integer, intent(in) :: prec
        real(dp), allocatable :: re(:,:,:), im(:,:,:)
        allocate(re(size(x, 1), size(x, 2), size(x, 3)), im(size(x, 1), size(x, 2), size(x, 3)))
        call random_number(re)
        call random_number(im)
        x = rounded(cmplx(2.0_dp * re - 1.0_dp, 2.0_dp * im - 1.0_dp, dp), prec)
    end subroutine

    ! The class `cls` (1 random, 2 ties, 3 rank r = n/2 in the leading block) for every matrix.
    subroutine make_matrices(a, prec, cls)
        complex(dp), intent(out) :: a(:,:,:)
        integer, intent(in) :: prec, cls
        real(dp), allocatable :: u(:,:,:)
        integer :: i, j, k, r, off, rest, b
        call random_fill(a, prec)
        select case (cls)
        case (2)
            ! D1*H*D2: H block-diagonal Sylvester-Hadamard blocks of order <= 16, D1, D2 random
            ! phases (+-1; complex +-1, +-i): every modulus ties and the elimination is exact,
            ! so the pivots must equal LAPACK's whatever the rounding of the implementation.
            allocate(u(size(a, 1), 2, size(a, 3)))
            call random_number(u)
            a = (0.0_dp, 0.0_dp)
            do k = 1, size(a, 3)
                off = 0
                rest = size(a, 1)
                do while (rest > 0)
                    b = 1
                    do while (2 * b <= rest .and. 2 * b <= 16)
                        b = 2 * b
                    end do
                    do j = 0, b - 1
                        do i = 0, b - 1
                            a(off + i + 1, off + j + 1, k) = phase(u(off + i + 1, 1, k), prec) * &
                                real(1 - 2 * modulo(popcnt(iand(i, j)), 2), dp) * phase(u(off + j + 1, 2, k), prec)
                        end do
                    end do
                    off = off + b
                    rest = rest - b
                end do
            end do
        case (3)
            r = size(a, 1) / 2
            a(r + 1:, :, :) = (0.0_dp, 0.0_dp)
            a(:, r + 1:, :) = (0.0_dp, 0.0_dp)
        end select
    end subroutine

    ! A unit phase from a uniform number: +-1, and for complex precisions (prec >= 3) +-i too.
    complex(dp) function phase(u, prec)
        real(dp), intent(in) :: u
        integer, intent(in) :: prec
        complex(dp), parameter :: units(4) = [(1.0_dp, 0.0_dp), (-1.0_dp, 0.0_dp), (0.0_dp, 1.0_dp), (0.0_dp, -1.0_dp)]
        integer :: m
        m = merge(4, 2, prec >= 3)
        phase = units(min(m, 1 + int(real(m, dp) * u)))
    end function

    real(dp) function norm1(x)
        complex(dp), intent(in) :: x(:,:)
        integer :: j
        norm1 = 0.0_dp
        do j = 1, size(x, 2)
            norm1 = max(norm1, sum(abs(x(:, j))))
        end do
    end function

    real(dp) function norm_inf(x)
        complex(dp), intent(in) :: x(:,:)
        integer :: i
        norm_inf = 0.0_dp
        do i = 1, size(x, 1)
            norm_inf = max(norm_inf, sum(abs(x(i, :))))
        end do
    end function

    function op(x, t) result(y)
        complex(dp), intent(in) :: x(:,:)
        integer(c_int32_t), intent(in) :: t
        complex(dp), allocatable :: y(:,:)
        select case (t)
        case (NUMGPU_OP_N)
            y = x
        case (NUMGPU_OP_T)
            y = transpose(x)
        case default
            y = conjg(transpose(x))
        end select
    end function

    ! max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 n eps)
    real(dp) function residual(a, b, x, t, eps) result(worst)
        complex(dp), intent(in) :: a(:,:), b(:,:), x(:,:)
        integer(c_int32_t), intent(in) :: t
        real(dp), intent(in) :: eps
        complex(dp), allocatable :: oa(:,:), r(:,:)
        real(dp) :: q, den
        integer :: j
        ! allocate(source=) rather than assignment to an unallocated array: gfortran 12's
        ! -Wmaybe-uninitialized misfires on reallocation-on-assignment (as in test_gemm.f90).
        allocate(oa, source=op(a, t))
        allocate(r, source=b - matmul(oa, x))
        worst = 0.0_dp
        do j = 1, size(b, 2)
            den = norm1(oa) * sum(abs(x(:, j))) * real(size(a, 1), dp) * eps
            if (den > 0.0_dp) then
                q = sum(abs(r(:, j))) / den
            else if (sum(abs(r(:, j))) == 0.0_dp) then
                q = 0.0_dp
            else
                q = huge(1.0_dp)
            end if
            if (.not. (q <= worst)) worst = q
        end do
    end function

    ! ||L U Q^-1 (x - xref)||_inf / (||L||_inf ||U||_inf max(|x|, |xref|) n eps), factors f.
    real(dp) function gesc2_ratio(f, jpiv, x, xref, eps) result(q)
        complex(dp), intent(in) :: f(:,:), x(:), xref(:)
        integer(c_int32_t), intent(in) :: jpiv(:)
        real(dp), intent(in) :: eps
        complex(dp), allocatable :: l(:,:), u(:,:), d(:)
        complex(dp) :: t
        real(dp) :: den
        integer :: i, j, k, n
        n = size(f, 1)
        allocate(l(n, n), u(n, n))
        do j = 1, n
            do i = 1, n
                l(i, j) = merge(f(i, j), (0.0_dp, 0.0_dp), i > j)
                u(i, j) = merge(f(i, j), (0.0_dp, 0.0_dp), i <= j)
            end do
            l(j, j) = (1.0_dp, 0.0_dp)
        end do
        allocate(d, source=x - xref)
        do k = 1, n
            t = d(k)
            d(k) = d(jpiv(k))
            d(jpiv(k)) = t
        end do
        d = matmul(l, matmul(u, d))
        den = norm_inf(l) * norm_inf(u) * max(maxval(abs(x)), maxval(abs(xref))) * real(n, dp) * eps
        if (den > 0.0_dp) then
            q = maxval(abs(d)) / den
        else if (maxval(abs(d)) == 0.0_dp) then
            q = 0.0_dp
        else
            q = huge(1.0_dp)
        end if
    end function

    ! ---- LAPACK in precision prec on double complex data -----------------------------------

    subroutine lapack_getc2(prec, a, ipiv, jpiv, info)
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:)
        integer(c_int32_t), intent(out) :: ipiv(:), jpiv(:), info
        real(c_float), allocatable :: as(:,:)
        real(c_double), allocatable :: ad(:,:)
        complex(c_float_complex), allocatable :: ac(:,:)
        complex(c_double_complex), allocatable :: az(:,:)
        integer :: n
        n = size(a, 1)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            call sgetc2(n, as, n, ipiv, jpiv, info)
            a = cmplx(as, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            call dgetc2(n, ad, n, ipiv, jpiv, info)
            a = cmplx(ad, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            call cgetc2(n, ac, n, ipiv, jpiv, info)
            a = cmplx(ac, kind=dp)
        case default
            allocate(az, source=a)
            call zgetc2(n, az, n, ipiv, jpiv, info)
            a = az
        end select
    end subroutine

    subroutine lapack_gesc2(prec, a, rhs, ipiv, jpiv, scale)
        integer, intent(in) :: prec
        complex(dp), intent(in) :: a(:,:)
        complex(dp), intent(inout) :: rhs(:)
        integer(c_int32_t), intent(in) :: ipiv(:), jpiv(:)
        real(dp), intent(out) :: scale
        real(c_float), allocatable :: as(:,:), rs(:)
        real(c_double), allocatable :: ad(:,:), rd(:)
        complex(c_float_complex), allocatable :: ac(:,:), rc(:)
        complex(c_double_complex), allocatable :: az(:,:), rz(:)
        real(c_float) :: s4
        integer :: n
        n = size(a, 1)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(rs, source=real(rhs, c_float))
            call sgesc2(n, as, n, rs, ipiv, jpiv, s4)
            rhs = cmplx(rs, 0.0_c_float, dp)
            scale = real(s4, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(rd, source=real(rhs, c_double))
            call dgesc2(n, ad, n, rd, ipiv, jpiv, scale)
            rhs = cmplx(rd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(rc, source=cmplx(rhs, kind=c_float_complex))
            call cgesc2(n, ac, n, rc, ipiv, jpiv, s4)
            rhs = cmplx(rc, kind=dp)
            scale = real(s4, dp)
        case default
            allocate(az, source=a)
            allocate(rz, source=rhs)
            call zgesc2(n, az, n, rz, ipiv, jpiv, scale)
            rhs = rz
        end select
    end subroutine

    ! ---- the generic wrappers in precision prec on double complex data ---------------------

    subroutine ng_getrf(h, prec, a, ipiv, jpiv, info, mode, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:,:)
        integer(c_int32_t), intent(inout), contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:)
        real(c_double), allocatable :: ad(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            call numgpu_getrf_batched_fullpivot(h, as, ipiv, jpiv, info, mode, status, errmsg)
            a = cmplx(as, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            call numgpu_getrf_batched_fullpivot(h, ad, ipiv, jpiv, info, mode, status, errmsg)
            a = cmplx(ad, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            call numgpu_getrf_batched_fullpivot(h, ac, ipiv, jpiv, info, mode, status, errmsg)
            a = cmplx(ac, kind=dp)
        case default
            allocate(az, source=a)
            call numgpu_getrf_batched_fullpivot(h, az, ipiv, jpiv, info, mode, status, errmsg)
            a = az
        end select
    end subroutine

    subroutine ng_gesc2(h, prec, a, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(in) :: a(:,:,:)
        complex(dp), intent(inout) :: rhs(:,:)
        integer(c_int32_t), intent(in), contiguous :: ipiv(:,:), jpiv(:,:)
        real(dp), intent(inout), contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        real(c_float), allocatable :: as(:,:,:), rs(:,:), s4(:)
        real(c_double), allocatable :: ad(:,:,:), rd(:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:), rc(:,:)
        complex(c_double_complex), allocatable :: az(:,:,:), rz(:,:)
        allocate(s4, source=real(scale, c_float))
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(rs, source=real(rhs, c_float))
            call numgpu_gesc2_batched(h, as, rs, ipiv, jpiv, s4, status, errmsg)
            rhs = cmplx(rs, 0.0_c_float, dp)
            scale = real(s4, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(rd, source=real(rhs, c_double))
            call numgpu_gesc2_batched(h, ad, rd, ipiv, jpiv, scale, status, errmsg)
            rhs = cmplx(rd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(rc, source=cmplx(rhs, kind=c_float_complex))
            call numgpu_gesc2_batched(h, ac, rc, ipiv, jpiv, s4, status, errmsg)
            rhs = cmplx(rc, kind=dp)
            scale = real(s4, dp)
        case default
            allocate(az, source=a)
            allocate(rz, source=rhs)
            call numgpu_gesc2_batched(h, az, rz, ipiv, jpiv, scale, status, errmsg)
            rhs = rz
        end select
    end subroutine

    subroutine ng_getrs(h, prec, trans, a, ipiv, jpiv, b, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        integer(c_int32_t), intent(in) :: trans
        complex(dp), intent(in) :: a(:,:,:)
        integer(c_int32_t), intent(in), contiguous :: ipiv(:,:), jpiv(:,:)
        complex(dp), intent(inout) :: b(:,:,:)
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
            call numgpu_getrs_batched_fullpivot(h, trans, as, ipiv, jpiv, bs, status, errmsg)
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_getrs_batched_fullpivot(h, trans, ad, ipiv, jpiv, bd, status, errmsg)
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_getrs_batched_fullpivot(h, trans, ac, ipiv, jpiv, bc, status, errmsg)
            b = cmplx(bc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(bz, source=b)
            call numgpu_getrs_batched_fullpivot(h, trans, az, ipiv, jpiv, bz, status, errmsg)
            b = bz
        end select
    end subroutine

    subroutine ng_gesv(h, prec, a, ipiv, jpiv, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        complex(dp), intent(inout) :: a(:,:,:), b(:,:,:)
        integer(c_int32_t), intent(inout), contiguous :: ipiv(:,:), jpiv(:,:), info(:)
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
            call numgpu_gesv_batched_fullpivot(h, as, ipiv, jpiv, bs, info, status, errmsg)
            a = cmplx(as, 0.0_c_float, dp)
            b = cmplx(bs, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(bd, source=real(b, c_double))
            call numgpu_gesv_batched_fullpivot(h, ad, ipiv, jpiv, bd, info, status, errmsg)
            a = cmplx(ad, 0.0_c_double, dp)
            b = cmplx(bd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            call numgpu_gesv_batched_fullpivot(h, ac, ipiv, jpiv, bc, info, status, errmsg)
            a = cmplx(ac, kind=dp)
            b = cmplx(bc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(bz, source=b)
            call numgpu_gesv_batched_fullpivot(h, az, ipiv, jpiv, bz, info, status, errmsg)
            a = az
            b = bz
        end select
    end subroutine

    ! ---- one case ------------------------------------------------------------------------

    subroutine run_case(h, hname, prec, n, batch, cls)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, intent(in) :: prec, n, batch, cls
        character(len=*), parameter :: cname(3) = ["random ", "ties   ", "rankdef"]
        integer, parameter :: nrhs = 2
        complex(dp), allocatable :: a0(:,:,:), f(:,:,:), fref(:,:,:), b0(:,:,:), x(:,:,:), g(:,:,:)
        complex(dp), allocatable :: r0(:,:), rx(:,:), rref(:,:), tmp(:,:,:)
        integer(c_int32_t), allocatable :: ipiv(:,:), jpiv(:,:), info(:), ipr(:,:), jpr(:,:), infor(:)
        real(dp), allocatable :: sc(:), scref(:)
        integer(c_int32_t) :: status, t
        character(len=512) :: errmsg
        character(len=160) :: what
        character(len=640) :: msg
        real(dp) :: eps, q, worst
        integer :: i, bad

        eps = eps_of(prec)
        write(what, '(3a,a1,a,i0,a,i0,2a)') hname, " handle, ", "", letters(prec:prec), " n=", n, " batch=", batch, &
            " ", trim(cname(cls))
        allocate(a0(n, n, batch), b0(n, nrhs, batch), tmp(n, 1, batch))
        call make_matrices(a0, prec, cls)
        call random_fill(b0, prec)
        call random_fill(tmp, prec)
        allocate(r0, source=tmp(:, 1, :))
        allocate(f(n, n, batch))

        ! LAPACK on every matrix.
        allocate(fref, source=a0)
        allocate(rref, source=r0)
        allocate(ipr(n, batch), jpr(n, batch), infor(batch), scref(batch))
        do i = 1, batch
            call lapack_getc2(prec, fref(:, :, i), ipr(:, i), jpr(:, i), infor(i))
            call lapack_gesc2(prec, fref(:, :, i), rref(:, i), ipr(:, i), jpr(:, i), scref(i))
        end do

        ! getrf GETC2 against ?getc2.
        f = a0
        allocate(ipiv(n, batch), jpiv(n, batch), info(batch))
        ipiv = -99
        jpiv = -99
        info = -99
        errmsg = ""
        call ng_getrf(h, prec, f, ipiv, jpiv, info, NUMGPU_FULLPIVOT_GETC2, status, errmsg)
        call check(status == NUMGPU_SUCCESS, trim(what) // ": getrf status " // itoa(int(status)) // " " // trim(errmsg))
        call check(all(ipiv == ipr) .and. all(jpiv == jpr) .and. all(info == infor), trim(what) // &
            ": getrf GETC2 ipiv, jpiv, info identical to ?getc2's")
        worst = 0.0_dp
        do i = 1, batch
            q = sqrt(sum(abs(f(:, :, i) - fref(:, :, i))**2))
            if (q > 0.0_dp) q = q / (real(n, dp) * eps * sqrt(sum(abs(fref(:, :, i))**2)))
            if (.not. (q <= worst)) worst = q
        end do
        write(msg, '(a,g0.3)') ": getrf factors against ?getc2's, worst ratio ", worst
        call check(worst <= tol, trim(what) // trim(msg))

        ! gesc2 on the LAPACK factors against ?gesc2.
        allocate(rx, source=r0)
        allocate(sc(batch))
        sc = -1.0_dp
        errmsg = ""
        call ng_gesc2(h, prec, fref, rx, ipr, jpr, sc, status, errmsg)
        call check(status == NUMGPU_SUCCESS, trim(what) // ": gesc2 status " // itoa(int(status)) // " " // trim(errmsg))
        worst = 0.0_dp
        bad = 0
        do i = 1, batch
            if (.not. (abs(sc(i) - scref(i)) <= tol * real(n, dp) * eps * scref(i))) bad = bad + 1
            q = gesc2_ratio(fref(:, :, i), jpr(:, i), rx(:, i), rref(:, i), eps)
            if (.not. (q <= worst)) worst = q
        end do
        write(msg, '(a,i0,a,g0.3)') ": gesc2 against ?gesc2: ", bad, " scales differ, worst x ratio ", worst
        call check(bad == 0 .and. worst <= tol, trim(what) // trim(msg))

        ! getrs N, T, C on numgpu's factors, where info = 0.
        do t = NUMGPU_OP_N, NUMGPU_OP_C
            allocate(x, source=b0)
            errmsg = ""
            call ng_getrs(h, prec, t, f, ipiv, jpiv, x, status, errmsg)
            worst = 0.0_dp
            do i = 1, batch
                if (info(i) /= 0) cycle
                q = residual(a0(:, :, i), b0(:, :, i), x(:, :, i), t, eps)
                if (.not. (q <= worst)) worst = q
            end do
            write(msg, '(3a,i0,a,g0.3,1x,a)') ": getrs trans ", opc(t + 1:t + 1), " status ", status, &
                ", worst residual ", worst, trim(errmsg)
            call check(status == NUMGPU_SUCCESS .and. worst <= tol, trim(what) // trim(msg))
            deallocate(x)
        end do

        ! gesv: residual where info = 0, B unchanged where info > 0 (rank r: info = r + 1).
        allocate(g, source=a0)
        allocate(x, source=b0)
        ipiv = -99
        jpiv = -99
        info = -99
        errmsg = ""
        call ng_gesv(h, prec, g, ipiv, jpiv, x, info, status, errmsg)
        worst = 0.0_dp
        bad = 0
        do i = 1, batch
            if (cls == 3 .and. info(i) /= n / 2 + 1) bad = bad + 1
            if (cls == 1 .and. info(i) /= 0) bad = bad + 1
            if (info(i) > 0) then
                if (any(x(:, :, i) /= b0(:, :, i))) bad = bad + 1
            else
                q = residual(a0(:, :, i), b0(:, :, i), x(:, :, i), NUMGPU_OP_N, eps)
                if (.not. (q <= worst)) worst = q
            end if
        end do
        write(msg, '(a,i0,a,i0,a,g0.3,1x,a)') ": gesv status ", status, ", ", bad, &
            " matrices with a wrong info or a modified singular B, worst residual ", worst, trim(errmsg)
        call check(status == NUMGPU_SUCCESS .and. bad == 0 .and. worst <= tol, trim(what) // trim(msg))
    end subroutine

    subroutine sweep(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, parameter :: sizes(10) = [1, 2, 3, 7, 8, 16, 31, 32, 33, 64], batches(3) = [1, 3, 37]
        integer :: prec, s, cls, counter
        counter = 0
        do prec = 1, 4
            do cls = 1, 3
                do s = 1, size(sizes)
                    counter = counter + 1
                    call run_case(h, hname, prec, sizes(s), batches(mod(counter, 3) + 1), cls)
                end do
            end do
        end do
    end subroutine

    ! Shapes that do not conform are refused by the wrappers before any call, and numgpu's own
    ! checks come back through them; nothing is written either way.
    subroutine shape_checks(h)
        type(c_ptr), intent(in) :: h
        real(c_double) :: a(4, 4, 2), a0(4, 4, 2), b(4, 3, 2), rhs(3, 2), sc(2)
        complex(c_float_complex) :: ac(3, 4, 2), ac0(3, 4, 2)
        integer(c_int32_t) :: ipiv(4, 2), jpiv(4, 2), info(2), ip_bad(4, 3), info_bad(3)
        integer(c_int32_t) :: status
        character(len=256) :: errmsg
        character(len=*), parameter :: want = "numgpu_dgetrf_batched_fullpivot_strided: argument 10 (mode = 7)"
        call random_number(a)
        a0 = a
        b = 1.0_dp
        rhs = 2.0_dp
        sc = 3.0_dp
        ipiv = -5
        jpiv = -5
        info = -5
        ip_bad = -5
        info_bad = -5

        errmsg = ""
        call numgpu_getrf_batched_fullpivot(h, a, ip_bad, jpiv, info, NUMGPU_FULLPIVOT_GETC2, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "ipiv is 4 x 3") > 0 .and. all(a == a0) .and. &
            all(ip_bad == -5) .and. all(info == -5), "wrapper refuses ipiv of the wrong shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_getrf_batched_fullpivot(h, a, ipiv, jpiv, info_bad, NUMGPU_FULLPIVOT_STRICT, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(a == a0) .and. &
            all(ipiv == -5), "wrapper refuses info of the wrong size: " // trim(errmsg))
        errmsg = ""
        call numgpu_gesc2_batched(h, a, rhs, ipiv, jpiv, sc, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_gesc2_batched: shapes do not conform: rhs") &
            == 1 .and. all(rhs == 2.0_dp) .and. all(sc == 3.0_dp), "wrapper refuses rhs that is not n x batch: " &
            // trim(errmsg))
        errmsg = ""
        call numgpu_gesv_batched_fullpivot(h, a, ipiv, jpiv, b(:, :, 1:1), info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(B, 3)") > 0 .and. all(a == a0) .and. &
            all(b == 1.0_dp), "wrapper refuses a batch of B that differs from A's: " // trim(errmsg))

        ! A mode out of range goes to numgpu, which names argument 10 of the strided form.
        errmsg = ""
        call numgpu_getrf_batched_fullpivot(h, a, ipiv, jpiv, info, 7_c_int32_t, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 10 .and. index(errmsg, want) == 1 &
            .and. all(a == a0) .and. all(ipiv == -5) .and. all(jpiv == -5) .and. all(info == -5), &
            "mode = 7 is refused by numgpu with argument 10: " // trim(errmsg))
        ! lda < n (n = size(A, 2) = 4, lda = size(A, 1) = 3): numgpu names argument 4.
        ac = (1.0_c_float, 2.0_c_float)
        ac0 = ac
        errmsg = ""
        call numgpu_getrf_batched_fullpivot(h, ac, ipiv, jpiv, info, NUMGPU_FULLPIVOT_GETC2, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 4 .and. all(ac == ac0) .and. &
            all(ipiv == -5), "lda = 3 < n = 4 is refused by numgpu with argument 4: " // trim(errmsg))
        ! Without errmsg the status still tells.
        call numgpu_getrf_batched_fullpivot(h, a, ip_bad, jpiv, info, NUMGPU_FULLPIVOT_GETC2, status)
        call check(status == NUMGPU_INVALID_VALUE, "wrapper without errmsg returns the status")
    end subroutine

    ! The pointer-array form through its bind(C) interface, against dgetc2.
    subroutine direct_call(h)
        type(c_ptr), intent(in) :: h
        real(c_double), target :: a(5, 5, 3)
        real(c_double) :: aref(5, 5, 3)
        type(c_ptr), target :: pa(3)
        integer(c_int32_t), target :: ipiv(5, 3), jpiv(5, 3), info(3)
        integer(c_int32_t) :: ipr(5, 3), jpr(5, 3), infor(3), status
        integer :: i
        call random_number(a)
        aref = a
        do i = 1, 3
            pa(i) = c_loc(a(1, 1, i))
            call dgetc2(5, aref(:, :, i), 5, ipr(:, i), jpr(:, i), infor(i))
        end do
        status = numgpu_dgetrf_batched_fullpivot(h, 5_c_int64_t, c_loc(pa), 5_c_int64_t, c_loc(ipiv), c_loc(jpiv), &
            c_loc(info), 3_c_int64_t, NUMGPU_FULLPIVOT_GETC2)
        if (status == NUMGPU_SUCCESS) status = numgpu_synchronize(h)
        call check(status == NUMGPU_SUCCESS, "numgpu_dgetrf_batched_fullpivot with c_ptr arrays: " // &
            numgpu_last_error_string())
        call check(all(ipiv == ipr) .and. all(jpiv == jpr) .and. all(info == infor) .and. &
            maxval(abs(a - aref)) <= 100 * epsilon(1.0_dp), "numgpu_dgetrf_batched_fullpivot matches dgetc2")
    end subroutine

end program test_getrf_f
