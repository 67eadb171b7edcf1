//! What a run leaves behind, the same for every routine: the markdown page (on stdout and in
//! a .md file), the JSON record and the SVG plot, `<out>/<report>-<device>-<date>.{md,json,svg}`.
//! A routine gives its rows ([`Row`]: values by name), its columns, its method notes and its
//! plot's panels ([`Panel`]); the page's head, the table, the notes under it, the JSON and
//! the drawing are done here.

use crate::bench::Bench;
use crate::gpu::Res;
use crate::roofline::Roofline;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The run's circumstances, printed above the table and stored in the JSON.
#[derive(Clone, Debug, Default, Serialize)]
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
    pub reps: usize,
    pub warmup: usize,
    pub quick: bool,
    /// Toolkit libraries the bench loaded by path because the loader path lacked them.
    pub preloaded: Vec<String>,
}

/// Today's date (UTC) as YYYY-MM-DD.
pub fn today() -> String {
    time::OffsetDateTime::now_utc().date().to_string()
}

/// One row of a table, whatever the routine: its values by name (the JSON record's keys, in
/// the order set; `a.b` is b inside the object a), what names it in the notes, and why it
/// failed or what its reader should know besides.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub label: String,
    values: Map<String, Value>,
    why: Vec<String>,
    fyi: Vec<String>,
}

impl Row {
    pub fn new(label: impl Into<String>) -> Row {
        Row { label: label.into(), ..Row::default() }
    }

    /// Sets `key` (in place where it is set already).
    pub fn set(&mut self, key: &str, v: impl Into<Value>) {
        let (mut map, mut parts) = (&mut self.values, key.split('.').peekable());
        while let Some(p) = parts.next() {
            if parts.peek().is_none() {
                map.insert(p.into(), v.into());
                return;
            }
            map = map.entry(p).or_insert_with(|| Value::Object(Map::new())).as_object_mut().expect("a row's key names an object or a value");
        }
    }

    /// The value at `key` (a number indexes an array).
    pub fn value(&self, key: &str) -> Option<&Value> {
        let mut parts = key.split('.');
        let first = self.values.get(parts.next()?)?;
        parts.try_fold(first, |v, p| p.parse::<usize>().map_or_else(|_| v.get(p), |i| v.get(i)))
    }

    /// The number at `key`, and the text (or the number written out, empty where missing).
    pub fn num(&self, key: &str) -> Option<f64> {
        self.value(key)?.as_f64()
    }

    pub fn text(&self, key: &str) -> String {
        self.value(key).map_or(String::new(), |v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
    }

    /// Fails the row, saying why (with `check`: unless `pass`).
    pub fn fail(&mut self, why: impl Into<String>) {
        self.why.push(why.into());
    }

    pub fn check(&mut self, pass: bool, why: impl FnOnce() -> String) {
        if !pass {
            self.fail(why());
        }
    }

    /// What does not fail the row, but whoever reads it should know.
    pub fn note(&mut self, fyi: impl Into<String>) {
        self.fyi.push(fyi.into());
    }

    pub fn ok(&self) -> bool {
        self.why.is_empty()
    }

    /// Why it failed, then what to know.
    pub fn notes(&self) -> String {
        self.why.iter().chain(&self.fyi).cloned().collect::<Vec<_>>().join("; ")
    }
}

impl Serialize for Row {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = self.values.clone();
        m.insert("ok".into(), self.ok().into());
        m.insert("note".into(), self.notes().into());
        m.serialize(s)
    }
}

/// How a column shows its values: as they are (text, integers), milliseconds, a rate (no
/// decimal from 100 up), or with `d` decimals, as a percentage, in exponent form.
#[derive(Clone, Copy, Debug)]
pub enum Fmt {
    Text,
    Ms,
    Rate,
    Fix(usize),
    Pct(usize),
    Exp(usize),
}

/// A column of the table: its heading, the row's key, its format.
pub type Col = (&'static str, &'static str, Fmt);

pub fn ms(x: f64) -> String {
    let d = if x >= 100.0 { 1 } else if x >= 1.0 { 3 } else { 4 };
    format!("{x:.d$}")
}

