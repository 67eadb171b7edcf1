! test_gemm_f: numgpu's batched GEMM from Fortran through `use numgpu`.
!
! - The generic wrapper numgpu_gemm_batched for real(c_float), real(c_double),
!   complex(c_float_complex), complex(c_double_complex), all nine op pairs, several shapes
!   (1, 3..33, rectangular, k = 0), alpha/beta including 0 and complex values, a batch of 3,
!   one shared A and B (size(A, 3) = size(B, 3) = 1), beta = 0 with NaN in C, an empty batch.
!   Reference: matmul on op(A) in double complex from the same (rounded) inputs; per matrix
!   ||C - Cref||_F / (eps (k |alpha| ||A|| ||B|| + |beta| ||C0||) + tiny) <= 10.
!   Each case runs on the handle numgpu_create picks (AUTO) and on an explicit CPU handle.
! - The wrapper's own shape check: non-conforming shapes give NUMGPU_INVALID_VALUE and errmsg.
! - Direct bind(C) calls: numgpu_sgemm_batched_strided with lda too small (status, argument
!   number, last-error text), numgpu_dgemm_batched with an array of c_ptr, version and status
!   strings.
!
! Prints "test_gemm_f: N passed, M failed" and stops with code 1 on any failure.
program test_gemm_f
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated, c_int32_t, c_int64_t, &
        c_float, c_double, c_float_complex, c_double_complex
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    use numgpu
    implicit none

    integer, parameter :: dp = c_double
    real(dp), parameter :: tol = 10.0_dp
    integer :: passed = 0, failed = 0
    type(c_ptr) :: hauto = c_null_ptr, hcpu = c_null_ptr
    integer(c_int32_t) :: backend = -1_c_int32_t

    call check(numgpu_create(hauto) == NUMGPU_SUCCESS, "numgpu_create: " // numgpu_last_error_string())
    call check(numgpu_create_with(hcpu, NUMGPU_BACKEND_CPU, 0_c_int32_t) == NUMGPU_SUCCESS, &
        "numgpu_create_with(CPU): " // numgpu_last_error_string())
    if (.not. (c_associated(hauto) .and. c_associated(hcpu))) call finish()
    call check(numgpu_get_backend(hauto, backend) == NUMGPU_SUCCESS, "numgpu_get_backend")
    if (backend == NUMGPU_BACKEND_CUDA) then
        print '(a)', "test_gemm_f: AUTO handle runs on CUDA"
    else
        print '(a)', "test_gemm_f: AUTO handle runs on CPU"
    end if

    call strings()
    call direct_calls(hcpu)
    call sweep(hauto, "AUTO")
    call sweep(hcpu, "CPU")
    call shape_checks(hcpu)

    call check(numgpu_destroy(hauto) == NUMGPU_SUCCESS, "numgpu_destroy(AUTO)")
    call check(numgpu_destroy(hcpu) == NUMGPU_SUCCESS, "numgpu_destroy(CPU)")
    call finish()

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (ok) then
            passed = passed + 1
        else
            failed = failed + 1
            if (failed <= 40) print '(2a)', "FAIL: ", what
        end if
    end subroutine

    subroutine finish()
        print '(a,i0,a,i0,a)', "test_gemm_f: ", passed, " passed, ", failed, " failed"
        if (failed > 0 .or. passed == 0) stop 1
        stop
    end subroutine

    function itoa(i) result(s)
        integer, intent(in) :: i
        character(len=:), allocatable :: s
        character(len=24) :: buf
        write(buf, '(i0)') i
        s = trim(buf)
    end function

    ! Uniform in [-1, 1) in both parts (imaginary part 0 for real precisions).
    subroutine random_matrix(x, cplx)
        complex(dp), intent(out) :: x(:,:,:)
        logical, intent(in) :: cplx
        real(dp), allocatable :: re(:,:,:), im(:,:,:)
        allocate(re(size(x, 1), size(x, 2), size(x, 3)), im(size(x, 1), size(x, 2), size(x, 3)))
        call random_number(re)
        call random_number(im)
        if (.not. cplx) im = 0.5_dp
        x = cmplx(2.0_dp * re - 1.0_dp, 2.0_dp * im - 1.0_dp, dp)
    end subroutine

    ! Rounds double complex values to precision prec (1 s, 2 d, 3 c, 4 z), as they are passed.
    elemental function rounded(x, prec) result(y)
        complex(dp), intent(in) :: x
        integer, intent(in) :: prec
        complex(dp) :: y
        select case (prec)
        case (1)
            y = cmplx(real(real(x, c_float), dp), 0.0_dp, dp)
        case (2)
            y = cmplx(real(x, dp), 0.0_dp, dp)
        case (3)
            y = cmplx(cmplx(x, kind=c_float_complex), kind=dp)
        case default
            y = x
        end select
    end function

    function op(x, t) result(y)
        complex(dp), intent(in) :: x(:,:)
        integer(c_int32_t), intent(in) :: t
        complex(dp), allocatable :: y(:,:)
        select case (t)
        case (NUMGPU_OP_N)
            y = x
        case (NUMGPU_OP_T)
            y = transpose(x)
        case default
            y = conjg(transpose(x))
        end select
    end function

    real(dp) function fro(x)
        complex(dp), intent(in) :: x(:,:)
        fro = sqrt(sum(abs(x)**2))
    end function

    ! Calls the generic wrapper in precision prec on double complex data (converted in and out).
    subroutine call_wrapper(h, prec, ta, tb, alpha, a, b, beta, c, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer, intent(in) :: prec
        integer(c_int32_t), intent(in) :: ta, tb
        complex(dp), intent(in) :: alpha, beta, a(:,:,:), b(:,:,:)
        complex(dp), intent(inout) :: c(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout) :: errmsg
        ! allocate(source=) rather than assignment to an unallocated array: gfortran 12's
        ! -Wmaybe-uninitialized misfires on reallocation-on-assignment (a false positive).
        real(c_float), allocatable :: as(:,:,:), bs(:,:,:), cs(:,:,:)
        real(c_double), allocatable :: ad(:,:,:), bd(:,:,:), cd(:,:,:)
        complex(c_float_complex), allocatable :: ac(:,:,:), bc(:,:,:), cc(:,:,:)
        complex(c_double_complex), allocatable :: az(:,:,:), bz(:,:,:), cz(:,:,:)
        select case (prec)
        case (1)
            allocate(as, source=real(a, c_float))
            allocate(bs, source=real(b, c_float))
            allocate(cs, source=real(c, c_float))
            call numgpu_gemm_batched(h, ta, tb, real(alpha, c_float), as, bs, real(beta, c_float), cs, status, errmsg)
            c = cmplx(cs, 0.0_c_float, dp)
        case (2)
            allocate(ad, source=real(a, c_double))
            allocate(bd, source=real(b, c_double))
            allocate(cd, source=real(c, c_double))
            call numgpu_gemm_batched(h, ta, tb, real(alpha, c_double), ad, bd, real(beta, c_double), cd, status, errmsg)
            c = cmplx(cd, 0.0_c_double, dp)
        case (3)
            allocate(ac, source=cmplx(a, kind=c_float_complex))
            allocate(bc, source=cmplx(b, kind=c_float_complex))
            allocate(cc, source=cmplx(c, kind=c_float_complex))
            call numgpu_gemm_batched(h, ta, tb, cmplx(alpha, kind=c_float_complex), ac, bc, &
                cmplx(beta, kind=c_float_complex), cc, status, errmsg)
            c = cmplx(cc, kind=dp)
        case default
            allocate(az, source=a)
            allocate(bz, source=b)
            allocate(cz, source=c)
            call numgpu_gemm_batched(h, ta, tb, alpha, az, bz, beta, cz, status, errmsg)
            c = cz
        end select
    end subroutine

    ! One product batch: op(A) m x k, op(B) k x n, `batch` matrices, na (nb) matrices of A (B).
    subroutine run_case(h, hname, prec, ta, tb, m, n, k, batch, na, nb, alpha, beta)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, intent(in) :: prec, m, n, k, batch, na, nb
        integer(c_int32_t), intent(in) :: ta, tb
        complex(dp), intent(in) :: alpha, beta
        character(len=*), parameter :: letters = "sdcz", opc = "NTC"
        complex(dp), allocatable :: a(:,:,:), b(:,:,:), c0(:,:,:), c(:,:,:), cref(:,:,:)
        complex(dp) :: al, be
        integer(c_int32_t) :: status
        character(len=512) :: errmsg, what
        real(dp) :: eps, small, err, scale, ratio, worst
        integer :: i, ia, ib
        logical :: cplx

        cplx = prec >= 3
        if (prec == 1 .or. prec == 3) then
            eps = real(epsilon(1.0_c_float), dp)
            small = real(tiny(1.0_c_float), dp)
        else
            eps = epsilon(1.0_dp)
            small = tiny(1.0_dp)
        end if
        al = rounded(alpha, prec)
        be = rounded(beta, prec)
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
        call random_matrix(a, cplx)
        call random_matrix(b, cplx)
        call random_matrix(c0, cplx)
        a = rounded(a, prec)
        b = rounded(b, prec)
        c0 = rounded(c0, prec)
        ! beta = 0 must not read C: NaN there must not reach the result.
        if (be == (0.0_dp, 0.0_dp)) c0 = cmplx(ieee_value(1.0_dp, ieee_quiet_nan), 0.0_dp, dp)

        allocate(cref(m, n, batch))
        do i = 1, batch
            ia = min(i, na)
            ib = min(i, nb)
            cref(:, :, i) = al * matmul(op(a(:, :, ia), ta), op(b(:, :, ib), tb))
            if (be /= (0.0_dp, 0.0_dp)) cref(:, :, i) = cref(:, :, i) + be * c0(:, :, i)
        end do

        allocate(c, source=c0)
        errmsg = ""
        call call_wrapper(h, prec, ta, tb, al, a, b, be, c, status, errmsg)

        worst = 0.0_dp
        do i = 1, batch
            ia = min(i, na)
            ib = min(i, nb)
            err = fro(c(:, :, i) - cref(:, :, i))
            scale = eps * (real(k, dp) * abs(al) * fro(a(:, :, ia)) * fro(b(:, :, ib))) + small
            if (be /= (0.0_dp, 0.0_dp)) scale = scale + eps * abs(be) * fro(c0(:, :, i))
            ratio = err / scale
            if (.not. (ratio <= worst)) worst = ratio
        end do
        write(what, '(5a,2(a1),a,3(i0,1x),a,i0,a,i0,1x,i0,a,4(g0.3,1x),a,g0.3)') hname, " handle: numgpu_gemm_batched(", &
            letters(prec:prec), ") op=", "", opc(ta + 1:ta + 1), opc(tb + 1:tb + 1), " m n k=", m, n, k, &
            "batch=", batch, " nA nB=", na, nb, " alpha beta=", al, be, " worst ratio ", worst
        call check(status == NUMGPU_SUCCESS .and. worst <= tol, trim(what) // " " // trim(errmsg))
    end subroutine

    subroutine sweep(h, hname)
        type(c_ptr), intent(in) :: h
        character(len=*), intent(in) :: hname
        integer, parameter :: shapes(3, 8) = reshape([1, 1, 1, 3, 4, 5, 8, 8, 8, 17, 9, 33, &
            32, 32, 32, 33, 2, 7, 4, 5, 0, 64, 3, 16], [3, 8])
        complex(dp), parameter :: scalars(2, 5) = reshape([(1.0_dp, 0.0_dp), (0.0_dp, 0.0_dp), &
            (-1.0_dp, 0.0_dp), (1.0_dp, 0.0_dp), (0.5_dp, -1.5_dp), (0.25_dp, 2.0_dp), &
            (0.0_dp, 0.0_dp), (-2.0_dp, 0.5_dp), (2.0_dp, 1.0_dp), (0.0_dp, 0.0_dp)], [2, 5])
        integer :: prec, s, counter
        integer(c_int32_t) :: ta, tb
        counter = 0
        do prec = 1, 4
            do ta = NUMGPU_OP_N, NUMGPU_OP_C
                do tb = NUMGPU_OP_N, NUMGPU_OP_C
                    do s = 1, size(shapes, 2)
                        counter = counter + 1
                        call run_case(h, hname, prec, ta, tb, shapes(1, s), shapes(2, s), shapes(3, s), 3, 3, 3, &
                            scalars(1, mod(counter, 5) + 1), scalars(2, mod(counter, 5) + 1))
                    end do
                end do
            end do
            ! One A and one B for a batch of 7 (strideA = strideB = 0).
            call run_case(h, hname, prec, NUMGPU_OP_T, NUMGPU_OP_N, 9, 13, 17, 7, 1, 1, scalars(1, 3), scalars(2, 3))
            call run_case(h, hname, prec, NUMGPU_OP_N, NUMGPU_OP_C, 9, 13, 17, 7, 1, 7, scalars(1, 5), scalars(2, 5))
            ! An empty batch, and m = 0.
            call run_case(h, hname, prec, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 0, 0, 0, scalars(1, 2), scalars(2, 2))
            call run_case(h, hname, prec, NUMGPU_OP_N, NUMGPU_OP_T, 0, 4, 4, 2, 2, 2, scalars(1, 2), scalars(2, 2))
        end do
    end subroutine

    ! Non-conforming shapes are refused by the wrapper before any call; C stays untouched.
    subroutine shape_checks(h)
        type(c_ptr), intent(in) :: h
        real(c_double) :: a(4, 3, 2), b(3, 5, 2), c(4, 5, 2), b_bad(4, 5, 2), a_bad(4, 3, 3)
        integer(c_int32_t) :: status
        character(len=256) :: errmsg
        a = 1.0_dp
        b = 1.0_dp
        b_bad = 1.0_dp
        a_bad = 1.0_dp
        c = 7.0_dp
        errmsg = ""
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 1.0_dp, a, b_bad, 0.0_dp, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "op(B) is 4 x 5") > 0 .and. all(c == 7.0_dp), &
            "wrapper refuses B of the wrong shape: status " // itoa(int(status)) // ", " // trim(errmsg))
        errmsg = ""
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 1.0_dp, a_bad, b, 0.0_dp, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. index(errmsg, "size(A, 3)") > 0 .and. all(c == 7.0_dp), &
            "wrapper refuses a batch of A that is neither 1 nor size(C, 3): " // trim(errmsg))
        ! An op out of range goes to numgpu, which names argument 2; errmsg has its message.
        errmsg = ""
        call numgpu_gemm_batched(h, 5_c_int32_t, NUMGPU_OP_N, 1.0_dp, a, b, 0.0_dp, c, status, errmsg)
        call check(status == NUMGPU_INVALID_VALUE .and. numgpu_last_error_arg() == 2 .and. &
            index(errmsg, "numgpu_dgemm_batched_strided: argument 2 (transa = 5)") == 1 .and. all(c == 7.0_dp), &
            "transa = 5 is refused by numgpu with argument 2: " // trim(errmsg))
        ! Without errmsg the status still tells.
        call numgpu_gemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 1.0_dp, a, b_bad, 0.0_dp, c, status)
        call check(status == NUMGPU_INVALID_VALUE, "wrapper without errmsg returns the status")
    end subroutine

    ! bind(C) interfaces called directly.
    subroutine direct_calls(h)
        type(c_ptr), intent(in) :: h
        real(c_float), target :: a(16), b(16), c(16)
        real(c_double), target :: ad(2, 2, 2), bd(2, 2, 2), cd(2, 2, 2)
        type(c_ptr), target :: pa(2), pb(2), pc(2)
        complex(c_double_complex), target :: az(2, 2), bz(2, 2), cz(2, 2)
        complex(c_double_complex) :: alpha
        integer(c_int32_t) :: status
        character(len=*), parameter :: want = "numgpu_sgemm_batched_strided: argument 9 (lda = 3) must be >= max(1, m) = 4"
        integer :: i

        a = 1.0_c_float
        b = 1.0_c_float
        c = 7.0_c_float
        status = numgpu_sgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 4_c_int64_t, 4_c_int64_t, 4_c_int64_t, &
            1.0_c_float, c_loc(a), 3_c_int64_t, 16_c_int64_t, c_loc(b), 4_c_int64_t, 16_c_int64_t, 0.0_c_float, &
            c_loc(c), 4_c_int64_t, 16_c_int64_t, 1_c_int64_t)
        call check(status == NUMGPU_INVALID_VALUE, "direct call with lda = 3 < m: INVALID_VALUE, got " // itoa(int(status)))
        call check(numgpu_last_error_arg() == 9, "numgpu_last_error_arg() == 9, got " // itoa(int(numgpu_last_error_arg())))
        call check(numgpu_last_error_string() == want, "last error text: '" // numgpu_last_error_string() // "'")
        call check(all(c == 7.0_c_float), "C untouched by a rejected call")

        ! Pointer-array form: arrays of c_ptr to the matrices.
        do i = 1, 2
            call random_number(ad(:, :, i))
            call random_number(bd(:, :, i))
            pa(i) = c_loc(ad(1, 1, i))
            pb(i) = c_loc(bd(1, 1, i))
            pc(i) = c_loc(cd(1, 1, i))
        end do
        cd = ieee_value(1.0_c_double, ieee_quiet_nan)
        status = numgpu_dgemm_batched(h, NUMGPU_OP_T, NUMGPU_OP_N, 2_c_int64_t, 2_c_int64_t, 2_c_int64_t, 2.0_c_double, &
            c_loc(pa), 2_c_int64_t, c_loc(pb), 2_c_int64_t, 0.0_c_double, c_loc(pc), 2_c_int64_t, 2_c_int64_t)
        call check(status == NUMGPU_SUCCESS, "numgpu_dgemm_batched with c_ptr arrays: " // numgpu_last_error_string())
        do i = 1, 2
            call check(maxval(abs(cd(:, :, i) - 2.0_dp * matmul(transpose(ad(:, :, i)), bd(:, :, i)))) <= 8 * epsilon(1.0_dp), &
                "numgpu_dgemm_batched matrix " // itoa(i))
        end do

        ! Complex scalar by value through bind(C).
        az = reshape([(1.0_dp, 2.0_dp), (-0.5_dp, 0.25_dp), (3.0_dp, -1.0_dp), (0.0_dp, 0.5_dp)], [2, 2])
        bz = reshape([(2.0_dp, -1.0_dp), (1.0_dp, 0.0_dp), (-1.0_dp, 1.0_dp), (0.25_dp, -2.0_dp)], [2, 2])
        alpha = (0.5_dp, -1.5_dp)
        status = numgpu_zgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_C, 2_c_int64_t, 2_c_int64_t, 2_c_int64_t, alpha, &
            c_loc(az), 2_c_int64_t, 4_c_int64_t, c_loc(bz), 2_c_int64_t, 4_c_int64_t, (0.0_dp, 0.0_dp), c_loc(cz), &
            2_c_int64_t, 4_c_int64_t, 1_c_int64_t)
        call check(status == NUMGPU_SUCCESS .and. &
            maxval(abs(cz - alpha * matmul(az, conjg(transpose(bz))))) <= 32 * epsilon(1.0_dp), &
            "numgpu_zgemm_batched_strided with a complex alpha by value")
    end subroutine

    subroutine strings()
        call check(numgpu_version_string() == NUMGPU_VERSION, "numgpu_version() '" // numgpu_version_string() // &
            "' == NUMGPU_VERSION '" // NUMGPU_VERSION // "'")
        call check(index(numgpu_status_message(NUMGPU_INVALID_VALUE), "NUMGPU_INVALID_VALUE:") == 1, &
            "numgpu_status_string(NUMGPU_INVALID_VALUE): " // numgpu_status_message(NUMGPU_INVALID_VALUE))
        call check(numgpu_status_message(99_c_int32_t) == "unknown numgpu status", "numgpu_status_string(99)")
    end subroutine

end program test_gemm_f
