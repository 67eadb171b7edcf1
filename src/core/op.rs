//! The transposition operator of BLAS.

use super::error::{Error, Result};

/// `op(X)` of a BLAS-style routine, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_op {
    /// op(X) = X
    NUMGPU_OP_N = 0,
    /// op(X) = X^T
    NUMGPU_OP_T = 1,
    /// op(X) = X^H (the same as X^T for real types)
    NUMGPU_OP_C = 2,
}

/// A `numgpu_op` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_op`.
pub type OpArg = i32;

/// op(X) = X, X^T or X^H.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    N,
    T,
    C,
}

impl Op {
    /// Validates an op value from C, passed as the C parameter `name`.
    pub fn from_i32(v: i32, name: &'static str) -> Result<Op> {
        match v {
            0 => Ok(Op::N),
            1 => Ok(Op::T),
            2 => Ok(Op::C),
            _ => Err(Error::arg(name, format!("({name} = {v}) must be NUMGPU_OP_N (0), NUMGPU_OP_T (1) or NUMGPU_OP_C (2)"))),
        }
    }
    pub fn is_trans(self) -> bool {
        self != Op::N
    }
    /// 0, 1, 2 as the kernels take it.
    pub fn code(self) -> i32 {
        self as i32
    }
    /// (rows, cols) of the stored matrix X when op(X) is `r × c`.
    pub fn stored(self, r: usize, c: usize) -> (usize, usize) {
        if self.is_trans() {
            (c, r)
        } else {
            (r, c)
        }
    }
}
