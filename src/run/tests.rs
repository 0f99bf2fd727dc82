//! The runner and answer checking, end to end on small inputs.

use super::*;
use crate::record::{Expected, ParseError, Puzzle};
use crate::solver::SolveOutcome;
use crate::solver::mock::Mock;

const PUZZLE: &str =
    ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
const SOLUTION: &str =
    "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

/// The record numbers of a piece of results.
struct Numbers(Vec<u64>);

impl Collect for Numbers {
    type Part = Vec<u64>;

    fn add(&mut self, r: &PuzzleResult<'_>) {
        self.0.push(r.number);
    }

    fn finish(self) -> Vec<u64> {
        self.0
    }
}

/// A parsed record, as the runner takes it.
fn record(number: u64, body: Result<Puzzle, ParseError>) -> Item {
    Item {
        source: "test".into(),
        number,
        line: number,
        body: Body::Parsed(body),
    }
}

fn puzzle(p: &str, count: Option<u64>, solution: Option<&str>) -> Result<Puzzle, ParseError> {
    Ok(Puzzle {
        board: p.parse().unwrap(),
        expected: Some(Box::new(Expected {
            count,
            solution: solution.map(|s| s.parse().unwrap()),
        })),
    })
}

fn solve(body: Result<Puzzle, ParseError>, max_solutions: u32) -> PuzzleResult<'static> {
    let limits = Limits {
        max_solutions,
        ..Limits::default()
    };
    // A result borrows its record: kept for the test's life.
    let record = Box::leak(Box::new(record(1, body).into_record()));
    GuardedSolver::new(&Backend::DlxStatic, &limits, None).solve_record(record, None)
}

#[test]
fn unique_puzzle_matches_its_expected_answer() {
    let r = solve(puzzle(PUZZLE, Some(1), Some(SOLUTION)), 2);
    assert_eq!(r.status, Status::Unique);
    assert_eq!((r.valid, r.matches_expected), (Some(true), Some(true)));
    let r = solve(puzzle(PUZZLE, Some(1), Some(SOLUTION)), 1);
    assert_eq!(r.status, Status::Solved);
    assert_eq!(r.matches_expected, Some(true));
}

#[test]
fn wrong_expectations_are_mismatches() {
    let mut wrong = SOLUTION.to_string();
    wrong.replace_range(0..2, "56");
    let r = solve(puzzle(PUZZLE, Some(1), Some(&wrong)), 2);
    assert!(r.is_mismatch());
    assert_eq!(r.valid, Some(true));
    let r = solve(puzzle(PUZZLE, Some(0), None), 2);
    assert!(r.is_mismatch());
    assert_eq!(r.error.as_deref(), Some("expected 0 solution(s), found 1"));
}

#[test]
fn counts_compare_up_to_the_limit() {
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    // The reference says 125 solutions; counting to 2 must call that a match.
    let r = solve(puzzle(multi, Some(125), None), 2);
    assert_eq!(
        (r.status, r.matches_expected),
        (Status::Multiple, Some(true))
    );
    let r = solve(puzzle(multi, Some(125), None), 1);
    assert_eq!((r.status, r.matches_expected), (Status::Solved, Some(true)));
}

#[test]
fn invalid_givens_and_parse_errors_are_not_solved() {
    let bad = format!("55{}", &PUZZLE[2..]);
    let r = solve(puzzle(&bad, Some(0), None), 2);
    assert_eq!(r.status, Status::InvalidGivens);
    assert_eq!(r.matches_expected, Some(true));
    assert_eq!(r.nodes, None);
    let r = solve(Err(ParseError::at(1, 3, "bad")), 2);
    assert_eq!(r.status, Status::ParseError);
    assert_eq!(r.error.as_deref(), Some("line 1, column 3: bad"));
}

