//! `bench`: each backend over each dataset, with warmup and measured rounds, every answer
//! checked, and the statistics that make runs comparable.
//!
//! Each round is one pass over the whole dataset. Two clocks run: one around every solver
//! call (per-puzzle distributions) and one around the whole pass. For puzzles that take
//! microseconds the per-call timer's own cost shows, so the headline µs/puzzle is the
//! whole-pass wall time divided by the puzzle count (median over rounds); the per-call
//! figures are reported beside it.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use hdrhistogram::Histogram;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::format::Format;
use crate::grid::Grid;
use crate::loader::{Input, Loader};
use crate::machine::{Build, Machine};
use crate::record::Record;
use crate::run::{Attempt, PuzzleResult, Status, assess};
use crate::solver::{Backend, Limits, SolveOutcome, Solver};
use crate::stats;

/// Version of the saved-run layout; bumped when fields change meaning.
pub const FORMAT_VERSION: u32 = 1;

/// A dataset loaded into memory for repeated passes.
pub struct Dataset {
    pub info: DatasetInfo,
    records: Vec<Record>,
    /// Indices of the records that are solvable puzzles (parsed, givens consistent).
    timed: Vec<usize>,
    grids: Vec<Grid>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    pub path: String,
    /// FNV-1a 64 of the file's bytes: runs on different data never compare.
    pub hash: String,
    pub records: u64,
    /// Records timed: parse errors and conflicting givens are not solved.
    pub puzzles: u64,
}

impl Dataset {
    pub fn load(path: &Path, format: Option<Format>) -> anyhow::Result<Dataset> {
        let hash = hash_file(path).with_context(|| format!("reading {}", path.display()))?;
        let mut records = Vec::new();
        for item in Loader::new(vec![Input::File(path.to_path_buf())], format) {
            records.push(item?);
        }
        let timed: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.body
                    .as_ref()
                    .is_ok_and(|p| p.grid.find_conflict().is_none())
            })
            .map(|(i, _)| i)
            .collect();
        let grids = timed
            .iter()
            .map(|&i| records[i].body.as_ref().expect("timed records parsed").grid)
            .collect();
        Ok(Dataset {
            info: DatasetInfo {
                path: path.display().to_string(),
                hash,
                records: records.len() as u64,
                puzzles: timed.len() as u64,
            },
            records,
            timed,
            grids,
        })
    }
}

fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut reader = BufReader::new(File::open(path)?);
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = reader.read(&mut buf)?;
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub backends: Vec<Backend>,
    pub threads: Vec<usize>,
    pub limits: Limits,
    pub warmup: u32,
    pub rounds: u32,
    /// Keep measuring until this much time has passed (and at least `rounds` rounds).
    pub min_time: Option<Duration>,
    /// A round repeats the pass until it lasts this long.
    pub min_round: Duration,
}

/// A whole benchmark run, as saved and exported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRun {
    pub format_version: u32,
    pub date: String,
    pub build: Build,
    pub machine: Machine,
    pub settings: BenchSettings,
    pub results: Vec<BenchResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchSettings {
    pub max_solutions: u32,
    pub max_nodes: u64,
    /// Per-puzzle time limit, seconds.
    #[serde(default)]
    pub timeout_s: Option<f64>,
    pub warmup: u32,
    pub rounds: u32,
    pub min_time_s: Option<f64>,
    /// A round repeats the pass until it lasts this long (milliseconds).
    #[serde(default)]
    pub min_round_ms: u64,
    /// Which clock the headline uses.
    pub headline: String,
}

