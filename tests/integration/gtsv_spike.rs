//! The tridiagonal solvers on every backend, in the three forms (one system, strided batch,
//! interleaved batch), against LAPACK `?gtsv` in higher precision (`dgtsv` / `zgtsv` on the
//! same system in f64 / c64): per right-hand side, the relative residual
//! ‖b − T·x‖₁ / (‖T‖₁·‖x‖₁·n·ε) and the forward error ‖x − x_ref‖₁ / (‖x_ref‖₁·κ₁(T)·ε), κ₁
//! estimated with LAPACK solves (Hager–Higham, as `?lacn2`), both below 30; x_ref is the exact
//! solution where it is known (tridiag(−1, 2, −1)). Singular systems must report info in
//! [1, n] with their B bitwise unchanged. On the CPU backend, which is LAPACK `?gtsv`, X and
//! info must equal `?gtsv`'s in the same precision bitwise. Every call checks that dl, d, du
//! (and the gaps between systems) are bitwise unchanged, that the padding of B is not written,
//! and that info (poisoned) was written; an invalid call writes nothing.

use crate::common::c_position;
use numgpu::gtsv_spike::{gtsv_batched_interleaved, gtsv_batched_interleaved_slices, gtsv_batched_strided, gtsv_batched_strided_slices, gtsv_spike, gtsv_spike_slices, Pivoting};
use numgpu::lapack::Blas;
use numgpu::testing::gen::{nan, POISON};
use numgpu::testing::norm::{same, unchanged};
use numgpu::testing::tol::RATIO;
use numgpu::testing::tridiag::{lapack, ratios, reference, Kind, Sys, SOLVABLE};
use numgpu::{Backend, Complex64, Handle, Scalar, Status};

const MODES: [Pivoting; 2] = [Pivoting::Diagonal, Pivoting::NoPivot];

fn c64(re: f64, im: f64) -> Complex64 {
    Complex64::new(re, im)
}

/// How a failure names the system.
trait Describe {
    fn what<T: Scalar>(&self, form: &str, i: usize, mode: Pivoting) -> String;
}

impl Describe for Sys {
    fn what<T: Scalar>(&self, form: &str, i: usize, mode: Pivoting) -> String {
        format!("{}gtsv {form} {:?} n={} nrhs={} {mode:?} system {i} (seed {})", T::LETTER, self.kind, self.n, self.nrhs, self.seed)
    }
}

/// Checks one system's outcome: `x` is its B after the call (n × nrhs, compact), `info` its
/// info. Singular: info in [1, n] and B bitwise unchanged. Otherwise info = 0 and the ratios.
/// On the CPU backend, X and info equal LAPACK's in precision T bitwise.
fn verify<T: Blas>(backend: Backend, what: &str, s: &Sys, x: &[T], info: i32) {
    let (n, nrhs) = (s.n, s.nrhs);
    let (_, ref_info) = reference::<T>(s);
    assert_eq!(
        s.kind.singular(),
        ref_info > 0,
        "{what}: the test's own system is {}singular for LAPACK (info {ref_info})",
        if ref_info > 0 { "" } else { "not " }
    );
    if backend == Backend::Cpu {
        let (xs, is) = lapack::<T>(s, &s.b, nrhs);
        assert_eq!(info, is, "{what}: info {info}, but LAPACK {}gtsv's is {is}", T::LETTER);
        if is == 0 {
            assert!(
                x.iter().zip(&xs).all(|(a, b)| same(a.to_c64(), *b)),
                "{what}: X differs from LAPACK {}gtsv's in the same precision",
                T::LETTER
            );
        }
    }
    if ref_info > 0 {
        assert!(info >= 1 && info as usize <= n, "{what}: singular system (LAPACK info {ref_info}) gave info {info}");
        assert!(x.iter().zip(&s.b).all(|(a, b)| same(*a, T::from_c64(*b))), "{what}: info = {info} but B was written");
        return;
    }
    assert_eq!(info, 0, "{what}: info {info} for a nonsingular system");
    for (c, (r1, r2)) in ratios::<T>(s, x).into_iter().enumerate() {
        assert!(r1 < RATIO, "{what}, column {c}: residual ratio {r1:.3e} >= {RATIO}");
        assert!(r2 < RATIO, "{what}, column {c}: forward error ratio {r2:.3e} >= {RATIO}");
    }
}

fn to_t<T: Scalar>(v: &[Complex64]) -> Vec<T> {
    v.iter().map(|&z| T::from_c64(z)).collect()
}

/// One system through `numgpu_?gtsv_spike`'s Rust API, B with two rows of padding (NaN, must
/// stay); returns X (compact) and info.
fn run_single<T: Blas>(h: &mut Handle, s: &Sys, mode: Pivoting) -> (Vec<T>, i32) {
    let (n, nrhs) = (s.n, s.nrhs);
    let ldb = n + 2;
    let (dl, d, du) = (to_t::<T>(&s.dl), to_t::<T>(&s.d), to_t::<T>(&s.du));
    let mut b = vec![nan::<T>(); ldb * nrhs];
    for e in 0..n * nrhs {
        b[e % n + (e / n) * ldb] = T::from_c64(s.b[e]);
    }
    let before = b.clone();
    let mut info = POISON;
    gtsv_spike_slices(h, mode, n as i64, nrhs as i64, &dl, &d, &du, &mut b, ldb as i64, &mut info).unwrap_or_else(|e| panic!("{}: {e}", s.what::<T>("spike", 0, mode)));
    h.synchronize().unwrap();
    assert!(
        unchanged(&dl, &to_t::<T>(&s.dl)) && unchanged(&d, &to_t::<T>(&s.d)) && unchanged(&du, &to_t::<T>(&s.du)),
        "{}: diagonals written",
        s.what::<T>("spike", 0, mode)
    );
    assert!(
        (0..ldb * nrhs).filter(|e| e % ldb >= n).all(|e| same(b[e], before[e])),
        "{}: padding of B written",
        s.what::<T>("spike", 0, mode)
    );
    ((0..n * nrhs).map(|e| b[e % n + (e / n) * ldb]).collect(), info)
}

/// Each system's X (compact) and info.
type Outcomes<T> = Vec<(Vec<T>, i32)>;

