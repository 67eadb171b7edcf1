//! csrmv and CMRS on every backend, against the oracle's reference with the spec's per-row
//! tolerance (`numgpu::testing::sparse`): the real matrices of shared/matrices and
//! the generated suite; empty rows, a dense row, nnz = 0, m or n = 0 or 1, rectangular,
//! 1-based, unsorted and duplicate entries; alpha and beta 0 and 1; beta = 0 over NaN in y;
//! Inf in x (rows that do not touch it stay finite); CMRS with each M and height, equal to
//! CSR on the same matrix, its values updated; bad structures and every argument check
//! (`INVALID_VALUE` naming the argument, y untouched). The CSR plan on the same matrices and
//! more (power-law rows with a row of 10^5 entries, split across units), every op, reused
//! for many value sets, its checks; on CUDA bitwise equal to the CPU backend.

use crate::common::c_position;
use numgpu::spmv::plan::PlanKernel;
use numgpu::spmv::{cmrs_create, cmrs_from_csr, cmrs_update_host, cmrsmv, cmrsmv_host, csr_plan_create, csr_plan_of, csrmv, csrmv_csr, csrmv_plan, csrmv_plan_host, CmrsMatrix, CmrsScalar, Csr, CsrPlan};
use numgpu::testing::gen::{c, nan, random, rng};
use numgpu::testing::norm::same;
use numgpu::testing::sparse::{self, benchmark_suite, cast, check, generate, pattern, revalue, Kind};
use numgpu::{Backend, Complex64, Handle, Op, Scalar, Status};

const OPS: [Op; 3] = [Op::N, Op::T, Op::C];

/// One csrmv on host arrays, checked; returns y.
#[allow(clippy::too_many_arguments)]
fn run_csrmv<T: Scalar>(h: &mut Handle, what: &str, trans: Op, alpha: T, a: &Csr<T>, x: &[T], beta: T, y0: &[T]) -> Vec<T> {
    let mut y = y0.to_vec();
    let what = format!("{}csrmv {what} {trans:?} {}x{} nnz={} base={} alpha={alpha:?} beta={beta:?}", T::LETTER, a.m, a.n, a.nnz(), a.base);
    csrmv_csr(h, trans, alpha, a, x, beta, &mut y).unwrap_or_else(|e| panic!("{what}: {e}"));
    check(&what, trans, alpha, a, x, beta, y0, &y);
    y
}

/// x and y0 for op(A): random, y0 NaN when beta = 0.
fn vectors<T: Scalar>(trans: Op, a: &Csr<T>, beta: T, seed: u64) -> (Vec<T>, Vec<T>) {
    let (xlen, ylen) = if trans == Op::N { (a.n, a.m) } else { (a.m, a.n) };
    let mut r = rng(seed);
    let x = random::<T>(&mut r, xlen, 1.0);
    let y0 = if beta.is_zero() { vec![nan::<T>(); ylen] } else { random::<T>(&mut r, ylen, 1.0) };
    (x, y0)
}

/// Every op with a few (alpha, beta), 0- and 1-based.
fn all_ops<T: Scalar>(h: &mut Handle, what: &str, a: &Csr<T>, seed: u64) {
    for trans in OPS {
        for (alpha, beta) in [(c::<T>(1.0, 0.0), c::<T>(0.0, 0.0)), (c(-0.75, 0.5), c(0.5, -0.25))] {
            for base in [0, 1] {
                let a = a.with_base(base);
                let (x, y0) = vectors(trans, &a, beta, seed);
                run_csrmv(h, what, trans, alpha, &a, &x, beta, &y0);
            }
        }
    }
}

fn shared_matrices_for<T: Scalar>(h: &mut Handle) {
    for path in sparse::shared_matrices().unwrap_or_else(|e| panic!("{e}")) {
        let a = sparse::read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(a.nnz() > 0, "{} read as empty", path.display());
        all_ops(h, &path.file_name().unwrap().to_string_lossy(), &cast::<T>(&a), 11);
    }
}

fn suite_for<T: Scalar>(h: &mut Handle) {
    for (s, (name, a)) in benchmark_suite(6000).into_iter().enumerate() {
        all_ops(h, &name, &revalue::<T>(&a, s as u64), 100 + s as u64);
    }
}

/// The structures of the spec: empty rows, one dense row, nnz = 0, m or n = 0 or 1,
/// rectangular, unsorted columns, duplicates.
fn structure_cases() -> Vec<(&'static str, Csr<f64>)> {
    vec![
        ("empty rows", pattern(40, 30, 1, |i| if i % 3 == 0 { 0 } else { 1 + i % 7 })),
        ("one dense row", pattern(50, 3000, 2, |i| if i == 7 { 3000 } else { 3 })),
        ("long rows", pattern(70, 5000, 3, |i| [0, 1, 40, 1100, 33, 2][i % 6])),
        ("nnz = 0", pattern(5, 4, 3, |_| 0)),
        ("1x1", pattern(1, 1, 4, |_| 1)),
        ("1x100", pattern(1, 100, 5, |_| 60)),
        ("100x1", pattern(100, 1, 6, |i| i % 2)),
        ("70x33", pattern(70, 33, 7, |i| i % 9)),
        ("33x70", pattern(33, 70, 8, |i| 1 + i % 17)),
        ("duplicates", pattern(20, 3, 9, |_| 8)),
        ("warp edges", pattern(129, 129, 10, |i| [31, 32, 33, 63, 64, 65][i % 6])),
    ]
}

/// csrmv on [`structure_cases`], and m or n = 0.
fn structures_for<T: Scalar>(h: &mut Handle) {
    let cases = structure_cases();
    for (s, (name, a)) in cases.iter().enumerate() {
        all_ops(h, name, &revalue::<T>(a, s as u64), 200 + s as u64);
    }
    // m or n = 0: success, y untouched (even NULL).
    for (m, n) in [(0i64, 5i64), (5, 0), (0, 0)] {
        let rp = vec![0i32; m as usize + 1];
        let mut y = vec![nan::<T>(); 5];
        for trans in OPS {
            unsafe { csrmv(h, trans, m, n, 0, T::one(), std::ptr::null(), rp.as_ptr(), std::ptr::null(), 0, std::ptr::null(), T::zero(), y.as_mut_ptr()) }.unwrap();
            unsafe { csrmv(h, trans, m, n, 0, T::one(), std::ptr::null(), std::ptr::null(), std::ptr::null(), 0, std::ptr::null(), T::zero(), std::ptr::null_mut()) }.unwrap();
        }
        assert!(y.iter().all(|v| v.to_c64().re.is_nan()), "{}csrmv m={m} n={n} wrote y", T::LETTER);
    }
}

