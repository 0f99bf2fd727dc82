//! Judge submissions (`exec:hdu1426:CMD`, `exec:poj3074:CMD`, and for 16x16 boards
//! `exec:uva1309:CMD` (`poj3076`) and `exec:spoj-sudoku:CMD`): one process per batch
//! of cases, fed that judge's input; its output, read to the end, is matched to the
//! cases in order. A missing or empty answer means no solution; the judges promise one
//! solution a case, so a count is never claimed (status `solved`).

use std::time::Instant;

use super::process::{FromChild, Wait};
use super::{ExecSolver, Problem, SolveOutcome, nothing, per_puzzle_timeout};
use crate::board::nine::Grid;
use crate::board::{Board, Square, parse_chars};
use crate::solver::Limits;

/// The judge's input for `puzzles` (boards of the problem's size).
fn input(problem: Problem, puzzles: &[Board]) -> Vec<u8> {
    let mut out = Vec::new();
    if problem == Problem::SpojSudoku {
        out.extend(format!("{}\n", puzzles.len()).bytes());
    }
    for (k, p) in puzzles.iter().enumerate() {
        problem.write_case(p, k > 0, &mut out);
    }
    if problem == Problem::Poj3074 {
        out.extend(b"end\n");
    }
    out
}

/// The answers in a judge's output, in order: each the text of one board's cells, or
/// why it is not one.
fn answer_texts(problem: Problem, output: &[u8]) -> Vec<Result<String, String>> {
    let text = String::from_utf8_lossy(output);
    match problem {
        // Lines of 81 digits.
        Problem::Poj3074 => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| Ok(l.to_string()))
            .collect(),
        // Grids of 9 lines of 9 tokens: every 81 tokens make an answer.
        Problem::Hdu1426 => {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            tokens.chunks(81).map(|c| Ok(c.concat())).collect()
        }
        // Grids of 16 lines of exactly 16 letters `A`-`P` (trailing spaces aside): every
        // 16 lines that are not empty make one, and any other line spoils its grid.
        _ => {
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim_end)
                .filter(|l| !l.is_empty())
                .collect();
            lines
                .chunks(16)
                .map(|grid| {
                    let bad = grid.iter().position(|l| {
                        l.len() != 16 || !l.bytes().all(|b| (b'A'..=b'P').contains(&b))
                    });
                    match (bad, grid.len()) {
                        (Some(k), _) => Err(format!(
                            "answered {:?} as line {} of a grid, not 16 letters A-P",
                            grid[k].chars().take(100).collect::<String>(),
                            k + 1
                        )),
                        (None, 16) => Ok(grid.concat()),
                        (None, n) => Err(format!("answered a grid of {n} lines, not 16")),
                    }
                })
                .collect()
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
    answers: std::vec::IntoIter<Result<String, String>>,
    died: Option<String>,
}

/// Output allowed for `n` boards of `side` x `side` (four bytes a cell, with room for
/// separators and a trailing note): a program that prints more is stopped.
fn output_limit(n: usize, side: usize) -> usize {
    n.saturating_mul(side * side * 4).saturating_add(64 * 1024)
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
    let limit = output_limit(n, problem.side());
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
fn outcome<T>(
    solver: &mut ExecSolver,
    output: &mut Output,
    read: impl Fn(&str) -> Option<T>,
) -> (SolveOutcome, Option<T>) {
    let answer = match output.answers.next() {
        None => match &output.died {
            Some(why) => Err(format!("{why} before answering this case")),
            None => {
                solver.case_errors.push(None);
                return (nothing(), None);
            }
        },
        Some(Ok(text)) => read(&text).ok_or_else(|| not_solved(&text)),
        Some(Err(why)) => Err(why),
    };
    match answer {
        Ok(solution) => {
            solver.case_errors.push(None);
            let out = SolveOutcome {
                solutions: 1,
                count_is_lower_bound: true,
                ..nothing()
            };
            (out, Some(solution))
        }
        Err(why) => {
            solver.case_errors.push(Some(why.clone()));
            (solver.fail(why), None)
        }
    }
}

/// A batch of cases, boards of the problem's side: each outcome with the solution of a
/// 16x16 case beside it (a 9x9 one is in the outcome).
pub(super) fn solve_boards(
    solver: &mut ExecSolver,
    problem: Problem,
    puzzles: &[Board],
    limits: &Limits,
) -> Vec<(SolveOutcome, Option<Square>)> {
    solver.case_errors.clear();
    let cases = input(problem, puzzles);
    let mut output = match run(solver, problem, cases, puzzles.len(), limits) {
        Ok(output) => output,
        Err(out) => return vec![(out, None); puzzles.len()],
    };
    // The reader of the problem's size: the 9x9 judges' digits, or 16x16 letters.
    let read = |s: &str| match problem.side() {
        9 => Grid::from_line(s.as_bytes())
            .ok()
            .filter(Grid::is_full)
            .map(Board::Nine),
        side => parse_chars(s.as_bytes())
            .ok()
            .filter(|sq| sq.side() == side && sq.is_full())
            .map(Board::from),
    };
    puzzles
        .iter()
        .map(|_| match outcome(solver, &mut output, read) {
            (mut out, Some(Board::Nine(g))) => {
                out.solution = Some(g);
                (out, None)
            }
            (out, Some(Board::Other(s))) => (out, Some(*s)),
            (out, None) => (out, None),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_by_sixteen_cases_are_written_and_read_as_the_judges_do() {
        let mut cells = vec![0u8; 256];
        cells[0] = 1;
        cells[17] = 16;
        let s = Board::from(Square::new(cells).unwrap());
        let text = input(Problem::SpojSudoku, &[s.clone(), s.clone()]);
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 16 + 1 + 16);
        assert_eq!(lines[0], "2");
        assert_eq!(lines[1], "A---------------");
        assert_eq!(lines[2], "-P--------------");
        assert_eq!(lines[17], "");
        let uva = input(Problem::Uva1309, &[s]);
        assert!(uva.starts_with(b"A---"));
        // Answers: every 16 lines that are not empty, trailing spaces aside.
        let out = format!(
            "{}\n\n{}",
            "ABCDEFGHIJKLMNOP  \r\n".repeat(16),
            " x \n".repeat(3)
        );
        let got = answer_texts(Problem::Uva1309, out.as_bytes());
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_ref().unwrap().len(), 256);
        assert!(got[1].as_ref().unwrap_err().contains("\" x\" as line 1"));
        // Strict: lowercase, other alphabets, short or long lines spoil the grid.
        for bad in [
            "abcdefghijklmnop",
            "0123456789ABCDEF",
            "ABCDEFGHIJKLMNO",
            "ABCDEFGHIJKLMNOPA",
        ] {
            let out = format!("{bad}\n{}", "ABCDEFGHIJKLMNOP\n".repeat(15));
            let got = answer_texts(Problem::SpojSudoku, out.as_bytes());
            assert!(got[0].is_err(), "{bad}");
        }
        let short = answer_texts(Problem::Uva1309, "ABCDEFGHIJKLMNOP\n".repeat(3).as_bytes());
        assert!(short[0].as_ref().unwrap_err().contains("3 lines"));
    }
}
