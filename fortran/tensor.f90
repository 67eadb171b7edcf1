! tensor: the generic wrappers of the dense tensor kernels (Khatri-Rao product, MTTKRP).
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
