//! The spmv sweep: numgpu's sparse matrix–vector products against cuSPARSE `cusparseSpMV`
//! over the spec's suite (`spmv.md`), one row per matrix and precision (s, d):
//! - `csrmv`, op N, on the CSR arrays in device memory;
//! - `cmrsmv` on the CMRS matrix `cmrs_create` builds from those arrays (height 16, M
//!   chosen); the conversion is timed apart (host clock) and not counted in the product;
//! - cuSPARSE's generic `cusparseSpMV` on the same arrays, x and y (CSR, 32-bit indices,
//!   base 0, compute type the value type, host scalars), with `CUSPARSE_SPMV_ALG_DEFAULT`
//!   (for CSR, `CSR_ALG1`) and `CUSPARSE_SPMV_CSR_ALG2`, each with its own descriptor and
//!   workspace, prepared by `cusparseSpMV_preprocess` before it is timed (as a matrix
//!   multiplied many times would be).
//!
//! The matrices: every class of `numgpu::spmv::suite` (stencils, FEM-like, short random,
//! power-law and dense-ish rows) in natural and in randomly permuted order, generated with
//! the seeds `benchmark_suite` uses, at the spec's sizes (the 7-point stencil on 160³ and the
//! 27-point one on 100³, where the spec quotes cuSPARSE; 2·10^7 entries for the others),
//! then every Matrix Market file of `shared/matrices` (read by sprs, `tests/integration/mtx.rs`).
//! Values are the matrix's own, rounded to the precision; x is random in [-1, 1), never 0;
//! y := 1·A·x + 0·y, so y is written and not read.
//!
//! Bytes of one product, as the spec counts them and for every method alike: values and
//! column indices once (nnz·(elem + 4)), row pointers ((m + 1)·4), x once (n·elem), y
//! written (m·elem). % roof = GB/s / the copy bandwidth of the same run; ×default and ×ALG2
//! = t_cuSPARSE / t_numgpu (> 1: numgpu is faster).
//!
//! Checks, before each method is timed, on fresh outputs (y poisoned with NaN, so an entry
//! left unwritten shows): every entry of y against a reference computed on the host as
//! accurately as in twice double precision (`dot2`), within the tolerance of the tests,
//! (len_i + 4)·ε·(|A|·|x|)_i (the error ratio shown is the largest |Δy_i| over it, at most 1
//! to pass); numgpu's two products bitwise equal to a second call's; the deferred report of
//! bad structure (none is expected) read by `Handle::synchronize`. cuSPARSE's results pass
//! the same check, or the bench itself is wrong and the row fails.

use crate::getrf::{bits, nan_max};
use crate::gpu::{cusparse_check, median, ng, Cusparse, DevBuf, Gpu, Res};
use crate::mtx;
use crate::prec::{fill_random, Prec};
use crate::roofline::Roofline;
use cudarc::cusparse::sys as cs;
use numgpu::spmv::suite::{generate, permuted, Kind};
use numgpu::spmv::{cmrs_create, cmrsmv, csrmv, CmrsMatrix, CmrsScalar, Csr};
use numgpu::{Complex64, Handle, Op};
use rayon::prelude::*;
use serde::Serialize;
use std::ffi::c_void;
use std::mem::size_of;
use std::path::PathBuf;
use std::time::Instant;

/// What every row shares.
pub struct Config {
    pub reps: usize,
    pub warmup: usize,
    /// Entries of every generated matrix; None: each class's default (`default_nnz`).
    pub nnz: Option<usize>,
    /// The smaller default sizes of a --quick run.
    pub quick: bool,
    /// The matrices to run, by name; empty: all.
    pub only: Vec<String>,
    /// Device memory the sweep may hold at once, bytes.
    pub mem_budget: f64,
}

impl Config {
    /// Entries of the generated matrix of `kind`.
    pub fn nnz_of(&self, kind: Kind) -> usize {
        self.nnz.unwrap_or_else(|| default_nnz(kind, self.quick))
    }

    fn wanted(&self, name: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|o| o == name)
    }
}

/// The spec's suite sizes: where it quotes cuSPARSE on the H100 (the 7-point stencil on 160³,
/// the 27-point one on 100³, 4M rows of 5 random columns), those matrices; 2·10^7 entries
/// for the other classes; 2·10^6 for all in a --quick run (the spec's floor is 10^6).
pub fn default_nnz(kind: Kind, quick: bool) -> usize {
    match (kind, quick) {
        (_, true) => 2_000_000,
        (Kind::Stencil7, false) => 7 * 160 * 160 * 160,
        (Kind::Stencil27, false) => 27 * 100 * 100 * 100,
        _ => 20_000_000,
    }
}

