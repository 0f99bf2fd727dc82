//! The per-puzzle CSV: exactly one row per input record, in input order.

use std::io::Write;

use serde::Serialize;

use crate::grid::CELLS;
use crate::run::PuzzleResult;

/// The columns, in order. The README documents each one.
pub const COLUMNS: [&str; 16] = [
    "source",
    "record",
    "line",
    "backend",
    "status",
    "solutions",
    "clues",
    "valid",
    "matches_expected",
    "nodes",
    "guesses",
    "time_ns",
    "thread",
    "puzzle",
    "solution",
    "error",
];

#[derive(Serialize)]
struct Row<'a> {
    source: &'a str,
    record: u64,
    line: u64,
    backend: &'static str,
    status: &'static str,
    solutions: u32,
    clues: Option<usize>,
    valid: Option<bool>,
    matches_expected: Option<bool>,
    nodes: u64,
    guesses: u64,
    time_ns: u64,
    thread: Option<usize>,
    puzzle: &'a str,
    solution: &'a str,
    error: &'a str,
}

/// Writes result rows as CSV with a header.
pub struct CsvReport<W: Write> {
    writer: csv::Writer<W>,
}

impl<W: Write> CsvReport<W> {
    pub fn new(out: W) -> csv::Result<CsvReport<W>> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        writer.write_record(COLUMNS)?;
        Ok(CsvReport { writer })
    }

    pub fn write(&mut self, r: &PuzzleResult) -> csv::Result<()> {
        let puzzle = r.puzzle.map(|g| g.to_line_with(b'.'));
        let solution = r.solution.map(|g| g.to_line_with(b'0'));
        self.writer.serialize(Row {
            source: &r.source,
            record: r.number,
            line: r.line,
            backend: r.backend.name(),
            status: r.status.name(),
            solutions: r.solutions,
            clues: r.puzzle.map(|g| g.clues()),
            valid: r.valid,
            matches_expected: r.matches_expected,
            nodes: r.nodes,
            guesses: r.guesses,
            time_ns: r.time_ns,
            thread: r.thread,
            puzzle: puzzle.as_ref().map_or("", |b| ascii(b)),
            solution: solution.as_ref().map_or("", |b| ascii(b)),
            error: r.error.as_deref().unwrap_or(""),
        })
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }

    pub fn into_inner(self) -> Result<W, std::io::Error> {
        self.writer.into_inner().map_err(|e| e.into_error())
    }
}

fn ascii(bytes: &[u8; CELLS]) -> &str {
    // Grid lines are ASCII digits and '.', always valid UTF-8.
    std::str::from_utf8(bytes).expect("grid lines are ASCII")
}