/// One backend on one dataset at one thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    pub backend: String,
    pub dataset: DatasetInfo,
    pub threads: usize,
    /// Wall time of one pass in each measured round (the round's mean), nanoseconds.
    pub rounds_ns: Vec<u64>,
    /// Passes in each round (short passes are repeated, see `min_round_ms`).
    #[serde(default = "one")]
    pub passes_per_round: usize,
    /// Headline: median pass time / puzzles, µs.
    pub us_per_puzzle: f64,
    /// Puzzles / median pass time.
    pub puzzles_per_s: f64,
    /// Relative standard deviation of the pass times, percent.
    pub spread_pct: f64,
    /// Passes whose time is an outlier by the median absolute deviation.
    pub round_outliers: usize,
    /// Per-call times over all measured rounds.
    pub per_call: PerCall,
    /// Wrong answers over all rounds (must be 0).
    pub wrong: u64,
    pub budget_exceeded: u64,
    /// Puzzles solved without a single guess, percent.
    pub no_guess_pct: f64,
    pub nodes_per_puzzle: f64,
    pub guesses_per_puzzle: f64,
    /// Exact work of one pass: equal totals mean the same search.
    pub nodes_total: u64,
    pub guesses_total: u64,
    /// Cumulative distribution of per-call times: (µs, fraction of puzzles at or below).
    pub cdf: Vec<(f64, f64)>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerCall {
    pub mean_us: f64,
    pub median_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    pub mad_us: f64,
    /// Puzzles more than 3.5 MADs from the median (counted over all rounds).
    pub outliers: u64,
}

impl BenchResult {
    /// Per-puzzle pass time of each round, µs (the samples the regression test uses).
    pub fn round_us_per_puzzle(&self) -> Vec<f64> {
        let n = self.dataset.puzzles.max(1) as f64;
        self.rounds_ns
            .iter()
            .map(|&ns| ns as f64 / 1000.0 / n)
            .collect()
    }
}

/// Called after each pass, for progress: (backend, dataset, threads, round label).
pub type OnPass<'a> = dyn FnMut(&str) + 'a;

/// Runs everything in `config` over `datasets`, calling `on_result` as each result is
/// ready (so exports can be rewritten and nothing done is lost) and `on_rows` with the
/// per-puzzle results of each combination's first measured round.
pub fn run_bench(
    datasets: &[Dataset],
    config: &BenchConfig,
    on_pass: &mut OnPass<'_>,
    on_rows: &mut dyn FnMut(&[PuzzleResult]) -> anyhow::Result<()>,
    on_result: &mut dyn FnMut(&BenchResult) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<BenchResult>> {
    let mut results = Vec::new();
    for &threads in &config.threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("bench-{i}"))
            .build()?;
        for dataset in datasets {
            for &backend in &config.backends {
                let result = bench_one(&pool, threads, backend, dataset, config, on_pass, on_rows)?;
                on_result(&result)?;
                results.push(result);
            }
        }
    }
    Ok(results)
}

