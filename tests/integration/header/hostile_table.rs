//! c-tests/hostile_calls.h, the table that c-tests/test_hostile.c walks: every function of
//! include/numgpu.h with its parameters (name, kind, pointee, pointer levels, constness) and a
//! caller that takes the arguments as an array of unions. Generated from the header of the same
//! run, so a new entry point is in the hostile-input suite without new code: the suite then
//! tries every hostile value of every parameter's kind on it, and fails until it can build a
//! valid call of it.

use super::c_header::{parse_header, CType, Func, Header, TypeDef};
use std::fmt::Write as _;

/// Where the table goes, relative to the crate root.
pub const PATH: &str = "c-tests/hostile_calls.h";

/// The union member and kind constant of a by-value type (after typedefs are resolved).
fn scalar(base: &str) -> Option<(&'static str, &'static str)> {
    Some(match base {
        "int32_t" => ("i32", "HX_I32"),
        "int64_t" => ("i64", "HX_I64"),
        "uint64_t" => ("u64", "HX_U64"),
        "size_t" => ("sz", "HX_SIZE"),
        "float" => ("f32", "HX_F32"),
        "double" => ("f64", "HX_F64"),
        "numgpu_complex_float" => ("c32", "HX_C32"),
        "numgpu_complex_double" => ("c64", "HX_C64"),
        _ => return None,
    })
}

/// `base` with integer typedefs (the enums' `typedef int32_t numgpu_op`) resolved.
fn resolved<'a>(h: &'a Header, base: &'a str) -> &'a str {
    match h.typedefs.get(base) {
        Some(TypeDef::Alias(t)) if t.ptrs.is_empty() => resolved(h, &t.base),
        _ => base,
    }
}

fn is_fn_pointer(h: &Header, base: &str) -> bool {
    matches!(h.typedefs.get(base), Some(TypeDef::FnPtr(_)))
}

/// The C spelling of a type: `const float *const *`.
fn spelled(t: &CType) -> String {
    let mut s = if t.base_const { format!("const {}", t.base) } else { t.base.clone() };
    for &c in &t.ptrs {
        s += if s.ends_with('*') { "*" } else { " *" };
        if c {
            s += "const";
        }
    }
    s
}

/// The argument expression of parameter `i` for the call.
fn argument(h: &Header, t: &CType, i: usize) -> String {
    if !t.ptrs.is_empty() {
        return format!("({})a[{i}].p", spelled(t));
    }
    if is_fn_pointer(h, &t.base) {
        return format!("a[{i}].fn_{}", t.base);
    }
    let (member, _) = scalar(resolved(h, &t.base)).unwrap_or_else(|| panic!("hostile table: no argument kind for the C type {}", t.base));
    format!("a[{i}].{member}")
}

/// The table row of one parameter: `{"lda", HX_I64, "", 0, 0}`.
fn row(h: &Header, t: &CType, name: &str) -> String {
    let kind = if !t.ptrs.is_empty() {
        "HX_PTR"
    } else if is_fn_pointer(h, &t.base) {
        "HX_FN"
    } else {
        scalar(resolved(h, &t.base)).expect("checked by argument()").1
    };
    let pointee = if t.ptrs.is_empty() { "" } else { resolved(h, &t.base) };
    format!("{{\"{name}\", {kind}, \"{pointee}\", {}, {}}}", t.ptrs.len(), t.base_const as i32)
}

