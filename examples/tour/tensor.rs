//! tensor (Khatri–Rao product, MTTKRP, and the decompositions), per real precision, with the
//! oracle's references (`numgpu::testing::tensor`): the MTTKRP of a random 120 × 100 × 80 tensor
//! with rank-16 factors in each of its modes (first: one GEMM on X as stored; middle: a batch
//! over the slices; last: one GEMM on Xᵀ), and the Khatri–Rao product of 400 × 16 and 300 × 16
//! matrices. MTTKRP rows: err/cpu and err/ref = max |M − M′| / ((k + d)·ε·|X_(n)|·|K|) against
//! the CPU backend and the explicit unfold + Khatri–Rao + GEMM in double (the bound is the
//! worst case: a correct result stays below 1). Khatri–Rao: ≠cpu counts the entries that are
//! not the product rounded once (the same bits on every backend).
//!
//! The decompositions, each of a planted low-rank 60 × 50 × 40 tensor (CP rank 4; TT ranks
//! (1, 3, 4, 1); TR ranks (2, 3, 2, 2); HT ranks (3, 3, 4, 4)), then reconstructed: err/ref =
//! ‖X − X̂‖/‖X‖ / √ε (X̂ from the oracle's dense tensor of the parts: the Gram route resolves
//! about √ε), err/cpu the same between the backends' reconstructions (CP: |fit − fit_cpu| / √ε);
//! the note gives the fit, iterations or ranks found. The reconstructions of those parts:
//! err/ref = ‖X̂ − X̂_ref‖/‖X̂_ref‖ / ((r + d)·ε) against the oracle.

