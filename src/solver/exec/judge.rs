//! Judge submissions (`exec:hdu1426:CMD`, `exec:poj3074:CMD`): one process per batch of
//! cases, fed that judge's input; its output, read to the end, is matched to the cases
//! in order. A missing or empty answer means no solution; the judges promise one
//! solution a case, so a count is never claimed (status `solved`).

use std::time::Instant;

use super::process::{FromChild, Wait};
use super::{ExecSolver, Problem, SolveOutcome, nothing, per_puzzle_timeout};
use crate::board::nine::Grid;
use crate::solver::Limits;

/// The judge's input for `puzzles`.
fn input(problem: Problem, puzzles: &[&Grid]) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, p) in puzzles.iter().enumerate() {
        problem.write_case(p, k > 0, &mut out);
    }
    if problem == Problem::Poj3074 {
        out.extend(b"end\n");
    }
    out
}

/// The answers in a judge's output, in order: each the text of one board's cells.
fn answer_texts(problem: Problem, output: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(output);
    match problem {
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
    }
}

fn not_solved(s: &str) -> String {
    format!(
        "answered {:?}, not a solved grid",
        s.chars().take(300).collect::<String>()
    )
}

/// What a process answered: the answers, and why it died if it did (the cases it did
/// not answer then failed, rather than having no solution).
struct Output {
    answers: std::vec::IntoIter<String>,
    died: Option<String>,
}

/// Output allowed for `n` boards (four bytes a cell, with room for separators and a
/// trailing note): a program that prints more is stopped.
fn output_limit(n: usize) -> usize {
    n.saturating_mul(81 * 4).saturating_add(64 * 1024)
}

/// Runs one process on `cases` and reads its output to the end (or until the program
/// itself exits: a child it left behind may hold its output open): the answers, or the
/// outcome every case gets (it could not start, printed too much, was cancelled or
/// timed out).
// The error is the outcome every case then gets, made once per batch.
#[allow(clippy::result_large_err)]
fn run(
    solver: &mut ExecSolver,
    problem: Problem,
    cases: Vec<u8>,
    n: usize,
    limits: &Limits,
) -> Result<Output, SolveOutcome> {
    let start = Instant::now();
    let mut worker = match solver.start() {
        Ok(w) => w,
        Err(why) => return Err(solver.fail(why)),
    };
    worker.send(&cases);
    worker.close_input();
    // A judge submission's output is typically buffered to its end: the time limit
    // holds for the batch as a whole, the per-case limit times its cases.
    let deadline = limits
        .deadline
        .unwrap_or_else(|| start + per_puzzle_timeout(limits).saturating_mul(n as u32));
    let cancel = limits.cancel;
    let cancelled = || cancel.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
    let limit = output_limit(n);
    let mut output = Vec::new();
    // The deadline holds throughout; the output ends when the program closes it or
    // exits (then what it left in the pipe is read, for a short grace at most).
    loop {
        match worker.wait(deadline, cancelled) {
            Wait::Got(FromChild::Line(line) | FromChild::TooLong(line)) => output.extend(line),
            Wait::Got(FromChild::Eof) => break,
            stop => {
                worker.kill();
                return Err(SolveOutcome {
                    budget_exceeded: true,
                    timed_out: matches!(stop, Wait::TimedOut),
                    cancelled: matches!(stop, Wait::Cancelled),
                    ..nothing()
                });
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
    Ok(Output {
        answers: answer_texts(problem, &output).into_iter(),
        died,
    })
}

/// What the next answer gives: a solution found, none, or nonsense; a missing answer
/// from a program that died is a failure. Each case's error is kept for its own row.
fn outcome(solver: &mut ExecSolver, output: &mut Output) -> SolveOutcome {
    let answer = match output.answers.next() {
        None => match &output.died {
            Some(why) => Err(format!("{why} before answering this case")),
            None => {
                solver.case_errors.push(None);
                return nothing();
            }
        },
        Some(text) => Grid::from_line(text.as_bytes())
            .ok()
            .filter(Grid::is_full)
            .ok_or_else(|| not_solved(&text)),
    };
    match answer {
        Ok(solution) => {
            solver.case_errors.push(None);
            SolveOutcome {
                solutions: 1,
                count_is_lower_bound: true,
                solution: Some(solution),
                ..nothing()
            }
        }
        Err(why) => {
            solver.case_errors.push(Some(why.clone()));
            solver.fail(why)
        }
    }
}

/// A batch of cases: an outcome each.
pub(super) fn solve_boards(
    solver: &mut ExecSolver,
    problem: Problem,
    puzzles: &[&Grid],
    limits: &Limits,
) -> Vec<SolveOutcome> {
    solver.case_errors.clear();
    let cases = input(problem, puzzles);
    match run(solver, problem, cases, puzzles.len(), limits) {
        Ok(mut output) => puzzles
            .iter()
            .map(|_| outcome(solver, &mut output))
            .collect(),
        Err(out) => vec![out; puzzles.len()],
    }
}
