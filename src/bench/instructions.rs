//! `bench --instructions N`: the instructions each backend executes on the first N
//! puzzles of a dataset, counted by valgrind's callgrind in a child (this program's
//! `count-instructions`), collecting only inside [`sudoku_bench_counted_solve`]: a figure
//! with no noise, for CI. An `exec:` program runs in a process of its own and cannot be
//! counted. docs/bench.md says how a `--timeout` search is counted as it was timed.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::base::interrupt;
use crate::board::Board;
use crate::run::{Attempt, GuardedSolver};
use crate::solver::exec::{FromChild, Wait, Worker};
use crate::solver::{Backend, Limits, SolveOutcome, Solver};

/// The most puzzles counted (callgrind runs code some 50 times slower).
pub const MAX_PUZZLES: u64 = 10_000;
/// The longest a count may take.
const TIMEOUT: Duration = Duration::from_secs(1800);
const SYMBOL: &str = "sudoku_bench_counted_solve";
/// What is counted of a `lib:` backend: its function's call alone (not the second call
/// for a solution, nor the guard zone and the crash note around it), as it is timed.
const LIB_SYMBOL: &str = "sudoku_bench_counted_call";

/// Instructions counted on a sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instructions {
    /// The first this many puzzles of the dataset.
    pub puzzles: u64,
    pub total: u64,
    pub per_puzzle: f64,
    /// `callgrind`.
    pub tool: String,
}

impl Instructions {
    /// These counts over `base`'s, where both were counted on the same puzzles.
    pub fn ratio_to(&self, base: &Instructions) -> Option<f64> {
        (self.puzzles == base.puzzles).then(|| self.per_puzzle / base.per_puzzle.max(1.0))
    }
}

/// The only calls callgrind counts. Never inlined, so that it exists to be found.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn sudoku_bench_counted_solve(
    solver: &mut dyn Solver,
    puzzle: &Board,
    limits: &Limits,
) -> SolveOutcome {
    match puzzle {
        Board::Nine(grid) => solver.solve(grid, limits),
        Board::Other(square) => solver
            .solve_square(square, limits)
            .map(|(outcome, _)| outcome)
            .unwrap_or_default(),
    }
}

/// Whether valgrind can be run, and its version, or why not.
pub fn valgrind_version() -> Result<String, String> {
    match Command::new("valgrind")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        }
        Ok(out) => Err(format!("`valgrind --version` failed ({})", out.status)),
        Err(e) => Err(format!(
            "valgrind not found ({e}); install it (Debian: apt-get install valgrind)"
        )),
    }
}

/// Why `backend` cannot be counted, if it cannot.
pub fn uncountable(backend: &Backend) -> Option<&'static str> {
    matches!(backend, Backend::Exec(_)).then_some("an exec: program runs in a process of its own")
}

/// The child's side (`count-instructions`): solves each line of `file` (a board of any
/// size, one character a cell, then maybe a space and a node budget for that board)
/// under `limits`.
pub fn run_counted(backend: &Backend, file: &Path, limits: &Limits) -> anyhow::Result<()> {
    let text = std::fs::read(file).with_context(|| file.display().to_string())?;
    let mut solver = backend.new_solver_with(limits);
    solver.prepare();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let line = std::str::from_utf8(line)?;
        let (board, cap) = match line.split_once(' ') {
            Some((board, cap)) => (board, Some(cap.parse::<u64>()?)),
            None => (line, None),
        };
        let board: Board = board.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        let limits = Limits {
            max_nodes: cap.unwrap_or(limits.max_nodes),
            ..*limits
        };
        std::hint::black_box(sudoku_bench_counted_solve(solver.as_mut(), &board, &limits));
    }
    Ok(())
}

