//! Sudoku as one client of the general exact-cover solver in [`super::exact_cover`].
//!
//! Like `dlx-static`, only the options consistent with the givens and the items they
//! leave open, numbered at run time, for every board size: at most `4 * side^2` items
//! (cell, row-value, column-value, box-value) and an option a candidate.

use super::exact_cover::ExactCover;
use super::{Limits, SolveOutcome, Solver};
use crate::board::nine::Grid;
use crate::board::{Shape, Square};

/// Every buffer kept between puzzles: no heap per puzzle once they have grown.
#[derive(Default)]
pub struct DlxArena {
    cover: ExactCover,
    /// `(cell, value)` of each option, by option index.
    placements: Vec<(u16, u8)>,
    /// The options' items, gathered to be added in one batch.
    options: Vec<[u32; 4]>,
    /// Values used in each row, column and box (bit v-1).
    used: Vec<u32>,
    /// Each item's number among the open ones (`u32::MAX`: the givens satisfy it).
    id: Vec<u32>,
    /// The options of the first solution found.
    first: Vec<usize>,
}

impl DlxArena {
    /// Builds the matrix of a board (its cells, row by row, and its shape) and counts
    /// its covers; the first one's options are left in `first`.
    fn search(&mut self, cells: &[u8], shape: Shape, limits: &Limits) -> SolveOutcome {
        let mut outcome = SolveOutcome::default();
        let side = shape.side();
        // Row by row, with no division by the side but the box's: divisions cost 8% on
        // easy 9x9 puzzles.
        let each_cell = || {
            (0..side)
                .flat_map(move |r| (0..side).map(move |c| (r * side + c, r, c, shape.box_of(r, c))))
        };
        // A conflict among the givens has no cover.
        self.used.clear();
        self.used.resize(3 * side, 0);
        for (cell, r, c, b) in each_cell() {
            let v = cells[cell];
            if v == 0 {
                continue;
            }
            let bit = 1u32 << (v - 1);
            for u in [r, side + c, 2 * side + b] {
                if self.used[u] & bit != 0 {
                    return outcome;
                }
                self.used[u] |= bit;
            }
        }
        // Items the givens satisfy are left out; the rest are numbered compactly: cells,
        // then each row's, column's and box's values.
        self.id.clear();
        let mut open = 0u32;
        let mut number = |is_open: bool| {
            open += u32::from(is_open);
            if is_open { open - 1 } else { u32::MAX }
        };
        let id = cells.iter().map(|&v| number(v == 0));
        self.id.extend(id);
        for &mask in &self.used {
            self.id
                .extend((0..side).map(|v| number(mask & (1 << v) == 0)));
        }
        self.cover.reset(open as usize);
        self.placements.clear();
        self.options.clear();
        let (id, used, n) = (&self.id, &self.used, cells.len());
        for (cell, r, c, b) in each_cell() {
            if cells[cell] != 0 {
                continue;
            }
            let mut candidates = !(used[r] | used[side + c] | used[2 * side + b]);
            candidates &= u32::MAX >> (32 - side);
            // Bit by bit: a test of each value mispredicts.
            while candidates != 0 {
                let v = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                self.options.push([
                    id[cell],
                    id[n + r * side + v],
                    id[2 * n + c * side + v],
                    id[3 * n + b * side + v],
                ]);
                self.placements.push((cell as u16, v as u8 + 1));
            }
        }
        // All at once: one check pass, one allocation.
        self.cover
            .add_options(&self.options)
            .expect("sudoku options are well formed");
        let first = &mut self.first;
        first.clear();
        // A board with no blank has one cover, of no options: hence the flag.
        let mut found = false;
        let max_solutions = limits.max_solutions as u64;
        let stats = self
            .cover
            .search(max_solutions, limits.budget(), |options| {
                if !found {
                    found = true;
                    first.extend_from_slice(options);
                }
            });
        outcome.solutions = stats.solutions as u32;
        outcome.nodes = stats.nodes;
        outcome.guesses = stats.guesses;
        if let Some(stop) = stats.stop {
            outcome.stopped(stop);
        }
        outcome
    }
}

impl Solver for DlxArena {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut outcome = self.search(puzzle.cells(), Shape { rows: 3, cols: 3 }, limits);
        if outcome.solutions > 0 {
            let mut grid = *puzzle;
            for &o in &self.first {
                let (cell, digit) = self.placements[o];
                grid.set(usize::from(cell), digit);
            }
            outcome.solution = Some(grid);
        }
        outcome
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        let outcome = self.search(puzzle.cells(), puzzle.shape(), limits);
        let first = (outcome.solutions > 0).then(|| {
            let mut board = puzzle.clone();
            for &o in &self.first {
                let (cell, value) = self.placements[o];
                board.set(usize::from(cell), value);
            }
            board
        });
        Some((outcome, first))
    }
}
