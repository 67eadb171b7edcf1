//! gemm_batched: per precision, batches of n×n products (n = 8, 32, 128) in both forms, the
//! pointer-array form with transposed operands; C = α·op(A)·op(B) + β·C with β ≠ 0 (C read).
//! err/cpu and err/ref: the oracle's gemm ratio (`numgpu::testing::gemm`) against the CPU
//! backend (every matrix) and against the double-precision reference (a sample).

use crate::{measure, op_char, sample, seed_of, Form, Row, Rows};
use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::lapack::Blas;
use numgpu::testing::gemm::Gemm;
use numgpu::testing::gen::{c, filled};
use numgpu::testing::norm::{c64s, nan_max};
use numgpu::{Handle, Op};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "gemm: ‖ΔC‖_F/((k+2)(|α|‖A‖_F‖B‖_F + |β|‖C₀‖_F)ε) vs the CPU backend, and vs the double-precision reference (a sample)";

/// One form of `?gemm_batched` for one precision: batch × (n×n)·(n×n), ops (ta, tb).
fn case<T: Blas>(h: &mut Handle, form: Form, ta: Op, tb: Op, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let e = n * n;
    let (a, b, c0) = (filled::<T>(batch * e, seed), filled::<T>(batch * e, seed + 1), filled::<T>(batch * e, seed + 2));
    // alpha = 1 (1 − i/2 for complex types), beta = 0.5.
    let (alpha, beta) = (c::<T>(1.0, -0.5), c::<T>(0.5, 0.0));
    let (ni, si, bi) = (n as i64, e as i64, batch as i64);
    let (cs, secs, cref) = measure(
        h,
        || c0.clone(),
        |h, c| match form {
            Form::Strided => gemm_batched_strided(h, ta, tb, ni, ni, ni, alpha, &a, ni, si, &b, ni, si, beta, c, ni, si, bi),
            Form::PointerArray => {
                let (pa, pb): (Vec<*const T>, Vec<*const T>) = (0..batch).rev().map(|i| (a[i * e..].as_ptr(), b[i * e..].as_ptr())).unzip();
                let base = c.as_mut_ptr();
                // SAFETY: each pointer is to a distinct n×n matrix inside c.
                let pc: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { base.add(i * e) }).collect();
                // SAFETY: the arrays hold `batch` pointers to n×n matrices (ld = n) in host memory.
                unsafe { gemm_batched(h, ta, tb, ni, ni, ni, alpha, Batch::Array(pa.as_ptr()), ni, Batch::Array(pb.as_ptr()), ni, beta, Batch::Array(pc.as_ptr()), ni, bi) }
            }
        },
    )?;
    let product = |i: usize| Gemm { ta, tb, m: n, n, k: n, alpha, a: &a[i * e..], lda: n, b: &b[i * e..], ldb: n, beta, c0: &c0[i * e..], ldc: n };
    let err_cpu = (0..batch).map(|i| product(i).ratio_to(&cs[i * e..], &c64s(&cref[i * e..(i + 1) * e]))).fold(0.0, nan_max);
    let err_ref = sample(batch).map(|i| product(i).ratio(&cs[i * e..])).fold(0.0, nan_max);
    let name = if form == Form::Strided { "gemm_batched_strided" } else { "gemm_batched" };
    Ok(Row {
        routine: format!("{}{name} {}{}", T::LETTER, op_char(ta), op_char(tb)),
        size: format!("{n}x{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * (n * n * n) as f64 * if T::IS_COMPLEX { 8.0 } else { 2.0 },
        err_cpu,
        err_ref,
        ..Row::default()
    })
}

/// Every case of one precision: three size classes, both forms.
fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    for (n, batch) in [(8, 10_000), (32, 2_000), (128, 200)] {
        let seed = seed_of::<T>(1) | (n as u64) << 8;
        rows.push(case::<T>(h, Form::Strided, Op::N, Op::N, n, batch, seed));
        rows.push(case::<T>(h, Form::PointerArray, Op::T, Op::C, n, batch, seed + 4));
    }
}

rows_in_every_precision!(all);
