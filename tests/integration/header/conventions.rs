//! docs/conventions.md against include/numgpu.h (issue 25): every function of the header is
//! checked against every rule of the doc's marked block (`<!-- rules: begin -->` …
//! `<!-- rules: end -->`, one `- **name**: text` line per rule). The rules the test knows and
//! the rules the doc states must be the same set, each rule's line must say what the test
//! checks (its key words), and a violation quotes the doc's line, so the doc and the header
//! cannot drift apart again.

use super::c_header::{parse_header, CType, Func, Header, Param, TypeDef};
use std::collections::BTreeMap;
use std::path::PathBuf;

const DOC: &str = "docs/conventions.md";

/// The doc's rules: name → text.
fn doc_rules() -> BTreeMap<String, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DOC);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {DOC}: {e}"));
    let begin = text.find("<!-- rules: begin").unwrap_or_else(|| panic!("{DOC}: no `<!-- rules: begin` marker"));
    let end = text.find("<!-- rules: end").unwrap_or_else(|| panic!("{DOC}: no `<!-- rules: end` marker"));
    let mut rules = BTreeMap::new();
    for line in text[begin..end].lines().skip(1) {
        let rule = line.strip_prefix("- **").and_then(|l| l.split_once("**: ")).unwrap_or_else(|| panic!("{DOC}: a rule line is `- **name**: text`, not {line:?}"));
        assert!(rules.insert(rule.0.to_string(), rule.1.to_string()).is_none(), "{DOC}: rule {} twice", rule.0);
    }
    rules
}

/// The role of an argument in the order rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    Handle,
    Object,
    Option,
    Size,
    /// A scalar, an array or an array's descriptor (the inputs in their mathematical order).
    Data,
    Output,
    Batch,
}

/// Names of the per-problem outputs.
const OUTPUTS: [&str; 8] = ["info", "sweeps", "iters", "flags", "residual", "objective", "status", "stats"];
/// Enums that describe an array rather than choose what the call does.
const DESCRIPTOR_ENUMS: [&str; 2] = ["numgpu_index_base", "numgpu_ode_layout"];
/// Functions that return something other than a status.
const NOT_STATUS: [&str; 5] = ["numgpu_status_string", "numgpu_backend_name", "numgpu_version", "numgpu_last_error", "numgpu_last_error_arg"];

struct Check<'a> {
    h: &'a Header,
}

impl Check<'_> {
    /// The enum whose typedef `base` is (`typedef int32_t numgpu_op` beside `enum numgpu_op`).
    fn is_enum(&self, base: &str) -> bool {
        self.h.enums.iter().any(|(name, _)| name == base) && matches!(self.h.typedefs.get(base), Some(TypeDef::Alias(t)) if t.base == "int32_t" && t.ptrs.is_empty())
    }
    fn is_opaque(&self, base: &str) -> bool {
        matches!(self.h.typedefs.get(base), Some(TypeDef::Opaque))
    }
    /// The type a by-value base resolves to through typedefs (enums stay themselves).
    fn scalar_kind<'a>(&'a self, t: &'a CType) -> &'a str {
        match self.h.typedefs.get(&t.base) {
            Some(TypeDef::Alias(a)) if a.ptrs.is_empty() && !self.is_enum(&t.base) => &a.base,
            _ => &t.base,
        }
    }
    fn floating(&self, base: &str) -> Option<char> {
        match base {
            "float" => Some('s'),
            "double" => Some('d'),
            "numgpu_complex_float" => Some('c'),
            "numgpu_complex_double" => Some('z'),
            _ => None,
        }
    }

    fn role(&self, p: &Param) -> Role {
        let t = &p.ty;
        if t.base == "numgpu_handle" {
            return Role::Handle;
        }
        if !t.ptrs.is_empty() {
            if t.ptrs.len() == 1 && self.is_opaque(&t.base) {
                return Role::Object;
            }
            return if OUTPUTS.contains(&p.name.as_str()) { Role::Output } else { Role::Data };
        }
        if p.name == "batch" {
            return Role::Batch;
        }
        if self.is_enum(&t.base) && !DESCRIPTOR_ENUMS.contains(&t.base.as_str()) {
            return Role::Option;
        }
        if t.base == "int64_t" && is_size(&p.name) {
            return Role::Size;
        }
        Role::Data
    }
}

/// A size's name: m, n, k, nrhs, nnz, p (the order of sym_apply's result), r (Khatri–Rao's
/// columns), or n and a word (ntensors, nstarts, nsys, ...).
fn is_size(name: &str) -> bool {
    matches!(name, "m" | "n" | "k" | "nrhs" | "nnz" | "p" | "r") || (name.len() > 2 && name.starts_with('n') && name.chars().all(|c| c.is_ascii_lowercase()))
}