/// The names of the suite's matrices, in the sweep's order: each class natural, then
/// permuted.
pub fn suite_names() -> Vec<String> {
    Kind::ALL.iter().flat_map(|k| [k.name().to_string(), format!("{}-perm", k.name())]).collect()
}

/// The name of a shared/matrices file in the rows: its file name without `.mtx`.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// The element types of the sweep: real, as CMRS is, with cuSPARSE's name of the type.
pub trait SpmvPrec: Prec + CmrsScalar {
    const VALUE_TYPE: cs::cudaDataType;
}

impl SpmvPrec for f32 {
    const VALUE_TYPE: cs::cudaDataType = cs::cudaDataType::CUDA_R_32F;
}

impl SpmvPrec for f64 {
    const VALUE_TYPE: cs::cudaDataType = cs::cudaDataType::CUDA_R_64F;
}

/// One method's outcome in a row.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Measure {
    /// Median time of one product.
    pub ms: Option<f64>,
    pub gbs: Option<f64>,
    /// GB/s / the copy bandwidth measured in the same run, %.
    pub roof_pct: Option<f64>,
    /// max_i |y_i − y_ref,i| / ((len_i + 4)·ε·(|A|·|x|)_i); at most 1 passes.
    pub error: Option<f64>,
}

/// One row of the table: one matrix and one precision.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub matrix: String,
    /// `suite` (generated, in the geometric means) or `shared` (shared/matrices).
    pub source: &'static str,
    pub precision: char,
    pub m: usize,
    pub n: usize,
    pub nnz: usize,
    /// nnz / m, and the longest row.
    pub mean_row: f64,
    pub max_row: usize,
    /// Bytes of one product as the spec counts them (see the module docs).
    pub bytes: f64,
    /// Copies of the arrays the timed calls rotate through (more than 1 when one fits in L2).
    pub sets: usize,
    pub csrmv: Measure,
    pub cmrsmv: Measure,
    /// cuSPARSE `cusparseSpMV`, `CUSPARSE_SPMV_ALG_DEFAULT` and `CUSPARSE_SPMV_CSR_ALG2`.
    pub cusparse_default: Measure,
    pub cusparse_alg2: Measure,
    /// t_cuSPARSE / t_numgpu for each pair (> 1: numgpu is faster).
    pub csrmv_x_default: Option<f64>,
    pub csrmv_x_alg2: Option<f64>,
    pub cmrsmv_x_default: Option<f64>,
    pub cmrsmv_x_alg2: Option<f64>,
    /// Host-clock time of `cmrs_create` from the device CSR arrays (structure copied back,
    /// packed on the host, uploaded).
    pub cmrs_create_ms: Option<f64>,
    /// The CMRS matrix's M and padding ratio ((stored − nnz) / nnz), from its info.
    pub cmrs_lanes: Option<usize>,
    pub cmrs_padding: Option<f64>,
    /// Two calls of each numgpu product on the same inputs gave bitwise the same y.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

impl Row {
    fn new(matrix: &str, source: &'static str, precision: char, a: &Csr<f64>, elem: usize) -> Row {
        let (m, n, nnz) = (a.m, a.n, a.nnz());
        Row {
            matrix: matrix.into(),
            source,
            precision,
            m,
            n,
            nnz,
            mean_row: nnz as f64 / m.max(1) as f64,
            max_row: (0..m).map(|i| a.row(i).len()).max().unwrap_or(0),
            bytes: (nnz * (elem + 4) + (m + 1) * 4 + n * elem + m * elem) as f64,
            ..Default::default()
        }
    }

    fn measure_mut(&mut self, m: Method) -> &mut Measure {
        match m {
            Method::Csrmv => &mut self.csrmv,
            Method::Cmrsmv => &mut self.cmrsmv,
            Method::Cusparse(Alg::Default) => &mut self.cusparse_default,
            Method::Cusparse(Alg::Alg2) => &mut self.cusparse_alg2,
        }
    }

    /// t_best cuSPARSE / t, for numgpu's time t (the faster of the two algorithms).
    pub fn x_best(&self, ours: &Measure) -> Option<f64> {
        let best = [self.cusparse_default.ms, self.cusparse_alg2.ms].into_iter().flatten().reduce(f64::min)?;
        ours.ms.map(|t| best / t)
    }
}

/// cuSPARSE's algorithms the sweep compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alg {
    Default,
    Alg2,
}

impl Alg {
    fn sys(self) -> cs::cusparseSpMVAlg_t {
        match self {
            Alg::Default => cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT,
            Alg::Alg2 => cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_CSR_ALG2,
        }
    }
}

/// What a row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Csrmv,
    Cmrsmv,
    Cusparse(Alg),
}

