//! What the loader yields: one record per puzzle in the input, parse failures included.

use std::fmt;
use std::sync::Arc;

use crate::grid::Grid;

/// One input record: where it came from and either a puzzle or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The file it came from (`-` for standard input).
    pub source: Arc<str>,
    /// 1-based ordinal of the record within its source (the case number for judge formats).
    pub number: u64,
    /// 1-based line of the source where the record starts.
    pub line: u64,
    pub body: Result<Puzzle, ParseError>,
}

/// A puzzle and, when the input says so, the answer it should have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub grid: Grid,
    /// Boxed: few inputs give one, and a smaller `Record` is cheaper to move around.
    pub expected: Option<Box<Expected>>,
}

impl Puzzle {
    pub fn new(grid: Grid) -> Puzzle {
        Puzzle {
            grid,
            expected: None,
        }
    }
}

/// An expected answer from the input (`puzzle:count:solution` lines, a CSV solution column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Expected {
    /// Number of solutions the puzzle has (reference files write `2` for "two or more").
    pub count: Option<u64>,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<Grid>,
}

/// A malformed record: the line (and column, where it helps) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
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
            line,
            column: Some(column),
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {}: {}", self.line, c, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}
