//! The C drop-in tests: builds c-tests/*.c against the freshly built libnumgpu.so and runs them,
//! once as they are and once under AddressSanitizer and UBSan. Also the building blocks that
//! fortran.rs uses (where the library is, where outputs go, compiling, running).
//!
//! - The library: target/<profile>/deps/libnumgpu.so or target/<profile>/libnumgpu.so, the
//!   newer of the two (`cargo test` rebuilds the copy in deps/ next to this test executable;
//!   only `cargo build` refreshes the one in target/<profile>). Its SONAME is libnumgpu.so.0,
//!   so a link `libnumgpu.so.0 -> libnumgpu.so` is made beside it and the programs get an
//!   rpath to that directory.
//! - Outputs go to $NUMGPU_TEST_BIN_DIR, else target/<profile>/ctests.
//! - NUMGPU_PREBUILT_TESTS=1: compile nothing, run the executables already in
//!   $NUMGPU_TEST_BIN_DIR (a GPU host without compilers; LD_LIBRARY_PATH finds the library,
//!   which --enable-new-dtags lets override the rpath).
//! - A missing compiler is a failure that says to run `make deps`, never a silent pass.
//! - $CC (default cc) and $FC (default gfortran) pick the compilers.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// C99 and every warning an error, as STYLE.md asks of the C tests.
const CFLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-pthread", "-O1", "-g"];

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// target/<profile>/deps, the directory of this test executable.
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("path of the test executable");
    exe.parent().expect("test executable has a directory").to_path_buf()
}

pub fn prebuilt() -> bool {
    std::env::var("NUMGPU_PREBUILT_TESTS").as_deref() == Ok("1")
}

/// Where the test programs are written (and, with NUMGPU_PREBUILT_TESTS=1, found).
pub fn bin_dir() -> PathBuf {
    let dir = match std::env::var_os("NUMGPU_TEST_BIN_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => {
            assert!(!prebuilt(), "NUMGPU_PREBUILT_TESTS=1 needs NUMGPU_TEST_BIN_DIR, the directory of the prebuilt test programs");
            deps_dir().parent().expect("target/<profile>").join("ctests")
        }
    };
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// The freshly built libnumgpu.so, with a `libnumgpu.so.0` link beside it (made once per
/// process, atomically, so that concurrent tests and runs do not trip over each other).
pub fn library() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let deps = deps_dir();
        let candidates = [deps.join("libnumgpu.so"), deps.parent().expect("target/<profile>").join("libnumgpu.so")];
        let lib = candidates
            .iter()
            .filter_map(|p| Some((std::fs::metadata(p).ok()?.modified().ok()?, p)))
            .max_by_key(|(t, _)| *t)
            .map(|(_, p)| p.clone())
            .unwrap_or_else(|| panic!("libnumgpu.so not found in {} or its parent: run `cargo build`", deps.display()));
        let dir = lib.parent().unwrap();
        let link = dir.join("libnumgpu.so.0");
        let tmp = dir.join(format!(".libnumgpu.so.0.{}", std::process::id()));
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink("libnumgpu.so", &tmp).unwrap_or_else(|e| panic!("cannot create {}: {e}", tmp.display()));
        std::fs::rename(&tmp, &link).unwrap_or_else(|e| panic!("cannot create {}: {e}", link.display()));
        lib
    })
}

/// The compiler named by `$var`, else `default`; panics (never skips) when it is missing.
pub fn tool(var: &str, default: &str) -> String {
    let name = std::env::var(var).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| default.to_string());
    match Command::new(&name).arg("--version").output() {
        Ok(o) if o.status.success() => name,
        Ok(o) => panic!("`{name} --version` failed ({}): run `make deps` to install the compilers\n{}", o.status, String::from_utf8_lossy(&o.stderr)),
        Err(e) => panic!(
            "`{name}` not found ({e}): the C and Fortran tests need gcc, gfortran, OpenBLAS and LAPACKE; run `make deps` \
             (or set NUMGPU_PREBUILT_TESTS=1 and NUMGPU_TEST_BIN_DIR to run programs built elsewhere)"
        ),
    }
}

/// Linker arguments for a program using libnumgpu: the library itself and an rpath to its
/// directory (RUNPATH, so that LD_LIBRARY_PATH can point elsewhere).
pub fn link_args() -> Vec<OsString> {
    let lib = library();
    let mut rpath = OsString::from("-Wl,-rpath,");
    rpath.push(lib.parent().unwrap());
    vec![lib.as_os_str().to_owned(), "-Wl,--enable-new-dtags".into(), rpath]
}

/// Runs a compiler command in the crate root; panics with its output when it fails.
pub fn compile(program: &str, args: &[OsString], what: &str) {
    let out = Command::new(program)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "compiling {what} failed ({}):\n$ {program} {}\n{}{}\n(missing headers or libraries? run `make deps`)",
        out.status,
        args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
}

