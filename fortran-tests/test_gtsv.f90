! test_gtsv_f: numgpu's tridiagonal solvers from Fortran through `use numgpu`, in every
! precision (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - The generic wrappers on diagonally dominant systems of order 33, both pivoting modes,
!   against LAPACK's ?gtsv called from Fortran on copies of the same systems (the drop-in
!   comparison): info 0, X within 30 n eps of LAPACK's. numgpu_gtsv_spike with B of leading
!   dimension n + 1, numgpu_gtsv_batched_strided on (n, batch) diagonals (row n of dl and du
!   unused) and with one T for the batch (size(d, 2) = 1), numgpu_gtsv_batched_interleaved on
!   (batch, n) arrays (dl and du (batch, n - 1): LAPACK's diagonals in every form); the
!   diagonals and B's padding row come back unchanged. Singular,
!   non-dominant and ill-conditioned systems and the orders SPIKE partitions are
!   tests/integration/gtsv_spike.rs's.
! - The wrappers' shape checks (size(dl), the diagonals' shapes, size(info), B's shape),
!   numgpu's own checks through a wrapper (pivoting out of range: argument 2; ldb < n:
!   argument 9) and status without errmsg, all writing nothing.
! - The bind(C) interface of the interleaved form on numgpu_malloc memory, against the wrapper.
!
! Prints "test_gtsv_f: N passed, M failed" and stops with code 1 on any failure.
program test_gtsv_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    ! LAPACK (OpenBLAS), the reference.
    interface
!@ template s d c z
        subroutine {p}gtsv(n, nrhs, dl, d, du, b, ldb, info)
            import
            integer, intent(in) :: n, nrhs, ldb
            {type}, intent(inout) :: dl(*), d(*), du(*), b(ldb, *)
            integer, intent(out) :: info
        end subroutine
!@ end
    end interface

    integer, parameter :: n = 33, nrhs = 3, nb = 3
    real(c_double), parameter :: tol = 30
    type(c_ptr) :: h
    integer(c_int32_t) :: piv

    h = start("test_gtsv_f")
    do piv = NUMGPU_GTSV_DIAG_PIVOT, NUMGPU_GTSV_NOPIVOT
!@ template s d c z
        call wrappers_{p}(h, piv)
!@ end
    end do
!@ template s d c z
    call wrapper_errors_{p}(h)
    call bind_c_{p}(h)
!@ end
    call finish(h)

contains

    ! Whether x is y to tol n eps (relative, max norm).
    logical function near(x, y, eps)
        complex(c_double), intent(in) :: x(:,:), y(:,:)
        real(c_double), intent(in) :: eps
        near = maxval(abs(x - y)) <= tol * n * eps * maxval(abs(y))
    end function

