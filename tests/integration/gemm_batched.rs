//! gemm_batched on every backend against the oracle's reference in f64 arithmetic, with
//! BLAS's error ratio (`numgpu::testing::gemm`), which stays below a small constant for a
//! correct product in any scaling. Outputs are poisoned: padding and gaps between C matrices
//! must come back bitwise unchanged, and beta = 0 cases start from NaN.

use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::lapack::Blas;
use numgpu::core::MathMode;
use numgpu::testing::gemm::{Elementwise, Gemm};
use numgpu::testing::gen::{c as s, nan, random, rng};
use numgpu::testing::layout::Layout;
use numgpu::testing::norm::same;
use numgpu::testing::tol::GEMM_RATIO;
use numgpu::{Backend, Complex64, Handle, Op};

const OPS: [Op; 3] = [Op::N, Op::T, Op::C];

/// One batched product with its inputs, laid out strided (pointer forms point into it).
#[derive(Clone)]
struct Case<T> {
    ta: Op,
    tb: Op,
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    beta: T,
    batch: usize,
    lda: usize,
    ldb: usize,
    ldc: usize,
    sa: usize,
    sb: usize,
    sc: usize,
    a: Vec<T>,
    b: Vec<T>,
    c0: Vec<T>,
    seed: u64,
}

impl<T: Blas> Case<T> {
    /// Random inputs; leading dimensions and strides padded by `pad`; C starts random (NaN if
    /// beta = 0).
    #[allow(clippy::too_many_arguments)]
    fn new(ta: Op, tb: Op, m: usize, n: usize, k: usize, alpha: T, beta: T, batch: usize, pad: usize, seed: u64, scale: f64) -> Self {
        Self::padded(ta, tb, m, n, k, alpha, beta, batch, (pad, pad), seed, scale)
    }

    /// As [`new`](Self::new), leading dimensions padded by `pad.0` elements and the strides
    /// beyond the last column by `pad.1`.
    #[allow(clippy::too_many_arguments)]
    fn padded(ta: Op, tb: Op, m: usize, n: usize, k: usize, alpha: T, beta: T, batch: usize, pad: (usize, usize), seed: u64, scale: f64) -> Self {
        let mut r = rng(seed);
        let (ar, ac) = ta.stored(m, k);
        let (br, bc) = tb.stored(k, n);
        let (lda, ldb, ldc) = (ar.max(1) + pad.0, br.max(1) + pad.0, m.max(1) + pad.0);
        let (sa, sb, sc) = (lda * ac + pad.1, ldb * bc + pad.1, ldc * n + pad.1);
        let a = random::<T>(&mut r, sa * batch, scale);
        let b = random::<T>(&mut r, sb * batch, 1.0 / scale);
        let c0 = if beta.is_zero() { vec![nan::<T>(); sc * batch] } else { random::<T>(&mut r, sc * batch, 1.0) };
        Case { ta, tb, m, n, k, alpha, beta, batch, lda, ldb, ldc, sa, sb, sc, a, b, c0, seed }
    }

    fn run_strided(&self, h: &mut Handle) -> Vec<T> {
        let mut c = self.c0.clone();
        let (m, n, k) = (self.m as i64, self.n as i64, self.k as i64);
        gemm_batched_strided(h, self.ta, self.tb, m, n, k, self.alpha, &self.a, self.lda as i64, self.sa as i64, &self.b, self.ldb as i64, self.sb as i64, self.beta, &mut c, self.ldc as i64, self.sc as i64, self.batch as i64)
            .unwrap_or_else(|e| panic!("{}: {e}", self.describe()));
        c
    }

    /// Pointer-array form with the matrices visited in `order` (a permutation of the batch):
    /// problem i uses matrices order[i] of A, B and C.
    fn run_array(&self, h: &mut Handle, order: &[usize], alias_b_to_a: bool) -> Vec<T> {
        let mut c = self.c0.clone();
        let pa: Vec<*const T> = order.iter().map(|&i| self.a[i * self.sa..].as_ptr()).collect();
        let pb: Vec<*const T> = if alias_b_to_a { pa.clone() } else { order.iter().map(|&i| self.b[i * self.sb..].as_ptr()).collect() };
        let base = c.as_mut_ptr();
        let pc: Vec<*mut T> = order.iter().map(|&i| unsafe { base.add(i * self.sc) }).collect();
        let (m, n, k) = (self.m as i64, self.n as i64, self.k as i64);
        // SAFETY: every pointer addresses a full matrix inside the case's buffers.
        unsafe {
            gemm_batched(h, self.ta, self.tb, m, n, k, self.alpha, Batch::Array(pa.as_ptr()), self.lda as i64, Batch::Array(pb.as_ptr()), self.ldb as i64, self.beta, Batch::Array(pc.as_ptr()), self.ldc as i64, self.batch as i64)
        }
        .unwrap_or_else(|e| panic!("{}: {e}", self.describe()));
        c
    }

