//! Batched QR factorisation by Givens rotations on adjacent rows (Sameh–Kuck order), with
//! LAPACK's `?geqrf`/`?ormqr`/`?orgqr`/`?gels` roles:
//!
//! `A_i = Q_i · R_i`, A_i `m × n` with m >= n, R_i upper triangular (`n × n` on top of
//! `m − n` zero rows), `Q_i = G(1)ᴴ·G(2)ᴴ ⋯ G(N)ᴴ` unitary of order m.
//!
//! Rotation G(i, j) (0-based, i > j) acts on rows (i−1, i) and zeros A(i, j). Serial order:
//! columns left to right, each from the bottom row up, so `G(N) ⋯ G(1)·A = R`; the Sameh–Kuck
//! parallel schedule (step t = m − i + 2j) has the same dependency graph, so every backend
//! computes the same rotations from the same inputs. A rotation is LAPACK's `?lartg` (3.10's
//! safe scaling, as revised since: no overflow or underflow for finite inputs) and `?rot`:
//! `[c s; −conj(s) c]·[f; g] = [r; 0]`, c real >= 0, `c² + |s|² = 1` also when f or g is 0.
//!
//! Storage, the counterpart of LAPACK's reflectors and `tau`: R in the upper triangle of A;
//! for each i > j, s of G(i, j) in A(i, j) and its real c in CS(i, j) of a real `m × n` array
//! CS (c is stored, never rebuilt from s: `sqrt(1 − |s|²)` loses c when it is small). The
//! rest of CS (i <= j) is not referenced.
//!
//! - [`geqrf`]: the factorisation.
//! - [`ormqr`] (`?ormqr` real, `?unmqr` complex): `C := op(Q)·C` or `C·op(Q)` with the
//!   rotations of the first k columns, replayed in the order op(Q) needs, Q never formed.
//! - [`orgqr`] (`?orgqr`/`?ungqr`): the first n columns of Q (of the first k columns'
//!   rotations) in A.
//! - [`gels`]: factor, `B := Qᴴ·B`, solve `R·X = B(1:n, :)`, as `?gels` with TRANS = N; a
//!   zero R(i, i) gives `info = i` and leaves that problem's B unchanged.
//!
//! Non-finite input is not an error: NaN and Inf propagate into the rotations that meet them
//! (columns left of the first non-finite column keep their finite factors) and never hang or
//! crash; for `gels`, only an exactly zero R(i, i) sets `info`.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::batch::{array_of, Batch};
use crate::core::check::{check_array, check_ld, check_len, check_operand, needed, nonneg, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use crate::core::{Op, Scalar, Side};

/// One validated batched factorisation: A_i (`m × n`, in/out) and CS_i (`m × n` real, out).
#[derive(Clone, Copy, Debug)]
pub struct Geqrf<T: Scalar> {
    /// Rows of every matrix.
    pub m: usize,
    /// Columns of every matrix, <= m.
    pub n: usize,
    /// A_i, in/out: the input, then R and the sines.
    pub a: Batch<*mut T>,
    /// Leading dimension of A, >= max(1, m).
    pub lda: usize,
    /// CS_i, out: the cosines below the diagonal (the rest is not written).
    pub cs: Batch<*mut T::Real>,
    /// Leading dimension of CS, >= max(1, m).
    pub ldcs: usize,
    /// Number of matrices.
    pub batch: usize,
}

/// One validated batched application of Q: `C_i := op(Q_i)·C_i` (side Left) or
/// `C_i·op(Q_i)` (Right), Q_i of order `nq` (m for Left, n for Right) made of the rotations
/// of the first k columns of A_i / CS_i (`nq × k`). `trans` is N, or T (real) / C (complex).
#[derive(Clone, Copy, Debug)]
pub struct Ormqr<T: Scalar> {
    /// Q multiplies C from the left or the right.
    pub side: Side,
    /// N (Q), or Qᴴ: T for real, C for complex elements.
    pub trans: Op,
    /// Rows of C.
    pub m: usize,
    /// Columns of C.
    pub n: usize,
    /// Columns of the factorisation whose rotations make Q, <= nq.
    pub k: usize,
    /// A_i, in: the sines below the diagonal of its first k columns.
    pub a: Batch<*const T>,
    /// Leading dimension of A, >= max(1, nq).
    pub lda: usize,
    /// CS_i, in: the cosines of the first k columns.
    pub cs: Batch<*const T::Real>,
    /// Leading dimension of CS, >= max(1, nq).
    pub ldcs: usize,
    /// C_i, in/out.
    pub c: Batch<*mut T>,
    /// Leading dimension of C, >= max(1, m).
    pub ldc: usize,
    /// Number of matrices.
    pub batch: usize,
}

/// One validated batched generation of Q: A_i (`m × n`) := the first n columns of the Q_i
/// made of the rotations of the first k columns of A_i / CS_i (m >= n >= k).
#[derive(Clone, Copy, Debug)]
pub struct Orgqr<T: Scalar> {
    /// Rows of A, the order of Q.
    pub m: usize,
    /// Columns of Q wanted, <= m.
    pub n: usize,
    /// Columns of the factorisation whose rotations make Q, <= n.
    pub k: usize,
    /// A_i, in/out: the factorisation's sines in its first k columns, then Q(:, 1:n).
    pub a: Batch<*mut T>,
    /// Leading dimension of A, >= max(1, m).
    pub lda: usize,
    /// CS_i, in: the cosines of the first k columns; not read when k = 0.
    pub cs: Batch<*const T::Real>,
    /// Leading dimension of CS, >= max(1, m).
    pub ldcs: usize,
    /// Number of matrices.
    pub batch: usize,
}

/// One validated batched least-squares solve: A_i (`m × n`, factored in place), B_i
/// (`m × nrhs`, X in its first n rows), `info` (`batch` entries).
#[derive(Clone, Copy, Debug)]
pub struct Gels<T: Scalar> {
    /// Rows of A and B.
    pub m: usize,
    /// Columns of A, <= m.
    pub n: usize,
    /// Columns of B.
    pub nrhs: usize,
    /// A_i, in/out: the input, then R and the sines.
    pub a: Batch<*mut T>,
    /// Leading dimension of A, >= max(1, m).
    pub lda: usize,
    /// B_i, in/out: the right-hand sides, then X in rows 1..n and the residual's coordinates below.
    pub b: Batch<*mut T>,
    /// Leading dimension of B, >= max(1, m).
    pub ldb: usize,
    /// `batch` entries, out: 0, or j when R(j, j) is exactly zero (1-based).
    pub info: *mut i32,
    /// Number of problems.
    pub batch: usize,
}

// SAFETY: these only carry the caller's pointers; the backends touch matrix i's data from
// one thread (CPU) or one block/warp (CUDA), and distinct matrices are the caller's promise
// (checked for strided outputs).
unsafe impl<T: Scalar> Send for Geqrf<T> {}
unsafe impl<T: Scalar> Sync for Geqrf<T> {}
unsafe impl<T: Scalar> Send for Ormqr<T> {}
unsafe impl<T: Scalar> Sync for Ormqr<T> {}
unsafe impl<T: Scalar> Send for Orgqr<T> {}
unsafe impl<T: Scalar> Sync for Orgqr<T> {}
unsafe impl<T: Scalar> Send for Gels<T> {}
unsafe impl<T: Scalar> Sync for Gels<T> {}

/// `n <= m`, the shape every routine of the family needs (`name` is n's parameter).
fn check_tall(m: usize, n: usize, name: &'static str, m_name: &str) -> Result<()> {
    if n > m {
        return Err(Error::arg(name, format!("({name} = {n}) must be <= {m_name} = {m}")));
    }
    Ok(())
}

/// Batched Givens QR: `A_i = Q_i·R_i`, R and the sines s in A_i, the cosines c in CS_i; see
/// the module docs. m >= n >= 0; n = 0 or batch = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or
/// all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn geqrf<T: Scalar>(h: &mut Handle, m: i64, n: i64, a: Batch<*mut T>, lda: i64, cs: Batch<*mut T::Real>, ldcs: i64, batch: i64) -> Result<()> {
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    check_tall(mu, nu, "n", "m")?;
    let ldau = check_ld(lda, mu, "lda", "m")?;
    let ldcsu = check_ld(ldcs, mu, "ldcs", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", false)?;
    check_operand::<T::Real, _>(&cs, ldcsu, nu, batchu, "CS", "strideCS", "ldcs", false)?;
    let f = Geqrf { m: mu, n: nu, a, lda: ldau, cs, ldcs: ldcsu, batch: batchu };
    let args: [ArgPtr; 2] = [(a.raw(), "A"), (cs.raw(), "CS")];
    let space = space_of(h, &args, &[(array_of(&a), "A"), (array_of(&cs), "CS")], &["A", "CS"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::geqrf(&f),
        State::Cuda(ch) => cuda::geqrf(ch, &f, space),
    }
}

/// Applies the Q of [`geqrf`] (or Qᴴ) to C_i from the left or the right, as LAPACK
/// `?ormqr`/`?unmqr`: Q of order nq = m (Left) or n (Right), from the rotations of the first
/// k columns of A_i and CS_i (`nq × k`, k <= nq). `trans` N applies Q; T (real types only) or
/// C (complex types only) applies Qᴴ. m, n, k or batch = 0 touches nothing.
///
/// # Safety
/// As [`geqrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn ormqr<T: Scalar>(
    h: &mut Handle,
    side: Side,
    trans: Op,
    m: i64,
    n: i64,
    k: i64,
    a: Batch<*const T>,
    lda: i64,
    cs: Batch<*const T::Real>,
    ldcs: i64,
    c: Batch<*mut T>,
    ldc: i64,
    batch: i64,
) -> Result<()> {
    let (ok, routine) = if T::IS_COMPLEX { (Op::C, "unmqr") } else { (Op::T, "ormqr") };
    if trans != Op::N && trans != ok {
        return Err(Error::arg(
            "trans",
            format!("(trans = NUMGPU_OP_{trans:?}) must be NUMGPU_OP_N or NUMGPU_OP_{ok:?} for {} elements, as LAPACK {}{routine}", if T::IS_COMPLEX { "complex" } else { "real" }, T::LETTER),
        ));
    }
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    let (nq, nq_name) = if side == Side::Left { (mu, "m") } else { (nu, "n") };
    let ku = nonneg(k, "k")?;
    check_tall(nq, ku, "k", nq_name)?;
    let ldau = check_ld(lda, nq, "lda", nq_name)?;
    let ldcsu = check_ld(ldcs, nq, "ldcs", nq_name)?;
    let ldcu = check_ld(ldc, mu, "ldc", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if mu == 0 || nu == 0 || ku == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, ku, batchu, "A", "strideA", "lda", true)?;
    check_operand::<T::Real, _>(&cs, ldcsu, ku, batchu, "CS", "strideCS", "ldcs", true)?;
    check_operand::<T, _>(&c, ldcu, nu, batchu, "C", "strideC", "ldc", false)?;
    let o = Ormqr { side, trans, m: mu, n: nu, k: ku, a, lda: ldau, cs, ldcs: ldcsu, c, ldc: ldcu, batch: batchu };
    let args: [ArgPtr; 3] = [(a.raw(), "A"), (cs.raw(), "CS"), (c.raw(), "C")];
    let space = space_of(h, &args, &[(array_of(&a), "A"), (array_of(&cs), "CS"), (array_of(&c), "C")], &["C"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::ormqr(&o),
        State::Cuda(ch) => cuda::ormqr(ch, &o, space),
    }
}

/// Overwrites A_i with the first n columns of the Q of [`geqrf`] made of the rotations of
/// its first k columns (stored in A_i and CS_i), as LAPACK `?orgqr`/`?ungqr`:
/// m >= n >= k >= 0. CS is not referenced when k = 0 (then A_i := I(m, n)). n = 0 or
/// batch = 0 touches nothing.
///
/// # Safety
/// As [`geqrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn orgqr<T: Scalar>(h: &mut Handle, m: i64, n: i64, k: i64, a: Batch<*mut T>, lda: i64, cs: Batch<*const T::Real>, ldcs: i64, batch: i64) -> Result<()> {
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    check_tall(mu, nu, "n", "m")?;
    let ku = nonneg(k, "k")?;
    check_tall(nu, ku, "k", "n")?;
    let ldau = check_ld(lda, mu, "lda", "m")?;
    let ldcsu = check_ld(ldcs, mu, "ldcs", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", false)?;
    let mut args: Vec<ArgPtr> = vec![(a.raw(), "A")];
    let mut arrays = vec![(array_of(&a), "A")];
    if ku > 0 {
        check_operand::<T::Real, _>(&cs, ldcsu, ku, batchu, "CS", "strideCS", "ldcs", false)?;
        args.push((cs.raw(), "CS"));
        arrays.push((array_of(&cs), "CS"));
    }
    let o = Orgqr { m: mu, n: nu, k: ku, a, lda: ldau, cs, ldcs: ldcsu, batch: batchu };
    let space = space_of(h, &args, &arrays, &["A"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::orgqr(&o),
        State::Cuda(ch) => cuda::orgqr(ch, &o, space),
    }
}

/// Least squares `min ‖A_i·X − B_i‖₂` for full-rank A_i (m >= n), as LAPACK `?gels` with
/// TRANS = N: A_i factored as [`geqrf`] does (R and the sines; the cosines are not kept),
/// `B_i := Qᴴ·B_i`, X overwrites B_i(1:n, :) and rows n+1..m hold the residual's
/// coordinates (their norm is the residual norm of each column). `info[i] = j` when R(j, j)
/// is exactly zero (the first such j, 1-based): A_i is factored and B_i left unchanged.
/// m, n, nrhs or batch = 0 touches nothing (A, B and info included).
///
/// # Safety
/// As [`geqrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn gels<T: Scalar>(h: &mut Handle, m: i64, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> Result<()> {
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    check_tall(mu, nu, "n", "m")?;
    let nrhsu = nonneg(nrhs, "nrhs")?;
    let ldau = check_ld(lda, mu, "lda", "m")?;
    let ldbu = check_ld(ldb, mu, "ldb", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || nrhsu == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", false)?;
    check_operand::<T, _>(&b, ldbu, nrhsu, batchu, "B", "strideB", "ldb", false)?;
    not_null(info, "info")?;
    check_array::<i32>(batchu, "info")?;
    let g = Gels { m: mu, n: nu, nrhs: nrhsu, a, lda: ldau, b, ldb: ldbu, info, batch: batchu };
    let args: [ArgPtr; 3] = [(a.raw(), "A"), (b.raw(), "B"), (info as _, "info")];
    let space = space_of(h, &args, &[(array_of(&a), "A"), (array_of(&b), "B")], &["A", "B"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::gels(&g),
        State::Cuda(ch) => cuda::gels(ch, &g, space),
    }
}

/// Safe strided [`geqrf`] on host slices (each checked to cover its
/// extent).
#[allow(clippy::too_many_arguments)]
pub fn geqrf_strided<T: Scalar>(h: &mut Handle, m: i64, n: i64, a: &mut [T], lda: i64, stride_a: i64, cs: &mut [T::Real], ldcs: i64, stride_cs: i64, batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(cs.len(), needed(ldcs, n, stride_cs, batch), "CS")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { geqrf(h, m, n, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, Batch::Strided { ptr: cs.as_mut_ptr(), stride: stride_cs }, ldcs, batch) }
}

/// Safe strided [`ormqr`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn ormqr_strided<T: Scalar>(
    h: &mut Handle,
    side: Side,
    trans: Op,
    m: i64,
    n: i64,
    k: i64,
    a: &[T],
    lda: i64,
    stride_a: i64,
    cs: &[T::Real],
    ldcs: i64,
    stride_cs: i64,
    c: &mut [T],
    ldc: i64,
    stride_c: i64,
    batch: i64,
) -> Result<()> {
    check_len(a.len(), needed(lda, k, stride_a, batch), "A")?;
    check_len(cs.len(), needed(ldcs, k, stride_cs, batch), "CS")?;
    check_len(c.len(), needed(ldc, n, stride_c, batch), "C")?;
    // SAFETY: as above.
    unsafe {
        ormqr(
            h,
            side,
            trans,
            m,
            n,
            k,
            Batch::Strided { ptr: a.as_ptr(), stride: stride_a },
            lda,
            Batch::Strided { ptr: cs.as_ptr(), stride: stride_cs },
            ldcs,
            Batch::Strided { ptr: c.as_mut_ptr(), stride: stride_c },
            ldc,
            batch,
        )
    }
}

/// Safe strided [`orgqr`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn orgqr_strided<T: Scalar>(h: &mut Handle, m: i64, n: i64, k: i64, a: &mut [T], lda: i64, stride_a: i64, cs: &[T::Real], ldcs: i64, stride_cs: i64, batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(cs.len(), needed(ldcs, k, stride_cs, batch), "CS")?;
    // SAFETY: as above.
    unsafe { orgqr(h, m, n, k, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, Batch::Strided { ptr: cs.as_ptr(), stride: stride_cs }, ldcs, batch) }
}

/// Safe strided [`gels`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn gels_strided<T: Scalar>(h: &mut Handle, m: i64, n: i64, nrhs: i64, a: &mut [T], lda: i64, stride_a: i64, b: &mut [T], ldb: i64, stride_b: i64, info: &mut [i32], batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: as above.
    unsafe { gels(h, m, n, nrhs, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, Batch::Strided { ptr: b.as_mut_ptr(), stride: stride_b }, ldb, info.as_mut_ptr(), batch) }
}
