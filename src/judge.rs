//! Judge modes: behave exactly like an accepted solution to HDU 1426 or POJ 3074.

use crate::record::SourceName;
use std::io::BufRead;

use crate::base::interrupt;
use crate::board::Square;
use crate::format::Format;
use crate::format::lines::Lines;
use crate::format::{Notes, RawRecord, RecordReader};
use crate::output::RowStream;
use crate::record::Record;
use crate::record::{ParseError, Puzzle};
use crate::run::{GuardedSolver, Status};
use crate::solver::{Backend, Limits};

// Described once, in `solver::exec`, for `exec:PROBLEM:CMD` submissions too.
pub use crate::solver::exec::Problem;

/// Cases read, cases that could not be answered (reported on stderr), and of those the
/// ones the backend got wrong or failed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeReport {
    pub cases: u64,
    pub failed: u64,
    pub wrong: u64,
    pub interrupted: bool,
}

/// Cases between two writes of the output.
const COMMIT_EVERY: u64 = 256;

/// Reads the judge's input from `input` and writes its expected output to `out`.
/// A case that is malformed or has no solution is reported on stderr and skipped; every
/// case goes through the same guarded solver (deadline, budget, panics) as `solve`.
pub fn judge<R: BufRead + Send>(
    problem: Problem,
    backend: &Backend,
    limits: &Limits,
    input: R,
    out: &mut RowStream,
) -> anyhow::Result<JudgeReport> {
    let mut reader = match problem {
        Problem::Hdu1426 => Format::Hdu.reader(input, &crate::format::Layout::default()),
        Problem::Poj3074 => Format::Poj.reader(input, &crate::format::Layout::default()),
        Problem::Uva1309 => Box::new(Letters16::new(input, false)),
        Problem::SpojSudoku => Box::new(Letters16::new(input, true)),
    };
    let mut solver = GuardedSolver::new(backend, limits);
    let source = SourceName::new("-");
    let mut report = JudgeReport::default();
    let mut written = 0u64;
    while let Some(raw) = reader.next_record() {
        let raw = match raw {
            Ok(raw) => raw,
            Err(e) if interrupt::is_stopped(&e) => break,
            Err(e) => return Err(e.into()),
        };
        report.cases += 1;
        let record = Record {
            source,
            number: raw.number,
            line: raw.line,
            puzzle: raw.body.parse(raw.line),
        };
        let r = solver.solve_record(&record, Some(0));
        match (r.status, r.solution.as_ref()) {
            (Status::Unique | Status::Solved | Status::Multiple, Some(s))
                if r.valid == Some(true) =>
            {
                problem.write_case(s, written > 0, out.row_buffer());
                out.end_row();
                written += 1;
            }
            _ => {
                report.failed += 1;
                report.wrong += u64::from(r.is_mismatch());
                let why = r.error.as_deref().unwrap_or("no solution");
                say!(
                    "case {} (line {}): {}: {why}",
                    r.number,
                    r.line,
                    r.status.name()
                );
            }
        }
        if report.cases % COMMIT_EVERY == 0 {
            out.commit()?;
        }
    }
    out.commit()?;
    report.interrupted = interrupt::requested();
    Ok(report)
}

/// UVa 1309's input (and SPOJ SUDOKU's, after its count line): 16 lines of 16
/// characters `A`-`P` or `-` a case, single empty lines between cases. Exact: a case
/// with any other line is a parse error naming it, and the next case is read.
struct Letters16<R> {
    lines: Lines<R>,
    /// SPOJ: the count line comes first, and that many cases are read.
    counted: bool,
    remaining: Option<u64>,
    number: u64,
    /// The last line read.
    last_line: u64,
    notes: Notes,
}

impl<R: BufRead> Letters16<R> {
    fn new(input: R, counted: bool) -> Letters16<R> {
        Letters16 {
            lines: Lines::with_terminator(input, b'\n'),
            counted,
            remaining: None,
            number: 0,
            last_line: 0,
            notes: Notes::default(),
        }
    }

    /// The error record for cases the count line promised and the input lacks, once.
    fn missing_cases(&mut self) -> Option<RawRecord> {
        let missing = self.remaining.filter(|&r| r > 0 && r != u64::MAX)?;
        self.remaining = Some(0);
        self.number += 1;
        let read = self.number - 1;
        let e = ParseError::new(
            self.last_line,
            format!(
                "its first line promised {} cases; the input ends after {read}",
                read + missing
            ),
        );
        Some(RawRecord {
            number: self.number,
            line: e.line,
            body: Err(e).into(),
        })
    }
}