/// One value as its column shows it; "—" where missing.
pub fn cell(v: Option<&Value>, f: Fmt) -> String {
    let Some(v) = v.filter(|v| !v.is_null()) else { return "—".into() };
    let Some(x) = v.as_f64().filter(|_| !matches!(f, Fmt::Text)) else { return v.as_str().map_or_else(|| v.to_string(), str::to_string) };
    match f {
        Fmt::Ms => ms(x),
        Fmt::Rate if x >= 100.0 => format!("{x:.0}"),
        Fmt::Rate => format!("{x:.1}"),
        Fmt::Fix(d) => format!("{x:.d$}"),
        Fmt::Pct(d) => format!("{x:.d$}%"),
        Fmt::Exp(d) => format!("{x:.d$e}"),
        Fmt::Text => v.to_string(),
    }
}

/// The markdown table of `rows` in `cols` (and an ok column), then a line per row with a note.
pub fn table(cols: &[Col], rows: &[Row]) -> String {
    let mut s = String::new();
    let heads: Vec<&str> = cols.iter().map(|c| c.0).collect();
    let align: Vec<&str> = cols.iter().map(|c| if matches!(c.2, Fmt::Text) { "---" } else { "--:" }).collect();
    let _ = writeln!(s, "| {} | ok |\n|{}|---|", heads.join(" | "), align.join("|"));
    for r in rows {
        let cells: Vec<String> = cols.iter().map(|c| cell(r.value(c.1), c.2)).collect();
        let _ = writeln!(s, "| {} | {} |", cells.join(" | "), if r.ok() { "ok" } else { "FAIL" });
    }
    let noted: Vec<&Row> = rows.iter().filter(|r| !r.notes().is_empty()).collect();
    if !noted.is_empty() {
        s.push('\n');
    }
    for r in noted {
        let _ = writeln!(s, "- {} {}: {}", if r.ok() { "note:" } else { "FAIL" }, r.label, r.notes());
    }
    s
}

/// A short file-name tag for a device name: "NVIDIA H100 80GB HBM3" → "H100",
/// "NVIDIA GeForce RTX 4090" → "RTX-4090".
pub fn device_tag(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().filter(|w| !["NVIDIA", "GeForce", "Tesla", "Quadro"].contains(w)).collect();
    // Up to the first word with a digit.
    let end = words.iter().position(|w| w.chars().any(|c| c.is_ascii_digit())).map_or(words.len(), |i| i + 1);
    let tag: String = words[..end].join("-").chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    if tag.is_empty() { "gpu".into() } else { tag }
}

/// `<out>/<report>-<device>-<date>.<ext>`
pub fn path(out: &Path, report: &str, meta: &Meta, ext: &str) -> PathBuf {
    out.join(format!("{report}-{}-{}.{ext}", device_tag(&meta.device), meta.date))
}

/// One routine's record: the JSON's head, what the routine adds (`extra`), then its rows.
#[derive(Serialize)]
struct Record<'a> {
    routine: &'static str,
    description: &'static str,
    meta: &'a Meta,
    roofline: &'a Roofline,
    tolerance: f64,
    failures: usize,
    #[serde(flatten)]
    extra: Map<String, Value>,
    rows: &'a [Row],
}