/// Runs a test program with extra environment variables; asserts that it exits with success
/// and that its summary line "`name`: N passed, 0 failed" has N > 0 ([`run_checked`]).
pub fn run(exe: &Path, name: &str, env: &[(&str, &str)]) {
    assert!(
        exe.is_file(),
        "{} does not exist{}",
        exe.display(),
        if prebuilt() { " (NUMGPU_PREBUILT_TESTS=1: build it where compilers exist, e.g. scripts/gpu-bundle.sh)" } else { "" }
    );
    let mut cmd = Command::new(exe);
    cmd.envs(env.iter().copied());
    run_checked(cmd, name);
}

/// Runs `cmd` from the repository root; asserts that it exits with success and that its
/// summary line "`name`: N passed, 0 failed" has N > 0. Its output is shown always (with
/// --nocapture / --show-output) and in the failure message.
pub fn run_checked(mut cmd: Command, name: &str) {
    let shown = std::iter::once(cmd.get_program()).chain(cmd.get_args()).map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
    let out = cmd.current_dir(root()).output().unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    eprintln!("$ {shown}\n{text}");
    let summary = text.lines().find_map(|l| {
        let rest = l.strip_prefix(name)?.strip_prefix(": ")?;
        let (passed, failed) = rest.split_once(" passed, ")?;
        Some((passed.parse::<u64>().ok()?, failed.strip_suffix(" failed")?.parse::<u64>().ok()?))
    });
    assert!(out.status.success(), "{shown} failed ({}):\n{text}", out.status);
    match summary {
        Some((passed, 0)) if passed > 0 => {}
        _ => panic!("{shown} exited with success but without a summary line \"{name}: N passed, 0 failed\" (N > 0):\n{text}"),
    }
}

/// Builds c-tests/<name>.c (unless prebuilt) into the bin dir as `<name><suffix>`, linked with
/// the extra libraries `libs` (before OpenBLAS, e.g. -llapacke), and returns the executable's
/// path.
fn build_c(name: &str, suffix: &str, extra: &[&str], libs: &[&str]) -> PathBuf {
    let exe = bin_dir().join(format!("{name}{suffix}"));
    if prebuilt() {
        return exe;
    }
    let cc = tool("CC", "cc");
    let mut args: Vec<OsString> = CFLAGS.iter().chain(extra).map(OsString::from).collect();
    args.extend(["-I", "include", "-I", "c-tests"].map(OsString::from));
    args.push(format!("c-tests/{name}.c").into());
    args.push("-o".into());
    args.push(exe.clone().into());
    args.extend(link_args());
    args.extend(libs.iter().map(OsString::from));
    args.extend(["-lopenblas", "-lm"].map(OsString::from));
    compile(&cc, &args, &format!("c-tests/{name}.c"));
    exe
}

/// Builds and runs c-tests/<name>.c, linked with `libs` besides libnumgpu and OpenBLAS.
fn c_test(name: &str, libs: &[&str]) {
    let exe = build_c(name, "", &[], libs);
    run(&exe, name, &[]);
}

/// AddressSanitizer and UndefinedBehaviorSanitizer build of a C test (undefined behaviour
/// aborts it). The Rust library needs nothing special under ASan
/// (its allocations go through the intercepted malloc, and leak detection stays on), but:
/// - `allocator_may_return_null=1`: test_errors asks numgpu_malloc for 2^62 bytes and expects
///   NUMGPU_ALLOC_FAILED; by default ASan aborts the process on such a request instead of
///   letting posix_memalign fail;
/// - `protect_shadow_gap=0`: the CUDA driver maps memory in the range ASan protects by
///   default, and cuInit fails without it (matters on GPU hosts only);
/// - a LeakSanitizer suppression for libnvrtc: when it is loaded it allocates libstdc++'s
///   emergency exception pool (72704 bytes) and never frees it, which LSan reports as a leak
///   on GPU hosts (seen on an H100 with CUDA 13). Leaks from numgpu itself are still reported.
///
/// A caller's ASAN_OPTIONS / LSAN_OPTIONS are kept and come last, so they win.
fn c_test_asan(name: &str, libs: &[&str]) {
    let exe = build_c(name, "_asan", &["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"], libs);
    let supp = bin_dir().join(format!("lsan-{name}.supp"));
    std::fs::write(&supp, "# third-party allocations made once at load time (see tests/integration/c_abi.rs)\nleak:libnvrtc.so\n")
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", supp.display()));
    let with_user = |ours: String, var: &str| match std::env::var(var) {
        Ok(user) if !user.is_empty() => format!("{ours}:{user}"),
        _ => ours,
    };
    let asan = with_user("allocator_may_return_null=1:protect_shadow_gap=0".into(), "ASAN_OPTIONS");
    let lsan = with_user(format!("suppressions={}", supp.display()), "LSAN_OPTIONS");
    run(&exe, name, &[("ASAN_OPTIONS", &asan), ("LSAN_OPTIONS", &lsan)]);
}

/// Two tests per C program: `$test` runs c-tests/`$prog`.c as it is, `$asan` under
/// AddressSanitizer and UBSan; both link the libraries `$lib` besides libnumgpu and OpenBLAS.
macro_rules! c_tests {
    ($($(#[$doc:meta])* $test:ident, $asan:ident => $prog:literal $(, $lib:literal)*;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $test() {
                c_test($prog, &[$($lib),*]);
            }

            #[test]
            fn $asan() {
                c_test_asan($prog, &[$($lib),*]);
            }
        )*
    };
}

