! test_life_f: the LiFE wrappers from Fortran through `use numgpu`: a small 1-based connectome
! (an empty voxel and an empty fibre, a repeated entry) built by numgpu_life_create;
! numgpu_life_mw and numgpu_life_mty against loops over the COO; numgpu_life_sbbnnls meets the
! KKT conditions and reports its objective; shapes that do not fit the plan are refused before
! any call, writing nothing; numgpu_life_plan_destroy.
!
! Prints "test_life_f: N passed, M failed" and stops with code 1 on any failure.
program test_life_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none

    integer, parameter :: nt = 6, na = 3, nv = 5, nf = 4, nnz = 9
    integer(c_int32_t), parameter :: atoms(nnz) = [1, 2, 3, 1, 1, 3, 2, 2, 1]
    integer(c_int32_t), parameter :: voxels(nnz) = [1, 2, 3, 5, 2, 1, 3, 5, 2]
    integer(c_int32_t), parameter :: fibers(nnz) = [1, 1, 2, 4, 1, 4, 2, 2, 4]
    real(c_double), parameter :: values(nnz) = [1.0_c_double, 0.5_c_double, 2.0_c_double, 1.0_c_double, 1.0_c_double, &
        1.5_c_double, 1.0_c_double, 0.25_c_double, 1.0_c_double]
    type(c_ptr) :: h, p
    real(c_double) :: D(nt + 1, na), w(nf), Y(nt + 2, nv), b(nt + 2, nv), g(nf), x(nf), r(nt + 2, nv), ref(nt + 2, nv)
    real(c_double) :: gref(nf), objective, f, worst, scale
    integer(c_int32_t) :: status, iters
    integer :: k, t

    h = start("test_life_f")
    do k = 1, na
        do t = 1, nt + 1
            D(t, k) = 0.5_c_double + mod(7 * t + 3 * k, 11) / 11.0_c_double
        end do
    end do
    w = [0.3_c_double, -1.0_c_double, 0.7_c_double, 2.0_c_double]
    do k = 1, nv
        do t = 1, nt + 2
            b(t, k) = sin(real(t + 10 * k, c_double))
        end do
    end do
    p = c_null_ptr
    call numgpu_life_create(h, int(nt, c_int64_t), int(na, c_int64_t), int(nv, c_int64_t), int(nf, c_int64_t), &
        atoms, voxels, fibers, NUMGPU_INDEX_BASE_ONE, values, p, status)
    call check(status == NUMGPU_SUCCESS, "numgpu_life_plan_create: " // numgpu_last_error_string())

    Y = -7
    call numgpu_life_mw(h, p, D, w, 0.0_c_double, Y, status)
    call mw_loop(w, ref)
    call check(status == NUMGPU_SUCCESS .and. maxval(abs(Y(1:nt, :) - ref(1:nt, :))) < 1e-13_c_double .and. &
        all(Y(nt + 1:, :) == -7), "numgpu_life_mw against the loop")
    call numgpu_life_mty(h, p, D, b, 0.0_c_double, g, status)
    call mty_loop(b, gref)
    call check(status == NUMGPU_SUCCESS .and. maxval(abs(g - gref)) < 1e-13_c_double, "numgpu_life_mty against the loop")

    x = 0
    call numgpu_life_sbbnnls(h, p, D, b, x, 500_c_int64_t, 1e-13_c_double, iters, objective, status)
    call check(status == NUMGPU_SUCCESS, "numgpu_life_sbbnnls: " // numgpu_last_error_string())
    call mw_loop(x, r)
    r(1:nt, :) = r(1:nt, :) - b(1:nt, :)
    f = 0.5_c_double * sum(r(1:nt, :)**2)
    call mty_loop(r, g)
    scale = maxval(abs(gref))
    worst = 0
    do k = 1, nf
        worst = max(worst, -x(k), merge(abs(g(k)), -g(k), x(k) > 0))
    end do
    call check(worst <= 1e-9_c_double * scale, "numgpu_life_sbbnnls: KKT residual")
    call check(iters >= 1 .and. abs(objective - f) <= 1e-12_c_double * f, "numgpu_life_sbbnnls: iters and objective")

    ! Shapes that do not fit the plan: refused, nothing written.
    Y = -7
    call numgpu_life_mw(h, p, D(:, 1:2), w, 0.0_c_double, Y, status)
    call check(status == NUMGPU_INVALID_VALUE .and. all(Y == -7), "numgpu_life_mw: D of 2 columns accepted")
    g = -7
    call numgpu_life_mty(h, p, D, Y(1:nt - 1, :), 0.0_c_double, g, status)
    call check(status == NUMGPU_INVALID_VALUE .and. all(g == -7), "numgpu_life_mty: Y of nt - 1 rows accepted")
    call check(numgpu_life_plan_destroy(p) == NUMGPU_SUCCESS, "numgpu_life_plan_destroy")
    call finish(h)

contains

    subroutine mw_loop(w, y)
        real(c_double), intent(in) :: w(nf)
        real(c_double), intent(out) :: y(nt + 2, nv)
        integer :: k
        y = 0
        do k = 1, nnz
            y(1:nt, voxels(k)) = y(1:nt, voxels(k)) + values(k) * w(fibers(k)) * D(1:nt, atoms(k))
        end do
    end subroutine

    subroutine mty_loop(y, g)
        real(c_double), intent(in) :: y(nt + 2, nv)
        real(c_double), intent(out) :: g(nf)
        integer :: k
        g = 0
        do k = 1, nnz
            g(fibers(k)) = g(fibers(k)) + values(k) * sum(D(1:nt, atoms(k)) * y(1:nt, voxels(k)))
        end do
    end subroutine
end program
