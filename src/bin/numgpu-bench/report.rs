//! What a run leaves behind: the markdown table (stdout and a .md file), the JSON record and
//! the SVG plot, named after the routine, the device and the date. gemm's rows, getrf's
//! (`getrf_fullpivot`), geqrf's (`geqrf_givens`), gtsv's (`gtsv_spike`) and rkc's each have
//! their table and method notes; the page's head and the plot are shared (rkc's plot, of
//! rates rather than bandwidth, is its own). spmv's rows are matrices, not sizes: its table
//! adds the geometric means over the suite, its plot a panel per precision with a line per
//! matrix.

use crate::gemm::Row;
use crate::geqrf::Row as GeqrfRow;
use crate::getrf::Row as GetrfRow;
use crate::gtsv::{Form, Named, Row as GtsvRow};
use crate::rkc::Row as RkcRow;
use crate::roofline::Roofline;
use crate::spmv::{Measure, Row as SpmvRow, Summary};
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
    legend(&mut chart, file)
}

/// The legend of a chart of `file`: upper left, over translucent white.
fn legend<'a>(chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>, file: &Path) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| format!("plotting {}: {e}", file.display()))
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

/// spmv's JSON record: the report and the geometric means over the suite.
#[derive(Serialize)]
pub struct SpmvJson<'a> {
    #[serde(flatten)]
    pub report: &'a Report<'a, SpmvRow>,
    pub summary: &'a [Summary],
}

/// A ratio with two decimals, "—" where missing.
fn times(v: Option<f64>) -> String {
    opt(v, |x| format!("{x:.2}"))
}

