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
    /// Measure backends over datasets: rounds, statistics, exports, baselines.
    Bench(BenchArgs),
    /// Compare a saved baseline with another saved run, or with a fresh run of the same
    /// benchmark; exits 5 when anything regressed.
    Compare(CompareArgs),
}

#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solver backend.
    #[arg(short, long, value_enum, default_value_t = Backend::DlxStatic)]
    pub backend: Backend,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Count solutions up to this many: 2 checks uniqueness, 1 stops at the first.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub max_solutions: u32,
    /// Give up on a puzzle after this many search nodes (status budget_exceeded).
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Give up on a puzzle after this many seconds (status budget_exceeded); checked
    /// inside the search every 1,024 nodes.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(secs > 0.0 && secs.is_finite()) {
        return Err("the timeout must be a positive number of seconds".into());
    }
    Ok(std::time::Duration::from_secs_f64(secs))
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

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Dataset files, each loaded into memory once and solved every round.
    #[arg(required = true)]
    pub datasets: Vec<PathBuf>,
    /// Backends to measure, comma-separated (default: every solver).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub backends: Vec<Backend>,
    /// Thread counts, comma-separated: `1,2,4` measures scaling.
    #[arg(short = 'j', long, value_delimiter = ',', default_value = "1")]
    pub threads: Vec<usize>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Unmeasured passes before the rounds.
    #[arg(long, default_value_t = 1)]
    pub warmup: u32,
    /// Measured passes over each dataset.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Keep measuring until this many seconds have passed (and at least --rounds rounds).
    #[arg(long, value_name = "SECONDS")]
    pub min_time: Option<f64>,
    /// A round repeats a short pass until it lasts this many milliseconds, so that
    /// small datasets give steady round times.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    pub min_round_ms: u64,
    /// Input format (default: detected per file).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write one row per backend x dataset x threads as CSV.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Write the whole run as JSON (the layout of a saved baseline).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write a Markdown table.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Draw each dataset's per-puzzle time distributions as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write one CSV row per puzzle per backend (the `solve` CSV's columns), first round.
    #[arg(long, value_name = "FILE")]
    pub per_puzzle: Option<PathBuf>,
    /// Save the run as results/baselines/NAME.json.
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<String>,
    /// Replace an existing baseline of that name.
    #[arg(long)]
    pub force: bool,
    /// Compare the run with this baseline (name or path); exits 5 when anything regressed.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Changes smaller than this many percent are no change.
    #[arg(long, default_value_t = 5.0, value_name = "PERCENT")]
    pub noise: f64,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The baseline: a name under results/baselines/ or a path to a saved run (.json).
    pub baseline: String,
    /// The run to compare it with (name or path); omitted, the baseline's benchmark is
    /// run again now, with its settings, datasets, backends and thread counts.
    pub new: Option<String>,
    /// Changes smaller than this many percent are no change.
    #[arg(long, default_value_t = 5.0, value_name = "PERCENT")]
    pub noise: f64,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
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
