//! A general exact-cover solver: Knuth's Algorithm X with Dancing Links on a `Vec` arena.
//!
//! Items and options given at run time, up to 2^28 nodes. Knuth's DLX1 layout: 32-bit
//! links (byte offsets of the 16-byte nodes), an option's nodes side by side with a
//! spacer between options (its `up` the first node of the option before, its `down` the
//! last of the one after), so no left/right links; `reset` keeps the allocation. One
//! departure, with the same search tree: no header list; each item has a key (its option
//! count, plus `COVERED` while covered) scanned in item order, 16 bits under 2^14
//! options (eight to a vector), else 32. The search is iterative.

use super::budget::{Budget, Stop};
use std::ops::{AddAssign, SubAssign};

/// Marks a spacer node (item 0 is the root header, never an option's item).
const SPACER: u32 = 0;
/// Links are 32-bit byte offsets of nodes: node indices stay below this (and so do
/// option counts, far below the 32-bit keys' `COVERED`).
const MAX_NODES: usize = 1 << 28;
const _: () = assert!(MAX_NODES as u64 * NODE as u64 <= 1 << 32);
/// A node's size in bytes: links are multiples of it.
const NODE: u32 = std::mem::size_of::<Node>() as u32;

/// What a search found and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub solutions: u64,
    /// Search-tree nodes visited (the root counts as one).
    pub nodes: u64,
    /// Branch points whose chosen item had more than one option.
    pub guesses: u64,
    /// What stopped the search early, if anything did: the node budget, the deadline
    /// or the cancel flag.
    pub stop: Option<Stop>,
}

/// A malformed option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("item {item} out of range (the problem has {items} items)")]
    ItemOutOfRange { item: usize, items: usize },
    #[error("item {0} appears twice in one option")]
    Repeated(usize),
    #[error("an option needs at least one item")]
    Empty,
}

/// One node: its links, its item's header (`SPACER` for a spacer) and its option index
/// (read only when reporting a solution). Together, so a node is one load and one push.
/// `up` and `down` are byte offsets (index x `NODE`): an address is then the arena's
/// base plus the link, with no multiply (16 is not an x86 index scale).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Node {
    up: u32,
    down: u32,
    top: u32,
    option: u32,
}

/// An exact-cover problem and its Dancing Links.
#[derive(Clone, Debug, Default)]
pub struct ExactCover {
    /// Per header (0 = root, item `i` is header `i + 1`): the options linked under the
    /// item. The root's key is never read. A search works on a copy of these (see
    /// [`Key`]) and leaves them as they are.
    key: Vec<u32>,
    /// The keys of a search in 16 bits (`Key for u16`).
    key16: Vec<u16>,
    /// Headers first, then options separated by spacers.
    nodes: Vec<Node>,
    items: usize,
    options: usize,
    /// Node (byte offset) chosen at each depth of the search.
    chosen: Vec<u32>,
    /// Option indices of the solution being reported.
    solution: Vec<usize>,
}

/// The link to node `index`: its byte offset. Callers keep `index < MAX_NODES`.
#[inline(always)]
fn at(index: usize) -> u32 {
    debug_assert!(index < MAX_NODES);
    index as u32 * NODE
}

impl ExactCover {
    /// Starts a new problem with `items` items and no options, keeping the allocations.
    pub fn reset(&mut self, items: usize) {
        // No arithmetic on `items` before the check: a huge count must not wrap past it.
        assert!(items < MAX_NODES - 2, "too many items");
        // Empty until the vectors match: `items` is set last, so a panic (an allocation)
        // part way leaves a problem with no items, never one whose count outruns them.
        self.items = 0;
        self.options = 0;
        self.key.clear();
        self.key.resize(items + 1, 0);
        self.nodes.clear();
        self.nodes.extend((0..=items).map(|i| Node {
            up: at(i),
            down: at(i),
            top: i as u32,
            option: u32::MAX,
        }));
        // The first spacer: no option before it; `down` is set by the first option.
        self.nodes.push(Node {
            top: SPACER,
            option: u32::MAX,
            ..Node::default()
        });
        self.items = items;
    }

