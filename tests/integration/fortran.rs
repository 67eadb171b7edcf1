//! The Fortran side: builds include/numgpu.f90 and the programs of fortran-tests/ with gfortran
//! against the freshly built libnumgpu.so and runs them (see c_abi.rs for where the library
//! and the outputs are, and NUMGPU_PREBUILT_TESTS); and checks that the module cannot drift
//! from the header: every function of numgpu.h has a bind(C) interface with the same number of
//! arguments, each of the matching kind and passing, and every constant has a parameter of the
//! same value.

use super::c_abi::{bin_dir, compile, link_args, prebuilt, root, run, tool};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

/// F2008 with every warning an error. `-ffpe-summary=none`: the tests put NaN in C on purpose
/// (beta = 0 must not read it), which raises IEEE_INVALID in the reference computation, and
/// gfortran would print a note about it at STOP; `-fcheck=all` adds run-time bounds checks.
const FFLAGS: &[&str] = &["-std=f2008", "-Wall", "-Werror", "-fcheck=all", "-ffpe-summary=none", "-g"];

/// Compiles include/numgpu.f90 once into the bin dir: the object and numgpu.mod (under mod/).
fn build_module(fc: &str) -> (PathBuf, PathBuf) {
    static DONE: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let dir = bin_dir();
        let moddir = dir.join("mod");
        std::fs::create_dir_all(&moddir).unwrap();
        let obj = dir.join("numgpu_f90.o");
        let mut args: Vec<OsString> = FFLAGS.iter().map(OsString::from).collect();
        args.extend(["-J".into(), moddir.clone().into(), "-c".into(), "include/numgpu.f90".into(), "-o".into(), obj.clone().into()]);
        compile(fc, &args, "include/numgpu.f90");
        (obj, moddir)
    })
    .clone()
}

/// Builds fortran-tests/<name>.f90 (unless prebuilt) as `<exe>` in the bin dir, linked with
/// the extra libraries `libs` (e.g. -lopenblas for a program that calls LAPACK itself), and
/// runs it.
fn fortran_test(name: &str, exe: &str, libs: &[&str]) {
    let path = bin_dir().join(exe);
    if !prebuilt() {
        let fc = tool("FC", "gfortran");
        let (obj, moddir) = build_module(&fc);
        let mut args: Vec<OsString> = FFLAGS.iter().map(OsString::from).collect();
        // -J: a module the test itself defines goes beside numgpu's, not into the source tree.
        args.extend(["-I".into(), moddir.clone().into(), "-J".into(), moddir.into(), format!("fortran-tests/{name}.f90").into(), obj.into(), "-o".into(), path.clone().into()]);
        args.extend(link_args());
        args.extend(libs.iter().map(OsString::from));
        compile(&fc, &args, &format!("fortran-tests/{name}.f90"));
    }
    run(&path, exe, &[]);
}

#[test]
fn fortran_test_gemm() {
    fortran_test("test_gemm", "test_gemm_f", &[]);
}

/// test_getrf_f calls LAPACK's ?getc2/?gesc2 as its reference, so it links OpenBLAS (which
/// carries LAPACK) directly, as the C tests do.
#[test]
fn fortran_test_getrf() {
    fortran_test("test_getrf", "test_getrf_f", &["-lopenblas"]);
}

/// test_geqrf_f calls LAPACK's ?gels as its reference, so it links OpenBLAS (which carries
/// LAPACK) directly, as test_getrf_f does.
#[test]
fn fortran_test_geqrf() {
    fortran_test("test_geqrf", "test_geqrf_f", &["-lopenblas"]);
}

/// test_spmv_f compares with a reference written in the test (LAPACK has no SpMV).
#[test]
fn fortran_test_spmv() {
    fortran_test("test_spmv", "test_spmv_f", &[]);
}

/// test_gtsv_f calls LAPACK's ?gtsv (the reference) and zgttrf/zgtcon (the condition number),
/// so it links OpenBLAS (which carries LAPACK) directly, as test_getrf_f does.
#[test]
fn fortran_test_gtsv() {
    fortran_test("test_gtsv", "test_gtsv_f", &["-lopenblas"]);
}

