! test_handle_f: the module numgpu itself, through `use numgpu`.
!
! - Strings: numgpu_version_string() equals NUMGPU_VERSION and the NUMGPU_VERSION_* integers;
!   numgpu_status_message() of a known and an unknown code.
! - Handles: numgpu_create_with(CPU) and numgpu_get_backend, whose result comes back by
!   reference; a bad backend (argument 2) leaves the handle argument as it was, and
!   numgpu_last_error_string() / numgpu_last_error_arg() tell.
! - numgpu_malloc memory: a round trip of an array of every element kind through
!   numgpu_memcpy (device memory on CUDA, host memory on the CPU backend), numgpu_free.
! - A getter with several results by reference (numgpu_cmrs_info) and a bind(C) derived type
!   filled by reference (numgpu_rkc_options_default).
!
! Prints "test_handle_f: N passed, M failed" and stops with code 1 on any failure.
program test_handle_f
    use, intrinsic :: iso_c_binding
    use numgpu
    use testing
    implicit none
    type(c_ptr) :: h

    h = start("test_handle_f")
    call strings()
    call handles()
!@ template s d c z
    call memory_{p}(h)
!@ end
    call getters(h)
    call finish(h)

contains

    subroutine strings()
        character(len=32) :: v
        write(v, '(i0,a,i0,a,i0)') NUMGPU_VERSION_MAJOR, ".", NUMGPU_VERSION_MINOR, ".", NUMGPU_VERSION_PATCH
        call check(numgpu_version_string() == NUMGPU_VERSION .and. trim(v) == NUMGPU_VERSION, "numgpu_version() '" // &
            numgpu_version_string() // "', NUMGPU_VERSION '" // NUMGPU_VERSION // "', MAJOR.MINOR.PATCH " // trim(v))
        call check(index(numgpu_status_message(NUMGPU_INVALID_VALUE), "NUMGPU_INVALID_VALUE:") == 1, &
            "numgpu_status_string(NUMGPU_INVALID_VALUE): " // numgpu_status_message(NUMGPU_INVALID_VALUE))
        call check(numgpu_status_message(99_c_int32_t) == "unknown numgpu status", "numgpu_status_string(99)")
    end subroutine

    subroutine handles()
        type(c_ptr) :: hc, hbad
        integer(c_int32_t) :: backend, status
        hc = c_null_ptr
        call check(numgpu_create_with(hc, NUMGPU_BACKEND_CPU, 0_c_int64_t) == NUMGPU_SUCCESS .and. c_associated(hc), &
            "numgpu_create_with(CPU): " // numgpu_last_error_string())
        backend = -1
        call check(numgpu_get_backend(hc, backend) == NUMGPU_SUCCESS .and. backend == NUMGPU_BACKEND_CPU, &
            "numgpu_get_backend of a CPU handle: " // itoa(int(backend)))
        call check(numgpu_destroy(hc) == NUMGPU_SUCCESS, "numgpu_destroy(CPU)")
        hbad = c_null_ptr
        status = numgpu_create_with(hbad, 7_c_int32_t, 0_c_int64_t)
        call check(status == NUMGPU_INVALID_VALUE .and. .not. c_associated(hbad) .and. numgpu_last_error_arg() == 2 .and. &
            index(numgpu_last_error_string(), "numgpu_create_with: argument 2 (backend = 7)") == 1, &
            "numgpu_create_with(backend 7): " // numgpu_last_error_string())
        call check(numgpu_destroy(c_null_ptr) == NUMGPU_SUCCESS, "numgpu_destroy(NULL) is a no-op")
    end subroutine

!@ template s d c z
    ! An array of {type} to numgpu_malloc memory and back.
    subroutine memory_{p}(h)
        type(c_ptr), intent(in) :: h
        {type}, target :: x(37), y(37)
        type(c_ptr) :: dev
        x = to_{p}(random_z(size(x)))
        y = 0
        dev = on_device(h, c_loc(x), c_sizeof(x))
        call to_host(h, c_loc(y), dev, c_sizeof(y))
        call check(all(y == x), "{p}: 37 values through numgpu_malloc memory and back")
        call free_device(h, [dev])
    end subroutine
!@ end

    subroutine getters(h)
        type(c_ptr), intent(in) :: h
        real(c_double), target :: val(3) = [1.0_c_double, 2.0_c_double, 3.0_c_double]
        integer(c_int32_t), target :: row_ptr(3) = [0, 2, 3], col_ind(3) = [0, 1, 1]
        type(c_ptr) :: a
        integer(c_int64_t) :: height, lanes
        real(c_double) :: pad
        type(numgpu_rkc_options) :: opts
        a = c_null_ptr
        call check(numgpu_dcmrs_create(h, 2_c_int64_t, 2_c_int64_t, 3_c_int64_t, c_loc(val), c_loc(row_ptr), c_loc(col_ind), &
            NUMGPU_INDEX_BASE_ZERO, 5_c_int64_t, 4_c_int64_t, a) == NUMGPU_SUCCESS .and. c_associated(a), &
            "numgpu_dcmrs_create: " // numgpu_last_error_string())
        height = -1
        lanes = -1
        pad = -1
        call check(numgpu_cmrs_info(a, height, lanes, pad) == NUMGPU_SUCCESS .and. height == 5 .and. lanes == 4 &
            .and. pad >= 0, "numgpu_cmrs_info: height " // itoa(int(height)) // ", M " // itoa(int(lanes)))
        call check(numgpu_cmrs_destroy(a) == NUMGPU_SUCCESS, "numgpu_cmrs_destroy")
        opts%size = 0
        opts%method = -1
        call check(numgpu_rkc_options_default(opts) == NUMGPU_SUCCESS .and. opts%size == c_sizeof(opts) .and. &
            opts%method == NUMGPU_RKC_METHOD_RKC .and. opts%spectral == NUMGPU_RKC_SPECTRAL_AUTO, &
            "numgpu_rkc_options_default fills the bind(C) type, size " // itoa(int(opts%size)))
    end subroutine

end program test_handle_f