    /// Adds options of `W` items each (0-based), all checked before any is added, so
    /// that a batch is added whole or not at all. Returns the index of the first. The
    /// bulk way to build a problem: one check pass and one allocation for the batch,
    /// then links written without further checks.
    pub fn add_options<const W: usize>(
        &mut self,
        options: &[[u32; W]],
    ) -> Result<usize, OptionError> {
        if W == 0 {
            return Err(OptionError::Empty);
        }
        let items = self.items;
        for option in options {
            // One branch per option on the common path: all in range and distinct.
            let in_range = option
                .iter()
                .fold(true, |ok, &i| ok & ((i as usize) < items));
            let mut distinct = true;
            for k in 1..W {
                distinct &= !option[..k].contains(&option[k]);
            }
            if !(in_range && distinct) {
                for (k, &item) in option.iter().enumerate() {
                    let item = item as usize;
                    if item >= items {
                        return Err(OptionError::ItemOutOfRange { item, items });
                    }
                    if option[..k].contains(&option[k]) {
                        return Err(OptionError::Repeated(item));
                    }
                }
            }
        }
        self.make_room(options.len(), W);
        let first_option = self.options;
        for option in options {
            // SAFETY: every option was checked above, and `make_room` reserved the nodes.
            unsafe { self.link(option.iter().map(|&i| i as usize)) };
        }
        Ok(first_option)
    }

    /// Reserves the nodes of `options` options of `width` items (and their spacers).
    fn make_room(&mut self, options: usize, width: usize) {
        let more = options
            .checked_mul(width + 1)
            .filter(|&n| n < MAX_NODES - self.nodes.len())
            .expect("too many nodes for 32-bit links");
        self.nodes.reserve(more);
    }

    /// Appends one option and the spacer after it. Returns the option's index.
    ///
    /// # Safety
    /// Every item is `< self.items` and appears once, and `nodes` has room for the
    /// option's nodes and its spacer (`make_room`), so every index written stays within
    /// the allocation and below `MAX_NODES`.
    #[inline(always)]
    unsafe fn link(&mut self, items: impl Iterator<Item = usize>) -> usize {
        let option = self.options as u32;
        let base = self.nodes.as_mut_ptr();
        let key = self.key.as_mut_ptr();
        let first = self.nodes.len();
        let mut len = first;
        // SAFETY: `header <= items`: a header node (pushed by `reset`, `< first`) and a
        // key. `tail` is a link value, the offset of a node below `len`. The nodes
        // written, `first..len` and the spacer at `len`, are within the reserved room;
        // `first - 1` is the spacer `reset` or the previous option pushed. The length is
        // set once they are all written.
        unsafe {
            for item in items {
                let header = item + 1;
                debug_assert!(header < self.key.len() && header < first);
                let tail = (*base.add(header)).up;
                base.add(len).write(Node {
                    up: tail,
                    down: at(header),
                    top: header as u32,
                    option,
                });
                (*base.cast::<u8>().add(tail as usize).cast::<Node>()).down = at(len);
                (*base.add(header)).up = at(len);
                *key.add(header) += 1;
                len += 1;
            }
            // The spacers before and after point to the option's last and first nodes.
            (*base.add(first - 1)).down = at(len - 1);
            base.add(len).write(Node {
                up: at(first),
                down: 0,
                top: SPACER,
                option: u32::MAX,
            });
            self.nodes.set_len(len + 1);
        }
        self.options += 1;
        option as usize
    }

    /// Finds exact covers, calling `on_solution` with each one's option indices (in the
    /// order chosen), until `max_solutions` are found or `budget` stops it (its deadline
    /// and cancel flag are checked at the root and then every 1,024 nodes). Leaves the
    /// links as it found them, also when it stops early and when `on_solution` panics.
    pub fn search(
        &mut self,
        max_solutions: u64,
        budget: Budget,
        on_solution: impl FnMut(&[usize]),
    ) -> SearchStats {
        if max_solutions == 0 {
            return SearchStats::default();
        }
        self.chosen.clear();
        self.chosen.resize(self.items, 0);
        // No item has more options than the problem.
        if self.options < usize::from(u16::COVERED) {
            self.key16.clear();
            self.key16.extend(self.key.iter().map(|&k| k as u16));
            self.dance::<u16>(max_solutions, budget, on_solution)
        } else {
            self.dance::<u32>(max_solutions, budget, on_solution)
        }
    }

