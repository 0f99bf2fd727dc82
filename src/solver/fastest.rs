//! `fastest`, `solve`'s default: each record goes to the fastest built-in backend for
//! its board's size (`bitboard` for 9x9, `dlx-arena` for the others).

use super::{Bitboard, DlxArena, Limits, SolveOutcome, Solver};
use crate::board::Square;
use crate::board::nine::Grid;

/// Both solvers, each made once and kept for the thread's records.
#[derive(Default)]
pub struct Fastest {
    nine: Bitboard,
    other: DlxArena,
}

impl Solver for Fastest {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.nine.solve(puzzle, limits)
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        self.other.solve_square(puzzle, limits)
    }
}