fn bench_one(
    pool: &rayon::ThreadPool,
    threads: usize,
    backend: Backend,
    dataset: &Dataset,
    config: &BenchConfig,
    on_pass: &mut OnPass<'_>,
    on_rows: &mut dyn FnMut(&[PuzzleResult]) -> anyhow::Result<()>,
) -> anyhow::Result<BenchResult> {
    let slow = slow_factor(backend);
    let mut solver = backend.new_solver();
    let label = format!("{backend} on {} -j{threads}", dataset.info.path);
    let one_pass = |solver: &mut Box<dyn Solver>| {
        pass(
            pool,
            threads,
            backend,
            solver.as_mut(),
            &dataset.grids,
            &config.limits,
            slow,
        )
    };
    let mut last_pass_ns = None;
    for i in 0..config.warmup {
        on_pass(&format!("{label}: warmup {}", i + 1));
        last_pass_ns = Some(one_pass(&mut solver).1);
    }
    // A pass of a few milliseconds is at the mercy of every hiccup of the machine: a
    // round repeats it until the round lasts `min_round` (as criterion batches
    // iterations). The warmup pass says how long a pass takes.
    let passes = match last_pass_ns {
        Some(ns) if ns > 0 => (config.min_round.as_nanos() as u64)
            .div_ceil(ns)
            .clamp(1, 10_000) as usize,
        _ => 1,
    };
    let mut per_call = Histogram::<u64>::new_with_bounds(1, 3_600_000_000_000, 3)?;
    let mut rounds_ns = Vec::new();
    let mut wrong = 0;
    let mut first: Option<Vec<PuzzleResult>> = None;
    let started = Instant::now();
    while rounds_ns.len() < config.rounds.max(1) as usize
        || config
            .min_time
            .is_some_and(|t| started.elapsed() < t && rounds_ns.len() < 10_000)
    {
        on_pass(&format!("{label}: round {}", rounds_ns.len() + 1));
        let mut round_ns = 0;
        let mut first_pass = None;
        for _ in 0..passes {
            let (outcomes, pass_ns) = one_pass(&mut solver);
            round_ns += pass_ns;
            for &(_, ns, _) in &outcomes {
                per_call.saturating_record(ns.max(1));
            }
            first_pass.get_or_insert(outcomes);
        }
        // The time of one pass, averaged over the round's passes.
        rounds_ns.push(round_ns / passes as u64);
        let outcomes = first_pass.expect("a round has at least one pass");
        let checked = check(dataset, backend, &config.limits, &outcomes);
        wrong += checked.iter().filter(|r| r.is_mismatch()).count() as u64;
        if first.is_none() {
            on_rows(&checked)?;
            first = Some(checked);
        }
    }
    let mut result = summarize(
        backend,
        dataset,
        threads,
        rounds_ns,
        &per_call,
        wrong,
        &first.unwrap_or_default(),
    );
    result.passes_per_round = passes;
    Ok(result)
}

/// One pass: every puzzle solved once, each call timed, the whole pass timed.
fn pass(
    pool: &rayon::ThreadPool,
    threads: usize,
    backend: Backend,
    solver: &mut dyn Solver,
    grids: &[Grid],
    limits: &Limits,
    slow: Option<f64>,
) -> (Vec<(SolveOutcome, u64, Option<usize>)>, u64) {
    let timed = |solver: &mut dyn Solver, grid: &Grid| {
        let start = Instant::now();
        let deadline = limits.timeout.map(|t| start + t);
        let outcome = solver.solve(
            grid,
            &Limits {
                deadline,
                ..*limits
            },
        );
        if let Some(factor) = slow {
            // Test hook: make this backend slower, to prove regressions are caught.
            let until = start.elapsed().mul_f64(factor);
            while start.elapsed() < until {
                std::hint::spin_loop();
            }
        }
        (outcome, start.elapsed().as_nanos() as u64)
    };
    let start = Instant::now();
    let outcomes = if threads == 1 {
        // One thread: the caller's thread and solver, no scheduling in the way.
        grids
            .iter()
            .map(|g| {
                let (o, ns) = timed(solver, g);
                (o, ns, Some(0))
            })
            .collect()
    } else {
        pool.install(|| {
            grids
                .par_iter()
                .with_min_len(16)
                .map_init(
                    || backend.new_solver(),
                    |s, g| {
                        let (o, ns) = timed(s.as_mut(), g);
                        (o, ns, rayon::current_thread_index())
                    },
                )
                .collect()
        })
    };
    (outcomes, start.elapsed().as_nanos() as u64)
}

/// The environment variable naming backends to slow down, a test hook:
/// `NAME[:FACTOR],...` makes each call of backend NAME take FACTOR times as long
/// (default 1.5).
pub const SLOW_HOOK: &str = "SUDOKU_BENCH_SLOW_BACKEND";

fn slow_factor(backend: Backend) -> Option<f64> {
    let value = std::env::var(SLOW_HOOK).ok()?;
    value.split(',').find_map(|item| {
        let (name, factor) = item.split_once(':').unwrap_or((item, "1.5"));
        (name.trim() == backend.name()).then(|| factor.trim().parse().unwrap_or(1.5))
    })
}

