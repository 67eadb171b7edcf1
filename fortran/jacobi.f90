! jacobi: the generic wrappers of the Jacobi eigen and singular value decompositions.
!@ specification
    ! call numgpu_syevj_batched(h, jobz, uplo, A, w, info, sweeps, residual, status [, errmsg] [, params])
    !
    ! Eigenvalues (and eigenvectors) of symmetric or Hermitian matrices by cyclic Jacobi
    ! (numgpu_?syevj_batched, numgpu_?heevj_batched), in every precision.
    !
    ! - jobz [in]: NUMGPU_JACOBI_NOVEC or NUMGPU_JACOBI_VEC (the eigenvectors overwrite A).
    ! - uplo [in]: NUMGPU_UPLO_LOWER or NUMGPU_UPLO_UPPER: the triangle of A read.
    ! - A(:,:,:) [inout]: n = size(A, 2), size(A, 1) >= n (the leading dimension); A(:,:,i)
    !   is matrix i; size(A, 3) is the batch.
    ! - w(:,:) [out]: the real type, size(w, 1) >= n, size(w, 2) the batch: the eigenvalues,
    !   ascending.
    ! - info(:), sweeps(:) [out]: integer(c_int32_t), residual(:) [out] of the real type, each
    !   of the batch size (numgpu.h says what they mean).
    ! - params [in, optional]: type(numgpu_jacobi_params); absent: the defaults.
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_syevj_batched

    ! call numgpu_gesvdj_batched(h, jobu, jobv, A, S, U, V, info, sweeps, residual, status [, errmsg] [, params])
    !
    ! Singular values (and vectors) by one-sided Jacobi (numgpu_?gesvdj_batched), economy size,
    ! k = min(m, n): A(:,:,:) [in] m = size(A, 1), n = size(A, 2), batch size(A, 3); S(:,:)
    ! of the real type, size(S, 1) >= k; U(:,:,:) m x k (size(U, 1) >= m) and V(:,:,:) n x k
    ! (size(V, 1) >= n), each with the batch as size(:, 3), or of any shape when jobu (jobv) is
    ! NUMGPU_JACOBI_NOVEC; info, sweeps, residual, params, status, errmsg as above.
!@ generic numgpu_gesvdj_batched

!@ procedures
    subroutine plan_jacobi(fname, nbatch, nout, ok_shape, why_status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: nbatch, nout(:)
        logical, intent(in) :: ok_shape
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        why = ""
        if (.not. ok_shape) then
            write(why, '(a)') "the arrays' leading sizes must hold the matrices (see the generic's documentation)"
        else if (any(nout /= nbatch)) then
            write(why, '(a,i0)') "the per-matrix outputs must have the batch size ", nbatch
        end if
        call refuse(fname, why, why_status, errmsg)
    end subroutine

    function params_address(params) result(a)
        type(numgpu_jacobi_params), intent(in), target, optional :: params
        type(c_ptr) :: a
        a = c_null_ptr
        if (present(params)) a = c_loc(params)
    end function

!@ template numgpu_syevj_batched: s d c z
    subroutine numgpu_syevj_batched_{p}(h, jobz, uplo, A, w, info, sweeps, residual, status, errmsg, params)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: jobz, uplo
        {type}, intent(inout), target, contiguous :: A(:,:,:)
        {real}, intent(inout), target, contiguous :: w(:,:), residual(:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:), sweeps(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(numgpu_jacobi_params), intent(in), target, optional :: params
        integer(c_int64_t) :: nb, n
        nb = size(A, 3, kind=c_int64_t)
        n = size(A, 2, kind=c_int64_t)
        call plan_jacobi("numgpu_syevj_batched", nb, [size(w, 2, kind=c_int64_t), size(info, kind=c_int64_t), &
            size(sweeps, kind=c_int64_t), size(residual, kind=c_int64_t)], size(A, 1) >= n .and. size(w, 1) >= n, &
            status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}{sy}evj_batched(h, jobz, uplo, n, address(A), max(1_c_int64_t, size(A, 1, kind=c_int64_t)), &
            size(A, 1, kind=c_int64_t) * n, address(w), size(w, 1, kind=c_int64_t), params_address(params), &
            address_i1(info), address_i1(sweeps), address(residual), nb)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gesvdj_batched: s d c z
    subroutine numgpu_gesvdj_batched_{p}(h, jobu, jobv, A, S, U, V, info, sweeps, residual, status, errmsg, params)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: jobu, jobv
        {type}, intent(in), target, contiguous :: A(:,:,:)
        {real}, intent(inout), target, contiguous :: S(:,:), residual(:)
        {type}, intent(inout), target, contiguous :: U(:,:,:), V(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:), sweeps(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(numgpu_jacobi_params), intent(in), target, optional :: params
        integer(c_int64_t) :: nb, m, n, k, ldu, ldv
        logical :: ok
        nb = size(A, 3, kind=c_int64_t)
        m = size(A, 1, kind=c_int64_t)
        n = size(A, 2, kind=c_int64_t)
        k = min(m, n)
        ok = size(S, 1) >= k
        if (jobu /= NUMGPU_JACOBI_NOVEC) ok = ok .and. size(U, 1) >= m .and. size(U, 2) >= k .and. size(U, 3) == nb
        if (jobv /= NUMGPU_JACOBI_NOVEC) ok = ok .and. size(V, 1) >= n .and. size(V, 2) >= k .and. size(V, 3) == nb
        call plan_jacobi("numgpu_gesvdj_batched", nb, [size(S, 2, kind=c_int64_t), size(info, kind=c_int64_t), &
            size(sweeps, kind=c_int64_t), size(residual, kind=c_int64_t)], ok, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        ldu = max(1_c_int64_t, size(U, 1, kind=c_int64_t))
        ldv = max(1_c_int64_t, size(V, 1, kind=c_int64_t))
        status = numgpu_{p}gesvdj_batched(h, jobu, jobv, m, n, address(A), max(1_c_int64_t, m), m * n, address(S), &
            size(S, 1, kind=c_int64_t), address(U), ldu, ldu * size(U, 2, kind=c_int64_t), address(V), ldv, &
            ldv * size(V, 2, kind=c_int64_t), params_address(params), address_i1(info), address_i1(sweeps), &
            address(residual), nb)
        call report(status, errmsg)
    end subroutine
!@ end
