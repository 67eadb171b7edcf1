//! C ABI plumbing: the boundary every entry point goes through, and the core entry points
//! (status, errors, version, handle, memory).

pub mod boundary;
pub mod capi;
pub(crate) mod live;

pub use boundary::{boundary, deref, deref_mut};
