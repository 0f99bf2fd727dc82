//! The one way every command solves a puzzle: the deadline set as the call starts, the
//! node budget and the cancel flag passed in, the call timed, a panic caught and the
//! solver replaced (the panic may have left it broken).

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::Once;
use std::time::Instant;

use super::assess::Assessor;
use super::result::{Attempt, PuzzleResult};
use super::verify::{Truth, Verify, verifier_of};
use crate::base::cpu::monotonic_ns;
use crate::board::nine::Grid;
use crate::board::{Board, Square};
use crate::record::Record;
use crate::solver::{Backend, Clock, DEFAULT_MAX_NODES, Limits, SolveOutcome, Solver};

/// A backend's solver behind the guards every command shares. One per thread.
pub struct GuardedSolver {
    backend: Backend,
    /// The backend's name as results carry it: for 9x9 boards, and for the others
    /// (they differ for `fastest`, which names the backend that solved each).
    name: &'static str,
    other_name: &'static str,
    /// Whether the backend solves at all (`null` does not).
    is_solver: bool,
    limits: Limits,
    solver: Box<dyn Solver>,
    /// Checks the backend's claims, when they are verified.
    verifier: Option<Box<Verifier>>,
}

impl GuardedSolver {
    /// A solver whose claims are verified when the backend is foreign (see
    /// [`GuardedSolver::verifying`]).
    pub fn new(backend: &Backend, limits: &Limits) -> GuardedSolver {
        GuardedSolver {
            backend: backend.clone(),
            name: backend.for_side(9).name(),
            other_name: backend.for_side(16).name(),
            is_solver: backend.is_solver(),
            limits: *limits,
            solver: backend.new_solver_with(limits),
            verifier: Verifier::of(backend, Verify::default(), limits).map(Box::new),
        }
    }

    /// Verifies the backend's claims as `verify` says (`None`: never, for a verifier's
    /// own solvers).
    pub fn verifying(mut self, verify: Option<Verify>) -> GuardedSolver {
        self.verifier = verify
            .and_then(|v| Verifier::of(&self.backend, v, &self.limits))
            .map(Box::new);
        self
    }

