//! Seeded generators, the random data drawn from them, and the poison of outputs. Three
//! generators, each kept bit for bit because the suites' inputs (verified on the GPUs) come
//! from them:
//! - [`rng`], ChaCha8 (through `rand`): vectors, dense matrices, tensors, sparse patterns;
//! - [`Xorshift`], xorshift64*: the tridiagonal systems, which reach 2^20 unknowns in
//!   unoptimised test builds, where it is many times faster than ChaCha;
//! - [`SplitMix`], SplitMix64, and its counter-based form [`fill_random`]: the sparse
//!   benchmark suite, and large inputs filled in parallel (the tour, numgpu-bench).

use crate::{Complex64, Scalar};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// The poison of integer outputs (pivots, info, status): no routine writes it, so an entry
/// that still holds it was not written.
pub const POISON: i32 = -7;

/// `re + i·im` as T (the imaginary part dropped for real types).
pub fn c<T: Scalar>(re: f64, im: f64) -> T {
    T::from_c64(Complex64::new(re, im))
}

/// NaN in every part: the poison of floating-point outputs, and the filling of what no
/// routine may read (padding, gaps, unreferenced entries).
pub fn nan<T: Scalar>() -> T {
    c(f64::NAN, f64::NAN)
}

/// The default generator: ChaCha8 seeded with `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `len` values uniform in [-1, 1) (both parts for complex types), times `scale`.
pub fn random<T: Scalar>(r: &mut ChaCha8Rng, len: usize, scale: f64) -> Vec<T> {
    (0..len)
        .map(|_| {
            let re = r.gen_range(-1.0..1.0) * scale;
            let im = if T::IS_COMPLEX { r.gen_range(-1.0..1.0) * scale } else { 0.0 };
            c(re, im)
        })
        .collect()
}

/// `v` rounded to T (and back).
pub fn round<T: Scalar>(v: Complex64) -> Complex64 {
    T::from_c64(v).to_c64()
}

/// xorshift64*, seeded.
pub struct Xorshift(u64);

impl Xorshift {
    /// The generator of `seed` (any value: the state is made odd, never zero).
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 * (2.0 / (1u64 << 53) as f64) - 1.0
    }

    /// `len` values uniform in [-1, 1) (both parts for complex T), rounded to T.
    pub fn uniform<T: Scalar>(&mut self, len: usize) -> Vec<Complex64> {
        (0..len).map(|_| round::<T>(Complex64::new(self.signed(), if T::IS_COMPLEX { self.signed() } else { 0.0 }))).collect()
    }
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output for the state `x` (the state advanced by the golden ratio, then
/// mixed): a counter-based generator, so that entries can be drawn in any order.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 as a sequence, seeded.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed ^ GOLDEN)
    }
    /// The next output, uniform over u64.
    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN);
        out
    }
    /// Uniform in [0, n).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }
}

/// Uniform in [-1, 1) from a SplitMix64 output, never exactly 0 (so that no input is zero
/// by accident).
fn nonzero_unit(x: u64) -> f64 {
    let u = (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * 2.0 - 1.0;
    if u == 0.0 {
        0.5
    } else {
        u
    }
}

/// Fills `v` with random entries (real and imaginary parts uniform in [-1, 1), never zero)
/// that depend only on `seed` and the index, in parallel.
pub fn fill_random<T: Scalar>(v: &mut [T], seed: u64) {
    const CHUNK: usize = 1 << 16;
    v.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, chunk)| {
        let base = splitmix(seed ^ splitmix(ci as u64));
        for (j, x) in chunk.iter_mut().enumerate() {
            let (re, im) = (splitmix(base.wrapping_add(2 * j as u64)), splitmix(base.wrapping_add(2 * j as u64 + 1)));
            *x = c(nonzero_unit(re), nonzero_unit(im));
        }
    });
}

/// `len` entries of [`fill_random`].
pub fn filled<T: Scalar>(len: usize, seed: u64) -> Vec<T> {
    let mut v = vec![T::zero(); len];
    fill_random(&mut v, seed);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_sequence_is_the_counter_form() {
        let mut s = SplitMix::new(42);
        let state = 42 ^ GOLDEN;
        for k in 0..4u64 {
            assert_eq!(s.next_u64(), splitmix(state.wrapping_add(k.wrapping_mul(GOLDEN))));
        }
    }

    #[test]
    fn fill_random_depends_on_the_seed_only_and_is_never_zero() {
        let (a, b) = (filled::<f64>(200_000, 7), filled::<f64>(200_000, 7));
        assert_eq!(a, b);
        assert_ne!(a, filled::<f64>(200_000, 8));
        assert!(a.iter().all(|&x| x != 0.0 && (-1.0..1.0).contains(&x)));
    }
}
