//! Which triangle of a Hermitian matrix a routine reads and writes, as LAPACK's `UPLO`.

use super::error::{Error, Result};

/// The triangle of a symmetric/Hermitian matrix that is stored, as an `int32_t` at the ABI
/// (values as cuBLAS's `cublasFillMode_t`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_uplo {
    /// The lower triangle (LAPACK UPLO = 'L'): A = L·Lᴴ.
    NUMGPU_UPLO_LOWER = 0,
    /// The upper triangle (LAPACK UPLO = 'U'): A = Uᴴ·U.
    NUMGPU_UPLO_UPPER = 1,
}

/// A `numgpu_uplo` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_uplo`.
pub type UploArg = i32;

/// The lower or the upper triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uplo {
    Lower,
    Upper,
}

impl Uplo {
    /// Validates an uplo value from C, passed as the C parameter `name`.
    pub fn from_i32(v: i32, name: &'static str) -> Result<Uplo> {
        match v {
            0 => Ok(Uplo::Lower),
            1 => Ok(Uplo::Upper),
            _ => Err(Error::arg(name, format!("({name} = {v}) must be NUMGPU_UPLO_LOWER (0) or NUMGPU_UPLO_UPPER (1)"))),
        }
    }
    /// 0 (lower) or 1 (upper), as the kernels take it.
    pub fn code(self) -> i32 {
        self as i32
    }
    /// LAPACK's UPLO character.
    pub fn lapack(self) -> u8 {
        match self {
            Uplo::Lower => b'L',
            Uplo::Upper => b'U',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_values_are_named() {
        for u in [Uplo::Lower, Uplo::Upper] {
            assert_eq!(Uplo::from_i32(u.code(), "uplo").unwrap(), u);
        }
        assert_eq!(Uplo::Lower.code(), numgpu_uplo::NUMGPU_UPLO_LOWER as i32);
        assert_eq!(Uplo::Upper.code(), numgpu_uplo::NUMGPU_UPLO_UPPER as i32);
        let e = Uplo::from_i32(2, "uplo").unwrap_err();
        assert_eq!(e.arg, Some("uplo"));
    }
}