impl Method {
    /// The peers first, so that a failure of ours cannot hide their numbers.
    const ALL: [Method; 4] = [Method::Cusparse(Alg::Default), Method::Cusparse(Alg::Alg2), Method::Csrmv, Method::Cmrsmv];

    fn name(self) -> &'static str {
        match self {
            Method::Csrmv => "csrmv",
            Method::Cmrsmv => "cmrsmv",
            Method::Cusparse(Alg::Default) => "cuSPARSE SpMV ALG_DEFAULT",
            Method::Cusparse(Alg::Alg2) => "cuSPARSE SpMV CSR_ALG2",
        }
    }

    fn ours(self) -> bool {
        !matches!(self, Method::Cusparse(_))
    }
}

/// The geometric means over the suite of one precision, the spec's targets' measures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub precision: char,
    /// The suite's matrices in the means (rows that passed and have every time).
    pub matrices: usize,
    pub csrmv_x_default: Option<f64>,
    pub csrmv_x_alg2: Option<f64>,
    /// Against the faster cuSPARSE algorithm of each matrix.
    pub csrmv_x_best: Option<f64>,
    pub cmrsmv_x_default: Option<f64>,
    pub cmrsmv_x_alg2: Option<f64>,
    pub cmrsmv_x_best: Option<f64>,
    /// The suite's matrices with a mean row length of 4 to 30 (the spec's CMRS target), and
    /// cmrsmv against the faster cuSPARSE algorithm over them.
    pub short_matrices: usize,
    pub cmrsmv_x_best_short: Option<f64>,
    /// The lowest % of the roofline csrmv reaches on the stencils.
    pub csrmv_stencil_roof_pct_min: Option<f64>,
}

/// The geometric mean, None for no values.
fn geomean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, k) = v.fold((0.0, 0usize), |(s, k), x| (s + x.ln(), k + 1));
    (k > 0).then(|| (sum / k as f64).exp())
}

/// One `Summary` per precision of `rows`, over their suite rows.
pub fn summarise(rows: &[Row]) -> Vec<Summary> {
    // In order of first appearance: the rows alternate precisions matrix by matrix.
    let mut precisions: Vec<char> = Vec::new();
    for r in rows {
        if !precisions.contains(&r.precision) {
            precisions.push(r.precision);
        }
    }
    precisions
        .into_iter()
        .map(|p| {
            let suite: Vec<&Row> = rows.iter().filter(|r| r.precision == p && r.source == "suite" && r.ok).collect();
            let short: Vec<&Row> = suite.iter().copied().filter(|r| (4.0..=30.0).contains(&r.mean_row)).collect();
            let mean = |rs: &[&Row], f: fn(&Row) -> Option<f64>| geomean(rs.iter().filter_map(|r| f(r)));
            Summary {
                precision: p,
                matrices: suite.len(),
                csrmv_x_default: mean(&suite, |r| r.csrmv_x_default),
                csrmv_x_alg2: mean(&suite, |r| r.csrmv_x_alg2),
                csrmv_x_best: mean(&suite, |r| r.x_best(&r.csrmv)),
                cmrsmv_x_default: mean(&suite, |r| r.cmrsmv_x_default),
                cmrsmv_x_alg2: mean(&suite, |r| r.cmrsmv_x_alg2),
                cmrsmv_x_best: mean(&suite, |r| r.x_best(&r.cmrsmv)),
                short_matrices: short.len(),
                cmrsmv_x_best_short: mean(&short, |r| r.x_best(&r.cmrsmv)),
                csrmv_stencil_roof_pct_min: suite.iter().filter(|r| r.matrix.starts_with("stencil")).filter_map(|r| r.csrmv.roof_pct).reduce(f64::min),
            }
        })
        .collect()
}

/// `a`'s entries as the sum Σ a_k·b_k, by Ogita, Rump and Oishi's Dot2 (exact products by
/// FMA, error-free additions): as accurate as if computed in twice double precision, so that
/// the reference of the double-precision rows is not as inexact as what it checks.
fn dot2(terms: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for (a, b) in terms {
        let p = a * b;
        let e = a.mul_add(b, -p);
        let t = s + p;
        let z = t - s;
        c += (s - (t - z)) + (p - z) + e;
        s = t;
    }
    s + c
}