/// Per puzzle, the node budget that stops its counted search where the timed one
/// stopped: where `limits.timeout` stopped the search, the nodes it had visited; else
/// none (the run's own budget applies).
fn timeout_caps(backend: &Backend, puzzles: &[Board], limits: &Limits) -> Vec<Option<u64>> {
    if limits.timeout.is_none() {
        return vec![None; puzzles.len()];
    }
    let mut solver = GuardedSolver::new(backend, limits, None);
    puzzles
        .iter()
        .map(|board| match solver.attempt_board(board) {
            // A search stopped at node N is stopped there again by a budget of N - 1.
            Attempt::Solved { outcome, .. } if outcome.timed_out && outcome.counted.nodes => {
                Some(outcome.nodes.saturating_sub(1))
            }
            _ => None,
        })
        .collect()
}

/// Counts `backend` (a countable one) on `puzzles` (already cut to the sample), searching
/// as far as `limits` let the timed search go; `None` when an interrupt stopped the count.
pub fn count(
    backend: &Backend,
    puzzles: &[Board],
    limits: &Limits,
) -> anyhow::Result<Option<Instructions>> {
    let dir = tempfile::tempdir().context("a temporary folder for callgrind")?;
    let input = dir.path().join("puzzles.txt");
    let mut lines = Vec::with_capacity(puzzles.len() * 82);
    for (board, cap) in puzzles.iter().zip(timeout_caps(backend, puzzles, limits)) {
        board.write_line_with(b'.', &mut lines);
        if let Some(cap) = cap {
            lines.extend(format!(" {cap}").bytes());
        }
        lines.push(b'\n');
    }
    std::fs::write(&input, &lines).context("writing the sample for callgrind")?;
    let out_file = dir.path().join("callgrind.out");
    let exe = std::env::current_exe().context("finding this program to run under valgrind")?;
    let symbol = match backend {
        Backend::Lib(_) => LIB_SYMBOL,
        _ => SYMBOL,
    };
    let args: [OsString; 12] = [
        "--tool=callgrind".into(),
        format!("--callgrind-out-file={}", out_file.display()).into(),
        format!("--toggle-collect={symbol}").into(),
        "--collect-atstart=no".into(),
        "--compress-strings=no".into(),
        "--compress-pos=no".into(),
        exe.into(),
        "count-instructions".into(),
        format!("--backend={}", backend.name()).into(),
        format!("--max-solutions={}", limits.max_solutions).into(),
        format!("--max-nodes={}", limits.max_nodes).into(),
        input.into(),
    ];
    // Started like an `exec:` program: in a process group of its own, so a Ctrl-C at
    // the terminal reaches this process alone, which kills it (dropped) and keeps the
    // counts finished before.
    let mut valgrind =
        Worker::spawn(Path::new("valgrind"), &args, &[]).context("starting valgrind")?;
    valgrind.close_input();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match valgrind.wait(deadline, interrupt::requested) {
            Wait::Got(FromChild::Eof) => break,
            Wait::Got(_) => {}
            Wait::Cancelled => return Ok(None),
            Wait::TimedOut => bail!(
                "{backend}: instruction count stopped at its {}s limit",
                TIMEOUT.as_secs()
            ),
        }
    }
    if let Some(why) = valgrind.failed_exit() {
        bail!("{backend}: valgrind failed: {why}");
    }
    let total = read_total(&out_file)?;
    Ok(Some(Instructions {
        puzzles: puzzles.len() as u64,
        total,
        per_puzzle: total as f64 / puzzles.len().max(1) as f64,
        tool: "callgrind".into(),
    }))
}

/// The `totals:` (or `summary:`) line of a callgrind output file: instructions read.
fn read_total(path: &Path) -> anyhow::Result<u64> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    // The last such line counts.
    let line = (text.lines().rev()).find_map(|l| {
        l.strip_prefix("totals:")
            .or_else(|| l.strip_prefix("summary:"))
    });
    (line.and_then(|rest| rest.split_whitespace().next()?.parse().ok()))
        .with_context(|| format!("{}: no instruction total", path.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn totals_are_read_from_callgrind_output() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("cg.out");
        std::fs::write(
            &p,
            "version: 1\nevents: Ir\nfn=main\n3 10\nsummary: 12345\ntotals: 12345\n",
        )
        .unwrap();
        assert_eq!(super::read_total(&p).unwrap(), 12345);
        std::fs::write(&p, "events: Ir\n").unwrap();
        assert!(super::read_total(&p).is_err());
    }
}
