//! Sudoku as one client of the general exact-cover solver in [`super::exact_cover`].
//!
//! Like `dlx-static` it builds only the options consistent with the givens and only the
//! items they leave open, but through the general API: items are numbered at run time
//! and the solver knows nothing of Sudoku.

use super::exact_cover::{ExactCover, SearchLimits};
use super::{Limits, SolveOutcome, Solver, given_masks};
use crate::grid::{CELLS, Grid, box_of, col_of, row_of};

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
            let candidates = !(rows[r] | cols[c] | boxes[b]) & 0x1FF;
            for d in 0..9 {
                if candidates & (1 << d) == 0 {
                    continue;
                }
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
        let stats = self.cover.search(
            SearchLimits {
                max_solutions: limits.max_solutions as u64,
                max_nodes: limits.max_nodes,
                deadline: limits.deadline,
                cancel: limits.cancel,
            },
            |options| {
                if first.is_none() {
                    let mut grid = *puzzle;
                    for &o in options {
                        let (cell, digit) = placements[o];
                        grid.set(cell as usize, digit);
                    }
                    first = Some(grid);
                }
            },
        );
        outcome.solutions = stats.solutions as u32;
        outcome.solution = first;
        outcome.nodes = stats.nodes;
        outcome.guesses = stats.guesses;
        outcome.budget_exceeded = stats.budget_exceeded;
        outcome.timed_out = stats.timed_out;
        outcome.cancelled = stats.cancelled;
        outcome
    }
}
