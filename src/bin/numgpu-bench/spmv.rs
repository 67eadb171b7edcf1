//! spmv: numgpu's sparse matrix–vector products (`csrmv` on the CSR arrays, `csrmv_plan` with
//! the plan `csr_plan_create` builds from them, `cmrsmv` on the CMRS matrix `cmrs_create`
//! builds from them) against cuSPARSE `cusparseSpMV` (default
//! algorithm and CSR_ALG2) on the same arrays, x and y, one row per matrix and precision (s,
//! d): the oracle's suite (`numgpu::testing::sparse`) in natural and permuted order at the
//! spec's sizes, then the Matrix Market files of shared/matrices; every product checked by
//! the oracle's error ratio. The report's method notes (`method`) say how.

use crate::bench::{bits, dispatch, finish, sets, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, ok, Cusparse, DevBuf, Res};
use crate::prec::Prec;
use crate::report::{cell, Fmt, Line, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use cudarc::cusparse::sys as cs;
use numgpu::spmv::{cmrs_create, cmrsmv, csr_plan_create, csrmv, csrmv_plan, CmrsScalar, Csr};
use numgpu::testing::gen::fill_random;
use numgpu::testing::sparse::{self, generate, permuted, Kind};
use numgpu::{Handle, Op};
use serde_json::{json, Map, Value};
use std::ffi::c_void;
use std::mem::size_of;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[group(id = "spmv")]
pub struct Args {
    /// spmv: entries of every generated matrix of the suite [default: the spec's sizes, 28672000 for the 7-point stencil (160³), 27000000 for the 27-point one (100³), 20000000 for the others; --quick: 2000000].
    #[arg(long)]
    nnz: Option<usize>,
    /// spmv: the matrices to run, comma-separated, by name: the suite's (stencil2d-5pt, stencil3d-7pt, stencil3d-27pt, fem-like, short-rows, power-law, dense-rows, each also with -perm) and the files of shared/matrices without .mtx [default: all].
    #[arg(long, value_delimiter = ',')]
    matrices: Option<Vec<String>>,
}

/// Where a matrix comes from: the suite (its class, permuted or not) or a file.
#[derive(Clone, Debug)]
enum Source {
    Suite(usize, bool),
    File(PathBuf),
    /// shared/matrices could not be listed: why.
    Missing(String),
}

pub struct Spmv {
    matrices: Vec<(String, Source)>,
    nnz: Option<usize>,
    quick: bool,
    /// The last class generated, and the last matrix had, by case kind: a class serves its
    /// natural and permuted rows, a matrix its precisions.
    class: Option<(usize, Csr<f64>)>,
    last: Option<(usize, Result<Csr<f64>, String>)>,
}

/// The spec's suite sizes: where it quotes cuSPARSE on the H100 (the 7-point stencil on 160³,
/// the 27-point one on 100³), those matrices; 2·10^7 entries for the other classes; 2·10^6
/// for all in a --quick run.
fn default_nnz(kind: Kind, quick: bool) -> usize {
    match (kind, quick) {
        (_, true) => 2_000_000,
        (Kind::Stencil7, false) => 7 * 160 * 160 * 160,
        (Kind::Stencil27, false) => 27 * 100 * 100 * 100,
        _ => 20_000_000,
    }
}

impl Spmv {
    pub fn new(cli: &Cli) -> Res<Spmv> {
        // Enough for every class's generator; few enough for int32 offsets with CMRS's padding.
        if let Some(nnz) = cli.spmv.nnz.filter(|n| !(1000..=1 << 28).contains(n)) {
            return Err(format!("--nnz {nnz}: must be between 1000 and 2^28"));
        }
        let mut all: Vec<(String, Source)> = Kind::ALL.iter().enumerate().flat_map(|(k, kind)| [(kind.name().to_string(), Source::Suite(k, false)), (format!("{}-perm", kind.name()), Source::Suite(k, true))]).collect();
        match sparse::shared_matrices() {
            Ok(files) => all.extend(files.into_iter().map(|f| (f.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned()), Source::File(f)))),
            Err(e) => all.push(("shared/matrices".into(), Source::Missing(e))),
        }
        let only: Vec<String> = cli.spmv.matrices.iter().flatten().map(|m| m.trim().to_string()).collect();
        if let Some(m) = only.iter().find(|m| !all.iter().any(|(n, s)| n == *m && !matches!(s, Source::Missing(_)))) {
            let known: Vec<&str> = all.iter().filter(|(_, s)| !matches!(s, Source::Missing(_))).map(|(n, _)| n.as_str()).collect();
            return Err(format!("--matrices {m}: unknown; known: {}", known.join(", ")));
        }
        // Asked for all matrices, the spec's shared ones must be there.
        all.retain(|(n, _)| only.is_empty() || only.contains(n));
        Ok(Spmv { matrices: all, nnz: cli.spmv.nnz, quick: cli.quick, class: None, last: None })
    }

    /// The matrix of case kind `k`, generated or read once.
    fn matrix(&mut self, k: usize) -> &Result<Csr<f64>, String> {
        if self.last.as_ref().map(|l| l.0) != Some(k) {
            let a = match &self.matrices[k].1 {
                Source::Suite(s, perm) => {
                    if self.class.as_ref().map(|c| c.0) != Some(*s) {
                        // The seeds of the oracle's `benchmark_suite`.
                        self.class = Some((*s, generate(Kind::ALL[*s], self.nnz.unwrap_or_else(|| default_nnz(Kind::ALL[*s], self.quick)), 1000 + *s as u64)));
                    }
                    let a = &self.class.as_ref().expect("set above").1;
                    Ok(if *perm { permuted(a, 2000 + *s as u64) } else { a.clone() })
                }
                Source::File(f) => sparse::read(f),
                Source::Missing(e) => Err(e.clone()),
            };
            self.last = Some((k, a));
        }
        &self.last.as_ref().expect("set above").1
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "spmv", report: "spmv", tolerance: 1.0, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: true,
    description: "Sparse matrix–vector products y = A·x (beta = 0) over the spec's suite (stencils, FEM-like, short random, power-law and dense-ish rows, natural and permuted order) and the files of shared/matrices: numgpu_?csrmv (op N) on the CSR arrays, numgpu_?csrmv_plan with the plan numgpu_csr_plan_create builds from them (its build time beside the product's) and numgpu_?cmrsmv on the CMRS matrix numgpu_?cmrs_create builds from them, against cusparseSpMV on the same CSR arrays, x and y (CUSPARSE_SPMV_ALG_DEFAULT, which is CSR_ALG1 for CSR, and CUSPARSE_SPMV_CSR_ALG2), on one stream.",
    columns: &[("matrix", "matrix", Fmt::Text), ("prec", "precision", Fmt::Text), ("m", "m", Fmt::Fix(0)), ("nnz", "nnz", Fmt::Fix(0)), ("mean row", "mean_row", Fmt::Fix(1)),
        ("csrmv ms", "csrmv.ms", Fmt::Ms), ("csrmv GB/s", "csrmv.gbs", Fmt::Fix(0)), ("% roof", "csrmv.roof_pct", Fmt::Pct(0)),
        ("plan GB/s", "csrmv_plan.gbs", Fmt::Fix(0)), ("% roof", "csrmv_plan.roof_pct", Fmt::Pct(0)), ("plan build ms", "plan_build_ms", Fmt::Ms), ("build = products", "plan_build_products", Fmt::Fix(0)),
        ("cmrsmv GB/s", "cmrsmv.gbs", Fmt::Fix(0)),
        ("% roof", "cmrsmv.roof_pct", Fmt::Pct(0)), ("M", "cmrs_lanes", Fmt::Fix(0)), ("padding", "cmrs_padding", Fmt::Fix(2)), ("cuSPARSE default GB/s", "cusparse_default.gbs", Fmt::Fix(0)),
        ("cuSPARSE ALG2 GB/s", "cusparse_alg2.gbs", Fmt::Fix(0)), ("csrmv ×default", "csrmv_x_default", Fmt::Fix(2)), ("csrmv ×ALG2", "csrmv_x_alg2", Fmt::Fix(2)),
        ("plan ×default", "csrmv_plan_x_default", Fmt::Fix(2)), ("plan ×ALG2", "csrmv_plan_x_alg2", Fmt::Fix(2)),
        ("cmrsmv ×default", "cmrsmv_x_default", Fmt::Fix(2)), ("cmrsmv ×ALG2", "cmrsmv_x_alg2", Fmt::Fix(2)), ("error csrmv", "csrmv.error", Fmt::Fix(2)), ("error plan", "csrmv_plan.error", Fmt::Fix(2)), ("error cmrsmv", "cmrsmv.error", Fmt::Fix(2))],
    log: &["csrmv.gbs", "csrmv_x_default", "csrmv_x_alg2", "csrmv_plan.gbs", "csrmv_plan_x_default", "csrmv_plan_x_alg2", "cmrsmv.gbs", "cmrsmv_x_default", "cmrsmv_x_alg2"],
};

impl Bench for Spmv {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        self.matrices.iter().enumerate().flat_map(|(k, (name, _))| precisions.iter().map(move |&p| Case { precision: p, n: 0, kind: k, label: format!("{name} {p}") })).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let (name, source) = self.matrices[case.kind].clone();
        let mut row = Row::new(&case.label);
        row.set("matrix", name);
        row.set("source", if matches!(source, Source::Suite(..)) { "suite" } else { "shared" });
        row.set("precision", case.precision.to_string());
        let r = match self.matrix(case.kind) {
            Ok(a) => dispatch!(case.precision, [f32, f64], body(ctx, a, &mut row)),
            Err(e) => Err(e.clone()),
        };
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: y = 1·A·x + 0·y (y written, not read), 0-based CSR with 32-bit indices in device memory, x random in [-1, 1); the suite generated by the oracle (`numgpu::testing::sparse`) with `benchmark_suite`'s seeds, then the Matrix Market files of shared/matrices (symmetric ones expanded); every method on the same CSR arrays, x and y, on one stream; `csrmv_plan` with the plan `csr_plan_create` builds from those device arrays (op N, hints 0; its host-clock build time, to the plan's return, in `plan build ms`, and that time in products of the plan, `build = products` = build time / product time); `cmrsmv` on the CMRS matrix `cmrs_create` builds from those device arrays (height 16, M chosen; its host-clock time in the JSON, `cmrs_create_ms`); cuSPARSE `cusparseSpMV` with its own descriptors and `bufferSize` workspace per algorithm, `cusparseSpMV_preprocess`d before it is timed, compute type the value type; inputs rotated among `sets` copies when one fits in 3× L2; {} warm-up calls, then the median of {} calls, each between CUDA events\n\
             - bytes of one product, as the spec counts them, for every method alike: nnz·(elem + 4) (values and column indices once) + (m + 1)·4 (row pointers) + n·elem (x once) + m·elem (y written); CMRS's padding is not counted; % roof = GB/s / the copy bandwidth; ×default and ×ALG2 = t_cuSPARSE / t_numgpu (> 1: numgpu faster), `CUSPARSE_SPMV_ALG_DEFAULT` (CSR_ALG1 for CSR) and `CUSPARSE_SPMV_CSR_ALG2`; M and padding: the CMRS matrix's M and (stored − nnz) / nnz\n\
             - checks before timing, on y poisoned with NaN: error = the oracle's max_i |y_i − y_ref,i| / ((len_i + 4)·ε·(|A|·|x|)_i) ≤ 1, y_ref computed on the host from the same A and x as accurately as in twice double precision (Dot2); numgpu's products bitwise equal on a second call; bad structure reported by the handle's synchronisation (none expected); a row also fails when a call fails or when a cuSPARSE result fails the same check (a check of the bench)\n",
            meta.warmup, meta.reps
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let mut names: Vec<String> = Vec::new();
        rows.iter().map(|r| r.text("matrix")).for_each(|m| if !names.contains(&m) { names.push(m) });
        let mut precisions: Vec<String> = Vec::new();
        rows.iter().map(|r| r.text("precision")).for_each(|p| if !precisions.contains(&p) { precisions.push(p) });
        let y = |r: &Row| (names.len() - 1 - names.iter().position(|n| *n == r.text("matrix")).unwrap_or(0)) as f64;
        let methods = [("numgpu csrmv", "csrmv"), ("numgpu csrmv plan", "csrmv_plan"), ("numgpu cmrsmv", "cmrsmv"), ("cuSPARSE SpMV default", "cusparse_default"), ("cuSPARSE SpMV CSR_ALG2", "cusparse_alg2")];
        let panel = |p: &String| Panel {
            title: format!("numgpu spmv ({p}) vs cuSPARSE SpMV: {} ({})", meta.device, meta.date),
            x: ("GB/s, (nnz·(elem + 4) + (m + 1)·4 + (n + m)·elem) / time".into(), Scale::Lin),
            y: (String::new(), Scale::Lin),
            names: names.clone(),
            level: Some((roof.bandwidth_gbs, format!("copy bandwidth {:.0} GB/s", roof.bandwidth_gbs))),
            lines: methods.iter().enumerate().map(|(i, (label, key))| Line { label: label.to_string(), color: i, style: Style::Marks, pts: rows.iter().filter(|r| r.text("precision") == *p).filter_map(|r| Some((r.num(&format!("{key}.gbs"))?, y(r)))).collect() }).collect(),
        };
        precisions.iter().map(panel).collect()
    }
    fn extra(&self, rows: &[Row]) -> Map<String, Value> {
        Map::from_iter([("summary".to_string(), Value::Array(summary(rows)))])
    }
    fn tables(&self, rows: &[Row]) -> String {
        let mut s = String::from("Geometric means of t_cuSPARSE / t_numgpu over the suite's generated matrices (rows that passed; best: the faster cuSPARSE algorithm of each matrix). Spec targets on the H100: csrmv ≥ 1.15× cuSPARSE and ≥ 75% of the roofline on stencils; cmrsmv ≥ 1.3× cuSPARSE on mean row lengths 4–30; issue 22: the planned csrmv ≥ 1.0× the faster cuSPARSE algorithm on every generated matrix, ≥ 1.15× in geometric mean, ≥ 80% of the roofline on natural-order stencils.\n\n");
        s += "| prec | matrices | csrmv ×default | csrmv ×ALG2 | csrmv ×best | plan ×best | plan ×best, lowest | cmrsmv ×default | cmrsmv ×ALG2 | cmrsmv ×best | mean row 4–30: matrices | cmrsmv ×best | csrmv % roof on stencils, lowest | plan % roof on stencils, lowest |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
        for m in summary(rows) {
            let keys = ["matrices", "csrmv_x_default", "csrmv_x_alg2", "csrmv_x_best", "csrmv_plan_x_best", "csrmv_plan_x_best_min", "cmrsmv_x_default", "cmrsmv_x_alg2", "cmrsmv_x_best", "short_matrices", "cmrsmv_x_best_short"];
            let cells: Vec<String> = keys.iter().map(|k| cell(m.get(*k), if k.contains("matrices") { Fmt::Fix(0) } else { Fmt::Fix(2) })).collect();
            let roofs: Vec<String> = ["csrmv_stencil_roof_pct_min", "csrmv_plan_stencil_roof_pct_min"].iter().map(|k| cell(m.get(*k), Fmt::Pct(0))).collect();
            s += &format!("| {} | {} | {} |\n", m["precision"].as_str().unwrap_or(""), cells.join(" | "), roofs.join(" | "));
        }
        s + "\n"
    }
}