#[test]
fn results_come_out_in_input_order() {
    let records: Vec<Item> = (1..=500)
        .map(|i| record(i, puzzle(PUZZLE, None, None)))
        .collect();
    let config = RunConfig {
        backend: Backend::DlxArena,
        limits: Limits::default(),
        threads: 3,
        verify: Default::default(),
        serial_io: None,
    };
    let mut seen: Vec<u64> = Vec::new();
    run(
        records.into_iter(),
        &config,
        |_| Numbers(Vec::new()),
        |parts| {
            seen.extend(parts.iter().flatten());
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(seen, (1..=500).collect::<Vec<_>>());
}

#[test]
fn a_sink_error_stops_the_run() {
    let records = (1..=1000).map(|i| record(i, puzzle(PUZZLE, None, None)));
    let config = RunConfig {
        backend: Backend::DlxStatic,
        limits: Limits::default(),
        threads: 2,
        verify: Default::default(),
        serial_io: None,
    };
    let mut calls = 0;
    let err = run(
        records,
        &config,
        |_| Numbers(Vec::new()),
        |_| {
            calls += 1;
            anyhow::bail!("disk full")
        },
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "disk full");
    assert_eq!(calls, 1);
}

#[test]
fn an_expected_solution_counts_only_when_the_puzzle_is_unique() {
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let other = "814762359295348671376159824153426798689571243742893165537284916921635487468917532";
    // Count unknown (`puzzle::solution`): with several solutions any valid one will do.
    let r = solve(puzzle(multi, None, Some(other)), 2);
    assert_eq!((r.status, r.matches_expected), (Status::Multiple, None));
    let r = solve(puzzle(multi, None, Some(other)), 1);
    assert_eq!(r.matches_expected, None);
    // A unique puzzle proved unique here must match the expected solution.
    let r = solve(puzzle(PUZZLE, None, Some(SOLUTION)), 2);
    assert_eq!(r.matches_expected, Some(true));
    // No solution found while the input shows one: wrong.
    let none = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";
    let r = solve(puzzle(none, None, Some(SOLUTION)), 2);
    assert_eq!(r.matches_expected, Some(false));
    // Conflicting givens cannot have the solution the input gives.
    let bad = format!("55{}", &PUZZLE[2..]);
    let r = solve(puzzle(&bad, None, Some(SOLUTION)), 2);
    assert_eq!(r.matches_expected, Some(false));
}

#[test]
fn an_unfinished_search_compares_only_what_it_knows() {
    let outcome = SolveOutcome {
        solutions: 1,
        budget_exceeded: true,
        ..SolveOutcome::default()
    };
    let e = |count| Expected {
        count: Some(count),
        solution: None,
    };
    let limits = Limits::default();
    assert_eq!(
        assess::compare_expected(&outcome, None, &e(0), &limits),
        Some(false)
    );
    assert_eq!(
        assess::compare_expected(&outcome, None, &e(1), &limits),
        None
    );
    assert_eq!(
        assess::compare_expected(&outcome, None, &e(2), &limits),
        None
    );
}

#[test]
fn a_panicking_backend_costs_one_puzzle() {
    let limits = Limits::default();
    let mut trigger = PUZZLE.to_string();
    trigger.replace_range(0..1, "6");
    let mut solver = GuardedSolver::new(&Backend::Mock(Mock::PanicsOnFirstCell(6)), &limits, None);
    let trigger = record(1, puzzle(&trigger, None, None)).into_record();
    let r = solver.solve_record(&trigger, None);
    assert_eq!(r.status, Status::Error);
    assert!(
        r.error.as_deref().unwrap().contains("the trigger puzzle"),
        "{:?}",
        r.error
    );
    assert!(r.is_mismatch());
    // The broken solver was replaced; the next puzzle is solved.
    let next = record(2, puzzle(PUZZLE, None, None)).into_record();
    let r = solver.solve_record(&next, None);
    assert_eq!(r.status, Status::Unique);
}

/// Runs of records after blocks are split: the reader's own records join the run before
/// them, a block keeps the count of records before it, and a batching backend gets one
/// run (a block's edge used to leave it batches of one record).
#[test]
fn split_blocks_group_into_runs_numbered_in_order() {
    use crate::format::Reading;
    use std::sync::Arc;
    use std::sync::atomic::AtomicU64;
    let block = |reading: &Arc<Reading>| LineBlock {
        bytes: Vec::new(),
        first_line: 1,
        lines: 0,
        cut: None,
        reading: Arc::clone(reading),
    };
    let split = |reading: &Arc<Reading>| {
        let b = Some(block(reading));
        vec![
            (vec![record(1, puzzle(PUZZLE, None, None))], None),
            (vec![record(2, puzzle(PUZZLE, None, None))], None),
            (
                (1..=3)
                    .map(|n| record(n, puzzle(PUZZLE, None, None)))
                    .collect(),
                b,
            ),
            (vec![record(6, puzzle(PUZZLE, None, None))], None),
        ]
    };
    let reading = || {
        Arc::new(Reading {
            numbering: AtomicU64::new(2),
            ..Default::default()
        })
    };
    let numbering = reading();
    let runs = group(split(&numbering), false);
    let shape: Vec<(Vec<u64>, u64)> = runs
        .iter()
        .map(|(items, before)| (items.iter().map(|r| r.number).collect(), *before))
        .collect();
    assert_eq!(
        shape,
        [(vec![1, 2], 0), (vec![1, 2, 3], 2), (vec![6], 0)],
        "runs and counts before them"
    );
    assert_eq!(
        numbering
            .numbering
            .load(std::sync::atomic::Ordering::Relaxed),
        5
    );
    let numbering = reading();
    let runs = group(split(&numbering), true);
    assert_eq!(runs.len(), 1);
    let numbers: Vec<u64> = runs[0].0.iter().map(|r| r.number).collect();
    assert_eq!((numbers, runs[0].1), (vec![1, 2, 3, 4, 5, 6], 0));
}

/// Red-team finding: a foreign solver answering `1:` (or a library returning 1 without
/// writing a grid) was reported `unique` and exit 0; the claim cannot be checked.
#[test]
fn a_count_without_a_solution_is_not_trusted() {
    let r = record(1, puzzle(PUZZLE, None, None)).into_record();
    let attempt = Attempt::Solved {
        outcome: SolveOutcome {
            solutions: 1,
            ..SolveOutcome::default()
        },
        square: None,
        time_ns: 5,
        note: None,
    };
    let limits = Limits::default();
    let assessor =
        |backend, attempt| assess::assess(backend, true, &limits, &r, attempt, None, None);
    let result = assessor("liar", attempt);
    assert_eq!(result.valid, Some(false));
    assert!(result.is_mismatch());
    assert!(result.error.unwrap().contains("gave none"));
    // No solution and a count of 0 is an honest "none".
    let attempt = Attempt::Solved {
        outcome: SolveOutcome::default(),
        square: None,
        time_ns: 5,
        note: None,
    };
    let result = assessor("honest", attempt);
    assert_eq!((result.status, result.valid), (Status::NoSolution, None));
}
