//! The `sudoku` crate 0.8 (JCZSolve-style bitboards, AGPL-3.0) as a yardstick for the
//! other backends. Built only with the opt-in `reference` cargo feature.
//!
//! It counts no nodes or guesses (`n/a`) and ignores `max_nodes`; the deadline and the
//! cancel flag are checked once, before the search (microseconds on any 9x9 puzzle).

use super::{Counters, Limits, SolveOutcome, Solver};
use crate::board::nine::Grid;

#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Solver for Reference {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut outcome = SolveOutcome {
            counted: Counters::NONE,
            ..SolveOutcome::default()
        };
        if limits.max_solutions == 0 {
            return outcome;
        }
        // The crate cannot be stopped mid-search: the limits are checked before it starts.
        if let Some(stop) = limits.stop_now() {
            outcome.stopped(stop);
            return outcome;
        }
        let Ok(sudoku) = sudoku::Sudoku::from_bytes(*puzzle.cells()) else {
            return outcome;
        };
        let mut first = [[0u8; 81]];
        let count = sudoku.solutions_up_to_buffer(&mut first, limits.max_solutions as usize);
        outcome.solutions = count as u32;
        outcome.solution = Grid::from_cells(first[0]).ok().filter(|_| count > 0);
        outcome
    }
}
