//! geqrf_givens: per precision, a batch of tall 40×32 random matrices through geqrf in both
//! forms, ormqr/unmqr (side L and R, trans N and T or C) and orgqr/ungqr with its factors, and
//! gels, full rank (strided) and with singular problems (pointer arrays; every fourth problem
//! has column 3 exactly zero: info = 3, B unchanged). The measures are the oracle's
//! (`numgpu::testing::qr`): geqrf's R and Q (rebuilt in double from the stored rotations)
//! against the CPU backend's up to the unit diagonal that may tell them apart, and on a sample
//! ‖a_j − Q·r_j‖₂ / (m·‖a_j‖₂·ε) and R against LAPACK `?geqrf`'s; ormqr ‖ΔC‖_F /
//! (m·‖C₀‖_F·ε) against the CPU backend and against op(Q)·C₀ in double; orgqr max |ΔQ| / (m·ε)
//! against the CPU backend, and against the rebuilt Q and ‖I − QᴴQ‖₁ / (m·ε); gels
//! ‖A·(x − x_cpu)‖₂ / (m·‖A‖_F·‖x‖₂·ε) and the optimality ratio, info identical to the CPU
//! backend's and the expected one. Rates at LAPACK's Householder counts.

use crate::{cflops, measure, sample, seed_of, Form, Row, Rows};
use numgpu::core::batch::Batch;
use numgpu::geqrf_givens::{gels, gels_strided, geqrf, geqrf_strided, orgqr_strided, ormqr_strided};
use numgpu::lapack::Blas;
use numgpu::testing::gen::filled;
use numgpu::testing::norm::{c64s, nan_max, norm_inf};
use numgpu::testing::qr::{apply_q, apply_ratio, gels_distance, gels_ratio, givens_q, lapack_geqrf, orthogonality_ratio, residual_ratio, RCompare};
use numgpu::{Complex64, Handle, Op, Scalar, Side};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "geqrf_givens: R and Q(:, 1:n) vs the CPU backend's (up to a unit diagonal, over mκ̂ε), and ‖a_j − Qr_j‖/(m‖a_j‖ε) (Q rebuilt in double) and R vs LAPACK ?geqrf (a sample); ormqr/unmqr, orgqr/ungqr: vs the CPU backend and Q rebuilt in double (+ ‖I − QᴴQ‖); gels: ‖A(x − x_cpu)‖ and ‖Aᴴ(b − Ax)‖ ratios; ≠cpu: problems whose info differs from the CPU backend's or the expected one, or whose B changed with info ≠ 0; GFLOP/s at LAPACK's Householder counts";

const M: usize = 40;
const N: usize = 32;
const BATCH: usize = 500;
const E: usize = M * N;

/// `?geqrf`'s count for m×n, m >= n: 2mn² − 2n³/3.
fn qr_flops<T: Scalar>() -> f64 {
    let (m, n) = (M as f64, N as f64);
    cflops::<T>(2.0 * m * n * n - 2.0 * n * n * n / 3.0)
}

/// Givens QR factors of the batch: A (R and the sines) and CS (the cosines), m×n each.
#[derive(Clone)]
struct Factors<T: Scalar> {
    f: Vec<T>,
    cs: Vec<T::Real>,
}

impl<T: Scalar> Factors<T> {
    /// Matrix i's Q(:, 1:cols), rebuilt in double from its rotations.
    fn q(&self, i: usize, cols: usize) -> Vec<Complex64> {
        givens_q(&self.f[i * E..], M, &self.cs[i * E..], M, M, N, cols)
    }
}

