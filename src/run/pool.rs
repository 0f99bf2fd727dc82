//! Solvers kept across the chunks of a run (and the passes of a bench): a rayon job
//! takes one and gives it back, so a foreign backend's processes are started once per
//! worker thread, never once per job, and never inside a timed region.

use crate::base::lock;
use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

use super::guarded::GuardedSolver;
use super::verify::Verify;
use crate::solver::{Backend, Limits};

pub struct SolverPool {
    backend: Backend,
    limits: Limits,
    verify: Option<Verify>,
    idle: Mutex<Vec<GuardedSolver>>,
}

impl SolverPool {
    /// Its solvers verify claims as `verify` says (`None`: never).
    pub fn new(backend: &Backend, limits: &Limits, verify: Option<Verify>) -> SolverPool {
        SolverPool {
            backend: backend.clone(),
            limits: *limits,
            verify,
            idle: Mutex::new(Vec::new()),
        }
    }

    fn make(&self) -> GuardedSolver {
        GuardedSolver::new(&self.backend, &self.limits, self.verify)
    }

    /// Makes sure `n` solvers are ready (started before anything is timed).
    pub fn prefill(&self, n: usize) {
        let mut idle = lock(&self.idle);
        let missing = n.saturating_sub(idle.len());
        idle.extend((0..missing).map(|_| self.make()));
    }

    /// A solver until the guard is dropped.
    pub fn get(&self) -> Pooled<'_> {
        let solver = lock(&self.idle).pop().unwrap_or_else(|| self.make());
        Pooled {
            pool: self,
            solver: Some(solver),
        }
    }
}

pub struct Pooled<'a> {
    pool: &'a SolverPool,
    solver: Option<GuardedSolver>,
}

impl Deref for Pooled<'_> {
    type Target = GuardedSolver;
    fn deref(&self) -> &GuardedSolver {
        self.solver.as_ref().expect("held until drop")
    }
}

impl DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut GuardedSolver {
        self.solver.as_mut().expect("held until drop")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        lock(&self.pool.idle).extend(self.solver.take());
    }
}
