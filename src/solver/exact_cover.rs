//! A general exact-cover solver: Knuth's Algorithm X with Dancing Links on a `Vec` arena.
//!
//! Any number of items and options, given at run time. The layout follows Knuth's DLX1:
//! 32-bit indices; an option's nodes sit side by side with a spacer node between
//! options, so rows need no left/right links (a spacer's `up` is the first node of the
//! option before it, its `down` the last node of the option after it). `reset` keeps
//! the allocation, so a solver reused across problems allocates nothing in steady state.
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
//! let stats = ec.search(SearchLimits { max_solutions: 10, max_nodes: 1000 }, |s| found.push(s.to_vec()));
//! assert_eq!(stats.solutions, 2);
//! assert_eq!(found, vec![vec![0, 1], vec![3, 2]]);
//! ```

/// Marks a spacer node (item 0 is the root header, never an option's item).
const SPACER: u32 = 0;

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    pub max_solutions: u64,
    pub max_nodes: u64,
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
    pub budget_exceeded: bool,
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

/// An exact-cover problem and its Dancing Links.
#[derive(Clone, Debug, Default)]
pub struct ExactCover {
    /// Header list links, indexed by item (0 = root).
    left: Vec<u32>,
    right: Vec<u32>,
    /// Options still linked under each item.
    len: Vec<u32>,
    /// Node arrays: headers first, then options separated by spacers.
    up: Vec<u32>,
    down: Vec<u32>,
    top: Vec<u32>,
    /// Option index of each option node (read only when reporting a solution).
    option_of: Vec<u32>,
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
        for v in [
            &mut self.left,
            &mut self.right,
            &mut self.len,
            &mut self.up,
            &mut self.down,
            &mut self.top,
            &mut self.option_of,
        ] {
            v.clear();
        }
        for i in 0..=items as u32 {
            self.left.push(if i == 0 { items as u32 } else { i - 1 });
            self.right.push(if i as usize == items { 0 } else { i + 1 });
            self.len.push(0);
            self.up.push(i);
            self.down.push(i);
            self.top.push(i);
            self.option_of.push(u32::MAX);
        }
        // The first spacer: no option before it; `down` is set by the first option.
        self.push_node(SPACER, 0, 0, u32::MAX);
    }

    pub fn item_count(&self) -> usize {
        self.items
    }

    pub fn option_count(&self) -> usize {
        self.options
    }

    fn push_node(&mut self, top: u32, up: u32, down: u32, option: u32) -> u32 {
        let n = self.top.len() as u32;
        self.top.push(top);
        self.up.push(up);
        self.down.push(down);
        self.option_of.push(option);
        n
    }

    /// Adds an option covering the given items (0-based). Returns its index.
    pub fn add_option(&mut self, items: &[usize]) -> Result<usize, OptionError> {
        if items.is_empty() {
            return Err(OptionError::Empty);
        }
        for (k, &item) in items.iter().enumerate() {
            if item >= self.items {
                return Err(OptionError::ItemOutOfRange {
                    item,
                    items: self.items,
                });
            }
            if items[..k].contains(&item) {
                return Err(OptionError::Repeated(item));
            }
        }
        let option = self.options as u32;
        let spacer_before = self.top.len() as u32 - 1;
        let first = spacer_before + 1;
        for &item in items {
            let header = item as u32 + 1;
            let tail = self.up[header as usize];
            let node = self.push_node(header, tail, header, option);
            self.down[tail as usize] = node;
            self.up[header as usize] = node;
            self.len[header as usize] += 1;
        }
        let last = self.top.len() as u32 - 1;
        self.down[spacer_before as usize] = last;
        self.push_node(SPACER, first, 0, u32::MAX);
        self.options += 1;
        Ok(option as usize)
    }

    /// Finds exact covers, calling `on_solution` with each one's option indices (in the
    /// order chosen), until `limits` stop it. Leaves the links as it found them.
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
        self.search_from(0, &limits, &mut stats, &mut on_solution);
        stats
    }

    /// Returns true to stop the whole search.
    fn search_from(
        &mut self,
        depth: usize,
        limits: &SearchLimits,
        stats: &mut SearchStats,
        on_solution: &mut dyn FnMut(&[usize]),
    ) -> bool {
        stats.nodes += 1;
        if stats.nodes > limits.max_nodes {
            stats.budget_exceeded = true;
            return true;
        }
        if self.right[0] == 0 {
            stats.solutions += 1;
            self.solution.clear();
            for &node in &self.chosen[..depth] {
                self.solution.push(self.option_of[node as usize] as usize);
            }
            on_solution(&self.solution);
            return stats.solutions >= limits.max_solutions;
        }
        let (item, count) = self.choose_item();
        if count == 0 {
            return false;
        }
        if count > 1 {
            stats.guesses += 1;
        }
        self.cover(item, stats);
        let mut r = self.down[item as usize];
        let mut stop = false;
        while r != item {
            self.chosen[depth] = r;
            self.cover_rest_of_option(r, stats);
            stop = self.search_from(depth + 1, limits, stats, on_solution);
            self.uncover_rest_of_option(r);
            if stop {
                break;
            }
            r = self.down[r as usize];
        }
        self.uncover(item);
        stop
    }

    /// The item with the fewest options (leftmost on ties), stopping early at 0 or 1.
    fn choose_item(&self) -> (u32, u32) {
        let mut best_item = self.right[0];
        let mut best = self.len[best_item as usize];
        let mut i = self.right[best_item as usize];
        while best > 1 && i != 0 {
            let l = self.len[i as usize];
            if l < best {
                best = l;
                best_item = i;
            }
            i = self.right[i as usize];
        }
        (best_item, best)
    }

    fn cover_rest_of_option(&mut self, node: u32, stats: &mut SearchStats) {
        let mut p = node + 1;
        while p != node {
            let j = self.top[p as usize];
            if j == SPACER {
                p = self.up[p as usize];
            } else {
                self.cover(j, stats);
                p += 1;
            }
        }
    }

    fn uncover_rest_of_option(&mut self, node: u32) {
        let mut p = node - 1;
        while p != node {
            let j = self.top[p as usize];
            if j == SPACER {
                p = self.down[p as usize];
            } else {
                self.uncover(j);
                p -= 1;
            }
        }
    }

    fn cover(&mut self, item: u32, stats: &mut SearchStats) {
        let mut p = self.down[item as usize];
        while p != item {
            self.hide(p, stats);
            p = self.down[p as usize];
        }
        let (l, r) = (self.left[item as usize], self.right[item as usize]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
    }

    fn uncover(&mut self, item: u32) {
        let (l, r) = (self.left[item as usize], self.right[item as usize]);
        self.right[l as usize] = item;
        self.left[r as usize] = item;
        let mut p = self.up[item as usize];
        while p != item {
            self.unhide(p);
            p = self.up[p as usize];
        }
    }

    /// Unlinks the other nodes of `p`'s option from their items, left to right.
    fn hide(&mut self, p: u32, stats: &mut SearchStats) {
        let mut q = p + 1;
        while q != p {
            let x = self.top[q as usize];
            let (u, d) = (self.up[q as usize], self.down[q as usize]);
            if x == SPACER {
                q = u;
            } else {
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.len[x as usize] -= 1;
                stats.updates += 1;
                q += 1;
            }
        }
    }

    /// Relinks what `hide` unlinked, right to left (the mirror order keeps links valid).
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let x = self.top[q as usize];
            let (u, d) = (self.up[q as usize], self.down[q as usize]);
            if x == SPACER {
                q = d;
            } else {
                self.down[u as usize] = q;
                self.up[d as usize] = q;
                self.len[x as usize] += 1;
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
                max_nodes: u64::MAX,
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
            },
            |_| {},
        );
        assert!(stats.budget_exceeded);
        assert_eq!(stats.solutions, 0);
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
    fn zero_items_has_the_empty_cover() {
        let (found, _) = solve_all(0, &[]);
        assert_eq!(found, vec![Vec::<usize>::new()]);
    }
}
