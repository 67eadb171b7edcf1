//! python/numgpu/_signatures.py, the table the Python module's ctypes layer binds from:
//! every function of include/numgpu.h with its return type and its parameters (name, base
//! type, pointer levels, whether the pointee is const), the enums and their values, the
//! structs' fields, the callback typedefs, the type aliases, the opaque types and the
//! version. Generated from the header of the same run, so the Python module never types a C
//! signature by hand and a signature change reaches it with `make header`; the Python layer
//! calls by parameter name, so a parameter that moves costs nothing there.
//!
//! Types stay as the header spells them (`numgpu_complex_float`, `numgpu_op` once the header
//! names its enums); ALIASES resolves them. Whatever the generator cannot read panics with
//! its name (through the shared reader, c_header.rs), so an unknown construct fails
//! `make header` instead of being skipped.

use super::c_header::{evaluate, parse_header, CType, Func, Param, TypeDef, Value};
use std::fmt::Write as _;

/// Where the table goes, relative to the crate root.
pub const PATH: &str = "python/numgpu/_signatures.py";

/// A Python string literal of an identifier or a C type name (no quotes or backslashes in
/// either: the header's tokens are identifiers).
fn quoted(s: &str) -> String {
    assert!(!s.contains(['"', '\\', '\n']), "python table: unexpected character in {s:?}");
    format!("\"{s}\"")
}

/// `("base", levels, const)`: the C type as the ctypes layer reads it.
fn ctype(t: &CType) -> String {
    format!("({}, {}, {})", quoted(&t.base), t.ptrs.len(), if t.base_const { "True" } else { "False" })
}

/// `(("name", ("base", levels, const)), ...)` with a trailing comma for one element.
fn params(ps: &[Param]) -> String {
    let items: Vec<String> = ps.iter().map(|p| format!("({}, {})", quoted(&p.name), ctype(&p.ty))).collect();
    match items.len() {
        0 => "()".into(),
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

fn function(f: &Func) -> String {
    format!("    {}: ({}, {}),\n", quoted(&f.name), ctype(&f.ret), params(&f.params))
}

/// The whole generated file for `header`.
pub fn table(header: &str) -> String {
    let h = parse_header(header);
    let mut out = String::from(
        "# The C signatures of include/numgpu.h for numgpu's ctypes layer (numgpu/_lib.py).\n\
         # Generated from the header by tests/integration/header/python_signatures.rs\n\
         # (`make header`): do not edit.\n\
         #\n\
         # A C type is (base, pointer levels, base is const): `const float *const *A` is\n\
         # (\"float\", 2, True). Base names are the header's; ALIASES resolves typedefs.\n\n",
    );
    let version = h.macros.iter().find(|(n, _)| n == "NUMGPU_VERSION").map(|(_, toks)| evaluate(toks));
    let Some(Value::Str(version)) = version else { panic!("python table: the header has no NUMGPU_VERSION string") };
    let _ = writeln!(out, "VERSION = {}\n", quoted(&version));

    out += "# enum name -> ((enumerator, value), ...), in the header's order.\nENUMS = {\n";
    for (name, values) in &h.enums {
        let vals: Vec<String> = values.iter().map(|(n, v)| format!("({}, {v})", quoted(n))).collect();
        let _ = writeln!(out, "    {}: ({},),", quoted(name), vals.join(", "));
    }
    out += "}\n\n";

    let (mut aliases, mut opaque, mut structs, mut callbacks) = (String::new(), String::new(), String::new(), String::new());
    for name in &h.typedef_order {
        match &h.typedefs[name] {
            TypeDef::Alias(t) => {
                let _ = writeln!(aliases, "    {}: {},", quoted(name), ctype(t));
            }
            TypeDef::Opaque => {
                let _ = writeln!(opaque, "    {},", quoted(name));
            }
            TypeDef::Struct(fields) => {
                let _ = writeln!(structs, "    {}: {},", quoted(name), params(fields));
            }
            TypeDef::FnPtr(f) => callbacks += &function(f),
        }
    }
    let _ = write!(out, "# typedef name -> the C type it stands for.\nALIASES = {{\n{aliases}}}\n\n");
    let _ = write!(out, "# Opaque types, used through pointers only.\nOPAQUE = (\n{opaque})\n\n");
    let _ = write!(out, "# struct typedef -> ((field, C type), ...), in declaration order.\nSTRUCTS = {{\n{structs}}}\n\n");
    let _ = write!(out, "# function-pointer typedef -> (return C type, ((parameter, C type), ...)).\nCALLBACKS = {{\n{callbacks}}}\n\n");
    out += "# function -> (return C type, ((parameter, C type), ...)), in the header's order.\nFUNCTIONS = {\n";
    for f in &h.functions {
        out += &function(f);
    }
    out += "}\n";
    out
}
