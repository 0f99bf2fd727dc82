//! `worker`: any built-in backend behind the exec: line protocol. It is the test
//! fixture and calibration target of `exec:`, and an example for people writing their
//! own: read a line, answer a line, flush.

use std::io::{BufRead, BufReader, Write};

use super::Exit;
use crate::format::Cells;
use crate::grid::Grid;
use crate::interrupt;
use crate::loader::RawSource;
use crate::run::{Attempt, GuardedSolver};
use crate::solver::exec::MAX_SOLUTIONS_ENV;
use crate::solver::{Backend, Limits};

pub(super) fn worker(backend: Backend) -> anyhow::Result<Exit> {
    let max_solutions = std::env::var(MAX_SOLUTIONS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(2);
    let limits = Limits {
        max_solutions,
        cancel: Some(&interrupt::INTERRUPTED),
        ..Limits::default()
    };
    let mut solver = GuardedSolver::new(&backend, &limits);
    let cells = Cells::default();
    let input = BufReader::new(RawSource::stdin()?);
    let mut out = std::io::stdout().lock();
    for line in input.split(b'\n') {
        let line = match line {
            Ok(l) => l,
            Err(_) if interrupt::requested() => break,
            Err(e) => return Err(e.into()),
        };
        let text = line.strip_suffix(b"\r").unwrap_or(&line);
        let answer = match <&[u8; 81]>::try_from(text)
            .ok()
            .and_then(|t| cells.parse81(t).ok())
        {
            Some(values) => {
                let grid = Grid::from_cells(values).expect("0-9");
                match solver.attempt(&grid) {
                    Attempt::Solved { outcome, .. } if !outcome.budget_exceeded => {
                        let solution = outcome.solution.map(|s| s.to_line_with(b'0').to_vec());
                        let mut a = format!("{}:", outcome.solutions).into_bytes();
                        a.extend(solution.unwrap_or_default());
                        a
                    }
                    // Out of budget, or the backend failed: no answer to give.
                    _ => b"0".to_vec(),
                }
            }
            None => {
                eprintln!(
                    "worker: not a puzzle line: {:?}",
                    String::from_utf8_lossy(text)
                );
                b"0".to_vec()
            }
        };
        out.write_all(&answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(Exit::Success)
}