/// alpha and beta 0 and 1: alpha = 0 reads neither A nor x (NULL), beta = 0 does not read y
/// (NaN), alpha = 0 with beta = 1 touches nothing.
fn alpha_beta_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(37, 29, 20, |i| i % 5), 20);
    let (zero, one, half) = (T::zero(), T::one(), c::<T>(0.5, 0.5));
    for trans in OPS {
        for alpha in [zero, one, half] {
            for beta in [zero, one, half] {
                let (x, y0) = vectors(trans, &a, beta, 21);
                run_csrmv(h, "alpha/beta", trans, alpha, &a, &x, beta, &y0);
            }
        }
        let (_, y0) = vectors(trans, &a, one, 22);
        for (beta, want) in [(zero, vec![zero; y0.len()]), (half, y0.iter().map(|&v| half * v).collect()), (one, y0.clone())] {
            let mut y = y0.clone();
            unsafe { csrmv(h, trans, a.m as i64, a.n as i64, a.nnz() as i64, zero, std::ptr::null(), std::ptr::null(), std::ptr::null(), 0, std::ptr::null(), beta, y.as_mut_ptr()) }.unwrap();
            assert!(y.iter().zip(&want).all(|(p, q)| same(*p, *q)), "{}csrmv {trans:?} alpha = 0, beta = {beta:?}: y is not beta·y", T::LETTER);
        }
    }
}

/// Inf in x: the rows (op N) or columns (op T) that touch it are not finite, the others are
/// accurate; NaN in y with beta = 0 does not propagate (checked by every call above).
fn inf_in_x_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(64, 64, 30, |i| 1 + i % 6), 30);
    for trans in OPS {
        let (mut x, y0) = vectors(trans, &a, T::zero(), 31);
        x[5] = c(f64::INFINITY, 0.0);
        run_csrmv(h, "Inf in x", trans, T::one(), &a, &x, T::zero(), &y0);
    }
}

/// Bad structures: `INVALID_VALUE` naming row_ptr (8) or col_ind (9) and the first bad row or
/// entry, y untouched (host arrays on every backend).
fn bad_structure_for<T: Scalar>(h: &mut Handle) {
    let good = revalue::<T>(&pattern(30, 20, 40, |i| 1 + i % 4), 40);
    let mut cases: Vec<(&str, Csr<T>, i32, String)> = Vec::new();
    let mut a = good.clone();
    a.row_ptr.swap(3, 4);
    cases.push(("non-monotone row_ptr", a, 8, "row 3".into()));
    let mut a = good.clone();
    a.row_ptr[30] += 1;
    cases.push(("row_ptr[m] > nnz", a, 8, "row 29".into()));
    let mut a = good.clone();
    a.row_ptr[0] = -1;
    cases.push(("negative row_ptr", a, 8, "row 0".into()));
    let mut a = good.clone();
    a.col_ind[17] = 20;
    a.col_ind[30] = -1;
    cases.push(("column = n", a, 9, "col_ind[17]".into()));
    let mut a = good.clone();
    a.col_ind[5] = -3;
    cases.push(("negative column", a, 9, "col_ind[5]".into()));
    let mut a = good.with_base(1);
    a.col_ind[9] = 0;
    cases.push(("column 0 when 1-based", a, 9, "col_ind[9]".into()));
    let mut a = good.clone();
    a.col_ind[2] = 99;
    a.row_ptr.swap(10, 11);
    cases.push(("bad row before bad column", a, 8, "row 10".into()));
    for (what, a, arg, names) in &cases {
        for trans in OPS {
            let (x, y0) = vectors(trans, a, T::one(), 41);
            let mut y = y0.clone();
            let e = csrmv_csr(h, trans, T::one(), a, &x, T::one(), &mut y).expect_err(what);
            assert_eq!((e.status, c_position(&e, "numgpu_scsrmv")), (Status::NUMGPU_INVALID_VALUE, *arg), "{}csrmv {what} {trans:?}: {e}", T::LETTER);
            assert!(e.msg.contains(names.as_str()), "{}csrmv {what}: message '{}' does not name {names}", T::LETTER, e.msg);
            assert!(y.iter().zip(&y0).all(|(p, q)| same(*p, *q)), "{}csrmv {what} {trans:?}: y written", T::LETTER);
        }
    }
}

/// One bad value per argument: `INVALID_VALUE` naming it, y untouched.
fn argument_checks_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(6, 5, 50, |_| 2), 50);
    let x = random::<T>(&mut rng(51), 6, 1.0);
    let y0 = random::<T>(&mut rng(52), 6, 1.0);
    let (val, rp, ci) = (a.val.as_ptr(), a.row_ptr.as_ptr(), a.col_ind.as_ptr());
    let null_t: *const T = std::ptr::null();
    let null_i: *const i32 = std::ptr::null();
    type Call<T> = (i64, i64, i64, *const T, *const i32, *const i32, i32, *const T, bool);
    let cases: Vec<(i32, Call<T>)> = vec![
        (3, (-1, 5, 12, val, rp, ci, 0, x.as_ptr(), false)),
        (4, (6, -1, 12, val, rp, ci, 0, x.as_ptr(), false)),
        (5, (6, 5, -1, val, rp, ci, 0, x.as_ptr(), false)),
        (5, (6, 5, i32::MAX as i64, val, rp, ci, 1, x.as_ptr(), false)),
        (7, (6, 5, 12, null_t, rp, ci, 0, x.as_ptr(), false)),
        (8, (6, 5, 12, val, null_i, ci, 0, x.as_ptr(), false)),
        (9, (6, 5, 12, val, rp, null_i, 0, x.as_ptr(), false)),
        (10, (6, 5, 12, val, rp, ci, 2, x.as_ptr(), false)),
        (11, (6, 5, 12, val, rp, ci, 0, null_t, false)),
        (13, (6, 5, 12, val, rp, ci, 0, x.as_ptr(), true)),
    ];
    for (arg, (m, n, nnz, v, r, cc, base, xp, null_y)) in cases {
        let mut y = y0.clone();
        let yp = if null_y { std::ptr::null_mut() } else { y.as_mut_ptr() };
        let e = unsafe { csrmv(h, Op::N, m, n, nnz, T::one(), v, r, cc, base, xp, T::one(), yp) }.expect_err("invalid call");
        assert_eq!((e.status, c_position(&e, "numgpu_scsrmv")), (Status::NUMGPU_INVALID_VALUE, arg), "{}csrmv: {e}", T::LETTER);
        assert!(y.iter().zip(&y0).all(|(p, q)| same(*p, *q)), "{}csrmv argument {arg}: y written", T::LETTER);
    }
    // NULL is fine where nothing is read: val and col_ind with nnz = 0.
    let rp0 = [0i32; 7];
    let mut y = y0.clone();
    unsafe { csrmv(h, Op::N, 6, 5, 0, T::one(), null_t, rp0.as_ptr(), null_i, 0, x.as_ptr(), T::zero(), y.as_mut_ptr()) }.unwrap();
    assert!(y.iter().all(|v| v.is_zero()), "{}csrmv nnz = 0, beta = 0: y is not 0", T::LETTER);
}

