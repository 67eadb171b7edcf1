//! The installed header defines only numgpu's names: every macro, type, enum constant and
//! function of include/numgpu.h starts with `numgpu_` or `NUMGPU_`, so a C or Fortran program
//! with its own `WARP` or `THREADS` compiles and keeps its meaning.

use std::path::PathBuf;
use std::process::Command;

fn header() -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include/numgpu.h")).expect("include/numgpu.h")
}

/// Every name the header defines: macros, typedefs, tags, enum constants, functions.
fn defined_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let word = |s: &str| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).find(|w| !w.is_empty()).map(str::to_string);
    let mut in_enum = false;
    // Comments hold prose, not definitions.
    let code: String = text.split("/*").enumerate().map(|(i, part)| if i == 0 { part } else { part.split_once("*/").map_or("", |p| p.1) }).collect();
    for line in code.lines().map(|l| l.split("//").next().unwrap_or_default().trim()) {
        if let Some(rest) = line.strip_prefix("#define ") {
            names.extend(word(rest));
        } else if let Some(rest) = line.strip_prefix("enum ").or_else(|| line.strip_prefix("typedef struct ")).or_else(|| line.strip_prefix("struct ")) {
            in_enum = line.starts_with("enum ");
            names.extend(word(rest).filter(|w| w != "{"));
        } else if line.starts_with("typedef ") && line.ends_with(';') {
            let tail = line.trim_end_matches(';').trim_end_matches(')');
            names.extend(tail.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).find(|w| !w.is_empty()).map(str::to_string));
        } else if line.starts_with('}') {
            // `} name;` closes a typedef'd struct.
            names.extend(word(line.trim_start_matches('}')));
            in_enum = false;
        } else if in_enum && line.contains('=') {
            names.extend(word(line));
        } else if let Some(open) = line.find('(').filter(|_| line.starts_with("numgpu_status ") || line.starts_with("const ") || line.starts_with("size_t ") || line.starts_with("int32_t ")) {
            names.extend(line[..open].rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).find(|w| !w.is_empty()).map(str::to_string));
        }
    }
    names
}

#[test]
fn header_defines_only_prefixed_names() {
    let names = defined_names(&header());
    assert!(names.len() > 100, "the scan found {} names: it no longer reads the header", names.len());
    for must in ["NUMGPU_VERSION", "numgpu_handle", "NUMGPU_SSHOPM_CONVERGED", "numgpu_sgemm_batched", "numgpu_complex_float"] {
        assert!(names.iter().any(|n| n == must), "the scan misses {must}");
    }
    let bad: Vec<&String> = names.iter().filter(|n| !(n.starts_with("numgpu_") || n.starts_with("NUMGPU_"))).collect();
    assert!(bad.is_empty(), "include/numgpu.h defines unprefixed names: {bad:?}");
}

/// A program that defines common names as its own macros still compiles with the header,
/// as C and as C++.
#[test]
fn header_leaves_common_names_to_the_program() {
    let dir = std::env::temp_dir().join(format!("numgpu-header-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("names.c");
    std::fs::write(
        &src,
        "#define WARP 1\n#define PAD 2\n#define THREADS 3\n#define MAX_N 4\n#define MAX_M 5\n#define CHECK_CLEAN 6\n#define FLAG_CONVERGED 7\n#define TYPE_MAX 8\n#define STAGING_BYTES 9\n\
         #include \"numgpu.h\"\n\
         int main(void) { return WARP + PAD + THREADS + MAX_N + MAX_M + CHECK_CLEAN + FLAG_CONVERGED + TYPE_MAX + STAGING_BYTES == 45 && NUMGPU_SSHOPM_CONVERGED == 0 ? 0 : 1; }\n",
    )
    .unwrap();
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include");
    for (compiler, lang) in [("cc", "c"), ("c++", "c++")] {
        let out = Command::new(compiler)
            .args(["-x", lang, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(&include)
            .arg(&src)
            .output()
            .unwrap_or_else(|e| panic!("{compiler}: {e}"));
        assert!(out.status.success(), "{compiler} rejects numgpu.h beside the program's own macros:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(dir).unwrap();
}
