//! include/numgpu.f90, generated from the C header of the same run and the templates of
//! fortran/ (fortran/README.md describes them). The header gives the constants, the bind(C)
//! derived types, the abstract interfaces of the callbacks and a bind(C) interface for every
//! function; the templates give the module's frame and the generic, assumed-shape wrappers,
//! each written once and stamped here for the precisions it lists.
//!
//! How C crosses into Fortran (exact kinds, as STYLE.md asks):
//! - a scalar by value with its kind: `int32_t` (and the enums, typedefs of it) as
//!   integer(c_int32_t), `int64_t` and `uint64_t` (its 64 bits) as integer(c_int64_t), `size_t`
//!   as integer(c_size_t), a struct `{re, im}` of float/double as complex(c_float_complex /
//!   c_double_complex), a function-pointer typedef as type(c_funptr);
//! - `T **` (the pointee a mutable pointer: a handle, an allocation, an object) as type(c_ptr)
//!   by reference, intent(inout): numgpu writes it on success;
//! - every other pointer as type(c_ptr) by value (an array, or an array of pointers), so host
//!   memory (c_loc) and device memory (numgpu_malloc) go through the same interface; except in
//!   a getter, a function whose pointers are all objects (handles, matrices) or mutable
//!   pointers to one scalar or struct: those are its results, by reference, intent(inout);
//! - a function whose name differs from a constant's only in case (numgpu_version and
//!   NUMGPU_VERSION: Fortran names are case-insensitive) gets the suffix `_c`, and so does an
//!   argument whose name repeats an earlier one's in another case (`m` and `M`) get `_`;
//! - the callback typedefs become abstract interfaces named `<typedef>_proc`.
//!
//! Only `NUMGPU_` macros become constants: integers as integer(c_int32_t) (c_int64_t when they
//! do not fit), strings as character. Whatever the
//! generator cannot read or translate (a C construct, a type, a macro's value) panics with its
//! name, so a header change it does not know fails `make header` instead of being skipped.