/// The geometric means over the suite rows that passed, per precision (the spec's targets'
/// measures; `best` against the faster cuSPARSE algorithm of each matrix).
fn summary(rows: &[Row]) -> Vec<Value> {
    let mut precisions: Vec<String> = Vec::new();
    rows.iter().map(|r| r.text("precision")).for_each(|p| if !precisions.contains(&p) { precisions.push(p) });
    let geomean = |v: Vec<f64>| (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp());
    let best = |r: &Row, ours: &str| Some(r.num("cusparse_default.ms").into_iter().chain(r.num("cusparse_alg2.ms")).reduce(f64::min)? / r.num(&format!("{ours}.ms"))?);
    precisions
        .iter()
        .map(|p| {
            let suite: Vec<&Row> = rows.iter().filter(|r| r.text("precision") == *p && r.text("source") == "suite" && r.ok()).collect();
            let short: Vec<&Row> = suite.iter().copied().filter(|r| r.num("mean_row").is_some_and(|m| (4.0..=30.0).contains(&m))).collect();
            let mean = |rs: &[&Row], f: &dyn Fn(&Row) -> Option<f64>| geomean(rs.iter().filter_map(|r| f(r)).collect());
            let key = |k: &'static str| move |r: &Row| r.num(k);
            // The lowest % roof of `ours` on the natural-order stencils (issue 22's target; the
            // permuted ones are x-gather bound).
            let stencil = |ours: &str| suite.iter().filter(|r| r.text("matrix").starts_with("stencil")).filter_map(|r| r.num(&format!("{ours}.roof_pct"))).reduce(f64::min);
            let natural = |ours: &str| suite.iter().filter(|r| r.text("matrix").starts_with("stencil") && !r.text("matrix").ends_with("-perm")).filter_map(|r| r.num(&format!("{ours}.roof_pct"))).reduce(f64::min);
            json!({
                "precision": p, "matrices": suite.len(),
                "csrmv_x_default": mean(&suite, &key("csrmv_x_default")), "csrmv_x_alg2": mean(&suite, &key("csrmv_x_alg2")), "csrmv_x_best": mean(&suite, &|r| best(r, "csrmv")),
                "cmrsmv_x_default": mean(&suite, &key("cmrsmv_x_default")), "cmrsmv_x_alg2": mean(&suite, &key("cmrsmv_x_alg2")), "cmrsmv_x_best": mean(&suite, &|r| best(r, "cmrsmv")),
                "short_matrices": short.len(), "cmrsmv_x_best_short": mean(&short, &|r| best(r, "cmrsmv")), "csrmv_stencil_roof_pct_min": stencil("csrmv"),
                "csrmv_plan_x_best": mean(&suite, &|r| best(r, "csrmv_plan")), "csrmv_plan_x_best_min": suite.iter().filter_map(|r| best(r, "csrmv_plan")).reduce(f64::min),
                "csrmv_plan_stencil_roof_pct_min": natural("csrmv_plan"),
            })
        })
        .collect()
}