use crate::{measure, seed_of, Row, Rows};
use numgpu::lapack::Blas;
use numgpu::tensor::cp::{cp_als_slices, cp_reconstruct_slices, numgpu_cp_options};
use numgpu::tensor::engine::Real;
use numgpu::tensor::ht::{ht_reconstruct_slices, ht_slices};
use numgpu::tensor::train::{tr_reconstruct_slices, tr_svd_slices, tt_reconstruct_slices, tt_svd_slices};
use numgpu::tensor::{khatri_rao_slices, mttkrp_slices};
use numgpu::testing::gen::{filled, nan};
use numgpu::testing::tensor as oracle;
use numgpu::{Complex64, Handle, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "tensor: mttkrp err = max|M − M′| / ((k + d)·ε·|X_(n)|·|K|) vs the CPU backend and the explicit unfold + Khatri–Rao + GEMM in double (< 1 for any correct result); khatri_rao ≠cpu: entries that are not the product rounded once; GFLOP/s at 2·numel·rank per MTTKRP, one per Khatri–Rao entry; decompositions of planted 60×50×40 tensors: err = ‖X − X̂‖/‖X‖ / √ε (cp_als err/cpu: |fit − fit_cpu| / √ε), GFLOP/s at their leading terms (CP: 2·numel·rank per MTTKRP; TT, TR, HT: the Gram matrices); reconstructions: err = ‖X̂ − X̂_ref‖/‖X̂_ref‖ / ((r + d)·ε)";

const DIMS: [usize; 3] = [120, 100, 80];
const RANK: usize = 16;

fn f64s<T: Scalar>(v: &[T]) -> Vec<f64> {
    v.iter().map(|x| x.to_c64().re).collect()
}

fn mttkrp_case<T: Blas>(h: &mut Handle, mode: usize, seed: u64) -> Result<Row, String> {
    let x: Vec<T> = filled(DIMS.iter().product(), seed);
    let u: Vec<Vec<T>> = (0..3).map(|k| filled(DIMS[k] * RANK, seed + 1 + k as u64)).collect();
    let (dims, ldu): (Vec<i64>, Vec<i64>) = (DIMS.iter().map(|&d| d as i64).collect(), DIMS.iter().map(|&d| d as i64).collect());
    let rows = DIMS[mode];
    let factors: Vec<&[T]> = u.iter().map(|v| v.as_slice()).collect();
    let (m, secs, cpu) = measure(h, || vec![nan::<T>(); rows * RANK], |h, m| mttkrp_slices(h, &dims, &x, mode as i32, RANK as i64, &factors, &ldu, m, rows as i64))?;
    let uv: Vec<Vec<f64>> = u.iter().map(|v| f64s(v)).collect();
    let (want, bound) = oracle::mttkrp(&DIMS, &f64s(&x), mode, RANK, &uv);
    let (mv, cv) = (f64s(&m), f64s(&cpu));
    let err_ref = oracle::mttkrp_ratio(&mv, rows, &want, &bound, &DIMS, mode, T::EPS);
    let err_cpu = oracle::mttkrp_ratio(&mv, rows, &cv, &bound, &DIMS, mode, T::EPS);
    let path = ["one GEMM on X", "slices + reduction", "one GEMM on Xᵀ"][mode];
    Ok(Row {
        routine: format!("{}mttkrp mode {mode}", T::LETTER),
        size: format!("{}x{}x{} r={RANK}", DIMS[0], DIMS[1], DIMS[2]),
        batch: 1,
        secs,
        flops: 2.0 * x.len() as f64 * RANK as f64,
        err_cpu,
        err_ref,
        note: path.into(),
        ..Row::default()
    })
}

fn khatri_rao_case<T: Blas>(h: &mut Handle, seed: u64) -> Result<Row, String> {
    let (m, n) = (400, 300);
    let (a, b): (Vec<T>, Vec<T>) = (filled(m * RANK, seed), filled(n * RANK, seed + 1));
    let (c, secs, cpu) = measure(h, || vec![nan::<T>(); m * n * RANK], |h, c| khatri_rao_slices(h, m as i64, n as i64, RANK as i64, &a, m as i64, &b, n as i64, c, (m * n) as i64))?;
    let want = oracle::khatri_rao(&f64s(&a), m, &f64s(&b), n, RANK);
    let rounded = |w: f64| T::from_c64(Complex64::new(w, 0.0));
    let differ = (0..c.len()).filter(|&e| c[e] != rounded(want[e]) || c[e] != cpu[e]).count();
    Ok(Row {
        routine: format!("{}khatri_rao", T::LETTER),
        size: format!("{m}x{RANK} ⊙ {n}x{RANK}"),
        batch: 1,
        secs,
        flops: c.len() as f64,
        differ: Some(differ),
        note: "exact products: err columns not used".into(),
        ..Row::default()
    })
}

/// The sizes of the planted tensors.
const PLANT: [usize; 3] = [60, 50, 40];

fn ts<T: Scalar>(v: &[f64]) -> Vec<T> {
    v.iter().map(|&x| T::from_c64(Complex64::new(x, 0.0))).collect()
}

fn i64s(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&x| x as i64).collect()
}

/// The row of a decomposition: its reconstruction's error against X and against the CPU
/// backend's, both over √ε.
fn decomposition_row<T: Scalar>(routine: &str, secs: f64, flops: f64, err: f64, err_cpu: f64, note: String) -> Row {
    let scale = T::EPS.sqrt();
    Row { routine: format!("{}{routine}", T::LETTER), size: format!("{}x{}x{}", PLANT[0], PLANT[1], PLANT[2]), batch: 1, secs, flops, err_cpu: err_cpu / scale, err_ref: err / scale, note, ..Row::default() }
}

/// The row of a reconstruction: its error against the oracle's dense tensor of the same parts.
fn reconstruction_row<T: Scalar>(routine: &str, secs: f64, flops: f64, got: &[T], cpu: &[T], want: &[f64], r: usize) -> Row {
    let scale = (r + 3) as f64 * T::EPS;
    let (e_ref, e_cpu) = (oracle::rel_err(&f64s(got), want), oracle::rel_err(&f64s(got), &f64s(cpu)));
    Row { routine: format!("{}{routine}", T::LETTER), size: format!("{}x{}x{}", PLANT[0], PLANT[1], PLANT[2]), batch: 1, secs, flops, err_cpu: e_cpu / scale, err_ref: e_ref / scale, note: "the parts of the row above".into(), ..Row::default() }
}

