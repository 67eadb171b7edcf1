//! tensor (Khatri–Rao product, MTTKRP), per real precision, with the oracle's references
//! (`numgpu::testing::tensor`): the MTTKRP of a random 120 × 100 × 80 tensor with rank-16
//! factors in each of its modes (first: one GEMM on X as stored; middle: a batch over the
//! slices; last: one GEMM on Xᵀ), and the Khatri–Rao product of 400 × 16 and 300 × 16
//! matrices. MTTKRP rows: err/cpu and err/ref = max |M − M′| / ((k + d)·ε·|X_(n)|·|K|) against
//! the CPU backend and the explicit unfold + Khatri–Rao + GEMM in double (the bound is the
//! worst case: a correct result stays below 1). Khatri–Rao: ≠cpu counts the entries that are
//! not the product rounded once (the same bits on every backend).

use crate::{measure, seed_of, Row, Rows};
use numgpu::lapack::Blas;
use numgpu::tensor::{khatri_rao_slices, mttkrp_slices};
use numgpu::testing::gen::{filled, nan};
use numgpu::testing::tensor as oracle;
use numgpu::{Complex64, Handle, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "tensor: mttkrp err = max|M − M′| / ((k + d)·ε·|X_(n)|·|K|) vs the CPU backend and the explicit unfold + Khatri–Rao + GEMM in double (< 1 for any correct result); khatri_rao ≠cpu: entries that are not the product rounded once; GFLOP/s at 2·numel·rank per MTTKRP, one per Khatri–Rao entry";

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

fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(13);
    for mode in 0..3 {
        rows.push(mttkrp_case::<T>(h, mode, seed + 10 * mode as u64));
    }
    rows.push(khatri_rao_case::<T>(h, seed + 100));
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    all::<f32>(h, rows);
    all::<f64>(h, rows);
}
