//! Which side an operator multiplies from, as LAPACK's `SIDE` argument.

use super::error::{Error, Result};

/// The side of `C` that `Q` (or `Qᴴ`) multiplies in `?ormqr`-style routines, as an `int32_t`
/// at the ABI (values as cuBLAS's `cublasSideMode_t`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_side {
    /// op(Q)·C (LAPACK SIDE = 'L')
    NUMGPU_SIDE_LEFT = 0,
    /// C·op(Q) (LAPACK SIDE = 'R')
    NUMGPU_SIDE_RIGHT = 1,
}

/// A `numgpu_side` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_side`.
pub type SideArg = i32;

/// op(Q)·C or C·op(Q).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// op(Q)·C
    Left,
    /// C·op(Q)
    Right,
}

impl Side {
    /// Validates a side value from C, passed as the C parameter `name`.
    pub fn from_i32(v: i32, name: &'static str) -> Result<Side> {
        match v {
            0 => Ok(Side::Left),
            1 => Ok(Side::Right),
            _ => Err(Error::arg(name, format!("({name} = {v}) must be NUMGPU_SIDE_LEFT (0) or NUMGPU_SIDE_RIGHT (1)"))),
        }
    }
    /// 0 (left) or 1 (right), as the kernels take it.
    pub fn code(self) -> i32 {
        self as i32
    }
}
