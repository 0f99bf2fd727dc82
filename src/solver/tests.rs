//! Every backend against known answers: unique, none, several, conflicting givens.

use super::*;
use proptest::prelude::*;

const UNIQUE: &[(&str, &str)] = &[
    (
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4",
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294",
    ),
    (
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "621943758783615492594728361142879635357461289869532174238197546916354827475286913",
    ),
    (
        // A 17-clue puzzle.
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
    ),
];

pub(super) const NO_SOLUTION: &[&str] = &[
    "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.",
    ".2....7..4....9.3.6..723.4...83.........1....9....4.6..94....5.5.....6.3.....5...",
];

const SEVERAL: &[&str] = &[
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
    "8.........59.......76.........978245...653198...412736...591......836.1....724.8.",
];

pub(super) fn grid(s: &str) -> Grid {
    s.parse().unwrap()
}

pub(super) fn limits(max_solutions: u32) -> Limits {
    Limits {
        max_solutions,
        ..Limits::default()
    }
}

#[test]
fn every_backend_solves_unique_puzzles() {
    for backend in Backend::ALL {
        let mut solver = backend.new_solver();
        // The 17-clue puzzle takes naive backtracking far past its default budget.
        let count = if backend == Backend::Dfs {
            2
        } else {
            UNIQUE.len()
        };
        for (p, s) in &UNIQUE[..count] {
            let out = solver.solve(&grid(p), &limits(2));
            assert_eq!(out.solutions, 1, "{backend} on {p}");
            assert_eq!(out.solution, Some(grid(s)), "{backend} on {p}");
            assert!(!out.budget_exceeded);
            #[cfg(feature = "reference")]
            let counts_nodes = backend != Backend::Reference;
            #[cfg(not(feature = "reference"))]
            let counts_nodes = true;
            assert!(out.nodes >= 1 || !counts_nodes, "{backend}");
            let one = solver.solve(&grid(p), &limits(1));
            assert_eq!((one.solutions, one.solution), (1, Some(grid(s))));
        }
    }
}

#[test]
fn every_backend_finds_no_solution() {
    for backend in Backend::ALL {
        let mut solver = backend.new_solver();
        for p in NO_SOLUTION {
            let out = solver.solve(&grid(p), &limits(2));
            assert_eq!((out.solutions, out.solution), (0, None), "{backend} on {p}");
            assert!(!out.budget_exceeded, "{backend} on {p}");
        }
    }
}

#[test]
fn every_backend_stops_at_the_second_solution() {
    for backend in Backend::ALL {
        let mut solver = backend.new_solver();
        for p in SEVERAL {
            let out = solver.solve(&grid(p), &limits(2));
            assert_eq!(out.solutions, 2, "{backend} on {p}");
            let s = out.solution.unwrap();
            assert_eq!(s.check_solution_of(&grid(p)), Ok(()));
            assert_eq!(solver.solve(&grid(p), &limits(1)).solutions, 1);
        }
        // The empty grid has billions of solutions: the limit must stop the search.
        let out = solver.solve(&Grid::EMPTY, &limits(2));
        assert_eq!(out.solutions, 2, "{backend}");
    }
}

#[test]
fn conflicting_givens_never_panic() {
    let mut g = Grid::EMPTY;
    g.set(0, 4);
    g.set(5, 4);
    for backend in Backend::ALL {
        let out = backend.new_solver().solve(&g, &limits(2));
        assert_eq!(out.solutions, 0, "{backend}");
    }
}

#[test]
fn a_full_valid_grid_is_its_own_solution() {
    let (_, s) = UNIQUE[0];
    for backend in Backend::ALL {
        let out = backend.new_solver().solve(&grid(s), &limits(2));
        assert_eq!(
            (out.solutions, out.solution),
            (1, Some(grid(s))),
            "{backend}"
        );
        assert_eq!(out.guesses, 0);
    }
}

#[test]
fn node_budget_stops_the_search() {
    let p = grid(HOSTILE);
    let tight = Limits {
        max_solutions: 2,
        max_nodes: 10_000,
        ..Limits::default()
    };
    let out = Dfs::default().solve(&p, &tight);
    assert!(out.budget_exceeded);
    assert_eq!(out.nodes, 10_001);
    // DLX needs only a handful of nodes for the same puzzle, and so does bitboard.
    let out = DlxStatic::default().solve(&p, &tight);
    assert!(!out.budget_exceeded);
    assert_eq!(out.solutions, 2);
    let out = Bitboard::new().solve(&p, &tight);
    assert!(!out.budget_exceeded);
    assert_eq!(out.solutions, 2);
    // A budget too small for it stops bitboard too, at the same node count.
    let tiny = Limits {
        max_nodes: 3,
        ..tight
    };
    let out = Bitboard::new().solve(&grid(UNIQUE[2].0), &tiny);
    assert!(out.budget_exceeded && !out.timed_out && !out.cancelled);
    assert_eq!(out.nodes, 4);
}

