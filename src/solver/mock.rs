//! Test-only solvers: one that panics on some puzzles, one that is slow by a known
//! factor, one that runs until its deadline or cancellation, one that does a known share
//! of more work, one that gives up after a while. They let tests check that every
//! command treats a failing, slow, hanging or flaky backend the same way.

use std::cell::Cell;

use super::{DlxStatic, Limits, SolveOutcome, Solver};
use crate::base::cpu::thread_cpu_ns;
use crate::board::nine::Grid;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mock {
    /// Panics when the first cell holds this digit; solves the rest with dlx-static.
    PanicsOnFirstCell(u8),
    /// dlx-static, then spins until the call took this many thousandths as long as
    /// dlx-static alone (1500: half as long again), measured on the thread's CPU clock.
    Slow(u32),
    /// Searches without end, charging its budget, so only a limit stops it.
    Hang,
    /// dlx-static, solving every this-many-th call twice (on this thread).
    Repeats(u32),
    /// dlx-static for this many calls on this thread, then gives up on every puzzle.
    GivesUpAfter(u32),
}

thread_local! {
    /// Calls made on this thread by the mocks that count them (each test has a thread).
    /// Static (neither signal nor C ABI): the Solver trait gives a mock no state of its
    /// own across the calls the harness makes.
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// The number of this call on this thread, from 1.
fn call_number() -> u64 {
    CALLS.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}

impl Mock {
    pub fn name(&self) -> &'static str {
        match self {
            Mock::PanicsOnFirstCell(_) => "mock-panic",
            Mock::Slow(_) => "mock-slow",
            Mock::Hang => "mock-hang",
            Mock::Repeats(_) => "mock-repeats",
            Mock::GivesUpAfter(_) => "mock-gives-up",
        }
    }

    pub fn new_solver(&self) -> Box<dyn Solver> {
        Box::new(MockSolver {
            mock: *self,
            inner: DlxStatic::default(),
        })
    }
}

struct MockSolver {
    mock: Mock,
    inner: DlxStatic,
}

impl Solver for MockSolver {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        match self.mock {
            Mock::PanicsOnFirstCell(d) => {
                assert_ne!(puzzle.get(0), d, "the trigger puzzle");
                self.inner.solve(puzzle, limits)
            }
            Mock::Slow(permille) => {
                let start = thread_cpu_ns();
                let out = self.inner.solve(puzzle, limits);
                let until = start + (thread_cpu_ns() - start) * u64::from(permille) / 1000;
                while thread_cpu_ns() < until {
                    std::hint::spin_loop();
                }
                out
            }
            Mock::Repeats(n) => {
                if call_number().is_multiple_of(u64::from(n)) {
                    std::hint::black_box(self.inner.solve(puzzle, limits));
                }
                self.inner.solve(puzzle, limits)
            }
            Mock::GivesUpAfter(n) if call_number() > u64::from(n) => SolveOutcome {
                budget_exceeded: true,
                ..SolveOutcome::default()
            },
            Mock::GivesUpAfter(_) => self.inner.solve(puzzle, limits),
            Mock::Hang => {
                let mut out = SolveOutcome::default();
                let mut budget = limits.budget();
                loop {
                    out.nodes += 1;
                    if let Some(stop) = budget.charge(out.nodes) {
                        out.stopped(stop);
                        return out;
                    }
                    std::hint::black_box(&out);
                }
            }
        }
    }
}
