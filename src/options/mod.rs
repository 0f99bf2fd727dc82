//! The options layer: raw flags from [`crate::cli`] become checked, ready options, once,
//! before anything runs (as hyperfine's `Options` and ripgrep's `HiArgs`).
//!
//! Every number is finite and in range ([`crate::base::bounds`]), backends and formats are
//! parsed by the crate, `Limits` are built here and nowhere else, baseline names are
//! checked and saved runs loaded and validated, and every output is checked against
//! every input and every other output ([`crate::output::plan`]). A bad value is a
//! [`UsageError`] (exit 2); an output that would destroy an input is refused (exit 1).

mod bench;
mod foreign;
mod history;
mod input;
mod other;
mod solve;

pub use bench::{BenchOptions, CompareAction, CompareOptions, Rerun, SaveBaseline};
pub use history::HistoryOptions;
pub use other::{GenOptions, JudgeOptions, ManOptions, ManTo};
pub use solve::SolveOptions;

use crate::base::bounds;
use crate::base::interrupt;
use crate::cli::{self, Cli};
use crate::solver::{Backend, Limits};

/// A command ready to run.
pub enum Command {
    Solve(Box<SolveOptions>),
    Judge(JudgeOptions),
    Gen(GenOptions),
    Bench(Box<BenchOptions>),
    Compare(Box<CompareOptions>),
    History(Box<HistoryOptions>),
    /// Answer the exec: line protocol with this backend.
    Worker {
        backend: Backend,
        limits: Limits,
    },
    /// Solve a file's puzzles under callgrind (`bench --instructions`).
    CountInstructions {
        backend: Backend,
        limits: Limits,
        file: std::path::PathBuf,
    },
    /// A completion script for this shell.
    Completions(clap_complete::Shell),
    Man(ManOptions),
    Backends,
}

/// A bad command line: the message says which option and why. Exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// `Err(UsageError)` naming the option.
pub(crate) fn usage<T>(option: &str, why: impl std::fmt::Display) -> anyhow::Result<T> {
    Err(UsageError(format!("invalid value for {option}: {why}")).into())
}

pub fn from_cli(cli: Cli) -> anyhow::Result<Command> {
    // Checked before anything runs: a solver made later cannot refuse.
    crate::solver::BitboardPath::chosen().map_err(UsageError)?;
    Ok(match cli.command {
        cli::Command::Solve(a) => Command::Solve(Box::new(solve::options(a)?)),
        cli::Command::Judge(a) => Command::Judge(other::judge(a)?),
        cli::Command::Gen(a) => Command::Gen(other::generate(a)?),
        cli::Command::Bench(a) => Command::Bench(Box::new(bench::bench(a)?)),
        cli::Command::Compare(a) => Command::Compare(Box::new(bench::compare(a)?)),
        cli::Command::History(a) => Command::History(Box::new(history::options(a)?)),
        cli::Command::Worker(a) => Command::Worker {
            backend: backend("--backend", &a.backend)?,
            limits: limits(2, a.max_nodes, a.timeout)?,
        },
        cli::Command::CountInstructions(a) => Command::CountInstructions {
            backend: backend("--backend", &a.backend)?,
            limits: Limits {
                cancel: None,
                ..limits(a.max_solutions, a.max_nodes, None)?
            },
            file: a.file,
        },
        cli::Command::Completions(a) => {
            Command::Completions(a.shell.parse().or_else(|e| usage("SHELL", e))?)
        }
        cli::Command::Man(a) => Command::Man(other::man(a)?),
        cli::Command::Backends => Command::Backends,
    })
}

/// The limits of every search: checked numbers, and the interrupt flag as the cancel
/// flag (Ctrl-C abandons searches in flight, status `interrupted`).
pub(crate) fn limits(
    max_solutions: u32,
    max_nodes: u64,
    timeout: Option<f64>,
) -> anyhow::Result<Limits> {
    let max_solutions = bounds::within(max_solutions, 1, bounds::MAX_SOLUTIONS);
    let max_solutions = max_solutions.or_else(|e| usage("--max-solutions", e))?;
    if max_nodes == 0 {
        return usage("--max-nodes", "the node budget is 1 or more");
    }
    let timeout = timeout.map(|t| bounds::seconds(t, false, bounds::MAX_TIMEOUT_S));
    Ok(Limits {
        max_solutions,
        max_nodes,
        timeout: timeout.transpose().or_else(|e| usage("--timeout", e))?,
        deadline: None,
        cancel: Some(&interrupt::INTERRUPTED),
    })
}

/// `--threads`: 1 to 1024, or 0 (one per core) where `zero_ok`.
pub(crate) fn threads(n: usize, zero_ok: bool) -> anyhow::Result<usize> {
    bounds::threads(n, zero_ok).or_else(|e| usage("--threads", e))
}

pub(crate) fn backend(option: &str, name: &str) -> anyhow::Result<Backend> {
    name.parse().or_else(|e| usage(option, e))
}

#[cfg(test)]
mod tests;
