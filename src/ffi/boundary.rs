//! The one path every `extern "C"` function takes: catch panics, map errors to a status,
//! record the thread-local last error.

use crate::core::error::{Error, Result, Status};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    static LAST: RefCell<(String, i32)> = const { RefCell::new((String::new(), 0)) };
}

/// Runs `f` as the body of the entry point `fname`. A panic becomes
/// `NUMGPU_INTERNAL_ERROR`; an error is recorded as `"<fname>: <message>"`. Success clears the
/// last error, so it always describes this thread's latest call.
pub fn boundary(fname: &str, f: impl FnOnce() -> Result<()>) -> Status {
    let out = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::internal(format!("internal error (panic): {what}")))
    });
    match out {
        Ok(()) => {
            set_last(String::new(), 0);
            Status::NUMGPU_SUCCESS
        }
        Err(e) => {
            let msg = format!("{fname}: {}", e.msg);
            if std::env::var("NUMGPU_LOG").map(|v| v == "1").unwrap_or(false) {
                eprintln!("numgpu: {msg}");
            }
            set_last(msg, e.arg);
            e.status
        }
    }
}

fn set_last(msg: String, arg: i32) {
    LAST.with(|l| *l.borrow_mut() = (msg, arg));
}

/// This thread's last error message and argument number.
pub fn last_error() -> (String, i32) {
    LAST.with(|l| l.borrow().clone())
}

/// `&mut *p`, or `INVALID_VALUE` naming argument `arg` when `p` is NULL.
///
/// # Safety
/// A non-NULL `p` points to a live, exclusively borrowed `T`.
pub unsafe fn deref_mut<'a, T>(p: *mut T, arg: i32, name: &str) -> Result<&'a mut T> {
    p.as_mut().ok_or_else(|| Error::arg(arg, format!("({name}) must not be NULL")))
}

/// `&*p`, or `INVALID_VALUE` naming argument `arg` when `p` is NULL.
///
/// # Safety
/// A non-NULL `p` points to a live `T`.
pub unsafe fn deref<'a, T>(p: *const T, arg: i32, name: &str) -> Result<&'a T> {
    p.as_ref().ok_or_else(|| Error::arg(arg, format!("({name}) must not be NULL")))
}
