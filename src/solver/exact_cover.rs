//! A general exact-cover solver: Knuth's Algorithm X with Dancing Links on a `Vec` arena.
//!
//! Any number of items and options, given at run time. The layout follows Knuth's DLX1:
//! 32-bit indices; an option's nodes sit side by side with a spacer node between
//! options, so rows need no left/right links (a spacer's `up` is the first node of the
//! option before it, its `down` the last node of the option after it). `reset` keeps
//! the allocation, so a solver reused across problems allocates nothing in steady state.
//!
//! One departure from DLX1, which leaves the search tree unchanged: items are not kept
//! in a linked header list. Each item has a key, its option count, with [`COVERED`]
//! added while it is covered, and the item to branch on is found by scanning the keys
//! in item order (what walking the header list does, without the dependent loads).
//! The search is iterative, with the chosen nodes on an explicit stack.
//!
//! ```
//! use sudoku_bench::solver::exact_cover::{ExactCover, SearchLimits};
//! // Items 0..3; options {0,1}, {2}, {1,2}, {0}: two exact covers.
//! let mut ec = ExactCover::new();
//! ec.reset(3);
//! for option in [&[0, 1][..], &[2], &[1, 2], &[0]] {
//!     ec.add_option(option).unwrap();
//! }
//! let mut found = Vec::new();
//! let limits = SearchLimits { max_solutions: 10, ..SearchLimits::default() };
//! let stats = ec.search(limits, |s| found.push(s.to_vec()));
//! assert_eq!(stats.solutions, 2);
//! assert_eq!(found, vec![vec![0, 1], vec![3, 2]]);
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::budget::{Budget, Stop};

/// Marks a spacer node (item 0 is the root header, never an option's item).
const SPACER: u32 = 0;
/// Added to an item's key while it is covered: above any option count.
const COVERED: u32 = 1 << 31;
/// Node indices stay below this, so option counts stay below `COVERED`.
const MAX_NODES: usize = COVERED as usize;

/// How far a search may go. The default is unlimited.
///
/// The deadline and the cancel flag are checked at the root and then every 1,024 nodes.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    pub max_solutions: u64,
    pub max_nodes: u64,
    /// Stop once this instant has passed (`SearchStats::timed_out`).
    pub deadline: Option<Instant>,
    /// Stop once this flag is set (`SearchStats::cancelled`).
    pub cancel: Option<&'static AtomicBool>,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            max_solutions: u64::MAX,
            max_nodes: u64::MAX,
            deadline: None,
            cancel: None,
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub solutions: u64,
    /// Search-tree nodes visited (the root counts as one).
    pub nodes: u64,
    /// Branch points whose chosen item had more than one option.
    pub guesses: u64,
    /// Links removed by covering (Knuth's "updates").
    pub updates: u64,
    /// A limit stopped the search: the node budget, or one of the two below.
    pub budget_exceeded: bool,
    /// The deadline passed first (`budget_exceeded` is set too).
    pub timed_out: bool,
    /// The cancel flag was set first (`budget_exceeded` is set too).
    pub cancelled: bool,
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
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    up: u32,
    down: u32,
    top: u32,
    option: u32,
}

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

/// An exact-cover problem and its Dancing Links.
#[derive(Clone, Debug, Default)]
pub struct ExactCover {
    /// Per header (0 = root, item `i` is header `i + 1`): the options still linked
    /// under the item, plus `COVERED` while it is covered. The root's key is never read.
    key: Vec<u32>,
    /// Items not covered.
    open: usize,
    /// Headers first, then options separated by spacers.
    nodes: Vec<Node>,
    items: usize,
    options: usize,
    /// Node chosen at each depth of the search.
    chosen: Vec<u32>,
    /// Option indices of the solution being reported.
    solution: Vec<usize>,
}

impl ExactCover {
    pub fn new() -> ExactCover {
        ExactCover::default()
    }

