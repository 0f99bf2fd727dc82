//! Dancing Links on fixed-size arrays sized for 9x9 at compile time.
//!
//! The matrix holds only the options consistent with the givens, and only the items the
//! givens leave open (DLX-NOTES method 3), so it is as small as it can be. Each option
//! has exactly four nodes stored side by side, so no left/right links are needed for
//! rows: the next node of a row is computed. Indices are `u16`: the whole structure is
//! about 26 KiB and stays in L1/L2 cache. Nothing is allocated per puzzle.

use super::{Limits, SolveOutcome, Solver, given_masks};
use crate::grid::{CELLS, Grid, box_of, col_of, row_of};

/// Item headers: 0 is the root, items are 1..=324.
const ITEMS: usize = 324;
const HEADERS: usize = ITEMS + 1;
const OPTIONS: usize = 729;
/// First option node; option `k` owns nodes `FIRST + 4k .. FIRST + 4k + 4`.
const FIRST: usize = HEADERS;
const NODES: usize = FIRST + OPTIONS * 4;

/// The four items of placing digit `d` (0-based) in `cell`: cell filled, row has d,
/// column has d, box has d.
#[inline]
fn items_of(cell: usize, d: usize) -> [usize; 4] {
    [
        1 + cell,
        1 + 81 + row_of(cell) * 9 + d,
        1 + 162 + col_of(cell) * 9 + d,
        1 + 243 + box_of(cell) * 9 + d,
    ]
}

#[inline]
fn next_in_option(n: usize) -> usize {
    if (n - FIRST) % 4 == 3 { n - 3 } else { n + 1 }
}

#[inline]
fn prev_in_option(n: usize) -> usize {
    if (n - FIRST) % 4 == 0 { n + 3 } else { n - 1 }
}

pub struct DlxStatic {
    left: [u16; HEADERS],
    right: [u16; HEADERS],
    size: [u16; HEADERS],
    up: [u16; NODES],
    down: [u16; NODES],
    item: [u16; NODES],
    /// `cell * 9 + digit0` of each option.
    placement: [u16; OPTIONS],
    /// Option node chosen at each depth.
    chosen: [u16; CELLS],
    limits: Limits,
    outcome: SolveOutcome,
    puzzle: Grid,
}

impl Default for DlxStatic {
    fn default() -> Self {
        Self::new()
    }
}

impl DlxStatic {
    pub fn new() -> DlxStatic {
        DlxStatic {
            left: [0; HEADERS],
            right: [0; HEADERS],
            size: [0; HEADERS],
            up: [0; NODES],
            down: [0; NODES],
            item: [0; NODES],
            placement: [0; OPTIONS],
            chosen: [0; CELLS],
            limits: Limits::default(),
            outcome: SolveOutcome::default(),
            puzzle: Grid::EMPTY,
        }
    }

    /// Builds the reduced matrix. Returns false when the givens conflict.
    fn build(&mut self, puzzle: &Grid) -> bool {
        let Some([rows, cols, boxes]) = given_masks(puzzle) else {
            return false;
        };
        // An item is open unless a given already satisfies it.
        let mut open = [false; HEADERS];
        for cell in 0..CELLS {
            let (r, c, b) = (row_of(cell), col_of(cell), box_of(cell));
            if puzzle.get(cell) == 0 {
                open[1 + cell] = true;
            }
            for d in 0..9 {
                let bit = 1u16 << d;
                open[1 + 81 + r * 9 + d] = rows[r] & bit == 0;
                open[1 + 162 + c * 9 + d] = cols[c] & bit == 0;
                open[1 + 243 + b * 9 + d] = boxes[b] & bit == 0;
            }
        }
        let mut last = 0usize;
        let open_items = (1..HEADERS).filter(|&i| open[i]);
        for i in open_items {
            self.right[last] = i as u16;
            self.left[i] = last as u16;
            self.up[i] = i as u16;
            self.down[i] = i as u16;
            self.size[i] = 0;
            last = i;
        }
        self.right[last] = 0;
        self.left[0] = last as u16;

        let mut node = FIRST;
        let mut option = 0usize;
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
                self.placement[option] = (cell * 9 + d) as u16;
                for it in items_of(cell, d) {
                    let tail = self.up[it] as usize;
                    self.item[node] = it as u16;
                    self.up[node] = tail as u16;
                    self.down[node] = it as u16;
                    self.down[tail] = node as u16;
                    self.up[it] = node as u16;
                    self.size[it] += 1;
                    node += 1;
                }
                option += 1;
            }
        }
        true
    }

    #[inline]
    fn cover(&mut self, c: usize) {
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[c] as usize;
        while i != c {
            let mut j = next_in_option(i);
            while j != i {
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[self.item[j] as usize] -= 1;
                j = next_in_option(j);
            }
            i = self.down[i] as usize;
        }
    }

    #[inline]
    fn uncover(&mut self, c: usize) {
        let mut i = self.up[c] as usize;
        while i != c {
            let mut j = prev_in_option(i);
            while j != i {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = j as u16;
                self.up[d] = j as u16;
                self.size[self.item[j] as usize] += 1;
                j = prev_in_option(j);
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = c as u16;
        self.left[r as usize] = c as u16;
    }

    /// The open item with the fewest options (leftmost on ties), stopping early at 0 or 1.
    #[inline]
    fn choose_item(&self) -> (usize, u16) {
        let mut c = self.right[0] as usize;
        let mut best = self.size[c];
        let mut j = self.right[c] as usize;
        while best > 1 && j != 0 {
            let s = self.size[j];
            if s < best {
                best = s;
                c = j;
            }
            j = self.right[j] as usize;
        }
        (c, best)
    }

    /// Returns true to stop the whole search (enough solutions, or the budget ran out).
    /// On stop the links are left as they are: the next puzzle rebuilds them.
    fn search(&mut self, depth: usize) -> bool {
        self.outcome.nodes += 1;
        if self.outcome.nodes > self.limits.max_nodes {
            self.outcome.budget_exceeded = true;
            return true;
        }
        if self.right[0] == 0 {
            return self.record_solution(depth);
        }
        let (c, count) = self.choose_item();
        if count == 0 {
            return false;
        }
        if count > 1 {
            self.outcome.guesses += 1;
        }
        self.cover(c);
        let mut r = self.down[c] as usize;
        while r != c {
            self.chosen[depth] = r as u16;
            let mut j = next_in_option(r);
            while j != r {
                self.cover(self.item[j] as usize);
                j = next_in_option(j);
            }
            if self.search(depth + 1) {
                return true;
            }
            let mut j = prev_in_option(r);
            while j != r {
                self.uncover(self.item[j] as usize);
                j = prev_in_option(j);
            }
            r = self.down[r] as usize;
        }
        self.uncover(c);
        false
    }

    fn record_solution(&mut self, depth: usize) -> bool {
        self.outcome.solutions += 1;
        if self.outcome.solutions == 1 {
            let mut grid = self.puzzle;
            for &node in &self.chosen[..depth] {
                let p = self.placement[(node as usize - FIRST) / 4] as usize;
                grid.set(p / 9, (p % 9) as u8 + 1);
            }
            self.outcome.solution = Some(grid);
        }
        self.outcome.solutions >= self.limits.max_solutions
    }
}

impl Solver for DlxStatic {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.outcome = SolveOutcome::default();
        self.limits = *limits;
        self.puzzle = *puzzle;
        if limits.max_solutions > 0 && self.build(puzzle) {
            self.search(0);
        }
        self.outcome
    }
}
