//! Tier (c): C-ABI contract tests of the handle, memory and gemm argument checks: one bad
//! value per argument gives INVALID_VALUE naming it, and nothing is written.

use numgpu::core::error::numgpu_status as S;
use numgpu::ffi::capi::*;
use numgpu::gemm_batched::capi::*;
use numgpu::Handle;
use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let n = unsafe { numgpu_last_error(buf.as_mut_ptr(), buf.len()) };
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned();
    assert_eq!(n, s.len());
    s
}

fn create(backend: i32) -> Option<*mut Handle> {
    let mut h = null_mut();
    match unsafe { numgpu_create_with(&mut h, backend, 0) } {
        S::NUMGPU_SUCCESS => Some(h),
        S::NUMGPU_BACKEND_UNAVAILABLE if !crate::common::require_cuda() => {
            eprintln!("SKIPPED CUDA contract test: {}", last_error());
            None
        }
        s => panic!("create_with({backend}) = {s:?}: {}", last_error()),
    }
}

#[test]
fn bad_backend_value_names_argument_2() {
    let mut h = null_mut();
    assert_eq!(unsafe { numgpu_create_with(&mut h, 7, 0) }, S::NUMGPU_INVALID_VALUE);
    assert!(h.is_null());
    assert_eq!(numgpu_last_error_arg(), 2);
    assert!(last_error().starts_with("numgpu_create_with: argument 2 (backend = 7)"), "{}", last_error());
    assert_eq!(unsafe { numgpu_create_with(&mut h, 1, -1) }, S::NUMGPU_INVALID_VALUE);
    assert_eq!(numgpu_last_error_arg(), 3);
    assert_eq!(unsafe { numgpu_create_with(null_mut(), 1, 0) }, S::NUMGPU_INVALID_VALUE);
    assert_eq!(numgpu_last_error_arg(), 1);
}

#[test]
fn null_handle_and_status_strings() {
    let s = unsafe { numgpu_sgemm_batched_strided(null_mut(), 0, 0, 1, 1, 1, 1.0, null(), 1, 1, null(), 1, 1, 0.0, null_mut(), 1, 1, 1) };
    assert_eq!(s, S::NUMGPU_INVALID_VALUE);
    assert_eq!(numgpu_last_error_arg(), 1);
    assert_eq!(unsafe { numgpu_destroy(null_mut()) }, S::NUMGPU_SUCCESS);
    assert_eq!(numgpu_last_error_arg(), 0);
    assert_eq!(last_error(), "");
    for code in 0..9 {
        let text = unsafe { CStr::from_ptr(numgpu_status_string(code)) }.to_str().unwrap();
        assert!(text.starts_with("NUMGPU_"), "{text}");
    }
    for code in [-1, 9, 99, i32::MIN] {
        let text = unsafe { CStr::from_ptr(numgpu_status_string(code)) }.to_str().unwrap();
        assert_eq!(text, "unknown numgpu status");
    }
    let v = unsafe { CStr::from_ptr(numgpu_version()) }.to_str().unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
}

#[test]
fn last_error_truncates_and_reports_full_length() {
    let mut h = null_mut();
    unsafe { numgpu_create_with(&mut h, 9, 0) };
    let full = last_error();
    let mut small = [0x55 as c_char; 8];
    let n = unsafe { numgpu_last_error(small.as_mut_ptr(), small.len()) };
    assert_eq!(n, full.len());
    assert_eq!(unsafe { CStr::from_ptr(small.as_ptr()) }.to_str().unwrap(), &full[..7]);
    assert_eq!(unsafe { numgpu_last_error(null_mut(), 0) }, full.len());
}