/// y = A·x and each row's tolerance (len_i + 4)·ε·(|A|·|x|)_i, ε of T, computed on the host
/// from `a` and `x` as held in T.
fn reference<T: SpmvPrec>(a: &Csr<T>, x: &[T]) -> (Vec<f64>, Vec<f64>) {
    let re = |v: T| v.to_c64().re;
    (0..a.m)
        .into_par_iter()
        .with_min_len(1024)
        .map(|i| {
            let terms = a.row(i).map(|k| (re(a.val[k]), re(x[(a.col_ind[k] - a.base) as usize])));
            let mag: f64 = terms.clone().map(|(v, w)| (v * w).abs()).sum();
            (dot2(terms), (a.row(i).len() + 4) as f64 * T::EPS * mag)
        })
        .unzip()
}

/// The largest |y_i − want_i| / tol_i; NaN when a y_i is NaN. A tolerance of 0 (a row whose
/// terms are all 0, which must give exactly 0) is taken as the least normal number, so that
/// any error there fails.
fn error_ratio<T: SpmvPrec>(y: &[T], want: &[f64], tol: &[f64]) -> f64 {
    y.par_iter().zip(want.par_iter().zip(tol)).map(|(g, (w, t))| (g.to_c64().re - w).abs() / t.max(f64::MIN_POSITIVE)).reduce(|| 0.0, nan_max)
}

/// cuSPARSE's descriptors of one set's arrays for one algorithm, and its workspace;
/// released on drop (after the stream is idle).
struct SpMv {
    mat: cs::cusparseConstSpMatDescr_t,
    x: cs::cusparseConstDnVecDescr_t,
    y: cs::cusparseDnVecDescr_t,
    alg: Alg,
    buf: DevBuf,
}

impl Drop for SpMv {
    fn drop(&mut self) {
        // SAFETY: descriptors created by `SpMv::new` (or null, skipped); no call using them
        // is in flight.
        unsafe {
            if !self.mat.is_null() {
                cs::cusparseDestroySpMat(self.mat);
            }
            if !self.x.is_null() {
                cs::cusparseDestroyDnVec(self.x);
            }
            if !self.y.is_null() {
                cs::cusparseDestroyDnVec(self.y);
            }
        }
    }
}

impl SpMv {
    /// Descriptors of `d`'s CSR arrays, x and y for `alg`, its workspace, and the
    /// preprocessing; a preprocessing cuSPARSE refuses is reported in `note`, not an error
    /// (the products then run without it).
    fn new<T: SpmvPrec>(gpu: &Gpu, sp: &Cusparse, d: &DevCsr, alg: Alg, note: &mut Vec<String>) -> Res<SpMv> {
        use cs::cusparseIndexType_t::CUSPARSE_INDEX_32I as I32;
        let mut s = SpMv { mat: std::ptr::null(), x: std::ptr::null(), y: std::ptr::null_mut(), alg, buf: DevBuf { ptr: 0 } };
        let (m, n, nnz) = (d.m as i64, d.n as i64, d.nnz as i64);
        let (one, zero) = (T::one(), T::zero());
        let mut bytes = 0usize;
        // SAFETY: the device arrays of `d` hold m + 1 row pointers, nnz column indices and
        // values, n elements of x and m of y; the scalars are host values of T, cuSPARSE's
        // default pointer mode.
        unsafe {
            let base = cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO;
            cusparse_check(cs::cusparseCreateConstCsr(&mut s.mat, m, n, nnz, d.row_ptr.ptr as *const c_void, d.col_ind.ptr as *const c_void, d.val.ptr as *const c_void, I32, I32, base, T::VALUE_TYPE), "cusparseCreateConstCsr")?;
            cusparse_check(cs::cusparseCreateConstDnVec(&mut s.x, n, d.x.ptr as *const c_void, T::VALUE_TYPE), "cusparseCreateConstDnVec")?;
            cusparse_check(cs::cusparseCreateDnVec(&mut s.y, m, d.y.ptr as *mut c_void, T::VALUE_TYPE), "cusparseCreateDnVec")?;
            let (a, b) = (&one as *const T as *const c_void, &zero as *const T as *const c_void);
            let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
            cusparse_check(cs::cusparseSpMV_bufferSize(sp.h, op, a, s.mat, s.x, b, s.y, T::VALUE_TYPE, alg.sys(), &mut bytes), "cusparseSpMV_bufferSize")?;
            s.buf = gpu.alloc(bytes)?;
            let pre = cs::cusparseSpMV_preprocess(sp.h, op, a, s.mat, s.x, b, s.y, T::VALUE_TYPE, alg.sys(), s.buf.ptr as *mut c_void);
            if let Err(e) = cusparse_check(pre, "cusparseSpMV_preprocess") {
                note.push(format!("{} timed without preprocessing ({e})", Method::Cusparse(alg).name()));
            }
        }
        Ok(s)
    }

