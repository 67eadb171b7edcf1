! geqrf_givens: the generic wrappers of batched QR by Givens rotations (LAPACK ?geqrf, ?ormqr /
! ?unmqr, ?orgqr / ?ungqr, ?gels roles) over the strided C entry points.
!@ specification
    ! call numgpu_geqrf_givens_batched(h, A, CS, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): A(:,:,i) = Q R by Givens rotations (numgpu.h has the storage and
    ! the rotation convention), numgpu_?geqrf_givens_batched_strided, in real(c_float),
    ! real(c_double), complex(c_float_complex) or complex(c_double_complex).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (n <= m, else numgpu refuses
    !   n), batch = size(A, 3); R in the upper triangle, the sines below it.
    ! - CS(:,:,:) [out]: the real kind of A (real(c_float) for c, real(c_double) for z);
    !   ldcs = size(CS, 1) (>= m, else numgpu refuses ldcs), size(CS, 2) = n,
    !   size(CS, 3) = batch: the cosines below the diagonal (the rest is not written).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
!@ generic numgpu_geqrf_givens_batched

    ! call numgpu_ormqr_givens_batched(h, side, trans, A, CS, C, status [, errmsg])
    !
    ! LAPACK ?ormqr (real kinds) / ?unmqr (complex kinds) for each i = 1 .. size(C, 3):
    ! C(:,:,i) := op(Q_i) C(:,:,i) (side NUMGPU_SIDE_LEFT) or C(:,:,i) op(Q_i)
    ! (NUMGPU_SIDE_RIGHT), Q_i of order nq (m for LEFT, n for RIGHT) from the rotations of the
    ! first k columns of a numgpu_geqrf_givens_batched factorisation, never formed
    ! (numgpu_?ormqr_givens_batched_strided / numgpu_?unmqr_givens_batched_strided).
    !
    ! - trans [in]: NUMGPU_OP_N (Q), NUMGPU_OP_T (Q^T, real kinds) or NUMGPU_OP_C (Q^H, complex
    !   kinds); the other one is refused by numgpu (argument 3), as by LAPACK.
    ! - A(:,:,:) [in]: the factorisations, lda = size(A, 1) (>= nq), k = size(A, 2) (<= nq);
    !   size(A, 3) is the batch, or 1 to apply one Q to the whole batch (strides 0).
    ! - CS(:,:,:) [in]: their cosines, ldcs = size(CS, 1) (>= nq), size(CS, 2) = k,
    !   size(CS, 3) = size(A, 3).
    ! - C(:,:,:) [in,out]: m = size(C, 1) (= ldc), n = size(C, 2), batch = size(C, 3).
!@ generic numgpu_ormqr_givens_batched

    ! call numgpu_orgqr_givens_batched(h, A, CS, status [, errmsg])
    !
    ! LAPACK ?orgqr (real kinds) / ?ungqr (complex kinds) for each i = 1 .. size(A, 3): A(:,:,i)
    ! := the first n columns of the Q_i made of the rotations of its first k columns
    ! (numgpu_?orgqr_givens_batched_strided / numgpu_?ungqr_givens_batched_strided).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (<= m), batch = size(A, 3); on
    !   entry the factorisation in its first k columns (e.g. A(:, 1:k, :) of
    !   numgpu_geqrf_givens_batched, with m x m for the whole Q).
    ! - CS(:,:,:) [in]: the cosines, ldcs = size(CS, 1) (>= m), k = size(CS, 2) (<= n, else
    !   numgpu refuses k), size(CS, 3) = batch; k = 0 (an empty CS) gives I(m, n).
!@ generic numgpu_orgqr_givens_batched

    ! call numgpu_gels_givens_batched(h, A, B, info, status [, errmsg])
    !
    ! LAPACK ?gels (TRANS = 'N', full rank, m >= n) for each i = 1 .. size(A, 3): minimises
    ! ||A(:,:,i) x - B(:,j,i)|| for every column j, X overwriting B(1:n, :, i) and the
    ! residual's coordinates B(n+1:m, :, i); A(:,:,i) is factored as by
    ! numgpu_geqrf_givens_batched (numgpu_?gels_givens_batched_strided).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (<= m), batch = size(A, 3).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= m, else numgpu refuses ldb), nrhs = size(B, 2),
    !   size(B, 3) = batch.
    ! - info(:) [out]: size batch; 0, or j when R(j, j) is exactly zero (B(:,:,i) unchanged).
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_gels_givens_batched

    ! Sizes of one call of the geqrf_givens family derived from the array shapes.
    type :: qr_plan
        integer(c_int64_t) :: m = 0, n = 0, k = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldcs = 1, scs = 0, ldb = 1, sb = 0
    end type
