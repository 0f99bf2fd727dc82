//! Sudoku as one client of the general exact-cover solver in [`super::exact_cover`].
//!
//! Like `dlx-static` it builds only the options consistent with the givens and only the
//! items they leave open, but through the general API: items are numbered at run time
//! and the solver knows nothing of Sudoku.

use super::exact_cover::{ExactCover, SearchLimits};
use super::{Limits, SolveOutcome, Solver, given_masks};
use crate::board::Square;
use crate::board::nine::{CELLS, Grid, box_of, col_of, row_of};

/// Items of the full Sudoku matrix: cell, row-digit, column-digit, box-digit (81 each).
const SUDOKU_ITEMS: usize = 324;
const CLOSED: u16 = u16::MAX;

#[derive(Default)]
pub struct DlxArena {
    cover: ExactCover,
    /// `(cell, digit)` of each option, by option index.
    placements: Vec<(u8, u8)>,
    /// The options' items, gathered to be added in one batch.
    options: Vec<[u32; 4]>,
}

impl DlxArena {
    pub fn new() -> DlxArena {
        DlxArena::default()
    }
}

impl Solver for DlxArena {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut outcome = SolveOutcome::default();
        let Some([rows, cols, boxes]) = given_masks(puzzle) else {
            return outcome;
        };
        // Number the open items compactly; items the givens satisfy are left out.
        let mut id = [CLOSED; SUDOKU_ITEMS];
        let mut open = 0u16;
        let mut number = |slot: &mut u16| {
            *slot = open;
            open += 1;
        };
        for (slot, &given) in id[..CELLS].iter_mut().zip(puzzle.cells()) {
            if given == 0 {
                number(slot);
            }
        }
        for (base, masks) in [(81, &rows), (162, &cols), (243, &boxes)] {
            for unit in 0..9 {
                for d in 0..9 {
                    if masks[unit] & (1 << d) == 0 {
                        number(&mut id[base + unit * 9 + d]);
                    }
                }
            }
        }
        self.cover.reset(open as usize);
        self.placements.clear();
        self.options.clear();
        for cell in 0..CELLS {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let (r, c, b) = (row_of(cell), col_of(cell), box_of(cell));
            let mut candidates = !(rows[r] | cols[c] | boxes[b]) & 0x1FF;
            // Bit by bit: a test of each of the nine digits mispredicts.
            while candidates != 0 {
                let d = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                self.options.push([
                    u32::from(id[cell]),
                    u32::from(id[81 + r * 9 + d]),
                    u32::from(id[162 + c * 9 + d]),
                    u32::from(id[243 + b * 9 + d]),
                ]);
                self.placements.push((cell as u8, d as u8 + 1));
            }
        }
        // All at once: one check pass, one allocation.
        self.cover
            .add_options(&self.options)
            .expect("sudoku options are well formed");
        let placements = &self.placements;
        let mut first: Option<Grid> = None;
        let stats = self.cover.search(search_limits(limits), |options| {
            if first.is_none() {
                let mut grid = *puzzle;
                for &o in options {
                    let (cell, digit) = placements[o];
                    grid.set(cell as usize, digit);
                }
                first = Some(grid);
            }
        });
        outcome.solutions = stats.solutions as u32;
        outcome.solution = first;
        outcome.nodes = stats.nodes;
        outcome.guesses = stats.guesses;
        outcome.budget_exceeded = stats.budget_exceeded;
        outcome.timed_out = stats.timed_out;
        outcome.cancelled = stats.cancelled;
        outcome
    }

    /// Every other size through the same general solver: the matrix has `4 * side^2`
    /// items (cell, row-value, column-value, box-value) and one option a candidate.
    fn solves_side(&self, _side: usize) -> bool {
        true
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        let mut outcome = SolveOutcome::default();
        let side = puzzle.side();
        let cells = side * side;
        // Values used in each row, column and box (bit v-1); a conflict has no cover.
        let mut used = vec![0u32; 3 * side];
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, c, b) = puzzle.units_of(cell);
            let bit = 1u32 << (v - 1);
            for u in [r, side + c, 2 * side + b] {
                if used[u] & bit != 0 {
                    return Some((outcome, None));
                }
                used[u] |= bit;
            }
        }
        // Items the givens satisfy are left out; the rest are numbered compactly.
        let mut id = vec![u32::MAX; 4 * cells];
        let mut open = 0u32;
        for (item, slot) in id.iter_mut().enumerate() {
            let is_open = match item / cells {
                0 => puzzle.get(item) == 0,
                k => used[(k - 1) * side + (item % cells) / side] & (1 << (item % side)) == 0,
            };
            if is_open {
                *slot = open;
                open += 1;
            }
        }
        self.cover.reset(open as usize);
        let mut placements: Vec<(u16, u8)> = Vec::new();
        self.options.clear();
        for cell in 0..cells {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let (r, c, b) = puzzle.units_of(cell);
            let taken = used[r] | used[side + c] | used[2 * side + b];
            for v in 0..side {
                if taken & (1 << v) != 0 {
                    continue;
                }
                self.options.push([
                    id[cell],
                    id[cells + r * side + v],
                    id[2 * cells + c * side + v],
                    id[3 * cells + b * side + v],
                ]);
                placements.push((cell as u16, v as u8 + 1));
            }
        }
        self.cover
            .add_options(&self.options)
            .expect("sudoku options are well formed");
        let mut first: Option<Square> = None;
        let stats = self.cover.search(search_limits(limits), |options| {
            if first.is_none() {
                let mut board = puzzle.clone();
                for &o in options {
                    let (cell, value) = placements[o];
                    board.set(usize::from(cell), value);
                }
                first = Some(board);
            }
        });
        outcome.solutions = stats.solutions as u32;
        outcome.nodes = stats.nodes;
        outcome.guesses = stats.guesses;
        outcome.budget_exceeded = stats.budget_exceeded;
        outcome.timed_out = stats.timed_out;
        outcome.cancelled = stats.cancelled;
        Some((outcome, first))
    }
}

fn search_limits(limits: &Limits) -> SearchLimits {
    SearchLimits {
        max_solutions: limits.max_solutions as u64,
        max_nodes: limits.max_nodes,
        deadline: limits.deadline,
        cancel: limits.cancel,
    }
}
