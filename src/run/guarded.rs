//! The one way every command solves a puzzle: the deadline set as the call starts, the
//! node budget and the cancel flag passed in, the call timed, a panic caught and the
//! solver replaced (the panic may have left it broken).

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::Once;
use std::time::Instant;

use super::assess::assess;
use super::result::{Attempt, PuzzleResult};
use super::verify::{Truth, Verify, verifier_of};
use crate::base::cpu::monotonic_ns;
use crate::board::Board;
use crate::board::nine::Grid;
use crate::record::Record;
use crate::solver::{Backend, Clock, DEFAULT_MAX_NODES, Limits, SolveOutcome, Solver};

/// A backend's solver behind the guards every command shares. One per thread.
pub struct GuardedSolver {
    backend: Backend,
    limits: Limits,
    solver: Box<dyn Solver>,
    /// Checks the backend's claims, when they are verified.
    verifier: Option<Box<Verifier>>,
}

impl GuardedSolver {
    /// A solver whose claims are verified as `verify` says (`None`: never, for a
    /// verifier's own solvers).
    pub fn new(backend: &Backend, limits: &Limits, verify: Option<Verify>) -> GuardedSolver {
        GuardedSolver {
            backend: backend.clone(),
            limits: *limits,
            solver: backend.new_solver_with(limits),
            verifier: (verify.is_some_and(|v| v.covers(backend)))
                .then(|| Box::new(Verifier::new(backend, limits))),
        }
    }

    /// Solves a board of any size once and times the call; what the call left
    /// pending (a second call for a solution) is done at once, after the clock.
    pub fn attempt_board(&mut self, board: &Board) -> Attempt {
        let mut attempt = self.timed_board(board);
        self.complete(board, &mut attempt);
        attempt
    }

    /// Solves a board of any size once and times the call, leaving what it left
    /// pending to [`GuardedSolver::complete`]: `bench` times a stretch of calls back to
    /// back, then completes them, so that no extra work runs between two timed calls.
    pub fn timed_board(&mut self, board: &Board) -> Attempt {
        if !self.backend.solves_side(board.side()) {
            return Attempt::Unsupported;
        }
        let square = match board {
            Board::Nine(grid) => return self.timed(|solver, limits| solver.solve(grid, limits)),
            Board::Other(square) => square,
        };
        let mut answer = None;
        let mut attempt = self.timed(|solver, limits| {
            let (outcome, solution) = solver.solve_square(square, limits)?;
            answer = Some(solution);
            Some(outcome)
        });
        match (&mut attempt, answer) {
            (Attempt::Solved { square, .. }, Some(solution)) => *square = solution.map(Box::new),
            (Attempt::Solved { .. }, None) => return Attempt::Unsupported,
            _ => {}
        }
        attempt
    }

    /// Does what the call of `attempt` on `board` left pending, untimed: a solver
    /// that could not do it fails the call.
    pub fn complete(&mut self, board: &Board, attempt: &mut Attempt) {
        let (
            Board::Nine(grid),
            Attempt::Solved {
                outcome, time_ns, ..
            },
        ) = (board, &mut *attempt)
        else {
            return;
        };
        if !outcome.solution_pending {
            return;
        }
        let time_ns = *time_ns;
        // Timed, outside the call's time: work a solver leaves to this call is seen.
        let (done, elapsed) = self.guarded(false, |solver, _| solver.complete(grid, outcome));
        outcome.unseen_ns += elapsed.max(1);
        let message = match done {
            Ok(Ok(())) => return,
            Ok(Err(message)) => message,
            Err(panic) => format!("panicked: {panic}"),
        };
        *attempt = Attempt::Failed { message, time_ns };
    }

    /// Runs one call under the guards: the deadline set as it starts, timed, a panic
    /// caught. The time is the harness's clock around the call, unless the solver
    /// measured the work itself (`SolveOutcome::time_ns`: a library's call alone, a
    /// program's own report). A call that returns no outcome is `Solved` with none
    /// (its caller says what that means).
    fn timed<T: Into<Option<SolveOutcome>>>(
        &mut self,
        call: impl FnOnce(&mut dyn Solver, &Limits) -> T,
    ) -> Attempt {
        let (caught, elapsed) = self.guarded(false, call);
        match caught.map(|o| o.into().unwrap_or_default()) {
            Ok(outcome) if outcome.failed => Attempt::Failed {
                message: self.failure(),
                time_ns: outcome.time_ns.unwrap_or(elapsed),
            },
            Ok(outcome) => Attempt::Solved {
                time_ns: outcome.time_ns.unwrap_or(elapsed),
                note: outcome
                    .budget_exceeded
                    .then(|| self.solver.take_error())
                    .flatten(),
                outcome,
                square: None,
            },
            Err(message) => Attempt::Panicked {
                message,
                time_ns: elapsed,
            },
        }
    }