    /// Starts a new problem with `items` items and no options, keeping the allocations.
    pub fn reset(&mut self, items: usize) {
        assert!(items < u32::MAX as usize / 2, "too many items");
        self.items = items;
        self.options = 0;
        self.open = items;
        self.key.clear();
        self.key.push(COVERED);
        self.key.resize(items + 1, 0);
        self.nodes.clear();
        self.nodes.extend((0..=items as u32).map(|i| Node {
            up: i,
            down: i,
            top: i,
            option: u32::MAX,
        }));
        // The first spacer: no option before it; `down` is set by the first option.
        self.nodes.push(Node {
            top: SPACER,
            option: u32::MAX,
            ..Node::default()
        });
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
        assert!(
            self.nodes.len() + items.len() < MAX_NODES,
            "too many nodes for 32-bit links"
        );
        let option = self.options as u32;
        let first = self.nodes.len();
        self.nodes.reserve(items.len() + 1);
        for (node, &item) in (first..).zip(items) {
            let header = item + 1;
            let tail = self.nodes[header].up;
            self.nodes.push(Node {
                up: tail,
                down: header as u32,
                top: header as u32,
                option,
            });
            self.nodes[tail as usize].down = node as u32;
            self.nodes[header].up = node as u32;
            self.key[header] += 1;
        }
        let last = self.nodes.len() - 1;
        // The spacers before and after point to the option's last and first nodes.
        self.nodes[first - 1].down = last as u32;
        self.nodes.push(Node {
            up: first as u32,
            down: 0,
            top: SPACER,
            option: u32::MAX,
        });
        self.options += 1;
        Ok(option as usize)
    }

