! test_conventions_f: the module's conventions from Fortran (issue 25), in every precision
! (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - `use numgpu` alone compiles a caller: this program uses no iso_c_binding itself (c_ptr,
!   c_int32_t, c_int64_t, c_double, ... come from numgpu), as the README's example does.
! - The one-right-hand-side forms of the generics (b(:) for numgpu_gtsv_spike; b(:,:) of shape
!   (ldb, batch) for numgpu_gtsv_batched_strided, getrs/gesv_fullpivot, potrs/posv and
!   gels_givens) give bitwise what the rank-2 (rank-3) forms give with nrhs = 1.
!
! Prints "test_conventions_f: N passed, M failed" and stops with code 1 on any failure.
program test_conventions_f
    use numgpu
    use testing
    implicit none

    type(c_ptr) :: h

    h = start("test_conventions_f")
    call readme_example()
!@ template s d c z
    call one_rhs_{p}(h)
!@ end
    call finish(h)

contains

    ! The README's example: a handle and a batched GEMM with nothing but `use numgpu`.
    subroutine readme_example()
        type(c_ptr) :: h
        integer(c_int32_t) :: status
        real(c_double), allocatable :: A(:,:,:), B(:,:,:), C(:,:,:)   ! (rows, cols, batch)
        allocate(A(2, 2, 3), B(2, 2, 3), C(2, 2, 3))
        A = 1
        B = 2
        C = -1
        h = c_null_ptr
        status = numgpu_create(h)
        call check(status == NUMGPU_SUCCESS .and. c_associated(h), "numgpu_create with `use numgpu` alone")
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 1.0d0, A, B, 0.0d0, C, status)
        call check(status == NUMGPU_SUCCESS .and. all(C == 4), "the README's numgpu_gemm_batched with `use numgpu` alone")
        call check(numgpu_destroy(h) == NUMGPU_SUCCESS, "numgpu_destroy")
    end subroutine

!@ template s d c z
    ! Each solver's one-right-hand-side form against its rank-2 (rank-3) form, bitwise.
    subroutine one_rhs_{p}(h)
        type(c_ptr), intent(in) :: h
        integer, parameter :: n = 5, nb = 3
        {type} :: dl(n - 1), d(n), du(n - 1), b1(n), b2(n, 1)
        {type} :: sdl(n, nb), sd(n, nb), sdu(n, nb), rhs(n, nb), x2(n, nb), x3(n, 1, nb)
        {type} :: a0(n, n, nb), spd(n, n, nb), a(n, n, nb), f(n, n, nb)
        integer(c_int32_t) :: info1, info2, infos(nb), infos2(nb), ip(n, nb), jp(n, nb), ip2(n, nb), jp2(n, nb)
        integer(c_int32_t) :: status, status2
        integer :: i

        dl = to_{p}(random_z(n - 1))
        d = to_{p}(random_z(n) + 4)
        du = to_{p}(random_z(n - 1))
        b1 = to_{p}(random_z(n))
        b2(:, 1) = b1
        call numgpu_gtsv_spike(h, NUMGPU_GTSV_DIAG_PIVOT, dl, d, du, b1, info1, status)
        call numgpu_gtsv_spike(h, NUMGPU_GTSV_DIAG_PIVOT, dl, d, du, b2, info2, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. info1 == info2 .and. all(b1 == b2(:, 1)), &
            "{p}: numgpu_gtsv_spike with b(:) as with b(:,1:1)")

        sdl = reshape(to_{p}(random_z(n * nb)), [n, nb])
        sd = reshape(to_{p}(random_z(n * nb) + 4), [n, nb])
        sdu = reshape(to_{p}(random_z(n * nb)), [n, nb])
        rhs = reshape(to_{p}(random_z(n * nb)), [n, nb])
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_gtsv_batched_strided(h, NUMGPU_GTSV_NOPIVOT, sdl, sd, sdu, x2, infos, status)
        call numgpu_gtsv_batched_strided(h, NUMGPU_GTSV_NOPIVOT, sdl, sd, sdu, x3, infos2, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(infos == infos2) .and. all(x2 == x3(:, 1, :)), &
            "{p}: numgpu_gtsv_batched_strided with b(:,:)")

        a0 = reshape(to_{p}(random_z(n * n * nb)), [n, n, nb])
        do i = 1, n
            a0(i, i, :) = a0(i, i, :) + 4
        end do
        a = a0
        f = a0
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_gesv_fullpivot_batched(h, a, ip, jp, x2, infos, status)
        call numgpu_gesv_fullpivot_batched(h, f, ip2, jp2, x3, infos2, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(infos == infos2) .and. all(ip == ip2) .and. &
            all(jp == jp2) .and. all(a == f) .and. all(x2 == x3(:, 1, :)), "{p}: numgpu_gesv_fullpivot_batched with b(:,:)")
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_getrs_fullpivot_batched(h, NUMGPU_OP_T, a, ip, jp, x2, status)
        call numgpu_getrs_fullpivot_batched(h, NUMGPU_OP_T, a, ip, jp, x3, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(x2 == x3(:, 1, :)), &
            "{p}: numgpu_getrs_fullpivot_batched with b(:,:)")

        ! Hermitian positive definite: n on the diagonal, 0.1 elsewhere.
        spd = to_{p}((0.1_c_double, 0.0_c_double))
        do i = 1, n
            spd(i, i, :) = n
        end do
        a = spd
        f = spd
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_posv_batched(h, NUMGPU_UPLO_LOWER, a, x2, infos, status)
        call numgpu_posv_batched(h, NUMGPU_UPLO_LOWER, f, x3, infos2, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(infos == 0) .and. all(infos2 == 0) .and. &
            all(a == f) .and. all(x2 == x3(:, 1, :)), "{p}: numgpu_posv_batched with b(:,:)")
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_potrs_batched(h, NUMGPU_UPLO_LOWER, a, x2, status)
        call numgpu_potrs_batched(h, NUMGPU_UPLO_LOWER, a, x3, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(x2 == x3(:, 1, :)), &
            "{p}: numgpu_potrs_batched with b(:,:)")

        a = a0
        f = a0
        x2 = rhs
        x3(:, 1, :) = rhs
        call numgpu_gels_givens_batched(h, a, x2, infos, status)
        call numgpu_gels_givens_batched(h, f, x3, infos2, status2)
        call check(status == NUMGPU_SUCCESS .and. status2 == status .and. all(infos == infos2) .and. all(a == f) .and. &
            all(x2 == x3(:, 1, :)), "{p}: numgpu_gels_givens_batched with b(:,:)")
    end subroutine
!@ end
end program test_conventions_f