    /// The strided form on device arrays (numgpu_malloc) whose matrices start `offset`
    /// elements into their allocations (1: not 16-byte aligned).
    fn run_device(&self, h: &mut Handle, offset: usize) -> Vec<T> {
        let size = std::mem::size_of::<T>();
        let upload = |h: &mut Handle, v: &[T]| -> *mut T {
            let p = h.malloc((v.len() + offset) * size).unwrap() as *mut T;
            // SAFETY: p has room for offset + v.len() elements.
            unsafe { h.memcpy(p.add(offset) as _, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap() };
            p
        };
        let (da, db, dc) = (upload(h, &self.a), upload(h, &self.b), upload(h, &self.c0));
        let (m, n, k) = (self.m as i64, self.n as i64, self.k as i64);
        let mut c = vec![T::zero(); self.c0.len()];
        // SAFETY: each device array holds the case's matrices from element `offset` on.
        unsafe {
            let strided = |p: *mut T, stride: usize| Batch::Strided { ptr: p.add(offset) as *const T, stride: stride as i64 };
            gemm_batched(h, self.ta, self.tb, m, n, k, self.alpha, strided(da, self.sa), self.lda as i64, strided(db, self.sb), self.ldb as i64, self.beta, Batch::Strided { ptr: dc.add(offset), stride: self.sc as i64 }, self.ldc as i64, self.batch as i64)
                .unwrap_or_else(|e| panic!("{}: {e}", self.describe()));
            h.synchronize().unwrap();
            h.memcpy(c.as_mut_ptr() as _, dc.add(offset) as _, c.len() * size).unwrap();
            for p in [da, db, dc] {
                h.free(p as _).unwrap();
            }
        }
        c
    }

    fn describe(&self) -> String {
        format!(
            "{}gemm op({:?},{:?}) m={} n={} k={} alpha={:?} beta={:?} batch={} lda={} ldb={} ldc={} seed={}",
            T::LETTER, self.ta, self.tb, self.m, self.n, self.k, self.alpha, self.beta, self.batch, self.lda, self.ldb, self.ldc, self.seed
        )
    }

    /// Product p of the batch for the oracle; `b_is_a`: B's matrices were A's (aliasing test).
    fn product(&self, p: usize, b_is_a: bool) -> Gemm<'_, T> {
        let (b, ldb, sb) = if b_is_a { (&self.a, self.lda, self.sa) } else { (&self.b, self.ldb, self.sb) };
        Gemm { ta: self.ta, tb: self.tb, m: self.m, n: self.n, k: self.k, alpha: self.alpha, a: &self.a[p * self.sa..], lda: self.lda, b: &b[p * sb..], ldb, beta: self.beta, c0: &self.c0[p * self.sc..], ldc: self.ldc }
    }

    /// Padding and gaps between the C matrices unchanged, every element written and finite.
    fn check_written(&self, c: &[T]) {
        let layout = Layout { rows: self.m, cols: self.n, ld: self.ldc, stride: self.sc, count: self.batch };
        assert!(layout.outside_unchanged(c, &self.c0), "{}: padding or a gap between the C matrices was written", self.describe());
        for p in 0..self.batch {
            let cp = &c[p * self.sc..];
            for e in 0..self.m * self.n {
                let got = cp[e % self.m + (e / self.m) * self.ldc].to_c64();
                assert!(got.re.is_finite() && got.im.is_finite(), "{}: matrix {p} C({}, {}) = {got} not written or not finite", self.describe(), e % self.m, e / self.m);
            }
        }
    }

    /// Checks `c` against the reference; `b_is_a`: B's matrices were A's (aliasing test).
    fn check(&self, c: &[T], b_is_a: bool) {
        self.check_written(c);
        for p in 0..self.batch {
            let ratio = self.product(p, b_is_a).ratio(&c[p * self.sc..]);
            assert!(ratio < GEMM_RATIO, "{}: matrix {p} error ratio {ratio:.3e} >= {GEMM_RATIO}", self.describe());
        }
    }

    /// Each matrix's reference and the scale of the elementwise bounds (`Gemm::abs_scale`),
    /// computed once for the checks of several modes.
    fn references(&self) -> Vec<(Vec<Complex64>, Vec<f64>)> {
        (0..self.batch).map(|p| (self.product(p, false).reference(), self.product(p, false).abs_scale())).collect()
    }

    /// Checks `c` elementwise against math `mode`'s bound (`numgpu_math_mode`, plus the f64
    /// reference's own k·2^-52), `refs` from [`references`](Self::references), and returns the
    /// batch's worst elementwise errors.
    fn check_bound(&self, c: &[T], mode: MathMode, refs: &[(Vec<Complex64>, Vec<f64>)]) -> Elementwise {
        self.check_written(c);
        let bound = if T::IS_COMPLEX { mode.complex_bound(self.k) } else { mode.bound(self.k) } + self.k as f64 * f64::EPSILON;
        let mut worst = Elementwise { max: 0.0, rms: 0.0 };
        for (p, (want, scale)) in refs.iter().enumerate() {
            let e = self.product(p, false).elementwise_to(&c[p * self.sc..], want, scale);
            assert!(e.max <= bound, "{} in {mode:?}: matrix {p} elementwise error {:.3e} > the bound {bound:.3e} (both relative to |alpha|·|A|·|B| + |beta|·|C0|)", self.describe(), e.max);
            worst = worst.worst(e);
        }
        worst
    }
}

