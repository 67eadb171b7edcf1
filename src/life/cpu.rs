//! CPU backend: the products in Rust under rayon, a task per run of voxels (DSC: each voxel's
//! column of Y is written by one task; WC's first pass: each entry's term) or fibres (WC's
//! second pass: each weight by one task), every sum in the layout's order; the sums of squares of SBBNNLS over fixed chunks added in order. So
//! results do not depend on the number of threads.

use super::{iterate, Engine, Layout, Product, Solve, Solved};
use crate::core::error::Result;
use rayon::prelude::*;

/// Voxels or fibres per rayon task.
const PER_TASK: usize = 64;

/// Elements per partial sum of [`sumsq`].
const SUM_CHUNK: usize = 4096;

/// Column i (n elements, leading dimension ld) of a matrix; empty when n = 0 (the matrix's
/// extent is then 0).
fn column(x: &[f64], i: usize, ld: usize, n: usize) -> &[f64] {
    if n == 0 {
        &[]
    } else {
        &x[i * ld..][..n]
    }
}

/// Y[:, v] := beta·Y[:, v] + Σ φ·w[f]·D[:, a] − sub[:, v], for the voxels of `cols` (column
/// v at `v·ldy`; `sub` with its leading dimension, or none).
#[allow(clippy::too_many_arguments)]
fn dsc(l: &Layout, d: &[f64], ldd: usize, w: &[f64], beta: f64, sub: Option<(&[f64], usize)>, y: &mut [f64], ldy: usize) {
    let nt = l.ntheta;
    y.par_chunks_mut(ldy * PER_TASK).enumerate().for_each(|(c, cols)| {
        let mut acc = vec![0.0; nt];
        for (i, col) in cols.chunks_mut(ldy).enumerate() {
            let v = c * PER_TASK + i;
            if v >= l.nvoxels {
                break;
            }
            acc.fill(0.0);
            // The entries of one atom are adjacent: their coefficients are added first.
            let (mut j, e) = (l.vox_ptr[v] as usize, l.vox_ptr[v + 1] as usize);
            while j < e {
                let atom = l.dsc_atom[j] as usize;
                let mut coef = 0.0;
                while j < e && l.dsc_atom[j] as usize == atom {
                    coef += l.dsc_val[j] * w[l.dsc_fib[j] as usize];
                    j += 1;
                }
                if coef != 0.0 {
                    acc.iter_mut().zip(column(d, atom, ldd, nt)).for_each(|(a, &x)| *a += coef * x);
                }
            }
            if let Some((b, ldb)) = sub {
                acc.iter_mut().zip(column(b, v, ldb, nt)).for_each(|(a, &x)| *a -= x);
            }
            let out = &mut col[..nt];
            if beta == 0.0 {
                out.copy_from_slice(&acc);
            } else {
                out.iter_mut().zip(&acc).for_each(|(o, &a)| *o = beta * *o + a);
            }
        }
    });
}

/// w := beta·w + Mᵀ·Y in two passes: each entry's term φ·⟨D[:, a], Y[:, v]⟩ into `part`
/// (nnz entries; voxel by voxel, in the layout's order), then each fibre's terms summed in its
/// order.
#[allow(clippy::too_many_arguments)]
fn wc(l: &Layout, d: &[f64], ldd: usize, y: &[f64], ldy: usize, beta: f64, w: &mut [f64], part: &mut [f64]) {
    let nt = l.ntheta;
    // The terms of PER_TASK voxels per task: their entries are consecutive.
    let mut tasks = Vec::new();
    let mut rest: &mut [f64] = &mut *part;
    for v0 in (0..l.nvoxels).step_by(PER_TASK) {
        let v1 = (v0 + PER_TASK).min(l.nvoxels);
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut((l.vox_ptr[v1] - l.vox_ptr[v0]) as usize);
        tasks.push((v0, v1, mine));
        rest = tail;
    }
    tasks.into_par_iter().for_each(|(v0, v1, out)| {
        let first = l.vox_ptr[v0] as usize;
        for v in v0..v1 {
            let yc = column(y, v, ldy, nt);
            // ⟨D[:, a], Y[:, v]⟩ once per atom (its entries are adjacent).
            let (mut atom, mut dot) = (usize::MAX, 0.0);
            for j in l.vox_ptr[v] as usize..l.vox_ptr[v + 1] as usize {
                if l.dsc_atom[j] as usize != atom {
                    atom = l.dsc_atom[j] as usize;
                    dot = column(d, atom, ldd, nt).iter().zip(yc).map(|(a, b)| a * b).sum::<f64>();
                }
                out[j - first] = l.dsc_val[j] * dot;
            }
        }
    });
    let part: &[f64] = part;
    w.par_chunks_mut(PER_TASK).enumerate().for_each(|(c, ws)| {
        for (i, wf) in ws.iter_mut().enumerate() {
            let f = c * PER_TASK + i;
            let s: f64 = l.wc_perm[l.fib_ptr[f] as usize..l.fib_ptr[f + 1] as usize].iter().map(|&k| part[k as usize]).sum();
            *wf = if beta == 0.0 { s } else { beta * *wf + s };
        }
    });
}