/// Every record's result for this pass, in input order (unsolved records included).
fn check(
    dataset: &Dataset,
    backend: Backend,
    limits: &Limits,
    outcomes: &[(SolveOutcome, u64, Option<usize>)],
) -> Vec<PuzzleResult> {
    let mut solved = vec![None; dataset.records.len()];
    for (&i, &(outcome, ns, thread)) in dataset.timed.iter().zip(outcomes) {
        solved[i] = Some((outcome, ns, thread));
    }
    dataset
        .records
        .iter()
        .zip(solved)
        .map(|(record, s)| {
            let thread = s.and_then(|(_, _, t)| t);
            let attempt = match s {
                Some((outcome, time_ns, _)) => Attempt::Solved { outcome, time_ns },
                None => Attempt::Skipped,
            };
            assess(record, backend, limits, attempt, thread)
        })
        .collect()
}

fn one() -> usize {
    1
}

fn summarize(
    backend: Backend,
    dataset: &Dataset,
    threads: usize,
    rounds_ns: Vec<u64>,
    per_call: &Histogram<u64>,
    wrong: u64,
    first: &[PuzzleResult],
) -> BenchResult {
    let puzzles = dataset.info.puzzles.max(1) as f64;
    let rounds: Vec<f64> = rounds_ns.iter().map(|&ns| ns as f64).collect();
    let median_pass = stats::median(&rounds);
    let solved: Vec<&PuzzleResult> = first
        .iter()
        .filter(|r| !matches!(r.status, Status::ParseError | Status::InvalidGivens))
        .collect();
    let nodes_total: u64 = solved.iter().map(|r| r.nodes).sum();
    let guesses_total: u64 = solved.iter().map(|r| r.guesses).sum();
    let no_guess = solved.iter().filter(|r| r.guesses == 0).count();
    let budget = solved
        .iter()
        .filter(|r| r.status == Status::BudgetExceeded)
        .count();
    let us = |ns: u64| ns as f64 / 1000.0;
    let (mad_ns, outliers) = stats::histogram_mad(per_call);
    BenchResult {
        backend: backend.name().to_string(),
        dataset: dataset.info.clone(),
        threads,
        us_per_puzzle: median_pass / 1000.0 / puzzles,
        puzzles_per_s: if median_pass > 0.0 {
            dataset.info.puzzles as f64 / (median_pass / 1e9)
        } else {
            0.0
        },
        spread_pct: 100.0 * stats::std_dev(&rounds) / stats::mean(&rounds),
        round_outliers: stats::mad_outliers(&rounds),
        rounds_ns,
        passes_per_round: 1,
        per_call: PerCall {
            mean_us: per_call.mean() / 1000.0,
            median_us: us(per_call.value_at_quantile(0.5)),
            p90_us: us(per_call.value_at_quantile(0.9)),
            p99_us: us(per_call.value_at_quantile(0.99)),
            max_us: us(per_call.max()),
            mad_us: mad_ns / 1000.0,
            outliers,
        },
        wrong,
        budget_exceeded: budget as u64,
        no_guess_pct: 100.0 * no_guess as f64 / solved.len().max(1) as f64,
        nodes_per_puzzle: nodes_total as f64 / solved.len().max(1) as f64,
        guesses_per_puzzle: guesses_total as f64 / solved.len().max(1) as f64,
        nodes_total,
        guesses_total,
        cdf: cdf_points(per_call),
    }
}

/// About 100 points of the cumulative distribution, denser in the tail.
fn cdf_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    if h.is_empty() {
        return Vec::new();
    }
    let mut qs: Vec<f64> = (0..=90).map(|i| i as f64 / 100.0).collect();
    qs.extend([0.92, 0.94, 0.96, 0.98, 0.99, 0.995, 0.999, 0.9999, 1.0]);
    let mut points: Vec<(f64, f64)> = qs
        .iter()
        .map(|&q| (h.value_at_quantile(q) as f64 / 1000.0, q))
        .collect();
    points.dedup_by(|a, b| a.0 == b.0);
    points
}

