! test_geqrf_f: numgpu's batched QR by Givens rotations from Fortran through `use numgpu`, in
! every precision (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - The generic wrappers on a batch of random 7 x 4 matrices: numgpu_geqrf_givens_batched
!   (CS written below the diagonal only), numgpu_orgqr_givens_batched (A = Q R and Q^H Q = I
!   to 30 m eps), numgpu_ormqr_givens_batched (Q^H A = [R; 0] from the left, A^H Q = [R^H 0]
!   from the right, and one factorisation shared by the batch: size(A, 3) = 1), and
!   numgpu_gels_givens_batched against LAPACK's ?gels called from Fortran on the same
!   matrices (the drop-in comparison): x within the least-squares perturbation bound of
!   LAPACK's. Matrix classes, shapes and numerics are tests/integration/geqrf_givens.rs's.
! - The wrappers' shape checks (CS, info, a batch of B, ormqr's CS against A, orgqr's CS
!   batch), numgpu's own checks through a wrapper (side = 5: argument 2; trans C for real and
!   T for complex kinds: argument 3; n > m: argument 3) and status without errmsg, all
!   writing nothing.
! - The bind(C) interfaces: the pointer-array form with arrays of c_ptr and the strided form on
!   numgpu_malloc memory, both bitwise the wrapper's factors (one implementation).
!
! Prints "test_geqrf_f: N passed, M failed" and stops with code 1 on any failure.
program test_geqrf_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    ! LAPACK (OpenBLAS), the reference.
    interface
!@ template s d c z
        subroutine {p}gels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info)
            import
            character, intent(in) :: trans
            integer, intent(in) :: m, n, nrhs, lda, ldb, lwork
            {type}, intent(inout) :: a(lda, *), b(ldb, *)
            {type}, intent(out) :: work(*)
            integer, intent(out) :: info
        end subroutine
!@ end
    end interface

    integer, parameter :: m = 7, n = 4, batch = 3, nrhs = 2
    real(c_double), parameter :: tol = 30
    type(c_ptr) :: h

    h = start("test_geqrf_f")
!@ template s d c z
    call wrappers_{p}(h)
    call wrapper_errors_{p}(h)
    call bind_c_{p}(h)
!@ end
    call finish(h)

contains

    real(c_double) function fro(x)
        complex(c_double), intent(in) :: x(:,:)
        fro = sqrt(sum(abs(x)**2))
    end function

    ! The upper triangle of the first n rows of f, with m - n zero rows below when `rows` = m.
    function upper(f, rows) result(r)
        complex(c_double), intent(in) :: f(:,:)
        integer, intent(in) :: rows
        complex(c_double) :: r(rows, size(f, 2))
        integer :: i, j
        do j = 1, size(f, 2)
            do i = 1, rows
                r(i, j) = merge(f(i, j), (0.0_c_double, 0.0_c_double), i <= j)
            end do
        end do
    end function

    ! ||R||_F ||R^-1||_F of the upper triangular n x n r (its inverse by back substitution).
    real(c_double) function kappa_f(r)
        complex(c_double), intent(in) :: r(:,:)
        complex(c_double) :: x(size(r, 1), size(r, 1))
        integer :: i, j
        x = 0
        do j = 1, size(r, 1)
            x(j, j) = 1 / r(j, j)
            do i = j - 1, 1, -1
                x(i, j) = -sum(r(i, i + 1:j) * x(i + 1:j, j)) / r(i, i)
            end do
        end do
        kappa_f = fro(r) * fro(x)
    end function

    ! Whether x, y are the same to tol m eps (relative to y, Frobenius).
    logical function near(x, y, eps)
        complex(c_double), intent(in) :: x(:,:), y(:,:)
        real(c_double), intent(in) :: eps
        near = fro(x - y) <= tol * m * eps * max(fro(y), 1.0_c_double)
    end function

