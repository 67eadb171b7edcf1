! test_gemm_f: numgpu's batched GEMM from Fortran through `use numgpu`, in every precision
! (each !@ template block is stamped for s, d, c, z; fortran/README.md).
!
! - The generic wrapper numgpu_gemm_batched: every op pair on a rectangular batch (m, n, k all
!   different, so a shape taken from the wrong dimension fails), one A and one B shared by the
!   batch (size(A, 3) = size(B, 3) = 1), complex alpha and beta (their real parts for real
!   kinds), an empty batch and m = 0 (empty arrays: NULL pointers). Reference: matmul in
!   complex(c_double) on the same values; ||C - Cref||_F <= 10 k eps ||A|| ||B|| + ... per
!   matrix (the numerics are the Rust tests' business: tests/integration/gemm_batched.rs).
! - The wrapper's shape checks (NUMGPU_INVALID_VALUE and errmsg before any call, C untouched),
!   numgpu's own check through it (transa = 5: argument 2 of numgpu_?gemm_batched_strided,
!   errmsg = numgpu's message), and status without errmsg.
! - The bind(C) interfaces: the strided form on numgpu_malloc memory, the pointer-array form
!   with an array of c_ptr, scalars by value in each kind; lda too small (argument 9, the
!   exact message, C untouched).
!
! Prints "test_gemm_f: N passed, M failed" and stops with code 1 on any failure.
program test_gemm_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none
    type(c_ptr) :: h

    h = start("test_gemm_f")
!@ template s d c z
    call wrapper_{p}(h)
    call wrapper_errors_{p}(h)
    call bind_c_{p}(h)
!@ end
    call lda_too_small(h)
    call finish(h)

contains

    ! ||C - alpha op(A) op(B) - beta C0||_F / (eps (k |alpha| ||A|| ||B|| + |beta| ||C0||)), the
    ! worst over the batch (A and B of one matrix when shared).
    real(c_double) function gemm_ratio(ta, tb, alpha, a, b, beta, c0, c, eps) result(worst)
        integer(c_int32_t), intent(in) :: ta, tb
        complex(c_double), intent(in) :: alpha, beta, a(:,:,:), b(:,:,:), c0(:,:,:), c(:,:,:)
        real(c_double), intent(in) :: eps
        complex(c_double), allocatable :: ref(:,:)
        integer :: i, ia, ib
        worst = 0
        do i = 1, size(c, 3)
            ia = min(i, size(a, 3))
            ib = min(i, size(b, 3))
            allocate(ref, source=alpha * matmul(op(a(:, :, ia), ta), op(b(:, :, ib), tb)) + beta * c0(:, :, i))
            worst = max(worst, ratio(fro(c(:, :, i) - ref), eps * (size(a, merge(2, 1, ta == NUMGPU_OP_N)) * abs(alpha) * &
                fro(a(:, :, ia)) * fro(b(:, :, ib)) + abs(beta) * fro(c0(:, :, i)))))
            deallocate(ref)
        end do
    end function

    function op(x, t) result(y)
        complex(c_double), intent(in) :: x(:,:)
        integer(c_int32_t), intent(in) :: t
        complex(c_double), allocatable :: y(:,:)
        select case (t)
        case (NUMGPU_OP_N)
            y = x
        case (NUMGPU_OP_T)
            y = transpose(x)
        case default
            y = conjg(transpose(x))
        end select
    end function

    real(c_double) function fro(x)
        complex(c_double), intent(in) :: x(:,:)
        fro = sqrt(sum(abs(x)**2))
    end function

!@ template s d c z
    real(c_double) function eps_{p}()
        eps_{p} = epsilon(real(1, {kind}))
    end function

    ! numgpu_gemm_batched in {type}: one batch of (m, n, k) = (rows, cols, inner).
    subroutine gemm_case_{p}(h, ta, tb, m, n, k, batch, na, nb, what)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: ta, tb
        integer, intent(in) :: m, n, k, batch, na, nb
        character(len=*), intent(in) :: what
        {type}, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), c0(:,:,:)
        {type} :: alpha, beta
        integer(c_int32_t) :: status
        character(len=200) :: errmsg
        real(c_double) :: worst
        if (ta == NUMGPU_OP_N) then
            allocate(a(m, k, na))
        else
            allocate(a(k, m, na))
        end if
        if (tb == NUMGPU_OP_N) then
            allocate(b(k, n, nb))
        else
            allocate(b(n, k, nb))
        end if
        allocate(c0(m, n, batch))
        a = reshape(to_{p}(random_z(size(a))), shape(a))
        b = reshape(to_{p}(random_z(size(b))), shape(b))
        c0 = reshape(to_{p}(random_z(size(c0))), shape(c0))
        alpha = to_{p}((0.5_c_double, -1.5_c_double))
        beta = to_{p}((-1.0_c_double, 0.25_c_double))
        allocate(c, source=c0)
        errmsg = ""
        call numgpu_gemm_batched(h, ta, tb, alpha, a, b, beta, c, status, errmsg)
        worst = gemm_ratio(ta, tb, cmplx(alpha, kind=c_double), cmplx(a, kind=c_double), cmplx(b, kind=c_double), &
            cmplx(beta, kind=c_double), cmplx(c0, kind=c_double), cmplx(c, kind=c_double), eps_{p}())
        call check(status == NUMGPU_SUCCESS .and. worst <= 10, "numgpu_gemm_batched ({p}) " // what // &
            " ops " // itoa(int(ta)) // itoa(int(tb)) // ": ratio " // trim(real_text(worst)) // " " // trim(errmsg))
    end subroutine

    subroutine wrapper_{p}(h)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t) :: ta, tb
        do ta = NUMGPU_OP_N, NUMGPU_OP_C
            do tb = NUMGPU_OP_N, NUMGPU_OP_C
                call gemm_case_{p}(h, ta, tb, 5, 3, 4, 3, 3, 3, "5 x 3 x 4, batch 3")
            end do
        end do
        call gemm_case_{p}(h, NUMGPU_OP_T, NUMGPU_OP_N, 9, 13, 17, 7, 1, 1, "one A and one B for a batch of 7")
        call gemm_case_{p}(h, NUMGPU_OP_N, NUMGPU_OP_C, 9, 13, 17, 7, 1, 7, "one A for a batch of 7")
        call gemm_case_{p}(h, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 0, 0, 0, "empty batch")
        call gemm_case_{p}(h, NUMGPU_OP_N, NUMGPU_OP_T, 0, 4, 4, 2, 2, 2, "m = 0")
    end subroutine

    ! Shapes that do not conform are refused before any call; numgpu's own checks come back
    ! through errmsg; nothing is written either way.
    subroutine wrapper_errors_{p}(h)
        type(c_ptr), intent(in) :: h
        {type} :: a(4, 3, 2), b(3, 5, 2), c(4, 5, 2), b_bad(4, 5, 2), a_bad(4, 3, 3), one, zero
        integer(c_int32_t) :: status
        character(len=256) :: errmsg
        one = 1
        zero = 0
        a = one
        b = one
        b_bad = one
        a_bad = one
        c = 7
        errmsg = ""
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, one, a, b_bad, zero, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "numgpu_gemm_batched: shapes do not conform: " // &
            "op(B) is 4 x 5") == 1 .and. all(c == 7), "{p}: wrapper refuses B of the wrong shape: " // trim(errmsg))
        errmsg = ""
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, one, a_bad, b, zero, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(A, 3)") > 0 .and. all(c == 7), &
            "{p}: wrapper refuses a batch of A that is neither 1 nor size(C, 3): " // trim(errmsg))
        errmsg = ""
        call numgpu_gemm_batched(h, 5_c_int32_t, NUMGPU_OP_N, one, a, b, zero, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. &
            index(errmsg, "numgpu_{p}gemm_batched_strided: argument 2 (transa = 5)") == 1 .and. all(c == 7), &
            "{p}: transa = 5 is refused by numgpu with argument 2: " // trim(errmsg))
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, one, a, b_bad, zero, c, status)
        call check(status == NUMGPU_INVALID_VALUE .and. all(c == 7), "{p}: wrapper without errmsg returns the status")
        errmsg = "unchanged"
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, one, a, b, zero, c, status, errmsg)
        call check(status == NUMGPU_SUCCESS .and. errmsg == "unchanged" .and. all(c == 3), &
            "{p}: a successful call leaves errmsg unchanged and computes C = A B")
    end subroutine

    ! The bind(C) interfaces in {type}: the strided form on numgpu_malloc memory against the
    ! wrapper on host arrays, the pointer-array form with an array of c_ptr.
    subroutine bind_c_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: a(3, 4, 2), b(4, 2, 2), c(3, 2, 2), cw(3, 2, 2), alpha, beta
        type(c_ptr), target :: pa(2), pb(2), pc(2)
        type(c_ptr) :: dev(3)
        integer(c_int32_t) :: status
        integer :: i
        a = reshape(to_{p}(random_z(size(a))), shape(a))
        b = reshape(to_{p}(random_z(size(b))), shape(b))
        cw = reshape(to_{p}(random_z(size(cw))), shape(cw))
        alpha = to_{p}((2.0_c_double, 1.0_c_double))
        beta = to_{p}((0.5_c_double, 0.0_c_double))
        c = cw
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, alpha, a, b, beta, cw, status)
        call check(status == NUMGPU_SUCCESS, "numgpu_gemm_batched ({p}) beside the bind(C) calls")

        dev = [on_device(h, c_loc(a), c_sizeof(a)), on_device(h, c_loc(b), c_sizeof(b)), on_device(h, c_loc(c), c_sizeof(c))]
        call check(numgpu_{p}gemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 3_c_int64_t, 2_c_int64_t, 4_c_int64_t, &
            alpha, dev(1), 3_c_int64_t, 12_c_int64_t, dev(2), 4_c_int64_t, 8_c_int64_t, beta, dev(3), 3_c_int64_t, &
            6_c_int64_t, 2_c_int64_t) == NUMGPU_SUCCESS, "numgpu_{p}gemm_batched_strided on numgpu_malloc memory: " // &
            numgpu_last_error_string())
        call to_host(h, c_loc(c), dev(3), c_sizeof(c))
        call free_device(h, dev)
        call check(all(c == cw), "numgpu_{p}gemm_batched_strided on numgpu_malloc memory gives the wrapper's C")

        c = 0
        do i = 1, 2
            pa(i) = c_loc(a(1, 1, i))
            pb(i) = c_loc(b(1, 1, i))
            pc(i) = c_loc(c(1, 1, i))
        end do
        beta = 0
        call check(numgpu_{p}gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 3_c_int64_t, 2_c_int64_t, 4_c_int64_t, alpha, &
            c_loc(pa), 3_c_int64_t, c_loc(pb), 4_c_int64_t, beta, c_loc(pc), 3_c_int64_t, 2_c_int64_t) == NUMGPU_SUCCESS, &
            "numgpu_{p}gemm_batched with arrays of c_ptr: " // numgpu_last_error_string())
        call check(gemm_ratio(NUMGPU_OP_N, NUMGPU_OP_N, cmplx(alpha, kind=c_double), cmplx(a, kind=c_double), &
            cmplx(b, kind=c_double), (0.0_c_double, 0.0_c_double), cmplx(c, kind=c_double), cmplx(c, kind=c_double), &
            eps_{p}()) <= 10, "numgpu_{p}gemm_batched with arrays of c_ptr against matmul")
    end subroutine
