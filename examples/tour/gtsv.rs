//! gtsv_spike: per precision and pivoting mode, one system of order 200,003, a strided batch
//! of 2,000 systems of order 100 and an interleaved batch of 10,000 of order 64 (the
//! diagonal-pivoting rows on random systems that need pivoting, the no-pivot rows on
//! diagonally dominant ones), laid out as each form takes them (the strided batch with gaps
//! between the systems' diagonals and between the B_i, the interleaved one with n − 1 rows of
//! dl and du, LAPACK's diagonals as in every form). For every right-hand side of every
//! system, err/ref the normwise backward error ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) and err/cpu
//! the same measure of the difference from the CPU backend's solution (LAPACK `?gtsv`)
//! (`numgpu::testing::tridiag`); info identical to the CPU backend's and 0.

use crate::{cflops, measure, seed_of, Row, Rows};
use numgpu::gtsv_spike::{gtsv_batched_interleaved_slices, gtsv_batched_strided_slices, gtsv_spike_slices, Pivoting};
use numgpu::lapack::Blas;
use numgpu::testing::gen::nan;
use numgpu::testing::norm::nan_max;
use numgpu::testing::tridiag::{as_t, backward_error, Kind, Sys};
use numgpu::{Handle, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "gtsv_spike: ‖T(x − x_cpu)‖∞ and ‖b − Tx‖∞ over (‖T‖∞‖x‖∞ + ‖b‖∞)ε (every rhs of every system; the CPU backend is LAPACK ?gtsv); ≠cpu: systems whose info differs from the CPU backend's or is not 0, must be 0; GFLOP/s at 8n flops per system and rhs";

/// The three forms of the tridiagonal solvers.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Single,
    Strided,
    Interleaved,
}

/// The arrays of one call in the form's layout: dl, d, du, B and info.
type Arrays<T> = (Vec<T>, Vec<T>, Vec<T>, Vec<T>, Vec<i32>);

/// `systems` laid out for `form`.
fn layout<T: Scalar>(form: Form, systems: &[Sys]) -> Arrays<T> {
    let (n, nrhs, batch) = (systems[0].n, systems[0].nrhs, systems.len());
    let t: Vec<[Vec<T>; 4]> = systems.iter().map(as_t::<T>).collect();
    match form {
        Form::Single => {
            let [dl, d, du, b] = t.into_iter().next().expect("one system");
            (dl, d, du, b, vec![-7])
        }
        Form::Strided => {
            let (sd, sb) = (n + 3, n * nrhs + 5);
            let mut a = (vec![nan::<T>(); sd * batch], vec![nan::<T>(); sd * batch], vec![nan::<T>(); sd * batch], vec![nan::<T>(); sb * batch], vec![-7; batch]);
            for (i, [dl, d, du, b]) in t.iter().enumerate() {
                a.0[i * sd..i * sd + n - 1].copy_from_slice(dl);
                a.1[i * sd..i * sd + n].copy_from_slice(d);
                a.2[i * sd..i * sd + n - 1].copy_from_slice(du);
                a.3[i * sb..i * sb + n * nrhs].copy_from_slice(b);
            }
            a
        }
        Form::Interleaved => {
            let off = (n - 1) * batch;
            let mut a = (vec![nan::<T>(); off], vec![nan::<T>(); n * batch], vec![nan::<T>(); off], vec![nan::<T>(); n * batch], vec![-7; batch]);
            for (i, [dl, d, du, b]) in t.iter().enumerate() {
                for k in 0..n {
                    let e = k * batch + i;
                    (a.1[e], a.3[e]) = (d[k], b[k]);
                    if k + 1 < n {
                        (a.0[e], a.2[e]) = (dl[k], du[k]);
                    }
                }
            }
            a
        }
    }
}

/// X of every system (n × nrhs, compact, one system after the other) from the form's B.
fn solutions<T: Copy>(form: Form, b: &[T], n: usize, nrhs: usize, batch: usize) -> Vec<T> {
    match form {
        Form::Single => b.to_vec(),
        Form::Strided => (0..batch).flat_map(|i| b[i * (n * nrhs + 5)..][..n * nrhs].to_vec()).collect(),
        Form::Interleaved => (0..batch).flat_map(|i| (0..n).map(move |k| b[k * batch + i])).collect(),
    }
}

/// One form of `?gtsv_*` in one pivoting mode: `batch` systems of order n with nrhs
/// right-hand sides.
#[allow(clippy::too_many_arguments)]
fn case<T: Blas>(h: &mut Handle, form: Form, mode: Pivoting, n: usize, nrhs: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let kind = if mode == Pivoting::NoPivot { Kind::Dominant } else { Kind::Random };
    let systems: Vec<Sys> = (0..batch as u64).map(|i| Sys::new::<T>(kind, n, nrhs, seed + i)).collect();
    let (nl, rl, bl) = (n as i64, nrhs as i64, batch as i64);
    let ((.., b, info), secs, (.., bc, infoc)) = measure(
        h,
        || layout::<T>(form, &systems),
        |h, (dl, d, du, b, info)| match form {
            Form::Single => gtsv_spike_slices(h, mode, nl, rl, dl, d, du, b, nl, &mut info[0]),
            Form::Strided => gtsv_batched_strided_slices(h, mode, nl, rl, dl, d, du, (n + 3) as i64, b, nl, (n * nrhs + 5) as i64, info, bl),
            Form::Interleaved => gtsv_batched_interleaved_slices(h, mode, nl, dl, d, du, b, info, bl),
        },
    )?;
    let (x, xc) = (solutions(form, &b, n, nrhs, batch), solutions(form, &bc, n, nrhs, batch));
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    for (i, s) in systems.iter().enumerate() {
        for r in 0..nrhs {
            let col = (i * nrhs + r) * n..(i * nrhs + r + 1) * n;
            err_ref = nan_max(err_ref, backward_error(s, r, &x[col.clone()], None));
            err_cpu = nan_max(err_cpu, backward_error(s, r, &x[col.clone()], Some(&xc[col])));
        }
    }
    let name = match form {
        Form::Single => "gtsv_spike",
        Form::Strided => "gtsv_batched_strided",
        Form::Interleaved => "gtsv_batched_interleaved",
    };
    Ok(Row {
        routine: format!("{}{name} {}", T::LETTER, if mode == Pivoting::Diagonal { "DIAG" } else { "NOPIVOT" }),
        size: format!("n={n}, {nrhs} rhs"),
        batch,
        secs,
        // About 8n flops per system and right-hand side (elimination and substitution).
        flops: (batch * nrhs) as f64 * cflops::<T>(8.0 * n as f64),
        err_cpu,
        err_ref,
        differ: Some(info.iter().zip(&infoc).filter(|(p, q)| p != q || **p != 0).count()),
        note: (if kind == Kind::Dominant { "diagonally dominant" } else { "random: needs pivoting" }).into(),
        ..Row::default()
    })
}

/// Every case of one precision: the three forms, both modes.
fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    for (k, mode) in [Pivoting::Diagonal, Pivoting::NoPivot].into_iter().enumerate() {
        let seed = seed_of::<T>(4) | (k as u64) << 16;
        rows.push(case::<T>(h, Form::Single, mode, 200_003, 2, 1, seed));
        rows.push(case::<T>(h, Form::Strided, mode, 100, 2, 2_000, seed + 1));
        rows.push(case::<T>(h, Form::Interleaved, mode, 64, 1, 10_000, seed + 2));
    }
}

rows_in_every_precision!(all);
