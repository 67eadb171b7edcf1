! gtsv_spike: the generic wrappers of the tridiagonal solvers (LAPACK ?gtsv roles).
!@ specification
    ! call numgpu_gtsv_spike(h, pivoting, dl, d, du, B, info, status [, errmsg])
    !
    ! Solves T X = B for one tridiagonal T, as LAPACK ?gtsv but with the diagonals left
    ! unchanged (numgpu_?gtsv_spike), in real(c_float), real(c_double), complex(c_float_complex)
    ! or complex(c_double_complex).
    !
    ! - pivoting [in]: NUMGPU_GTSV_DIAG_PIVOT or NUMGPU_GTSV_NOPIVOT (the CUDA algorithm; the
    !   CPU backend always pivots, as LAPACK).
    ! - dl(:), d(:), du(:) [in]: n = size(d); the sub-diagonal dl and super-diagonal du have
    !   max(n - 1, 0) entries, T(k+1, k) = dl(k), T(k, k) = d(k), T(k, k+1) = du(k).
    ! - B(:,:) [in,out]: ldb = size(B, 1) (>= n, else numgpu refuses ldb), nrhs = size(B, 2);
    !   X on exit when info = 0, else unchanged.
    ! - info [out]: integer(c_int32_t); 0, or i > 0 when a pivot was exactly zero (T singular;
    !   numgpu.h says more).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
    ! - B may also be b(:), one right-hand side (ldb = size(b)).
!@ generic numgpu_gtsv_spike

    ! call numgpu_gtsv_batched_strided(h, pivoting, dl, d, du, B, info, status [, errmsg])
    !
    ! For i = 1 .. size(B, 3): solves T_i X = B(:,:,i) as numgpu_gtsv_spike
    ! (numgpu_?gtsv_batched_strided).
    !
    ! - dl(:,:), d(:,:), du(:,:) [in]: all of one shape (n, size(d, 2)), n = size(d, 1): column
    !   i holds T_i's diagonals, dl(1:n-1, i) and du(1:n-1, i) the off-diagonals (dl(n, i) and
    !   du(n, i) are not referenced: one stride serves the three arrays); size(d, 2) is the
    !   batch, or 1 to use one T for the whole batch (stride 0).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), batch = size(B, 3).
    ! - info(:) [out]: size batch.
    ! - B may also be b(:,:) of shape (ldb, batch): one right-hand side per system.
!@ generic numgpu_gtsv_batched_strided

    ! call numgpu_gtsv_batched_interleaved(h, pivoting, dl, d, du, B, info, status [, errmsg])
    !
    ! For i = 1 .. size(d, 1): solves T_i x_i = b_i, one right-hand side per system, interleaved
    ! layout (numgpu_?gtsv_batched_interleaved): entry k of system i is X(i, k), so the systems
    ! are contiguous in the first index; LAPACK's diagonals, as the other forms.
    !
    ! - d(:,:) [in]: shape (batch, n), batch = size(d, 1), n = size(d, 2); T_i(k, k) = d(i, k).
    ! - dl(:,:), du(:,:) [in]: shape (batch, n - 1) each; T_i(k+1, k) = dl(i, k) and
    !   T_i(k, k+1) = du(i, k), k = 1 .. n - 1. (cuSPARSE's padded (batch, n) arrays are
    !   dl(:, 2:n) and du(:, 1:n-1) here.)
    ! - B(:,:) [in,out]: shape (batch, n); x_i in B(i, :) on exit where info(i) = 0.
    ! - info(:) [out]: size batch.
!@ generic numgpu_gtsv_batched_interleaved

    ! Sizes of one call of the gtsv_spike family derived from the array shapes.
    type :: gtsv_plan
        integer(c_int64_t) :: n = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: sdiag = 0, ldb = 1, sb = 0
    end type