/// Every argument of the strided form, one bad value at a time, on `backend`.
fn every_gemm_argument_check(backend: i32) {
    let Some(h) = create(backend) else { return };
    let (m, n, k) = (4i64, 3i64, 5i64);
    let a = vec![1.0f32; 64];
    let b = vec![1.0f32; 64];
    let poison = vec![f32::from_bits(0x7fc0_1234); 64];
    // (argument position, call with that argument bad)
    type Call = Box<dyn Fn(*mut f32) -> S>;
    let call = |ta: i32, tb: i32, m: i64, n: i64, k: i64, lda: i64, sa: i64, ldb: i64, sb: i64, ldc: i64, sc: i64, batch: i64, ap: bool, bp: bool| -> Call {
        let (ap, bp) = (if ap { a.as_ptr() } else { null() }, if bp { b.as_ptr() } else { null() });
        let h = h as usize;
        Box::new(move |c| unsafe { numgpu_sgemm_batched_strided(h as *mut Handle, ta, tb, m, n, k, 1.0, ap, lda, sa, bp, ldb, sb, 0.5, c, ldc, sc, batch) })
    };
    let cases: Vec<(i32, Call)> = vec![
        (2, call(3, 0, m, n, k, 4, 20, 5, 15, 4, 12, 2, true, true)),
        (3, call(0, -1, m, n, k, 4, 20, 5, 15, 4, 12, 2, true, true)),
        (4, call(0, 0, -1, n, k, 4, 20, 5, 15, 4, 12, 2, true, true)),
        (5, call(0, 0, m, -1, k, 4, 20, 5, 15, 4, 12, 2, true, true)),
        (6, call(0, 0, m, n, -1, 4, 20, 5, 15, 4, 12, 2, true, true)),
        (9, call(0, 0, m, n, k, 3, 20, 5, 15, 4, 12, 2, true, true)),
        (9, call(1, 0, m, n, k, 4, 20, 5, 15, 4, 12, 2, true, true)), // op(A)=T needs lda >= k = 5
        (10, call(0, 0, m, n, k, 4, 19, 5, 15, 4, 12, 2, true, true)),
        (10, call(0, 0, m, n, k, 4, -1, 5, 15, 4, 12, 2, true, true)),
        (12, call(0, 0, m, n, k, 4, 20, 4, 15, 4, 12, 2, true, true)),
        (13, call(0, 0, m, n, k, 4, 20, 5, 14, 4, 12, 2, true, true)),
        (16, call(0, 0, m, n, k, 4, 20, 5, 15, 3, 12, 2, true, true)),
        (17, call(0, 0, m, n, k, 4, 20, 5, 15, 4, 11, 2, true, true)),
        (17, call(0, 0, m, n, k, 4, 20, 5, 15, 4, 0, 2, true, true)), // C matrices must not overlap
        (18, call(0, 0, m, n, k, 4, 20, 5, 15, 4, 12, -1, true, true)),
        (8, call(0, 0, m, n, k, 4, 20, 5, 15, 4, 12, 2, false, true)),
        (11, call(0, 0, m, n, k, 4, 20, 5, 15, 4, 12, 2, true, false)),
    ];
    for (arg, f) in &cases {
        let mut c = poison.clone();
        assert_eq!(f(c.as_mut_ptr()), S::NUMGPU_INVALID_VALUE, "argument {arg}");
        assert_eq!(numgpu_last_error_arg(), *arg, "{}", last_error());
        assert!(last_error().starts_with(&format!("numgpu_sgemm_batched_strided: argument {arg} ")), "{}", last_error());
        assert!(c.iter().zip(&poison).all(|(x, y)| x.to_bits() == y.to_bits()), "argument {arg}: C was written");
    }
    // NULL C with work to do is argument 15.
    assert_eq!(call(0, 0, m, n, k, 4, 20, 5, 15, 4, 12, 2, true, true)(null_mut()), S::NUMGPU_INVALID_VALUE);
    assert_eq!(numgpu_last_error_arg(), 15);
    // Empty work succeeds and touches nothing, NULL pointers included.
    for (m, n, batch) in [(0, 3, 2), (4, 0, 2), (4, 3, 0)] {
        let s = unsafe { numgpu_sgemm_batched_strided(h, 0, 0, m, n, k, 1.0, null(), 4, 20, null(), 5, 15, 0.5, null_mut(), 4, 12, batch) };
        assert_eq!(s, S::NUMGPU_SUCCESS, "{}", last_error());
    }
    // The pointer-array form's positions, and a NULL entry in a host pointer array.
    let mut c = poison.clone();
    let pa = [a.as_ptr(), a.as_ptr()];
    let pb = [b.as_ptr(), null()];
    let pc = [c.as_mut_ptr(), unsafe { c.as_mut_ptr().add(12) }];
    for (arg, lda, ldb, ldc, batch) in [(9, 3, 5, 4, 2), (11, 4, 4, 4, 2), (14, 4, 5, 3, 2), (15, 4, 5, 4, -1), (10, 4, 5, 4, 2)] {
        let s = unsafe { numgpu_sgemm_batched(h, 0, 0, m, n, k, 1.0, pa.as_ptr(), lda, pb.as_ptr(), ldb, 0.5, pc.as_ptr(), ldc, batch) };
        assert_eq!(s, S::NUMGPU_INVALID_VALUE, "pointer form argument {arg}");
        assert_eq!(numgpu_last_error_arg(), arg, "{}", last_error());
    }
    assert!(last_error().contains("B[1]"), "{}", last_error());
    assert!(c.iter().zip(&poison).all(|(x, y)| x.to_bits() == y.to_bits()), "pointer form: C was written");
    unsafe { numgpu_destroy(h) };
}