/// Arrays from `numgpu_malloc` (device memory on CUDA, host memory on CPU): the product, and
/// a bad column reported by the call (CPU) or the next synchronisation (CUDA).
fn device_arrays_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(300, 200, 60, |i| i % 40), 60);
    let (x, y0) = vectors(Op::N, &a, c(0.5, 0.0), 61);
    unsafe {
        let up = |h: &mut Handle, bytes: usize, src: *const u8| -> *mut u8 {
            let p = h.malloc(bytes).unwrap() as *mut u8;
            h.memcpy(p as _, src as _, bytes).unwrap();
            p
        };
        let sz = std::mem::size_of::<T>();
        let dv = up(h, a.nnz() * sz, a.val.as_ptr() as _) as *const T;
        let drp = up(h, (a.m + 1) * 4, a.row_ptr.as_ptr() as _) as *const i32;
        let dci = up(h, a.nnz() * 4, a.col_ind.as_ptr() as _) as *mut i32;
        let dx = up(h, x.len() * sz, x.as_ptr() as _) as *const T;
        let dy = up(h, y0.len() * sz, y0.as_ptr() as _) as *mut T;
        csrmv(h, Op::N, a.m as i64, a.n as i64, a.nnz() as i64, T::one(), dv, drp, dci, 0, dx, c(0.5, 0.0), dy).unwrap();
        h.synchronize().unwrap();
        let mut y = vec![T::zero(); y0.len()];
        h.memcpy(y.as_mut_ptr() as _, dy as _, y.len() * sz).unwrap();
        check(&format!("{}csrmv device arrays", T::LETTER), Op::N, T::one(), &a, &x, c(0.5, 0.0), &y0, &y);
        let bad = 1000i32;
        h.memcpy(dci.add(77) as _, &bad as *const i32 as _, 4).unwrap();
        let named = |e: &numgpu::Error| e.status == Status::NUMGPU_INVALID_VALUE && e.msg.contains("col_ind[77]");
        match csrmv(h, Op::N, a.m as i64, a.n as i64, a.nnz() as i64, T::one(), dv, drp, dci, 0, dx, T::zero(), dy) {
            Err(e) => assert!(h.backend() == Backend::Cpu && named(&e), "{}csrmv: {e}", T::LETTER),
            Ok(()) => {
                assert_eq!(h.backend(), Backend::Cuda, "{}csrmv accepted a bad column", T::LETTER);
                let e = h.synchronize().expect_err("the bad column is reported by the synchronisation");
                assert!(named(&e), "{}csrmv: {e}", T::LETTER);
                h.synchronize().expect("the report is given once");
            }
        }
        // A bad row pointer on the device: the rows of other blocks, and the valid rows of
        // the bad one's block, are still computed; the report names the first bad row.
        h.memcpy(dci.add(77) as _, a.col_ind.as_ptr().add(77) as _, 4).unwrap();
        h.memcpy(dy as _, y0.as_ptr() as _, y0.len() * sz).unwrap();
        let (row, huge) = (150usize, 1 << 30);
        h.memcpy((drp as *mut i32).add(row) as _, &huge as *const i32 as _, 4).unwrap();
        let named = |e: &numgpu::Error| e.status == Status::NUMGPU_INVALID_VALUE && e.msg.contains(&format!("row {}", row - 1));
        match csrmv(h, Op::N, a.m as i64, a.n as i64, a.nnz() as i64, T::one(), dv, drp, dci, 0, dx, c(0.5, 0.0), dy) {
            Err(e) => assert!(h.backend() == Backend::Cpu && named(&e), "{}csrmv: {e}", T::LETTER),
            Ok(()) => {
                let e = h.synchronize().expect_err("the bad row pointer is reported by the synchronisation");
                assert!(named(&e), "{}csrmv: {e}", T::LETTER);
                h.memcpy(y.as_mut_ptr() as _, dy as _, y.len() * sz).unwrap();
                for i in (0..a.m).filter(|&i| i + 1 != row && i != row) {
                    let (mut exact, mut mag) = (Complex64::new(0.0, 0.0), 0.0);
                    for k in a.row_ptr[i] as usize..a.row_ptr[i + 1] as usize {
                        let p = a.val[k].to_c64() * x[a.col_ind[k] as usize].to_c64();
                        (exact, mag) = (exact + p, mag + p.norm());
                    }
                    let want = exact + y0[i].to_c64() * 0.5;
                    let tol = 64.0 * T::EPS * (mag + y0[i].to_c64().norm());
                    assert!((y[i].to_c64() - want).norm() <= tol, "{}csrmv: row {i} of a block with a bad row pointer", T::LETTER);
                }
            }
        }
        for p in [dv as *mut u8, drp as _, dci as _, dx as _, dy as _] {
            h.free(p as _).unwrap();
        }
    }
}

crate::all_precisions! {
    shared_matrices => shared_matrices_for;
    suite => suite_for;
    structures => structures_for;
    alpha_beta => alpha_beta_for;
    inf_in_x => inf_in_x_for;
    bad_structure => bad_structure_for;
    argument_checks => argument_checks_for;
    device_arrays => device_arrays_for;
}

/// A CMRS product of `a` checked against the reference and against csrmv on the same data.
fn check_cmrs<T: CmrsScalar>(h: &mut Handle, what: &str, m: &CmrsMatrix, a: &Csr<T>, alpha: T, beta: T, seed: u64) {
    let (x, y0) = vectors(Op::N, a, beta, seed);
    let mut y = y0.clone();
    let what = format!("{}cmrsmv {what} {}x{} nnz={} height={} M={} alpha={alpha:?} beta={beta:?}", T::LETTER, a.m, a.n, a.nnz(), m.height(), m.lanes());
    cmrsmv_host(h, alpha, m, &x, beta, &mut y).unwrap_or_else(|e| panic!("{what}: {e}"));
    check(&what, Op::N, alpha, a, &x, beta, &y0, &y);
}

fn cmrs_for<T: CmrsScalar>(h: &mut Handle) {
    // Each M and height, 0- and 1-based, on matrices with short, mixed and long rows.
    let mats: Vec<(&str, Csr<f64>)> = vec![
        ("short rows", generate(Kind::Short, 3000, 70)),
        ("mixed rows", pattern(203, 150, 71, |i| [0, 1, 3, 9, 40, 2, 17][i % 7])),
        ("power-law", generate(Kind::PowerLaw, 4000, 72)),
        // Strips cut into several work items: one long row, and a strip of long rows.
        ("long rows", pattern(40, 3000, 75, |i| if i == 7 { 2500 } else if i >= 32 { 700 } else { i % 5 })),
        ("nnz = 0", pattern(9, 9, 73, |_| 0)),
        ("1x1", pattern(1, 1, 74, |_| 1)),
    ];
    for (s, (name, a)) in mats.iter().enumerate() {
        let a = revalue::<T>(a, 300 + s as u64);
        for base in [0, 1] {
            let a = a.with_base(base);
            for height in [0, 1, 5, 16] {
                for lanes in [0, 2, 4, 8] {
                    let m = cmrs_from_csr(h, &a, height, lanes).unwrap_or_else(|e| panic!("{}cmrs_create {name} height {height} M {lanes}: {e}", T::LETTER));
                    assert_eq!(m.height(), if height == 0 { 16 } else { height as usize });
                    assert!([2, 4, 8].contains(&m.lanes()) && (lanes == 0 || m.lanes() == lanes as usize));
                    assert_eq!(m.stored() % 32, 0);
                    assert!(m.padding_ratio() >= 0.0);
                    for (alpha, beta) in [(T::one(), T::zero()), (c(-1.5, 0.0), c(0.25, 0.0)), (T::zero(), c(2.0, 0.0))] {
                        check_cmrs(h, name, &m, &a, alpha, beta, 400 + s as u64);
                    }
                }
            }
        }
    }
    // The real matrices, and CMRS equal to CSR within the tolerance on each.
    for path in sparse::shared_matrices().unwrap_or_else(|e| panic!("{e}")) {
        let a = cast::<T>(&sparse::read(&path).unwrap());
        let m = cmrs_from_csr(h, &a, 0, 0).unwrap();
        check_cmrs(h, &path.file_name().unwrap().to_string_lossy(), &m, &a, T::one(), c(-1.0, 0.0), 500);
    }
}