    fn dance<K: Key>(
        &mut self,
        max_solutions: u64,
        budget: Budget,
        on_solution: impl FnMut(&[usize]),
    ) -> SearchStats {
        let mut links = Links {
            nodes: &mut self.nodes,
            key: K::keys(&mut self.key, &mut self.key16),
        };
        let (chosen, solution) = (&mut self.chosen, &mut self.solution);
        links.search(chosen, solution, max_solutions, budget, on_solution)
    }
}

/// An item's key during a search: its option count, plus `COVERED` while it is covered.
/// Keys of 16 bits halve the scan of `choose_item` (eight to a vector); they serve
/// problems with fewer than `u16::COVERED` options, so no count reaches `COVERED`, and
/// 32 bits serve the rest. Keys stay below the sign bit, so they order the same read as
/// signed numbers, which is the minimum SSE2 has (`pminsw` for 16 bits).
trait Key: Copy + Eq + Into<u32> + AddAssign + SubAssign {
    const COVERED: Self;
    const ONE: Self;
    /// Keys to a block of `choose_item`: four vectors.
    const BLOCK: usize;
    /// The search's keys: the problem's own (32 bits) or their copy (16 bits).
    fn keys<'a>(wide: &'a mut [u32], narrow: &'a mut [u16]) -> &'a mut [Self];
    /// The least key of a block (a vector loop).
    fn least(block: &[Self]) -> u32;
}

impl Key for u16 {
    const COVERED: u16 = 1 << 14;
    const BLOCK: usize = 32;
    const ONE: u16 = 1;
    fn keys<'a>(_: &'a mut [u32], narrow: &'a mut [u16]) -> &'a mut [u16] {
        narrow
    }
    #[inline(always)]
    fn least(block: &[u16]) -> u32 {
        block.iter().fold(i16::MAX, |m, &k| m.min(k as i16)) as u32
    }
}

impl Key for u32 {
    /// Above any count of at most `MAX_NODES`, and covered keys stay below 2^31.
    const COVERED: u32 = 1 << 30;
    const BLOCK: usize = 16;
    const ONE: u32 = 1;
    fn keys<'a>(wide: &'a mut [u32], _: &'a mut [u16]) -> &'a mut [u32] {
        wide
    }
    #[inline(always)]
    fn least(block: &[u32]) -> u32 {
        block.iter().fold(i32::MAX, |m, &k| m.min(k as i32)) as u32
    }
}

/// A search's view of the problem: the nodes and the keys, borrowed apart from the rest.
struct Links<'a, K> {
    nodes: &'a mut [Node],
    key: &'a mut [K],
}

