//! Naive backtracking, as in the HDU 1426 seed: the blank cells in row-major order, the
//! digits 1..9 in order, a row/column/box check. No heuristics, on purpose: it is the
//! baseline the other backends are measured against. The check is three bitmasks, which
//! keeps the search order (and so the node counts) of the textbook version; the search
//! is iterative, with the untried digits of each level on an explicit stack.

use super::{Limits, SolveOutcome, Solver, given_masks};
use crate::board::Square;
use crate::board::nine::{CELLS, Grid, box_of, col_of, row_of};

pub struct Dfs {
    /// Blank cells in row-major order, and their row, column (9+) and box (18+) units.
    blanks: [Blank; CELLS],
    blank_count: usize,
    /// Digits used in each unit: rows 0..9, columns 9..18, boxes 18..27.
    used: [u16; 27],
    /// Digits not yet tried at each depth.
    untried: [u16; CELLS],
    grid: Grid,
    /// The same search for boards of other sizes, its buffers kept between puzzles.
    other: OtherSize,
}

/// [`Dfs`]'s search on a board that is not 9x9: the same order (blank cells row by
/// row, values in increasing order), with masks as wide as the board.
#[derive(Default)]
struct OtherSize {
    /// Each blank's cell and its row, column and box units.
    blanks: Vec<(usize, [usize; 3])>,
    used: Vec<u32>,
    untried: Vec<u32>,
}

impl OtherSize {
    fn solve(&mut self, puzzle: &Square, limits: &Limits) -> (SolveOutcome, Option<Square>) {
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
        let full = if side == 32 {
            u32::MAX
        } else {
            (1u32 << side) - 1
        };
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

#[derive(Clone, Copy, Default)]
struct Blank {
    cell: u8,
    units: [u8; 3],
}

impl Default for Dfs {
    fn default() -> Self {
        Self::new()
    }
}

impl Dfs {
    pub fn new() -> Dfs {
        Dfs {
            blanks: [Blank::default(); CELLS],
            blank_count: 0,
            used: [0; 27],
            untried: [0; CELLS],
            grid: Grid::EMPTY,
            other: OtherSize::default(),
        }
    }

    fn search(&mut self, limits: &Limits) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        let mut budget = limits.budget();
        let blank_count = self.blank_count;
        let mut k = 0usize;
        'node: loop {
            out.nodes += 1;
            if let Some(stop) = budget.charge(out.nodes) {
                out.stopped(stop);
                return out;
            }
            if k < blank_count {
                let [r, c, b] = self.blanks[k].units.map(usize::from);
                let allowed = !(self.used[r] | self.used[c] | self.used[b]) & 0x1FF;
                // More than one digit fits (a cheap popcount > 1).
                out.guesses += u64::from(allowed & allowed.wrapping_sub(1) != 0);
                self.untried[k] = allowed;
            } else {
                out.solutions += 1;
                if out.solutions == 1 {
                    out.solution = Some(self.grid);
                }
                if out.solutions >= limits.max_solutions {
                    return out;
                }
                if k == 0 {
                    return out;
                }
                k -= 1;
                self.unplace(k);
            }
            // Place the lowest untried digit at depth k, backtracking while none is left.
            loop {
                let rest = self.untried[k];
                if rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    self.untried[k] = rest ^ bit;
                    let blank = self.blanks[k];
                    for u in blank.units {
                        self.used[u as usize] |= bit;
                    }
                    self.grid
                        .set(blank.cell as usize, bit.trailing_zeros() as u8 + 1);
                    k += 1;
                    continue 'node;
                }
                if k == 0 {
                    return out;
                }
                k -= 1;
                self.unplace(k);
            }
        }
    }

    /// Takes back the digit placed at depth `k` (still in the grid).
    #[inline(always)]
    fn unplace(&mut self, k: usize) {
        let blank = self.blanks[k];
        let digit = self.grid.get(blank.cell as usize);
        let bit = 1u16 << (digit - 1);
        for u in blank.units {
            self.used[u as usize] &= !bit;
        }
    }
}

impl Solver for Dfs {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let Some([rows, cols, boxes]) = given_masks(puzzle) else {
            return SolveOutcome::default();
        };
        if limits.max_solutions == 0 {
            return SolveOutcome::default();
        }
        self.used[..9].copy_from_slice(&rows);
        self.used[9..18].copy_from_slice(&cols);
        self.used[18..].copy_from_slice(&boxes);
        self.grid = *puzzle;
        self.blank_count = 0;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                self.blanks[self.blank_count] = Blank {
                    cell: cell as u8,
                    units: [
                        row_of(cell) as u8,
                        9 + col_of(cell) as u8,
                        18 + box_of(cell) as u8,
                    ],
                };
                self.blank_count += 1;
            }
        }
        self.search(limits)
    }

    fn solves_side(&self, _side: usize) -> bool {
        true
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        Some(self.other.solve(puzzle, limits))
    }
}
