! test_spmv_f: numgpu's sparse matrix-vector products from Fortran through `use numgpu`, in
! every precision they have (each !@ template block is stamped for the letters it lists;
! fortran/README.md).
!
! - The generic wrapper numgpu_csrmv (s, d, c, z): ops N, T, C on a 37 x 23 matrix with empty
!   rows and duplicates, 1-based (Fortran-style) and 0-based, alpha/beta (1, 0) and complex
!   ones (their real parts for real kinds). Reference: the product summed in complex(c_double)
!   on the values as passed; per entry |y - yref| <= 2 (len + 4) eps (|alpha| (|A| |x|)_i +
!   |beta y_i|). The structures, sizes and matrices are tests/integration/spmv.rs's.
! - The CMRS wrappers (s, d): numgpu_cmrs_create with height 0 and 5 and M 0 and 4,
!   numgpu_cmrs_info (results by reference), numgpu_cmrsmv, numgpu_cmrs_update_values,
!   numgpu_cmrs_destroy; the create wrapper's size check, and numgpu's checks through the
!   others (a NULL matrix: argument 2, 3).
! - Errors: the wrapper's size check (NUMGPU_INVALID_VALUE before any call), a column index out
!   of range (argument 9 of numgpu_?csrmv, y untouched), status without errmsg.
! - The bind(C) interface numgpu_?csrmv on numgpu_malloc memory, against the wrapper.
!
! Prints "test_spmv_f: N passed, M failed" and stops with code 1 on any failure.
program test_spmv_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: m = 37, n = 23
    type(c_ptr) :: h
    integer(c_int32_t), allocatable :: rp(:), ci(:)
    complex(c_double), allocatable :: v(:)

    h = start("test_spmv_f")
    call make_matrix()
!@ template s d c z
    call csrmv_{p}(h)
    call errors_{p}(h)
    call bind_c_{p}(h)
!@ end
!@ template s d
    call cmrs_{p}(h)
!@ end
    call finish(h)

contains

    ! A 1-based CSR matrix: row i has mod(i, 5) entries (row 5, 10, ... empty), columns
    ! mod(3 i + 7 k^2, n) + 1 (duplicates where they repeat), values with both parts.
    subroutine make_matrix()
        integer :: i, k, p
        allocate(rp(m + 1))
        rp(1) = 1
        do i = 1, m
            rp(i + 1) = rp(i) + mod(i, 5)
        end do
        allocate(ci(rp(m + 1) - 1), v(rp(m + 1) - 1))
        p = 0
        do i = 1, m
            do k = 1, mod(i, 5)
                p = p + 1
                ci(p) = mod(3 * i + 7 * k * k, n) + 1
                v(p) = cmplx(sin(real(p, c_double)), cos(real(3 * p, c_double)) / 2, c_double)
            end do
        end do
    end subroutine

    ! x and y0 for op(A): x(j) = cos(j) + i sin(2j)/3, y0(i) = 1 - i/50 + i/7.
    subroutine vectors(trans, x, y0)
        integer(c_int32_t), intent(in) :: trans
        complex(c_double), allocatable, intent(out) :: x(:), y0(:)
        integer :: i, nx, ny
        nx = merge(n, m, trans == NUMGPU_OP_N)
        ny = merge(m, n, trans == NUMGPU_OP_N)
        allocate(x(nx), y0(ny))
        x = [(cmplx(cos(real(i, c_double)), sin(real(2 * i, c_double)) / 3, c_double), i = 1, nx)]
        y0 = [(cmplx(1 - real(i, c_double) / 50, 1 / 7.0_c_double, c_double), i = 1, ny)]
    end subroutine

    elemental real(c_double) function mag(z)
        complex(c_double), intent(in) :: z
        mag = abs(real(z, c_double)) + abs(aimag(z))
    end function

    ! Whether y = alpha op(A) x + beta y0 (A: the pattern of rp, ci with values a), entry by
    ! entry within 2 (len + 4) eps (|alpha| (|A| |x|)_i + |beta y0_i|).
    logical function matches(trans, alpha, a, x, beta, y0, y, eps)
        integer(c_int32_t), intent(in) :: trans
        complex(c_double), intent(in) :: alpha, beta, a(:), x(:), y0(:), y(:)
        real(c_double), intent(in) :: eps
        complex(c_double) :: want(size(y)), av
        real(c_double) :: mg(size(y))
        integer :: cnt(size(y)), i, k, row, col
        want = 0
        mg = 0
        cnt = 0
        do i = 1, m
            do k = rp(i), rp(i + 1) - 1
                av = merge(conjg(a(k)), a(k), trans == NUMGPU_OP_C)
                row = merge(i, ci(k), trans == NUMGPU_OP_N)
                col = merge(ci(k), i, trans == NUMGPU_OP_N)
                want(row) = want(row) + av * x(col)
                mg(row) = mg(row) + mag(av) * mag(x(col))
                cnt(row) = cnt(row) + 1
            end do
        end do
        matches = all(mag(y - (alpha * want + beta * y0)) <= 2 * (cnt + 4) * eps * (mag(alpha) * mg + mag(beta) * mag(y0)))
    end function