/// Square sizes of the spec with every op pair on a subset; strided and pointer forms.
fn sizes_for<T: Blas>(h: &mut Handle) {
    let sizes = [0usize, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 129];
    for (idx, &n) in sizes.iter().enumerate() {
        let case = Case::<T>::new(Op::N, Op::N, n, n, n, s(1.5, 0.5), s(-0.5, 0.25), 3, idx % 2, 100 + idx as u64, 1.0);
        case.check(&case.run_strided(h), false);
    }
    for (idx, &n) in [1usize, 4, 8, 17, 32, 33, 64].iter().enumerate() {
        for ta in OPS {
            for tb in OPS {
                let case = Case::<T>::new(ta, tb, n, n, n, s(1.0, -1.0), s(0.0, 0.0), 2, 1, 200 + idx as u64, 1.0);
                case.check(&case.run_strided(h), false);
            }
        }
    }
}

/// Rectangular shapes across the size-class boundaries, every op pair.
fn rectangular_for<T: Blas>(h: &mut Handle) {
    let shapes = [(1, 7, 33), (33, 1, 7), (7, 33, 1), (4, 100, 16), (100, 4, 17), (15, 31, 64), (129, 2, 3), (2, 129, 100), (31, 32, 33), (3, 5, 8)];
    for (idx, &(m, n, k)) in shapes.iter().enumerate() {
        for ta in OPS {
            for tb in OPS {
                let case = Case::<T>::new(ta, tb, m, n, k, s(0.75, 0.0), s(1.0, 0.0), 3, 2, 300 + idx as u64, 1.0);
                case.check(&case.run_strided(h), false);
            }
        }
    }
}

/// The sizes on each side of the tiled kernels' tile edges (32, 64, 128, 256), square with
/// every op pair and rectangular with one order on each side of an edge, padded leading
/// dimensions.
fn tile_edges_for<T: Blas>(h: &mut Handle) {
    let sizes = [31usize, 33, 63, 65, 127, 129, 255, 257];
    for (idx, &n) in sizes.iter().enumerate() {
        // The two largest orders take one op pair each: the reference costs n³ per matrix.
        let ops: &[(Op, Op)] = match n {
            255 => &[(Op::N, Op::N)],
            257 => &[(Op::T, Op::C)],
            _ => &[(Op::N, Op::N), (Op::T, Op::N), (Op::N, Op::T), (Op::C, Op::C), (Op::T, Op::C)],
        };
        for &(ta, tb) in ops {
            let case = Case::<T>::new(ta, tb, n, n, n, s(1.25, -0.5), s(-0.5, 0.25), 2, 3, 400 + idx as u64, 1.0);
            case.check(&case.run_strided(h), false);
        }
    }
    for (idx, &(m, n, k)) in [(65, 63, 17), (63, 129, 65), (129, 33, 3), (33, 257, 64), (64, 64, 1)].iter().enumerate() {
        let case = Case::<T>::new(Op::N, Op::T, m, n, k, s(1.0, 0.0), s(0.0, 0.0), 3, 1, 450 + idx as u64, 1.0);
        case.check(&case.run_strided(h), false);
    }
}

/// alpha, beta in {0, 1, −1, complex}: alpha = 0 must not read A and B (NaN there), beta = 0
/// must not read C (NaN there, from Case::new).
fn alpha_beta_for<T: Blas>(h: &mut Handle) {
    let vals = [s::<T>(0.0, 0.0), s(1.0, 0.0), s(-1.0, 0.0), s(0.5, -2.0)];
    for (ia, &alpha) in vals.iter().enumerate() {
        for (ib, &beta) in vals.iter().enumerate() {
            for n in [3usize, 8, 40, 69] {
                let mut case = Case::<T>::new(Op::N, Op::T, n, n, n, alpha, beta, 2, 0, 400 + (ia * 4 + ib) as u64, 1.0);
                if alpha.is_zero() {
                    case.a.iter_mut().chain(case.b.iter_mut()).for_each(|x| *x = s(f64::NAN, 0.0));
                    let c = case.run_strided(h);
                    for (i, (&got, &c0)) in c.iter().zip(&case.c0).enumerate() {
                        let want = if beta.is_zero() { T::zero() } else { beta * c0 };
                        let in_matrix = i % case.sc < case.ldc * case.n && (i % case.sc) % case.ldc < case.m;
                        assert!(!in_matrix || same(got, want), "{}: alpha = 0 gave C[{i}] = {got:?}, want {want:?}", case.describe());
                    }
                } else {
                    case.check(&case.run_strided(h), false);
                }
            }
        }
    }
    // k = 0 is C = beta·C too, with A and B never read (NULL is fine).
    let case = Case::<T>::new(Op::N, Op::N, 5, 4, 0, s(2.0, 0.0), s(3.0, 0.0), 2, 0, 499, 1.0);
    case.check(&case.run_strided(h), false);
}

