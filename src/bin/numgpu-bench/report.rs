//! What a run leaves behind: the markdown table (stdout and a .md file), the JSON record and
//! the SVG plot, named after the routine, the device and the date. gemm's rows, getrf's
//! (`getrf_fullpivot`), geqrf's (`geqrf_givens`) and gtsv's (`gtsv_spike`) each have their
//! table and method notes; the page's head and the plot are shared.

use crate::gemm::Row;
use crate::geqrf::Row as GeqrfRow;
use crate::getrf::Row as GetrfRow;
use crate::gtsv::{Form, Named, Row as GtsvRow};
use crate::roofline::Roofline;
use plotters::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The run's circumstances, printed above the table and stored in the JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    pub device: String,
    pub arch: String,
    pub sm_count: i32,
    pub l2_bytes: usize,
    pub memory_bytes: usize,
    /// UTC date of the run, YYYY-MM-DD.
    pub date: String,
    pub numgpu_version: String,
    pub cuda_driver: String,
    pub nvrtc: String,
    pub cublas: String,
    /// cuSPARSE's version, when a routine compared with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cusparse: Option<String>,
    pub host_threads: usize,
    pub target_bytes: f64,
    pub reps: usize,
    pub warmup: usize,
    pub quick: bool,
    /// Toolkit libraries the bench loaded by path because the loader path lacked them.
    pub preloaded: Vec<String>,
}

/// One routine's results; `R` is its row type (gemm's by default).
#[derive(Serialize)]
pub struct Report<'a, R = Row> {
    pub routine: &'static str,
    pub description: &'static str,
    pub meta: &'a Meta,
    pub roofline: &'a Roofline,
    pub tolerance: f64,
    pub failures: usize,
    /// The batch a routine asks for when it does not size it from bytes (getrf), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<usize>,
    pub rows: &'a [R],
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A short file-name tag for a device name: "NVIDIA H100 80GB HBM3" → "H100",
/// "NVIDIA GeForce RTX 4090" → "RTX-4090".
pub fn device_tag(name: &str) -> String {
    let mut words = Vec::new();
    for w in name.split_whitespace().filter(|w| !["NVIDIA", "GeForce", "Tesla", "Quadro"].contains(w)) {
        words.push(w);
        if w.chars().any(|c| c.is_ascii_digit()) {
            break;
        }
    }
    let tag: String = words.join("-").chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    if tag.is_empty() {
        "gpu".into()
    } else {
        tag
    }
}

pub(crate) fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map(f).unwrap_or_else(|| "—".into())
}

pub(crate) fn rate(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

pub(crate) fn ms(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.4}")
    }
}

