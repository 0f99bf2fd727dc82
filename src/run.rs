//! The parallel runner: solves records chunk by chunk on a rayon pool, each thread with
//! its own solver, and hands results on in input order.
//!
//! Records are read a chunk at a time (sized to about a quarter of a second of work) and a
//! chunk's results are written before the next chunk is read, so memory stays flat
//! however long the input is.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::grid::Grid;
use crate::record::{Expected, Record};
use crate::solver::{Backend, Limits, SolveOutcome, Solver};

/// How a record ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Exactly one solution (counted up to two).
    Unique,
    /// A solution was found; uniqueness was not checked (`--max-solutions 1`).
    Solved,
    /// Two or more solutions.
    Multiple,
    NoSolution,
    /// Two givens conflict; not solved.
    InvalidGivens,
    /// The node budget ran out first.
    BudgetExceeded,
    /// The record could not be read as a puzzle.
    ParseError,
    /// The backend failed on this puzzle (it panicked); the message is in `error`.
    Error,
    /// An interrupt (Ctrl-C) abandoned the search.
    Interrupted,
    /// The `null` backend solves nothing: it measures the harness.
    NotSolved,
}

impl Status {
    pub const ALL: [Status; 10] = [
        Status::Unique,
        Status::Solved,
        Status::Multiple,
        Status::NoSolution,
        Status::InvalidGivens,
        Status::BudgetExceeded,
        Status::ParseError,
        Status::Error,
        Status::Interrupted,
        Status::NotSolved,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::NoSolution => "no_solution",
            Status::InvalidGivens => "invalid_givens",
            Status::BudgetExceeded => "budget_exceeded",
            Status::ParseError => "parse_error",
            Status::Error => "error",
            Status::Interrupted => "interrupted",
            Status::NotSolved => "not_solved",
        }
    }
}

/// Everything known about one record after solving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleResult {
    pub source: Arc<str>,
    pub number: u64,
    pub line: u64,
    pub backend: Backend,
    pub status: Status,
    pub puzzle: Option<Grid>,
    pub solutions: u32,
    pub solution: Option<Grid>,
    /// The independent check of `solution`.
    pub valid: Option<bool>,
    /// Agreement with the answer the input gave, when it gave one.
    pub matches_expected: Option<bool>,
    pub nodes: u64,
    pub guesses: u64,
    pub time_ns: u64,
    /// Index of the rayon thread that solved it.
    pub thread: Option<usize>,
    pub error: Option<String>,
}

impl PuzzleResult {
    /// True when the answer is wrong: an invalid solution, a disagreement with the
    /// input, or a backend that failed.
    pub fn is_mismatch(&self) -> bool {
        self.valid == Some(false)
            || self.matches_expected == Some(false)
            || self.status == Status::Error
    }
}

/// What happened when a record met the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Not solved: a parse error, or conflicting givens.
    Skipped,
    Solved {
        outcome: SolveOutcome,
        time_ns: u64,
    },
    /// The backend panicked, with this message.
    Panicked {
        message: String,
        time_ns: u64,
    },
}

/// Solves one record: checks the givens, times the solver, checks the answer.
pub fn solve_record(
    solver: &mut Box<dyn Solver>,
    backend: Backend,
    limits: &Limits,
    record: &Record,
) -> PuzzleResult {
    let attempt = match &record.body {
        Ok(puzzle) if puzzle.grid.find_conflict().is_none() => {
            attempt(solver, backend, &puzzle.grid, limits)
        }
        _ => Attempt::Skipped,
    };
    assess(
        record,
        backend,
        limits,
        attempt,
        rayon::current_thread_index(),
    )
}

/// Runs and times the solver. A panic is caught and becomes `Attempt::Panicked`, and the
/// solver is replaced: the panic may have left its state broken.
pub fn attempt(
    solver: &mut Box<dyn Solver>,
    backend: Backend,
    grid: &Grid,
    limits: &Limits,
) -> Attempt {
    let start = Instant::now();
    let mut limits = *limits;
    if let Some(timeout) = limits.timeout {
        limits.deadline = Some(start + timeout);
    }
    let limits = &limits;
    let caught = std::panic::catch_unwind(AssertUnwindSafe(|| solver.solve(grid, limits)));
    let time_ns = start.elapsed().as_nanos() as u64;
    match caught {
        Ok(outcome) => Attempt::Solved { outcome, time_ns },
        Err(payload) => {
            *solver = backend.new_solver();
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            Attempt::Panicked { message, time_ns }
        }
    }
}