!@ procedures
    subroutine plan_gtsv(fname, form, sdl, sd, sdu, sb, ninfo, p, status, errmsg)
        character(len=*), intent(in) :: fname, form
        integer(c_int64_t), intent(in) :: sdl(2), sd(2), sdu(2), sb(3), ninfo
        type(gtsv_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why

        why = ""
        select case (form)
        case ("spike")
            p%n = sd(1)
            p%batch = 1
            p%ldb = max(1_c_int64_t, sb(1))
            p%nrhs = sb(2)
            if (sdl(1) /= max(p%n - 1, 0_c_int64_t) .or. sdu(1) /= max(p%n - 1, 0_c_int64_t)) then
                write(why, '(a,i0,a,i0,a,i0)') "size(dl) = ", sdl(1), " and size(du) = ", sdu(1), &
                    " must be n - 1 with n = size(d) = ", p%n
            end if
        case ("strided")
            p%n = sd(1)
            p%batch = sb(3)
            p%sdiag = merge(0_c_int64_t, p%n, sd(2) == 1)
            p%ldb = max(1_c_int64_t, sb(1))
            p%nrhs = sb(2)
            p%sb = p%ldb * sb(2)
            if (any(sdl /= sd) .or. any(sdu /= sd)) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') "dl is ", sdl(1), " x ", sdl(2), ", du ", sdu(1), " x ", &
                    sdu(2), ", but both must have the shape of d, ", sd(1), " x ", sd(2)
            else if (sd(2) /= p%batch .and. sd(2) /= 1) then
                write(why, '(a,i0,a,i0)') "size(d, 2) must be 1 or the batch size size(B, 3) = ", p%batch, ", not ", sd(2)
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        case default
            p%batch = sd(1)
            p%n = sd(2)
            if (any(sb(1:2) /= sd)) then
                write(why, '(a,i0,a,i0,a)') "B must have the shape of d, ", sd(1), " x ", sd(2), " (batch x n)"
            else if (any(sdl /= [sd(1), max(sd(2) - 1, 0_c_int64_t)]) .or. any(sdu /= [sd(1), max(sd(2) - 1, 0_c_int64_t)])) then
                write(why, '(a,i0,a,i0,a)') "dl and du must have the shape ", sd(1), " x ", max(sd(2) - 1, 0_c_int64_t), &
                    " (batch x n - 1)"
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        end select
        call refuse(fname, why, status, errmsg)
    end subroutine

!@ template numgpu_gtsv_spike: s d c z
    subroutine numgpu_gtsv_spike_{p}(h, pivoting, dl, d, du, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: pivoting
        {type}, intent(in), target, contiguous :: dl(:), d(:), du(:)
        {type}, intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        call plan_gtsv("numgpu_gtsv_spike", "spike", [size(dl, kind=c_int64_t), 1_c_int64_t], &
            [size(d, kind=c_int64_t), 1_c_int64_t], [size(du, kind=c_int64_t), 1_c_int64_t], &
            [shape(B, c_int64_t), 1_c_int64_t], 1_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gtsv_spike(h, pivoting, p%n, p%nrhs, address(dl), address(d), address(du), address(B), &
            p%ldb, c_loc(info))
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gtsv_spike/one: s d c z
    ! One right-hand side: b(:), ldb = size(b) (>= n); as the rank-2 form with nrhs = 1.
    subroutine numgpu_gtsv_spike_one_{p}(h, pivoting, dl, d, du, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: pivoting
        {type}, intent(in), target, contiguous :: dl(:), d(:), du(:)
        {type}, intent(inout), target, contiguous :: b(:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b2(:,:)
        b2(1:size(b), 1:1) => b
        call numgpu_gtsv_spike_{p}(h, pivoting, dl, d, du, b2, info, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gtsv_batched_strided: s d c z
    subroutine numgpu_gtsv_batched_strided_{p}(h, pivoting, dl, d, du, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: pivoting
        {type}, intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        {type}, intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        call plan_gtsv("numgpu_gtsv_batched_strided", "strided", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gtsv_batched_strided(h, pivoting, p%n, p%nrhs, address(dl), address(d), address(du), &
            p%sdiag, address(B), p%ldb, p%sb, address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gtsv_batched_strided/one: s d c z
    ! One right-hand side per system: b(:,:) of shape (ldb >= n, batch).
    subroutine numgpu_gtsv_batched_strided_one_{p}(h, pivoting, dl, d, du, b, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: pivoting
        {type}, intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        {type}, intent(inout), target, contiguous :: b(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        {type}, pointer, contiguous :: b3(:,:,:)
        b3(1:size(b, 1), 1:1, 1:size(b, 2)) => b
        call numgpu_gtsv_batched_strided_{p}(h, pivoting, dl, d, du, b3, info, status, errmsg)
    end subroutine
!@ end

!@ template numgpu_gtsv_batched_interleaved: s d c z
    subroutine numgpu_gtsv_batched_interleaved_{p}(h, pivoting, dl, d, du, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: pivoting
        {type}, intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        {type}, intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        call plan_gtsv("numgpu_gtsv_batched_interleaved", "interleaved", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), [shape(B, c_int64_t), 1_c_int64_t], size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_{p}gtsv_batched_interleaved(h, pivoting, p%n, address(dl), address(d), address(du), &
            address(B), address(info), p%batch)
        call report(status, errmsg)
    end subroutine
!@ end