use super::c_header::{evaluate, parse_header, CType, Func, Header, TypeDef, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// Where the templates are, relative to the crate root.
pub const TEMPLATE_DIR: &str = "fortran";

/// Lines of the generated module stay within this many columns (free form allows 132).
const WIDTH: usize = 110;

// ---- from C types to Fortran --------------------------------------------------------------

/// The name a Fortran type spec needs from its host (`integer(c_int64_t), value`: c_int64_t).
fn kind_name(spec: &str) -> &str {
    spec.split(['(', ')']).nth(1).unwrap_or_else(|| panic!("type spec {spec}"))
}

impl Header {
    /// The base type name with aliases (`numgpu_status` → `int32_t`) resolved.
    fn resolve<'a>(&'a self, base: &'a str) -> &'a str {
        match self.typedefs.get(base) {
            Some(TypeDef::Alias(t)) if t.ptrs.is_empty() => self.resolve(&t.base),
            _ => base,
        }
    }

    /// The real kind of a complex struct `{re, im}` (c_float or c_double), if `base` is one.
    fn complex_part(&self, base: &str) -> Option<&'static str> {
        let Some(TypeDef::Struct(fields)) = self.typedefs.get(base) else { return None };
        let parts: Vec<(&str, &str)> = fields.iter().map(|f| (f.name.as_str(), self.resolve(&f.ty.base))).collect();
        match parts[..] {
            [("re", "float"), ("im", "float")] => Some("c_float"),
            [("re", "double"), ("im", "double")] => Some("c_double"),
            _ => None,
        }
    }

    /// The Fortran type of one value of `base`, or None for void, char and opaque types.
    fn scalar_kind(&self, base: &str) -> Option<String> {
        let base = self.resolve(base);
        let spec = match base {
            "int32_t" => "integer(c_int32_t)",
            // Fortran has no unsigned kinds: a uint64_t (numgpu_set_seed's seed) is its 64 bits.
            "int64_t" | "uint64_t" => "integer(c_int64_t)",
            "size_t" => "integer(c_size_t)",
            "float" => "real(c_float)",
            "double" => "real(c_double)",
            "void" | "char" => return None,
            _ => match (self.complex_part(base), self.typedefs.get(base)) {
                (Some("c_float"), _) => "complex(c_float_complex)",
                (Some(_), _) => "complex(c_double_complex)",
                (None, Some(TypeDef::FnPtr(_))) => "type(c_funptr)",
                (None, Some(TypeDef::Struct(_))) => return Some(format!("type({base})")),
                (None, Some(TypeDef::Opaque)) => return None,
                _ => panic!("the Fortran generator does not know the C type {base}"),
            },
        };
        Some(spec.to_string())
    }

    fn is_opaque(&self, base: &str) -> bool {
        matches!(self.typedefs.get(self.resolve(base)), Some(TypeDef::Opaque))
    }

    /// Whether f's pointers are all objects or mutable pointers to one value (see the top).
    fn is_getter(&self, f: &Func) -> bool {
        f.params.iter().all(|p| {
            let single = p.ty.ptrs.len() == 1;
            single && (self.is_opaque(&p.ty.base) || (!p.ty.base_const && self.scalar_kind(&p.ty.base).is_some()))
        })
    }

    /// The declaration spec of a dummy argument (`integer(c_int64_t), value`).
    fn dummy(&self, ty: &CType, by_reference: bool) -> String {
        match ty.ptrs[..] {
            [] => format!("{}, value", self.scalar_kind(&ty.base).unwrap_or_else(|| panic!("{} cannot pass by value", ty.base))),
            [false, _] => "type(c_ptr), intent(inout)".into(),
            [_] if by_reference && !ty.base_const => match self.scalar_kind(&ty.base) {
                Some(k) => format!("{k}, intent(inout)"),
                None => "type(c_ptr), value".into(),
            },
            _ => "type(c_ptr), value".into(),
        }
    }

    fn result_kind(&self, ty: &CType) -> Option<String> {
        match (ty.ptrs.is_empty(), ty.base.as_str()) {
            (true, "void") => None,
            (true, _) => Some(self.scalar_kind(&ty.base).unwrap_or_else(|| panic!("cannot return {}", ty.base))),
            (false, _) => Some("type(c_ptr)".into()),
        }
    }
}

// ---- writing Fortran ----------------------------------------------------------------------

/// `head`, then `items` joined with ", ", then `tail`, wrapped at WIDTH with `&` (the tail
/// moves to a line of its own when it does not fit).
fn wrapped(indent: usize, head: &str, items: &[impl AsRef<str>], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut line = format!("{pad}{head}");
    for (i, item) in items.iter().enumerate() {
        let item = item.as_ref();
        let piece = if i + 1 < items.len() { format!("{item}, ") } else { item.to_string() };
        if line.len() + piece.trim_end().len() + 2 > WIDTH {
            out.push_str(line.trim_end());
            out.push_str(" &\n");
            line = format!("{pad}        {piece}");
        } else {
            line.push_str(&piece);
        }
    }
    if line.len() + tail.len() + 2 > WIDTH {
        let _ = write!(out, "{line} &\n{pad}        {}\n", tail.trim_start());
    } else {
        let _ = writeln!(out, "{line}{tail}");
    }
    out
}

/// Declarations grouped by spec, in order of first appearance.
fn declarations(indent: usize, decls: &[(String, String)]) -> String {
    let mut specs: Vec<&str> = Vec::new();
    let mut names: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (spec, n) in decls {
        if !specs.contains(&spec.as_str()) {
            specs.push(spec);
        }
        names.entry(spec).or_default().push(n.clone());
    }
    specs.iter().map(|s| wrapped(indent, &format!("{s} :: "), &names[s], "")).collect()
}

