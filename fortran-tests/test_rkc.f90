! test_rkc_f: numgpu_rkc_integrate from Fortran through `use numgpu`.
!
! - A user right-hand side as a bind(C) Fortran procedure (the CPU backend's host callback,
!   with a `user` pointer to a Fortran variable) and as CUDA source text (the CUDA backend's):
!     y_j' = -k_j (y_j - cos t) - sin t,  k_j = s * p(1) * j,  exact y_j = cos t + (y0_j - 1) e^(-k_j t),
!   s = 2 (the user variable; the source has it as a literal), over Y(NEQ, NSYS) and
!   P(NPAR, NSYS) (NUMGPU_LAYOUT_SYSTEM_MAJOR, ldy = NEQ), RKC and RKCK: every system reaches
!   the exact solution within 100 tolerances, status 0, steps = accepted + rejected; through
!   numgpu_rkc_integrate and through the wrapper numgpu_rkc.
! - The built-in PLEI with RKCK at 1e-10 against the published values at t = 3 (positions).
! - A bad argument (layout 7: argument 8) is NUMGPU_INVALID_VALUE and writes nothing.
! - The wrapper numgpu_rkc (assumed-shape Y(NEQ, NSYS)) on PLEI, with a state and stats, and its
!   shape check (sys_status too short: NUMGPU_INVALID_VALUE, nothing written).
! The user right-hand side runs on the handle numgpu_create picks (AUTO: on a GPU host the
! CUDA source) and on an explicit CPU handle (the Fortran callback); PLEI on AUTO. RKC's
! numerics (methods, step control, status codes, problems) are tests/integration/rkc.rs's.
!
! Prints "test_rkc_f: N passed, M failed" and stops with code 1 on any failure.
module test_rkc_rhs
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_double, c_int64_t
    implicit none
contains
    ! numgpu_ode_rhs_proc: y(neq), p(1), dydt(neq); user points to s.
    subroutine decay_rhs(t, y, p, dydt, neq, user) bind(C)
        real(c_double), value :: t
        integer(c_int64_t), value :: neq
        real(c_double), intent(in) :: y(neq), p(1)
        real(c_double), intent(out) :: dydt(neq)
        type(c_ptr), value :: user
        real(c_double), pointer :: s
        integer :: j
        call c_f_pointer(user, s)
        do j = 1, int(neq)
            dydt(j) = -s * p(1) * real(j, c_double) * (y(j) - cos(t)) - sin(t)
        end do
    end subroutine
end module

program test_rkc_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    use test_rkc_rhs
    implicit none

    integer(c_int64_t), parameter :: NEQ = 3, NPAR = 1, NSYS = 40
    character(len=*), parameter :: SRC = &
        "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {" // c_new_line // &
        "    for (int j = 0; j < NEQ; ++j) f[j] = -2.0 * p[0] * (double)(j + 1) * (y[j] - cos(t)) - sin(t);" // c_new_line // &
        "}" // c_new_line
    real(c_double), parameter :: PLEI_T3(4) = [0.3706139143970502_c_double, 3.237284092057233_c_double, &
        -3.222559032418324_c_double, 0.6597091455775310_c_double]
    type(c_ptr) :: h, hcpu
    real(c_double), target :: scale = 2.0_c_double
    character(kind=c_char), target :: source(len(SRC) + 1)
    integer :: k

    do k = 1, len(SRC)
        source(k) = SRC(k:k)
    end do
    source(len(SRC) + 1) = c_null_char

    h = start("test_rkc_f")
    hcpu = c_null_ptr
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int64_t) == NUMGPU_SUCCESS, "numgpu_create_with(CPU)")
    call user_rhs(h, "AUTO")
    call user_rhs(hcpu, "CPU")
    call plei(h)
    call check(numgpu_destroy(hcpu) == NUMGPU_SUCCESS, "numgpu_destroy(CPU)")
    call finish(h)