/// stride 0 for A and B (one matrix for the whole batch), batch counts around block sizes,
/// huge and tiny scalings.
fn strides_and_batches_for<T: Blas>(h: &mut Handle) {
    let mut case = Case::<T>::new(Op::T, Op::N, 6, 5, 4, s(1.0, 0.0), s(0.5, 0.0), 7, 1, 500, 1.0);
    case.sa = 0;
    case.sb = 0;
    case.check(&case.run_strided(h), false);
    for (i, &batch) in [0usize, 1, 2, 1000, 1037].iter().enumerate() {
        for n in [2usize, 4, 8, 16, 33] {
            let case = Case::<T>::new(Op::N, Op::N, n, n, n, s(1.0, 0.0), s(0.0, 0.0), batch, 0, 600 + i as u64, 1.0);
            case.check(&case.run_strided(h), false);
        }
    }
    for (i, scale) in [1e-30f64, 1e30].into_iter().enumerate() {
        let scale = if T::EPS > 1e-10 { scale.powf(0.3) } else { scale };
        let case = Case::<T>::new(Op::N, Op::C, 17, 9, 12, s(1.0, 0.0), s(1.0, 0.0), 3, 0, 700 + i as u64, scale);
        case.check(&case.run_strided(h), false);
    }
}

/// Pointer arrays: matrices visited in scrambled order, and A == B aliased.
fn pointer_arrays_for<T: Blas>(h: &mut Handle) {
    for &(m, n, k) in &[(4usize, 4usize, 4usize), (8, 3, 17), (33, 20, 9), (64, 64, 64)] {
        let batch = 9;
        let order: Vec<usize> = (0..batch).map(|i| (i * 4 + 3) % batch).collect();
        let case = Case::<T>::new(Op::N, Op::N, m, n, k, s(1.0, 0.5), s(0.5, 0.0), batch, 1, 800 + m as u64, 1.0);
        case.check(&case.run_array(h, &order, false), false);
        let sq = Case::<T>::new(Op::T, Op::N, m, m, m, s(1.0, 0.0), s(0.0, 0.0), batch, 1, 850 + m as u64, 1.0);
        sq.check(&sq.run_array(h, &order, true), true);
    }
}

/// The shapes of the SIMT class (float and complex float, m and n > 32, sm_80 and later; the
/// other types and GPUs take them through their own classes): its tile edges (32, 64, 128) on
/// each side in m and n, k = 1, k below and above one tile and not a multiple of its depth,
/// every op pair (C for complex), orders even and odd (the 16-byte copies of host arrays,
/// staged compact, then apply or not), stride 0 for A and B, pointer arrays in scrambled order,
/// and two calls bitwise equal.
fn simt_shapes_for<T: Blas>(h: &mut Handle) {
    let shapes = [(33, 33, 1), (64, 64, 7), (65, 63, 9), (127, 129, 17), (129, 127, 31), (40, 257, 33), (257, 40, 12), (128, 128, 64), (200, 68, 130)];
    for (idx, &(m, n, k)) in shapes.iter().enumerate() {
        for (io, (ta, tb)) in OPS.iter().flat_map(|&a| OPS.map(|b| (a, b))).enumerate() {
            let (alpha, beta) = [(s(1.0, 0.0), s(0.0, 0.0)), (s(-0.75, 0.5), s(0.5, -0.25)), (s(2.0, 0.0), s(1.0, 0.0))][(idx + io) % 3];
            let case = Case::<T>::new(ta, tb, m, n, k, alpha, beta, 2, io % 2, 2000 + (idx * 16 + io) as u64, 1.0);
            case.check(&case.run_strided(h), false);
        }
    }
    let mut case = Case::<T>::new(Op::N, Op::T, 96, 72, 40, s(1.0, 0.25), s(0.5, 0.0), 5, 0, 2200, 1.0);
    case.sa = 0;
    case.sb = 0;
    case.check(&case.run_strided(h), false);
    for &(m, n, k) in &[(65usize, 40usize, 33usize), (128, 96, 64)] {
        let order: Vec<usize> = (0..7).map(|i| (i * 3 + 2) % 7).collect();
        let case = Case::<T>::new(Op::C, Op::N, m, n, k, s(1.0, 0.5), s(0.0, 0.0), 7, 1, 2300 + m as u64, 1.0);
        case.check(&case.run_array(h, &order, false), false);
    }
    for (idx, &(m, n, k)) in [(257usize, 129usize, 100usize), (64, 64, 64)].iter().enumerate() {
        let case = Case::<T>::new(Op::T, Op::C, m, n, k, s(1.0, 0.0), s(-0.5, 0.0), 3, idx, 2400 + idx as u64, 1.0);
        let (x, y) = (case.run_strided(h), case.run_strided(h));
        assert!(x.iter().zip(&y).all(|(p, q)| same(*p, *q)), "{}: two calls differ", case.describe());
        case.check(&x, false);
    }
}

