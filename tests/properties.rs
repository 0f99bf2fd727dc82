//! The fuzz targets' properties, as property tests in the normal suite.

use std::io::Cursor;

use proptest::prelude::*;
use sudoku_bench::Grid;
use sudoku_bench::format::Format;
use sudoku_bench::generate::generate;
use sudoku_bench::run::GuardedSolver;
use sudoku_bench::solver::{Backend, Limits};

/// Puzzles with one, several or no solutions: a generated unique puzzle, some clues
/// removed (often several solutions), sometimes one cell changed (often none).
fn puzzle_of_every_kind() -> impl Strategy<Value = Grid> {
    (
        0u64..1000,
        proptest::collection::vec(0u8..8, 81),
        proptest::option::of((0usize..81, 1u8..=9)),
    )
        .prop_map(|(seed, removals, tweak)| {
            let mut solver = GuardedSolver::new(&Backend::DlxStatic, &Limits::default());
            let mut grid = generate(seed, 0, 24, &mut solver).puzzle;
            for (cell, &r) in removals.iter().enumerate() {
                if r == 0 {
                    grid.set(cell, 0);
                }
            }
            if let Some((cell, digit)) = tweak {
                grid.set(cell, digit);
            }
            grid
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every backend that finishes agrees on the count; every solution is right.
    #[test]
    fn backends_agree_on_arbitrary_grids(grid in puzzle_of_every_kind(), max in 1u32..=2) {
        let limits = Limits { max_solutions: max, max_nodes: 100_000, ..Limits::default() };
        let conflict = grid.find_conflict().is_some();
        let mut counts = Vec::new();
        for backend in Backend::ALL {
            let out = backend.new_solver().solve(&grid, &limits);
            prop_assert!(out.solutions <= max);
            prop_assert_eq!(out.solutions > 0, out.solution.is_some());
            if let Some(s) = out.solution {
                prop_assert!(!conflict);
                prop_assert_eq!(s.check_solution_of(&grid), Ok(()));
            }
            if !out.budget_exceeded {
                counts.push(out.solutions);
            }
        }
        prop_assert!(counts.windows(2).all(|w| w[0] == w[1]), "{:?} on {}", counts, grid);
    }

    /// Any bytes through every format: no panic, records numbered 1, 2, 3, ...
    #[test]
    fn any_bytes_in_any_format(data in proptest::collection::vec(any::<u8>(), 0..2000)) {
        for &format in &Format::ALL {
            let mut reader = format.reader(Cursor::new(&data), &Default::default());
            let mut number = 0;
            while let Some(record) = reader.next_record() {
                let record = record.unwrap();
                number += 1;
                prop_assert_eq!(record.number, number);
                prop_assert!(record.line >= 1);
            }
        }
    }

    /// Text made of the formats' own characters reaches more of the parsers than bytes.
    #[test]
    fn puzzle_like_text_in_any_format(
        text in "([0-9.?|+ ,:#-]{0,90}(\r?\n)){0,30}(end\n)?",
    ) {
        for &format in &Format::ALL {
            let mut reader = format.reader(Cursor::new(text.as_bytes()), &Default::default());
            while let Some(record) = reader.next_record() {
                let record = record.unwrap();
                if let Ok(p) = &record.body {
                    // Whatever parsed prints back as a valid 81-character line.
                    prop_assert_eq!(p.grid.to_line().parse::<Grid>().unwrap(), p.grid);
                }
            }
        }
    }
}
