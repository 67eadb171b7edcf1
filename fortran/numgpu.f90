! numgpu: Fortran 2008 module over the C ABI of include/numgpu.h.
!
!   use numgpu
!
! 1. A named constant for every NUMGPU_ macro and enum value of numgpu.h (the version,
!    backends, ops, sides, status codes, ...), with the kinds of C (integer(c_int32_t) for the
!    enums).
! 2. The header's structs as bind(C) derived types (numgpu_rkc_options), its callback types as
!    abstract interfaces (numgpu_ode_rhs_proc, numgpu_ode_spcrad_proc: write the callback as a
!    bind(C) procedure and pass c_funloc(proc)).
! 3. A bind(C) interface for every function of numgpu.h, with the exact C kinds: int64_t sizes
!    are integer(c_int64_t), int32_t enums integer(c_int32_t), size_t integer(c_size_t),
!    complex scalars complex(c_float_complex) / complex(c_double_complex) by value (the C
!    structs numgpu_complex_float/double are layout-compatible with them). Handles and every
!    array are type(c_ptr) passed by value, so host memory (c_loc(x)) and device memory (from
!    numgpu_malloc, cudaMalloc, ...) go through the same interface; `T **` out-arguments (the
!    handle of numgpu_create, the pointer of numgpu_malloc, a created object) are type(c_ptr)
!    by reference. The results of a getter (numgpu_get_backend, numgpu_cmrs_info,
!    numgpu_rkc_options_default) are passed by reference with their kind. Out-arguments are
!    intent(inout): numgpu writes them only on success. Argument meanings, sizes and errors
!    are documented in numgpu.h.
! 4. Generic wrappers with assumed-shape arrays, one name over the precisions (below, each
!    with its documentation), so that Fortran users write natural calls such as
!      call numgpu_gemm_batched(h, transa, transb, alpha, A, B, beta, C, status [, errmsg])
!    where A(:,:,:), B(:,:,:), C(:,:,:) hold the batch in their last dimension (a Fortran
!    A(lda, ncols, batch) is exactly numgpu's strided form). They take host arrays; for device
!    memory call the bind(C) interfaces with type(c_ptr) arguments. Every wrapper returns the
!    call's numgpu_status in `status`, refuses shapes that do not conform with
!    NUMGPU_INVALID_VALUE before calling numgpu (nothing written then), and on failure puts
!    the message into the optional `errmsg` (unchanged on success).
! 5. Strings: numgpu_last_error_string(), numgpu_status_message(s), numgpu_version_string().
! 6. The iso_c_binding kinds, types and procedures its interfaces take, re-exported, so that
!    `use numgpu` alone compiles a caller: c_ptr, c_null_ptr, c_funptr, c_null_funptr,
!    c_int32_t, c_int64_t, c_size_t, c_float, c_double, c_float_complex, c_double_complex,
!    c_char, c_loc, c_funloc, c_associated, c_f_pointer, c_sizeof.
!
! Names as in C, except where Fortran's case-insensitive names would clash: numgpu_version()
! is numgpu_version_c() (NUMGPU_VERSION is the version constant), and an argument whose name
! repeats an earlier one's in another case gets a trailing `_` (numgpu_?cmrs_create's M is M_).
!
! Build: gfortran -std=f2008 -c numgpu.f90, then link the program against libnumgpu.
module numgpu
    use, intrinsic :: iso_c_binding
    implicit none
    private
    public :: numgpu_last_error_string, numgpu_status_message, numgpu_version_string
    ! What a caller needs of iso_c_binding for these interfaces (item 6 above).
    public :: c_ptr, c_null_ptr, c_funptr, c_null_funptr, c_int32_t, c_int64_t, c_size_t, c_float, c_double, &
        c_float_complex, c_double_complex, c_char, c_loc, c_funloc, c_associated, c_f_pointer, c_sizeof

    ! The address of an array argument, for each element type and rank a wrapper passes.
    interface address
        module procedure address_s1, address_s2, address_s3, address_d1, address_d2, address_d3, address_c1, &
            address_c2, address_c3, address_z1, address_z2, address_z3, address_i1, address_i2
    end interface

!@ insert header

    ! ---- generic wrappers ---------------------------------------------------------------------

!@ insert specification