/// The result for a record given what the solver did with it. Checks the solution
/// independently and compares it with the expected answer.
pub fn assess(
    record: &Record,
    backend: Backend,
    limits: &Limits,
    attempt: Attempt,
    thread: Option<usize>,
) -> PuzzleResult {
    let mut result = PuzzleResult {
        source: record.source.clone(),
        number: record.number,
        line: record.line,
        backend,
        status: Status::ParseError,
        puzzle: None,
        solutions: 0,
        solution: None,
        valid: None,
        matches_expected: None,
        nodes: 0,
        guesses: 0,
        time_ns: 0,
        thread,
        error: None,
    };
    let puzzle = match &record.body {
        Ok(puzzle) => puzzle,
        Err(e) => {
            result.error = Some(e.to_string());
            return result;
        }
    };
    result.puzzle = Some(puzzle.grid);
    let (outcome, time_ns) = match attempt {
        Attempt::Solved { outcome, time_ns } => (outcome, time_ns),
        Attempt::Panicked { message, time_ns } => {
            result.status = Status::Error;
            result.time_ns = time_ns;
            result.error = Some(format!("{backend} panicked: {message}"));
            return result;
        }
        Attempt::Skipped => {
            result.status = Status::InvalidGivens;
            result.error = puzzle.grid.find_conflict().map(|c| c.to_string());
            result.matches_expected = puzzle
                .expected
                .as_deref()
                .and_then(compare_expected_invalid);
            return result;
        }
    };
    result.time_ns = time_ns;
    if !backend.is_solver() {
        result.status = Status::NotSolved;
        return result;
    }
    result.status = status_of(&outcome, limits);
    if outcome.budget_exceeded {
        result.error = Some(if outcome.cancelled {
            "interrupted: the search was abandoned".to_string()
        } else if outcome.timed_out {
            match limits.timeout {
                Some(t) => format!("timed out after {}", humanize(t)),
                None => "timed out".to_string(),
            }
        } else {
            format!("ran out of the node budget ({} nodes)", limits.max_nodes)
        });
    }
    result.solutions = outcome.solutions;
    result.solution = outcome.solution;
    result.nodes = outcome.nodes;
    result.guesses = outcome.guesses;
    if let Some(solution) = outcome.solution {
        let check = solution.check_solution_of(&puzzle.grid);
        result.valid = Some(check.is_ok());
        if let Err(e) = check {
            result.error = Some(format!("{backend} returned an invalid solution: {e}"));
        }
    }
    if let Some(expected) = &puzzle.expected {
        result.matches_expected = compare_expected(&outcome, expected, limits);
        if result.matches_expected == Some(false) && result.error.is_none() {
            result.error = Some(describe_mismatch(&outcome, expected, limits));
        }
    }
    result
}

fn status_of(outcome: &SolveOutcome, limits: &Limits) -> Status {
    match outcome.solutions {
        _ if outcome.cancelled => Status::Interrupted,
        _ if outcome.budget_exceeded => Status::BudgetExceeded,
        0 => Status::NoSolution,
        1 if limits.max_solutions == 1 => Status::Solved,
        1 => Status::Unique,
        _ => Status::Multiple,
    }
}

/// Compares with the input's answer; `None` when there is nothing to compare.
///
/// Counts are compared up to `max_solutions` (the reference files write 2 for "two or
/// more"). An expected solution is the answer only when the puzzle has exactly one,
/// which the input or this search must establish; otherwise it only shows that a
/// solution exists. An unfinished search knows only a lower bound on the count.
fn compare_expected(outcome: &SolveOutcome, expected: &Expected, limits: &Limits) -> Option<bool> {
    let cap = limits.max_solutions as u64;
    let found = outcome.solutions as u64;
    let count_ok = expected.count.and_then(|want| {
        if outcome.budget_exceeded {
            (found > want).then_some(false)
        } else {
            Some(want.min(cap) == found.min(cap))
        }
    });
    let proved_unique = found == 1 && cap >= 2 && !outcome.budget_exceeded;
    let solution_ok = expected.solution.and_then(|want| match outcome.solution {
        None if outcome.budget_exceeded => None,
        None => Some(false),
        Some(got) => (expected.count == Some(1) || proved_unique).then_some(got == want),
    });
    both(count_ok, solution_ok)
}