contains

    subroutine user_rhs(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        type(c_ptr) :: ode
        real(c_double), target :: Y(NEQ, NSYS), P(NPAR, NSYS), atol(1), Y0(NEQ, NSYS), Ybad(NEQ, NSYS)
        integer(c_int32_t), target :: status(NSYS)
        integer(c_int64_t), target :: stats(NUMGPU_RKC_NSTATS, NSYS)
        type(numgpu_rkc_options), target :: opts
        real(c_double) :: rtol, exact, err, worst, kj
        character(len=*), parameter :: forms(2) = ["numgpu_rkc_integrate", "numgpu_rkc          "]
        integer :: i, j, bad, form
        integer(c_int32_t) :: method, st

        ode = c_null_ptr
        st = numgpu_ode_create(h, NEQ, NPAR, c_loc(source), c_funloc(decay_rhs), c_null_funptr, c_loc(scale), ode)
        call check(st == NUMGPU_SUCCESS, hname // " numgpu_ode_create: " // numgpu_last_error_string())
        if (st /= NUMGPU_SUCCESS) return
        do i = 1, int(NSYS)
            P(1, i) = 0.5_c_double * real(i, c_double)
            do j = 1, int(NEQ)
                Y0(j, i) = 1.0_c_double + 0.1_c_double * real(j, c_double)
            end do
        end do
        rtol = 1.0e-6_c_double
        atol(1) = 1.0e-8_c_double
        do method = NUMGPU_RKC_METHOD_RKC, NUMGPU_RKC_METHOD_RKCK
            call check(numgpu_rkc_options_default(opts) == NUMGPU_SUCCESS, "numgpu_rkc_options_default")
            opts%method = method
            ! The bind(C) interface, then the wrapper numgpu_rkc on the same arrays.
            do form = 1, 2
                Y = Y0
                status = -7
                if (form == 1) then
                    st = numgpu_rkc_integrate(h, ode, NSYS, 1_c_int64_t, 0.0_c_double, 1.0_c_double, c_loc(Y), NEQ, &
                        NUMGPU_LAYOUT_SYSTEM_MAJOR, c_loc(P), NPAR, rtol, c_loc(atol), c_loc(opts), c_null_ptr, &
                        c_loc(status), c_loc(stats))
                else
                    call numgpu_rkc(h, ode, 0.0_c_double, 1.0_c_double, Y, P, rtol, atol, status, st, opts, stats=stats)
                end if
                call check(st == NUMGPU_SUCCESS, hname // " " // trim(forms(form)) // ": " // numgpu_last_error_string())
                bad = 0
                worst = 0.0_c_double
                do i = 1, int(NSYS)
                    do j = 1, int(NEQ)
                        kj = scale * P(1, i) * real(j, c_double)
                        exact = cos(1.0_c_double) + (Y0(j, i) - 1.0_c_double) * exp(-kj)
                        err = abs(Y(j, i) - exact) / (atol(1) + rtol * abs(exact))
                        worst = max(worst, err)
                        if (.not. (err < 100.0_c_double)) bad = bad + 1
                    end do
                    if (status(i) /= 0 .or. stats(2, i) /= stats(3, i) + stats(4, i)) bad = bad + 1
                end do
                call check(bad == 0, hname // " " // trim(forms(form)) // ", user RHS, method " // &
                    merge("RKC ", "RKCK", method == 0) // ": systems off the exact solution or with a bad status")
                if (bad /= 0) print '(a,es10.3)', "  worst error in tolerances: ", worst
            end do
        end do

        ! One bad argument: layout 7 is argument 8; Y and status untouched.
        Ybad = Y0
        status = -7
        st = numgpu_rkc_integrate(h, ode, NSYS, 1_c_int64_t, 0.0_c_double, 1.0_c_double, c_loc(Ybad), NEQ, 7_c_int32_t, &
            c_loc(P), NPAR, rtol, c_loc(atol), c_null_ptr, c_null_ptr, c_loc(status), c_null_ptr)
        call check(st == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 9, hname // " bad layout: " // &
            numgpu_last_error_string())
        call check(all(Ybad == Y0) .and. all(status == -7), hname // " bad layout wrote its outputs")
        call check(numgpu_ode_destroy(ode) == NUMGPU_SUCCESS, hname // " numgpu_ode_destroy")
    end subroutine

    subroutine plei(h)
        type(c_ptr), intent(in) :: h
        character(len=*), parameter :: hname = "AUTO"
        type(c_ptr) :: ode
        real(c_double), target :: Y(28, 1), Y0(28, 1), atol(1), state(34, 1), noP(0, 1)
        integer(c_int32_t), target :: status(1), nostatus(0)
        integer(c_int64_t), target :: stats(NUMGPU_RKC_NSTATS, 1)
        character(len=512) :: errmsg
        type(numgpu_rkc_options), target :: opts
        integer(c_int32_t) :: st

        ode = c_null_ptr
        st = numgpu_ode_builtin(h, NUMGPU_ODE_PLEI, 28_c_int64_t, ode)
        call check(st == NUMGPU_SUCCESS, hname // " numgpu_ode_builtin(PLEI): " // numgpu_last_error_string())
        if (st /= NUMGPU_SUCCESS) return
        Y(:, 1) = [3.0_c_double, 3.0_c_double, -1.0_c_double, -3.0_c_double, 2.0_c_double, -2.0_c_double, 2.0_c_double, &
            3.0_c_double, -3.0_c_double, 2.0_c_double, 0.0_c_double, 0.0_c_double, -4.0_c_double, 4.0_c_double, &
            0.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double, 1.75_c_double, -1.5_c_double, &
            0.0_c_double, 0.0_c_double, 0.0_c_double, -1.25_c_double, 1.0_c_double, 0.0_c_double, 0.0_c_double]
        atol(1) = 1.0e-10_c_double
        call check(numgpu_rkc_options_default(opts) == NUMGPU_SUCCESS, "numgpu_rkc_options_default")
        opts%method = NUMGPU_RKC_METHOD_RKCK
        errmsg = ""
        Y0 = Y
        st = numgpu_rkc_integrate(h, ode, 1_c_int64_t, 1_c_int64_t, 0.0_c_double, 3.0_c_double, c_loc(Y), 28_c_int64_t, &
            NUMGPU_LAYOUT_SYSTEM_MAJOR, c_null_ptr, 1_c_int64_t, 1.0e-10_c_double, c_loc(atol), c_loc(opts), &
            c_null_ptr, c_loc(status), c_null_ptr)
        call check(st == NUMGPU_SUCCESS .and. status(1) == 0, hname // " PLEI: " // numgpu_last_error_string())
        call check(maxval(abs(Y(1:4, 1) - PLEI_T3)) < 1.0e-6_c_double, hname // " PLEI against the values at t = 3")

        ! The same through the wrapper, in two warm-restarted halves, with statistics.
        Y = Y0
        state = 0.0_c_double
        call numgpu_rkc(h, ode, 0.0_c_double, 1.5_c_double, Y, noP, 1.0e-10_c_double, atol, status, st, opts, state, stats, errmsg)
        call check(st == NUMGPU_SUCCESS .and. status(1) == 0 .and. stats(3, 1) > 0, hname // " numgpu_rkc: " // trim(errmsg))
        call numgpu_rkc(h, ode, 1.5_c_double, 3.0_c_double, Y, noP, 1.0e-10_c_double, atol, status, st, opts, state, stats, errmsg)
        call check(st == NUMGPU_SUCCESS .and. status(1) == 0 .and. maxval(abs(Y(1:4, 1) - PLEI_T3)) < 1.0e-6_c_double, &
            hname // " numgpu_rkc in two halves against the values at t = 3")
        Y = Y0
        call numgpu_rkc(h, ode, 0.0_c_double, 3.0_c_double, Y, noP, 1.0e-10_c_double, atol, nostatus, st, errmsg=errmsg)
        call check(st == NUMGPU_INVALID_VALUE .and. index(errmsg, "sys_status") > 0 .and. all(Y == Y0), &
            hname // " numgpu_rkc shape check: " // trim(errmsg))
        call check(numgpu_ode_destroy(ode) == NUMGPU_SUCCESS, hname // " numgpu_ode_destroy(PLEI)")
    end subroutine
end program
