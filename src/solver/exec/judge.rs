//! Judge submissions (`exec:hdu1426:CMD`, `exec:poj3074:CMD`): one process per batch of
//! cases, fed that judge's input; its output, read to the end, is matched to the cases
//! in order. A missing or empty answer means no solution; the judges promise one
//! solution a case, so a count is never claimed (status `solved`).

use std::time::Instant;

use super::process::{FromChild, Wait};
use super::{DEFAULT_TIMEOUT, ExecSolver, Protocol, SolveOutcome};
use crate::grid::Grid;
use crate::solver::Limits;

/// The judge's input for `puzzles`.
fn input(protocol: Protocol, puzzles: &[Grid]) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, p) in puzzles.iter().enumerate() {
        match protocol {
            Protocol::Hdu1426 => {
                if k > 0 {
                    out.push(b'\n');
                }
                for row in p.cells().chunks(9) {
                    let tokens: Vec<String> = row
                        .iter()
                        .map(|&d| if d == 0 { "?".into() } else { d.to_string() })
                        .collect();
                    out.extend(tokens.join(" ").bytes());
                    out.push(b'\n');
                }
            }
            _ => {
                out.extend(p.to_line_with(b'.'));
                out.push(b'\n');
            }
        }
    }
    if protocol == Protocol::Poj3074 {
        out.extend(b"end\n");
    }
    out
}

/// The answers in a judge's output, in order: each an 81-digit grid, or why not.
fn answers(protocol: Protocol, output: &[u8]) -> Vec<Result<Grid, String>> {
    let text = String::from_utf8_lossy(output);
    let cells: Vec<String> = match protocol {
        // Lines of 81 digits.
        Protocol::Poj3074 => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        // Grids of 9 lines of 9 tokens: every 81 tokens make an answer.
        _ => {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            tokens.chunks(81).map(|c| c.concat()).collect()
        }
    };
    cells
        .into_iter()
        .map(|s| match Grid::from_line(s.as_bytes()) {
            Ok(g) if g.is_full() => Ok(g),
            _ => Err(format!(
                "answered {:?}, not a solved grid",
                s.chars().take(100).collect::<String>()
            )),
        })
        .collect()
}

pub(super) fn solve_batch(
    solver: &mut ExecSolver,
    puzzles: &[Grid],
    limits: &Limits,
) -> Vec<SolveOutcome> {
    let start = Instant::now();
    let mut worker = match solver.start() {
        Ok(w) => w,
        Err(why) => return puzzles.iter().map(|_| solver.fail(why.clone())).collect(),
    };
    worker.send_all(input(solver.spec.protocol, puzzles));
    worker.close_input();
    let deadline = limits
        .deadline
        .unwrap_or_else(|| start + DEFAULT_TIMEOUT.saturating_mul(puzzles.len() as u32));
    let cancel = limits.cancel;
    let cancelled = || cancel.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
    let mut output = Vec::new();
    loop {
        match worker.wait(deadline, cancelled) {
            Wait::Got(FromChild::Line(line)) => output.extend(line),
            Wait::Got(FromChild::Eof) => break,
            stop => {
                worker.kill();
                let out = SolveOutcome {
                    budget_exceeded: true,
                    timed_out: matches!(stop, Wait::TimedOut),
                    cancelled: matches!(stop, Wait::Cancelled),
                    ..SolveOutcome::default()
                };
                return vec![out; puzzles.len()];
            }
        }
    }
    let mut answers = answers(solver.spec.protocol, &output).into_iter();
    puzzles
        .iter()
        .map(|_| match answers.next() {
            None => SolveOutcome::default(),
            Some(Ok(g)) => SolveOutcome {
                solutions: 1,
                solution: Some(g),
                count_is_lower_bound: true,
                ..SolveOutcome::default()
            },
            Some(Err(why)) => {
                solver.error = Some(why);
                SolveOutcome {
                    failed: true,
                    ..SolveOutcome::default()
                }
            }
        })
        .collect()
}
