//! The solutions file: one `puzzle:count:solution` line per record, the same form as the
//! reference `*.solved` files, so it can be fed back as an input with expected answers.

use std::io::Write;

use crate::run::{PuzzleResult, Status};

pub struct SolutionsReport<W: Write> {
    out: W,
}

impl<W: Write> SolutionsReport<W> {
    pub fn new(out: W) -> SolutionsReport<W> {
        SolutionsReport { out }
    }

    pub fn write(&mut self, r: &PuzzleResult) -> std::io::Result<()> {
        let Some(puzzle) = r.puzzle else {
            // Keep one line per record: a parse error becomes a comment.
            let error = r.error.as_deref().unwrap_or("").replace(['\n', '\r'], " ");
            return writeln!(self.out, "# {}:{}: {}", r.source, r.line, error);
        };
        self.out.write_all(&puzzle.to_line_with(b'.'))?;
        // The count is left empty where it is not known: the search stopped early, or
        // stopped at the first solution (`--max-solutions 1`).
        match r.status {
            Status::BudgetExceeded | Status::Solved => self.out.write_all(b"::")?,
            _ => write!(self.out, ":{}:", r.solutions)?,
        }
        if let (Some(s), Status::Unique | Status::Solved) = (r.solution, r.status) {
            if r.valid == Some(true) {
                self.out.write_all(&s.to_line_with(b'0'))?;
            }
        }
        self.out.write_all(b"\n")
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
