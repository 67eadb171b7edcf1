! expm: the generic wrappers of the batched matrix exponentials.
!@ specification
    ! call numgpu_expm_eig_batched(h, E, lambda, Einv, t, P, status [, errmsg])
    !
    ! P(:,:,i) = E_i diag(exp(lambda_i t(i))) Einv_i for i = 1 .. size(t)
    ! (numgpu_?expm_eig_batched), any of the four kinds (t of the real kind).
    !
    ! - E(:,:,:), Einv(:,:,:) [in]: m x m eigenvectors and their inverse; size(., 3) is 1 (one
    !   for the whole batch, the common case) or size(t).
    ! - lambda(:,:) [in]: m eigenvalues per column; size(lambda, 2) is 1 or size(t).
    ! - t(:) [in]: the times (branch lengths); the batch is size(t).
    ! - P(:,:,:) [out]: m x m x size(t).
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_expm_eig_batched

    ! call numgpu_expm_batched(h, A, E, info, status [, errmsg])
    !
    ! E(:,:,i) = exp(A(:,:,i)) by scaling and squaring with Pade approximants
    ! (numgpu_?expm_batched). A(:,:,:) [in] m x m x batch (size(A, 3) = 1: one A for the whole
    ! batch), E(:,:,:) [out] m x m x batch, info(:) [out] integer(c_int32_t) of size batch
    ! (numgpu.h says what it means).
!@ generic numgpu_expm_batched

!@ procedures
    ! Refuses shapes that do not fit: each input's last extent is 1 or the batch, the
    ! matrices are m x m.
    subroutine plan_expm(fname, m, shapes, names, counts, nbatch, status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: m, shapes(:,:), counts(:), nbatch
        character(len=*), intent(in) :: names(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        integer :: j
        why = ""
        do j = 1, size(names)
            if (shapes(1, j) /= m .or. shapes(2, j) /= m) then
                write(why, '(a,a,i0,a,i0,a,i0)') trim(names(j)), " must be m x m (x batch) with m = ", m, ", not ", &
                    shapes(1, j), " x ", shapes(2, j)
                exit
            else if (counts(j) /= nbatch .and. counts(j) /= 1) then
                write(why, '(a,a,i0,a,i0)') trim(names(j)), "'s last extent must be 1 or the batch size ", nbatch, &
                    ", not ", counts(j)
                exit
            end if
        end do
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_expm_eig_batched: s d c z
    subroutine numgpu_expm_eig_batched_{p}(h, E, lambda, Einv, t, P, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: E(:,:,:), lambda(:,:), Einv(:,:,:)
        {real}, intent(in), target, contiguous :: t(:)
        {type}, intent(inout), target, contiguous :: P(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, nb
        m = size(lambda, 1, kind=c_int64_t)
        nb = size(t, kind=c_int64_t)
        call plan_expm("numgpu_expm_eig_batched", m, reshape([size(E, 1, c_int64_t), size(E, 2, c_int64_t), &
            size(Einv, 1, c_int64_t), size(Einv, 2, c_int64_t), size(P, 1, c_int64_t), size(P, 2, c_int64_t), m, m], &
            [2, 4]), &
            [character(len=6) :: "E", "Einv", "P", "lambda"], [size(E, 3, c_int64_t), size(Einv, 3, c_int64_t), &
            size(P, 3, c_int64_t), size(lambda, 2, c_int64_t)], nb, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        if (size(P, 3, c_int64_t) /= nb) then
            call refuse("numgpu_expm_eig_batched", "size(P, 3) must be size(t)", status, errmsg)
            return
        end if
        status = numgpu_{p}expm_eig_batched(h, m, address(E), m, merge(0_c_int64_t, m * m, size(E, 3) == 1), &
            address(lambda), merge(0_c_int64_t, m, size(lambda, 2) == 1), address(Einv), m, &
            merge(0_c_int64_t, m * m, size(Einv, 3) == 1), address(t), address(P), m, m * m, nb)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_expm_batched: s d c z
    subroutine numgpu_expm_batched_{p}(h, A, E, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {type}, intent(inout), target, contiguous :: E(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, nb
        m = size(E, 1, kind=c_int64_t)
        nb = size(E, 3, kind=c_int64_t)
        call plan_expm("numgpu_expm_batched", m, reshape([size(A, 1, c_int64_t), size(A, 2, c_int64_t), &
            size(E, 1, c_int64_t), size(E, 2, c_int64_t)], [2, 2]), &
            [character(len=1) :: "A", "E"], [size(A, 3, c_int64_t), nb], nb, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        if (size(info, kind=c_int64_t) /= nb) then
            call refuse("numgpu_expm_batched", "size(info) must be size(E, 3)", status, errmsg)
            return
        end if
        status = numgpu_{p}expm_batched(h, m, address(A), m, merge(0_c_int64_t, m * m, size(A, 3) == 1), &
            address(E), m, m * m, address(info), nb)
        call report(status, errmsg)
    end subroutine
!@ end
