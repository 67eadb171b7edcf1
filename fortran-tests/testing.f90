! testing: what every program of fortran-tests/ shares (fortran.rs stamps its templates and
! compiles it once, beside numgpu.mod).
!
! - start(name) creates the handle numgpu_create picks (AUTO: CUDA on a GPU host, else CPU) and
!   says which; check(ok, what) counts; finish(h) destroys the handle, prints
!   "<name>: N passed, M failed" (the line fortran.rs looks for) and stops with code 1 on any
!   failure.
! - random_z(n): n uniform complex(c_double) values in [-1, 1) x [-1, 1); to_s/d/c/z convert
!   them to a precision (the real part for s and d), so a test draws its data once and passes
!   it in any precision; the references are computed in complex(c_double).
! - on_device / free_device: a copy of host memory in numgpu_malloc memory (device memory on
!   CUDA, host memory on the CPU backend, where numgpu_malloc returns host memory).
module testing
    use, intrinsic :: iso_c_binding
    use numgpu
    implicit none
    private
    public :: start, check, finish, itoa, random_z, on_device, to_host, free_device, ratio
    public :: to_s, to_d, to_c, to_z
    integer :: passed = 0, failed = 0
    character(len=:), allocatable :: program_name

contains

    function start(name) result(h)
        character(len=*), intent(in) :: name
        type(c_ptr) :: h
        integer(c_int32_t) :: backend
        program_name = name
        h = c_null_ptr
        call check(numgpu_create(h) == NUMGPU_SUCCESS .and. c_associated(h), "numgpu_create: " // numgpu_last_error_string())
        if (.not. c_associated(h)) call finish(h)
        backend = -1
        call check(numgpu_get_backend(h, backend) == NUMGPU_SUCCESS, "numgpu_get_backend")
        print '(3a)', name, ": AUTO handle runs on ", trim(merge("CUDA", "CPU ", backend == NUMGPU_BACKEND_CUDA))
    end function

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

    subroutine finish(h)
        type(c_ptr), intent(in) :: h
        if (c_associated(h)) call check(numgpu_destroy(h) == NUMGPU_SUCCESS, "numgpu_destroy")
        print '(a,a,i0,a,i0,a)', program_name, ": ", passed, " passed, ", failed, " failed"
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

    ! err / scale as a test ratio: 0 when both are 0, huge when only the scale is.
    real(c_double) function ratio(err, scale)
        real(c_double), intent(in) :: err, scale
        if (scale > 0) then
            ratio = err / scale
        else
            ratio = merge(0.0_c_double, huge(1.0_c_double), err == 0)
        end if
    end function

    function random_z(n) result(z)
        integer, intent(in) :: n
        complex(c_double) :: z(n)
        real(c_double) :: re(n), im(n)
        call random_number(re)
        call random_number(im)
        z = cmplx(2 * re - 1, 2 * im - 1, c_double)
    end function

!@ template s d
    elemental function to_{p}(z) result(x)
        complex(c_double), intent(in) :: z
        {type} :: x
        x = real(z, {kind})
    end function
!@ end

!@ template c z
    elemental function to_{p}(z) result(x)
        complex(c_double), intent(in) :: z
        {type} :: x
        x = cmplx(z, kind={kind})
    end function
!@ end

    ! A numgpu_malloc block holding a copy of `bytes` bytes at `host`.
    function on_device(h, host, bytes) result(dev)
        type(c_ptr), intent(in) :: h, host
        integer(c_size_t), intent(in) :: bytes
        type(c_ptr) :: dev
        dev = c_null_ptr
        call check(numgpu_malloc(h, dev, bytes) == NUMGPU_SUCCESS, "numgpu_malloc: " // numgpu_last_error_string())
        call check(numgpu_memcpy(h, dev, host, bytes) == NUMGPU_SUCCESS, "numgpu_memcpy to numgpu_malloc memory")
    end function

    ! Copies `bytes` bytes of numgpu_malloc memory back to `host` (after the handle's work).
    subroutine to_host(h, host, dev, bytes)
        type(c_ptr), intent(in) :: h, host, dev
        integer(c_size_t), intent(in) :: bytes
        call check(numgpu_synchronize(h) == NUMGPU_SUCCESS, "numgpu_synchronize: " // numgpu_last_error_string())
        call check(numgpu_memcpy(h, host, dev, bytes) == NUMGPU_SUCCESS, "numgpu_memcpy from numgpu_malloc memory")
    end subroutine

    subroutine free_device(h, dev)
        type(c_ptr), intent(in) :: h
        type(c_ptr), intent(in) :: dev(:)
        integer :: i
        do i = 1, size(dev)
            call check(numgpu_free(h, dev(i)) == NUMGPU_SUCCESS, "numgpu_free")
        end do
    end subroutine

end module testing
