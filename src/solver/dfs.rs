//! Naive backtracking, the baseline, as in the HDU 1426 seed: blank cells in row-major
//! order, values in order, no heuristics. Three bitmasks do the check (the textbook's
//! search order and node counts); iterative; every board size, a 9x9 grid as a `Square`.

use super::{Limits, SolveOutcome, Solver};
use crate::board::Square;
use crate::board::nine::Grid;

/// The search, its buffers kept between puzzles.
#[derive(Default)]
pub struct Dfs {
    /// Each blank's cell and its row, column and box units.
    blanks: Vec<(usize, [usize; 3])>,
    /// Values used in each unit: rows, then columns, then boxes.
    used: Vec<u32>,
    /// Values not yet tried at each depth.
    untried: Vec<u32>,
}

impl Dfs {
    fn search(&mut self, puzzle: &Square, limits: &Limits) -> (SolveOutcome, Option<Square>) {
        let mut out = SolveOutcome::default();
        let side = puzzle.side();
        self.used.clear();
        self.used.resize(3 * side, 0);
        self.blanks.clear();
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            let (r, c, b) = puzzle.units_of(cell);
            let units = [r, side + c, 2 * side + b];
            if v == 0 {
                self.blanks.push((cell, units));
                continue;
            }
            let bit = 1u32 << (v - 1);
            if units.iter().any(|&u| self.used[u] & bit != 0) {
                return (out, None); // conflicting givens: no solution
            }
            units.iter().for_each(|&u| self.used[u] |= bit);
        }
        if limits.max_solutions == 0 {
            return (out, None);
        }
        let full = (1u32 << side) - 1; // sides are at most 25
        self.untried.clear();
        self.untried.resize(self.blanks.len(), 0);
        let mut board = puzzle.clone();
        let mut first = None;
        let mut budget = limits.budget();
        let mut k = 0usize;
        'node: loop {
            out.nodes += 1;
            if let Some(stop) = budget.charge(out.nodes) {
                out.stopped(stop);
                return (out, first);
            }
            if k < self.blanks.len() {
                let [r, c, b] = self.blanks[k].1;
                let allowed = !(self.used[r] | self.used[c] | self.used[b]) & full;
                out.guesses += u64::from(allowed & allowed.wrapping_sub(1) != 0);
                self.untried[k] = allowed;
            } else {
                out.solutions += 1;
                if out.solutions == 1 {
                    first = Some(board.clone());
                }
                if out.solutions >= limits.max_solutions || k == 0 {
                    return (out, first);
                }
                k -= 1;
                self.unplace(&board, k);
            }
            loop {
                let rest = self.untried[k];
                if rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    self.untried[k] = rest ^ bit;
                    let (cell, units) = self.blanks[k];
                    units.iter().for_each(|&u| self.used[u] |= bit);
                    board.set(cell, bit.trailing_zeros() as u8 + 1);
                    k += 1;
                    continue 'node;
                }
                if k == 0 {
                    return (out, first);
                }
                k -= 1;
                self.unplace(&board, k);
            }
        }
    }

    /// Takes back the value placed at depth `k` (still on the board).
    fn unplace(&mut self, board: &Square, k: usize) {
        let (cell, units) = self.blanks[k];
        let bit = 1u32 << (board.get(cell) - 1);
        units.iter().for_each(|&u| self.used[u] &= !bit);
    }
}

impl Solver for Dfs {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let (mut out, solution) = self.search(&Square::from_grid(puzzle), limits);
        out.solution = solution.and_then(|s| s.to_grid());
        out
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        Some(self.search(puzzle, limits))
    }
}