/// The SIMT class on device arrays, whose layout reaches the kernel as it is: leading
/// dimensions and strides that are multiples of 16 bytes (16-byte copies and C accesses, m
/// not a multiple of four: partial copies and groups at the edge), odd ones, and matrices 16-byte
/// aligned or not (the host must fall back to 4-byte copies there), every op pair on one shape.
fn simt_alignment_for<T: Blas>(h: &mut Handle) {
    let w = 16 / std::mem::size_of::<T>().min(16);
    for (idx, &(m, n, k)) in [(66usize, 70usize, 37usize), (130, 131, 20), (64, 40, 64)].iter().enumerate() {
        // (leading-dimension pad, stride pad, offset of the first matrix) in elements.
        let layouts = [(m.next_multiple_of(w) - m, 0, 0), (1, 1, 0), (0, 0, 1), (m.next_multiple_of(w) - m, w, 1)];
        for (il, &(ldpad, spad, offset)) in layouts.iter().enumerate() {
            for (io, &(ta, tb)) in [(Op::N, Op::N), (Op::T, Op::N), (Op::N, Op::T), (Op::C, Op::C), (Op::T, Op::C)].iter().enumerate() {
                if idx > 0 && io > 1 {
                    continue;
                }
                let beta = if io % 2 == 0 { s(0.0, 0.0) } else { s(0.5, -1.0) };
                let case = Case::<T>::padded(ta, tb, m, n, k, s(1.5, 0.5), beta, 3, (ldpad, spad), 2500 + (idx * 32 + il * 8 + io) as u64, 1.0);
                case.check(&case.run_device(h, offset), false);
            }
        }
    }
}

/// NaN and Inf in A reach exactly the rows of C they should.
fn nan_inf_for<T: Blas>(h: &mut Handle) {
    let mut case = Case::<T>::new(Op::N, Op::N, 8, 6, 5, s(1.0, 0.0), s(0.0, 0.0), 2, 0, 900, 1.0);
    case.a[2 + 3 * case.lda] = s(f64::NAN, 0.0);
    case.a[case.sa + 5 + case.lda] = s(f64::INFINITY, 0.0);
    let c = case.run_strided(h);
    for j in 0..case.n {
        for i in 0..case.m {
            let (x, y) = (c[j * case.ldc + i].to_c64(), c[case.sc + j * case.ldc + i].to_c64());
            assert_eq!(x.re.is_finite(), i != 2, "matrix 0 C({i},{j}) = {x}");
            assert_eq!(y.re.is_finite() && y.im.is_finite(), i != 5, "matrix 1 C({i},{j}) = {y}");
        }
    }
}

/// A batch beyond grid limits of y and z (65,535): the batch index must be on grid x.
fn large_batch_for<T: Blas>(h: &mut Handle) {
    let case = Case::<T>::new(Op::N, Op::N, 2, 2, 2, s(1.0, 0.0), s(1.0, 0.0), 70_001, 0, 1000, 1.0);
    case.check(&case.run_strided(h), false);
}

/// The same inputs give bitwise the same outputs, call after call.
fn deterministic_for<T: Blas>(h: &mut Handle) {
    for n in [8usize, 32, 100] {
        let case = Case::<T>::new(Op::N, Op::T, n, n, n, s(1.0, 0.0), s(0.5, 0.0), 4, 0, 1100 + n as u64, 1.0);
        let (x, y) = (case.run_strided(h), case.run_strided(h));
        assert!(x.iter().zip(&y).all(|(p, q)| same(*p, *q)), "{}: two calls differ", case.describe());
    }
}

/// Device arrays (numgpu_malloc) on the handle's backend: strided and pointer-array forms
/// with pointer arrays in device memory too; the call is asynchronous on CUDA.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let case = Case::<T>::new(Op::N, Op::C, 20, 12, 9, s(1.0, 0.0), s(-1.0, 0.5), 5, 1, 1200, 1.0);
    let size = std::mem::size_of::<T>();
    let upload = |h: &mut Handle, v: &[T]| -> *mut T {
        let p = h.malloc(std::mem::size_of_val(v)).unwrap() as *mut T;
        unsafe { h.memcpy(p as _, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap() };
        p
    };
    let (da, db, dc) = (upload(h, &case.a), upload(h, &case.b), upload(h, &case.c0));
    let (m, n, k) = (case.m as i64, case.n as i64, case.k as i64);
    unsafe {
        gemm_batched(h, case.ta, case.tb, m, n, k, case.alpha, Batch::Strided { ptr: da as *const T, stride: case.sa as i64 }, case.lda as i64, Batch::Strided { ptr: db as *const T, stride: case.sb as i64 }, case.ldb as i64, case.beta, Batch::Strided { ptr: dc, stride: case.sc as i64 }, case.ldc as i64, case.batch as i64).unwrap();
        h.synchronize().unwrap();
        let mut c = vec![T::zero(); case.c0.len()];
        h.memcpy(c.as_mut_ptr() as _, dc as _, c.len() * size).unwrap();
        case.check(&c, false);

        // Pointer arrays living in device memory, pointing at device matrices.
        h.memcpy(dc as _, case.c0.as_ptr() as _, case.c0.len() * size).unwrap();
        let pa: Vec<u64> = (0..case.batch).map(|i| da.add(i * case.sa) as u64).collect();
        let pb: Vec<u64> = (0..case.batch).map(|i| db.add(i * case.sb) as u64).collect();
        let pc: Vec<u64> = (0..case.batch).map(|i| dc.add(i * case.sc) as u64).collect();
        let (dpa, dpb, dpc) = (upload_u64(h, &pa), upload_u64(h, &pb), upload_u64(h, &pc));
        gemm_batched(h, case.ta, case.tb, m, n, k, case.alpha, Batch::Array(dpa as *const *const T), case.lda as i64, Batch::Array(dpb as *const *const T), case.ldb as i64, case.beta, Batch::Array(dpc as *const *mut T), case.ldc as i64, case.batch as i64).unwrap();
        h.synchronize().unwrap();
        h.memcpy(c.as_mut_ptr() as _, dc as _, c.len() * size).unwrap();
        case.check(&c, false);
        for p in [da as *mut u8, db as _, dc as _, dpa as _, dpb as _, dpc as _] {
            h.free(p as _).unwrap();
        }
    }
}

