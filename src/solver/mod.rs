//! Solver backends behind one trait, chosen through the [`Backend`] enum.
//!
//! A solver does no I/O and no timing: it counts solutions up to a limit and reports
//! machine-independent work counters. The runner times it and the reporter writes.

mod budget;
mod dfs;
mod dlx_arena;
mod dlx_static;
pub mod exact_cover;
#[cfg(test)]
pub(crate) mod mock;
mod null;
#[cfg(feature = "reference")]
mod reference;

pub use dfs::Dfs;
pub use dlx_arena::DlxArena;
pub use dlx_static::DlxStatic;
pub use null::Null;
#[cfg(feature = "reference")]
pub use reference::Reference;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use budget::Stop;

/// Default node budget: keeps `dfs` on any single puzzle to about a second (it visits
/// about 110 million nodes a second on the development VM); the DLX backends need at
/// most tens of thousands of nodes for any 9x9 puzzle and never come near it.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// How far a search may go.
///
/// The deadline and the cancel flag are checked at the root and then every 1,024 search
/// nodes, so a search stops within about 1,024 nodes of either (microseconds for every
/// backend). Build it with `..Limits::default()` so new fields need no change.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after this many solutions (1: find one; 2: check uniqueness).
    pub max_solutions: u32,
    /// Stop after visiting this many search-tree nodes.
    pub max_nodes: u64,
    /// Stop once this instant has passed (`SolveOutcome::timed_out`).
    pub deadline: Option<Instant>,
    /// The per-puzzle time limit the runner turns into `deadline` as each solve starts;
    /// solvers read only `deadline`.
    pub timeout: Option<Duration>,
    /// Stop once this flag is set, e.g. from a Ctrl-C handler (`SolveOutcome::cancelled`).
    /// `&'static` keeps `Limits` `Copy`: use a `static` or a leaked `Box`.
    pub cancel: Option<&'static AtomicBool>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_solutions: 2,
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
            timeout: None,
            cancel: None,
        }
    }
}

impl PartialEq for Limits {
    fn eq(&self, other: &Limits) -> bool {
        // The flag compares by identity: `AtomicBool` has no `PartialEq`.
        let same_flag = match (self.cancel, other.cancel) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            _ => false,
        };
        self.max_solutions == other.max_solutions
            && self.max_nodes == other.max_nodes
            && self.deadline == other.deadline
            && self.timeout == other.timeout
            && same_flag
    }
}

impl Eq for Limits {}

impl Limits {
    pub(crate) fn budget(&self) -> budget::Budget {
        budget::Budget::new(self.max_nodes, self.deadline, self.cancel)
    }
}

/// What one search found and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Solutions found, at most `Limits::max_solutions`.
    pub solutions: u32,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// Search-tree nodes visited (the root counts as one).
    pub nodes: u64,
    /// Branch points that had more than one choice.
    pub guesses: u64,
    /// The search stopped before it finished: the node budget ran out, or it timed out,
    /// or it was cancelled (the two flags below say which).
    pub budget_exceeded: bool,
    /// The deadline passed first (`budget_exceeded` is set too).
    pub timed_out: bool,
    /// The cancel flag was set first (`budget_exceeded` is set too).
    pub cancelled: bool,
}

impl SolveOutcome {
    /// Records why the search stopped early.
    pub(crate) fn stopped(&mut self, stop: Stop) {
        self.budget_exceeded = true;
        self.timed_out = stop == Stop::Deadline;
        self.cancelled = stop == Stop::Cancelled;
    }
}

/// A Sudoku solver. Each thread owns one; state is reused from puzzle to puzzle.
pub trait Solver: Send {
    /// Counts the solutions of `puzzle` up to `limits.max_solutions`.
    ///
    /// Callers check the givens first (`Grid::find_conflict`); given conflicting givens a
    /// solver must still return (typically zero solutions), never panic.
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome;
}

/// The available backends: which solver to build, parsed from its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Dancing Links on fixed-size arrays (no heap per puzzle).
    DlxStatic,
    /// Dancing Links on a reusable Vec arena (a general exact-cover solver).
    DlxArena,
    /// Naive cell-by-cell backtracking, digits 1..9 (the baseline).
    Dfs,
    /// The `sudoku` crate (AGPL-3.0), built only with the `reference` feature.
    #[cfg(feature = "reference")]
    Reference,
    /// Solves nothing: measures the harness's own cost.
    Null,
    /// Test-only solvers that panic, crawl or hang on purpose.
    #[cfg(test)]
    Mock(mock::Mock),
}

impl Backend {
    /// The real solvers (not `Null`), in report order: `bench`'s default.
    #[cfg(not(feature = "reference"))]
    pub const ALL: [Backend; 3] = [Backend::DlxStatic, Backend::DlxArena, Backend::Dfs];
    /// The real solvers (not `Null`), in report order: `bench`'s default.
    #[cfg(feature = "reference")]
    pub const ALL: [Backend; 4] = [
        Backend::DlxStatic,
        Backend::DlxArena,
        Backend::Dfs,
        Backend::Reference,
    ];

    /// Every backend built in, `Null` included.
    pub fn built_in() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().chain([Backend::Null])
    }

    /// The name used on the command line and in reports.
    pub fn name(&self) -> &str {
        match self {
            Backend::DlxStatic => "dlx-static",
            Backend::DlxArena => "dlx-arena",
            Backend::Dfs => "dfs",
            #[cfg(feature = "reference")]
            Backend::Reference => "reference",
            Backend::Null => "null",
            #[cfg(test)]
            Backend::Mock(m) => m.name(),
        }
    }

    /// False only for `Null`, which returns zero solutions for every puzzle: its results
    /// are no answers and must not be checked or compared.
    pub fn is_solver(&self) -> bool {
        *self != Backend::Null
    }

    /// A fresh solver of this kind.
    pub fn new_solver(&self) -> Box<dyn Solver> {
        match self {
            Backend::DlxStatic => Box::new(DlxStatic::new()),
            Backend::DlxArena => Box::new(DlxArena::new()),
            Backend::Dfs => Box::new(Dfs::new()),
            #[cfg(feature = "reference")]
            Backend::Reference => Box::new(Reference::new()),
            Backend::Null => Box::new(Null),
            #[cfg(test)]
            Backend::Mock(m) => m.new_solver(),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend name this build does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend {name:?}; this build has: {known}")]
pub struct UnknownBackend {
    pub name: String,
    pub known: String,
}

impl std::str::FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(s: &str) -> Result<Backend, UnknownBackend> {
        Backend::built_in()
            .find(|b| b.name() == s)
            .ok_or_else(|| UnknownBackend {
                name: s.to_string(),
                known: Backend::built_in()
                    .map(|b| b.name().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Row, column and box digit masks of the givens (bit `d-1` for digit `d`), or `None`
/// when two givens conflict. Shared by the backends' set-up, not by the solution check.
pub(crate) fn given_masks(puzzle: &Grid) -> Option<[[u16; 9]; 3]> {
    let mut masks = [[0u16; 9]; 3];
    for (cell, &d) in puzzle.cells().iter().enumerate() {
        if d == 0 {
            continue;
        }
        let bit = 1u16 << (d - 1);
        let units = [
            crate::grid::row_of(cell),
            crate::grid::col_of(cell),
            crate::grid::box_of(cell),
        ];
        for (kind, &u) in units.iter().enumerate() {
            if masks[kind][u] & bit != 0 {
                return None;
            }
            masks[kind][u] |= bit;
        }
    }
    Some(masks)
}

#[cfg(test)]
mod tests;
