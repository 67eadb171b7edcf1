//! Kernel compile check: every kernel of every family compiled by NVRTC for sm_80 and sm_90
//! with its register and spill report, on machines without a GPU too. Skipped (and says so)
//! when libnvrtc cannot be loaded, unless NUMGPU_REQUIRE_NVRTC=1 (make test, CI).

use numgpu::cuda::module::{compile, nvrtc_available, nvrtc_options};
use numgpu::gemm_batched::cuda::{plan, plan_in, source, specialise, Plan};
use numgpu::geqrf_givens::cuda as qr;
use numgpu::getrf_fullpivot::cuda as lu;
use numgpu::gtsv_spike::cuda as tri;
use numgpu::core::MathMode;
use numgpu::{Complex32, Complex64, Scalar};

fn nvrtc_or_skip() -> bool {
    if nvrtc_available() {
        return true;
    }
    assert!(std::env::var("NUMGPU_REQUIRE_NVRTC").as_deref() != Ok("1"), "NUMGPU_REQUIRE_NVRTC=1 but libnvrtc was not found");
    eprintln!("SKIPPED kernel compile check: libnvrtc not found (pip install nvidia-cuda-nvrtc==13.0.88 and put nvidia/cu13/lib on LD_LIBRARY_PATH)");
    false
}

/// Compiles one specialisation for both archs; returns the ptxas report lines.
fn check(src: &str, defines: &[String], entry: &str) -> Vec<String> {
    let mut report = Vec::new();
    for arch in ["sm_80", "sm_90"] {
        let mut opts = nvrtc_options(arch, defines);
        opts.push("--ptxas-options=-v".into());
        let (cubin, log) = compile(src, &opts).unwrap_or_else(|e| panic!("{entry} for {arch} with {defines:?}: {e}"));
        assert!(!cubin.is_empty());
        let usage: Vec<&str> = log.lines().filter(|l| l.contains("registers") || l.contains("spill")).collect();
        let spills = log.lines().any(|l| l.contains("spill stores") && !l.contains(" 0 bytes spill stores"));
        report.push(format!("{entry:<18} {arch} {}{}", usage.join(" | ").replace("ptxas info    : ", ""), if spills { "  <-- SPILLS" } else { "" }));
    }
    report
}

/// Prints a compile report: the ptxas lines of every specialisation.
fn print_report(report: &[String]) {
    eprintln!("kernel compile report (NVRTC, ptxas -v):\n{}", report.join("\n"));
}

/// The report lines of `cases::<T>()` for each type, in order.
macro_rules! per_type {
    ($cases:ident: $($t:ty),+) => {
        [$($cases::<$t>()),+].concat()
    };
}

fn gemm_cases<T: Scalar>() -> Vec<String> {
    let mut out = Vec::new();
    // One specialisation per size class and per op pair on a representative shape.
    let shapes = [(4, 4, 4), (8, 8, 8), (16, 16, 16), (32, 32, 32), (3, 17, 5), (64, 64, 64), (128, 128, 128), (33, 65, 7)];
    for &(m, n, k) in &shapes {
        // With and without FP64 tensor cores (the double tensor-core class, and the SIMT
        // class older GPUs keep).
        let mut plans = vec![plan::<T>(m, n, k, true, true), plan::<T>(m, n, k, true, false)];
        // The TF32 math modes' tensor-core class (float and complex float).
        plans.extend([MathMode::Tf32x3, MathMode::Tf32].map(|mode| plan_in::<T>(mode, m, n, k, true, true)));
        // The SIMT class also with 4-byte copies and accesses (operands not 16-byte aligned).
        let unaligned: Vec<Plan> = plans.iter().filter_map(|p| if let Plan::Simt { bm, bn, bk, tm, tn, st, minb, .. } = *p { Some(Plan::Simt { bm, bn, bk, tm, tn, st, minb, vec: 0 }) } else { None }).collect();
        plans.extend(unaligned);
        plans.sort_by_key(|p| format!("{p:?}"));
        plans.dedup();
        for p in plans {
            for (ta, tb) in [(0, 0), (1, 2), (2, 1), (1, 0)] {
                let (d, e) = specialise::<T>(p, m, n, k, ta, tb);
                for line in check(source(), &d, &e) {
                    out.push(format!("{m}x{n}x{k} op({ta},{tb}) {line}"));
                }
            }
        }
    }
    let (d, e) = specialise::<T>(plan::<T>(4, 4, 0, false, true), 4, 4, 0, 0, 0);
    out.extend(check(source(), &d, &e));
    out
}

