//! spmv: csrmv (ops N, T and C; 0- and 1-based) in each precision on a power-law graph (R-MAT,
//! 2^20 entries, rows from none to thousands) and on the 3-D anisotropic diffusion matrix of
//! shared/matrices; the CMRS object in each real precision (create with the default and with
//! a given height and M, info, cmrsmv, update_values, destroy) on short random rows and on the
//! stiffness matrix bcsstk15. Every entry of y against the CPU backend's and against the
//! oracle's reference (`numgpu::testing::sparse`), |Δy_i| over the spec's per-entry tolerance
//! (len_i + 4)·ε·(|α|·(|op(A)|·|x|)_i + |β|·|y0_i|), which the tests hold below 1; CMRS's
//! info (height, M, stored entries, padding ratio) as asked and identical to the CPU
//! backend's.

use crate::{cflops, measure, op_char, seed_of, Row, Rows};
use numgpu::spmv::{cmrs_from_csr, cmrs_update_host, cmrsmv_host, csrmv_csr, CmrsMatrix, CmrsScalar, Csr};
use numgpu::testing::gen::{c, filled};
use numgpu::testing::norm::c64s;
use numgpu::testing::sparse::{cast, error_ratio, generate, reference, shared_matrix, Kind};
use numgpu::{Backend, Complex32, Complex64, Handle, Op, Scalar};
use std::time::Instant;

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "csrmv, cmrsmv: |y − y_cpu| and |y − y_ref| of each entry over the spec's tolerance unit (len_i + 4)ε(|α|(|op(A)||x|)_i + |β||y0_i|) (the tests hold it below 1); ≠cpu (CMRS): info (height, M, stored entries, padding) other than asked or than the CPU backend's, must be 0; GFLOP/s at 2·nnz (8·nnz complex)";

/// `?csrmv` with op `trans` on `a`, alpha = 1 − i/2 (1 for real types), beta = 1/2 (y read).
fn csrmv_case<T: Scalar>(h: &mut Handle, name: &str, trans: Op, a: &Csr<T>, seed: u64) -> Result<Row, String> {
    let (xlen, ylen) = if trans == Op::N { (a.n, a.m) } else { (a.m, a.n) };
    let (x, y0) = (filled::<T>(xlen, seed), filled::<T>(ylen, seed + 1));
    let (alpha, beta) = (c::<T>(1.0, -0.5), c::<T>(0.5, 0.0));
    let (y, secs, ycpu) = measure(h, || y0.clone(), |h, y| csrmv_csr(h, trans, alpha, a, &x, beta, y))?;
    let (want, unit) = reference(trans, alpha, a, &x, beta, &y0);
    Ok(Row {
        routine: format!("{}csrmv {} {name}", T::LETTER, op_char(trans)),
        size: format!("{}x{}", a.m, a.n),
        batch: 1,
        secs,
        flops: cflops::<T>(2.0 * a.nnz() as f64),
        err_cpu: error_ratio(&y, &c64s(&ycpu), &unit),
        err_ref: error_ratio(&y, &want, &unit),
        note: format!("nnz {}, {}-based", a.nnz(), a.base),
        ..Row::default()
    })
}

/// Every csrmv case of one precision: ops N, T and C on each matrix, the first 0-based, the
/// others 1-based.
fn csrmv_all<T: Scalar>(h: &mut Handle, mats: &[(&str, Csr<f64>)], rows: &mut Rows) {
    let seed = seed_of::<T>(5);
    for (k, (name, a)) in mats.iter().enumerate() {
        let a = cast::<T>(a).with_base(k.min(1) as i32);
        for (j, trans) in [Op::N, Op::T, Op::C].into_iter().enumerate() {
            rows.push(csrmv_case::<T>(h, name, trans, &a, seed + 2 * (3 * k + j) as u64));
        }
    }
}

