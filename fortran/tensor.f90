! tensor: the generic wrappers of the dense tensor kernels (Khatri-Rao product, MTTKRP) and of
! the third-order decompositions (CP-ALS, TT-SVD, TR-SVD, HT and their reconstructions).
!@ specification
    ! call numgpu_khatri_rao(h, A, B, C, status [, errmsg])
    !
    ! C = A (.) B, the Khatri-Rao product (numgpu_?khatri_rao), in real(c_float) or
    ! real(c_double): C(j + (i-1)*n, k) = A(i, k) * B(j, k) for A(m, r), B(n, r).
    !
    ! - A(:,:), B(:,:) [in]: the same number of columns r.
    ! - C(:,:) [out]: size(C, 1) >= m*n (rows beyond m*n are not written), r columns.
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_khatri_rao

    ! call numgpu_mttkrp(h, X, mode, U1, U2, U3, M, status [, errmsg])
    !
    ! The MTTKRP of a third-order tensor (numgpu_?mttkrp): M = X_(mode) * (Uc (.) Ub), where
    ! Ub, Uc are the factors of the other two modes in increasing mode order, without an
    ! unfolded copy of X. Other orders: call numgpu_?mttkrp itself.
    !
    ! - X(:,:,:) [in]: the tensor.
    ! - mode [in]: integer(c_int32_t), 1, 2 or 3 (Fortran's and Kolda and Bader's numbering; the
    !   C routine takes mode - 1).
    ! - U1(:,:), U2(:,:), U3(:,:) [in]: the factors, size(Uk, 1) >= size(X, k), as many columns
    !   as M; the mode's own factor is not referenced (any shape, e.g. U(0, 0)).
    ! - M(:,:) [out]: size(M, 1) >= size(X, mode) (rows beyond it are not written); its
    !   columns are the rank.
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_mttkrp

    ! call numgpu_cp_als(h, X, U1, U2, U3, lambda, iters, fit, status [, errmsg] [, opts])
    !
    ! CP-ALS of a third-order tensor (numgpu_?cp_als): X ~ sum over r of lambda(r) U1(:, r) o
    ! U2(:, r) o U3(:, r), in real(c_float) or real(c_double).
    !
    ! - X(:,:,:) [in]: the tensor.
    ! - U1(:,:), U2(:,:), U3(:,:) [inout]: the factors, size(Uk, 1) >= size(X, k) (the leading
    !   dimension), size(lambda) columns; the start when opts%init = NUMGPU_CP_INIT_GIVEN.
    ! - lambda(:) [out]: the weights; its size is the rank.
    ! - iters [out]: integer(c_int32_t), the iterations done; fit [out]: of the element type,
    !   1 - ||X - Xhat|| / ||X|| (NaN: breakdown, see numgpu.h).
    ! - opts [in, optional]: type(numgpu_cp_options); absent: the defaults (a random start
    !   from seed 0).
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_cp_als

    ! call numgpu_cp_reconstruct(h, U1, U2, U3, lambda, X, status [, errmsg])
    !
    ! X = sum over r of lambda(r) U1(:, r) o U2(:, r) o U3(:, r) (numgpu_?cp_reconstruct):
    ! factors as numgpu_cp_als takes them, size(Uk, 1) >= size(X, k); X(:,:,:) [out].
!@ generic numgpu_cp_reconstruct

    ! call numgpu_tt_svd(h, X, eps, ranks, cores, offsets, status [, errmsg])
    ! call numgpu_tr_svd(h, X, eps, ranks, cores, offsets, status [, errmsg])
    !
    ! The tensor-train (numgpu_?tt_svd) or tensor-ring (numgpu_?tr_svd) decomposition of a
    ! third-order tensor with relative accuracy eps: ||X - Xhat|| <= eps ||X||.
    !
    ! - X(:,:,:) [in]; eps [in]: of the element type, >= 0.
    ! - ranks(:) [out]: integer(c_int64_t), 4 entries: r_0 ... r_3.
    ! - cores(:) [out]: the cores one after the other, core k (0-based) at offsets(k + 1) + 1 as
    !   an r_k x size(X, k + 1) x r_{k+1} array; size(cores) is the capacity.
    ! - offsets(:) [out]: integer(c_int64_t), 4 entries; offsets(4) the total.
    ! - status: NUMGPU_INSUFFICIENT_CAPACITY when the cores need more than size(cores) elements:
    !   offsets(4) is then the size needed, nothing else is written (call again with that).
    !   Else as numgpu_gemm_batched.
