! stebz: the generic wrappers of the tridiagonal eigenvalue routines (LAPACK ?stebz roles).
!@ specification
    ! call numgpu_stebz_batched(h, range, vl, vu, il, iu, abstol, d, e, m, w, info, status [, errmsg])
    !
    ! Eigenvalues of symmetric tridiagonal matrices by bisection, as LAPACK ?stebz with
    ! ORDER = 'E' (numgpu_?stebz_batched), in real(c_float) or real(c_double).
    !
    ! - range [in]: NUMGPU_STEBZ_ALL, NUMGPU_STEBZ_VALUE ((vl, vu]) or NUMGPU_STEBZ_INDEX
    !   (il .. iu); vl, vu, abstol of the element type, il, iu integer(c_int64_t).
    ! - d(:,:) [in]: n = size(d, 1); column i is T_i's diagonal; size(d, 2) is the batch, or 1
    !   for one T for the whole batch.
    ! - e(:,:) [in]: size(e, 1) >= n - 1 (row n, if there, is not referenced), size(e, 2) that
    !   of d; column i holds T_i's off-diagonal.
    ! - m(:) [out]: integer(c_int64_t), size batch = size(w, 2): eigenvalues found.
    ! - w(:,:) [out]: size(w, 1) >= n; w(1:m(i), i) the eigenvalues of T_i, ascending.
    ! - info(:) [out]: integer(c_int32_t), size batch (numgpu.h says what it means).
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_stebz_batched

    ! call numgpu_stecount_batched(h, d, e, mu, count, status [, errmsg])
    !
    ! count(j, i): the number of eigenvalues of T_i below mu(j) (numgpu_?stecount_batched); d
    ! and e as for numgpu_stebz_batched, count(:,:) integer(c_int64_t) of shape
    ! (size(mu), batch).
!@ generic numgpu_stecount_batched

!@ procedures
    subroutine plan_stebz(fname, sd, se, nbatch, nout, why_status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: sd(2), se(2), nbatch, nout(2)
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        why = ""
        if (se(1) < max(sd(1) - 1, 0_c_int64_t) .or. se(2) /= sd(2)) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "e is ", se(1), " x ", se(2), " but needs >= n - 1 rows and the columns of d, ", &
                sd(2), " with n = ", sd(1)
        else if (sd(2) /= nbatch .and. sd(2) /= 1) then
            write(why, '(a,i0,a,i0)') "size(d, 2) must be 1 or the batch size ", nbatch, ", not ", sd(2)
        else if (any(nout /= nbatch)) then
            write(why, '(a,i0)') "the per-matrix outputs must have the batch size ", nbatch
        end if
        call refuse(fname, why, why_status, errmsg)
    end subroutine

!@ template numgpu_stebz_batched: s d
    subroutine numgpu_stebz_batched_{p}(h, range, vl, vu, il, iu, abstol, d, e, m, w, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: range
        {type}, intent(in) :: vl, vu, abstol
        integer(c_int64_t), intent(in) :: il, iu
        {type}, intent(in), target, contiguous :: d(:,:), e(:,:)
        integer(c_int64_t), intent(inout), target, contiguous :: m(:)
        {type}, intent(inout), target, contiguous :: w(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: nb, sd
        type(c_ptr) :: mp
        nb = size(w, 2, kind=c_int64_t)
        call plan_stebz("numgpu_stebz_batched", shape(d, c_int64_t), shape(e, c_int64_t), nb, &
            [size(m, kind=c_int64_t), size(info, kind=c_int64_t)], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        sd = merge(0_c_int64_t, size(d, 1, kind=c_int64_t), size(d, 2) == 1)
        mp = c_null_ptr
        if (size(m) > 0) mp = c_loc(m)
        status = numgpu_{p}stebz_batched(h, range, size(d, 1, kind=c_int64_t), vl, vu, il, iu, abstol, address(d), sd, &
            address(e), merge(0_c_int64_t, size(e, 1, kind=c_int64_t), size(d, 2) == 1), mp, address(w), &
            size(w, 1, kind=c_int64_t), address(info), nb)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_stecount_batched: s d
    subroutine numgpu_stecount_batched_{p}(h, d, e, mu, count, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: d(:,:), e(:,:), mu(:)
        integer(c_int64_t), intent(inout), target, contiguous :: count(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: nb
        type(c_ptr) :: cp
        nb = size(count, 2, kind=c_int64_t)
        call plan_stebz("numgpu_stecount_batched", shape(d, c_int64_t), shape(e, c_int64_t), nb, &
            [nb, nb], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        if (size(count, 1) /= size(mu)) then
            call refuse("numgpu_stecount_batched", "size(count, 1) must be size(mu)", status, errmsg)
            return
        end if
        cp = c_null_ptr
        if (size(count) > 0) cp = c_loc(count)
        status = numgpu_{p}stecount_batched(h, size(d, 1, kind=c_int64_t), size(mu, kind=c_int64_t), address(d), &
            merge(0_c_int64_t, size(d, 1, kind=c_int64_t), size(d, 2) == 1), address(e), &
            merge(0_c_int64_t, size(e, 1, kind=c_int64_t), size(d, 2) == 1), address(mu), cp, nb)
        call report(status, errmsg)
    end subroutine
!@ end
