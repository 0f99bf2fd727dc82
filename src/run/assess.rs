//! Answer checking: the status of a record, the independent check of its solution, and
//! the comparison with the answer the input gave.

use std::time::Duration;

use super::result::{Attempt, PuzzleResult, Status, Verification};
use super::verify::Truth;
use crate::board::Board;
use crate::record::{Expected, Puzzle, Record};
use crate::solver::{Limits, SolveOutcome};

/// The result for a record given what `backend` (its name as results carry it;
/// `is_solver`: `null` is none) did with it under the run's `limits` (`thread`: the worker
/// that solved it). Checks the solution independently, compares it with the expected
/// answer, and checks the claimed count against `truth` when the claim was verified.
#[inline]
pub(super) fn assess<'r>(
    backend: &'static str,
    is_solver: bool,
    limits: &Limits,
    record: &'r Record,
    attempt: Attempt,
    thread: Option<usize>,
    truth: Option<Truth>,
) -> PuzzleResult<'r> {
    let mut result = PuzzleResult::blank(record, backend, thread);
    let puzzle = match &record.puzzle {
        Ok(puzzle) => puzzle,
        Err(e) => {
            result.error = Some(e.to_string());
            return result;
        }
    };
    result.puzzle = Some(&puzzle.board);
    result.time_ns = attempt.time_ns();
    let (status, error) = match attempt {
        Attempt::Solved { .. } if !is_solver => (Status::NotSolved, None),
        Attempt::Solved {
            outcome,
            square,
            note,
            ..
        } => {
            let solution = match square {
                // Written in the symbols its puzzle was read in.
                Some(mut s) => {
                    s.symbols = puzzle.board.symbols();
                    Some(Board::Other(s))
                }
                None => outcome.solution.map(Board::Nine),
            };
            result.clock = outcome.clock;
            result.unseen_ns = outcome.unseen_ns;
            check_answer(&mut result, puzzle, &outcome, solution, limits, truth);
            if let (Some(note), true) = (note, outcome.budget_exceeded) {
                result.error = Some(note);
            }
            return result;
        }
        Attempt::Unsupported => {
            let side = puzzle.board.side();
            let why = format!(
                "{backend} does not solve {side}x{side} boards; the dlx-arena and dfs backends solve every size"
            );
            (Status::Unsupported, Some(why))
        }
        Attempt::Panicked { message, .. } => (
            Status::Error,
            Some(format!("{backend} panicked: {message}")),
        ),
        Attempt::Failed { message, .. } => {
            (Status::Error, Some(format!("{backend} failed: {message}")))
        }
        Attempt::Skipped => {
            // Conflicting givens have no solution: right only if the input expected none.
            result.matches_expected = puzzle
                .expected
                .as_deref()
                .and_then(|e| both(e.count.map(|c| c == 0), e.solution.as_ref().map(|_| false)));
            (Status::InvalidGivens, puzzle.board.conflict())
        }
    };
    (result.status, result.error) = (status, error);
    result
}

/// Fills in what a finished call found.
fn check_answer(
    result: &mut PuzzleResult<'_>,
    puzzle: &Puzzle,
    outcome: &SolveOutcome,
    solution: Option<Board>,
    limits: &Limits,
    truth: Option<Truth>,
) {
    result.status = match outcome.solutions {
        _ if outcome.cancelled => Status::Interrupted,
        _ if outcome.budget_exceeded => Status::BudgetExceeded,
        0 => Status::NoSolution,
        _ if outcome.count_is_lower_bound => Status::Solved,
        1 if limits.max_solutions == 1 => Status::Solved,
        1 => Status::Unique,
        _ => Status::Multiple,
    };
    if outcome.budget_exceeded {
        // Why a search stopped before it finished.
        result.error = Some(if outcome.cancelled {
            "interrupted: the search was abandoned".to_string()
        } else if outcome.timed_out {
            match limits.timeout {
                // `2s`, `1.5s`, `250ms`.
                Some(t) if t >= Duration::from_secs(1) => {
                    format!("timed out after {}s", t.as_secs_f64())
                }
                Some(t) => format!("timed out after {}ms", t.as_millis()),
                None => "timed out".to_string(),
            }
        } else {
            format!("ran out of the node budget ({} nodes)", limits.max_nodes)
        });
    }
    result.solutions = outcome.solutions;
    result.nodes = outcome.counted.nodes.then_some(outcome.nodes);
    result.guesses = outcome.counted.guesses.then_some(outcome.guesses);
    if let Some(truth) = truth.filter(|_| !outcome.budget_exceeded) {
        verify(result, outcome, truth, limits);
    }
    if let Some(solution) = &solution {
        let check = solution.check_solution_of(&puzzle.board);
        result.valid = Some(check.is_ok());
        if let Err(e) = check {
            let backend = &result.backend;
            result.error = Some(format!("{backend} returned an invalid solution: {e}"));
        }
    } else if outcome.solutions > 0 && !outcome.budget_exceeded {
        // A count with nothing to show for it. "Two or more" needs no particular
        // solution, and the verifier can confirm it; "one" (or "one found") is the
        // solution, and without it the claim is not trusted.
        let (backend, n) = (&result.backend, outcome.solutions);
        let unique = n == 1 || outcome.count_is_lower_bound || limits.max_solutions == 1;
        if unique || result.verified != Verification::Confirmed {
            result.valid = Some(false);
            result.error = Some(match unique {
                true => format!("{backend} said it found a solution but gave none"),
                false => format!(
                    "{backend} said it found {n} solutions but gave none, and that could not be verified"
                ),
            });
        }
    }
    if let Some(expected) = &puzzle.expected {
        result.matches_expected = compare_expected(outcome, solution.as_ref(), expected, limits);
        // The file's answer is a claim too: one that solves no puzzle is wrong even where
        // the puzzle has other solutions and nothing was compared.
        let claim = expected
            .solution
            .as_ref()
            .map(|a| a.check_solution_of(&puzzle.board));
        if let Some(Err(e)) = claim {
            result.matches_expected = Some(false);
            let why = format!("the file's answer does not solve the puzzle: {e}");
            result.error.get_or_insert(why);
        } else if result.matches_expected == Some(false) && result.error.is_none() {
            let cap = limits.max_solutions as u64;
            result.error = Some(match expected.count {
                Some(c) if c.min(cap) != (outcome.solutions as u64).min(cap) => format!(
                    "expected {} solution(s), found {}",
                    if c >= cap && cap > 1 {
                        format!("{cap} or more")
                    } else {
                        c.to_string()
                    },
                    outcome.solutions
                ),
                _ => "the solution differs from the expected one".to_string(),
            });
        }
    }
    result.solution = solution;
}

