! test_tensor_f: the dense tensor wrappers from Fortran through `use numgpu`, in both real
! precisions (each !@ template block is stamped for s and d; fortran/README.md).
!
! - numgpu_khatri_rao on A(4, 3), B(5, 3) into C(21, 3): every entry the product A(i, k)*B(j, k)
!   at row j + (i-1)*5, the spare row untouched.
! - numgpu_mttkrp on X(4, 5, 6), rank 3, every mode (1-based), against the sum written out
!   here, within (k + 3) eps of the sum of the absolute terms; M with a spare row, untouched;
!   the mode's own factor of shape (0, 0).
! - The wrappers' shape checks, writing nothing.
! - numgpu_cp_als on a planted rank-2 X(5, 6, 4) (factors in [-1, 1) from a fixed seed) from a
!   random start (options struct): fit near
!   1, numgpu_cp_reconstruct of its factors equal to X within 1 - fit; a lambda of the wrong
!   size refused.
! - numgpu_tt_svd and numgpu_tr_svd of a random X(4, 5, 6), eps = 0.3, through the capacity
!   protocol (cores(0): NUMGPU_INSUFFICIENT_CAPACITY and offsets(4) the size), reconstructed
!   within eps ||X||; ranks of 3 entries refused.
! - numgpu_ht of a planted HT tensor X(4, 5, 6) of ranks (2, 3, 3, 3): orthonormal U1, and
!   numgpu_ht_reconstruct gives X back; a U1 of the wrong shape refused.
!
! Prints "test_tensor_f: N passed, M failed" and stops with code 1 on any failure.
program test_tensor_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: d1 = 4, d2 = 5, d3 = 6, r = 3
    type(c_ptr) :: h

    h = start("test_tensor_f")
!@ template s d
    call khatri_rao_{p}(h)
    call mttkrp_{p}(h)
    call cp_{p}(h)
    call train_{p}(h, .false.)
    call train_{p}(h, .true.)
    call ht_{p}(h)
!@ end
    call finish(h)

contains