/// update_values: the same pattern with new values multiplies as a fresh CMRS matrix would;
/// Inf in x reaches only the rows that use it (padding never multiplies x).
fn cmrs_values_and_inf_for<T: CmrsScalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(100, 80, 80, |i| 1 + i % 11), 80);
    let mut m = cmrs_from_csr(h, &a, 0, 2).unwrap();
    let b = revalue::<T>(&pattern(100, 80, 80, |i| 1 + i % 11), 81);
    cmrs_update_host(h, &mut m, &b.val).unwrap();
    check_cmrs(h, "updated values", &m, &b, T::one(), T::one(), 82);
    let (mut x, y0) = vectors(Op::N, &b, T::zero(), 83);
    x[3] = c(f64::INFINITY, 0.0);
    let mut y = y0.clone();
    cmrsmv_host(h, T::one(), &m, &x, T::zero(), &mut y).unwrap();
    check(&format!("{}cmrsmv Inf in x", T::LETTER), Op::N, T::one(), &b, &x, T::zero(), &y0, &y);
}

/// cmrs_create's checks and bad structures, cmrsmv's and update_values' checks: each names
/// its argument and writes nothing.
fn cmrs_checks_for<T: CmrsScalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(20, 10, 90, |i| i % 4), 90);
    let create = |h: &mut Handle, a: &Csr<T>, n: i64, height: i64, lanes: i64| unsafe { cmrs_create(h, a.m as i64, n, a.nnz() as i64, a.val.as_ptr(), a.row_ptr.as_ptr(), a.col_ind.as_ptr(), a.base, height, lanes) };
    for (height, lanes, arg) in [(17, 0, 9), (-1, 0, 9), (0, 3, 10), (0, 16, 10)] {
        let e = create(h, &a, a.n as i64, height, lanes).err().expect("invalid height or M");
        assert_eq!((e.status, c_position(&e, "numgpu_scmrs_create")), (Status::NUMGPU_INVALID_VALUE, arg), "{e}");
    }
    let e = create(h, &a, 1 << 28, 0, 0).err().expect("n >= 2^28");
    assert_eq!((e.status, c_position(&e, "numgpu_scmrs_create")), (Status::NUMGPU_NOT_SUPPORTED, 3), "{e}");
    assert!(create(h, &a, (1 << 28) - 1, 0, 0).is_ok(), "n = 2^28 - 1 fits");
    let mut bad = a.clone();
    bad.row_ptr.swap(2, 3);
    let e = cmrs_from_csr(h, &bad, 0, 0).err().expect("bad row_ptr");
    assert_eq!((e.status, c_position(&e, "numgpu_scmrs_create")), (Status::NUMGPU_INVALID_VALUE, 6), "{e}");
    let mut bad = a.clone();
    bad.col_ind[4] = 10;
    let e = cmrs_from_csr(h, &bad, 0, 0).err().expect("bad col_ind");
    assert_eq!((e.status, c_position(&e, "numgpu_scmrs_create")), (Status::NUMGPU_INVALID_VALUE, 7), "{e}");
    assert!(e.msg.contains("col_ind[4]"), "{e}");
    let mut m = cmrs_from_csr(h, &a, 0, 0).unwrap();
    let x = vec![T::one(); a.n];
    let y0 = vec![c::<T>(3.0, 0.0); a.m];
    let mut y = y0.clone();
    let e = unsafe { cmrsmv(h, T::one(), &m, std::ptr::null(), T::one(), y.as_mut_ptr()) }.unwrap_err();
    assert_eq!(c_position(&e, "numgpu_scmrsmv"), 4, "{e}");
    let e = unsafe { cmrsmv(h, T::one(), &m, x.as_ptr(), T::one(), std::ptr::null_mut()) }.unwrap_err();
    assert_eq!(c_position(&e, "numgpu_scmrsmv"), 6, "{e}");
    let e = unsafe { numgpu::spmv::cmrs_update_values::<T>(h, &mut m, std::ptr::null()) }.unwrap_err();
    assert_eq!(c_position(&e, "numgpu_scmrs_update_values"), 3, "{e}");
    assert!(y.iter().all(|v| *v == y0[0]), "{}cmrsmv: y written by an invalid call", T::LETTER);
}

/// A CMRS matrix of one precision is refused by the other's product and update, naming A.
fn cmrs_precision_mismatch(h: &mut Handle) {
    let a = revalue::<f64>(&pattern(8, 8, 95, |_| 2), 95);
    let mut m = cmrs_from_csr(h, &a, 0, 0).unwrap();
    let (x, mut y) = (vec![1f32; 8], vec![0f32; 8]);
    let e = cmrsmv_host::<f32>(h, 1.0, &m, &x, 0.0, &mut y).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_scmrsmv")), (Status::NUMGPU_INVALID_VALUE, 3), "{e}");
    assert!(e.msg.contains("numgpu_dcmrsmv"), "{e}");
    let e = cmrs_update_host::<f32>(h, &mut m, &x[..a.nnz().min(8)]).unwrap_err();
    let pos = c_position(&e, "numgpu_scmrs_update_values");
    assert!(pos == 2 || pos == 3, "{e}");
}

crate::real_precisions! {
    cmrs => cmrs_for;
    cmrs_values_and_inf => cmrs_values_and_inf_for;
    cmrs_checks_real => cmrs_checks_for;
}

fn cmrs_checks(h: &mut Handle) {
    cmrs_checks_real(h);
    cmrs_precision_mismatch(h);
}