!@ template s d c z
    ! The four wrappers in {type}.
    subroutine wrappers_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a0(m, n, batch), f(m, n, batch), q(m, n, batch), c(m, n, batch), cr(n, m, batch)
        {type} :: g(m, n, batch), b0(m, nrhs, batch), x(m, nrhs, batch), la(m, n), lb(m, nrhs), work(64)
        {real} :: cs(m, n, batch)
        integer(c_int32_t) :: info(batch), status, adjoint
        complex(c_double) :: eye(n, n)
        character(len=200) :: errmsg
        real(c_double) :: eps, an, xn, bn, rn, kap
        logical :: ok
        integer :: i, j, linfo
        eps = epsilon(real(1, {kind}))
        a0 = reshape(to_{p}(random_z(size(a0))), shape(a0))
        adjoint = merge(NUMGPU_OP_C, NUMGPU_OP_T, storage_size(a0) > storage_size(real(a0, kind(a0))))
        b0 = reshape(to_{p}(random_z(size(b0))), shape(b0))

        f = a0
        cs = -1
        errmsg = ""
        call numgpu_geqrf_givens_batched(h, f, cs, status, errmsg)
        ok = .true.
        do j = 1, n
            ok = ok .and. all(cs(1:j, j, :) == -1) .and. all(cs(j + 1:, j, :) >= 0 .and. cs(j + 1:, j, :) <= 1)
        end do
        call check(status == NUMGPU_SUCCESS .and. ok, "numgpu_geqrf_givens_batched ({p}): cosines in [0, 1] below the " // &
            "diagonal only " // trim(errmsg))

        q = f
        call numgpu_orgqr_givens_batched(h, q, cs, status, errmsg)
        eye = 0
        do j = 1, n
            eye(j, j) = 1
        end do
        ok = status == NUMGPU_SUCCESS
        do i = 1, batch
            ok = ok .and. near(matmul(cmplx(q(:, :, i), kind=c_double), upper(cmplx(f(:, :, i), kind=c_double), n)), &
                cmplx(a0(:, :, i), kind=c_double), eps) .and. near(matmul(conjg(transpose(cmplx(q(:, :, i), &
                kind=c_double))), cmplx(q(:, :, i), kind=c_double)), eye, eps)
        end do
        call check(ok, "numgpu_orgqr_givens_batched ({p}): A = Q R, Q^H Q = I")

        c = a0
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, adjoint, f, cs, c, status, errmsg)
        ok = status == NUMGPU_SUCCESS
        do i = 1, batch
            ok = ok .and. near(cmplx(c(:, :, i), kind=c_double), upper(cmplx(f(:, :, i), kind=c_double), m), eps)
            cr(:, :, i) = to_{p}(conjg(transpose(cmplx(a0(:, :, i), kind=c_double))))
        end do
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_RIGHT, NUMGPU_OP_N, f, cs, cr, status, errmsg)
        do i = 1, batch
            ok = ok .and. status == NUMGPU_SUCCESS .and. near(cmplx(cr(:, :, i), kind=c_double), &
                conjg(transpose(upper(cmplx(f(:, :, i), kind=c_double), m))), eps)
        end do
        c = spread(a0(:, :, 1), 3, batch)
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, adjoint, f(:, :, 1:1), cs(:, :, 1:1), c, status, errmsg)
        do i = 1, batch
            ok = ok .and. status == NUMGPU_SUCCESS .and. near(cmplx(c(:, :, i), kind=c_double), &
                upper(cmplx(f(:, :, 1), kind=c_double), m), eps)
        end do
        call check(ok, "numgpu_ormqr_givens_batched ({p}): Q^H A = [R; 0], A^H Q = [R^H 0], one Q for the batch")

        g = a0
        x = b0
        info = -99
        call numgpu_gels_givens_batched(h, g, x, info, status, errmsg)
        ok = status == NUMGPU_SUCCESS .and. all(info == 0)
        do i = 1, batch
            la = a0(:, :, i)
            lb = b0(:, :, i)
            call {p}gels("N", m, n, nrhs, la, m, lb, m, work, size(work), linfo)
            an = fro(cmplx(a0(:, :, i), kind=c_double))
            kap = kappa_f(upper(cmplx(la, kind=c_double), n))
            do j = 1, nrhs
                xn = sqrt(sum(abs(x(1:n, j, i))**2))
                bn = sqrt(sum(abs(b0(:, j, i))**2))
                rn = sqrt(sum(abs(b0(:, j, i) - matmul(a0(:, :, i), x(1:n, j, i)))**2))
                ok = ok .and. linfo == 0 .and. sqrt(sum(abs(x(1:n, j, i) - lb(1:n, j))**2)) <= &
                    tol * m * eps * kap * (xn + bn / an + kap * rn / an)
            end do
        end do
        call check(ok, "numgpu_gels_givens_batched ({p}) against ?gels")
    end subroutine

    ! Shapes that do not conform are refused before any call, numgpu's own checks come back
    ! through the wrappers; nothing is written either way.
    subroutine wrapper_errors_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a(4, 3, 2), a0(4, 3, 2), b(4, 2, 2), b1(4, 2, 1), c(4, 2, 2), c0(4, 2, 2), wide(2, 3, 1)
        {real} :: cs(4, 3, 2), cs_bad(4, 2, 2), cs1(4, 3, 1), cs_wide(2, 3, 1)
        integer(c_int32_t) :: info(2), info_bad(3), status, wrong
        character(len=256) :: errmsg
        a = reshape(to_{p}(random_z(size(a))), shape(a))
        a0 = a
        cs = 0.5
        cs_bad = 0.5
        cs1 = 0.5
        b = 1
        b1 = 1
        c = 2
        c0 = c
        info = -5
        info_bad = -5
        wrong = merge(NUMGPU_OP_T, NUMGPU_OP_C, storage_size(a) > storage_size(real(a, kind(a))))
        errmsg = ""
        call numgpu_geqrf_givens_batched(h, a, cs_bad, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, &
            "numgpu_geqrf_givens_batched: shapes do not conform: CS is 4 x 2 x 2") == 1 .and. all(a == a0) .and. &
            all(cs_bad == 0.5), "{p}: wrapper refuses CS of the wrong shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gels_givens_batched(h, a, b, info_bad, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(a == a0) .and. &
            all(b == 1) .and. all(info_bad == -5), "{p}: wrapper refuses info of the wrong size: " // trim(errmsg))
        errmsg = ""
        call numgpu_gels_givens_batched(h, a, b1, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(B, 3)") > 0 .and. all(a == a0) .and. &
            all(b1 == 1) .and. all(info == -5), "{p}: wrapper refuses a batch of B that differs from A's: " // trim(errmsg))
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, NUMGPU_OP_N, a, cs_bad, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_ormqr_givens_batched: shapes do not") == 1 &
            .and. all(c == c0), "{p}: ormqr wrapper refuses CS that does not match A: " // trim(errmsg))
        errmsg = ""
        call numgpu_orgqr_givens_batched(h, a, cs1, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(CS, 3)") > 0 .and. all(a == a0), &
            "{p}: orgqr wrapper refuses CS of another batch: " // trim(errmsg))
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, 5_c_int32_t, NUMGPU_OP_N, a, cs, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. index(errmsg, &
            "numgpu_{p}{or}mqr_givens_batched_strided: argument 2 (side = 5)") == 1 .and. all(c == c0), &
            "{p}: side = 5 is refused by numgpu with argument 2: " // trim(errmsg))
        errmsg = ""
        call numgpu_ormqr_givens_batched(h, NUMGPU_SIDE_LEFT, wrong, a, cs, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. index(errmsg, &
            "numgpu_{p}{or}mqr_givens_batched_strided: argument 3 (trans = NUMGPU_OP_") == 1 .and. all(c == c0) .and. &
            all(a == a0), "{p}: the other kind's adjoint is refused with argument 3: " // trim(errmsg))
        wide = 1
        cs_wide = 0.5
        errmsg = ""
        call numgpu_geqrf_givens_batched(h, wide, cs_wide, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. index(errmsg, &
            "(n = 3) must be <= m = 2") > 0 .and. all(wide == 1) .and. all(cs_wide == 0.5), &
            "{p}: n > m is refused by numgpu with argument 3: " // trim(errmsg))
        call numgpu_geqrf_givens_batched(h, a, cs_bad, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(a == a0), "{p}: wrapper without errmsg returns the status")
    end subroutine

    ! The pointer-array form with arrays of c_ptr and the strided form on numgpu_malloc memory
    ! give the wrapper's factors.
    subroutine bind_c_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: a0(6, 4, 3), a(6, 4, 3), aw(6, 4, 3)
        {real}, target :: cs(6, 4, 3), csw(6, 4, 3)
        type(c_ptr), target :: pa(3), pcs(3)
        type(c_ptr) :: dev(2)
        integer(c_int32_t) :: status
        integer :: i
        a0 = reshape(to_{p}(random_z(size(a0))), shape(a0))
        aw = a0
        csw = -1
        call numgpu_geqrf_givens_batched(h, aw, csw, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_geqrf_givens_batched ({p}) beside the bind(C) calls")
        a = a0
        cs = -1
        do i = 1, 3
            pa(i) = c_loc(a(1, 1, i))
            pcs(i) = c_loc(cs(1, 1, i))
        end do
        status = numgpu_{p}geqrf_givens_batched(h, 6_c_int64_t, 4_c_int64_t, c_loc(pa), 6_c_int64_t, c_loc(pcs), &
            6_c_int64_t, 3_c_int64_t)
        call check(status == NUMGPU_SUCCESS .and. all(a == aw) .and. all(cs == csw), &
            "numgpu_{p}geqrf_givens_batched with arrays of c_ptr gives the wrapper's factors")
        a = a0
        cs = -1
        dev = [on_device(h, c_loc(a), c_sizeof(a)), on_device(h, c_loc(cs), c_sizeof(cs))]
        status = numgpu_{p}geqrf_givens_batched_strided(h, 6_c_int64_t, 4_c_int64_t, dev(1), 6_c_int64_t, 24_c_int64_t, &
            dev(2), 6_c_int64_t, 24_c_int64_t, 3_c_int64_t)
        call check(status == NUMGPU_SUCCESS, "numgpu_{p}geqrf_givens_batched_strided on numgpu_malloc memory")
        call to_host(h, c_loc(a), dev(1), c_sizeof(a))
        call to_host(h, c_loc(cs), dev(2), c_sizeof(cs))
        call free_device(h, dev)
        call check(all(a == aw) .and. all(cs == csw), &
            "numgpu_{p}geqrf_givens_batched_strided on numgpu_malloc memory gives the wrapper's factors")
    end subroutine
!@ end

end program test_geqrf_f
