! getrf_fullpivot: the generic wrappers of batched LU with complete pivoting (LAPACK ?getc2,
! ?gesc2) over the strided C entry points.
!@ specification
    ! call numgpu_getrf_fullpivot_batched(h, mode, A, ipiv, jpiv, info, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): A(:,:,i) = P L U Q with complete pivoting, as LAPACK ?getc2
    ! (numgpu_?getrf_fullpivot_batched_strided) in real(c_float), real(c_double),
    ! complex(c_float_complex) or complex(c_double_complex).
    !
    ! - mode [in]: NUMGPU_FULLPIVOT_GETC2 or NUMGPU_FULLPIVOT_STRICT.
    ! - A(:,:,:) [in,out]: n = size(A, 2), lda = size(A, 1) (>= n, else numgpu refuses lda),
    !   batch = size(A, 3); the factors L (unit lower) and U overwrite it.
    ! - ipiv(:,:), jpiv(:,:) [out]: shape (n, batch), integer(c_int32_t), 1-based interchanges.
    ! - info(:) [out]: size batch; 0, or k > 0 (see numgpu.h: the perturbed step in GETC2 mode,
    !   the rank + 1 in STRICT mode, the first non-finite pivot).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
!@ generic numgpu_getrf_fullpivot_batched

    ! call numgpu_getrs_fullpivot_batched(h, trans, A, ipiv, jpiv, B, status [, errmsg])
    !
    ! For i = 1 .. size(B, 3): solves op(A_i) X = B(:,:,i) with the factors and interchanges of
    ! numgpu_getrf_fullpivot_batched, X overwriting B (numgpu_?getrs_fullpivot_batched_strided).
    !
    ! - trans [in]: NUMGPU_OP_N, NUMGPU_OP_T or NUMGPU_OP_C.
    ! - A(:,:,:) [in]: the factors, n = size(A, 2), lda = size(A, 1); size(A, 3) is the batch,
    !   or 1 to use one factorisation for the whole batch (strideA = 0).
    ! - ipiv(:,:), jpiv(:,:) [in]: shape (n, batch) (also when size(A, 3) = 1).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), batch = size(B, 3).
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_getrs_fullpivot_batched

    ! call numgpu_gesv_fullpivot_batched(h, A, ipiv, jpiv, B, info, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): factors A(:,:,i) in STRICT mode and solves A_i X = B(:,:,i), X
    ! overwriting B; where info(i) > 0, B(:,:,i) is left unchanged
    ! (numgpu_?gesv_fullpivot_batched_strided).
    !
    ! - A(:,:,:) [in,out], ipiv(:,:), jpiv(:,:) [out], info(:) [out]: as for the factorisation.
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), size(B, 3) = size(A, 3).
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_gesv_fullpivot_batched

    ! call numgpu_gesc2_batched(h, A, rhs, ipiv, jpiv, scale, status [, errmsg])
    !
    ! LAPACK ?gesc2 for each i = 1 .. size(rhs, 2): solves A_i x = scale(i) rhs(:,i) with the
    ! factors of numgpu_getrf_fullpivot_batched (mode GETC2), x overwriting rhs(:,i)
    ! (numgpu_?gesc2_batched_strided).
    !
    ! - A(:,:,:) [in]: the factors, n = size(A, 2), lda = size(A, 1); size(A, 3) is the batch or
    !   1 (one factorisation for all, strideA = 0).
    ! - rhs(:,:) [in,out]: shape (n, batch).
    ! - ipiv(:,:), jpiv(:,:) [in]: shape (n, batch).
    ! - scale(:) [out]: size batch, the real kind of A.
!@ generic numgpu_gesc2_batched

    ! Sizes of one call of the getrf_fullpivot family derived from the array shapes.
    type :: lu_plan
        integer(c_int64_t) :: n = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldb = 1, sb = 0
    end type