!@ generic numgpu_tt_svd
!@ generic numgpu_tr_svd

    ! call numgpu_tt_reconstruct(h, ranks, cores, X, status [, errmsg])
    ! call numgpu_tr_reconstruct(h, ranks, cores, X, status [, errmsg])
    !
    ! X(:,:,:) [out] from the cores (numgpu_?tt_reconstruct, numgpu_?tr_reconstruct) as
    ! numgpu_tt_svd / numgpu_tr_svd leave them: ranks(:) [in] integer(c_int64_t), 4 entries;
    ! cores(:) [in].
!@ generic numgpu_tt_reconstruct
!@ generic numgpu_tr_reconstruct

    ! call numgpu_ht(h, X, ranks, U1, U2, U3, B1, B2, status [, errmsg])
    !
    ! The hierarchical Tucker decomposition of a third-order tensor (numgpu_?ht, the seed's
    ! Algorithm 2).
    !
    ! - X(:,:,:) [in]: n1 x n2 x n3.
    ! - ranks(:) [in]: integer(c_int64_t), r1, r2, r3, r4 (1 <= rk <= nk, 1 <= r4 <=
    !   min(n1*n2, n3)).
    ! - U1(n1, r1), U2(n2, r2), U3(n3, r3), B1(r4, r3), B2(r1, r2, r4) [out]: exactly these
    !   shapes.
    ! - status, errmsg: as numgpu_gemm_batched.
!@ generic numgpu_ht

    ! call numgpu_ht_reconstruct(h, ranks, U1, U2, U3, B1, B2, X, status [, errmsg])
    !
    ! X(:,:,:) [out] from the parts numgpu_ht leaves (numgpu_?ht_reconstruct); the shapes as
    ! numgpu_ht's, with n1, n2, n3 = shape(X).
!@ generic numgpu_ht_reconstruct

