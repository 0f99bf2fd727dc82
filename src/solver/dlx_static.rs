//! Dancing Links on fixed-size arrays sized for 9x9 at compile time.
//!
//! Only the options consistent with the givens and the items they leave open (DLX-NOTES
//! method 3); `u16` indices, about 30 KiB, nothing allocated per puzzle; an iterative
//! search. Two departures from the textbook layout, with the same search tree: an
//! option's four nodes sit at a 4-aligned index (the others are `node ^ 1`, `^ 2`, `^ 3`:
//! no left/right links), and items have a one-byte key each instead of a header list
//! (the option count, plus [`COVERED`] while covered, [`CLOSED`] when the givens satisfy
//! it), so choosing an item is a SIMD scan for the leftmost minimum.

use super::{Limits, SolveOutcome, Solver};
use crate::board::nine::{CELLS, Grid, box_of, col_of, row_of};

/// Items: cell filled (0..81), row has digit (81..162), column (162..243), box (243..324).
const ITEMS: usize = 324;
/// Item keys: the items padded with `CLOSED` to whole 16-byte vectors.
const KEYS: usize = 336;
/// Item header nodes are 0..ITEMS; option `k` owns nodes `FIRST + 4k .. FIRST + 4k + 4`.
/// `FIRST` is a multiple of 4, so an option's nodes differ only in their low two bits.
const FIRST: usize = ITEMS;
const OPTIONS: usize = 729;
const NODES: usize = FIRST + OPTIONS * 4;
const _: () = assert!(FIRST.is_multiple_of(4) && KEYS.is_multiple_of(16) && ITEMS <= KEYS);

/// Added to an open item's key while it is covered: above any option count (at most 9).
const COVERED: u8 = 0x80;
/// The key of an item the givens satisfy (and of padding): never chosen.
const CLOSED: u8 = 0xFF;

pub struct DlxStatic {
    up: [u16; NODES],
    down: [u16; NODES],
    /// The item (header node) of each node.
    item: [u16; NODES],
    /// One byte per item: see the module docs.
    keys: Keys,
    /// Option node chosen at each depth.
    chosen: [u16; CELLS],
}

/// Aligned for the vector loads of `choose_item`.
#[repr(C, align(16))]
struct Keys([u8; KEYS]);

impl Default for DlxStatic {
    fn default() -> Self {
        DlxStatic {
            up: [0; NODES],
            down: [0; NODES],
            item: [0; NODES],
            keys: Keys([CLOSED; KEYS]),
            chosen: [0; CELLS],
        }
    }
}

/// Row, column and box digit masks of the givens (bit `d-1` for digit `d`), or `None`
/// when two givens conflict.
fn given_masks(puzzle: &Grid) -> Option<[[u16; 9]; 3]> {
    let mut masks = [[0u16; 9]; 3];
    for (cell, &d) in puzzle.cells().iter().enumerate().filter(|(_, d)| **d != 0) {
        let bit = 1u16 << (d - 1);
        for (kind, u) in [row_of(cell), col_of(cell), box_of(cell)]
            .into_iter()
            .enumerate()
        {
            if masks[kind][u] & bit != 0 {
                return None;
            }
            masks[kind][u] |= bit;
        }
    }
    Some(masks)
}

impl DlxStatic {
    /// Builds the reduced matrix. Returns false when the givens conflict.
    fn build(&mut self, puzzle: &Grid) -> bool {
        let Some([rows, cols, boxes]) = given_masks(puzzle) else {
            return false;
        };
        let keys = &mut self.keys.0;
        for (key, &given) in keys[..81].iter_mut().zip(puzzle.cells()) {
            *key = if given == 0 { 0 } else { CLOSED };
        }
        for (kind, masks) in [rows, cols, boxes].iter().enumerate() {
            let base = 81 + kind * 81;
            for (unit, &mask) in masks.iter().enumerate() {
                for d in 0..9 {
                    keys[base + unit * 9 + d] = if mask & (1 << d) == 0 { 0 } else { CLOSED };
                }
            }
        }
        for i in 0..ITEMS {
            self.up[i] = i as u16;
        }
        // Options in (cell, digit) order, each appended at the bottom of its four items.
        // At most one option per (blank cell, candidate digit): 81 cells x 9 digits =
        // OPTIONS, so the last node written is below FIRST + 4 * OPTIONS = NODES.
        let mut node = FIRST;
        for cell in 0..CELLS {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let (r, c, b) = (cell / 9, col_of(cell), box_of(cell));
            let mut candidates = !(rows[r] | cols[c] | boxes[b]) & 0x1FF;
            while candidates != 0 {
                let d = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                debug_assert!(node + 4 <= NODES);
                for it in [cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d] {
                    debug_assert!(it < ITEMS);
                    // SAFETY: `node < NODES`: this is option number `k < OPTIONS` (one
                    // per cell < 81 and digit < 9, see above), node `FIRST + 4k + j`
                    // with `j < 4`. `it < ITEMS` (cell < 81, r, c, b < 9, d < 9, so at
                    // most 243 + 80 = 323). `tail` is `up[it]`: `it` itself or a node
                    // written earlier, `< NODES`. `keys` has `KEYS > ITEMS` entries.
                    unsafe {
                        let tail = *self.up.get_unchecked(it);
                        *self.item.get_unchecked_mut(node) = it as u16;
                        *self.up.get_unchecked_mut(node) = tail;
                        *self.down.get_unchecked_mut(tail as usize) = node as u16;
                        *self.up.get_unchecked_mut(it) = node as u16;
                        *keys.get_unchecked_mut(it) += 1;
                    }
                    node += 1;
                }
            }
        }
        // Close each item's list (an empty one points to itself).
        for i in 0..ITEMS {
            let last = self.up[i] as usize;
            self.down[last] = i as u16;
        }
        true
    }

