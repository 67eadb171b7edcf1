//! The test harness: the backends to run on, and the macros that expand one generic check
//! into a test per backend and a call per precision. What the checks compare against (data,
//! references, ratios, tolerances) is the oracle, `numgpu::testing`.

use numgpu::{BackendChoice, Handle};

/// Whether the CUDA tests must run (a GPU host): then a missing device fails them.
pub fn require_cuda() -> bool {
    std::env::var("NUMGPU_REQUIRE_CUDA").as_deref() == Ok("1")
}

/// A handle on `backend`, or `None` (after saying why) when CUDA is not available here.
pub fn handle(backend: BackendChoice) -> Option<Handle> {
    match Handle::new(backend, 0) {
        Ok(h) => Some(h),
        Err(e) if backend == BackendChoice::Cuda && !require_cuda() => {
            eprintln!("SKIPPED CUDA test: {} (set NUMGPU_REQUIRE_CUDA=1 to make this a failure)", e.msg);
            None
        }
        Err(e) => panic!("no {backend:?} handle: {e}"),
    }
}

/// Expands a generic check `fn(&mut Handle)` into one test per backend, named
/// `<name>_cpu` and `<name>_cuda`.
#[macro_export]
macro_rules! on_every_backend {
    ($($name:ident => $check:path;)*) => {
        mod cpu {
            $(#[test] fn $name() { let mut h = numgpu::Handle::cpu(); $check(&mut h); })*
        }
        mod cuda {
            $(#[test] fn $name() {
                if let Some(mut h) = $crate::common::handle(numgpu::BackendChoice::Cuda) {
                    $check(&mut h);
                    h.synchronize().expect("no asynchronous error after the test");
                }
            })*
        }
    };
}

/// Whether the precision of `letter` (s, d, c, z) runs: every one, unless
/// `NUMGPU_TEST_PRECISIONS` lists some (`d,z`), so that a long test can run as one process per
/// precision (the sanitizer scripts do).
pub fn precision_wanted(letter: char) -> bool {
    std::env::var("NUMGPU_TEST_PRECISIONS").map_or(true, |list| list.split(',').any(|p| p.trim().starts_with(letter)))
}

/// Whether the tests run under compute-sanitizer (`NUMGPU_UNDER_SANITIZER` set): every launch
/// costs seconds there, so the longest tests check fewer sizes (see [`sizes_per_path`]).
pub fn under_sanitizer() -> bool {
    std::env::var_os("NUMGPU_UNDER_SANITIZER").is_some()
}

/// `sizes`, or under a sanitizer the first and last of each run of consecutive sizes that take
/// the same kernel path (`path` names it): the same code, synchronisation and shared-memory
/// layouts are checked with a few launches instead of every size.
pub fn sizes_per_path<S: Copy, P: PartialEq>(sizes: &[S], path: impl Fn(S) -> P) -> Vec<S> {
    if !under_sanitizer() {
        return sizes.to_vec();
    }
    let paths: Vec<P> = sizes.iter().map(|&s| path(s)).collect();
    let edge = |i: usize| i == 0 || i + 1 == sizes.len() || paths[i - 1] != paths[i] || paths[i + 1] != paths[i];
    (0..sizes.len()).filter(|&i| edge(i)).map(|i| sizes[i]).collect()
}

/// The opt-in shared memory per block of the H100 (227 KiB): the kernel paths the sanitizer
/// subsets pick are those of this limit.
pub const SMEM_OPTIN: usize = 227 << 10;

/// Expands `name => generic;` into `fn name(h: &mut Handle)` running `generic::<T>(h)` for
/// the four precisions (those [`precision_wanted`]).
#[macro_export]
macro_rules! all_precisions {
    ($($name:ident => $generic:ident;)*) => {
        $(fn $name(h: &mut numgpu::Handle) {
            $crate::for_precisions!(h, $generic, f32, f64, numgpu::Complex32, numgpu::Complex64);
        })*
    };
}

/// As [`all_precisions`], for the two real precisions.
#[macro_export]
macro_rules! real_precisions {
    ($($name:ident => $generic:ident;)*) => {
        $(fn $name(h: &mut numgpu::Handle) {
            $crate::for_precisions!(h, $generic, f32, f64);
        })*
    };
}

/// Runs `generic::<T>(h)` for each type whose precision is wanted.
#[macro_export]
macro_rules! for_precisions {
    ($h:ident, $generic:ident, $($t:ty),*) => {
        $(if $crate::common::precision_wanted(<$t as numgpu::Scalar>::LETTER) {
            $generic::<$t>($h);
        })*
    };
}

/// The 1-based position that the C entry point `cfn` reports (`numgpu_last_error_arg`) for
/// the argument `e` names, 0 when it names none: the Rust API names arguments, the C
/// boundary numbers them, and these tests hold the numbers C users see.
pub fn c_position(e: &numgpu::Error, cfn: &str) -> i32 {
    numgpu::ffi::boundary::as_raised_by(cfn, e).1
}