/// CP-ALS of a planted rank-4 tensor from a seeded random start, then its reconstruction.
fn cp_case<T: Real>(h: &mut Handle, seed: u64, rows: &mut Rows) -> Result<(), String> {
    let rank = 4;
    let u: Vec<Vec<f64>> = PLANT.iter().enumerate().map(|(k, &d)| filled::<f64>(d * rank, seed + k as u64)).collect();
    let x: Vec<T> = ts(&oracle::cp_dense(&PLANT, &u, &[2.0, 1.5, 1.2, 1.0]));
    // ALS from a random start may settle in a swamp (a stationary point of lower fit); this
    // start reaches the planted tensor in both precisions.
    let opts = numgpu_cp_options { tol: if T::EPS < 1e-10 { 1e-12 } else { 1e-8 }, max_iters: 500, seed: 13, ..Default::default() };
    let dims = i64s(&PLANT);
    let input = || (PLANT.iter().map(|&d| vec![T::zero(); d * rank]).collect::<Vec<Vec<T>>>(), vec![T::zero(); rank], (0, T::zero()));
    let call = |h: &mut Handle, s: &mut (Vec<Vec<T>>, Vec<T>, (i32, T))| {
        let mut f: Vec<&mut [T]> = s.0.iter_mut().map(|v| v.as_mut_slice()).collect();
        s.2 = cp_als_slices(h, &dims, &x, rank as i64, &mut f, &dims, &mut s.1, Some(&opts))?;
        Ok(())
    };
    let (ours, secs, cpu) = measure(h, input, call)?;
    let (iters, fit): (i32, f64) = (ours.2 .0, ours.2 .1.into());
    let uv: Vec<Vec<f64>> = ours.0.iter().map(|f| f64s(f)).collect();
    let dense = oracle::cp_dense(&PLANT, &uv, &f64s(&ours.1));
    let err = oracle::rel_err(&dense, &f64s(&x));
    let flops = iters as f64 * 3.0 * 2.0 * x.len() as f64 * rank as f64;
    let cpu_fit: f64 = cpu.2 .1.into();
    rows.push(Ok(decomposition_row::<T>("cp_als", secs, flops, err, (fit - cpu_fit).abs(), format!("rank {rank}: fit {fit:.9} in {iters} iterations"))));
    let parts: Vec<&[T]> = ours.0.iter().map(|v| v.as_slice()).collect();
    let (got, secs, cpu) = measure(h, || vec![T::zero(); x.len()], |h, y| cp_reconstruct_slices(h, &dims, rank as i64, &parts, &dims, Some(&ours.1), y))?;
    rows.push(Ok(reconstruction_row::<T>("cp_reconstruct", secs, 2.0 * x.len() as f64 * rank as f64, &got, &cpu, &dense, rank)));
    Ok(())
}

/// TT-SVD (`ring` false) or TR-SVD of a planted train or ring, then its reconstruction.
fn train_case<T: Real>(h: &mut Handle, ring: bool, seed: u64, rows: &mut Rows) -> Result<(), String> {
    let ranks: &[usize] = if ring { &[2, 3, 2, 2] } else { &[1, 3, 4, 1] };
    let x: Vec<T> = ts(&oracle::ring_dense(&PLANT, ranks, &oracle::random_cores(&PLANT, ranks, seed)));
    let eps = T::from_c64(Complex64::new(if T::EPS < 1e-10 { 1e-7 } else { 1e-2 }, 0.0));
    let (dims, name) = (i64s(&PLANT), if ring { "tr" } else { "tt" });
    let svd = if ring { tr_svd_slices::<T> } else { tt_svd_slices::<T> };
    // The size query of the capacity protocol, then the call with that capacity.
    let (mut r, mut o) = ([0i64; 4], [0i64; 4]);
    let _ = svd(h, &dims, &x, eps, None, &mut r, &mut [], &mut o);
    let need = o[3].max(0) as usize;
    let input = || (vec![T::zero(); need], [0i64; 4], [0i64; 4]);
    let (ours, secs, cpu) = measure(h, input, |h, s| svd(h, &dims, &x, eps, None, &mut s.1, &mut s.0, &mut s.2))?;
    let found: Vec<usize> = ours.1.iter().map(|&v| v as usize).collect();
    let dense = oracle::ring_dense(&PLANT, &found, &f64s(&ours.0));
    let cpu_ranks: Vec<usize> = cpu.1.iter().map(|&v| v as usize).collect();
    let cpu_dense = oracle::ring_dense(&PLANT, &cpu_ranks, &f64s(&cpu.0));
    let flops = 2.0 * x.len() as f64 * PLANT[0] as f64;
    rows.push(Ok(decomposition_row::<T>(&format!("{name}_svd"), secs, flops, oracle::rel_err(&dense, &f64s(&x)), oracle::rel_err(&dense, &cpu_dense), format!("planted ranks {ranks:?}: found {found:?}"))));
    let rec = if ring { tr_reconstruct_slices::<T> } else { tt_reconstruct_slices::<T> };
    let (got, secs, cpu) = measure(h, || vec![T::zero(); x.len()], |h, y| rec(h, &dims, &ours.1, &ours.0, y))?;
    let rmax = *found.iter().max().unwrap_or(&1);
    rows.push(Ok(reconstruction_row::<T>(&format!("{name}_reconstruct"), secs, 2.0 * x.len() as f64 * (rmax * found[0]) as f64, &got, &cpu, &dense, rmax * found[0])));
    Ok(())
}