    /// Enqueues y := 1·A·x + 0·y.
    fn call<T: SpmvPrec>(&self, sp: &Cusparse) -> Res<()> {
        let (one, zero) = (T::one(), T::zero());
        let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
        // SAFETY: the descriptors and workspace of `new`, alive; host scalars of T.
        let status = unsafe { cs::cusparseSpMV(sp.h, op, &one as *const T as *const c_void, self.mat, self.x, &zero as *const T as *const c_void, self.y, T::VALUE_TYPE, self.alg.sys(), self.buf.ptr as *mut c_void) };
        cusparse_check(status, "cusparseSpMV")
    }
}

/// One copy of the CSR arrays, x and y in device memory (0-based).
struct DevCsr {
    m: usize,
    n: usize,
    nnz: usize,
    val: DevBuf,
    row_ptr: DevBuf,
    col_ind: DevBuf,
    x: DevBuf,
    y: DevBuf,
}

impl DevCsr {
    fn upload<T: SpmvPrec>(gpu: &Gpu, a: &Csr<T>, x: &[T]) -> Res<DevCsr> {
        let e = size_of::<T>();
        let d = DevCsr {
            m: a.m,
            n: a.n,
            nnz: a.nnz(),
            val: gpu.alloc(a.nnz() * e)?,
            row_ptr: gpu.alloc((a.m + 1) * 4)?,
            col_ind: gpu.alloc(a.nnz() * 4)?,
            x: gpu.alloc(a.n * e)?,
            y: gpu.alloc(a.m * e)?,
        };
        gpu.htod(d.val.ptr, &a.val)?;
        gpu.htod(d.row_ptr.ptr, &a.row_ptr)?;
        gpu.htod(d.col_ind.ptr, &a.col_ind)?;
        gpu.htod(d.x.ptr, x)?;
        Ok(d)
    }
}

/// One input set: the arrays, numgpu's CMRS matrix of them, cuSPARSE's two descriptors.
struct Set {
    d: DevCsr,
    cmrs: CmrsMatrix,
    spmv: Vec<SpMv>,
}

/// The sweep's shared state: the device, the peers' handle, the roofline, the settings.
pub struct Ctx<'a> {
    pub gpu: &'a Gpu,
    pub sp: &'a Cusparse,
    pub roof: &'a Roofline,
    pub cfg: &'a Config,
}

/// A seed from a matrix's name and the precision, so that each row's x is its own.
fn seed_of(name: &str, letter: char) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64 ^ letter as u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// One matrix in each precision of `precisions` (s, d): its rows.
fn run_matrix(ctx: &Ctx, h: &mut Handle, name: &str, source: &'static str, a: &Csr<f64>, precisions: &[char]) -> Vec<Row> {
    precisions.iter().map(|&p| if p == 's' { run_row::<f32>(ctx, h, name, source, a) } else { run_row::<f64>(ctx, h, name, source, a) }).collect()
}

/// Failed rows, one per precision, for a matrix that could not be had (`why`).
fn failed(matrix: &str, precisions: &[char], why: &str) -> Vec<Row> {
    precisions.iter().map(|&precision| Row { matrix: matrix.into(), source: "shared", precision, note: why.into(), ..Default::default() }).collect()
}

/// The whole sweep: every suite matrix and shared/matrices file `cfg` asks for, in each of
/// `precisions` (s and d only); `progress` is told what is being done, `done` of each row
/// when it is. A matrix that cannot be read gives failed rows, never ends the sweep.
pub fn sweep(ctx: &Ctx, h: &mut Handle, precisions: &[char], mut progress: impl FnMut(&str), mut done: impl FnMut(&Row)) -> Vec<Row> {
    let cfg = ctx.cfg;
    let mut rows = Vec::new();
    let mut emit = |new: Vec<Row>| {
        new.iter().for_each(&mut done);
        rows.extend(new);
    };
    for (s, kind) in Kind::ALL.into_iter().enumerate() {
        let (natural, perm) = (kind.name().to_string(), format!("{}-perm", kind.name()));
        if !cfg.wanted(&natural) && !cfg.wanted(&perm) {
            continue;
        }
        progress(&format!("generating {natural} ({} entries)", cfg.nnz_of(kind)));
        // The seeds of `benchmark_suite`.
        let a = generate(kind, cfg.nnz_of(kind), 1000 + s as u64);
        if cfg.wanted(&natural) {
            progress(&natural);
            emit(run_matrix(ctx, h, &natural, "suite", &a, precisions));
        }
        if cfg.wanted(&perm) {
            progress(&format!("permuting {natural}"));
            let p = permuted(&a, 2000 + s as u64);
            progress(&perm);
            emit(run_matrix(ctx, h, &perm, "suite", &p, precisions));
        }
    }
    match mtx::shared_matrices() {
        Ok(files) => {
            for f in files.iter().filter(|f| cfg.wanted(&file_name(f))) {
                let name = file_name(f);
                progress(&name);
                emit(match mtx::read(f) {
                    Ok(a) => run_matrix(ctx, h, &name, "shared", &a, precisions),
                    Err(e) => failed(&name, precisions, &e),
                });
            }
        }
        // Asked for all matrices, the spec's shared ones must be there.
        Err(e) if cfg.only.is_empty() => emit(failed("shared/matrices", precisions, &e)),
        Err(_) => {}
    }
    rows
}

