! test_getrf_f: numgpu's batched LU with complete pivoting from Fortran through `use numgpu`, in
! every precision (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - The generic wrappers on a batch of random matrices, against LAPACK's ?getc2 / ?gesc2
!   called from Fortran on the same matrices (the drop-in comparison):
!   numgpu_getrf_fullpivot_batched (mode GETC2): ipiv, jpiv, info identical, the factors within
!   30 n eps; numgpu_gesc2_batched on LAPACK's factors: the scale within 30 n eps of LAPACK's
!   and A x = scale b to 30 n eps; numgpu_getrs_fullpivot_batched (N, T, C, and one
!   factorisation shared by the batch: size(A, 3) = 1) and numgpu_gesv_fullpivot_batched:
!   ||b - op(A) x||_1 <= 30 n eps ||op(A)||_1 ||x||_1. The matrix classes, sizes and numerics
!   are tests/integration/getrf_fullpivot.rs's.
! - The wrappers' shape checks (ipiv, info, rhs, a batch of B), numgpu's own checks through a
!   wrapper (mode = 7: argument 2; lda < n: argument 5) and status without errmsg, all
!   writing nothing.
! - The bind(C) interfaces: the pointer-array form with an array of c_ptr against ?getc2, the
!   strided form on numgpu_malloc memory against the wrapper.
!
! Prints "test_getrf_f: N passed, M failed" and stops with code 1 on any failure.
program test_getrf_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    ! LAPACK (OpenBLAS), the reference.
    interface
!@ template s d c z
        subroutine {p}getc2(n, a, lda, ipiv, jpiv, info)
            import
            integer, intent(in) :: n, lda
            {type}, intent(inout) :: a(lda, *)
            integer, intent(out) :: ipiv(*), jpiv(*), info
        end subroutine
        subroutine {p}gesc2(n, a, lda, rhs, ipiv, jpiv, scale)
            import
            integer, intent(in) :: n, lda, ipiv(*), jpiv(*)
            {type}, intent(in) :: a(lda, *)
            {type}, intent(inout) :: rhs(*)
            {real}, intent(out) :: scale
        end subroutine
!@ end
    end interface

    integer, parameter :: n = 7, batch = 3, nrhs = 2
    real(c_double), parameter :: tol = 30
    type(c_ptr) :: h

    h = start("test_getrf_f")
!@ template s d c z
    call wrappers_{p}(h)
    call wrapper_errors_{p}(h)
    call bind_c_{p}(h)
!@ end
    call finish(h)

contains

    ! max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 n eps)
    real(c_double) function residual(a, b, x, t, eps) result(worst)
        complex(c_double), intent(in) :: a(:,:), b(:,:), x(:,:)
        integer(c_int32_t), intent(in) :: t
        real(c_double), intent(in) :: eps
        complex(c_double), allocatable :: oa(:,:), r(:,:)
        integer :: j
        select case (t)
        case (NUMGPU_OP_N)
            allocate(oa, source=a)
        case (NUMGPU_OP_T)
            allocate(oa, source=transpose(a))
        case default
            allocate(oa, source=conjg(transpose(a)))
        end select
        allocate(r, source=b - matmul(oa, x))
        worst = 0
        do j = 1, size(b, 2)
            worst = max(worst, ratio(sum(abs(r(:, j))), maxval(sum(abs(oa), 1)) * sum(abs(x(:, j))) * size(a, 1) * eps))
        end do
    end function