/// HT of a planted tensor of ranks (3, 3, 4, 4), then its reconstruction.
fn ht_case<T: Real>(h: &mut Handle, seed: u64, rows: &mut Rows) -> Result<(), String> {
    let ranks = [3usize, 3, 4, 4];
    let ext = [PLANT[0] * 3, PLANT[1] * 3, PLANT[2] * 4, 16, 36];
    let planted: Vec<Vec<f64>> = (0..5).map(|k| filled::<f64>(ext[k], seed + k as u64)).collect();
    let x: Vec<T> = ts(&oracle::ht_dense(PLANT, ranks, [&planted[0], &planted[1], &planted[2], &planted[3], &planted[4]]));
    let (dims, rk): ([i64; 3], [i64; 4]) = ([60, 50, 40], [3, 3, 4, 4]);
    let input = || ext.iter().map(|&n| vec![T::zero(); n]).collect::<Vec<Vec<T>>>();
    let call = |h: &mut Handle, p: &mut Vec<Vec<T>>| {
        let [a, b, c, d, e] = &mut p[..] else { unreachable!() };
        ht_slices(h, &dims, &x, &rk, [a, b, c, d, e])
    };
    let (ours, secs, cpu) = measure(h, input, call)?;
    let dense_of = |p: &[Vec<T>]| {
        let v: Vec<Vec<f64>> = p.iter().map(|q| f64s(q)).collect();
        oracle::ht_dense(PLANT, ranks, [&v[0], &v[1], &v[2], &v[3], &v[4]])
    };
    let dense = dense_of(&ours);
    let flops = 2.0 * x.len() as f64 * PLANT.iter().sum::<usize>() as f64;
    rows.push(Ok(decomposition_row::<T>("ht", secs, flops, oracle::rel_err(&dense, &f64s(&x)), oracle::rel_err(&dense, &dense_of(&cpu)), format!("ranks {ranks:?}"))));
    let parts: [&[T]; 5] = [&ours[0], &ours[1], &ours[2], &ours[3], &ours[4]];
    let (got, secs, cpu) = measure(h, || vec![T::zero(); x.len()], |h, y| ht_reconstruct_slices(h, &dims, &rk, parts, y))?;
    rows.push(Ok(reconstruction_row::<T>("ht_reconstruct", secs, 2.0 * x.len() as f64 * 3.0, &got, &cpu, &dense, 4)));
    Ok(())
}

fn all<T: Real>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(13);
    for mode in 0..3 {
        rows.push(mttkrp_case::<T>(h, mode, seed + 10 * mode as u64));
    }
    rows.push(khatri_rao_case::<T>(h, seed + 100));
    for r in [cp_case::<T>(h, seed + 200, rows), train_case::<T>(h, false, seed + 300, rows), train_case::<T>(h, true, seed + 400, rows), ht_case::<T>(h, seed + 500, rows)] {
        if let Err(e) = r {
            rows.push(Err(e));
        }
    }
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    all::<f32>(h, rows);
    all::<f64>(h, rows);
}