/// The markdown page: title, description, device, software, roofline, the routine's method
/// notes, the failures, its extra tables, the table of rows and their notes.
pub fn markdown(b: &dyn Bench, meta: &Meta, roof: &Roofline, rows: &[Row]) -> String {
    let (mut s, about) = (String::new(), b.about());
    let failures = rows.iter().filter(|r| !r.ok()).count();
    let _ = writeln!(s, "# numgpu-bench: {} on {} ({})\n\n{}\n", about.report, meta.device, meta.date, about.description);
    let gib = |x: usize, p: i32| x as f64 / 2f64.powi(p);
    let _ = writeln!(s, "- device: {} ({}, {} SMs, L2 {:.0} MiB, {:.1} GiB)", meta.device, meta.arch, meta.sm_count, gib(meta.l2_bytes, 20), gib(meta.memory_bytes, 30));
    let sparse = meta.cusparse.as_ref().map_or(String::new(), |v| format!(", cuSPARSE {v}"));
    let _ = writeln!(s, "- software: numgpu {}, CUDA driver {}, NVRTC {}, cuBLAS {}{sparse}; host: {} threads", meta.numgpu_version, meta.cuda_driver, meta.nvrtc, meta.cublas, meta.host_threads);
    let peaks: Vec<String> = roof.fma_peak_gflops.iter().map(|(p, g)| format!("{p} {:.0}", g.as_f64().unwrap_or(f64::NAN))).collect();
    let _ = writeln!(
        s,
        "- roofline, measured in this run: bandwidth {:.0} GB/s (cuMemcpyDtoD of {:.2} GB, bytes read + written); FMA peak {} GFLOP/s (NVRTC kernel of FMA chains, real flops)",
        roof.bandwidth_gbs,
        roof.copy_bytes as f64 / 1e9,
        peaks.join(", ")
    );
    let quick = if meta.quick { "- a --quick run: fewer sizes, smaller batches, fewer repetitions\n" } else { "" };
    let _ = writeln!(s, "{}{quick}- failures: {failures}\n", b.method(meta));
    s + &b.tables(rows) + &table(about.columns, rows)
}

/// Writes the routine's .json, .md and .svg under `out`, then the markdown on stdout; returns
/// the failed rows.
pub fn write(out: &Path, b: &dyn Bench, meta: &Meta, roof: &Roofline, rows: &[Row]) -> Res<usize> {
    let failures = rows.iter().filter(|r| !r.ok()).count();
    let md = markdown(b, meta, roof, rows);
    let a = b.about();
    let rec = Record { routine: a.report, description: a.description, meta, roofline: roof, tolerance: a.tolerance, failures, extra: b.extra(rows), rows };
    let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
    let files = ["json", "md", "svg"].map(|ext| path(out, a.report, meta, ext));
    // Files first, then stdout: a closed pipe on stdout loses no results.
    std::fs::write(&files[0], json + "\n").map_err(|e| format!("writing {}: {e}", files[0].display()))?;
    std::fs::write(&files[1], &md).map_err(|e| format!("writing {}: {e}", files[1].display()))?;
    plot(&files[2], &b.plot(rows, meta, roof)).map_err(|e| format!("plotting {}: {e}", files[2].display()))?;
    for f in &files {
        crate::note(format!("wrote {}", f.display()));
    }
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{md}");
    Ok(failures)
}

/// How an axis maps its values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Lin,
    Log2,
    Log10,
}

/// How a line is drawn: numgpu's solid with filled marks, a peer's dashed with hollow ones,
/// or marks alone.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Solid,
    Dashed,
    Marks,
}

pub struct Line {
    pub label: String,
    pub color: usize,
    pub style: Style,
    pub pts: Vec<(f64, f64)>,
}

/// One chart of a plot. `names`: a categorical y axis (y = 0, 1, … from the bottom, the
/// names top to bottom); `level`: a reference value drawn across the chart (horizontal, or
/// vertical on a categorical chart), with its label.
pub struct Panel {
    pub title: String,
    pub x: (String, Scale),
    pub y: (String, Scale),
    pub names: Vec<String>,
    pub level: Option<(f64, String)>,
    pub lines: Vec<Line>,
}

/// Lines of `rows` grouped into series by `series(row)` (in order of first appearance, a color
/// each): for each of `what` (the key of y, the label after the series' name, the style), a
/// line of the rows' (x, y) where both are numbers.
pub fn series_lines(rows: &[Row], series: impl Fn(&Row) -> String, x: &str, what: &[(&str, &str, Style)]) -> Vec<Line> {
    let mut names: Vec<String> = Vec::new();
    rows.iter().map(&series).for_each(|s| if !names.contains(&s) { names.push(s) });
    let mut lines = Vec::new();
    for (color, name) in names.iter().enumerate() {
        for &(y, label, style) in what {
            let pts = rows.iter().filter(|r| series(r) == *name).filter_map(|r| Some((r.num(x)?, r.num(y)?))).collect();
            lines.push(Line { label: format!("{name}: {label}"), color, style, pts });
        }
    }
    lines
}

