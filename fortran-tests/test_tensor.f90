! test_tensor_f: the dense tensor wrappers from Fortran through `use numgpu`, in both real
! precisions (each !@ template block is stamped for s and d; fortran/README.md).
!
! - numgpu_khatri_rao on A(4, 3), B(5, 3) into C(21, 3): every entry the product A(i, k)*B(j, k)
!   at row j + (i-1)*5, the spare row untouched.
! - numgpu_mttkrp on X(4, 5, 6), rank 3, every mode (1-based), against the sum written out
!   here, within (k + 3) eps of the sum of the absolute terms; M with a spare row, untouched;
!   the mode's own factor of shape (0, 0).
! - The wrappers' shape checks, writing nothing.
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
!@ end
end program
