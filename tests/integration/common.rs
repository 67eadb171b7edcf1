//! Shared test machinery: the backends to run on, seeded random data, norms.

use numgpu::{BackendChoice, Complex64, Handle, Scalar};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Uniform in [-1, 1) (both parts for complex types), times `scale`.
pub fn random<T: Scalar>(r: &mut ChaCha8Rng, len: usize, scale: f64) -> Vec<T> {
    (0..len)
        .map(|_| {
            let re = r.gen_range(-1.0..1.0) * scale;
            let im = if T::IS_COMPLEX { r.gen_range(-1.0..1.0) * scale } else { 0.0 };
            T::from_c64(Complex64::new(re, im))
        })
        .collect()
}

/// Bitwise-style equality that treats NaN as equal to NaN (for "unchanged" checks).
pub fn same<T: Scalar>(x: T, y: T) -> bool {
    let (a, b) = (x.to_c64(), y.to_c64());
    let eq = |p: f64, q: f64| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan());
    eq(a.re, b.re) && eq(a.im, b.im)
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

/// The 1-based position that the C entry point `cfn` reports (`numgpu_last_error_arg`) for
/// the argument `e` names, 0 when it names none: the Rust API names arguments, the C
/// boundary numbers them, and these tests hold the numbers C users see.
pub fn c_position(e: &numgpu::Error, cfn: &str) -> i32 {
    numgpu::ffi::boundary::as_raised_by(cfn, e).1
}
