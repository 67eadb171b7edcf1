! test_potrf_f: the Cholesky wrappers from Fortran through `use numgpu`, in all four
! precisions (each !@ template block is stamped for s, d, c and z; fortran/README.md).
!
! - numgpu_potrf_batched on a batch of three tridiag(-1, 2, -1) matrices of order 20, lower and
!   upper, against the exact factor L(i,i) = sqrt((i+1)/i), L(i+1,i) = -sqrt(i/(i+1)): info 0,
!   the factor within 30 n eps, the other triangle untouched; the middle matrix with
!   A(7,7) = -1: info 7.
! - numgpu_posv_batched with B = A * ones: X = ones within 30 n eps (the condition number of
!   tridiag(-1, 2, -1) of order 20 is below 200); numgpu_potrs_batched with one factor for the
!   batch (size(A, 3) = 1).
! - The wrappers' shape checks, writing nothing.
!
! Prints "test_potrf_f: N passed, M failed" and stops with code 1 on any failure.
program test_potrf_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: n = 20, nb = 3
    type(c_ptr) :: h

    h = start("test_potrf_f")
!@ template s d c z
    call factors_{p}(h, NUMGPU_UPLO_LOWER)
    call factors_{p}(h, NUMGPU_UPLO_UPPER)
    call solves_{p}(h)
!@ end
    call finish(h)

contains

    ! tridiag(-1, 2, -1) of order n, with -7 in the triangle `uplo` does not name.
    function tridiag(uplo) result(a)
        integer(c_int32_t), intent(in) :: uplo
        real(c_double) :: a(n, n)
        integer :: i, j
        do j = 1, n
            do i = 1, n
                if ((uplo == NUMGPU_UPLO_LOWER .and. i < j) .or. (uplo == NUMGPU_UPLO_UPPER .and. i > j)) then
                    a(i, j) = -7
                else if (i == j) then
                    a(i, j) = 2
                else if (abs(i - j) == 1) then
                    a(i, j) = -1
                else
                    a(i, j) = 0
                end if
            end do
        end do
    end function

    ! The exact factor's entry (i, j) of L, i >= j.
    pure real(c_double) function exact(i, j)
        integer, intent(in) :: i, j
        if (i == j) then
            exact = sqrt(real(i + 1, c_double) / i)
        else if (i == j + 1) then
            exact = -sqrt(real(j, c_double) / (j + 1))
        else
            exact = 0
        end if
    end function

!@ template s d c z
    subroutine factors_{p}(h, uplo)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: uplo
        {type} :: a(n, n, nb)
        integer(c_int32_t) :: info(nb), status
        integer :: b, i, j
        real(c_double) :: worst
        logical :: other_same
        do b = 1, nb
            a(:, :, b) = to_{p}(cmplx(tridiag(uplo), 0, c_double))
        end do
        a(7, 7, 2) = -1
        info = -7
        call numgpu_potrf_batched(h, uplo, a, info, status)
        call check(status == NUMGPU_SUCCESS, "{p}potrf uplo " // itoa(int(uplo)) // ": " // numgpu_last_error_string())
        call check(all(info == [0, 7, 0]), "{p}potrf uplo " // itoa(int(uplo)) // ": info")
        worst = 0
        other_same = .true.
        do j = 1, n
            do i = 1, n
                if (i >= j) then
                    if (uplo == NUMGPU_UPLO_LOWER) then
                        worst = max(worst, abs(a(i, j, 1) - exact(i, j)), abs(a(i, j, 3) - exact(i, j)))
                    else
                        worst = max(worst, abs(a(j, i, 1) - exact(i, j)), abs(a(j, i, 3) - exact(i, j)))
                    end if
                end if
                if (uplo == NUMGPU_UPLO_LOWER .and. i < j) other_same = other_same .and. all(a(i, j, :) == -7)
                if (uplo == NUMGPU_UPLO_UPPER .and. i > j) other_same = other_same .and. all(a(i, j, :) == -7)
            end do
        end do
        call check(worst <= 30 * n * epsilon(0.0_{kind}), "{p}potrf uplo " // itoa(int(uplo)) // ": factor inexact")
        call check(other_same, "{p}potrf uplo " // itoa(int(uplo)) // ": the other triangle written")
        ! Shapes: info of the wrong size.
        info = -7
        call numgpu_potrf_batched(h, uplo, a(:, :, 1:2), info, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(info == -7), "{p}potrf: info of the wrong size accepted")
    end subroutine

    subroutine solves_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a(n, n, nb), b(n, 2, nb)
        integer(c_int32_t) :: info(nb), status
        integer :: k
        do k = 1, nb
            a(:, :, k) = to_{p}(cmplx(tridiag(NUMGPU_UPLO_LOWER), 0, c_double))
        end do
        b = 0
        b(1, :, :) = 1
        b(n, :, :) = 1
        info = -7
        call numgpu_posv_batched(h, NUMGPU_UPLO_LOWER, a, b, info, status)
        call check(status == NUMGPU_SUCCESS .and. all(info == 0), "{p}posv: " // numgpu_last_error_string())
        call check(maxval(abs(b - 1)) <= 30 * n * 200 * epsilon(0.0_{kind}), "{p}posv: X is not ones")
        b = 0
        b(1, :, :) = 1
        b(n, :, :) = 1
        call numgpu_potrs_batched(h, NUMGPU_UPLO_LOWER, a(:, :, 1:1), b, status)
        call check(status == NUMGPU_SUCCESS .and. maxval(abs(b - 1)) <= 30 * n * 200 * epsilon(0.0_{kind}), &
            "{p}potrs with one factor for the batch")
        ! Shapes: B of another batch size, writing nothing.
        b = -7
        call numgpu_posv_batched(h, NUMGPU_UPLO_LOWER, a, b(:, :, 1:2), info, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(b == -7), "{p}posv: B of 2 matrices for 3 accepted")
    end subroutine
!@ end
end program