    /// Runs `call` under the guards: the solver prepared, the call timed, a panic
    /// caught (its message returned, the solver replaced: the panic may have left it
    /// broken). The deadline is set as the call starts; a batch has none (`batch`: the
    /// time limit stays a per-puzzle limit, `Limits::timeout`, which the solver applies
    /// puzzle by puzzle, or says how it did).
    fn guarded<T>(
        &mut self,
        batch: bool,
        call: impl FnOnce(&mut dyn Solver, &Limits) -> T,
    ) -> (Result<T, String>, u64) {
        self.solver.prepare();
        let deadline = match self.limits.timeout {
            _ if batch => None,
            // Bounded when the options were checked; `checked_add` for any other caller.
            Some(t) => Instant::now().checked_add(t),
            None => self.limits.deadline,
        };
        let limits = Limits {
            deadline,
            ..self.limits
        };
        let solver = &mut self.solver;
        IN_GUARD.with(|g| g.set(true));
        let start = monotonic_ns();
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| call(&mut **solver, &limits)));
        let elapsed = monotonic_ns().saturating_sub(start);
        IN_GUARD.with(|g| g.set(false));
        let caught = caught.map_err(|payload| {
            self.solver = self.backend.new_solver_with(&self.limits);
            (payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string())
        });
        (caught, elapsed)
    }

    /// The attempts of a batch's outcomes, `time_ns` the batch's time per puzzle: a
    /// failure (said once by the solver) marks every failed one.
    fn batch_attempts(
        &mut self,
        outcomes: Vec<(SolveOutcome, Option<String>)>,
        time_ns: u64,
    ) -> Vec<Attempt> {
        // Puzzles the solver did not time share what is left of the batch's time after
        // those it did.
        let reported: u64 = outcomes.iter().filter_map(|(o, _)| o.time_ns).sum();
        let unreported = outcomes.iter().filter(|(o, _)| o.time_ns.is_none()).count() as u64;
        let share = (time_ns * outcomes.len() as u64).saturating_sub(reported) / unreported.max(1);
        let error = outcomes
            .iter()
            .any(|(o, _)| o.failed)
            .then(|| self.failure());
        // Each puzzle's own reason where the solver kept one.
        outcomes
            .into_iter()
            .map(|(mut outcome, own)| {
                let time_ns = match outcome.time_ns {
                    Some(t) => t,
                    None => {
                        outcome.clock = Clock::Batch;
                        share
                    }
                };
                match (outcome.failed, &error) {
                    (true, Some(message)) => Attempt::Failed {
                        message: own.unwrap_or_else(|| message.clone()),
                        time_ns,
                    },
                    _ => Attempt::Solved {
                        note: own.filter(|_| outcome.budget_exceeded),
                        outcome,
                        square: None,
                        time_ns,
                    },
                }
            })
            .collect()
    }

    /// The message of a failed call.
    fn failure(&mut self) -> String {
        self.solver
            .take_error()
            .unwrap_or_else(|| "the backend failed without saying why".to_string())
    }

    /// How many puzzles the solver takes at once.
    pub fn batch_size(&self) -> usize {
        self.solver.batch_size()
    }

    /// Solves boards of any size, the 9x9 ones in one batch when the solver works in
    /// batches (each puzzle gets the batch's time divided by its size), the rest one at
    /// a time; the attempts in the boards' order.
    pub fn attempt_boards(&mut self, boards: &[Board]) -> Vec<Attempt> {
        let grids: Vec<&Grid> = boards.iter().filter_map(Board::nine).collect();
        let n = grids.len();
        if self.solver.batch_size() <= 1 || n <= 1 {
            return boards.iter().map(|b| self.attempt_board(b)).collect();
        }
        let (caught, elapsed) =
            self.guarded(true, |solver, limits| solver.solve_boards(&grids, limits));
        let time_ns = elapsed / n as u64;
        let mut attempts = match caught {
            Ok(Some(outcomes)) if outcomes.len() == n => self.batch_attempts(outcomes, time_ns),
            Ok(_) => grids
                .iter()
                .map(|&&g| self.attempt_board(&Board::Nine(g)))
                .collect(),
            Err(message) => vec![Attempt::Panicked { message, time_ns }; n],
        }
        .into_iter();
        boards
            .iter()
            .map(|b| match b {
                Board::Nine(_) => attempts.next().expect("one attempt per 9x9 board"),
                Board::Other(_) => self.attempt_board(b),
            })
            .collect()
    }

    /// The results for several records, their puzzles solved as one batch.
    pub fn solve_records<'r>(
        &mut self,
        records: &'r [Record],
        thread: Option<usize>,
    ) -> Vec<PuzzleResult<'r>> {
        let solvable = |r: &'r Record| r.puzzle.as_ref().ok().filter(|p| !p.board.has_conflict());
        let boards: Vec<Board> = records
            .iter()
            .filter_map(|r| Some(solvable(r)?.board.clone()))
            .collect();
        let mut attempts = self.attempt_boards(&boards).into_iter();
        records
            .iter()
            .map(|r| {
                let attempt = match solvable(r) {
                    Some(_) => attempts.next().expect("one attempt per puzzle"),
                    None => Attempt::Skipped,
                };
                self.assess(r, attempt, thread)
            })
            .collect()
    }

    /// Checks the givens, solves, checks the answer: the result for one record.
    pub fn solve_record<'r>(
        &mut self,
        record: &'r Record,
        thread: Option<usize>,
    ) -> PuzzleResult<'r> {
        let attempt = match &record.puzzle {
            Ok(puzzle) if !puzzle.board.has_conflict() => self.attempt_board(&puzzle.board),
            _ => Attempt::Skipped,
        };
        self.assess(record, attempt, thread)
    }

    /// The verifier's count of `board`'s solutions, untimed, when this backend's claims
    /// are verified (`gen` relies on every count a foreign backend gives).
    pub fn truth(&mut self, board: &Board) -> Option<Truth> {
        self.verifier.as_mut().map(|v| v.truth(board))
    }

    /// The result for a record given what the solver did with it: its claims verified
    /// here, untimed, when they are verified.
    #[inline]
    pub fn assess<'r>(
        &mut self,
        record: &'r Record,
        attempt: Attempt,
        thread: Option<usize>,
    ) -> PuzzleResult<'r> {
        // A search that finished claims something a verifier can check.
        let truth = match (&record.puzzle, &attempt) {
            (Ok(puzzle), Attempt::Solved { outcome, .. })
                if !outcome.budget_exceeded && !outcome.failed =>
            {
                self.truth(&puzzle.board)
            }
            _ => None,
        };
        self.assess_with(record, attempt, thread, truth)
    }

    /// The result for a record given what the solver did with it and, when its claims
    /// are verified, the truth found beforehand (`bench` finds it once per dataset).
    pub fn assess_with<'r>(
        &self,
        record: &'r Record,
        attempt: Attempt,
        thread: Option<usize>,
        truth: Option<Truth>,
    ) -> PuzzleResult<'r> {
        // `fastest` names the backend that took the record (bitboard where none did).
        let name = match (&self.backend, &record.puzzle) {
            (Backend::Fastest, Ok(p)) => Backend::fastest_for(p.board.side()).name(),
            (Backend::Fastest, Err(_)) => Backend::fastest_for(9).name(),
            (backend, _) => backend.name(),
        };
        assess(
            name,
            self.backend.is_solver(),
            &self.limits,
            record,
            attempt,
            thread,
            truth,
        )
    }
}

