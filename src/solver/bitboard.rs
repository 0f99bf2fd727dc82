//! Band-oriented bitboards: candidates as one 27-bit word per digit and band.
//!
//! Word `w(d, b)` holds the cells of band `b` (rows `3b..3b+3`) that may still hold
//! digit `d + 1`: bit `9r + c` is row `3b + r`, column `c`. A band's nine words sit
//! together (padded to three SSE2 vectors), so a cell leaves every digit at once.
//!
//! **Band step** (each word that changed). A band and a digit form a 3x3 grid of
//! *segments* (three cells of one row inside one box); the digit uses one segment of each
//! row and of each box, so only segments on a perfect matching of rows to boxes can hold
//! it (tdoku's "configurations"). One table lookup on the 9-bit pattern of non-empty
//! segments makes every pointing and claiming elimination in the band; a segment alone
//! in its row holding a single cell is a hidden single, placed.
//!
//! **Stack step** (each digit that changed, after the cheaper steps): bands and columns
//! of a stack pair up the same way, so the same table gives the box/column eliminations
//! and a column left with one cell is a hidden single.
//!
//! **Placements** of band steps are applied together (`flush`): their cells leave the
//! other digits' words, their columns the digit's other bands. Hot paths mark changed
//! words with masks, not branches (mispredictions cost hard puzzles as much as their
//! instructions). **Naked singles and empty cells**: candidates per cell counted
//! bit-sliced (one, two, three, four) across the nine words.
//!
//! **Search**: guess a cell with the fewest candidates and, among those, the most open
//! peers (peers with the fewest candidates counting extra). The state is a small `Copy`
//! struct on a fixed stack of [`STACK`] + 1: a guess copies it one up for the branch
//! taken (the lowest digit) and leaves the other below (the other digit placed if it had
//! two, else the guessed one removed). Each propagation is a node; each guess a branch.
//!
//! **Paths.** The search is compiled for each x86-64 level (baseline, v2, v3, v4) and the
//! highest the CPU has runs ([`Path`]; `SUDOKU_BENCH_BITBOARD_PATH` forces a lower one),
//! with the same answers, nodes and guesses on every path.
//!
//! The ideas are the published ones (per-digit band words as in JCZSolve's descriptions;
//! band configurations and the fewest-candidate heuristics as in tdoku's write-up); the
//! code is written for this crate.

use super::{Limits, SolveOutcome, Solver};
use crate::board::nine::{CELLS, Grid};

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// One bit per segment (the first cell of each): bits 0, 3, 6, ..., 24.
const SEG_LOW: u32 = 0o1_111_111_111;
/// Column `c` of all three rows of a band is `COLUMN << c`.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// The alternatives waiting on the stack: each holds a cell that a guess on the current
/// path decided (so at most one per cell; see `Bitboard::solve`).
const STACK: usize = CELLS;

/// The segment pattern of a band word's cells: which of its 9 segments hold one or more.
#[inline(always)]
fn segments(x: u32) -> usize {
    fold(x | x >> 1 | x >> 2)
}

/// Gathers bits 0, 3, ..., 24 of `t` into a segment pattern: bit `9r + 3k` goes to
/// `3k + r`. The product adds `t << 16` (row 0 lands on bits 16, 19, 22), `t << 8`
/// (row 1 on 17, 20, 23) and `t` (row 2 on 18, 21, 24): the three copies' bits are
/// 0, 2 and 1 mod 3, so no two meet and nothing carries.
#[inline(always)]
fn fold(t: u32) -> usize {
    let t = t & SEG_LOW;
    ((t.wrapping_mul(0x10101) >> 16) & 0x1FF) as usize
}

/// The perfect-matching closure of a 3x3 pattern (bit `3k + r` for row `r`, box `k`):
/// its segments that lie on a perfect matching of rows to boxes (0: there is none).
const fn matched(p: usize) -> usize {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut keep = 0;
    let mut i = 0;
    while i < 6 {
        let perm = PERMS[i];
        let m = 1 << (3 * perm[0]) | 1 << (3 * perm[1] + 1) | 1 << (3 * perm[2] + 2);
        if p & m == m {
            keep |= m;
        }
        i += 1;
    }
    keep
}

/// The segments of a closed pattern alone in their row (then also alone in their box,
/// since every perfect matching uses them): the digit must use them.
const fn forced(keep: usize) -> usize {
    let mut forced = 0;
    let mut r = 0;
    while r < 3 {
        let row = (keep >> r) & 0o111;
        if row.count_ones() == 1 {
            forced |= row << r;
        }
        r += 1;
    }
    forced
}

/// The cells of a pattern's segments.
const fn segment_cells(p: usize) -> u32 {
    let mut cells = 0;
    let mut i = 0;
    while i < 9 {
        if p >> i & 1 == 1 {
            let (k, r) = (i / 3, i % 3);
            cells |= 7 << (9 * r + 3 * k);
        }
        i += 1;
    }
    cells
}

/// A stack pattern's bit `3b + j` (band `b`, column `j` of the stack) moved to bit
/// `9b + j`, where that column of band `b` sits in the fold of the three bands.
const fn spread(p: usize) -> u64 {
    let p = p as u64;
    (p & 0o7) | (p & 0o70) << 6 | (p & 0o700) << 12
}

struct Tables {
    /// By segment pattern: the cells of its kept segments (low half; 0 when the band
    /// cannot hold the digit), and the cells of its forced segments (high half).
    band: [u64; 512],
    /// By stack pattern (bit `3b + j`): its kept pairs (low half; 0 when the stack
    /// cannot hold the digit) and its forced pairs (high half), both spread.
    stack: [u64; 512],
    /// For cell `9r + c` of a band: the other cells of its row and box.
    peers: [u32; 27],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        band: [0; 512],
        stack: [0; 512],
        peers: [0; 27],
    };
    let mut p = 0;
    while p < 512 {
        let keep = matched(p);
        let forced = forced(keep);
        t.band[p] = segment_cells(keep) as u64 | (segment_cells(forced) as u64) << 32;
        t.stack[p] = spread(keep) | spread(forced) << 32;
        p += 1;
    }
    let mut pos = 0;
    while pos < 27 {
        let (r, c) = (pos / 9, pos % 9);
        let row = 0x1FF << (9 * r);
        let boxed = (0o7 << (c / 3 * 3)) * COLUMN;
        t.peers[pos] = (row | boxed) & !(1 << pos);
        pos += 1;
    }
    t
}

