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

/// Expands `name => generic;` into `fn name(h: &mut Handle)` running `generic::<T>(h)` for
/// the four precisions.
#[macro_export]
macro_rules! all_precisions {
    ($($name:ident => $generic:ident;)*) => {
        $(fn $name(h: &mut numgpu::Handle) {
            $generic::<f32>(h);
            $generic::<f64>(h);
            $generic::<numgpu::Complex32>(h);
            $generic::<numgpu::Complex64>(h);
        })*
    };
}

/// As [`all_precisions`], for the two real precisions.
#[macro_export]
macro_rules! real_precisions {
    ($($name:ident => $generic:ident;)*) => {
        $(fn $name(h: &mut numgpu::Handle) {
            $generic::<f32>(h);
            $generic::<f64>(h);
        })*
    };
}

/// The 1-based position that the C entry point `cfn` reports (`numgpu_last_error_arg`) for
/// the argument `e` names, 0 when it names none: the Rust API names arguments, the C
/// boundary numbers them, and these tests hold the numbers C users see.
pub fn c_position(e: &numgpu::Error, cfn: &str) -> i32 {
    numgpu::ffi::boundary::as_raised_by(cfn, e).1
}