!@ template s d c z
    ! A diagonally dominant system in {type} (|d| >= 4 > |dl| + |du|) and its right-hand sides.
    subroutine system_{p}(dl, d, du, b)
        {type}, intent(out) :: dl(:), d(:), du(:), b(:,:)
        dl = to_{p}(random_z(size(dl)))
        d = to_{p}(random_z(size(d)) + 5)
        du = to_{p}(random_z(size(du)))
        b = reshape(to_{p}(random_z(size(b))), shape(b))
    end subroutine

    ! LAPACK's X for (dl, d, du, b), on copies, in complex(c_double).
    function lapack_{p}(dl, d, du, b) result(x)
        {type}, intent(in) :: dl(:), d(:), du(:), b(:,:)
        complex(c_double) :: x(size(b, 1), size(b, 2))
        {type} :: l(size(dl)), dd(size(d)), u(size(du)), bb(size(b, 1), size(b, 2))
        integer :: info
        l = dl
        dd = d
        u = du
        bb = b
        call {p}gtsv(size(d), size(b, 2), l, dd, u, bb, size(b, 1), info)
        call check(info == 0, "?gtsv ({p}) on a dominant system: info " // itoa(info))
        x = cmplx(bb, kind=c_double)
    end function

    ! The three wrappers in {type} with pivoting mode piv.
    subroutine wrappers_{p}(h, piv)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: piv
        {type} :: dl(n - 1, nb), d(n, nb), du(n - 1, nb), b(n, nrhs, nb), sdl(n, nb), sdu(n, nb), d0(n, nb)
        {type} :: bp(n + 1, nrhs, nb), il(nb, n - 1), id(nb, n), iu(nb, n - 1), ib(nb, n), sentinel
        integer(c_int32_t) :: info1, info(nb), status
        character(len=200) :: errmsg
        character(len=:), allocatable :: what
        real(c_double) :: eps
        logical :: ok
        integer :: i
        eps = epsilon(real(1, {kind}))
        what = " ({p}, pivoting " // itoa(int(piv)) // ")"
        sentinel = 777
        do i = 1, nb
            call system_{p}(dl(:, i), d(:, i), du(:, i), b(:, :, i))
        end do
        d0 = d

        bp = sentinel
        bp(1:n, :, 1) = b(:, :, 1)
        info1 = -7
        errmsg = ""
        call numgpu_gtsv_spike(h, piv, dl(:, 1), d(:, 1), du(:, 1), bp(:, :, 1), info1, status, errmsg)
        call check(status == NUMGPU_SUCCESS .and. info1 == 0 .and. all(d == d0) .and. all(bp(n + 1, :, 1) == sentinel) &
            .and. near(cmplx(bp(1:n, :, 1), kind=c_double), lapack_{p}(dl(:, 1), d(:, 1), du(:, 1), b(:, :, 1)), eps), &
            "numgpu_gtsv_spike" // what // ": X of ?gtsv, diagonals and padding unchanged " // trim(errmsg))

        sdl = sentinel
        sdu = sentinel
        sdl(1:n - 1, :) = dl
        sdu(1:n - 1, :) = du
        bp = sentinel
        bp(1:n, :, :) = b
        info = -7
        call numgpu_gtsv_batched_strided(h, piv, sdl, d, sdu, bp, info, status, errmsg)
        ok = status == NUMGPU_SUCCESS .and. all(info == 0) .and. all(bp(n + 1, :, :) == sentinel) .and. all(d == d0)
        do i = 1, nb
            ok = ok .and. near(cmplx(bp(1:n, :, i), kind=c_double), lapack_{p}(dl(:, i), d(:, i), du(:, i), b(:, :, i)), eps)
        end do
        call check(ok, "numgpu_gtsv_batched_strided" // what // ": X of ?gtsv, padding unchanged " // trim(errmsg))

        bp = sentinel
        bp(1:n, :, :) = b
        call numgpu_gtsv_batched_strided(h, piv, sdl(:, 2:2), d(:, 2:2), sdu(:, 2:2), bp, info, status, errmsg)
        ok = status == NUMGPU_SUCCESS .and. all(info == 0)
        do i = 1, nb
            ok = ok .and. near(cmplx(bp(1:n, :, i), kind=c_double), lapack_{p}(dl(:, 2), d(:, 2), du(:, 2), b(:, :, i)), eps)
        end do
        call check(ok, "numgpu_gtsv_batched_strided" // what // ": one T for the batch")

        do i = 1, nb
            il(i, :) = dl(:, i)
            iu(i, :) = du(:, i)
            id(i, :) = d(:, i)
            ib(i, :) = b(:, 1, i)
        end do
        info = -7
        call numgpu_gtsv_batched_interleaved(h, piv, il, id, iu, ib, info, status, errmsg)
        ok = status == NUMGPU_SUCCESS .and. all(info == 0)
        do i = 1, nb
            ok = ok .and. near(reshape(cmplx(ib(i, :), kind=c_double), [n, 1]), &
                lapack_{p}(dl(:, i), d(:, i), du(:, i), b(:, 1:1, i)), eps)
        end do
        call check(ok, "numgpu_gtsv_batched_interleaved" // what // ": X of ?gtsv " // trim(errmsg))
    end subroutine

    ! Shapes that do not conform are refused before any call, numgpu's own checks come back
    ! through the wrappers; nothing is written either way.
    subroutine wrapper_errors_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: dl(3), d(4), du(3), b(4, 2), b0(4, 2), b3(3, 2), sd(4, 2), sb(4, 1, 2), sb0(4, 1, 2)
        {type} :: id(2, 4), ioff(2, 3), ib(2, 4), ib0(2, 4)
        integer(c_int32_t) :: info, infos(2), status
        character(len=256) :: errmsg
        dl = 1
        du = 1
        d = 4
        b = 2
        b0 = b
        info = -7
        infos = -7
        errmsg = ""
        call numgpu_gtsv_spike(h, NUMGPU_GTSV_DIAG_PIVOT, dl(1:2), d, du, b, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_gtsv_spike: shapes do not conform") == 1 &
            .and. all(b == b0) .and. info == -7, "{p}: spike with size(dl) = n - 2: " // trim(errmsg))
        sd = 4
        sb = 2
        sb0 = sb
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, NUMGPU_GTSV_DIAG_PIVOT, sd(1:3, :), sd, sd, sb, infos, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "shapes do not conform") > 0 .and. &
            all(sb == sb0) .and. all(infos == -7), "{p}: strided with dl of another shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, NUMGPU_GTSV_DIAG_PIVOT, sd, sd, sd, sb, infos(1:1), status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(info)") > 0 .and. all(sb == sb0) .and. &
            infos(1) == -7, "{p}: strided with size(info) = 1: " // trim(errmsg))
        id = 4
        ioff = 1
        ib = 2
        ib0 = ib
        errmsg = ""
        call numgpu_gtsv_batched_interleaved(h, NUMGPU_GTSV_DIAG_PIVOT, ioff, id, ioff, ib(:, 1:3), infos, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "shapes do not conform") > 0 .and. &
            all(ib == ib0) .and. all(infos == -7), "{p}: interleaved with B of another shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_interleaved(h, NUMGPU_GTSV_DIAG_PIVOT, id, id, id, ib, infos, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "(batch x n - 1)") > 0 .and. &
            all(ib == ib0) .and. all(infos == -7), "{p}: interleaved with dl and du of n rows: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_spike(h, 2_c_int32_t, dl, d, du, b, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. all(b == b0) .and. &
            info == -7 .and. index(errmsg, "numgpu_{p}gtsv_spike: argument 2 (pivoting") == 1, &
            "{p}: spike with pivoting 2: " // trim(errmsg))
        b3 = 2
        errmsg = ""
        call numgpu_gtsv_spike(h, NUMGPU_GTSV_NOPIVOT, dl, d, du, b3, info, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 9 .and. all(b3 == 2) .and. &
            info == -7, "{p}: spike with ldb = 3 < n: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_strided(h, -1_c_int32_t, sd, sd, sd, sb, infos, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. all(sb == sb0) .and. &
            all(infos == -7), "{p}: strided with pivoting -1: " // trim(errmsg))
        errmsg = ""
        call numgpu_gtsv_batched_interleaved(h, 5_c_int32_t, ioff, id, ioff, ib, infos, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. all(ib == ib0) .and. &
            all(infos == -7), "{p}: interleaved with pivoting 5: " // trim(errmsg))
        call numgpu_gtsv_spike(h, NUMGPU_GTSV_NOPIVOT, dl(1:2), d, du, b, info, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(b == b0), "{p}: wrapper without errmsg returns the status")
    end subroutine

    ! The interleaved form's bind(C) interface on numgpu_malloc memory gives the wrapper's X.
    subroutine bind_c_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: dl(nb, n - 1), d(nb, n), du(nb, n - 1), b(nb, n), x(nb, n)
        integer(c_int32_t), target :: info(nb), infow(nb)
        integer(c_int32_t) :: status
        type(c_ptr) :: dev(5)
        integer :: i
        do i = 1, nb
            call system_{p}(dl(i, :), d(i, :), du(i, :), b(i:i, :))
        end do
        x = b
        call numgpu_gtsv_batched_interleaved(h, NUMGPU_GTSV_DIAG_PIVOT, dl, d, du, x, infow, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_gtsv_batched_interleaved ({p}) beside the bind(C) call")
        dev = [on_device(h, c_loc(dl), c_sizeof(dl)), on_device(h, c_loc(d), c_sizeof(d)), on_device(h, c_loc(du), &
            c_sizeof(du)), on_device(h, c_loc(b), c_sizeof(b)), on_device(h, c_loc(info), c_sizeof(info))]
        status = numgpu_{p}gtsv_batched_interleaved(h, NUMGPU_GTSV_DIAG_PIVOT, int(n, c_int64_t), dev(1), dev(2), dev(3), &
            dev(4), dev(5), int(nb, c_int64_t))
        call check(status == NUMGPU_SUCCESS, "numgpu_{p}gtsv_batched_interleaved on numgpu_malloc memory")
        call to_host(h, c_loc(b), dev(4), c_sizeof(b))
        call to_host(h, c_loc(info), dev(5), c_sizeof(info))
        call free_device(h, dev)
        call check(all(b == x) .and. all(info == infow), &
            "numgpu_{p}gtsv_batched_interleaved on numgpu_malloc memory gives the wrapper's X")
    end subroutine
!@ end

end program test_gtsv_f