    /// Adds options of `W` items each (0-based), all checked before any is added, so
    /// that a batch is added whole or not at all. Returns the index of the first. The
    /// bulk way to build a problem: one check pass and one allocation for the batch.
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
                let list: Vec<usize> = option.iter().map(|&i| i as usize).collect();
                return Err(check_items(&list, items).expect_err("a bad option"));
            }
        }
        assert!(
            self.nodes.len() + options.len() * (W + 1) < MAX_NODES,
            "too many nodes for 32-bit links"
        );
        let first_option = self.options;
        self.nodes.reserve(options.len() * (W + 1));
        for option in options {
            let option_index = self.options as u32;
            let first = self.nodes.len();
            for (node, &item) in (first..).zip(option) {
                let header = item as usize + 1;
                let tail = self.nodes[header].up;
                self.nodes.push(Node {
                    up: tail,
                    down: header as u32,
                    top: header as u32,
                    option: option_index,
                });
                self.nodes[tail as usize].down = node as u32;
                self.nodes[header].up = node as u32;
                self.key[header] += 1;
            }
            self.nodes[first - 1].down = (first + W - 1) as u32;
            self.nodes.push(Node {
                up: first as u32,
                down: 0,
                top: SPACER,
                option: u32::MAX,
            });
            self.options += 1;
        }
        Ok(first_option)
    }

    /// Finds exact covers, calling `on_solution` with each one's option indices (in the
    /// order chosen), until `limits` stop it. Leaves the links as it found them, also
    /// when a limit stops it and when `on_solution` panics.
    pub fn search(
        &mut self,
        limits: SearchLimits,
        mut on_solution: impl FnMut(&[usize]),
    ) -> SearchStats {
        let mut stats = SearchStats::default();
        if limits.max_solutions == 0 {
            return stats;
        }
        self.chosen.clear();
        self.chosen.resize(self.items, 0);
        let mut budget = Budget::new(limits.max_nodes, limits.deadline, limits.cancel);
        // Iterative Algorithm X: `chosen[..depth]` is the stack of option nodes tried.
        let mut depth = 0usize;
        'node: loop {
            stats.nodes += 1;
            if let Some(stop) = budget.charge(stats.nodes) {
                stats.budget_exceeded = true;
                stats.timed_out = stop == Stop::Deadline;
                stats.cancelled = stop == Stop::Cancelled;
                self.unwind(depth);
                return stats;
            }
            if self.open == 0 {
                stats.solutions += 1;
                self.solution.clear();
                for &node in &self.chosen[..depth] {
                    self.solution
                        .push(self.nodes[node as usize].option as usize);
                }
                // The callback is the caller's code: if it panics, undo the covers
                // before passing the panic on, so the next search starts from the
                // problem as it was (else it would find every item covered).
                let solution = &self.solution;
                let reported = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    on_solution(solution);
                }));
                if let Err(panic) = reported {
                    self.unwind(depth);
                    std::panic::resume_unwind(panic);
                }
                if stats.solutions >= limits.max_solutions {
                    self.unwind(depth);
                    return stats;
                }
            } else {
                let (item, count) = self.choose_item();
                if count > 0 {
                    stats.guesses += u64::from(count > 1);
                    stats.updates += self.cover(item);
                    let r = self.down(item);
                    self.chosen[depth] = r;
                    stats.updates += self.cover_rest_of_option(r);
                    depth += 1;
                    continue 'node;
                }
            }
            // Backtrack: the next option at the deepest level that has one.
            while depth > 0 {
                depth -= 1;
                let r = self.chosen[depth];
                self.uncover_rest_of_option(r);
                let item = self.top(r);
                let next = self.down(r);
                if next != item {
                    self.chosen[depth] = next;
                    stats.updates += self.cover_rest_of_option(next);
                    depth += 1;
                    continue 'node;
                }
                self.uncover(item);
            }
            return stats;
        }
    }

    /// Undoes the covers of the options chosen at depths `..depth`.
    fn unwind(&mut self, depth: usize) {
        for d in (0..depth).rev() {
            let r = self.chosen[d];
            self.uncover_rest_of_option(r);
            self.uncover(self.top(r));
        }
    }

    /// The item with the fewest options: the leftmost with 0 or 1 if there is one, else
    /// the leftmost with the minimum (what a header-list scan that stops at 0 or 1
    /// returns). Needs an open item.
    #[inline]
    fn choose_item(&self) -> (u32, u32) {
        let keys = &self.key[1..];
        // Blocks of 16 without an early exit inside, so the test vectorizes.
        for (b, block) in keys.chunks(16).enumerate() {
            if block.iter().fold(false, |any, &k| any | (k <= 1)) {
                let i = b * 16 + block.iter().position(|&k| k <= 1).unwrap_or(0);
                return (i as u32 + 1, keys[i]);
            }
        }
        let best = keys.iter().copied().min().unwrap_or(0);
        let i = keys.iter().position(|&k| k == best).unwrap_or(0);
        (i as u32 + 1, best)
    }

    // Node access without bounds checks. The invariant they rely on: `reset` and
    // `add_option` store only indices of nodes already pushed in `up` and `down` (and
    // the search copies only those into `chosen`), only header indices (`1..=items`,
    // each `< key.len()`) in `top`, and every option ends with a spacer, so walking from
    // an option node to its spacer and following the spacer's link stays within
    // `nodes`. Callers pass only such indices. The debug assertions check it.
    #[inline(always)]
    fn node(&self, n: u32) -> &Node {
        debug_assert!((n as usize) < self.nodes.len());
        // SAFETY: `n` is a header index or a link value, `< nodes.len()` by the invariant above.
        unsafe { self.nodes.get_unchecked(n as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, n: u32) -> &mut Node {
        debug_assert!((n as usize) < self.nodes.len());
        // SAFETY: as in `node`: `n < nodes.len()` by the invariant above.
        unsafe { self.nodes.get_unchecked_mut(n as usize) }
    }

    #[inline(always)]
    fn up(&self, n: u32) -> u32 {
        self.node(n).up
    }

    #[inline(always)]
    fn down(&self, n: u32) -> u32 {
        self.node(n).down
    }

    #[inline(always)]
    fn top(&self, n: u32) -> u32 {
        self.node(n).top
    }

    #[inline(always)]
    fn set_up(&mut self, n: u32, to: u32) {
        self.node_mut(n).up = to;
    }

    #[inline(always)]
    fn set_down(&mut self, n: u32, to: u32) {
        self.node_mut(n).down = to;
    }

    #[inline(always)]
    fn key_mut(&mut self, header: u32) -> &mut u32 {
        debug_assert!((header as usize) < self.key.len());
        // SAFETY: `header` is a `top` value or an item's header, `1..=items`, and `key`
        // has `items + 1` entries (`reset`).
        unsafe { self.key.get_unchecked_mut(header as usize) }
    }

    /// Covers the items of `node`'s option other than `node`'s own; returns the updates.
    #[inline(always)]
    fn cover_rest_of_option(&mut self, node: u32) -> u64 {
        let mut updates = 0;
        let mut p = node + 1;
        while p != node {
            let j = self.top(p);
            if j == SPACER {
                p = self.up(p);
            } else {
                updates += self.cover(j);
                p += 1;
            }
        }
        updates
    }

    #[inline(always)]
    fn uncover_rest_of_option(&mut self, node: u32) {
        let mut p = node - 1;
        while p != node {
            let j = self.top(p);
            if j == SPACER {
                p = self.down(p);
            } else {
                self.uncover(j);
                p -= 1;
            }
        }
    }

    /// Returns the updates (links removed).
    #[inline(always)]
    fn cover(&mut self, item: u32) -> u64 {
        let mut updates = 0;
        let mut p = self.down(item);
        while p != item {
            updates += self.hide(p);
            p = self.down(p);
        }
        *self.key_mut(item) += COVERED;
        self.open -= 1;
        updates
    }

    #[inline(always)]
    fn uncover(&mut self, item: u32) {
        *self.key_mut(item) -= COVERED;
        self.open += 1;
        let mut p = self.up(item);
        while p != item {
            self.unhide(p);
            p = self.up(p);
        }
    }

    /// Unlinks the other nodes of `p`'s option from their items, left to right; returns
    /// how many. (Their items are open: an option with a covered item is hidden.)
    #[inline(always)]
    fn hide(&mut self, p: u32) -> u64 {
        let mut updates = 0;
        let mut q = p + 1;
        while q != p {
            let x = self.top(q);
            let (u, d) = (self.up(q), self.down(q));
            if x == SPACER {
                q = u;
            } else {
                self.set_down(u, d);
                self.set_up(d, u);
                *self.key_mut(x) -= 1;
                updates += 1;
                q += 1;
            }
        }
        updates
    }

    /// Relinks what `hide` unlinked, right to left (the mirror order keeps links valid).
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let x = self.top(q);
            let (u, d) = (self.up(q), self.down(q));
            if x == SPACER {
                q = d;
            } else {
                self.set_down(u, q);
                self.set_up(d, q);
                *self.key_mut(x) += 1;
                q -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNLIMITED: SearchLimits = SearchLimits {
        max_solutions: u64::MAX,
        max_nodes: u64::MAX,
        deadline: None,
        cancel: None,
    };

    fn solve_all(items: usize, options: &[&[usize]]) -> (Vec<Vec<usize>>, SearchStats) {
        let mut ec = ExactCover::new();
        ec.reset(items);
        for o in options {
            ec.add_option(o).unwrap();
        }
        let mut found = Vec::new();
        let stats = ec.search(UNLIMITED, |s| {
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
            ec.search(UNLIMITED, |_| panic!("the caller's callback"));
        }));
        assert!(panicked.is_err());
        // The same covers as a fresh search: {0,1}, {2,3}.
        let mut found = Vec::new();
        let stats = ec.search(UNLIMITED, |s| {
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
            ec.search(UNLIMITED, |_| panic!("never called")).solutions,
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
        let first = ec.search(UNLIMITED, |_| {});
        assert_eq!(first.solutions, 15);
        // The links are as they were: a second search finds the same.
        let second = ec.search(UNLIMITED, |_| {});
        assert_eq!(first, second);
        // Stopping early also restores them.
        let limited = ec.search(
            SearchLimits {
                max_solutions: 2,
                ..UNLIMITED
            },
            |_| {},
        );
        assert_eq!(limited.solutions, 2);
        assert_eq!(ec.search(UNLIMITED, |_| {}).solutions, 15);
    }

    #[test]
    fn no_cover_and_node_budget() {
        let (found, _) = solve_all(3, &[&[0, 1], &[1, 2]]);
        assert!(found.is_empty());
        let mut ec = ExactCover::new();
        ec.reset(2);
        ec.add_option(&[0]).unwrap();
        ec.add_option(&[1]).unwrap();
        let stats = ec.search(
            SearchLimits {
                max_solutions: 1,
                max_nodes: 1,
                ..UNLIMITED
            },
            |_| {},
        );
        assert!(stats.budget_exceeded);
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
        assert_eq!(ec.search(UNLIMITED, |_| {}).solutions, 877);
        // The flag is first read after 1,024 nodes: short searches finish.
        let cancelled = ec.search(
            SearchLimits {
                cancel: Some(&SET),
                ..UNLIMITED
            },
            |_| {},
        );
        assert!(cancelled.cancelled && cancelled.budget_exceeded && !cancelled.timed_out);
        assert_eq!(cancelled.nodes, 1024);
        assert!(cancelled.solutions < 877);
        let late = ec.search(
            SearchLimits {
                deadline: Some(Instant::now()),
                ..UNLIMITED
            },
            |_| {},
        );
        assert!(late.timed_out && late.budget_exceeded && !late.cancelled);
        // A budget that stops deep in the tree also leaves the links intact.
        let deep = ec.search(
            SearchLimits {
                max_nodes: 7,
                ..UNLIMITED
            },
            |_| {},
        );
        assert!(deep.budget_exceeded && !deep.timed_out);
        assert_eq!(ec.search(UNLIMITED, |_| {}).solutions, 877);
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
        assert_eq!(ec.search(UNLIMITED, |_| {}).solutions, 1);
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
        ec.search(UNLIMITED, |s| {
            let mut s = s.to_vec();
            s.sort();
            found.push(s);
        });
        found.sort();
        assert_eq!(found, [vec![0, 1], vec![2, 3], vec![4, 5]]);
    }

    #[test]
    fn zero_items_has_the_empty_cover() {
        let (found, _) = solve_all(0, &[]);
        assert_eq!(found, vec![Vec::<usize>::new()]);
    }
}
