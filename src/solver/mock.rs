//! Test-only solvers: one that panics on some puzzles, one that is slow by a known
//! factor, one that runs until its deadline or cancellation. They let tests check that
//! every command treats a failing, slow or hanging backend the same way.

use super::{DlxStatic, Limits, SolveOutcome, Solver};
use crate::board::nine::Grid;
use crate::cpu::thread_cpu_ns;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mock {
    /// Panics when the first cell holds this digit; solves the rest with dlx-static.
    PanicsOnFirstCell(u8),
    /// dlx-static, then spins until the call took this many thousandths as long as
    /// dlx-static alone (1500: half as long again), measured on the thread's CPU clock.
    Slow(u32),
    /// Searches without end, charging its budget, so only a limit stops it.
    Hang,
}

impl Mock {
    pub fn name(&self) -> &'static str {
        match self {
            Mock::PanicsOnFirstCell(_) => "mock-panic",
            Mock::Slow(_) => "mock-slow",
            Mock::Hang => "mock-hang",
        }
    }

    pub fn new_solver(&self) -> Box<dyn Solver> {
        Box::new(MockSolver {
            mock: *self,
            inner: DlxStatic::new(),
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