#[test]
fn gemm_kernels_compile_for_sm80_and_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    print_report(&per_type!(gemm_cases: f32, f64, Complex32, Complex64));
}

fn getrf_cases<T: Scalar>() -> Vec<String> {
    let mut out = Vec::new();
    // Warp-kernel orders at the edges of its lane widths (every order unrolls the same code,
    // and all 32 would take minutes), the block kernel in shared and in global memory, and the
    // two solve kernels.
    let mut plans: Vec<(usize, lu::Plan)> = [1, 5, 32].iter().map(|&n| (n, lu::plan::<T>(n, 0))).collect();
    plans.push((33, lu::Plan::Block { smem: true }));
    plans.push((33, lu::Plan::Block { smem: false }));
    for (n, p) in plans {
        let (d, e) = lu::specialise::<T>(n, p);
        out.extend(check(lu::source(), &d, &e).into_iter().map(|l| format!("n={n} {l}")));
    }
    for kind in ["getrs", "gesc2"] {
        let (d, e) = lu::specialise_solve::<T>(kind);
        out.extend(check(lu::source(), &d, &e));
    }
    out
}

#[test]
fn getrf_fullpivot_kernels_compile_for_sm80_and_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    print_report(&per_type!(getrf_cases: f32, f64, Complex32, Complex64));
}

fn geqrf_cases<T: Scalar>() -> Vec<String> {
    let mut out = Vec::new();
    // The factorisation's plans (lanes per matrix, a block per matrix, in shared memory or
    // not) and the three replay kernels.
    let mut plans: Vec<qr::Plan> = [(4, 4), (64, 32)].iter().map(|&(m, n)| qr::plan::<T>(m, n, 227 << 10)).collect();
    for staging in [qr::Staging::MatrixAndCosines, qr::Staging::Matrix, qr::Staging::Global] {
        plans.push(qr::Plan { g: 256, mpb: 1, staging });
    }
    for p in plans {
        let (d, e) = qr::specialise::<T>(p);
        out.extend(check(qr::source(), &d, &e).into_iter().map(|l| format!("{p:?} {l}")));
    }
    for kind in ["ormqr", "orgqr", "gels_solve"] {
        let (d, e) = qr::specialise_kernel::<T>(kind);
        out.extend(check(qr::source(), &d, &e));
    }
    out
}

#[test]
fn geqrf_givens_kernels_compile_for_sm80_and_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    print_report(&per_type!(geqrf_cases: f32, f64, Complex32, Complex64));
}

fn spmv_cases<T: Scalar>() -> Vec<String> {
    use numgpu::spmv::cuda::{source, specialise, Kernel};
    let mut kernels: Vec<Kernel> = [2, 8, 32].iter().map(|&v| Kernel::CsrT { v, conj: T::IS_COMPLEX }).collect();
    kernels.extend([Kernel::CsrN, Kernel::Check, Kernel::Scale, Kernel::PlanFixup]);
    for (perm, conj) in [(false, false), (true, false), (true, T::IS_COMPLEX)] {
        kernels.extend([Kernel::Plan { perm, conj }, Kernel::Stream { perm, conj }]);
    }
    if !T::IS_COMPLEX {
        kernels.extend([Kernel::Cmrs { height: 16, lanes: 2 }, Kernel::Cmrs { height: 16, lanes: 8 }, Kernel::Cmrs { height: 5, lanes: 4 }, Kernel::CmrsFixup { height: 16 }, Kernel::Gather]);
    }
    let mut out = Vec::new();
    for k in kernels {
        let (d, e) = specialise::<T>(k);
        out.extend(check(source(), &d, &e).into_iter().map(|l| format!("{k:?} {l}")));
    }
    out
}

#[test]
fn spmv_kernels_compile_for_sm80_and_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    print_report(&per_type!(spmv_cases: f32, f64, Complex32, Complex64));
}

#[test]
fn gtsv_spike_kernels_compile_for_sm80_and_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        tri::kernel_cases::<T>().into_iter().flat_map(|(d, e)| check(tri::source(), &d, &e)).collect()
    }
    print_report(&per_type!(cases: f32, f64, Complex32, Complex64));
}

