//! Solver backends behind one trait, chosen through the [`Backend`] enum.
//!
//! A solver does no I/O and no timing: it counts solutions up to a limit and reports
//! machine-independent work counters. The runner times it and the reporter writes.

mod dfs;
mod dlx_arena;
mod dlx_static;
pub mod exact_cover;

pub use dfs::Dfs;
pub use dlx_arena::DlxArena;
pub use dlx_static::DlxStatic;

use crate::grid::Grid;

/// Default node budget: keeps `dfs` on any single puzzle to about a second (it visits
/// about 110 million nodes a second on the development VM); the DLX backends need at
/// most tens of thousands of nodes for any 9x9 puzzle and never come near it.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (1: find one; 2: check uniqueness).
    pub max_solutions: u32,
    /// Stop after visiting this many search-tree nodes.
    pub max_nodes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_solutions: 2,
            max_nodes: DEFAULT_MAX_NODES,
        }
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
    /// The node budget ran out before the search finished.
    pub budget_exceeded: bool,
}

/// A Sudoku solver. Each thread owns one; state is reused from puzzle to puzzle.
pub trait Solver: Send {
    /// Counts the solutions of `puzzle` up to `limits.max_solutions`.
    ///
    /// Callers check the givens first (`Grid::find_conflict`); given conflicting givens a
    /// solver must still return (typically zero solutions), never panic.
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome;
}

/// The available backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Backend {
    /// Dancing Links on fixed-size arrays (no heap per puzzle).
    DlxStatic,
    /// Dancing Links on a reusable Vec arena (a general exact-cover solver).
    DlxArena,
    /// Naive cell-by-cell backtracking, digits 1..9 (the baseline).
    Dfs,
}

impl Backend {
    pub const ALL: [Backend; 3] = [Backend::DlxStatic, Backend::DlxArena, Backend::Dfs];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Backend::DlxStatic => "dlx-static",
            Backend::DlxArena => "dlx-arena",
            Backend::Dfs => "dfs",
        }
    }

    /// A fresh solver of this kind.
    pub fn new_solver(self) -> Box<dyn Solver> {
        match self {
            Backend::DlxStatic => Box::new(DlxStatic::new()),
            Backend::DlxArena => Box::new(DlxArena::new()),
            Backend::Dfs => Box::new(Dfs::new()),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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
