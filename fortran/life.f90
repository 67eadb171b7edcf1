! life: the generic wrappers of LiFE connectome evaluation (numgpu_life_create for
! numgpu_life_plan_create,
! numgpu_dlife_mw, numgpu_dlife_mty, numgpu_dlife_sbbnnls): sizes from the arrays' shapes,
! checked against the plan's before any call.
!@ specification
    ! call numgpu_life_create(h, ntheta, natoms, nvoxels, nfibers, atoms, voxels, fibers, index_base, values, &
    !                         p, status [, errmsg])
    !
    ! A LiFE plan from Phi in COO form (numgpu_life_plan_create): nnz = size(values) entries,
    ! atoms(:), voxels(:), fibers(:) integer(c_int32_t) of the same size, index_base 1 for
    ! Fortran-style (and ENCODE's MATLAB) indices. p [inout] receives the plan (type(c_ptr));
    ! release it with numgpu_life_plan_destroy(p).
!@ generic numgpu_life_create

    ! call numgpu_life_mw(h, p, D, w, beta, Y, status [, errmsg])
    !
    ! DSC: Y := beta Y + M w (numgpu_dlife_mw), real(c_double): D(:,:) the dictionary with
    ! size(D, 1) >= ntheta rows and natoms columns, w(:) of nfibers, Y(:,:) with size(Y, 1) >=
    ! ntheta rows and nvoxels columns (column v: voxel v).
!@ generic numgpu_life_mw

    ! call numgpu_life_mty(h, p, D, Y, beta, w, status [, errmsg])
    !
    ! WC: w := beta w + M^T Y (numgpu_dlife_mty), shapes as numgpu_life_mw.
!@ generic numgpu_life_mty

    ! call numgpu_life_sbbnnls(h, p, D, b, w, max_iters, tol, iters, objective, status [, errmsg])
    !
    ! min 1/2 ||M w - b||^2 subject to w >= 0 (numgpu_dlife_sbbnnls) from the start w(:) (in and
    ! out); b(:,:) shaped as Y of numgpu_life_mw; max_iters integer(c_int64_t) [in]; iters
    ! integer(c_int32_t) and objective real(c_double) [out].
!@ generic numgpu_life_sbbnnls
!@ procedures
    ! INVALID_VALUE in status (and errmsg) when D, the weights or the signal do not fit plan p.
    subroutine plan_life(fname, p, sd, nw, sy, status, errmsg)
        character(len=*), intent(in) :: fname
        type(c_ptr), intent(in) :: p
        integer(c_int64_t), intent(in) :: sd(2), nw, sy(2)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: nt, na, nv, nf, nz
        character(len=256) :: why
        status = numgpu_life_plan_info(p, nt, na, nv, nf, nz)
        if (status /= NUMGPU_SUCCESS) then
            call report(status, errmsg)
            return
        end if
        why = ""
        if (sd(1) < nt .or. sd(2) /= na) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "D is ", sd(1), " x ", sd(2), " but the plan needs >= ", nt, " x ", na
        else if (nw /= nf) then
            write(why, '(a,i0,a,i0)') "size(w) = ", nw, " must be nfibers = ", nf
        else if (sy(1) < nt .or. sy(2) /= nv) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "the signal is ", sy(1), " x ", sy(2), " but the plan needs >= ", nt, " x ", nv
        end if
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_life_create: d
    subroutine numgpu_life_create_{p}(h, ntheta, natoms, nvoxels, nfibers, atoms, voxels, fibers, index_base, values, &
            p, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in) :: ntheta, natoms, nvoxels, nfibers
        integer(c_int32_t), intent(in), target, contiguous :: atoms(:), voxels(:), fibers(:)
        integer(c_int32_t), intent(in) :: index_base
        {type}, intent(in), target, contiguous :: values(:)
        type(c_ptr), intent(inout) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (size(atoms) /= size(values) .or. size(voxels) /= size(values) .or. size(fibers) /= size(values)) then
            call refuse("numgpu_life_create", "atoms, voxels, fibers and values must have one size", status, errmsg)
            return
        end if
        status = numgpu_life_plan_create(h, ntheta, natoms, nvoxels, nfibers, size(values, kind=c_int64_t), address(atoms), &
            address(voxels), address(fibers), index_base, address(values), p)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_life_mw: d
    subroutine numgpu_life_mw_{p}(h, p, D, w, beta, Y, status, errmsg)
        type(c_ptr), intent(in) :: h, p
        {type}, intent(in), target, contiguous :: D(:,:), w(:)
        {type}, intent(in) :: beta
        {type}, intent(inout), target, contiguous :: Y(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call plan_life("numgpu_life_mw", p, shape(D, kind=c_int64_t), size(w, kind=c_int64_t), shape(Y, kind=c_int64_t), &
            status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}life_mw(h, p, address(D), max(size(D, 1, kind=c_int64_t), 1_c_int64_t), address(w), beta, &
            address(Y), max(size(Y, 1, kind=c_int64_t), 1_c_int64_t))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_life_mty: d
    subroutine numgpu_life_mty_{p}(h, p, D, Y, beta, w, status, errmsg)
        type(c_ptr), intent(in) :: h, p
        {type}, intent(in), target, contiguous :: D(:,:), Y(:,:)
        {type}, intent(in) :: beta
        {type}, intent(inout), target, contiguous :: w(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call plan_life("numgpu_life_mty", p, shape(D, kind=c_int64_t), size(w, kind=c_int64_t), shape(Y, kind=c_int64_t), &
            status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}life_mty(h, p, address(D), max(size(D, 1, kind=c_int64_t), 1_c_int64_t), address(Y), &
            max(size(Y, 1, kind=c_int64_t), 1_c_int64_t), beta, address(w))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_life_sbbnnls: d
    subroutine numgpu_life_sbbnnls_{p}(h, p, D, b, w, max_iters, tol, iters, objective, status, errmsg)
        type(c_ptr), intent(in) :: h, p
        {type}, intent(in), target, contiguous :: D(:,:), b(:,:)
        {type}, intent(inout), target, contiguous :: w(:)
        integer(c_int64_t), intent(in) :: max_iters
        {type}, intent(in) :: tol
        integer(c_int32_t), intent(out), target :: iters
        {type}, intent(out), target :: objective
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call plan_life("numgpu_life_sbbnnls", p, shape(D, kind=c_int64_t), size(w, kind=c_int64_t), &
            shape(b, kind=c_int64_t), status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}life_sbbnnls(h, p, address(D), max(size(D, 1, kind=c_int64_t), 1_c_int64_t), address(b), &
            max(size(b, 1, kind=c_int64_t), 1_c_int64_t), address(w), max_iters, tol, c_loc(iters), c_loc(objective))
        call report(status, errmsg)
    end subroutine
!@ end
