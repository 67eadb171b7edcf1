! spmv: the generic wrappers of the sparse matrix-vector products: CSR (numgpu_?csrmv, every
! precision) and the CMRS object (numgpu_?cmrs_create, _update_values, numgpu_?cmrsmv: the real
! precisions).
!@ specification
    ! call numgpu_csrmv(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status [, errmsg])
    !
    ! y := alpha op(A) x + beta y with A in CSR (numgpu_?csrmv), in real(c_float), real(c_double),
    ! complex(c_float_complex) or complex(c_double_complex).
    !
    ! - val(:) [in], col_ind(:) [in]: the nnz = size(val) entries (size(col_ind) must match).
    ! - row_ptr(:) [in]: m + 1 offsets, m = size(row_ptr) - 1.
    ! - index_base [in]: 1 for Fortran-style indices, 0 for C-style.
    ! - x(:), y(:): op(A) is m x n with n = size(x) for NUMGPU_OP_N (size(y) must be m), and
    !   n = size(y) for NUMGPU_OP_T / NUMGPU_OP_C (size(x) must be m).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming sizes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
!@ generic numgpu_csrmv

    ! call numgpu_cmrs_create(h, n, val, row_ptr, col_ind, index_base, height, M, A, status [, errmsg])
    !
    ! A CMRS matrix from a CSR one (numgpu_?cmrs_create), real(c_float) or real(c_double): m =
    ! size(row_ptr) - 1 rows, n columns, nnz = size(val) (= size(col_ind)); height 0 (16) or
    ! 1..16, M 0 (chosen), 2, 4 or 8. A [inout] receives the matrix (type(c_ptr)); release it
    ! with numgpu_cmrs_destroy(A).
!@ generic numgpu_cmrs_create

    ! call numgpu_cmrs_update_values(h, A, val, status [, errmsg]): new values, same pattern.
!@ generic numgpu_cmrs_update_values

    ! call numgpu_cmrsmv(h, alpha, A, x, beta, y, status [, errmsg]): y := alpha A x + beta y
    ! (numgpu_?cmrsmv) with x(:) of n and y(:) of m entries.
!@ generic numgpu_cmrsmv
!@ procedures
    subroutine plan_csr(trans, nrp, nval, nci, nx, ny, m, n, status, errmsg)
        integer(c_int32_t), intent(in) :: trans
        integer(c_int64_t), intent(in) :: nrp, nval, nci, nx, ny
        integer(c_int64_t), intent(out) :: m, n
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        m = max(nrp - 1, 0_c_int64_t)
        why = ""
        if (trans == NUMGPU_OP_N) then
            n = nx
            if (ny /= m) write(why, '(a,i0,a,i0)') "size(y) = ", ny, " must be m = size(row_ptr) - 1 = ", m
        else
            n = ny
            if (nx /= m) write(why, '(a,i0,a,i0)') "size(x) = ", nx, " must be m = size(row_ptr) - 1 = ", m
        end if
        if (nci /= nval) write(why, '(a,i0,a,i0)') "size(col_ind) = ", nci, " must be size(val) = ", nval
        if (nrp < 1) why = "row_ptr must have m + 1 >= 1 entries"
        status = NUMGPU_SUCCESS
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_csrmv: " // trim(why)
        end if
    end subroutine

!@ template numgpu_csrmv: s d c z
    subroutine numgpu_csrmv_{p}(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans, index_base
        {type}, intent(in) :: alpha, beta
        {type}, intent(in), target, contiguous :: val(:), x(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        {type}, intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, n
        call plan_csr(trans, size(row_ptr, kind=c_int64_t), size(val, kind=c_int64_t), size(col_ind, kind=c_int64_t), &
            size(x, kind=c_int64_t), size(y, kind=c_int64_t), m, n, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}csrmv(h, trans, m, n, size(val, kind=c_int64_t), alpha, address(val), address(row_ptr), &
            address(col_ind), index_base, address(x), beta, address(y))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_cmrs_create: s d
    subroutine numgpu_cmrs_create_{p}(h, n, val, row_ptr, col_ind, index_base, height, lanes, A, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in) :: n
        {type}, intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        integer(c_int32_t), intent(in) :: index_base
        integer(c_int64_t), intent(in) :: height, lanes
        type(c_ptr), intent(inout) :: A
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (size(col_ind) /= size(val) .or. size(row_ptr) < 1) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_cmrs_create: size(col_ind) must be size(val), and row_ptr non-empty"
            return
        end if
        status = numgpu_{p}cmrs_create(h, size(row_ptr, kind=c_int64_t) - 1, n, size(val, kind=c_int64_t), &
            address(val), address(row_ptr), address(col_ind), index_base, height, lanes, A)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_cmrs_update_values: s d
    subroutine numgpu_cmrs_update_values_{p}(h, A, val, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        {type}, intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_{p}cmrs_update_values(h, A, address(val))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_cmrsmv: s d
    subroutine numgpu_cmrsmv_{p}(h, alpha, A, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        {type}, intent(in) :: alpha, beta
        {type}, intent(in), target, contiguous :: x(:)
        {type}, intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_{p}cmrsmv(h, alpha, A, address(x), beta, address(y))
        call report(status, errmsg)
    end subroutine
!@ end
