//! `exec:` backends: a foreign program measured and checked like the built-in ones.
//!
//! The line protocol: one puzzle line in (81 characters, `.` blanks), one answer line out,
//! in order (every form at [`parse_answer`]); the count limit is in
//! `SUDOKU_BENCH_MAX_SOLUTIONS`. One process per worker thread, started and restarted
//! untimed; one that dies costs the puzzle in flight (`error`, with the end of its
//! stderr), one past the time limit has its group killed (`budget_exceeded`). A puzzle's
//! time is the program's own `ns=` (`Clock::Program`, within its round trip), else the
//! round trip less the transport calibrated during the run (`Clock::RoundTrip`). The
//! judge protocols (`exec:hdu1426:CMD`, `exec:poj3074:CMD`) are in `judge.rs`.

mod calibrate;
mod judge;
mod process;
mod spec;

pub use calibrate::Shared;
/// A program in a process group of its own (`bench --instructions` runs valgrind so).
pub(crate) use process::{FromChild, Wait, Worker};
pub use spec::{ExecMode, ExecSpec, Problem, Protocol};

use std::sync::Arc;
use std::time::{Duration, Instant};

use calibrate::Calibrator;
use process::MAX_ANSWER;

use super::{Clock, Counters, Limits, SolveOutcome, Solver};
use crate::base::bounds::shown;
use crate::board::nine::Grid;

/// The environment variable that tells the program the solution-count limit.
pub const MAX_SOLUTIONS_ENV: &str = "SUDOKU_BENCH_MAX_SOLUTIONS";

/// Puzzles a judge submission is fed per process.
pub const JUDGE_BATCH: usize = 1000;
/// Puzzles in flight in `--exec-mode stream`.
pub const STREAM_BATCH: usize = 256;

/// The per-puzzle time limit: `--timeout`, or 10 s.
pub fn per_puzzle_timeout(limits: &Limits) -> Duration {
    limits.timeout.unwrap_or(Duration::from_secs(10))
}

