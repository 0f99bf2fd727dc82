//! `exec:` backends: a foreign program measured and checked like the built-in ones.
//!
//! The line protocol: sudoku-bench writes puzzle lines (81 characters, `.` for blanks),
//! one a line; the program answers one line per puzzle, in order: the 81-digit solution,
//! `0` or an empty line for no solution, or `count:solution` (a count up to the limit,
//! which it finds in `SUDOKU_BENCH_MAX_SOLUTIONS`). A bare solution means one was found
//! and uniqueness is unknown (status `solved`). Every answer is checked as for the
//! built-in backends. One process per worker thread; starting and restarting it is never
//! timed; a program that dies costs the puzzle in flight (status `error`, with the end
//! of its stderr) and is restarted; one that exceeds the time limit has its process
//! group killed (status `budget_exceeded`) and is restarted.
//!
//! The judge protocols (`exec:hdu1426:CMD`, `exec:poj3074:CMD`, and for 16x16 boards
//! `exec:uva1309:CMD` and `exec:spoj-sudoku:CMD`) run one process per batch of cases,
//! feed it that judge's input, read its output to the end and match answers to cases
//! in order.

mod calibrate;
mod judge;
mod process;
mod spec;

pub use calibrate::round_trip_ns;
pub use spec::{ExecMode, ExecSpec, Protocol};

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use process::{FromChild, MAX_ANSWER, Wait, Worker};

use super::{Limits, SolveOutcome, Solver};
use crate::grid::{CELLS, Grid};
use crate::square::Square;

/// The time limit of a puzzle when `--timeout` is not given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The environment variable that tells the program the solution-count limit.
pub const MAX_SOLUTIONS_ENV: &str = "SUDOKU_BENCH_MAX_SOLUTIONS";

pub struct ExecSolver {
    spec: Arc<ExecSpec>,
    max_solutions: u32,
    worker: Option<Worker>,
    error: Option<String>,
    /// Per case of the last judge batch: why it failed, if it did.
    case_errors: Vec<Option<String>>,
    overhead_ns: u64,
    /// Time of the last call not to charge: a one-shot program's restart.
    uncharged_ns: u64,
}

impl ExecSolver {
    /// A solver for `spec`; for the line protocol its process starts now.
    pub fn new(spec: Arc<ExecSpec>, limits: &Limits) -> ExecSolver {
        let per_puzzle = spec.protocol == Protocol::Lines && spec.mode == ExecMode::PerPuzzle;
        let mut solver = ExecSolver {
            spec,
            max_solutions: limits.max_solutions,
            worker: None,
            error: None,
            case_errors: Vec::new(),
            overhead_ns: if per_puzzle { round_trip_ns() } else { 0 },
            uncharged_ns: 0,
        };
        solver.prepare();
        solver
    }

    fn start(&mut self) -> Result<Worker, String> {
        let program = self.spec.resolve()?;
        let env = [(MAX_SOLUTIONS_ENV, self.max_solutions.to_string())];
        Worker::spawn(&program, &self.spec.args, &env)
            .map_err(|e| format!("cannot start {}: {e}", self.spec.program))
    }

    /// Fails the call: why goes to `take_error`; the process is dropped (killed).
    fn fail(&mut self, why: String) -> SolveOutcome {
        self.error = Some(why);
        self.worker = None;
        SolveOutcome {
            failed: true,
            ..SolveOutcome::default()
        }
    }

    fn deadline(limits: &Limits, start: Instant) -> Instant {
        limits.deadline.unwrap_or_else(|| start + DEFAULT_TIMEOUT)
    }

    /// Waits for the next answer line of `worker`: it must come after the program was
    /// given the puzzle's last byte, `sent` (one that never reads its input can answer
    /// only puzzles it was not given).
    /// `Ok(None)`: it had answered before and has now exited 0 without answering, when
    /// `one_shot` allows that (the caller restarts it).
    fn answer(
        &mut self,
        limits: &Limits,
        deadline: Instant,
        sent: u64,
        one_shot: bool,
    ) -> Result<Option<Vec<u8>>, SolveOutcome> {
        let cancel = limits.cancel;
        let cancelled = || cancel.is_some_and(|f| f.load(Ordering::Relaxed));
        let worker = self.worker.as_mut().expect("started");
        let program = &self.spec.program;
        let why = match worker.wait(deadline, cancelled) {
            Wait::Got(FromChild::Line(_)) if worker.written() < sent => format!(
                "{program} answered before reading its puzzle (its input is full: it does not read it)"
            ),
            Wait::Got(FromChild::Line(line)) => return Ok(Some(line)),
            Wait::Got(FromChild::TooLong(_)) => {
                format!("{program} answered with a line longer than {MAX_ANSWER} bytes")
            }
            Wait::Got(FromChild::Eof) if one_shot && worker.exited_cleanly() => return Ok(None),
            Wait::Got(FromChild::Eof) => format!("{program} {}", worker.obituary()),
            stop => {
                self.worker = None; // killed on drop
                let mut out = SolveOutcome {
                    budget_exceeded: true,
                    ..SolveOutcome::default()
                };
                match stop {
                    Wait::Cancelled => out.cancelled = true,
                    _ => out.timed_out = true,
                }
                return Err(out);
            }
        };
        Err(self.fail(why))
    }
}