/// The caller of `f`: `static void hx_call_<name>(const hx_arg *a, hx_arg *r)`.
fn caller(h: &Header, f: &Func) -> String {
    let args: Vec<String> = f.params.iter().enumerate().map(|(i, p)| argument(h, &p.ty, i)).collect();
    let call = format!("{}({})", f.name, args.join(", "));
    let ret = resolved(h, &f.ret.base);
    let store = match (f.ret.ptrs.len(), ret) {
        (1, "char") => format!("r->p = (void *){call};"),
        (0, "numgpu_status") => format!("r->i32 = (int32_t){call};"),
        (0, base) => format!("r->{} = {call};", scalar(base).unwrap_or_else(|| panic!("hostile table: {} returns {base}", f.name)).0),
        _ => panic!("hostile table: {} returns {}", f.name, spelled(&f.ret)),
    };
    let unused = if f.params.is_empty() { "    (void)a;\n" } else { "" };
    format!("static void hx_call_{}(const hx_arg *a, hx_arg *r)\n{{\n{unused}    {store}\n}}\n", f.name)
}

/// The whole generated file for `header`.
pub fn table(header: &str) -> String {
    let h = parse_header(header);
    let fns: Vec<&str> = h.typedef_order.iter().filter(|n| is_fn_pointer(&h, n)).map(String::as_str).collect();
    let most = h.functions.iter().map(|f| f.params.len()).max().unwrap_or(0).max(1);
    let mut out = String::from(
        "/* The hostile-input table of c-tests/test_hostile.c: every function of include/numgpu.h, its\n \
         * parameters (name, kind, pointee type, pointer levels, const pointee) and a caller taking\n \
         * its arguments as an array. Generated from the header by\n \
         * tests/integration/header/hostile_table.rs (`make header`): do not edit. */\n\
         #ifndef NUMGPU_HOSTILE_CALLS_H\n#define NUMGPU_HOSTILE_CALLS_H\n\n#include \"numgpu.h\"\n\n",
    );
    out += "/* One argument or result of any type of the header. */\ntypedef union {\n    int32_t i32;\n    int64_t i64;\n    uint64_t u64;\n    size_t sz;\n    float f32;\n    double f64;\n    numgpu_complex_float c32;\n    numgpu_complex_double c64;\n    void *p;\n";
    for f in &fns {
        let _ = writeln!(out, "    {f} fn_{f};");
    }
    out += "} hx_arg;\n\n";
    out += "/* Parameter kinds: by value, a pointer (any level), a function pointer. */\nenum { HX_I32, HX_I64, HX_U64, HX_SIZE, HX_F32, HX_F64, HX_C32, HX_C64, HX_PTR, HX_FN };\n\n";
    out += "typedef struct {\n    const char *name;\n    int kind;\n    const char *pointee; /* HX_PTR: the pointee's base type, typedefs resolved */\n    int levels;          /* HX_PTR: levels of pointers */\n    int konst;           /* HX_PTR: the base type is const (an input) */\n} hx_param;\n\n";
    let _ = writeln!(out, "#define HX_MAX_PARAMS {most}\n");
    out += "typedef struct {\n    const char *name;\n    int status;   /* returns numgpu_status (in r->i32) */\n    void (*call)(const hx_arg *a, hx_arg *r);\n    int nparams;\n    hx_param params[HX_MAX_PARAMS];\n} hx_func;\n\n";
    for f in &h.functions {
        out += &caller(&h, f);
        out += "\n";
    }
    out += "static const hx_func HX_FUNCS[] = {\n";
    for f in &h.functions {
        let rows: Vec<String> = f.params.iter().map(|p| row(&h, &p.ty, &p.name)).collect();
        // C99 has no empty initializer.
        let rows = if rows.is_empty() { "{NULL, 0, NULL, 0, 0}".to_string() } else { rows.join(", ") };
        let status = (f.ret.ptrs.is_empty() && f.ret.base == "numgpu_status") as i32;
        let _ = writeln!(out, "    {{\"{}\", {status}, hx_call_{}, {}, {{{}}}}},", f.name, f.name, f.params.len(), rows);
    }
    out += "};\n\n#define HX_NFUNCS ((int)(sizeof HX_FUNCS / sizeof HX_FUNCS[0]))\n\n#endif /* NUMGPU_HOSTILE_CALLS_H */\n";
    out
}
