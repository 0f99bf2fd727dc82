//! `bench`: each backend over each dataset, with warmup and measured rounds, every answer
//! checked, and the statistics that make runs comparable.
//!
//! Each round is one pass over the whole dataset (repeated when a pass is short). Two
//! clocks run: one around every solver call (per-puzzle distributions) and one around the
//! whole pass. For puzzles that take microseconds the per-call timer's own cost shows, so
//! the headline µs/puzzle is the whole-pass wall time divided by the puzzle count (median
//! over rounds); the per-call figures are reported beside it.

pub mod baseline;
mod dataset;
pub mod history;
pub mod instructions;
pub mod machine;
mod measure;
mod paired;
pub mod present;
pub mod relative;
mod saved;
pub mod stats;
mod summary;
mod truth;

pub use instructions::Instructions;
pub use paired::PairedComparison;

pub use dataset::DatasetError;
pub use dataset::{Dataset, hash_file};
pub use saved::{
    BenchResult, BenchRun, BenchSettings, FORMAT_VERSION, ForeignNotes, PerCall, ReadSettings,
    Timing, Verified,
};

use std::time::Duration;

use crate::bench::machine::{Build, Machine};
use crate::interrupt;
use crate::run::{PuzzleResult, Verify};
use crate::solver::{Backend, Limits};
use truth::Truths;

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
    /// How the datasets are read (recorded in the run).
    pub read: ReadSettings,
    /// The name each backend's results carry (same order as `backends`).
    pub labels: Vec<String>,
    /// Take turns block by block (`--paired`), with this seed for the order.
    pub paired: bool,
    pub seed: u64,
    /// Changes smaller than this are no change (paired verdicts).
    pub noise_pct: f64,
    /// Count instructions on the first this many puzzles of each dataset (valgrind).
    pub instructions: Option<u64>,
    /// Whose claims are verified.
    pub verify: Verify,
    /// What a pass's time is: its wall time, or the sum of its calls' own times.
    pub timing: Timing,
    /// Present each pass's puzzles under a fresh symmetry (seeded with `seed`).
    pub symmetry: bool,
}

impl BenchConfig {
    /// How passes are timed when `backends` are measured together: a foreign backend
    /// is timed by its own clock around its work alone (a library's call, a program's
    /// report), so every backend of the run is timed by its calls' times, the same way.
    pub fn timing_for(backends: &[Backend]) -> Timing {
        match backends.iter().any(Backend::is_foreign) {
            true => Timing::Calls,
            false => Timing::Pass,
        }
    }
}

/// One backend (by label) on one dataset at one thread count.
#[derive(Clone, Copy, Debug)]
pub struct Combo<'a> {
    pub label: &'a str,
    pub dataset: &'a str,
    pub threads: usize,
}

/// What `run_bench` tells its caller as it goes.
pub trait Observer {
    /// Before each pass: "backend on dataset -jN: round K".
    fn on_pass(&mut self, _label: &str) {}
    /// The per-puzzle results of each combination's first measured pass.
    fn on_rows(&mut self, _combo: &Combo<'_>, _results: &[PuzzleResult]) -> anyhow::Result<()> {
        Ok(())
    }
    /// Each result as soon as it is ready (so exports can be rewritten).
    fn on_result(&mut self, _result: &BenchResult) -> anyhow::Result<()> {
        Ok(())
    }
}

/// The results, and whether an interrupt cut the run short (the measurement in flight
/// is then dropped: only whole results are kept).
pub struct Measured {
    pub results: Vec<BenchResult>,
    pub paired: Vec<PairedComparison>,
    pub interrupted: bool,
}

