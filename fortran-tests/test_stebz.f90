! test_stebz_f: the tridiagonal eigenvalue wrappers from Fortran through `use numgpu`, in both
! real precisions (each !@ template block is stamped for s and d; fortran/README.md).
!
! - numgpu_stebz_batched on a batch of three tridiag(-1, 2, -1) matrices of order 20 (e with a
!   spare row), every range kind, against the exact eigenvalues 2 - 2 cos(k pi / 21): m, info
!   0, w within 30 eps max|T|; one T for the batch (size(d, 2) = 1).
! - numgpu_stecount_batched at the midpoints of the exact eigenvalues: counts 1 .. n - 1.
! - The wrappers' shape checks, writing nothing.
!
! Prints "test_stebz_f: N passed, M failed" and stops with code 1 on any failure.
program test_stebz_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: n = 20, nb = 3
    type(c_ptr) :: h

    h = start("test_stebz_f")
!@ template s d
    call ranges_{p}(h)
    call counts_{p}(h)
!@ end
    call finish(h)

contains

    pure real(c_double) function exact(k)
        integer, intent(in) :: k
        exact = 2 - 2 * cos(k * acos(-1.0_c_double) / (n + 1))
    end function

!@ template s d
    subroutine ranges_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: d(n, nb), e(n, nb), w(n, nb), d1(n, 1), e1(n, 1)
        integer(c_int64_t) :: m(nb)
        integer(c_int32_t) :: info(nb), status, r
        integer :: i, k, lo
        real(c_double) :: worst
        d = 2
        e = -1
        d1 = 2
        e1 = -1
        do r = NUMGPU_STEBZ_ALL, NUMGPU_STEBZ_INDEX
            w = -7
            m = -7
            info = -7
            if (r == NUMGPU_STEBZ_VALUE) then
                call numgpu_stebz_batched(h, r, real(exact(4) + exact(5), {kind}) / 2, real(exact(9) + exact(10), {kind}) / 2, &
                    1_c_int64_t, 1_c_int64_t, 0.0_{kind}, d, e, m, w, info, status)
                lo = 5
            else if (r == NUMGPU_STEBZ_INDEX) then
                call numgpu_stebz_batched(h, r, 0.0_{kind}, 0.0_{kind}, 5_c_int64_t, 9_c_int64_t, 0.0_{kind}, d1, e1, m, &
                    w, info, status)
                lo = 5
            else
                call numgpu_stebz_batched(h, r, 0.0_{kind}, 0.0_{kind}, 1_c_int64_t, 1_c_int64_t, 0.0_{kind}, d, e, m, &
                    w, info, status)
                lo = 1
            end if
            call check(status == NUMGPU_SUCCESS, "{p}stebz range " // itoa(int(r)) // ": " // numgpu_last_error_string())
            do i = 1, nb
                worst = 0
                do k = 1, int(m(i))
                    worst = max(worst, abs(real(w(k, i), c_double) - exact(lo + k - 1)))
                end do
                call check(info(i) == 0 .and. m(i) == merge(n, 5, r == NUMGPU_STEBZ_ALL) .and. &
                    worst <= 30 * epsilon(0.0_{kind}) * 4, "{p}stebz range " // itoa(int(r)) // " matrix " // itoa(i))
            end do
        end do
        ! Shapes: info too short; e with another number of columns.
        m = -7
        call numgpu_stebz_batched(h, NUMGPU_STEBZ_ALL, 0.0_{kind}, 0.0_{kind}, 1_c_int64_t, 1_c_int64_t, 0.0_{kind}, d, &
            e(:, 1:2), m, w, info, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(m == -7), "{p}stebz: e of 2 columns accepted")
    end subroutine

    subroutine counts_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: d(n, 1), e(n - 1, 1), mu(n - 1)
        integer(c_int64_t) :: count(n - 1, 2)
        integer(c_int32_t) :: status
        integer :: k
        d = 2
        e = -1
        do k = 1, n - 1
            mu(k) = real((exact(k) + exact(k + 1)) / 2, {kind})
        end do
        count = -7
        call numgpu_stecount_batched(h, d, e, mu, count, status)
        call check(status == NUMGPU_SUCCESS .and. all(count(:, 1) == [(k, k = 1, n - 1)]) .and. &
            all(count(:, 2) == count(:, 1)), "{p}stecount at the midpoints")
        count = -7
        call numgpu_stecount_batched(h, d, e, mu(1:3), count, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(count == -7), "{p}stecount: count of the wrong shape accepted")
    end subroutine
!@ end
end program