/// (err/cpu, err/ref) of matrix i's factors `ours` and the CPU backend's, `reference`: against
/// the references too.
fn errors<T: Blas>(a: &[T], ours: &Factors<T>, cpu: &Factors<T>, i: usize, reference: bool) -> (f64, f64) {
    let (ai, f, fc) = (c64s(&a[i * E..(i + 1) * E]), c64s(&ours.f[i * E..(i + 1) * E]), c64s(&cpu.f[i * E..(i + 1) * E]));
    let q = ours.q(i, N);
    let to_cpu = RCompare::new(&ai, &f, &fc, M, N);
    let err_cpu = nan_max(to_cpu.r_ratio::<T>(&f, &fc, M), to_cpu.q_ratio::<T>(&q, &cpu.q(i, N), M));
    if !reference {
        return (err_cpu, 0.0);
    }
    let Some(l) = lapack_geqrf(&a[i * E..], M, N).map(|l| c64s(&l)) else { return (err_cpu, f64::INFINITY) };
    (err_cpu, nan_max(residual_ratio::<T>(&ai, &f, &q, M, N), RCompare::new(&ai, &f, &l, M, N).r_ratio::<T>(&f, &l, M)))
}

/// `?geqrf_givens_batched[_strided]`; the row and the factors, which the rows below reuse.
fn geqrf_case<T: Blas>(h: &mut Handle, form: Form, a: &[T]) -> Result<(Row, Factors<T>), String> {
    let (ml, nl, el, bl) = (M as i64, N as i64, E as i64, BATCH as i64);
    let input = || Factors { f: a.to_vec(), cs: vec![T::Real::default(); BATCH * E] };
    let (ours, secs, cpu) = measure(h, input, |h, r| match form {
        Form::Strided => geqrf_strided(h, ml, nl, &mut r.f, ml, el, &mut r.cs, ml, el, bl),
        Form::PointerArray => {
            let (pf, pc) = (r.f.as_mut_ptr(), r.cs.as_mut_ptr());
            // SAFETY: distinct m×n matrices inside f and cs.
            let (pa, pcs): (Vec<*mut T>, Vec<*mut T::Real>) = (0..BATCH).rev().map(|i| unsafe { (pf.add(i * E), pc.add(i * E)) }).unzip();
            // SAFETY: the arrays hold `batch` pointers to m×n matrices (ld = m) in host memory.
            unsafe { geqrf(h, ml, nl, Batch::Array(pa.as_ptr()), ml, Batch::Array(pcs.as_ptr()), ml, bl) }
        }
    })?;
    let sampled: Vec<usize> = sample(BATCH).collect();
    let (err_cpu, err_ref) = (0..BATCH).map(|i| errors(a, &ours, &cpu, i, sampled.contains(&i))).fold((0.0, 0.0), |w, e| (nan_max(w.0, e.0), nan_max(w.1, e.1)));
    let name = if form == Form::Strided { "geqrf_givens_batched_strided" } else { "geqrf_givens_batched" };
    let row = Row { routine: format!("{}{name}", T::LETTER), size: format!("{M}x{N}"), batch: BATCH, secs, flops: BATCH as f64 * qr_flops::<T>(), err_cpu, err_ref, ..Row::default() };
    Ok((row, ours))
}