/// Hopeless for row-major backtracking (issue 4's example).
const HOSTILE: &str =
    "001000000200000000003000000400000005005000600600000040007103000800000000009020000";

#[test]
fn a_past_deadline_stops_the_search_at_once() {
    let past = Limits {
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    };
    let out = Dfs::default().solve(&grid(HOSTILE), &past);
    assert!(out.timed_out && out.budget_exceeded && !out.cancelled);
    assert_eq!((out.nodes, out.solutions), (1, 0));
    let out = Bitboard::new().solve(&grid(HOSTILE), &past);
    assert!(out.timed_out && out.budget_exceeded && !out.cancelled);
    assert_eq!((out.nodes, out.solutions), (1, 0));
    // A deadline far away changes nothing.
    let later = Limits {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(3600)),
        ..Limits::default()
    };
    for backend in Backend::ALL {
        let (p, _) = UNIQUE[0];
        let out = backend.new_solver().solve(&grid(p), &later);
        assert_eq!(out.solutions, 1, "{backend}");
        assert!(!out.budget_exceeded && !out.timed_out, "{backend}");
    }
}

#[test]
fn a_deadline_stops_dfs_mid_search() {
    let soon = Limits {
        max_nodes: u64::MAX,
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(20)),
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let out = Dfs::default().solve(&grid(HOSTILE), &soon);
    assert!(out.timed_out && out.budget_exceeded);
    assert!(out.nodes > 1);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn a_set_cancel_flag_stops_every_backend() {
    static CANCEL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
    // Counting every solution of the empty grid never ends; the flag stops it at the
    // first check, after 1,024 nodes (shorter searches finish: that is by design).
    let limits = Limits {
        max_solutions: u32::MAX,
        cancel: Some(&CANCEL),
        ..Limits::default()
    };
    for backend in Backend::ALL {
        let out = backend.new_solver().solve(&Grid::EMPTY, &limits);
        assert!(
            out.cancelled && out.budget_exceeded && !out.timed_out,
            "{backend}"
        );
        #[cfg(feature = "reference")]
        if backend == Backend::Reference {
            continue; // no node counter
        }
        assert_eq!(out.nodes, 1024, "{backend}");
    }
    let out = Dfs::default().solve(&grid(HOSTILE), &limits);
    assert!(out.cancelled);
    // The same limits with the flag clear: the DLX search finishes.
    static CLEAR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let limits = Limits {
        max_solutions: 2,
        cancel: Some(&CLEAR),
        ..limits
    };
    let out = DlxStatic::default().solve(&grid(HOSTILE), &limits);
    assert_eq!(out.solutions, 2);
    assert!(!out.cancelled && !out.budget_exceeded);
}

#[test]
fn null_backend_solves_nothing_and_is_not_a_solver() {
    assert!(!Backend::ALL.contains(&Backend::Null));
    assert!(!Backend::Null.is_solver());
    assert!(Backend::ALL.iter().all(|b| b.is_solver()));
    assert_eq!(Backend::Null.name(), "null");
    let (p, _) = UNIQUE[0];
    let out = Backend::Null.new_solver().solve(&grid(p), &limits(2));
    assert_eq!(out, SolveOutcome::default());
}

#[cfg(feature = "reference")]
#[test]
fn reference_backend_counts_and_solves() {
    let mut r = Backend::Reference.new_solver();
    assert_eq!(Backend::Reference.name(), "reference");
    for (p, s) in UNIQUE {
        let out = r.solve(&grid(p), &limits(2));
        assert_eq!((out.solutions, out.solution), (1, Some(grid(s))));
        assert_eq!((out.nodes, out.guesses), (0, 0));
    }
    for p in SEVERAL {
        assert_eq!(r.solve(&grid(p), &limits(2)).solutions, 2);
        assert_eq!(r.solve(&grid(p), &limits(1)).solutions, 1);
    }
    for p in NO_SOLUTION {
        assert_eq!(r.solve(&grid(p), &limits(2)).solutions, 0);
    }
}

#[test]
fn dfs_counts_nodes_like_the_textbook_search() {
    // One blank: the root plus one child; no guess since one digit fits.
    let (p, s) = UNIQUE[0];
    let mut g = grid(s);
    g.set(0, 0);
    let out = Dfs::default().solve(&g, &limits(2));
    assert_eq!((out.nodes, out.guesses), (2, 0));
    // State is reset between puzzles: the same puzzle twice gives the same counts.
    let mut dfs = Dfs::default();
    let a = dfs.solve(&grid(p), &limits(2));
    let b = dfs.solve(&grid(p), &limits(2));
    assert_eq!(a, b);
}

#[test]
fn both_dlx_backends_walk_the_same_tree() {
    let mut a = DlxStatic::default();
    let mut b = DlxArena::default();
    // And the first of the shipped generated puzzles: a wrong count of an item's
    // options (chosen, or left to backtrack on) shows in the nodes.
    let shipped = include_str!("../../datasets/generated-3000.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| &l[..81])
        .take(300);
    for p in UNIQUE
        .iter()
        .map(|u| u.0)
        .chain(NO_SOLUTION.iter().copied())
        .chain(SEVERAL.iter().copied())
        .chain(shipped)
    {
        for max in [1, 2] {
            assert_eq!(
                a.solve(&grid(p), &limits(max)),
                b.solve(&grid(p), &limits(max)),
                "{p}"
            );
        }
    }
}

/// Puzzles made by blanking cells of a known solution: at least one solution each.
fn puzzle_from_solution(min_clues: usize) -> impl Strategy<Value = Grid> {
    let (_, s) = UNIQUE[0];
    let solution = grid(s);
    (
        proptest::collection::vec(any::<bool>(), 81),
        proptest::sample::select(vec![1u8, 2, 3, 4, 5, 6, 7, 8, 9]),
    )
        .prop_map(move |(keep, shift)| {
            // Relabel the digits to vary the solution, then blank cells.
            let mut g = Grid::EMPTY;
            for (cell, &kept) in keep.iter().enumerate() {
                let d = (solution.get(cell) + shift - 1) % 9 + 1;
                if kept {
                    g.set(cell, d);
                }
            }
            g
        })
        .prop_filter("enough clues", move |g| g.clues() >= min_clues)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn backends_agree_on_random_puzzles(p in puzzle_from_solution(36)) {
        let mut results = Vec::new();
        for backend in Backend::ALL {
            let out = backend.new_solver().solve(&p, &limits(2));
            prop_assert!(!out.budget_exceeded);
            prop_assert!(out.solutions >= 1);
            prop_assert_eq!(out.solution.unwrap().check_solution_of(&p), Ok(()));
            results.push(out.solutions);
        }
        prop_assert!(results.windows(2).all(|w| w[0] == w[1]), "{:?}", results);
    }

    #[test]
    fn dlx_backends_agree_on_sparse_and_broken_grids(
        cells in proptest::collection::vec(0u8..=9, 81),
        blank_ratio in 0.5f64..0.95,
    ) {
        // Arbitrary grids: often contradictory, sometimes several solutions.
        let mut g = Grid::EMPTY;
        for (i, &v) in cells.iter().enumerate() {
            if (i as f64 / 81.0) >= blank_ratio || v % 3 == 0 {
                g.set(i, v);
            }
        }
        let a = DlxStatic::default().solve(&g, &limits(2));
        let b = DlxArena::default().solve(&g, &limits(2));
        prop_assert_eq!(a, b);
        if let Some(s) = a.solution {
            prop_assert_eq!(s.check_solution_of(&g), Ok(()));
        }
        // Bitboard walks another tree: the same count, a right solution.
        let c = Bitboard::new().solve(&g, &limits(2));
        prop_assert_eq!(c.solutions, a.solutions);
        if let Some(s) = c.solution {
            prop_assert_eq!(s.check_solution_of(&g), Ok(()));
        }
    }
}

/// Stops a search early in each of the three ways, then checks that the same solver
/// answers the next puzzles exactly as a fresh one does: no state leaks from a search
/// that was cut short.
#[test]
fn a_solver_reused_after_a_stopped_search_answers_like_a_fresh_one() {
    use std::sync::atomic::AtomicBool;
    static SET: AtomicBool = AtomicBool::new(true);
    // The empty grid, counting up to a million solutions: every backend needs far more
    // than the 1,024 nodes after which the cancel flag is read.
    let many = Limits {
        max_solutions: 1_000_000,
        ..Limits::default()
    };
    let stops = [
        (
            "budget",
            Limits {
                max_nodes: 3000,
                ..many
            },
        ),
        (
            "cancel",
            Limits {
                cancel: Some(&SET),
                ..many
            },
        ),
        (
            "deadline",
            Limits {
                deadline: Some(std::time::Instant::now()),
                ..many
            },
        ),
    ];
    let next: Vec<Grid> = UNIQUE[..2]
        .iter()
        .map(|(p, _)| grid(p))
        .chain(NO_SOLUTION.iter().map(|p| grid(p)))
        .chain(SEVERAL.iter().map(|p| grid(p)))
        .collect();
    for backend in Backend::built_in() {
        for (how, stop) in &stops {
            let mut solver = backend.new_solver();
            let stopped = solver.solve(&Grid::EMPTY, stop);
            #[cfg(feature = "reference")]
            let ignores_budget = backend == Backend::Reference && *how == "budget";
            #[cfg(not(feature = "reference"))]
            let ignores_budget = false;
            if backend.is_solver() && !ignores_budget {
                assert!(stopped.budget_exceeded, "{backend} {how}: {stopped:?}");
            }
            for max in [1, 2] {
                for g in &next {
                    let l = limits(max);
                    let fresh = backend.new_solver().solve(g, &l);
                    assert_eq!(solver.solve(g, &l), fresh, "{backend} after {how} on {g}");
                }
            }
        }
    }
}

/// The pattern solution of a board of box size `n`, its values relabelled by `perm`.
fn pattern(n: usize, perm: &[u8]) -> crate::board::Square {
    let side = n * n;
    let cells = (0..side * side)
        .map(|i| perm[(n * ((i / side) % n) + (i / side) / n + i % side) % side])
        .collect();
    crate::board::Square::new(cells).unwrap()
}

#[test]
fn the_general_backends_solve_every_size_and_the_others_say_unsupported() {
    use crate::board::Square;
    for n in [2, 3, 4, 5] {
        let side = n * n;
        let perm: Vec<u8> = (1..=side as u8).rev().collect();
        let solved = pattern(n, &perm);
        // All but the first row blank: many solutions. One blank a row: one solution.
        let mut open = solved.clone();
        for cell in side..side * side {
            open.set(cell, 0);
        }
        let mut sparse = solved.clone();
        for r in 0..side {
            sparse.set(r * side + (r * 7) % side, 0);
        }
        // A board with no solution: the first cell blank while its row, column and box
        // hold between them every value (a value moved into its column makes it so).
        let mut none = Square::empty(n);
        for c in 1..side {
            none.set(c, c as u8);
        }
        none.set(side * (side - 1), side as u8);
        for backend in [Backend::DlxArena, Backend::Dfs] {
            let mut s = backend.new_solver();
            let (o, sol) = s.solve_square(&sparse, &limits(2)).unwrap();
            assert_eq!(o.solutions, 1, "{backend} {n}");
            let sol = sol.unwrap();
            assert_eq!(sol.check_solution_of(&sparse), Ok(()));
            assert_eq!(sol, solved);
            if n != 5 || backend == Backend::DlxArena {
                let (o, sol) = s.solve_square(&open, &limits(2)).unwrap();
                assert_eq!(o.solutions, 2, "{backend} {n}");
                assert_eq!(sol.unwrap().check_solution_of(&open), Ok(()));
            }
            let (o, sol) = s.solve_square(&none, &limits(2)).unwrap();
            assert_eq!((o.solutions, sol), (0, None), "{backend} {n}");
            // Conflicting givens: no solution, no panic.
            let mut bad = Square::empty(n);
            bad.set(0, 1);
            bad.set(1, 1);
            let (o, _) = s.solve_square(&bad, &limits(2)).unwrap();
            assert_eq!(o.solutions, 0);
        }
        for backend in [Backend::DlxStatic, Backend::Bitboard] {
            assert!(
                backend
                    .new_solver()
                    .solve_square(&sparse, &limits(2))
                    .is_none()
            );
        }
    }
}

#[test]
fn a_deadline_stops_a_search_on_a_big_board() {
    use crate::board::Square;
    use std::time::{Duration, Instant};
    // Counting every solution of an empty 25x25 board never ends.
    let empty = Square::empty(5);
    for backend in [Backend::DlxArena, Backend::Dfs] {
        let start = Instant::now();
        let l = Limits {
            max_solutions: u32::MAX,
            max_nodes: u64::MAX,
            deadline: Some(start + Duration::from_millis(200)),
            ..Limits::default()
        };
        let mut solver = backend.new_solver();
        let (o, _) = solver.solve_square(&empty, &l).unwrap();
        assert!(o.timed_out && o.budget_exceeded, "{backend}");
        assert!(start.elapsed() < Duration::from_secs(20), "{backend}");
        // The cancel flag (Ctrl-C) stops it the same way, from another thread.
        static CANCEL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        CANCEL.store(false, std::sync::atomic::Ordering::Relaxed);
        let setter = std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            CANCEL.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let l = Limits {
            max_solutions: u32::MAX,
            max_nodes: u64::MAX,
            cancel: Some(&CANCEL),
            ..Limits::default()
        };
        let (o, _) = solver.solve_square(&empty, &l).unwrap();
        setter.join().unwrap();
        assert!(o.cancelled && o.budget_exceeded, "{backend}");
        // A stopped search leaves the solver as good as new.
        let mut four = Square::empty(2);
        four.set(0, 1);
        let l = Limits::default();
        assert_eq!(
            solver.solve_square(&four, &l),
            backend.new_solver().solve_square(&four, &l),
            "{backend}"
        );
    }
}
