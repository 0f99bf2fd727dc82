//! The command line as clap sees it: raw flags only. Nothing here is validated beyond
//! its Rust type, and nothing is imported from the crate: `options` turns these into
//! checked, ready-to-use options (backends and formats are parsed there, by the crate).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// `--version` prints more than this (the revision and the executable's hash), in `main`.
#[derive(Debug, Parser)]
#[command(name = "sudoku-bench", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
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
    /// Trends of the recorded results (results/history.jsonl) per backend x dataset x
    /// threads x machine, with change points.
    History(HistoryArgs),
    /// Speak the exec: line protocol with a built-in backend: one puzzle a line on stdin,
    /// `count:solution` a line on stdout.
    Worker(WorkerArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Solve the board lines of FILE once each (a line may end with a node budget of
    /// its own): what `bench --instructions` runs under callgrind.
    #[command(hide = true)]
    CountInstructions(CountArgs),
    /// Print the manual page (roff) on standard output: the program's, or a subcommand's;
    /// or write every page into a folder.
    Man(ManArgs),
    /// List the backends this build has: the exact `-b` name and what it is, one a line;
    /// built-in first, then the forms for foreign solvers.
    Backends,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[arg(long)]
    pub backend: String,
    #[arg(long, default_value_t = 2)]
    pub max_solutions: u32,
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The backend that answers.
    #[arg(short, long, default_value = "bitboard")]
    pub backend: String,
    /// Give up on a puzzle after this many search nodes (answer `?`).
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Give up on a puzzle after this many seconds (answer `?`).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// How foreign backends (`exec:`, `lib:`) run: shared by `solve` and `bench`.
#[derive(Debug, Args)]
pub struct ForeignArgs {
    /// exec: backends: `per-puzzle` (one puzzle at a time, each timed, the pipe round
    /// trip subtracted) or `stream` (many in flight; batch time per puzzle).
    #[arg(long, value_parser = ["per-puzzle", "stream"], default_value = "per-puzzle")]
    pub exec_mode: String,
    /// lib: backends may run on several threads (by default one: foreign solvers often
    /// keep global state).
    #[arg(long)]
    pub lib_threadsafe: bool,
    /// Whose claims (no solution, exactly one, two or more) are checked against a
    /// built-in backend, untimed: `foreign` (exec: and lib: backends) or `all` (the
    /// built-in ones too, each by another).
    #[arg(long, value_parser = ["foreign", "all"], default_value = "foreign")]
    pub verify: String,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Print this subcommand's page (`sudoku-bench-SUBCOMMAND(1)`) instead of the
    /// program's.
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "dir")]
    pub subcommand: Option<String>,
    /// Write every page into this folder (created if missing): `sudoku-bench.1`,
    /// `sudoku-bench-solve.1`, ...; refused if any of them is there already.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The commands that have a manual page, built (so each knows its full name,
/// `sudoku-bench-solve`): the program, then every subcommand that is not hidden. No
/// `help` subcommand: `--help` and these pages say what it would.
pub fn documented() -> Vec<clap::Command> {
    use clap::CommandFactory;
    let mut top = Cli::command().disable_help_subcommand(true);
    top.build();
    let mut pages = vec![top.clone()];
    pages.extend(top.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    pages
}

/// A documented command's page name: `sudoku-bench`, `sudoku-bench-solve`.
pub fn page_name(command: &clap::Command) -> &str {
    command
        .get_display_name()
        .unwrap_or_else(|| command.get_name())
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    #[arg(value_parser = ["bash", "zsh", "fish", "elvish", "powershell"])]
    pub shell: String,
}

/// How inputs are read: shared by `solve` and `bench`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input format (default: detected per file from its content).
    #[arg(long, value_parser = FORMATS)]
    pub format: Option<String>,
    /// More characters that stand for a blank cell, besides . 0 _ X x * - ?
    #[arg(long, value_name = "CHARS")]
    pub blanks: Option<String>,
    /// How boards other than 9x9 write their values: digits (1-9), letters (A..), hex
    /// (0-9 then A-F) or digits-letters (1-9 then A..); letters also reads 9x9 boards
    /// written A-I. Default: decided per file from its content, and said.
    #[arg(long, value_name = "NAME", value_parser = ["digits", "letters", "hex", "digits-letters"])]
    pub alphabet: Option<String>,
    /// The CSV column that holds the puzzle: a header name, or a number from 1.
    #[arg(long, value_name = "NAME|N")]
    pub puzzle_column: Option<String>,
    /// The CSV column that holds the solution: a header name, or a number from 1.
    #[arg(long, value_name = "NAME|N")]
    pub solution_column: Option<String>,
    /// A complete grid right after a puzzle it solves is that puzzle's expected answer,
    /// not another puzzle (QQWing's --solution output; `before`: right before it): auto
    /// decides per file from its first 64 KiB.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "yes", "before", "no"])]
    pub solutions_follow: String,
    /// In folders, read only files matching this pattern (`*`, `?`; repeatable); without
    /// it, files that look like documentation are skipped.
    #[arg(long, value_name = "PATTERN")]
    pub glob: Vec<String>,
    /// In folders, read this many levels of subfolders (default: all).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Skip the first N records.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: u64,
    /// Read at most N records (after --skip).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Take a random sample of N records (reproducible with --seed), kept in input order.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// The random seed of --sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Say which format each input is read as, and the serial part's CPU time.
    #[arg(short, long)]
    pub verbose: bool,
}

/// The input formats, as `--format` takes them (the crate's `Format` names; a test
/// checks that the two lists agree).
pub const FORMATS: [&str; 6] = ["line", "csv", "grid", "hdu", "poj", "json"];

#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Count solutions up to this many: 2 checks uniqueness, 1 stops at the first, more
    /// counts further.
    #[arg(long, default_value_t = 2)]
    pub max_solutions: u32,
    /// Give up on a puzzle after this many search nodes (status budget_exceeded).
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Give up on a puzzle after this many seconds (status budget_exceeded); checked
    /// inside the search every 1,024 nodes.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files or folders (their files, recursively, sorted); `-` or nothing reads
    /// stdin. Compressed files (gzip, zstd, xz, bzip2) are read as they are.
    pub inputs: Vec<PathBuf>,
    /// Solver backend: fastest (the default: bitboard for 9x9, dlx-arena for other
    /// sizes, record by record), bitboard, dlx-static, dlx-arena, dfs, null (or
    /// reference, in a build with that feature), exec:CMD (a program) or lib:PATH:SYMBOL
    /// (a shared library); `sudoku-bench backends` lists them.
    #[arg(short, long, default_value = "fastest")]
    pub backend: String,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Worker threads (default: one per core; at most 1024).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
    /// Write one CSV row per input record here (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write `puzzle:count:solution` lines here (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub foreign: ForeignArgs,
    /// No summary at the end.
    #[arg(short, long)]
    pub quiet: bool,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The problem: hdu1426 (9 lines of 9 tokens, `?` unknown, blank lines between
    /// cases) or poj3074 (81-character lines, `.` unknown, `end` ends the input).
    #[arg(value_parser = ["hdu1426", "poj3074"])]
    pub problem: String,
    /// Solver backend (default: bitboard).
    #[arg(short, long)]
    pub backend: Option<String>,
    /// Give up on a case after this many search nodes.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Give up on a case after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// `gen`'s board size when `--size` is not given (its header then leaves `--size` out).
pub const GEN_DEFAULT_SIZE: u32 = 9;

#[derive(Debug, Args)]
pub struct GenArgs {
    /// How many puzzles.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub count: u64,
    /// Random seed: the same seed gives the same puzzles.
    #[arg(short, long, default_value_t = 1)]
    pub seed: u64,
    /// Board size, cells a row: 4, 6, 8, 9, 10, 12, 16 or 25 (boxes 2x2, 2x3, 2x4, 3x3,
    /// 2x5, 3x4, 4x4, 5x5).
    #[arg(long, default_value_t = GEN_DEFAULT_SIZE)]
    pub size: u32,
    /// Stop removing clues at this many (fewer clues take longer to find); default 6,
    /// 12, 22, 22, 36, 55, 100 and 300 for the eight sizes; at least 4, 8, 12, 17, 16,
    /// 24, 55 and 150.
    #[arg(long)]
    pub min_clues: Option<u32>,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: one per core; at most 1024).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
    /// The backend that checks uniqueness (default: bitboard for 9x9, dlx-arena else).
    #[arg(short, long)]
    pub backend: Option<String>,
    /// Give up a uniqueness check after this many search nodes (the clue is kept; the
    /// output stays the same on every machine); default 100,000,000 for 9x9 and
    /// 1,000,000 for other sizes, where a check near the floor can run for hours.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up a uniqueness check after this many seconds (the clue is kept; the output
    /// then depends on the machine's speed).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

#[derive(Debug, Args)]
pub struct BaselineDirArgs {
    /// Where named baselines live (default: results/baselines of the project around the
    /// working directory, found upward like Cargo.toml; or $SUDOKU_BENCH_BASELINES).
    #[arg(long, value_name = "DIR")]
    pub baselines_dir: Option<PathBuf>,
}

/// The exports `bench` and `compare` both write.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write one row per backend x dataset x threads as CSV, with its verdict.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Write the whole run as JSON (the layout of a saved baseline), with its verdicts.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write a Markdown table, with the verdicts.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Datasets, each loaded into memory once and solved every round: files, folders
    /// (one dataset each) or `-` for standard input.
    #[arg(required = true)]
    pub datasets: Vec<PathBuf>,
    /// Backends to measure, comma-separated, repeatable (default: the fast solvers,
    /// every one but `dfs`, which runs when named; `sudoku-bench backends` marks them);
    /// each may carry a label: `old=lib:PATH:SYMBOL`. Two or more take turns on the
    /// same blocks of puzzles (in an order seeded with --seed).
    #[arg(long, value_name = "LIST")]
    pub backends: Vec<String>,
    /// The backends are builds of one solver, the first the old one: each other gets
    /// regressed, improved or no change, and exit 5 on a regression (labels old= and
    /// new= say so too).
    #[arg(long)]
    pub builds: bool,
    /// Thread counts, comma-separated: `1,2,4` measures scaling (each at most 1024).
    #[arg(short = 'j', long, value_delimiter = ',', default_value = "1")]
    pub threads: Vec<usize>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Unmeasured passes before the rounds.
    #[arg(long, default_value_t = 1)]
    pub warmup: u32,
    /// Measured rounds over each dataset (every puzzle once a round) [default: 5, and,
    /// with neither --rounds nor --min-time, as many more as 3 seconds per dataset hold].
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Keep measuring until this many seconds have passed (and at least --rounds rounds).
    #[arg(long, value_name = "SECONDS")]
    pub min_time: Option<f64>,
    /// Present each round's puzzles under a fresh symmetry (digits relabelled, rows,
    /// bands, columns, stacks shuffled, maybe transposed; seeded with --seed), answers
    /// mapped back and checked, so that no solver learns the puzzles round after round.
    #[arg(long, value_parser = ["on", "off"], default_value = "on")]
    pub symmetry: String,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub foreign: ForeignArgs,
    #[command(flatten)]
    pub export: ExportArgs,
    /// Write one CSV row per puzzle per backend (the `solve` CSV's columns), first round.
    #[arg(long, value_name = "FILE")]
    pub per_puzzle: Option<PathBuf>,
    /// Write a self-contained HTML report: verdicts, tables, time distributions.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Append one line per result to the history (results/history.jsonl, or --history).
    #[arg(long)]
    pub record: bool,
    /// The history file that --record and --save-baseline append to.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Also count the instructions of each backend on the first N puzzles of each
    /// dataset, under valgrind (callgrind): a figure without noise. At most 10000.
    #[arg(long, value_name = "N")]
    pub instructions: Option<u64>,
    /// Save the run as baseline NAME (results/baselines/NAME.json), and keep its build
    /// (this executable, and the files its lib: and exec: backends name) in the build
    /// store, so `compare NAME` can run it again.
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<String>,
    /// Replace an existing baseline of that name.
    #[arg(long)]
    pub force: bool,
    /// Two builds: a change smaller than this many percent is no change (an identical
    /// foreign build reads up to 2% off on a busy 2-core machine).
    #[arg(long, default_value_t = 3.0, value_name = "PERCENT")]
    pub noise: f64,
    /// Judge by a foreign solver's own times even where they cover less than a quarter
    /// of what the harness saw it spend (a program's round trip, a library's untimed
    /// second call).
    #[arg(long)]
    pub trust_reported_times: bool,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub store: BaselineDirArgs,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The baseline: a name under results/baselines/ or a path to a saved run (.json).
    #[arg(required_unless_present = "list")]
    pub baseline: Option<String>,
    /// The run to compare it with (name or path), figures against figures; omitted, the
    /// baseline's build and this one are run again side by side, taking turns, with its
    /// settings, datasets, backends and thread counts.
    pub new: Option<String>,
    /// The baseline's lib: and exec: backends, as the command line names them now
    /// (compare never runs what a file names): its kept copies are the old build.
    #[arg(long, value_name = "LIST")]
    pub backends: Vec<String>,
    /// List the saved baselines instead.
    #[arg(long, conflicts_with_all = ["baseline", "new", "html", "export_csv", "export_json", "export_markdown"])]
    pub list: bool,
    /// A change smaller than this many percent is no change.
    #[arg(long, default_value_t = 3.0, value_name = "PERCENT")]
    pub noise: f64,
    /// As for bench.
    #[arg(long)]
    pub trust_reported_times: bool,
    #[command(flatten)]
    pub foreign: ForeignArgs,
    #[command(flatten)]
    pub export: ExportArgs,
    /// Write the comparison as a self-contained HTML report.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub store: BaselineDirArgs,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The history file (default: results/history.jsonl of the project around the
    /// working directory).
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Only these backends (comma-separated, repeatable).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub backend: Vec<String>,
    /// Only datasets whose path contains this text.
    #[arg(long, value_name = "TEXT")]
    pub dataset: Option<String>,
    /// Only this thread count.
    #[arg(short = 'j', long)]
    pub threads: Option<usize>,
    /// Only the newest N points of each series.
    #[arg(long, value_name = "N")]
    pub last: Option<usize>,
    /// Steps smaller than this many percent are not change points.
    #[arg(long, default_value_t = 2.0, value_name = "PERCENT")]
    pub min_step: f64,
    #[command(flatten)]
    pub store: BaselineDirArgs,
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