pub struct ExecSolver {
    spec: Arc<ExecSpec>,
    max_solutions: u32,
    worker: Option<Worker>,
    error: Option<String>,
    /// The transport of a round trip, for per-puzzle lines without a time of their own.
    calibrator: Option<Calibrator>,
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
            calibrator: per_puzzle.then(Calibrator::default),
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
        failed()
    }

    /// Fails the call of a program that is not running: why it could not start.
    fn not_running(&mut self) -> SolveOutcome {
        let why = self.error.clone().unwrap_or_else(|| "not running".into());
        self.fail(why)
    }

    /// Waits for the next answer line of `worker`: it must come after the program was
    /// given the puzzle's last byte, `sent` (one that never reads its input can answer
    /// only puzzles it was not given).
    /// `Ok(None)`: it had answered before and has now exited 0 without answering, when
    /// `one_shot` allows that (the caller restarts it).
    // The error is the call's outcome, made once per answer that did not come.
    #[allow(clippy::result_large_err)]
    fn answer(
        &mut self,
        limits: &Limits,
        deadline: Instant,
        sent: u64,
        one_shot: bool,
    ) -> Result<Option<Vec<u8>>, SolveOutcome> {
        let worker = self.worker.as_mut().expect("started");
        let program = &self.spec.program;
        let why = match worker.wait(deadline, || limits.cancelled()) {
            Wait::Got(FromChild::Line(_)) if worker.written < sent => format!(
                "{program} answered before reading its puzzle (its input is full: it does not read it)"
            ),
            Wait::Got(FromChild::Line(line)) => return Ok(Some(line)),
            Wait::Got(FromChild::TooLong(_)) => {
                format!("{program} answered with a line longer than {MAX_ANSWER} bytes")
            }
            Wait::Got(FromChild::Eof) if one_shot && worker.exited_cleanly() => return Ok(None),
            Wait::Got(FromChild::Eof) => format!("{program} {}", worker.obituary()),
            stop => {
                // Said once per program: why one that never answered may be silent.
                let silent = matches!(stop, Wait::TimedOut) && worker.answers == 0;
                if silent && self.spec.shared.first_warning() {
                    say!(
                        "warning: {} answered nothing within {:.1} s of its first puzzle: if it prints answers at all, its output is probably block-buffered (C's stdio buffers a pipe): flush after each answer (fflush(stdout); Python: print(..., flush=True)), or run it as exec:stdbuf -oL {}",
                        shown(self.spec.spec, &[]),
                        per_puzzle_timeout(limits).as_secs_f64(),
                        shown(program, &[]),
                    );
                }
                self.worker = None; // killed on drop
                return Err(stopped(stop));
            }
        };
        Err(self.fail(why))
    }

    /// An answer read that came back `elapsed_ns` after its puzzle was sent: a failure
    /// the program declared (`!`) is kept for `take_error`, its process kept running;
    /// nonsense fails the call and costs the process, and so does an own time longer
    /// than `elapsed_ns` (a unit mistake, or a lie).
    fn read(
        &mut self,
        line: &[u8],
        puzzle: &Grid,
        limits: &Limits,
        elapsed_ns: u64,
    ) -> SolveOutcome {
        let program = &self.spec.program;
        let why = match parse_answer(line, puzzle, limits.max_solutions) {
            Ok(Answer::Outcome(out)) => match out.time_ns {
                Some(ns) if ns > elapsed_ns => format!(
                    "{program} reported ns={ns} for a puzzle it answered {elapsed_ns} ns after it was sent: its time must be in nanoseconds and within that"
                ),
                _ => return out,
            },
            Ok(Answer::GaveUp(why)) => {
                self.error = Some(format!("{program} gave up: {why}"));
                return SolveOutcome {
                    budget_exceeded: true,
                    ..nothing()
                };
            }
            Ok(Answer::Failed(why)) => {
                self.error = Some(format!("{program} failed: {why}"));
                return failed();
            }
            Err(why) => why,
        };
        self.fail(why)
    }

    /// `--exec-mode stream`: every puzzle sent at once, the answers read as they come,
    /// each within the time limit of the one before; a program that dies or hangs costs
    /// the puzzles not yet answered.
    fn stream(
        &mut self,
        puzzles: &[&Grid],
        limits: &Limits,
    ) -> Vec<(SolveOutcome, Option<String>)> {
        let start = Instant::now();
        let Some(worker) = &mut self.worker else {
            return vec![(self.not_running(), None); puzzles.len()];
        };
        let mut all = Vec::with_capacity(puzzles.len() * 82);
        let mut ends = Vec::with_capacity(puzzles.len());
        let base = worker.queued;
        for p in puzzles {
            Problem::Poj3074.write_case(p, false, &mut all);
            ends.push(base + all.len() as u64);
        }
        worker.send(&all);
        let per_puzzle = per_puzzle_timeout(limits);
        let mut last = start;
        let mut outcomes = Vec::with_capacity(puzzles.len());
        while outcomes.len() < puzzles.len() {
            let k = outcomes.len();
            let deadline = limits.deadline.unwrap_or(last + per_puzzle);
            let out = match self.answer(limits, deadline, ends[k], false) {
                Ok(line) => {
                    last = Instant::now();
                    let elapsed = (last - start).as_nanos() as u64;
                    self.read(&line.unwrap_or_default(), puzzles[k], limits, elapsed)
                }
                Err(out) => out,
            };
            // What the program declared about this puzzle alone (`?`, `!`) is kept for
            // its own row.
            let gone = self.worker.is_none();
            let own = (!gone && (out.failed || out.budget_exceeded))
                .then(|| self.error.take())
                .flatten();
            outcomes.push((out, own));
            if gone {
                // The process is gone: the rest were never answered, the same fate,
                // said once.
                let answered = outcomes.len() - 1;
                if let Some(e) = &mut self.error {
                    *e = format!(
                        "{e} (after answering {answered} of {} puzzles)",
                        puzzles.len()
                    );
                }
                outcomes.resize(puzzles.len(), (out, None));
            }
        }
        outcomes
    }
}

/// An outcome of a program: it counts no nodes or guesses unless it says so.
fn nothing() -> SolveOutcome {
    SolveOutcome {
        counted: Counters::NONE,
        ..SolveOutcome::default()
    }
}

fn failed() -> SolveOutcome {
    SolveOutcome {
        failed: true,
        ..nothing()
    }
}

/// The outcome of a wait for the program that ended without its answer.
fn stopped(wait: Wait) -> SolveOutcome {
    SolveOutcome {
        budget_exceeded: true,
        timed_out: matches!(wait, Wait::TimedOut),
        cancelled: matches!(wait, Wait::Cancelled),
        ..nothing()
    }
}

/// What an answer line says: its claims (with its own time and counters if given), `?`
/// or `!` with why.
#[derive(Debug, PartialEq)]
pub enum Answer {
    Outcome(SolveOutcome),
    GaveUp(String),
    Failed(String),
}

