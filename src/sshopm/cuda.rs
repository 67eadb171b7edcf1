//! CUDA backend of SS-HOPM: launches the kernels of `kernels/sshopm.cu`, compiled for the
//! call's (m, n) (its tables as compile-time constants when they are small, see
//! [`constant_tables`], else uploaded to the workspace): a thread per (tensor, start), the
//! threads of a block sharing their tensor while nstarts >= the block size. The arrays go
//! through the staging engine (host arrays in chunks of tensors); `sshopm_unique` runs the
//! iteration into scratch, then a thread per tensor merges its starts.

use super::{Apply, Mode, Outputs, Problem, Real, Shift, Starts, Tables, UniqueOutputs};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::handle::Launch;
use crate::cuda::params::{grid, KScalar};
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::CudaHandle;
use num_traits::AsPrimitive;

const SOURCE: &str = include_str!("../../kernels/sshopm.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Threads per block.
pub(crate) const THREADS: usize = 128;

/// Largest n of the CUDA kernels: a thread holds n × n matrices (the adaptive shift, the
/// types of `sshopm_unique`).
pub const MAX_N: usize = 32;

/// Whether (m, n)'s tables are compiled in as constants with every loop unrolled (the tensor
/// in registers): up to 64 unique entries and 512 gradient terms (m = 4 … 8 for n = 3; m = 4
/// up to n = 5).
pub fn constant_tables(tab: &Tables) -> bool {
    tab.u <= 64 && tab.nmono() <= 128 && tab.ngrad * tab.n <= 512 && tab.n <= 16
}

fn list<X: std::fmt::Display>(v: impl IntoIterator<Item = X>) -> String {
    v.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// Weights as C literals (exact: integers below 2^53, printed with a decimal point).
fn weights(v: &[f64]) -> String {
    v.iter().map(|w| format!("{w:?}")).collect::<Vec<_>>().join(",")
}

/// The defines and entry point of kernel `kind` (`sshopm`, `unique` or `apply`) for `tab`.
pub fn specialise<T: Scalar>(tab: &Tables, kind: &str) -> (Vec<String>, String) {
    let c = constant_tables(tab);
    let mut d = vec![
        format!("NG_T={}", T::CUDA_TYPE),
        format!("NG_SUFFIX={}", T::SUFFIX),
        format!("NG_{}=1", kind.to_uppercase()),
        format!("NG_THREADS={THREADS}"),
        format!("NG_M={}", tab.m),
        format!("NG_N={}", tab.n),
        format!("NG_U={}", tab.u),
        format!("NG_NMONO={}", tab.nmono()),
        format!("NG_GF={}", tab.grad_first),
        format!("NG_NGRAD={}", tab.ngrad),
        format!("NG_HF={}", tab.hess_first),
        format!("NG_NHESS={}", tab.nhess),
        format!("NG_CONST={}", c as i32),
    ];
    if c {
        d.push(format!("NG_PARENT={}", list(&tab.parent)));
        d.push(format!("NG_VAR={}", list(&tab.var)));
        d.push(format!("NG_GW={}", weights(&tab.gw)));
        d.push(format!("NG_GIDX={}", list(&tab.gidx)));
        d.push(format!("NG_HW={}", weights(&tab.hw)));
        d.push(format!("NG_HIDX={}", list(&tab.hidx)));
        d.push(format!("NG_MULT={}", weights(&tab.mult)));
    }
    (d, format!("{kind}_{}", T::SUFFIX))
}

fn check_n(tab: &Tables) -> Result<()> {
    if tab.n > MAX_N {
        return Err(Error::not_supported(format!("n = {} on the CUDA backend: at most {MAX_N} (the CPU backend takes more)", tab.n)));
    }
    Ok(())
}

/// The tables as the kernels read them from device memory (when they are not compile-time
/// constants): parent, var, gidx, hidx, then the weights gw, hw, mult.
struct TableData<T> {
    ints: [Vec<i32>; 4],
    reals: [Vec<T>; 3],
}

/// Tables of the kernels' argument lists.
const TABLES: usize = 7;

impl<T: Real> TableData<T> {
    /// `tab`'s tables for upload; `None` when they are compiled in.
    fn of(tab: &Tables) -> Option<TableData<T>> {
        if constant_tables(tab) {
            return None;
        }
        let reals = |v: &[f64]| v.iter().map(|&w| T::c(w)).collect();
        Some(TableData { ints: [ints(&tab.parent), ints(&tab.var), ints(&tab.gidx), ints(&tab.hidx)], reals: [reals(&tab.gw), reals(&tab.hw), reals(&tab.mult)] })
    }
}

/// Table indices as the kernels' `int`s.
fn ints<I: AsPrimitive<i32>>(v: &[I]) -> Vec<i32> {
    v.iter().map(|i| i.as_()).collect()
}

/// `stage` with the [`TABLES`] table operands appended (absent, their views null, when the
/// tables are constants).
fn with_tables<T>(stage: Stage, t: &Option<TableData<T>>) -> Stage {
    match t {
        None => (0..TABLES).fold(stage, |s, _| s.op(Operand::absent())),
        Some(t) => {
            let s = t.ints.iter().fold(stage, |s, v| s.op(Operand::own(v)));
            t.reals.iter().fold(s, |s, v| s.op(Operand::own(v)))
        }
    }
}

/// The device addresses of the table operands from index `at` of `k`.
fn tables(k: &Chunk, at: usize) -> [u64; TABLES] {
    std::array::from_fn(|i| k[at + i].ptr())
}

/// `l` with the tables as its last arguments (`NG_TABS_PARAMS`).
fn table_args<'a>(l: Launch<'a>, t: &'a [u64; TABLES]) -> Launch<'a> {
    t.iter().fold(l, |l, a| l.arg(a))
}

/// The module of `kind` for the problem's (m, n) and T.
fn module<T: Scalar>(ch: &CudaHandle, tab: &Tables, kind: &str) -> Result<std::sync::Arc<crate::cuda::module::Module>> {
    let (defines, entry) = specialise::<T>(tab, kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Blocks for `threads` threads (the kernels loop beyond the grid).
fn blocks(threads: usize) -> (u32, u32, u32) {
    grid(threads.div_ceil(THREADS) as i64)
}

/// `stage` with the iteration's inputs appended: A, then the starts (absent when drawn, one
/// set when shared).
fn with_inputs<T>(stage: Stage, p: &Problem<T>) -> Stage {
    let x0 = match p.starts {
        Starts::Given { x0, stride } => Operand::vector(Dir::In, x0, stride, p.tab.n * p.nstarts),
        Starts::Random { .. } => Operand::absent(),
    };
    stage.op(Operand::vector(Dir::In, p.a, p.stride_a, p.tab.u)).op(x0)
}

/// The iteration on the chunk's tensors: A and X0 at `k[0]`, `k[1]`, its outputs λ, x,
/// iterations and flags at `k[out]` … `k[out + 3]`, the tables at `k[tab]` on.
fn launch_sshopm<T: Real>(ch: &CudaHandle, p: &Problem<T>, k: &Chunk, out: usize, tab: usize) -> Result<()> {
    let module = module::<T>(ch, &p.tab, "sshopm")?;
    let seed = match p.starts {
        Starts::Random { seed } => seed,
        Starts::Given { .. } => 0,
    };
    let shift = match p.shift {
        Shift::Fixed => 0i32,
        Shift::Safe => 1,
        Shift::Adaptive => 2,
    };
    let (nt, ns, g0, concave) = (k.count as i64, p.nstarts as i64, (k.first * p.nstarts) as i64, (p.mode == Mode::Concave) as i32);
    let (a, sa, x0, sx0) = (k[0].ptr(), k[0].stride as i64, k[1].ptr(), k[1].stride as i64);
    let (alpha, tol) = (KScalar(p.alpha), KScalar(p.tol));
    let [lam, x, it, fl] = std::array::from_fn(|i| k[out + i].ptr());
    let t = tables(k, tab);
    let l = ch.launch(&module).arg(&nt).arg(&ns).arg(&a).arg(&sa).arg(&x0).arg(&sx0).arg(&seed).arg(&g0).arg(&concave).arg(&shift);
    let l = l.arg(&alpha).arg(&tol).arg(&p.maxit).arg(&lam).arg(&x).arg(&it).arg(&fl);
    // SAFETY: `sshopm_<T>` of sshopm.cu on the chunk's views.
    unsafe { table_args(l, &t).run(blocks(k.count * p.nstarts), THREADS as u32, 0) }
}

pub fn sshopm<T: Real>(ch: &mut CudaHandle, p: &Problem<T>, out: &Outputs<T>, space: Space) -> Result<()> {
    check_n(&p.tab)?;
    ch.bind()?;
    let (n, ns) = (p.tab.n, p.nstarts);
    let data = TableData::<T>::of(&p.tab);
    // A, X0; λ, x, iterations, flags at g = t·nstarts + s; the tables.
    let stage = with_inputs(Stage::new(space, p.ntensors), p)
        .op(Operand::vector(Dir::Out, out.lambda, ns, ns))
        .op(Operand::vector(Dir::Out, out.x, ns * n, ns * n))
        .op(Operand::vector(Dir::Out, out.iters, ns, ns))
        .op(Operand::vector(Dir::Out, out.flags, ns, ns));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel writes
    // every output of the chunk's tensors and touches nothing else.
    unsafe { with_tables(stage, &data).run(ch, |ch, k| launch_sshopm(ch, p, k, 2, 6)) }
}

/// The merging kernel on the chunk's tensors: A at `k[0]`, the iteration's outputs at `k[2]` …
/// `k[5]`, the clusters rep, cnt, sel at `k[6]` … `k[8]`, the final outputs count, λ, x,
/// multiplicities and types at `k[9]` … `k[13]`, the tables at `k[14]` on.
fn launch_unique<T: Real>(ch: &CudaHandle, p: &Problem<T>, o: &UniqueOutputs<T>, k: &Chunk) -> Result<()> {
    let module = module::<T>(ch, &p.tab, "unique")?;
    let (nt, ns, a, sa) = (k.count as i64, p.nstarts as i64, k[0].ptr(), k[0].stride as i64);
    let [lam, xs, _, fl, rep, cnt, sel, count, lambda, x, mult, kind] = std::array::from_fn(|i| k[2 + i].ptr());
    let (tol, kmax) = (KScalar(o.merge_tol), o.kmax as i32);
    let t = tables(k, 14);
    let l = ch.launch(&module).arg(&nt).arg(&ns).arg(&a).arg(&sa).arg(&lam).arg(&xs).arg(&fl).arg(&rep).arg(&cnt).arg(&sel).arg(&tol).arg(&kmax);
    let l = l.arg(&count).arg(&lambda).arg(&x).arg(&mult).arg(&kind);
    // SAFETY: `unique_<T>` of sshopm.cu on the chunk's views, after the iteration on the
    // same stream wrote its outputs.
    unsafe { table_args(l, &t).run(blocks(k.count), THREADS as u32, 0) }
}

pub fn sshopm_unique<T: Real>(ch: &mut CudaHandle, p: &Problem<T>, o: &UniqueOutputs<T>, space: Space) -> Result<()> {
    check_n(&p.tab)?;
    ch.bind()?;
    let (n, ns, kmax) = (p.tab.n, p.nstarts, o.kmax);
    let data = TableData::<T>::of(&p.tab);
    let stage = with_inputs(Stage::new(space, p.ntensors), p)
        // The iteration's λ, x, iterations and flags.
        .op(Operand::scratch::<T>(ns))
        .op(Operand::scratch::<T>(ns * n))
        .op(Operand::scratch::<i32>(ns))
        .op(Operand::scratch::<i32>(ns))
        // The clusters: rep, cnt, sel.
        .op(Operand::scratch::<i32>(ns))
        .op(Operand::scratch::<i32>(ns))
        .op(Operand::scratch::<i32>(ns))
        // Count per tensor; λ, x, multiplicity and type per slot.
        .op(Operand::vector(Dir::Out, o.count, 1, 1))
        .op(Operand::vector(Dir::Out, o.lambda, kmax, kmax))
        .op(Operand::vector(Dir::Out, o.x, kmax * n, kmax * n))
        .op(Operand::vector(Dir::Out, o.mult, kmax, kmax))
        .op(Operand::vector(Dir::Out, o.kind, kmax, kmax));
    // SAFETY: as in `sshopm`; the merging kernel writes every final output of the chunk's
    // tensors.
    unsafe { with_tables(stage, &data).run(ch, |ch, k| launch_sshopm(ch, p, k, 2, 14).and_then(|_| launch_unique(ch, p, o, k))) }
}

/// The apply kernel on the chunk's tensors: A, x and y at `k[0]` … `k[2]`, the tables at
/// `k[3]` on.
fn launch_apply<T: Real>(ch: &CudaHandle, ap: &Apply<T>, k: &Chunk) -> Result<()> {
    let module = module::<T>(ch, &ap.tab, "apply")?;
    let (nt, p) = (k.count as i64, ap.p as i32);
    let [(a, sa), (x, sx), (y, sy)] = std::array::from_fn(|i| (k[i].ptr(), k[i].stride as i64));
    let t = tables(k, 3);
    let l = ch.launch(&module).arg(&nt).arg(&p).arg(&a).arg(&sa).arg(&x).arg(&sx).arg(&y).arg(&sy);
    // SAFETY: `apply_<T>` of sshopm.cu on the chunk's views.
    unsafe { table_args(l, &t).run(blocks(k.count), THREADS as u32, 0) }
}

pub fn sym_apply<T: Real>(ch: &mut CudaHandle, ap: &Apply<T>, space: Space) -> Result<()> {
    check_n(&ap.tab)?;
    ch.bind()?;
    let (u, n, len) = (ap.tab.u, ap.tab.n, ap.out_len());
    let data = TableData::<T>::of(&ap.tab);
    let stage = Stage::new(space, ap.ntensors)
        .op(Operand::vector(Dir::In, ap.a, ap.stride_a, u))
        .op(Operand::vector(Dir::In, ap.x, ap.stride_x, n))
        .op(Operand::vector(Dir::Out, ap.y, ap.stride_y, len));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel writes
    // every output value of the chunk's tensors.
    unsafe { with_tables(stage, &data).run(ch, |ch, k| launch_apply(ch, ap, k)) }
}