!@ template s d c z
    ! numgpu_csrmv in {type}: every op, both index bases, two (alpha, beta).
    subroutine csrmv_{p}(h)
        type(c_ptr), intent(in) :: h
        complex(c_double), allocatable :: x(:), y0(:)
        {type}, allocatable :: y(:)
        {type} :: alpha(2), beta(2)
        integer(c_int32_t) :: trans, status, base
        character(len=200) :: errmsg
        real(c_double) :: eps
        integer :: t
        eps = epsilon(real(1, {kind}))
        alpha = to_{p}([(1.0_c_double, 0.0_c_double), (0.5_c_double, -0.25_c_double)])
        beta = to_{p}([(0.0_c_double, 0.0_c_double), (-1.0_c_double, 0.5_c_double)])
        do trans = NUMGPU_OP_N, NUMGPU_OP_C
            call vectors(trans, x, y0)
            do t = 1, 2
                do base = 0, 1
                    allocate(y, source=to_{p}(y0))
                    errmsg = ""
                    call numgpu_csrmv(h, trans, alpha(t), to_{p}(v), rp - 1 + base, ci - 1 + base, base, to_{p}(x), &
                        beta(t), y, status, errmsg)
                    call check(status == NUMGPU_SUCCESS .and. matches(trans, cmplx(alpha(t), kind=c_double), &
                        cmplx(to_{p}(v), kind=c_double), cmplx(to_{p}(x), kind=c_double), cmplx(beta(t), kind=c_double), &
                        cmplx(to_{p}(y0), kind=c_double), cmplx(y, kind=c_double), eps), &
                        "numgpu_csrmv ({p}) op " // itoa(int(trans)) // ", case " // itoa(t) // ", base " // &
                        itoa(int(base)) // " " // trim(errmsg))
                    deallocate(y)
                end do
            end do
        end do
    end subroutine

    ! The wrapper's size check, numgpu's check of the structure through it, no errmsg.
    subroutine errors_{p}(h)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t) :: status
        integer(c_int32_t), allocatable :: bad(:)
        {type} :: y(m), x(n), one, zero
        character(len=200) :: msg
        one = 1
        zero = 0
        x = one
        y = 7
        msg = ""
        call numgpu_csrmv(h, NUMGPU_OP_N, one, to_{p}(v), rp, ci(1:size(ci) - 1), 1_c_int32_t, x, zero, y, status, msg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(msg, "numgpu_csrmv: size(col_ind)") == 1 .and. all(y == 7), &
            "{p}: csrmv size check: " // trim(msg))
        bad = ci
        bad(4) = int(n + 1, c_int32_t)
        call numgpu_csrmv(h, NUMGPU_OP_N, one, to_{p}(v), rp, bad, 1_c_int32_t, x, zero, y, status, msg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 9 .and. index(msg, "numgpu_{p}csrmv: " &
            // "argument 9") == 1 .and. index(msg, "col_ind[3]") > 0 .and. all(y == 7), "{p}: csrmv bad column: " // trim(msg))
        call numgpu_csrmv(h, NUMGPU_OP_N, one, to_{p}(v), rp, bad, 1_c_int32_t, x, zero, y, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(y == 7), "{p}: csrmv without errmsg returns the status")
    end subroutine

    ! numgpu_?csrmv on numgpu_malloc memory gives the wrapper's y.
    subroutine bind_c_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: val(size(v)), x(n), y(m), yw(m), alpha, beta
        integer(c_int32_t), target :: row_ptr(m + 1), col_ind(size(ci))
        integer(c_int32_t) :: status
        type(c_ptr) :: dev(5)
        val = to_{p}(v)
        x = to_{p}(random_z(n))
        y = to_{p}(random_z(m))
        row_ptr = rp
        col_ind = ci
        alpha = to_{p}((1.5_c_double, 0.5_c_double))
        beta = to_{p}((0.5_c_double, -1.0_c_double))
        yw = y
        call numgpu_csrmv(h, NUMGPU_OP_N, alpha, val, row_ptr, col_ind, 1_c_int32_t, x, beta, yw, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_csrmv ({p}) beside the bind(C) call")
        dev = [on_device(h, c_loc(val), c_sizeof(val)), on_device(h, c_loc(row_ptr), c_sizeof(row_ptr)), &
            on_device(h, c_loc(col_ind), c_sizeof(col_ind)), on_device(h, c_loc(x), c_sizeof(x)), &
            on_device(h, c_loc(y), c_sizeof(y))]
        status = numgpu_{p}csrmv(h, NUMGPU_OP_N, int(m, c_int64_t), int(n, c_int64_t), size(val, kind=c_int64_t), alpha, &
            dev(1), dev(2), dev(3), 1_c_int32_t, dev(4), beta, dev(5))
        call check(status == NUMGPU_SUCCESS, "numgpu_{p}csrmv on numgpu_malloc memory: " // numgpu_last_error_string())
        call to_host(h, c_loc(y), dev(5), c_sizeof(y))
        call free_device(h, dev)
        call check(all(y == yw), "numgpu_{p}csrmv on numgpu_malloc memory gives the wrapper's y")
    end subroutine
!@ end

!@ template s d
    ! The CMRS wrappers in {type}.
    subroutine cmrs_{p}(h)
        type(c_ptr), intent(in) :: h
        type(c_ptr) :: a
        integer(c_int32_t) :: status
        integer(c_int64_t) :: height, lanes, hs(2), ms(2)
        real(c_double) :: pad, eps
        complex(c_double), allocatable :: x(:), y0(:)
        {type}, allocatable :: y(:)
        character(len=200) :: what
        integer :: i, j
        eps = epsilon(real(1, {kind}))
        hs = [0_c_int64_t, 5_c_int64_t]
        ms = [0_c_int64_t, 4_c_int64_t]
        call vectors(NUMGPU_OP_N, x, y0)
        do i = 1, 2
            do j = 1, 2
                write(what, '(a,i0,a,i0)') "({p}) height ", hs(i), ", M ", ms(j)
                a = c_null_ptr
                call numgpu_cmrs_create(h, int(n, c_int64_t), to_{p}(v), rp, ci, 1_c_int32_t, hs(i), ms(j), a, status)
                call check(status == NUMGPU_SUCCESS .and. c_associated(a), "numgpu_cmrs_create " // trim(what))
                if (.not. c_associated(a)) cycle
                status = numgpu_cmrs_info(a, height, lanes, pad)
                call check(status == NUMGPU_SUCCESS .and. height == merge(16_c_int64_t, hs(i), hs(i) == 0) .and. &
                    (ms(j) == 0 .or. lanes == ms(j)) .and. pad >= 0, "numgpu_cmrs_info " // trim(what))
                allocate(y, source=to_{p}(y0))
                call numgpu_cmrsmv(h, to_{p}((2.0_c_double, 0.0_c_double)), a, to_{p}(x), to_{p}((-1.0_c_double, 0.0_c_double)), &
                    y, status)
                call check(status == NUMGPU_SUCCESS .and. matches(NUMGPU_OP_N, (2.0_c_double, 0.0_c_double), &
                    cmplx(to_{p}(v), kind=c_double), cmplx(to_{p}(x), kind=c_double), (-1.0_c_double, 0.0_c_double), &
                    cmplx(to_{p}(y0), kind=c_double), cmplx(y, kind=c_double), eps), "numgpu_cmrsmv " // trim(what))
                call numgpu_cmrs_update_values(h, a, to_{p}(v * (0.0_c_double, 1.0_c_double)), status)
                call check(status == NUMGPU_SUCCESS, "numgpu_cmrs_update_values " // trim(what))
                y = to_{p}(y0)
                call numgpu_cmrsmv(h, to_{p}((1.0_c_double, 0.0_c_double)), a, to_{p}(x), to_{p}((0.0_c_double, 0.0_c_double)), &
                    y, status)
                call check(status == NUMGPU_SUCCESS .and. matches(NUMGPU_OP_N, (1.0_c_double, 0.0_c_double), &
                    cmplx(to_{p}(v * (0.0_c_double, 1.0_c_double)), kind=c_double), cmplx(to_{p}(x), kind=c_double), &
                    (0.0_c_double, 0.0_c_double), cmplx(to_{p}(y0), kind=c_double), cmplx(y, kind=c_double), eps), &
                    "numgpu_cmrsmv after numgpu_cmrs_update_values " // trim(what))
                call check(numgpu_cmrs_destroy(a) == NUMGPU_SUCCESS, "numgpu_cmrs_destroy " // trim(what))
                deallocate(y)
            end do
        end do
        ! The create wrapper's size check, and numgpu's checks through the others.
        allocate(y, source=to_{p}(y0))
        a = c_null_ptr
        what = ""
        call numgpu_cmrs_create(h, int(n, c_int64_t), to_{p}(v), rp, ci(2:), 1_c_int32_t, 0_c_int64_t, 0_c_int64_t, a, &
            status, what)
        call check(status == NUMGPU_INVALID_VALUE .and. .not. c_associated(a) .and. &
            index(what, "numgpu_cmrs_create: size(col_ind)") == 1, "{p}: cmrs_create size check: " // trim(what))
        what = ""
        call numgpu_cmrs_update_values(h, a, to_{p}(v), status, what)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. &
            index(what, "numgpu_{p}cmrs_update_values: argument 2") == 1, "{p}: cmrs_update_values(NULL): " // trim(what))
        what = ""
        call numgpu_cmrsmv(h, to_{p}((1.0_c_double, 0.0_c_double)), a, to_{p}(x), to_{p}((0.0_c_double, 0.0_c_double)), &
            y, status, what)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 3 .and. all(y == to_{p}(y0)) .and. &
            index(what, "numgpu_{p}cmrsmv: argument 3") == 1, "{p}: cmrsmv(NULL): " // trim(what))
    end subroutine
!@ end

end program test_spmv_f