/// A bind(C) interface body for f, named `fname`; `binding` None for an abstract interface.
fn interface(h: &Header, f: &Func, fname: &str, binding: Option<&str>) -> String {
    let by_reference = h.is_getter(f);
    let mut seen = BTreeSet::new();
    let mut decls: Vec<(String, String)> = Vec::new();
    for p in &f.params {
        let mut name = p.name.clone();
        while !seen.insert(name.to_ascii_lowercase()) {
            name.push('_');
        }
        decls.push((h.dummy(&p.ty, by_reference), name));
    }
    let result = h.result_kind(&f.ret);
    let what = if result.is_some() { "function" } else { "subroutine" };
    let bind = binding.map_or(" bind(C)".to_string(), |b| format!(" bind(C, name=\"{b}\")"));
    let mut args: Vec<String> = decls.iter().map(|(_, n)| n.clone()).collect();
    let mut head = format!("{what} {fname}(");
    args.last_mut().unwrap_or(&mut head).push(')');
    let mut imports: Vec<&str> = decls.iter().map(|(k, _)| k).chain(&result).map(|k| kind_name(k)).collect();
    imports.sort();
    imports.dedup();
    let mut out = wrapped(8, &head, &args, &bind);
    if !imports.is_empty() {
        out.push_str(&wrapped(12, "import :: ", &imports, ""));
    }
    out.push_str(&declarations(12, &decls));
    if let Some(k) = result {
        let _ = writeln!(out, "            {k} :: {fname}");
    }
    let _ = writeln!(out, "        end {what}");
    out
}

/// The part of the module made from the header: constants, derived types, abstract
/// interfaces and the interface block of the functions, all public.
fn from_header(h: &Header) -> String {
    let mut out = String::from("    ! ---- numgpu.h's constants --------------------------------------------------------------\n");
    let mut constants = BTreeSet::new();
    let mut constant = |out: &mut String, spec: &str, name: &str, value: String| {
        let _ = writeln!(out, "    {spec}, parameter, public :: {name} = {value}");
        constants.insert(name.to_ascii_lowercase());
    };
    for (name, toks) in h.macros.iter().filter(|(n, _)| n.starts_with("NUMGPU_")) {
        match evaluate(toks) {
            Value::Str(s) => constant(&mut out, "character(len=*)", name, format!("\"{s}\"")),
            Value::Int(i) => {
                let k = if i32::try_from(i).is_ok() { "c_int32_t" } else { "c_int64_t" };
                constant(&mut out, &format!("integer({k})"), name, format!("{i}_{k}"));
            }
        }
    }
    for (e, values) in &h.enums {
        let _ = writeln!(out, "\n    ! {e}");
        for (name, v) in values {
            constant(&mut out, "integer(c_int32_t)", name, format!("{v}_c_int32_t"));
        }
    }

    out.push_str("\n    ! ---- numgpu.h's types ------------------------------------------------------------------\n");
    for name in &h.typedef_order {
        match &h.typedefs[name] {
            TypeDef::Struct(fields) if h.complex_part(name).is_none() => {
                let _ = writeln!(out, "    type, bind(C), public :: {name}");
                for f in fields {
                    let kind = h.scalar_kind(&f.ty.base).filter(|_| f.ty.ptrs.is_empty());
                    let _ = writeln!(out, "        {} :: {}", kind.unwrap_or_else(|| "type(c_ptr)".into()), f.name);
                }
                out.push_str("    end type\n\n");
            }
            TypeDef::FnPtr(f) => {
                let proc_name = format!("{name}_proc");
                out.push_str("    abstract interface\n");
                out.push_str(&interface(h, f, &proc_name, None));
                let _ = writeln!(out, "    end interface\n    public :: {proc_name}\n");
            }
            _ => {}
        }
    }

    out.push_str("    ! ---- numgpu.h's functions --------------------------------------------------------------\n    interface\n");
    let mut names = Vec::new();
    for (i, f) in h.functions.iter().enumerate() {
        let fname = if constants.contains(&f.name.to_ascii_lowercase()) { format!("{}_c", f.name) } else { f.name.clone() };
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&interface(h, f, &fname, Some(&f.name)));
        names.push(fname);
    }
    out.push_str("    end interface\n");
    out.push_str(&wrapped(4, "public :: ", &names, ""));
    out
}

// ---- templates ----------------------------------------------------------------------------