/// test_rkc_f passes a bind(C) Fortran procedure as the host right-hand side and integrates
/// a Y(NEQ, NSYS) array.
#[test]
fn fortran_test_rkc() {
    fortran_test("test_rkc", "test_rkc_f", &[]);
}

/// test_sshopm_f needs only numgpu (its reference is the dense tensor it builds itself).
#[test]
fn fortran_test_sshopm() {
    fortran_test("test_sshopm", "test_sshopm_f", &[]);
}

// ---- the module against the header ---------------------------------------------------------

/// A C type as written in the header: base name (without `const`) and pointer depth.
#[derive(Clone, Debug, PartialEq)]
struct CType {
    base: String,
    stars: usize,
}

#[derive(Debug)]
struct CFunc {
    ret: CType,
    params: Vec<(CType, String)>,
}

/// A Fortran declaration: normalised type spec (`integer(c_int32_t)`) and whether by value.
#[derive(Clone, Debug)]
struct FDecl {
    ty: String,
    value: bool,
}

#[derive(Debug)]
struct FProc {
    fname: String,
    args: Vec<String>,
    result: Option<String>,
    decls: BTreeMap<String, FDecl>,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The header without comments, preprocessor lines and `#ifdef __cplusplus` blocks.
fn c_code(header: &str) -> String {
    let mut s = String::new();
    let mut rest = header;
    while let Some(i) = rest.find("/*") {
        s.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map(|j| &rest[i + j + 2..]).unwrap_or("");
    }
    s.push_str(rest);
    let mut out = String::new();
    let mut skip = 0;
    for line in s.lines() {
        let line = line.split("//").next().unwrap();
        let t = line.trim();
        if t.starts_with("#ifdef __cplusplus") {
            skip += 1;
        } else if skip > 0 && t.starts_with("#endif") {
            skip -= 1;
        } else if skip == 0 && !t.starts_with('#') {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A declarator like `const float *const *A` as (type, name); `name_optional` for returns.
fn c_decl(text: &str) -> (CType, String) {
    let stars = text.matches('*').count();
    let words: Vec<&str> = text
        .split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty() && !["const", "extern", "static", "inline", "struct", "enum"].contains(w))
        .collect();
    let (name, base) = words.split_last().unwrap_or_else(|| panic!("cannot parse C declarator {text:?}"));
    (CType { base: base.join(" "), stars }, name.to_string())
}

/// Every function `numgpu_*(...)` the header declares.
fn header_functions(header: &str) -> BTreeMap<String, CFunc> {
    let code = c_code(header);
    let mut out = BTreeMap::new();
    for stmt in code.split(';') {
        let stmt = stmt.rsplit(['{', '}']).next().unwrap();
        let Some(open) = stmt.find('(') else { continue };
        let close = stmt.rfind(')').expect("balanced parentheses");
        let (ret, name) = c_decl(&stmt[..open]);
        if !name.starts_with("numgpu_") {
            continue;
        }
        let inner = stmt[open + 1..close].trim();
        let params = if inner == "void" || inner.is_empty() { vec![] } else { inner.split(',').map(c_decl).collect() };
        out.insert(name, CFunc { ret, params });
    }
    out
}

/// Every `NUMGPU_*` constant of the header (enum values and #defines with a value), as text.
fn header_constants(header: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in header.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("#define ") {
            if let Some((name, value)) = rest.split_once(char::is_whitespace) {
                if name.starts_with("NUMGPU_") && !value.trim().is_empty() {
                    out.insert(name.to_string(), value.trim().to_string());
                }
            }
        } else if t.starts_with("NUMGPU_") {
            if let Some((name, value)) = t.split_once('=') {
                out.insert(name.trim().to_string(), value.trim().trim_end_matches(',').trim().to_string());
            }
        }
    }
    out
}

/// The module's statements: comments removed, continuation lines joined.
fn f_statements(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in src.lines() {
        let mut in_str: Option<char> = None;
        let mut code = String::new();
        for c in line.chars() {
            match (in_str, c) {
                (None, '!') => break,
                (None, '"' | '\'') => in_str = Some(c),
                (Some(q), c) if c == q => in_str = None,
                _ => {}
            }
            code.push(c);
        }
        let mut t = code.trim();
        if !cur.is_empty() {
            t = t.strip_prefix('&').unwrap_or(t).trim_start();
        }
        if let Some(body) = t.strip_suffix('&') {
            cur.push_str(body);
            cur.push(' ');
        } else {
            cur.push_str(t);
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur.clear();
        }
    }
    out
}

/// Splits at commas outside parentheses.
fn split_top(s: &str) -> Vec<String> {
    let (mut depth, mut cur, mut out) = (0, String::new(), Vec::new());
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Every `bind(C, name="...")` procedure of the module, keyed by its binding name.
fn module_procedures(src: &str) -> BTreeMap<String, FProc> {
    let stmts = f_statements(src);
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < stmts.len() {
        let low = stmts[i].to_ascii_lowercase();
        let kw = ["function ", "subroutine "].iter().find_map(|k| low.find(k).map(|p| (p, *k)));
        let bind = low.find("bind(c");
        let (Some((p, kw)), Some(b)) = (kw, bind) else {
            i += 1;
            continue;
        };
        let head = &low[p + kw.len()..];
        let open = head.find('(').expect("procedure has an argument list");
        let fname = head[..open].trim().to_string();
        let close = head.find(')').unwrap();
        let args: Vec<String> = head[open + 1..close].split(',').map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect();
        // bind(C) without a name: an abstract interface (a callback's shape), no symbol.
        let Some(name_at) = low[b..].find("name=").map(|n| b + n + 5) else {
            i += 1;
            continue;
        };
        let quoted = &stmts[i][name_at..];
        let q = quoted.chars().next().unwrap();
        let cname = quoted[1..].split(q).next().unwrap().to_string();
        let result = if kw == "function " { Some(fname.clone()) } else { None };
        let mut decls = BTreeMap::new();
        i += 1;
        while i < stmts.len() && !stmts[i].to_ascii_lowercase().starts_with("end") {
            if let Some((spec, names)) = stmts[i].split_once("::") {
                let parts = split_top(&spec.to_ascii_lowercase().replace(' ', ""));
                let ty = parts[0].replace("kind=", "");
                let value = parts[1..].iter().any(|a| a == "value");
                for n in split_top(names) {
                    let n = n.split('(').next().unwrap().trim().to_ascii_lowercase();
                    decls.insert(n, FDecl { ty: ty.clone(), value });
                }
            }
            i += 1;
        }
        out.insert(cname, FProc { fname, args, result, decls });
    }
    out
}

/// Every `NAME = value` parameter of the module (names upper-case, kind suffixes dropped).
fn module_constants(src: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for s in f_statements(src) {
        let Some((spec, rest)) = s.split_once("::") else { continue };
        if !spec.to_ascii_lowercase().contains("parameter") {
            continue;
        }
        for item in split_top(rest) {
            if let Some((name, value)) = item.split_once('=') {
                let v = value.trim();
                let v = if v.starts_with('"') || v.starts_with('\'') { v.to_string() } else { v.split('_').next().unwrap().to_string() };
                out.insert(name.trim().to_ascii_uppercase(), v);
            }
        }
    }
    out
}

/// The Fortran type that passes a C scalar type by value, or by reference for a `T *`.
fn fortran_kind(c_base: &str) -> Option<&'static str> {
    Some(match c_base {
        "int32_t" | "numgpu_status" | "numgpu_backend" | "numgpu_op" => "integer(c_int32_t)",
        // Fortran has no unsigned kinds: a uint64_t (numgpu_set_seed's seed) is its 64 bits.
        "int64_t" | "uint64_t" => "integer(c_int64_t)",
        "size_t" => "integer(c_size_t)",
        "float" => "real(c_float)",
        "double" => "real(c_double)",
        "numgpu_complex_float" => "complex(c_float_complex)",
        "numgpu_complex_double" => "complex(c_double_complex)",
        "char" => "character(c_char)",
        // Function-pointer typedefs pass by value as C function pointers; the options struct
        // by reference as its bind(C) derived type.
        "numgpu_ode_rhs" | "numgpu_ode_spcrad" => "type(c_funptr)",
        "numgpu_rkc_options" => "type(numgpu_rkc_options)",
        _ => return None,
    })
}

/// Whether a Fortran dummy argument passes what the C parameter expects: a scalar by value
/// with the exact kind; a pointer as type(c_ptr) by value, or by reference to its pointee
/// (`int32_t *` as integer(c_int32_t), `T **` as type(c_ptr)).
fn compatible(c: &CType, f: &FDecl) -> bool {
    if c.stars == 0 {
        return f.value && fortran_kind(&c.base) == Some(f.ty.as_str());
    }
    if f.value {
        return f.ty == "type(c_ptr)";
    }
    if c.stars == 1 {
        fortran_kind(&c.base) == Some(f.ty.as_str())
    } else {
        f.ty == "type(c_ptr)"
    }
}

fn return_kind(c: &CType) -> Option<&'static str> {
    if c.stars > 0 {
        Some("type(c_ptr)")
    } else {
        fortran_kind(&c.base)
    }
}

#[test]
fn fortran_module_covers_header() {
    let header = std::fs::read_to_string(root().join("include/numgpu.h")).expect("include/numgpu.h");
    let module = std::fs::read_to_string(root().join("include/numgpu.f90")).expect("include/numgpu.f90");
    let funcs = header_functions(&header);
    let procs = module_procedures(&module);
    assert!(funcs.len() >= 20, "parsed only {} functions from numgpu.h: {:?}", funcs.len(), funcs.keys());
    let mut problems = Vec::new();

    for (name, cf) in &funcs {
        let Some(fp) = procs.get(name) else {
            problems.push(format!("{name}: no bind(C, name=\"{name}\") interface in numgpu.f90"));
            continue;
        };
        if fp.args.len() != cf.params.len() {
            problems.push(format!("{name}: {} arguments in C, {} in Fortran ({})", cf.params.len(), fp.args.len(), fp.fname));
            continue;
        }
        for (k, ((ct, cn), fa)) in cf.params.iter().zip(&fp.args).enumerate() {
            match fp.decls.get(fa) {
                None => problems.push(format!("{name}: argument {} ({fa}) has no declaration", k + 1)),
                Some(fd) if !compatible(ct, fd) => problems.push(format!(
                    "{name}: argument {} is `{}{}` {cn} in C but `{}{}` {fa} in Fortran",
                    k + 1,
                    ct.base,
                    "*".repeat(ct.stars),
                    fd.ty,
                    if fd.value { ", value" } else { "" }
                )),
                Some(_) => {}
            }
        }
        let want = if cf.ret.base == "void" && cf.ret.stars == 0 { None } else { return_kind(&cf.ret) };
        let got = fp.result.as_ref().and_then(|r| fp.decls.get(r)).map(|d| d.ty.as_str());
        if want != got {
            problems.push(format!("{name}: returns {:?} in C ({:?}), {:?} in Fortran", want, cf.ret, got));
        }
    }
    for name in procs.keys().filter(|n| n.starts_with("numgpu_")) {
        if !funcs.contains_key(name) {
            problems.push(format!("numgpu.f90 binds {name}, which numgpu.h does not declare"));
        }
    }

    let cconst = header_constants(&header);
    let fconst = module_constants(&module);
    assert!(cconst.len() >= 18, "parsed only {} constants from numgpu.h: {cconst:?}", cconst.len());
    for (name, value) in &cconst {
        match fconst.get(name) {
            None => problems.push(format!("constant {name} = {value} is missing from numgpu.f90")),
            Some(v) if v != value => problems.push(format!("constant {name} is {value} in numgpu.h but {v} in numgpu.f90")),
            Some(_) => {}
        }
    }

    eprintln!("numgpu.f90 covers {} functions and {} constants of numgpu.h", funcs.len(), cconst.len());
    assert!(problems.is_empty(), "include/numgpu.f90 has drifted from include/numgpu.h:\n  {}", problems.join("\n  "));
}
