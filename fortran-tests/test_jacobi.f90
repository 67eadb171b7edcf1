! test_jacobi_f: the Jacobi wrappers from Fortran through `use numgpu`, in every precision
! (each !@ template block is stamped for s, d, c and z; fortran/README.md).
!
! - numgpu_syevj_batched on a batch of three tridiag(-1, 2, -1) matrices of order 12 (upper
!   triangle, the lower one garbage) against the exact eigenvalues 2 - 2 cos(k pi / 13) within
!   30 n eps, the eigenvectors satisfying A z = lambda z; the sweep limit (params) gives info 1.
! - numgpu_gesvdj_batched on 9 x 5 and 5 x 9 matrices of exactly known singular values
!   (a diagonal 1 .. 5 with its rows and columns permuted, times a unit phase for c and z, 0.6
!   for s and d): S, and
!   A = U diag(S) V^H within 30 max(m, n) eps.
! - The wrappers' shape checks, writing nothing.
!
! Prints "test_jacobi_f: N passed, M failed" and stops with code 1 on any failure.
program test_jacobi_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: n = 12, nb = 3
    type(c_ptr) :: h

    h = start("test_jacobi_f")
!@ template s d c z
    call eigen_{p}(h)
    call svd_{p}(h, 9, 5)
    call svd_{p}(h, 5, 9)
!@ end
    call finish(h)

contains

    pure real(c_double) function exact(k)
        integer, intent(in) :: k
        exact = 2 - 2 * cos(k * acos(-1.0_c_double) / (n + 1))
    end function

!@ template s d c z
    subroutine eigen_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a(n, n, nb), t(n, n)
        {real} :: w(n, nb), residual(nb)
        integer(c_int32_t) :: info(nb), sweeps(nb), status
        type(numgpu_jacobi_params) :: one
        integer :: i, k
        real(c_double) :: worst, tol
        t = 0
        do k = 1, n
            t(k, k) = 2
            if (k > 1) t(k - 1, k) = -1
            if (k > 1) t(k, k - 1) = 77
        end do
        do i = 1, nb
            a(:, :, i) = t
        end do
        call numgpu_syevj_batched(h, NUMGPU_JACOBI_VEC, NUMGPU_UPLO_UPPER, a, w, info, sweeps, residual, status)
        call check(status == NUMGPU_SUCCESS, "{p}syevj: " // numgpu_last_error_string())
        tol = 30 * n * epsilon(0.0_{kind}) * 4
        do k = 1, n
            if (k > 1) t(k, k - 1) = -1
        end do
        do i = 1, nb
            worst = 0
            do k = 1, n
                worst = max(worst, abs(real(w(k, i), c_double) - exact(k)))
                worst = max(worst, maxval(abs(matmul(cmplx(t, kind=c_double), cmplx(a(:, k, i), kind=c_double)) &
                    - real(w(k, i), c_double) * cmplx(a(:, k, i), kind=c_double))))
            end do
            call check(info(i) == 0 .and. sweeps(i) > 0 .and. worst <= tol, "{p}syevj matrix " // itoa(i))
        end do
        ! One sweep allowed: not converged.
        one%tol = 0
        one%max_sweeps = 1
        one%unsorted = 0
        do i = 1, nb
            a(:, :, i) = t
        end do
        call numgpu_syevj_batched(h, NUMGPU_JACOBI_NOVEC, NUMGPU_UPLO_LOWER, a, w, info, sweeps, residual, status, &
            params=one)
        call check(status == NUMGPU_SUCCESS .and. all(info == 1) .and. all(sweeps == 1), "{p}syevj max_sweeps 1")
        ! Shapes: w too short.
        info = -7
        call numgpu_syevj_batched(h, NUMGPU_JACOBI_VEC, NUMGPU_UPLO_LOWER, a, w(1:n - 1, :), info, sweeps, residual, &
            status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(info == -7), "{p}syevj: w of n - 1 rows accepted")
    end subroutine

    subroutine svd_{p}(h, m, nn)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: m, nn
        {type} :: a(m, nn, 2), u(m, min(m, nn), 2), v(nn, min(m, nn), 2), ph
        {real} :: s(min(m, nn), 2), residual(2)
        complex(c_double) :: r(m, nn)
        integer(c_int32_t) :: info(2), sweeps(2), status
        integer :: i, j, k
        real(c_double) :: worst, tol, mag
        k = min(m, nn)
        ! A unit phase for c and z (0.6 for s and d).
        ph = to_{p}(cmplx(0.6_c_double, 0.8_c_double, c_double))
        mag = abs(cmplx(ph, kind=c_double))
        a = 0
        do i = 1, 2
            do j = 1, k
                ! Row (2j + i) mod m, column 2j mod nn (m, nn odd): a permuted diagonal 1 .. k.
                a(mod(2 * j + i, m) + 1, mod(2 * j, nn) + 1, i) = j * ph
            end do
        end do
        call numgpu_gesvdj_batched(h, NUMGPU_JACOBI_VEC, NUMGPU_JACOBI_VEC, a, s, u, v, info, sweeps, residual, status)
        call check(status == NUMGPU_SUCCESS, "{p}gesvdj: " // numgpu_last_error_string())
        tol = 30 * max(m, nn) * epsilon(0.0_{kind}) * k
        do i = 1, 2
            worst = 0
            do j = 1, k
                worst = max(worst, abs(real(s(j, i), c_double) - (k + 1 - j) * mag))
            end do
            r = cmplx(a(:, :, i), kind=c_double)
            do j = 1, k
                r = r - real(s(j, i), c_double) * matmul(cmplx(u(:, j:j, i), kind=c_double), &
                    conjg(transpose(cmplx(v(:, j:j, i), kind=c_double))))
            end do
            worst = max(worst, maxval(abs(r)))
            call check(info(i) == 0 .and. worst <= tol, "{p}gesvdj " // itoa(m) // "x" // itoa(nn) // " matrix " // itoa(i))
        end do
        info = -7
        call numgpu_gesvdj_batched(h, NUMGPU_JACOBI_VEC, NUMGPU_JACOBI_VEC, a, s, u(1:m - 1, :, :), v, info, sweeps, &
            residual, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(info == -7), "{p}gesvdj: U of m - 1 rows accepted")
    end subroutine
!@ end
end program