/// Conflicting givens have no solution: right only if the input expected none.
fn compare_expected_invalid(expected: &Expected) -> Option<bool> {
    both(
        expected.count.map(|c| c == 0),
        expected.solution.map(|_| false),
    )
}

fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(true) && b.unwrap_or(true)),
    }
}

fn describe_mismatch(outcome: &SolveOutcome, expected: &Expected, limits: &Limits) -> String {
    let cap = limits.max_solutions as u64;
    match expected.count {
        Some(c) if c.min(cap) != (outcome.solutions as u64).min(cap) => format!(
            "expected {} solution(s), found {}",
            if c >= cap && cap > 1 {
                format!("{cap} or more")
            } else {
                c.to_string()
            },
            outcome.solutions
        ),
        _ => "the solution differs from the expected one".to_string(),
    }
}

/// Settings of one run.
#[derive(Clone, Copy, Debug)]
pub struct RunConfig {
    pub backend: Backend,
    pub limits: Limits,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
}

/// Aim for chunks that take about this long, so progress is smooth and memory flat.
const CHUNK_TARGET: Duration = Duration::from_millis(250);
const MAX_CHUNK: usize = 8192;

/// Pulls records from `records`, solves them on `config.threads` threads and passes the
/// results, in input order, to `sink` a chunk at a time. Stops at the first sink error.
/// Returns the number of threads used.
///
/// While one chunk is solved, the previous one is written and the next one read on
/// another pool thread, so the serial I/O overlaps the solving; at most three chunks
/// are in memory at once.
pub fn run<I, S>(records: I, config: &RunConfig, mut sink: S) -> anyhow::Result<usize>
where
    I: Iterator<Item = Record> + Send,
    S: FnMut(&[PuzzleResult]) -> anyhow::Result<()> + Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()?;
    let threads = pool.current_num_threads();
    let mut records = records;
    let mut chunk_len = 16 * threads;
    let mut current: Vec<Record> = records.by_ref().take(chunk_len).collect();
    let mut solved: Vec<PuzzleResult> = Vec::new();
    while !current.is_empty() {
        let start = Instant::now();
        let (results, next) = pool.install(|| {
            rayon::join(
                || solve_chunk(&current, config),
                || -> anyhow::Result<Vec<Record>> {
                    if !solved.is_empty() {
                        sink(&solved)?;
                    }
                    Ok(records.by_ref().take(chunk_len).collect())
                },
            )
        });
        let next = next?;
        chunk_len = next_chunk_len(current.len(), start.elapsed(), threads);
        solved = results;
        current = next;
    }
    if !solved.is_empty() {
        sink(&solved)?;
    }
    Ok(threads)
}

fn solve_chunk(chunk: &[Record], config: &RunConfig) -> Vec<PuzzleResult> {
    chunk
        .par_iter()
        .map_init(
            || config.backend.new_solver(),
            |solver, record| solve_record(solver, config.backend, &config.limits, record),
        )
        .collect()
}

/// Scales the chunk so the next one takes about `CHUNK_TARGET`.
fn next_chunk_len(done: usize, took: Duration, threads: usize) -> usize {
    let per_second = done as f64 / took.as_secs_f64().max(1e-6);
    let wanted = (per_second * CHUNK_TARGET.as_secs_f64()) as usize;
    wanted.clamp(threads.max(1), MAX_CHUNK)
}