fn is_descriptor(name: &str) -> bool {
    name.starts_with("ld") || name.starts_with("stride")
}

/// One rule: its name in the doc, words its doc line must contain, and the check of one
/// function (None when it holds, else what is wrong).
struct Rule {
    name: &'static str,
    says: &'static [&'static str],
    check: fn(&Check, &Func) -> Option<String>,
}

fn handle(_: &Check, f: &Func) -> Option<String> {
    let at = f.params.iter().position(|p| p.ty.base == "numgpu_handle")?;
    let p = &f.params[at];
    (at != 0 || p.name != "h").then(|| format!("the handle is argument {} ({})", at + 1, p.name))
}

fn order(c: &Check, f: &Func) -> Option<String> {
    let roles: Vec<Role> = f.params.iter().map(|p| c.role(p)).collect();
    // The object the call works on may come right after the handle, or among the data.
    let mut last = Role::Handle;
    for (i, (p, &r)) in f.params.iter().zip(&roles).enumerate() {
        let r = if r == Role::Object && (i > 1 || (i == 1 && roles[0] != Role::Handle)) { Role::Data } else { r };
        if r < last {
            return Some(format!("{} ({:?}) comes after a {:?}", p.name, r, last));
        }
        last = r;
    }
    None
}

fn options(c: &Check, f: &Func) -> Option<String> {
    let first_other = f.params.iter().position(|p| !matches!(c.role(p), Role::Handle | Role::Object | Role::Option)).unwrap_or(f.params.len());
    f.params[first_other..].iter().find(|p| c.role(p) == Role::Option).map(|p| format!("the option {} comes after {}", p.name, f.params[first_other].name))
}

fn sizes(c: &Check, f: &Func) -> Option<String> {
    let first_data = f.params.iter().position(|p| matches!(c.role(p), Role::Data | Role::Output))?;
    f.params[first_data..].iter().find(|p| c.role(p) == Role::Size).map(|p| format!("the size {} comes after {}", p.name, f.params[first_data].name))
}

fn descriptors(c: &Check, f: &Func) -> Option<String> {
    for (i, p) in f.params.iter().enumerate() {
        let by_value = p.ty.ptrs.is_empty();
        let enum_descriptor = by_value && DESCRIPTOR_ENUMS.contains(&p.ty.base.as_str());
        if !(by_value && (is_descriptor(&p.name) || enum_descriptor)) {
            continue;
        }
        if !enum_descriptor && p.ty.base != "int64_t" {
            return Some(format!("the descriptor {} is {}, not int64_t", p.name, p.ty.base));
        }
        let Some(prev) = i.checked_sub(1).map(|j| &f.params[j]) else { return Some(format!("the descriptor {} comes first", p.name)) };
        let follows_array = !prev.ty.ptrs.is_empty() && !c.is_opaque(&prev.ty.base);
        let follows_descriptor = prev.ty.ptrs.is_empty() && (is_descriptor(&prev.name) || DESCRIPTOR_ENUMS.contains(&prev.ty.base.as_str()));
        if !(follows_array || follows_descriptor) {
            return Some(format!("the descriptor {} follows {}, not an array or another descriptor", p.name, prev.name));
        }
        if p.ty.base == "numgpu_index_base" && !(prev.ty.base == "int32_t" && prev.ty.ptrs.len() == 1) {
            return Some(format!("index_base follows {}, not an index array", prev.name));
        }
    }
    None
}

fn outputs(c: &Check, f: &Func) -> Option<String> {
    let first = f.params.iter().position(|p| c.role(p) == Role::Output)?;
    f.params[first..].iter().find(|p| !matches!(c.role(p), Role::Output | Role::Batch)).map(|p| format!("{} comes after the output {}", p.name, f.params[first].name))
}

fn batch(_: &Check, f: &Func) -> Option<String> {
    let at = f.params.iter().position(|p| p.name == "batch");
    let batched = f.name.contains("_batched");
    match at {
        Some(i) if i + 1 != f.params.len() => Some("batch is not the last argument".into()),
        Some(i) if f.params[i].ty.base != "int64_t" || !f.params[i].ty.ptrs.is_empty() => Some("batch is not an int64_t".into()),
        Some(_) if !batched => Some("a batch argument, but no _batched in the name".into()),
        None if batched => Some("_batched in the name, but no batch argument".into()),
        _ => None,
    }
}

fn integers(c: &Check, f: &Func) -> Option<String> {
    for p in f.params.iter().filter(|p| p.ty.ptrs.is_empty()) {
        let kind = c.scalar_kind(&p.ty);
        let ok = match kind {
            "int64_t" => true,
            "size_t" => matches!(p.name.as_str(), "bytes" | "len"),
            "uint64_t" => p.name == "seed",
            "int32_t" | "int" | "long" | "short" | "unsigned" | "uint32_t" | "int16_t" | "uint16_t" | "int8_t" | "uint8_t" | "char" => false,
            _ => true,
        };
        if !ok && !c.is_enum(&p.ty.base) {
            return Some(format!("{} is {} by value", p.name, p.ty.base));
        }
    }
    None
}

