//! CUDA backend of SS-HOPM: launches the kernels of `kernels/sshopm.cu`, compiled for the
//! call's (m, n) (its tables as compile-time constants when they are small, see
//! [`constant_tables`], else uploaded to the workspace): a thread per (tensor, start), the
//! threads of a block sharing their tensor while nstarts >= the block size. Host arrays go
//! through the workspace in chunks of tensors; `sshopm_unique` runs the iteration into the
//! workspace, then a thread per tensor merges its starts.

use super::{Apply, Mode, Outputs, Problem, Real, Shift, Starts, Tables, UniqueOutputs};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::{arg, grid};
use crate::cuda::legacy::{chunk_len, upload, Layout};
use crate::cuda::CudaHandle;
use std::ffi::c_void;
use std::mem::size_of;

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

/// Device addresses of the tables (all 0 when they are compile-time constants), in the
/// kernels' order: parent, var, gidx, hidx, gw, hw, mult.
#[derive(Clone, Copy, Default)]
struct DevTables([u64; 7]);

/// The tables' regions in the workspace, when they are not constants.
fn tables_layout<T>(tab: &Tables, lay: &mut Layout) -> Option<[usize; 7]> {
    if constant_tables(tab) {
        return None;
    }
    let (i, e) = (size_of::<i32>(), size_of::<T>());
    Some([
        lay.take(tab.nmono() * i),
        lay.take(tab.nmono() * i),
        lay.take(tab.gidx.len() * i),
        lay.take(tab.hidx.len() * i),
        lay.take(tab.ngrad * e),
        lay.take(tab.nhess * e),
        lay.take(tab.u * e),
    ])
}