/// The verifying solvers of one thread, made when first needed.
pub struct Verifier {
    backend: Backend,
    limits: Limits,
    nine: Option<GuardedSolver>,
    other: Option<GuardedSolver>,
}

impl Verifier {
    /// The verifier of `backend`'s claims. It counts as far as the run does
    /// (`max_solutions`), with a node budget of its own (at least the default) and no
    /// time limit: a verification is never cut short by the clock of the backend it
    /// checks.
    pub fn new(backend: &Backend, limits: &Limits) -> Verifier {
        Verifier {
            backend: backend.clone(),
            limits: Limits {
                max_nodes: limits.max_nodes.max(DEFAULT_MAX_NODES),
                deadline: None,
                timeout: None,
                ..*limits
            },
            nine: None,
            other: None,
        }
    }

    /// The true count of `board`'s solutions (up to the limit), untimed.
    pub fn truth(&mut self, board: &Board) -> Truth {
        let side = board.side();
        let slot = match side {
            9 => &mut self.nine,
            _ => &mut self.other,
        };
        let solver = slot.get_or_insert_with(|| {
            GuardedSolver::new(&verifier_of(&self.backend, side), &self.limits, None)
        });
        let (count, finished) = match solver.attempt_board(board) {
            Attempt::Solved { outcome, .. } => (outcome.solutions, !outcome.budget_exceeded),
            _ => (0, false),
        };
        Truth {
            count,
            finished,
            by: solver.backend.name(),
        }
    }
}

thread_local! {
    /// Set while a guarded solver runs on this thread. Static: the panic hook, process-wide
    /// like a signal handler, reads it and takes no arguments of ours.
    static IN_GUARD: Cell<bool> = const { Cell::new(false) };
}

/// A backend's panic is caught and reported in that puzzle's row; the default hook
/// would also print it on stderr, once per puzzle. This keeps the default hook for
/// every other panic. Installed once per process.
pub fn quiet_guarded_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_GUARD.with(Cell::get) {
                default(info);
            }
        }));
    });
}
