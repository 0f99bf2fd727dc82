//! Arbitrary grids to every backend: they agree on the solution count (up to 2) whenever
//! they all finish, and every solution they report passes the independent check.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bench::Grid;
use sudoku_bench::{Backend, Limits};

fuzz_target!(|data: &[u8]| {
    if data.len() < 81 {
        return;
    }
    // Mostly blanks, like real puzzles: a byte gives a digit only when it is below 90.
    let mut grid = Grid::EMPTY;
    for (cell, &b) in data[..81].iter().enumerate() {
        if b < 90 {
            grid.set(cell, b % 9 + 1);
        }
    }
    let max_solutions = if data.get(81).is_some_and(|b| b & 1 == 1) {
        1
    } else {
        2
    };
    let limits = Limits {
        max_solutions,
        max_nodes: 200_000,
        ..Limits::default()
    };
    let conflict = grid.find_conflict().is_some();
    let mut counts = Vec::new();
    for backend in Backend::ALL {
        let out = backend.new_solver().solve(&grid, &limits);
        assert!(out.solutions <= max_solutions, "{backend}");
        if let Some(s) = out.solution {
            assert!(!conflict, "{backend} solved conflicting givens");
            s.check_solution_of(&grid)
                .unwrap_or_else(|e| panic!("{backend} returned a wrong solution: {e}"));
        }
        assert_eq!(out.solutions > 0, out.solution.is_some(), "{backend}");
        if !out.budget_exceeded {
            counts.push((backend, out.solutions));
        }
    }
    if let Some(&(_, first)) = counts.first() {
        assert!(
            counts.iter().all(|&(_, c)| c == first),
            "{counts:?} on {grid}"
        );
    }
});
