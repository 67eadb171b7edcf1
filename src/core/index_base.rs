//! The base of the index arrays of a sparse or coordinate format (CSR, COO), as cuSPARSE's
//! `cusparseIndexBase_t`.

use super::error::{Error, Result};

/// The value of an index array's first position, as an `int32_t` at the ABI (values as
/// cuSPARSE's `cusparseIndexBase_t`): 0 for C arrays, 1 for Fortran's.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_index_base {
    /// Indices count from 0 (C).
    NUMGPU_INDEX_BASE_ZERO = 0,
    /// Indices count from 1 (Fortran, LAPACK).
    NUMGPU_INDEX_BASE_ONE = 1,
}

/// A `numgpu_index_base` value as a C parameter takes it: an `int32_t`, validated (a Rust enum
/// taken from C would be undefined behaviour when out of range). The header names it
/// `numgpu_index_base`.
pub type IndexBaseArg = i32;

/// Validates an index base from C (the parameter `index_base`): 0 or 1, returned as the offset
/// the indices carry.
pub fn check_index_base(v: IndexBaseArg) -> Result<i32> {
    match v {
        0 | 1 => Ok(v),
        _ => Err(Error::arg("index_base", format!("(index_base = {v}) must be NUMGPU_INDEX_BASE_ZERO (0) or NUMGPU_INDEX_BASE_ONE (1)"))),
    }
}
