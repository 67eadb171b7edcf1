//! The addresses of the opaque objects numgpu handed to C and has not released (handles,
//! LiFE plans): destroying one twice, or using a destroyed one, is reported instead of
//! touching freed memory (unless a later create returned the same address meanwhile).

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A set of live object addresses. Only creating, destroying and checking take the lock.
pub(crate) struct Live(Mutex<BTreeSet<usize>>);

impl Live {
    pub(crate) const fn new() -> Live {
        Live(Mutex::new(BTreeSet::new()))
    }

    fn set(&self) -> MutexGuard<'_, BTreeSet<usize>> {
        // The set stays consistent across a panic (each update is one insert or remove).
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `p` as live.
    pub(crate) fn insert<T>(&self, p: *const T) {
        self.set().insert(p as usize);
    }

    /// Whether `p` is live.
    pub(crate) fn contains<T>(&self, p: *const T) -> bool {
        self.set().contains(&(p as usize))
    }

    /// Releases `p`; false when it was not live.
    pub(crate) fn remove<T>(&self, p: *const T) -> bool {
        self.set().remove(&(p as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_live_from_insert_to_remove_once() {
        static L: Live = Live::new();
        let x = 5u8;
        assert!(!L.contains(&x));
        L.insert(&x);
        assert!(L.contains(&x));
        assert!(L.remove(&x));
        assert!(!L.remove(&x) && !L.contains(&x));
    }
}