/// The small class's per-matrix 16-byte accesses on device pointer arrays: in one batch,
/// matrices 16-byte aligned, and 1, 2, 3 real parts (4 or 8 bytes) past it (complex: half an
/// element, as C's alignment of complex types allows), with leading dimensions equal to the rows
/// (each matrix one run) or beyond them; around n = 16, 24, 31, 32, every op pair, beta zero or
/// not; unpadded strided batches 1, 2 and 3 elements past alignment; and a batch of many groups
/// a block (the staged kernel's loop over groups). On CUDA each result is bitwise the strided
/// form's on the same inputs (every access path sums in the same order), unpadded and aligned
/// (the 16-byte run across matrices) as well as padded.
fn small_pointer_alignment_for<T: Blas>(h: &mut Handle) {
    let shapes = [(16usize, 16usize, 16usize), (24, 24, 24), (31, 31, 31), (32, 32, 32), (32, 31, 16), (16, 32, 32)];
    // Under a sanitizer (every specialisation compiled and checked there: minutes for all),
    // the odd and the even order, two op pairs each: every access path all the same.
    let sanitizer = crate::common::under_sanitizer();
    for (idx, &(m, n, k)) in shapes.iter().enumerate().filter(|&(i, _)| !sanitizer || i == 2 || i == 3) {
        for (io, (ta, tb)) in OPS.iter().flat_map(|&a| OPS.map(|b| (a, b))).enumerate().filter(|&(io, _)| !sanitizer || io == 0 || io == 5) {
            let beta = if io % 2 == 0 { s(0.0, 0.0) } else { s(0.5, -0.25) };
            let case = Case::<T>::padded(ta, tb, m, n, k, s(1.0, 0.5), beta, 11, (io % 3 / 2, 3), 3000 + (idx * 16 + io) as u64, 1.0);
            let c = run_scattered(h, &case);
            case.check(&c, false);
            same_as_strided(h, &case, &c);
        }
        // Unpadded strided runs 1, 2, 3 elements past alignment (a group's run with a head and
        // a tail of single elements): the aligned run's bits.
        let case = Case::<T>::new(Op::N, Op::N, m, n, k, s(1.0, 0.5), s(0.5, -0.25), 11, 0, 3100 + idx as u64, 1.0);
        if h.backend() == Backend::Cuda {
            let want = case.run_device(h, 0);
            for offset in 1..4 {
                let c = case.run_device(h, offset);
                assert!(c.iter().zip(&want).all(|(p, q)| same(*p, *q)), "{} at element offset {offset}: not bitwise the aligned run's result", case.describe());
            }
        }
    }
    // More groups than an H100 holds blocks at once (132 SMs, 3 or 4 blocks of 1 or 2 matrices).
    for (idx, &(n, batch)) in [(32usize, 1000usize), (16, 2200)].iter().enumerate() {
        let case = Case::<T>::new(Op::N, Op::N, n, n, n, s(1.0, 0.0), s(0.5, 0.0), batch, 0, 3200 + idx as u64, 1.0);
        let c = run_scattered(h, &case);
        case.check(&c, false);
        case.check(&case.run_device(h, 0), false);
        same_as_strided(h, &case, &c);
    }
}

/// On CUDA: `c` is bitwise the strided form's result of `case` on device arrays.
fn same_as_strided<T: Blas>(h: &mut Handle, case: &Case<T>, c: &[T]) {
    if h.backend() == Backend::Cuda {
        let want = case.run_device(h, 0);
        assert!(c.iter().zip(&want).all(|(p, q)| same(*p, *q)), "{}: not bitwise the strided form's result", case.describe());
    }
}