c_tests! {
    /// The batched GEMM's argument checks and its drop-in comparison with cblas_?gemm.
    c_test_gemm, c_test_gemm_asan => "test_gemm";
    /// Handles, memory, the last-error contract, status strings and pointer spaces.
    c_test_errors, c_test_errors_asan => "test_errors";
    /// Compares with LAPACK's Fortran symbols ?getc2_, ?gesc2_, which OpenBLAS carries.
    c_test_getrf, c_test_getrf_asan => "test_getrf";
    /// Compares with LAPACKE ?geqrf and ?gels (LAPACK's C interface, a library of its own).
    c_test_geqrf, c_test_geqrf_asan => "test_geqrf", "-llapacke";
    /// Compares with LAPACKE ?gtsv.
    c_test_gtsv, c_test_gtsv_asan => "test_gtsv", "-llapacke";
    /// Compares with LAPACKE ?stebz.
    c_test_stebz, c_test_stebz_asan => "test_stebz", "-llapacke";
    /// Compares with LAPACKE ?syevd, ?heevd and ?gesvd.
    c_test_jacobi, c_test_jacobi_asan => "test_jacobi", "-llapacke";
    /// Compares with LAPACKE ?potrf and ?posv.
    c_test_potrf, c_test_potrf_asan => "test_potrf", "-llapacke";
    /// Compares expm_eig with cblas_?gemm (E⁻¹ from LAPACKE ?gesv), expm with exact cases.
    c_test_expm, c_test_expm_asan => "test_expm", "-llapacke";
    /// LiFE's products against loops over the COO, SBBNNLS against the KKT conditions.
    c_test_life, c_test_life_asan => "test_life";
    /// MTTKRP against the explicit unfold + Khatri–Rao + cblas_?gemm; Khatri–Rao products.
    c_test_tensor, c_test_tensor_asan => "test_tensor";
    /// Integrates a user-written right-hand side given as CUDA source text and as a host
    /// callback (libm only besides libnumgpu).
    c_test_rkc, c_test_rkc_asan => "test_rkc";
    /// Compares with a plain loop (LAPACK has no SpMV).
    c_test_spmv, c_test_spmv_asan => "test_spmv";
    /// Issue 25: numgpu.h with the complex override macros, C99 `float/double _Complex`
    /// passed directly; against cblas_?gemm and loops.
    c_test_complex, c_test_complex_asan => "test_complex";
    /// Kofidis and Regalia's tensor, whose eigenvalues are known.
    c_test_sshopm, c_test_sshopm_asan => "test_sshopm";
    /// Issue 16: every function of the header (c-tests/hostile_calls.h, generated from it) with
    /// each hostile value of each parameter, arrays at guard pages; its regressions. On a GPU
    /// host it also runs on the CUDA backend with host and device arrays.
    c_test_hostile, c_test_hostile_asan => "test_hostile";
}

/// numgpu.h in the same translation unit as <complex.h>, <cblas.h> and <lapacke.h>, which a
/// program replacing LAPACK calls already includes. numgpu.h must not declare the BLAS
/// symbols the library itself imports: its own declarations (with `int` for the CBLAS enums)
/// conflict with <cblas.h>'s, and such a program does not compile.
#[test]
fn c_test_headers_with_cblas_and_lapacke() {
    let header = std::fs::read_to_string(root().join("include/numgpu.h")).expect("include/numgpu.h");
    let foreign: Vec<&str> = header
        .lines()
        .filter(|l| l.contains('(') && (l.contains("cblas_") || l.contains("openblas_") || l.contains("LAPACKE_")))
        .collect();
    assert!(
        foreign.is_empty(),
        "include/numgpu.h declares BLAS symbols that numgpu imports (the extern block of src/lapack.rs), which conflict \
         with <cblas.h> in a user's program; leave them out of the header (cbindgen.toml: [export] exclude = [...]) and \
         regenerate it:\n  {}",
        foreign.join("\n  ")
    );
    c_test("test_headers", &[]);
}

/// Issue 25: numgpu.h from C++ with `std::complex<float>` / `std::complex<double>` as its
/// complex types (the override macros) and its enums as C++ types; c-tests/test_complex_cpp.cpp
/// built with g++ (`CXX`), -std=c++17 -Wall -Wextra -Werror -pedantic.
#[test]
fn cxx_test_complex() {
    let exe = bin_dir().join("test_complex_cpp");
    if !prebuilt() {
        let cxx = tool("CXX", "g++");
        let mut args: Vec<OsString> = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g", "-I", "include"].map(OsString::from).to_vec();
        args.extend(["c-tests/test_complex_cpp.cpp".into(), "-o".into(), exe.clone().into()]);
        args.extend(link_args());
        compile(&cxx, &args, "c-tests/test_complex_cpp.cpp");
    }
    run(&exe, "test_complex_cpp", &[]);
}