/// A duration for a message: `2s`, `1.5s`, `250ms`.
fn humanize(d: Duration) -> String {
    if d >= Duration::from_secs(1) {
        format!("{}s", d.as_secs_f64())
    } else {
        format!("{}ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ParseError, Puzzle};

    const PUZZLE: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    const SOLUTION: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    fn record(number: u64, body: Result<Puzzle, ParseError>) -> Record {
        Record {
            source: "test".into(),
            number,
            line: number,
            body,
        }
    }

    fn puzzle(p: &str, count: Option<u64>, solution: Option<&str>) -> Result<Puzzle, ParseError> {
        Ok(Puzzle {
            grid: p.parse().unwrap(),
            expected: Some(Box::new(Expected {
                count,
                solution: solution.map(|s| s.parse().unwrap()),
            })),
        })
    }

    fn solve(body: Result<Puzzle, ParseError>, max_solutions: u32) -> PuzzleResult {
        let limits = Limits {
            max_solutions,
            ..Limits::default()
        };
        let mut solver = Backend::DlxStatic.new_solver();
        solve_record(&mut solver, Backend::DlxStatic, &limits, &record(1, body))
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
        let multi =
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
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
        assert_eq!(r.nodes, 0);
        let r = solve(Err(ParseError::at(1, 3, "bad")), 2);
        assert_eq!(r.status, Status::ParseError);
        assert_eq!(r.error.as_deref(), Some("line 1, column 3: bad"));
    }

    #[test]
    fn results_come_out_in_input_order() {
        let records: Vec<Record> = (1..=500)
            .map(|i| record(i, puzzle(PUZZLE, None, None)))
            .collect();
        let config = RunConfig {
            backend: Backend::DlxArena,
            limits: Limits::default(),
            threads: 3,
        };
        let mut seen = Vec::new();
        run(records.into_iter(), &config, |chunk| {
            seen.extend(chunk.iter().map(|r| r.number));
            Ok(())
        })
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
        };
        let mut calls = 0;
        let err = run(records, &config, |_| {
            calls += 1;
            anyhow::bail!("disk full")
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(calls, 1);
    }

    #[test]
    fn an_expected_solution_counts_only_when_the_puzzle_is_unique() {
        let multi =
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
        let other =
            "814762359295348671376159824153426798689571243742893165537284916921635487468917532";
        // Count unknown (`puzzle::solution`): with several solutions any valid one will do.
        let r = solve(puzzle(multi, None, Some(other)), 2);
        assert_eq!((r.status, r.matches_expected), (Status::Multiple, None));
        let r = solve(puzzle(multi, None, Some(other)), 1);
        assert_eq!(r.matches_expected, None);
        // A unique puzzle proved unique here must match the expected solution.
        let r = solve(puzzle(PUZZLE, None, Some(SOLUTION)), 2);
        assert_eq!(r.matches_expected, Some(true));
        // No solution found while the input shows one: wrong.
        let none =
            "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";
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
        assert_eq!(compare_expected(&outcome, &e(0), &limits), Some(false));
        assert_eq!(compare_expected(&outcome, &e(1), &limits), None);
        assert_eq!(compare_expected(&outcome, &e(2), &limits), None);
    }

    /// Panics on one puzzle, solves the rest with a real backend.
    struct PanicsOnFirstCell(u8, Box<dyn Solver>);

    impl Solver for PanicsOnFirstCell {
        fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
            assert_ne!(puzzle.get(0), self.0, "the trigger puzzle");
            self.1.solve(puzzle, limits)
        }
    }

    #[test]
    fn a_panicking_backend_costs_one_puzzle() {
        let limits = Limits::default();
        let mut trigger = PUZZLE.to_string();
        trigger.replace_range(0..1, "6");
        let mut solver: Box<dyn Solver> =
            Box::new(PanicsOnFirstCell(6, Backend::DlxStatic.new_solver()));
        let r = solve_record(
            &mut solver,
            Backend::DlxStatic,
            &limits,
            &record(1, puzzle(&trigger, None, None)),
        );
        assert_eq!(r.status, Status::Error);
        assert!(
            r.error.as_deref().unwrap().contains("the trigger puzzle"),
            "{:?}",
            r.error
        );
        assert!(r.is_mismatch());
        // The broken solver was replaced; the next puzzle is solved.
        let r = solve_record(
            &mut solver,
            Backend::DlxStatic,
            &limits,
            &record(2, puzzle(PUZZLE, None, None)),
        );
        assert_eq!(r.status, Status::Unique);
    }
}