/// The table, one row per precision and size, MAGMA-style.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| prec | n | batch | ours ms | GFLOP/s | GB/s | % roof | cuBLAS ms | cuBLAS GB/s | ×cuBLAS | ×cuBLAS ptr | OpenBLAS GFLOP/s | error | ok |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.precision,
            r.n,
            r.batch,
            opt(r.ours_ms, ms),
            opt(r.ours_gflops, rate),
            opt(r.ours_gbs, |x| format!("{x:.0}")),
            opt(r.roof_pct, |x| format!("{x:.0}%")),
            opt(r.cublas_ms, ms),
            opt(r.cublas_gbs, |x| format!("{x:.0}")),
            opt(r.ratio_cublas, |x| format!("{x:.2}")),
            opt(r.ratio_cublas_array, |x| format!("{x:.2}")),
            opt(r.openblas_gflops, rate),
            opt(r.rel_error, |x| format!("{x:.1e}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    let failed: Vec<&Row> = rows.iter().filter(|r| !r.ok).collect();
    if !failed.is_empty() {
        s.push('\n');
        for r in failed {
            let _ = writeln!(s, "- FAIL {} n = {}: {}", r.precision, r.n, r.note);
        }
    }
    s
}

/// The head of a markdown page: title, description, device, software, roofline.
pub(crate) fn preamble<R>(s: &mut String, rep: &Report<R>) {
    let m = rep.meta;
    let rf = rep.roofline;
    let _ = writeln!(s, "# numgpu-bench: {} on {} ({})\n", rep.routine, m.device, m.date);
    let _ = writeln!(s, "{}\n", rep.description);
    let _ = writeln!(
        s,
        "- device: {} ({}, {} SMs, L2 {:.0} MiB, {:.1} GiB)",
        m.device,
        m.arch,
        m.sm_count,
        m.l2_bytes as f64 / (1u64 << 20) as f64,
        m.memory_bytes as f64 / (1u64 << 30) as f64
    );
    let sparse = m.cusparse.as_ref().map_or(String::new(), |v| format!(", cuSPARSE {v}"));
    let _ = writeln!(s, "- software: numgpu {}, CUDA driver {}, NVRTC {}, cuBLAS {}{sparse}; host: {} threads", m.numgpu_version, m.cuda_driver, m.nvrtc, m.cublas, m.host_threads);
    let peaks: Vec<String> = rf.fma_peak_gflops.iter().map(|(p, g)| format!("{p} {g:.0}")).collect();
    let _ = writeln!(
        s,
        "- roofline, measured in this run: bandwidth {:.0} GB/s (cuMemcpyDtoD of {:.2} GB, bytes read + written); FMA peak {} GFLOP/s (NVRTC kernel of FMA chains, real flops)",
        rf.bandwidth_gbs,
        rf.copy_bytes as f64 / 1e9,
        peaks.join(", ")
    );
}

/// The markdown page: circumstances, roofline, method, the table.
pub fn markdown(rep: &Report) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: batch sized so that A + B + C ≈ {:.2} GB; inputs rotated among `sets` copies when one fits in 3× L2; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS (default math mode: no TF32); OpenBLAS through numgpu's CPU backend on a smaller batch, host clock{}",
        m.target_bytes / 1e9,
        m.warmup,
        m.reps,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- GB/s counts (A + B + 2·C)·elem per matrix (beta ≠ 0 reads C); GFLOP/s counts 2n³ (real) or 8n³ (complex) per matrix; % roof = GFLOP/s / min(bandwidth · flops/byte, FMA peak); ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster), strided forms; ×cuBLAS ptr the same for the pointer-array forms (`gemmBatched`)\n");
    let _ = writeln!(
        s,
        "- error = ‖C_numgpu − C_cuBLAS‖_F / ‖C_cuBLAS‖_F over the batch; a row fails when a matrix's ‖ΔC_i‖_F / ((√(k+2)·|α|·‖A_i‖_F·‖B_i‖_F + 2|β|·‖C_i‖_F)·ε) ≥ {} (MAGMA's test; both forms), when two calls on the same inputs differ bitwise, or when a call fails",
        rep.tolerance
    );
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table(rep.rows));
    s
}

/// `<out>/<routine>-<device>-<date>.<ext>`
pub fn path(out: &Path, routine: &str, meta: &Meta, ext: &str) -> PathBuf {
    out.join(format!("{routine}-{}-{}.{ext}", device_tag(&meta.device), meta.date))
}

const COLORS: [RGBColor; 8] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// n (log2 axis) against GB/s, numgpu (solid) and cuBLAS (dashed) per precision, with the
/// measured bandwidth as a horizontal line.
pub fn svg(file: &Path, rep: &Report) -> Result<(), String> {
    let pts: Vec<Point> = rep.rows.iter().map(|r| Point { series: r.precision.to_string(), n: r.n, ours_gbs: r.ours_gbs, peer_gbs: r.cublas_gbs }).collect();
    let title = format!("numgpu {} vs cuBLAS: {} ({})", rep.routine, rep.meta.device, rep.meta.date);
    plot(file, &title, "GB/s, (A + B + 2C)·elem / time", "cuBLAS", rep.roofline.bandwidth_gbs, &pts)
}

/// One point pair of the plot: a series (a precision, or a precision and a mode) and n,
/// numgpu's and the peer's GB/s.
struct Point {
    series: String,
    n: usize,
    ours_gbs: Option<f64>,
    peer_gbs: Option<f64>,
}

/// The plot of `svg` for any routine of square matrices: `peer` names the dashed lines, `bw`
/// the copy bandwidth.
fn plot(file: &Path, title: &str, y_desc: &str, peer: &str, bw: f64, pts: &[Point]) -> Result<(), String> {
    let root = SVGBackend::new(file, (1100, 680)).into_drawing_area();
    let x_desc = "n (square matrices, log2 scale)";
    plot_on(&root, file, &Axes { title, x_desc, y_desc }, peer, bw, pts)?;
    root.present().map_err(|e| format!("plotting {}: {e}", file.display()))
}

/// A plot's title and axis descriptions.
struct Axes<'a> {
    title: &'a str,
    x_desc: &'a str,
    y_desc: &'a str,
}