impl<K: Key> Links<'_, K> {
    /// Iterative Algorithm X: `chosen[..depth]` is the stack of option nodes tried.
    fn search(
        &mut self,
        chosen: &mut [u32],
        solution: &mut Vec<usize>,
        max_solutions: u64,
        mut budget: Budget,
        mut on_solution: impl FnMut(&[usize]),
    ) -> SearchStats {
        let mut stats = SearchStats::default();
        let mut depth = 0usize;
        'node: loop {
            stats.nodes += 1;
            if let Some(stop) = budget.charge(stats.nodes) {
                stats.stop = Some(stop);
                self.unwind(&chosen[..depth]);
                return stats;
            }
            let (item, count) = self.choose_item();
            if count >= K::COVERED.into() {
                // Every item is covered.
                stats.solutions += 1;
                solution.clear();
                for &node in &chosen[..depth] {
                    solution.push(self.node(node).option as usize);
                }
                // The callback is the caller's code: if it panics, undo the covers
                // before passing the panic on, so the next search starts from the
                // problem as it was (else it would find every item covered).
                let reported = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    on_solution(solution);
                }));
                if let Err(panic) = reported {
                    self.unwind(&chosen[..depth]);
                    std::panic::resume_unwind(panic);
                }
                if stats.solutions >= max_solutions {
                    self.unwind(&chosen[..depth]);
                    return stats;
                }
            } else if count > 0 {
                stats.guesses += u64::from(count > 1);
                self.cover(item);
                let r = self.down(at(item as usize));
                chosen[depth] = r;
                self.cover_rest_of_option(r);
                depth += 1;
                continue 'node;
            }
            // Backtrack: the next option at the deepest level that has one.
            while depth > 0 {
                depth -= 1;
                let r = chosen[depth];
                self.uncover_rest_of_option(r);
                let item = self.top(r);
                let next = self.down(r);
                if next != at(item as usize) {
                    chosen[depth] = next;
                    self.cover_rest_of_option(next);
                    depth += 1;
                    continue 'node;
                }
                self.uncover(item);
            }
            return stats;
        }
    }

    /// Undoes the covers of the options `chosen`, deepest first.
    fn unwind(&mut self, chosen: &[u32]) {
        for &r in chosen.iter().rev() {
            self.uncover_rest_of_option(r);
            self.uncover(self.top(r));
        }
    }

    /// The item with the fewest options: the leftmost with 0 or 1 if there is one, else
    /// the leftmost with the minimum (what a header-list scan that stops at 0 or 1
    /// returns). Its count is `COVERED` or more when every item is covered (and when
    /// there are none).
    ///
    /// One pass over blocks of keys: each block's minimum (a vector loop), an exit at
    /// the first block holding a 0 or 1, else the first block holding the least minimum.
    #[inline(always)]
    fn choose_item(&self) -> (u32, u32) {
        // `get`: a problem made with `Default` and never `reset` has no keys at all.
        let keys = self.key.get(1..).unwrap_or(&[]);
        let (mut best, mut best_block) = (u32::MAX, 0);
        for (b, block) in keys.chunks(K::BLOCK).enumerate() {
            let m = K::least(block);
            if m <= 1 {
                let i = b * K::BLOCK + block.iter().position(|&k| k.into() <= 1).unwrap_or(0);
                return (i as u32 + 1, keys[i].into());
            }
            if m < best {
                (best, best_block) = (m, b);
            }
        }
        if best >= K::COVERED.into() {
            return (0, best);
        }
        let start = best_block * K::BLOCK;
        let i = start
            + keys[start..]
                .iter()
                .position(|&k| k.into() == best)
                .unwrap_or(0);
        (i as u32 + 1, best)
    }

    // Node access without bounds checks. Links are byte offsets of nodes. The invariant
    // they rely on: `reset` and `link` store only offsets of nodes already pushed in
    // `up` and `down` (and the search copies only those into `chosen`), only header
    // indices (`1..=items`, each `< key.len()` and a node) in `top`, and every option
    // ends with a spacer, so walking from an option node to its spacer and following
    // the spacer's link stays within `nodes`. Callers pass only such offsets. The
    // debug assertions check it.
    #[inline(always)]
    fn node(&self, at: u32) -> &Node {
        debug_assert!(at.is_multiple_of(NODE) && ((at / NODE) as usize) < self.nodes.len());
        // SAFETY: `at` is the offset of a node of `nodes` by the invariant above.
        unsafe {
            &*self
                .nodes
                .as_ptr()
                .cast::<u8>()
                .add(at as usize)
                .cast::<Node>()
        }
    }

    #[inline(always)]
    fn node_mut(&mut self, at: u32) -> &mut Node {
        debug_assert!(at.is_multiple_of(NODE) && ((at / NODE) as usize) < self.nodes.len());
        // SAFETY: as in `node`: `at` is the offset of a node of `nodes`.
        unsafe {
            &mut *self
                .nodes
                .as_mut_ptr()
                .cast::<u8>()
                .add(at as usize)
                .cast::<Node>()
        }
    }

    #[inline(always)]
    fn up(&self, at: u32) -> u32 {
        self.node(at).up
    }

    #[inline(always)]
    fn down(&self, at: u32) -> u32 {
        self.node(at).down
    }

    #[inline(always)]
    fn top(&self, at: u32) -> u32 {
        self.node(at).top
    }

    #[inline(always)]
    fn set_up(&mut self, at: u32, to: u32) {
        self.node_mut(at).up = to;
    }

    #[inline(always)]
    fn set_down(&mut self, at: u32, to: u32) {
        self.node_mut(at).down = to;
    }

    #[inline(always)]
    fn key_mut(&mut self, header: u32) -> &mut K {
        debug_assert!((header as usize) < self.key.len());
        // SAFETY: `header` is a `top` value or an item's header, `1..=items`, and the
        // keys have `items + 1` entries (`reset`, `search`).
        unsafe { self.key.get_unchecked_mut(header as usize) }
    }

    /// Covers the items of `node`'s option other than `node`'s own.
    #[inline(always)]
    fn cover_rest_of_option(&mut self, node: u32) {
        let mut p = node + NODE;
        while p != node {
            let j = self.top(p);
            if j == SPACER {
                p = self.up(p);
            } else {
                self.cover(j);
                p += NODE;
            }
        }
    }

    #[inline(always)]
    fn uncover_rest_of_option(&mut self, node: u32) {
        let mut p = node - NODE;
        while p != node {
            let j = self.top(p);
            if j == SPACER {
                p = self.down(p);
            } else {
                self.uncover(j);
                p -= NODE;
            }
        }
    }

    #[inline(always)]
    fn cover(&mut self, item: u32) {
        let head = at(item as usize);
        let mut p = self.down(head);
        while p != head {
            self.hide(p);
            p = self.down(p);
        }
        *self.key_mut(item) += K::COVERED;
    }

    #[inline(always)]
    fn uncover(&mut self, item: u32) {
        *self.key_mut(item) -= K::COVERED;
        let head = at(item as usize);
        let mut p = self.up(head);
        while p != head {
            self.unhide(p);
            p = self.up(p);
        }
    }

    /// Unlinks the other nodes of `p`'s option from their items, left to right. (Their
    /// items are open: an option with a covered item is hidden.)
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let mut q = p + NODE;
        while q != p {
            let x = self.top(q);
            let (u, d) = (self.up(q), self.down(q));
            if x == SPACER {
                q = u;
            } else {
                self.set_down(u, d);
                self.set_up(d, u);
                *self.key_mut(x) -= K::ONE;
                q += NODE;
            }
        }
    }

    /// Relinks what `hide` unlinked, right to left (the mirror order keeps links valid).
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - NODE;
        while q != p {
            let x = self.top(q);
            let (u, d) = (self.up(q), self.down(q));
            if x == SPACER {
                q = d;
            } else {
                self.set_down(u, q);
                self.set_up(d, q);
                *self.key_mut(x) += K::ONE;
                q -= NODE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `items` cannot be an option of a problem with `count` items.
    fn check_items(items: &[usize], count: usize) -> Result<(), OptionError> {
        if items.is_empty() {
            return Err(OptionError::Empty);
        }
        for (k, &item) in items.iter().enumerate() {
            if item >= count {
                return Err(OptionError::ItemOutOfRange { item, items: count });
            }
            if items[..k].contains(&item) {
                return Err(OptionError::Repeated(item));
            }
        }
        Ok(())
    }

    /// What the tests build problems with, one option at a time.
    impl ExactCover {
        /// A problem with no items (and so one cover, the empty one).
        pub fn new() -> ExactCover {
            let mut ec = ExactCover::default();
            ec.reset(0);
            ec
        }

        pub fn item_count(&self) -> usize {
            self.items
        }

        pub fn option_count(&self) -> usize {
            self.options
        }

        /// Adds an option covering the given items (0-based). Returns its index.
        pub fn add_option(&mut self, items: &[usize]) -> Result<usize, OptionError> {
            check_items(items, self.items)?;
            self.make_room(1, items.len());
            // SAFETY: the items were just checked, and `make_room` reserved the nodes.
            Ok(unsafe { self.link(items.iter().copied()) })
        }
    }

    /// Items 0..3; options {0,1}, {2}, {1,2}, {0}: two exact covers, in search order.
    #[test]
    fn a_small_problem_has_its_two_covers() {
        let mut ec = ExactCover::new();
        ec.reset(3);
        for option in [&[0, 1][..], &[2], &[1, 2], &[0]] {
            ec.add_option(option).unwrap();
        }
        let mut found = Vec::new();
        let stats = ec.search(10, UNLIMITED, |s| found.push(s.to_vec()));
        assert_eq!(stats.solutions, 2);
        assert_eq!(found, vec![vec![0, 1], vec![3, 2]]);
    }

    /// No node budget, deadline or cancel flag.
    const UNLIMITED: Budget = Budget::new(u64::MAX, None, None);

    fn solve_all(items: usize, options: &[&[usize]]) -> (Vec<Vec<usize>>, SearchStats) {
        let mut ec = ExactCover::new();
        ec.reset(items);
        for o in options {
            ec.add_option(o).unwrap();
        }
        let mut found = Vec::new();
        let stats = ec.search(u64::MAX, UNLIMITED, |s| {
            let mut s = s.to_vec();
            s.sort();
            found.push(s)
        });
        found.sort();
        (found, stats)
    }

    #[test]
    fn a_panicking_callback_leaves_the_problem_as_it_was() {
        let mut ec = ExactCover::new();
        ec.reset(3);
        for o in [&[0usize, 1][..], &[2], &[0], &[1, 2]] {
            ec.add_option(o).unwrap();
        }
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ec.search(u64::MAX, UNLIMITED, |_| panic!("the caller's callback"));
        }));
        assert!(panicked.is_err());
        // The same covers as a fresh search: {0,1}, {2,3}.
        let mut found = Vec::new();
        let stats = ec.search(u64::MAX, UNLIMITED, |s| {
            let mut s = s.to_vec();
            s.sort();
            found.push(s);
        });
        found.sort();
        assert_eq!(found, [vec![0, 1], vec![2, 3]]);
        assert_eq!(stats.solutions, 2);
        // And a problem with none still has none after a panic elsewhere.
        ec.reset(2);
        ec.add_option(&[0]).unwrap();
        assert_eq!(
            ec.search(u64::MAX, UNLIMITED, |_| panic!("never called"))
                .solutions,
            0
        );
    }

    #[test]
    fn knuths_example_has_one_cover() {
        // Knuth's 7-item example (a..g = 0..6) from "Dancing Links".
        let options: [&[usize]; 6] = [
            &[2, 4, 5],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3],
            &[1, 6],
            &[3, 4, 6],
        ];
        let (found, stats) = solve_all(7, &options);
        assert_eq!(found, vec![vec![0, 3, 4]]);
        assert_eq!(stats.solutions, 1);
    }

    #[test]
    fn counts_all_covers_and_restores_links() {
        // Every partition of a 4-set into blocks from all its non-empty subsets: Bell(4) = 15.
        let subsets: Vec<Vec<usize>> = (1u32..16)
            .map(|m| (0..4).filter(|i| m & (1 << i) != 0).collect())
            .collect();
        let refs: Vec<&[usize]> = subsets.iter().map(|s| s.as_slice()).collect();
        let mut ec = ExactCover::new();
        ec.reset(4);
        for o in &refs {
            ec.add_option(o).unwrap();
        }
        let first = ec.search(u64::MAX, UNLIMITED, |_| {});
        assert_eq!(first.solutions, 15);
        // The links are as they were: a second search finds the same.
        let second = ec.search(u64::MAX, UNLIMITED, |_| {});
        assert_eq!(first, second);
        // Stopping early also restores them.
        let limited = ec.search(2, UNLIMITED, |_| {});
        assert_eq!(limited.solutions, 2);
        assert_eq!(ec.search(u64::MAX, UNLIMITED, |_| {}).solutions, 15);
    }

    #[test]
    fn no_cover_and_node_budget() {
        let (found, _) = solve_all(3, &[&[0, 1], &[1, 2]]);
        assert!(found.is_empty());
        let mut ec = ExactCover::new();
        ec.reset(2);
        ec.add_option(&[0]).unwrap();
        ec.add_option(&[1]).unwrap();
        let stats = ec.search(1, Budget::new(1, None, None), |_| {});
        assert_eq!(stats.stop, Some(Stop::Nodes));
        assert_eq!(stats.solutions, 0);
    }

    #[test]
    fn deadline_and_cancel_stop_the_search_and_restore_links() {
        use std::sync::atomic::AtomicBool;
        static SET: AtomicBool = AtomicBool::new(true);
        // The partitions of a 7-set (Bell(7) = 877): a search of more than 1,024 nodes.
        let mut ec = ExactCover::new();
        ec.reset(7);
        for m in 1u32..128 {
            let o: Vec<usize> = (0..7).filter(|i| m & (1 << i) != 0).collect();
            ec.add_option(&o).unwrap();
        }
        assert_eq!(ec.search(u64::MAX, UNLIMITED, |_| {}).solutions, 877);
        // The flag is first read after 1,024 nodes: short searches finish.
        let cancel = Budget::new(u64::MAX, None, Some(&SET));
        let cancelled = ec.search(u64::MAX, cancel, |_| {});
        assert_eq!(cancelled.stop, Some(Stop::Cancelled));
        assert_eq!(cancelled.nodes, 1024);
        assert!(cancelled.solutions < 877);
        let past = Budget::new(u64::MAX, Some(std::time::Instant::now()), None);
        let late = ec.search(u64::MAX, past, |_| {});
        assert_eq!(late.stop, Some(Stop::Deadline));
        // A budget that stops deep in the tree also leaves the links intact.
        let deep = ec.search(u64::MAX, Budget::new(7, None, None), |_| {});
        assert_eq!(deep.stop, Some(Stop::Nodes));
        assert_eq!(ec.search(u64::MAX, UNLIMITED, |_| {}).solutions, 877);
    }

    #[test]
    fn rejects_bad_options_and_reuses_the_arena() {
        let mut ec = ExactCover::new();
        ec.reset(3);
        assert_eq!(
            ec.add_option(&[3]),
            Err(OptionError::ItemOutOfRange { item: 3, items: 3 })
        );
        assert_eq!(ec.add_option(&[1, 1]), Err(OptionError::Repeated(1)));
        assert_eq!(ec.add_option(&[]), Err(OptionError::Empty));
        ec.add_option(&[0, 1, 2]).unwrap();
        ec.reset(1);
        assert_eq!(ec.option_count(), 0);
        ec.add_option(&[0]).unwrap();
        assert_eq!(ec.search(u64::MAX, UNLIMITED, |_| {}).solutions, 1);
    }

    #[test]
    fn a_batch_is_checked_whole_and_agrees_with_one_by_one() {
        let mut ec = ExactCover::new();
        ec.reset(4);
        // The bad option comes last: nothing of the batch is added.
        assert_eq!(
            ec.add_options(&[[0, 1], [2, 3], [3, 3]]),
            Err(OptionError::Repeated(3))
        );
        assert_eq!(
            ec.add_options(&[[0, 4]]),
            Err(OptionError::ItemOutOfRange { item: 4, items: 4 })
        );
        assert_eq!(ec.add_options::<0>(&[]), Err(OptionError::Empty));
        assert_eq!(ec.option_count(), 0);
        // Knuth's example again, in two batches: the same single cover.
        ec.reset(4);
        assert_eq!(ec.add_options(&[[0, 1], [2, 3]]), Ok(0));
        assert_eq!(ec.add_options(&[[0, 2], [1, 3], [1, 2]]), Ok(2));
        ec.add_option(&[0, 3]).unwrap();
        let mut found = Vec::new();
        ec.search(u64::MAX, UNLIMITED, |s| {
            let mut s = s.to_vec();
            s.sort();
            found.push(s);
        });
        found.sort();
        assert_eq!(found, [vec![0, 1], vec![2, 3], vec![4, 5]]);
    }

    /// Numbers below `n`, from a seeded xorshift.
    fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// Every cover and the stats of a search with keys of type `K`.
    fn dance_all<K: Key>(
        ec: &mut ExactCover,
        max_solutions: u64,
    ) -> (Vec<Vec<usize>>, SearchStats) {
        let mut found = Vec::new();
        ec.chosen.clear();
        ec.chosen.resize(ec.items, 0);
        if std::mem::size_of::<K>() == 2 {
            ec.key16.clear();
            ec.key16.extend(ec.key.iter().map(|&k| k as u16));
        }
        let stats = ec.dance::<K>(max_solutions, UNLIMITED, |s| found.push(s.to_vec()));
        (found, stats)
    }

    #[test]
    fn keys_of_16_and_32_bits_walk_the_same_tree() {
        // Random problems, dense and sparse, with and without covers: both key widths
        // find the same covers in the same order at the same cost, and leave the
        // problem as it was.
        let mut next = numbers(0x9E37_79B9_7F4A_7C15u64);
        for round in 0..200 {
            let items = 1 + next(40) as usize;
            let mut ec = ExactCover::new();
            ec.reset(items);
            for _ in 0..next(300) {
                let width = 1 + next(4.min(items as u64)) as usize;
                let mut option: Vec<usize> = Vec::new();
                while option.len() < width {
                    let item = next(items as u64) as usize;
                    if !option.contains(&item) {
                        option.push(item);
                    }
                }
                ec.add_option(&option).unwrap();
            }
            let max_solutions = 1 + next(50);
            let narrow = dance_all::<u16>(&mut ec, max_solutions);
            let wide = dance_all::<u32>(&mut ec, max_solutions);
            assert_eq!(narrow, wide, "round {round}");
            let stats = ec.search(max_solutions, UNLIMITED, |_| {});
            assert_eq!(stats, narrow.1, "round {round}");
        }
    }

    #[test]
    fn cover_counts_agree_with_trying_every_subset() {
        let mut next = numbers(0x2545_F491_4F6C_DD1Du64);
        for round in 0..300 {
            let items = 1 + next(8) as usize;
            let options: Vec<u32> = (0..next(13))
                .map(|_| 1 + next((1 << items) - 1) as u32)
                .collect();
            let mut ec = ExactCover::new();
            ec.reset(items);
            for &mask in &options {
                let o: Vec<usize> = (0..items).filter(|i| mask & (1 << i) != 0).collect();
                ec.add_option(&o).unwrap();
            }
            let all = (1u32 << items) - 1;
            let brute = (0u32..1 << options.len())
                .filter(|pick| {
                    let mut covered = 0u32;
                    for (k, &mask) in options.iter().enumerate() {
                        if pick & (1 << k) != 0 {
                            if covered & mask != 0 {
                                return false;
                            }
                            covered |= mask;
                        }
                    }
                    covered == all
                })
                .count();
            assert_eq!(
                ec.search(u64::MAX, UNLIMITED, |_| {}).solutions,
                brute as u64,
                "round {round}"
            );
        }
    }

    #[test]
    fn an_item_with_more_options_than_16_bit_keys_hold() {
        // Item 0 has 20,000 options, past what a 16-bit key counts: the search takes
        // 32-bit keys, chooses item 1 (one option) first and finds every cover.
        let mut ec = ExactCover::new();
        ec.reset(2);
        ec.add_options(&vec![[0u32]; 20_000]).unwrap();
        ec.add_option(&[1]).unwrap();
        assert!(ec.option_count() > usize::from(u16::COVERED));
        let mut firsts = Vec::new();
        let stats = ec.search(u64::MAX, UNLIMITED, |s| firsts.push(s[0]));
        assert_eq!(stats.solutions, 20_000);
        assert!(firsts.iter().all(|&o| o == 20_000));
        assert_eq!(stats.guesses, 1);
        // A limit stops it, and the links are as they were.
        assert_eq!(ec.search(3, UNLIMITED, |_| {}).solutions, 3);
        assert_eq!(ec.search(u64::MAX, UNLIMITED, |_| {}), stats);
    }

    #[test]
    fn a_huge_item_count_is_refused_before_anything_changes() {
        // `items + 2` wrapped in release builds: the check passed, and a caught panic
        // later left a problem whose item count outran its arrays (out-of-bounds links).
        for items in [usize::MAX, usize::MAX - 1, MAX_NODES - 2] {
            let mut ec = ExactCover::new();
            ec.reset(2);
            ec.add_option(&[0, 1]).unwrap();
            let refused =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ec.reset(items)));
            assert!(refused.is_err(), "{items}");
            assert_eq!(
                ec.add_option(&[100_000]),
                Err(OptionError::ItemOutOfRange {
                    item: 100_000,
                    items: ec.item_count()
                })
            );
            assert!(ec.item_count() <= 2);
        }
    }

    #[test]
    fn a_problem_never_reset_has_the_empty_cover() {
        for mut ec in [ExactCover::new(), ExactCover::default()] {
            let stats = ec.search(u64::MAX, UNLIMITED, |s| assert!(s.is_empty()));
            assert_eq!((stats.solutions, stats.nodes), (1, 1));
            assert!(ec.add_option(&[0]).is_err());
        }
    }

    #[test]
    fn zero_items_has_the_empty_cover() {
        let (found, _) = solve_all(0, &[]);
        assert_eq!(found, vec![Vec::<usize>::new()]);
    }
}