/// spmv's table, one row per matrix and precision.
pub fn table_spmv(rows: &[SpmvRow]) -> String {
    let mut s = String::new();
    s.push_str("| matrix | prec | m | nnz | mean row | csrmv ms | csrmv GB/s | % roof | cmrsmv GB/s | % roof | M | padding | cuSPARSE default GB/s | cuSPARSE ALG2 GB/s | csrmv ×default | csrmv ×ALG2 | cmrsmv ×default | cmrsmv ×ALG2 | error csrmv | error cmrsmv | ok |\n");
    s.push_str("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    let gbs = |m: &Measure| opt(m.gbs, |x| format!("{x:.0}"));
    let pct = |m: &Measure| opt(m.roof_pct, |x| format!("{x:.0}%"));
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.matrix,
            r.precision,
            r.m,
            r.nnz,
            r.mean_row,
            opt(r.csrmv.ms, ms),
            gbs(&r.csrmv),
            pct(&r.csrmv),
            gbs(&r.cmrsmv),
            pct(&r.cmrsmv),
            r.cmrs_lanes.map_or("—".into(), |l| l.to_string()),
            opt(r.cmrs_padding, |x| format!("{x:.2}")),
            gbs(&r.cusparse_default),
            gbs(&r.cusparse_alg2),
            times(r.csrmv_x_default),
            times(r.csrmv_x_alg2),
            times(r.cmrsmv_x_default),
            times(r.cmrsmv_x_alg2),
            opt(r.csrmv.error, |x| format!("{x:.2}")),
            opt(r.cmrsmv.error, |x| format!("{x:.2}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    notes(&mut s, rows.iter().map(|r| (r.ok, format!("{} {}", r.matrix, r.precision), r.note.as_str())));
    s
}

/// The geometric means over the suite, a line per precision, with the spec's targets.
pub fn table_spmv_summary(summary: &[Summary]) -> String {
    let mut s = String::new();
    s.push_str("Geometric means of t_cuSPARSE / t_numgpu over the suite's generated matrices (rows that passed; best: the faster cuSPARSE algorithm of each matrix). Spec targets on the H100: csrmv ≥ 1.15× cuSPARSE and ≥ 75% of the roofline on stencils; cmrsmv ≥ 1.3× cuSPARSE on mean row lengths 4–30.\n\n");
    s.push_str("| prec | matrices | csrmv ×default | csrmv ×ALG2 | csrmv ×best | cmrsmv ×default | cmrsmv ×ALG2 | cmrsmv ×best | mean row 4–30: matrices | cmrsmv ×best | csrmv % roof on stencils, lowest |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for m in summary {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            m.precision,
            m.matrices,
            times(m.csrmv_x_default),
            times(m.csrmv_x_alg2),
            times(m.csrmv_x_best),
            times(m.cmrsmv_x_default),
            times(m.cmrsmv_x_alg2),
            times(m.cmrsmv_x_best),
            m.short_matrices,
            times(m.cmrsmv_x_best_short),
            opt(m.csrmv_stencil_roof_pct_min, |x| format!("{x:.0}%")),
        );
    }
    s
}

/// spmv's markdown page.
pub fn markdown_spmv(rep: &Report<SpmvRow>, summary: &[Summary]) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: y = 1·A·x + 0·y (y written, not read), 0-based CSR with 32-bit indices in device memory, x random in [-1, 1); the suite generated by `numgpu::spmv::suite` with `benchmark_suite`'s seeds, then the Matrix Market files of shared/matrices (symmetric ones expanded); every method on the same CSR arrays, x and y, on one stream; `cmrsmv` on the CMRS matrix `cmrs_create` builds from those device arrays (height 16, M chosen; its host-clock time in the JSON, `cmrs_create_ms`); cuSPARSE `cusparseSpMV` with its own descriptors and `bufferSize` workspace per algorithm, `cusparseSpMV_preprocess`d before it is timed, compute type the value type; inputs rotated among `sets` copies when one fits in 3× L2; {} warm-up calls, then the median of {} calls, each between CUDA events{}",
        m.warmup,
        m.reps,
        if m.quick { "; --quick run (smaller matrices)" } else { "" }
    );
    s.push_str("- bytes of one product, as the spec counts them, for every method alike: nnz·(elem + 4) (values and column indices once) + (m + 1)·4 (row pointers) + n·elem (x once) + m·elem (y written); CMRS's padding is not counted; % roof = GB/s / the copy bandwidth; ×default and ×ALG2 = t_cuSPARSE / t_numgpu (> 1: numgpu faster), `CUSPARSE_SPMV_ALG_DEFAULT` (CSR_ALG1 for CSR) and `CUSPARSE_SPMV_CSR_ALG2`; M and padding: the CMRS matrix's M and (stored − nnz) / nnz\n");
    s.push_str("- checks before timing, on y poisoned with NaN: error = max_i |y_i − y_ref,i| / ((len_i + 4)·ε·(|A|·|x|)_i) ≤ 1, y_ref computed on the host from the same A and x as accurately as in twice double precision (Dot2); numgpu's products bitwise equal on a second call; bad structure reported by the handle's synchronisation (none expected); a row also fails when a call fails or when a cuSPARSE result fails the same check (a check of the bench)\n");
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table_spmv_summary(summary));
    s.push('\n');
    s.push_str(&table_spmv(rep.rows));
    s
}