/// One product with a plan of `a`'s structure on host arrays, checked; returns y.
#[allow(clippy::too_many_arguments)]
fn run_plan<T: Scalar>(h: &mut Handle, what: &str, plan: &CsrPlan, alpha: T, a: &Csr<T>, x: &[T], beta: T, y0: &[T]) -> Vec<T> {
    let mut y = y0.to_vec();
    let trans = plan.trans();
    let what = format!("{}csrmv_plan {what} {trans:?} {}x{} nnz={} base={} units={} split={} alpha={alpha:?} beta={beta:?}", T::LETTER, a.m, a.n, a.nnz(), a.base, plan.units(), plan.split_rows());
    csrmv_plan_host(h, plan, alpha, &a.val, x, beta, &mut y).unwrap_or_else(|e| panic!("{what}: {e}"));
    check(&what, trans, alpha, a, x, beta, y0, &y);
    y
}

/// Every op, 0- and 1-based, a few (alpha, beta), with a plan built once per op and base.
fn plan_all_ops<T: Scalar>(h: &mut Handle, what: &str, a: &Csr<T>, seed: u64) {
    for trans in OPS {
        for base in [0, 1] {
            let a = a.with_base(base);
            let plan = csr_plan_of(h, trans, &a).unwrap_or_else(|e| panic!("{}csr_plan_create {what} {trans:?}: {e}", T::LETTER));
            for (alpha, beta) in [(c::<T>(1.0, 0.0), c::<T>(0.0, 0.0)), (c(-0.75, 0.5), c(0.5, -0.25))] {
                let (x, y0) = vectors(trans, &a, beta, seed);
                run_plan(h, what, &plan, alpha, &a, &x, beta, &y0);
            }
        }
    }
}

/// Power-law rows with one row of 10^5 entries (split into pieces), a few long rows and many
/// empty ones.
fn power_law_pattern() -> Csr<f64> {
    pattern(3000, 120_000, 800, |i| if i == 1234 { 100_000 } else if i % 500 == 7 { 5000 + i } else { (2000 / (i + 1)) * (i % 3 != 0) as usize })
}

/// The plan on the shared matrices, the suite, the structures of the csrmv tests and
/// power-law rows with a row of 10^5 entries, against the reference.
fn plan_matrices_for<T: Scalar>(h: &mut Handle) {
    // Under a sanitizer the structures below take every path of the kernels (lanes 1 to 32,
    // block rows, split rows): the real matrices and the suite add only time there.
    if !crate::common::under_sanitizer() {
        for path in sparse::shared_matrices().unwrap_or_else(|e| panic!("{e}")) {
            let a = sparse::read(&path).unwrap_or_else(|e| panic!("{e}"));
            plan_all_ops(h, &path.file_name().unwrap().to_string_lossy(), &cast::<T>(&a), 11);
        }
        for (s, (name, a)) in benchmark_suite(6000).into_iter().enumerate() {
            plan_all_ops(h, &name, &revalue::<T>(&a, s as u64), 100 + s as u64);
        }
    }
    let mut cases = structure_cases();
    cases.extend([
        ("rows at the unit size", pattern(9, 9000, 4, |i| [4095, 4096, 4097, 8192, 8193, 0, 65, 64, 1][i])),
        ("many empty rows", pattern(20_000, 50, 11, |i| (i % 1000 == 0) as usize)),
        ("power-law, a row of 10^5", power_law_pattern()),
    ]);
    for (s, (name, a)) in cases.iter().enumerate() {
        plan_all_ops(h, name, &revalue::<T>(a, s as u64), 200 + s as u64);
    }
    let plan = csr_plan_of(h, Op::N, &power_law_pattern()).unwrap();
    assert!(plan.split_rows() >= 7 && plan.units() > 30, "the row of 10^5 and those of 5000+ are split: {} units, {} split", plan.units(), plan.split_rows());
}

/// The shapes of the stream kernel's units (tiles of 2048 entries, 256 rows), with the kernel
/// the plan of op N picks: empty rows, a single row, rows exactly at and one past the tile, a
/// row of several units among short rows (split), 257 rows of one entry (a full unit of rows
/// and one more), unit-sized rows; and rows of 600 (the vector kernel).
fn stream_shapes() -> Vec<(&'static str, Csr<f64>, PlanKernel)> {
    let (s, v) = (PlanKernel::Stream, PlanKernel::Vector);
    vec![
        ("empty rows", pattern(700, 40, 300, |i| (i % 97 == 3) as usize * 3), s),
        ("only empty rows", pattern(600, 40, 301, |_| 0), s),
        ("a single row", pattern(1, 50, 302, |_| 37), s),
        ("rows at and past the tile", pattern(4000, 3000, 303, |i| if i % 1000 < 5 { [2048, 2049, 2047, 4096, 4097][i % 1000] } else { i % 4 }), s),
        ("a row of several units", pattern(2000, 500, 304, |i| if i == 999 { 5 * 4096 + 7 } else { i % 9 }), s),
        ("257 rows of one", pattern(257, 257, 305, |_| 1), s),
        ("rows of 600", pattern(40, 900, 306, |i| 600 + i % 3), v),
    ]
}

/// The stream kernel's shapes (and the vector kernel's case) for every op and base, the op N
/// plan's kernel as chosen.
fn plan_stream_shapes_for<T: Scalar>(h: &mut Handle) {
    for (s, (name, a, kernel)) in stream_shapes().into_iter().enumerate() {
        assert_eq!(csr_plan_of(h, Op::N, &a).unwrap().kernel(), kernel, "{name}");
        plan_all_ops(h, name, &revalue::<T>(&a, 300 + s as u64), 310 + s as u64);
    }
}

/// val, x and y as views one element past an allocation's start (no alignment beyond the
/// element's own): host slices, and on CUDA device arrays.
fn plan_offset_views_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(900, 700, 320, |i| if i == 5 { 9000 } else { i % 13 }), 321);
    for trans in OPS {
        let plan = csr_plan_of(h, trans, &a).unwrap();
        let (x, y0) = vectors(trans, &a, c(0.5, 0.25), 322);
        let pad = |v: &[T]| std::iter::once(T::one()).chain(v.iter().copied()).collect::<Vec<T>>();
        let (val1, x1, mut y1) = (pad(&a.val), pad(&x), pad(&y0));
        csrmv_plan_host(h, &plan, c(1.0, -0.5), &val1[1..], &x1[1..], c(0.5, 0.25), &mut y1[1..]).unwrap();
        let what = format!("{}csrmv_plan offset host views {trans:?}", T::LETTER);
        check(&what, trans, c(1.0, -0.5), &a, &x, c(0.5, 0.25), &y0, &y1[1..]);
        assert!(same(y1[0], T::one()), "{what}: wrote before y");
        if h.backend() != Backend::Cuda {
            continue;
        }
        let sz = std::mem::size_of::<T>();
        unsafe {
            let up = |h: &mut Handle, v: &[T]| -> *mut T {
                let p = h.malloc(std::mem::size_of_val(v)).unwrap() as *mut T;
                h.memcpy(p as _, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap();
                p
            };
            let (dv, dx, dy) = (up(h, &val1), up(h, &x1), up(h, &pad(&y0)));
            csrmv_plan(h, &plan, c(1.0, -0.5), dv.add(1), dx.add(1), c(0.5, 0.25), dy.add(1)).unwrap();
            h.synchronize().unwrap();
            let mut y = vec![T::zero(); y1.len()];
            h.memcpy(y.as_mut_ptr() as _, dy as _, y.len() * sz).unwrap();
            let bits = |v: &[T]| v.iter().map(|z| (z.to_c64().re.to_bits(), z.to_c64().im.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&y), bits(&y1), "{}csrmv_plan offset device views {trans:?}: not the host views' result", T::LETTER);
            for p in [dv, dx, dy] {
                h.free(p as _).unwrap();
            }
        }
    }
}

