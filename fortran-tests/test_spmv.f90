! test_spmv_f: numgpu's sparse matrix-vector products from Fortran through `use numgpu`.
!
! - The generic wrapper numgpu_csrmv for real(c_float), real(c_double), complex(c_float_complex)
!   and complex(c_double_complex): ops N, T, C on a 1-based (Fortran-style) 37 x 23 matrix with
!   empty rows and duplicates, and the same matrix 0-based; alpha/beta (1, 0) and complex ones.
!   Reference: the product summed in double complex in the test; per entry
!   |y - yref| <= 2 (len + 4) eps (|alpha| (|A| |x|)_i + |beta y_i|).
! - The CMRS object (real kinds): numgpu_cmrs_create with height 0 and 5 and M 0 and 4,
!   numgpu_cmrs_info, numgpu_cmrsmv, numgpu_cmrs_update_values, numgpu_cmrs_destroy.
! - Errors: the wrapper's size check (NUMGPU_INVALID_VALUE before any call), a column index out
!   of range (argument 9 of numgpu_dcsrmv, y untouched).
! Every case runs on the handle numgpu_create picks (AUTO) and on an explicit CPU handle.
!
! Prints "test_spmv_f: N passed, M failed" and stops with code 1 on any failure.
program test_spmv_f
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_associated, c_int32_t, c_int64_t, c_float, c_double, &
        c_float_complex, c_double_complex
    use numgpu
    implicit none

    integer, parameter :: dp = c_double, m = 37, n = 23
    integer :: passed = 0, failed = 0
    type(c_ptr) :: hauto = c_null_ptr, hcpu = c_null_ptr
    integer(c_int32_t), allocatable :: rp(:), ci(:)
    complex(dp), allocatable :: v(:)
    integer :: nnz

    call check(numgpu_create(hauto) == NUMGPU_SUCCESS, "numgpu_create: " // numgpu_last_error_string())
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int32_t) == NUMGPU_SUCCESS, "numgpu_create_with(CPU)")
    if (.not. (c_associated(hauto) .and. c_associated(hcpu))) call finish()
    call make_matrix()
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
        print '(a,i0,a,i0,a)', "test_spmv_f: ", passed, " passed, ", failed, " failed"
        if (failed > 0 .or. passed == 0) stop 1
        stop
    end subroutine

    ! A 1-based CSR matrix: row i has mod(i, 5) entries (row 5, 10, ... empty), columns
    ! mod(3 i + 7 k, n) + 1 (duplicates where they repeat), values with both parts.
    subroutine make_matrix()
        integer :: i, k, p
        allocate(rp(m + 1))
        rp(1) = 1
        do i = 1, m
            rp(i + 1) = rp(i) + mod(i, 5)
        end do
        nnz = rp(m + 1) - 1
        allocate(ci(nnz), v(nnz))
        p = 0
        do i = 1, m
            do k = 1, mod(i, 5)
                p = p + 1
                ci(p) = mod(3 * i + 7 * k * k, n) + 1
                v(p) = cmplx(sin(real(p, dp)), cos(real(3 * p, dp)) / 2, dp)
            end do
        end do
    end subroutine

    ! y := alpha op(A) x + beta y0 in double complex, and each entry's tolerance.
    subroutine reference(trans, alpha, a, x, beta, y0, eps, want, tol)
        integer(c_int32_t), intent(in) :: trans
        complex(dp), intent(in) :: alpha, beta, a(:), x(:), y0(:)
        real(dp), intent(in) :: eps
        complex(dp), intent(out) :: want(:)
        real(dp), intent(out) :: tol(:)
        real(dp) :: mg(size(want))
        integer :: cnt(size(want)), i, k, j, o
        complex(dp) :: av, xv
        want = 0
        mg = 0
        cnt = 0
        do i = 1, m
            do k = rp(i), rp(i + 1) - 1
                j = ci(k)
                av = a(k)
                if (trans == NUMGPU_OP_C) av = conjg(av)
                if (trans == NUMGPU_OP_N) then
                    o = i
                    xv = x(j)
                else
                    o = j
                    xv = x(i)
                end if
                want(o) = want(o) + av * xv
                mg(o) = mg(o) + mag(av) * mag(xv)
                cnt(o) = cnt(o) + 1
            end do
        end do
        do i = 1, size(want)
            tol(i) = 2 * (cnt(i) + 4) * eps * (mag(alpha) * mg(i) + mag(beta) * mag(y0(i)))
            want(i) = alpha * want(i) + beta * y0(i)
        end do
    end subroutine

    elemental function mag(z) result(r)
        complex(dp), intent(in) :: z
        real(dp) :: r
        r = abs(real(z, dp)) + abs(aimag(z))
    end function

    ! x and y0 for op(A) in double complex: x(j) = cos(j) + i sin(2j)/3, y0(i) = 1 - i/50.
    subroutine vectors(trans, x, y0)
        integer(c_int32_t), intent(in) :: trans
        complex(dp), allocatable, intent(out) :: x(:), y0(:)
        integer :: i, nx, ny
        nx = n
        ny = m
        if (trans /= NUMGPU_OP_N) then
            nx = m
            ny = n
        end if
        allocate(x(nx), y0(ny))
        x = [(cmplx(cos(real(i, dp)), sin(real(2 * i, dp)) / 3, dp), i = 1, nx)]
        y0 = [(cmplx(1 - real(i, dp) / 50, 0, dp), i = 1, ny)]
    end subroutine

    subroutine compare(what, got, want, tol)
        character(len=*), intent(in) :: what
        complex(dp), intent(in) :: got(:), want(:)
        real(dp), intent(in) :: tol(:)
        call check(all(mag(got - want) <= tol), what)
    end subroutine

    subroutine sweep(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer(c_int32_t) :: trans, status, base
        complex(dp), allocatable :: x(:), y0(:), want(:)
        real(dp), allocatable :: tol(:)
        complex(dp) :: alpha(2), beta(2)
        real(c_float), allocatable :: ys(:)
        real(c_double), allocatable :: yd(:)
        complex(c_float_complex), allocatable :: yc(:)
        complex(c_double_complex), allocatable :: yz(:)
        integer(c_int32_t), allocatable :: rp0(:), ci0(:)
        integer :: t
        character(len=64) :: what
        alpha = [cmplx(1, 0, dp), cmplx(0.5_dp, -0.25_dp, dp)]
        beta = [cmplx(0, 0, dp), cmplx(-1, 0.5_dp, dp)]
        allocate(rp0(m + 1), ci0(nnz))
        rp0(:) = rp - 1
        ci0(:) = ci - 1
        do trans = NUMGPU_OP_N, NUMGPU_OP_C
            call vectors(trans, x, y0)
            allocate(want(size(y0)), tol(size(y0)))
            do t = 1, 2
                do base = 0, 1
                    write(what, '(a,a,i0,a,i0,a,i0)') hname, " op ", trans, " case ", t, " base ", base
                    ! real kinds: the real parts of everything.
                    call reference(trans, cmplx(real(alpha(t)), 0, dp), cmplx(real(v), 0, dp), cmplx(real(x), 0, dp), &
                        cmplx(real(beta(t)), 0, dp), cmplx(real(y0), 0, dp), real(epsilon(1.0_c_float), dp), want, tol)
                    ys = real(y0, c_float)
                    yd = real(y0, c_double)
                    if (base == 1) then
                        call numgpu_csrmv(h, trans, real(alpha(t), c_float), real(v, c_float), rp, ci, base, &
                            real(x, c_float), real(beta(t), c_float), ys, status)
                    else
                        call numgpu_csrmv(h, trans, real(alpha(t), c_float), real(v, c_float), rp0, ci0, base, &
                            real(x, c_float), real(beta(t), c_float), ys, status)
                    end if
                    call check(status == NUMGPU_SUCCESS, "scsrmv " // trim(what) // ": " // numgpu_last_error_string())
                    call compare("scsrmv " // trim(what), cmplx(ys, 0, dp), want, tol)
                    call reference(trans, cmplx(real(alpha(t)), 0, dp), cmplx(real(v), 0, dp), cmplx(real(x), 0, dp), &
                        cmplx(real(beta(t)), 0, dp), cmplx(real(y0), 0, dp), epsilon(1.0_dp), want, tol)
                    call numgpu_csrmv(h, trans, real(alpha(t), c_double), real(v, c_double), rp, ci, 1_c_int32_t, &
                        real(x, c_double), real(beta(t), c_double), yd, status)
                    call check(status == NUMGPU_SUCCESS, "dcsrmv " // trim(what))
                    call compare("dcsrmv " // trim(what), cmplx(yd, 0, dp), want, tol)
                    ! complex kinds.
                    call reference(trans, alpha(t), v, x, beta(t), y0, real(epsilon(1.0_c_float), dp), want, tol)
                    yc = cmplx(y0, kind=c_float_complex)
                    call numgpu_csrmv(h, trans, cmplx(alpha(t), kind=c_float_complex), cmplx(v, kind=c_float_complex), &
                        rp, ci, 1_c_int32_t, cmplx(x, kind=c_float_complex), cmplx(beta(t), kind=c_float_complex), yc, status)
                    call check(status == NUMGPU_SUCCESS, "ccsrmv " // trim(what))
                    call compare("ccsrmv " // trim(what), cmplx(yc, kind=dp), want, tol)
                    call reference(trans, alpha(t), v, x, beta(t), y0, epsilon(1.0_dp), want, tol)
                    yz = y0
                    call numgpu_csrmv(h, trans, alpha(t), v, rp, ci, 1_c_int32_t, x, beta(t), yz, status)
                    call check(status == NUMGPU_SUCCESS, "zcsrmv " // trim(what))
                    call compare("zcsrmv " // trim(what), yz, want, tol)
                end do
            end do
            deallocate(want, tol)
        end do
        call cmrs(h, hname)
        call errors(h, hname)
    end subroutine

    subroutine cmrs(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        type(c_ptr) :: a
        integer(c_int32_t) :: status, height, lanes, hs(2), ms(2)
        real(c_double) :: pad
        complex(dp), allocatable :: x(:), y0(:), want(:)
        real(dp), allocatable :: tol(:)
        real(c_double), allocatable :: yd(:)
        real(c_float), allocatable :: ys(:)
        integer :: i, j
        hs = [0_c_int32_t, 5_c_int32_t]
        ms = [0_c_int32_t, 4_c_int32_t]
        call vectors(NUMGPU_OP_N, x, y0)
        allocate(want(m), tol(m))
        do i = 1, 2
            do j = 1, 2
                a = c_null_ptr
                call numgpu_cmrs_create(h, int(n, c_int64_t), real(v, c_double), rp, ci, 1_c_int32_t, hs(i), ms(j), a, status)
                call check(status == NUMGPU_SUCCESS .and. c_associated(a), hname // " dcmrs_create: " // &
                    numgpu_last_error_string())
                if (.not. c_associated(a)) cycle
                call check(numgpu_cmrs_info(a, height, lanes, pad) == NUMGPU_SUCCESS, hname // " cmrs_info")
                call check(height == merge(16_c_int32_t, hs(i), hs(i) == 0) .and. (ms(j) == 0 .or. lanes == ms(j)) &
                    .and. pad >= 0, hname // " cmrs_info values")
                yd = real(y0, c_double)
                call numgpu_cmrsmv(h, 2.0_c_double, a, real(x, c_double), -1.0_c_double, yd, status)
                call check(status == NUMGPU_SUCCESS, hname // " dcmrsmv")
                call reference(NUMGPU_OP_N, cmplx(2, 0, dp), cmplx(real(v), 0, dp), cmplx(real(x), 0, dp), &
                    cmplx(-1, 0, dp), cmplx(real(y0), 0, dp), epsilon(1.0_dp), want, tol)
                call compare(hname // " dcmrsmv", cmplx(yd, 0, dp), want, tol)
                call numgpu_cmrs_update_values(h, a, aimag(v), status)
                call check(status == NUMGPU_SUCCESS, hname // " dcmrs_update_values")
                yd = real(y0, c_double)
                call numgpu_cmrsmv(h, 1.0_c_double, a, real(x, c_double), 0.0_c_double, yd, status)
                call reference(NUMGPU_OP_N, cmplx(1, 0, dp), cmplx(aimag(v), 0, dp), cmplx(real(x), 0, dp), &
                    cmplx(0, 0, dp), cmplx(real(y0), 0, dp), epsilon(1.0_dp), want, tol)
                call compare(hname // " dcmrsmv after update_values", cmplx(yd, 0, dp), want, tol)
                call check(numgpu_cmrs_destroy(a) == NUMGPU_SUCCESS, hname // " cmrs_destroy")
                ! single precision.
                a = c_null_ptr
                call numgpu_cmrs_create(h, int(n, c_int64_t), real(v, c_float), rp, ci, 1_c_int32_t, hs(i), ms(j), a, status)
                call check(status == NUMGPU_SUCCESS, hname // " scmrs_create")
                ys = real(y0, c_float)
                call numgpu_cmrsmv(h, 1.0_c_float, a, real(x, c_float), 0.5_c_float, ys, status)
                call reference(NUMGPU_OP_N, cmplx(1, 0, dp), cmplx(real(v), 0, dp), cmplx(real(x), 0, dp), &
                    cmplx(0.5_dp, 0, dp), cmplx(real(y0), 0, dp), real(epsilon(1.0_c_float), dp), want, tol)
                call compare(hname // " scmrsmv", cmplx(ys, 0, dp), want, tol)
                call check(numgpu_cmrs_destroy(a) == NUMGPU_SUCCESS, hname // " cmrs_destroy (s)")
            end do
        end do
    end subroutine

    subroutine errors(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer(c_int32_t) :: status
        integer(c_int32_t), allocatable :: bad(:)
        real(c_double) :: y(m), x(n)
        character(len=200) :: msg
        x = 1
        y = 7
        msg = ""
        call numgpu_csrmv(h, NUMGPU_OP_N, 1.0_c_double, real(v, c_double), rp, ci(1:nnz - 1), 1_c_int32_t, x, &
            0.0_c_double, y, status, msg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(msg, "size(col_ind)") > 0 .and. all(y == 7), &
            hname // " csrmv size check: " // trim(msg))
        bad = ci
        bad(4) = int(n + 1, c_int32_t)
        call numgpu_csrmv(h, NUMGPU_OP_N, 1.0_c_double, real(v, c_double), rp, bad, 1_c_int32_t, x, 0.0_c_double, y, &
            status, msg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 9 .and. index(msg, "col_ind[3]") > 0 &
            .and. all(y == 7), hname // " csrmv bad column: " // trim(msg))
    end subroutine

end program test_spmv_f