#[test]
fn every_gemm_argument_check_cpu() {
    every_gemm_argument_check(1);
}

#[test]
fn every_gemm_argument_check_cuda() {
    every_gemm_argument_check(2);
}

/// Device memory given to the CPU backend, mixed spaces on CUDA, and out-of-memory that
/// leaves the handle usable. Needs a GPU.
#[test]
fn pointer_spaces_and_out_of_memory_cuda() {
    let Some(g) = create(2) else { return };
    let cpu = create(1).unwrap();
    unsafe {
        let mut d: *mut std::ffi::c_void = null_mut();
        assert_eq!(numgpu_malloc(g, &mut d, 64 * 4), S::NUMGPU_SUCCESS);
        let host = vec![1.0f32; 64];
        let mut hc = vec![0.0f32; 64];
        // Device A on the CPU backend.
        let s = numgpu_sgemm_batched_strided(cpu, 0, 0, 4, 4, 4, 1.0, d as *const f32, 4, 16, host.as_ptr(), 4, 16, 0.0, hc.as_mut_ptr(), 4, 16, 1);
        assert_eq!(s, S::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_last_error_arg(), 8);
        assert!(last_error().contains("backend is CPU"), "{}", last_error());
        // Host A with device C on the CUDA backend.
        let s = numgpu_sgemm_batched_strided(g, 0, 0, 4, 4, 4, 1.0, host.as_ptr(), 4, 16, host.as_ptr(), 4, 16, 0.0, d as *mut f32, 4, 16, 1);
        assert_eq!(s, S::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_last_error_arg(), 15);
        assert!(last_error().contains("one space"), "{}", last_error());
        // A host pointer array whose matrices are device memory.
        let pa = [d as *const f32];
        let pc = [hc.as_mut_ptr()];
        let s = numgpu_sgemm_batched(g, 0, 0, 4, 4, 4, 1.0, pa.as_ptr(), 4, pa.as_ptr(), 4, 0.0, pc.as_ptr(), 4, 1);
        assert_eq!(s, S::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_last_error_arg(), 8);
        assert!(last_error().contains("space of its matrices"), "{}", last_error());
        // Out of memory: ALLOC_FAILED with the size, and the handle still works.
        let mut big: *mut std::ffi::c_void = null_mut();
        assert_eq!(numgpu_malloc(g, &mut big, 1usize << 50), S::NUMGPU_ALLOC_FAILED);
        assert!(big.is_null());
        assert!(last_error().contains(&(1usize << 50).to_string()), "{}", last_error());
        let s = numgpu_sgemm_batched_strided(g, 0, 0, 4, 4, 4, 1.0, host.as_ptr(), 4, 16, host.as_ptr(), 4, 16, 0.0, hc.as_mut_ptr(), 4, 16, 1);
        assert_eq!(s, S::NUMGPU_SUCCESS, "{}", last_error());
        assert!(hc[..16].iter().all(|&x| x == 4.0));
        assert_eq!(numgpu_free(g, d), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_synchronize(g), S::NUMGPU_SUCCESS);
        numgpu_destroy(g);
        numgpu_destroy(cpu);
    }
}

#[test]
fn cpu_memory_entry_points_round_trip() {
    let h = create(1).unwrap();
    unsafe {
        let mut backend = -1;
        assert_eq!(numgpu_get_backend(h, &mut backend), S::NUMGPU_SUCCESS);
        assert_eq!(backend, 1);
        let mut p: *mut std::ffi::c_void = null_mut();
        assert_eq!(numgpu_malloc(h, &mut p, 40), S::NUMGPU_SUCCESS);
        assert_eq!(p as usize % 64, 0);
        let src = *b"0123456789012345678901234567890123456789";
        let mut dst = [0u8; 40];
        assert_eq!(numgpu_memcpy(h, p, src.as_ptr() as _, 40), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_memcpy(h, dst.as_mut_ptr() as _, p, 40), S::NUMGPU_SUCCESS);
        assert_eq!(src, dst);
        assert_eq!(numgpu_memcpy(h, null_mut(), p, 40), S::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_last_error_arg(), 2);
        assert_eq!(numgpu_set_stream(h, null_mut()), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_synchronize(h), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_free(h, p), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_destroy(h), S::NUMGPU_SUCCESS);
    }
}