/// Reads one answer to `puzzle`:
///
/// | answer | meaning |
/// |---|---|
/// | 81 digits | a solution; whether there are more is unknown |
/// | `0`, or nothing | no solution |
/// | `count:solution` | `count` solutions (up to the limit) and the first, which may be left out when there are two or more |
/// | `puzzle:count:solution` | the same, after the puzzle it answers (which must be the one sent) |
/// | `?` or `? why` | gave up: `budget_exceeded` |
/// | `!` or `! why` | failed on this puzzle: `error` |
///
/// After the answer, separated by spaces: `ns=N` (its own time for the puzzle, in
/// nanoseconds), `nodes=N`, `guesses=N`.
pub fn parse_answer(line: &[u8], puzzle: &Grid, max_solutions: u32) -> Result<Answer, String> {
    let text = String::from_utf8_lossy(line);
    let t = text.trim();
    let shown: String = t.chars().take(100).collect();
    let bad = |why: String| {
        format!(
            "answered {shown:?}: {why} (expected a solution, 0, count:solution, puzzle:count:solution, ? or !)"
        )
    };
    let reason = |rest: &str| -> String {
        let r = crate::base::bounds::shown(rest.trim(), &[]);
        match r.is_empty() {
            true => "no reason given".into(),
            false => r.chars().take(200).collect(),
        }
    };
    if let Some(rest) = t.strip_prefix('?') {
        return Ok(Answer::GaveUp(reason(rest)));
    }
    if let Some(rest) = t.strip_prefix('!') {
        return Ok(Answer::Failed(reason(rest)));
    }
    let mut out = nothing();
    let mut core = "";
    for (i, token) in t.split_ascii_whitespace().enumerate() {
        let Some((key, value)) = token.split_once('=') else {
            if i > 0 {
                return Err(bad(format!("{token:?} after the answer is not key=value")));
            }
            core = token;
            continue;
        };
        let n: u64 = value
            .parse()
            .map_err(|_| bad(format!("{value:?} in {key}= is not a whole number")))?;
        match key {
            "ns" => (out.time_ns, out.clock) = (Some(n), Clock::Program),
            "nodes" => (out.nodes, out.counted.nodes) = (n, true),
            "guesses" => (out.guesses, out.counted.guesses) = (n, true),
            _ => {
                return Err(bad(format!(
                    "unknown field {key:?} (ns=, nodes=, guesses=)"
                )));
            }
        }
    }
    let solution = |s: &str| match s {
        "" => Ok(None),
        _ => (Grid::from_line(s.as_bytes()).ok().filter(Grid::is_full))
            .map(Some)
            .ok_or_else(|| bad(format!("{s:?} is not an 81-digit solution"))),
    };
    let count = |c: &str| {
        c.parse::<u64>()
            .map(|n| n.min(u64::from(max_solutions)) as u32)
            .map_err(|_| bad(format!("{c:?} is not a count")))
    };
    let fields: Vec<&str> = core.split(':').collect();
    match fields[..] {
        [""] | ["0"] => {}
        [s] => {
            out.solution = solution(s)?;
            out.solutions = 1;
            out.count_is_lower_bound = true;
        }
        [.., c, s] if fields.len() <= 3 => {
            if let [p, _, _] = fields[..] {
                let echoed = Grid::from_line(p.as_bytes())
                    .map_err(|_| bad(format!("{p:?} is not an 81-cell puzzle")))?;
                if echoed != *puzzle {
                    return Err(bad(format!(
                        "it echoes puzzle {p}, not the one it was sent ({})",
                        puzzle.to_line()
                    )));
                }
            }
            out.solutions = count(c)?;
            out.solution = solution(s)?;
        }
        _ => return Err(bad("too many ':' fields".into())),
    }
    if out.solutions == 0 && out.solution.is_some() {
        return Err(bad("a solution with a count of 0".into()));
    }
    Ok(Answer::Outcome(out))
}

