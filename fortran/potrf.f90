! potrf: the generic wrappers of batched Cholesky (LAPACK ?potrf, ?potrs, ?posv) over the
! strided C entry points.
!@ specification
    ! call numgpu_potrf_batched(h, uplo, A, info, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): A(:,:,i) = L L^H (uplo NUMGPU_UPLO_LOWER) or U^H U
    ! (NUMGPU_UPLO_UPPER), the factor overwriting that triangle, as LAPACK ?potrf
    ! (numgpu_?potrf_batched_strided) in real(c_float), real(c_double), complex(c_float_complex)
    ! or complex(c_double_complex). The other triangle is neither read nor written.
    !
    ! - A(:,:,:) [in,out]: n = size(A, 2), lda = size(A, 1) (>= n, else numgpu refuses lda),
    !   batch = size(A, 3).
    ! - info(:) [out]: size batch; 0, or k > 0: the leading minor of order k is not positive
    !   definite (see numgpu.h).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
!@ generic numgpu_potrf_batched

    ! call numgpu_potrs_batched(h, uplo, A, B, status [, errmsg])
    !
    ! For i = 1 .. size(B, 3): solves A_i X = B(:,:,i) with the factors of numgpu_potrf_batched,
    ! X overwriting B (numgpu_?potrs_batched_strided).
    !
    ! - A(:,:,:) [in]: the factors, n = size(A, 2), lda = size(A, 1); size(A, 3) is the batch,
    !   or 1 to use one factorisation for the whole batch (strideA = 0).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), batch = size(B, 3).
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_potrs_batched

    ! call numgpu_posv_batched(h, uplo, A, B, info, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): factors A(:,:,i) and solves A_i X = B(:,:,i), X overwriting B;
    ! where info(i) > 0, B(:,:,i) is left unchanged (numgpu_?posv_batched_strided).
    !
    ! - A(:,:,:) [in,out], info(:) [out]: as for the factorisation.
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), size(B, 3) = size(A, 3).
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_posv_batched

    ! Sizes of one call of the potrf family derived from the array shapes.
    type :: chol_plan
        integer(c_int64_t) :: n = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldb = 1, sb = 0
    end type
!@ procedures
    subroutine plan_chol(fname, sa, sb, has_b, nout, outname, batch, share_a, p, status, errmsg)
        character(len=*), intent(in) :: fname, outname
        integer(c_int64_t), intent(in) :: sa(3), sb(3), nout, batch
        logical, intent(in) :: has_b, share_a
        type(chol_plan), intent(out) :: p
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
        else if (has_b .and. sb(3) /= batch) then
            write(why, '(a,i0,a,i0)') "size(B, 3) must be the batch size ", batch, ", not ", sb(3)
        else if (len(outname) > 0 .and. nout /= batch) then
            write(why, '(3a,i0,a,i0)') "size(", outname, ") must be the batch size ", batch, ", not ", nout
        end if
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_potrf_batched: s d c z
    subroutine numgpu_potrf_batched_{p}(h, uplo, A, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type}, intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(chol_plan) :: p
        call plan_chol("numgpu_potrf_batched", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], .false., &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}potrf_batched_strided(h, uplo, p%n, address(A), p%lda, p%sa, address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_potrs_batched: s d c z
    subroutine numgpu_potrs_batched_{p}(h, uplo, A, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {type}, intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(chol_plan) :: p
        call plan_chol("numgpu_potrs_batched", shape(A, c_int64_t), shape(B, c_int64_t), .true., 0_c_int64_t, "", &
            size(B, 3, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}potrs_batched_strided(h, uplo, p%n, p%nrhs, address(A), p%lda, p%sa, address(B), p%ldb, &
            p%sb, p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_potrs_batched/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= n, batch).
    subroutine numgpu_potrs_batched_one_{p}(h, uplo, A, b, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {type}, intent(inout), target, contiguous :: b(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_potrs_batched_{p}(h, uplo, A, b3, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_posv_batched: s d c z
    subroutine numgpu_posv_batched_{p}(h, uplo, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type}, intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(chol_plan) :: p
        call plan_chol("numgpu_posv_batched", shape(A, c_int64_t), shape(B, c_int64_t), .true., &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}posv_batched_strided(h, uplo, p%n, p%nrhs, address(A), p%lda, p%sa, address(B), p%ldb, &
            p%sb, address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_posv_batched/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= n, batch).
    subroutine numgpu_posv_batched_one_{p}(h, uplo, A, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type}, intent(inout), target, contiguous :: A(:,:,:), b(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_posv_batched_{p}(h, uplo, A, b3, info, status, errmsg)
    end subroutine
!@ end