/// Copies the tables to their regions from `ws`.
fn upload_tables<T: Real>(ch: &CudaHandle, tab: &Tables, ws: u64, offs: Option<[usize; 7]>) -> Result<DevTables> {
    let Some(o) = offs else { return Ok(DevTables::default()) };
    let ints: [Vec<i32>; 4] = [
        tab.parent.iter().map(|&v| v as i32).collect(),
        tab.var.iter().map(|&v| v as i32).collect(),
        tab.gidx.iter().map(|&v| v as i32).collect(),
        tab.hidx.iter().map(|&v| v as i32).collect(),
    ];
    let reals: [Vec<T>; 3] = [tab.gw.iter().map(|&w| T::c(w)).collect(), tab.hw.iter().map(|&w| T::c(w)).collect(), tab.mult.iter().map(|&w| T::c(w)).collect()];
    // SAFETY: each region was sized for its array; the host vectors outlive the copies (the
    // synchronize below).
    unsafe {
        for (k, v) in ints.iter().enumerate() {
            ch.htod(ws + o[k] as u64, v.as_ptr() as *const c_void, v.len() * 4)?;
        }
        for (k, v) in reals.iter().enumerate() {
            ch.htod(ws + o[4 + k] as u64, v.as_ptr() as *const c_void, v.len() * size_of::<T>())?;
        }
    }
    ch.synchronize()?;
    Ok(DevTables(std::array::from_fn(|k| ws + o[k] as u64)))
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

/// A chunk of tensors' inputs on the device: A (stride in elements) and the starts (0: drawn).
#[derive(Clone, Copy)]
struct Inputs {
    a: u64,
    stride_a: usize,
    x0: u64,
    stride_x0: usize,
}

/// Device outputs of the iteration for a chunk, at g = t·nstarts + s from its first tensor.
#[derive(Clone, Copy)]
struct RawOut {
    lambda: u64,
    x: u64,
    iters: u64,
    flags: u64,
}

impl RawOut {
    /// The regions `o` (from [`raw_layout`]) of the workspace at `ws`.
    fn at(ws: u64, o: [usize; 4]) -> RawOut {
        RawOut { lambda: ws + o[0] as u64, x: ws + o[1] as u64, iters: ws + o[2] as u64, flags: ws + o[3] as u64 }
    }
}

/// Regions for the raw outputs of `k` tensors: λ, x, iterations, flags.
fn raw_layout<T>(lay: &mut Layout, k: usize, ns: usize, n: usize) -> [usize; 4] {
    let e = size_of::<T>();
    [lay.take(k * ns * e), lay.take(k * ns * n * e), lay.take(k * ns * 4), lay.take(k * ns * 4)]
}

/// Regions for the staged inputs of `k` tensors: A and the starts.
fn input_layout<T>(lay: &mut Layout, k: usize, p: &Problem<T>) -> (usize, usize) {
    let e = size_of::<T>();
    (lay.take(k * p.tab.u * e), lay.take(k * p.tab.n * p.nstarts * e))
}

/// Workspace bytes per tensor of a chunk staged from host memory: A, its starts (when given
/// per tensor).
fn input_bytes<T>(p: &Problem<T>) -> usize {
    let x0 = match p.starts {
        Starts::Given { stride, .. } if stride > 0 => p.tab.n * p.nstarts,
        _ => 0,
    };
    (p.tab.u + x0) * size_of::<T>()
}

/// The chunk of `count` tensors from `first` on the device: the caller's arrays (device
/// space), or copies packed into the regions at `a_dst`, `x0_dst` (host space).
///
/// # Safety
/// A validated problem; the regions hold `count` tensors (and their starts, or one shared set).
#[allow(clippy::too_many_arguments)]
unsafe fn inputs<T: Real>(ch: &CudaHandle, p: &Problem<T>, space: Space, first: usize, count: usize, a_dst: u64, x0_dst: u64, host: &mut Vec<T>) -> Result<Inputs> {
    let (u, per) = (p.tab.u, p.tab.n * p.nstarts);
    let elem = size_of::<T>() as u64;
    if space == Space::Device {
        let (x0, stride_x0) = match p.starts {
            Starts::Given { x0, stride } => (x0 as u64 + (first * stride) as u64 * elem, stride),
            Starts::Random { .. } => (0, 0),
        };
        return Ok(Inputs { a: p.a as u64 + (first * p.stride_a) as u64 * elem, stride_a: p.stride_a, x0, stride_x0 });
    }
    let need = count * u.max(per);
    if host.len() < need {
        host.resize(need, T::c(0.0));
    }
    upload(ch, host, a_dst, count, u, |i, dst| dst.copy_from_slice(std::slice::from_raw_parts(p.a.add((first + i) * p.stride_a), u)))?;
    let (x0, stride_x0) = match p.starts {
        Starts::Given { x0, stride } => {
            let sets = if stride == 0 { 1 } else { count };
            upload(ch, host, x0_dst, sets, per, |i, dst| dst.copy_from_slice(std::slice::from_raw_parts(x0.add((first + i) * stride), per)))?;
            (x0_dst, if stride == 0 { 0 } else { per })
        }
        Starts::Random { .. } => (0, 0),
    };
    Ok(Inputs { a: a_dst, stride_a: u, x0, stride_x0 })
}

/// The iteration on `count` tensors whose first is tensor `first` of the call.
///
/// # Safety
/// Every address is valid for the chunk's extents.
unsafe fn launch_sshopm<T: Real>(ch: &CudaHandle, p: &Problem<T>, dt: &DevTables, first: usize, count: usize, inp: Inputs, out: RawOut) -> Result<()> {
    let module = module::<T>(ch, &p.tab, "sshopm")?;
    let seed = match p.starts {
        Starts::Random { seed } => seed,
        Starts::Given { .. } => 0,
    };
    let (mut nt, mut ns, mut a, mut sa, mut x0, mut sx0) = (count as i64, p.nstarts as i64, inp.a, inp.stride_a as i64, inp.x0, inp.stride_x0 as i64);
    let (mut seed, mut g0, mut concave) = (seed, (first * p.nstarts) as i64, (p.mode == Mode::Concave) as i32);
    let mut shift = match p.shift {
        Shift::Fixed => 0i32,
        Shift::Safe => 1,
        Shift::Adaptive => 2,
    };
    let (mut alpha, mut tol, mut maxit) = (p.alpha, p.tol, p.maxit);
    let (mut lam, mut x, mut it, mut fl) = (out.lambda, out.x, out.iters, out.flags);
    let mut t = dt.0;
    let [t0, t1, t2, t3, t4, t5, t6] = &mut t;
    let mut params = [
        arg(&mut nt),
        arg(&mut ns),
        arg(&mut a),
        arg(&mut sa),
        arg(&mut x0),
        arg(&mut sx0),
        arg(&mut seed),
        arg(&mut g0),
        arg(&mut concave),
        arg(&mut shift),
        arg(&mut alpha),
        arg(&mut tol),
        arg(&mut maxit),
        arg(&mut lam),
        arg(&mut x),
        arg(&mut it),
        arg(&mut fl),
        arg(t0),
        arg(t1),
        arg(t2),
        arg(t3),
        arg(t4),
        arg(t5),
        arg(t6),
    ];
    // SAFETY: matches sshopm_<T>(ng_i64 ntensors, ng_i64 nstarts, const T *A, ng_i64 strideA,
    // const T *X0, ng_i64 strideX0, unsigned long long seed, ng_i64 g0, int concave, int shift,
    // T alpha, T tol, int maxit, T *lambda, T *X, int *iters, int *flags, const int *t_parent,
    // const int *t_var, const int *t_gidx, const int *t_hidx, const T *t_gw, const T *t_hw,
    // const T *t_mult).
    ch.launch_params(&module, blocks(count * p.nstarts), THREADS as u32, 0, &mut params)
}

pub fn sshopm<T: Real>(ch: &mut CudaHandle, p: &Problem<T>, out: &Outputs<T>, space: Space) -> Result<()> {
    check_n(&p.tab)?;
    ch.bind()?;
    let (n, ns, e) = (p.tab.n, p.nstarts, size_of::<T>());
    let out_bytes = ns * ((n + 1) * e + 8);
    let chunk = if space == Space::Device { p.ntensors } else { chunk_len(input_bytes(p) + out_bytes, p.ntensors) };
    let mut lay = Layout::default();
    let toffs = tables_layout::<T>(&p.tab, &mut lay);
    let staged = space == Space::Host;
    let k = if staged { chunk } else { 0 };
    let (oa, ox0) = input_layout(&mut lay, k, p);
    let oraw = raw_layout::<T>(&mut lay, k, ns, n);
    let ws = ch.workspace(lay.bytes)?;
    let dt = upload_tables::<T>(ch, &p.tab, ws, toffs)?;
    let mut host = Vec::new();
    let mut first = 0;
    while first < p.ntensors {
        let count = chunk.min(p.ntensors - first);
        let g = first * ns;
        // SAFETY: a validated call; the workspace regions were sized for `chunk` tensors; host
        // outputs are copied back (synchronised) before the next chunk reuses the regions.
        unsafe {
            let inp = inputs(ch, p, space, first, count, ws + oa as u64, ws + ox0 as u64, &mut host)?;
            let raw = if staged {
                RawOut::at(ws, oraw)
            } else {
                RawOut { lambda: out.lambda.add(g) as u64, x: out.x.add(g * n) as u64, iters: out.iters.add(g) as u64, flags: out.flags.add(g) as u64 }
            };
            launch_sshopm(ch, p, &dt, first, count, inp, raw)?;
            if staged {
                let c = count * ns;
                ch.dtoh(out.lambda.add(g) as *mut c_void, raw.lambda, c * e)?;
                ch.dtoh(out.x.add(g * n) as *mut c_void, raw.x, c * n * e)?;
                ch.dtoh(out.iters.add(g) as *mut c_void, raw.iters, c * 4)?;
                ch.dtoh(out.flags.add(g) as *mut c_void, raw.flags, c * 4)?;
                ch.synchronize()?;
            }
        }
        first += count;
    }
    Ok(())
}

/// Final outputs of a chunk of `sshopm_unique` on the device.
#[derive(Clone, Copy)]
struct UniqueDev {
    count: u64,
    lambda: u64,
    x: u64,
    mult: u64,
    kind: u64,
}

/// The merging kernel on `count` tensors whose raw results are `raw`.
///
/// # Safety
/// Every address is valid for the chunk's extents; `clusters` holds 3·count·nstarts ints.
#[allow(clippy::too_many_arguments)]
unsafe fn launch_unique<T: Real>(ch: &CudaHandle, p: &Problem<T>, o: &UniqueOutputs<T>, dt: &DevTables, count: usize, inp: Inputs, raw: RawOut, clusters: u64, dst: UniqueDev) -> Result<()> {
    let module = module::<T>(ch, &p.tab, "unique")?;
    let per = (count * p.nstarts * 4) as u64;
    let (mut nt, mut ns, mut a, mut sa, mut lam, mut xs, mut fl) = (count as i64, p.nstarts as i64, inp.a, inp.stride_a as i64, raw.lambda, raw.x, raw.flags);
    let (mut rep, mut cnt, mut sel, mut tol, mut kmax) = (clusters, clusters + per, clusters + 2 * per, o.merge_tol, o.kmax as i32);
    let (mut oc, mut ol, mut ox, mut om, mut ok) = (dst.count, dst.lambda, dst.x, dst.mult, dst.kind);
    let mut t = dt.0;
    let [t0, t1, t2, t3, t4, t5, t6] = &mut t;
    let mut params = [
        arg(&mut nt),
        arg(&mut ns),
        arg(&mut a),
        arg(&mut sa),
        arg(&mut lam),
        arg(&mut xs),
        arg(&mut fl),
        arg(&mut rep),
        arg(&mut cnt),
        arg(&mut sel),
        arg(&mut tol),
        arg(&mut kmax),
        arg(&mut oc),
        arg(&mut ol),
        arg(&mut ox),
        arg(&mut om),
        arg(&mut ok),
        arg(t0),
        arg(t1),
        arg(t2),
        arg(t3),
        arg(t4),
        arg(t5),
        arg(t6),
    ];
    // SAFETY: matches unique_<T>(ng_i64 ntensors, ng_i64 nstarts, const T *A, ng_i64 strideA,
    // const T *lam, const T *xs, const int *fl, int *rep, int *cnt, int *sel, T merge_tol,
    // int kmax, int *count, T *lambda, T *X, int *mult, int *type, the seven tables).
    ch.launch_params(&module, blocks(count), THREADS as u32, 0, &mut params)
}

pub fn sshopm_unique<T: Real>(ch: &mut CudaHandle, p: &Problem<T>, o: &UniqueOutputs<T>, space: Space) -> Result<()> {
    check_n(&p.tab)?;
    ch.bind()?;
    let (n, ns, e, k) = (p.tab.n, p.nstarts, size_of::<T>(), o.kmax);
    let staged = space == Space::Host;
    // Raw results and the clusters always; inputs and final outputs when staged.
    let raw_bytes = ns * ((n + 1) * e + 8) + 3 * ns * 4;
    let final_bytes = 4 + k * ((n + 1) * e + 8);
    let per = raw_bytes + if staged { input_bytes(p) + final_bytes } else { 0 };
    let chunk = chunk_len(per, p.ntensors);
    let mut lay = Layout::default();
    let toffs = tables_layout::<T>(&p.tab, &mut lay);
    let s = if staged { chunk } else { 0 };
    let (oa, ox0) = input_layout(&mut lay, s, p);
    let oraw = raw_layout::<T>(&mut lay, chunk, ns, n);
    let oc = lay.take(3 * chunk * ns * 4);
    let (fc, fl, fx, fm, fk) = (lay.take(s * 4), lay.take(s * k * e), lay.take(s * k * n * e), lay.take(s * k * 4), lay.take(s * k * 4));
    let ws = ch.workspace(lay.bytes)?;
    let dt = upload_tables::<T>(ch, &p.tab, ws, toffs)?;
    let mut host = Vec::new();
    let mut first = 0;
    while first < p.ntensors {
        let count = chunk.min(p.ntensors - first);
        let q = first * k;
        // SAFETY: as in `sshopm`.
        unsafe {
            let inp = inputs(ch, p, space, first, count, ws + oa as u64, ws + ox0 as u64, &mut host)?;
            let raw = RawOut::at(ws, oraw);
            launch_sshopm(ch, p, &dt, first, count, inp, raw)?;
            let dst = if staged {
                UniqueDev { count: ws + fc as u64, lambda: ws + fl as u64, x: ws + fx as u64, mult: ws + fm as u64, kind: ws + fk as u64 }
            } else {
                UniqueDev { count: o.count.add(first) as u64, lambda: o.lambda.add(q) as u64, x: o.x.add(q * n) as u64, mult: o.mult.add(q) as u64, kind: o.kind.add(q) as u64 }
            };
            launch_unique(ch, p, o, &dt, count, inp, raw, ws + oc as u64, dst)?;
            if staged {
                ch.dtoh(o.count.add(first) as *mut c_void, dst.count, count * 4)?;
                ch.dtoh(o.lambda.add(q) as *mut c_void, dst.lambda, count * k * e)?;
                ch.dtoh(o.x.add(q * n) as *mut c_void, dst.x, count * k * n * e)?;
                ch.dtoh(o.mult.add(q) as *mut c_void, dst.mult, count * k * 4)?;
                ch.dtoh(o.kind.add(q) as *mut c_void, dst.kind, count * k * 4)?;
                ch.synchronize()?;
            }
        }
        first += count;
    }
    Ok(())
}

/// The apply kernel on `count` tensors.
///
/// # Safety
/// Every address is valid for the chunk's extents.
#[allow(clippy::too_many_arguments)]
unsafe fn launch_apply<T: Real>(ch: &CudaHandle, ap: &Apply<T>, dt: &DevTables, count: usize, a: u64, sa: usize, x: u64, sx: usize, y: u64, sy: usize) -> Result<()> {
    let module = module::<T>(ch, &ap.tab, "apply")?;
    let (mut nt, mut p, mut a, mut sa, mut x, mut sx, mut y, mut sy) = (count as i64, ap.p as i32, a, sa as i64, x, sx as i64, y, sy as i64);
    let mut t = dt.0;
    let [t0, t1, t2, t3, t4, t5, t6] = &mut t;
    let mut params = [arg(&mut nt), arg(&mut p), arg(&mut a), arg(&mut sa), arg(&mut x), arg(&mut sx), arg(&mut y), arg(&mut sy), arg(t0), arg(t1), arg(t2), arg(t3), arg(t4), arg(t5), arg(t6)];
    // SAFETY: matches apply_<T>(ng_i64 ntensors, int p, const T *A, ng_i64 strideA, const T *x,
    // ng_i64 strideX, T *y, ng_i64 strideY, the seven tables).
    ch.launch_params(&module, blocks(count), THREADS as u32, 0, &mut params)
}

pub fn sym_apply<T: Real>(ch: &mut CudaHandle, ap: &Apply<T>, space: Space) -> Result<()> {
    check_n(&ap.tab)?;
    ch.bind()?;
    let (u, n, len, e) = (ap.tab.u, ap.tab.n, ap.out_len(), size_of::<T>());
    let mut lay = Layout::default();
    let toffs = tables_layout::<T>(&ap.tab, &mut lay);
    if space == Space::Device {
        let ws = ch.workspace(lay.bytes)?;
        let dt = upload_tables::<T>(ch, &ap.tab, ws, toffs)?;
        // SAFETY: a validated call on device memory.
        return unsafe { launch_apply(ch, ap, &dt, ap.ntensors, ap.a as u64, ap.stride_a, ap.x as u64, ap.stride_x, ap.y as u64, ap.stride_y) };
    }
    let chunk = chunk_len((u + n + len) * e, ap.ntensors);
    let (oa, ox, oy) = (lay.take(chunk * u * e), lay.take(chunk * n * e), lay.take(chunk * len * e));
    let ws = ch.workspace(lay.bytes)?;
    let dt = upload_tables::<T>(ch, &ap.tab, ws, toffs)?;
    let mut host = vec![T::c(0.0); chunk * u.max(n).max(len)];
    let mut first = 0;
    while first < ap.ntensors {
        let count = chunk.min(ap.ntensors - first);
        // SAFETY: a validated call on host memory; the regions hold `chunk` tensors; y is
        // copied back (synchronised) before the next chunk.
        unsafe {
            upload(ch, &mut host, ws + oa as u64, count, u, |i, d| d.copy_from_slice(std::slice::from_raw_parts(ap.a.add((first + i) * ap.stride_a), u)))?;
            let xs = if ap.stride_x == 0 { 1 } else { count };
            upload(ch, &mut host, ws + ox as u64, xs, n, |i, d| d.copy_from_slice(std::slice::from_raw_parts(ap.x.add((first + i) * ap.stride_x), n)))?;
            launch_apply(ch, ap, &dt, count, ws + oa as u64, u, ws + ox as u64, if ap.stride_x == 0 { 0 } else { n }, ws + oy as u64, len)?;
            crate::cuda::legacy::download(ch, &mut host, ws + oy as u64, count, len, |i, v| {
                std::ptr::copy_nonoverlapping(v.as_ptr(), ap.y.add((first + i) * ap.stride_y), len);
            })?;
        }
        first += count;
    }
    Ok(())
}