/// Immutable, built at compile time: a `static`, not a `const`, so uses share one copy.
static TABLES: Tables = build_tables();

/// Words per band in `State::cand`: nine digits padded to three 4-lane vectors.
const LANES: usize = 12;
/// The index in `State::cand` of digit `d`'s word for band `b`.
#[inline(always)]
const fn w(d: usize, b: usize) -> usize {
    b * LANES + d
}
/// The bit of digit `d`'s word for band `b` in `State::dirty`: a power-of-two stride,
/// so the digit and band come back with a mask and a shift.
#[inline(always)]
const fn dirty_bit(d: usize, b: usize) -> u64 {
    1 << (b * 16 + d)
}
/// The dirty bits of every word.
const ALL_WORDS: u64 = 0x1FF | 0x1FF << 16 | 0x1FF << 32;

/// By digit: all ones but in the digit's lane of a band's words. Immutable, as `TABLES`.
#[cfg(target_arch = "x86_64")]
#[repr(C, align(16))]
struct Except([[u32; LANES]; 9]);
#[cfg(target_arch = "x86_64")]
static EXCEPT: Except = {
    let mut rows = [[!0; LANES]; 9];
    let mut d = 0;
    while d < 9 {
        rows[d][d] = 0;
        d += 1;
    }
    Except(rows)
};

/// For each band, the other two.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// Placements found by band steps and not yet applied to the other words: one entry
/// per word that placed any. Between two flushes a band step runs at most once per
/// word (only flushes and the other steps mark words dirty), so 27 entries suffice.
struct Pending {
    /// The cells placed (low half) and their word's `dirty_bit` index (high half).
    placed: [u64; 32],
    len: usize,
}

impl Pending {
    const EMPTY: Pending = Pending {
        placed: [0; 32],
        len: 0,
    };
}

/// The search state: small and `Copy`, so a guess saves it whole.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct State {
    /// Candidates, word `w(d, b)` (see the module docs); the padding words stay 0.
    cand: [u32; 3 * LANES],
    /// Cells whose digit is not yet placed (its peers not yet cleared), per band.
    unsolved: [u32; 3],
    /// Words changed since their last band step (`dirty_bit(d, b)`).
    dirty: u64,
}

/// What propagation ended with.
enum Step {
    Contradiction,
    Solved,
    /// Stuck: guess among these cells (per band), the two-candidate ones if any.
    Open([u32; 3]),
}

impl State {
    const EMPTY: State = State {
        cand: [0; 3 * LANES],
        unsolved: [0; 3],
        dirty: 0,
    };