/// The placeholders of a template and their value in each precision: `{p}` the letter of
/// numgpu's C names, `{type}` the element type, `{kind}` its kind, `{real}` the type of its
/// real part (the cosines of Givens QR, gesc2's scale), `{or}` LAPACK's infix for orthogonal
/// (s, d) or unitary (c, z) matrices (ormqr / unmqr), `{sy}` its infix for symmetric (s, d)
/// or Hermitian (c, z) ones (syevj / heevj).
const PRECISIONS: [[(&str, &str); 6]; 4] = [
    [("p", "s"), ("type", "real(c_float)"), ("kind", "c_float"), ("real", "real(c_float)"), ("or", "or"), ("sy", "sy")],
    [("p", "d"), ("type", "real(c_double)"), ("kind", "c_double"), ("real", "real(c_double)"), ("or", "or"), ("sy", "sy")],
    [("p", "c"), ("type", "complex(c_float_complex)"), ("kind", "c_float_complex"), ("real", "real(c_float)"), ("or", "un"), ("sy", "he")],
    [("p", "z"), ("type", "complex(c_double_complex)"), ("kind", "c_double_complex"), ("real", "real(c_double)"), ("or", "un"), ("sy", "he")],
];

/// A template line: `!@ <directive>`, with its arguments.
fn directive(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix("!@")?.trim();
    Some(rest.split_once(' ').unwrap_or((rest, "")))
}

/// Stamps every `!@ template [NAME[/VARIANT]:] p...` … `!@ end` block of `text` once per
/// precision listed, with the placeholders replaced; returns the text and, for each NAME, the
/// specific procedures `NAME_<p>` (`NAME_VARIANT_<p>` for a variant: another specific of the
/// same generic, e.g. a rank-1 right-hand side beside the rank-2 one) it stamped (the block
/// must define them). Panics, naming `source`, on an unknown precision or placeholder, or a
/// block left open.
pub fn stamp(text: &str, source: &str) -> (String, Vec<(String, Vec<String>)>) {
    let mut out = String::new();
    let mut generics = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(("template", args)) = directive(line) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let (name, letters) = match args.split_once(':') {
            Some((n, l)) => (Some(n.trim()), l),
            None => (None, args),
        };
        // NAME/VARIANT: the generic NAME, specifics NAME_VARIANT_<p>.
        let (name, stem) = match name.map(|n| n.split_once('/').unwrap_or((n, ""))) {
            Some((generic, "")) => (Some(generic), generic.to_string()),
            Some((generic, variant)) => (Some(generic), format!("{generic}_{variant}")),
            None => (None, String::new()),
        };
        let mut block = Vec::new();
        loop {
            match lines.next() {
                Some(l) if directive(l) == Some(("end", "")) => break,
                Some(l) => block.push(l),
                None => panic!("{source}: `{line}` has no `!@ end`"),
            }
        }
        let mut specifics = Vec::new();
        for letter in letters.split_whitespace() {
            let values = PRECISIONS
                .iter()
                .find(|p| p[0].1 == letter)
                .unwrap_or_else(|| panic!("{source}: precision {letter:?} (known: s d c z) in `{line}`"));
            let mut body = block.join("\n") + "\n";
            for (key, value) in values {
                body = body.replace(&format!("{{{key}}}"), value);
            }
            if let Some(long) = body.lines().find(|l| l.len() > 132) {
                panic!("{source}: stamped for {letter}, this line is longer than Fortran's 132 columns:\n{long}");
            }
            if let Some(name) = name {
                let specific = format!("{stem}_{letter}");
                assert!(body.contains(&format!("{specific}(")), "{source}: the template of {name} does not define {specific}");
                specifics.push(specific);
            }
            out.push_str(&body);
        }
        generics.extend(name.map(|n| (n.to_string(), specifics)));
    }
    if let Some(left) = placeholders(&out).next() {
        panic!("{source}: placeholder {left} outside a template, or unknown");
    }
    (out, generics)
}

/// Every `{word}` of text (Fortran itself has no braces).
fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices('{').filter_map(|(i, _)| {
        let len = text[i + 1..].find('}')?;
        let word = &text[i..i + len + 2];
        word[1..word.len() - 1].chars().all(|c| c.is_ascii_lowercase()).then_some(word)
    })
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"))
}