/// One plan reused for many value sets and vectors; alpha and beta 0 and 1 (alpha = 0 reads
/// neither val nor x: NULL; beta = 0 does not read y: NaN; alpha = 0, beta = 1 touches
/// nothing); m or n = 0 and nnz = 0.
fn plan_reuse_alpha_beta_for<T: Scalar>(h: &mut Handle) {
    let pat = pattern(300, 200, 20, |i| [0, 3, 17, 1, 40, 250][i % 6]);
    let (zero, one, half) = (T::zero(), T::one(), c::<T>(0.5, 0.5));
    for trans in OPS {
        let plan = csr_plan_of(h, trans, &pat).unwrap();
        for v in 0..4 {
            let a = revalue::<T>(&pat, 30 + v);
            for alpha in [zero, one, half] {
                for beta in [zero, one, half] {
                    let (x, y0) = vectors(trans, &a, beta, 40 + v);
                    run_plan(h, "reused", &plan, alpha, &a, &x, beta, &y0);
                }
            }
        }
        let (_, y0) = vectors(trans, &revalue::<T>(&pat, 30), one, 22);
        for (beta, want) in [(zero, vec![zero; y0.len()]), (half, y0.iter().map(|&v| half * v).collect()), (one, y0.clone())] {
            let mut y = y0.clone();
            unsafe { csrmv_plan(h, &plan, zero, std::ptr::null(), std::ptr::null(), beta, y.as_mut_ptr()) }.unwrap();
            assert!(y.iter().zip(&want).all(|(p, q)| same(*p, *q)), "{}csrmv_plan {trans:?} alpha = 0, beta = {beta:?}: y is not beta·y", T::LETTER);
        }
    }
    // m or n = 0: success, y untouched (even NULL); nnz = 0 with beta = 0 gives y = 0.
    for (m, n) in [(0i64, 5i64), (5, 0), (0, 0)] {
        let rp = vec![0i32; m as usize + 1];
        for trans in OPS {
            let plan = unsafe { csr_plan_create(h, trans, m, n, 0, rp.as_ptr(), std::ptr::null(), 0, 0) }.unwrap();
            let mut y = vec![nan::<T>(); 5];
            unsafe { csrmv_plan(h, &plan, T::one(), std::ptr::null(), std::ptr::null(), T::zero(), y.as_mut_ptr()) }.unwrap();
            unsafe { csrmv_plan(h, &plan, T::one(), std::ptr::null(), std::ptr::null(), T::zero(), std::ptr::null_mut()) }.unwrap();
            assert!(y.iter().all(|v| v.to_c64().re.is_nan()), "{}csrmv_plan m={m} n={n} wrote y", T::LETTER);
        }
    }
    let rp = [1i32; 8];
    for trans in OPS {
        let plan = unsafe { csr_plan_create(h, trans, 7, 6, 0, rp.as_ptr(), std::ptr::null(), 1, 0) }.unwrap();
        let len = if trans == Op::N { 7 } else { 6 };
        let (x, mut y) = (vec![T::one(); 13 - len], vec![nan::<T>(); len]);
        unsafe { csrmv_plan(h, &plan, T::one(), std::ptr::null(), x.as_ptr(), T::zero(), y.as_mut_ptr()) }.unwrap();
        assert!(y.iter().all(|v| v.is_zero()), "{}csrmv_plan nnz = 0, beta = 0 {trans:?}: y is not 0", T::LETTER);
    }
}

/// Inf in x reaches only the rows of op(A) that use it.
fn plan_inf_in_x_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(64, 64, 30, |i| 1 + i % 6), 30);
    for trans in OPS {
        let plan = csr_plan_of(h, trans, &a).unwrap();
        let (mut x, y0) = vectors(trans, &a, T::zero(), 31);
        x[5] = c(f64::INFINITY, 0.0);
        run_plan(h, "Inf in x", &plan, T::one(), &a, &x, T::zero(), &y0);
    }
}

/// csr_plan_create's checks and bad structures, csrmv_plan's checks: each names its argument
/// (its C position) and writes nothing.
fn plan_checks_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(6, 5, 50, |_| 2), 50);
    let (rp, ci) = (a.row_ptr.as_ptr(), a.col_ind.as_ptr());
    let null_i: *const i32 = std::ptr::null();
    type Create = (i64, i64, i64, *const i32, *const i32, i32, i64);
    let cases: Vec<(i32, Create)> = vec![
        (3, (-1, 5, 12, rp, ci, 0, 0)),
        (4, (6, -1, 12, rp, ci, 0, 0)),
        (5, (6, 5, -1, rp, ci, 0, 0)),
        (5, (6, 5, i32::MAX as i64, rp, ci, 1, 0)),
        (6, (6, 5, 12, null_i, ci, 0, 0)),
        (7, (6, 5, 12, rp, null_i, 0, 0)),
        (8, (6, 5, 12, rp, ci, 2, 0)),
        (9, (6, 5, 12, rp, ci, 0, 1)),
        (9, (6, 5, 12, rp, ci, 0, i64::MIN)),
    ];
    for (arg, (m, n, nnz, r, cc, base, hints)) in cases {
        let e = unsafe { csr_plan_create(h, Op::N, m, n, nnz, r, cc, base, hints) }.err().expect("invalid create");
        assert_eq!((e.status, c_position(&e, "numgpu_csr_plan_create")), (Status::NUMGPU_INVALID_VALUE, arg), "{e}");
    }
    // n beyond int32 (and m for op T/C): NOT_SUPPORTED naming it.
    for (trans, m, n, arg) in [(Op::N, 6, 1i64 << 31, 4), (Op::T, 1i64 << 31, 5, 3)] {
        let rp0 = vec![0i32; if m == 6 { 7 } else { 1 }];
        let m = if m == 6 { 6 } else { m };
        let e = unsafe { csr_plan_create(h, trans, m, n, 0, rp0.as_ptr(), null_i, 0, 0) }.err().expect("a size beyond int32");
        assert_eq!((e.status, c_position(&e, "numgpu_csr_plan_create")), (Status::NUMGPU_NOT_SUPPORTED, arg), "{e}");
    }
    // Bad structures, for every op: row_ptr (6) or col_ind (7), the first bad one named.
    let good = pattern(30, 20, 40, |i| 1 + i % 4);
    let mut bad_rows = good.clone();
    bad_rows.row_ptr.swap(3, 4);
    let mut bad_cols = good.with_base(1);
    bad_cols.col_ind[9] = 0;
    bad_cols.col_ind[17] = 21;
    for (b, arg, names) in [(&bad_rows, 6, "row 3"), (&bad_cols, 7, "col_ind[9]")] {
        for trans in OPS {
            let e = csr_plan_of(h, trans, b).err().expect("bad structure");
            assert_eq!((e.status, c_position(&e, "numgpu_csr_plan_create")), (Status::NUMGPU_INVALID_VALUE, arg), "{e}");
            assert!(e.msg.contains(names), "'{}' does not name {names}", e.msg);
        }
    }
    // The product: val (4), x (5), y (7) NULL where read, y untouched.
    let plan = csr_plan_of(h, Op::N, &a).unwrap();
    let x = random::<T>(&mut rng(51), 5, 1.0);
    let y0 = random::<T>(&mut rng(52), 6, 1.0);
    let mut y = y0.clone();
    let null_t: *const T = std::ptr::null();
    for (arg, v, xp, yp) in [(4, null_t, x.as_ptr(), y.as_mut_ptr()), (5, a.val.as_ptr(), null_t, y.as_mut_ptr()), (7, a.val.as_ptr(), x.as_ptr(), std::ptr::null_mut())] {
        let e = unsafe { csrmv_plan(h, &plan, T::one(), v, xp, T::one(), yp) }.expect_err("invalid product");
        assert_eq!((e.status, c_position(&e, &format!("numgpu_{}csrmv_plan", T::LETTER))), (Status::NUMGPU_INVALID_VALUE, arg), "{e}");
    }
    assert!(y.iter().zip(&y0).all(|(p, q)| same(*p, *q)), "{}csrmv_plan: y written by an invalid call", T::LETTER);
}

