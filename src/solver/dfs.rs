//! Naive backtracking, as in the HDU 1426 seed: the blank cells in row-major order, the
//! digits 1..9 in order, a row/column/box check. No heuristics, on purpose: it is the
//! baseline the other backends are measured against. The check is three bitmasks, which
//! keeps the search order (and so the node counts) of the textbook version.

use super::{Limits, SolveOutcome, Solver, given_masks};
use crate::grid::{CELLS, Grid, box_of, col_of, row_of};

pub struct Dfs {
    blanks: [u8; CELLS],
    blank_count: usize,
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    grid: Grid,
    limits: Limits,
    outcome: SolveOutcome,
}

impl Default for Dfs {
    fn default() -> Self {
        Self::new()
    }
}

impl Dfs {
    pub fn new() -> Dfs {
        Dfs {
            blanks: [0; CELLS],
            blank_count: 0,
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            grid: Grid::EMPTY,
            limits: Limits::default(),
            outcome: SolveOutcome::default(),
        }
    }

    /// Returns true to stop the search (enough solutions, or the budget ran out).
    fn search(&mut self, k: usize) -> bool {
        self.outcome.nodes += 1;
        if self.outcome.nodes > self.limits.max_nodes {
            self.outcome.budget_exceeded = true;
            return true;
        }
        if k == self.blank_count {
            self.outcome.solutions += 1;
            if self.outcome.solutions == 1 {
                self.outcome.solution = Some(self.grid);
            }
            return self.outcome.solutions >= self.limits.max_solutions;
        }
        let cell = self.blanks[k] as usize;
        let (r, c, b) = (row_of(cell), col_of(cell), box_of(cell));
        let allowed = !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0x1FF;
        if allowed.count_ones() > 1 {
            self.outcome.guesses += 1;
        }
        // Lowest bit first: digits in increasing order, as the textbook loop over 1..9.
        let mut rest = allowed;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let d = bit.trailing_zeros() as u8;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.grid.set(cell, d + 1);
            if self.search(k + 1) {
                return true;
            }
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
        }
        self.grid.set(cell, 0);
        false
    }
}

impl Solver for Dfs {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.outcome = SolveOutcome::default();
        self.limits = *limits;
        let Some([rows, cols, boxes]) = given_masks(puzzle) else {
            return self.outcome;
        };
        if limits.max_solutions == 0 {
            return self.outcome;
        }
        self.rows = rows;
        self.cols = cols;
        self.boxes = boxes;
        self.grid = *puzzle;
        self.blank_count = 0;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                self.blanks[self.blank_count] = cell as u8;
                self.blank_count += 1;
            }
        }
        self.search(0);
        self.outcome
    }
}
