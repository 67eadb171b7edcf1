! test_sshopm_f: numgpu's tensor eigenpairs (SS-HOPM) from Fortran through `use numgpu`.
!
! Kofidis and Regalia's example (m = 4, n = 3, A(15) packed; its local maxima have lambda =
! 0.8893220107, 0.8168813450, 0.3633060484, its local minima -0.0450921811, -0.5629171327,
! -1.0953516989), two copies in A(15, 2), 40 starts X0(3, 40) from a Fortran generator shared
! by both tensors (strideX0 = 0), on the handle numgpu_create picks (AUTO), through the bind(C)
! interfaces (sshopm has no generic wrapper; its numerics are tests/integration/sshopm.rs's):
! - numgpu_dsshopm and numgpu_sshopm, convex with SAFE and concave with ADAPTIVE: every start
!   converges (flags NUMGPU_SSHOPM_CONVERGED), ||x|| = 1, (lambda, x) an eigenpair
!   (||A x^3 - lambda x|| small, A x^3 from numgpu_dsym_apply p = 1 on the returned x, itself
!   checked against the dense tensor of numgpu_dsym_unpack), and the lambdas are the known
!   values, each of the three found;
! - numgpu_dsshopm_unique, convex and concave: count 3, the known values by decreasing lambda,
!   pair types NUMGPU_SSHOPM_LOCAL_MAX / NUMGPU_SSHOPM_LOCAL_MIN (NUMGPU_SSHOPM_OTHER past count);
! - argument checks: m = 1 (argument 2), maxit = 0 (argument 14): NUMGPU_INVALID_VALUE.
!
! Prints "test_sshopm_f: N passed, M failed" and stops with code 1 on any failure.
program test_sshopm_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    real(c_double), parameter :: kr(15) = [0.2883d0, -0.0031d0, 0.1973d0, -0.2485d0, -0.2939d0, 0.3847d0, 0.2972d0, &
        0.1862d0, 0.0919d0, -0.3619d0, 0.1241d0, -0.3420d0, 0.2127d0, 0.2727d0, -0.3054d0]
    real(c_double), parameter :: kr_max(3) = [0.8893220107d0, 0.8168813450d0, 0.3633060484d0]
    real(c_double), parameter :: kr_min(3) = [-0.0450921811d0, -0.5629171327d0, -1.0953516989d0]
    integer, parameter :: ns = 40, nt = 2
    type(c_ptr) :: h
    real(c_double), target :: dense(3, 3, 3, 3)
    real(c_double), target :: x0(3, ns)
    real(c_double), target :: kr_t(15) = kr
    integer(c_int64_t) :: state = 12345_c_int64_t
    integer :: i, j

    do j = 1, ns
        do i = 1, 3
            x0(i, j) = next_uniform()
        end do
    end do
    h = start("test_sshopm_f")
    call check(numgpu_dsym_unpack(4_c_int64_t, 3_c_int64_t, c_loc(kr_t), c_loc(dense)) == NUMGPU_SUCCESS, &
        "numgpu_dsym_unpack: " // numgpu_last_error_string())
    call eigenpairs(h)
    call unique(h)
    call errors(h)
    call finish(h)

contains

    ! Uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants), its top 53 bits.
    function next_uniform() result(u)
        real(c_double) :: u
        integer(c_int64_t) :: top
        state = state * 6364136223846793005_c_int64_t + 1442695040888963407_c_int64_t
        top = ishft(state, -11)
        u = 2.0d0 * real(top, c_double) / 2.0d0**53 - 1.0d0
    end function

    ! A x^3 from the dense tensor.
    function dense_grad(x) result(y)
        real(c_double), intent(in) :: x(3)
        real(c_double) :: y(3)
        integer :: a, b, c, d
        y = 0
        do d = 1, 3
            do c = 1, 3
                do b = 1, 3
                    do a = 1, 3
                        y(a) = y(a) + dense(a, b, c, d) * x(b) * x(c) * x(d)
                    end do
                end do
            end do
        end do
    end function

    ! Whether lam is one of want (10 decimals known).
    logical function known(lam, want, tol)
        real(c_double), intent(in) :: lam, want(3), tol
        known = minval(abs(want - lam)) < tol
    end function

    subroutine eigenpairs(h)
        type(c_ptr), intent(in) :: h
        real(c_double), target :: a(15, nt), lam(ns, nt), x(3, ns, nt), y(3, ns, nt)
        real(c_float), target :: af(15, nt), lamf(ns, nt), xf(3, ns, nt), x0f(3, ns)
        integer(c_int32_t), target :: iters(ns, nt), flags(ns, nt)
        integer :: t, s, k
        logical :: found(3), ok
        real(c_double) :: worst, g(3)
        do t = 1, nt
            a(:, t) = kr
        end do
        af = real(a, c_float)
        x0f = real(x0, c_float)
        ! Double, convex SAFE.
        call check(numgpu_dsshopm(h, NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_SAFE, 4_c_int64_t, 3_c_int64_t, int(nt, c_int64_t), &
            int(ns, c_int64_t), c_loc(a), 15_c_int64_t, c_loc(x0), 0_c_int64_t, 0.0d0, 1d-12, &
            20000_c_int64_t, c_loc(lam), c_loc(x), c_loc(iters), c_loc(flags)) == NUMGPU_SUCCESS, &
            "numgpu_dsshopm: " // numgpu_last_error_string())
        ! numgpu_dsym_apply (p = 1) on the first tensor and its first result against the dense tensor.
        call check(numgpu_dsym_apply(h, 4_c_int64_t, 3_c_int64_t, 1_c_int64_t, 1_c_int64_t, c_loc(a), 15_c_int64_t, &
            c_loc(x), 3_c_int64_t, c_loc(y), 3_c_int64_t) == NUMGPU_SUCCESS, "numgpu_dsym_apply: " // &
            numgpu_last_error_string())
        call check(norm2(y(:, 1, 1) - dense_grad(x(:, 1, 1))) < 1d-13, "numgpu_dsym_apply against the dense tensor")
        found = .false.
        ok = all(flags == NUMGPU_SSHOPM_CONVERGED)
        worst = 0
        do t = 1, nt
            do s = 1, ns
                g = dense_grad(x(:, s, t))
                worst = max(worst, norm2(g - lam(s, t) * x(:, s, t)), abs(norm2(x(:, s, t)) - 1))
                ok = ok .and. known(lam(s, t), kr_max, 1d-9)
                do k = 1, 3
                    if (abs(lam(s, t) - kr_max(k)) < 1d-9) found(k) = .true.
                end do
            end do
        end do
        call check(ok .and. all(found) .and. worst < 1d-5, "numgpu_dsshopm convex SAFE: known maxima, residuals")
        ! Float, concave ADAPTIVE.
        call check(numgpu_sshopm(h, NUMGPU_SSHOPM_CONCAVE, NUMGPU_SSHOPM_ADAPTIVE, 4_c_int64_t, 3_c_int64_t, &
            int(nt, c_int64_t), int(ns, c_int64_t), c_loc(af), 15_c_int64_t, c_loc(x0f), 0_c_int64_t, 0.0, 1e-6, &
            20000_c_int64_t, c_loc(lamf), c_loc(xf), c_loc(iters), c_loc(flags)) == NUMGPU_SUCCESS, &
            "numgpu_sshopm: " // numgpu_last_error_string())
        found = .false.
        ok = all(flags == NUMGPU_SSHOPM_CONVERGED)
        worst = 0
        do t = 1, nt
            do s = 1, ns
                g = dense_grad(real(xf(:, s, t), c_double))
                worst = max(worst, norm2(g - lamf(s, t) * real(xf(:, s, t), c_double)))
                ok = ok .and. known(real(lamf(s, t), c_double), kr_min, 1d-4)
                do k = 1, 3
                    if (abs(lamf(s, t) - kr_min(k)) < 1d-4) found(k) = .true.
                end do
            end do
        end do
        call check(ok .and. all(found) .and. worst < 2d-2, "numgpu_sshopm concave ADAPTIVE: known minima")
    end subroutine

    ! numgpu_dsshopm_unique convex and concave: the three maxima (NUMGPU_SSHOPM_LOCAL_MAX), the
    ! three minima (NUMGPU_SSHOPM_LOCAL_MIN), by decreasing lambda, every start counted once.
    subroutine unique(h)
        type(c_ptr), intent(in) :: h
        integer, parameter :: kmax = 4
        integer(c_int32_t), parameter :: modes(2) = [NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_CONCAVE]
        integer(c_int32_t), parameter :: types(2) = [NUMGPU_SSHOPM_LOCAL_MAX, NUMGPU_SSHOPM_LOCAL_MIN]
        character(len=*), parameter :: names(2) = ["maxima", "minima"]
        real(c_double), target :: a(15, nt), lam(kmax, nt), x(3, kmax, nt)
        integer(c_int32_t), target :: cnt(nt), mult(kmax, nt), ptype(kmax, nt)
        real(c_double) :: want(3)
        integer :: t, i
        do t = 1, nt
            a(:, t) = kr
        end do
        do i = 1, 2
            want = merge(kr_max, kr_min, i == 1)
            call check(numgpu_dsshopm_unique(h, modes(i), NUMGPU_SSHOPM_SAFE, 4_c_int64_t, 3_c_int64_t, int(nt, c_int64_t), &
                int(ns, c_int64_t), c_loc(a), 15_c_int64_t, c_loc(x0), 0_c_int64_t, 0.0d0, 1d-12, &
                20000_c_int64_t, 1d-4, int(kmax, c_int64_t), c_loc(cnt), c_loc(lam), c_loc(x), c_loc(mult), c_loc(ptype)) &
                == NUMGPU_SUCCESS, "numgpu_dsshopm_unique: " // numgpu_last_error_string())
            do t = 1, nt
                call check(cnt(t) == 3 .and. all(abs(lam(1:3, t) - want) < 1d-9) .and. all(ptype(1:3, t) == types(i)) &
                    .and. ptype(4, t) == NUMGPU_SSHOPM_OTHER .and. sum(mult(1:3, t)) == ns .and. mult(4, t) == 0, &
                    "numgpu_dsshopm_unique: the three " // names(i))
            end do
        end do
    end subroutine

    subroutine errors(h)
        type(c_ptr), intent(in) :: h
        real(c_double), target :: a(15), lam(ns), x(3, ns)
        integer(c_int32_t), target :: iters(ns), flags(ns)
        a = kr
        lam = 7
        call check(numgpu_dsshopm(h, NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_SAFE, 1_c_int64_t, 3_c_int64_t, 1_c_int64_t, &
            int(ns, c_int64_t), c_loc(a), 15_c_int64_t, c_loc(x0), 0_c_int64_t, 0.0d0, 1d-12, 10_c_int64_t, c_loc(lam), &
            c_loc(x), c_loc(iters), c_loc(flags)) == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 4, &
            "numgpu_dsshopm m = 1: argument 4")
        call check(numgpu_dsshopm(h, NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_SAFE, 4_c_int64_t, 3_c_int64_t, 1_c_int64_t, &
            int(ns, c_int64_t), c_loc(a), 15_c_int64_t, c_loc(x0), 0_c_int64_t, 0.0d0, 1d-12, 0_c_int64_t, c_loc(lam), &
            c_loc(x), c_loc(iters), c_loc(flags)) == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 14, &
            "numgpu_dsshopm maxit = 0: argument 14")
        call check(all(lam == 7), "an invalid numgpu_dsshopm call wrote lambda")
    end subroutine
end program test_sshopm_f
