//! The user's examples in README.md and docs/*.md compile as written: every ```c block as the
//! body of a function, every ```fortran block as a program, against include/numgpu.h and the
//! generated Fortran module. A fragment may assume variables: an HTML comment on the line
//! before its fence, `<!-- example context: DECLARATIONS -->`, declares them (C declarations
//! before a C block, Fortran ones after a Fortran block's `use` lines); nothing else is added.

use super::c_abi::{bin_dir, compile, prebuilt, root, tool};
use super::fortran::{build_modules, fflags};
use std::ffi::OsString;
use std::path::PathBuf;

/// One fenced block: where it is, its language, the context comment before it, its text.
struct Example {
    place: String,
    lang: String,
    context: String,
    code: String,
}

/// The fenced blocks of `file` in the languages asked for.
fn examples(file: &str, langs: &[&str]) -> Vec<Example> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let lang = lines[i].trim_start().strip_prefix("```").map(str::trim).unwrap_or("");
        if lang.is_empty() || !lines[i].trim_start().starts_with("```") {
            i += 1;
            continue;
        }
        let end = (i + 1..lines.len()).find(|&j| lines[j].trim_start().starts_with("```")).unwrap_or_else(|| panic!("{file}:{}: unclosed fence", i + 1));
        if langs.contains(&lang) {
            let before = if i > 0 { lines[i - 1].trim() } else { "" };
            let context = before.strip_prefix("<!-- example context:").and_then(|c| c.strip_suffix("-->")).unwrap_or("").trim().to_string();
            out.push(Example { place: format!("{file}:{}", i + 1), lang: lang.to_string(), context, code: lines[i + 1..end].join("\n") });
        }
        i = end + 1;
    }
    out
}

/// README.md and docs/*.md, the files a user reads.
fn user_docs() -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let mut more: Vec<String> = std::fs::read_dir(root().join("docs")).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".md")).map(|n| format!("docs/{n}")).collect();
    more.sort();
    docs.extend(more);
    docs
}

/// Writes `text` into the bin dir's examples/ folder as `name`.
fn write(name: &str, text: &str) -> PathBuf {
    let dir = bin_dir().join("examples");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A C block as the body of a function after its context (a whole program, one that starts
/// with `#include` and defines `main`, compiled as it is); a Fortran block as a program, its
/// context after the `use` lines it starts with.
fn source(e: &Example, k: usize) -> (PathBuf, String) {
    if e.lang == "c" && e.code.trim_start().starts_with("#include") && e.code.contains("int main(") {
        return (write(&format!("readme_{k}.c"), &e.code), e.code.clone());
    }
    if e.lang == "c" {
        let text = format!("#include <stdio.h>\n#include <numgpu.h>\n\nvoid example_{k}(void)\n{{\n{}\n{}\n}}\n", e.context, e.code);
        return (write(&format!("readme_{k}.c"), &text), text);
    }
    let lines: Vec<&str> = e.code.lines().collect();
    let uses = lines.iter().take_while(|l| l.trim_start().starts_with("use ")).count();
    let text = format!("program example_{k}\n{}\n{}\n{}\nend program example_{k}\n", lines[..uses].join("\n"), e.context, lines[uses..].join("\n"));
    (write(&format!("readme_{k}.f90"), &text), text)
}

#[test]
fn readme_and_docs_examples_compile() {
    if prebuilt() {
        println!("SKIPPED (prebuilt test programs: the examples were compiled where the bundle was built)");
        return;
    }
    let (cc, fc) = (tool("CC", "cc"), tool("FC", "gfortran"));
    let moddir = build_modules(&fc).1;
    let all: Vec<Example> = user_docs().iter().flat_map(|d| examples(d, &["c", "fortran"])).collect();
    assert!(all.iter().any(|e| e.lang == "c") && all.iter().any(|e| e.lang == "fortran"), "no C or Fortran example found in the user docs");
    for (k, e) in all.iter().enumerate() {
        let (path, text) = source(e, k);
        let what = format!("the example at {} as compiled:\n{text}", e.place);
        let mut args: Vec<OsString> = if e.lang == "c" {
            ["-std=c99", "-Wall", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-fsyntax-only", "-I", "include"].map(OsString::from).to_vec()
        } else {
            let mut a = fflags();
            a.extend(["-Wno-unused-variable".into(), "-Wno-maybe-uninitialized".into(), "-fsyntax-only".into(), "-I".into(), moddir.clone().into_os_string()]);
            a
        };
        args.push(path.into_os_string());
        compile(if e.lang == "c" { &cc } else { &fc }, &args, &what);
    }
}
