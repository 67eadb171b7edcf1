//! The one path every `extern "C"` function takes: catch panics, map errors to a status,
//! turn the argument an error names into its position, record the thread-local last error.

use crate::core::error::{resolve_mentions, Error, Result, Status};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

include!(concat!(env!("OUT_DIR"), "/c_params.rs"));

thread_local! {
    static LAST: RefCell<(String, i32)> = const { RefCell::new((String::new(), 0)) };
}

/// Runs `f` as the body of the entry point `fname`. A panic becomes
/// `NUMGPU_INTERNAL_ERROR`; an error is recorded as `"<fname>: <message>"`, and an error that
/// names a parameter as `"<fname>: argument <position> <message>"` with that 1-based position
/// for `numgpu_last_error_arg`. Success clears the last error, so it always describes this
/// thread's latest call.
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
            let (msg, pos) = describe(fname, &e);
            if std::env::var("NUMGPU_LOG").map(|v| v == "1").unwrap_or(false) {
                eprintln!("numgpu: {msg}");
            }
            set_last(msg, pos);
            e.status
        }
    }
}

/// The last-error text and argument position of `e` raised by `fname`.
fn describe(fname: &str, e: &Error) -> (String, i32) {
    let (text, pos) = as_raised_by(fname, e);
    (format!("{fname}: {text}"), pos)
}

/// `e`'s message as the entry point `fname` reports it, with the position of the argument it
/// names (0 when none): `"argument 9 (lda = 3) must be ..."`. Also for errors found after the
/// call returned (bad input found by a kernel of an asynchronous call), which are reported
/// by a later call but must number the arguments of the one that caused them.
pub fn as_raised_by(fname: &str, e: &Error) -> (String, i32) {
    let msg = resolve_mentions(&e.msg, |name| position(fname, name).map(|p| p.to_string()));
    match e.arg {
        None => (msg, 0),
        Some(name) => match position(fname, name) {
            Some(pos) => (format!("argument {pos} {msg}"), pos),
            // A validator named a parameter this entry point does not have: a bug, which the
            // message keeps visible rather than numbering the wrong argument.
            None => (format!("argument {name} {msg} (internal: {fname} has no parameter {name})"), 0),
        },
    }
}

/// The 1-based position of parameter `name` of the C entry point `fname`.
pub fn position(fname: &str, name: &str) -> Option<i32> {
    let i = C_PARAMS.binary_search_by(|(f, _)| (*f).cmp(fname)).ok()?;
    C_PARAMS[i].1.iter().position(|p| *p == name).map(|p| p as i32 + 1)
}

fn set_last(msg: String, arg: i32) {
    LAST.with(|l| *l.borrow_mut() = (msg, arg));
}

/// This thread's last error message and argument number.
pub fn last_error() -> (String, i32) {
    LAST.with(|l| l.borrow().clone())
}

/// `&mut *p`, or `INVALID_VALUE` naming parameter `name` when `p` is NULL.
///
/// # Safety
/// A non-NULL `p` points to a live, exclusively borrowed `T`.
pub unsafe fn deref_mut<'a, T>(p: *mut T, name: &'static str) -> Result<&'a mut T> {
    p.as_mut().ok_or_else(|| Error::arg(name, format!("({name}) must not be NULL")))
}

/// `&*p`, or `INVALID_VALUE` naming parameter `name` when `p` is NULL.
///
/// # Safety
/// A non-NULL `p` points to a live `T`.
pub unsafe fn deref<'a, T>(p: *const T, name: &'static str) -> Result<&'a T> {
    p.as_ref().ok_or_else(|| Error::arg(name, format!("({name}) must not be NULL")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_come_from_the_signatures() {
        assert_eq!(position("numgpu_create_with", "device"), Some(3));
        assert_eq!(position("numgpu_dgemm_batched_strided", "strideC"), Some(17));
        assert_eq!(position("numgpu_dgemm_batched", "strideC"), None);
        assert_eq!(position("numgpu_no_such_function", "h"), None);
        assert!(C_PARAMS.windows(2).all(|w| w[0].0 < w[1].0), "sorted, no duplicates");
    }

    #[test]
    fn an_argument_error_reads_as_before() {
        let e = Error::arg("lda", "(lda = 3) must be >= max(1, m) = 4");
        let (msg, pos) = describe("numgpu_sgemm_batched", &e);
        assert_eq!(msg, "numgpu_sgemm_batched: argument 9 (lda = 3) must be >= max(1, m) = 4");
        assert_eq!(pos, 9);
        let e = Error::arg("C", format!("(C) is device memory but {} (A) is host memory", crate::core::error::mention("A")));
        assert_eq!(describe("numgpu_sgemm_batched", &e).0, "numgpu_sgemm_batched: argument 13 (C) is device memory but argument 8 (A) is host memory");
        assert_eq!(e.to_string(), "argument C (C) is device memory but argument A (A) is host memory");
    }
}