/// cuSPARSE's algorithms the sweep compares with, and the names of the rows' keys.
const ALGS: [(cs::cusparseSpMVAlg_t, &str, &str); 2] =
    [(cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT, "cusparse_default", "cuSPARSE SpMV ALG_DEFAULT"), (cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_CSR_ALG2, "cusparse_alg2", "cuSPARSE SpMV CSR_ALG2")];

/// cuSPARSE's descriptors of one set's arrays for one algorithm, and its workspace; released
/// on drop (after the stream is idle).
struct SpMv {
    mat: cs::cusparseConstSpMatDescr_t,
    x: cs::cusparseConstDnVecDescr_t,
    y: cs::cusparseDnVecDescr_t,
    alg: cs::cusparseSpMVAlg_t,
    buf: Option<DevBuf>,
}

impl Drop for SpMv {
    fn drop(&mut self) {
        // SAFETY: descriptors created by `SpMv::new` (or null, skipped); no call using them is
        // in flight.
        unsafe {
            (!self.mat.is_null()).then(|| cs::cusparseDestroySpMat(self.mat));
            (!self.x.is_null()).then(|| cs::cusparseDestroyDnVec(self.x));
            (!self.y.is_null()).then(|| cs::cusparseDestroyDnVec(self.y));
        }
    }
}

