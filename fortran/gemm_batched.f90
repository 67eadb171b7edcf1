! gemm_batched: the generic wrapper numgpu_gemm_batched over numgpu_?gemm_batched_strided.
!@ specification
    ! call numgpu_gemm_batched(h, transa, transb, alpha, A, B, beta, C, status [, errmsg])
    !
    ! For i = 1 .. size(C, 3):  C(:,:,i) = alpha * op(A(:,:,i)) * op(B(:,:,i)) + beta * C(:,:,i)
    ! in real(c_float), real(c_double), complex(c_float_complex) or complex(c_double_complex)
    ! (alpha, beta, A, B, C all of one kind), BLAS ?gemm semantics (beta = 0 does not read C).
    !
    ! - h [in]: type(c_ptr) handle from numgpu_create / numgpu_create_with.
    ! - transa, transb [in]: NUMGPU_OP_N, NUMGPU_OP_T or NUMGPU_OP_C.
    ! - A(:,:,:) [in]: op(A(:,:,i)) is m x k; size(A, 3) is size(C, 3), or 1 to use the same A
    !   for the whole batch (strideA = 0).
    ! - B(:,:,:) [in]: op(B(:,:,i)) is k x n; size(B, 3) is size(C, 3) or 1.
    ! - C(:,:,:) [in,out]: m x n x batch, which gives m, n and the batch size.
    ! - status [out]: NUMGPU_SUCCESS or the error status; NUMGPU_INVALID_VALUE also when the
    !   shapes do not conform (then nothing is called and C is untouched).
    ! - errmsg [inout, optional]: on failure receives the message (numgpu's last error, or the
    !   shape mismatch, which numgpu_last_error does not know about); unchanged on success.
    !
    ! The leading dimensions are size(X, 1) and the strides size(X, 1)*size(X, 2); the arrays
    ! must be host memory (contiguous; a non-contiguous actual argument is passed as a copy).
!@ generic numgpu_gemm_batched

    ! Sizes of one numgpu_?gemm_batched_strided call derived from the array shapes.
    type :: gemm_plan
        integer(c_int64_t) :: m = 0, n = 0, k = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldb = 1, sb = 0, ldc = 1, sc = 0
    end type
!@ procedures
    ! Derives m, n, k, the leading dimensions and strides from the shapes of A, B, C and
    ! checks that they conform; status NUMGPU_INVALID_VALUE (and errmsg) when they do not.
    ! With an op out of range nothing is checked: numgpu itself rejects the op (argument 2/3).
    subroutine plan_gemm(transa, transb, sa, sb, sc, p, status, errmsg)
        integer(c_int32_t), intent(in) :: transa, transb
        integer(c_int64_t), intent(in) :: sa(3), sb(3), sc(3)
        type(gemm_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: rows_a, rows_b, cols_b
        logical :: ops_ok, trans_a, trans_b
        character(len=256) :: why

        ops_ok = transa >= NUMGPU_OP_N .and. transa <= NUMGPU_OP_C .and. transb >= NUMGPU_OP_N .and. transb <= NUMGPU_OP_C
        trans_a = transa /= NUMGPU_OP_N
        trans_b = transb /= NUMGPU_OP_N
        p%m = sc(1)
        p%n = sc(2)
        p%batch = sc(3)
        ! op(A) is m x k: A is m x k, or k x m when transposed.
        if (trans_a) then
            p%k = sa(1)
            rows_a = sa(2)
        else
            p%k = sa(2)
            rows_a = sa(1)
        end if
        if (trans_b) then
            rows_b = sb(2)
            cols_b = sb(1)
        else
            rows_b = sb(1)
            cols_b = sb(2)
        end if
        p%lda = max(1_c_int64_t, sa(1))
        p%ldb = max(1_c_int64_t, sb(1))
        p%ldc = max(1_c_int64_t, sc(1))
        p%sa = merge(0_c_int64_t, p%lda * sa(2), sa(3) == 1)
        p%sb = merge(0_c_int64_t, p%ldb * sb(2), sb(3) == 1)
        p%sc = p%ldc * sc(2)

        why = ""
        if (.not. ops_ok) then
            ! numgpu rejects the op itself, naming the argument.
        else if (rows_a /= p%m) then
            write(why, '(a,i0,a,i0)') "op(A) has ", rows_a, " rows but C has m = ", p%m
        else if (rows_b /= p%k .or. cols_b /= p%n) then
            write(why, '(a,i0,a,i0,a,i0,a,i0,a)') "op(B) is ", rows_b, " x ", cols_b, " but must be k x n = ", &
                p%k, " x ", p%n, " (k from A, n from C)"
        else if (sa(3) /= p%batch .and. sa(3) /= 1) then
            write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or size(C, 3) = ", p%batch, ", not ", sa(3)
        else if (sb(3) /= p%batch .and. sb(3) /= 1) then
            write(why, '(a,i0,a,i0)') "size(B, 3) must be 1 or size(C, 3) = ", p%batch, ", not ", sb(3)
        end if
        call refuse("numgpu_gemm_batched", why, status, errmsg)
    end subroutine

!@ template numgpu_gemm_batched: s d c z
    subroutine numgpu_gemm_batched_{p}(h, transa, transb, alpha, A, B, beta, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: transa, transb
        {type}, intent(in) :: alpha, beta
        {type}, intent(in), target, contiguous :: A(:,:,:), B(:,:,:)
        {type}, intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gemm_plan) :: p
        call plan_gemm(transa, transb, shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gemm_batched_strided(h, transa, transb, p%m, p%n, p%k, alpha, address(A), p%lda, p%sa, &
            address(B), p%ldb, p%sb, beta, address(C), p%ldc, p%sc, p%batch)
        call report(status, errmsg)
    end subroutine

!@ end