crate::all_precisions! {
    plan_stream_shapes => plan_stream_shapes_for;
    plan_offset_views => plan_offset_views_for;
    plan_matrices => plan_matrices_for;
    plan_reuse_alpha_beta => plan_reuse_alpha_beta_for;
    plan_inf_in_x => plan_inf_in_x_for;
    plan_checks => plan_checks_for;
}

/// A plan is bound to the backend and device it was built on: another handle of the same one
/// uses it (its own stream and scratch), a handle of another backend is refused naming the
/// plan (2); the C entry points: destroy(NULL) is a no-op, a destroyed plan is refused.
fn plan_handles(h: &mut Handle) {
    use numgpu::spmv::capi::{numgpu_csr_plan_create, numgpu_csr_plan_destroy, numgpu_csr_plan_info, numgpu_dcsrmv_plan};
    let a = revalue::<f64>(&pattern(100, 90, 60, |i| i % 13), 60);
    let plan = csr_plan_of(h, Op::T, &a).unwrap();
    let (x, y0) = vectors(Op::T, &a, 0.5, 61);
    let y1 = run_plan(h, "first handle", &plan, 1.0, &a, &x, 0.5, &y0);
    let mut other = numgpu::Handle::new(if h.backend() == Backend::Cuda { numgpu::BackendChoice::Cuda } else { numgpu::BackendChoice::Cpu }, 0).unwrap();
    let y2 = run_plan(&mut other, "second handle", &plan, 1.0, &a, &x, 0.5, &y0);
    assert!(y1.iter().zip(&y2).all(|(p, q)| p.to_bits() == q.to_bits()), "dcsrmv_plan: two handles differ");
    if h.backend() == Backend::Cuda {
        let mut cpu = Handle::cpu();
        let mut y = y0.clone();
        let e = csrmv_plan_host(&mut cpu, &plan, 1.0, &a.val, &x, 0.5, &mut y).unwrap_err();
        assert_eq!((e.status, c_position(&e, "numgpu_dcsrmv_plan")), (Status::NUMGPU_INVALID_VALUE, 2), "{e}");
        assert!(y.iter().zip(&y0).all(|(p, q)| same(*p, *q)), "dcsrmv_plan: y written by a refused call");
    }
    unsafe {
        assert_eq!(numgpu_csr_plan_destroy(std::ptr::null_mut()), Status::NUMGPU_SUCCESS);
        let mut p: *mut CsrPlan = std::ptr::null_mut();
        let hp: *mut Handle = h;
        assert_eq!(numgpu_csr_plan_create(hp, 0, a.m as i64, a.n as i64, a.nnz() as i64, a.row_ptr.as_ptr(), a.col_ind.as_ptr(), 0, 0, &mut p), Status::NUMGPU_SUCCESS);
        let (mut units, mut bytes) = (0i64, 0i64);
        assert_eq!(numgpu_csr_plan_info(p, &mut units, std::ptr::null_mut(), &mut bytes), Status::NUMGPU_SUCCESS);
        assert!(units >= 1 && bytes >= 4 * (a.m + 1 + a.nnz()) as i64, "units {units} bytes {bytes}");
        // Op N: x of n entries (y0's length here), y of m (x's).
        let mut y = vec![0.0; a.m];
        assert_eq!(numgpu_dcsrmv_plan(hp, p, 1.0, a.val.as_ptr(), y0.as_ptr(), 0.0, y.as_mut_ptr()), Status::NUMGPU_SUCCESS);
        check("dcsrmv_plan through the C entry points", Op::N, 1.0, &a, &y0, 0.0, &vec![f64::NAN; a.m], &y);
        assert_eq!(numgpu_csr_plan_destroy(p), Status::NUMGPU_SUCCESS);
        assert_eq!(numgpu_dcsrmv_plan(hp, p, 1.0, a.val.as_ptr(), y0.as_ptr(), 0.0, y.as_mut_ptr()), Status::NUMGPU_INVALID_VALUE);
        assert_eq!(numgpu_csr_plan_destroy(p), Status::NUMGPU_INVALID_VALUE);
    }
}

/// Device arrays (from `numgpu_malloc`): the structure for create, the values and vectors for
/// the product.
fn plan_device_arrays_for<T: Scalar>(h: &mut Handle) {
    let a = revalue::<T>(&pattern(300, 200, 60, |i| if i == 9 { 9000 } else { i % 40 }), 60);
    unsafe {
        let up = |h: &mut Handle, bytes: usize, src: *const u8| -> *mut u8 {
            let p = h.malloc(bytes).unwrap() as *mut u8;
            h.memcpy(p as _, src as _, bytes).unwrap();
            p
        };
        let sz = std::mem::size_of::<T>();
        let drp = up(h, (a.m + 1) * 4, a.row_ptr.as_ptr() as _) as *const i32;
        let dci = up(h, a.nnz() * 4, a.col_ind.as_ptr() as _) as *const i32;
        let dv = up(h, a.nnz() * sz, a.val.as_ptr() as _) as *const T;
        for trans in OPS {
            let plan = csr_plan_create(h, trans, a.m as i64, a.n as i64, a.nnz() as i64, drp, dci, 0, 0).unwrap();
            let (x, y0) = vectors(trans, &a, c(0.5, 0.0), 61);
            let dx = up(h, x.len() * sz, x.as_ptr() as _) as *const T;
            let dy = up(h, y0.len() * sz, y0.as_ptr() as _) as *mut T;
            csrmv_plan(h, &plan, T::one(), dv, dx, c(0.5, 0.0), dy).unwrap();
            h.synchronize().unwrap();
            let mut y = vec![T::zero(); y0.len()];
            h.memcpy(y.as_mut_ptr() as _, dy as _, y.len() * sz).unwrap();
            check(&format!("{}csrmv_plan device arrays {trans:?}", T::LETTER), trans, T::one(), &a, &x, c(0.5, 0.0), &y0, &y);
            for p in [dx as *mut u8, dy as _] {
                h.free(p as _).unwrap();
            }
        }
        for p in [dv as *mut u8, drp as _, dci as _] {
            h.free(p as _).unwrap();
        }
    }
}