    /// The givens placed and their peers cleared, or `None` when two givens conflict.
    fn new(puzzle: &Grid) -> Option<State> {
        let mut given = [0u32; 3 * LANES];
        let mut any = [0u32; 3];
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let (b, pos) = (cell / 27, cell % 27);
                given[w(v as usize - 1, b)] |= 1 << pos;
                any[b] |= 1 << pos;
            }
        }
        let mut st = State::EMPTY;
        for b in 0..3 {
            for d in 0..9 {
                st.cand[w(d, b)] = (BAND & !any[b]) | given[w(d, b)];
            }
        }
        for b in 0..3 {
            for d in 0..9 {
                let mut g = given[w(d, b)];
                while g != 0 {
                    let pos = g.trailing_zeros() as usize;
                    g &= g - 1;
                    let column = COLUMN << (pos % 9);
                    st.cand[w(d, b)] &= !TABLES.peers[pos];
                    for ob in 0..3 {
                        if ob != b {
                            st.cand[w(d, ob)] &= !column;
                        }
                    }
                }
            }
        }
        // A given cleared by another's peers: they conflict.
        if st.cand.iter().zip(&given).any(|(c, g)| c & g != *g) {
            return None;
        }
        st.unsolved = any.map(|a| BAND & !a);
        st.dirty = ALL_WORDS;
        Some(st)
    }

    /// The band step for digit `d` in band `b`: keeps the segments on a perfect
    /// matching, then places the digit in the cells it is forced into. False on a
    /// contradiction.
    #[inline(always)]
    fn update(&mut self, d: usize, b: usize, pending: &mut Pending) -> bool {
        let x = self.cand[w(d, b)];
        let entry = TABLES.band[segments(x)];
        if entry as u32 == 0 {
            return false;
        }
        let x = x & entry as u32;
        self.cand[w(d, b)] = x;
        // Open cells in segments the digit must use; placed where such a segment has
        // a single cell (a row, and so a box, with one place left).
        let z = x & (entry >> 32) as u32 & self.unsolved[b];
        let (a, c) = (z >> 1, z >> 2);
        let crowded = ((z & (a | c)) | (a & c)) & SEG_LOW;
        let placed = z & !(crowded * 7);
        // Their peers clear in the next `flush`; marking them solved now keeps any other
        // digit from being placed there meanwhile.
        self.unsolved[b] &= !placed;
        // Written always, kept when anything was placed: no branch.
        pending.placed[pending.len % 32] = u64::from(placed) | ((b * 16 + d) as u64) << 32;
        pending.len += usize::from(placed != 0);
        true
    }

    /// The stack step for digit `d`. In each stack, the three bands and three columns
    /// pair up like rows and boxes in a band: keeps the (band, column) pairs on a perfect
    /// matching, and finds the columns left with one cell (hidden singles). False on a
    /// contradiction.
    #[inline(always)]
    fn stack_update(&mut self, d: usize) -> bool {
        let x = [self.cand[w(d, 0)], self.cand[w(d, 1)], self.cand[w(d, 2)]];
        // Columns holding the digit, band b's at bits 9b..9b+9.
        let p = x.iter().enumerate().fold(0, |p, (b, &x)| {
            p | ((x | x >> 9 | x >> 18) & 0x1FF) << (9 * b)
        });
        let mut both = 0u64;
        for s in 0..3 {
            // Band b's three columns of stack s to bits 3b..3b+3: the product's copies
            // (shifted 0, 6 and 12) are 0, 6 and 3 mod 9 apart, so none meet.
            let t = (p >> (3 * s)) & 0o007_007_007;
            let q = ((t.wrapping_mul(0x1041) >> 12) & 0x1FF) as usize;
            let entry = TABLES.stack[q];
            if entry as u32 == 0 {
                return false;
            }
            both |= entry << (3 * s);
        }
        let (allowed, forced) = (both as u32, (both >> 32) as u32);
        for (b, &x) in x.iter().enumerate() {
            let nx = x & (((allowed >> (9 * b)) & 0x1FF) * COLUMN);
            self.clear(d, b, x & !nx);
            // Columns of this band the digit must use that have a single cell.
            let (r0, r1, r2) = (nx & 0x1FF, (nx >> 9) & 0x1FF, nx >> 18);
            let crowded = (r0 & r1) | (r0 & r2) | (r1 & r2);
            let single = (forced >> (9 * b)) & 0x1FF & !crowded;
            let mut cells = nx & (single * COLUMN) & self.unsolved[b];
            while cells != 0 {
                let pos = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                self.clear(d, b, TABLES.peers[pos]);
                self.dirty |= dirty_bit(d, b);
            }
        }
        true
    }

    /// Applies the pending placements: clears each placed cell from the other digits'
    /// words and its column from its digit's words in the other bands (its row and box
    /// hold no other candidate for it already). Entry by entry: a pass over every word
    /// costs the hard puzzles about 4% more, though it has no branch.
    #[inline(always)]
    fn flush(&mut self, pending: &mut Pending) {
        for &entry in &pending.placed[..pending.len] {
            let (cells, i) = (entry as u32, (entry >> 32) as usize);
            let (b, d) = (i >> 4, i & 15);
            self.clear_band_except(b, d, cells);
            let columns = ((cells | cells >> 9 | cells >> 18) & 0x1FF) * COLUMN;
            let (o1, o2) = OTHER_BANDS[b];
            self.clear(d, o1, columns);
            self.clear(d, o2, columns);
        }
        pending.len = 0;
    }

    /// Clears `mask` from digit `d`'s word for band `b`, marking it dirty when that
    /// changed it.
    #[inline(always)]
    fn clear(&mut self, d: usize, b: usize, mask: u32) {
        let old = self.cand[w(d, b)];
        let new = old & !mask;
        self.cand[w(d, b)] = new;
        self.dirty |= u64::from(new != old) << (b * 16 + d);
    }

    /// Clears `mask` from every digit's word of band `b` but digit `d`'s.
    #[inline(always)]
    fn clear_band_except(&mut self, b: usize, d: usize, mask: u32) {
        #[cfg(target_arch = "x86_64")]
        self.clear_band_except_sse2(b, d, mask);
        #[cfg(not(target_arch = "x86_64"))]
        self.clear_band_except_portable(b, d, mask);
    }

    /// `clear_band_except` on the band's three vectors.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn clear_band_except_sse2(&mut self, b: usize, d: usize, mask: u32) {
        use std::arch::x86_64::*;
        let p = self.cand[b * LANES..].as_mut_ptr() as *mut __m128i;
        let except = EXCEPT.0[d].as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline. `cand` has 3 * LANES words and
        // is 16-byte aligned (`State` is `align(16)` and `repr(C)`, `cand` its first
        // field); band `b < 3` starts at word `b * LANES`, a multiple of 4, and the
        // vectors read and written are its words `..LANES`, all in bounds. `EXCEPT`'s
        // rows are LANES words, 16-byte aligned too, and `d < 9`.
        let changed = unsafe {
            let m = _mm_set1_epi32(mask as i32);
            let mut same = [_mm_setzero_si128(); LANES / 4];
            for (k, same) in same.iter_mut().enumerate() {
                // The mask, but not in digit `d`'s lane: a vector store, so that the
                // next vector load of these words is forwarded from it (a narrower
                // store of `d`'s word, written back after, would stall it).
                let m = _mm_and_si128(m, _mm_load_si128(except.add(k)));
                let old = _mm_load_si128(p.add(k));
                let new = _mm_andnot_si128(m, old);
                _mm_store_si128(p.add(k), new);
                *same = _mm_cmpeq_epi32(old, new);
            }
            // One byte per word (all ones where unchanged), then one bit.
            let words = _mm_packs_epi16(
                _mm_packs_epi32(same[0], same[1]),
                _mm_packs_epi32(same[2], same[2]),
            );
            !(_mm_movemask_epi8(words) as u32) & 0x1FF
        };
        self.dirty |= u64::from(changed) << (b * 16);
    }

    /// `clear_band_except` one word at a time.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn clear_band_except_portable(&mut self, b: usize, d: usize, mask: u32) {
        for od in 0..9 {
            if od != d {
                self.clear(od, b, mask);
            }
        }
    }

    /// Inlined into each path's search, so that it is compiled for that path: called,
    /// it would run the baseline's code on every path.
    #[inline(always)]
    fn propagate(&mut self) -> Step {
        // A local, not a field of the solver: kept in registers, it is about 1.5% faster
        // on the hard puzzles than behind a reference, zeroing included.
        let mut pending = Pending::EMPTY;
        let pending = &mut pending;
        let (mut pairs, mut triples);
        // Digits changed since their last stack step.
        let mut digits = 0u32;
        loop {
            // Band steps mark nothing dirty: the words to step are known before the
            // first, and a local copy of the mask stays in a register.
            let mut dirty = std::mem::take(&mut self.dirty);
            digits |= (dirty | dirty >> 16 | dirty >> 32) as u32 & 0x1FF;
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let (b, d) = (i >> 4, i & 15);
                if !self.update(d, b, pending) {
                    return Step::Contradiction;
                }
            }
            if pending.len != 0 {
                self.flush(pending);
                continue;
            }
            let Some(counts) = self.counts() else {
                return Step::Contradiction;
            };
            let singles = counts[0];
            (pairs, triples) = (counts[1], counts[2]);
            let found = singles[0] | singles[1] | singles[2];
            if found == 0 {
                // Stable under the cheaper steps: the stack steps of the digits changed.
                if digits != 0 {
                    while digits != 0 {
                        let d = digits.trailing_zeros() as usize;
                        digits &= digits - 1;
                        if !self.stack_update(d) {
                            return Step::Contradiction;
                        }
                    }
                    if self.dirty != 0 {
                        continue;
                    }
                }
                break;
            }
            for (b, &s) in singles.iter().enumerate() {
                let mut s = s;
                while s != 0 {
                    let pos = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let d = self.digits(b, 1 << pos).trailing_zeros() as usize;
                    if d >= 9 {
                        // Another single of this pass took its last digit.
                        return Step::Contradiction;
                    }
                    self.clear(d, b, TABLES.peers[pos]);
                    // Even if that changed nothing, the band step must place it.
                    self.dirty |= dirty_bit(d, b);
                }
            }
        }
        if self.unsolved == [0; 3] {
            return Step::Solved;
        }
        // Fewest candidates: two if any cell has two, else three, else any open cell.
        Step::Open(if pairs != [0; 3] {
            pairs
        } else if triples != [0; 3] {
            triples
        } else {
            self.unsolved
        })
    }

    /// The open cells with one, two and three candidates, per band; `None` when an
    /// open cell has none.
    #[inline(always)]
    fn counts(&self) -> Option<[[u32; 3]; 3]> {
        #[cfg(target_arch = "x86_64")]
        return self.counts_sse2();
        #[cfg(not(target_arch = "x86_64"))]
        return self.counts_portable();
    }

    /// `counts` band by band: candidates per cell counted bit-sliced across the
    /// digits' words (at least one, two, three, four).
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn counts_portable(&self) -> Option<[[u32; 3]; 3]> {
        let mut out = [[0; 3]; 3];
        for (b, &u) in self.unsolved.iter().enumerate() {
            let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
            for &x in &self.cand[b * LANES..b * LANES + 9] {
                four |= three & x;
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            if u & !one != 0 {
                return None;
            }
            out[0][b] = u & !two;
            out[1][b] = u & two & !three;
            out[2][b] = u & three & !four;
        }
        Some(out)
    }

    /// `counts` for the three bands at once, one band a lane: each group of four
    /// digits' words transposed from the bands' vectors, then counted as one.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn counts_sse2(&self) -> Option<[[u32; 3]; 3]> {
        use std::arch::x86_64::*;
        const V: usize = LANES / 4;
        let c = self.cand.as_ptr() as *const __m128i;
        let mut out = [[0u32; 4]; 3];
        // SAFETY: SSE2 is part of the x86_64 baseline; `cand` is 3 * V aligned vectors
        // (see `clear_band_except_sse2`); `out`'s rows are 4 words, stored unaligned.
        unsafe {
            let zero = _mm_setzero_si128();
            let (mut one, mut two, mut three, mut four) = (zero, zero, zero, zero);
            for k in 0..V {
                let (r0, r1, r2) = (
                    _mm_load_si128(c.add(k)),
                    _mm_load_si128(c.add(V + k)),
                    _mm_load_si128(c.add(2 * V + k)),
                );
                let (lo, hi) = (_mm_unpacklo_epi32(r0, r1), _mm_unpackhi_epi32(r0, r1));
                let (lo2, hi2) = (_mm_unpacklo_epi32(r2, zero), _mm_unpackhi_epi32(r2, zero));
                // Digit 4k + j of bands 0, 1, 2 (the last vector holds digit 8 only;
                // the padding words are 0 and count nothing).
                let digits = [
                    _mm_unpacklo_epi64(lo, lo2),
                    _mm_unpackhi_epi64(lo, lo2),
                    _mm_unpacklo_epi64(hi, hi2),
                    _mm_unpackhi_epi64(hi, hi2),
                ];
                for &x in &digits[..if k + 1 < V { 4 } else { 9 - 4 * k }] {
                    four = _mm_or_si128(four, _mm_and_si128(three, x));
                    three = _mm_or_si128(three, _mm_and_si128(two, x));
                    two = _mm_or_si128(two, _mm_and_si128(one, x));
                    one = _mm_or_si128(one, x);
                }
            }
            let [u0, u1, u2] = self.unsolved;
            let u = _mm_set_epi32(0, u2 as i32, u1 as i32, u0 as i32);
            let empty = _mm_andnot_si128(one, u);
            if _mm_movemask_epi8(_mm_cmpeq_epi32(empty, zero)) != 0xFFFF {
                return None;
            }
            let rows = [
                _mm_andnot_si128(two, u),
                _mm_andnot_si128(three, _mm_and_si128(u, two)),
                _mm_andnot_si128(four, _mm_and_si128(u, three)),
            ];
            for (row, v) in out.iter_mut().zip(rows) {
                _mm_storeu_si128(row.as_mut_ptr() as *mut __m128i, v);
            }
        }
        Some(out.map(|[a, b, c, _]| [a, b, c]))
    }

    /// The cell of `open` whose guess should clear the most: the most open peers,
    /// with a bonus for peers in `open` too (the cells of the fewest candidates, which
    /// a guess most often turns into singles). Scored 3 to 1, the weights that gave
    /// the fewest guesses on the hard sets (forum hardest 78.9 a puzzle, against 82.9
    /// for open peers alone); ties go to the last cell. Returns its band and bit.
    #[inline(always)]
    fn best_cell(&self, open: &[u32; 3]) -> (usize, u32) {
        // Score and place in one key, so the best is a `max` (no branch to mispredict).
        let mut best = 0u32;
        for (b, &cells) in open.iter().enumerate() {
            let mut cells = cells;
            let (o1, o2) = OTHER_BANDS[b];
            while cells != 0 {
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                // Its peers in the band (bits 0..27) and in its column in the other
                // two bands (bits 32 and 33, shifted by the column): one word each.
                let (peers, col) = (TABLES.peers[pos as usize], COLUMN << (pos % 9));
                let of = |set: &[u32; 3]| {
                    u64::from(set[b] & peers)
                        | u64::from(set[o1] & col | (set[o2] & col) << 1) << 32
                };
                let n = 3 * of(&self.unsolved).count_ones() + of(open).count_ones();
                best = best.max(n << 8 | (b as u32) << 5 | pos);
            }
        }
        (((best >> 5) & 3) as usize, 1 << (best & 31))
    }

    /// The digits (bit `d`) still possible in the cell `bit` of band `b`.
    #[inline(always)]
    fn digits(&self, b: usize, bit: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        return self.digits_sse2(b, bit);
        #[cfg(not(target_arch = "x86_64"))]
        return self.digits_portable(b, bit);
    }

    /// The digits (bit `d`) still possible in the cell `bit` of band `b`.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn digits_portable(&self, b: usize, bit: u32) -> u32 {
        let mut digits = 0u32;
        for d in 0..9 {
            digits |= u32::from(self.cand[w(d, b)] & bit != 0) << d;
        }
        digits
    }

    /// `digits_portable` on the band's three vectors.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn digits_sse2(&self, b: usize, bit: u32) -> u32 {
        use std::arch::x86_64::*;
        let p = self.cand[b * LANES..].as_ptr() as *const __m128i;
        // SAFETY: as in `clear_band_except_sse2`, reading only.
        unsafe {
            let m = _mm_set1_epi32(bit as i32);
            let zero = _mm_setzero_si128();
            let lacks: [__m128i; LANES / 4] = std::array::from_fn(|k| {
                _mm_cmpeq_epi32(_mm_and_si128(_mm_load_si128(p.add(k)), m), zero)
            });
            let words = _mm_packs_epi16(
                _mm_packs_epi32(lacks[0], lacks[1]),
                _mm_packs_epi32(lacks[2], lacks[2]),
            );
            !(_mm_movemask_epi8(words) as u32) & 0x1FF
        }
    }

    /// Makes digit `d` the only candidate of the cell (its peers clear on propagation).
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, bit: u32) {
        self.clear_band_except(b, d, bit);
        self.clear(d, b, TABLES.peers[bit.trailing_zeros() as usize]);
        self.dirty |= dirty_bit(d, b);
    }

    /// `*dst = *self`, inline: the compiler makes a plain copy this size a call to
    /// `memcpy`.
    #[inline(always)]
    fn copy_to(&self, dst: &mut State) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            const V: usize = 3 * LANES / 4;
            let (s, t) = (
                self.cand.as_ptr() as *const __m128i,
                dst.cand.as_mut_ptr() as *mut __m128i,
            );
            // SAFETY: SSE2 is part of the x86_64 baseline; both `cand`s are V whole
            // vectors, 16-byte aligned (see `clear_band_except_sse2`), and a `&mut`
            // never overlaps a `&`. Only `cand` goes by vector: the struct's padding
            // bytes, uninitialised, must not be read as integers.
            unsafe {
                // Volatile loads: plain ones are merged back into a `memcpy` call.
                for i in 0..V {
                    _mm_store_si128(t.add(i), std::ptr::read_volatile(s.add(i)));
                }
            }
            (dst.unsolved, dst.dirty) = (self.unsolved, self.dirty);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            *dst = *self;
        }
    }

    fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for b in 0..3 {
            for d in 0..9 {
                let mut x = self.cand[w(d, b)];
                while x != 0 {
                    let pos = x.trailing_zeros() as usize;
                    x &= x - 1;
                    cells[b * 27 + pos] = d as u8 + 1;
                }
            }
        }
        Grid::from_cells(cells).expect("digits are 1..=9")
    }
}