contains

    ! The last error of this thread's latest numgpu call as a Fortran string ("" after a
    ! successful call), e.g. "numgpu_sgemm_batched_strided: argument 9 (lda = 3) must be ...".
    function numgpu_last_error_string() result(msg)
        character(len=:), allocatable :: msg
        character(kind=c_char), allocatable, target :: buf(:)
        integer(c_size_t) :: n
        integer :: i
        n = numgpu_last_error(c_null_ptr, 0_c_size_t)
        allocate(buf(n + 1))
        n = numgpu_last_error(c_loc(buf), n + 1)
        allocate(character(len=n) :: msg)
        do i = 1, len(msg)
            msg(i:i) = buf(i)
        end do
    end function

    ! numgpu_status_string(s) as a Fortran string, e.g. "NUMGPU_SUCCESS: the call succeeded".
    function numgpu_status_message(s) result(msg)
        integer(c_int32_t), intent(in) :: s
        character(len=:), allocatable :: msg
        msg = c_string(numgpu_status_string(s))
    end function

    ! numgpu_version() as a Fortran string; equals NUMGPU_VERSION for a matching library.
    function numgpu_version_string() result(v)
        character(len=:), allocatable :: v
        v = c_string(numgpu_version_c())
    end function

    ! A NUL-terminated C string as a Fortran string ("" for NULL).
    function c_string(p) result(s)
        type(c_ptr), intent(in) :: p
        character(len=:), allocatable :: s
        character(kind=c_char), pointer :: chars(:)
        integer :: i
        interface
            ! C's strlen (not part of numgpu.h), declared here so it stays local.
            function c_strlen(str) bind(C, name="strlen")
                import :: c_ptr, c_size_t
                type(c_ptr), value :: str
                integer(c_size_t) :: c_strlen
            end function
        end interface
        if (.not. c_associated(p)) then
            s = ""
            return
        end if
        call c_f_pointer(p, chars, [c_strlen(p)])
        allocate(character(len=size(chars)) :: s)
        do i = 1, size(chars)
            s(i:i) = chars(i)
        end do
    end function

    ! Copies numgpu's last error into errmsg when a call failed (every wrapper's last step).
    subroutine report(status, errmsg)
        integer(c_int32_t), intent(in) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (status /= NUMGPU_SUCCESS .and. present(errmsg)) errmsg = numgpu_last_error_string()
    end subroutine

    ! Puts "<fname>: shapes do not conform: <why>" into errmsg and returns NUMGPU_INVALID_VALUE
    ! in status when `why` is not blank (a wrapper's shape check failed), else NUMGPU_SUCCESS.
    subroutine refuse(fname, why, status, errmsg)
        character(len=*), intent(in) :: fname, why
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = NUMGPU_SUCCESS
        if (len_trim(why) == 0) return
        status = NUMGPU_INVALID_VALUE
        if (present(errmsg)) errmsg = fname // ": shapes do not conform: " // trim(why)
    end subroutine

    ! address(x): c_loc(x), or C's NULL when x is empty (c_loc of a zero-sized array is not
    ! allowed). x is contiguous with the TARGET attribute, and so is every wrapper's
    ! array, so the address is the caller's array itself.
!@ template s d c z
    function address_{p}1(x) result(a)
        {type}, intent(in), target, contiguous :: x(:)
        type(c_ptr) :: a
        a = c_null_ptr
        if (size(x) > 0) a = c_loc(x)
    end function

    function address_{p}2(x) result(a)
        {type}, intent(in), target, contiguous :: x(:,:)
        type(c_ptr) :: a
        a = c_null_ptr
        if (size(x) > 0) a = c_loc(x)
    end function

    function address_{p}3(x) result(a)
        {type}, intent(in), target, contiguous :: x(:,:,:)
        type(c_ptr) :: a
        a = c_null_ptr
        if (size(x) > 0) a = c_loc(x)
    end function

!@ end
    function address_i1(x) result(a)
        integer(c_int32_t), intent(in), target, contiguous :: x(:)
        type(c_ptr) :: a
        a = c_null_ptr
        if (size(x) > 0) a = c_loc(x)
    end function

    function address_i2(x) result(a)
        integer(c_int32_t), intent(in), target, contiguous :: x(:,:)
        type(c_ptr) :: a
        a = c_null_ptr
        if (size(x) > 0) a = c_loc(x)
    end function

!@ insert procedures

end module numgpu
