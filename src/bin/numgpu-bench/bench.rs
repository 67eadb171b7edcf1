//! The shape of one routine's benchmark ([`Bench`]), what a measurement has at hand
//! ([`Ctx`]), the one precision dispatch ([`dispatch!`]), and what the routines share: rates
//! into a row, input sets rotated out of L2, samples of a batch, the host peers' timing. The
//! numerics of every check (references, error ratios, tolerances) are the oracle's,
//! `numgpu::testing`.

use crate::gpu::{median, Cublas, Cusparse, Gpu, Res};
use crate::report::{Col, Meta, Panel, Row};
use crate::roofline::Roofline;
use numgpu::Handle;
use serde_json::{Map, Value};

/// One step of a routine's sweep: a precision and a size, `kind` the routine's own index (a
/// form, a matrix, a problem), `label` how the rows and the progress bar name it.
#[derive(Clone, Debug)]
pub struct Case {
    pub precision: char,
    pub n: usize,
    pub kind: usize,
    pub label: String,
}

/// The cases of every precision and size, in that order, labelled `<p> <size>=<n>`.
pub fn grid(precisions: &[char], sizes: &[usize], size: &str) -> Vec<Case> {
    precisions.iter().flat_map(|&p| sizes.iter().map(move |&n| Case { precision: p, n, kind: 0, label: format!("{p} {size} = {n}") })).collect()
}

/// What one measurement has at hand: the device and the stream (numgpu's handle and the
/// peers' are on it), the roofline, the device memory a case may hold, the common settings.
pub struct Ctx<'a> {
    pub gpu: &'a Gpu,
    pub h: &'a mut Handle,
    pub cublas: &'a Cublas,
    pub cusparse: Option<&'a Cusparse>,
    pub roof: &'a Roofline,
    pub budget: f64,
    pub reps: usize,
    pub warmup: usize,
}

impl<'a> Ctx<'a> {
    pub fn cusparse(&self) -> &'a Cusparse {
        self.cusparse.expect("cuSPARSE is created when a routine that needs it runs")
    }
}

/// What a routine is called and how its report names, checks and shows it: `name` for
/// --routine, `report` for the title and file names, the check's `tolerance` (in the JSON),
/// the precisions it can run and its `default` ones, whether it needs cuSPARSE, the table's
/// columns and the keys a log line shows of a row that passed.
pub struct About {
    pub name: &'static str,
    pub report: &'static str,
    pub description: &'static str,
    pub tolerance: f64,
    pub precisions: &'static [char],
    pub default: &'static [char],
    pub cusparse: bool,
    pub columns: &'static [Col],
    pub log: &'static [&'static str],
}

/// One routine's benchmark: its cases (precisions and sizes, from its options), each
/// measured against the routine's peers (bytes and flops per call, ours, the peers) and
/// checked by the oracle into rows, and its report's method notes and plot. Adding a routine
/// is one file with one of these, and a line in main's list.
pub trait Bench {
    fn about(&self) -> &'static About;
    /// The cases of this run in `precisions`: its sweep.
    fn cases(&self, precisions: &[char]) -> Vec<Case>;
    /// Measures one case: its rows. A failure is recorded in the rows, never ends the sweep.
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row>;
    /// The report's notes on the method, the measures and the checks (markdown list lines).
    fn method(&self, meta: &Meta) -> String;
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel>;
    /// What the JSON record holds besides its rows, and tables above the rows'.
    fn extra(&self, _rows: &[Row]) -> Map<String, Value> {
        Map::new()
    }
    fn tables(&self, _rows: &[Row]) -> String {
        String::new()
    }
}

/// Calls `$f::<T> $args` for the element type T of precision letter `$p`, among `$t`.
macro_rules! dispatch {
    ($p:expr, [$($t:ty),+], $f:ident $args:tt) => {
        match $p {
            $(p if p == <$t as numgpu::Scalar>::LETTER => $f::<$t> $args,)+
            p => panic!("precision {p} is not one of the routine's"),
        }
    };
}
pub(crate) use dispatch;

/// Leaves the stream idle after a case's work `r` (its buffers are freed in stream order),
/// and fails the row with either's error.
pub fn finish(ctx: &Ctx, mut row: Row, r: Res<()>) -> Row {
    if let Err(e) = r.and(ctx.gpu.sync()) {
        row.fail(e);
    }
    row
}

/// `x < tol`, false for a missing value or NaN.
pub fn below(x: Option<f64>, tol: f64) -> bool {
    x.is_some_and(|x| x < tol)
}

/// The bytes of plain-old-data values, for bitwise comparisons.
pub fn bits<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: the element types are plain old data; reading their bytes is sound.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// Sets `<who>_ms`, `<who>_gflops` (with flops) and `<who>_gbs` of a call taking `ms`.
pub fn rates(row: &mut Row, who: &str, ms: f64, bytes: f64, flops: Option<f64>) {
    row.set(&format!("{who}_ms"), ms);
    flops.into_iter().for_each(|f| row.set(&format!("{who}_gflops"), f / (ms * 1e6)));
    row.set(&format!("{who}_gbs"), bytes / (ms * 1e6));
}