/// Runs everything in `config` over `datasets`.
pub fn run_bench(
    datasets: &[Dataset],
    config: &BenchConfig,
    observer: &mut dyn Observer,
) -> anyhow::Result<Measured> {
    let mut results = Vec::new();
    let mut paired = Vec::new();
    let stopped = |results, paired| {
        Ok(Measured {
            results,
            paired,
            interrupted: true,
        })
    };
    // The verifier's counts, found once per dataset before anything is measured.
    let mut truths: Vec<Vec<Truths>> = Vec::new();
    let verified: Vec<&Backend> = config
        .backends
        .iter()
        .filter(|b| config.verify.covers(b))
        .collect();
    if !verified.is_empty() {
        let pool = rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("verifier-{i}"))
            .build()?;
        for dataset in datasets {
            let mut mine: Vec<Truths> = Vec::new();
            for b in &verified {
                if mine.iter().any(|t| t.serves(b)) {
                    continue;
                }
                observer.on_pass(&format!(
                    "{} on {}: verifying claims",
                    b.name(),
                    dataset.info.path
                ));
                let Some(t) = Truths::find(&pool, dataset, b, &config.limits) else {
                    return stopped(results, paired);
                };
                mine.push(t);
            }
            truths.push(mine);
        }
    }
    let truths_of = |d: usize, b: &Backend| -> Option<&Truths> {
        config
            .verify
            .covers(b)
            .then(|| truths.get(d)?.iter().find(|t| t.serves(b)))
            .flatten()
    };
    for &threads in &config.threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("solver-{i}"))
            .build()?;
        // With one thread, this thread measures: a program started for it runs on its
        // core, so both are measured on the same core.
        let _pinned = (threads == 1
            && config
                .backends
                .iter()
                .any(|b| matches!(b, Backend::Exec(_))))
        .then(crate::cpu::Pinned::here);
        for (d, dataset) in datasets.iter().enumerate() {
            if config.paired {
                let truths: Vec<Option<&Truths>> =
                    config.backends.iter().map(|b| truths_of(d, b)).collect();
                let Some(p) =
                    paired::run_paired(&pool, threads, dataset, config, &truths, observer)?
                else {
                    return stopped(results, paired);
                };
                for r in &p.results {
                    observer.on_result(r)?;
                }
                results.extend(p.results);
                paired.extend(p.comparisons);
                continue;
            }
            for (backend, label) in config.backends.iter().zip(&config.labels) {
                let job = measure::Job {
                    pool: &pool,
                    threads,
                    backend,
                    label,
                    dataset,
                    config,
                    truths: truths_of(d, backend),
                };
                let Some(result) = measure::bench_one(&job, observer)? else {
                    return stopped(results, paired);
                };
                observer.on_result(&result)?;
                results.push(result);
            }
        }
    }
    if let Some(n) = config.instructions {
        count_instructions(datasets, config, n, &mut results, &mut paired, observer)?;
    }
    Ok(Measured {
        results,
        paired,
        interrupted: interrupt::requested(),
    })
}

/// Counts each backend's instructions on each dataset's sample, once for every thread
/// count, and adds them to the results (and the ratios to the paired comparisons).
fn count_instructions(
    datasets: &[Dataset],
    config: &BenchConfig,
    n: u64,
    results: &mut [BenchResult],
    paired: &mut [PairedComparison],
    observer: &mut dyn Observer,
) -> anyhow::Result<()> {
    for dataset in datasets {
        let mut sample = Vec::new();
        dataset.unpack(0..dataset.len().min(n as usize), &mut sample);
        let sample = &sample[..];
        for (backend, label) in config.backends.iter().zip(&config.labels) {
            if instructions::uncountable(backend).is_some() || interrupt::requested() {
                continue;
            }
            observer.on_pass(&format!(
                "{label} on {}: counting instructions",
                dataset.info.path
            ));
            // Only the boards the backend solves: the others would cost it nothing and
            // lower its count per puzzle.
            let solver = backend.new_solver_with(&config.limits);
            let mine: Vec<_> = sample
                .iter()
                .filter(|b| solver.solves_side(b.side()))
                .cloned()
                .collect();
            drop(solver);
            if mine.is_empty() {
                continue;
            }
            // None: an interrupt, after which nothing more is counted; the counts
            // finished are kept.
            let Some(counted) = instructions::count(backend, &mine, &config.limits)? else {
                continue;
            };
            for r in results
                .iter_mut()
                .filter(|r| r.backend == *label && r.dataset.path == dataset.info.path)
            {
                r.instructions = Some(counted.clone());
            }
        }
    }
    for p in paired.iter_mut() {
        let of = |label: &str| {
            results
                .iter()
                .find(|r| r.backend == label && r.dataset.path == p.dataset)
                .and_then(|r| r.instructions.as_ref())
                .map(|i| (i.puzzles, i.per_puzzle))
        };
        // Counted on the same puzzles only (a backend may skip sizes it does not solve).
        if let (Some((n, a)), Some((m, b))) = (of(&p.baseline), of(&p.backend)) {
            if n == m {
                p.instructions_ratio = Some(b / a.max(1.0));
            }
        }
    }
    Ok(())
}

impl BenchSettings {
    /// The settings a run with `config` records.
    pub fn of(config: &BenchConfig) -> BenchSettings {
        BenchSettings {
            instructions: config.instructions,
            max_solutions: config.limits.max_solutions,
            max_nodes: config.limits.max_nodes,
            timeout_s: config.limits.timeout.map(|t| t.as_secs_f64()),
            warmup: config.warmup,
            rounds: config.rounds,
            min_time_s: config.min_time.map(|d| d.as_secs_f64()),
            min_round_ms: config.min_round.as_millis() as u64,
            headline: config.timing.headline().to_string(),
            input: config.read.clone(),
            timing: config.timing,
            symmetry: config.symmetry,
        }
    }
}

impl BenchRun {
    pub fn new(config: &BenchConfig, results: Vec<BenchResult>) -> BenchRun {
        BenchRun {
            format_version: FORMAT_VERSION,
            date: crate::bench::machine::now_utc(),
            build: Build::current(),
            machine: Machine::current(),
            settings: BenchSettings::of(config),
            results,
            partial: false,
            paired: Vec::new(),
        }
    }

    /// Which backend ran fastest on each dataset at each thread count, and by how much.
    pub fn relative(&self) -> Vec<relative::Relative> {
        relative::summarize(&self.results)
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
mod tests;