impl BenchRun {
    pub fn new(config: &BenchConfig, results: Vec<BenchResult>) -> BenchRun {
        BenchRun {
            format_version: FORMAT_VERSION,
            date: crate::machine::now_utc(),
            build: Build::current(),
            machine: Machine::current(),
            settings: BenchSettings {
                max_solutions: config.limits.max_solutions,
                max_nodes: config.limits.max_nodes,
                timeout_s: config.limits.timeout.map(|t| t.as_secs_f64()),
                warmup: config.warmup,
                rounds: config.rounds,
                min_time_s: config.min_time.map(|d| d.as_secs_f64()),
                min_round_ms: config.min_round.as_millis() as u64,
                headline: "µs/puzzle = median over rounds of (whole-pass wall time / puzzles); \
                           per-call statistics time each solver call"
                    .to_string(),
            },
            results,
        }
    }

    /// Throughput at `threads` relative to `threads` times the single-thread throughput
    /// of the same backend and dataset, when the run has both.
    pub fn efficiency(&self, r: &BenchResult) -> Option<f64> {
        let one = self.results.iter().find(|o| {
            o.threads == 1 && o.backend == r.backend && o.dataset.hash == r.dataset.hash
        })?;
        (one.puzzles_per_s > 0.0).then(|| r.puzzles_per_s / (r.threads as f64 * one.puzzles_per_s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_dataset() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.txt");
        std::fs::write(
            &path,
            "\
.5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4:1:652483917978162435314975628825736149791824563436519872269348751547291386183657294
55..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4
not a puzzle
8.........95.......76.........426798...571243...893165......916....3.487....1.532:2:
",
        )
        .unwrap();
        (dir, path)
    }

    #[test]
    fn benches_every_backend_and_checks_answers() {
        let (_dir, path) = tiny_dataset();
        let dataset = Dataset::load(&path, None).unwrap();
        assert_eq!((dataset.info.records, dataset.info.puzzles), (4, 2));
        assert!(dataset.info.hash.starts_with("fnv1a64:"));
        let config = BenchConfig {
            backends: Backend::ALL.to_vec(),
            threads: vec![1, 2],
            limits: Limits::default(),
            warmup: 1,
            rounds: 3,
            min_time: None,
            min_round: Duration::ZERO,
        };
        let mut passes = 0;
        let mut rows = 0;
        let results = run_bench(
            &[dataset],
            &config,
            &mut |_| passes += 1,
            &mut |r| {
                rows += r.len();
                Ok(())
            },
            &mut |_| Ok(()),
        )
        .unwrap();
        assert_eq!(results.len(), 2 * Backend::ALL.len());
        assert_eq!(passes, results.len() * 4);
        assert_eq!(rows, results.len() * 4);
        for r in &results {
            assert_eq!(r.wrong, 0, "{}", r.backend);
            assert_eq!(r.rounds_ns.len(), 3);
            assert!(r.us_per_puzzle > 0.0 && r.puzzles_per_s > 0.0);
            assert!(!r.cdf.is_empty());
            assert!(r.per_call.median_us <= r.per_call.max_us);
        }
        // The same search, whatever the thread count: identical work.
        assert_eq!(
            results[0].nodes_total,
            results[Backend::ALL.len()].nodes_total
        );
        let run = BenchRun::new(&config, results);
        let two = &run.results[Backend::ALL.len()];
        assert!(run.efficiency(two).is_some());
    }

    #[test]
    fn the_hash_follows_the_bytes() {
        let (dir, path) = tiny_dataset();
        let a = hash_file(&path).unwrap();
        let other = dir.path().join("e.txt");
        std::fs::write(&other, "x").unwrap();
        assert_ne!(a, hash_file(&other).unwrap());
        // FNV-1a 64 of "x" (and of "a", the published test vector), checked in Python.
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63f54c86021707");
        std::fs::write(&other, "a").unwrap();
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63dc4c8601ec8c");
    }
}