/// Checks the claimed count against the verifier's: a refuted claim is a wrong answer
/// with its own status, saying what was claimed and what is true.
fn verify(result: &mut PuzzleResult<'_>, outcome: &SolveOutcome, truth: Truth, limits: &Limits) {
    let cap = limits.max_solutions;
    if !truth.finished {
        result.verified = Verification::Unknown;
        result.error = Some(format!(
            "not verified: {} ran out of its node budget ({} nodes) before it knew",
            truth.by,
            limits.max_nodes.max(crate::solver::DEFAULT_MAX_NODES)
        ));
        return;
    }
    let (claimed, real) = (outcome.solutions.min(cap), truth.count.min(cap));
    // A solution without a count claims only that there is one.
    let holds = match outcome.count_is_lower_bound {
        true => real >= claimed.max(1),
        false => claimed == real,
    };
    if holds {
        result.verified = Verification::Confirmed;
        return;
    }
    let claim = match outcome.count_is_lower_bound {
        true => "a solution".to_string(),
        false => count_words(claimed, cap),
    };
    result.verified = Verification::Refuted;
    result.status = Status::Refuted;
    result.error = Some(format!(
        "{} claimed {claim}; {} found {}",
        result.backend,
        truth.by,
        count_words(real, cap)
    ));
}

/// A count up to `cap`, in words.
fn count_words(n: u32, cap: u32) -> String {
    match n {
        0 => "no solution".into(),
        _ if cap == 1 => "a solution".into(),
        1 => "exactly one solution".into(),
        n if n >= cap => format!("{n} or more solutions"),
        n => format!("{n} solutions"),
    }
}

/// Compares with the input's answer; `None` when there is nothing to compare.
///
/// Counts are compared up to `max_solutions` (the reference files write 2 for "two or
/// more"). An expected solution is the answer only when the puzzle has exactly one,
/// which the input or this search must establish; otherwise it only shows that a
/// solution exists. An unfinished search knows only a lower bound on the count.
pub(super) fn compare_expected(
    outcome: &SolveOutcome,
    solution: Option<&Board>,
    expected: &Expected,
    limits: &Limits,
) -> Option<bool> {
    let cap = limits.max_solutions as u64;
    let found = outcome.solutions as u64;
    // An unfinished search, or a foreign solver that did not count, knows only a lower
    // bound of the count.
    let lower_bound = outcome.budget_exceeded || outcome.count_is_lower_bound;
    let count_ok = expected.count.and_then(|want| {
        if lower_bound {
            (found > want).then_some(false)
        } else {
            Some(want.min(cap) == found.min(cap))
        }
    });
    let proved_unique = found == 1 && cap >= 2 && !lower_bound;
    let solution_ok = expected.solution.as_ref().and_then(|want| match solution {
        None if outcome.budget_exceeded => None,
        // "Two or more" shows no particular solution; where there is exactly one, it
        // must be shown.
        None if found >= 2 && expected.count != Some(1) => None,
        None => Some(false),
        Some(got) => (expected.count == Some(1) || proved_unique).then_some(got == want),
    });
    both(count_ok, solution_ok)
}

fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    (a.is_some() || b.is_some()).then(|| a != Some(false) && b != Some(false))
}