/// A strided batch of systems of one order and nrhs: the diagonals `n + 3` apart (or 0 apart:
/// `shared`, every system then being systems[0]), B with leading dimension n + 1 and gaps of
/// 2 between the B_i, gaps NaN; checks that nothing outside the X_i is written. Returns each
/// system's X (compact) and info.
fn run_strided<T: Blas>(h: &mut Handle, systems: &[Sys], shared: bool, mode: Pivoting) -> Outcomes<T> {
    let (n, nrhs, batch) = (systems[0].n, systems[0].nrhs, systems.len());
    let sd = if shared { 0 } else { n + 3 };
    let (ldb, sb) = (n + 1, (n + 1) * nrhs + 2);
    let len = if shared { n } else { sd * batch };
    let (mut dl, mut d, mut du) = (vec![nan::<T>(); len], vec![nan::<T>(); len], vec![nan::<T>(); len]);
    let mut b = vec![nan::<T>(); sb * batch];
    for (i, s) in systems.iter().enumerate() {
        if i == 0 || !shared {
            let o = i * sd;
            for k in 0..n {
                d[o + k] = T::from_c64(s.d[k]);
                if k + 1 < n {
                    dl[o + k] = T::from_c64(s.dl[k]);
                    du[o + k] = T::from_c64(s.du[k]);
                }
            }
        }
        for e in 0..n * nrhs {
            b[i * sb + e % n + (e / n) * ldb] = T::from_c64(s.b[e]);
        }
    }
    let (dl0, d0, du0, b0) = (dl.clone(), d.clone(), du.clone(), b.clone());
    let mut info = vec![POISON; batch];
    let what = systems[0].what::<T>("strided", 0, mode);
    gtsv_batched_strided_slices(h, mode, n as i64, nrhs as i64, &dl, &d, &du, sd as i64, &mut b, ldb as i64, sb as i64, &mut info, batch as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
    h.synchronize().unwrap();
    assert!(
        unchanged(&dl, &dl0) && unchanged(&d, &d0) && unchanged(&du, &du0),
        "{what} batch {batch}: diagonals or their gaps written"
    );
    assert!(
        (0..sb * batch).filter(|e| e % sb >= ldb * nrhs || e % sb % ldb >= n).all(|e| same(b[e], b0[e])),
        "{what} batch {batch}: padding or gaps of B written"
    );
    (0..batch).map(|i| ((0..n * nrhs).map(|e| b[i * sb + e % n + (e / n) * ldb]).collect(), info[i])).collect()
}

/// An interleaved batch (nrhs = 1): dl and du of exactly (n − 1)·batch entries (LAPACK's
/// diagonals, as the other forms), d and b of n·batch.
fn run_interleaved<T: Blas>(h: &mut Handle, systems: &[Sys], mode: Pivoting) -> Outcomes<T> {
    let (n, batch) = (systems[0].n, systems.len());
    let off = n.saturating_sub(1) * batch;
    let (mut dl, mut d, mut du, mut b) = (vec![nan::<T>(); off], vec![nan::<T>(); n * batch], vec![nan::<T>(); off], vec![nan::<T>(); n * batch]);
    for (i, s) in systems.iter().enumerate() {
        for k in 0..n {
            d[k * batch + i] = T::from_c64(s.d[k]);
            b[k * batch + i] = T::from_c64(s.b[k]);
            if k + 1 < n {
                dl[k * batch + i] = T::from_c64(s.dl[k]);
                du[k * batch + i] = T::from_c64(s.du[k]);
            }
        }
    }
    let (dl0, d0, du0) = (dl.clone(), d.clone(), du.clone());
    let mut info = vec![POISON; batch];
    let what = systems[0].what::<T>("interleaved", 0, mode);
    gtsv_batched_interleaved_slices(h, mode, n as i64, &dl, &d, &du, &mut b, &mut info, batch as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
    h.synchronize().unwrap();
    assert!(unchanged(&dl, &dl0) && unchanged(&d, &d0) && unchanged(&du, &du0), "{what} batch {batch}: diagonals written");
    (0..batch).map(|i| ((0..n).map(|k| b[k * batch + i]).collect(), info[i])).collect()
}

/// The kinds a mode is meant for: every solvable kind with diagonal pivoting, the dominant
/// ones without.
fn kinds_for(mode: Pivoting) -> Vec<Kind> {
    SOLVABLE.into_iter().filter(|k| mode == Pivoting::Diagonal || k.dominant()).collect()
}

/// One system of every order of the spec up to 1000, nrhs 1, 2, 5, every kind, both modes.
fn single_for<T: Blas>(h: &mut Handle) {
    let mut seed = 100;
    for n in [1, 2, 3, 4, 31, 32, 33, 1000] {
        for nrhs in [1, 2, 5] {
            for mode in MODES {
                for kind in kinds_for(mode) {
                    seed += 1;
                    let s = Sys::new::<T>(kind, n, nrhs, seed);
                    let (x, info) = run_single::<T>(h, &s, mode);
                    verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
                }
            }
        }
    }
}

/// One large system (n = 2^20 + 7, not a multiple of any partition size), nrhs 1, once per
/// precision: diagonal pivoting for s and c, none for d and z.
fn large_for<T: Blas>(h: &mut Handle) {
    let mode = if matches!(T::LETTER, 's' | 'c') { Pivoting::Diagonal } else { Pivoting::NoPivot };
    let s = Sys::new::<T>(Kind::Dominant, (1 << 20) + 7, 1, 200);
    let (x, info) = run_single::<T>(h, &s, mode);
    verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
}

/// Orders past the CUDA backend's single-thread limit (SPIKE: one block of partitions and
/// one more row, several levels, an order whose last partition is a lone row and one more),
/// every kind, both modes, nrhs 1 and 3; singular ones (B unchanged); a NaN; and one system in
/// device memory.
fn partitioned_for<T: Blas>(h: &mut Handle) {
    let mut seed = 1500;
    for n in [2177, 5000, 40003] {
        for mode in MODES {
            for kind in kinds_for(mode) {
                for nrhs in [1, 3] {
                    seed += 1;
                    let s = Sys::new::<T>(kind, n, nrhs, seed);
                    let (x, info) = run_single::<T>(h, &s, mode);
                    verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
                }
            }
            for kind in [Kind::Zero, Kind::ZeroColumn] {
                seed += 1;
                let s = Sys::new::<T>(kind, n, 2, seed);
                let (x, info) = run_single::<T>(h, &s, mode);
                verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
            }
            let mut dirty = Sys::new::<T>(Kind::Dominant, n, 1, seed);
            let k = n / 3;
            dirty.d[k] = c64(f64::NAN, 0.0);
            let (x, info) = run_single::<T>(h, &dirty, mode);
            assert!(info == 0 && x[k].to_c64().re.is_nan(), "{}: info {info}, x({k}) = {:?}", dirty.what::<T>("spike", 0, mode), x[k]);
        }
    }
    let s = Sys::new::<T>(Kind::Random, 5000, 2, 1999);
    let size = std::mem::size_of::<T>();
    unsafe {
        let up = |h: &mut Handle, v: &[T]| -> *mut T {
            let p = h.malloc(std::mem::size_of_val(v).max(1)).unwrap();
            h.memcpy(p, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap();
            p as *mut T
        };
        let (pdl, pd, pdu, pb) = (up(h, &to_t::<T>(&s.dl)), up(h, &to_t::<T>(&s.d)), up(h, &to_t::<T>(&s.du)), up(h, &to_t::<T>(&s.b)));
        let dinfo = h.malloc(4).unwrap() as *mut i32;
        h.memcpy(dinfo as _, [POISON].as_ptr() as _, 4).unwrap();
        gtsv_spike::<T>(h, Pivoting::Diagonal, s.n as i64, s.nrhs as i64, pdl, pd, pdu, pb, s.n as i64, dinfo).unwrap();
        h.synchronize().unwrap();
        let mut x = vec![T::zero(); s.n * s.nrhs];
        let mut info = [0i32];
        h.memcpy(x.as_mut_ptr() as _, pb as _, x.len() * size).unwrap();
        h.memcpy(info.as_mut_ptr() as _, dinfo as _, 4).unwrap();
        verify::<T>(h.backend(), &s.what::<T>("spike, device arrays,", 0, Pivoting::Diagonal), &s, &x, info[0]);
        for p in [pdl, pd, pdu, pb] {
            h.free(p as _).unwrap();
        }
        h.free(dinfo as _).unwrap();
    }
}

/// Issue 27: orders around the thresholds of the CUDA backend's SPIKE tail (the last levels in
/// one launch, from the first level of order at most 17·(nt − 1) for nt = 512, 256, 128 by
/// precision and device: 4335/4336 and 8687/8688 at level 0, 2^14 ± 1 and 2^16 + 1 with it at
/// level 1, 2^21 + 1 at level 2), both modes, nrhs 1 and 2, the kinds each mode is meant for
/// (dominant and random ones above 2^14); every call twice, bitwise equal.
fn tail_orders_for<T: Blas>(h: &mut Handle) {
    let mut seed = 2700;
    for n in [4335, 4336, 8687, 8688, (1 << 14) - 1, 1 << 14, (1 << 16) + 1] {
        for mode in MODES {
            let mut kinds = kinds_for(mode);
            if n >= 1 << 14 {
                kinds.retain(|k| matches!(k, Kind::Dominant | Kind::Random));
            }
            for kind in kinds {
                seed += 1;
                let s = Sys::new::<T>(kind, n, 1 + seed as usize % 2, seed);
                let what = s.what::<T>("spike", 0, mode);
                let (x, info) = run_single::<T>(h, &s, mode);
                verify::<T>(h.backend(), &what, &s, &x, info);
                let (again, info2) = run_single::<T>(h, &s, mode);
                assert!(info2 == info && unchanged(&again, &x), "{what}: a second call gave other bits");
            }
        }
    }
    let mode = if matches!(T::LETTER, 's' | 'c') { Pivoting::NoPivot } else { Pivoting::Diagonal };
    let s = Sys::new::<T>(Kind::Dominant, (1 << 21) + 1, 1, 2799);
    let (x, info) = run_single::<T>(h, &s, mode);
    verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
}

/// Issue 27: interleaved batches of 1, 3 and 37 systems of orders past the CUDA backend's
/// threshold for a thread per (system, partition of 17 rows) in no-pivot mode (69: a last
/// partition of one row, 70, 86, 300, 1024), both modes; in each batch dominant systems, a
/// zero column at a separator (row 34), inside a partition (row 42) and on its last row (row
/// 50), and a nonsingular system whose partition is singular (row 52 zero but for its
/// coupling to the separator: solved whole, info 0); every call twice, bitwise equal.
fn il_partitioned_for<T: Blas>(h: &mut Handle) {
    let mut seed = 2900;
    for n in [69, 70, 86, 300, 1024] {
        for batch in [1, 3, 37] {
            for mode in MODES {
                let systems: Vec<Sys> = (0..batch)
                    .map(|i| {
                        seed += 1;
                        let mut s = Sys::new::<T>(if i % 6 == 5 { Kind::Laplace } else { Kind::Dominant }, n, 1, seed);
                        match i % 6 {
                            1 => zero_column(&mut s, 34),
                            2 => zero_column(&mut s, 42),
                            3 => zero_column(&mut s, 50),
                            4 => {
                                s.d[52] = c64(0.0, 0.0);
                                s.du[52] = c64(0.0, 0.0);
                            }
                            _ => {}
                        }
                        s
                    })
                    .collect();
                let out = run_interleaved::<T>(h, &systems, mode);
                let again = run_interleaved::<T>(h, &systems, mode);
                for (i, (s, (x, info))) in systems.iter().zip(&out).enumerate() {
                    let what = s.what::<T>("interleaved", i, mode);
                    verify::<T>(h.backend(), &what, s, x, *info);
                    assert!(again[i].1 == *info && unchanged(&again[i].0, x), "{what}: a second call gave other bits");
                }
            }
        }
    }
}

/// Issue 27, second round: the interleaved batch with diagonal pivoting past the CUDA
/// backend's threshold for a thread per (system, partition of 17 rows), which there takes only
/// the systems diagonally dominant by rows (the others are solved whole): orders around 68 and
/// multiples of 17 (69: a last partition of one row, 85, 86, 102, 103, 300, 1024), batches of
/// 1, 3, 37 and 300 (up to 103 rows) mixing dominant systems with ones that need pivoting
/// (random, indefinite, zero diagonal entries), dominant systems but for one row (row 1, a
/// separator, a middle row or the last row), zero columns at a separator (row 34), inside a
/// partition (42), on a partition's last row (50) and on the last row, and a nonsingular system
/// with a singular partition (row 52 zero but for its coupling to the separator); every call
/// twice, bitwise equal.
fn il_pivoting_for<T: Blas>(h: &mut Handle) {
    let mut seed = 3100;
    for n in [69, 85, 86, 102, 103, 300, 1024] {
        for batch in [1, 3, 37, 300] {
            if batch == 300 && n > 103 {
                continue;
            }
            let systems: Vec<Sys> = (0..batch).map(|i| {
                seed += 1;
                il_mixed_system::<T>(n, (i + n) % 10, i / 10, seed)
            }).collect();
            let out = run_interleaved::<T>(h, &systems, Pivoting::Diagonal);
            let again = run_interleaved::<T>(h, &systems, Pivoting::Diagonal);
            for (i, (s, (x, info))) in systems.iter().zip(&out).enumerate() {
                let what = format!("{} (case {})", s.what::<T>("interleaved", i, Pivoting::Diagonal), (i + n) % 10);
                verify::<T>(h.backend(), &what, s, x, *info);
                assert!(again[i].1 == *info && unchanged(&again[i].0, x), "{what}: a second call gave other bits");
            }
        }
    }
}

/// System `case` (0 … 9) of [`il_pivoting_for`]'s batches, its variant `v` choosing the row
/// where the case has several.
fn il_mixed_system<T: Blas>(n: usize, case: usize, v: usize, seed: u64) -> Sys {
    let kind = match case {
        1 => Kind::Random,
        2 => Kind::Indefinite,
        4 => Kind::ZeroDiagonal,
        6 => Kind::Laplace,
        8 => Kind::ScaledRows,
        _ => Kind::Dominant,
    };
    let mut s = Sys::new::<T>(kind, n, 1, seed);
    match case {
        3 => {
            // Dominant but for one row: that system goes whole.
            let r = [1, 34, n / 2, n - 1][v % 4];
            s.d[r] = c64(0.25, 0.0);
            if r + 1 < n {
                s.du[r] = c64(1.0, 0.0);
            } else {
                s.dl[r - 1] = c64(1.0, 0.0);
            }
        }
        5 => zero_column(&mut s, 34),
        7 => zero_column(&mut s, [50, 42, n - 1][v % 3]),
        9 => {
            s.d[52] = c64(0.0, 0.0);
            s.du[52] = c64(0.0, 0.0);
        }
        _ => {}
    }
    s
}

/// Zeroes column j of s (singular from then on).
fn zero_column(s: &mut Sys, j: usize) {
    s.d[j] = c64(0.0, 0.0);
    if j > 0 {
        s.du[j - 1] = c64(0.0, 0.0);
    }
    if j + 1 < s.n {
        s.dl[j] = c64(0.0, 0.0);
    }
    s.kind = Kind::ZeroColumn;
}

/// Issue 27: a zero column at a SPIKE separator (row 17·j), inside a partition and on its last
/// row, at level 0 of a tail-only solve (n = 4336 for s, c) and of a multi-level one (40003):
/// info in [1, n], B unchanged. And a nonsingular system whose partition is singular (the
/// first interior row of a partition zero but for its coupling to the separator): every
/// partition solve fails, the whole-system fallback solves it, info = 0, in both modes.
fn singular_partitions_for<T: Blas>(h: &mut Handle) {
    let mut seed = 2800;
    for n in [4336, 40003] {
        for mode in MODES {
            for row in [17 * 100, 17 * 100 + 8, 17 * 100 + 16, 17 * 200 + 1] {
                seed += 1;
                let mut s = Sys::new::<T>(Kind::Dominant, n, 2, seed);
                zero_column(&mut s, row);
                let (x, info) = run_single::<T>(h, &s, mode);
                verify::<T>(h.backend(), &format!("{} zero column {row}", s.what::<T>("spike", 0, mode)), &s, &x, info);
            }
            seed += 1;
            let mut s = Sys::new::<T>(Kind::Dominant, n, 2, seed);
            let r = 17 * 150 + 1;
            s.d[r] = c64(0.0, 0.0);
            s.du[r] = c64(0.0, 0.0);
            let (x, info) = run_single::<T>(h, &s, mode);
            verify::<T>(h.backend(), &format!("{} singular partition at row {r}", s.what::<T>("spike", 0, mode)), &s, &x, info);
        }
    }
}

/// Strided batches of 1, 37 and 1001 systems of mixed kinds (singular ones included), orders
/// 1 … 64 and past the CUDA block kernel's partitioning threshold and order limit (69, 300,
/// 2176, 2177), nrhs 1, 2, 3, 5, both modes; one matrix shared by the batch (stride 0); the same call
/// twice gives the same bits.
fn strided_for<T: Blas>(h: &mut Handle) {
    let mut seed = 300;
    for (n, nrhs, batch) in [(1, 1, 37), (2, 2, 37), (3, 5, 1), (5, 1, 1001), (31, 2, 37), (33, 5, 37), (64, 1, 37), (17, 1, 1001), (69, 2, 37), (300, 3, 37), (2176, 1, 5), (2177, 2, 3)] {
        for mode in MODES {
            let mut kinds = kinds_for(mode);
            kinds.extend([Kind::Zero, Kind::ZeroColumn]);
            let systems: Vec<Sys> = (0..batch)
                .map(|i| {
                    seed += 1;
                    Sys::new::<T>(kinds[(i * 7 + n) % kinds.len()], n, nrhs, seed)
                })
                .collect();
            let out = run_strided::<T>(h, &systems, false, mode);
            for (i, (s, (x, info))) in systems.iter().zip(&out).enumerate() {
                verify::<T>(h.backend(), &s.what::<T>("strided", i, mode), s, x, *info);
            }
            if batch == 37 {
                let again = run_strided::<T>(h, &systems, false, mode);
                assert!(
                    out.iter().zip(&again).all(|(a, b)| a.1 == b.1 && unchanged(&a.0, &b.0)),
                    "{}gtsv strided n={n}: not reproducible",
                    T::LETTER
                );
                // One matrix for the whole batch: system i is systems[0]'s T with its own B.
                let shared: Vec<Sys> = systems
                    .iter()
                    .map(|s| Sys {
                        dl: systems[0].dl.clone(),
                        d: systems[0].d.clone(),
                        du: systems[0].du.clone(),
                        kind: systems[0].kind,
                        exact: None,
                        ..s.clone()
                    })
                    .collect();
                let out = run_strided::<T>(h, &shared, true, mode);
                for (i, (s, (x, info))) in shared.iter().zip(&out).enumerate() {
                    verify::<T>(h.backend(), &s.what::<T>("strided, stride_diag 0,", i, mode), s, x, *info);
                }
            }
        }
    }
}

/// Interleaved batches of 1, 37 and 1001 systems of mixed kinds, orders 1 … 100, both modes.
fn interleaved_for<T: Blas>(h: &mut Handle) {
    let mut seed = 500;
    for (n, batch) in [(1, 37), (2, 1), (3, 37), (32, 37), (33, 1001), (100, 37)] {
        for mode in MODES {
            let mut kinds = kinds_for(mode);
            kinds.extend([Kind::Zero, Kind::ZeroColumn]);
            let systems: Vec<Sys> = (0..batch)
                .map(|i| {
                    seed += 1;
                    Sys::new::<T>(kinds[(i * 5 + n) % kinds.len()], n, 1, seed)
                })
                .collect();
            let out = run_interleaved::<T>(h, &systems, mode);
            for (i, (s, (x, info))) in systems.iter().zip(&out).enumerate() {
                verify::<T>(h.backend(), &s.what::<T>("interleaved", i, mode), s, x, *info);
            }
        }
    }
}

/// Issue 25: one `dl` convention for the family. cuSPARSE's `gtsvInterleavedBatch` arrays
/// (dl and du padded to n rows, dl's row 0 and du's row n − 1 zero) passed as numgpu.h says,
/// `dl + batch` and `du`, solve the same systems as LAPACK's diagonals (bitwise the same
/// result); and cuSPARSE's `gtsv2` arrays passed as `dl + 1` and `du` likewise for
/// `gtsv_spike`.
fn cusparse_layout_for<T: Blas>(h: &mut Handle) {
    let (n, batch) = (17usize, 5usize);
    for mode in MODES {
        let kinds = kinds_for(mode);
        let systems: Vec<Sys> = (0..batch).map(|i| Sys::new::<T>(kinds[i % kinds.len()], n, 1, 2500 + i as u64)).collect();
        // cuSPARSE's padded interleaved arrays: row k of system i at k·batch + i, n rows each.
        let (mut dl, mut d, mut du, mut b) = (vec![T::zero(); n * batch], vec![T::zero(); n * batch], vec![T::zero(); n * batch], vec![T::zero(); n * batch]);
        for (i, s) in systems.iter().enumerate() {
            for k in 0..n {
                (d[k * batch + i], b[k * batch + i]) = (T::from_c64(s.d[k]), T::from_c64(s.b[k]));
                if k > 0 {
                    dl[k * batch + i] = T::from_c64(s.dl[k - 1]);
                }
                if k + 1 < n {
                    du[k * batch + i] = T::from_c64(s.du[k]);
                }
            }
        }
        let mut info = vec![POISON; batch];
        let what = format!("{}gtsv_batched_interleaved on cuSPARSE's arrays ({mode:?})", T::LETTER);
        gtsv_batched_interleaved_slices(h, mode, n as i64, &dl[batch..], &d, &du[..(n - 1) * batch], &mut b, &mut info, batch as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
        h.synchronize().unwrap();
        for (i, (s, want)) in systems.iter().zip(run_interleaved::<T>(h, &systems, mode)).enumerate() {
            let x: Vec<T> = (0..n).map(|k| b[k * batch + i]).collect();
            assert!(info[i] == want.1 && unchanged(&x, &want.0), "{what}: system {i} differs from LAPACK's diagonals' (info {} vs {})", info[i], want.1);
            verify::<T>(h.backend(), &what, s, &x, info[i]);
        }
        // One system in cuSPARSE gtsv2's layout (dl[0] = 0, du[n−1] = 0): dl + 1 and du.
        let s = &systems[0];
        let (pdl, pdu): (Vec<T>, Vec<T>) = ((0..n).map(|k| if k > 0 { T::from_c64(s.dl[k - 1]) } else { T::zero() }).collect(), (0..n).map(|k| if k + 1 < n { T::from_c64(s.du[k]) } else { T::zero() }).collect());
        let (ldl, ld, ldu) = (to_t::<T>(&s.dl), to_t::<T>(&s.d), to_t::<T>(&s.du));
        let (mut padded, mut lapack_layout, mut infos) = (to_t::<T>(&s.b[..n]), to_t::<T>(&s.b[..n]), [POISON; 2]);
        gtsv_spike_slices(h, mode, n as i64, 1, &pdl[1..], &ld, &pdu[..n - 1], &mut padded, n as i64, &mut infos[0]).unwrap();
        gtsv_spike_slices(h, mode, n as i64, 1, &ldl, &ld, &ldu, &mut lapack_layout, n as i64, &mut infos[1]).unwrap();
        h.synchronize().unwrap();
        assert!(infos[0] == infos[1] && unchanged(&padded, &lapack_layout), "{}gtsv_spike on gtsv2's arrays ({mode:?})", T::LETTER);
    }
}

/// Singular systems in every form: the zero matrix, a zero column, tridiag(1, 0, 1) of odd
/// order (exactly singular: no partition of it can be factored into a non-zero last pivot).
fn singular_for<T: Blas>(h: &mut Handle) {
    let mut seed = 700;
    for mode in MODES {
        for (kind, n) in [
            (Kind::Zero, 1),
            (Kind::Zero, 33),
            (Kind::ZeroColumn, 2),
            (Kind::ZeroColumn, 1000),
            (Kind::Bipartite, 3),
            (Kind::Bipartite, 101),
        ] {
            seed += 1;
            let s = Sys::new::<T>(kind, n, 2, seed);
            let (x, info) = run_single::<T>(h, &s, mode);
            verify::<T>(h.backend(), &s.what::<T>("spike", 0, mode), &s, &x, info);
            // Between two solvable systems, strided and interleaved.
            let trio = |nrhs: usize| -> Vec<Sys> {
                vec![
                    Sys::new::<T>(Kind::Dominant, n, nrhs, seed + 1000),
                    Sys::new::<T>(kind, n, nrhs, seed),
                    Sys::new::<T>(Kind::Laplace, n, nrhs, seed + 2000),
                ]
            };
            let systems = trio(2);
            for (i, (s, (x, info))) in systems.iter().zip(run_strided::<T>(h, &systems, false, mode)).enumerate() {
                verify::<T>(h.backend(), &s.what::<T>("strided", i, mode), s, &x, info);
            }
            let systems = trio(1);
            for (i, (s, (x, info))) in systems.iter().zip(run_interleaved::<T>(h, &systems, mode)).enumerate() {
                verify::<T>(h.backend(), &s.what::<T>("interleaved", i, mode), s, &x, info);
            }
        }
    }
}

/// NaN in a diagonal or in B: no error, info 0 (a NaN pivot is not an exactly zero one), the
/// NaN reaches x at its row, and the other systems of the batch get the same bits as without
/// it.
fn nan_for<T: Blas>(h: &mut Handle) {
    for mode in MODES {
        for n in [1, 5, 33] {
            let clean: Vec<Sys> = (0..5).map(|i| Sys::new::<T>(Kind::Dominant, n, 1, 900 + i)).collect();
            let k = n / 2;
            let mut dirty = clean.clone();
            dirty[1].d[k] = c64(f64::NAN, 0.0);
            dirty[3].b[k] = c64(f64::NAN, 0.0);
            let outs: [(&str, Outcomes<T>, Outcomes<T>); 2] = [
                ("strided", run_strided::<T>(h, &clean, false, mode), run_strided::<T>(h, &dirty, false, mode)),
                ("interleaved", run_interleaved::<T>(h, &clean, mode), run_interleaved::<T>(h, &dirty, mode)),
            ];
            for (form, base, got) in outs {
                for i in 0..5 {
                    let what = dirty[i].what::<T>(form, i, mode);
                    assert_eq!(got[i].1, 0, "{what}: info {} with a NaN in the input", got[i].1);
                    if i == 1 || i == 3 {
                        assert!(got[i].0[k].to_c64().re.is_nan(), "{what}: NaN at row {k} did not reach x({k}) = {:?}", got[i].0[k]);
                    } else {
                        assert!(got[i].1 == base[i].1 && unchanged(&got[i].0, &base[i].0), "{what}: a NaN in another system changed this one");
                    }
                }
            }
            let (x, info) = run_single::<T>(h, &dirty[1], mode);
            assert!(info == 0 && x[k].to_c64().re.is_nan(), "{}: info {info}, x({k}) = {:?}", dirty[1].what::<T>("spike", 0, mode), x[k]);
        }
    }
}

/// n = 0, nrhs = 0 and batch = 0 succeed and touch nothing, NULL arrays included; n = 1 does
/// not read dl and du (NULL is accepted).
fn empty_for<T: Blas>(h: &mut Handle) {
    let null = std::ptr::null::<T>();
    let (mut b, mut info) = (vec![nan::<T>(); 4], vec![POISON; 2]);
    let b0 = b.clone();
    let d = [T::one(); 4];
    for mode in MODES {
        unsafe {
            gtsv_spike::<T>(h, mode, 0, 1, null, null, null, std::ptr::null_mut(), 1, std::ptr::null_mut()).unwrap();
            gtsv_spike::<T>(h, mode, 2, 0, d.as_ptr(), d.as_ptr(), d.as_ptr(), b.as_mut_ptr(), 2, info.as_mut_ptr()).unwrap();
            gtsv_batched_strided::<T>(h, mode, 0, 1, null, null, null, 0, std::ptr::null_mut(), 1, 0, std::ptr::null_mut(), 3).unwrap();
            gtsv_batched_strided::<T>(h, mode, 2, 0, d.as_ptr(), d.as_ptr(), d.as_ptr(), 2, b.as_mut_ptr(), 2, 2, info.as_mut_ptr(), 2).unwrap();
            gtsv_batched_strided::<T>(h, mode, 2, 1, d.as_ptr(), d.as_ptr(), d.as_ptr(), 2, b.as_mut_ptr(), 2, 2, info.as_mut_ptr(), 0).unwrap();
            gtsv_batched_interleaved::<T>(h, mode, 0, null, null, null, std::ptr::null_mut(), std::ptr::null_mut(), 2).unwrap();
            gtsv_batched_interleaved::<T>(h, mode, 2, d.as_ptr(), d.as_ptr(), d.as_ptr(), b.as_mut_ptr(), info.as_mut_ptr(), 0).unwrap();
        }
        h.synchronize().unwrap();
        assert!(unchanged(&b, &b0) && info.iter().all(|&v| v == POISON), "{}gtsv: empty work wrote", T::LETTER);
        // n = 1: x = b / d, dl and du NULL.
        let (two, six) = (T::from_c64(c64(2.0, 0.0)), T::from_c64(c64(6.0, 0.0)));
        let (mut x, mut inf) = (vec![six; 2], vec![POISON; 2]);
        unsafe {
            gtsv_spike::<T>(h, mode, 1, 1, null, &two, null, x.as_mut_ptr(), 1, inf.as_mut_ptr()).unwrap();
            gtsv_batched_strided::<T>(h, mode, 1, 1, null, &two, null, 0, x.as_mut_ptr().add(1), 1, 1, inf.as_mut_ptr().add(1), 1).unwrap();
        }
        h.synchronize().unwrap();
        assert!(
            x.iter().all(|v| v.to_c64() == c64(3.0, 0.0)) && inf == [0, 0],
            "{}gtsv n = 1 with NULL dl, du: x {x:?}, info {inf:?}",
            T::LETTER
        );
        let (mut x, mut inf) = (vec![six; 3], vec![POISON; 3]);
        let dd = [two; 3];
        unsafe { gtsv_batched_interleaved::<T>(h, mode, 1, null, dd.as_ptr(), null, x.as_mut_ptr(), inf.as_mut_ptr(), 3).unwrap() };
        h.synchronize().unwrap();
        assert!(
            x.iter().all(|v| v.to_c64() == c64(3.0, 0.0)) && inf == [0, 0, 0],
            "{}gtsv interleaved n = 1: x {x:?}, info {inf:?}",
            T::LETTER
        );
    }
}

/// The CPU backend solves with partial pivoting in both modes: NOPIVOT gives the same bits as
/// DIAG_PIVOT on systems that need pivoting (the CUDA backend makes no such promise).
fn cpu_nopivot_pivots_for<T: Blas>(h: &mut Handle) {
    for kind in [Kind::Random, Kind::Indefinite, Kind::ZeroDiagonal] {
        let s = Sys::new::<T>(kind, 33, 2, 1100);
        let (x, info) = run_single::<T>(h, &s, Pivoting::NoPivot);
        verify::<T>(h.backend(), &s.what::<T>("spike", 0, Pivoting::NoPivot), &s, &x, info);
        assert!(
            unchanged(&x, &run_single::<T>(h, &s, Pivoting::Diagonal).0),
            "{}: modes differ on the CPU",
            s.what::<T>("spike", 0, Pivoting::NoPivot)
        );
    }
}

#[test]
fn gtsv_cpu_nopivot_still_pivots() {
    cpu_nopivot(&mut Handle::cpu());
}

/// Arrays from `h.malloc` (device memory on CUDA) in every form: the same checks as host
/// arrays.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let size = std::mem::size_of::<T>();
    let mode = Pivoting::Diagonal;
    let (n, nrhs, batch) = (33usize, 2usize, 5usize);
    let systems: Vec<Sys> = (0..batch)
        .map(|i| Sys::new::<T>(if i == 2 { Kind::ZeroColumn } else { Kind::Random }, n, nrhs, 1200 + i as u64))
        .collect();
    unsafe {
        let up = |h: &mut Handle, v: &[T]| -> *mut T {
            let p = h.malloc(std::mem::size_of_val(v)).unwrap();
            h.memcpy(p, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap();
            p as *mut T
        };
        let down = |h: &mut Handle, p: *mut T, len: usize| -> Vec<T> {
            let mut v = vec![T::zero(); len];
            h.memcpy(v.as_mut_ptr() as _, p as _, len * size).unwrap();
            v
        };
        let dinfo = h.malloc(4 * batch).unwrap() as *mut i32;
        let info_of = |h: &mut Handle| -> Vec<i32> {
            let mut v = vec![0i32; batch];
            h.memcpy(v.as_mut_ptr() as _, dinfo as _, 4 * batch).unwrap();
            v
        };
        h.memcpy(dinfo as _, vec![POISON; batch].as_ptr() as _, 4 * batch).unwrap();
        // Strided: diagonals n apart, B compact.
        let cat = |f: &dyn Fn(&Sys) -> Vec<Complex64>, pad: usize| -> Vec<T> { systems.iter().flat_map(|s| to_t::<T>(&f(s)).into_iter().chain(std::iter::repeat(T::zero()).take(pad))).collect() };
        let (dl, d, du, b) = (cat(&|s| s.dl.clone(), 1), cat(&|s| s.d.clone(), 0), cat(&|s| s.du.clone(), 1), cat(&|s| s.b.clone(), 0));
        let (pdl, pd, pdu, pb) = (up(h, &dl), up(h, &d), up(h, &du), up(h, &b));
        gtsv_batched_strided::<T>(h, mode, n as i64, nrhs as i64, pdl, pd, pdu, n as i64, pb, n as i64, (n * nrhs) as i64, dinfo, batch as i64).unwrap();
        h.synchronize().unwrap();
        let (x, info) = (down(h, pb, b.len()), info_of(h));
        for (i, s) in systems.iter().enumerate() {
            verify::<T>(h.backend(), &s.what::<T>("strided, device arrays,", i, mode), s, &x[i * n * nrhs..(i + 1) * n * nrhs], info[i]);
        }
        assert!(
            unchanged(&down(h, pdl, dl.len()), &dl) && unchanged(&down(h, pd, d.len()), &d) && unchanged(&down(h, pdu, du.len()), &du),
            "{}gtsv device arrays: diagonals written",
            T::LETTER
        );
        // One system: systems[0] (B of the first system reloaded).
        h.memcpy(pb as _, b.as_ptr() as _, n * nrhs * size).unwrap();
        gtsv_spike::<T>(h, mode, n as i64, nrhs as i64, pdl, pd, pdu, pb, n as i64, dinfo).unwrap();
        h.synchronize().unwrap();
        verify::<T>(h.backend(), &systems[0].what::<T>("spike, device arrays,", 0, mode), &systems[0], &down(h, pb, n * nrhs), info_of(h)[0]);
        for p in [pdl, pd, pdu, pb] {
            h.free(p as _).unwrap();
        }
        // Interleaved (first right-hand sides only).
        let one: Vec<Sys> = systems.iter().map(Sys::first_rhs).collect();
        let il = |rows: usize, f: &dyn Fn(&Sys, usize) -> Complex64| -> Vec<T> { (0..rows * batch).map(|e| T::from_c64(f(&one[e % batch], e / batch))).collect() };
        let (dl, d, du, b) = (il(n - 1, &|s, k| s.dl[k]), il(n, &|s, k| s.d[k]), il(n - 1, &|s, k| s.du[k]), il(n, &|s, k| s.b[k]));
        let (pdl, pd, pdu, pb) = (up(h, &dl), up(h, &d), up(h, &du), up(h, &b));
        gtsv_batched_interleaved::<T>(h, mode, n as i64, pdl, pd, pdu, pb, dinfo, batch as i64).unwrap();
        h.synchronize().unwrap();
        let (x, info) = (down(h, pb, b.len()), info_of(h));
        for (i, s) in one.iter().enumerate() {
            let xi: Vec<T> = (0..n).map(|k| x[k * batch + i]).collect();
            verify::<T>(h.backend(), &s.what::<T>("interleaved, device arrays,", i, mode), s, &xi, info[i]);
        }
        for p in [pdl, pd, pdu, pb] {
            h.free(p as _).unwrap();
        }
        h.free(dinfo as _).unwrap();
    }
}

/// `(status, argument)` of a call that must fail, after checking that it wrote nothing.
fn rejected<T: Scalar>(cfn: &str, r: numgpu::Result<()>, b: &[T], b0: &[T], info: &[i32]) -> (Status, i32) {
    let e = r.expect_err("invalid call succeeded");
    assert!(unchanged(b, b0), "invalid call wrote B: {e:?}");
    assert!(info.iter().all(|&v| v == POISON), "invalid call wrote info: {e:?}");
    (e.status, c_position(&e, cfn))
}

/// Every argument check names its argument (checked as the 1-based positions the C forms
/// report) and writes nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let p = Pivoting::Diagonal;
    let s = Sys::new::<T>(Kind::Dominant, 4, 2, 1300);
    let (dl, d, du) = (to_t::<T>(&s.dl), to_t::<T>(&s.d), to_t::<T>(&s.du));
    let b0 = to_t::<T>(&s.b);
    let null = std::ptr::null::<T>();

    // gtsv_spike(h=1, pivoting=2, n=3, nrhs=4, dl=5, d=6, du=7, B=8, ldb=9, info=10)
    let mut single = |n: i64, nrhs: i64, cut: [usize; 4], ldb: i64| {
        let (mut b, mut info) = (b0[cut[3]..].to_vec(), POISON);
        let r = gtsv_spike_slices(h, p, n, nrhs, &dl[cut[0]..], &d[cut[1]..], &du[cut[2]..], &mut b, ldb, &mut info);
        rejected("numgpu_sgtsv_spike", r, &b, &b0[cut[3]..], &[info])
    };
    assert_eq!(single(-1, 2, [0; 4], 4), (BAD, 3));
    assert_eq!(single(4, -1, [0; 4], 4), (BAD, 4));
    assert_eq!(single(4, 2, [1, 0, 0, 0], 4), (BAD, 5));
    assert_eq!(single(4, 2, [0, 1, 0, 0], 4), (BAD, 6));
    assert_eq!(single(4, 2, [0, 0, 1, 0], 4), (BAD, 7));
    assert_eq!(single(4, 2, [0, 0, 0, 1], 4), (BAD, 8));
    assert_eq!(single(4, 2, [0; 4], 3), (BAD, 9));
    assert_eq!(single(0, 2, [0; 4], 0), (BAD, 9));
    let (mut b, mut info) = (b0.clone(), POISON);
    for (ptrs, arg) in [([null, d.as_ptr(), du.as_ptr()], 5), ([dl.as_ptr(), null, du.as_ptr()], 6), ([dl.as_ptr(), d.as_ptr(), null], 7)] {
        let e = unsafe { gtsv_spike::<T>(h, p, 4, 2, ptrs[0], ptrs[1], ptrs[2], b.as_mut_ptr(), 4, &mut info) }.unwrap_err();
        assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_spike")), (BAD, arg));
    }
    let e = unsafe { gtsv_spike::<T>(h, p, 4, 2, dl.as_ptr(), d.as_ptr(), du.as_ptr(), std::ptr::null_mut(), 4, &mut info) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_spike")), (BAD, 8));
    let e = unsafe { gtsv_spike::<T>(h, p, 4, 2, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), 4, std::ptr::null_mut()) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_spike")), (BAD, 10));
    let e = unsafe { gtsv_spike::<T>(h, p, 1, 2, dl.as_ptr(), null, du.as_ptr(), b.as_mut_ptr(), 1, &mut info) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_spike")), (BAD, 6));
    assert!(unchanged(&b, &b0) && info == POISON, "invalid gtsv_spike wrote");

    // Strided: two systems, diagonals 4 apart, B 8 apart. (h=1, pivoting=2, n=3, nrhs=4, dl=5,
    // d=6, du=7, stride_diag=8, B=9, ldb=10, strideB=11, info=12, batch=13)
    let two = |v: &[T]| -> Vec<T> { v.iter().chain(&[T::zero()][..4 - v.len().min(4)]).chain(v).copied().collect() };
    let (sdl, sd, sdu) = (two(&dl), two(&d), two(&du));
    let sb0: Vec<T> = b0.iter().chain(&b0).copied().collect();
    let mut strided = |n: i64, nrhs: i64, sdg: i64, ldb: i64, sbb: i64, batch: i64, cut: [usize; 5]| {
        let (mut b, mut info) = (sb0[cut[3]..].to_vec(), vec![POISON; 2 - cut[4]]);
        let r = gtsv_batched_strided_slices(h, p, n, nrhs, &sdl[cut[0]..], &sd[cut[1]..], &sdu[cut[2]..], sdg, &mut b, ldb, sbb, &mut info, batch);
        rejected("numgpu_sgtsv_batched_strided", r, &b, &sb0[cut[3]..], &info)
    };
    assert_eq!(strided(-1, 2, 4, 4, 8, 2, [0; 5]), (BAD, 3));
    assert_eq!(strided(4, -1, 4, 4, 8, 2, [0; 5]), (BAD, 4));
    assert_eq!(strided(4, 2, 4, 4, 8, 2, [1, 0, 0, 0, 0]), (BAD, 5));
    assert_eq!(strided(4, 2, 4, 4, 8, 2, [0, 1, 0, 0, 0]), (BAD, 6));
    assert_eq!(strided(4, 2, 4, 4, 8, 2, [0, 0, 1, 0, 0]), (BAD, 7));
    assert_eq!(strided(4, 2, 3, 4, 8, 2, [0; 5]), (BAD, 8));
    assert_eq!(strided(4, 2, -1, 4, 8, 1, [0; 5]), (BAD, 8));
    assert_eq!(strided(4, 2, 4, 4, 8, 2, [0, 0, 0, 1, 0]), (BAD, 9));
    assert_eq!(strided(4, 2, 4, 3, 8, 2, [0; 5]), (BAD, 10));
    assert_eq!(strided(4, 2, 4, 4, 7, 2, [0; 5]), (BAD, 11));
    assert_eq!(strided(4, 2, 4, 4, -8, 1, [0; 5]), (BAD, 11));
    assert_eq!(strided(4, 2, 4, 4, 8, 2, [0, 0, 0, 0, 1]), (BAD, 12));
    assert_eq!(strided(4, 2, 4, 4, 8, -1, [0; 5]), (BAD, 13));
    let (mut b, mut info) = (sb0.clone(), vec![POISON; 2]);
    let call = |h: &mut Handle, dl: *const T, d: *const T, du: *const T, b: *mut T, info: *mut i32| unsafe { gtsv_batched_strided::<T>(h, p, 4, 2, dl, d, du, 4, b, 4, 8, info, 2) };
    for (ptrs, arg) in [([null, sd.as_ptr(), sdu.as_ptr()], 5), ([sdl.as_ptr(), null, sdu.as_ptr()], 6), ([sdl.as_ptr(), sd.as_ptr(), null], 7)] {
        let e = call(h, ptrs[0], ptrs[1], ptrs[2], b.as_mut_ptr(), info.as_mut_ptr()).unwrap_err();
        assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_strided")), (BAD, arg));
    }
    let e = call(h, sdl.as_ptr(), sd.as_ptr(), sdu.as_ptr(), std::ptr::null_mut(), info.as_mut_ptr()).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_strided")), (BAD, 9));
    let e = call(h, sdl.as_ptr(), sd.as_ptr(), sdu.as_ptr(), b.as_mut_ptr(), std::ptr::null_mut()).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_strided")), (BAD, 12));
    assert!(unchanged(&b, &sb0) && info.iter().all(|&v| v == POISON), "invalid gtsv_batched_strided wrote");
    // A stride of 0 for the diagonals is one matrix for the whole batch; with one system any
    // stride is accepted.
    let (mut b, mut info) = (sb0.clone(), vec![POISON; 2]);
    gtsv_batched_strided_slices(h, p, 4, 2, &dl, &d, &du, 0, &mut b, 4, 8, &mut info, 2).unwrap();
    gtsv_batched_strided_slices(h, p, 4, 2, &dl, &d, &du, 1, &mut b, 4, 0, &mut info, 1).unwrap();
    h.synchronize().unwrap();
    assert_eq!(info, [0, 0]);

    // Interleaved: two systems of order 4 (h=1, pivoting=2, n=3, dl=4, d=5, du=6, B=7, info=8,
    // batch=9): dl and du hold 3·2 entries, d and B 4·2.
    let v8: Vec<T> = sd.iter().take(8).copied().collect();
    let ib0: Vec<T> = b0.clone();
    let mut interleaved = |n: i64, batch: i64, cut: [usize; 5]| {
        let (mut b, mut info) = (ib0[cut[3]..].to_vec(), vec![POISON; 2 - cut[4]]);
        let r = gtsv_batched_interleaved_slices(h, p, n, &v8[cut[0]..], &v8[cut[1]..], &v8[cut[2]..], &mut b, &mut info, batch);
        rejected("numgpu_sgtsv_batched_interleaved", r, &b, &ib0[cut[3]..], &info)
    };
    assert_eq!(interleaved(-1, 2, [0; 5]), (BAD, 3));
    assert_eq!(interleaved(4, 2, [3, 0, 0, 0, 0]), (BAD, 4));
    assert_eq!(interleaved(4, 2, [0, 1, 0, 0, 0]), (BAD, 5));
    assert_eq!(interleaved(4, 2, [0, 0, 3, 0, 0]), (BAD, 6));
    assert_eq!(interleaved(4, 2, [0, 0, 0, 1, 0]), (BAD, 7));
    assert_eq!(interleaved(4, 2, [0, 0, 0, 0, 1]), (BAD, 8));
    assert_eq!(interleaved(4, -2, [0; 5]), (BAD, 9));
    // (n − 1)·batch entries of dl and du are enough.
    let (mut b, mut info) = (ib0.clone(), vec![POISON; 2]);
    gtsv_batched_interleaved_slices(h, p, 4, &v8[2..], &v8, &v8[2..], &mut b, &mut info, 2).unwrap();
    let (mut b, mut info) = (ib0.clone(), vec![POISON; 2]);
    let call = |h: &mut Handle, dl: *const T, d: *const T, du: *const T, b: *mut T, info: *mut i32| unsafe { gtsv_batched_interleaved::<T>(h, p, 4, dl, d, du, b, info, 2) };
    for (ptrs, arg) in [([null, v8.as_ptr(), v8.as_ptr()], 4), ([v8.as_ptr(), null, v8.as_ptr()], 5), ([v8.as_ptr(), v8.as_ptr(), null], 6)] {
        let e = call(h, ptrs[0], ptrs[1], ptrs[2], b.as_mut_ptr(), info.as_mut_ptr()).unwrap_err();
        assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_interleaved")), (BAD, arg));
    }
    let e = call(h, v8.as_ptr(), v8.as_ptr(), v8.as_ptr(), std::ptr::null_mut(), info.as_mut_ptr()).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_interleaved")), (BAD, 7));
    let e = call(h, v8.as_ptr(), v8.as_ptr(), v8.as_ptr(), b.as_mut_ptr(), std::ptr::null_mut()).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgtsv_batched_interleaved")), (BAD, 8));
    assert!(unchanged(&b, &ib0) && info.iter().all(|&v| v == POISON), "invalid gtsv_batched_interleaved wrote");
}

/// Through the C ABI: a NULL handle and pivoting out of range are named; every entry point
/// passes its arguments on in order (same bits as the Rust API).
#[test]
fn gtsv_c_abi_checks() {
    use numgpu::ffi::capi::numgpu_last_error_arg;
    use numgpu::gtsv_spike::capi::*;
    let s = Sys::new::<f64>(Kind::Random, 5, 2, 1400);
    let (dl, d, du) = (to_t::<f64>(&s.dl), to_t::<f64>(&s.d), to_t::<f64>(&s.du));
    let b0 = to_t::<f64>(&s.b);
    let (mut b, mut info) = (b0.clone(), vec![POISON; 2]);
    let st = unsafe { numgpu_dgtsv_spike(std::ptr::null_mut(), 0, 5, 2, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), 5, info.as_mut_ptr()) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let st = unsafe { numgpu_dgtsv_spike(&mut h, 2, 5, 2, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), 5, info.as_mut_ptr()) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    let st = unsafe { numgpu_dgtsv_batched_strided(&mut h, -1, 5, 1, dl.as_ptr(), d.as_ptr(), du.as_ptr(), 0, b.as_mut_ptr(), 5, 5, info.as_mut_ptr(), 2) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    let st = unsafe { numgpu_zgtsv_batched_interleaved(&mut h, 7, 1, std::ptr::null(), b.as_ptr() as _, std::ptr::null(), b.as_mut_ptr() as _, info.as_mut_ptr(), 2) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    assert!(unchanged(&b, &b0) && info.iter().all(|&v| v == POISON), "invalid C calls wrote");

    // Valid calls: the C forms agree with the Rust API bit for bit.
    let mut want = (b0.clone(), POISON);
    gtsv_spike_slices(&mut h, Pivoting::NoPivot, 5, 2, &dl, &d, &du, &mut want.0, 5, &mut want.1).unwrap();
    let st = unsafe { numgpu_dgtsv_spike(&mut h, 1, 5, 2, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), 5, info.as_mut_ptr()) };
    assert!(st == Status::NUMGPU_SUCCESS && unchanged(&b, &want.0) && info[0] == want.1, "numgpu_dgtsv_spike");
    let (mut b, mut info) = (b0.clone(), vec![POISON; 2]);
    let st = unsafe { numgpu_dgtsv_batched_strided(&mut h, 0, 5, 1, dl.as_ptr(), d.as_ptr(), du.as_ptr(), 0, b.as_mut_ptr(), 5, 5, info.as_mut_ptr(), 2) };
    assert!(st == Status::NUMGPU_SUCCESS && unchanged(&b, &want.0) && info == [0, 0], "numgpu_dgtsv_batched_strided");
    // Interleaved: the two columns of B as two systems with the same T.
    let il = |v: &[f64]| -> Vec<f64> { (0..2 * v.len()).map(|e| v[e / 2]).collect() };
    let (idl, id, idu) = (il(&dl), il(&d), il(&du));
    let mut ib: Vec<f64> = (0..10).map(|e| b0[e % 2 * 5 + e / 2]).collect();
    let mut info = vec![POISON; 2];
    let st = unsafe { numgpu_dgtsv_batched_interleaved(&mut h, 0, 5, idl.as_ptr(), id.as_ptr(), idu.as_ptr(), ib.as_mut_ptr(), info.as_mut_ptr(), 2) };
    let back: Vec<f64> = (0..10).map(|e| ib[e % 5 * 2 + e / 5]).collect();
    assert!(st == Status::NUMGPU_SUCCESS && unchanged(&back, &want.0) && info == [0, 0], "numgpu_dgtsv_batched_interleaved");
}

crate::all_precisions! {
    single => single_for;
    large => large_for;
    partitioned => partitioned_for;
    tail_orders => tail_orders_for;
    singular_partitions => singular_partitions_for;
    il_partitioned => il_partitioned_for;
    il_pivoting => il_pivoting_for;
    strided => strided_for;
    interleaved => interleaved_for;
    cusparse_layout => cusparse_layout_for;
    singular => singular_for;
    nan_input => nan_for;
    empty => empty_for;
    cpu_nopivot => cpu_nopivot_pivots_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    gtsv_spike_every_order_kind_and_mode => super::single;
    gtsv_spike_large_system => super::large;
    gtsv_spike_partitioned_orders => super::partitioned;
    issue27_spike_tail_orders_reproducible => super::tail_orders;
    issue27_singular_partitions_fall_back => super::singular_partitions;
    issue27_interleaved_partitioned => super::il_partitioned;
    issue27_interleaved_pivoting_partitions_dominant_only => super::il_pivoting;
    gtsv_batched_strided_matches_lapack => super::strided;
    gtsv_batched_interleaved_matches_lapack => super::interleaved;
    issue25_cusparse_arrays_map_as_documented => super::cusparse_layout;
    gtsv_singular_systems_leave_b_unchanged => super::singular;
    gtsv_nan_propagates_to_its_system_only => super::nan_input;
    gtsv_empty_work_touches_nothing => super::empty;
    gtsv_device_arrays => super::device_arrays;
    gtsv_argument_checks => super::argument_checks;
}