/// `case` in the pointer-array form on device arrays: matrix i of A, B and C copied to its own
/// slot of a device buffer, (i mod 4) real parts past a 64-byte boundary, and device pointer
/// arrays to them; C's matrices come back into the case's strided layout.
fn run_scattered<T: Blas>(h: &mut Handle, case: &Case<T>) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    let shift = |i: usize| (i % 4) * std::mem::size_of::<T::Real>();
    // Matrix i of an operand (ld × cols elements from element i·stride of v) in its slot.
    let scatter = |h: &mut Handle, v: &[T], window: usize, stride: usize| -> (*mut u8, Vec<u64>) {
        let slot = (window * size).next_multiple_of(64) + 64;
        let buf = h.malloc(slot * case.batch.max(1)).unwrap() as *mut u8;
        let mut ptrs = Vec::with_capacity(case.batch);
        for i in 0..case.batch {
            // SAFETY: the slot holds shift(i) < 64 bytes plus the window.
            unsafe {
                let p = buf.add(i * slot + shift(i));
                h.memcpy(p as _, v[i * stride..].as_ptr() as _, window * size).unwrap();
                ptrs.push(p as u64);
            }
        }
        (buf, ptrs)
    };
    let (_, ac) = case.ta.stored(case.m, case.k);
    let (_, bc) = case.tb.stored(case.k, case.n);
    let (a, pa) = scatter(h, &case.a, case.lda * ac, case.sa);
    let (b, pb) = scatter(h, &case.b, case.ldb * bc, case.sb);
    let cw = case.ldc * case.n;
    let (c, pc) = scatter(h, &case.c0, cw, case.sc);
    let (dpa, dpb, dpc) = (upload_u64(h, &pa), upload_u64(h, &pb), upload_u64(h, &pc));
    let (m, n, k) = (case.m as i64, case.n as i64, case.k as i64);
    let mut out = case.c0.clone();
    // SAFETY: every pointer addresses a full matrix of its device buffer.
    unsafe {
        gemm_batched(h, case.ta, case.tb, m, n, k, case.alpha, Batch::Array(dpa as *const *const T), case.lda as i64, Batch::Array(dpb as *const *const T), case.ldb as i64, case.beta, Batch::Array(dpc as *const *mut T), case.ldc as i64, case.batch as i64)
            .unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
        h.synchronize().unwrap();
        for (i, &p) in pc.iter().enumerate() {
            h.memcpy(out[i * case.sc..].as_mut_ptr() as _, p as _, cw * size).unwrap();
        }
        for p in [a, b, c, dpa as _, dpb as _, dpc as _] {
            h.free(p as _).unwrap();
        }
    }
    out
}

fn upload_u64(h: &mut Handle, v: &[u64]) -> *mut u64 {
    let p = h.malloc(v.len() * 8).unwrap() as *mut u64;
    unsafe { h.memcpy(p as _, v.as_ptr() as _, v.len() * 8).unwrap() };
    p
}

const MODES: [MathMode; 3] = [MathMode::Default, MathMode::Tf32x3, MathMode::Tf32];

/// Whether `h` runs single-precision GEMM of the TF32 tensor-core class on the tensor cores in
/// the TF32 modes: the CUDA backend on sm_80 and later.
fn has_tf32(h: &Handle) -> bool {
    h.backend() == Backend::Cuda && numgpu::cuda::driver::device(0).is_ok_and(|d| d.arch.0 >= 8)
}

/// Every math mode's elementwise bound (issue 23) on float and complex float: the shapes of
/// the TF32 tensor-core class, at its edges (min(m, n) = 32, the small class at 32) and beyond
/// one k tile, every op pair, alpha/beta, wide scalings, pointer arrays in scrambled order.
/// The CPU backend computes exact FP32 in every mode, within every bound.
fn math_mode_bounds_for<T: Blas>(h: &mut Handle) {
    let shapes = [(64usize, 64usize, 64usize), (33, 65, 7), (127, 129, 65), (96, 40, 300), (32, 32, 33), (31, 64, 64), (130, 64, 500)];
    let ops = [(Op::N, Op::N), (Op::T, Op::N), (Op::N, Op::T), (Op::C, Op::C), (Op::T, Op::C)];
    // Each case once, checked in every mode (the reference costs m·n·k).
    let each_mode = |h: &mut Handle, case: &Case<T>, order: Option<&[usize]>| {
        let refs = case.references();
        for mode in MODES {
            h.set_math_mode(mode);
            let c = match order {
                Some(order) => case.run_array(h, order, false),
                None => case.run_strided(h),
            };
            case.check_bound(&c, mode, &refs);
        }
        h.set_math_mode(MathMode::Default);
    };
    for (idx, &(m, n, k)) in shapes.iter().enumerate() {
        for (io, &(ta, tb)) in ops.iter().enumerate() {
            let (alpha, beta) = [(s(1.0, 0.0), s(0.0, 0.0)), (s(-0.75, 0.5), s(0.5, -0.25))][(idx + io) % 2];
            let case = Case::<T>::new(ta, tb, m, n, k, alpha, beta, 2, io % 3, 1400 + (idx * 8 + io) as u64, 1.0);
            each_mode(h, &case, None);
        }
    }
    // Scaled operands (the bounds are scale-free without underflow or overflow) and the
    // pointer-array form.
    for (i, scale) in [1e-12f64, 1e12].into_iter().enumerate() {
        let case = Case::<T>::new(Op::N, Op::T, 70, 66, 50, s(1.0, 0.0), s(1.0, 0.0), 3, 1, 1500 + i as u64, scale);
        each_mode(h, &case, None);
    }
    let case = Case::<T>::new(Op::N, Op::N, 64, 96, 80, s(1.0, 0.5), s(0.5, 0.0), 5, 1, 1510, 1.0);
    each_mode(h, &case, Some(&[3, 0, 4, 1, 2]));
}