    // Link access without bounds checks. The invariant they rely on: every value stored
    // in `up`, `down` and `chosen` is a node index `< NODES` (headers `< ITEMS`, option
    // nodes written by `build`, which writes at most `OPTIONS` options), every `item`
    // value is `< ITEMS`, and `n ^ 1..=3` of an option node stays within its option
    // (options start at 4-aligned `FIRST + 4k`). The arrays are `NODES` long (`keys`
    // `KEYS > ITEMS`). Callers pass only such indices. The debug assertions check it.
    #[inline(always)]
    fn up(&self, n: usize) -> usize {
        debug_assert!(n < NODES);
        // SAFETY: `n < NODES` by the invariant above; `up` has `NODES` entries.
        unsafe { *self.up.get_unchecked(n) as usize }
    }

    #[inline(always)]
    fn down(&self, n: usize) -> usize {
        debug_assert!(n < NODES);
        // SAFETY: `n < NODES` by the invariant above; `down` has `NODES` entries.
        unsafe { *self.down.get_unchecked(n) as usize }
    }

    #[inline(always)]
    fn item(&self, n: usize) -> usize {
        debug_assert!(n < NODES);
        // SAFETY: `n < NODES` by the invariant above; `item` has `NODES` entries.
        unsafe { *self.item.get_unchecked(n) as usize }
    }

    /// Unlinks node `j` from its item's list, one fewer option for the item.
    #[inline(always)]
    fn hide(&mut self, j: usize) {
        let (u, d, it) = (self.up(j), self.down(j), self.item(j));
        debug_assert!(u < NODES && d < NODES && it < ITEMS);
        // SAFETY: `u` and `d` are link values, `< NODES`; `it` is an item, `< ITEMS <
        // KEYS` (the invariant above `up`).
        unsafe {
            *self.down.get_unchecked_mut(u) = d as u16;
            *self.up.get_unchecked_mut(d) = u as u16;
            *self.keys.0.get_unchecked_mut(it) -= 1;
        }
    }

    /// Relinks node `j` where `hide` took it from.
    #[inline(always)]
    fn unhide(&mut self, j: usize) {
        let (u, d, it) = (self.up(j), self.down(j), self.item(j));
        debug_assert!(u < NODES && d < NODES && it < ITEMS);
        // SAFETY: as in `hide`: `u`, `d < NODES`, `it < ITEMS < KEYS`.
        unsafe {
            *self.down.get_unchecked_mut(u) = j as u16;
            *self.up.get_unchecked_mut(d) = j as u16;
            *self.keys.0.get_unchecked_mut(it) += 1;
        }
    }

    /// Removes item `c` and every option that covers it from the other items.
    #[inline(always)]
    fn cover(&mut self, c: usize) {
        // SAFETY: `c` is an item, `< ITEMS < KEYS` (the invariant above `up`).
        unsafe { *self.keys.0.get_unchecked_mut(c) += COVERED };
        let mut i = self.down(c);
        while i != c {
            self.hide(i ^ 1);
            self.hide(i ^ 2);
            self.hide(i ^ 3);
            i = self.down(i);
        }
    }

    /// Undoes `cover(c)`, in the mirror order.
    #[inline(always)]
    fn uncover(&mut self, c: usize) {
        let mut i = self.up(c);
        while i != c {
            self.unhide(i ^ 3);
            self.unhide(i ^ 2);
            self.unhide(i ^ 1);
            i = self.up(i);
        }
        // SAFETY: as in `cover`: `c < ITEMS < KEYS`.
        unsafe { *self.keys.0.get_unchecked_mut(c) -= COVERED };
    }