    /// The backend's name, as results carry it.
    pub fn name(&self) -> &'static str {
        self.name
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
        match board {
            Board::Nine(g) => self.timed_nine(g),
            Board::Other(s) => self.attempt_square(s),
        }
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
        let start = monotonic_ns();
        let done =
            std::panic::catch_unwind(AssertUnwindSafe(|| self.solver.complete(grid, outcome)));
        outcome.unseen_ns += monotonic_ns().saturating_sub(start).max(1);
        let message = match done {
            Ok(Ok(())) => return,
            Ok(Err(message)) => message,
            Err(payload) => {
                self.solver = self.backend.new_solver_with(&self.limits);
                format!("panicked: {}", panic_message(payload.as_ref()))
            }
        };
        *attempt = Attempt::Failed { message, time_ns };
    }

    /// Solves a board that is not 9x9, if the backend can.
    fn attempt_square(&mut self, square: &Square) -> Attempt {
        if !self.solver.solves_side(square.side()) {
            return Attempt::Unsupported;
        }
        let mut answer = None;
        let attempt = self.timed(|solver, limits| match solver.solve_square(square, limits) {
            Some((outcome, solution)) => {
                answer = Some(solution);
                outcome
            }
            None => SolveOutcome::default(),
        });
        match (attempt, answer) {
            (
                Attempt::Solved {
                    outcome,
                    time_ns,
                    note,
                    ..
                },
                Some(solution),
            ) => Attempt::Solved {
                outcome,
                square: solution.map(Box::new),
                time_ns,
                note,
            },
            (Attempt::Solved { .. }, None) => Attempt::Unsupported,
            (other, _) => other,
        }
    }

    fn timed_nine(&mut self, grid: &Grid) -> Attempt {
        if !self.solver.solves_side(9) {
            return Attempt::Unsupported;
        }
        self.timed(|solver, limits| solver.solve(grid, limits))
    }

    /// Runs one call under the guards: the deadline set as it starts, timed, a panic
    /// caught. The time is the harness's clock around the call, unless the solver
    /// measured the work itself (`SolveOutcome::time_ns`: a library's call alone, a
    /// program's own report).
    fn timed(&mut self, call: impl FnOnce(&mut dyn Solver, &Limits) -> SolveOutcome) -> Attempt {
        self.solver.prepare();
        let solver = &mut self.solver;
        let limits = Limits {
            // Bounded when the options were checked; `checked_add` for any other caller.
            deadline: match self.limits.timeout {
                Some(t) => Instant::now().checked_add(t),
                None => self.limits.deadline,
            },
            ..self.limits
        };
        IN_GUARD.with(|g| g.set(true));
        let start = monotonic_ns();
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| call(&mut **solver, &limits)));
        let elapsed = monotonic_ns().saturating_sub(start);
        IN_GUARD.with(|g| g.set(false));
        match caught {
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
            Err(payload) => {
                self.solver = self.backend.new_solver_with(&self.limits);
                Attempt::Panicked {
                    message: panic_message(payload.as_ref()),
                    time_ns: elapsed,
                }
            }
        }
    }

    /// Runs one batch call of `n` puzzles under the guards: the time limit stays a
    /// per-puzzle limit (`Limits::timeout`, no deadline for the whole batch: the solver
    /// applies it puzzle by puzzle, or says how it did), a panic is caught (its message
    /// returned). The time returned is the batch's share per puzzle, for outcomes whose
    /// solver measured none. `Ok(None)`: no batch (or a wrong number of outcomes).
    fn timed_batch<T>(
        &mut self,
        n: usize,
        call: impl FnOnce(&mut dyn Solver, &Limits) -> Option<Vec<T>>,
    ) -> (Result<Option<Vec<T>>, String>, u64) {
        self.solver.prepare();
        let limits = Limits {
            deadline: None,
            ..self.limits
        };
        let solver = &mut self.solver;
        IN_GUARD.with(|g| g.set(true));
        let start = monotonic_ns();
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| call(&mut **solver, &limits)));
        let time_ns = monotonic_ns().saturating_sub(start) / n as u64;
        IN_GUARD.with(|g| g.set(false));
        match caught {
            Ok(outcomes) => (Ok(outcomes.filter(|o| o.len() == n)), time_ns),
            Err(payload) => {
                self.solver = self.backend.new_solver_with(&self.limits);
                (Err(panic_message(payload.as_ref())), time_ns)
            }
        }
    }

    /// The attempts of a batch's outcomes, `time_ns` the batch's time per puzzle: a
    /// failure (said once by the solver) marks every failed one.
    fn batch_attempts(
        &mut self,
        outcomes: impl ExactSizeIterator<Item = (SolveOutcome, Option<Box<Square>>)>,
        time_ns: u64,
    ) -> Vec<Attempt> {
        let outcomes: Vec<_> = outcomes.collect();
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
        let mut own = self.solver.take_case_errors();
        own.resize(outcomes.len(), None);
        outcomes
            .into_iter()
            .zip(own)
            .map(|((mut outcome, square), own)| {
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
                        square,
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

    /// Solves boards of any size, in one batch when the solver works in batches (each
    /// puzzle gets the batch's time divided by its size), else one at a time; the
    /// attempts in the boards' order. Boards of a size the solver does not take are
    /// left out of the batch.
    pub fn attempt_boards(&mut self, boards: &[Board]) -> Vec<Attempt> {
        let takes = |solver: &dyn Solver, b: &Board| solver.solves_side(b.side());
        let taken = boards.iter().filter(|b| takes(&*self.solver, b)).count();
        if self.solver.batch_size() <= 1 || taken <= 1 {
            return boards.iter().map(|b| self.attempt_board(b)).collect();
        }
        // One copy, of the boards the batch takes: `solve_boards` wants a slice.
        let batch: Vec<Board> = boards
            .iter()
            .filter(|b| takes(&*self.solver, b))
            .cloned()
            .collect();
        let (caught, time_ns) = self.timed_batch(batch.len(), |solver, limits| {
            solver.solve_boards(&batch, limits)
        });
        let mut attempts = match caught {
            Ok(Some(outcomes)) => self.batch_attempts(
                outcomes.into_iter().map(|(o, s)| (o, s.map(Box::new))),
                time_ns,
            ),
            Ok(None) => batch.iter().map(|b| self.attempt_board(b)).collect(),
            Err(message) => vec![Attempt::Panicked { message, time_ns }; batch.len()],
        }
        .into_iter();
        boards
            .iter()
            .map(|b| match takes(&*self.solver, b) {
                true => attempts.next().expect("one attempt per board taken"),
                false => Attempt::Unsupported,
            })
            .collect()
    }

    /// The results for several records, their puzzles solved as one batch.
    pub fn solve_records<'r>(
        &mut self,
        records: &'r [Record],
        thread: Option<usize>,
    ) -> Vec<PuzzleResult<'r>> {
        let solvable = |r: &Record| {
            r.puzzle
                .as_ref()
                .ok()
                .filter(|p| !p.board.has_conflict())
                .map(|p| p.board.clone())
        };
        let boards: Vec<Board> = records.iter().filter_map(solvable).collect();
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
        let truth = match (&record.puzzle, claims(&attempt)) {
            (Ok(puzzle), true) => self.truth(&puzzle.board),
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
        // Only `fastest` names another backend for other sizes.
        let name = match &record.puzzle {
            Ok(p) if !std::ptr::eq(self.name, self.other_name) && p.board.side() != 9 => {
                self.other_name
            }
            _ => self.name,
        };
        let assessor = Assessor {
            backend: name,
            is_solver: self.is_solver,
            limits: &self.limits,
        };
        assessor.assess(record, attempt, thread, truth)
    }
}

/// Whether an attempt claims something a verifier can check: a search that finished.
pub(crate) fn claims(attempt: &Attempt) -> bool {
    matches!(attempt, Attempt::Solved { outcome, .. } if !outcome.budget_exceeded && !outcome.failed)
}

/// The verifying solvers of one thread, made when first needed.
pub struct Verifier {
    backend: Backend,
    limits: Limits,
    nine: Option<GuardedSolver>,
    other: Option<GuardedSolver>,
}

impl Verifier {
    /// The verifier of `backend`'s claims under `verify`, or `None` when they are not
    /// verified. It counts as far as the run does (`max_solutions`), with a node budget
    /// of its own (at least the default) and no time limit: a verification is never
    /// cut short by the clock of the backend it checks.
    pub fn of(backend: &Backend, verify: Verify, limits: &Limits) -> Option<Verifier> {
        verify
            .covers(backend)
            .then(|| Verifier::new(backend, limits))
    }

    /// The verifier of `backend`'s claims, whatever `--verify` says.
    pub fn new(backend: &Backend, limits: &Limits) -> Verifier {
        Verifier {
            backend: backend.clone(),
            limits: Limits {
                max_solutions: limits.max_solutions,
                max_nodes: limits.max_nodes.max(DEFAULT_MAX_NODES),
                deadline: None,
                timeout: None,
                cancel: limits.cancel,
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
            GuardedSolver::new(&verifier_of(&self.backend, side), &self.limits).verifying(None)
        });
        let by = solver.name();
        match solver.attempt_board(board) {
            Attempt::Solved { outcome, .. } => Truth {
                count: outcome.solutions,
                finished: !outcome.budget_exceeded,
                by,
            },
            _ => Truth {
                count: 0,
                finished: false,
                by,
            },
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
    // Static: the panic hook is one per process.
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

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}