/// `?ormqr_givens_batched_strided` / `?unmqr_…`, one side and trans, with the factors `qr`
/// (k = n): C is m×8 (Left) or 8×m (Right).
fn ormqr_case<T: Blas>(h: &mut Handle, side: Side, trans: Op, qr: &Factors<T>, seed: u64) -> Result<Row, String> {
    let nc = 8;
    let (cm, cn) = if side == Side::Left { (M, nc) } else { (nc, M) };
    let ec = cm * cn;
    let c0 = filled::<T>(BATCH * ec, seed);
    let (ml, el) = (M as i64, E as i64);
    let (c, secs, cc) = measure(h, || c0.clone(), |h, c| ormqr_strided(h, side, trans, cm as i64, cn as i64, N as i64, &qr.f, ml, el, &qr.cs, ml, el, c, cm as i64, ec as i64, BATCH as i64))?;
    let part = |v: &[T], i: usize| c64s(&v[i * ec..(i + 1) * ec]);
    let err_cpu = (0..BATCH).map(|i| apply_ratio::<T>(&part(&c, i), &part(&cc, i), &part(&c0, i), M)).fold(0.0, nan_max);
    let err_ref = sample(BATCH).map(|i| apply_ratio::<T>(&part(&c, i), &apply_q(&qr.q(i, M), M, side, trans, &part(&c0, i), cm, cn), &part(&c0, i), M)).fold(0.0, nan_max);
    // LAPACK's ?ormqr count: 4·m·n·k − 2·(n for Left, m for Right)·k².
    let (k, other) = (N as f64, if side == Side::Left { cn } else { cm } as f64);
    let (routine, t) = if T::IS_COMPLEX { ("unmqr", 'C') } else { ("ormqr", 'T') };
    Ok(Row {
        routine: format!("{}{routine}_givens_batched_strided {}{}", T::LETTER, if side == Side::Left { 'L' } else { 'R' }, if trans == Op::N { 'N' } else { t }),
        size: format!("{cm}x{cn}, k={N}"),
        batch: BATCH,
        secs,
        flops: BATCH as f64 * cflops::<T>(4.0 * ec as f64 * k - 2.0 * other * k * k),
        err_cpu,
        err_ref,
        ..Row::default()
    })
}

/// `?orgqr_givens_batched_strided` / `?ungqr_…`: the first n columns of Q from the factors
/// `qr` (k = n).
fn orgqr_case<T: Blas>(h: &mut Handle, qr: &Factors<T>) -> Result<Row, String> {
    let (ml, nl, el) = (M as i64, N as i64, E as i64);
    let (q, secs, qc) = measure(h, || qr.f.clone(), |h, q| orgqr_strided(h, ml, nl, nl, q, ml, el, &qr.cs, ml, el, BATCH as i64))?;
    let unit = M as f64 * T::EPS;
    let dist = |x: &[Complex64], y: &[Complex64]| norm_inf(&x.iter().zip(y).map(|(p, q)| p - q).collect::<Vec<_>>()) / unit;
    let err_cpu = (0..BATCH).map(|i| dist(&c64s(&q[i * E..(i + 1) * E]), &c64s(&qc[i * E..(i + 1) * E]))).fold(0.0, nan_max);
    let err_ref = sample(BATCH)
        .map(|i| {
            let qi = c64s(&q[i * E..(i + 1) * E]);
            nan_max(dist(&qi, &qr.q(i, N)), orthogonality_ratio::<T>(&qi, M, N))
        })
        .fold(0.0, nan_max);
    let (mf, nf) = (M as f64, N as f64);
    Ok(Row {
        routine: format!("{}{}_givens_batched_strided", T::LETTER, if T::IS_COMPLEX { "ungqr" } else { "orgqr" }),
        size: format!("{M}x{N}, k={N}"),
        batch: BATCH,
        secs,
        // LAPACK's ?orgqr count with k = n: 4mn² − 2(m + n)n² + 4n³/3.
        flops: BATCH as f64 * cflops::<T>(4.0 * mf * nf * nf - 2.0 * (mf + nf) * nf * nf + 4.0 * nf * nf * nf / 3.0),
        err_cpu,
        err_ref,
        ..Row::default()
    })
}

