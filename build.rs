// Build steps of the library:
// - the shared library's SONAME (libnumgpu.so.MAJOR), so installed programs link against the
//   ABI version, not the file name;
// - the table of every C entry point's parameter names, read from the `extern "C"` functions
//   of src/ (the same items cbindgen turns into the header). Below the C boundary errors name
//   their argument ("lda"); the boundary finds its 1-based position in this table, so no
//   position is ever written by hand and none can drift from the signature.
use std::path::Path;

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnumgpu.so.{major}");
    }
    let mut entries = Vec::new();
    collect(Path::new("src"), &mut entries);
    entries.sort();
    let mut out = String::from("/// Every C entry point and its parameters' names, in order, sorted by function name.\npub(crate) static C_PARAMS: &[(&str, &[&str])] = &[\n");
    for (name, params) in &entries {
        let list: Vec<String> = params.iter().map(|p| format!("{p:?}")).collect();
        out += &format!("    ({name:?}, &[{}]),\n", list.join(", "));
    }
    out += "];\n";
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("c_params.rs");
    std::fs::write(dest, out).unwrap();
    // The cfgs of the header's default complex types, never set (src/core/scalar.rs).
    println!("cargo::rustc-check-cfg=cfg(numgpu_user_complex_float)");
    println!("cargo::rustc-check-cfg=cfg(numgpu_user_complex_double)");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
}

/// The `extern "C"` functions of every `.rs` file under `dir`, with their parameter names.
fn collect(dir: &Path, out: &mut Vec<(String, Vec<String>)>) {
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                collect(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            if !text.contains("extern \"C\" fn") {
                continue;
            }
            let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.extend(file.items.iter().filter_map(c_entry_point));
        }
    }
}

fn c_entry_point(item: &syn::Item) -> Option<(String, Vec<String>)> {
    let syn::Item::Fn(f) = item else { return None };
    let abi = f.sig.abi.as_ref()?.name.as_ref()?.value();
    let exported = f.attrs.iter().any(|a| a.path().is_ident("no_mangle"));
    if abi != "C" || !exported {
        return None;
    }
    let params = f
        .sig
        .inputs
        .iter()
        .map(|arg| match arg {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(i) => i.ident.to_string(),
                _ => panic!("{}: a C parameter must be a plain name", f.sig.ident),
            },
            syn::FnArg::Receiver(_) => panic!("{}: a C entry point has no self", f.sig.ident),
        })
        .collect();
    Some((f.sig.ident.to_string(), params))
}