#[test]
fn rkc_kernels_compile_for_sm80_and_sm90() {
    use numgpu::rkc::{cuda as rkc, Method, Problem};
    if !nvrtc_or_skip() {
        return;
    }
    // Every built-in problem with both methods at a small and a bench size, and a user source
    // without a spectral-radius function.
    let user = "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) { for (int i = 0; i < NEQ; ++i) f[i] = -p[0] * y[i] + sin(t); }";
    let mut cases: Vec<(String, usize, usize, bool)> = vec![(user.to_string(), 5, 1, false)];
    for (p, size) in [(Problem::Heat, 33), (Problem::Brusselator, 64), (Problem::Lorenz, 3), (Problem::Plei, 28)] {
        cases.push((p.cuda_source(), p.neq(size).unwrap(), p.npar(), p.has_spcrad()));
    }
    let mut report = Vec::new();
    for (src, neq, npar, spcrad) in &cases {
        for method in [Method::Rkc, Method::Rkck] {
            let (d, e) = rkc::specialise(*neq, *npar, method, *spcrad);
            report.extend(check(&rkc::program(src), &d, &e).into_iter().map(|l| format!("neq={neq} {l}")));
        }
    }
    print_report(&report);
}

/// SS-HOPM: the three kernels for the bench's (m, n) (constant tables, unrolled), an order and
/// dimension at the edge of the constant tables, and the general kernels (tables in device
/// memory) for a large order and for n = 16 and 32.
#[test]
fn sshopm_kernels_compile_for_sm80_and_sm90() {
    use numgpu::sshopm::{cuda as eig, tables};
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        let mut out = Vec::new();
        for (m, n) in [(4, 3), (6, 3), (8, 3), (2, 5), (12, 3), (3, 16), (4, 32)] {
            let tab = tables(m, n);
            for kind in ["sshopm", "unique", "apply"] {
                let (d, e) = eig::specialise::<T>(&tab, kind);
                let c = if eig::constant_tables(&tab) { "const" } else { "general" };
                out.extend(check(eig::source(), &d, &e).into_iter().map(|l| format!("m={m} n={n} {c} {l}")));
            }
        }
        out
    }
    print_report(&per_type!(cases: f32, f64));
}

#[test]
fn stebz_kernels_compile_for_sm80_and_sm90() {
    use numgpu::stebz::cuda as bis;
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        ["prep", "bisect", "order", "count"].iter().flat_map(|k| {
            let (d, e) = bis::specialise::<T>(k);
            check(bis::source(), &d, &e)
        }).collect()
    }
    print_report(&per_type!(cases: f32, f64));
}

#[test]
fn jacobi_kernels_compile_for_sm80_and_sm90() {
    use numgpu::jacobi::cuda as jac;
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        ["syevj", "gesvdj"].iter().flat_map(|k| {
            let (d, e) = jac::specialise::<T>(k);
            check(jac::source(), &d, &e)
        }).collect()
    }
    print_report(&per_type!(cases: f32, f64, Complex32, Complex64));
}

/// The (stack frame, spill stores) bytes of each function in a report line of `check`.
fn frames(line: &str) -> Vec<(usize, usize)> {
    let num = |part: &str, what: &str| part.split(what).next().and_then(|p| p.split_whitespace().last()).and_then(|n| n.parse().ok());
    line.split(" | ").filter(|p| p.contains("stack frame")).map(|p| (num(p, " bytes stack frame").unwrap_or(0), num(p, " bytes spill stores").unwrap_or(0))).collect()
}

/// The register-resident warp kernels: every order they serve (one compile holds both entry
/// points: syevj at n × n, gesvdj at min(m, n) × max(m, n) = n × n), and the rectangular
/// shapes of the integration tests; compiles in parallel. Every specialisation must keep its
/// row arrays in registers: a stack frame beyond the slots of its spills (ptxas spills a few
/// bytes at some orders, reported as SPILLS) would be an array indexed at run time.
#[test]
fn jacobi_warp_kernels_compile_for_every_order() {
    use numgpu::jacobi::cuda::{self as jac, WarpShape};
    use rayon::prelude::*;
    if !nvrtc_or_skip() {
        return;
    }
    fn shapes<T: Scalar>() -> Vec<WarpShape> {
        let top = jac::warp_max_order::<T>();
        let mut out: Vec<WarpShape> = (1..=top).map(|n| WarpShape { order: n, rows: n }).collect();
        // tests/integration/jacobi.rs's gesvdj_warp_shapes (as min(m, n), max(m, n)).
        for (rows, order) in [(2, 1), (5, 3), (9, 4), (16, 7), (17, 9), (32, 1), (32, 17), (31, 20), (32, 31)] {
            if jac::warp_path::<T>(order, rows).is_some() {
                out.push(WarpShape { order, rows });
            }
        }
        out
    }
    fn cases<T: Scalar + Sync>() -> Vec<String> {
        shapes::<T>()
            .par_iter()
            .flat_map_iter(|&w| {
                let (d, e) = jac::specialise_warp::<T>("syevj", w);
                let lines = check(jac::source(), &d, &e);
                for l in &lines {
                    assert!(frames(l).iter().all(|&(frame, spills)| frame <= spills.next_multiple_of(8)), "{w:?}: a register array in local memory: {l}");
                }
                lines.into_iter().map(move |l| format!("{}x{} {l}", w.order, w.rows))
            })
            .collect()
    }
    print_report(&per_type!(cases: f32, f64, Complex32, Complex64));
}

