//! The crate's error type: a status code, the 1-based argument it names (0 when none) and a
//! message. The C boundary turns it into a `numgpu_status` and the thread-local last error.

use std::fmt;

/// Status codes of every entry point. Values are part of the ABI: never reuse a retired one.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_status {
    /// The call did what it was asked.
    NUMGPU_SUCCESS = 0,
    /// An argument was invalid; `numgpu_last_error_arg()` names it. Nothing was written.
    NUMGPU_INVALID_VALUE = 1,
    /// The arguments are valid but this build, backend or index type cannot serve them.
    NUMGPU_NOT_SUPPORTED = 2,
    /// The requested backend (CUDA) has no usable driver or device.
    NUMGPU_BACKEND_UNAVAILABLE = 3,
    /// Host or device memory could not be allocated; the handle stays usable.
    NUMGPU_ALLOC_FAILED = 4,
    /// A kernel or driver call failed while running.
    NUMGPU_EXECUTION_FAILED = 5,
    /// Run-time compilation (NVRTC) of a kernel failed; the log is in the last error.
    NUMGPU_COMPILE_FAILED = 6,
    /// A bug in numgpu (e.g. a caught panic).
    NUMGPU_INTERNAL_ERROR = 7,
}

pub use numgpu_status as Status;

/// An error with the status it maps to, the 1-based argument it names and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    /// 1-based position of the offending argument in the C signature, 0 when none.
    pub arg: i32,
    pub msg: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(status: Status, msg: impl Into<String>) -> Self {
        Error { status, arg: 0, msg: msg.into() }
    }
    /// `INVALID_VALUE` naming argument `arg` (1-based).
    pub fn arg(arg: i32, msg: impl Into<String>) -> Self {
        Error { status: Status::NUMGPU_INVALID_VALUE, arg, msg: format!("argument {arg} {}", msg.into()) }
    }
    pub fn invalid(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_INVALID_VALUE, msg)
    }
    pub fn not_supported(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_NOT_SUPPORTED, msg)
    }
    pub fn unavailable(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_BACKEND_UNAVAILABLE, msg)
    }
    pub fn alloc(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_ALLOC_FAILED, msg)
    }
    pub fn exec(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_EXECUTION_FAILED, msg)
    }
    pub fn internal(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_INTERNAL_ERROR, msg)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for Error {}

/// `a * b` for sizes, or `NOT_SUPPORTED` naming what overflowed.
pub fn checked_mul(a: usize, b: usize, what: &str) -> Result<usize> {
    a.checked_mul(b).ok_or_else(|| Error::not_supported(format!("{what} overflows the address space")))
}

/// `a + b` for sizes, or `NOT_SUPPORTED` naming what overflowed.
pub fn checked_add(a: usize, b: usize, what: &str) -> Result<usize> {
    a.checked_add(b).ok_or_else(|| Error::not_supported(format!("{what} overflows the address space")))
}

/// A C `int64_t` size as `usize`, or `INVALID_VALUE` naming argument `arg` when negative.
pub fn nonneg(v: i64, arg: i32, name: &str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::arg(arg, format!("({name} = {v}) must be >= 0")))
}
