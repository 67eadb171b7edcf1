//! The user's examples in README.md and docs/*.md compile as written, and the complete ones
//! run, so that they cannot rot:
//!
//! - A ```c block that is a whole program (it has `int main`) and a ```fortran block that is
//!   one (it starts with `program`) are built as a user would build them (C99 with every
//!   warning an error; the generated Fortran module) against the freshly built libnumgpu, and
//!   run: they must exit 0, which they do only when their own check of the result passes.
//!   They run on the CPU backend (`NUMGPU_BACKEND=cpu`) and, where a GPU is usable, on CUDA
//!   (`NUMGPU_BACKEND=cuda`; `NUMGPU_REQUIRE_CUDA=1` makes a missing GPU a failure, as in
//!   every CUDA test).
//! - Any other ```c or ```fortran block is a fragment and is only compiled: a C fragment as the
//!   body of a function, a Fortran one as a program. A fragment may assume variables: an HTML
//!   comment on the line before its fence, `<!-- example context: DECLARATIONS -->`, declares
//!   them (C declarations before a C block, Fortran ones after a Fortran block's `use` lines);
//!   nothing else is added.
//!
//! Programs go to the bin dir's examples/ folder, named after their file and rank
//! (`README_1`, `gemm_batched_1`). With `NUMGPU_PREBUILT_TESTS=1` (a GPU host without
//! compilers: scripts/gpu-bundle.sh builds them) nothing is compiled and the programs found
//! there are run.

use super::c_abi::{bin_dir, compile, link_args, prebuilt, root, tool};
use super::common;
use super::fortran::{build_modules, fflags};
use numgpu::BackendChoice;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// A whole C program is built as a user's would be, with the C tests' warnings as errors.
const PROGRAM_CFLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

/// One fenced block: where it is, its language, the context comment before it, its text, and
/// for a whole program its executable's name.
struct Example {
    place: String,
    lang: String,
    context: String,
    code: String,
    program: Option<String>,
}

/// Whether a block is a whole program rather than a fragment.
fn is_program(lang: &str, code: &str) -> bool {
    match lang {
        "c" => code.lines().any(|l| l.trim_start().starts_with("int main")),
        _ => code.lines().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('!')).is_some_and(|l| l.trim_start().to_lowercase().starts_with("program ")),
    }
}

/// The fenced blocks of `file` in the languages asked for; whole programs are named
/// `<file stem>_<k>`, k counting the file's programs from 1.
fn examples(file: &str, langs: &[&str]) -> Vec<Example> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
    let stem = Path::new(file).file_stem().unwrap().to_string_lossy().replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut programs = 0;
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
            let code = lines[i + 1..end].join("\n");
            let program = is_program(lang, &code).then(|| {
                programs += 1;
                format!("{stem}_{programs}")
            });
            assert!(program.is_none() || context.is_empty(), "{file}:{}: a whole program takes no example context", i + 1);
            out.push(Example { place: format!("{file}:{}", i + 1), lang: lang.to_string(), context, code, program });
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

/// Every C and Fortran block of the user docs.
fn all_examples() -> Vec<Example> {
    user_docs().iter().flat_map(|d| examples(d, &["c", "fortran"])).collect()
}

