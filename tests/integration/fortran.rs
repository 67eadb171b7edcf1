//! The Fortran side: builds include/numgpu.f90 (generated: header::fortran_module, and
//! header::fortran_module_is_current keeps it current), the shared test module
//! fortran-tests/testing.f90 and the programs of fortran-tests/ with gfortran against the
//! freshly built libnumgpu.so, and runs them (see c_abi.rs for where the library and the
//! outputs are, and NUMGPU_PREBUILT_TESTS). The test sources are stamped first: their
//! `!@ template` blocks are written once for the precisions they list (fortran/README.md).

use super::c_abi::{bin_dir, compile, link_args, prebuilt, root, run, tool};
use super::header::fortran_module::stamp;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

/// F2008 with every warning an error. `-ffpe-summary=none`: the tests put NaN where numgpu must
/// not read, which may raise IEEE_INVALID, and gfortran would print a note about it at STOP;
/// `-fcheck=all` adds run-time bounds checks.
const FFLAGS: &[&str] = &["-std=f2008", "-Wall", "-Werror", "-fcheck=all", "-ffpe-summary=none", "-g"];

pub fn fflags() -> Vec<OsString> {
    FFLAGS.iter().map(OsString::from).collect()
}

/// fortran-tests/<name>.f90 stamped into the bin dir (under src/), ready to compile.
fn stamped(name: &str) -> PathBuf {
    let source = format!("fortran-tests/{name}.f90");
    let text = std::fs::read_to_string(root().join(&source)).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let dir = bin_dir().join("src");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.f90"));
    std::fs::write(&path, stamp(&text, &source).0).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

/// Compiles include/numgpu.f90 and fortran-tests/testing.f90 once into the bin dir: their
/// objects, and their .mod files under mod/.
pub fn build_modules(fc: &str) -> (Vec<PathBuf>, PathBuf) {
    static DONE: OnceLock<(Vec<PathBuf>, PathBuf)> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = bin_dir();
        let moddir = dir.join("mod");
        std::fs::create_dir_all(&moddir).unwrap();
        let mut objects = Vec::new();
        for (source, what) in [(PathBuf::from("include/numgpu.f90"), "include/numgpu.f90"), (stamped("testing"), "fortran-tests/testing.f90")] {
            let obj = dir.join(format!("{}_f90.o", source.file_stem().unwrap().to_string_lossy()));
            let mut args = fflags();
            args.extend(["-I".into(), moddir.clone().into(), "-J".into(), moddir.clone().into(), "-c".into(), source.into()]);
            args.extend(["-o".into(), obj.clone().into()]);
            compile(fc, &args, what);
            objects.push(obj);
        }
        (objects, moddir)
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
        let (objects, moddir) = build_modules(&fc);
        let mut args = fflags();
        // -J: a module the test itself defines goes beside numgpu's, not into the source tree.
        args.extend(["-I".into(), moddir.clone().into(), "-J".into(), moddir.into(), stamped(name).into()]);
        args.extend(objects.into_iter().map(OsString::from));
        args.extend(["-o".into(), path.clone().into()]);
        args.extend(link_args());
        args.extend(libs.iter().map(OsString::from));
        compile(&fc, &args, &format!("fortran-tests/{name}.f90"));
    }
    run(&path, exe, &[]);
}

/// The module's conventions (issue 25): `use numgpu` alone compiles the README's example, and
/// the one-right-hand-side generics agree with the rank-2 and rank-3 forms.
#[test]
fn fortran_test_conventions() {
    fortran_test("test_conventions", "test_conventions_f", &[]);
}

/// The module itself: strings, constants, handles, getters by reference, numgpu_malloc memory.
#[test]
fn fortran_test_handle() {
    fortran_test("test_handle", "test_handle_f", &[]);
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

/// test_geqrf_f calls LAPACK's ?gels as its reference, so it links OpenBLAS as test_getrf_f.
#[test]
fn fortran_test_geqrf() {
    fortran_test("test_geqrf", "test_geqrf_f", &["-lopenblas"]);
}

/// test_spmv_f compares with a reference written in the test (LAPACK has no SpMV).
#[test]
fn fortran_test_spmv() {
    fortran_test("test_spmv", "test_spmv_f", &[]);
}

/// test_gtsv_f calls LAPACK's ?gtsv as its reference, so it links OpenBLAS as test_getrf_f.
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

/// test_stebz_f checks against exact eigenvalues (tridiag(-1, 2, -1)), so it needs only numgpu.
#[test]
fn fortran_test_stebz() {
    fortran_test("test_stebz", "test_stebz_f", &[]);
}

/// test_tensor_f checks against the sums written out in the test, so it needs only numgpu.
#[test]
fn fortran_test_tensor() {
    fortran_test("test_tensor", "test_tensor_f", &[]);
}

/// test_jacobi_f checks against exact eigenvalues and singular values, so it needs only
/// numgpu.
#[test]
fn fortran_test_jacobi() {
    fortran_test("test_jacobi", "test_jacobi_f", &[]);
}

/// test_potrf_f checks against the exact factor of tridiag(-1, 2, -1), so it needs only numgpu.
#[test]
fn fortran_test_potrf() {
    fortran_test("test_potrf", "test_potrf_f", &[]);
}

/// test_expm_f checks against exact exponentials (diagonals, rotations): it needs only numgpu.
#[test]
fn fortran_test_expm() {
    fortran_test("test_expm", "test_expm_f", &[]);
}

/// test_life_f checks against loops over its COO, so it needs only numgpu.
#[test]
fn fortran_test_life() {
    fortran_test("test_life", "test_life_f", &[]);
}