!@ template s d
    subroutine khatri_rao_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: A(d1, r), B(d2, r), C(d1 * d2 + 1, r)
        integer(c_int32_t) :: status
        integer :: i, j, k
        logical :: ok
        call random_number(A)
        call random_number(B)
        C = -7
        call numgpu_khatri_rao(h, A, B, C, status)
        ok = status == NUMGPU_SUCCESS .and. all(C(d1 * d2 + 1, :) == -7)
        do k = 1, r
            do i = 1, d1
                do j = 1, d2
                    ok = ok .and. C(j + (i - 1) * d2, k) == A(i, k) * B(j, k)
                end do
            end do
        end do
        call check(ok, "{p}khatri_rao: " // numgpu_last_error_string())
        C = -7
        call numgpu_khatri_rao(h, A, B(:, 1:2), C, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(C == -7), "{p}khatri_rao: B of 2 columns accepted")
    end subroutine

    subroutine mttkrp_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: X(d1, d2, d3), U1(d1, r), U2(d2, r), U3(d3, r), none(0, 0)
        {type}, allocatable :: M(:,:)
        real(c_double), allocatable :: want(:,:), bound(:,:)
        real(c_double) :: t
        integer(c_int32_t) :: status, mode
        integer :: i1, i2, i3, k, idx(3), dims(3), others
        call random_number(X)
        call random_number(U1)
        call random_number(U2)
        call random_number(U3)
        X = X - 0.5_{kind}
        dims = [d1, d2, d3]
        do mode = 1, 3
            allocate(M(dims(mode) + 1, r), want(dims(mode), r), bound(dims(mode), r))
            want = 0
            bound = 0
            do k = 1, r
                do i3 = 1, d3
                    do i2 = 1, d2
                        do i1 = 1, d1
                            idx = [i1, i2, i3]
                            t = X(i1, i2, i3)
                            if (mode /= 1) t = t * U1(i1, k)
                            if (mode /= 2) t = t * U2(i2, k)
                            if (mode /= 3) t = t * U3(i3, k)
                            want(idx(mode), k) = want(idx(mode), k) + t
                            bound(idx(mode), k) = bound(idx(mode), k) + abs(t)
                        end do
                    end do
                end do
            end do
            M = -7
            select case (mode)
            case (1)
                call numgpu_mttkrp(h, X, mode, none, U2, U3, M, status)
            case (2)
                call numgpu_mttkrp(h, X, mode, U1, none, U3, M, status)
            case default
                call numgpu_mttkrp(h, X, mode, U1, U2, none, M, status)
            end select
            others = d1 * d2 * d3 / dims(mode)
            call check(status == NUMGPU_SUCCESS .and. all(M(dims(mode) + 1, :) == -7) .and. &
                all(abs(M(1:dims(mode), :) - want) <= (others + 3) * epsilon(0.0_{kind}) * bound), &
                "{p}mttkrp mode " // itoa(int(mode)) // ": " // numgpu_last_error_string())
            deallocate(M, want, bound)
        end do
        ! Shapes: M too short; a factor of the wrong rank; mode 4.
        allocate(M(d1, r))
        M = -7
        call numgpu_mttkrp(h, X, 2_c_int32_t, U1, none, U3(:, 1:2), M, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(M == -7), "{p}mttkrp: U3 of rank 2 accepted")
        call numgpu_mttkrp(h, X, 4_c_int32_t, U1, U2, U3, M, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(M == -7), "{p}mttkrp: mode 4 accepted")
        call numgpu_mttkrp(h, X, 2_c_int32_t, U1, U2, U3, M, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(M == -7), "{p}mttkrp: M of 4 rows for mode 2 accepted")
    end subroutine

    subroutine cp_{p}(h)
        type(c_ptr), intent(in) :: h
        integer, parameter :: n1 = 5, n2 = 6, n3 = 4, rk = 2
        {type} :: A(n1, rk), B(n2, rk), C(n3, rk), X(n1, n2, n3), Y(n1, n2, n3), U1(n1, rk), U2(n2, rk), U3(n3, rk)
        {type} :: lambda(rk), wrong(3), fit
        type(numgpu_cp_options) :: o
        integer(c_int32_t) :: status, iters
        integer :: i, j, k, nseed
        integer, allocatable :: seed(:)
        ! A fixed seed (gfortran seeds from the system otherwise) and factors in [-1, 1):
        ! nonnegative rank-2 factors are nearly collinear, where ALS may stall short of the fit.
        call random_seed(size=nseed)
        allocate(seed(nseed))
        seed = 20261127
        call random_seed(put=seed)
        call random_number(A)
        call random_number(B)
        call random_number(C)
        A = 2 * A - 1
        B = 2 * B - 1
        C = 2 * C - 1
        do k = 1, n3
            do j = 1, n2
                do i = 1, n1
                    X(i, j, k) = sum(A(i, :) * B(j, :) * C(k, :))
                end do
            end do
        end do
        o = numgpu_cp_options(tol=0, max_iters=1000, init=NUMGPU_CP_INIT_RANDOM, seed=5, absorb=0)
        o%tol = 10 * epsilon(0.0_{kind})
        call numgpu_cp_als(h, X, U1, U2, U3, lambda, iters, fit, status, opts=o)
        call check(status == NUMGPU_SUCCESS .and. fit >= 1 - 100 * sqrt(epsilon(0.0_{kind})), &
            "{p}cp_als of a planted rank-2 tensor: fit " // numgpu_last_error_string())
        call numgpu_cp_reconstruct(h, U1, U2, U3, lambda, Y, status)
        call check(status == NUMGPU_SUCCESS .and. &
            abs(norm2(Y - X) / norm2(X) - (1 - fit)) <= 10 * sqrt(epsilon(0.0_{kind})), &
            "{p}cp_reconstruct: not X within 1 - fit " // numgpu_last_error_string())
        Y = -7
        call numgpu_cp_reconstruct(h, U1, U2, U3, wrong, Y, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(Y == -7), "{p}cp_reconstruct: lambda of 3 accepted")
    end subroutine

    subroutine train_{p}(h, ring)
        type(c_ptr), intent(in) :: h
        logical, intent(in) :: ring
        {type} :: X(4, 5, 6), Y(4, 5, 6), none(0)
        {type}, allocatable :: cores(:)
        integer(c_int64_t) :: ranks(4), offsets(4), short(3)
        integer(c_int32_t) :: status
        character(len=8) :: what
        {type}, parameter :: eps = 0.3_{kind}
        what = merge("{p}tr_svd", "{p}tt_svd", ring)
        call random_number(X)
        X = X - 0.5_{kind}
        offsets = -7
        if (ring) then
            call numgpu_tr_svd(h, X, eps, ranks, none, offsets, status)
        else
            call numgpu_tt_svd(h, X, eps, ranks, none, offsets, status)
        end if
        call check(status == NUMGPU_INSUFFICIENT_CAPACITY .and. offsets(4) > 0 .and. offsets(1) == -7, &
            trim(what) // ": the query with no capacity")
        allocate(cores(offsets(4)))
        if (ring) then
            call numgpu_tr_svd(h, X, eps, ranks, cores, offsets, status)
            call numgpu_tr_reconstruct(h, ranks, cores, Y, status)
        else
            call numgpu_tt_svd(h, X, eps, ranks, cores, offsets, status)
            call numgpu_tt_reconstruct(h, ranks, cores, Y, status)
        end if
        call check(status == NUMGPU_SUCCESS .and. norm2(Y - X) <= (eps + 0.01_{kind}) * norm2(X), &
            trim(what) // ": not within eps " // numgpu_last_error_string())
        call numgpu_tt_reconstruct(h, short, cores, Y, status)
        call check(status == NUMGPU_INVALID_VALUE, trim(what) // ": ranks of 3 entries accepted")
    end subroutine

    subroutine ht_{p}(h)
        type(c_ptr), intent(in) :: h
        integer, parameter :: n1 = 4, n2 = 5, n3 = 6, r1 = 2, r2 = 3, r3 = 3, r4 = 3
        {type} :: X(n1, n2, n3), Y(n1, n2, n3), P1(n1, r1), P2(n2, r2), P3(n3, r3), Q1(r4, r3), Q2(r1, r2, r4)
        {type} :: U1(n1, r1), U2(n2, r2), U3(n3, r3), B1(r4, r3), B2(r1, r2, r4), bad(n1, r2)
        integer(c_int64_t) :: ranks(4)
        integer(c_int32_t) :: status
        integer :: i, j, k, a, b, c, q
        call random_number(P1)
        call random_number(P2)
        call random_number(P3)
        call random_number(Q1)
        call random_number(Q2)
        X = 0
        do k = 1, n3
            do j = 1, n2
                do i = 1, n1
                    do a = 1, r1
                        do b = 1, r2
                            do q = 1, r4
                                do c = 1, r3
                                    X(i, j, k) = X(i, j, k) + P1(i, a) * P2(j, b) * Q2(a, b, q) * Q1(q, c) * P3(k, c)
                                end do
                            end do
                        end do
                    end do
                end do
            end do
        end do
        ranks = [r1, r2, r3, r4]
        call numgpu_ht(h, X, ranks, U1, U2, U3, B1, B2, status)
        call check(status == NUMGPU_SUCCESS .and. &
            maxval(abs(matmul(transpose(U1), U1) - reshape([1, 0, 0, 1], [2, 2]))) <= 100 * epsilon(0.0_{kind}), &
            "{p}ht: U1 not orthonormal " // numgpu_last_error_string())
        call numgpu_ht_reconstruct(h, ranks, U1, U2, U3, B1, B2, Y, status)
        call check(status == NUMGPU_SUCCESS .and. norm2(Y - X) <= 1000 * sqrt(epsilon(0.0_{kind})) * norm2(X), &
            "{p}ht_reconstruct: not the planted tensor " // numgpu_last_error_string())
        B1 = -7
        call numgpu_ht(h, X, ranks, bad, U2, U3, B1, B2, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(B1 == -7), "{p}ht: U1 of the wrong shape accepted")
    end subroutine
!@ end
end program
