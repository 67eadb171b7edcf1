! rkc: the generic wrapper of many independent ODE systems (numgpu_rkc_integrate, double
! precision) on Fortran arrays.
!@ specification
    ! call numgpu_rkc(h, ode, t0, tend, Y, P, rtol, atol, sys_status, status [, opts, state, stats, errmsg])
    !
    ! numgpu_rkc_integrate on Fortran arrays, system-major: system i is column i of Y and P.
    ! - Y(:,:) [inout]: shape (ldy >= neq, nsys), nsys = size(Y, 2); P(:,:) [in]: shape
    !   (ldp >= npar, nsys), or size 0 when npar = 0; atol(:) [in]: 1 or neq values;
    ! - sys_status(:) [out]: size nsys, each system's status (0 reached tend, see numgpu.h);
    ! - opts [in]: a numgpu_rkc_options (absent: the defaults); state(:,:) [inout]: shape
    !   (6 + neq, nsys), zeros for a cold start; stats(:,:) [out]: shape (NUMGPU_RKC_NSTATS,
    !   nsys), stats(NUMGPU_RKC_STAT_X + 1, i) the numgpu_rkc_stat X of system i;
    ! - status [out]: the call's numgpu_status; NUMGPU_INVALID_VALUE (and errmsg) when the
    !   shapes do not conform, nothing written.
!@ generic numgpu_rkc
!@ procedures
!@ template numgpu_rkc: d
    subroutine numgpu_rkc_{p}(h, ode, t0, tend, Y, P, rtol, atol, sys_status, status, opts, state, stats, errmsg)
        type(c_ptr), intent(in) :: h, ode
        real(c_double), intent(in) :: t0, tend, rtol
        real(c_double), intent(inout), target, contiguous :: Y(:,:)
        real(c_double), intent(in), target, contiguous :: P(:,:), atol(:)
        integer(c_int32_t), intent(inout), target, contiguous :: sys_status(:)
        integer(c_int32_t), intent(out) :: status
        type(numgpu_rkc_options), intent(in), target, optional :: opts
        real(c_double), intent(inout), target, contiguous, optional :: state(:,:)
        integer(c_int64_t), intent(inout), target, contiguous, optional :: stats(:,:)
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: nsys
        type(c_ptr) :: po, pstate, pstats
        character(len=256) :: why

        nsys = size(Y, 2, kind=c_int64_t)
        why = ""
        if (size(sys_status, kind=c_int64_t) /= nsys) then
            write (why, '(a,i0,a,i0)') "size(sys_status) = ", size(sys_status), " must be size(Y, 2) = ", nsys
        else if (size(P) > 0 .and. size(P, 2, kind=c_int64_t) /= nsys) then
            write (why, '(a,i0,a,i0)') "size(P, 2) = ", size(P, 2), " must be size(Y, 2) = ", nsys
        else if (present(state)) then
            if (size(state, 2, kind=c_int64_t) /= nsys .or. size(state, 1) < 6) then
                write (why, '(a,i0,a,i0,a)') "state must have shape (6 + neq, ", nsys, "), not (", size(state, 1), ", ...)"
            end if
        end if
        if (len_trim(why) == 0 .and. present(stats)) then
            if (size(stats, 1) /= NUMGPU_RKC_NSTATS .or. size(stats, 2, kind=c_int64_t) /= nsys) &
                write (why, '(a,i0,a,i0,a)') "stats must have shape (", NUMGPU_RKC_NSTATS, ", ", nsys, ")"
        end if
        call refuse("numgpu_rkc", why, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        po = c_null_ptr
        pstate = c_null_ptr
        pstats = c_null_ptr
        if (present(opts)) po = c_loc(opts)
        if (present(state)) pstate = address(state)
        if (present(stats)) then
            if (size(stats) > 0) pstats = c_loc(stats)
        end if
        status = numgpu_rkc_integrate(h, ode, nsys, size(atol, kind=c_int64_t), t0, tend, address(Y), &
            size(Y, 1, kind=c_int64_t), NUMGPU_LAYOUT_SYSTEM_MAJOR, address(P), max(1_c_int64_t, size(P, 1, kind=c_int64_t)), &
            rtol, address(atol), po, pstate, address(sys_status), pstats)
        call report(status, errmsg)
    end subroutine
!@ end