fn enums(c: &Check, f: &Func) -> Option<String> {
    f.params
        .iter()
        .find(|p| p.ty.ptrs.is_empty() && c.h.typedefs.get(&p.ty.base).is_some_and(|t| matches!(t, TypeDef::Alias(a) if a.base == "int32_t")) && !c.is_enum(&p.ty.base))
        .map(|p| format!("{} is a {} without an enum of that name", p.name, p.ty.base))
}

fn int32_arrays(_: &Check, f: &Func) -> Option<String> {
    f.params
        .iter()
        .find(|p| matches!(p.name.as_str(), "ipiv" | "jpiv" | "info" | "flags" | "iters" | "sweeps" | "status") && !(p.ty.ptrs.len() == 1 && p.ty.base == "int32_t"))
        .map(|p| format!("{} is not an int32_t array", p.name))
}

fn names(c: &Check, f: &Func) -> Option<String> {
    let Some(rest) = f.name.strip_prefix("numgpu_") else { return Some("no numgpu_ prefix".into()) };
    if !rest.split('_').all(|w| !w.is_empty() && w.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit())) {
        return Some("not lowercase words joined by _".into());
    }
    if let Some((_, after)) = rest.split_once("_batched") {
        if !matches!(after, "" | "_strided" | "_interleaved") {
            return Some(format!("`{after}` after _batched"));
        }
    }
    if rest.contains("_strided") && !rest.ends_with("_batched_strided") {
        return Some("_strided not right after _batched".into());
    }
    // The precision letter, where the routine comes in several precisions.
    let (letter, routine) = rest.split_at(1);
    let letter = letter.chars().next().unwrap();
    let siblings = c.h.functions.iter().filter(|g| "sdcz".chars().any(|l| g.name == format!("numgpu_{l}{routine}"))).count();
    if "sdcz".contains(letter) && siblings > 1 {
        let first = f.params.iter().find_map(|p| c.floating(c.scalar_kind(&p.ty)));
        if first.is_some_and(|t| t != letter) {
            return Some(format!("precision letter {letter}, but the first floating-point argument is of precision {}", first.unwrap()));
        }
    }
    None
}

fn status(_: &Check, f: &Func) -> Option<String> {
    let returns_status = f.ret.ptrs.is_empty() && f.ret.base == "numgpu_status";
    (returns_status == NOT_STATUS.contains(&f.name.as_str())).then(|| format!("returns {}{}", f.ret.base, "*".repeat(f.ret.ptrs.len())))
}

const RULES: [Rule; 12] = [
    Rule { name: "handle", says: &["numgpu_handle *h", "first"], check: handle },
    Rule { name: "order", says: &["handle", "options", "sizes", "outputs", "batch count last"], check: order },
    Rule { name: "options", says: &["enum", "right after the handle"], check: options },
    Rule { name: "sizes", says: &["int64_t", "nrhs", "nnz", "before every array"], check: sizes },
    Rule { name: "descriptors", says: &["ld...", "stride...", "numgpu_index_base", "numgpu_ode_layout"], check: descriptors },
    Rule { name: "outputs", says: &["info", "after every input"], check: outputs },
    Rule { name: "batch", says: &["_batched", "int64_t batch", "last"], check: batch },
    Rule { name: "integers", says: &["int64_t", "size_t", "uint64_t", "int32_t"], check: integers },
    Rule { name: "enums", says: &["typedef", "numgpu_op trans", "int32_t"], check: enums },
    Rule { name: "int32-arrays", says: &["ipiv", "info", "int32_t"], check: int32_arrays },
    Rule { name: "names", says: &["numgpu_<p><routine>[_<variant>]_batched[_strided]", "_interleaved", "first floating-point argument"], check: names },
    Rule { name: "status", says: &["numgpu_status", "numgpu_status_string", "numgpu_backend_name", "numgpu_version", "numgpu_last_error", "numgpu_last_error_arg"], check: status },
];

/// The doc states exactly the rules this test checks, each in words that say what it checks.
#[test]
fn conventions_doc_states_the_rules_checked() {
    let doc = doc_rules();
    let checked: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    let stated: Vec<&str> = doc.keys().map(String::as_str).collect();
    let mut sorted = checked.clone();
    sorted.sort();
    assert_eq!(stated, sorted, "{DOC}'s rules and the rules tests/integration/header/conventions.rs checks differ");
    for r in &RULES {
        let text = &doc[r.name];
        for word in r.says {
            assert!(text.contains(word), "{DOC}: the rule `{}` must say `{word}` (what the test checks): {text}", r.name);
        }
    }
}