/// 3xTF32 keeps FP32's accuracy (issue 23): on the tensor-core class its rms elementwise error
/// (relative to |A|·|B| + |beta|·|C0|) is within 4× that of exact FP32 on the same inputs, and
/// plain TF32's is at least 16× above it where the tensor cores run (the mode reaches the
/// kernel). Every mode is bitwise reproducible.
fn tf32_accuracy_for<T: Blas>(h: &mut Handle) {
    let tensor_cores = has_tf32(h);
    for (idx, &(n, k)) in [(64usize, 64usize), (128, 256), (160, 640)].iter().enumerate() {
        let case = Case::<T>::new(Op::N, Op::N, n, n, k, s(1.0, 0.0), s(0.5, 0.0), 2, 0, 1600 + idx as u64, 1.0);
        let refs = case.references();
        let errs: Vec<Elementwise> = MODES
            .iter()
            .map(|&mode| {
                h.set_math_mode(mode);
                let (c, again) = (case.run_strided(h), case.run_strided(h));
                assert!(c.iter().zip(&again).all(|(p, q)| same(*p, *q)), "{} in {mode:?}: two calls differ", case.describe());
                case.check_bound(&c, mode, &refs)
            })
            .collect();
        h.set_math_mode(MathMode::Default);
        let (fp32, x3, tf32) = (errs[0].rms, errs[1].rms, errs[2].rms);
        eprintln!("{}gemm n = {n}, k = {k}: rms elementwise error FP32 {fp32:.3e}, 3xTF32 {x3:.3e}, TF32 {tf32:.3e}", T::LETTER);
        assert!(x3 <= 4.0 * fp32, "{}: 3xTF32's rms error {x3:.3e} is above 4× exact FP32's {fp32:.3e}", case.describe());
        if tensor_cores {
            assert!(tf32 >= 16.0 * fp32, "{}: TF32's rms error {tf32:.3e} is not above 16× FP32's {fp32:.3e}: did the mode reach the tensor cores?", case.describe());
        }
    }
}

fn math_mode_bounds(h: &mut Handle) {
    crate::for_precisions!(h, math_mode_bounds_for, f32, numgpu::Complex32);
}

fn tf32_accuracy(h: &mut Handle) {
    crate::for_precisions!(h, tf32_accuracy_for, f32, numgpu::Complex32);
}

crate::all_precisions! {
    sizes => sizes_for;
    rectangular => rectangular_for;
    tile_edges => tile_edges_for;
    alpha_beta => alpha_beta_for;
    strides_and_batches => strides_and_batches_for;
    pointer_arrays => pointer_arrays_for;
    nan_inf => nan_inf_for;
    large_batch => large_batch_for;
    deterministic => deterministic_for;
    device_arrays => device_arrays_for;
    simt_shapes => simt_shapes_for;
    simt_alignment => simt_alignment_for;
    small_pointer_alignment => small_pointer_alignment_for;
}

crate::on_every_backend! {
    gemm_sizes => super::sizes;
    gemm_rectangular_every_op => super::rectangular;
    gemm_tile_edges_every_class => super::tile_edges;
    gemm_alpha_beta_special_values => super::alpha_beta;
    gemm_stride_zero_and_batch_counts => super::strides_and_batches;
    gemm_pointer_arrays_scrambled_and_aliased => super::pointer_arrays;
    gemm_nan_inf_propagate_by_row => super::nan_inf;
    gemm_batch_above_65535 => super::large_batch;
    gemm_bitwise_reproducible => super::deterministic;
    gemm_device_arrays => super::device_arrays;
    gemm_simt_edges_ops_strides_arrays => super::simt_shapes;
    gemm_simt_aligned_and_unaligned_device_arrays => super::simt_alignment;
    gemm_small_mixed_alignment_pointer_arrays => super::small_pointer_alignment;
    gemm_math_modes_within_their_bounds => super::math_mode_bounds;
    gemm_3xtf32_as_accurate_as_fp32 => super::tf32_accuracy;
}

/// Tier (b): the CUDA backend against the CPU backend on the same seeded inputs, larger than
/// a warp and across every size class.
#[test]
fn gemm_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    assert_eq!(gpu.backend(), Backend::Cuda);
    let mut cpu = Handle::cpu();
    for &(m, n, k) in &[(4usize, 4usize, 4usize), (8, 8, 8), (33, 33, 33), (16, 31, 5), (128, 64, 96), (200, 7, 129)] {
        let case = Case::<Complex64>::new(Op::C, Op::T, m, n, k, s(1.0, 0.5), s(0.5, 0.0), 37, 1, 1300 + m as u64, 1.0);
        let (x, y) = (case.run_strided(&mut gpu), case.run_strided(&mut cpu));
        let diff: f64 = x.iter().zip(&y).map(|(p, q)| (p - q).norm_sqr()).sum::<f64>().sqrt();
        let norm: f64 = y.iter().map(|q| q.norm_sqr()).sum::<f64>().sqrt();
        assert!(diff <= 1e-12 * norm * (k as f64), "m={m} n={n} k={k}: CUDA differs from CPU by {diff:.3e} (‖C‖ = {norm:.3e})");
    }
}
