//! Command-line types (clap) only; the work is done in `app`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::format::Format;
use crate::solver::{Backend, DEFAULT_MAX_NODES};

#[derive(Debug, Parser)]
#[command(name = "sudoku-bench", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzle collections in parallel and report one CSV row per record.
    Solve(SolveArgs),
    /// Act as an online judge's solution: read its input on stdin, write its output.
    Judge(JudgeArgs),
    /// Generate puzzles with exactly one solution (`puzzle:1:solution` lines).
    Gen(GenArgs),
}

#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solver backend.
    #[arg(short, long, value_enum, default_value_t = Backend::DlxStatic)]
    pub backend: Backend,
    /// Count solutions up to this many: 2 checks uniqueness, 1 stops at the first.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub max_solutions: u32,
    /// Give up on a puzzle after this many search nodes (status budget_exceeded).
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files or directories (their files, sorted); `-` or nothing reads stdin.
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
    /// Write one CSV row per input record here (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write `puzzle:count:solution` lines here (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<PathBuf>,
    /// Input format (default: detected per file).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// No summary at the end.
    #[arg(short, long)]
    pub quiet: bool,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Judge {
    /// HDU 1426: 9 lines of 9 tokens (`?` unknown), a blank line between cases.
    Hdu1426,
    /// POJ 3074: 81-character lines (`.` unknown), `end` ends the input.
    Poj3074,
}

#[derive(Debug, Args)]
pub struct JudgeArgs {
    #[arg(value_enum)]
    pub problem: Judge,
    /// Solver backend.
    #[arg(short, long, value_enum, default_value_t = Backend::DlxStatic)]
    pub backend: Backend,
    /// Give up on a case after this many search nodes.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// How many puzzles.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub count: u64,
    /// Random seed: the same seed gives the same puzzles.
    #[arg(short, long, default_value_t = 1)]
    pub seed: u64,
    /// Stop removing clues at this many (fewer clues take longer to find).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u8).range(17..=81))]
    pub min_clues: u8,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