/// n (log2 axis) against GB/s on `area` (part of the SVG `file`), numgpu (solid) and `peer`
/// (dashed) per series, in the order the series first appear, with the copy bandwidth `bw` as
/// a horizontal line.
fn plot_on(area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>, file: &Path, axes: &Axes, peer: &str, bw: f64, pts: &[Point]) -> Result<(), String> {
    let rows: Vec<&Point> = pts.iter().filter(|r| r.ours_gbs.is_some() || r.peer_gbs.is_some()).collect();
    let lg = |n: usize| (n as f64).log2();
    let (xmin, xmax) = rows.iter().fold((f64::MAX, f64::MIN), |(a, b), r| (a.min(lg(r.n)), b.max(lg(r.n))));
    let (xmin, xmax) = if rows.is_empty() { (2.0, 8.0) } else { (xmin - 0.25, xmax + 0.25) };
    let ymax = rows.iter().flat_map(|r| [r.ours_gbs, r.peer_gbs]).flatten().fold(bw, f64::max) * 1.4; // room for the legend above the lines
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", file.display());
    area.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(area)
        .caption(axes.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(70)
        .build_cartesian_2d(xmin..xmax, 0.0..ymax)
        .map_err(|e| err(&e))?;
    let xfmt = |x: &f64| if (x - x.round()).abs() < 1e-6 { format!("{}", 2f64.powi(x.round() as i32)) } else { String::new() };
    chart
        .configure_mesh()
        .x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .x_labels(((xmax - xmin) * 4.0).ceil() as usize + 1)
        .x_label_formatter(&xfmt)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(&e))?;
    let black = BLACK.stroke_width(2);
    chart
        .draw_series(DashedLineSeries::new([(xmin, bw), (xmax, bw)], 10, 6, black))
        .map_err(|e| err(&e))?
        .label(format!("copy bandwidth {bw:.0} GB/s"))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], black));
    let mut series: Vec<&str> = Vec::new();
    for r in &rows {
        if !series.contains(&r.series.as_str()) {
            series.push(&r.series);
        }
    }
    for (i, p) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts = |f: fn(&Point) -> Option<f64>| -> Vec<(f64, f64)> { rows.iter().filter(|r| r.series == *p).filter_map(|r| f(r).map(|y| (lg(r.n), y))).collect() };
        let ours = pts(|r| r.ours_gbs);
        let theirs = pts(|r| r.peer_gbs);
        if ours.is_empty() && theirs.is_empty() {
            continue;
        }
        let solid = color.stroke_width(2);
        chart
            .draw_series(LineSeries::new(ours.clone(), solid))
            .map_err(|e| err(&e))?
            .label(format!("{p}: numgpu"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], solid));
        chart.draw_series(ours.iter().map(|&q| Circle::new(q, 4, color.filled()))).map_err(|e| err(&e))?;
        let thin = color.stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new(theirs.clone(), 6, 4, thin))
            .map_err(|e| err(&e))?
            .label(format!("{p}: {peer}"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], thin));
        chart.draw_series(theirs.iter().map(|&q| Circle::new(q, 3, thin))).map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    Ok(())
}

/// getrf's plot: numgpu's complete pivoting against cuBLAS's partial pivoting.
pub fn svg_getrf(file: &Path, rep: &Report<GetrfRow>) -> Result<(), String> {
    let pts: Vec<Point> = rep.rows.iter().map(|r| Point { series: r.precision.to_string(), n: r.n, ours_gbs: r.ours_gbs, peer_gbs: r.cublas_gbs }).collect();
    let title = format!("numgpu {} (complete pivoting) vs cuBLAS getrfBatched (partial): {} ({})", rep.routine, rep.meta.device, rep.meta.date);
    plot(file, &title, "GB/s, 2·n²·elem / time", "cuBLAS getrfBatched", rep.roofline.bandwidth_gbs, &pts)
}

/// The lines under a table: one per row with a note, `(ok, which row, note)`, marked FAIL
/// where the row failed.
pub(crate) fn notes<'a>(s: &mut String, rows: impl Iterator<Item = (bool, String, &'a str)>) {
    let mut first = true;
    for (ok, which, note) in rows.filter(|r| !r.2.is_empty()) {
        if std::mem::take(&mut first) {
            s.push('\n');
        }
        let _ = writeln!(s, "- {} {which}: {note}", if ok { "note:" } else { "FAIL" });
    }
}

