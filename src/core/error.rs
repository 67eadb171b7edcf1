//! The crate's error type: a status code, the C parameter it names (if any) and a message.
//! The C boundary turns it into a `numgpu_status`, the argument's position and the
//! thread-local last error.

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

/// A `numgpu_status` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_status`.
pub type StatusArg = i32;

pub use numgpu_status as Status;

/// An error with the status it maps to, the C parameter it names and a message.
///
/// Below the C boundary an error names its argument by the C parameter's name (`"lda"`);
/// only the boundary knows positions: it turns the name into the 1-based position of the
/// entry point that was called (`numgpu_last_error_arg`) and writes
/// `"<function>: argument <position> <msg>"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    /// The C parameter the error names (`"lda"`), `None` when it names none.
    pub arg: Option<&'static str>,
    /// What is wrong; for an argument error it starts with the argument and its value,
    /// e.g. `"(lda = 3) must be >= max(1, m) = 4"`.
    pub msg: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(status: Status, msg: impl Into<String>) -> Self {
        Error { status, arg: None, msg: msg.into() }
    }
    /// `INVALID_VALUE` naming the C parameter `name`; `msg` starts with the argument, e.g.
    /// `"(lda = 3) must be >= max(1, m) = 4"`.
    pub fn arg(name: &'static str, msg: impl Into<String>) -> Self {
        Error { status: Status::NUMGPU_INVALID_VALUE, arg: Some(name), msg: msg.into() }
    }
    pub fn invalid(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_INVALID_VALUE, msg)
    }
    pub fn not_supported(msg: impl Into<String>) -> Self {
        Self::new(Status::NUMGPU_NOT_SUPPORTED, msg)
    }
    /// `NOT_SUPPORTED` naming the C parameter `name` (an extent or size this build cannot
    /// serve); `msg` starts with the argument, as for [`Error::arg`].
    pub fn unsupported_arg(name: &'static str, msg: impl Into<String>) -> Self {
        Error { status: Status::NUMGPU_NOT_SUPPORTED, arg: Some(name), msg: msg.into() }
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

/// `argument lda (lda = 3) must be ...` for an argument error, else the message; other
/// arguments the message mentions appear by name.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = resolve_mentions(&self.msg, |name| Some(name.to_string()));
        match self.arg {
            Some(name) => write!(f, "argument {name} {msg}"),
            None => f.write_str(&msg),
        }
    }
}

/// Marks the C parameter `name` inside a message: `"... but {mention("A")} (A) is host
/// memory"` reads `"... but argument 8 (A) is host memory"` at the C boundary (the position
/// of A in the entry point called) and `"... but argument A (A) ..."` in Rust.
pub fn mention(name: &str) -> String {
    format!("argument {MARK}{name}{MARK}")
}

const MARK: char = '\u{1}';

/// `msg` with each mention replaced by what `by` gives for its name (the name itself when
/// `by` gives nothing).
pub fn resolve_mentions(msg: &str, by: impl Fn(&str) -> Option<String>) -> String {
    let mut parts = msg.split(MARK);
    let mut out = parts.next().unwrap_or_default().to_string();
    while let Some(name) = parts.next() {
        out += &by(name).unwrap_or_else(|| name.to_string());
        out += parts.next().unwrap_or_default();
    }
    out
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