!@ procedures
    subroutine plan_lu(fname, sa, sip, sjp, sb, bname, nout, outname, batch, share_a, p, status, errmsg)
        character(len=*), intent(in) :: fname, bname, outname
        integer(c_int64_t), intent(in) :: sa(3), sip(2), sjp(2), sb(3), nout, batch
        logical, intent(in) :: share_a
        type(lu_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why

        p%n = sa(2)
        p%batch = batch
        p%lda = max(1_c_int64_t, sa(1))
        p%sa = merge(0_c_int64_t, p%lda * sa(2), share_a .and. sa(3) == 1)
        p%ldb = max(1_c_int64_t, sb(1))
        p%nrhs = sb(2)
        p%sb = p%ldb * sb(2)

        why = ""
        if (sa(3) /= batch .and. .not. (share_a .and. sa(3) == 1)) then
            if (share_a) then
                write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or the batch size ", batch, ", not ", sa(3)
            else
                write(why, '(a,i0,a,i0)') "size(A, 3) must be the batch size ", batch, ", not ", sa(3)
            end if
        else if (bname == "B" .and. sb(3) /= batch) then
            write(why, '(a,i0,a,i0)') "size(B, 3) must be the batch size ", batch, ", not ", sb(3)
        else if (bname == "rhs" .and. sb(1) /= p%n) then
            write(why, '(a,i0,a,i0,a,i0)') "rhs is ", sb(1), " x ", sb(3), " but must be n x batch with n = ", p%n
        else if (sip(1) /= p%n .or. sip(2) /= batch) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "ipiv is ", sip(1), " x ", sip(2), " but must be n x batch = ", &
                p%n, " x ", batch
        else if (sjp(1) /= p%n .or. sjp(2) /= batch) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "jpiv is ", sjp(1), " x ", sjp(2), " but must be n x batch = ", &
                p%n, " x ", batch
        else if (len(outname) > 0 .and. nout /= batch) then
            write(why, '(3a,i0,a,i0)') "size(", outname, ") must be the batch size ", batch, ", not ", nout
        end if
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_getrf_fullpivot_batched: s d c z
    subroutine numgpu_getrf_fullpivot_batched_{p}(h, mode, A, ipiv, jpiv, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: mode
        {type}, intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        call plan_lu("numgpu_getrf_fullpivot_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], "", &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}getrf_fullpivot_batched_strided(h, mode, p%n, address(A), p%lda, p%sa, address(ipiv), &
            address(jpiv), address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_getrs_fullpivot_batched: s d c z
    subroutine numgpu_getrs_fullpivot_batched_{p}(h, trans, A, ipiv, jpiv, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        {type}, intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        {type}, intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        call plan_lu("numgpu_getrs_fullpivot_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(B, 3, c_int64_t), "", size(B, 3, c_int64_t), .true., &
            p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}getrs_fullpivot_batched_strided(h, trans, p%n, p%nrhs, address(A), p%lda, p%sa, &
            address(ipiv), address(jpiv), address(B), p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_getrs_fullpivot_batched/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= n, batch).
    subroutine numgpu_getrs_fullpivot_batched_one_{p}(h, trans, A, ipiv, jpiv, b, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        {type}, intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        {type}, intent(inout), target, contiguous :: b(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_getrs_fullpivot_batched_{p}(h, trans, A, ipiv, jpiv, b3, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gesv_fullpivot_batched: s d c z
    subroutine numgpu_gesv_fullpivot_batched_{p}(h, A, ipiv, jpiv, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        call plan_lu("numgpu_gesv_fullpivot_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), &
            .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gesv_fullpivot_batched_strided(h, p%n, p%nrhs, address(A), p%lda, p%sa, address(ipiv), &
            address(jpiv), address(B), p%ldb, p%sb, address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gesv_fullpivot_batched/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= n, batch).
    subroutine numgpu_gesv_fullpivot_batched_one_{p}(h, A, ipiv, jpiv, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(inout), target, contiguous :: A(:,:,:), b(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_gesv_fullpivot_batched_{p}(h, A, ipiv, jpiv, b3, info, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gesc2_batched: s d c z
    subroutine numgpu_gesc2_batched_{p}(h, A, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {type}, intent(inout), target, contiguous :: rhs(:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        {real}, intent(inout), target, contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        call plan_lu("numgpu_gesc2_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), shape(jpiv, c_int64_t), &
            [size(rhs, 1, c_int64_t), 1_c_int64_t, size(rhs, 2, c_int64_t)], "rhs", size(scale, kind=c_int64_t), "scale", &
            size(rhs, 2, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gesc2_batched_strided(h, p%n, address(A), p%lda, p%sa, address(rhs), p%ldb, &
            address(ipiv), address(jpiv), address(scale), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end