!@ procedures
    subroutine plan_qr(fname, routine, sa, scs, sb, ninfo, p, status, errmsg)
        character(len=*), intent(in) :: fname, routine
        integer(c_int64_t), intent(in) :: sa(3), scs(3), sb(3), ninfo
        type(qr_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        logical :: share

        p%lda = max(1_c_int64_t, sa(1))
        p%ldcs = max(1_c_int64_t, scs(1))
        p%ldb = max(1_c_int64_t, sb(1))
        p%sb = p%ldb * sb(2)
        p%nrhs = sb(2)
        if (routine == "ormqr") then
            ! C gives m, n and the batch; A gives k, and may be shared (size(A, 3) = 1).
            p%m = sb(1)
            p%n = sb(2)
            p%batch = sb(3)
            p%k = sa(2)
            share = sa(3) == 1
        else
            p%m = sa(1)
            p%n = sa(2)
            p%batch = sa(3)
            p%k = scs(2)
            share = .false.
        end if
        p%sa = merge(0_c_int64_t, p%lda * sa(2), share)
        p%scs = merge(0_c_int64_t, p%ldcs * scs(2), share)

        why = ""
        select case (routine)
        case ("geqrf")
            if (scs(2) /= p%n .or. scs(3) /= p%batch) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0)') "CS is ", scs(1), " x ", scs(2), " x ", scs(3), &
                    " but must be ldcs x n x batch with n = ", p%n, ", batch = ", p%batch
            end if
        case ("ormqr")
            if (sa(3) /= p%batch .and. sa(3) /= 1) then
                write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or the batch size size(C, 3) = ", p%batch, ", not ", sa(3)
            else if (scs(2) /= p%k .or. scs(3) /= sa(3)) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0)') "CS is ", scs(1), " x ", scs(2), " x ", scs(3), &
                    " but must be ldcs x k x size(A, 3) with k = size(A, 2) = ", p%k, ", size(A, 3) = ", sa(3)
            end if
        case ("orgqr")
            if (scs(3) /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(CS, 3) must be the batch size ", p%batch, ", not ", scs(3)
            end if
        case default
            if (sb(3) /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(B, 3) must be the batch size ", p%batch, ", not ", sb(3)
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        end select
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_geqrf_givens_batched: s d c z
    subroutine numgpu_geqrf_givens_batched_{p}(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:)
        {real}, intent(inout), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        call plan_qr("numgpu_geqrf_givens_batched", "geqrf", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}geqrf_givens_batched_strided(h, p%m, p%n, address(A), p%lda, p%sa, address(CS), p%ldcs, &
            p%scs, p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_ormqr_givens_batched: s d c z
    subroutine numgpu_ormqr_givens_batched_{p}(h, side, trans, A, CS, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: side, trans
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {real}, intent(in), target, contiguous :: CS(:,:,:)
        {type}, intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        call plan_qr("numgpu_ormqr_givens_batched", "ormqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            shape(C, c_int64_t), 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}{or}mqr_givens_batched_strided(h, side, trans, p%m, p%n, p%k, address(A), p%lda, p%sa, &
            address(CS), p%ldcs, p%scs, address(C), p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_orgqr_givens_batched: s d c z
    subroutine numgpu_orgqr_givens_batched_{p}(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:)
        {real}, intent(in), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        call plan_qr("numgpu_orgqr_givens_batched", "orgqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}{or}gqr_givens_batched_strided(h, p%m, p%n, p%k, address(A), p%lda, p%sa, address(CS), &
            p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gels_givens_batched: s d c z
    subroutine numgpu_gels_givens_batched_{p}(h, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        call plan_qr("numgpu_gels_givens_batched", "gels", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
            shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gels_givens_batched_strided(h, p%m, p%n, p%nrhs, address(A), p%lda, p%sa, address(B), &
            p%ldb, p%sb, address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gels_givens_batched/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= m, batch).
    subroutine numgpu_gels_givens_batched_one_{p}(h, A, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:), b(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_gels_givens_batched_{p}(h, A, b3, info, status, errmsg)
    end subroutine
!@ end
