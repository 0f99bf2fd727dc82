//! Judge modes: behave exactly like an accepted solution to HDU 1426 or POJ 3074.

use std::io::{BufRead, Write};

use crate::cli::Judge;
use crate::format::Format;
use crate::grid::Grid;
use crate::solver::{Backend, Limits};

/// Cases read and cases that could not be answered (reported on stderr).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeReport {
    pub cases: u64,
    pub failed: u64,
}

/// Reads the judge's input from `input` and writes its expected output to `out`.
/// A case that is malformed or has no solution is reported on stderr and skipped.
pub fn judge<R: BufRead + Send>(
    problem: Judge,
    backend: Backend,
    limits: &Limits,
    input: R,
    out: &mut dyn Write,
) -> anyhow::Result<JudgeReport> {
    let format = match problem {
        Judge::Hdu1426 => Format::Hdu,
        Judge::Poj3074 => Format::Poj,
    };
    let mut reader = format.reader(input);
    let mut solver = backend.new_solver();
    let mut report = JudgeReport::default();
    let mut written = 0u64;
    while let Some(raw) = reader.next_record() {
        let raw = raw?;
        report.cases += 1;
        let solution = match &raw.body {
            Err(e) => Err(e.to_string()),
            Ok(p) if p.grid.find_conflict().is_some() => Err("the givens conflict".to_string()),
            Ok(p) => match solver.solve(&p.grid, limits) {
                o if o.budget_exceeded => Err("the node budget ran out".to_string()),
                o => o
                    .solution
                    .filter(|s| s.check_solution_of(&p.grid).is_ok())
                    .ok_or_else(|| "no solution".to_string()),
            },
        };
        match solution {
            Ok(s) => {
                write_solution(problem, &s, written > 0, out)?;
                written += 1;
            }
            Err(why) => {
                report.failed += 1;
                eprintln!("case {} (line {}): {why}", raw.number, raw.line);
            }
        }
    }
    out.flush()?;
    Ok(report)
}

fn write_solution(
    problem: Judge,
    s: &Grid,
    not_first: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match problem {
        Judge::Poj3074 => {
            out.write_all(&s.to_line_with(b'0'))?;
            out.write_all(b"\n")
        }
        Judge::Hdu1426 => {
            // One blank line between two solutions, none after the last.
            if not_first {
                out.write_all(b"\n")?;
            }
            for row in s.cells().chunks(9) {
                let line: Vec<String> = row.iter().map(|d| d.to_string()).collect();
                writeln!(out, "{}", line.join(" "))?;
            }
            Ok(())
        }
    }
}