/// The rows `sweep` will produce for `cfg` and `precisions`, given the files of
/// shared/matrices (for the progress bar).
pub fn planned(cfg: &Config, files: &[PathBuf], precisions: usize) -> usize {
    let suite = suite_names().iter().filter(|n| cfg.wanted(n)).count();
    let shared = if files.is_empty() && cfg.only.is_empty() { 1 } else { files.iter().filter(|f| cfg.wanted(&file_name(f))).count() };
    (suite + shared) * precisions
}

/// One matrix in precision T; a failure anywhere is recorded in the row (`ok = false`,
/// `note`), never ends the sweep.
fn run_row<T: SpmvPrec>(ctx: &Ctx, h: &mut Handle, name: &str, source: &'static str, a: &Csr<f64>) -> Row {
    let mut row = Row::new(name, source, T::LETTER, a, size_of::<T>());
    let (mut why, mut fyi) = (Vec::new(), Vec::new());
    let r = row_body::<T>(ctx, h, a, &mut row, &mut why, &mut fyi);
    // Whatever happened, leave the stream idle before the buffers are freed.
    match r.and(ctx.gpu.sync()) {
        Err(e) => why.insert(0, e),
        Ok(()) => {
            for m in Method::ALL {
                // A method without an error ratio failed, and `why` says how.
                if let Some(err) = row.measure_mut(m).error.filter(|e| e.is_nan() || *e > 1.0) {
                    let who = if m.ours() { m.name().to_string() } else { format!("bench check: {}", m.name()) };
                    why.push(format!("{who}: error ratio {err:.3e} > 1 (|Δy_i| / ((len_i + 4)·ε·(|A|·|x|)_i))"));
                }
            }
            if row.reproducible != Some(true) {
                why.push("two calls on the same inputs differ bitwise".into());
            }
        }
    }
    row.ok = why.is_empty();
    // What does not fail the row, but whoever reads it should know, after why it failed.
    why.extend(fyi);
    row.note = why.join("; ");
    row
}

/// Arrays a timed call should find out of L2: enough sets that the products between two uses
/// of one read at least 3× L2 (as gemm's), else one.
fn sets_for(bytes: f64, l2: f64) -> usize {
    if bytes < 3.0 * l2 {
        ((3.0 * l2 / bytes).ceil() as usize).clamp(2, 64)
    } else {
        1
    }
}