/// getrf's table, one row per precision and size.
pub fn table_getrf(rows: &[GetrfRow]) -> String {
    let mut s = String::new();
    s.push_str("| prec | n | batch | ours ms | GB/s | % roof | cuBLAS ms | cuBLAS GB/s | ×cuBLAS | LAPACK all ms | ×LAPACK all | LAPACK 1-core ms | ×LAPACK 1-core | checked | pivots ≠ | LU ratio | ok |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.precision,
            r.n,
            r.batch,
            opt(r.ours_ms, ms),
            opt(r.ours_gbs, |x| format!("{x:.0}")),
            opt(r.roof_pct, |x| format!("{x:.0}%")),
            opt(r.cublas_ms, ms),
            opt(r.cublas_gbs, |x| format!("{x:.0}")),
            opt(r.ratio_cublas, |x| format!("{x:.2}")),
            opt(r.lapack_all_ms, ms),
            opt(r.ratio_lapack_all, rate),
            opt(r.lapack_one_ms, ms),
            opt(r.ratio_lapack_one, rate),
            r.checked,
            match (r.pivot_mismatches, r.pivot_near_ties) {
                (Some(m), Some(t)) if t > 0 => format!("{m} ({t} near-tie)"),
                (m, _) => m.map_or("—".into(), |m| m.to_string()),
            },
            opt(r.lu_ratio, |x| format!("{x:.2}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    notes(&mut s, rows.iter().map(|r| (r.ok, format!("{} n = {}", r.precision, r.n), r.note.as_str())));
    s
}

/// getrf's markdown page.
pub fn markdown_getrf(rep: &Report<GetrfRow>) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: strided form, mode GETC2, packed n×n matrices in device memory, batch {} (less where device memory holds less: see the column); every call factors fresh inputs (a device copy of the pristine batch restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS; LAPACK `?getc2` (OpenBLAS's LAPACK, single-threaded) on the host, host clock, median of a few runs on the first matrices of the batch, over all {} threads (rayon; the whole batch when it takes about a second) and on one core, scaled to the whole batch by the time per matrix{}",
        rep.batch.map_or("—".into(), |b| b.to_string()),
        m.warmup,
        m.reps,
        m.host_threads,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- GB/s counts each matrix read and written once, 2·n²·elem per matrix (pivots and info not counted); % roof = GB/s / the copy bandwidth; ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster; cuBLAS `getrfBatched`, pointer-array form, pivots partially: no GPU library pivots completely); ×LAPACK all / 1-core = t_LAPACK / t_numgpu for the whole batch\n");
    let _ = writeln!(
        s,
        "- checks on `checked` matrices spread over the batch (all of it for small n): ipiv, jpiv and info equal to LAPACK `?getc2`'s on the same matrix (`pivots ≠` counts the matrices that differ; a near-tie, where at the first differing step our pivot is within 4nε, relative, of LAPACK's in LAPACK's own trailing block, is rounding that either implementation may break either way — FMA, the complex modulus — and is counted apart without failing the row), LU ratio = max ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) < {}; a row also fails when two calls on the same inputs differ bitwise (pivots, info, sampled factors), when cuBLAS reports a singular random matrix, or when a call fails",
        rep.tolerance
    );
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table_getrf(rep.rows));
    s
}

/// geqrf's plot: numgpu's Givens QR against cuBLAS's Householder QR, each at its own bytes.
pub fn svg_geqrf(file: &Path, rep: &Report<GeqrfRow>) -> Result<(), String> {
    let pts: Vec<Point> = rep.rows.iter().map(|r| Point { series: r.precision.to_string(), n: r.n, ours_gbs: r.ours_gbs, peer_gbs: r.cublas_gbs }).collect();
    let title = format!("numgpu {} vs cuBLAS geqrfBatched (Householder): {} ({})", rep.routine, rep.meta.device, rep.meta.date);
    plot(file, &title, "GB/s: numgpu (2n²·elem + n²·real) / time, cuBLAS (2n² + n)·elem / time", "cuBLAS geqrfBatched", rep.roofline.bandwidth_gbs, &pts)
}

/// geqrf's table, one row per precision and size.
pub fn table_geqrf(rows: &[GeqrfRow]) -> String {
    let mut s = String::new();
    s.push_str("| prec | n | batch | ours ms | GB/s | % roof | cuBLAS ms | cuBLAS GB/s | ×cuBLAS | LAPACK all ms | ×LAPACK all | LAPACK 1-core ms | ×LAPACK 1-core | checked | QR ratio | orth ratio | \\|R\\| ratio | ok |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.precision,
            r.n,
            r.batch,
            opt(r.ours_ms, ms),
            opt(r.ours_gbs, |x| format!("{x:.0}")),
            opt(r.roof_pct, |x| format!("{x:.0}%")),
            opt(r.cublas_ms, ms),
            opt(r.cublas_gbs, |x| format!("{x:.0}")),
            opt(r.ratio_cublas, |x| format!("{x:.2}")),
            opt(r.lapack_all_ms, ms),
            opt(r.ratio_lapack_all, rate),
            opt(r.lapack_one_ms, ms),
            opt(r.ratio_lapack_one, rate),
            r.checked,
            opt(r.qr_ratio, |x| format!("{x:.2}")),
            opt(r.orth_ratio, |x| format!("{x:.2}")),
            opt(r.r_ratio, |x| format!("{x:.2}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    notes(&mut s, rows.iter().map(|r| (r.ok, format!("{} n = {}", r.precision, r.n), r.note.as_str())));
    s
}

/// geqrf's markdown page.
pub fn markdown_geqrf(rep: &Report<GeqrfRow>) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: strided form, packed n×n matrices (lda = ldcs = n) in device memory, batch {} (less where device memory holds less: see the column); every call factors fresh inputs (a device copy of the pristine batch restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS (`geqrfBatched`, pointer-array form: it has no strided form); LAPACK `?geqrf` (OpenBLAS's LAPACK, single-threaded, workspace allocated once per thread) on the host, host clock, median of a few runs on the first matrices of the batch, over all {} threads (rayon; the whole batch when it takes about a second) and on one core, scaled to the whole batch by the time per matrix{}",
        rep.batch.map_or("—".into(), |b| b.to_string()),
        m.warmup,
        m.reps,
        m.host_threads,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- bytes: numgpu's GB/s count what its call must move per matrix, n²·elem (A read) + n²·elem (R and the sines written over A) + n²·real (the cosines written to CS; the spec's measure: A read, A and CS written); cuBLAS's GB/s count its own outputs the same way, n²·elem (A read) + n²·elem (R and the reflectors written) + n·elem (tau written), so each rate is its own routine's traffic (cuBLAS moves less: tau is n per matrix where CS is n²); % roof = numgpu's GB/s / the copy bandwidth; ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster), a time ratio, independent of the byte counts; ×LAPACK all / 1-core = t_LAPACK / t_numgpu for the whole batch\n");
    let _ = writeln!(
        s,
        "- checks on `checked` matrices spread over the batch (all of it for small n), in double precision: Q formed from our factors by numgpu's `orgqr` on the device, QR ratio = max ‖A − Q·R‖₁ / (n·‖A‖₁·ε), orth ratio = max ‖I − Qᴴ·Q‖₁ / (n·ε); |R| ratio = max over i ≤ j of ||R(i, j)| − |R_LAPACK(i, j)|| / (n·κ̂·‖a_j‖₂·ε) against LAPACK `?geqrf` on the same matrix (R is unique up to a unit diagonal factor: ±1 real, a phase complex, so moduli are compared; κ̂ = max / min of |R_LAPACK(i, i)| / ‖a_i‖₂, R's sensitivity); each must stay below {}; a row also fails when two calls on the same inputs differ bitwise (sampled A and CS, CS poisoned with NaN before each call), or when a call fails (cuBLAS's host `info` is its argument check only)",
        rep.tolerance
    );
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table_geqrf(rep.rows));
    s
}

/// gtsv's plot: a panel per form run, numgpu per precision and mode against the form's
/// cuSPARSE peer (drawn once per precision where both modes share it).
pub fn svg_gtsv(file: &Path, rep: &Report<GtsvRow>) -> Result<(), String> {
    let forms: Vec<Form> = Form::ALL.iter().copied().filter(|f| rep.rows.iter().any(|r| r.form == f.name())).collect();
    let root = SVGBackend::new(file, (1100, 520 * forms.len().max(1) as u32)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", file.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    for (form, area) in forms.iter().zip(root.split_evenly((forms.len().max(1), 1))) {
        let rows: Vec<&GtsvRow> = rep.rows.iter().filter(|r| r.form == form.name()).collect();
        let first_mode = rows.first().map_or("", |r| r.mode);
        let pts: Vec<Point> = rows
            .iter()
            .map(|r| Point {
                series: if r.inputs == "dominant" { format!("{} {}", r.precision, r.mode) } else { format!("{} {} {}", r.precision, r.mode, r.inputs) },
                n: r.n,
                ours_gbs: r.ours_gbs,
                peer_gbs: r.cusparse_gbs.filter(|_| *form == Form::Single || r.mode == first_mode || r.inputs != "dominant"),
            })
            .collect();
        let (what, peer) = match form {
            Form::Single => ("one system", "cuSPARSE gtsv2 (diag) / gtsv2_nopivot (nopivot)"),
            Form::Strided => ("strided batch", "cuSPARSE gtsv2StridedBatch"),
            Form::Interleaved => ("interleaved batch", "cuSPARSE gtsvInterleavedBatch, fastest algorithm"),
        };
        let title = format!("numgpu {} ({what}) vs {peer}: {} ({})", rep.routine, rep.meta.device, rep.meta.date);
        let axes = Axes { title: &title, x_desc: "n, order of each system (log2 scale)", y_desc: "GB/s, 5·n·elem per system / time" };
        plot_on(&area, file, &axes, "cuSPARSE", rep.roofline.bandwidth_gbs, &pts)?;
    }
    root.present().map_err(|e| err(&e))
}

/// gtsv's tables: one row per form, precision, n and mode; then the interleaved form's peer
/// algorithms.
pub fn table_gtsv(rows: &[GtsvRow]) -> String {
    let mut s = String::new();
    s.push_str("| form | mode | inputs | prec | n | batch | ours ms | GB/s | % roof | cuSPARSE | cuSPARSE ms | cuSPARSE GB/s | ×cuSPARSE | LAPACK ms | LAPACK GB/s | ×LAPACK | backward error | cuSPARSE backward error | ok |\n");
    s.push_str("|---|---|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.form,
            r.mode,
            r.inputs,
            r.precision,
            r.n,
            r.batch,
            opt(r.ours_ms, ms),
            opt(r.ours_gbs, |x| format!("{x:.0}")),
            opt(r.roof_pct, |x| format!("{x:.0}%")),
            r.cusparse,
            opt(r.cusparse_ms, ms),
            opt(r.cusparse_gbs, |x| format!("{x:.0}")),
            opt(r.ratio_cusparse, |x| format!("{x:.2}")),
            opt(r.lapack_ms, ms),
            opt(r.lapack_gbs, rate),
            opt(r.ratio_lapack, rate),
            opt(r.backward_error, |x| format!("{x:.2}")),
            opt(r.cusparse_backward_error, |x| format!("{x:.2}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    // The algorithms' times are the same in every mode's row of a class, precision and n.
    let mut seen = Vec::new();
    for r in rows.iter().filter(|r| !r.cusparse_algo_ms.is_empty()) {
        if seen.contains(&(r.inputs, r.precision, r.n)) {
            continue;
        }
        if seen.is_empty() {
            s.push_str("\ncuSPARSE `gtsvInterleavedBatch` by algorithm (ms; — where it failed, or was not run: Thomas on inputs that need pivoting):\n\n| inputs | prec | n | batch | 0 Thomas | 1 LU | 2 QR | fastest that solved |\n|---|---|--:|--:|--:|--:|--:|---|\n");
        }
        seen.push((r.inputs, r.precision, r.n));
        let t: Vec<String> = r.cusparse_algo_ms.iter().map(|t| opt(*t, ms)).collect();
        let _ = writeln!(s, "| {} | {} | {} | {} | {} | {} |", r.inputs, r.precision, r.n, r.batch, t.join(" | "), r.cusparse);
    }
    notes(&mut s, rows.iter().map(|r| (r.ok, format!("{} {} {} {} n = {}", r.form, r.mode, r.inputs, r.precision, r.n), r.note.as_str())));
    s
}

/// gtsv's markdown page.
pub fn markdown_gtsv(rep: &Report<GtsvRow>) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: one right-hand side per system; `single` one system of order n; `strided` and `interleaved` a batch of systems of order n, as many as make one call move the bytes counted below (at least {}), the same batch in both layouts; device memory, one set of arrays in cuSPARSE's layout serving both libraries (numgpu's dl starts one element into cuSPARSE's zero-padded one); every call solves fresh inputs (a device copy of the pristine arrays restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; per method, two calls for the check (the warm-up), then the median of {} calls (fewer where one call takes long: see the notes), each between CUDA events on one stream shared by numgpu and cuSPARSE, whose workspace (`bufferSizeExt`) is allocated before; LAPACK `?gtsv` (OpenBLAS's LAPACK) on the host, host clock, on copies made before the clock starts, one system on one core (it cannot be split), a batch over all {} threads (rayon, single-threaded BLAS; the interleaved batch in the strided layout, the only one LAPACK reads){}",
        rep.rows.iter().find(|r| r.form != "single").map_or("—".into(), |r| format!("{:.0} MiB", r.bytes / (1u64 << 20) as f64)),
        m.reps,
        m.host_threads,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- peers: `single` diag rows against `gtsv2` (partial pivoting), nopivot rows against `gtsv2_nopivot`; `strided` rows against `gtsv2StridedBatch`, which does not pivot (cuSPARSE has no pivoting strided batch: none for the `random` inputs); `interleaved` rows against the fastest of `gtsvInterleavedBatch`'s algorithms (0 Thomas, no pivoting, not run on the `random` inputs; 1 LU with partial pivoting; 2 QR) that solved the systems, named in the column, all in the table below; `gtsvInterleavedBatch` overwrites the diagonals too, which are restored with B\n");
    s.push_str("- GB/s count 5·n·elem per system, as the spec does (dl, d, du and b read, x written), for every library alike; % roof = numgpu's GB/s / the copy bandwidth; ×cuSPARSE = t_cuSPARSE / t_numgpu and ×LAPACK = t_LAPACK / t_numgpu (> 1: numgpu faster)\n");
    let _ = writeln!(
        s,
        "- inputs: `dominant`, random and strictly diagonally dominant by rows and columns (off-diagonals with parts uniform in [-1, 1), |d(k)| > 4), on which the pivoting and the non-pivoting solvers are all stable: every mode and peer; `random`, every entry with parts uniform in [-1, 1), which needs pivoting (and 2×2 pivots in numgpu's diagonal pivoting, which dominant inputs never take): the diag rows and the pivoting peers only; checks, in double precision over every system of the call: backward error = max ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) < {} (no factor n: a tridiagonal solve's backward error does not grow with n, and n·ε reaches 4 in single precision at n = 2^25), info = 0 for every system (info poisoned before the call), two calls on the same inputs bitwise equal; a row also fails when a call fails, or when its cuSPARSE routine's backward error fails the same bound (a check of the bench)",
        rep.tolerance
    );
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table_gtsv(rep.rows));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_tags() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
        assert_eq!(device_tag("NVIDIA H100 80GB HBM3"), "H100");
        assert_eq!(device_tag("NVIDIA GeForce RTX 4090"), "RTX-4090");
        assert_eq!(device_tag("NVIDIA A100-SXM4-80GB"), "A100-SXM4-80GB");
    }

    /// getrf's page, table and plot render from made-up rows (no GPU needed).
    #[test]
    fn getrf_report_renders() {
        let meta = Meta {
            device: "NVIDIA H100 80GB HBM3".into(),
            arch: "sm_90".into(),
            sm_count: 132,
            l2_bytes: 50 << 20,
            memory_bytes: 80 << 30,
            date: "2026-11-22".into(),
            numgpu_version: "0.1.0".into(),
            cuda_driver: "13.0".into(),
            nvrtc: "13.0".into(),
            cublas: "13.0.0".into(),
            cusparse: Some("12.6.3".into()),
            host_threads: 16,
            target_bytes: 1e9,
            reps: 20,
            warmup: 2,
            quick: false,
            preloaded: vec![],
        };
        let roof = Roofline { copy_bytes: 1 << 30, bandwidth_gbs: 3000.0, fma_peak_gflops: vec![('s', 6e4), ('d', 3e4), ('c', 6e4), ('z', 3e4)] };
        let ok = GetrfRow { precision: 's', n: 4, batch: 100_000, sets: 25, ours_ms: Some(0.01), ours_gbs: Some(1280.0), roof_pct: Some(42.7), cublas_gbs: Some(126.0), ratio_cublas: Some(10.2), checked: 100_000, pivot_mismatches: Some(0), lu_ratio: Some(0.4), ok: true, ..Default::default() };
        let bad = GetrfRow { precision: 'z', n: 128, note: "ipiv/jpiv differ".into(), ..Default::default() };
        let rows = [ok, bad];
        let rep = Report { routine: "getrf_fullpivot", description: "d", meta: &meta, roofline: &roof, tolerance: 30.0, failures: 1, batch: Some(100_000), rows: &rows };
        let md = markdown_getrf(&rep);
        assert!(md.contains("| s | 4 | 100000 | 0.0100 | 1280 | 43% |"), "{md}");
        assert!(md.contains("- FAIL z n = 128: ipiv/jpiv differ"), "{md}");
        let json = serde_json::to_string(&rep).unwrap();
        assert!(json.contains("\"batch\":100000") && json.contains("\"pivot_mismatches\":0"));
        let file = std::env::temp_dir().join(format!("numgpu-bench-test-{}.svg", std::process::id()));
        svg_getrf(&file, &rep).unwrap();
        let svg = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(svg.contains("cuBLAS getrfBatched"));
        assert_eq!(path(Path::new("docs/bench"), rep.routine, &meta, "md"), PathBuf::from("docs/bench/getrf_fullpivot-H100-2026-11-22.md"));

        // geqrf's page, table and plot.
        let ok = GeqrfRow { precision: 'd', n: 16, batch: 100_000, sets: 9, ours_ms: Some(0.5), ours_gbs: Some(1228.8), roof_pct: Some(41.0), cublas_gbs: Some(300.0), ratio_cublas: Some(3.1), checked: 12_207, qr_ratio: Some(0.3), orth_ratio: Some(0.4), r_ratio: Some(0.02), reproducible: Some(true), ok: true, ..Default::default() };
        let bad = GeqrfRow { precision: 'c', n: 128, note: "‖A − QR‖ ratio 1e3 >= 30".into(), ..Default::default() };
        let rows = [ok, bad];
        let rep = Report { routine: "geqrf_givens", description: "d", meta: &meta, roofline: &roof, tolerance: 30.0, failures: 1, batch: Some(100_000), rows: &rows };
        let md = markdown_geqrf(&rep);
        assert!(md.contains("| d | 16 | 100000 | 0.5000 | 1229 | 41% |"), "{md}");
        assert!(md.contains("| 12207 | 0.30 | 0.40 | 0.02 | ok |"), "{md}");
        assert!(md.contains("- FAIL c n = 128: ‖A − QR‖ ratio 1e3 >= 30"), "{md}");
        let json = serde_json::to_string(&rep).unwrap();
        assert!(json.contains("\"qr_ratio\":0.3") && json.contains("\"reproducible\":true"));
        svg_geqrf(&file, &rep).unwrap();
        let svg = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(svg.contains("cuBLAS geqrfBatched"));

        // gtsv's page, tables and plot (a panel per form).
        let single = GtsvRow { form: "single", mode: "diag", inputs: "dominant", precision: 's', n: 1 << 20, batch: 1, sets: 8, bytes: 20_971_520.0, reps: 20, ours_ms: Some(0.02), ours_gbs: Some(1048.6), roof_pct: Some(35.0), cusparse: "gtsv2".into(), cusparse_ms: Some(0.1), cusparse_gbs: Some(209.7), ratio_cusparse: Some(5.0), lapack_ms: Some(9.0), lapack_gbs: Some(2.3), ratio_lapack: Some(450.0), backward_error: Some(0.5), cusparse_backward_error: Some(0.7), info_nonzero: Some(0), reproducible: Some(true), ok: true, ..Default::default() };
        let inter = GtsvRow { form: "interleaved", mode: "nopivot", inputs: "dominant", precision: 'd', n: 64, batch: 104_858, bytes: 268_435_456.0, cusparse: "gtsvInterleavedBatch Thomas".into(), cusparse_algo_ms: vec![Some(0.2), None, Some(0.5)], note: "backward error 1e3 >= 30".into(), ..Default::default() };
        let rows = [single, inter];
        let rep = Report { routine: "gtsv_spike", description: "d", meta: &meta, roofline: &roof, tolerance: 30.0, failures: 1, batch: None, rows: &rows };
        let md = markdown_gtsv(&rep);
        assert!(md.contains("| single | diag | dominant | s | 1048576 | 1 | 0.0200 | 1049 | 35% | gtsv2 | 0.1000 | 210 | 5.00 | 9.000 | 2.3 | 450 | 0.50 | 0.70 | ok |"), "{md}");
        assert!(md.contains("| dominant | d | 64 | 104858 | 0.2000 | — | 0.5000 | gtsvInterleavedBatch Thomas |"), "{md}");
        assert!(md.contains("- FAIL interleaved nopivot dominant d n = 64: backward error 1e3 >= 30"), "{md}");
        assert!(md.contains("cuSPARSE 12.6.3") && md.contains("at least 256 MiB"), "{md}");
        let json = serde_json::to_string(&rep).unwrap();
        assert!(json.contains("\"cusparse_algo_ms\":[0.2,null,0.5]") && json.contains("\"cusparse\":\"12.6.3\""), "{json}");
        svg_gtsv(&file, &rep).unwrap();
        let svg = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(!svg.contains("gtsv2StridedBatch") && svg.contains("gtsvInterleavedBatch, fastest algorithm") && svg.contains("s diag: numgpu"));
    }
}
