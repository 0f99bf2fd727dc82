//! Judge modes: behave exactly like an accepted solution to HDU 1426 or POJ 3074.

use std::io::BufRead;

use crate::base::interrupt;
use crate::board::Board;
use crate::format::{Format, Layout};
use crate::output::RowStream;
use crate::record::{Record, SourceName};
use crate::run::{GuardedSolver, Status, Verify};
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
    let format = match problem {
        Problem::Hdu1426 => Format::Hdu,
        Problem::Poj3074 => Format::Poj,
    };
    let mut reader = format.reader(input, &Layout::default());
    let mut solver = GuardedSolver::new(backend, limits, Some(Verify::Foreign));
    let source = SourceName::from("-");
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
            (Status::Unique | Status::Solved | Status::Multiple, Some(Board::Nine(s)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Place, plan};
    use crate::solver::mock::Mock;

    const POJ: &str = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.\n\
......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.\nend\n";

    fn run(backend: Backend, limits: Limits) -> (JudgeReport, String) {
        let dir = tempfile::tempdir().unwrap();
        let place = Place::Path(dir.path().join("out"));
        let target = plan(&[], &[("out", &place)], false).unwrap().remove(0);
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
