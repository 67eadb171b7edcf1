//! life (LiFE connectome evaluation), in double, on a synthetic connectome of the oracle
//! (`numgpu::testing::life`: Nθ = 96, 400 atoms, 20,000 voxels, 8,000 fibres of about 60
//! voxels each): the two products and 100 SBBNNLS iterations. Product rows: err/cpu =
//! max|y − y_cpu| / (ulp·max(|M|·|w|)) (the CPU backend sums in the same order, without
//! fused multiply-adds); err/ref = |⟨M·w, y⟩ − ⟨w, Mᵀ·y⟩| / (ulp·⟨|M|·|w|, |y|⟩), the adjoint
//! identity. SBBNNLS row: err/cpu = |f − f_cpu| / (10⁶·ulp·f) for the objectives f after 100
//! iterations (the iteration amplifies rounding differences a little each step), err/ref the
//! same against f at a start that is already the solution of a problem built to have one
//! (b = M·w* with w* ≥ 0); ≠cpu = 1 when w has a negative entry or the objective rose above its
//! value at the start.

use crate::{Row, Rows};
use numgpu::life::{mty_host, mw_host, plan_from_coo, sbbnnls_host, LifePlan};
use numgpu::testing::life::{connectome, dictionary, signal, Shape};
use numgpu::Handle;
use std::time::Instant;

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "life: DSC (y = M·w) and WC (w = Mᵀ·y) err/cpu max|y − y_cpu| over ulp·max(|M||w|), err/ref the adjoint identity over ulp·⟨|M||w|, |y|⟩; SBBNNLS (100 iterations) err/cpu |f − f_cpu| over 10⁶·ulp·f, err/ref the objective from the exact solution of b = M·w*, ≠cpu 1 when w < 0 somewhere or the objective rose; GFLOP/s at 2·Nθ flops per entry and product";

const SHAPE: Shape = Shape { ntheta: 96, natoms: 400, nvoxels: 20_000, nfibers: 8_000, per_fibre: 60 };
const NT: usize = 96;
const ITERS: i64 = 100;

/// Seconds of `f` on `h`, after a warm-up call on CUDA (which compiles the kernels).
fn timed<R>(h: &mut Handle, mut f: impl FnMut(&mut Handle) -> numgpu::Result<R>) -> Result<(R, f64), String> {
    if h.backend() == numgpu::Backend::Cuda {
        f(h).map_err(|e| e.msg)?;
    }
    let t = Instant::now();
    let r = f(h).map_err(|e| e.msg)?;
    h.synchronize().map_err(|e| e.msg)?;
    Ok((r, t.elapsed().as_secs_f64()))
}

fn max_abs(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |s, v| s.max(v.abs()))
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |s, (x, y)| s.max((x - y).abs()))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The plans on `h` and on the CPU backend.
struct Case {
    p: LifePlan,
    cpu: LifePlan,
    nnz: usize,
    d: Vec<f64>,
    w: Vec<f64>,
    y: Vec<f64>,
}

fn products(h: &mut Handle, c: &Case, rows: &mut Rows) {
    let (nv, nf, eps) = (SHAPE.nvoxels, SHAPE.nfibers, f64::EPSILON);
    let mut cpu = Handle::cpu();
    let flops = (2 * NT * c.nnz) as f64;
    let dabs: Vec<f64> = c.d.iter().map(|x| x.abs()).collect();
    let wabs: Vec<f64> = c.w.iter().map(|x| x.abs()).collect();
    let mut mabs_w = vec![0.0; NT * nv];
    let dsc = (|| -> Result<Row, String> {
        mw_host(&mut cpu, &c.cpu, &dabs, NT as i64, &wabs, 0.0, &mut mabs_w, NT as i64).map_err(|e| e.msg)?;
        let (y, secs) = timed(h, |h| {
            let mut y = vec![0.0; NT * nv];
            mw_host(h, &c.p, &c.d, NT as i64, &c.w, 0.0, &mut y, NT as i64).map(|_| y)
        })?;
        let mut y_cpu = vec![0.0; NT * nv];
        mw_host(&mut cpu, &c.cpu, &c.d, NT as i64, &c.w, 0.0, &mut y_cpu, NT as i64).map_err(|e| e.msg)?;
        let mut g = vec![0.0; nf];
        mty_host(h, &c.p, &c.d, NT as i64, &c.y, NT as i64, 0.0, &mut g).map_err(|e| e.msg)?;
        let yabs: Vec<f64> = c.y.iter().map(|x| x.abs()).collect();
        let adjoint = (dot(&y, &c.y) - dot(&c.w, &g)).abs() / (eps * dot(&mabs_w, &yabs));
        Ok(Row { routine: "dlife_mw (DSC)".into(), size: format!("{NT}x{nv}, nnz={}", c.nnz), batch: 1, secs, flops, err_cpu: max_diff(&y, &y_cpu) / (eps * max_abs(&mabs_w)), err_ref: adjoint, differ: Some(0), note: format!("{nf} fibres; a warp per voxel on CUDA, one D read per (voxel, atom)"), ..Row::default() })
    })();
    rows.push(dsc);
    let wc = (|| -> Result<Row, String> {
        let (g, secs) = timed(h, |h| {
            let mut g = vec![0.0; nf];
            mty_host(h, &c.p, &c.d, NT as i64, &c.y, NT as i64, 0.0, &mut g).map(|_| g)
        })?;
        let mut g_cpu = vec![0.0; nf];
        mty_host(&mut cpu, &c.cpu, &c.d, NT as i64, &c.y, NT as i64, 0.0, &mut g_cpu).map_err(|e| e.msg)?;
        let yabs: Vec<f64> = c.y.iter().map(|x| x.abs()).collect();
        let mut scale = vec![0.0; nf];
        mty_host(&mut cpu, &c.cpu, &dabs, NT as i64, &yabs, NT as i64, 0.0, &mut scale).map_err(|e| e.msg)?;
        let mut y = vec![0.0; NT * nv];
        mw_host(h, &c.p, &c.d, NT as i64, &c.w, 0.0, &mut y, NT as i64).map_err(|e| e.msg)?;
        let adjoint = (dot(&y, &c.y) - dot(&c.w, &g)).abs() / (eps * dot(&mabs_w, &yabs));
        Ok(Row { routine: "dlife_mty (WC)".into(), size: format!("{NT}x{nv}, nnz={}", c.nnz), batch: 1, secs, flops, err_cpu: max_diff(&g, &g_cpu) / (eps * max_abs(&scale)), err_ref: adjoint, differ: Some(0), note: format!("{nf} fibres; terms by voxel, sums by fibre"), ..Row::default() })
    })();
    rows.push(wc);
}