/// The bin dir's examples/ folder, where the sources and programs go.
fn examples_dir() -> PathBuf {
    let dir = bin_dir().join("examples");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` into the examples folder as `name`.
fn write(name: &str, text: &str) -> PathBuf {
    let path = examples_dir().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The source to compile: a program as it is; a C fragment as the body of a function after its
/// context; a Fortran fragment as a program, its context after the `use` lines it starts with.
fn source(e: &Example, k: usize) -> (PathBuf, String) {
    let ext = if e.lang == "c" { "c" } else { "f90" };
    if let Some(name) = &e.program {
        return (write(&format!("{name}.{ext}"), &e.code), e.code.clone());
    }
    let text = if e.lang == "c" {
        format!("#include <stdio.h>\n#include <numgpu.h>\n\nvoid example_{k}(void)\n{{\n{}\n{}\n}}\n", e.context, e.code)
    } else {
        let lines: Vec<&str> = e.code.lines().collect();
        let uses = lines.iter().take_while(|l| l.trim_start().starts_with("use ")).count();
        format!("program example_{k}\n{}\n{}\n{}\nend program example_{k}\n", lines[..uses].join("\n"), e.context, lines[uses..].join("\n"))
    };
    (write(&format!("fragment_{k}.{ext}"), &text), text)
}

/// Compiles one block: a fragment for its syntax only, a program into an executable linked
/// against libnumgpu (and libm, which C examples may use).
fn build(e: &Example, k: usize, cc: &str, fc: &str) {
    let (path, text) = source(e, k);
    let what = format!("the example at {} as compiled:\n{text}", e.place);
    let mut args: Vec<OsString> = Vec::new();
    if e.lang == "c" {
        let flags = if e.program.is_some() { PROGRAM_CFLAGS } else { &["-std=c99", "-Wall", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable"] };
        args.extend(flags.iter().map(OsString::from));
        args.extend(["-I", "include"].map(OsString::from));
    } else {
        let (objects, moddir) = build_modules(fc);
        args.extend(fflags());
        if e.program.is_none() {
            args.extend(["-Wno-unused-variable", "-Wno-maybe-uninitialized"].map(OsString::from));
        }
        args.extend(["-I".into(), moddir.into_os_string()]);
        if e.program.is_some() {
            // The module's own object (its wrappers), not the test module's.
            args.extend(objects.into_iter().filter(|o| o.file_name().is_some_and(|n| n == "numgpu_f90.o")).map(OsString::from));
        }
    }
    args.push(path.into_os_string());
    match &e.program {
        None => args.push("-fsyntax-only".into()),
        Some(name) => {
            args.extend(["-o".into(), examples_dir().join(name).into_os_string()]);
            args.extend(link_args());
            args.push("-lm".into());
        }
    }
    compile(if e.lang == "c" { cc } else { fc }, &args, &what);
}

/// Builds every example once per process (unless prebuilt) and returns them: the compile test
/// and the two run tests share the work.
fn built() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    ALL.get_or_init(|| {
        let all = all_examples();
        assert!(all.iter().any(|e| e.lang == "c") && all.iter().any(|e| e.lang == "fortran"), "no C or Fortran example found in the user docs");
        if !prebuilt() {
            let (cc, fc) = (tool("CC", "cc"), tool("FC", "gfortran"));
            for (k, e) in all.iter().enumerate() {
                build(e, k, &cc, &fc);
            }
        }
        all
    })
}

/// Runs every whole program with `NUMGPU_BACKEND=backend`; each must exit 0. Their output is
/// shown (with --show-output) and in the failure message.
fn run_programs(backend: &str) {
    let programs: Vec<&Example> = built().iter().filter(|e| e.program.is_some()).collect();
    assert!(!programs.is_empty(), "no whole program among the examples of the user docs");
    let mut failures = Vec::new();
    for e in programs {
        let exe = examples_dir().join(e.program.as_ref().unwrap());
        assert!(exe.is_file(), "{} (the example at {}) does not exist{}", exe.display(), e.place, if prebuilt() { " (NUMGPU_PREBUILT_TESTS=1: build it where compilers exist, e.g. scripts/gpu-bundle.sh)" } else { "" });
        let out = Command::new(&exe).env("NUMGPU_BACKEND", backend).current_dir(root()).output().unwrap_or_else(|err| panic!("cannot run {}: {err}", exe.display()));
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        println!("$ NUMGPU_BACKEND={backend} {}   # the example at {}\n{text}", exe.display(), e.place);
        if !out.status.success() {
            failures.push(format!("the example at {} ({}) failed on {backend} ({}):\n{text}", e.place, exe.display(), out.status));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readme_and_docs_examples_compile() {
    if prebuilt() {
        println!("SKIPPED (prebuilt test programs: the examples were compiled where the bundle was built)");
        return;
    }
    built();
}

#[test]
fn readme_and_docs_programs_run_cpu() {
    run_programs("cpu");
}

#[test]
fn readme_and_docs_programs_run_cuda() {
    // Skips (saying why) without a usable GPU, or fails under NUMGPU_REQUIRE_CUDA=1.
    if common::handle(BackendChoice::Cuda).is_some() {
        run_programs("cuda");
    }
}
