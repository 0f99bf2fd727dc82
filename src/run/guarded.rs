//! The one way every command solves a puzzle: the deadline set as the call starts, the
//! node budget and the cancel flag passed in, the call timed, a panic caught and the
//! solver replaced (the panic may have left it broken).

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Once};
use std::time::Instant;

use super::assess::assess;
use super::result::PuzzleResult;
use crate::grid::Grid;
use crate::record::Record;
use crate::solver::{Backend, Limits, SolveOutcome, Solver};

/// What happened when a record met the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Not solved: a parse error, or conflicting givens.
    Skipped,
    Solved {
        outcome: SolveOutcome,
        time_ns: u64,
    },
    /// The backend panicked, with this message.
    Panicked {
        message: String,
        time_ns: u64,
    },
}

/// A backend's solver behind the guards every command shares. One per thread.
pub struct GuardedSolver {
    backend: Backend,
    name: Arc<str>,
    limits: Limits,
    solver: Box<dyn Solver>,
}

impl GuardedSolver {
    pub fn new(backend: &Backend, limits: &Limits) -> GuardedSolver {
        GuardedSolver {
            backend: backend.clone(),
            name: backend.name().into(),
            limits: *limits,
            solver: backend.new_solver(),
        }
    }

    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Solves `grid` once and times the call.
    pub fn attempt(&mut self, grid: &Grid) -> Attempt {
        let start = Instant::now();
        let limits = Limits {
            // Bounded when the options were checked; `checked_add` for any other caller.
            deadline: match self.limits.timeout {
                Some(t) => start.checked_add(t),
                None => self.limits.deadline,
            },
            ..self.limits
        };
        let solver = &mut self.solver;
        IN_GUARD.with(|g| g.set(true));
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| solver.solve(grid, &limits)));
        IN_GUARD.with(|g| g.set(false));
        let time_ns = start.elapsed().as_nanos() as u64;
        match caught {
            Ok(outcome) => Attempt::Solved { outcome, time_ns },
            Err(payload) => {
                self.solver = self.backend.new_solver();
                Attempt::Panicked {
                    message: panic_message(payload.as_ref()),
                    time_ns,
                }
            }
        }
    }

    /// Checks the givens, solves, checks the answer: the result for one record.
    pub fn solve_record(&mut self, record: &Record, thread: Option<usize>) -> PuzzleResult {
        let attempt = match &record.body {
            Ok(puzzle) if puzzle.grid.find_conflict().is_none() => self.attempt(&puzzle.grid),
            _ => Attempt::Skipped,
        };
        self.assess(record, attempt, thread)
    }

    /// The result for a record given what the solver did with it.
    pub fn assess(&self, record: &Record, attempt: Attempt, thread: Option<usize>) -> PuzzleResult {
        assess(
            record,
            &self.name,
            self.backend.is_solver(),
            &self.limits,
            attempt,
            thread,
        )
    }
}

thread_local! {
    /// Set while a guarded solver runs on this thread.
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

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}