/// The outcome of a call made after the run was interrupted: nothing is started or sent.
fn cancelled(limits: &Limits) -> Option<SolveOutcome> {
    limits
        .cancel
        .is_some_and(|f| f.load(Ordering::Relaxed))
        .then(|| SolveOutcome {
            budget_exceeded: true,
            cancelled: true,
            ..SolveOutcome::default()
        })
}

/// The line a puzzle is sent as.
fn puzzle_line(puzzle: &Grid) -> Vec<u8> {
    let mut line = puzzle.to_line_with(b'.').to_vec();
    line.push(b'\n');
    line
}

/// Reads one answer line: `0` or empty (none), 81 digits (one, count unknown), or
/// `count:solution`.
pub fn parse_answer(line: &[u8], max_solutions: u32) -> Result<SolveOutcome, String> {
    let text = String::from_utf8_lossy(line);
    let t = text.trim();
    let mut out = SolveOutcome::default();
    let solution = |s: &str| -> Result<Option<Grid>, String> {
        if s.is_empty() {
            return Ok(None);
        }
        match Grid::from_line(s.as_bytes()) {
            Ok(g) if s.len() == CELLS => Ok(Some(g)),
            _ => Err(format!("{s:?} is not an 81-digit solution")),
        }
    };
    let shown: String = t.chars().take(100).collect();
    let bad = |why: String| {
        format!("answered {shown:?}: {why} (expected a solution, 0, or count:solution)")
    };
    if t.is_empty() || t == "0" {
        return Ok(out);
    }
    match t.split_once(':') {
        None => {
            out.solution = solution(t).map_err(bad)?;
            out.solutions = 1;
            out.count_is_lower_bound = true;
        }
        Some((count, sol)) => {
            let n: u64 = count
                .trim()
                .parse()
                .map_err(|_| bad(format!("{count:?} is not a count")))?;
            out.solutions = n.min(u64::from(max_solutions)) as u32;
            out.solution = solution(sol.trim()).map_err(bad)?;
            if n == 0 && out.solution.is_some() {
                return Err(bad("a solution with a count of 0".into()));
            }
        }
    }
    Ok(out)
}