named! {
    /// The instruction sets the search is compiled for: the x86-64 levels (other
    /// architectures have `Baseline` only).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Path {
        Baseline => "x86-64",
        V2 => "x86-64-v2",
        V3 => "x86-64-v3",
        V4 => "x86-64-v4",
    }
}

/// The environment variable that forces a lower path, by name.
pub const PATH_ENV: &str = "SUDOKU_BENCH_BITBOARD_PATH";

impl Path {
    /// Whether this CPU can run it (the features its compiled search uses).
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let v2 = has!("popcnt") && has!("sse4.2");
            let v3 = v2 && has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt");
            match self {
                Path::Baseline => true,
                Path::V2 => v2,
                Path::V3 => v3,
                Path::V4 => v3 && has!("avx512f") && has!("avx512bw") && has!("avx512vl"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Path::Baseline
        }
    }

    /// The path solvers run: the highest this CPU has, or the one `PATH_ENV` names;
    /// `Err` when that is no path's name or one this CPU cannot run.
    pub fn chosen() -> Result<Path, String> {
        let best = || Path::ALL.into_iter().rev().find(|p| p.supported());
        let Some(name) = std::env::var_os(PATH_ENV) else {
            return Ok(best().unwrap_or(Path::Baseline));
        };
        let names = Path::ALL.map(Path::name).join(", ");
        match Path::ALL.into_iter().find(|p| name == p.name()) {
            Some(p) if p.supported() => Ok(p),
            Some(p) => Err(format!("{PATH_ENV}={}: this CPU cannot run it", p.name())),
            None => Err(format!("{PATH_ENV}={name:?}: not one of {names}")),
        }
    }
}