/// Every function of the header keeps every rule.
#[test]
fn every_entry_point_keeps_the_conventions() {
    let doc = doc_rules();
    let h = parse_header(super::generate());
    let c = Check { h: &h };
    assert!(h.functions.len() > 100, "the header reader found {} functions", h.functions.len());
    let mut broken = Vec::new();
    for f in &h.functions {
        for r in &RULES {
            if let Some(what) = (r.check)(&c, f) {
                broken.push(format!("{}: {what}\n    rule `{}`: {}", f.name, r.name, doc.get(r.name).map_or("(not in the doc)", String::as_str)));
            }
        }
    }
    assert!(broken.is_empty(), "{} violation(s) of {DOC}:\n{}", broken.len(), broken.join("\n"));
}

/// The checks catch what they are for: signatures that break each rule, as the header writes
/// them.
#[test]
fn each_rule_catches_its_violation() {
    let header = "enum numgpu_op { NUMGPU_OP_N = 0 };\ntypedef int32_t numgpu_op;\n\
                  enum numgpu_index_base { NUMGPU_INDEX_BASE_ZERO = 0 };\ntypedef int32_t numgpu_index_base;\n\
                  typedef int32_t numgpu_status;\ntypedef int32_t numgpu_mode;\ntypedef struct numgpu_handle numgpu_handle;\n\
                  typedef struct { float re; float im; } numgpu_complex_float;\n\
                  numgpu_status numgpu_sgood_batched(numgpu_handle *h, numgpu_op trans, int64_t n, float alpha, const float *A, int64_t lda, int32_t *info, int64_t batch);\n\
                  numgpu_status numgpu_dgood_batched(numgpu_handle *h, numgpu_op trans, int64_t n, double alpha, const double *A, int64_t lda, int32_t *info, int64_t batch);\n\
                  numgpu_status numgpu_sbad_handle(int64_t n, numgpu_handle *h);\n\
                  numgpu_status numgpu_sbad_option(numgpu_handle *h, int64_t n, numgpu_op trans);\n\
                  numgpu_status numgpu_sbad_size(numgpu_handle *h, const float *A, int64_t n);\n\
                  numgpu_status numgpu_sbad_descriptor(numgpu_handle *h, int64_t n, float alpha, int64_t lda);\n\
                  numgpu_status numgpu_sbad_base(numgpu_handle *h, int64_t n, const float *v, numgpu_index_base index_base);\n\
                  numgpu_status numgpu_sbad_output_batched(numgpu_handle *h, int64_t n, int32_t *info, const float *A, int64_t batch);\n\
                  numgpu_status numgpu_sbad_batch_batched(numgpu_handle *h, int64_t batch, int64_t n);\n\
                  numgpu_status numgpu_sbad_int(numgpu_handle *h, int32_t n);\n\
                  numgpu_status numgpu_sbad_enum(numgpu_handle *h, numgpu_mode mode);\n\
                  numgpu_status numgpu_sbad_info(numgpu_handle *h, int64_t n, int64_t *info);\n\
                  numgpu_status numgpu_sbad_batched_late(numgpu_handle *h, int64_t n, int64_t batch);\n\
                  numgpu_status numgpu_dbad_late_batched(numgpu_handle *h, int64_t n, const float *A, int64_t batch);\n\
                  numgpu_status numgpu_sbad_late_batched(numgpu_handle *h, int64_t n, const float *A, int64_t batch);\n\
                  int64_t numgpu_sbad_status(numgpu_handle *h);\n";
    let h = parse_header(header);
    let c = Check { h: &h };
    let broken = |name: &str| -> Vec<&'static str> {
        let f = h.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("{name} not parsed"));
        RULES.iter().filter(|r| (r.check)(&c, f).is_some()).map(|r| r.name).collect()
    };
    assert!(broken("numgpu_sgood_batched").is_empty() && broken("numgpu_dgood_batched").is_empty(), "{:?}", broken("numgpu_sgood_batched"));
    for (name, rule) in [
        ("numgpu_sbad_handle", "handle"),
        ("numgpu_sbad_option", "options"),
        ("numgpu_sbad_size", "sizes"),
        ("numgpu_sbad_descriptor", "descriptors"),
        ("numgpu_sbad_base", "descriptors"),
        ("numgpu_sbad_output_batched", "outputs"),
        ("numgpu_sbad_batch_batched", "batch"),
        ("numgpu_sbad_int", "integers"),
        ("numgpu_sbad_enum", "enums"),
        ("numgpu_sbad_info", "int32-arrays"),
        ("numgpu_sbad_batched_late", "names"),
        ("numgpu_dbad_late_batched", "names"),
        ("numgpu_sbad_status", "status"),
    ] {
        assert!(broken(name).contains(&rule), "{name} breaks `{rule}` unnoticed: {:?}", broken(name));
    }
}