/// `numgpu_get_stream` gives back what `numgpu_set_stream` set (NULL for the default stream,
/// and always on the CPU backend), and `numgpu_backend_name` names every backend value.
#[test]
fn get_stream_and_backend_names() {
    let name = |b: i32| unsafe { CStr::from_ptr(numgpu_backend_name(b)) }.to_str().unwrap().to_string();
    assert_eq!([name(0), name(1), name(2)], ["auto", "cpu", "cuda"]);
    for b in [-1, 3, i32::MAX] {
        assert_eq!(name(b), "unknown numgpu backend");
    }
    let mut stream = 0x10 as *mut std::ffi::c_void;
    assert_eq!(unsafe { numgpu_get_stream(null(), &mut stream) }, S::NUMGPU_INVALID_VALUE);
    assert_eq!((numgpu_last_error_arg(), stream as usize), (1, 0x10));
    let cpu = create(1).unwrap();
    unsafe {
        assert_eq!(numgpu_get_stream(cpu, null_mut()), S::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_last_error_arg(), 2);
        // The CPU backend ignores the stream: NULL whatever was set.
        assert_eq!(numgpu_set_stream(cpu, 0x40 as *mut std::ffi::c_void), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_get_stream(cpu, &mut stream), S::NUMGPU_SUCCESS);
        assert!(stream.is_null());
        let mut backend = -1;
        assert_eq!(numgpu_get_backend(cpu, &mut backend), S::NUMGPU_SUCCESS);
        assert_eq!(name(backend), "cpu");
        numgpu_destroy(cpu);
    }
    let Some(g) = create(2) else { return };
    let ctx = cudarc::driver::CudaContext::new(0).expect("the CUDA handle's device");
    let own = ctx.new_stream().expect("a CUDA stream");
    unsafe {
        assert_eq!(numgpu_get_stream(g, &mut stream), S::NUMGPU_SUCCESS);
        assert!(stream.is_null(), "a new handle is on the default stream");
        assert_eq!(numgpu_set_stream(g, own.cu_stream() as *mut std::ffi::c_void), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_get_stream(g, &mut stream), S::NUMGPU_SUCCESS);
        assert_eq!(stream, own.cu_stream() as *mut std::ffi::c_void);
        assert_eq!(numgpu_set_stream(g, null_mut()), S::NUMGPU_SUCCESS);
        assert_eq!(numgpu_get_stream(g, &mut stream), S::NUMGPU_SUCCESS);
        assert!(stream.is_null());
        let mut backend = -1;
        assert_eq!(numgpu_get_backend(g, &mut backend), S::NUMGPU_SUCCESS);
        assert_eq!(name(backend), "cuda");
        assert_eq!(numgpu_destroy(g), S::NUMGPU_SUCCESS);
    }
}

/// `numgpu_set_math_mode` / `numgpu_get_math_mode` (issue 23): a new handle is in
/// NUMGPU_MATH_DEFAULT, each mode set reads back on both backends, and a value out of range or
/// a NULL pointer is INVALID_VALUE naming it, with the handle's mode unchanged and nothing
/// written.
#[test]
fn math_mode_set_get_and_bad_values() {
    let mut mode = 77;
    assert_eq!(unsafe { numgpu_set_math_mode(null_mut(), 1) }, S::NUMGPU_INVALID_VALUE);
    assert_eq!(numgpu_last_error_arg(), 1);
    assert_eq!(unsafe { numgpu_get_math_mode(null(), &mut mode) }, S::NUMGPU_INVALID_VALUE);
    assert_eq!((numgpu_last_error_arg(), mode), (1, 77));
    for backend in [1, 2] {
        let Some(h) = create(backend) else { continue };
        unsafe {
            assert_eq!(numgpu_get_math_mode(h, &mut mode), S::NUMGPU_SUCCESS);
            assert_eq!(mode, 0, "backend {backend}: a new handle computes exact FP32");
            for m in [1, 2, 0, 2] {
                assert_eq!(numgpu_set_math_mode(h, m), S::NUMGPU_SUCCESS);
                assert_eq!(numgpu_get_math_mode(h, &mut mode), S::NUMGPU_SUCCESS);
                assert_eq!(mode, m);
            }
            for bad in [-1, 3, i32::MIN, i32::MAX] {
                assert_eq!(numgpu_set_math_mode(h, bad), S::NUMGPU_INVALID_VALUE);
                assert_eq!(numgpu_last_error_arg(), 2);
                let msg = last_error();
                assert!(msg.starts_with(&format!("numgpu_set_math_mode: argument 2 (mode = {bad})")), "{msg}");
                assert_eq!(numgpu_get_math_mode(h, &mut mode), S::NUMGPU_SUCCESS);
                assert_eq!(mode, 2, "a rejected value leaves the mode");
            }
            assert_eq!(numgpu_get_math_mode(h, null_mut()), S::NUMGPU_INVALID_VALUE);
            assert_eq!(numgpu_last_error_arg(), 2);
            assert_eq!(numgpu_destroy(h), S::NUMGPU_SUCCESS);
        }
    }
}
