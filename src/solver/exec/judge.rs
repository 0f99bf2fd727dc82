//! Judge submissions (`exec:hdu1426:CMD`, `exec:poj3074:CMD`): one process per batch of
//! cases, fed that judge's input; its output, read to the end, is matched to the cases
//! in order. A missing or empty answer means no solution; the judges promise one
//! solution a case, so a count is never claimed (status `solved`).

use std::time::Instant;

use super::process::{FromChild, Wait};
use super::{ExecSolver, Problem, SolveOutcome, nothing, per_puzzle_timeout, stopped};
use crate::board::nine::Grid;
use crate::solver::Limits;

/// Runs one process on `cases` and reads its output to the end (or until it exits): the
/// answers and why it died if it did, or the outcome every case gets (it could not start,
/// printed too much, was cancelled or timed out).
// The error is the outcome every case then gets, made once per batch.
#[allow(clippy::result_large_err)]
fn run(
    solver: &mut ExecSolver,
    problem: Problem,
    cases: Vec<u8>,
    n: usize,
    limits: &Limits,
) -> Result<(Vec<String>, Option<String>), SolveOutcome> {
    let start = Instant::now();
    let mut worker = solver.start().map_err(|why| solver.fail(why))?;
    worker.send(&cases);
    worker.close_input();
    // A judge submission's output is typically buffered to its end: the time limit
    // holds for the batch as a whole, the per-case limit times its cases.
    let deadline = limits
        .deadline
        .unwrap_or_else(|| start + per_puzzle_timeout(limits).saturating_mul(n as u32));
    // Four bytes a cell, with room for separators and a trailing note: a program that
    // prints more is stopped.
    let limit = n.saturating_mul(81 * 4).saturating_add(64 * 1024);
    let mut output = Vec::new();
    // The deadline holds throughout; the output ends when the program closes it or
    // exits (then what it left in the pipe is read, for a short grace at most).
    loop {
        match worker.wait(deadline, || limits.cancelled()) {
            Wait::Got(FromChild::Line(line) | FromChild::TooLong(line)) => output.extend(line),
            Wait::Got(FromChild::Eof) => break,
            stop => {
                worker.kill();
                return Err(stopped(stop));
            }
        }
        if output.len() > limit {
            worker.kill();
            return Err(solver.fail(format!(
                "{} printed more than {limit} bytes for {n} cases; stopped",
                solver.spec.program
            )));
        }
    }
    let died = worker
        .failed_exit()
        .map(|why| format!("{} {why}", solver.spec.program));
    // The answers in a judge's output, in order: each the text of one board's cells.
    let text = String::from_utf8_lossy(&output);
    let answers = match problem {
        // Lines of 81 digits.
        Problem::Poj3074 => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        // Grids of 9 lines of 9 tokens: every 81 tokens make an answer.
        Problem::Hdu1426 => {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            tokens.chunks(81).map(<[&str]>::concat).collect()
        }
    };
    Ok((answers, died))
}

/// A batch of cases: an outcome each, with its error. A missing answer is no solution,
/// or a failure where the program died.
pub(super) fn solve_boards(
    solver: &mut ExecSolver,
    problem: Problem,
    puzzles: &[&Grid],
    limits: &Limits,
) -> Vec<(SolveOutcome, Option<String>)> {
    // The judge's input for `puzzles`.
    let mut cases = Vec::new();
    for (k, p) in puzzles.iter().enumerate() {
        problem.write_case(p, k > 0, &mut cases);
    }
    if problem == Problem::Poj3074 {
        cases.extend(b"end\n");
    }
    let (answers, died) = match run(solver, problem, cases, puzzles.len(), limits) {
        Ok(output) => output,
        Err(out) => return vec![(out, None); puzzles.len()],
    };
    let mut answers = answers.into_iter();
    let mut outcome = || {
        let why = match (answers.next(), &died) {
            (None, None) => return (nothing(), None),
            (None, Some(died)) => format!("{died} before answering this case"),
            (Some(text), _) => match Grid::from_line(text.as_bytes()) {
                Ok(g) if g.is_full() => {
                    let solved = SolveOutcome {
                        solutions: 1,
                        count_is_lower_bound: true,
                        solution: Some(g),
                        ..nothing()
                    };
                    return (solved, None);
                }
                _ => format!(
                    "answered {:?}, not a solved grid",
                    text.chars().take(300).collect::<String>()
                ),
            },
        };
        (solver.fail(why.clone()), Some(why))
    };
    puzzles.iter().map(|_| outcome()).collect()
}
