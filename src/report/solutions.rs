//! The solutions file: one `puzzle:count:solution` line per record, the same form as the
//! reference `*.solved` files, so it can be fed back as an input with expected answers.

use std::io::Write;

use super::RowFormat;
use crate::run::{PuzzleResult, Status};

pub struct SolutionsRows;

impl RowFormat for SolutionsRows {
    fn row(&mut self, r: &PuzzleResult, out: &mut Vec<u8>) {
        let Some(puzzle) = &r.puzzle else {
            // Keep one line per record: a parse error becomes a comment.
            let error = r.error.as_deref().unwrap_or("").replace(['\n', '\r'], " ");
            let source = r.source.replace(['\n', '\r'], " ");
            let _ = writeln!(out, "# {source}:{}: {error}", r.line);
            return;
        };
        puzzle.write_line_with(b'.', out);
        // The count only where the search ran to its end (`puzzle::` leaves it unknown:
        // the search stopped early, was interrupted or failed, or stopped at the first
        // solution), so the file read back never claims what was not found.
        use Status::{InvalidGivens, Multiple, NoSolution, Unique};
        if matches!(r.status, Unique | Multiple | NoSolution | InvalidGivens) {
            let _ = write!(out, ":{}:", r.solutions);
        } else {
            out.extend_from_slice(b"::");
        }
        if let (Some(s), Status::Unique | Status::Solved) = (&r.solution, r.status)
            && r.valid == Some(true)
        {
            s.write_line_with(b'0', out);
        }
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";

    #[test]
    fn unfinished_searches_leave_the_count_empty() {
        let line = |status: Status, solutions: u32| {
            let r = PuzzleResult {
                source: "s".into(),
                number: 1,
                line: 1,
                backend: "b",
                status,
                puzzle: Some(Box::leak(Box::new(P.parse().unwrap()))),
                solutions,
                solution: None,
                valid: None,
                matches_expected: None,
                nodes: None,
                guesses: None,
                time_ns: 0,
                clock: crate::solver::Clock::Harness,
                unseen_ns: 0,
                verified: crate::run::Verification::None,
                thread: None,
                error: None,
            };
            let mut out = Vec::new();
            SolutionsRows.row(&r, &mut out);
            String::from_utf8(out).unwrap()
        };
        for status in [
            Status::Interrupted,
            Status::Error,
            Status::NotSolved,
            Status::BudgetExceeded,
            Status::Solved,
        ] {
            assert_eq!(line(status, 0), format!("{P}::\n"), "{status:?}");
        }
        assert_eq!(line(Status::NoSolution, 0), format!("{P}:0:\n"));
        assert_eq!(line(Status::InvalidGivens, 0), format!("{P}:0:\n"));
        assert_eq!(line(Status::Multiple, 2), format!("{P}:2:\n"));
    }
}