impl SpMv {
    /// Descriptors of the set's CSR arrays `d` (val, row_ptr, col_ind, x, y), its workspace,
    /// and the preprocessing, which cuSPARSE may refuse (then noted, and the products run
    /// without it).
    fn new<T: Prec>(ctx: &Ctx, a: &Csr<T>, d: &[DevBuf], alg: cs::cusparseSpMVAlg_t, note: &mut Option<String>) -> Res<SpMv> {
        use cs::cusparseIndexType_t::CUSPARSE_INDEX_32I as I32;
        let mut s = SpMv { mat: std::ptr::null(), x: std::ptr::null(), y: std::ptr::null_mut(), alg, buf: None };
        let (m, n, nnz, vt, p) = (a.m as i64, a.n as i64, a.nnz() as i64, T::VALUE_TYPE, |b: &DevBuf| b.ptr as *mut c_void);
        let (one, zero, mut bytes, h) = (T::one(), T::zero(), 0, ctx.cusparse().h);
        let (al, be, op) = (&one as *const T as *const c_void, &zero as *const T as *const c_void, cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE);
        // SAFETY: the set's arrays hold m + 1 row pointers, nnz column indices and values, n
        // elements of x and m of y; the scalars are host values of T, the default pointer mode.
        unsafe {
            ok(cs::cusparseCreateConstCsr(&mut s.mat, m, n, nnz, p(&d[1]), p(&d[2]), p(&d[0]), I32, I32, cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO, vt).result(), "cusparseCreateConstCsr")?;
            ok(cs::cusparseCreateConstDnVec(&mut s.x, n, p(&d[3]), vt).result(), "cusparseCreateConstDnVec")?;
            ok(cs::cusparseCreateDnVec(&mut s.y, m, p(&d[4]), vt).result(), "cusparseCreateDnVec")?;
            ok(cs::cusparseSpMV_bufferSize(h, op, al, s.mat, s.x, be, s.y, vt, alg, &mut bytes).result(), "cusparseSpMV_bufferSize")?;
            let buf = ctx.gpu.alloc(bytes)?;
            if let Err(e) = cs::cusparseSpMV_preprocess(h, op, al, s.mat, s.x, be, s.y, vt, alg, p(&buf)).result() {
                *note = Some(format!("{} timed without preprocessing ({e:?})", ALGS.iter().find(|x| x.0 == alg).map_or("", |x| x.2)));
            }
            s.buf = Some(buf);
        }
        Ok(s)
    }