!@ procedures
    subroutine plan_khatri_rao(sa, sb, sc, why_status, errmsg)
        integer(c_int64_t), intent(in) :: sa(2), sb(2), sc(2)
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        why = ""
        if (sb(2) /= sa(2) .or. sc(2) /= sa(2)) then
            write(why, '(a,i0,a,i0,a,i0)') "A, B and C must have the same number of columns, not ", sa(2), ", ", sb(2), &
                " and ", sc(2)
        else if (sc(1) < sa(1) * sb(1)) then
            write(why, '(a,i0,a,i0)') "C has ", sc(1), " rows but needs m*n = ", sa(1) * sb(1)
        end if
        call refuse("numgpu_khatri_rao", why, why_status, errmsg)
    end subroutine

    subroutine plan_mttkrp(dims, mode, su, sm, why_status, errmsg)
        integer(c_int64_t), intent(in) :: dims(3), su(2, 3), sm(2)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        integer :: k
        why = ""
        if (mode < 1 .or. mode > 3) then
            write(why, '(a,i0)') "mode must be 1, 2 or 3, not ", mode
        else if (sm(1) < dims(mode)) then
            write(why, '(a,i0,a,i0)') "M has ", sm(1), " rows but needs size(X, mode) = ", dims(mode)
        else
            do k = 1, 3
                if (k /= mode .and. (su(1, k) < dims(k) .or. su(2, k) /= sm(2))) then
                    write(why, '(a,i0,a,i0,a,i0,a,i0,a)') "U", k, " is ", su(1, k), " x ", su(2, k), &
                        " but needs >= size(X, k) rows and the columns of M (", sm(2), ")"
                    exit
                end if
            end do
        end if
        call refuse("numgpu_mttkrp", why, why_status, errmsg)
    end subroutine

    ! The shapes of a CP decomposition: each factor's rows hold the tensor's, its columns the
    ! rank.
    subroutine plan_cp(fname, dims, su, rank, why_status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: dims(3), su(2, 3), rank
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        integer :: k
        why = ""
        do k = 1, 3
            if (su(1, k) < dims(k) .or. su(2, k) /= rank) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0,a)') "U", k, " is ", su(1, k), " x ", su(2, k), &
                    " but needs >= ", dims(k), " rows and size(lambda) = ", rank, " columns"
                exit
            end if
        end do
        call refuse(fname, why, why_status, errmsg)
    end subroutine

    ! The sizes of the integer arrays of a train or ring: 4 entries each.
    subroutine plan_train(fname, sizes, why_status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: sizes(:)
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        why = ""
        if (any(sizes /= 4)) write(why, '(a)') "ranks (and offsets) must have 4 entries"
        call refuse(fname, why, why_status, errmsg)
    end subroutine

    ! The shapes of an HT decomposition: U1(n1, r1), U2(n2, r2), U3(n3, r3), B1(r4, r3),
    ! B2(r1, r2, r4) exactly.
    subroutine plan_ht(fname, dims, nranks, ranks, got, why_status, errmsg)
        character(len=*), intent(in) :: fname
        integer(c_int64_t), intent(in) :: dims(3), nranks, ranks(:), got(11)
        integer(c_int32_t), intent(out) :: why_status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        why = ""
        if (nranks /= 4) then
            write(why, '(a)') "ranks must have 4 entries"
        else if (any(got /= [dims(1), ranks(1), dims(2), ranks(2), dims(3), ranks(3), ranks(4), ranks(3), ranks(1), &
                ranks(2), ranks(4)])) then
            write(why, '(a)') "U1, U2, U3, B1, B2 must be (n1, r1), (n2, r2), (n3, r3), (r4, r3), (r1, r2, r4)"
        end if
        call refuse(fname, why, why_status, errmsg)
    end subroutine

    ! The address of the CP options, or NULL (the defaults).
    function cp_opts_address(opts) result(a)
        type(numgpu_cp_options), intent(in), target, optional :: opts
        type(c_ptr) :: a
        a = c_null_ptr
        if (present(opts)) a = c_loc(opts)
    end function

!@ template numgpu_khatri_rao: s d
    subroutine numgpu_khatri_rao_{p}(h, A, B, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: A(:,:), B(:,:)
        {type}, intent(inout), target, contiguous :: C(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call plan_khatri_rao(shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}khatri_rao(h, size(A, 1, kind=c_int64_t), size(B, 1, kind=c_int64_t), size(A, 2, kind=c_int64_t), &
            address(A), max(1_c_int64_t, size(A, 1, kind=c_int64_t)), address(B), max(1_c_int64_t, size(B, 1, kind=c_int64_t)), &
            address(C), max(1_c_int64_t, size(C, 1, kind=c_int64_t)))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_mttkrp: s d
    subroutine numgpu_mttkrp_{p}(h, X, mode, U1, U2, U3, M, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: X(:,:,:), U1(:,:), U2(:,:), U3(:,:)
        integer(c_int32_t), intent(in) :: mode
        {type}, intent(inout), target, contiguous :: M(:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3), ldu(3)
        type(c_ptr), target :: u(3)
        dims = shape(X, c_int64_t)
        call plan_mttkrp(dims, mode, reshape([shape(U1, c_int64_t), shape(U2, c_int64_t), shape(U3, c_int64_t)], [2, 3]), &
            shape(M, c_int64_t), status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        u = [address(U1), address(U2), address(U3)]
        ldu = max(1_c_int64_t, [size(U1, 1, kind=c_int64_t), size(U2, 1, kind=c_int64_t), size(U3, 1, kind=c_int64_t)])
        status = numgpu_{p}mttkrp(h, 3_c_int64_t, c_loc(dims), address(X), int(mode - 1, c_int64_t), &
            size(M, 2, kind=c_int64_t), c_loc(u), c_loc(ldu), address(M), max(1_c_int64_t, size(M, 1, kind=c_int64_t)))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_cp_als: s d
    subroutine numgpu_cp_als_{p}(h, X, U1, U2, U3, lambda, iters, fit, status, errmsg, opts)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: X(:,:,:)
        {type}, intent(inout), target, contiguous :: U1(:,:), U2(:,:), U3(:,:), lambda(:)
        integer(c_int32_t), intent(inout), target :: iters
        {type}, intent(inout), target :: fit
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(numgpu_cp_options), intent(in), target, optional :: opts
        integer(c_int64_t), target :: dims(3), ldu(3)
        type(c_ptr), target :: u(3)
        dims = shape(X, c_int64_t)
        call plan_cp("numgpu_cp_als", dims, reshape([shape(U1, c_int64_t), shape(U2, c_int64_t), shape(U3, c_int64_t)], &
            [2, 3]), size(lambda, kind=c_int64_t), status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        u = [address(U1), address(U2), address(U3)]
        ldu = max(1_c_int64_t, [size(U1, 1, kind=c_int64_t), size(U2, 1, kind=c_int64_t), size(U3, 1, kind=c_int64_t)])
        status = numgpu_{p}cp_als(h, 3_c_int64_t, c_loc(dims), address(X), size(lambda, kind=c_int64_t), c_loc(u), &
            c_loc(ldu), address(lambda), cp_opts_address(opts), c_loc(fit), c_loc(iters))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_cp_reconstruct: s d
    subroutine numgpu_cp_reconstruct_{p}(h, U1, U2, U3, lambda, X, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: U1(:,:), U2(:,:), U3(:,:), lambda(:)
        {type}, intent(inout), target, contiguous :: X(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3), ldu(3)
        type(c_ptr), target :: u(3)
        dims = shape(X, c_int64_t)
        call plan_cp("numgpu_cp_reconstruct", dims, reshape([shape(U1, c_int64_t), shape(U2, c_int64_t), &
            shape(U3, c_int64_t)], [2, 3]), size(lambda, kind=c_int64_t), status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        u = [address(U1), address(U2), address(U3)]
        ldu = max(1_c_int64_t, [size(U1, 1, kind=c_int64_t), size(U2, 1, kind=c_int64_t), size(U3, 1, kind=c_int64_t)])
        status = numgpu_{p}cp_reconstruct(h, 3_c_int64_t, c_loc(dims), size(lambda, kind=c_int64_t), c_loc(u), c_loc(ldu), &
            address(lambda), address(X))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template s d
    ! TT-SVD (ring false) or TR-SVD (true) of X: the body of numgpu_tt_svd and numgpu_tr_svd.
    subroutine train_svd_{p}(h, ring, X, eps, ranks, cores, offsets, status, errmsg)
        type(c_ptr), intent(in) :: h
        logical, intent(in) :: ring
        {type}, intent(in), target, contiguous :: X(:,:,:)
        {type}, intent(in) :: eps
        integer(c_int64_t), intent(inout), target, contiguous :: ranks(:), offsets(:)
        {type}, intent(inout), target, contiguous :: cores(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3)
        dims = shape(X, c_int64_t)
        call plan_train("numgpu_tt_svd", [size(ranks, kind=c_int64_t), size(offsets, kind=c_int64_t)], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        if (ring) then
            status = numgpu_{p}tr_svd(h, 3_c_int64_t, c_loc(dims), address(X), eps, c_null_ptr, c_loc(ranks), address(cores), &
                size(cores, kind=c_int64_t), c_loc(offsets))
        else
            status = numgpu_{p}tt_svd(h, 3_c_int64_t, c_loc(dims), address(X), eps, c_null_ptr, c_loc(ranks), address(cores), &
                size(cores, kind=c_int64_t), c_loc(offsets))
        end if
        call report(status, errmsg)
    end subroutine

    ! X from the cores of a train (ring false) or ring (true).
    subroutine train_reconstruct_{p}(h, ring, ranks, cores, X, status, errmsg)
        type(c_ptr), intent(in) :: h
        logical, intent(in) :: ring
        integer(c_int64_t), intent(in), target, contiguous :: ranks(:)
        {type}, intent(in), target, contiguous :: cores(:)
        {type}, intent(inout), target, contiguous :: X(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3)
        dims = shape(X, c_int64_t)
        call plan_train("numgpu_tt_reconstruct", [size(ranks, kind=c_int64_t)], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        if (ring) then
            status = numgpu_{p}tr_reconstruct(h, 3_c_int64_t, c_loc(dims), c_loc(ranks), address(cores), address(X))
        else
            status = numgpu_{p}tt_reconstruct(h, 3_c_int64_t, c_loc(dims), c_loc(ranks), address(cores), address(X))
        end if
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_tt_svd: s d
    subroutine numgpu_tt_svd_{p}(h, X, eps, ranks, cores, offsets, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: X(:,:,:)
        {type}, intent(in) :: eps
        integer(c_int64_t), intent(inout), target, contiguous :: ranks(:), offsets(:)
        {type}, intent(inout), target, contiguous :: cores(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call train_svd_{p}(h, .false., X, eps, ranks, cores, offsets, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_tr_svd: s d
    subroutine numgpu_tr_svd_{p}(h, X, eps, ranks, cores, offsets, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: X(:,:,:)
        {type}, intent(in) :: eps
        integer(c_int64_t), intent(inout), target, contiguous :: ranks(:), offsets(:)
        {type}, intent(inout), target, contiguous :: cores(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call train_svd_{p}(h, .true., X, eps, ranks, cores, offsets, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_tt_reconstruct: s d
    subroutine numgpu_tt_reconstruct_{p}(h, ranks, cores, X, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in), target, contiguous :: ranks(:)
        {type}, intent(in), target, contiguous :: cores(:)
        {type}, intent(inout), target, contiguous :: X(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call train_reconstruct_{p}(h, .false., ranks, cores, X, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_tr_reconstruct: s d
    subroutine numgpu_tr_reconstruct_{p}(h, ranks, cores, X, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in), target, contiguous :: ranks(:)
        {type}, intent(in), target, contiguous :: cores(:)
        {type}, intent(inout), target, contiguous :: X(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        call train_reconstruct_{p}(h, .true., ranks, cores, X, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_ht: s d
    subroutine numgpu_ht_{p}(h, X, ranks, U1, U2, U3, B1, B2, status, errmsg)
        type(c_ptr), intent(in) :: h
        {type}, intent(in), target, contiguous :: X(:,:,:)
        integer(c_int64_t), intent(in), target, contiguous :: ranks(:)
        {type}, intent(inout), target, contiguous :: U1(:,:), U2(:,:), U3(:,:), B1(:,:), B2(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3)
        dims = shape(X, c_int64_t)
        call plan_ht("numgpu_ht", dims, size(ranks, kind=c_int64_t), ranks, [shape(U1, c_int64_t), shape(U2, c_int64_t), &
            shape(U3, c_int64_t), shape(B1, c_int64_t), shape(B2, c_int64_t)], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}ht(h, c_loc(dims), address(X), c_loc(ranks), address(U1), address(U2), address(U3), address(B1), &
            address(B2))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_ht_reconstruct: s d
    subroutine numgpu_ht_reconstruct_{p}(h, ranks, U1, U2, U3, B1, B2, X, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in), target, contiguous :: ranks(:)
        {type}, intent(in), target, contiguous :: U1(:,:), U2(:,:), U3(:,:), B1(:,:), B2(:,:,:)
        {type}, intent(inout), target, contiguous :: X(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t), target :: dims(3)
        dims = shape(X, c_int64_t)
        call plan_ht("numgpu_ht_reconstruct", dims, size(ranks, kind=c_int64_t), ranks, [shape(U1, c_int64_t), &
            shape(U2, c_int64_t), shape(U3, c_int64_t), shape(B1, c_int64_t), shape(B2, c_int64_t)], status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}ht_reconstruct(h, c_loc(dims), c_loc(ranks), address(U1), address(U2), address(U3), &
            address(B1), address(B2), address(X))
        call report(status, errmsg)
    end subroutine
!@ end
