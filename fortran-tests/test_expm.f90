! test_expm_f: the matrix exponential wrappers from Fortran through `use numgpu`, in every
! precision (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - numgpu_expm_eig_batched with one diagonal generator for the batch (E = Einv = I, so
!   P(t) = diag(exp(lambda t)) exactly to rounding) and per-problem 2 x 2 rotations
!   (lambda = +-i theta for the complex kinds), several t.
! - numgpu_expm_batched on a rotation generator (exp = cos/sin), a diagonal and a NaN matrix
!   (info 1).
! - The wrappers' shape checks, writing nothing.
!
! Prints "test_expm_f: N passed, M failed" and stops with code 1 on any failure.
program test_expm_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: m = 3, nb = 4
    type(c_ptr) :: h

    h = start("test_expm_f")
!@ template s d c z
    call eig_{p}(h)
    call expm_{p}(h)
!@ end
    call finish(h)

contains

!@ template s d c z
    subroutine eig_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: E(m, m, 1), Einv(m, m, 1), lambda(m, 1), P(m, m, nb), want(m, m)
        {real} :: t(nb)
        integer(c_int32_t) :: status
        integer :: i, k
        real(c_double) :: tol
        tol = 30 * m * epsilon(real(1, kind(t)))
        E = 0
        do k = 1, m
            E(k, k, 1) = 1
        end do
        Einv = E
        lambda(:, 1) = [-1.0, -0.25, 0.0]
        t = [0.0, 0.5, 1.0, 4.0]
        P = -7
        call numgpu_expm_eig_batched(h, E, lambda, Einv, t, P, status)
        call check(status == NUMGPU_SUCCESS, "{p}expm_eig: " // numgpu_last_error_string())
        do i = 1, nb
            want = 0
            do k = 1, m
                want(k, k) = exp(lambda(k, 1) * t(i))
            end do
            call check(maxval(abs(P(:, :, i) - want)) <= tol, "{p}expm_eig diagonal, problem " // itoa(i))
        end do
        ! P of a batch of 4 with E of 2 in its last extent: refused, P untouched.
        P = -7
        call numgpu_expm_eig_batched(h, reshape([E, E], [m, m, 2]), lambda, Einv, t, P, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(P == -7), "{p}expm_eig: E of 2 matrices accepted for 4 t")
    end subroutine

    subroutine expm_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: A(2, 2, 3), X(2, 2, 3), want(2, 2)
        integer(c_int32_t) :: info(3), status
        real(c_double) :: th, tol
        th = 0.75
        tol = 30 * 4 * epsilon(real(1, {kind}))
        A = 0
        A(2, 1, 1) = real(th, {kind})
        A(1, 2, 1) = -real(th, {kind})
        A(1, 1, 2) = 0.5
        A(2, 2, 2) = -2.0
        A(1, 1, 3) = real(ieee_nan(), {kind})
        info = -7
        X = -7
        call numgpu_expm_batched(h, A, X, info, status)
        call check(status == NUMGPU_SUCCESS .and. all(info == [0, 0, 1]), "{p}expm: " // numgpu_last_error_string())
        want = reshape(real([cos(th), sin(th), -sin(th), cos(th)], {kind}), [2, 2])
        call check(maxval(abs(X(:, :, 1) - want)) <= tol, "{p}expm rotation")
        want = reshape(real([exp(0.5_c_double), 0.0_c_double, 0.0_c_double, exp(-2.0_c_double)], {kind}), [2, 2])
        call check(maxval(abs(X(:, :, 2) - want)) <= tol * 3, "{p}expm diagonal")
        call check(all(X(:, :, 3) /= X(:, :, 3)), "{p}expm: the NaN matrix's exp is not NaN")
        ! info of the wrong size: refused, nothing written.
        X = -7
        call numgpu_expm_batched(h, A, X, info(1:2), status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(X == -7), "{p}expm: info of 2 accepted for 3 matrices")
    end subroutine
!@ end

    real(c_double) function ieee_nan()
        use, intrinsic :: ieee_arithmetic
        ieee_nan = ieee_value(0.0_c_double, ieee_quiet_nan)
    end function
end program
