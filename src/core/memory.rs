//! Pointer spaces: whether the arrays of a call are host memory or device memory of the
//! handle's device, and the rule that all arrays of one call share one space.

use super::error::{mention, Error, Result};
use super::handle::{Handle, State};
use std::ffi::c_void;

/// Where the arrays of a call live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Host,
    /// Memory of the handle's CUDA device.
    Device,
}

/// An array argument: pointer and C parameter name.
pub type ArgPtr = (*const c_void, &'static str);

/// The one space that all non-NULL `args` share, checked against the handle's backend:
/// device memory on the CPU backend, memory of another device, or a mix of spaces are
/// `INVALID_VALUE` naming the argument that breaks the rule.
pub fn common_space(h: &Handle, args: &[ArgPtr]) -> Result<Space> {
    match &h.state {
        State::Cpu => host_pointers(args).map(|_| Space::Host),
        State::Cuda(c) => {
            let mut first: Option<(Space, &ArgPtr)> = None;
            for a in args.iter().filter(|a| !a.0.is_null()) {
                let space = match crate::cuda::device_of(a.0) {
                    None => Space::Host,
                    Some(d) if d == c.dev.ordinal => Space::Device,
                    Some(d) => return Err(Error::arg(a.1, format!("({}) is memory of CUDA device {d}, but the handle runs on device {}", a.1, c.dev.ordinal))),
                };
                match first {
                    None => first = Some((space, a)),
                    Some((s, f)) if s != space => {
                        return Err(Error::arg(
                            a.1,
                            format!("({}) is {} memory but {} ({}) is {} memory: all arrays of a call must be in one space", a.1, name(space), mention(f.1), f.1, name(s)),
                        ))
                    }
                    _ => {}
                }
            }
            Ok(first.map(|f| f.0).unwrap_or(Space::Host))
        }
    }
}

/// Checks that no pointer is CUDA device memory (the CPU backend's rule).
pub fn host_pointers(args: &[ArgPtr]) -> Result<()> {
    for a in args {
        if let Some(d) = crate::cuda::device_of(a.0) {
            return Err(Error::arg(a.1, format!("({}) is memory of CUDA device {d}, but the handle's backend is CPU", a.1)));
        }
    }
    Ok(())
}

fn name(s: Space) -> &'static str {
    match s {
        Space::Host => "host",
        Space::Device => "device",
    }
}