/// `?gels_givens_batched_strided`, or with `singular` the pointer-array form where every
/// fourth problem has column 3 exactly zero: min ‖A·x − b‖ for 2 right-hand sides. ≠cpu:
/// problems whose info differs from the CPU backend's or the expected one, or whose B changed
/// although info ≠ 0.
fn gels_case<T: Blas>(h: &mut Handle, singular: bool, a0: &[T], seed: u64) -> Result<Row, String> {
    let (nrhs, zero_col) = (2, 2);
    let eb = M * nrhs;
    let expect = |i: usize| if singular && i % 4 == 1 { zero_col as i32 + 1 } else { 0 };
    let mut a = a0.to_vec();
    for i in (0..BATCH).filter(|&i| expect(i) != 0) {
        a[i * E + zero_col * M..i * E + (zero_col + 1) * M].fill(T::zero());
    }
    let b = filled::<T>(BATCH * eb, seed);
    let (ml, nl, bl) = (M as i64, N as i64, BATCH as i64);
    let ((_, x, info), secs, (_, xc, infoc)) = measure(
        h,
        || (a.clone(), b.clone(), vec![-7; BATCH]),
        |h, (f, x, info)| {
            if !singular {
                return gels_strided(h, ml, nl, nrhs as i64, f, ml, E as i64, x, ml, eb as i64, info, bl);
            }
            let (pf, px) = (f.as_mut_ptr(), x.as_mut_ptr());
            // SAFETY: distinct matrices inside f and x.
            let (pa, pb): (Vec<*mut T>, Vec<*mut T>) = (0..BATCH).rev().map(|i| unsafe { (pf.add(i * E), px.add(i * eb)) }).unzip();
            // SAFETY: `batch` pointers to m×n and m×nrhs matrices (ld = m) in host memory.
            unsafe { gels(h, ml, nl, nrhs as i64, Batch::Array(pa.as_ptr()), ml, Batch::Array(pb.as_ptr()), ml, info.as_mut_ptr(), bl)? };
            info.reverse();
            Ok(())
        },
    )?;
    let (mut err_cpu, mut err_ref, mut differ) = (0f64, 0f64, 0);
    for i in 0..BATCH {
        let sb = i * eb..(i + 1) * eb;
        if info[i] != infoc[i] || info[i] != expect(i) || (info[i] != 0 && x[sb.clone()] != b[sb]) {
            differ += 1;
        } else if info[i] == 0 {
            let ai = c64s(&a[i * E..(i + 1) * E]);
            for col in (0..nrhs).map(|r| i * eb + r * M) {
                err_cpu = nan_max(err_cpu, gels_distance(&ai, M, &x[col..col + N], &xc[col..col + N]));
                err_ref = nan_max(err_ref, gels_ratio::<T>(&ai, M, N, &c64s(&x[col..col + N]), &c64s(&b[col..col + M])));
            }
        }
    }
    let zeros = info.iter().filter(|&&v| v != 0).count();
    let (mf, nf, rf) = (M as f64, N as f64, nrhs as f64);
    Ok(Row {
        routine: format!("{}gels_givens_batched{}", T::LETTER, if singular { "" } else { "_strided" }),
        size: format!("{M}x{N}, {nrhs} rhs"),
        batch: BATCH,
        secs,
        // geqrf + ?ormqr (Left, nrhs columns, k = n) + the triangular solve.
        flops: BATCH as f64 * (qr_flops::<T>() + cflops::<T>(4.0 * mf * rf * nf - 2.0 * rf * nf * nf + rf * nf * nf)),
        err_cpu,
        err_ref,
        differ: Some(differ),
        note: if singular { format!("info = {} on {zeros} of {BATCH} (column {} zero; B unchanged)", zero_col + 1, zero_col + 1) } else { String::new() },
        ..Row::default()
    })
}

/// Every case of one precision.
fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(3);
    let a = filled::<T>(BATCH * E, seed);
    match geqrf_case::<T>(h, Form::Strided, &a) {
        Ok((row, qr)) => {
            rows.push(Ok(row));
            let t = if T::IS_COMPLEX { Op::C } else { Op::T };
            for (k, (side, trans)) in [(Side::Left, Op::N), (Side::Left, t), (Side::Right, Op::N), (Side::Right, t)].into_iter().enumerate() {
                rows.push(ormqr_case::<T>(h, side, trans, &qr, seed + 1 + k as u64));
            }
            rows.push(orgqr_case::<T>(h, &qr));
        }
        Err(e) => rows.push(Err(e)),
    }
    rows.push(geqrf_case::<T>(h, Form::PointerArray, &a).map(|r| r.0));
    rows.push(gels_case::<T>(h, false, &a, seed + 8));
    rows.push(gels_case::<T>(h, true, &a, seed + 9));
}

rows_in_every_precision!(all);
