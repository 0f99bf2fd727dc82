//! Claims verified: what a backend says about a puzzle (no solution, exactly one, two or
//! more) checked against a built-in backend that solves that board, outside the clock.
//!
//! A solution is checked on its own (`Board::check_solution_of`); a count is a claim the
//! solution cannot prove: "no solution" for a solvable puzzle, "unique" from a program
//! that stopped at the first solution. Foreign backends (`exec:`, `lib:`) are always
//! verified; `--verify all` verifies the built-in ones too, each by another backend.

use crate::solver::Backend;

/// Whose claims are verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verify {
    /// Foreign backends only (the default: the built-in ones are tested against known
    /// answers).
    #[default]
    Foreign,
    /// Every backend, a built-in one by another built-in one.
    All,
}

impl Verify {
    pub fn covers(self, backend: &Backend) -> bool {
        backend.is_solver() && (backend.is_foreign() || self == Verify::All)
    }
}

/// What the verifier found for a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truth {
    /// Solutions, up to the run's `max_solutions`.
    pub count: u32,
    /// False when the verifier ran out of its budget: the count is a lower bound.
    pub finished: bool,
    pub by: &'static str,
}

/// The verifying backend for boards of `side` x `side` claimed by `backend`: the
/// fastest built-in one for the size, or the next when that is `backend` itself.
pub fn verifier_of(backend: &Backend, side: usize) -> Backend {
    let first = Backend::fastest_for(side);
    match (backend.for_side(side) == first, side) {
        (false, _) => first,
        (true, 9) => Backend::DlxStatic,
        (true, _) => Backend::Dfs,
    }
}

/// Which backends verify `backend`'s claims, for a person.
pub fn describe(backend: &Backend) -> String {
    format!(
        "{} (9x9), {} (other sizes)",
        verifier_of(backend, 9),
        verifier_of(backend, 16)
    )
}