/// What is wrong with row `t` (line `n`) of a case, if anything.
fn check_row(n: u64, t: &[u8]) -> Option<ParseError> {
    let bad = t.iter().position(|b| !matches!(b, b'A'..=b'P' | b'-'));
    match (bad, t.len()) {
        (Some(i), _) => Some(ParseError::at(
            n,
            i + 1,
            format!("{:?} is not a letter A-P or '-'", t[i] as char),
        )),
        (None, 16) => None,
        (None, len) => Some(ParseError::new(n, format!("{len} characters, expected 16"))),
    }
}

impl<R: BufRead + Send> RecordReader for Letters16<R> {
    fn next_record(&mut self) -> Option<std::io::Result<RawRecord>> {
        let mut cells = Vec::with_capacity(256);
        let mut first = 0;
        let mut error: Option<ParseError> = None;
        loop {
            if self.remaining == Some(0) {
                return None;
            }
            let line = match self.lines.next_line() {
                Ok(Some(l)) => l,
                // Fewer cases than the count line promised: an error, once.
                Ok(None) if first == 0 => return self.missing_cases().map(Ok),
                Ok(None) => break,
                Err(e) => return Some(Err(e)),
            };
            let n = line.number;
            self.last_line = n;
            let t = line.bytes.trim_ascii();
            if self.counted && self.remaining.is_none() {
                if t.is_empty() {
                    continue;
                }
                match std::str::from_utf8(t)
                    .ok()
                    .and_then(|s| s.parse::<u64>().ok())
                {
                    Some(k) => self.remaining = Some(k),
                    None => {
                        self.remaining = Some(u64::MAX);
                        self.number += 1;
                        let e = ParseError::new(n, "the first line is not the number of cases");
                        return Some(Ok(RawRecord {
                            number: self.number,
                            line: n,
                            body: Err(e).into(),
                        }));
                    }
                }
                continue;
            }
            if t.is_empty() {
                match first {
                    0 => continue,
                    _ => break, // the case ends early
                }
            }
            if first == 0 {
                first = n;
            }
            if error.is_none() {
                error = check_row(n, t);
            }
            cells.extend(t.iter().map(|&b| if b == b'-' { 0 } else { b - b'A' + 1 }));
            if cells.len() >= 256 || (error.is_none() && cells.len() == 256) {
                break;
            }
        }
        self.number += 1;
        if let Some(r) = &mut self.remaining {
            *r = r.saturating_sub(1);
        }
        let body = match (error, cells.len()) {
            (Some(e), _) => Err(e),
            (None, 256) => Ok(Puzzle::new(Square::new(cells).expect("256 cells of 0-16"))),
            (None, len) => Err(ParseError::new(
                first,
                format!("the case ends after {} lines, expected 16", len / 16),
            )),
        };
        Some(Ok(RawRecord {
            number: self.number,
            line: first,
            body: body.into(),
        }))
    }

    fn notes(&mut self) -> &mut Notes {
        &mut self.notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Place, Wanted, plan};
    use crate::solver::mock::Mock;

    const POJ: &str = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.\n\
......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.\nend\n";

    fn run(backend: Backend, limits: Limits) -> (JudgeReport, String) {
        let dir = tempfile::tempdir().unwrap();
        let place = Place::Path(dir.path().join("out"));
        let target = plan(
            &[],
            &[Wanted {
                option: "out",
                place: &place,
            }],
            false,
        )
        .unwrap()
        .remove(0);
        let mut out = RowStream::open(&target).unwrap();
        let report = judge(
            Problem::Poj3074,
            &backend,
            &limits,
            POJ.as_bytes(),
            &mut out,
        )
        .unwrap();
        drop(out);
        (
            report,
            std::fs::read_to_string(dir.path().join("out")).unwrap(),
        )
    }

    #[test]
    fn a_panicking_or_hanging_backend_costs_its_case_only() {
        let one = Limits {
            max_solutions: 1,
            ..Limits::default()
        };
        let (report, out) = run(Backend::DlxStatic, one);
        assert_eq!((report.cases, report.failed), (2, 0));
        assert_eq!(out.lines().count(), 2);
        // The first case starts with '.', the second too: both panic.
        let (report, out) = run(Backend::Mock(Mock::PanicsOnFirstCell(0)), one);
        assert_eq!((report.cases, report.failed, report.wrong), (2, 2, 2));
        assert_eq!(out, "");
        let timed = Limits {
            timeout: Some(std::time::Duration::from_millis(5)),
            ..one
        };
        let (report, _) = run(Backend::Mock(Mock::Hang), timed);
        assert_eq!((report.cases, report.failed, report.wrong), (2, 2, 0));
    }
}