/// include/numgpu.f90 from the header text (cbindgen's output) and the templates under `root`.
pub fn module(header: &str, root: &Path) -> String {
    let h = parse_header(header);
    let generated = from_header(&h);
    let frame_path = format!("{TEMPLATE_DIR}/numgpu.f90");
    let mut families: Vec<String> = std::fs::read_dir(root.join(TEMPLATE_DIR))
        .unwrap_or_else(|e| panic!("cannot list {TEMPLATE_DIR}/: {e}"))
        .map(|e| format!("{TEMPLATE_DIR}/{}", e.expect("directory entry").file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".f90") && *p != frame_path)
        .collect();
    families.sort();

    let (mut specification, mut procedures) = (String::new(), String::new());
    for family in &families {
        let text = read(root, family);
        let spec_at = text.find("!@ specification").unwrap_or_else(|| panic!("{family}: no `!@ specification`"));
        let proc_at = text.find("!@ procedures").unwrap_or_else(|| panic!("{family}: no `!@ procedures`"));
        let spec = text[spec_at..proc_at].split_once('\n').map_or("", |(_, s)| s);
        let (procs, generics) = stamp(text[proc_at..].split_once('\n').map_or("", |(_, s)| s), family);
        // A generic's variants (NAME/VARIANT templates) join its specifics.
        let mut generics: BTreeMap<String, Vec<String>> = generics.into_iter().fold(BTreeMap::new(), |mut all, (name, specifics)| {
            all.entry(name).or_insert_with(Vec::new).extend(specifics);
            all
        });
        for line in spec.lines() {
            match directive(line) {
                Some(("generic", name)) => {
                    let specifics = generics.remove(name).unwrap_or_else(|| panic!("{family}: no template for the generic {name}"));
                    let _ = writeln!(specification, "    public :: {name}\n    interface {name}");
                    specification.push_str(&wrapped(8, "module procedure ", &specifics, ""));
                    specification.push_str("    end interface\n");
                }
                Some((d, _)) => panic!("{family}: unknown directive `!@ {d}` in the specification part"),
                None => {
                    specification.push_str(line);
                    specification.push('\n');
                }
            }
        }
        assert!(generics.is_empty(), "{family}: templates without a `!@ generic` line: {:?}", generics.keys());
        specification.push('\n');
        procedures.push_str(&procs);
        procedures.push('\n');
    }

    let (frame, frame_generics) = stamp(&read(root, &frame_path), &frame_path);
    assert!(frame_generics.is_empty(), "{frame_path}: a generic belongs to a family file");
    let mut out = format!(
        "! Generated by tests/integration/header/fortran_module.rs from include/numgpu.h and {TEMPLATE_DIR}/*.f90 \
         (`make header`): do not edit.\n"
    );
    for line in frame.lines() {
        match directive(line) {
            Some(("insert", "header")) => out.push_str(&generated),
            Some(("insert", "specification")) => out.push_str(specification.trim_end_matches('\n')),
            Some(("insert", "procedures")) => out.push_str(procedures.trim_end_matches('\n')),
            Some((d, a)) => panic!("{frame_path}: unknown directive `!@ {d} {a}`"),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Every function, `NUMGPU_` macro and enumerator of the header, found by a plain scan of its
/// lines (independent of the parser above), is in the module: the generator skips nothing.
#[test]
fn module_binds_every_function_and_constant() {
    let header = super::generate();
    let module = module(header, Path::new(env!("CARGO_MANIFEST_DIR")));
    let (mut functions, mut constants) = (0, 0);
    let mut missing = Vec::new();
    for line in header.lines() {
        let code = line.split("//").next().unwrap_or("");
        let constant = code.trim_start().strip_prefix("#define ").or(Some(code.trim_start()).filter(|t| t.contains(" = ")));
        if let Some(name) = constant.and_then(|c| c.split([' ', '=']).next()).filter(|n| n.starts_with("NUMGPU_")) {
            if code.split_whitespace().count() > 2 {
                constants += 1;
                if !module.contains(&format!("parameter, public :: {name} = ")) {
                    missing.push(name.to_string());
                }
            }
        } else if !line.starts_with([' ', '*', '/', '#', '}']) && !line.starts_with("typedef") {
            let before_paren = line.split_once('(').map(|(b, _)| b);
            if let Some(name) = before_paren.and_then(|b| b.rsplit([' ', '*']).next()).filter(|n| n.starts_with("numgpu_")) {
                let name = name.to_string();
                functions += 1;
                if !module.contains(&format!("bind(C, name=\"{name}\")")) {
                    missing.push(name);
                }
            }
        }
    }
    assert!(functions >= 20 && constants >= 18, "found only {functions} functions and {constants} constants: the scan is broken");
    assert_eq!(module.matches("bind(C, name=\"numgpu_").count(), functions, "the module binds functions the header does not declare");
    assert!(missing.is_empty(), "missing from include/numgpu.f90: {missing:?}");
}

/// The translation rules on a small header in cbindgen's style: constants (a 64-bit value, a
/// negative one, a string, enumerators without values; an unprefixed macro left out), a getter, `T **`, a pointer
/// array, a complex scalar, a callback, a struct, and the clashes of case-insensitive names.
#[test]
fn translates_each_kind_of_declaration() {
    let header = r#"
#define NUMGPU_BIG 1099511627776
#define LIMIT (1 << 2)
#define NUMGPU_NEG -1
#define NUMGPU_NAME "x"
enum numgpu_mode
#ifdef __cplusplus
  : int32_t
#endif // __cplusplus
 {
  NUMGPU_A,
  NUMGPU_B = 4,
  NUMGPU_C,
};
#ifndef __cplusplus
typedef int32_t numgpu_mode;
#endif // __cplusplus
typedef struct numgpu_obj numgpu_obj;
typedef struct { double re; double im; } numgpu_complex_double;
typedef struct { size_t size; double h0; } numgpu_opts;
typedef double (*numgpu_cb)(double t, const double *y, void *user);
/** numgpu_status numgpu_commented(void); */
numgpu_mode numgpu_get(const numgpu_obj *o, int32_t *mode, numgpu_opts *opts);
int32_t numgpu_make(numgpu_obj **o, numgpu_cb f, int64_t m, int32_t M, numgpu_complex_double alpha,
                    const float *const *A, double *out);
const char *numgpu_name(void);
"#;
    let out = from_header(&parse_header(header));
    for want in [
        "integer(c_int64_t), parameter, public :: NUMGPU_BIG = 1099511627776_c_int64_t",
        "integer(c_int32_t), parameter, public :: NUMGPU_NEG = -1_c_int32_t",
        "character(len=*), parameter, public :: NUMGPU_NAME = \"x\"",
        "NUMGPU_A = 0_c_int32_t",
        "NUMGPU_C = 5_c_int32_t",
        "type, bind(C), public :: numgpu_opts\n        integer(c_size_t) :: size\n        real(c_double) :: h0\n    end type",
        "function numgpu_cb_proc(t, y, user) bind(C)",
        "public :: numgpu_cb_proc",
        "integer(c_int32_t), intent(inout) :: mode\n            type(numgpu_opts), intent(inout) :: opts",
        "import :: c_int32_t, c_ptr, numgpu_opts",
        "function numgpu_make(o, f, m, M_, alpha, A, out) bind(C, name=\"numgpu_make\")",
        "type(c_ptr), intent(inout) :: o\n            type(c_funptr), value :: f",
        "complex(c_double_complex), value :: alpha\n            type(c_ptr), value :: A, out",
        "function numgpu_name_c() bind(C, name=\"numgpu_name\")",
        "public :: numgpu_get, numgpu_make, numgpu_name_c",
    ] {
        assert!(out.contains(want), "missing:\n{want}\nin:\n{out}");
    }
    assert!(!out.contains("LIMIT") && !out.contains("numgpu_commented") && !out.contains("type, bind(C), public :: numgpu_complex"));
}