impl Solver for ExecSolver {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        if let Some(out) = cancelled(limits) {
            return out;
        }
        if !self.solves_side(9) {
            let side = self.spec.protocol.side();
            return self.fail(format!("a {side}x{side} judge protocol takes no 9x9 board"));
        }
        if self.spec.protocol != Protocol::Lines {
            let mut out = judge::solve_batch(self, std::slice::from_ref(puzzle), limits);
            return out.pop().unwrap_or_default();
        }
        let start = Instant::now();
        self.uncharged_ns = 0;
        let mut deadline = Self::deadline(limits, start);
        let line = puzzle_line(puzzle);
        let mut retried = false;
        let answer = loop {
            let Some(worker) = &mut self.worker else {
                let why = self.error.clone().unwrap_or_else(|| "not running".into());
                return self.fail(why);
            };
            let one_shot = !retried && worker.answers() > 0;
            worker.send(&line);
            let sent = worker.queued();
            match self.answer(limits, deadline, sent, one_shot) {
                Ok(None) => {
                    // It answered, then exited 0 (a one-shot program) just as this
                    // puzzle was sent: restarted and the puzzle sent again, the time so
                    // far not charged. Once only: a program that keeps exiting without
                    // answering ends in an error.
                    retried = true;
                    self.worker = None;
                    self.prepare();
                    let lost = start.elapsed();
                    self.uncharged_ns = lost.as_nanos() as u64;
                    deadline += lost;
                }
                Ok(Some(line)) => break Ok(line),
                Err(out) => break Err(out),
            }
        };
        let line = match answer {
            Ok(line) => line,
            Err(out) => return out,
        };
        match parse_answer(&line, limits.max_solutions) {
            Ok(out) => out,
            Err(why) => self.fail(why),
        }
    }

    fn solve_square(
        &mut self,
        puzzle: &Square,
        limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        self.solve_square_batch(std::slice::from_ref(puzzle), limits)?
            .pop()
    }

    fn solve_square_batch(
        &mut self,
        puzzles: &[Square],
        limits: &Limits,
    ) -> Option<Vec<(SolveOutcome, Option<Square>)>> {
        puzzles
            .iter()
            .all(|p| p.side() != 9 && self.solves_side(p.side()))
            .then(|| judge::solve_squares(self, puzzles, limits))
    }

    fn solves_side(&self, side: usize) -> bool {
        self.spec.protocol.side() == side
    }

    fn solve_batch(&mut self, puzzles: &[Grid], limits: &Limits) -> Option<Vec<SolveOutcome>> {
        if let (Some(out), false) = (cancelled(limits), self.batch_size() == 1) {
            return Some(vec![out; puzzles.len()]);
        }
        match (self.spec.protocol, self.spec.mode) {
            (Protocol::Lines, ExecMode::PerPuzzle) => None,
            (Protocol::Lines, ExecMode::Stream) => Some(self.stream(puzzles, limits)),
            _ => Some(judge::solve_batch(self, puzzles, limits)),
        }
    }

    fn batch_size(&self) -> usize {
        match (self.spec.protocol, self.spec.mode) {
            (Protocol::Lines, ExecMode::PerPuzzle) => 1,
            (Protocol::Lines, ExecMode::Stream) => 256,
            _ => 1000,
        }
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    fn take_case_errors(&mut self) -> Vec<Option<String>> {
        std::mem::take(&mut self.case_errors)
    }

    fn prepare(&mut self) {
        // After Ctrl-C nothing new is started (each puzzle left would spawn and kill one).
        if crate::interrupt::requested() {
            return;
        }
        // A program that exited since its last answer (a one-shot program, or one that
        // quit cleanly) is restarted here, untimed, rather than blamed for the next
        // puzzle; one that exits at once every time still fails each puzzle it is sent.
        if self.worker.as_mut().is_some_and(Worker::exited) {
            self.worker = None;
        }
        if self.worker.is_none() && self.spec.protocol == Protocol::Lines {
            match self.start() {
                Ok(w) => {
                    self.worker = Some(w);
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
    }

    fn overhead_ns(&self) -> u64 {
        self.overhead_ns + self.uncharged_ns
    }
}

impl ExecSolver {
    /// `--exec-mode stream`: every puzzle written at once (by the writer thread), the
    /// answers read as they come. A program that dies or hangs costs the puzzles not
    /// yet answered.
    fn stream(&mut self, puzzles: &[Grid], limits: &Limits) -> Vec<SolveOutcome> {
        let start = Instant::now();
        let Some(worker) = &mut self.worker else {
            let why = self.error.clone().unwrap_or_else(|| "not running".into());
            return puzzles.iter().map(|_| self.fail(why.clone())).collect();
        };
        let mut all = Vec::with_capacity(puzzles.len() * 82);
        let mut ends = Vec::with_capacity(puzzles.len());
        let base = worker.queued();
        for p in puzzles {
            all.extend(puzzle_line(p));
            ends.push(base + all.len() as u64);
        }
        worker.send(&all);
        let deadline = limits
            .deadline
            .unwrap_or_else(|| start + DEFAULT_TIMEOUT.saturating_mul(puzzles.len() as u32));
        let mut outcomes = Vec::with_capacity(puzzles.len());
        while outcomes.len() < puzzles.len() {
            let sent = ends[outcomes.len()];
            let out = match self.answer(limits, deadline, sent, false) {
                Ok(line) => match parse_answer(&line.unwrap_or_default(), limits.max_solutions) {
                    Ok(o) => o,
                    Err(why) => self.fail(why),
                },
                Err(out) => out,
            };
            let stop = out.failed || out.budget_exceeded;
            outcomes.push(out);
            if stop {
                // The rest were never answered: the same fate, said once.
                let answered = outcomes.len() - 1;
                if let Some(e) = &mut self.error {
                    *e = format!(
                        "{e} (after answering {answered} of {} puzzles)",
                        puzzles.len()
                    );
                }
                while outcomes.len() < puzzles.len() {
                    outcomes.push(out);
                }
            }
        }
        outcomes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    #[test]
    fn answers_of_every_form_and_lies() {
        let none = parse_answer(b"0\n", 2).unwrap();
        assert_eq!((none.solutions, none.solution), (0, None));
        assert_eq!(parse_answer(b"\r\n", 2).unwrap().solutions, 0);
        let bare = parse_answer(format!("{S}\n").as_bytes(), 2).unwrap();
        assert!(bare.count_is_lower_bound && bare.solutions == 1);
        let counted = parse_answer(format!("2:{S}\n").as_bytes(), 2).unwrap();
        assert!(!counted.count_is_lower_bound && counted.solutions == 2);
        assert_eq!(
            parse_answer(format!("9:{S}").as_bytes(), 2)
                .unwrap()
                .solutions,
            2
        );
        for lie in [
            &b"hello"[..],
            b"12345",
            b"x:1",
            b"0:".as_slice(),
            format!("0:{S}").as_bytes(),
        ] {
            let r = parse_answer(lie, 2);
            if lie == b"0:" {
                assert_eq!(r.unwrap().solutions, 0);
            } else {
                assert!(r.is_err(), "{:?}", String::from_utf8_lossy(lie));
            }
        }
    }
}