/// How many copies of inputs of `bytes` the timed calls rotate through so that a call finds
/// its inputs out of L2 (3× L2 of traffic between two uses of one copy; 1 when one copy is
/// that large); with `restored` (each call's inputs rewritten after its use) one more, and at
/// least 2. At most 64.
pub fn sets(bytes: f64, l2: f64, restored: bool) -> usize {
    let k = if bytes < 3.0 * l2 { (3.0 * l2 / bytes).ceil() as usize } else { 1 };
    if restored {
        k.saturating_add(1).clamp(2, 64)
    } else {
        k.min(64)
    }
}

/// The matrices of a batch the checks cover, spread evenly: max(64, work / n³) of them, the
/// whole batch when that is all.
pub fn sample(work: f64, n: usize, batch: usize) -> Vec<usize> {
    let s = ((work / (n * n * n) as f64) as usize).max(64).min(batch);
    (0..s).map(|j| if s == batch { j } else { j * (batch - 1) / (s - 1).max(1) }).collect()
}

/// The sampled matrices of `e` elements each of the device batch at `a`, in sample order: in
/// one copy when the sample is dense (and the batch below 1 GB), else matrix by matrix.
pub fn fetch<T: Copy + Default>(gpu: &Gpu, a: u64, e: usize, batch: usize, sample: &[usize]) -> Res<Vec<T>> {
    let mut out = vec![T::default(); sample.len() * e];
    if sample.len() * 16 >= batch && batch * e * std::mem::size_of::<T>() <= 1 << 30 {
        let mut all = vec![T::default(); batch * e];
        gpu.dtoh(&mut all, a)?;
        sample.iter().zip(out.chunks_mut(e)).for_each(|(&i, o)| o.copy_from_slice(&all[i * e..(i + 1) * e]));
    } else {
        for (&i, o) in sample.iter().zip(out.chunks_mut(e)) {
            gpu.dtoh(o, a + (i * e * std::mem::size_of::<T>()) as u64)?;
        }
    }
    Ok(out)
}

/// A rayon pool of one thread: the one-core host peers run in it.
pub fn one_core() -> Res<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| format!("a one-thread pool: {e}"))
}

/// Seconds of `f()` on the host clock.
pub fn secs(f: impl FnOnce()) -> f64 {
    let t = std::time::Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

/// A host peer's milliseconds for a whole batch on one core and on all host cores, and the
/// items each run took (a few runs on the first items, scaled by the time per item).
pub struct HostTimes {
    pub one_items: usize,
    pub one_ms: f64,
    pub all_items: usize,
    pub all_ms: f64,
}

/// Times `run(items)` (seconds on the first `items` of a batch of `total`; its parallelism
/// rayon's) on one core and on all: a one-core probe on `probe` items sizes the runs to take
/// about `secs_one` and `secs_all`; the median of `reps` runs each.
pub fn host_times(total: usize, probe: usize, secs_one: f64, secs_all: f64, reps: usize, mut run: impl FnMut(usize) -> Res<f64> + Send) -> Res<HostTimes> {
    let (pool, probe, threads) = (one_core()?, probe.clamp(1, total), rayon::current_num_threads());
    let per = pool.install(|| run(probe))?.max(1e-9) / probe as f64;
    let one_items = ((secs_one / per) as usize).clamp(1, total);
    let all_items = ((secs_all * threads as f64 / per) as usize).clamp(1, total);
    run((probe * threads).min(all_items))?; // the thread pool's warm-up
    let (mut one, mut all) = (Vec::new(), Vec::new());
    for _ in 0..reps.max(1) {
        one.push(pool.install(|| run(one_items))?);
        all.push(run(all_items)?);
    }
    let scale = |t: &[f64], items: usize| median(t) / items as f64 * total as f64 * 1e3;
    Ok(HostTimes { one_items, one_ms: scale(&one, one_items), all_items, all_ms: scale(&all, all_items) })
}

/// The values of an option given, each once, else every value of its enum.
pub fn list<V: clap::ValueEnum + PartialEq>(given: &Option<Vec<V>>) -> Vec<V> {
    let mut out: Vec<V> = Vec::new();
    given.clone().unwrap_or_else(|| V::value_variants().to_vec()).into_iter().for_each(|v| if !out.contains(&v) { out.push(v) });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_and_sets() {
        assert_eq!((sample(5e7, 4, 1000), sample(5e7, 128, 10)), ((0..1000).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>()));
        let s = sample(5e7, 128, 100_000);
        assert_eq!((s.len(), s[0], *s.last().unwrap()), (64, 0, 99_999));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        let l2 = (50u64 << 20) as f64;
        assert_eq!((sets(3e8, l2, false), sets(1e6, l2, false), sets(1e8, l2, false)), (1, 64, 2));
        assert_eq!((sets(3e8, l2, true), sets(1e8, l2, true), sets(1e3, l2, true)), (2, 3, 64));
    }
}

