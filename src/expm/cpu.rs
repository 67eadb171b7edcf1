//! CPU backend: per problem under rayon, BLAS single-threaded inside. expm_eig scales E's
//! columns by exp(λ_k·t) and multiplies by E⁻¹ with `?gemm`; expm evaluates the Padé
//! approximant with `?gemm` and solves with `?gesv` (see the module docs for k and s).

use super::{choose, is_double, pade_coefficients, scaling_from_norm, Expm, ExpmEig, INFO_NONFINITE, INFO_OVERFLOW, INFO_SINGULAR};
use crate::core::{Result, Scalar};
use crate::lapack::{single_threaded_blas, Blas, CBLAS_NO_TRANS};
use num_traits::Float;
use rayon::prelude::*;
use std::ffi::c_int;

/// Problems per rayon task: about 64K multiply-adds each.
fn per_task(m: usize) -> usize {
    (65536 / (m * m * m).max(1)).max(1)
}

/// exp(λ·t) rounded from double precision (complex λ: e^{Re}·(cos Im, sin Im)).
pub fn exp_scaled<T: Scalar>(lambda: T, t: T::Real) -> T {
    let t: f64 = t.into();
    T::from_c64((lambda.to_c64() * t).exp())
}

/// `c ← a·b` for compact m × m matrices.
///
/// # Safety
/// Each slice holds m·m elements; m fits `c_int`.
unsafe fn mul<T: Blas>(m: usize, a: &[T], b: &[T], c: &mut [T]) {
    let mi = m as c_int;
    T::gemm(CBLAS_NO_TRANS, CBLAS_NO_TRANS, mi, mi, mi, T::one(), a.as_ptr(), mi, b.as_ptr(), mi, T::zero(), c.as_mut_ptr(), mi);
}

pub fn expm_eig<T: Blas>(c: &ExpmEig<T>) -> Result<()> {
    let m = c.m;
    if m > c_int::MAX as usize || c.ldei > c_int::MAX as usize || c.ldp > c_int::MAX as usize {
        return Err(crate::core::Error::not_supported(format!("m = {m}, ldei or ldp exceeds BLAS's 32-bit integers")));
    }
    single_threaded_blas();
    (0..c.batch).into_par_iter().with_min_len(per_task(m)).for_each_init(
        || vec![T::zero(); m * m],
        |f, i| {
            // SAFETY: a validated call on host memory; task i writes P_i only.
            unsafe {
                let (e, l) = (c.e.add(i * c.stride_e), c.lambda.add(i * c.stride_l));
                let t = *c.t.add(i);
                for k in 0..m {
                    let d = exp_scaled(*l.add(k), t);
                    for r in 0..m {
                        f[r + k * m] = *e.add(r + k * c.lde) * d;
                    }
                }
                let mi = m as c_int;
                T::gemm(CBLAS_NO_TRANS, CBLAS_NO_TRANS, mi, mi, mi, T::one(), f.as_ptr(), mi, c.einv.add(i * c.stride_einv), c.ldei as c_int, T::zero(), c.p.add(i * c.stride_p), c.ldp as c_int);
            }
        },
    );
    Ok(())
}

/// The 1-norm (largest column sum of moduli) of a compact m × m matrix, in double; NaN
/// entries make it +Inf (a power that overflowed into Inf − Inf).
fn norm1<T: Scalar>(m: usize, a: &[T]) -> f64 {
    let mut best = 0.0f64;
    for col in a.chunks(m) {
        let s: f64 = col.iter().map(|&x| x.abs().into()).sum();
        best = if s.is_nan() { f64::INFINITY } else { best.max(s) };
    }
    best
}

/// A double as T's real type (rounded).
fn real<T: Scalar>(x: f64) -> T::Real {
    T::from_c64(num_complex::Complex64::new(x, 0.0)).re()
}

/// `2^e·x`, exact unless it underflows or overflows.
fn ldexp<T: Scalar>(x: T, e: i32) -> T {
    let f = |r: T::Real| -> T::Real {
        let v: f64 = r.into();
        // Through f64: exact for the f32 and f64 values scaled here (|e| < 1100: two steps).
        let (h, l) = (e / 2, e - e / 2);
        real::<T>(v * 2f64.powi(h) * 2f64.powi(l))
    };
    T::from_parts(f(x.re()), f(x.im()))
}

/// Work matrices of one problem, reused by the problems of a task.
struct Work<T> {
    a: Vec<T>,
    a2: Vec<T>,
    a4: Vec<T>,
    a6: Vec<T>,
    u: Vec<T>,
    v: Vec<T>,
    w: Vec<T>,
    ipiv: Vec<c_int>,
}

impl<T: Scalar> Work<T> {
    fn new(m: usize) -> Self {
        let z = vec![T::zero(); m * m];
        Work { a: z.clone(), a2: z.clone(), a4: z.clone(), a6: z.clone(), u: z.clone(), v: z.clone(), w: z, ipiv: vec![0; m] }
    }
}