impl Solver for ExecSolver {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        // After an interrupt nothing is started or sent.
        if limits.cancelled() {
            return stopped(Wait::Cancelled);
        }
        if let Protocol::Judge(problem) = self.spec.protocol {
            let mut out = judge::solve_boards(self, problem, &[puzzle], limits);
            return out.pop().map_or_else(nothing, |(out, _)| out);
        }
        let start = Instant::now();
        // A restart in the middle of the call is not the program's time.
        let mut uncharged = Duration::ZERO;
        let mut deadline = limits
            .deadline
            .unwrap_or_else(|| start + per_puzzle_timeout(limits));
        // The line a puzzle is sent as is POJ 3074's case.
        let mut line = Vec::with_capacity(82);
        Problem::Poj3074.write_case(puzzle, false, &mut line);
        let mut retried = false;
        let line = loop {
            let Some(worker) = &mut self.worker else {
                return self.not_running();
            };
            let one_shot = !retried && worker.answers > 0;
            worker.send(&line);
            let sent = worker.queued;
            match self.answer(limits, deadline, sent, one_shot) {
                Ok(None) => {
                    // It answered, then exited 0 (a one-shot program) just as this
                    // puzzle was sent: restarted and the puzzle sent again, the time so
                    // far not charged. Once only: a program that keeps exiting without
                    // answering ends in an error.
                    retried = true;
                    self.worker = None;
                    let before = Instant::now();
                    self.prepare();
                    deadline += before.elapsed();
                    uncharged = start.elapsed();
                }
                Ok(Some(line)) => break line,
                Err(out) => return out,
            }
        };
        let round_trip = start.elapsed().saturating_sub(uncharged).as_nanos() as u64;
        let out = self.read(&line, puzzle, limits, round_trip);
        if out.failed {
            return out;
        }
        let transport = self.calibrator.as_ref().map_or(0, Calibrator::transport_ns);
        match out.time_ns {
            // What the round trip shows beyond the program's own time and the transport.
            Some(own) => SolveOutcome {
                unseen_ns: round_trip.saturating_sub(transport + own),
                ..out
            },
            None => SolveOutcome {
                time_ns: Some(round_trip.saturating_sub(transport)),
                clock: Clock::RoundTrip,
                ..out
            },
        }
    }

    fn solve_boards(
        &mut self,
        puzzles: &[&Grid],
        limits: &Limits,
    ) -> Option<Vec<(SolveOutcome, Option<String>)>> {
        if limits.cancelled() && self.batch_size() > 1 {
            return Some(vec![(stopped(Wait::Cancelled), None); puzzles.len()]);
        }
        Some(match (self.spec.protocol, self.spec.mode) {
            (Protocol::Lines, ExecMode::PerPuzzle) => return None,
            (Protocol::Lines, ExecMode::Stream) => self.stream(puzzles, limits),
            (Protocol::Judge(problem), _) => judge::solve_boards(self, problem, puzzles, limits),
        })
    }

    fn batch_size(&self) -> usize {
        match (self.spec.protocol, self.spec.mode) {
            (Protocol::Lines, ExecMode::PerPuzzle) => 1,
            (Protocol::Lines, ExecMode::Stream) => STREAM_BATCH,
            _ => JUDGE_BATCH,
        }
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    fn prepare(&mut self) {
        // After Ctrl-C nothing new is started (each puzzle left would spawn and kill one).
        if crate::base::interrupt::requested() {
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
        if let Some(c) = &mut self.calibrator {
            c.refresh(&self.spec.shared);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "6524839.797816243531497562882573614979182456343651987226934875154729138618365729.";
    const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    fn parse(line: &str) -> Result<Answer, String> {
        parse_answer(line.as_bytes(), &P.parse().unwrap(), 2)
    }

    fn outcome(line: &str) -> SolveOutcome {
        match parse(line) {
            Ok(Answer::Outcome(o)) => o,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn answers_of_every_form() {
        let none = outcome("0\n");
        assert_eq!((none.solutions, none.solution), (0, None));
        assert_eq!(outcome("\r\n").solutions, 0);
        assert_eq!(outcome("0:").solutions, 0);
        let bare = outcome(&format!("{S}\n"));
        assert!(bare.count_is_lower_bound && bare.solutions == 1);
        let counted = outcome(&format!("2:{S}\n"));
        assert!(!counted.count_is_lower_bound && counted.solutions == 2);
        assert_eq!(outcome(&format!("9:{S}")).solutions, 2);
        // Two or more need not show one.
        assert_eq!(outcome("2:").solution, None);
        // This project's own solutions format, as tdoku's example prints it.
        let echoed = outcome(&format!("{P}:1:{S}"));
        assert_eq!(
            (echoed.solutions, echoed.solution),
            (1, Some(S.parse().unwrap()))
        );
        assert_eq!(outcome(&format!("{}:2:", P.replace('.', "0"))).solutions, 2);
        // Its own time and counters.
        let timed = outcome(&format!("1:{S} ns=1234 nodes=7 guesses=2"));
        assert_eq!(timed.time_ns, Some(1234));
        assert_eq!((timed.nodes, timed.guesses), (7, 2));
        assert_eq!(timed.counted, Counters::default());
        assert_eq!(outcome("0 ns=5").time_ns, Some(5));
        assert_eq!(outcome(&format!("1:{S}")).counted, Counters::NONE);
    }

    #[test]
    fn giving_up_and_failing_are_never_no_solution() {
        assert_eq!(
            parse("?").unwrap(),
            Answer::GaveUp("no reason given".into())
        );
        assert_eq!(
            parse("? out of time\r\n").unwrap(),
            Answer::GaveUp("out of time".into())
        );
        assert_eq!(
            parse("! panicked: x").unwrap(),
            Answer::Failed("panicked: x".into())
        );
    }

    #[test]
    fn lies_and_nonsense_are_errors() {
        let other = format!("{}:1:{S}", S.replace('6', "."));
        for lie in [
            "hello",
            "12345",
            "x:1",
            &format!("0:{S}"),
            &format!("1:{S} extra"),
            &format!("1:{S} ns=-3"),
            &format!("1:{S} us=3"),
            &other,
            &format!("{P}:1:{S}:1"),
            &format!("1:{}", &S[..80]),
            &format!("1:{}", P),
        ] {
            assert!(parse(lie).is_err(), "{lie:?}");
        }
    }
}
