//! geqrf: numgpu's batched QR by Givens rotations (`geqrf_givens`, strided form) against
//! cuBLAS `geqrfBatched` (Householder, pointer-array form) on the same device buffers and
//! stream, and LAPACK `?geqrf` on the host over all cores and on one; Q, R and orthogonality
//! checked by the oracle. The set-up is getrf's ([`Batched`], [`Sets`]).

use crate::bench::{below, bits, dispatch, fetch, finish, grid, sample, secs, About, Bench, Case, Ctx};
use crate::getrf::{factor_columns, Batched, Sets};
use crate::gpu::{ng, ok, DevBuf, Res};
use crate::prec::Prec;
use crate::report::{gbs_panel, Fmt, Meta, Panel, Row};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::core::batch::Batch;
use numgpu::geqrf_givens::geqrf;
use numgpu::testing::{gen::fill_random, norm::c64s, norm::nan_max, qr, tol};
use numgpu::{Complex32, Complex64, Handle};
use rayon::prelude::*;
use serde_json::{Map, Value};

pub struct Geqrf(Batched);

impl Geqrf {
    pub fn new(cli: &Cli) -> Res<Geqrf> {
        Ok(Geqrf(Batched::new(cli)?))
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "geqrf", report: "geqrf_givens", tolerance: tol::RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd', 'c', 'z'], cusparse: false,
    description: "Batched QR by Givens rotations (Sameh–Kuck order; R and the sines in A, the cosines in CS), square n, nonzero random data: numgpu_?geqrf_givens_batched_strided against cublas?geqrfBatched (Householder, pointer-array form) on the same device buffers and stream, and LAPACK ?geqrf on the host over all cores and on one core.",
    columns: factor_columns!(("QR ratio", "qr_ratio", Fmt::Fix(2)), ("orth ratio", "orth_ratio", Fmt::Fix(2)), ("R ratio", "r_ratio", Fmt::Fix(2))),
    log: &["ours_ms", "ratio_cublas"],
};

impl Bench for Geqrf {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        grid(precisions, &self.0.sizes, "n")
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64, Complex32, Complex64], body(&self.0, ctx, case, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: strided form, packed n×n matrices (lda = ldcs = n) of nonzero random data in device memory, batch {} (less where device memory holds less: see the column); every call factors fresh inputs (a device copy of the pristine batch restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS (`geqrfBatched`, pointer-array form: it has no strided form); LAPACK `?geqrf` (OpenBLAS's LAPACK, single-threaded, workspace allocated once per thread) on the host, host clock, median of a few runs on the first matrices of the batch, over all {} threads (rayon) and on one core, scaled to the whole batch by the time per matrix\n\
             - bytes: numgpu's GB/s count what its call must move per matrix, n²·elem (A read) + n²·elem (R and the sines written over A) + n²·real (the cosines written to CS); cuBLAS's and LAPACK's GB/s count their own outputs the same way, n²·elem + n²·elem (R and the reflectors) + n·elem (tau), so each rate is its own routine's traffic; % roof = numgpu's GB/s / the copy bandwidth; ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster), a time ratio, independent of the byte counts; ×LAPACK all / 1-core = t_LAPACK / t_numgpu for the whole batch\n\
             - checks by the oracle (`numgpu::testing::qr`) on `checked` matrices spread over the batch (all of it for small n), in double precision: Q rebuilt from our rotations, QR ratio = max_j ‖a_j − Q·r_j‖₂ / (n·‖a_j‖₂·ε), orth ratio = ‖I − Qᴴ·Q‖₁ / (n·ε); R ratio = max over i ≤ j of |R(i, j) − d_i·R_LAPACK(i, j)| / (n·κ̂·‖a_j‖₂·ε) against LAPACK `?geqrf` on the same matrix (D the unit diagonal with R = D·R_LAPACK; κ̂ = max / min of |R_LAPACK(i, i)| / ‖a_i‖₂, R's sensitivity); each must stay below {}; a row also fails when two calls on the same inputs differ bitwise (sampled A and CS, CS poisoned with NaN before each call), or when a call fails (cuBLAS's host `info` is its argument check only)\n",
            self.0.batch, meta.warmup, meta.reps, meta.host_threads, tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let title = format!("numgpu geqrf_givens vs cuBLAS geqrfBatched (Householder): {} ({})", meta.device, meta.date);
        vec![gbs_panel(title, "GB/s: numgpu (2n²·elem + n²·real) / time, cuBLAS (2n² + n)·elem / time", rows, |r| r.text("precision"), ("cublas_gbs", "cuBLAS geqrfBatched"), roof.bandwidth_gbs)]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        self.0.extra()
    }
}

/// The oracle's ratios of one sampled matrix, our factors `f` (R and the sines) and cosines
/// `cs` of the input `a`: (QR, orthogonality, R against LAPACK's; NaN where LAPACK fails).
fn check_one<T: Prec>(a: &[T], f: &[T], cs: &[T::Real], n: usize) -> (f64, f64, f64) {
    let (a64, f64s, q) = (c64s(a), c64s(f), qr::givens_q(f, n, cs, n, n, n, n));
    let r = qr::lapack_geqrf(a, n, n).map(|l| c64s(&l)).map_or(f64::NAN, |l| qr::RCompare::new(&a64, &f64s, &l, n, n).r_ratio::<T>(&f64s, &l, n));
    (qr::residual_ratio::<T>(&a64, &f64s, &q, n, n), qr::orthogonality_ratio::<T>(&q, n, n), r)
}

/// LAPACK `?geqrf` on each n×n matrix of `a` over rayon's threads, a workspace per thread;
/// the matrices with info ≠ 0.
fn geqrf_all<T: Prec>(a: &mut [T], tau: &mut [T], n: usize, lwork: usize) -> usize {
    // SAFETY: each chunk is one n×n matrix (lda = n) and its n entries of tau.
    let one = |w: &mut Vec<T>, (m, t): (&mut [T], &mut [T])| (unsafe { T::lapack_geqrf(n as i32, m.as_mut_ptr(), t.as_mut_ptr(), w) } != 0) as usize;
    let min = (65536 / (4 * n * n * n / 3).max(1)).max(1);
    a.par_chunks_mut(n * n).zip(tau.par_chunks_mut(n)).with_min_len(min).map_init(|| vec![T::zero(); lwork], one).sum()
}

fn body<T: Prec>(cfg: &Batched, ctx: &mut Ctx, case: &Case, row: &mut Row) -> Res<()> {
    let (gpu, n, size, rsize) = (ctx.gpu, case.n, std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    let e = n * n;
    // Per matrix and set besides A: CS, two pointers, tau.
    let (batch, nsets) = cfg.start(ctx, case, e * size, e * rsize + 16 + n * size, row)?;
    row.set("bytes", (batch * e * (2 * size + rsize)) as f64);
    row.set("cublas_bytes", (batch * (2 * e + n) * size) as f64);
    let mut a = vec![T::zero(); batch * e];
    fill_random(&mut a, ((T::LETTER as u64) << 32) ^ (n as u64) ^ 0x6765_7172_6600);
    // Set buffers: A, CS, pointers to A, pointers to tau, tau.
    let dev = Sets::new(gpu, &a, batch, nsets, &[batch * e * rsize, batch * 8, batch * 8, batch * n * size], &[(2, 0, e * size), (3, 4, n * size)])?;
    let (nl, stride, cublas) = (n as i64, e as i64, ctx.cublas.h());
    // SAFETY (both): set j holds `batch` packed n×n matrices A and CS, and the pointer arrays
    // to A and tau, on the handle's device and stream.
    let ours = |h: &mut Handle, s: &[DevBuf]| ng(unsafe { geqrf::<T>(h, nl, nl, Batch::Strided { ptr: s[0].ptr as _, stride }, nl, Batch::Strided { ptr: s[1].ptr as _, stride }, nl, batch as i64) });
    let peer = |s: &[DevBuf]| {
        let mut info = 0;
        ok(unsafe { T::geqrf_batched(cublas, n as i32, s[2].ptr, s[3].ptr, &mut info, batch as i32) }.result(), "cublasXgeqrfBatched")?;
        (info == 0).then_some(()).ok_or_else(|| format!("cublasXgeqrfBatched: info = {info} (argument {} rejected)", -info))
    };

    // Two calls from the same inputs, CS poisoned with NaN before each; cuBLAS once (its
    // argument check), then the pristine inputs back.
    let (picks, s0) = (sample(cfg.check_work, n, batch), &dev.sets[0]);
    let run = |h: &mut Handle| -> Res<(Vec<T>, Vec<T::Real>)> {
        dev.restore(gpu, 0)?;
        gpu.memset_async(s0[1].ptr, 0xff, batch * e * rsize)?;
        ours(h, s0)?;
        Ok((fetch(gpu, s0[0].ptr, e, batch, &picks)?, fetch(gpu, s0[1].ptr, e, batch, &picks)?))
    };
    let ((f, cs), again) = (run(ctx.h)?, run(ctx.h)?);
    let same = bits(&again.0) == bits(&f) && bits(&again.1) == bits(&cs);
    dev.restore(gpu, 0)?;
    peer(s0)?;
    dev.restore(gpu, 0)?;
    let per: Vec<(f64, f64, f64)> = picks.par_iter().enumerate().map(|(k, &i)| check_one(&a[i * e..(i + 1) * e], &f[k * e..(k + 1) * e], &cs[k * e..(k + 1) * e], n)).collect();
    let worst = |g: fn(&(f64, f64, f64)) -> f64| per.iter().fold(0.0, |w, x| nan_max(w, g(x)));
    row.set("checked", picks.len());
    for (key, what, r) in [("qr_ratio", "‖A − QR‖ ratio", worst(|x| x.0)), ("orth_ratio", "‖I − QᴴQ‖ ratio", worst(|x| x.1)), ("r_ratio", "R vs LAPACK ?geqrf ratio", worst(|x| x.2))] {
        row.set(key, r);
        row.check(below(Some(r), tol::RATIO), || format!("{what} {r:.3e} >= {}", tol::RATIO));
    }
    row.set("reproducible", same);
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    let t = cfg.time(ctx, &dev, row, peer, ours)?;

    // LAPACK ?geqrf on the first matrices of the batch, inputs copied outside the clock.
    let (lwork, mut w, mut tau, mut bad) = (T::geqrf_lwork(n as i32), Vec::new(), Vec::new(), 0);
    cfg.lapack(row, n, batch, row.num("cublas_bytes").unwrap_or(f64::NAN), t, |k| {
        w.clear();
        w.extend_from_slice(&a[..k * e]);
        tau.resize(k * n, T::zero());
        Ok(secs(|| bad += geqrf_all(&mut w, &mut tau, n, lwork)))
    })?;
    row.check(bad == 0, || format!("LAPACK ?geqrf reported info ≠ 0 on {bad} matrices of the timed runs"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::geqrf_givens::geqrf_strided;

    /// The check on the CPU backend's factors: they pass the three ratios, a perturbed R or
    /// rotation does not; the host peer's workspace call is LAPACK's `?geqrf`.
    #[test]
    fn check_and_host_peer() {
        numgpu::lapack::single_threaded_blas();
        for n in [1usize, 5, 33] {
            let (batch, e, nl) = (3, n * n, n as i64);
            let mut a = vec![Complex32::default(); batch * e];
            fill_random(&mut a, 42 + n as u64);
            let (mut f, mut cs) = (a.clone(), vec![0f32; batch * e]);
            geqrf_strided(&mut Handle::cpu(), nl, nl, &mut f, nl, e as i64, &mut cs, nl, e as i64, batch as i64).unwrap();
            for i in 0..batch {
                let s = i * e..(i + 1) * e;
                let (q, o, r) = check_one(&a[s.clone()], &f[s.clone()], &cs[s.clone()], n);
                assert!(q < 30.0 && o < 30.0 && r < 30.0, "n={n} matrix {i}: ratios {q} {o} {r}");
                let mut bad = f[s.clone()].to_vec();
                bad[e - 1] *= Complex32::new(1.5, 0.0);
                assert!(check_one(&a[s.clone()], &bad, &cs[s.clone()], n).2 > 100.0, "n={n}: a perturbed R passes");
                let mut badc = cs[s.clone()].to_vec();
                badc[n - 1] = 0.5;
                assert!(n == 1 || check_one(&a[s.clone()], &f[s], &badc, n).1 > 100.0, "n={n}: a perturbed rotation passes");
            }
            let (mut l, mut tau) = (a.clone(), vec![Complex32::default(); batch * n]);
            assert_eq!(geqrf_all(&mut l, &mut tau, n, Complex32::geqrf_lwork(n as i32)), 0);
            assert_eq!(bits(&l[..e]), bits(&qr::lapack_geqrf(&a[..e], n, n).unwrap()));
        }
    }
}
