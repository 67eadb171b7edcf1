! numgpu: Fortran 2008 module over the C ABI of include/numgpu.h.
!
!   use numgpu
!
! 1. Named constants for every value of numgpu.h (version, backends, ops, sides, status codes),
!    all integer(c_int32_t) like the C enums.
! 2. A bind(C) interface for every function of numgpu.h, with the exact C kinds: int64_t
!    sizes are integer(c_int64_t), int32_t enums integer(c_int32_t), size_t integer(c_size_t),
!    complex scalars complex(c_float_complex) / complex(c_double_complex) by value (the C
!    structs numgpu_complex_float/double are layout-compatible with them). Handles and every
!    array are type(c_ptr) passed by value, so host memory (c_loc(x)) and device memory (from
!    numgpu_malloc, cudaMalloc, ...) go through the same interface; `T **` out-arguments
!    (the handle of numgpu_create, the pointer of numgpu_malloc) are type(c_ptr) by reference.
!    Out-arguments are intent(inout): numgpu writes them only on success.
! 3. Generic wrappers with assumed-shape arrays, so that Fortran users write natural calls:
!      call numgpu_gemm_batched(h, transa, transb, alpha, A, B, beta, C, status [, errmsg])
!    over the four precisions, where A(:,:,:), B(:,:,:), C(:,:,:) hold the batch in their
!    last dimension (a Fortran A(lda, ncols, batch) is exactly numgpu's strided form); and
!    for LU with complete pivoting (LAPACK ?getc2 / ?gesc2 semantics):
!      call numgpu_getrf_batched_fullpivot(h, A, ipiv, jpiv, info, mode, status [, errmsg])
!      call numgpu_getrs_batched_fullpivot(h, trans, A, ipiv, jpiv, B, status [, errmsg])
!      call numgpu_gesv_batched_fullpivot(h, A, ipiv, jpiv, B, info, status [, errmsg])
!      call numgpu_gesc2_batched(h, A, rhs, ipiv, jpiv, scale, status [, errmsg])
!    and for QR by Givens rotations (LAPACK ?geqrf, ?ormqr/?unmqr, ?orgqr/?ungqr, ?gels roles,
!    one generic name over the real and the complex kinds):
!      call numgpu_geqrf_givens_batched(h, A, CS, status [, errmsg])
!      call numgpu_ormqr_givens_batched(h, side, trans, A, CS, C, status [, errmsg])
!      call numgpu_orgqr_givens_batched(h, A, CS, status [, errmsg])
!      call numgpu_gels_givens_batched(h, A, B, info, status [, errmsg])
!    and for sparse matrix-vector products (CSR, and the CMRS object of real kinds):
!      call numgpu_csrmv(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status [, errmsg])
!      call numgpu_cmrs_create(h, n, val, row_ptr, col_ind, index_base, height, M, A, status [, errmsg])
!      call numgpu_cmrs_update_values(h, A, val, status [, errmsg])
!    The tensor eigenpair routines (numgpu_sshopm, numgpu_dsshopm, their _unique forms,
!    numgpu_?sym_apply, numgpu_?sym_pack / unpack) have their bind(C) interfaces only.
!      call numgpu_cmrsmv(h, alpha, A, x, beta, y, status [, errmsg])
!    and for tridiagonal systems (LAPACK ?gtsv semantics, the diagonals not written):
!      call numgpu_gtsv_spike(h, dl, d, du, B, info, pivoting, status [, errmsg])
!      call numgpu_gtsv_batched_strided(h, dl, d, du, B, info, pivoting, status [, errmsg])
!      call numgpu_gtsv_batched_interleaved(h, dl, d, du, B, info, pivoting, status [, errmsg])
!    and for many independent ODE systems (RKC / RKCK), the derived type numgpu_rkc_options
!    (bind(C), the C struct) and abstract interfaces for the host callbacks
!    (numgpu_ode_rhs_proc, numgpu_ode_spcrad_proc: write them as bind(C) procedures and pass
!    c_funloc(proc)); a Fortran Y(NEQ, NSYS) is NUMGPU_LAYOUT_SYSTEM_MAJOR with ldy = NEQ:
!      call numgpu_rkc(h, ode, t0, tend, Y, P, rtol, atol, sys_status, status &
!                      [, opts, state, stats, errmsg])
! 4. Strings: numgpu_last_error_string(), numgpu_status_message(s), numgpu_version_string().
!
! One name differs from C: numgpu_version() is numgpu_version_c(), because Fortran names are
! case-insensitive and NUMGPU_VERSION is the version constant.
!
! The interfaces mirror numgpu.h one to one; tests/integration/fortran.rs
! (fortran_module_covers_header) fails when a function or constant of the header is missing
! here, or when the number, kinds or passing of the arguments disagree. Argument meanings,
! sizes and error cases are documented in numgpu.h.
!
! Build: gfortran -std=f2008 -c numgpu.f90, then link the program against libnumgpu.
module numgpu
    use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_f_pointer, c_associated, c_char, &
        c_int32_t, c_int64_t, c_size_t, c_float, c_double, c_float_complex, c_double_complex, c_funptr
    implicit none
    private :: c_ptr, c_null_ptr, c_loc, c_f_pointer, c_associated, c_char, c_int32_t, c_int64_t, c_size_t, &
        c_float, c_double, c_float_complex, c_double_complex, c_funptr
    private :: gemm_plan, plan_gemm, report, c_string
    private :: numgpu_gemm_batched_s, numgpu_gemm_batched_d, numgpu_gemm_batched_c, numgpu_gemm_batched_z
    private :: lu_plan, plan_lu
    private :: numgpu_getrf_batched_fullpivot_s, numgpu_getrf_batched_fullpivot_d, numgpu_getrf_batched_fullpivot_c, &
        numgpu_getrf_batched_fullpivot_z, numgpu_getrs_batched_fullpivot_s, numgpu_getrs_batched_fullpivot_d, &
        numgpu_getrs_batched_fullpivot_c, numgpu_getrs_batched_fullpivot_z, numgpu_gesv_batched_fullpivot_s, &
        numgpu_gesv_batched_fullpivot_d, numgpu_gesv_batched_fullpivot_c, numgpu_gesv_batched_fullpivot_z, &
        numgpu_gesc2_batched_s, numgpu_gesc2_batched_d, numgpu_gesc2_batched_c, numgpu_gesc2_batched_z
    private :: qr_plan, plan_qr
    private :: numgpu_geqrf_givens_batched_s, numgpu_geqrf_givens_batched_d, numgpu_geqrf_givens_batched_c, &
        numgpu_geqrf_givens_batched_z, numgpu_ormqr_givens_batched_s, numgpu_ormqr_givens_batched_d, &
        numgpu_ormqr_givens_batched_c, numgpu_ormqr_givens_batched_z, numgpu_orgqr_givens_batched_s, &
        numgpu_orgqr_givens_batched_d, numgpu_orgqr_givens_batched_c, numgpu_orgqr_givens_batched_z, &
        numgpu_gels_givens_batched_s, numgpu_gels_givens_batched_d, numgpu_gels_givens_batched_c, &
        numgpu_gels_givens_batched_z
    private :: gtsv_plan, plan_gtsv, numgpu_rkc_d
    private :: numgpu_gtsv_spike_s, numgpu_gtsv_spike_d, numgpu_gtsv_spike_c, numgpu_gtsv_spike_z, &
        numgpu_gtsv_batched_strided_s, numgpu_gtsv_batched_strided_d, numgpu_gtsv_batched_strided_c, &
        numgpu_gtsv_batched_strided_z, numgpu_gtsv_batched_interleaved_s, numgpu_gtsv_batched_interleaved_d, &
        numgpu_gtsv_batched_interleaved_c, numgpu_gtsv_batched_interleaved_z
    private :: loc_or_null_s, loc_or_null_d, loc_or_null_c, loc_or_null_z, loc_or_null_i
    private :: plan_csr, numgpu_csrmv_s, numgpu_csrmv_d, numgpu_csrmv_c, numgpu_csrmv_z, numgpu_cmrs_create_s, &
        numgpu_cmrs_create_d, numgpu_cmrs_update_values_s, numgpu_cmrs_update_values_d, numgpu_cmrsmv_s, numgpu_cmrsmv_d

    ! ---- numgpu.h's constants ------------------------------------------------------------
    character(len=*), parameter :: NUMGPU_VERSION = "0.1.0"
    integer(c_int32_t), parameter :: NUMGPU_VERSION_MAJOR = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_VERSION_MINOR = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_VERSION_PATCH = 0_c_int32_t

    ! numgpu_backend
    integer(c_int32_t), parameter :: NUMGPU_BACKEND_AUTO = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_BACKEND_CPU = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_BACKEND_CUDA = 2_c_int32_t

    ! numgpu_op
    integer(c_int32_t), parameter :: NUMGPU_OP_N = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_OP_T = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_OP_C = 2_c_int32_t

    ! numgpu_side
    integer(c_int32_t), parameter :: NUMGPU_SIDE_LEFT = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_SIDE_RIGHT = 1_c_int32_t

    ! numgpu_fullpivot_mode
    integer(c_int32_t), parameter :: NUMGPU_FULLPIVOT_GETC2 = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_FULLPIVOT_STRICT = 1_c_int32_t

    ! numgpu_gtsv_pivoting
    integer(c_int32_t), parameter :: NUMGPU_GTSV_DIAG_PIVOT = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_GTSV_NOPIVOT = 1_c_int32_t

    ! numgpu_rkc_method
    integer(c_int32_t), parameter :: NUMGPU_RKC_METHOD_RKC = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_RKC_METHOD_RKCK = 1_c_int32_t

    ! numgpu_rkc_spectral
    integer(c_int32_t), parameter :: NUMGPU_RKC_SPECTRAL_AUTO = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_RKC_SPECTRAL_ESTIMATE = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_RKC_SPECTRAL_USER = 2_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_RKC_SPECTRAL_CONSTANT = 3_c_int32_t

    ! numgpu_ode_layout
    integer(c_int32_t), parameter :: NUMGPU_LAYOUT_SYSTEM_MAJOR = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_LAYOUT_EQUATION_MAJOR = 1_c_int32_t

    ! numgpu_ode_problem
    integer(c_int32_t), parameter :: NUMGPU_ODE_HEAT = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_ODE_BRUSSELATOR = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_ODE_LORENZ = 2_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_ODE_PLEI = 3_c_int32_t

    ! numgpu_rkc_options: options of numgpu_rkc_integrate (fill with numgpu_rkc_options_default).
    type, bind(C) :: numgpu_rkc_options
        integer(c_size_t) :: size
        integer(c_int32_t) :: method, spectral
        real(c_double) :: h0, hmax
        integer(c_int64_t) :: max_steps, max_stages
    end type

    ! numgpu_ode_rhs and numgpu_ode_spcrad: the host callbacks of numgpu_ode_create (reentrant:
    ! called for many systems at once). y(neq), p(npar) and dydt(neq) as arrays of the
    ! callback; `user` is the pointer given at creation.
    abstract interface
        subroutine numgpu_ode_rhs_proc(t, y, p, dydt, neq, user) bind(C)
            import
            real(c_double), value :: t
            type(c_ptr), value :: y, p, dydt, user
            integer(c_int64_t), value :: neq
        end subroutine
        function numgpu_ode_spcrad_proc(t, y, p, neq, user) bind(C)
            import
            real(c_double), value :: t
            type(c_ptr), value :: y, p, user
            integer(c_int64_t), value :: neq
            real(c_double) :: numgpu_ode_spcrad_proc
        end function
    end interface

    ! numgpu_sshopm_mode
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_CONVEX = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_CONCAVE = 1_c_int32_t

    ! numgpu_sshopm_shift
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_FIXED = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_SAFE = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_ADAPTIVE = 2_c_int32_t
    ! numgpu_sshopm_flag and numgpu_sshopm_pair_type.
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_CONVERGED = 0_c_int32_t, NUMGPU_SSHOPM_MAXIT = 1_c_int32_t, &
        NUMGPU_SSHOPM_UNDERFLOW = 2_c_int32_t, NUMGPU_SSHOPM_NONFINITE = 3_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_SSHOPM_LOCAL_MAX = 1_c_int32_t, NUMGPU_SSHOPM_LOCAL_MIN = -1_c_int32_t, &
        NUMGPU_SSHOPM_OTHER = 0_c_int32_t

    ! numgpu_status
    integer(c_int32_t), parameter :: NUMGPU_SUCCESS = 0_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_INVALID_VALUE = 1_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_NOT_SUPPORTED = 2_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_BACKEND_UNAVAILABLE = 3_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_ALLOC_FAILED = 4_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_EXECUTION_FAILED = 5_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_COMPILE_FAILED = 6_c_int32_t
    integer(c_int32_t), parameter :: NUMGPU_INTERNAL_ERROR = 7_c_int32_t

    ! ---- numgpu.h's functions ------------------------------------------------------------
    interface
        ! const char *numgpu_status_string(int32_t s)
        function numgpu_status_string(s) bind(C, name="numgpu_status_string")
            import
            integer(c_int32_t), value :: s
            type(c_ptr) :: numgpu_status_string
        end function

        ! size_t numgpu_last_error(char *buf, size_t len)
        function numgpu_last_error(buf, len) bind(C, name="numgpu_last_error")
            import
            type(c_ptr), value :: buf
            integer(c_size_t), value :: len
            integer(c_size_t) :: numgpu_last_error
        end function

        ! int32_t numgpu_last_error_arg(void)
        function numgpu_last_error_arg() bind(C, name="numgpu_last_error_arg")
            import
            integer(c_int32_t) :: numgpu_last_error_arg
        end function

        ! const char *numgpu_version(void). Named numgpu_version_c here because Fortran names
        ! are case-insensitive and NUMGPU_VERSION is the constant; numgpu_version_string()
        ! gives it as a Fortran string.
        function numgpu_version_c() bind(C, name="numgpu_version")
            import
            type(c_ptr) :: numgpu_version_c
        end function

        ! numgpu_status numgpu_create(numgpu_handle **h)
        function numgpu_create(h) bind(C, name="numgpu_create")
            import
            type(c_ptr), intent(inout) :: h
            integer(c_int32_t) :: numgpu_create
        end function

        ! numgpu_status numgpu_create_with(numgpu_handle **h, int32_t backend, int32_t device)
        function numgpu_create_with(h, backend, device) bind(C, name="numgpu_create_with")
            import
            type(c_ptr), intent(inout) :: h
            integer(c_int32_t), value :: backend, device
            integer(c_int32_t) :: numgpu_create_with
        end function

        ! numgpu_status numgpu_destroy(numgpu_handle *h)
        function numgpu_destroy(h) bind(C, name="numgpu_destroy")
            import
            type(c_ptr), value :: h
            integer(c_int32_t) :: numgpu_destroy
        end function

        ! numgpu_status numgpu_get_backend(const numgpu_handle *h, int32_t *backend)
        function numgpu_get_backend(h, backend) bind(C, name="numgpu_get_backend")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), intent(inout) :: backend
            integer(c_int32_t) :: numgpu_get_backend
        end function

        ! numgpu_status numgpu_set_stream(numgpu_handle *h, void *cuda_stream)
        function numgpu_set_stream(h, cuda_stream) bind(C, name="numgpu_set_stream")
            import
            type(c_ptr), value :: h, cuda_stream
            integer(c_int32_t) :: numgpu_set_stream
        end function
        ! numgpu_status numgpu_set_seed(numgpu_handle *h, uint64_t seed)
        ! (seed: the 64 bits of a uint64_t, as integer(c_int64_t))
        function numgpu_set_seed(h, seed) bind(C, name="numgpu_set_seed")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: seed
            integer(c_int32_t) :: numgpu_set_seed
        end function

        ! numgpu_status numgpu_synchronize(numgpu_handle *h)
        function numgpu_synchronize(h) bind(C, name="numgpu_synchronize")
            import
            type(c_ptr), value :: h
            integer(c_int32_t) :: numgpu_synchronize
        end function

        ! numgpu_status numgpu_malloc(numgpu_handle *h, void **ptr, size_t bytes)
        function numgpu_malloc(h, ptr, bytes) bind(C, name="numgpu_malloc")
            import
            type(c_ptr), value :: h
            type(c_ptr), intent(inout) :: ptr
            integer(c_size_t), value :: bytes
            integer(c_int32_t) :: numgpu_malloc
        end function

        ! numgpu_status numgpu_free(numgpu_handle *h, void *ptr)
        function numgpu_free(h, ptr) bind(C, name="numgpu_free")
            import
            type(c_ptr), value :: h, ptr
            integer(c_int32_t) :: numgpu_free
        end function

        ! numgpu_status numgpu_memcpy(numgpu_handle *h, void *dst, const void *src, size_t bytes)
        function numgpu_memcpy(h, dst, src, bytes) bind(C, name="numgpu_memcpy")
            import
            type(c_ptr), value :: h, dst, src
            integer(c_size_t), value :: bytes
            integer(c_int32_t) :: numgpu_memcpy
        end function

        ! Pointer-array form: A, B, C are the addresses of arrays of `batch` matrix pointers
        ! (e.g. c_loc(ptrs) with type(c_ptr), target :: ptrs(batch)), in the same memory space
        ! as the matrices.
        function numgpu_sgemm_batched(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch) &
                bind(C, name="numgpu_sgemm_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch
            real(c_float), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_sgemm_batched
        end function

        function numgpu_dgemm_batched(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch) &
                bind(C, name="numgpu_dgemm_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch
            real(c_double), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_dgemm_batched
        end function

        function numgpu_cgemm_batched(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch) &
                bind(C, name="numgpu_cgemm_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch
            complex(c_float_complex), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_cgemm_batched
        end function

        function numgpu_zgemm_batched(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch) &
                bind(C, name="numgpu_zgemm_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batch
            complex(c_double_complex), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_zgemm_batched
        end function

        ! Strided form: matrix i of A at A + i*strideA elements; a Fortran A(lda, ncols, batch)
        ! array is c_loc(A) with strideA = lda*ncols.
        function numgpu_sgemm_batched_strided(h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, &
                beta, C, ldc, strideC, batch) bind(C, name="numgpu_sgemm_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldb, strideB, ldc, strideC, batch
            real(c_float), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_sgemm_batched_strided
        end function

        function numgpu_dgemm_batched_strided(h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, &
                beta, C, ldc, strideC, batch) bind(C, name="numgpu_dgemm_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldb, strideB, ldc, strideC, batch
            real(c_double), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_dgemm_batched_strided
        end function

        function numgpu_cgemm_batched_strided(h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, &
                beta, C, ldc, strideC, batch) bind(C, name="numgpu_cgemm_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldb, strideB, ldc, strideC, batch
            complex(c_float_complex), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_cgemm_batched_strided
        end function

        function numgpu_zgemm_batched_strided(h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, &
                beta, C, ldc, strideC, batch) bind(C, name="numgpu_zgemm_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: transa, transb
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldb, strideB, ldc, strideC, batch
            complex(c_double_complex), value :: alpha, beta
            type(c_ptr), value :: A, B, C
            integer(c_int32_t) :: numgpu_zgemm_batched_strided
        end function

        ! ---- getrf_fullpivot: batched LU with complete pivoting (LAPACK ?getc2 / ?gesc2) ----
        ! ipiv, jpiv: n*batch int32 entries (matrix i's at + i*n), info: batch entries; mode:
        ! NUMGPU_FULLPIVOT_GETC2 or NUMGPU_FULLPIVOT_STRICT. Pointer-array forms take the address
        ! of an array of `batch` matrix pointers in the space of the matrices, as for gemm.

        function numgpu_sgetrf_batched_fullpivot(h, n, A, lda, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_sgetrf_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_sgetrf_batched_fullpivot
        end function

        function numgpu_sgetrf_batched_fullpivot_strided(h, n, A, lda, strideA, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_sgetrf_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_sgetrf_batched_fullpivot_strided
        end function

        function numgpu_sgetrs_batched_fullpivot(h, trans, n, nrhs, A, lda, ipiv, jpiv, B, ldb, batch) &
                bind(C, name="numgpu_sgetrs_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_sgetrs_batched_fullpivot
        end function

        function numgpu_sgetrs_batched_fullpivot_strided(h, trans, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, &
                strideB, batch) bind(C, name="numgpu_sgetrs_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_sgetrs_batched_fullpivot_strided
        end function

        function numgpu_sgesv_batched_fullpivot(h, n, nrhs, A, lda, ipiv, jpiv, B, ldb, info, batch) &
                bind(C, name="numgpu_sgesv_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_sgesv_batched_fullpivot
        end function

        function numgpu_sgesv_batched_fullpivot_strided(h, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, strideB, &
                info, batch) bind(C, name="numgpu_sgesv_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_sgesv_batched_fullpivot_strided
        end function

        ! scale: batch entries of real(c_float).
        function numgpu_sgesc2_batched_strided(h, n, A, lda, strideA, rhs, strideRhs, ipiv, jpiv, scale, batch) &
                bind(C, name="numgpu_sgesc2_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, strideRhs, batch
            type(c_ptr), value :: A, rhs, ipiv, jpiv, scale
            integer(c_int32_t) :: numgpu_sgesc2_batched_strided
        end function

        function numgpu_dgetrf_batched_fullpivot(h, n, A, lda, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_dgetrf_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_dgetrf_batched_fullpivot
        end function

        function numgpu_dgetrf_batched_fullpivot_strided(h, n, A, lda, strideA, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_dgetrf_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_dgetrf_batched_fullpivot_strided
        end function

        function numgpu_dgetrs_batched_fullpivot(h, trans, n, nrhs, A, lda, ipiv, jpiv, B, ldb, batch) &
                bind(C, name="numgpu_dgetrs_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_dgetrs_batched_fullpivot
        end function

        function numgpu_dgetrs_batched_fullpivot_strided(h, trans, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, &
                strideB, batch) bind(C, name="numgpu_dgetrs_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_dgetrs_batched_fullpivot_strided
        end function

        function numgpu_dgesv_batched_fullpivot(h, n, nrhs, A, lda, ipiv, jpiv, B, ldb, info, batch) &
                bind(C, name="numgpu_dgesv_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_dgesv_batched_fullpivot
        end function

        function numgpu_dgesv_batched_fullpivot_strided(h, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, strideB, &
                info, batch) bind(C, name="numgpu_dgesv_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_dgesv_batched_fullpivot_strided
        end function

        ! scale: batch entries of real(c_double).
        function numgpu_dgesc2_batched_strided(h, n, A, lda, strideA, rhs, strideRhs, ipiv, jpiv, scale, batch) &
                bind(C, name="numgpu_dgesc2_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, strideRhs, batch
            type(c_ptr), value :: A, rhs, ipiv, jpiv, scale
            integer(c_int32_t) :: numgpu_dgesc2_batched_strided
        end function

        function numgpu_cgetrf_batched_fullpivot(h, n, A, lda, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_cgetrf_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_cgetrf_batched_fullpivot
        end function

        function numgpu_cgetrf_batched_fullpivot_strided(h, n, A, lda, strideA, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_cgetrf_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_cgetrf_batched_fullpivot_strided
        end function

        function numgpu_cgetrs_batched_fullpivot(h, trans, n, nrhs, A, lda, ipiv, jpiv, B, ldb, batch) &
                bind(C, name="numgpu_cgetrs_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_cgetrs_batched_fullpivot
        end function

        function numgpu_cgetrs_batched_fullpivot_strided(h, trans, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, &
                strideB, batch) bind(C, name="numgpu_cgetrs_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_cgetrs_batched_fullpivot_strided
        end function

        function numgpu_cgesv_batched_fullpivot(h, n, nrhs, A, lda, ipiv, jpiv, B, ldb, info, batch) &
                bind(C, name="numgpu_cgesv_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_cgesv_batched_fullpivot
        end function

        function numgpu_cgesv_batched_fullpivot_strided(h, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, strideB, &
                info, batch) bind(C, name="numgpu_cgesv_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_cgesv_batched_fullpivot_strided
        end function

        ! scale: batch entries of real(c_float).
        function numgpu_cgesc2_batched_strided(h, n, A, lda, strideA, rhs, strideRhs, ipiv, jpiv, scale, batch) &
                bind(C, name="numgpu_cgesc2_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, strideRhs, batch
            type(c_ptr), value :: A, rhs, ipiv, jpiv, scale
            integer(c_int32_t) :: numgpu_cgesc2_batched_strided
        end function

        function numgpu_zgetrf_batched_fullpivot(h, n, A, lda, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_zgetrf_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_zgetrf_batched_fullpivot
        end function

        function numgpu_zgetrf_batched_fullpivot_strided(h, n, A, lda, strideA, ipiv, jpiv, info, batch, mode) &
                bind(C, name="numgpu_zgetrf_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, batch
            type(c_ptr), value :: A, ipiv, jpiv, info
            integer(c_int32_t), value :: mode
            integer(c_int32_t) :: numgpu_zgetrf_batched_fullpivot_strided
        end function

        function numgpu_zgetrs_batched_fullpivot(h, trans, n, nrhs, A, lda, ipiv, jpiv, B, ldb, batch) &
                bind(C, name="numgpu_zgetrs_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_zgetrs_batched_fullpivot
        end function

        function numgpu_zgetrs_batched_fullpivot_strided(h, trans, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, &
                strideB, batch) bind(C, name="numgpu_zgetrs_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: trans
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B
            integer(c_int32_t) :: numgpu_zgetrs_batched_fullpivot_strided
        end function

        function numgpu_zgesv_batched_fullpivot(h, n, nrhs, A, lda, ipiv, jpiv, B, ldb, info, batch) &
                bind(C, name="numgpu_zgesv_batched_fullpivot")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_zgesv_batched_fullpivot
        end function

        function numgpu_zgesv_batched_fullpivot_strided(h, n, nrhs, A, lda, strideA, ipiv, jpiv, B, ldb, strideB, &
                info, batch) bind(C, name="numgpu_zgesv_batched_fullpivot_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, ipiv, jpiv, B, info
            integer(c_int32_t) :: numgpu_zgesv_batched_fullpivot_strided
        end function

        ! scale: batch entries of real(c_double).
        function numgpu_zgesc2_batched_strided(h, n, A, lda, strideA, rhs, strideRhs, ipiv, jpiv, scale, batch) &
                bind(C, name="numgpu_zgesc2_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, lda, strideA, strideRhs, batch
            type(c_ptr), value :: A, rhs, ipiv, jpiv, scale
            integer(c_int32_t) :: numgpu_zgesc2_batched_strided
        end function

        ! ---- geqrf_givens: batched QR by Givens rotations (LAPACK ?geqrf / ?ormqr / ?unmqr /
        ! ?orgqr / ?ungqr / ?gels roles) ----
        ! A, C, B: matrices of the element kind; CS: the real cosines (real(c_float) for s and c,
        ! real(c_double) for d and z); info: batch int32 entries; side: NUMGPU_SIDE_LEFT or
        ! NUMGPU_SIDE_RIGHT; trans: NUMGPU_OP_N, or NUMGPU_OP_T (s, d) / NUMGPU_OP_C (c, z).
        ! Pointer-array forms take the address of an array of `batch` matrix pointers in the
        ! space of the matrices, as for gemm.

        function numgpu_sgeqrf_givens_batched(h, m, n, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_sgeqrf_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_sgeqrf_givens_batched
        end function

        function numgpu_sgeqrf_givens_batched_strided(h, m, n, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_sgeqrf_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_sgeqrf_givens_batched_strided
        end function

        function numgpu_sormqr_givens_batched(h, side, trans, m, n, k, A, lda, CS, ldcs, C, ldc, batch) &
                bind(C, name="numgpu_sormqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, ldcs, ldc, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_sormqr_givens_batched
        end function

        function numgpu_sormqr_givens_batched_strided(h, side, trans, m, n, k, A, lda, strideA, CS, ldcs, &
                strideCS, C, ldc, strideC, batch) bind(C, name="numgpu_sormqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, ldc, strideC, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_sormqr_givens_batched_strided
        end function

        function numgpu_sorgqr_givens_batched(h, m, n, k, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_sorgqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_sorgqr_givens_batched
        end function

        function numgpu_sorgqr_givens_batched_strided(h, m, n, k, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_sorgqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_sorgqr_givens_batched_strided
        end function

        function numgpu_sgels_givens_batched(h, m, n, nrhs, A, lda, B, ldb, info, batch) &
                bind(C, name="numgpu_sgels_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_sgels_givens_batched
        end function

        function numgpu_sgels_givens_batched_strided(h, m, n, nrhs, A, lda, strideA, B, ldb, strideB, info, batch) &
                bind(C, name="numgpu_sgels_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_sgels_givens_batched_strided
        end function

        function numgpu_dgeqrf_givens_batched(h, m, n, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_dgeqrf_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_dgeqrf_givens_batched
        end function

        function numgpu_dgeqrf_givens_batched_strided(h, m, n, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_dgeqrf_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_dgeqrf_givens_batched_strided
        end function

        function numgpu_dormqr_givens_batched(h, side, trans, m, n, k, A, lda, CS, ldcs, C, ldc, batch) &
                bind(C, name="numgpu_dormqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, ldcs, ldc, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_dormqr_givens_batched
        end function

        function numgpu_dormqr_givens_batched_strided(h, side, trans, m, n, k, A, lda, strideA, CS, ldcs, &
                strideCS, C, ldc, strideC, batch) bind(C, name="numgpu_dormqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, ldc, strideC, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_dormqr_givens_batched_strided
        end function

        function numgpu_dorgqr_givens_batched(h, m, n, k, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_dorgqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_dorgqr_givens_batched
        end function

        function numgpu_dorgqr_givens_batched_strided(h, m, n, k, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_dorgqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_dorgqr_givens_batched_strided
        end function

        function numgpu_dgels_givens_batched(h, m, n, nrhs, A, lda, B, ldb, info, batch) &
                bind(C, name="numgpu_dgels_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_dgels_givens_batched
        end function

        function numgpu_dgels_givens_batched_strided(h, m, n, nrhs, A, lda, strideA, B, ldb, strideB, info, batch) &
                bind(C, name="numgpu_dgels_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_dgels_givens_batched_strided
        end function

        function numgpu_cgeqrf_givens_batched(h, m, n, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_cgeqrf_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_cgeqrf_givens_batched
        end function

        function numgpu_cgeqrf_givens_batched_strided(h, m, n, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_cgeqrf_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_cgeqrf_givens_batched_strided
        end function

        function numgpu_cunmqr_givens_batched(h, side, trans, m, n, k, A, lda, CS, ldcs, C, ldc, batch) &
                bind(C, name="numgpu_cunmqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, ldcs, ldc, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_cunmqr_givens_batched
        end function

        function numgpu_cunmqr_givens_batched_strided(h, side, trans, m, n, k, A, lda, strideA, CS, ldcs, &
                strideCS, C, ldc, strideC, batch) bind(C, name="numgpu_cunmqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, ldc, strideC, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_cunmqr_givens_batched_strided
        end function

        function numgpu_cungqr_givens_batched(h, m, n, k, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_cungqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_cungqr_givens_batched
        end function

        function numgpu_cungqr_givens_batched_strided(h, m, n, k, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_cungqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_cungqr_givens_batched_strided
        end function

        function numgpu_cgels_givens_batched(h, m, n, nrhs, A, lda, B, ldb, info, batch) &
                bind(C, name="numgpu_cgels_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_cgels_givens_batched
        end function

        function numgpu_cgels_givens_batched_strided(h, m, n, nrhs, A, lda, strideA, B, ldb, strideB, info, batch) &
                bind(C, name="numgpu_cgels_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_cgels_givens_batched_strided
        end function

        function numgpu_zgeqrf_givens_batched(h, m, n, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_zgeqrf_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_zgeqrf_givens_batched
        end function

        function numgpu_zgeqrf_givens_batched_strided(h, m, n, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_zgeqrf_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_zgeqrf_givens_batched_strided
        end function

        function numgpu_zunmqr_givens_batched(h, side, trans, m, n, k, A, lda, CS, ldcs, C, ldc, batch) &
                bind(C, name="numgpu_zunmqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, ldcs, ldc, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_zunmqr_givens_batched
        end function

        function numgpu_zunmqr_givens_batched_strided(h, side, trans, m, n, k, A, lda, strideA, CS, ldcs, &
                strideCS, C, ldc, strideC, batch) bind(C, name="numgpu_zunmqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: side, trans
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, ldc, strideC, batch
            type(c_ptr), value :: A, CS, C
            integer(c_int32_t) :: numgpu_zunmqr_givens_batched_strided
        end function

        function numgpu_zungqr_givens_batched(h, m, n, k, A, lda, CS, ldcs, batch) &
                bind(C, name="numgpu_zungqr_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, ldcs, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_zungqr_givens_batched
        end function

        function numgpu_zungqr_givens_batched_strided(h, m, n, k, A, lda, strideA, CS, ldcs, strideCS, batch) &
                bind(C, name="numgpu_zungqr_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, k, lda, strideA, ldcs, strideCS, batch
            type(c_ptr), value :: A, CS
            integer(c_int32_t) :: numgpu_zungqr_givens_batched_strided
        end function

        function numgpu_zgels_givens_batched(h, m, n, nrhs, A, lda, B, ldb, info, batch) &
                bind(C, name="numgpu_zgels_givens_batched")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, ldb, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_zgels_givens_batched
        end function

        function numgpu_zgels_givens_batched_strided(h, m, n, nrhs, A, lda, strideA, B, ldb, strideB, info, batch) &
                bind(C, name="numgpu_zgels_givens_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: m, n, nrhs, lda, strideA, ldb, strideB, batch
            type(c_ptr), value :: A, B, info
            integer(c_int32_t) :: numgpu_zgels_givens_batched_strided
        end function

        ! ---- gtsv_spike: tridiagonal solvers (LAPACK ?gtsv roles; the diagonals are not written) ----
        ! dl, d, du: the sub-diagonal, diagonal and super-diagonal (n - 1, n, n - 1 entries, per
        ! system at + i*stride_diag in the strided form; n*batch entries each in the interleaved
        ! form, element k of system i at k*batch + i, dl's first and du's last row unused); B: the
        ! right-hand sides, X on exit; info: one int32 entry (gtsv_spike) or batch entries;
        ! pivoting: NUMGPU_GTSV_DIAG_PIVOT or NUMGPU_GTSV_NOPIVOT.

        function numgpu_sgtsv_spike(h, n, nrhs, dl, d, du, B, ldb, info, pivoting) &
                bind(C, name="numgpu_sgtsv_spike")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, ldb
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_sgtsv_spike
        end function

        function numgpu_sgtsv_batched_strided(h, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch, &
                pivoting) bind(C, name="numgpu_sgtsv_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, stride_diag, ldb, strideB, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_sgtsv_batched_strided
        end function

        function numgpu_sgtsv_batched_interleaved(h, n, dl, d, du, B, info, batch, pivoting) &
                bind(C, name="numgpu_sgtsv_batched_interleaved")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_sgtsv_batched_interleaved
        end function

        function numgpu_dgtsv_spike(h, n, nrhs, dl, d, du, B, ldb, info, pivoting) &
                bind(C, name="numgpu_dgtsv_spike")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, ldb
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_dgtsv_spike
        end function

        function numgpu_dgtsv_batched_strided(h, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch, &
                pivoting) bind(C, name="numgpu_dgtsv_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, stride_diag, ldb, strideB, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_dgtsv_batched_strided
        end function

        function numgpu_dgtsv_batched_interleaved(h, n, dl, d, du, B, info, batch, pivoting) &
                bind(C, name="numgpu_dgtsv_batched_interleaved")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_dgtsv_batched_interleaved
        end function

        function numgpu_cgtsv_spike(h, n, nrhs, dl, d, du, B, ldb, info, pivoting) &
                bind(C, name="numgpu_cgtsv_spike")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, ldb
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_cgtsv_spike
        end function

        function numgpu_cgtsv_batched_strided(h, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch, &
                pivoting) bind(C, name="numgpu_cgtsv_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, stride_diag, ldb, strideB, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_cgtsv_batched_strided
        end function

        function numgpu_cgtsv_batched_interleaved(h, n, dl, d, du, B, info, batch, pivoting) &
                bind(C, name="numgpu_cgtsv_batched_interleaved")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_cgtsv_batched_interleaved
        end function

        function numgpu_zgtsv_spike(h, n, nrhs, dl, d, du, B, ldb, info, pivoting) &
                bind(C, name="numgpu_zgtsv_spike")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, ldb
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_zgtsv_spike
        end function

        function numgpu_zgtsv_batched_strided(h, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch, &
                pivoting) bind(C, name="numgpu_zgtsv_batched_strided")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, nrhs, stride_diag, ldb, strideB, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_zgtsv_batched_strided
        end function

        function numgpu_zgtsv_batched_interleaved(h, n, dl, d, du, B, info, batch, pivoting) &
                bind(C, name="numgpu_zgtsv_batched_interleaved")
            import
            type(c_ptr), value :: h
            integer(c_int64_t), value :: n, batch
            type(c_ptr), value :: dl, d, du, B, info
            integer(c_int32_t), value :: pivoting
            integer(c_int32_t) :: numgpu_zgtsv_batched_interleaved
        end function

        ! ---- spmv: sparse matrix-vector products (CSR, CMRS) ----------------------------------
        ! numgpu_status numgpu_scsrmv(numgpu_handle *h, int32_t trans, int64_t m, int64_t n,
        !     int64_t nnz, T alpha, const T *val, const int32_t *row_ptr, const int32_t *col_ind,
        !     int32_t index_base, const T *x, T beta, T *y)
        function numgpu_scsrmv(h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y) &
                bind(C, name="numgpu_scsrmv")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind, x, y
            integer(c_int32_t), value :: trans, index_base
            integer(c_int64_t), value :: m, n, nnz
            real(c_float), value :: alpha, beta
            integer(c_int32_t) :: numgpu_scsrmv
        end function

        ! numgpu_status numgpu_dcsrmv(numgpu_handle *h, int32_t trans, int64_t m, int64_t n,
        !     int64_t nnz, T alpha, const T *val, const int32_t *row_ptr, const int32_t *col_ind,
        !     int32_t index_base, const T *x, T beta, T *y)
        function numgpu_dcsrmv(h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y) &
                bind(C, name="numgpu_dcsrmv")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind, x, y
            integer(c_int32_t), value :: trans, index_base
            integer(c_int64_t), value :: m, n, nnz
            real(c_double), value :: alpha, beta
            integer(c_int32_t) :: numgpu_dcsrmv
        end function

        ! numgpu_status numgpu_ccsrmv(numgpu_handle *h, int32_t trans, int64_t m, int64_t n,
        !     int64_t nnz, T alpha, const T *val, const int32_t *row_ptr, const int32_t *col_ind,
        !     int32_t index_base, const T *x, T beta, T *y)
        function numgpu_ccsrmv(h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y) &
                bind(C, name="numgpu_ccsrmv")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind, x, y
            integer(c_int32_t), value :: trans, index_base
            integer(c_int64_t), value :: m, n, nnz
            complex(c_float_complex), value :: alpha, beta
            integer(c_int32_t) :: numgpu_ccsrmv
        end function

        ! numgpu_status numgpu_zcsrmv(numgpu_handle *h, int32_t trans, int64_t m, int64_t n,
        !     int64_t nnz, T alpha, const T *val, const int32_t *row_ptr, const int32_t *col_ind,
        !     int32_t index_base, const T *x, T beta, T *y)
        function numgpu_zcsrmv(h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y) &
                bind(C, name="numgpu_zcsrmv")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind, x, y
            integer(c_int32_t), value :: trans, index_base
            integer(c_int64_t), value :: m, n, nnz
            complex(c_double_complex), value :: alpha, beta
            integer(c_int32_t) :: numgpu_zcsrmv
        end function

        ! numgpu_status numgpu_scmrs_create(numgpu_handle *h, int64_t m, int64_t n, int64_t nnz,
        !     const T *val, const int32_t *row_ptr, const int32_t *col_ind, int32_t index_base,
        !     int32_t height, int32_t M, numgpu_cmrs_matrix **A)
        function numgpu_scmrs_create(h, m, n, nnz, val, row_ptr, col_ind, index_base, height, lanes, A) &
                bind(C, name="numgpu_scmrs_create")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind
            integer(c_int64_t), value :: m, n, nnz
            integer(c_int32_t), value :: index_base, height, lanes
            type(c_ptr), intent(inout) :: A
            integer(c_int32_t) :: numgpu_scmrs_create
        end function

        ! numgpu_status numgpu_scmrs_update_values(numgpu_handle *h, numgpu_cmrs_matrix *A, const T *val)
        function numgpu_scmrs_update_values(h, A, val) bind(C, name="numgpu_scmrs_update_values")
            import
            type(c_ptr), value :: h, A, val
            integer(c_int32_t) :: numgpu_scmrs_update_values
        end function

        ! numgpu_status numgpu_scmrsmv(numgpu_handle *h, T alpha, const numgpu_cmrs_matrix *A,
        !     const T *x, T beta, T *y)
        function numgpu_scmrsmv(h, alpha, A, x, beta, y) bind(C, name="numgpu_scmrsmv")
            import
            type(c_ptr), value :: h, A, x, y
            real(c_float), value :: alpha, beta
            integer(c_int32_t) :: numgpu_scmrsmv
        end function

        ! numgpu_status numgpu_dcmrs_create(numgpu_handle *h, int64_t m, int64_t n, int64_t nnz,
        !     const T *val, const int32_t *row_ptr, const int32_t *col_ind, int32_t index_base,
        !     int32_t height, int32_t M, numgpu_cmrs_matrix **A)
        function numgpu_dcmrs_create(h, m, n, nnz, val, row_ptr, col_ind, index_base, height, lanes, A) &
                bind(C, name="numgpu_dcmrs_create")
            import
            type(c_ptr), value :: h, val, row_ptr, col_ind
            integer(c_int64_t), value :: m, n, nnz
            integer(c_int32_t), value :: index_base, height, lanes
            type(c_ptr), intent(inout) :: A
            integer(c_int32_t) :: numgpu_dcmrs_create
        end function

        ! numgpu_status numgpu_dcmrs_update_values(numgpu_handle *h, numgpu_cmrs_matrix *A, const T *val)
        function numgpu_dcmrs_update_values(h, A, val) bind(C, name="numgpu_dcmrs_update_values")
            import
            type(c_ptr), value :: h, A, val
            integer(c_int32_t) :: numgpu_dcmrs_update_values
        end function

        ! numgpu_status numgpu_dcmrsmv(numgpu_handle *h, T alpha, const numgpu_cmrs_matrix *A,
        !     const T *x, T beta, T *y)
        function numgpu_dcmrsmv(h, alpha, A, x, beta, y) bind(C, name="numgpu_dcmrsmv")
            import
            type(c_ptr), value :: h, A, x, y
            real(c_double), value :: alpha, beta
            integer(c_int32_t) :: numgpu_dcmrsmv
        end function

        ! numgpu_status numgpu_cmrs_info(const numgpu_cmrs_matrix *A, int32_t *height, int32_t *M,
        !     double *padding_ratio)
        function numgpu_cmrs_info(A, height, lanes, padding_ratio) bind(C, name="numgpu_cmrs_info")
            import
            type(c_ptr), value :: A
            integer(c_int32_t), intent(inout) :: height, lanes
            real(c_double), intent(inout) :: padding_ratio
            integer(c_int32_t) :: numgpu_cmrs_info
        end function

        ! numgpu_status numgpu_cmrs_destroy(numgpu_cmrs_matrix *A)
        function numgpu_cmrs_destroy(A) bind(C, name="numgpu_cmrs_destroy")
            import
            type(c_ptr), value :: A
            integer(c_int32_t) :: numgpu_cmrs_destroy
        end function

        ! ---- rkc: many independent ODE systems (RKC after rkc.f, RKCK Cash-Karp) ----------
        ! cuda_source: a NUL-terminated CUDA source (c_loc of a character(kind=c_char) array
        ! ending in c_null_char) or c_null_ptr; host_rhs, host_spcrad: c_funloc of bind(C)
        ! procedures (numgpu_ode_rhs_proc, numgpu_ode_spcrad_proc) or c_null_funptr; ode: the
        ! created ODE (type(c_ptr), by reference). Y(NEQ, NSYS) with ldy = NEQ is the
        ! system-major layout; state: (6 + neq) doubles per system; status: nsys int32; stats:
        ! 6 int64 per system; opts: c_loc of a numgpu_rkc_options, or c_null_ptr.

        function numgpu_ode_create(h, neq, npar, cuda_source, host_rhs, host_spcrad, user, ode) &
                bind(C, name="numgpu_ode_create")
            import
            type(c_ptr), value :: h, cuda_source, user
            integer(c_int64_t), value :: neq, npar
            type(c_funptr), value :: host_rhs, host_spcrad
            type(c_ptr) :: ode
            integer(c_int32_t) :: numgpu_ode_create
        end function

        function numgpu_ode_builtin(h, which, size, ode) bind(C, name="numgpu_ode_builtin")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: which
            integer(c_int64_t), value :: size
            type(c_ptr) :: ode
            integer(c_int32_t) :: numgpu_ode_builtin
        end function

        function numgpu_ode_destroy(ode) bind(C, name="numgpu_ode_destroy")
            import
            type(c_ptr), value :: ode
            integer(c_int32_t) :: numgpu_ode_destroy
        end function

        function numgpu_rkc_options_default(opts) bind(C, name="numgpu_rkc_options_default")
            import
            type(numgpu_rkc_options) :: opts
            integer(c_int32_t) :: numgpu_rkc_options_default
        end function

        function numgpu_rkc_integrate(h, ode, nsys, t0, tend, Y, ldy, layout, P, ldp, rtol, atol, natol, opts, &
                state, status, stats) bind(C, name="numgpu_rkc_integrate")
            import
            type(c_ptr), value :: h, ode, Y, P, atol, opts, state, status, stats
            integer(c_int64_t), value :: nsys, ldy, ldp, natol
            real(c_double), value :: t0, tend, rtol
            integer(c_int32_t), value :: layout
            integer(c_int32_t) :: numgpu_rkc_integrate
        end function

        ! ---- sshopm: tensor eigenpairs by SS-HOPM; symmetric tensors packed (see numgpu.h) ----
        ! Arrays are type(c_ptr) (c_loc of a host array, or device memory): A(U, ntensors),
        ! X0(n, nstarts[, ntensors]), lambda(nstarts, ntensors), X(n, nstarts, ntensors), ...
        ! mode: NUMGPU_SSHOPM_CONVEX / CONCAVE; shift_kind: NUMGPU_SSHOPM_FIXED / SAFE / ADAPTIVE.
        function numgpu_sshopm(h, m, n, ntensors, A, strideA, nstarts, X0, strideX0, mode, shift_kind, alpha, tol, &
                maxit, lambda, X, iters, flags) bind(C, name="numgpu_sshopm")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n
            integer(c_int64_t), value :: ntensors, strideA, nstarts, strideX0
            type(c_ptr), value :: A, X0
            integer(c_int32_t), value :: mode, shift_kind, maxit
            real(c_float), value :: alpha, tol
            type(c_ptr), value :: lambda, X, iters, flags
            integer(c_int32_t) :: numgpu_sshopm
        end function
        function numgpu_sshopm_unique(h, m, n, ntensors, A, strideA, nstarts, X0, strideX0, mode, shift_kind, alpha, &
                tol, maxit, merge_tol, kmax, count, lambda, X, mult, pair_type) bind(C, name="numgpu_sshopm_unique")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n
            integer(c_int64_t), value :: ntensors, strideA, nstarts, strideX0
            type(c_ptr), value :: A, X0
            integer(c_int32_t), value :: mode, shift_kind, maxit
            real(c_float), value :: alpha, tol, merge_tol
            integer(c_int32_t), value :: kmax
            type(c_ptr), value :: count, lambda, X, mult, pair_type
            integer(c_int32_t) :: numgpu_sshopm_unique
        end function
        function numgpu_ssym_apply(h, m, n, p, ntensors, A, strideA, x, strideX, y, strideY) &
                bind(C, name="numgpu_ssym_apply")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n, p
            integer(c_int64_t), value :: ntensors, strideA, strideX, strideY
            type(c_ptr), value :: A, x, y
            integer(c_int32_t) :: numgpu_ssym_apply
        end function
        function numgpu_ssym_pack(m, n, dense, packed) bind(C, name="numgpu_ssym_pack")
            import
            integer(c_int32_t), value :: m, n
            type(c_ptr), value :: dense, packed
            integer(c_int32_t) :: numgpu_ssym_pack
        end function
        function numgpu_ssym_unpack(m, n, packed, dense) bind(C, name="numgpu_ssym_unpack")
            import
            integer(c_int32_t), value :: m, n
            type(c_ptr), value :: packed, dense
            integer(c_int32_t) :: numgpu_ssym_unpack
        end function
        function numgpu_dsshopm(h, m, n, ntensors, A, strideA, nstarts, X0, strideX0, mode, shift_kind, alpha, tol, &
                maxit, lambda, X, iters, flags) bind(C, name="numgpu_dsshopm")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n
            integer(c_int64_t), value :: ntensors, strideA, nstarts, strideX0
            type(c_ptr), value :: A, X0
            integer(c_int32_t), value :: mode, shift_kind, maxit
            real(c_double), value :: alpha, tol
            type(c_ptr), value :: lambda, X, iters, flags
            integer(c_int32_t) :: numgpu_dsshopm
        end function
        function numgpu_dsshopm_unique(h, m, n, ntensors, A, strideA, nstarts, X0, strideX0, mode, shift_kind, alpha, &
                tol, maxit, merge_tol, kmax, count, lambda, X, mult, pair_type) bind(C, name="numgpu_dsshopm_unique")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n
            integer(c_int64_t), value :: ntensors, strideA, nstarts, strideX0
            type(c_ptr), value :: A, X0
            integer(c_int32_t), value :: mode, shift_kind, maxit
            real(c_double), value :: alpha, tol, merge_tol
            integer(c_int32_t), value :: kmax
            type(c_ptr), value :: count, lambda, X, mult, pair_type
            integer(c_int32_t) :: numgpu_dsshopm_unique
        end function
        function numgpu_dsym_apply(h, m, n, p, ntensors, A, strideA, x, strideX, y, strideY) &
                bind(C, name="numgpu_dsym_apply")
            import
            type(c_ptr), value :: h
            integer(c_int32_t), value :: m, n, p
            integer(c_int64_t), value :: ntensors, strideA, strideX, strideY
            type(c_ptr), value :: A, x, y
            integer(c_int32_t) :: numgpu_dsym_apply
        end function
        function numgpu_dsym_pack(m, n, dense, packed) bind(C, name="numgpu_dsym_pack")
            import
            integer(c_int32_t), value :: m, n
            type(c_ptr), value :: dense, packed
            integer(c_int32_t) :: numgpu_dsym_pack
        end function
        function numgpu_dsym_unpack(m, n, packed, dense) bind(C, name="numgpu_dsym_unpack")
            import
            integer(c_int32_t), value :: m, n
            type(c_ptr), value :: packed, dense
            integer(c_int32_t) :: numgpu_dsym_unpack
        end function
    end interface

    ! ---- generic wrappers ----------------------------------------------------------------

    ! call numgpu_gemm_batched(h, transa, transb, alpha, A, B, beta, C, status [, errmsg])
    !
    ! For i = 1 .. size(C, 3):  C(:,:,i) = alpha * op(A(:,:,i)) * op(B(:,:,i)) + beta * C(:,:,i)
    ! in real(c_float), real(c_double), complex(c_float_complex) or complex(c_double_complex)
    ! (alpha, beta, A, B, C all of one kind), BLAS ?gemm semantics (beta = 0 does not read C).
    !
    ! - h [in]: type(c_ptr) handle from numgpu_create / numgpu_create_with.
    ! - transa, transb [in]: NUMGPU_OP_N, NUMGPU_OP_T or NUMGPU_OP_C.
    ! - A(:,:,:) [in]: op(A(:,:,i)) is m x k; size(A, 3) is size(C, 3), or 1 to use the same A
    !   for the whole batch (strideA = 0).
    ! - B(:,:,:) [in]: op(B(:,:,i)) is k x n; size(B, 3) is size(C, 3) or 1.
    ! - C(:,:,:) [in,out]: m x n x batch, which gives m, n and the batch size.
    ! - status [out]: NUMGPU_SUCCESS or the error status; NUMGPU_INVALID_VALUE also when the
    !   shapes do not conform (then nothing is called and C is untouched).
    ! - errmsg [inout, optional]: on failure receives the message (numgpu's last error, or the
    !   shape mismatch, which numgpu_last_error does not know about); unchanged on success.
    !
    ! The leading dimensions are size(X, 1) and the strides size(X, 1)*size(X, 2); the arrays
    ! must be host memory (contiguous; a non-contiguous actual argument is passed as a copy).
    ! For device memory call the bind(C) interfaces with type(c_ptr) arguments.
    interface numgpu_gemm_batched
        module procedure numgpu_gemm_batched_s, numgpu_gemm_batched_d, numgpu_gemm_batched_c, numgpu_gemm_batched_z
    end interface

    ! Sizes of one numgpu_?gemm_batched_strided call derived from the array shapes.
    type :: gemm_plan
        integer(c_int64_t) :: m = 0, n = 0, k = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldb = 1, sb = 0, ldc = 1, sc = 0
    end type

    ! call numgpu_getrf_batched_fullpivot(h, A, ipiv, jpiv, info, mode, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): A(:,:,i) = P L U Q with complete pivoting, as LAPACK ?getc2
    ! (numgpu_?getrf_batched_fullpivot_strided) in real(c_float), real(c_double),
    ! complex(c_float_complex) or complex(c_double_complex).
    !
    ! - A(:,:,:) [in,out]: n = size(A, 2), lda = size(A, 1) (>= n, else numgpu refuses lda),
    !   batch = size(A, 3); the factors L (unit lower) and U overwrite it.
    ! - ipiv(:,:), jpiv(:,:) [out]: shape (n, batch), integer(c_int32_t), 1-based interchanges.
    ! - info(:) [out]: size batch; 0, or k > 0 (see numgpu.h: the perturbed step in GETC2 mode,
    !   the rank + 1 in STRICT mode, the first non-finite pivot).
    ! - mode [in]: NUMGPU_FULLPIVOT_GETC2 or NUMGPU_FULLPIVOT_STRICT.
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
    interface numgpu_getrf_batched_fullpivot
        module procedure numgpu_getrf_batched_fullpivot_s, numgpu_getrf_batched_fullpivot_d, &
            numgpu_getrf_batched_fullpivot_c, numgpu_getrf_batched_fullpivot_z
    end interface

    ! call numgpu_getrs_batched_fullpivot(h, trans, A, ipiv, jpiv, B, status [, errmsg])
    !
    ! For i = 1 .. size(B, 3): solves op(A_i) X = B(:,:,i) with the factors and interchanges of
    ! numgpu_getrf_batched_fullpivot, X overwriting B (numgpu_?getrs_batched_fullpivot_strided).
    !
    ! - trans [in]: NUMGPU_OP_N, NUMGPU_OP_T or NUMGPU_OP_C.
    ! - A(:,:,:) [in]: the factors, n = size(A, 2), lda = size(A, 1); size(A, 3) is the batch,
    !   or 1 to use one factorisation for the whole batch (strideA = 0).
    ! - ipiv(:,:), jpiv(:,:) [in]: shape (n, batch) (also when size(A, 3) = 1).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), batch = size(B, 3).
    interface numgpu_getrs_batched_fullpivot
        module procedure numgpu_getrs_batched_fullpivot_s, numgpu_getrs_batched_fullpivot_d, &
            numgpu_getrs_batched_fullpivot_c, numgpu_getrs_batched_fullpivot_z
    end interface

    ! call numgpu_gesv_batched_fullpivot(h, A, ipiv, jpiv, B, info, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): factors A(:,:,i) in STRICT mode and solves A_i X = B(:,:,i), X
    ! overwriting B; where info(i) > 0, B(:,:,i) is left unchanged
    ! (numgpu_?gesv_batched_fullpivot_strided).
    !
    ! - A(:,:,:) [in,out], ipiv(:,:), jpiv(:,:) [out], info(:) [out]: as for the factorisation.
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), size(B, 3) = size(A, 3).
    interface numgpu_gesv_batched_fullpivot
        module procedure numgpu_gesv_batched_fullpivot_s, numgpu_gesv_batched_fullpivot_d, &
            numgpu_gesv_batched_fullpivot_c, numgpu_gesv_batched_fullpivot_z
    end interface

    ! call numgpu_gesc2_batched(h, A, rhs, ipiv, jpiv, scale, status [, errmsg])
    !
    ! LAPACK ?gesc2 for each i = 1 .. size(rhs, 2): solves A_i x = scale(i) rhs(:,i) with the
    ! factors of numgpu_getrf_batched_fullpivot (mode GETC2), x overwriting rhs(:,i)
    ! (numgpu_?gesc2_batched_strided).
    !
    ! - A(:,:,:) [in]: the factors, n = size(A, 2), lda = size(A, 1); size(A, 3) is the batch or
    !   1 (one factorisation for all, strideA = 0).
    ! - rhs(:,:) [in,out]: shape (n, batch).
    ! - ipiv(:,:), jpiv(:,:) [in]: shape (n, batch).
    ! - scale(:) [out]: size batch, the real kind of A.
    interface numgpu_gesc2_batched
        module procedure numgpu_gesc2_batched_s, numgpu_gesc2_batched_d, numgpu_gesc2_batched_c, &
            numgpu_gesc2_batched_z
    end interface

    ! Sizes of one call of the getrf_fullpivot family derived from the array shapes.
    type :: lu_plan
        integer(c_int64_t) :: n = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldb = 1, sb = 0
    end type

    ! call numgpu_geqrf_givens_batched(h, A, CS, status [, errmsg])
    !
    ! For i = 1 .. size(A, 3): A(:,:,i) = Q R by Givens rotations (numgpu.h has the storage and
    ! the rotation convention), numgpu_?geqrf_givens_batched_strided, in real(c_float),
    ! real(c_double), complex(c_float_complex) or complex(c_double_complex).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (n <= m, else numgpu refuses
    !   n), batch = size(A, 3); R in the upper triangle, the sines below it.
    ! - CS(:,:,:) [out]: the real kind of A (real(c_float) for c, real(c_double) for z);
    !   ldcs = size(CS, 1) (>= m, else numgpu refuses ldcs), size(CS, 2) = n,
    !   size(CS, 3) = batch: the cosines below the diagonal (the rest is not written).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
    interface numgpu_geqrf_givens_batched
        module procedure numgpu_geqrf_givens_batched_s, numgpu_geqrf_givens_batched_d, &
            numgpu_geqrf_givens_batched_c, numgpu_geqrf_givens_batched_z
    end interface

    ! call numgpu_ormqr_givens_batched(h, side, trans, A, CS, C, status [, errmsg])
    !
    ! LAPACK ?ormqr (real kinds) / ?unmqr (complex kinds) for each i = 1 .. size(C, 3):
    ! C(:,:,i) := op(Q_i) C(:,:,i) (side NUMGPU_SIDE_LEFT) or C(:,:,i) op(Q_i)
    ! (NUMGPU_SIDE_RIGHT), Q_i of order nq (m for LEFT, n for RIGHT) from the rotations of the
    ! first k columns of a numgpu_geqrf_givens_batched factorisation, never formed
    ! (numgpu_?ormqr_givens_batched_strided / numgpu_?unmqr_givens_batched_strided).
    !
    ! - trans [in]: NUMGPU_OP_N (Q), NUMGPU_OP_T (Q^T, real kinds) or NUMGPU_OP_C (Q^H, complex
    !   kinds); the other one is refused by numgpu (argument 3), as by LAPACK.
    ! - A(:,:,:) [in]: the factorisations, lda = size(A, 1) (>= nq), k = size(A, 2) (<= nq);
    !   size(A, 3) is the batch, or 1 to apply one Q to the whole batch (strides 0).
    ! - CS(:,:,:) [in]: their cosines, ldcs = size(CS, 1) (>= nq), size(CS, 2) = k,
    !   size(CS, 3) = size(A, 3).
    ! - C(:,:,:) [in,out]: m = size(C, 1) (= ldc), n = size(C, 2), batch = size(C, 3).
    interface numgpu_ormqr_givens_batched
        module procedure numgpu_ormqr_givens_batched_s, numgpu_ormqr_givens_batched_d, &
            numgpu_ormqr_givens_batched_c, numgpu_ormqr_givens_batched_z
    end interface

    ! call numgpu_orgqr_givens_batched(h, A, CS, status [, errmsg])
    !
    ! LAPACK ?orgqr (real kinds) / ?ungqr (complex kinds) for each i = 1 .. size(A, 3): A(:,:,i)
    ! := the first n columns of the Q_i made of the rotations of its first k columns
    ! (numgpu_?orgqr_givens_batched_strided / numgpu_?ungqr_givens_batched_strided).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (<= m), batch = size(A, 3); on
    !   entry the factorisation in its first k columns (e.g. A(:, 1:k, :) of
    !   numgpu_geqrf_givens_batched, with m x m for the whole Q).
    ! - CS(:,:,:) [in]: the cosines, ldcs = size(CS, 1) (>= m), k = size(CS, 2) (<= n, else
    !   numgpu refuses k), size(CS, 3) = batch; k = 0 (an empty CS) gives I(m, n).
    interface numgpu_orgqr_givens_batched
        module procedure numgpu_orgqr_givens_batched_s, numgpu_orgqr_givens_batched_d, &
            numgpu_orgqr_givens_batched_c, numgpu_orgqr_givens_batched_z
    end interface

    ! call numgpu_gels_givens_batched(h, A, B, info, status [, errmsg])
    !
    ! LAPACK ?gels (TRANS = 'N', full rank, m >= n) for each i = 1 .. size(A, 3): minimises
    ! ||A(:,:,i) x - B(:,j,i)|| for every column j, X overwriting B(1:n, :, i) and the
    ! residual's coordinates B(n+1:m, :, i); A(:,:,i) is factored as by
    ! numgpu_geqrf_givens_batched (numgpu_?gels_givens_batched_strided).
    !
    ! - A(:,:,:) [in,out]: m = size(A, 1) (= lda), n = size(A, 2) (<= m), batch = size(A, 3).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= m, else numgpu refuses ldb), nrhs = size(B, 2),
    !   size(B, 3) = batch.
    ! - info(:) [out]: size batch; 0, or j when R(j, j) is exactly zero (B(:,:,i) unchanged).
    interface numgpu_gels_givens_batched
        module procedure numgpu_gels_givens_batched_s, numgpu_gels_givens_batched_d, &
            numgpu_gels_givens_batched_c, numgpu_gels_givens_batched_z
    end interface

    ! Sizes of one call of the geqrf_givens family derived from the array shapes.
    type :: qr_plan
        integer(c_int64_t) :: m = 0, n = 0, k = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: lda = 1, sa = 0, ldcs = 1, scs = 0, ldb = 1, sb = 0
    end type

    ! call numgpu_gtsv_spike(h, dl, d, du, B, info, pivoting, status [, errmsg])
    !
    ! Solves T X = B for one tridiagonal T, as LAPACK ?gtsv but with the diagonals left
    ! unchanged (numgpu_?gtsv_spike), in real(c_float), real(c_double), complex(c_float_complex)
    ! or complex(c_double_complex).
    !
    ! - dl(:), d(:), du(:) [in]: n = size(d); the sub-diagonal dl and super-diagonal du have
    !   max(n - 1, 0) entries, T(k+1, k) = dl(k), T(k, k) = d(k), T(k, k+1) = du(k).
    ! - B(:,:) [in,out]: ldb = size(B, 1) (>= n, else numgpu refuses ldb), nrhs = size(B, 2);
    !   X on exit when info = 0, else unchanged.
    ! - info [out]: integer(c_int32_t); 0, or i > 0 when a pivot was exactly zero (T singular;
    !   numgpu.h says more).
    ! - pivoting [in]: NUMGPU_GTSV_DIAG_PIVOT or NUMGPU_GTSV_NOPIVOT (the CUDA algorithm; the
    !   CPU backend always pivots, as LAPACK).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming shapes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
    interface numgpu_gtsv_spike
        module procedure numgpu_gtsv_spike_s, numgpu_gtsv_spike_d, numgpu_gtsv_spike_c, numgpu_gtsv_spike_z
    end interface

    ! call numgpu_gtsv_batched_strided(h, dl, d, du, B, info, pivoting, status [, errmsg])
    !
    ! For i = 1 .. size(B, 3): solves T_i X = B(:,:,i) as numgpu_gtsv_spike
    ! (numgpu_?gtsv_batched_strided).
    !
    ! - dl(:,:), d(:,:), du(:,:) [in]: all of one shape (n, size(d, 2)), n = size(d, 1): column
    !   i holds T_i's diagonals, dl(1:n-1, i) and du(1:n-1, i) the off-diagonals (dl(n, i) and
    !   du(n, i) are not referenced: one stride serves the three arrays); size(d, 2) is the
    !   batch, or 1 to use one T for the whole batch (stride 0).
    ! - B(:,:,:) [in,out]: ldb = size(B, 1) (>= n), nrhs = size(B, 2), batch = size(B, 3).
    ! - info(:) [out]: size batch.
    interface numgpu_gtsv_batched_strided
        module procedure numgpu_gtsv_batched_strided_s, numgpu_gtsv_batched_strided_d, &
            numgpu_gtsv_batched_strided_c, numgpu_gtsv_batched_strided_z
    end interface

    ! call numgpu_rkc(h, ode, t0, tend, Y, P, rtol, atol, sys_status, status [, opts, state, stats, errmsg])
    !
    ! numgpu_rkc_integrate on Fortran arrays, system-major: system i is column i of Y and P.
    ! - Y(:,:) [inout]: shape (ldy >= neq, nsys), nsys = size(Y, 2); P(:,:) [in]: shape
    !   (ldp >= npar, nsys), or size 0 when npar = 0; atol(:) [in]: 1 or neq values;
    ! - sys_status(:) [out]: size nsys, each system's status (0 reached tend, see numgpu.h);
    ! - opts [in]: a numgpu_rkc_options (absent: the defaults); state(:,:) [inout]: shape
    !   (6 + neq, nsys), zeros for a cold start; stats(:,:) [out]: shape (6, nsys);
    ! - status [out]: the call's numgpu_status; NUMGPU_INVALID_VALUE (and errmsg) when the
    !   shapes disagree, nothing written.
    interface numgpu_rkc
        module procedure numgpu_rkc_d
    end interface

    ! call numgpu_gtsv_batched_interleaved(h, dl, d, du, B, info, pivoting, status [, errmsg])
    !
    ! For i = 1 .. size(d, 1): solves T_i x_i = b_i, one right-hand side per system, interleaved
    ! layout (numgpu_?gtsv_batched_interleaved): element k of system i is X(i, k) of arrays of
    ! shape (batch, n), so the systems are contiguous in the first index.
    !
    ! - dl(:,:), d(:,:), du(:,:) [in]: shape (batch, n) each, batch = size(d, 1), n = size(d, 2);
    !   T_i(k, k-1) = dl(i, k) (k >= 2), T_i(k, k) = d(i, k), T_i(k, k+1) = du(i, k) (k <= n-1);
    !   dl(:, 1) and du(:, n) are not referenced.
    ! - B(:,:) [in,out]: shape (batch, n); x_i in B(i, :) on exit where info(i) = 0.
    ! - info(:) [out]: size batch.
    interface numgpu_gtsv_batched_interleaved
        module procedure numgpu_gtsv_batched_interleaved_s, numgpu_gtsv_batched_interleaved_d, &
            numgpu_gtsv_batched_interleaved_c, numgpu_gtsv_batched_interleaved_z
    end interface

    ! Sizes of one call of the gtsv_spike family derived from the array shapes.
    type :: gtsv_plan
        integer(c_int64_t) :: n = 0, nrhs = 0, batch = 0
        integer(c_int64_t) :: sdiag = 0, ldb = 1, sb = 0
    end type

    ! call numgpu_csrmv(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status [, errmsg])
    !
    ! y := alpha op(A) x + beta y with A in CSR (numgpu_?csrmv), in real(c_float), real(c_double),
    ! complex(c_float_complex) or complex(c_double_complex).
    !
    ! - val(:) [in], col_ind(:) [in]: the nnz = size(val) entries (size(col_ind) must match).
    ! - row_ptr(:) [in]: m + 1 offsets, m = size(row_ptr) - 1.
    ! - index_base [in]: 1 for Fortran-style indices, 0 for C-style.
    ! - x(:), y(:): op(A) is m x n with n = size(x) for NUMGPU_OP_N (size(y) must be m), and
    !   n = size(y) for NUMGPU_OP_T / NUMGPU_OP_C (size(x) must be m).
    ! - status, errmsg: as numgpu_gemm_batched; non-conforming sizes are NUMGPU_INVALID_VALUE
    !   before any call (nothing written).
    interface numgpu_csrmv
        module procedure numgpu_csrmv_s, numgpu_csrmv_d, numgpu_csrmv_c, numgpu_csrmv_z
    end interface

    ! call numgpu_cmrs_create(h, n, val, row_ptr, col_ind, index_base, height, M, A, status [, errmsg])
    !
    ! A CMRS matrix from a CSR one (numgpu_?cmrs_create), real(c_float) or real(c_double): m =
    ! size(row_ptr) - 1 rows, n columns, nnz = size(val) (= size(col_ind)); height 0 (16) or
    ! 1..16, M 0 (chosen), 2, 4 or 8. A [inout] receives the matrix (type(c_ptr)); release it
    ! with numgpu_cmrs_destroy(A).
    interface numgpu_cmrs_create
        module procedure numgpu_cmrs_create_s, numgpu_cmrs_create_d
    end interface

    ! call numgpu_cmrs_update_values(h, A, val, status [, errmsg]): new values, same pattern.
    interface numgpu_cmrs_update_values
        module procedure numgpu_cmrs_update_values_s, numgpu_cmrs_update_values_d
    end interface

    ! call numgpu_cmrsmv(h, alpha, A, x, beta, y, status [, errmsg]): y := alpha A x + beta y
    ! (numgpu_?cmrsmv) with x(:) of n and y(:) of m entries.
    interface numgpu_cmrsmv
        module procedure numgpu_cmrsmv_s, numgpu_cmrsmv_d
    end interface

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
                import
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

    ! Derives m, n, k, the leading dimensions and strides from the shapes of A, B, C and
    ! checks that they conform; status NUMGPU_INVALID_VALUE (and errmsg) when they do not.
    ! With an op out of range nothing is checked: numgpu itself rejects the op (argument 2/3).
    subroutine plan_gemm(transa, transb, sa, sb, sc, p, status, errmsg)
        integer(c_int32_t), intent(in) :: transa, transb
        integer(c_int64_t), intent(in) :: sa(3), sb(3), sc(3)
        type(gemm_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: rows_a, rows_b, cols_b
        logical :: ops_ok, trans_a, trans_b
        character(len=256) :: why

        ops_ok = transa >= NUMGPU_OP_N .and. transa <= NUMGPU_OP_C .and. transb >= NUMGPU_OP_N .and. transb <= NUMGPU_OP_C
        trans_a = transa /= NUMGPU_OP_N
        trans_b = transb /= NUMGPU_OP_N
        p%m = sc(1)
        p%n = sc(2)
        p%batch = sc(3)
        ! op(A) is m x k: A is m x k, or k x m when transposed.
        if (trans_a) then
            p%k = sa(1)
            rows_a = sa(2)
        else
            p%k = sa(2)
            rows_a = sa(1)
        end if
        if (trans_b) then
            rows_b = sb(2)
            cols_b = sb(1)
        else
            rows_b = sb(1)
            cols_b = sb(2)
        end if
        p%lda = max(1_c_int64_t, sa(1))
        p%ldb = max(1_c_int64_t, sb(1))
        p%ldc = max(1_c_int64_t, sc(1))
        p%sa = merge(0_c_int64_t, p%lda * sa(2), sa(3) == 1)
        p%sb = merge(0_c_int64_t, p%ldb * sb(2), sb(3) == 1)
        p%sc = p%ldc * sc(2)

        status = NUMGPU_SUCCESS
        why = ""
        if (.not. ops_ok) return
        if (rows_a /= p%m) then
            write(why, '(a,i0,a,i0)') "op(A) has ", rows_a, " rows but C has m = ", p%m
        else if (rows_b /= p%k .or. cols_b /= p%n) then
            write(why, '(a,i0,a,i0,a,i0,a,i0,a)') "op(B) is ", rows_b, " x ", cols_b, " but must be k x n = ", &
                p%k, " x ", p%n, " (k from A, n from C)"
        else if (sa(3) /= p%batch .and. sa(3) /= 1) then
            write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or size(C, 3) = ", p%batch, ", not ", sa(3)
        else if (sb(3) /= p%batch .and. sb(3) /= 1) then
            write(why, '(a,i0,a,i0)') "size(B, 3) must be 1 or size(C, 3) = ", p%batch, ", not ", sb(3)
        end if
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_gemm_batched: shapes do not conform: " // trim(why)
        end if
    end subroutine

    ! Copies numgpu's last error into errmsg when a call failed.
    subroutine report(status, errmsg)
        integer(c_int32_t), intent(in) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (status /= NUMGPU_SUCCESS .and. present(errmsg)) errmsg = numgpu_last_error_string()
    end subroutine

    ! Derives the sizes of one getrf_fullpivot call from the shapes and checks that they
    ! conform; status NUMGPU_INVALID_VALUE (and errmsg) when they do not.
    ! - sa: shape of A (n = sa(2), lda = sa(1)); sip, sjp: shapes of ipiv and jpiv, which must
    !   be (n, batch);
    ! - sb: shape of B (bname "B": ldb = sb(1), nrhs = sb(2), size(B, 3) must be the batch), of
    !   rhs as (rows, 1, batch) (bname "rhs": rows must be n), or unused (bname "");
    ! - nout: size of info / scale (outname), which must be the batch (outname "": unused);
    ! - share_a: size(A, 3) may be 1 (strideA = 0), else it must be the batch.
    ! lda and ldb are left to numgpu, which refuses them (naming the argument) when < n.
    subroutine plan_lu(fname, sa, sip, sjp, sb, bname, nout, outname, batch, share_a, p, status, errmsg)
        character(len=*), intent(in) :: fname, bname, outname
        integer(c_int64_t), intent(in) :: sa(3), sip(2), sjp(2), sb(3), nout, batch
        logical, intent(in) :: share_a
        type(lu_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why

        p%n = sa(2)
        p%batch = batch
        p%lda = max(1_c_int64_t, sa(1))
        p%sa = merge(0_c_int64_t, p%lda * sa(2), share_a .and. sa(3) == 1)
        p%ldb = max(1_c_int64_t, sb(1))
        p%nrhs = sb(2)
        p%sb = p%ldb * sb(2)

        status = NUMGPU_SUCCESS
        why = ""
        if (sa(3) /= batch .and. .not. (share_a .and. sa(3) == 1)) then
            if (share_a) then
                write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or the batch size ", batch, ", not ", sa(3)
            else
                write(why, '(a,i0,a,i0)') "size(A, 3) must be the batch size ", batch, ", not ", sa(3)
            end if
        else if (bname == "B" .and. sb(3) /= batch) then
            write(why, '(a,i0,a,i0)') "size(B, 3) must be the batch size ", batch, ", not ", sb(3)
        else if (bname == "rhs" .and. sb(1) /= p%n) then
            write(why, '(a,i0,a,i0,a,i0)') "rhs is ", sb(1), " x ", sb(3), " but must be n x batch with n = ", p%n
        else if (sip(1) /= p%n .or. sip(2) /= batch) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "ipiv is ", sip(1), " x ", sip(2), " but must be n x batch = ", &
                p%n, " x ", batch
        else if (sjp(1) /= p%n .or. sjp(2) /= batch) then
            write(why, '(a,i0,a,i0,a,i0,a,i0)') "jpiv is ", sjp(1), " x ", sjp(2), " but must be n x batch = ", &
                p%n, " x ", batch
        else if (len(outname) > 0 .and. nout /= batch) then
            write(why, '(3a,i0,a,i0)') "size(", outname, ") must be the batch size ", batch, ", not ", nout
        end if
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = fname // ": shapes do not conform: " // trim(why)
        end if
    end subroutine

    ! The four specific procedures of numgpu_gemm_batched differ only in their kinds (Fortran
    ! has no generics over kinds): plan, take the addresses (NULL for empty arrays), call.
    subroutine numgpu_gemm_batched_s(h, transa, transb, alpha, A, B, beta, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: transa, transb
        real(c_float), intent(in) :: alpha, beta
        real(c_float), intent(in), target, contiguous :: A(:,:,:), B(:,:,:)
        real(c_float), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gemm_plan) :: p
        type(c_ptr) :: pa, pb, pc
        call plan_gemm(transa, transb, shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_sgemm_batched_strided(h, transa, transb, p%m, p%n, p%k, alpha, pa, p%lda, p%sa, pb, p%ldb, &
            p%sb, beta, pc, p%ldc, p%sc, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gemm_batched_d(h, transa, transb, alpha, A, B, beta, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: transa, transb
        real(c_double), intent(in) :: alpha, beta
        real(c_double), intent(in), target, contiguous :: A(:,:,:), B(:,:,:)
        real(c_double), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gemm_plan) :: p
        type(c_ptr) :: pa, pb, pc
        call plan_gemm(transa, transb, shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_dgemm_batched_strided(h, transa, transb, p%m, p%n, p%k, alpha, pa, p%lda, p%sa, pb, p%ldb, &
            p%sb, beta, pc, p%ldc, p%sc, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gemm_batched_c(h, transa, transb, alpha, A, B, beta, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: transa, transb
        complex(c_float_complex), intent(in) :: alpha, beta
        complex(c_float_complex), intent(in), target, contiguous :: A(:,:,:), B(:,:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gemm_plan) :: p
        type(c_ptr) :: pa, pb, pc
        call plan_gemm(transa, transb, shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_cgemm_batched_strided(h, transa, transb, p%m, p%n, p%k, alpha, pa, p%lda, p%sa, pb, p%ldb, &
            p%sb, beta, pc, p%ldc, p%sc, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gemm_batched_z(h, transa, transb, alpha, A, B, beta, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: transa, transb
        complex(c_double_complex), intent(in) :: alpha, beta
        complex(c_double_complex), intent(in), target, contiguous :: A(:,:,:), B(:,:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gemm_plan) :: p
        type(c_ptr) :: pa, pb, pc
        call plan_gemm(transa, transb, shape(A, c_int64_t), shape(B, c_int64_t), shape(C, c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_zgemm_batched_strided(h, transa, transb, p%m, p%n, p%k, alpha, pa, p%lda, p%sa, pb, p%ldb, &
            p%sb, beta, pc, p%ldc, p%sc, p%batch)
        call report(status, errmsg)
    end subroutine

    ! The specific procedures of the getrf_fullpivot generics, one per kind as for gemm: plan,
    ! take the addresses (NULL for empty arrays), call the strided C entry point.

    subroutine numgpu_getrf_batched_fullpivot_s(h, A, ipiv, jpiv, info, mode, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pinfo
        call plan_lu("numgpu_getrf_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], "", &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_sgetrf_batched_fullpivot_strided(h, p%n, pa, p%lda, p%sa, pip, pjp, pinfo, p%batch, mode)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrs_batched_fullpivot_s(h, trans, A, ipiv, jpiv, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        real(c_float), intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_float), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb
        call plan_lu("numgpu_getrs_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(B, 3, c_int64_t), "", size(B, 3, c_int64_t), .true., &
            p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_sgetrs_batched_fullpivot_strided(h, trans, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, &
            p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesv_batched_fullpivot_s(h, A, ipiv, jpiv, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb, pinfo
        call plan_lu("numgpu_gesv_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), &
            .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_sgesv_batched_fullpivot_strided(h, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, p%ldb, p%sb, &
            pinfo, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesc2_batched_s(h, A, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(in), target, contiguous :: A(:,:,:)
        real(c_float), intent(inout), target, contiguous :: rhs(:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_float), intent(inout), target, contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pr, pip, pjp, ps
        call plan_lu("numgpu_gesc2_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), shape(jpiv, c_int64_t), &
            [size(rhs, 1, c_int64_t), 1_c_int64_t, size(rhs, 2, c_int64_t)], "rhs", size(scale, kind=c_int64_t), "scale", &
            size(rhs, 2, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pr = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        ps = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(rhs) > 0) pr = c_loc(rhs)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(scale) > 0) ps = c_loc(scale)
        status = numgpu_sgesc2_batched_strided(h, p%n, pa, p%lda, p%sa, pr, p%ldb, pip, pjp, ps, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrf_batched_fullpivot_d(h, A, ipiv, jpiv, info, mode, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pinfo
        call plan_lu("numgpu_getrf_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], "", &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_dgetrf_batched_fullpivot_strided(h, p%n, pa, p%lda, p%sa, pip, pjp, pinfo, p%batch, mode)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrs_batched_fullpivot_d(h, trans, A, ipiv, jpiv, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        real(c_double), intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_double), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb
        call plan_lu("numgpu_getrs_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(B, 3, c_int64_t), "", size(B, 3, c_int64_t), .true., &
            p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_dgetrs_batched_fullpivot_strided(h, trans, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, &
            p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesv_batched_fullpivot_d(h, A, ipiv, jpiv, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb, pinfo
        call plan_lu("numgpu_gesv_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), &
            .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_dgesv_batched_fullpivot_strided(h, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, p%ldb, p%sb, &
            pinfo, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesc2_batched_d(h, A, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(in), target, contiguous :: A(:,:,:)
        real(c_double), intent(inout), target, contiguous :: rhs(:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_double), intent(inout), target, contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pr, pip, pjp, ps
        call plan_lu("numgpu_gesc2_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), shape(jpiv, c_int64_t), &
            [size(rhs, 1, c_int64_t), 1_c_int64_t, size(rhs, 2, c_int64_t)], "rhs", size(scale, kind=c_int64_t), "scale", &
            size(rhs, 2, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pr = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        ps = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(rhs) > 0) pr = c_loc(rhs)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(scale) > 0) ps = c_loc(scale)
        status = numgpu_dgesc2_batched_strided(h, p%n, pa, p%lda, p%sa, pr, p%ldb, pip, pjp, ps, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrf_batched_fullpivot_c(h, A, ipiv, jpiv, info, mode, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pinfo
        call plan_lu("numgpu_getrf_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], "", &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_cgetrf_batched_fullpivot_strided(h, p%n, pa, p%lda, p%sa, pip, pjp, pinfo, p%batch, mode)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrs_batched_fullpivot_c(h, trans, A, ipiv, jpiv, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        complex(c_float_complex), intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb
        call plan_lu("numgpu_getrs_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(B, 3, c_int64_t), "", size(B, 3, c_int64_t), .true., &
            p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_cgetrs_batched_fullpivot_strided(h, trans, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, &
            p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesv_batched_fullpivot_c(h, A, ipiv, jpiv, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb, pinfo
        call plan_lu("numgpu_gesv_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), &
            .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_cgesv_batched_fullpivot_strided(h, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, p%ldb, p%sb, &
            pinfo, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesc2_batched_c(h, A, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(in), target, contiguous :: A(:,:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: rhs(:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_float), intent(inout), target, contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pr, pip, pjp, ps
        call plan_lu("numgpu_gesc2_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), shape(jpiv, c_int64_t), &
            [size(rhs, 1, c_int64_t), 1_c_int64_t, size(rhs, 2, c_int64_t)], "rhs", size(scale, kind=c_int64_t), "scale", &
            size(rhs, 2, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pr = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        ps = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(rhs) > 0) pr = c_loc(rhs)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(scale) > 0) ps = c_loc(scale)
        status = numgpu_cgesc2_batched_strided(h, p%n, pa, p%lda, p%sa, pr, p%ldb, pip, pjp, ps, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrf_batched_fullpivot_z(h, A, ipiv, jpiv, info, mode, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(inout), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(in) :: mode
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pinfo
        call plan_lu("numgpu_getrf_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], "", &
            size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_zgetrf_batched_fullpivot_strided(h, p%n, pa, p%lda, p%sa, pip, pjp, pinfo, p%batch, mode)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_getrs_batched_fullpivot_z(h, trans, A, ipiv, jpiv, B, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans
        complex(c_double_complex), intent(in), target, contiguous :: A(:,:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb
        call plan_lu("numgpu_getrs_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(B, 3, c_int64_t), "", size(B, 3, c_int64_t), .true., &
            p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_zgetrs_batched_fullpivot_strided(h, trans, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, &
            p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesv_batched_fullpivot_z(h, A, ipiv, jpiv, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: ipiv(:,:), jpiv(:,:), info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pip, pjp, pb, pinfo
        call plan_lu("numgpu_gesv_batched_fullpivot", shape(A, c_int64_t), shape(ipiv, c_int64_t), &
            shape(jpiv, c_int64_t), shape(B, c_int64_t), "B", size(info, kind=c_int64_t), "info", size(A, 3, c_int64_t), &
            .false., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_zgesv_batched_fullpivot_strided(h, p%n, p%nrhs, pa, p%lda, p%sa, pip, pjp, pb, p%ldb, p%sb, &
            pinfo, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gesc2_batched_z(h, A, rhs, ipiv, jpiv, scale, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(in), target, contiguous :: A(:,:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: rhs(:,:)
        integer(c_int32_t), intent(in), target, contiguous :: ipiv(:,:), jpiv(:,:)
        real(c_double), intent(inout), target, contiguous :: scale(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(lu_plan) :: p
        type(c_ptr) :: pa, pr, pip, pjp, ps
        call plan_lu("numgpu_gesc2_batched", shape(A, c_int64_t), shape(ipiv, c_int64_t), shape(jpiv, c_int64_t), &
            [size(rhs, 1, c_int64_t), 1_c_int64_t, size(rhs, 2, c_int64_t)], "rhs", size(scale, kind=c_int64_t), "scale", &
            size(rhs, 2, c_int64_t), .true., p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pr = c_null_ptr
        pip = c_null_ptr
        pjp = c_null_ptr
        ps = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(rhs) > 0) pr = c_loc(rhs)
        if (size(ipiv) > 0) pip = c_loc(ipiv)
        if (size(jpiv) > 0) pjp = c_loc(jpiv)
        if (size(scale) > 0) ps = c_loc(scale)
        status = numgpu_zgesc2_batched_strided(h, p%n, pa, p%lda, p%sa, pr, p%ldb, pip, pjp, ps, p%batch)
        call report(status, errmsg)
    end subroutine

    ! Derives the sizes of one geqrf_givens call from the shapes and checks that they conform;
    ! status NUMGPU_INVALID_VALUE (and errmsg) when they do not. routine: "geqrf" (sa: A, scs:
    ! CS), "ormqr" (sa: A, scs: CS, sb: C), "orgqr" (sa: A, scs: CS) or "gels" (sa: A, sb: B,
    ! ninfo: size(info)); unused shapes are ignored. The leading dimensions against m (or nq),
    ! n <= m and k are left to numgpu, which refuses them naming the argument.
    subroutine plan_qr(fname, routine, sa, scs, sb, ninfo, p, status, errmsg)
        character(len=*), intent(in) :: fname, routine
        integer(c_int64_t), intent(in) :: sa(3), scs(3), sb(3), ninfo
        type(qr_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        logical :: share

        p%lda = max(1_c_int64_t, sa(1))
        p%ldcs = max(1_c_int64_t, scs(1))
        p%ldb = max(1_c_int64_t, sb(1))
        p%sb = p%ldb * sb(2)
        p%nrhs = sb(2)
        if (routine == "ormqr") then
            ! C gives m, n and the batch; A gives k, and may be shared (size(A, 3) = 1).
            p%m = sb(1)
            p%n = sb(2)
            p%batch = sb(3)
            p%k = sa(2)
            share = sa(3) == 1
        else
            p%m = sa(1)
            p%n = sa(2)
            p%batch = sa(3)
            p%k = scs(2)
            share = .false.
        end if
        p%sa = merge(0_c_int64_t, p%lda * sa(2), share)
        p%scs = merge(0_c_int64_t, p%ldcs * scs(2), share)

        status = NUMGPU_SUCCESS
        why = ""
        select case (routine)
        case ("geqrf")
            if (scs(2) /= p%n .or. scs(3) /= p%batch) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0)') "CS is ", scs(1), " x ", scs(2), " x ", scs(3), &
                    " but must be ldcs x n x batch with n = ", p%n, ", batch = ", p%batch
            end if
        case ("ormqr")
            if (sa(3) /= p%batch .and. sa(3) /= 1) then
                write(why, '(a,i0,a,i0)') "size(A, 3) must be 1 or the batch size size(C, 3) = ", p%batch, ", not ", sa(3)
            else if (scs(2) /= p%k .or. scs(3) /= sa(3)) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0)') "CS is ", scs(1), " x ", scs(2), " x ", scs(3), &
                    " but must be ldcs x k x size(A, 3) with k = size(A, 2) = ", p%k, ", size(A, 3) = ", sa(3)
            end if
        case ("orgqr")
            if (scs(3) /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(CS, 3) must be the batch size ", p%batch, ", not ", scs(3)
            end if
        case default
            if (sb(3) /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(B, 3) must be the batch size ", p%batch, ", not ", sb(3)
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        end select
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = fname // ": shapes do not conform: " // trim(why)
        end if
    end subroutine

    ! The specific procedures of the geqrf_givens generics, one per kind as for gemm: plan,
    ! take the addresses (NULL for empty arrays), call the strided C entry point.

    subroutine numgpu_geqrf_givens_batched_s(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(inout), target, contiguous :: A(:,:,:)
        real(c_float), intent(inout), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_geqrf_givens_batched", "geqrf", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_sgeqrf_givens_batched_strided(h, p%m, p%n, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_ormqr_givens_batched_s(h, side, trans, A, CS, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: side, trans
        real(c_float), intent(in), target, contiguous :: A(:,:,:)
        real(c_float), intent(in), target, contiguous :: CS(:,:,:)
        real(c_float), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs, pc
        call plan_qr("numgpu_ormqr_givens_batched", "ormqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            shape(C, c_int64_t), 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_sormqr_givens_batched_strided(h, side, trans, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, &
            p%scs, pc, p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_orgqr_givens_batched_s(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(inout), target, contiguous :: A(:,:,:)
        real(c_float), intent(in), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_orgqr_givens_batched", "orgqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_sorgqr_givens_batched_strided(h, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gels_givens_batched_s(h, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pb, pinfo
        call plan_qr("numgpu_gels_givens_batched", "gels", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
            shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_sgels_givens_batched_strided(h, p%m, p%n, p%nrhs, pa, p%lda, p%sa, pb, p%ldb, p%sb, pinfo, &
            p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_geqrf_givens_batched_d(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(inout), target, contiguous :: A(:,:,:)
        real(c_double), intent(inout), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_geqrf_givens_batched", "geqrf", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_dgeqrf_givens_batched_strided(h, p%m, p%n, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_ormqr_givens_batched_d(h, side, trans, A, CS, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: side, trans
        real(c_double), intent(in), target, contiguous :: A(:,:,:)
        real(c_double), intent(in), target, contiguous :: CS(:,:,:)
        real(c_double), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs, pc
        call plan_qr("numgpu_ormqr_givens_batched", "ormqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            shape(C, c_int64_t), 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_dormqr_givens_batched_strided(h, side, trans, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, &
            p%scs, pc, p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_orgqr_givens_batched_d(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(inout), target, contiguous :: A(:,:,:)
        real(c_double), intent(in), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_orgqr_givens_batched", "orgqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_dorgqr_givens_batched_strided(h, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gels_givens_batched_d(h, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pb, pinfo
        call plan_qr("numgpu_gels_givens_batched", "gels", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
            shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_dgels_givens_batched_strided(h, p%m, p%n, p%nrhs, pa, p%lda, p%sa, pb, p%ldb, p%sb, pinfo, &
            p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_geqrf_givens_batched_c(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(inout), target, contiguous :: A(:,:,:)
        real(c_float), intent(inout), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_geqrf_givens_batched", "geqrf", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_cgeqrf_givens_batched_strided(h, p%m, p%n, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_ormqr_givens_batched_c(h, side, trans, A, CS, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: side, trans
        complex(c_float_complex), intent(in), target, contiguous :: A(:,:,:)
        real(c_float), intent(in), target, contiguous :: CS(:,:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs, pc
        call plan_qr("numgpu_ormqr_givens_batched", "ormqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            shape(C, c_int64_t), 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_cunmqr_givens_batched_strided(h, side, trans, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, &
            p%scs, pc, p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_orgqr_givens_batched_c(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(inout), target, contiguous :: A(:,:,:)
        real(c_float), intent(in), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_orgqr_givens_batched", "orgqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_cungqr_givens_batched_strided(h, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gels_givens_batched_c(h, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pb, pinfo
        call plan_qr("numgpu_gels_givens_batched", "gels", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
            shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_cgels_givens_batched_strided(h, p%m, p%n, p%nrhs, pa, p%lda, p%sa, pb, p%ldb, p%sb, pinfo, &
            p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_geqrf_givens_batched_z(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(inout), target, contiguous :: A(:,:,:)
        real(c_double), intent(inout), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_geqrf_givens_batched", "geqrf", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_zgeqrf_givens_batched_strided(h, p%m, p%n, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_ormqr_givens_batched_z(h, side, trans, A, CS, C, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: side, trans
        complex(c_double_complex), intent(in), target, contiguous :: A(:,:,:)
        real(c_double), intent(in), target, contiguous :: CS(:,:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: C(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs, pc
        call plan_qr("numgpu_ormqr_givens_batched", "ormqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            shape(C, c_int64_t), 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        pc = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        if (size(C) > 0) pc = c_loc(C)
        status = numgpu_zunmqr_givens_batched_strided(h, side, trans, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, &
            p%scs, pc, p%ldb, p%sb, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_orgqr_givens_batched_z(h, A, CS, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(inout), target, contiguous :: A(:,:,:)
        real(c_double), intent(in), target, contiguous :: CS(:,:,:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pcs
        call plan_qr("numgpu_orgqr_givens_batched", "orgqr", shape(A, c_int64_t), shape(CS, c_int64_t), &
            [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], 0_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pcs = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(CS) > 0) pcs = c_loc(CS)
        status = numgpu_zungqr_givens_batched_strided(h, p%m, p%n, p%k, pa, p%lda, p%sa, pcs, p%ldcs, p%scs, p%batch)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gels_givens_batched_z(h, A, B, info, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(inout), target, contiguous :: A(:,:,:), B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(qr_plan) :: p
        type(c_ptr) :: pa, pb, pinfo
        call plan_qr("numgpu_gels_givens_batched", "gels", shape(A, c_int64_t), [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], &
            shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pa = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(A) > 0) pa = c_loc(A)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_zgels_givens_batched_strided(h, p%m, p%n, p%nrhs, pa, p%lda, p%sa, pb, p%ldb, p%sb, pinfo, &
            p%batch)
        call report(status, errmsg)
    end subroutine

    ! Derives the sizes of one gtsv_spike call from the shapes and checks that they conform;
    ! status NUMGPU_INVALID_VALUE (and errmsg) when they do not. form: "spike" (sdl, sd, sdu:
    ! (size, 1); sb: shape of B, (ldb, nrhs, 1)), "strided" (the diagonals' shapes (n, nb), sb:
    ! shape of B, ninfo: size(info)) or "interleaved" (the shapes (batch, n) of dl, d, du and B
    ! in sdl, sd, sdu, sb(1:2), ninfo: size(info)). ldb against n is left to numgpu, which
    ! refuses it naming the argument.
    subroutine plan_gtsv(fname, form, sdl, sd, sdu, sb, ninfo, p, status, errmsg)
        character(len=*), intent(in) :: fname, form
        integer(c_int64_t), intent(in) :: sdl(2), sd(2), sdu(2), sb(3), ninfo
        type(gtsv_plan), intent(out) :: p
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why

        status = NUMGPU_SUCCESS
        why = ""
        select case (form)
        case ("spike")
            p%n = sd(1)
            p%batch = 1
            p%ldb = max(1_c_int64_t, sb(1))
            p%nrhs = sb(2)
            if (sdl(1) /= max(p%n - 1, 0_c_int64_t) .or. sdu(1) /= max(p%n - 1, 0_c_int64_t)) then
                write(why, '(a,i0,a,i0,a,i0)') "size(dl) = ", sdl(1), " and size(du) = ", sdu(1), &
                    " must be n - 1 with n = size(d) = ", p%n
            end if
        case ("strided")
            p%n = sd(1)
            p%batch = sb(3)
            p%sdiag = merge(0_c_int64_t, p%n, sd(2) == 1)
            p%ldb = max(1_c_int64_t, sb(1))
            p%nrhs = sb(2)
            p%sb = p%ldb * sb(2)
            if (any(sdl /= sd) .or. any(sdu /= sd)) then
                write(why, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') "dl is ", sdl(1), " x ", sdl(2), ", du ", sdu(1), " x ", &
                    sdu(2), ", but both must have the shape of d, ", sd(1), " x ", sd(2)
            else if (sd(2) /= p%batch .and. sd(2) /= 1) then
                write(why, '(a,i0,a,i0)') "size(d, 2) must be 1 or the batch size size(B, 3) = ", p%batch, ", not ", sd(2)
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        case default
            p%batch = sd(1)
            p%n = sd(2)
            if (any(sdl /= sd) .or. any(sdu /= sd) .or. any(sb(1:2) /= sd)) then
                write(why, '(a,i0,a,i0,a)') "dl, du and B must have the shape of d, ", sd(1), " x ", sd(2), &
                    " (batch x n)"
            else if (ninfo /= p%batch) then
                write(why, '(a,i0,a,i0)') "size(info) must be the batch size ", p%batch, ", not ", ninfo
            end if
        end select
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = fname // ": shapes do not conform: " // trim(why)
        end if
    end subroutine

    ! The specific procedures of the gtsv_spike generics, one per kind as for gemm: plan, take
    ! the addresses (NULL for empty arrays), call the C entry point.

    subroutine numgpu_gtsv_spike_s(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(in), target, contiguous :: dl(:), d(:), du(:)
        real(c_float), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb
        call plan_gtsv("numgpu_gtsv_spike", "spike", [size(dl, kind=c_int64_t), 1_c_int64_t], &
            [size(d, kind=c_int64_t), 1_c_int64_t], [size(du, kind=c_int64_t), 1_c_int64_t], &
            [shape(B, c_int64_t), 1_c_int64_t], 1_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_sgtsv_spike(h, p%n, p%nrhs, pdl, pd, pdu, pb, p%ldb, c_loc(info), pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_strided_s(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        real(c_float), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_strided", "strided", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_sgtsv_batched_strided(h, p%n, p%nrhs, pdl, pd, pdu, p%sdiag, pb, p%ldb, p%sb, pinfo, &
            p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_interleaved_s(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_float), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        real(c_float), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_interleaved", "interleaved", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), [shape(B, c_int64_t), 1_c_int64_t], size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_sgtsv_batched_interleaved(h, p%n, pdl, pd, pdu, pb, pinfo, p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_spike_d(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(in), target, contiguous :: dl(:), d(:), du(:)
        real(c_double), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb
        call plan_gtsv("numgpu_gtsv_spike", "spike", [size(dl, kind=c_int64_t), 1_c_int64_t], &
            [size(d, kind=c_int64_t), 1_c_int64_t], [size(du, kind=c_int64_t), 1_c_int64_t], &
            [shape(B, c_int64_t), 1_c_int64_t], 1_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_dgtsv_spike(h, p%n, p%nrhs, pdl, pd, pdu, pb, p%ldb, c_loc(info), pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_strided_d(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        real(c_double), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_strided", "strided", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_dgtsv_batched_strided(h, p%n, p%nrhs, pdl, pd, pdu, p%sdiag, pb, p%ldb, p%sb, pinfo, &
            p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_interleaved_d(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        real(c_double), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        real(c_double), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_interleaved", "interleaved", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), [shape(B, c_int64_t), 1_c_int64_t], size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_dgtsv_batched_interleaved(h, p%n, pdl, pd, pdu, pb, pinfo, p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_spike_c(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(in), target, contiguous :: dl(:), d(:), du(:)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb
        call plan_gtsv("numgpu_gtsv_spike", "spike", [size(dl, kind=c_int64_t), 1_c_int64_t], &
            [size(d, kind=c_int64_t), 1_c_int64_t], [size(du, kind=c_int64_t), 1_c_int64_t], &
            [shape(B, c_int64_t), 1_c_int64_t], 1_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_cgtsv_spike(h, p%n, p%nrhs, pdl, pd, pdu, pb, p%ldb, c_loc(info), pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_strided_c(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_strided", "strided", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_cgtsv_batched_strided(h, p%n, p%nrhs, pdl, pd, pdu, p%sdiag, pb, p%ldb, p%sb, pinfo, &
            p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_interleaved_c(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_float_complex), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        complex(c_float_complex), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_interleaved", "interleaved", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), [shape(B, c_int64_t), 1_c_int64_t], size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_cgtsv_batched_interleaved(h, p%n, pdl, pd, pdu, pb, pinfo, p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_spike_z(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(in), target, contiguous :: dl(:), d(:), du(:)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target :: info
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb
        call plan_gtsv("numgpu_gtsv_spike", "spike", [size(dl, kind=c_int64_t), 1_c_int64_t], &
            [size(d, kind=c_int64_t), 1_c_int64_t], [size(du, kind=c_int64_t), 1_c_int64_t], &
            [shape(B, c_int64_t), 1_c_int64_t], 1_c_int64_t, p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        status = numgpu_zgtsv_spike(h, p%n, p%nrhs, pdl, pd, pdu, pb, p%ldb, c_loc(info), pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_strided_z(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:,:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_strided", "strided", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), shape(B, c_int64_t), size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_zgtsv_batched_strided(h, p%n, p%nrhs, pdl, pd, pdu, p%sdiag, pb, p%ldb, p%sb, pinfo, &
            p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_gtsv_batched_interleaved_z(h, dl, d, du, B, info, pivoting, status, errmsg)
        type(c_ptr), intent(in) :: h
        complex(c_double_complex), intent(in), target, contiguous :: dl(:,:), d(:,:), du(:,:)
        complex(c_double_complex), intent(inout), target, contiguous :: B(:,:)
        integer(c_int32_t), intent(inout), target, contiguous :: info(:)
        integer(c_int32_t), intent(in) :: pivoting
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        type(gtsv_plan) :: p
        type(c_ptr) :: pdl, pd, pdu, pb, pinfo
        call plan_gtsv("numgpu_gtsv_batched_interleaved", "interleaved", shape(dl, c_int64_t), shape(d, c_int64_t), &
            shape(du, c_int64_t), [shape(B, c_int64_t), 1_c_int64_t], size(info, kind=c_int64_t), p, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        pdl = c_null_ptr
        pd = c_null_ptr
        pdu = c_null_ptr
        pb = c_null_ptr
        pinfo = c_null_ptr
        if (size(dl) > 0) pdl = c_loc(dl)
        if (size(d) > 0) pd = c_loc(d)
        if (size(du) > 0) pdu = c_loc(du)
        if (size(B) > 0) pb = c_loc(B)
        if (size(info) > 0) pinfo = c_loc(info)
        status = numgpu_zgtsv_batched_interleaved(h, p%n, pdl, pd, pdu, pb, pinfo, p%batch, pivoting)
        call report(status, errmsg)
    end subroutine

    ! Checks the sizes of one csrmv call: size(col_ind) = size(val) = nnz, m = size(row_ptr) - 1,
    ! and x, y conforming to op(A); n is op(A)'s other dimension. status NUMGPU_INVALID_VALUE
    ! (and errmsg) when they do not conform.
    subroutine plan_csr(trans, nrp, nval, nci, nx, ny, m, n, status, errmsg)
        integer(c_int32_t), intent(in) :: trans
        integer(c_int64_t), intent(in) :: nrp, nval, nci, nx, ny
        integer(c_int64_t), intent(out) :: m, n
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        character(len=256) :: why
        m = max(nrp - 1, 0_c_int64_t)
        why = ""
        if (trans == NUMGPU_OP_N) then
            n = nx
            if (ny /= m) write(why, '(a,i0,a,i0)') "size(y) = ", ny, " must be m = size(row_ptr) - 1 = ", m
        else
            n = ny
            if (nx /= m) write(why, '(a,i0,a,i0)') "size(x) = ", nx, " must be m = size(row_ptr) - 1 = ", m
        end if
        if (nci /= nval) write(why, '(a,i0,a,i0)') "size(col_ind) = ", nci, " must be size(val) = ", nval
        if (nrp < 1) why = "row_ptr must have m + 1 >= 1 entries"
        status = NUMGPU_SUCCESS
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_csrmv: " // trim(why)
        end if
    end subroutine

    subroutine numgpu_csrmv_s(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans, index_base
        real(c_float), intent(in) :: alpha, beta
        real(c_float), intent(in), target, contiguous :: val(:), x(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        real(c_float), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, n
        call plan_csr(trans, size(row_ptr, kind=c_int64_t), size(val, kind=c_int64_t), size(col_ind, kind=c_int64_t), &
            size(x, kind=c_int64_t), size(y, kind=c_int64_t), m, n, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_scsrmv(h, trans, m, n, size(val, kind=c_int64_t), alpha, loc_or_null_s(val), c_loc(row_ptr), &
            loc_or_null_i(col_ind), index_base, loc_or_null_s(x), beta, loc_or_null_s(y))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_csrmv_d(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans, index_base
        real(c_double), intent(in) :: alpha, beta
        real(c_double), intent(in), target, contiguous :: val(:), x(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        real(c_double), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, n
        call plan_csr(trans, size(row_ptr, kind=c_int64_t), size(val, kind=c_int64_t), size(col_ind, kind=c_int64_t), &
            size(x, kind=c_int64_t), size(y, kind=c_int64_t), m, n, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_dcsrmv(h, trans, m, n, size(val, kind=c_int64_t), alpha, loc_or_null_d(val), c_loc(row_ptr), &
            loc_or_null_i(col_ind), index_base, loc_or_null_d(x), beta, loc_or_null_d(y))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_csrmv_c(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans, index_base
        complex(c_float_complex), intent(in) :: alpha, beta
        complex(c_float_complex), intent(in), target, contiguous :: val(:), x(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        complex(c_float_complex), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, n
        call plan_csr(trans, size(row_ptr, kind=c_int64_t), size(val, kind=c_int64_t), size(col_ind, kind=c_int64_t), &
            size(x, kind=c_int64_t), size(y, kind=c_int64_t), m, n, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_ccsrmv(h, trans, m, n, size(val, kind=c_int64_t), alpha, loc_or_null_c(val), c_loc(row_ptr), &
            loc_or_null_i(col_ind), index_base, loc_or_null_c(x), beta, loc_or_null_c(y))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_csrmv_z(h, trans, alpha, val, row_ptr, col_ind, index_base, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int32_t), intent(in) :: trans, index_base
        complex(c_double_complex), intent(in) :: alpha, beta
        complex(c_double_complex), intent(in), target, contiguous :: val(:), x(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        complex(c_double_complex), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: m, n
        call plan_csr(trans, size(row_ptr, kind=c_int64_t), size(val, kind=c_int64_t), size(col_ind, kind=c_int64_t), &
            size(x, kind=c_int64_t), size(y, kind=c_int64_t), m, n, status, errmsg)
        if (status /= NUMGPU_SUCCESS) return
        status = numgpu_zcsrmv(h, trans, m, n, size(val, kind=c_int64_t), alpha, loc_or_null_z(val), c_loc(row_ptr), &
            loc_or_null_i(col_ind), index_base, loc_or_null_z(x), beta, loc_or_null_z(y))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrs_create_s(h, n, val, row_ptr, col_ind, index_base, height, lanes, A, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in) :: n
        real(c_float), intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        integer(c_int32_t), intent(in) :: index_base, height, lanes
        type(c_ptr), intent(inout) :: A
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (size(col_ind) /= size(val) .or. size(row_ptr) < 1) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_cmrs_create: size(col_ind) must be size(val), and row_ptr non-empty"
            return
        end if
        status = numgpu_scmrs_create(h, size(row_ptr, kind=c_int64_t) - 1, n, size(val, kind=c_int64_t), &
            loc_or_null_s(val), c_loc(row_ptr), loc_or_null_i(col_ind), index_base, height, lanes, A)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrs_update_values_s(h, A, val, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        real(c_float), intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_scmrs_update_values(h, A, loc_or_null_s(val))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrsmv_s(h, alpha, A, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        real(c_float), intent(in) :: alpha, beta
        real(c_float), intent(in), target, contiguous :: x(:)
        real(c_float), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_scmrsmv(h, alpha, A, loc_or_null_s(x), beta, loc_or_null_s(y))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrs_create_d(h, n, val, row_ptr, col_ind, index_base, height, lanes, A, status, errmsg)
        type(c_ptr), intent(in) :: h
        integer(c_int64_t), intent(in) :: n
        real(c_double), intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(in), target, contiguous :: row_ptr(:), col_ind(:)
        integer(c_int32_t), intent(in) :: index_base, height, lanes
        type(c_ptr), intent(inout) :: A
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        if (size(col_ind) /= size(val) .or. size(row_ptr) < 1) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_cmrs_create: size(col_ind) must be size(val), and row_ptr non-empty"
            return
        end if
        status = numgpu_dcmrs_create(h, size(row_ptr, kind=c_int64_t) - 1, n, size(val, kind=c_int64_t), &
            loc_or_null_d(val), c_loc(row_ptr), loc_or_null_i(col_ind), index_base, height, lanes, A)
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrs_update_values_d(h, A, val, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        real(c_double), intent(in), target, contiguous :: val(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_dcmrs_update_values(h, A, loc_or_null_d(val))
        call report(status, errmsg)
    end subroutine

    subroutine numgpu_cmrsmv_d(h, alpha, A, x, beta, y, status, errmsg)
        type(c_ptr), intent(in) :: h, A
        real(c_double), intent(in) :: alpha, beta
        real(c_double), intent(in), target, contiguous :: x(:)
        real(c_double), intent(inout), target, contiguous :: y(:)
        integer(c_int32_t), intent(out) :: status
        character(len=*), intent(inout), optional :: errmsg
        status = numgpu_dcmrsmv(h, alpha, A, loc_or_null_d(x), beta, loc_or_null_d(y))
        call report(status, errmsg)
    end subroutine

    ! c_loc of a non-empty array, else c_null_ptr (c_loc of a zero-sized array is not allowed).
    function loc_or_null_s(v) result(p)
        real(c_float), intent(in), target, contiguous :: v(:)
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(v) > 0) p = c_loc(v)
    end function

    ! c_loc of a non-empty array, else c_null_ptr (c_loc of a zero-sized array is not allowed).
    function loc_or_null_d(v) result(p)
        real(c_double), intent(in), target, contiguous :: v(:)
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(v) > 0) p = c_loc(v)
    end function

    ! c_loc of a non-empty array, else c_null_ptr (c_loc of a zero-sized array is not allowed).
    function loc_or_null_c(v) result(p)
        complex(c_float_complex), intent(in), target, contiguous :: v(:)
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(v) > 0) p = c_loc(v)
    end function

    ! c_loc of a non-empty array, else c_null_ptr (c_loc of a zero-sized array is not allowed).
    function loc_or_null_z(v) result(p)
        complex(c_double_complex), intent(in), target, contiguous :: v(:)
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(v) > 0) p = c_loc(v)
    end function

    ! c_loc of a non-empty array, else c_null_ptr (c_loc of a zero-sized array is not allowed).
    function loc_or_null_i(v) result(p)
        integer(c_int32_t), intent(in), target, contiguous :: v(:)
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(v) > 0) p = c_loc(v)
    end function

    subroutine numgpu_rkc_d(h, ode, t0, tend, Y, P, rtol, atol, sys_status, status, opts, state, stats, errmsg)
        type(c_ptr), intent(in) :: h, ode
        real(c_double), intent(in) :: t0, tend, rtol
        real(c_double), intent(inout), target, contiguous :: Y(:,:)
        real(c_double), intent(in), target, contiguous :: P(:,:), atol(:)
        integer(c_int32_t), intent(inout), target, contiguous :: sys_status(:)
        integer(c_int32_t), intent(out) :: status
        type(numgpu_rkc_options), intent(in), target, optional :: opts
        real(c_double), intent(inout), target, contiguous, optional :: state(:,:)
        integer(c_int64_t), intent(inout), target, contiguous, optional :: stats(:,:)
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: nsys
        type(c_ptr) :: py, pp, pa, po, ps, pst, pstats
        character(len=256) :: why

        nsys = size(Y, 2, kind=c_int64_t)
        why = ""
        if (size(sys_status, kind=c_int64_t) /= nsys) then
            write (why, '(a,i0,a,i0)') "size(sys_status) = ", size(sys_status), " must be size(Y, 2) = ", nsys
        else if (size(P) > 0 .and. size(P, 2, kind=c_int64_t) /= nsys) then
            write (why, '(a,i0,a,i0)') "size(P, 2) = ", size(P, 2), " must be size(Y, 2) = ", nsys
        else if (present(state)) then
            if (size(state, 2, kind=c_int64_t) /= nsys .or. size(state, 1) < 6) then
                write (why, '(a,i0,a,i0,a)') "state must have shape (6 + neq, ", nsys, "), not (", size(state, 1), ", ...)"
            end if
        end if
        if (len_trim(why) == 0 .and. present(stats)) then
            if (size(stats, 1) /= 6 .or. size(stats, 2, kind=c_int64_t) /= nsys) &
                write (why, '(a,i0,a)') "stats must have shape (6, ", nsys, ")"
        end if
        if (len_trim(why) > 0) then
            status = NUMGPU_INVALID_VALUE
            if (present(errmsg)) errmsg = "numgpu_rkc: " // trim(why)
            return
        end if
        py = c_null_ptr
        pp = c_null_ptr
        pa = c_null_ptr
        po = c_null_ptr
        ps = c_null_ptr
        pst = c_null_ptr
        pstats = c_null_ptr
        if (size(Y) > 0) py = c_loc(Y)
        if (size(P) > 0) pp = c_loc(P)
        if (size(atol) > 0) pa = c_loc(atol)
        if (size(sys_status) > 0) pst = c_loc(sys_status)
        if (present(opts)) po = c_loc(opts)
        if (present(state)) then
            if (size(state) > 0) ps = c_loc(state)
        end if
        if (present(stats)) then
            if (size(stats) > 0) pstats = c_loc(stats)
        end if
        status = numgpu_rkc_integrate(h, ode, nsys, t0, tend, py, size(Y, 1, kind=c_int64_t), NUMGPU_LAYOUT_SYSTEM_MAJOR, &
            pp, max(1_c_int64_t, size(P, 1, kind=c_int64_t)), rtol, pa, size(atol, kind=c_int64_t), po, ps, pst, pstats)
        call report(status, errmsg)
    end subroutine

end module numgpu