    /// Enqueues y := 1·A·x + 0·y.
    fn call<T: Prec>(&self, sp: &Cusparse) -> Res<()> {
        let (one, zero, op) = (T::one(), T::zero(), cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE);
        let buf = self.buf.as_ref().map_or(0, |b| b.ptr) as *mut c_void;
        // SAFETY: the descriptors and workspace of `new`, alive; host scalars of T.
        ok(unsafe { cs::cusparseSpMV(sp.h, op, &one as *const T as _, self.mat, self.x, &zero as *const T as _, self.y, T::VALUE_TYPE, self.alg, buf) }.result(), "cusparseSpMV")
    }
}

/// A seed from a matrix's name and the precision, so that each row's x is its own.
fn seed_of(name: &str, letter: char) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64 ^ letter as u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// One matrix in precision T: the row's values, its checks, its notes.
fn body<T: Prec + CmrsScalar>(ctx: &mut Ctx, a64: &Csr<f64>, row: &mut Row) -> Res<()> {
    let (gpu, e, (m, n, nnz)) = (ctx.gpu, size_of::<T>(), (a64.m, a64.n, a64.nnz()));
    let bytes = (nnz * (e + 4) + (m + 1) * 4 + n * e + m * e) as f64;
    [("m", m), ("n", n), ("nnz", nnz), ("max_row", (0..m).map(|i| a64.row(i).len()).max().unwrap_or(0))].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("mean_row", nnz as f64 / m.max(1) as f64);
    row.set("bytes", bytes);
    let nsets = sets(bytes, gpu.l2_bytes as f64, false);
    row.set("sets", nsets);
    // The CSR copy, CMRS's packed copy (padding can triple a power-law matrix), cuSPARSE's
    // workspace and the plan's structure, per set.
    let need = nsets as f64 * (bytes + 4.0 * (a64.nnz() * (e + 8)) as f64 + 4.0 * (a64.nnz() + m) as f64);
    if need > ctx.budget {
        return Err(format!("skipped: needs about {:.1} GB of device memory, the budget is {:.1} GB (lower --nnz)", need / 1e9, ctx.budget / 1e9));
    }
    let a: Csr<T> = sparse::cast(a64);
    let mut x = vec![T::zero(); a.n];
    fill_random(&mut x, seed_of(&row.text("matrix"), T::LETTER));
    let (want, tol) = sparse::reference(Op::N, T::one(), &a, &x, T::zero(), &[]);
    // Each set: val, row_ptr, col_ind, x, y; the CMRS matrix; cuSPARSE's two descriptors; the
    // plan.
    let mut all = Vec::with_capacity(nsets);
    for k in 0..nsets {
        let d = [a.nnz() * e, (a.m + 1) * 4, a.nnz() * 4, a.n * e, a.m * e].iter().map(|&b| gpu.alloc(b)).collect::<Res<Vec<_>>>()?;
        gpu.htod(d[0].ptr, &a.val)?;
        gpu.htod(d[1].ptr, &a.row_ptr)?;
        gpu.htod(d[2].ptr, &a.col_ind)?;
        gpu.htod(d[3].ptr, &x)?;
        let t = std::time::Instant::now();
        // SAFETY: the set's device arrays hold the validated 0-based CSR matrix a.
        let cmrs = ng(unsafe { cmrs_create::<T>(ctx.h, a.m as i64, a.n as i64, a.nnz() as i64, d[0].ptr as _, d[1].ptr as _, d[2].ptr as _, 0, 0, 0) }).map_err(|e| format!("cmrs_create: {e}"))?;
        ng(ctx.h.synchronize())?;
        if k == 0 {
            row.set("cmrs_create_ms", t.elapsed().as_secs_f64() * 1e3);
            row.set("cmrs_lanes", cmrs.lanes());
            row.set("cmrs_padding", cmrs.padding_ratio());
        }
        let t = std::time::Instant::now();
        // SAFETY: as cmrs_create's.
        let plan = ng(unsafe { csr_plan_create(ctx.h, Op::N, a.m as i64, a.n as i64, a.nnz() as i64, d[1].ptr as _, d[2].ptr as _, 0, 0) }).map_err(|e| format!("csr_plan_create: {e}"))?;
        if k == 0 {
            row.set("plan_build_ms", t.elapsed().as_secs_f64() * 1e3);
            row.set("plan_units", plan.units());
            row.set("plan_split_rows", plan.split_rows());
            row.set("plan_bytes", plan.bytes());
        }
        let mut note = None;
        let sp = ALGS.iter().map(|alg| SpMv::new::<T>(ctx, &a, &d, alg.0, &mut note)).collect::<Res<Vec<_>>>()?;
        // The other sets' notes repeat set 0's.
        note.filter(|_| k == 0).into_iter().for_each(|n| row.note(n));
        all.push((d, cmrs, sp, plan));
    }
    gpu.sync()?;

    // The methods: cuSPARSE's first, so that a failure of ours cannot hide their numbers.
    let (sp, methods) = (ctx.cusparse(), ["cusparse_default", "cusparse_alg2", "csrmv", "cmrsmv", "csrmv_plan"]);
    let call = |h: &mut Handle, method: usize, s: usize| -> Res<()> {
        let (d, cmrs, spmv, plan) = &all[s];
        let (x, y) = (d[3].ptr as *const T, d[4].ptr as *mut T);
        match method {
            // SAFETY: the set's device arrays, of the sizes the CSR matrix gives them.
            2 => ng(unsafe { csrmv::<T>(h, Op::N, a.m as i64, a.n as i64, a.nnz() as i64, T::one(), d[0].ptr as _, d[1].ptr as _, d[2].ptr as _, 0, x, T::zero(), y) }),
            // SAFETY: x and y hold n and m device elements.
            3 => ng(unsafe { cmrsmv::<T>(h, T::one(), cmrs, x, T::zero(), y) }),
            // SAFETY: the set's values (nnz), x and y (n and m device elements).
            4 => ng(unsafe { csrmv_plan::<T>(h, plan, T::one(), d[0].ptr as _, x, T::zero(), y) }),
            k => spmv[k].call::<T>(sp),
        }
    };
    // Set 0's y after a call on poisoned y; the handle's synchronisation reports bad
    // structure a kernel found.
    let fresh_y = |h: &mut Handle, method: usize| -> Res<Vec<T>> {
        gpu.memset_async(all[0].0[4].ptr, 0xff, a.m * e)?;
        call(h, method, 0)?;
        ng(h.synchronize())?;
        let mut y = vec![T::zero(); a.m];
        gpu.dtoh(&mut y, all[0].0[4].ptr)?;
        Ok(y)
    };
    let mut same = true;
    for (k, key) in methods.iter().enumerate() {
        let measured = (|| -> Res<()> {
            let y = fresh_y(ctx.h, k)?;
            let err = sparse::error_ratio(&y, &want, &tol);
            row.set(&format!("{key}.error"), err);
            if k >= 2 {
                same &= bits(&fresh_y(ctx.h, k)?) == bits(&y);
            }
            let ms = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |j| call(ctx.h, k, j % nsets))?);
            ng(ctx.h.synchronize())?;
            row.set(&format!("{key}.ms"), ms);
            row.set(&format!("{key}.gbs"), bytes / (ms * 1e6));
            row.set(&format!("{key}.roof_pct"), 100.0 * bytes / (ms * 1e6) / ctx.roof.bandwidth_gbs);
            let who = if k >= 2 { key.to_string() } else { format!("bench check: {}", ALGS[k].2) };
            row.check(err <= 1.0, || format!("{who}: error ratio {err:.3e} > 1 (|Δy_i| / ((len_i + 4)·ε·(|A|·|x|)_i))"));
            Ok(())
        })();
        if let Err(e) = measured {
            row.fail(format!("{}: {e}", if k >= 2 { key } else { ALGS[k].2 }));
        }
    }
    row.set("reproducible", same);
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    for (ours, peer) in [("csrmv", "default"), ("csrmv", "alg2"), ("cmrsmv", "default"), ("cmrsmv", "alg2"), ("csrmv_plan", "default"), ("csrmv_plan", "alg2")] {
        let r = row.num(&format!("cusparse_{peer}.ms")).zip(row.num(&format!("{ours}.ms"))).map(|(p, o)| p / o);
        row.set(&format!("{ours}_x_{peer}"), r);
    }
    // How many of its products the plan's build costs.
    row.set("plan_build_products", row.num("plan_build_ms").zip(row.num("csrmv_plan.ms")).map(|(b, t)| b / t));
    gpu.sync()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options' defaults and checks, the planned cases, and the summary's means on made-up
    /// rows.
    #[test]
    fn plan_and_summary() {
        let s = Spmv::new(&crate::tests::cli(&["--routine", "spmv"])).unwrap();
        let files = sparse::shared_matrices().unwrap().len();
        assert_eq!((s.matrices.len(), s.cases(&['s', 'd']).len(), s.nnz), (14 + files, 2 * (14 + files), None));
        assert_eq!((default_nnz(Kind::Stencil7, false), default_nnz(Kind::Stencil27, false), default_nnz(Kind::PowerLaw, false)), (28_672_000, 27_000_000, 20_000_000));
        assert_eq!(generate(Kind::Stencil27, default_nnz(Kind::Stencil27, true), 0).m, 42 * 42 * 42);
        let q = Spmv::new(&crate::tests::cli(&["--quick", "--matrices", "short-rows, nos4", "--nnz", "5000"])).unwrap();
        assert_eq!((q.matrices.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), q.nnz), (vec!["short-rows", "nos4"], Some(5000)));
        for bad in [&["--nnz", "10"][..], &["--nnz", "1000000000"], &["--matrices", "dense"]] {
            assert!(Spmv::new(&crate::tests::cli(bad)).is_err(), "{bad:?} accepted");
        }
        let row = |matrix: &str, p: char, mean_row: f64, ours: f64, def: f64, alg2: f64| {
            let mut r = Row::new(matrix);
            [("matrix", matrix.to_string()), ("source", "suite".into()), ("precision", p.to_string())].into_iter().for_each(|(k, v)| r.set(k, v));
            [("mean_row", mean_row), ("csrmv.ms", ours), ("cmrsmv.ms", ours / 2.0), ("csrmv_plan.ms", ours / 4.0), ("cusparse_default.ms", def), ("cusparse_alg2.ms", alg2), ("csrmv_x_default", def / ours)].into_iter().for_each(|(k, v)| r.set(k, v));
            r
        };
        // Precisions interleaved, as the bench's rows come.
        let s = summary(&[row("stencil3d-7pt", 's', 7.0, 1.0, 2.0, 8.0), row("short-rows", 'd', 5.0, 1.0, 1.0, 1.0), row("dense-rows", 's', 2000.0, 1.0, 8.0, 4.0)]);
        assert_eq!((s.len(), &s[0]["matrices"], &s[0]["short_matrices"]), (2, &json!(2), &json!(1)));
        let close = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-12;
        assert!(close(&s[0]["csrmv_x_default"], 4.0) && close(&s[0]["csrmv_x_best"], 8f64.sqrt()) && close(&s[0]["cmrsmv_x_best_short"], 4.0) && close(&s[1]["cmrsmv_x_best"], 2.0));
        assert!(close(&s[0]["csrmv_plan_x_best"], 128f64.sqrt()) && close(&s[0]["csrmv_plan_x_best_min"], 8.0));
        assert_eq!((&s[0]["csrmv_stencil_roof_pct_min"], &s[0]["csrmv_plan_stencil_roof_pct_min"]), (&Value::Null, &Value::Null));
    }
}