/// The bitboard solver. Holds only the guess stack, reused from puzzle to puzzle, and
/// the path it runs.
pub struct Bitboard {
    stack: [State; STACK + 1],
    path: Path,
}

impl Default for Bitboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Bitboard {
    /// On [`Path::chosen`] (the baseline where that is an error: the options refuse
    /// it before any solver is made).
    pub fn new() -> Bitboard {
        Bitboard::on(Path::chosen().unwrap_or(Path::Baseline))
    }

    /// On `path`, or the baseline where this CPU cannot run it.
    pub fn on(path: Path) -> Bitboard {
        Bitboard {
            stack: [State::EMPTY; STACK + 1],
            path: match path.supported() {
                true => path,
                false => Path::Baseline,
            },
        }
    }

    pub fn path(&self) -> Path {
        self.path
    }

    /// The search compiled for x86-64-v2.
    ///
    /// # Safety
    ///
    /// The CPU must have the features enabled ([`Path::supported`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,sse4.2")]
    unsafe fn search_v2(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.search(puzzle, limits)
    }

    /// The search compiled for x86-64-v3. Safety: as [`Bitboard::search_v2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,sse4.2,avx2,bmi1,bmi2,lzcnt")]
    unsafe fn search_v3(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.search(puzzle, limits)
    }

    /// The search compiled for x86-64-v4. Safety: as [`Bitboard::search_v2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,sse4.2,avx2,bmi1,bmi2,lzcnt,avx512f,avx512bw,avx512vl")]
    unsafe fn search_v4(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        self.search(puzzle, limits)
    }
}

impl Solver for Bitboard {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        #[cfg(target_arch = "x86_64")]
        match self.path {
            Path::Baseline => {}
            // SAFETY: `self.path` is supported on this CPU (`Bitboard::on`).
            Path::V2 => return unsafe { self.search_v2(puzzle, limits) },
            // SAFETY: as above.
            Path::V3 => return unsafe { self.search_v3(puzzle, limits) },
            // SAFETY: as above.
            Path::V4 => return unsafe { self.search_v4(puzzle, limits) },
        }
        self.search(puzzle, limits)
    }
}