crate::all_precisions! {
    plan_device_arrays => plan_device_arrays_for;
}

crate::on_every_backend! {
    csrmv_shared_matrices_every_op_and_base => super::shared_matrices;
    csrmv_benchmark_suite_small => super::suite;
    csrmv_structures_empty_dense_rectangular_unsorted_duplicates => super::structures;
    csrmv_alpha_beta_zero_and_one => super::alpha_beta;
    csrmv_inf_in_x_reaches_only_its_rows => super::inf_in_x;
    csrmv_bad_structure_names_first_bad_entry => super::bad_structure;
    csrmv_argument_checks => super::argument_checks;
    csrmv_device_arrays => super::device_arrays;
    cmrs_every_height_and_m_equals_reference => super::cmrs;
    cmrs_update_values_and_inf_in_x => super::cmrs_values_and_inf;
    cmrs_argument_and_structure_checks => super::cmrs_checks;
    csr_plan_every_matrix_op_and_base => super::plan_matrices;
    csr_plan_reused_values_alpha_beta_empty => super::plan_reuse_alpha_beta;
    csr_plan_inf_in_x_reaches_only_its_rows => super::plan_inf_in_x;
    csr_plan_argument_and_structure_checks => super::plan_checks;
    csr_plan_second_handle_destroy_null_and_twice => super::plan_handles;
    csr_plan_device_arrays => super::plan_device_arrays;
    csr_plan_stream_shapes_every_op_and_base => super::plan_stream_shapes;
    csr_plan_offset_views => super::plan_offset_views;
}

/// csrmv op N on CUDA over matrices large enough for every shape of its blocks: 256 rows of
/// one tile, several tiles, a few rows, a row each, and rows past the tile (the row split).
#[test]
fn csrmv_cuda_large_matrices() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    for (s, kind) in Kind::ALL.into_iter().enumerate() {
        let a = revalue::<f64>(&generate(kind, 1_500_000, 700 + s as u64), 710 + s as u64);
        let (x, y0) = vectors(Op::N, &a, 0.5, 720 + s as u64);
        let mut y = y0.clone();
        csrmv_csr(&mut gpu, Op::N, 1.0, &a, &x, 0.5, &mut y).unwrap();
        check(&format!("dcsrmv CUDA {kind:?} {}x{}", a.m, a.n), Op::N, 1.0, &a, &x, 0.5, &y0, &y);
    }
}

/// Tier (b): the CUDA backend against the CPU backend on the generated suite (op N csrmv
/// within the tolerance; CMRS bitwise, as the CPU replays the kernel's order).
#[test]
fn spmv_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    let mut cpu = Handle::cpu();
    for (s, (name, a)) in benchmark_suite(40_000).into_iter().enumerate() {
        let a = revalue::<f64>(&a, 600 + s as u64);
        let (x, y0) = vectors(Op::N, &a, 0.5, 601);
        let mut yg = y0.clone();
        csrmv_csr(&mut gpu, Op::N, 1.0, &a, &x, 0.5, &mut yg).unwrap();
        check(&format!("dcsrmv CUDA {name}"), Op::N, 1.0, &a, &x, 0.5, &y0, &yg);
        let (mg, mc) = (cmrs_from_csr(&mut gpu, &a, 0, 0).unwrap(), cmrs_from_csr(&mut cpu, &a, 0, 0).unwrap());
        let (mut yg, mut yc) = (y0.clone(), y0.clone());
        cmrsmv_host(&mut gpu, 1.0, &mg, &x, 0.5, &mut yg).unwrap();
        cmrsmv_host(&mut cpu, 1.0, &mc, &x, 0.5, &mut yc).unwrap();
        assert!(yg.iter().zip(&yc).all(|(p, q)| p.to_bits() == q.to_bits()), "dcmrsmv {name}: CUDA differs from CPU");
    }
    gpu.synchronize().unwrap();
}

/// Tier (b): the planned product on CUDA bitwise equal to the CPU backend's, every op and
/// precision, on the suite and on power-law rows with a row of 10^5 entries (split pieces
/// and the fix-up), run twice (reproducible).
#[test]
fn csr_plan_cuda_matches_cpu_bitwise() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    let mut cpu = Handle::cpu();
    let mut mats = benchmark_suite(40_000);
    mats.push(("power-law, a row of 10^5".into(), power_law_pattern()));
    mats.extend(stream_shapes().into_iter().map(|(name, a, _)| (name.to_string(), a)));
    fn one<T: Scalar>(gpu: &mut Handle, cpu: &mut Handle, name: &str, a: &Csr<f64>, s: u64) {
        let a = revalue::<T>(a, 600 + s);
        for trans in OPS {
            let (pg, pc) = (csr_plan_of(gpu, trans, &a).unwrap(), csr_plan_of(cpu, trans, &a).unwrap());
            assert_eq!(pg.partition(), pc.partition());
            let (x, y0) = vectors(trans, &a, c(0.5, -0.5), 601);
            let yg = run_plan(gpu, name, &pg, c(1.0, 0.25), &a, &x, c(0.5, -0.5), &y0);
            let again = run_plan(gpu, name, &pg, c(1.0, 0.25), &a, &x, c(0.5, -0.5), &y0);
            let yc = run_plan(cpu, name, &pc, c(1.0, 0.25), &a, &x, c(0.5, -0.5), &y0);
            let bits = |v: &[T]| v.iter().map(|z| (z.to_c64().re.to_bits(), z.to_c64().im.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&yg), bits(&again), "{}csrmv_plan {name} {trans:?}: two CUDA runs differ", T::LETTER);
            let first = yg.iter().zip(&yc).position(|(p, q)| bits(&[*p]) != bits(&[*q]));
            assert!(first.is_none(), "{}csrmv_plan {name} {trans:?}: CUDA differs from CPU at {first:?}", T::LETTER);
        }
    }
    for (s, (name, a)) in mats.iter().enumerate() {
        one::<f32>(&mut gpu, &mut cpu, name, a, s as u64);
        one::<f64>(&mut gpu, &mut cpu, name, a, s as u64);
        one::<numgpu::Complex32>(&mut gpu, &mut cpu, name, a, s as u64);
        one::<numgpu::Complex64>(&mut gpu, &mut cpu, name, a, s as u64);
    }
    gpu.synchronize().unwrap();
}