/// Σ x², over fixed chunks added in order.
fn sumsq(x: &[f64]) -> f64 {
    let parts: Vec<f64> = x.par_chunks(SUM_CHUNK).map(|c| c.iter().map(|v| v * v).sum()).collect();
    parts.iter().sum()
}

/// The extent of an `rows × cols` matrix with leading dimension `ld`.
fn extent(ld: usize, rows: usize, cols: usize) -> usize {
    if cols == 0 || rows == 0 {
        0
    } else {
        (cols - 1) * ld + rows
    }
}

/// DSC on host memory.
///
/// # Safety
/// A validated call on host memory.
pub unsafe fn mw(l: &Layout, p: &Product) {
    let d = std::slice::from_raw_parts(p.d, extent(p.ldd, l.ntheta, l.natoms));
    let w = if l.nnz() > 0 { std::slice::from_raw_parts(p.w, l.nfibers) } else { &[][..] };
    let y = std::slice::from_raw_parts_mut(p.y, extent(p.ldy, l.ntheta, l.nvoxels));
    dsc(l, d, p.ldd, w, p.beta, None, y, p.ldy);
}

/// WC on host memory.
///
/// # Safety
/// A validated call on host memory.
pub unsafe fn mty(l: &Layout, p: &Product) {
    let d = std::slice::from_raw_parts(p.d, extent(p.ldd, l.ntheta, l.natoms));
    let y = std::slice::from_raw_parts(p.y, extent(p.ldy, l.ntheta, l.nvoxels));
    let w = std::slice::from_raw_parts_mut(p.w, l.nfibers);
    wc(l, d, p.ldd, y, p.ldy, p.beta, w, &mut vec![0.0; l.nnz()]);
}

/// SBBNNLS's vectors on the host: r and v are Nθ × Nv (leading dimension Nθ), g, g̃ and u
/// have Nf entries, `part` nnz.
struct Host<'a> {
    l: &'a Layout,
    d: &'a [f64],
    ldd: usize,
    b: &'a [f64],
    ldb: usize,
    w: &'a mut [f64],
    r: Vec<f64>,
    v: Vec<f64>,
    g: Vec<f64>,
    gt: Vec<f64>,
    u: Vec<f64>,
    /// WC's terms, one per entry.
    part: Vec<f64>,
}

impl Engine for Host<'_> {
    fn residual(&mut self) -> Result<()> {
        let nt = self.l.ntheta.max(1);
        dsc(self.l, self.d, self.ldd, self.w, 0.0, Some((self.b, self.ldb)), &mut self.r, nt);
        Ok(())
    }
    fn gradient(&mut self) -> Result<f64> {
        wc(self.l, self.d, self.ldd, &self.r, self.l.ntheta.max(1), 0.0, &mut self.g, &mut self.part);
        self.gt.par_iter_mut().zip(&self.g).zip(&*self.w).for_each(|((t, &g), &w)| *t = if w > 0.0 || g < 0.0 { g } else { 0.0 });
        Ok(sumsq(&self.gt))
    }
    fn m_gt(&mut self) -> Result<f64> {
        let nt = self.l.ntheta.max(1);
        dsc(self.l, self.d, self.ldd, &self.gt, 0.0, None, &mut self.v, nt);
        Ok(sumsq(&self.v))
    }
    fn mt_v(&mut self) -> Result<f64> {
        wc(self.l, self.d, self.ldd, &self.v, self.l.ntheta.max(1), 0.0, &mut self.u, &mut self.part);
        Ok(sumsq(&self.u))
    }
    fn step(&mut self, alpha: f64) -> Result<()> {
        // As life_step: g̃ is not read when alpha = 0 (the projection of the start).
        self.w.par_iter_mut().zip(&self.gt).for_each(|(w, &t)| {
            let x = if alpha != 0.0 { *w - alpha * t } else { *w };
            *w = if x > 0.0 { x } else { 0.0 };
        });
        Ok(())
    }
    fn residual_norm2(&mut self) -> Result<f64> {
        Ok(sumsq(&self.r))
    }
}

/// SBBNNLS on host memory.
///
/// # Safety
/// A validated call on host memory.
pub unsafe fn sbbnnls(l: &Layout, s: &Solve) -> Result<Solved> {
    let (nt, nv, nf) = (l.ntheta, l.nvoxels, l.nfibers);
    let mut e = Host {
        l,
        d: std::slice::from_raw_parts(s.d, extent(s.ldd, nt, l.natoms)),
        ldd: s.ldd,
        b: std::slice::from_raw_parts(s.b, extent(s.ldb, nt, nv)),
        ldb: s.ldb,
        w: std::slice::from_raw_parts_mut(s.w, nf),
        r: vec![0.0; nt * nv],
        v: vec![0.0; nt * nv],
        g: vec![0.0; nf],
        gt: vec![0.0; nf],
        u: vec![0.0; nf],
        part: vec![0.0; l.nnz()],
    };
    iterate(&mut e, s)
}