impl Bitboard {
    /// The search, inlined into each path's function.
    #[inline(always)]
    fn search(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        if limits.max_solutions == 0 {
            return out;
        }
        let Some(st) = State::new(puzzle) else {
            return out;
        };
        let mut budget = limits.budget();
        // The state searched is `stack[sp]`; below it wait the alternatives. A guess
        // copies the state one up (the branch taken) and leaves the alternative in
        // place, so backtracking copies nothing. Depth: `stack[sp]` has at most
        // `81 - sp` open cells (each entry below is a guess that decided one more), and
        // a guess needs an open cell, so `sp <= 80` when guessing.
        self.stack[0] = st;
        let mut sp = 0;
        loop {
            out.nodes += 1;
            if let Some(stop) = budget.charge(out.nodes) {
                out.stopped(stop);
                return out;
            }
            let st = &mut self.stack[sp];
            match st.propagate() {
                Step::Contradiction => {}
                Step::Solved => {
                    out.solutions += 1;
                    if out.solutions == 1 {
                        out.solution = Some(st.solution());
                    }
                    if out.solutions >= limits.max_solutions {
                        return out;
                    }
                }
                Step::Open(open) => {
                    let (b, bit) = st.best_cell(&open);
                    // Open cells have two digits or more after propagation.
                    let digits = st.digits(b, bit);
                    if digits != 0 {
                        out.guesses += 1;
                        let d = digits.trailing_zeros() as usize;
                        let rest = digits & (digits - 1);
                        let (below, above) = self.stack.split_at_mut(sp + 1);
                        let (st, next) = (&mut below[sp], &mut above[0]);
                        st.copy_to(next);
                        if rest != 0 && rest & (rest - 1) == 0 {
                            // Two digits: the other branch is the other digit, placed now
                            // rather than found as a single by its propagation.
                            st.assign(rest.trailing_zeros() as usize, b, bit);
                        } else {
                            st.clear(d, b, bit);
                        }
                        next.assign(d, b, bit);
                        sp += 1;
                        continue;
                    }
                }
            }
            if sp == 0 {
                return out;
            }
            sp -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::DlxStatic;
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    /// Hard puzzles (from the forum's hardest list): many guesses each.
    const HARD: &[&str] = &[
        "98.7..6..7...5......4..8.7.4....7.3..9.2.......3.1...6.4...9.8....5....2.....21..",
        "98.7..6..5...9..7...7..49..3.......2.5...3.....89...6..2.4.61....58...4.....1....",
        // Its search meets two naked singles of one digit in one unit.
        "........7..4.2.6..8.....31......29...4..9..3...95.6....1......8..6.5.2..7......6.",
    ];
    /// A full grid (the solution of a puzzle in `tests.rs`).
    const FULL: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
    /// A 17-clue puzzle.
    const SEVENTEEN: &str =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    /// Puzzles with several solutions.
    const SEVERAL: &[&str] = &[
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        "8.........59.......76.........978245...653198...412736...591......836.1....724.8.",
        // The 17-clue puzzle without its first three clues.
        "................................3.2...1.4......5....6..3......4.7..8...962...7...",
    ];
    /// No solution, though no two givens conflict (the shared backend tests' set).
    use super::super::tests::{NO_SOLUTION as NONE, grid, limits};

    /// Every solution, counted by the exact-cover backend.
    fn dlx_count(p: &Grid, max: u32) -> u32 {
        DlxStatic::default().solve(p, &limits(max)).solutions
    }

    #[test]
    fn folds_gather_the_right_bits() {
        // A segment pattern by hand, and the stack pattern of `stack_update`.
        for x in (0..4000u32).map(|i| i.wrapping_mul(0x9E37_79B9) & BAND) {
            let mut naive = 0;
            for r in 0..3 {
                for k in 0..3 {
                    if x & (7 << (9 * r + 3 * k)) != 0 {
                        naive |= 1 << (3 * k + r);
                    }
                }
            }
            assert_eq!(segments(x), naive, "{x:#x}");
            for s in 0..3 {
                let t = (x >> (3 * s)) & 0o007_007_007;
                let q = (t.wrapping_mul(0x1041) >> 12) & 0x1FF;
                let naive = (t & 7) | (t >> 9 & 7) << 3 | (t >> 18 & 7) << 6;
                assert_eq!(q, naive, "{x:#x} stack {s}");
            }
        }
    }

    #[test]
    fn matching_keeps_exactly_the_segments_of_some_configuration() {
        // Octal digit k is box k, its bits rows 0, 1, 2.
        assert_eq!(matched(0o777), 0o777);
        assert_eq!(forced(0o777), 0);
        // Row 0 has no segment; rows 0 and 1 both only in box 0: no configuration.
        assert_eq!(matched(0o666), 0);
        assert_eq!(matched(0o443), 0);
        // Row 2 not in box 0: every other segment is still on some configuration.
        assert_eq!(matched(0o773), 0o773);
        // Row 0 only in box 0 (pointing): rows 1 and 2 leave box 0, row 0 is forced.
        assert_eq!(matched(0o667), 0o661);
        assert_eq!(forced(0o661), 0o001);
        // Box 2 only in row 2 (claiming): row 2 leaves boxes 0 and 1.
        assert_eq!(matched(0o477), 0o433);
        assert_eq!(forced(0o433), 0o400);
        // A single configuration: all forced.
        assert_eq!(matched(0o421), 0o421);
        assert_eq!(forced(0o421), 0o421);
        for p in 0..512 {
            let keep = matched(p);
            assert_eq!(keep & !p, 0);
            assert_eq!(matched(keep), keep, "{p:o}");
            assert_eq!(forced(keep) & !keep, 0);
        }
    }

    #[test]
    fn solves_unique_puzzles() {
        let mut solver = Bitboard::new();
        for p in HARD {
            let s = DlxStatic::default()
                .solve(&grid(p), &limits(2))
                .solution
                .unwrap();
            for max in [1, 2, 3] {
                let out = solver.solve(&grid(p), &limits(max));
                assert_eq!((out.solutions, out.solution), (1, Some(s)), "{p}");
                assert!(out.guesses >= 1 && out.nodes > out.guesses, "{out:?}");
                assert!(!out.budget_exceeded);
            }
        }
        let out = solver.solve(&grid(SEVENTEEN), &limits(2));
        assert_eq!(out.solutions, 1);
        assert_eq!(
            out.solution.unwrap().check_solution_of(&grid(SEVENTEEN)),
            Ok(())
        );
    }

    #[test]
    fn finds_no_solution() {
        let mut solver = Bitboard::new();
        for p in NONE {
            assert_eq!(dlx_count(&grid(p), 2), 0, "{p}");
            let out = solver.solve(&grid(p), &limits(2));
            assert_eq!((out.solutions, out.solution), (0, None), "{p}");
            assert!(!out.budget_exceeded && out.nodes >= 1);
        }
    }

    #[test]
    fn counts_several_solutions_up_to_any_limit() {
        let mut solver = Bitboard::new();
        for p in SEVERAL {
            let g = grid(p);
            let all = dlx_count(&g, 2000);
            assert!(all >= 2, "{p}");
            for max in [1, 2, 3, 5, 100, all, all + 1, 2000] {
                let out = solver.solve(&g, &limits(max));
                assert_eq!(out.solutions, dlx_count(&g, max), "{p} up to {max}");
                assert_eq!(out.solution.unwrap().check_solution_of(&g), Ok(()));
            }
        }
    }

    #[test]
    fn the_empty_grid_has_many_solutions() {
        let mut solver = Bitboard::new();
        for max in [1, 2, 100, 5000] {
            let out = solver.solve(&Grid::EMPTY, &limits(max));
            assert_eq!(out.solutions, max);
            let s = out.solution.unwrap();
            assert!(s.is_full());
            assert_eq!(s.check_solution_of(&Grid::EMPTY), Ok(()));
        }
        assert_eq!(
            solver.solve(&Grid::EMPTY, &limits(0)),
            SolveOutcome::default()
        );
    }

    #[test]
    fn a_full_grid_is_one_node() {
        let full = grid(FULL);
        let out = Bitboard::new().solve(&full, &limits(2));
        assert_eq!((out.solutions, out.solution), (1, Some(full)));
        assert_eq!((out.nodes, out.guesses), (1, 0));
        // One cell blank: still no guess.
        let mut g = full;
        g.set(40, 0);
        let out = Bitboard::new().solve(&g, &limits(2));
        assert_eq!((out.solutions, out.solution), (1, Some(full)));
        assert_eq!((out.nodes, out.guesses), (1, 0));
    }

    #[test]
    fn conflicting_givens_give_no_solution() {
        let full = grid(FULL);
        let mut cases = Vec::new();
        // The same digit twice in a row, a column, a box (and nowhere else).
        for (a, b) in [(0, 8), (0, 72), (0, 20), (30, 50), (80, 60)] {
            let mut g = Grid::EMPTY;
            g.set(a, 5);
            g.set(b, 5);
            cases.push(g);
        }
        // A full grid with two cells swapped, and a solution with one digit changed.
        let mut g = full;
        let (x, y) = (full.get(0), full.get(1));
        g.set(0, y);
        g.set(1, x);
        cases.push(g);
        let mut g = full;
        g.set(40, full.get(40) % 9 + 1);
        cases.push(g);
        let mut solver = Bitboard::new();
        for g in cases {
            assert!(g.find_conflict().is_some(), "{g}");
            for max in [1, 2] {
                let out = solver.solve(&g, &limits(max));
                assert_eq!((out.solutions, out.solution), (0, None), "{g}");
            }
        }
    }

    /// Solves the puzzles with `solver`, each outcome the same as a fresh solver's.
    fn same_as_fresh(solver: &mut Bitboard) {
        let puzzles = HARD.iter().chain(SEVERAL).chain(NONE).chain([&SEVENTEEN]);
        for p in puzzles {
            for max in [1, 2] {
                let fresh = Bitboard::new().solve(&grid(p), &limits(max));
                assert_eq!(solver.solve(&grid(p), &limits(max)), fresh, "{p}");
            }
        }
    }

    #[test]
    fn nothing_leaks_from_one_solve_to_the_next() {
        let mut solver = Bitboard::new();
        same_as_fresh(&mut solver);
        // After a search that went deep (counting 5000 solutions of the empty grid).
        solver.solve(&Grid::EMPTY, &limits(5000));
        same_as_fresh(&mut solver);
    }

    #[test]
    fn a_node_budget_stops_the_search_and_the_next_solve_is_unaffected() {
        let mut solver = Bitboard::new();
        let p = HARD[1];
        let full = solver.solve(&grid(p), &limits(2));
        assert!(full.nodes > 10, "{full:?}");
        for max_nodes in [1, 2, 5, full.nodes - 1] {
            let tight = Limits {
                max_nodes,
                ..limits(2)
            };
            let out = solver.solve(&grid(p), &tight);
            assert!(
                out.budget_exceeded && !out.timed_out && !out.cancelled,
                "{out:?}"
            );
            assert_eq!(out.nodes, max_nodes + 1);
            same_as_fresh(&mut solver);
        }
        // Exactly enough nodes: it finishes.
        let enough = Limits {
            max_nodes: full.nodes,
            ..limits(2)
        };
        assert_eq!(solver.solve(&grid(p), &enough), full);
    }

    #[test]
    fn a_deadline_stops_the_search_and_the_next_solve_is_unaffected() {
        let mut solver = Bitboard::new();
        let past = Limits {
            deadline: Some(Instant::now()),
            ..limits(2)
        };
        let out = solver.solve(&grid(HARD[0]), &past);
        assert!(out.timed_out && out.budget_exceeded && !out.cancelled);
        assert_eq!((out.nodes, out.solutions), (1, 0));
        same_as_fresh(&mut solver);
        // Mid-search: counting every solution of the empty grid never ends.
        let soon = Limits {
            max_solutions: u32::MAX,
            max_nodes: u64::MAX,
            deadline: Some(Instant::now() + Duration::from_millis(20)),
            ..Limits::default()
        };
        let start = Instant::now();
        let out = solver.solve(&Grid::EMPTY, &soon);
        assert!(out.timed_out && out.budget_exceeded, "{out:?}");
        assert!(out.nodes > 1024 && out.solutions > 0);
        assert!(start.elapsed() < Duration::from_secs(5));
        same_as_fresh(&mut solver);
    }

    #[test]
    fn a_cancel_flag_stops_the_search_and_the_next_solve_is_unaffected() {
        static SET: AtomicBool = AtomicBool::new(true);
        let mut solver = Bitboard::new();
        let limits = Limits {
            max_solutions: u32::MAX,
            cancel: Some(&SET),
            ..Limits::default()
        };
        let out = solver.solve(&Grid::EMPTY, &limits);
        assert!(out.cancelled && out.budget_exceeded && !out.timed_out);
        assert_eq!(out.nodes, 1024);
        same_as_fresh(&mut solver);
    }

    /// A small deterministic generator for the randomized state tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn flushes_clear_what_the_placements_rule_out() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        let columns = |x: u32| ((x | x >> 9 | x >> 18) & 0x1FF) * COLUMN;
        for _ in 0..2000 {
            let mut st = State::EMPTY;
            let mut pending = Pending::EMPTY;
            // A few placements per band, never two in one cell (a band step only places
            // in cells still open, and marks them placed).
            let mut placed = [0u32; 3 * LANES];
            for b in 0..3 {
                let mut taken = 0;
                for d in 0..9 {
                    st.cand[w(d, b)] = next() as u32 & BAND;
                    let cells = (next() & next() & next()) as u32 & BAND & !taken;
                    taken |= cells;
                    placed[w(d, b)] = cells;
                    if cells != 0 {
                        pending.placed[pending.len] =
                            u64::from(cells) | ((b * 16 + d) as u64) << 32;
                        pending.len += 1;
                    }
                }
            }
            st.dirty = next() & ALL_WORDS;
            // The rule, word by word: the band's cells placed with other digits, and the
            // digit's columns placed in the other bands.
            let mut want = st;
            for (b, &(o1, o2)) in OTHER_BANDS.iter().enumerate() {
                let any = (0..9).fold(0, |a, d| a | placed[w(d, b)]);
                for d in 0..9 {
                    let cells = any & !placed[w(d, b)];
                    let cols = columns(placed[w(d, o1)]) | columns(placed[w(d, o2)]);
                    want.clear(d, b, cells | cols);
                }
            }
            let mut got = st;
            got.flush(&mut pending);
            assert_eq!((got.cand, got.dirty), (want.cand, want.dirty));
            assert_eq!(pending.len, 0);
        }
    }

    #[test]
    fn the_vector_and_portable_paths_agree() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..2000 {
            let mut st = State::EMPTY;
            for b in 0..3 {
                for d in 0..9 {
                    st.cand[w(d, b)] = next() as u32 & BAND;
                }
            }
            st.dirty = next() & ALL_WORDS;
            let (band, d, mask) = (next() as usize % 3, next() as usize % 9, next() as u32);
            let (mut a, mut b) = (st, st);
            #[cfg(target_arch = "x86_64")]
            a.clear_band_except_sse2(band, d, mask);
            #[cfg(not(target_arch = "x86_64"))]
            a.clear_band_except_portable(band, d, mask);
            b.clear_band_except_portable(band, d, mask);
            assert_eq!((a.cand, a.dirty), (b.cand, b.dirty));
            let bit = 1 << (next() % 27);
            #[cfg(target_arch = "x86_64")]
            assert_eq!(st.digits_sse2(band, bit), st.digits_portable(band, bit));
            let _ = bit;
            // The copy a guess makes: every field.
            let mut copy = State::EMPTY;
            st.copy_to(&mut copy);
            assert_eq!(
                (copy.cand, copy.unsolved, copy.dirty),
                (st.cand, st.unsolved, st.dirty)
            );
            // Sparse words (cells with 0 to 4 candidates) and open cells among them.
            for b in 0..3 {
                for d in 0..9 {
                    st.cand[w(d, b)] = (next() & next()) as u32 & BAND;
                }
                st.unsolved[b] = next() as u32 & BAND;
            }
            #[cfg(target_arch = "x86_64")]
            assert_eq!(st.counts_sse2(), st.counts_portable());
            // And with no cell empty.
            for b in 0..3 {
                let one = (0..9).fold(0, |a, d| a | st.cand[w(d, b)]);
                st.unsolved[b] &= one;
            }
            #[cfg(target_arch = "x86_64")]
            assert_eq!(st.counts_sse2(), st.counts_portable());
            assert!(st.counts_portable().is_some());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Arbitrary grids, often contradictory, sometimes with many solutions: the same
        /// counts as the exact-cover backend for limits 1 to 4, right solutions, and the
        /// same search on every path.
        #[test]
        fn agrees_with_dlx_on_arbitrary_grids(
            cells in proptest::collection::vec(0u8..=9, 81),
            keep in 0.05f64..0.6,
            max in 1u32..=4,
        ) {
            let mut g = Grid::EMPTY;
            for (i, &v) in cells.iter().enumerate() {
                if (i as f64 * 0.618).fract() < keep {
                    g.set(i, v);
                }
            }
            let mut solver = Bitboard::new();
            let out = solver.solve(&g, &limits(max));
            prop_assert!(!out.budget_exceeded);
            if g.find_conflict().is_some() {
                prop_assert_eq!(out.solutions, 0);
            } else {
                prop_assert_eq!(out.solutions, dlx_count(&g, max));
            }
            prop_assert_eq!(out.solutions > 0, out.solution.is_some());
            if let Some(s) = out.solution {
                prop_assert_eq!(s.check_solution_of(&g), Ok(()));
            }
            // Every path this CPU can run does the baseline's search: the same counts,
            // solution, nodes and guesses.
            let want = Bitboard::on(Path::Baseline).solve(&g, &limits(max));
            for path in Path::ALL.into_iter().filter(|p| p.supported()) {
                let got = Bitboard::on(path).solve(&g, &limits(max));
                prop_assert_eq!(&got, &want, "{}", path.name());
            }
        }
    }

    /// The paths agree on the hard, multi-solution and unsolvable sets; the test says
    /// which paths this CPU could not run (CI's log shows what was checked).
    #[test]
    #[allow(clippy::print_stderr)] // the log says which paths were not checked
    fn every_path_agrees_on_the_hard_sets_and_says_which_were_skipped() {
        let sets = HARD
            .iter()
            .chain(SEVERAL)
            .chain(NONE)
            .chain([&SEVENTEEN, &FULL]);
        let skipped: Vec<&str> = Path::ALL
            .into_iter()
            .filter(|p| !p.supported())
            .map(Path::name)
            .collect();
        eprintln!("bitboard paths not run on this CPU: {skipped:?}");
        for p in sets {
            let g = grid(p);
            let want = Bitboard::on(Path::Baseline).solve(&g, &limits(2));
            for path in Path::ALL.into_iter().filter(|p| p.supported()) {
                let got = Bitboard::on(path).solve(&g, &limits(2));
                assert_eq!(got, want, "{} on {p}", path.name());
                assert_eq!(Bitboard::on(path).path(), path);
            }
        }
        // A path the CPU lacks falls back to the baseline.
        for path in Path::ALL.into_iter().filter(|p| !p.supported()) {
            assert_eq!(Bitboard::on(path).path(), Path::Baseline);
        }
    }
}
