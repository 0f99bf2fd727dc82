//! The stop conditions every search shares: a node budget, a deadline and a cancel flag.
//!
//! One comparison per node; the clock and the flag are read at the root and then every
//! [`CHECK_EVERY`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes between two reads of the clock and the cancel flag.
pub(crate) const CHECK_EVERY: u64 = 1024;

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Nodes,
    Deadline,
    Cancelled,
}

#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Node count at which `check` next runs.
    next_check: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'static AtomicBool>,
}

impl Budget {
    pub(crate) const fn new(
        max_nodes: u64,
        deadline: Option<Instant>,
        cancel: Option<&'static AtomicBool>,
    ) -> Budget {
        // Check at the root (node 1), so a past deadline or a set flag stops at once.
        Budget {
            next_check: 1,
            max_nodes,
            deadline,
            cancel,
        }
    }

    /// Call once per search node with the count including it.
    #[inline(always)]
    pub(crate) fn charge(&mut self, nodes: u64) -> Option<Stop> {
        if nodes < self.next_check {
            None
        } else {
            self.check(nodes)
        }
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, nodes: u64) -> Option<Stop> {
        if nodes > self.max_nodes {
            return Some(Stop::Nodes);
        }
        // Not at the root: a search that needs fewer than CHECK_EVERY nodes (almost any
        // DLX search) finishes, so an interrupt abandons only the long ones in flight.
        if let Some(flag) = self.cancel.filter(|_| nodes >= CHECK_EVERY)
            && flag.load(Ordering::Relaxed)
        {
            return Some(Stop::Cancelled);
        }
        if let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return Some(Stop::Deadline);
        }
        let budget_end = self.max_nodes.saturating_add(1);
        self.next_check = if self.deadline.is_some() || self.cancel.is_some() {
            // Multiples of CHECK_EVERY: the first check after the root is at CHECK_EVERY.
            (nodes / CHECK_EVERY + 1)
                .saturating_mul(CHECK_EVERY)
                .min(budget_end)
        } else {
            budget_end
        };
        None
    }
}