/// The CMRS object of one real precision on `a64`, created with `height` and `lanes` (M; 0
/// for the defaults: 16, and the M of least padding) on the handle's backend and on the CPU
/// backend: a row for `cmrsmv` (its info as asked and as the CPU backend's), then one for
/// `update_values` with new values followed by `cmrsmv`; then the object is destroyed.
/// y = 1·A·x + 1/2·y0.
fn cmrs_case<T: CmrsScalar>(h: &mut Handle, name: &str, a64: &Csr<f64>, height: i64, lanes: i64, seed: u64) -> Result<[Row; 2], String> {
    let mut a = cast::<T>(a64);
    let (x, y0) = (filled::<T>(a.n, seed), filled::<T>(a.m, seed + 1));
    let (alpha, beta) = (T::one(), c::<T>(0.5, 0.0));
    let fail = |e: numgpu::Error| e.msg;
    let product = |h: &mut Handle, o: &CmrsMatrix| -> Result<(Vec<T>, f64), String> {
        let mut y = y0.clone();
        let t = Instant::now();
        cmrsmv_host(h, alpha, o, &x, beta, &mut y).map_err(fail)?;
        h.synchronize().map_err(fail)?;
        Ok((y, t.elapsed().as_secs_f64()))
    };
    let mut cpu = Handle::cpu();
    if h.backend() == Backend::Cuda {
        let warm = cmrs_from_csr(h, &a, height, lanes).map_err(fail)?;
        product(h, &warm)?; // warm-up: compiles the kernel
    }
    let t = Instant::now();
    let mut obj = cmrs_from_csr(h, &a, height, lanes).map_err(fail)?;
    h.synchronize().map_err(fail)?;
    let create = t.elapsed().as_secs_f64();
    let mut obj_cpu = cmrs_from_csr(&mut cpu, &a, height, lanes).map_err(fail)?;
    // numgpu_cmrs_info's answers, and the stored entries behind the padding ratio.
    let info = |o: &CmrsMatrix| (o.height(), o.lanes(), o.stored(), o.padding_ratio());
    let as_asked = (if height == 0 { obj.height() == 16 } else { obj.height() == height as usize }) && (if lanes == 0 { [2, 4, 8].contains(&obj.lanes()) } else { obj.lanes() == lanes as usize });
    let info_differs = usize::from(!as_asked) + usize::from(info(&obj) != info(&obj_cpu));
    // Both backends' products, checked against each other and the reference.
    let checked = |h: &mut Handle, cpu: &mut Handle, obj: &CmrsMatrix, obj_cpu: &CmrsMatrix, a: &Csr<T>| -> Result<(f64, f64, f64), String> {
        let ((y, secs), (ycpu, _)) = (product(h, obj)?, product(cpu, obj_cpu)?);
        let (want, unit) = reference(Op::N, alpha, a, &x, beta, &y0);
        Ok((secs, error_ratio(&y, &c64s(&ycpu), &unit), error_ratio(&y, &want, &unit)))
    };
    let (secs, err_cpu, err_ref) = checked(h, &mut cpu, &obj, &obj_cpu, &a)?;
    let created = Row {
        routine: format!("{}cmrsmv {name}", T::LETTER),
        size: format!("{}x{}", a.m, a.n),
        batch: 1,
        secs,
        flops: 2.0 * a.nnz() as f64,
        err_cpu,
        err_ref,
        differ: Some(info_differs),
        note: format!("create {:.1} ms; height {}, M {}, padding {:.3}", create * 1e3, obj.height(), obj.lanes(), obj.padding_ratio()),
        ..Row::default()
    };

    // New values for the same pattern, on both backends.
    a.val = filled::<T>(a.nnz(), seed + 2);
    let t = Instant::now();
    cmrs_update_host(h, &mut obj, &a.val).map_err(fail)?;
    h.synchronize().map_err(fail)?;
    let update = t.elapsed().as_secs_f64();
    cmrs_update_host(&mut cpu, &mut obj_cpu, &a.val).map_err(fail)?;
    let (secs, err_cpu, err_ref) = checked(h, &mut cpu, &obj, &obj_cpu, &a)?;
    let t = Instant::now();
    drop(obj);
    h.synchronize().map_err(fail)?;
    let destroy = t.elapsed().as_secs_f64();
    let updated = Row {
        routine: format!("{}cmrs_update_values {name}", T::LETTER),
        secs: update + secs,
        err_cpu,
        err_ref,
        differ: None,
        note: format!("time: update_values {:.2} ms + cmrsmv {:.2} ms (checked); destroy {:.2} ms", update * 1e3, secs * 1e3, destroy * 1e3),
        ..created.clone()
    };
    Ok([created, updated])
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    let (diffusion, stiffness) = match (shared_matrix("anisotropic3d7816"), shared_matrix("bcsstk15")) {
        (Ok(p), Ok(q)) => (p, q),
        (Err(e), _) | (_, Err(e)) => return rows.push(Err(format!("spmv: {e}"))),
    };
    let csr = [("power-law", generate(Kind::PowerLaw, 1 << 20, 0x50)), ("anisotropic3d7816", diffusion)];
    csrmv_all::<f32>(h, &csr, rows);
    csrmv_all::<f64>(h, &csr, rows);
    csrmv_all::<Complex32>(h, &csr, rows);
    csrmv_all::<Complex64>(h, &csr, rows);
    let short = generate(Kind::Short, 1 << 20, 0x51);
    for (k, (name, a, height, lanes)) in [("short-rows", &short, 0, 0), ("bcsstk15", &stiffness, 8, 2)].into_iter().enumerate() {
        for r in [cmrs_case::<f32>(h, name, a, height, lanes, 0x60 + 4 * k as u64), cmrs_case::<f64>(h, name, a, height, lanes, 0x70 + 4 * k as u64)] {
            match r {
                Ok(pair) => rows.extend(pair.map(Ok)),
                Err(e) => rows.push(Err(e)),
            }
        }
    }
}