fn solve(h: &mut Handle, c: &Case, rows: &mut Rows) {
    let (nv, nf, eps) = (SHAPE.nvoxels, SHAPE.nfibers, f64::EPSILON);
    let row = (|| -> Result<Row, String> {
        let mut cpu = Handle::cpu();
        // The objective at the start w = 0 (zero iterations).
        let f0 = sbbnnls_host(&mut cpu, &c.cpu, &c.d, NT as i64, &c.y, NT as i64, &mut vec![0.0; nf], 0, 0.0).map_err(|e| e.msg)?.objective;
        let ((w, out), secs) = timed(h, |h| {
            let mut w = vec![0.0; nf];
            sbbnnls_host(h, &c.p, &c.d, NT as i64, &c.y, NT as i64, &mut w, ITERS, 0.0).map(|o| (w, o))
        })?;
        let mut w_cpu = vec![0.0; nf];
        let out_cpu = sbbnnls_host(&mut cpu, &c.cpu, &c.d, NT as i64, &c.y, NT as i64, &mut w_cpu, ITERS, 0.0).map_err(|e| e.msg)?;
        // b = M·w* with w* ≥ 0: from w*, the objective is 0 and must stay near it.
        let wstar: Vec<f64> = c.w.iter().map(|x| x.abs()).collect();
        let mut b = vec![0.0; NT * nv];
        let mut ws = wstar.clone();
        mw_host(h, &c.p, &c.d, NT as i64, &wstar, 0.0, &mut b, NT as i64).map_err(|e| e.msg)?;
        let exact = sbbnnls_host(h, &c.p, &c.d, NT as i64, &b, NT as i64, &mut ws, 10, 0.0).map_err(|e| e.msg)?;
        let bb = 0.5 * dot(&b, &b);
        let bad = w.iter().any(|&x| x < 0.0) || out.objective > f0;
        Ok(Row {
            routine: "dlife_sbbnnls".into(),
            size: format!("{NT}x{nv}, nnz={}", c.nnz),
            batch: 1,
            secs,
            flops: (2 * NT * c.nnz) as f64 * 3.5 * ITERS as f64,
            err_cpu: (out.objective - out_cpu.objective).abs() / (1e6 * eps * out_cpu.objective),
            err_ref: exact.objective / (1e6 * eps * bb),
            differ: Some(usize::from(bad)),
            note: format!("{} iterations, objective {:.4e} from {f0:.4e}", out.iters, out.objective),
            ..Row::default()
        })
    })();
    rows.push(row);
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    let coo = connectome(&SHAPE, 0x11fe, 1);
    let made = (|| -> numgpu::Result<Case> {
        let p = plan_from_coo(h, &coo)?;
        let cpu = plan_from_coo(&mut Handle::cpu(), &coo)?;
        Ok(Case { p, cpu, nnz: coo.nnz(), d: dictionary(NT, SHAPE.natoms, NT, 0x11ff), w: signal(SHAPE.nfibers, 1, SHAPE.nfibers, 0x1200), y: signal(NT, SHAPE.nvoxels, NT, 0x1201) })
    })();
    match made {
        Ok(c) => {
            products(h, &c, rows);
            solve(h, &c, rows);
        }
        Err(e) => rows.push(Err(format!("numgpu_life_plan_create: {}", e.msg))),
    }
}
