//! Matrix Market files as numgpu CSR matrices, read by sprs (a maintained reader: general,
//! symmetric and skew-symmetric storage expanded to every entry). Shared by the integration
//! tests, the tour and numgpu-bench (`#[path]`), as sprs is a dev-dependency and a dependency
//! of the `bench` feature, not one of the library.

use numgpu::spmv::Csr;
use std::path::{Path, PathBuf};

/// The real matrix in `path`, 0-based CSR, each row's entries in file order.
pub fn read(path: &Path) -> Result<Csr<f64>, String> {
    let tri: sprs::TriMat<f64> = sprs::io::read_matrix_market(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (m, n) = tri.shape();
    let triplets: Vec<(usize, usize, f64)> = tri.triplet_iter().map(|(v, (r, c))| (r, c, *v)).collect();
    Ok(Csr::from_triplets(m, n, &triplets))
}

/// The `.mtx` files of `shared/matrices` (`$NUMGPU_MATRICES`, else the repository's copy in
/// `tests/matrices`), sorted by name, or why there are none.
pub fn shared_matrices() -> Result<Vec<PathBuf>, String> {
    let dir = std::env::var_os("NUMGPU_MATRICES").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/matrices"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e} (set NUMGPU_MATRICES to a folder of .mtx files)", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mtx"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{} holds no .mtx file", dir.display()));
    }
    Ok(files)
}