/// `run_row`'s work: inputs, reference, sets, then each method checked and timed. A failure
/// of one method goes to `why` (and fails the row), what is only reported to `fyi`.
fn row_body<T: SpmvPrec>(ctx: &Ctx, h: &mut Handle, a64: &Csr<f64>, row: &mut Row, why: &mut Vec<String>, fyi: &mut Vec<String>) -> Res<()> {
    let (gpu, cfg) = (ctx.gpu, ctx.cfg);
    let e = size_of::<T>();
    let sets = sets_for(row.bytes, gpu.l2_bytes as f64);
    row.sets = sets;
    // The CSR copy, CMRS's packed copy (padding can triple a power-law matrix) and cuSPARSE's
    // workspace, per set.
    let need = sets as f64 * (row.bytes + 4.0 * (row.nnz * (e + 8)) as f64);
    if need > cfg.mem_budget {
        return Err(format!("skipped: needs about {:.1} GB of device memory, the budget is {:.1} GB (lower --nnz)", need / 1e9, cfg.mem_budget / 1e9));
    }
    let a: Csr<T> = a64.map(|v| T::from_c64(Complex64::new(v, 0.0)));
    let mut x = vec![T::zero(); a.n];
    fill_random(&mut x, seed_of(&row.matrix, T::LETTER));
    let (want, tol) = reference(&a, &x);

    let mut all = Vec::with_capacity(sets);
    for k in 0..sets {
        let d = DevCsr::upload(gpu, &a, &x)?;
        let t = Instant::now();
        // SAFETY: d's device arrays hold the validated 0-based CSR matrix a.
        let cmrs = ng(unsafe { cmrs_create::<T>(h, a.m as i64, a.n as i64, a.nnz() as i64, d.val.ptr as *const T, d.row_ptr.ptr as *const i32, d.col_ind.ptr as *const i32, 0, 0, 0) }).map_err(|e| format!("cmrs_create: {e}"))?;
        ng(h.synchronize())?;
        if k == 0 {
            row.cmrs_create_ms = Some(t.elapsed().as_secs_f64() * 1e3);
            row.cmrs_lanes = Some(cmrs.lanes());
            row.cmrs_padding = Some(cmrs.padding_ratio());
        }
        // The other sets' notes repeat set 0's.
        let (mut spmv, mut again) = (Vec::new(), Vec::new());
        for alg in [Alg::Default, Alg::Alg2] {
            spmv.push(SpMv::new::<T>(gpu, ctx.sp, &d, alg, if k == 0 { &mut *fyi } else { &mut again })?);
        }
        all.push(Set { d, cmrs, spmv });
    }
    gpu.sync()?;

    let call = |h: &mut Handle, m: Method, s: &Set| -> Res<()> {
        let d = &s.d;
        let (x, y) = (d.x.ptr as *const T, d.y.ptr as *mut T);
        match m {
            // SAFETY: the set's device arrays, of the sizes the CSR matrix gives them.
            Method::Csrmv => ng(unsafe { csrmv::<T>(h, Op::N, d.m as i64, d.n as i64, d.nnz as i64, T::one(), d.val.ptr as *const T, d.row_ptr.ptr as *const i32, d.col_ind.ptr as *const i32, 0, x, T::zero(), y) }),
            // SAFETY: x and y hold n and m device elements.
            Method::Cmrsmv => ng(unsafe { cmrsmv::<T>(h, T::one(), &s.cmrs, x, T::zero(), y) }),
            Method::Cusparse(alg) => s.spmv.iter().find(|p| p.alg == alg).expect("one per algorithm").call::<T>(ctx.sp),
        }
    };
    // Set 0's y after a call on poisoned y; the handle's synchronisation reports bad
    // structure a kernel found.
    let fresh_y = |h: &mut Handle, m: Method| -> Res<Vec<T>> {
        let d = &all[0].d;
        gpu.memset_async(d.y.ptr, 0xff, d.m * e)?;
        call(h, m, &all[0])?;
        ng(h.synchronize())?;
        let mut y = vec![T::zero(); d.m];
        gpu.dtoh(&mut y, d.y.ptr)?;
        Ok(y)
    };
    let mut same = true;
    for m in Method::ALL {
        let measured = (|| -> Res<Measure> {
            let y = fresh_y(h, m)?;
            let error = Some(error_ratio(&y, &want, &tol));
            if m.ours() {
                same &= bits(&fresh_y(h, m)?) == bits(&y);
            }
            let ms = median(&gpu.time(cfg.warmup, cfg.reps, |i| call(h, m, &all[i % sets]))?);
            ng(h.synchronize())?;
            let gbs = row.bytes / (ms * 1e6);
            Ok(Measure { ms: Some(ms), gbs: Some(gbs), roof_pct: Some(100.0 * gbs / ctx.roof.bandwidth_gbs), error })
        })();
        match measured {
            Ok(x) => *row.measure_mut(m) = x,
            Err(e) => why.push(format!("{}: {e}", m.name())),
        }
    }
    row.reproducible = Some(same);
    let ratio = |peer: &Measure, ours: &Measure| Some(peer.ms? / ours.ms?);
    row.csrmv_x_default = ratio(&row.cusparse_default, &row.csrmv);
    row.csrmv_x_alg2 = ratio(&row.cusparse_alg2, &row.csrmv);
    row.cmrsmv_x_default = ratio(&row.cusparse_default, &row.cmrsmv);
    row.cmrsmv_x_alg2 = ratio(&row.cusparse_alg2, &row.cmrsmv);
    gpu.sync()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::getrf::below;
    use numgpu::spmv::{cmrs_from_csr, cmrsmv_host, csrmv_csr};

    /// The host side of the check: the CPU backend's csrmv and cmrsmv pass it on suite
    /// matrices and a shared one in both precisions, a perturbed or NaN entry does not, and
    /// Dot2 is exact where plain summation is not.
    fn check_helpers<T: SpmvPrec>() {
        let mut mats: Vec<(String, Csr<f64>)> = numgpu::spmv::suite::benchmark_suite(20_000);
        let files = mtx::shared_matrices().expect("shared/matrices");
        mats.push(("nos4".into(), mtx::read(files.iter().find(|f| file_name(f) == "nos4").expect("nos4.mtx")).unwrap()));
        let mut h = Handle::cpu();
        for (name, a64) in &mats {
            let a: Csr<T> = a64.map(|v| T::from_c64(Complex64::new(v, 0.0)));
            let mut x = vec![T::zero(); a.n];
            fill_random(&mut x, seed_of(name, T::LETTER));
            let (want, tol) = reference(&a, &x);
            let mut y = vec![T::zero(); a.m];
            csrmv_csr(&mut h, Op::N, T::one(), &a, &x, T::zero(), &mut y).unwrap();
            let r = error_ratio(&y, &want, &tol);
            assert!(r <= 1.0, "{}csrmv {name}: error ratio {r}", T::LETTER);
            let c = cmrs_from_csr(&mut h, &a, 0, 0).unwrap();
            let mut yc = vec![T::zero(); a.m];
            cmrsmv_host(&mut h, T::one(), &c, &x, T::zero(), &mut yc).unwrap();
            assert!(error_ratio(&yc, &want, &tol) <= 1.0, "{}cmrsmv {name}", T::LETTER);
            // The row with the largest tolerance, moved by 4 of it.
            let i = (0..a.m).max_by(|&p, &q| tol[p].total_cmp(&tol[q])).unwrap();
            y[i] = T::from_c64(Complex64::new(want[i] + 4.0 * tol[i], 0.0));
            assert!(error_ratio(&y, &want, &tol) > 3.0, "{name}: a perturbed y passes");
            y[i] = T::from_c64(Complex64::new(f64::NAN, 0.0));
            assert!(!below(Some(error_ratio(&y, &want, &tol)), 1.0), "{name}: NaN passes");
        }
        // 1 + 2^-60 − 1 = 2^-60 exactly; a plain sum gives 0.
        assert_eq!(dot2([(1.0, 1.0), (2f64.powi(-60), 1.0), (-1.0, 1.0)].into_iter()), 2f64.powi(-60));
        let exact_zero = vec![T::zero(); 2];
        assert_eq!(error_ratio(&exact_zero, &[0.0, 0.0], &[0.0, 0.0]), 0.0);
        assert!(error_ratio(&[T::one()], &[0.0], &[0.0]) > 1e300);
    }

    #[test]
    fn spmv_check_helpers() {
        check_helpers::<f32>();
        check_helpers::<f64>();
    }

    /// Sizes, names, the L2 rotation and the summary's means on made-up rows.
    #[test]
    fn spmv_plan_and_summary() {
        assert_eq!(default_nnz(Kind::Stencil7, false), 28_672_000);
        assert_eq!(generate(Kind::Stencil27, default_nnz(Kind::Stencil27, true), 0).m, 42 * 42 * 42);
        let names = suite_names();
        assert_eq!((names.len(), names[0].as_str(), names[1].as_str()), (14, "stencil2d-5pt", "stencil2d-5pt-perm"));
        let cfg = Config { reps: 20, warmup: 2, nnz: None, quick: false, only: vec!["short-rows".into(), "nos4".into()], mem_budget: 70e9 };
        let files = [PathBuf::from("m/nos4.mtx"), PathBuf::from("m/cage4.mtx")];
        assert_eq!(planned(&cfg, &files, 2), 4);
        assert_eq!(planned(&Config { only: vec![], ..cfg }, &[], 2), 30);
        let l2 = (50u64 << 20) as f64;
        assert_eq!((sets_for(3e8, l2), sets_for(1e6, l2), sets_for(1e8, l2)), (1, 64, 2));

        let row = |matrix: &str, p: char, mean_row: f64, ours: f64, def: f64, alg2: f64| {
            let m = |ms: f64| Measure { ms: Some(ms), ..Default::default() };
            Row { matrix: matrix.into(), source: "suite", precision: p, mean_row, csrmv: m(ours), cmrsmv: m(ours / 2.0), cusparse_default: m(def), cusparse_alg2: m(alg2), csrmv_x_default: Some(def / ours), ok: true, ..Default::default() }
        };
        // Precisions interleaved, as the bench's rows come.
        let rows = [row("stencil3d-7pt", 's', 7.0, 1.0, 2.0, 8.0), row("short-rows", 'd', 5.0, 1.0, 1.0, 1.0), row("dense-rows", 's', 2000.0, 1.0, 8.0, 4.0)];
        let s = summarise(&rows);
        assert_eq!((s.len(), s[0].matrices, s[0].short_matrices), (2, 2, 1));
        let close = |x: Option<f64>, y: f64| (x.unwrap() - y).abs() < 1e-12;
        assert!(close(s[0].csrmv_x_default, 4.0) && close(s[0].csrmv_x_best, 8f64.sqrt()) && close(s[0].cmrsmv_x_best_short, 4.0));
        assert_eq!(s[0].csrmv_stencil_roof_pct_min, None);
        assert!(close(s[1].cmrsmv_x_best, 2.0));
    }
}