#[test]
fn potrf_kernels_compile_for_sm80_and_sm90() {
    use numgpu::potrf::cuda as chol;
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        let mut out = Vec::new();
        for (n, smem) in [(1usize, 227 << 10), (5, 227 << 10), (8, 227 << 10), (17, 227 << 10), (24, 227 << 10), (25, 227 << 10), (32, 227 << 10), (33, 227 << 10), (64, 227 << 10), (65, 227 << 10), (128, 227 << 10), (129, 227 << 10), (180, 227 << 10), (256, 227 << 10), (300, 227 << 10)] {
            let (d, e) = chol::specialise::<T>(n, chol::plan::<T>(n, smem));
            out.extend(check(chol::source(), &d, &e).into_iter().map(|l| format!("n={n} {l}")));
        }
        let (d, e) = chol::specialise_solve::<T>();
        out.extend(check(chol::source(), &d, &e));
        out
    }
    print_report(&per_type!(cases: f32, f64, Complex32, Complex64));
}

#[test]
fn expm_kernels_compile_for_sm80_and_sm90() {
    use numgpu::expm::cuda as ex;
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        let smem = 227 << 10;
        let mut out = Vec::new();
        // The models' orders, shared and per-problem inputs, one order too large to stage.
        for (m, shared) in [(4, true), (20, true), (61, true), (64, false), (200, true)] {
            let (d, e) = ex::eig_specialise::<T>(m, &ex::eig_plan::<T>(m, shared, smem));
            out.extend(check(ex::source(), &d, &e));
        }
        // The warp kernel (n ≤ 32: one lane, sub-warps, a whole warp, complex's two passes),
        // the block kernel with work matrices in shared memory (n = 40) and in device scratch.
        for n in [1, 8, 16, 17, 32, 40, 100] {
            let (d, e) = ex::pade_specialise::<T>(n, &ex::pade_plan::<T>(n, smem));
            out.extend(check(ex::source(), &d, &e));
        }
        out
    }
    print_report(&per_type!(cases: f32, f64, Complex32, Complex64));
}

#[test]
fn life_kernels_compile_for_sm80_and_sm90() {
    use numgpu::life::cuda as life;
    if !nvrtc_or_skip() {
        return;
    }
    let report: Vec<String> = life::KERNELS.iter().flat_map(|k| {
        let (d, e) = life::specialise(k);
        check(life::source(), &d, &e)
    }).collect();
    print_report(&report);
}

#[test]
fn tensor_kernels_compile_for_sm80_and_sm90() {
    use numgpu::tensor::cuda as ten;
    if !nvrtc_or_skip() {
        return;
    }
    fn cases<T: Scalar>() -> Vec<String> {
        // Every kernel shares the source and the defines, so one compile per arch covers them
        // all: each entry point must be in its log.
        let (d, e) = ten::specialise::<T>(ten::KERNELS[0]);
        let mut opts = nvrtc_options("sm_90", &d);
        opts.push("--ptxas-options=-v".into());
        let (_, log) = compile(ten::source(), &opts).unwrap_or_else(|err| panic!("{e}: {err}"));
        for k in ten::KERNELS {
            let entry = ten::specialise::<T>(k).1;
            assert!(log.contains(&format!("'{entry}'")), "{entry} is not an entry point of tensor.cu:\n{log}");
        }
        check(ten::source(), &d, &e)
    }
    print_report(&per_type!(cases: f32, f64));
}