!@ template s d c z
    ! The four wrappers in {type} against LAPACK and against residuals.
    subroutine wrappers_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a0(n, n, batch), f(n, n, batch), fref(n, n, batch), b0(n, nrhs, batch), x(n, nrhs, batch)
        {type} :: r0(n, batch), r(n, batch), g(n, n, batch)
        {real} :: scale(batch), scref(batch)
        integer(c_int32_t) :: ipiv(n, batch), jpiv(n, batch), info(batch), ipr(n, batch), jpr(n, batch), infor(batch)
        integer(c_int32_t) :: status, t
        character(len=200) :: errmsg
        real(c_double) :: eps, worst
        integer :: i
        eps = epsilon(real(1, {kind}))
        a0 = reshape(to_{p}(random_z(size(a0))), shape(a0))
        b0 = reshape(to_{p}(random_z(size(b0))), shape(b0))
        r0 = reshape(to_{p}(random_z(size(r0))), shape(r0))
        fref = a0
        do i = 1, batch
            call {p}getc2(n, fref(:, :, i), n, ipr(:, i), jpr(:, i), infor(i))
            r(:, i) = r0(:, i)
            call {p}gesc2(n, fref(:, :, i), n, r(:, i), ipr(:, i), jpr(:, i), scref(i))
        end do

        f = a0
        ipiv = -99
        jpiv = -99
        info = -99
        errmsg = ""
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, f, ipiv, jpiv, info, status, errmsg)
        call check(status == NUMGPU_SUCCESS .and. all(ipiv == ipr) .and. all(jpiv == jpr) .and. all(info == infor), &
            "numgpu_getrf_fullpivot_batched ({p}): status, ipiv, jpiv and info as ?getc2's " // trim(errmsg))
        call check(sqrt(sum(abs(f - fref)**2)) <= tol * n * eps * sqrt(sum(abs(fref)**2)), &
            "numgpu_getrf_fullpivot_batched ({p}): the factors of ?getc2")

        r = r0
        errmsg = ""
        call numgpu_gesc2_batched(h, fref, r, ipr, jpr, scale, status, errmsg)
        worst = 0
        do i = 1, batch
            worst = max(worst, residual(cmplx(a0(:, :, i), kind=c_double), cmplx(scale(i) * r0(:, i:i), kind=c_double), &
                cmplx(r(:, i:i), kind=c_double), NUMGPU_OP_N, eps))
        end do
        call check(status == NUMGPU_SUCCESS .and. all(abs(scale - scref) <= tol * n * eps * scref) .and. worst <= tol, &
            "numgpu_gesc2_batched ({p}): the scales of ?gesc2, A x = scale b " // trim(errmsg))

        do t = NUMGPU_OP_N, NUMGPU_OP_C
            x = b0
            call numgpu_getrs_fullpivot_batched(h, t, f, ipiv, jpiv, x, status, errmsg)
            worst = 0
            do i = 1, batch
                worst = max(worst, residual(cmplx(a0(:, :, i), kind=c_double), cmplx(b0(:, :, i), kind=c_double), &
                    cmplx(x(:, :, i), kind=c_double), t, eps))
            end do
            call check(status == NUMGPU_SUCCESS .and. worst <= tol, "numgpu_getrs_fullpivot_batched ({p}), trans " // &
                itoa(int(t)) // ": residual")
        end do
        ! One factorisation for the whole batch: size(A, 3) = 1 (and its pivots in every column).
        x = b0
        call numgpu_getrs_fullpivot_batched(h, NUMGPU_OP_N, f(:, :, 1:1), spread(ipiv(:, 1), 2, batch), &
            spread(jpiv(:, 1), 2, batch), x, status, errmsg)
        worst = 0
        do i = 1, batch
            worst = max(worst, residual(cmplx(a0(:, :, 1), kind=c_double), cmplx(b0(:, :, i), kind=c_double), &
                cmplx(x(:, :, i), kind=c_double), NUMGPU_OP_N, eps))
        end do
        call check(status == NUMGPU_SUCCESS .and. worst <= tol, "numgpu_getrs_fullpivot_batched ({p}), shared A")

        g = a0
        x = b0
        info = -99
        call numgpu_gesv_fullpivot_batched(h, g, ipiv, jpiv, x, info, status, errmsg)
        worst = 0
        do i = 1, batch
            worst = max(worst, residual(cmplx(a0(:, :, i), kind=c_double), cmplx(b0(:, :, i), kind=c_double), &
                cmplx(x(:, :, i), kind=c_double), NUMGPU_OP_N, eps))
        end do
        call check(status == NUMGPU_SUCCESS .and. all(info == 0) .and. worst <= tol, &
            "numgpu_gesv_fullpivot_batched ({p}): info 0 and the residual")
    end subroutine

    ! Shapes that do not conform are refused before any call, numgpu's own checks come back
    ! through the wrappers; nothing is written either way.
    subroutine wrapper_errors_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a(4, 4, 2), a0(4, 4, 2), b(4, 3, 2), rhs(3, 2), wide(3, 4, 2), wide0(3, 4, 2)
        {real} :: sc(2)
        integer(c_int32_t) :: ipiv(4, 2), jpiv(4, 2), info(2), ip_bad(4, 3), info_bad(3), status
        character(len=256) :: errmsg
        a = reshape(to_{p}(random_z(size(a))), shape(a))
        a0 = a
        b = 1
        rhs = 2
        sc = 3
        ipiv = -5
        jpiv = -5
        info = -5
        ip_bad = -5
        info_bad = -5
        errmsg = ""
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, a, ip_bad, jpiv, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_getrf_fullpivot_batched: shapes do not " // &
            "conform: ipiv is 4 x 3") == 1 .and. all(a == a0) .and. all(ip_bad == -5) .and. all(info == -5), &
            "{p}: wrapper refuses ipiv of the wrong shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_STRICT, a, ipiv, jpiv, info_bad, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(a == a0) .and. &
            all(ipiv == -5), "{p}: wrapper refuses info of the wrong size: " // trim(errmsg))
        errmsg = ""
        call numgpu_gesc2_batched(h, a, rhs, ipiv, jpiv, sc, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_gesc2_batched: shapes do not conform: rhs") &
            == 1 .and. all(rhs == 2) .and. all(sc == 3), "{p}: wrapper refuses rhs that is not n x batch: " // trim(errmsg))
        errmsg = ""
        call numgpu_gesv_fullpivot_batched(h, a, ipiv, jpiv, b(:, :, 1:1), info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(B, 3)") > 0 .and. all(a == a0) .and. &
            all(b == 1), "{p}: wrapper refuses a batch of B that differs from A's: " // trim(errmsg))
        errmsg = ""
        call numgpu_getrs_fullpivot_batched(h, NUMGPU_OP_N, a, ipiv, jpiv, b(:, :, 1:1), status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(A, 3) must be 1 or the batch size 1") > 0 &
            .and. all(b == 1), "{p}: getrs wrapper refuses a batch of A that is neither 1 nor B's: " // trim(errmsg))
        errmsg = ""
        call numgpu_getrf_fullpivot_batched(h, 7_c_int32_t, a, ipiv, jpiv, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. index(errmsg, &
            "numgpu_{p}getrf_fullpivot_batched_strided: argument 2 (mode = 7)") == 1 .and. all(a == a0) .and. &
            all(ipiv == -5) .and. all(jpiv == -5) .and. all(info == -5), "{p}: mode = 7 is refused with argument 2: " &
            // trim(errmsg))
        wide = a(1:3, :, :)
        wide0 = wide
        errmsg = ""
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, wide, ipiv, jpiv, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 5 .and. all(wide == wide0) .and. &
            all(ipiv == -5), "{p}: lda = 3 < n = 4 is refused by numgpu with argument 5: " // trim(errmsg))
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, a, ip_bad, jpiv, info, status)
        call check(status == NUMGPU_INVALID_VALUE, "{p}: wrapper without errmsg returns the status")
    end subroutine

    ! The pointer-array form with an array of c_ptr against ?getc2, and the strided form on
    ! numgpu_malloc memory against the wrapper.
    subroutine bind_c_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: a0(5, 5, 3), a(5, 5, 3), aref(5, 5, 3), aw(5, 5, 3)
        type(c_ptr), target :: pa(3)
        integer(c_int32_t), target :: ipiv(5, 3), jpiv(5, 3), info(3), ipr(5, 3), jpr(5, 3), infor(3)
        integer(c_int32_t) :: ipw(5, 3), jpw(5, 3), infow(3), status
        type(c_ptr) :: dev(4)
        integer :: i
        a0 = reshape(to_{p}(random_z(size(a0))), shape(a0))
        a = a0
        aref = a0
        do i = 1, 3
            pa(i) = c_loc(a(1, 1, i))
            call {p}getc2(5, aref(:, :, i), 5, ipr(:, i), jpr(:, i), infor(i))
        end do
        status = numgpu_{p}getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, 5_c_int64_t, c_loc(pa), 5_c_int64_t, &
            c_loc(ipiv), c_loc(jpiv), c_loc(info), 3_c_int64_t)
        call check(status == NUMGPU_SUCCESS .and. all(ipiv == ipr) .and. all(jpiv == jpr) .and. all(info == infor) .and. &
            maxval(abs(a - aref)) <= tol * 5 * epsilon(real(1, {kind})) * maxval(abs(aref)), &
            "numgpu_{p}getrf_fullpivot_batched with arrays of c_ptr against ?getc2")

        aw = a0
        call numgpu_getrf_fullpivot_batched(h, NUMGPU_FULLPIVOT_GETC2, aw, ipw, jpw, infow, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_getrf_fullpivot_batched ({p}) beside the bind(C) calls")
        a = a0
        dev = [on_device(h, c_loc(a), c_sizeof(a)), on_device(h, c_loc(ipiv), c_sizeof(ipiv)), &
            on_device(h, c_loc(jpiv), c_sizeof(jpiv)), on_device(h, c_loc(info), c_sizeof(info))]
        status = numgpu_{p}getrf_fullpivot_batched_strided(h, NUMGPU_FULLPIVOT_GETC2, 5_c_int64_t, dev(1), 5_c_int64_t, &
            25_c_int64_t, dev(2), dev(3), dev(4), 3_c_int64_t)
        call check(status == NUMGPU_SUCCESS, "numgpu_{p}getrf_fullpivot_batched_strided on numgpu_malloc memory")
        call to_host(h, c_loc(a), dev(1), c_sizeof(a))
        call to_host(h, c_loc(ipiv), dev(2), c_sizeof(ipiv))
        call to_host(h, c_loc(jpiv), dev(3), c_sizeof(jpiv))
        call to_host(h, c_loc(info), dev(4), c_sizeof(info))
        call free_device(h, dev)
        call check(all(a == aw) .and. all(ipiv == ipw) .and. all(jpiv == jpw) .and. all(info == infow), &
            "numgpu_{p}getrf_fullpivot_batched_strided on numgpu_malloc memory gives the wrapper's factors")
    end subroutine
!@ end

end program test_getrf_f