/// The chart of GB/s against n (log2) of numgpu (`ours_gbs`, solid) and a peer (`peer_key`,
/// dashed) per series, with the copy bandwidth across it.
pub fn gbs_panel(title: String, y_desc: &str, rows: &[Row], series: impl Fn(&Row) -> String, peer: (&str, &str), bw: f64) -> Panel {
    let lines = series_lines(rows, series, "n", &[("ours_gbs", "numgpu", Style::Solid), (peer.0, peer.1, Style::Dashed)]);
    Panel { title, x: ("n (square matrices, log2 scale)".into(), Scale::Log2), y: (y_desc.into(), Scale::Lin), names: vec![], level: Some((bw, format!("copy bandwidth {bw:.0} GB/s"))), lines }
}

#[rustfmt::skip]
const COLORS: [RGBColor; 8] = [RGBColor(214, 39, 40), RGBColor(31, 119, 180), RGBColor(44, 160, 44), RGBColor(255, 127, 14), RGBColor(148, 103, 189), RGBColor(140, 86, 75), RGBColor(227, 119, 194), RGBColor(127, 127, 127)];

/// The panels stacked in one SVG file.
pub fn plot(file: &Path, panels: &[Panel]) -> Result<(), Box<dyn std::error::Error>> {
    let h = panels.iter().map(|p| if p.names.is_empty() { 600 } else { 140 + 24 * p.names.len() as u32 }).max().unwrap_or(600);
    let root = SVGBackend::new(file, (1100, h * panels.len().max(1) as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    for (p, area) in panels.iter().zip(root.split_evenly((panels.len().max(1), 1))) {
        chart(&area, p)?;
    }
    root.present()?;
    Ok(())
}

fn chart(area: &DrawingArea<SVGBackend<'_>, Shift>, p: &Panel) -> Result<(), Box<dyn std::error::Error>> {
    let f = |s: Scale, v: f64| match s {
        Scale::Lin => v,
        Scale::Log2 => v.log2(),
        Scale::Log10 => v.log10(),
    };
    let lines: Vec<Vec<(f64, f64)>> = p.lines.iter().map(|l| l.pts.iter().map(|&(x, y)| (f(p.x.1, x), f(p.y.1, y))).filter(|q| q.0.is_finite() && q.1.is_finite()).collect()).collect();
    let all: Vec<(f64, f64)> = lines.iter().flatten().copied().chain(p.level.as_ref().map(|l| if p.names.is_empty() { (f64::NAN, f(p.y.1, l.0)) } else { (l.0, f64::NAN) })).collect();
    let span = |v: Vec<f64>, lo: f64, hi: f64| v.iter().filter(|x| x.is_finite()).fold(None, |r: Option<(f64, f64)>, &x| Some(r.map_or((x, x), |r| (r.0.min(x), r.1.max(x))))).unwrap_or((lo, hi));
    let (x0, x1) = span(all.iter().map(|q| q.0).collect(), 2.0, 8.0);
    let (y0, y1) = span(all.iter().map(|q| q.1).collect(), 0.0, 1.0);
    let pad = |s: Scale, lo: f64, hi: f64| if s == Scale::Lin { (lo - 0.05 * (hi - lo).max(1.0), hi + 0.05 * (hi - lo).max(1.0)) } else { (lo - 0.25, hi + 0.25) };
    let (x0, x1) = if p.names.is_empty() { pad(p.x.1, x0, x1) } else { (0.0, x1 * 1.05) };
    // Room for the legend above the lines.
    let (y0, y1) = match (p.names.len(), p.y.1) {
        (k, _) if k > 0 => (-0.5, k as f64 - 0.5),
        (_, Scale::Lin) => (0.0, y1 * 1.4),
        _ => (y0 - 0.5, y1 + 1.0),
    };
    let mut c = ChartBuilder::on(area).caption(&p.title, ("sans-serif", 20)).margin(16).x_label_area_size(48).y_label_area_size(if p.names.is_empty() { 70 } else { 170 }).build_cartesian_2d(x0..x1, y0..y1)?;
    let label = |s: Scale, v: f64| match s {
        Scale::Lin => format!("{v:.0}"),
        Scale::Log2 if (v - v.round()).abs() < 1e-6 => format!("{}", 2f64.powi(v.round() as i32)),
        Scale::Log2 => String::new(),
        Scale::Log10 => format!("1e{v:.1}"),
    };
    let yname = |v: &f64| if (v - v.round()).abs() < 1e-6 && (0.0..p.names.len() as f64).contains(&v.round()) { p.names[p.names.len() - 1 - v.round() as usize].clone() } else { String::new() };
    let (xfmt, yfmt) = (|v: &f64| label(p.x.1, *v), |v: &f64| label(p.y.1, *v));
    let mut mesh = c.configure_mesh();
    mesh.x_desc(&p.x.0).y_desc(&p.y.0).x_label_formatter(&xfmt);
    if p.names.is_empty() {
        mesh.y_label_formatter(&yfmt).x_labels(if p.x.1 == Scale::Log2 { ((x1 - x0) * 4.0).ceil() as usize + 1 } else { 10 }).draw()?;
    } else {
        mesh.y_labels(p.names.len() + 1).y_label_formatter(&yname).draw()?;
    }
    if let Some((v, text)) = &p.level {
        let (v, black) = (f(if p.names.is_empty() { p.y.1 } else { p.x.1 }, *v), BLACK.stroke_width(2));
        let pts = if p.names.is_empty() { [(x0, v), (x1, v)] } else { [(v, y0), (v, y1)] };
        c.draw_series(DashedLineSeries::new(pts, 10, 6, black))?.label(text).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], black));
    }
    for (l, pts) in p.lines.iter().zip(lines).filter(|(_, pts)| !pts.is_empty()) {
        let color = COLORS[l.color % COLORS.len()];
        let (line, mark) = (color.stroke_width(if l.style == Style::Solid { 2 } else { 1 }), if l.style == Style::Dashed { color.stroke_width(1) } else { color.filled() });
        let drawn = match l.style {
            Style::Solid => c.draw_series(LineSeries::new(pts.clone(), line))?,
            Style::Dashed => c.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, line))?,
            Style::Marks => c.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?,
        };
        drawn.label(&l.label).legend(move |(x, y)| Circle::new((x + 12, y), 4, mark));
        c.draw_series(pts.iter().map(|&q| Circle::new(q, if l.style == Style::Marks { 5 } else { 4 }, mark)))?;
    }
    c.configure_series_labels().position(SeriesLabelPosition::UpperLeft).background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_cells() {
        assert_eq!(device_tag("NVIDIA H100 80GB HBM3"), "H100");
        assert_eq!(device_tag("NVIDIA GeForce RTX 4090"), "RTX-4090");
        assert_eq!(device_tag("NVIDIA A100-SXM4-80GB"), "A100-SXM4-80GB");
        assert_eq!(today().len(), 10);
        let mut r = Row::new("s n = 4");
        r.set("n", 4);
        r.set("csrmv.gbs", 2400.4);
        r.set("t", 0.012345);
        r.set("tol", 1e-6);
        r.set("missing", None::<f64>);
        r.check(true, || unreachable!());
        r.note("fyi");
        let cols: [Col; 6] = [("n", "n", Fmt::Fix(0)), ("GB/s", "csrmv.gbs", Fmt::Fix(0)), ("ms", "t", Fmt::Ms), ("tol", "tol", Fmt::Text), ("x", "missing", Fmt::Exp(1)), ("p", "t", Fmt::Pct(1))];
        let t = table(&cols, std::slice::from_ref(&r));
        assert!(t.starts_with("| n | GB/s | ms | tol | x | p | ok |\n|--:|--:|--:|---|--:|--:|---|\n| 4 | 2400 | 0.0123 | 1e-6 | — | 0.0% | ok |\n\n- note: s n = 4: fyi\n"), "{t}");
        r.fail("bad");
        assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"n":4,"csrmv":{"gbs":2400.4},"t":0.012345,"tol":1e-6,"missing":null,"ok":false,"note":"bad; fyi"}"#);
    }
}
