//! A backend that solves nothing, to measure the harness's own cost (loading,
//! scheduling, checking the givens, reporting) with a real backend's work taken away.

use super::{Limits, SolveOutcome, Solver};
use crate::board::Square;
use crate::board::nine::Grid;

/// Returns zero solutions and zero nodes for every puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Null;

impl Solver for Null {
    fn solve(&mut self, _puzzle: &Grid, _limits: &Limits) -> SolveOutcome {
        SolveOutcome::default()
    }

    fn solve_square(
        &mut self,
        _puzzle: &Square,
        _limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        Some((SolveOutcome::default(), None))
    }
}