/// exp(A) of the compact m × m matrix in `w.a`, left in `w.u`; returns info.
///
/// # Safety
/// m fits `c_int`.
unsafe fn pade<T: Blas>(m: usize, w: &mut Work<T>) -> i32 {
    if w.a.iter().any(|x| !x.is_finite()) {
        return INFO_NONFINITE;
    }
    let double = is_double::<T>();
    let powers = |w: &mut Work<T>| {
        mul(m, &w.a, &w.a, &mut w.a2);
        mul(m, &w.a2, &w.a2, &mut w.a4);
        mul(m, &w.a4, &w.a2, &mut w.a6);
    };
    powers(w);
    let (k, s) = match choose(norm1(m, &w.a2), norm1(m, &w.a4), norm1(m, &w.a6), double) {
        Some((k, s)) => {
            // 2^{−s}·A and its powers (exact scalings).
            for (mat, p) in [(&mut w.a, 1), (&mut w.a2, 2), (&mut w.a4, 4), (&mut w.a6, 6)] {
                if s > 0 {
                    mat.iter_mut().for_each(|x| *x = ldexp(*x, -s * p));
                }
            }
            (k, s)
        }
        None => {
            let (k, s) = scaling_from_norm(norm1(m, &w.a), double);
            w.a.iter_mut().for_each(|x| *x = ldexp(*x, -s));
            powers(w);
            (k, s)
        }
    };
    let b: Vec<T> = pade_coefficients(k).iter().map(|&c| T::from_real(real::<T>(c))).collect();
    let coef = |j: usize| if j < b.len() { b[j] } else { T::zero() };
    // Z and V's polynomial parts: terms up to A⁶ (for k = 13, A⁶·(…) added below).
    let lin = |c0: T, c2: T, c4: T, c6: T, w: &Work<T>, out: &mut [T]| {
        for (e, o) in out.iter_mut().enumerate() {
            let id = if e % (m + 1) == 0 { c0 } else { T::zero() };
            *o = id + c2 * w.a2[e] + c4 * w.a4[e] + c6 * w.a6[e];
        }
    };
    let (mut z, mut v) = (std::mem::take(&mut w.w), std::mem::take(&mut w.v));
    if k == 13 {
        let mut x = std::mem::take(&mut w.u);
        lin(T::zero(), coef(9), coef(11), coef(13), w, &mut x);
        mul(m, &w.a6, &x, &mut z);
        lin(T::zero(), coef(8), coef(10), coef(12), w, &mut x);
        mul(m, &w.a6, &x, &mut v);
        w.u = x;
    } else {
        z.iter_mut().chain(v.iter_mut()).for_each(|x| *x = T::zero());
    }
    let mut tmp = vec![T::zero(); m * m];
    lin(coef(1), coef(3), coef(5), coef(7), w, &mut tmp);
    z.iter_mut().zip(&tmp).for_each(|(a, b)| *a = *a + *b);
    lin(coef(0), coef(2), coef(4), coef(6), w, &mut tmp);
    v.iter_mut().zip(&tmp).for_each(|(a, b)| *a = *a + *b);
    let mut u = std::mem::take(&mut w.u);
    mul(m, &w.a, &z, &mut u);
    // (V − U)·X = V + U: X into u, V − U into z.
    for e in 0..m * m {
        let (ue, ve) = (u[e], v[e]);
        z[e] = ve - ue;
        u[e] = ve + ue;
    }
    let mi = m as c_int;
    let info = T::gesv(mi, mi, z.as_mut_ptr(), mi, w.ipiv.as_mut_ptr(), u.as_mut_ptr(), mi);
    (w.w, w.v) = (z, v);
    if info != 0 {
        w.u = u;
        return INFO_SINGULAR;
    }
    for _ in 0..s {
        mul(m, &u, &u, &mut tmp);
        std::mem::swap(&mut u, &mut tmp);
    }
    let overflow = u.iter().any(|x| !x.is_finite());
    w.u = u;
    if overflow {
        INFO_OVERFLOW
    } else {
        0
    }
}

pub fn expm<T: Blas>(x: &Expm<T>) -> Result<()> {
    let m = x.m;
    single_threaded_blas();
    (0..x.batch).into_par_iter().with_min_len(per_task(m)).for_each_init(
        || Work::<T>::new(m),
        |w, i| {
            // SAFETY: a validated call on host memory (m fits c_int); task i writes E_i and
            // info_i only.
            unsafe {
                let a = x.a.add(i * x.stride_a);
                for c in 0..m {
                    for r in 0..m {
                        w.a[r + c * m] = *a.add(r + c * x.lda);
                    }
                }
                let info = pade(m, w);
                let e = x.e.add(i * x.stride_e);
                let nan = T::from_parts(T::Real::nan(), T::Real::nan());
                for c in 0..m {
                    for r in 0..m {
                        *e.add(r + c * x.lde) = if info == INFO_NONFINITE || info == INFO_SINGULAR { nan } else { w.u[r + c * m] };
                    }
                }
                *x.info.add(i) = info;
            }
        },
    );
    Ok(())
}