/// spmv's plot: a panel per precision, a line per matrix (in the table's order, top to
/// bottom), each method's GB/s a mark on it, the copy bandwidth a vertical line.
pub fn svg_spmv(file: &Path, rep: &Report<SpmvRow>) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", file.display());
    let (mut precisions, mut names): (Vec<char>, Vec<&str>) = (Vec::new(), Vec::new());
    for r in rep.rows {
        if !precisions.contains(&r.precision) {
            precisions.push(r.precision);
        }
        if !names.contains(&r.matrix.as_str()) {
            names.push(&r.matrix);
        }
    }
    let (k, panels) = (names.len().max(1), precisions.len().max(1));
    let root = SVGBackend::new(file, (1100, (140 + 24 * k * panels) as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let bw = rep.roofline.bandwidth_gbs;
    // The first matrix on top.
    let y_of = |name: &str| (k - 1 - names.iter().position(|n| *n == name).unwrap_or(0)) as f64;
    type Get = fn(&SpmvRow) -> Option<f64>;
    let methods: [(&str, Get, RGBColor); 4] = [
        ("numgpu csrmv", |r| r.csrmv.gbs, COLORS[0]),
        ("numgpu cmrsmv", |r| r.cmrsmv.gbs, COLORS[1]),
        ("cuSPARSE SpMV default", |r| r.cusparse_default.gbs, COLORS[2]),
        ("cuSPARSE SpMV CSR_ALG2", |r| r.cusparse_alg2.gbs, COLORS[3]),
    ];
    for (p, area) in precisions.iter().zip(root.split_evenly((panels, 1))) {
        let rows: Vec<&SpmvRow> = rep.rows.iter().filter(|r| r.precision == *p).collect();
        let xmax = rows.iter().flat_map(|r| methods.iter().map(|m| (m.1)(r))).flatten().fold(bw, f64::max) * 1.05;
        let title = format!("numgpu spmv ({p}) vs cuSPARSE SpMV: {} ({})", rep.meta.device, rep.meta.date);
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(170)
            .build_cartesian_2d(0.0..xmax, -0.5..(k as f64 - 0.5))
            .map_err(|e| err(&e))?;
        let yfmt = |y: &f64| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && (0.0..k as f64).contains(&i) {
                names[k - 1 - i as usize].to_string()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc("GB/s, (nnz·(elem + 4) + (m + 1)·4 + (n + m)·elem) / time")
            .y_labels(k + 1)
            .y_label_formatter(&yfmt)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(|e| err(&e))?;
        let black = BLACK.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new([(bw, -0.5), (bw, k as f64 - 0.5)], 10, 6, black))
            .map_err(|e| err(&e))?
            .label(format!("copy bandwidth {bw:.0} GB/s"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], black));
        // Method i's mark at c: numgpu's filled, cuSPARSE's hollow (a macro: the chart's
        // coordinates and the legend's pixels are different types).
        macro_rules! mark {
            ($i:expr, $c:expr, $color:expr) => {
                match $i {
                    0 => Circle::new($c, 5, $color.filled()).into_dyn(),
                    1 => TriangleMarker::new($c, 6, $color.filled()).into_dyn(),
                    2 => Circle::new($c, 5, $color.stroke_width(2)).into_dyn(),
                    _ => Cross::new($c, 5, $color.stroke_width(2)).into_dyn(),
                }
            };
        }
        for (i, &(label, get, color)) in methods.iter().enumerate() {
            let pts: Vec<(f64, f64)> = rows.iter().filter_map(|r| get(r).map(|g| (g, y_of(&r.matrix)))).collect();
            chart.draw_series(pts.into_iter().map(|c| mark!(i, c, color))).map_err(|e| err(&e))?.label(label).legend(move |(x, y)| mark!(i, (x + 12, y), color));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// rkc's table: one row per problem and system count.
pub fn table_rkc(rows: &[RkcRow]) -> String {
    let mut s = String::new();
    s.push_str("| problem | neq | systems | ours ms | systems/s | RHS evals/s | RHS/system | CPU all: systems | ms | systems/s | ×CPU all | CPU 1 core: systems | ms | systems/s | ×CPU 1 core | Δ vs CPU (tol) | ok |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    let e = |x: f64| format!("{x:.2e}");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.problem,
            r.neq,
            r.nsys,
            opt(r.ours_ms, ms),
            opt(r.ours_sys_per_s, e),
            opt(r.ours_rhs_per_s, e),
            opt(r.rhs_per_system, |x| format!("{x:.0}")),
            r.cpu_all_nsys,
            opt(r.cpu_all_ms, ms),
            opt(r.cpu_all_sys_per_s, e),
            opt(r.ratio_all, |x| format!("{x:.1}")),
            r.cpu_one_nsys,
            opt(r.cpu_one_ms, ms),
            opt(r.cpu_one_sys_per_s, e),
            opt(r.ratio_one, |x| format!("{x:.0}")),
            opt(r.err_cpu, |x| format!("{x:.2}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    for r in rows.iter().filter(|r| !r.note.is_empty()) {
        let _ = writeln!(s, "- {}{} {} systems: {}", if r.ok { "" } else { "FAIL " }, r.problem, r.nsys, r.note);
    }
    s
}

/// rkc's page: the method, then the table.
pub fn markdown_rkc(rep: &Report<RkcRow>) -> String {
    let m = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: double precision, RKC (rkc.f) with the problem's spectral-radius bound, t in [0, 1], rtol = atol = 1e-6, one GPU thread per system, device arrays (system-major); Y restored from a pristine copy before each call (untimed); two checked calls (every status 0, bitwise equal), then the median of up to {} calls between CUDA events (fewer where one call is slow: the `reps` column of the JSON); the CPU backend in the same run on the first min(systems, cap) systems of the same inputs, host clock, on all {} host threads (rayon) and on one core (a one-thread pool){}",
        m.reps,
        m.host_threads,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- rates: systems/s and RHS evaluations/s; ×CPU = our systems/s over the CPU's (the CPU peers may integrate fewer systems than the row: their system counts are in the table); Δ vs CPU = max over the systems both integrated of ‖y − y_cpu‖∞ / (atol + rtol·‖y_cpu‖∞), which must stay below 100 (the backends round differently, so their step sequences may part)\n");
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table_rkc(rep.rows));
    s
}

/// rkc's plot: systems (log10) against systems/s (log10), numgpu and the two CPU peers per
/// problem.
pub fn svg_rkc(file: &Path, rep: &Report<RkcRow>) -> Result<(), String> {
    let root = SVGBackend::new(file, (1100, 680)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", file.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let lg = |x: f64| x.log10();
    let pts: Vec<(f64, f64)> = rep.rows.iter().flat_map(|r| [r.ours_sys_per_s, r.cpu_all_sys_per_s, r.cpu_one_sys_per_s].into_iter().flatten().map(move |y| (lg(r.nsys as f64), lg(y)))).collect();
    let (x0, x1) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (x0, x1, y0, y1) = if pts.is_empty() { (3.0, 6.0, 0.0, 6.0) } else { (x0 - 0.2, x1 + 0.2, y0 - 0.5, y1 + 1.0) };
    let title = format!("numgpu rkc_integrate vs the CPU backend: {} ({})", rep.meta.device, rep.meta.date);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    let pow = |v: &f64| format!("1e{v:.1}");
    chart
        .configure_mesh()
        .x_desc("systems per call (log10)")
        .y_desc("systems/s (log10)")
        .x_label_formatter(&pow)
        .y_label_formatter(&pow)
        .draw()
        .map_err(|e| err(&e))?;
    let mut problems: Vec<&str> = Vec::new();
    for r in rep.rows {
        if !problems.contains(&r.problem) {
            problems.push(r.problem);
        }
    }
    for (i, p) in problems.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let rows: Vec<&RkcRow> = rep.rows.iter().filter(|r| r.problem == *p).collect();
        let line = |f: fn(&RkcRow) -> Option<f64>| -> Vec<(f64, f64)> { rows.iter().filter_map(|r| f(r).map(|y| (lg(r.nsys as f64), lg(y)))).collect() };
        for (what, pts, width, dash) in [
            ("numgpu", line(|r| r.ours_sys_per_s), 2, false),
            ("CPU all cores", line(|r| r.cpu_all_sys_per_s), 1, true),
            ("CPU one core", line(|r| r.cpu_one_sys_per_s), 1, false),
        ] {
            let style = color.stroke_width(width);
            let label = format!("{p}: {what}");
            let drawn = if dash { chart.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style)) } else { chart.draw_series(LineSeries::new(pts.clone(), style)) };
            drawn.map_err(|e| err(&e))?.label(label).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            chart.draw_series(pts.iter().map(|&q| Circle::new(q, 3, style))).map_err(|e| err(&e))?;
        }
    }
    legend(&mut chart, file)?;
    root.present().map_err(|e| err(&e))
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

        // rkc's page, table and plot.
        let ok = RkcRow { problem: "bruss32", precision: 'd', neq: 32, nsys: 100_000, reps: 20, ours_ms: Some(50.0), ours_sys_per_s: Some(2e6), ours_rhs_per_s: Some(5.5e8), rhs_per_system: Some(275.0), cpu_all_nsys: 100_000, cpu_all_ms: Some(1000.0), cpu_all_sys_per_s: Some(1e5), ratio_all: Some(20.0), cpu_one_nsys: 10_000, cpu_one_ms: Some(1000.0), cpu_one_sys_per_s: Some(1e4), ratio_one: Some(200.0), err_cpu: Some(0.5), status_nonzero: Some(0), reproducible: Some(true), ok: true, note: "CPU peers on 100000 (all cores) and 10000 (one core) of the systems, rates compared".into() };
        let bad = RkcRow { problem: "user64", precision: 'd', neq: 64, nsys: 1000, note: "3 systems with status ≠ 0".into(), ..Default::default() };
        let rows = [ok, bad];
        let rep = Report { routine: "rkc", description: "d", meta: &meta, roofline: &roof, tolerance: 100.0, failures: 1, batch: None, rows: &rows };
        let md = markdown_rkc(&rep);
        assert!(md.contains("| bruss32 | 32 | 100000 | 50.000 | 2.00e6 | 5.50e8 | 275 | 100000 | 1000.0 | 1.00e5 | 20.0 | 10000 | 1000.0 | 1.00e4 | 200 | 0.50 | ok |"), "{md}");
        assert!(md.contains("- FAIL user64 1000 systems: 3 systems with status ≠ 0") && md.contains("on all 16 host threads"), "{md}");
        svg_rkc(&file, &rep).unwrap();
        let svg = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(svg.contains("bruss32: CPU one core") && svg.contains("systems/s"));

        // spmv's page, tables, JSON with the summary, and plot (a panel per precision).
        let m = |ms: f64, gbs: f64| Measure { ms: Some(ms), gbs: Some(gbs), roof_pct: Some(gbs / 30.0), error: Some(0.25) };
        let ok = SpmvRow { matrix: "stencil3d-7pt".into(), source: "suite", precision: 's', m: 4_096_000, nnz: 28_518_400, mean_row: 6.96, csrmv: m(0.1, 2400.0), cmrsmv: m(0.09, 2650.0), cusparse_default: m(0.12, 2000.0), cusparse_alg2: m(0.15, 1600.0), csrmv_x_default: Some(1.2), csrmv_x_alg2: Some(1.5), cmrsmv_x_default: Some(1.33), cmrsmv_x_alg2: Some(1.67), cmrs_lanes: Some(4), cmrs_padding: Some(0.07), reproducible: Some(true), ok: true, ..Default::default() };
        let bad = SpmvRow { matrix: "nos4".into(), source: "shared", precision: 'd', note: "csrmv: error ratio 3e0 > 1".into(), ..Default::default() };
        let rows = [ok, bad];
        let summary = crate::spmv::summarise(&rows);
        let rep = Report { routine: "spmv", description: "d", meta: &meta, roofline: &roof, tolerance: 1.0, failures: 1, batch: None, rows: &rows };
        let md = markdown_spmv(&rep, &summary);
        assert!(md.contains("| stencil3d-7pt | s | 4096000 | 28518400 | 7.0 | 0.1000 | 2400 | 80% | 2650 | 88% | 4 | 0.07 | 2000 | 1600 | 1.20 | 1.50 | 1.33 | 1.67 | 0.25 | 0.25 | ok |"), "{md}");
        assert!(md.contains("| s | 1 | 1.20 | 1.50 | 1.20 | 1.33 | 1.67 | 1.33 | 1 | 1.33 | 80% |"), "{md}");
        assert!(md.contains("| d | 0 | — |") && md.contains("- FAIL nos4 d: csrmv: error ratio 3e0 > 1"), "{md}");
        let json = serde_json::to_string(&SpmvJson { report: &rep, summary: &summary }).unwrap();
        assert!(json.contains("\"routine\":\"spmv\"") && json.contains("\"summary\":[{\"precision\":\"s\",\"matrices\":1,") && json.contains("\"cusparse_alg2\":{\"ms\":0.15"), "{json}");
        svg_spmv(&file, &rep).unwrap();
        let svg = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(svg.contains("numgpu spmv (s)") && svg.contains("numgpu spmv (d)") && svg.contains("cuSPARSE SpMV CSR_ALG2") && svg.contains("stencil3d-7pt"), "{svg}");
    }
}