!@ end

    function real_text(x) result(s)
        real(c_double), intent(in) :: x
        character(len=24) :: s
        write(s, '(es10.3)') x
    end function

    ! The position and text of a rejected argument through the bind(C) interface.
    subroutine lda_too_small(h)
        type(c_ptr), intent(in) :: h
        real(c_float), target :: a(16), b(16), c(16)
        character(len=*), parameter :: want = "numgpu_sgemm_batched_strided: argument 9 (lda = 3) must be >= max(1, m) = 4"
        a = 1
        b = 1
        c = 7
        call check(numgpu_sgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 4_c_int64_t, 4_c_int64_t, 4_c_int64_t, &
            1.0_c_float, c_loc(a), 3_c_int64_t, 16_c_int64_t, c_loc(b), 4_c_int64_t, 16_c_int64_t, 0.0_c_float, &
            c_loc(c), 4_c_int64_t, 16_c_int64_t, 1_c_int64_t) == NUMGPU_INVALID_VALUE, "lda = 3 < m: INVALID_VALUE")
        call check(numgpu_last_error_arg() == 9, "numgpu_last_error_arg() == 9, got " // itoa(int(numgpu_last_error_arg())))
        call check(numgpu_last_error_string() == want, "last error text: '" // numgpu_last_error_string() // "'")
        call check(all(c == 7), "C untouched by a rejected call")
    end subroutine

end program test_gemm_f
