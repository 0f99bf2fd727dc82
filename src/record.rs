//! What the loader yields: one record per puzzle in the input, parse failures included.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, Mutex};

use crate::board::Board;

/// One input record: where it came from and either a puzzle or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The file it came from (`-` for standard input).
    pub source: SourceName,
    /// 1-based ordinal of the record within its source (a judge format's case number).
    pub number: u64,
    /// 1-based line of the source where the record starts.
    pub line: u64,
    pub puzzle: Result<Puzzle, ParseError>,
}

/// The name of a source, carried by its records and results, with how it was read.
/// Every source opened gets its own ([`SourceName::same`] tells two of one name apart).
/// It is `Copy`, one pointer: an `Arc` counted up and down on every thread cost 115 ns a
/// record, so what it points to is kept for the process's life, counted against the
/// memory budget by whoever makes it ([`SourceName::held_bytes`]).
#[derive(Clone, Copy)]
pub struct SourceName(&'static Source);

/// What a [`SourceName`] points to.
struct Source {
    name: Box<str>,
    reading: Option<Reading>,
    /// Lines of it the workers skipped as holding no puzzle (its records parsed there).
    skipped: Option<Skipped>,
}

/// Lines that held no puzzle, counted where they are parsed (by the reader, or on the
/// caller's threads for blocks of lines: the clones share one count), and the first of
/// them by line number with the start of its text.
#[derive(Clone, Debug, Default)]
pub struct Skipped(Arc<Mutex<(u64, Option<FirstSkipped>)>>);

/// A skipped line's number and the start of its text.
pub type FirstSkipped = (u64, String);

impl Skipped {
    /// `n` lines skipped, the first of them `line` (its text `bytes`).
    pub fn add(&self, n: u64, line: u64, bytes: &[u8]) {
        let mut s = crate::base::lock(&self.0);
        s.0 += n;
        if s.1.as_ref().is_none_or(|first| line < first.0) {
            let text = String::from_utf8_lossy(bytes.trim_ascii());
            s.1 = Some((line, text.chars().take(60).collect()));
        }
    }

    /// How many, and the first.
    pub fn get(&self) -> (u64, Option<FirstSkipped>) {
        crate::base::lock(&self.0).clone()
    }
}

/// How a source was read, for the summary and for the note on a source mostly unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The format's name.
    pub format: &'static str,
    /// Chosen from the content (not forced by `--format`).
    pub detected: bool,
    /// Its records may be parsed on the worker threads: whether most of them could not
    /// be read is judged from the run's counts, not the reader's.
    pub parsed_later: bool,
}

impl SourceName {
    pub fn new(name: &str, reading: Option<Reading>, skipped: Option<Skipped>) -> Self {
        SourceName(Box::leak(Box::new(Source {
            name: name.into(),
            reading,
            skipped,
        })))
    }

    /// Lines the workers skipped as holding no puzzle, where they parsed its records.
    pub fn skipped(&self) -> Option<&Skipped> {
        self.0.skipped.as_ref()
    }

    /// The bytes a name holds for the life of the process.
    pub fn held_bytes(name: &str) -> u64 {
        // The allocator's header on each of the two allocations.
        (std::mem::size_of::<Source>() + name.len() + 32 + 32) as u64
    }

    /// The same source, not just the same name.
    pub fn same(&self, other: &SourceName) -> bool {
        std::ptr::eq(self.0, other.0)
    }

    pub fn reading(&self) -> Option<Reading> {
        self.0.reading
    }
}

impl Deref for SourceName {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0.name
    }
}

impl From<&str> for SourceName {
    fn from(name: &str) -> SourceName {
        SourceName::new(name, None, None)
    }
}

/// Names compare as text: [`SourceName::same`] compares sources.
impl PartialEq for SourceName {
    fn eq(&self, other: &SourceName) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for SourceName {}

impl fmt::Debug for SourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0.name, f)
    }
}

impl fmt::Display for SourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.name)
    }
}

/// A puzzle and, when the input says so, the answer it should have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens: 9x9 inline, other sizes boxed.
    pub board: Board,
    /// Boxed: few inputs give one, and a smaller `Record` is cheaper to move around.
    pub expected: Option<Box<Expected>>,
}

impl Puzzle {
    pub fn new(board: impl Into<Board>) -> Puzzle {
        Puzzle {
            board: board.into(),
            expected: None,
        }
    }
}

/// The bytes a record's body holds on the heap (a source's name is shared, not counted).
pub(crate) fn heap_bytes(puzzle: &Result<Puzzle, ParseError>) -> usize {
    match puzzle {
        Ok(Puzzle { board, expected }) => {
            let solution = expected.as_ref().and_then(|e| e.solution.as_ref());
            let expected = expected.as_ref().map_or(0, |_| size_of::<Expected>());
            board.heap_bytes() + expected + solution.map_or(0, Board::heap_bytes)
        }
        Err(e) => e.message.capacity(),
    }
}

impl crate::base::bounds::Held for Record {
    fn held_bytes(&self) -> u64 {
        (std::mem::size_of::<Record>() + heap_bytes(&self.puzzle)) as u64
    }
}

/// An expected answer from the input (`puzzle:count:solution` lines, a CSV solution column).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Expected {
    /// Number of solutions the puzzle has (reference files write `2` for "two or more").
    pub count: Option<u64>,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<Board>,
}

/// A malformed record: the line (and column, where it helps) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", .column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct ParseError {
    pub line: u64,
    pub column: Option<usize>,
    pub message: String,
}

impl ParseError {
    pub fn new(line: u64, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column: None,
            message: message.into(),
        }
    }

    pub fn at(line: u64, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            column: Some(column),
            ..ParseError::new(line, message)
        }
    }
}