    /// Covers the items of option node `r`'s other nodes.
    #[inline(always)]
    fn cover_rest(&mut self, r: usize) {
        self.cover(self.item(r ^ 1));
        self.cover(self.item(r ^ 2));
        self.cover(self.item(r ^ 3));
    }

    #[inline(always)]
    fn uncover_rest(&mut self, r: usize) {
        self.uncover(self.item(r ^ 3));
        self.uncover(self.item(r ^ 2));
        self.uncover(self.item(r ^ 1));
    }

    /// Counts solutions up to the limits; the links are left as they are (the next puzzle
    /// rebuilds them).
    fn search(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        let mut budget = limits.budget();
        let mut depth = 0usize;
        'node: loop {
            out.nodes += 1;
            if let Some(stop) = budget.charge(out.nodes) {
                out.stopped(stop);
                return out;
            }
            let (c, count) = choose_item(&self.keys);
            if count >= COVERED {
                // Every item covered: a solution.
                out.solutions += 1;
                if out.solutions == 1 {
                    out.solution = Some(self.solution(puzzle, depth));
                }
                if out.solutions >= limits.max_solutions {
                    return out;
                }
            } else if count > 0 {
                out.guesses += u64::from(count > 1);
                self.cover(c);
                let r = self.down(c);
                self.chosen[depth] = r as u16;
                self.cover_rest(r);
                depth += 1;
                continue 'node;
            }
            // Backtrack: try the next option at the deepest level that has one.
            while depth > 0 {
                depth -= 1;
                let r = self.chosen[depth] as usize;
                self.uncover_rest(r);
                let c = self.item(r);
                let next = self.down(r);
                if next != c {
                    self.chosen[depth] = next as u16;
                    self.cover_rest(next);
                    depth += 1;
                    continue 'node;
                }
                self.uncover(c);
            }
            return out;
        }
    }

    /// The puzzle with the options chosen at depths `..depth` filled in.
    fn solution(&self, puzzle: &Grid, depth: usize) -> Grid {
        let mut grid = *puzzle;
        for &node in &self.chosen[..depth] {
            // An option's nodes are cell, row-digit, ... in that order.
            let first = node as usize & !3;
            let cell = self.item[first] as usize;
            let digit = (self.item[first + 1] as usize - 81) % 9;
            grid.set(cell, digit as u8 + 1);
        }
        grid
    }
}

/// The open item with the fewest options: the leftmost with 0 or 1 if there is one,
/// else the leftmost with the minimum (what a header-list scan that stops at 0 or 1
/// returns). Returns a key `>= COVERED` when every item is covered.
#[inline(always)]
fn choose_item(keys: &Keys) -> (usize, u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let p = keys.0.as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline; `Keys` is 16-byte aligned and
        // longer than the `KEYS / 16` vectors read, so every load is in bounds and aligned.
        unsafe {
            let mut min = _mm_load_si128(p);
            for v in 1..KEYS / 16 {
                min = _mm_min_epu8(min, _mm_load_si128(p.add(v)));
            }
            min = _mm_min_epu8(min, _mm_srli_si128::<8>(min));
            min = _mm_min_epu8(min, _mm_srli_si128::<4>(min));
            min = _mm_min_epu8(min, _mm_srli_si128::<2>(min));
            min = _mm_min_epu8(min, _mm_srli_si128::<1>(min));
            let best = _mm_cvtsi128_si32(min) as u8;
            if best >= COVERED {
                return (0, best);
            }
            // The leftmost key <= max(best, 1): that is <= 1 when there is one.
            let bound = _mm_set1_epi8(best.max(1) as i8);
            for v in 0..KEYS / 16 {
                let x = _mm_load_si128(p.add(v));
                let hit = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, bound), x));
                if hit != 0 {
                    let i = v * 16 + hit.trailing_zeros() as usize;
                    return (i, keys.0[i]);
                }
            }
            unreachable!("the minimum is in the array")
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let keys = &keys.0;
        let best = *keys.iter().min().expect("keys are not empty");
        if best >= COVERED {
            return (0, best);
        }
        let bound = best.max(1);
        let i = keys
            .iter()
            .position(|&k| k <= bound)
            .expect("the minimum is there");
        (i, keys[i])
    }
}

impl Solver for DlxStatic {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        if limits.max_solutions == 0 || !self.build(puzzle) {
            return SolveOutcome::default();
        }
        self.search(puzzle, limits)
    }
}
