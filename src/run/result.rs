//! What became of one record: its status and everything the outputs report.

use crate::record::{Record, SourceName};

use crate::board::{Board, Square};
use crate::solver::{Clock, SolveOutcome};

/// What happened when a record met the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Not solved: a parse error, or conflicting givens.
    Skipped,
    Solved {
        outcome: SolveOutcome,
        /// The solution of a board that is not 9x9 (a 9x9 one is in `outcome`).
        square: Option<Box<Square>>,
        time_ns: u64,
        /// Why a search that stopped early stopped, when the solver said (a program
        /// that gave up, or never answered).
        note: Option<String>,
    },
    /// The backend does not solve boards of this size.
    Unsupported,
    /// The backend panicked, with this message.
    Panicked { message: String, time_ns: u64 },
    /// The backend failed (a foreign program died or answered nonsense), with why.
    Failed { message: String, time_ns: u64 },
}

impl Attempt {
    /// The call's time (0 where none was made).
    pub fn time_ns(&self) -> u64 {
        match self {
            Attempt::Solved { time_ns, .. }
            | Attempt::Panicked { time_ns, .. }
            | Attempt::Failed { time_ns, .. } => *time_ns,
            Attempt::Skipped | Attempt::Unsupported => 0,
        }
    }
}

named! {
    /// How a record ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Status {
        /// Exactly one solution (counted up to two).
        Unique => "unique",
        /// A solution was found; uniqueness was not checked (`--max-solutions 1`).
        Solved => "solved",
        /// Two or more solutions.
        Multiple => "multiple",
        NoSolution => "no_solution",
        /// Two givens conflict; not solved.
        InvalidGivens => "invalid_givens",
        /// The node budget or the time limit ran out first.
        BudgetExceeded => "budget_exceeded",
        /// The record could not be read as a puzzle.
        ParseError => "parse_error",
        /// The backend failed on this puzzle (it panicked); the message is in `error`.
        Error => "error",
        /// An interrupt (Ctrl-C) abandoned the search.
        Interrupted => "interrupted",
        /// The `null` backend solves nothing: it measures the harness.
        NotSolved => "not_solved",
        /// The backend does not solve boards of this size (9x9 only, or 16x16 only).
        Unsupported => "unsupported",
        /// The backend's claim (no solution, unique, multiple) was refuted by the verifier:
        /// a wrong answer; `error` says what was claimed and what is true.
        Refuted => "refuted",
    }
}

impl Status {
    /// True when the record's puzzle reached the solver (and its call was timed).
    pub fn reached_solver(self) -> bool {
        !matches!(
            self,
            Status::ParseError | Status::InvalidGivens | Status::Unsupported
        )
    }
}

/// Everything known about one record after solving it. It borrows the record's puzzle
/// instead of copying it: a result lives only while its rows are written and its
/// counts taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleResult<'r> {
    pub source: SourceName,
    pub number: u64,
    pub line: u64,
    /// The backend's name (or a bench label), made once for the process's life.
    pub backend: &'static str,
    pub status: Status,
    pub puzzle: Option<&'r Board>,
    pub solutions: u32,
    pub solution: Option<Board>,
    /// The independent check of `solution`.
    pub valid: Option<bool>,
    /// Agreement with the answer the input gave, when it gave one.
    pub matches_expected: Option<bool>,
    /// Search-tree nodes and guesses, where the backend counted them.
    pub nodes: Option<u64>,
    pub guesses: Option<u64>,
    pub time_ns: u64,
    /// Where `time_ns` comes from.
    pub clock: Clock,
    /// Time the harness saw the solver spend beyond `time_ns` (see `SolveOutcome`).
    pub unseen_ns: u64,
    /// What the verifier made of the backend's claim.
    pub verified: Verification,
    /// Index of the rayon thread that solved it.
    pub thread: Option<usize>,
    pub error: Option<String>,
}

/// What the verifier made of a backend's claim about a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verification {
    /// Nothing to verify, or not verified (a built-in backend, by default).
    #[default]
    None,
    /// The verifier found the same count.
    Confirmed,
    /// The verifier found another count: a wrong answer (`Status::Refuted`).
    Refuted,
    /// The verifier ran out of its budget before it knew.
    Unknown,
}

impl Verification {
    /// The CSV's `verified` field: `true`, `false`, or empty.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Verification::Confirmed => Some(true),
            Verification::Refuted => Some(false),
            Verification::None | Verification::Unknown => None,
        }
    }
}

impl<'r> PuzzleResult<'r> {
    /// The result of `record` before anything is known of it (a parse error until its
    /// puzzle is looked at).
    #[inline]
    pub fn blank(record: &Record, backend: &'static str, thread: Option<usize>) -> Self {
        PuzzleResult {
            source: record.source,
            number: record.number,
            line: record.line,
            backend,
            status: Status::ParseError,
            puzzle: None,
            solutions: 0,
            solution: None,
            valid: None,
            matches_expected: None,
            nodes: None,
            guesses: None,
            time_ns: 0,
            clock: Clock::Harness,
            unseen_ns: 0,
            verified: Verification::None,
            thread,
            error: None,
        }
    }

    /// True when the answer is wrong: an invalid solution, a disagreement with the
    /// input, a claim the verifier refuted, or a backend that failed.
    pub fn is_mismatch(&self) -> bool {
        self.valid == Some(false)
            || self.matches_expected == Some(false)
            || matches!(self.status, Status::Error | Status::Refuted)
    }
}
