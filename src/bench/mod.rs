//! `bench` and `compare`: each backend over each dataset, block by block, every answer
//! checked (`engine`); verdicts from outcomes, then total times, on the same puzzles
//! (`judge`); what a saved baseline needs to be run again (`builds`).

pub mod baseline;
pub mod builds;
mod dataset;
mod engine;
pub mod history;
pub mod instructions;
pub mod judge;
pub mod machine;
pub mod present;
mod saved;
pub mod stats;
mod truth;

pub use instructions::Instructions;
pub use judge::{How, Kind, Verdict, Versus};

pub use dataset::{Dataset, DatasetError, hash_file};
pub use saved::{BenchResult, BenchRun, ForeignNotes, PerCall, ReadSettings, Timing, Verified};

use std::time::Duration;

use crate::base::interrupt;
use crate::bench::machine::Build;
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
    /// How the datasets are read (recorded in the run).
    pub read: ReadSettings,
    /// The name each backend's results carry (same order as `backends`).
    pub labels: Vec<String>,
    /// How verdicts are given; its seed also orders the turns and draws the symmetries.
    pub rules: judge::Rules,
    /// Count instructions on the first this many puzzles of each dataset (valgrind).
    pub instructions: Option<u64>,
    /// Whose claims are verified.
    pub verify: Verify,
    /// Present each round's puzzles under a fresh symmetry (seeded with `seed`).
    pub symmetry: bool,
}

impl BenchConfig {
    /// Whether an `exec:` program is among the backends: its process works outside
    /// this one.
    fn runs_programs(&self) -> bool {
        self.backends.iter().any(|b| matches!(b, Backend::Exec(_)))
    }
}

/// What `run_bench` tells its caller as it goes.
pub trait Observer {
    /// Before each round: "backend on dataset -jN: round K".
    fn on_pass(&mut self, label: &str);
    /// The per-puzzle results of each combination's first round, block by block.
    fn on_rows(&mut self, results: &[PuzzleResult]) -> anyhow::Result<()>;
    /// Each result as soon as it is ready (so exports can be rewritten).
    fn on_result(&mut self, result: &BenchResult) -> anyhow::Result<()>;
}

/// Runs everything in `config` over `datasets`: the run of `build`, partial when an
/// interrupt cut it short (the measurement in flight is then dropped: only whole results
/// are kept).
pub fn run_bench(
    datasets: &[Dataset],
    config: &BenchConfig,
    build: &Build,
    observer: &mut dyn Observer,
) -> anyhow::Result<BenchRun> {
    let (mut results, mut versus) = (Vec::new(), Vec::new());
    'measuring: {
        // The verifier's counts, found once per dataset before anything is measured.
        let Some(truths) = find_truths(datasets, config, observer)? else {
            break 'measuring;
        };
        for &threads in &config.threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("solver-{i}"))
                .build()?;
            // With one thread, this thread measures: a program started for it runs on its
            // core, so both are measured on the same core.
            let _pinned =
                (threads == 1 && config.runs_programs()).then(crate::base::cpu::Pinned::here);
            for (d, dataset) in datasets.iter().enumerate() {
                let truths: Vec<Option<&Truths>> = config
                    .backends
                    .iter()
                    .map(|b| {
                        let mine = truths.get(d)?.iter().find(|t| t.serves(b));
                        mine.filter(|_| config.verify.covers(b))
                    })
                    .collect();
                let Some((mine, verdicts)) =
                    engine::measure(&pool, threads, dataset, config, &truths, observer)?
                else {
                    break 'measuring;
                };
                versus.extend(verdicts);
                for r in &mine {
                    observer.on_result(r)?;
                }
                results.extend(mine);
            }
        }
        if let Some(n) = config.instructions {
            count_instructions(datasets, config, n, &mut results, observer)?;
            for v in &mut versus {
                v.instructions_ratio = instructions_ratio(&results, v);
            }
        }
    }
    // Only an interrupt stops the measuring early, and it stays requested.
    let mut run = BenchRun::new(config, build);
    (run.results, run.versus, run.partial) = (results, versus, interrupt::requested());
    Ok(run)
}

/// The verifier's counts of each dataset, for the backends whose claims are verified;
/// `None` on interrupt.
fn find_truths(
    datasets: &[Dataset],
    config: &BenchConfig,
    observer: &mut dyn Observer,
) -> anyhow::Result<Option<Vec<Vec<Truths>>>> {
    let verified: Vec<&Backend> = config
        .backends
        .iter()
        .filter(|b| config.verify.covers(b))
        .collect();
    let mut truths: Vec<Vec<Truths>> = Vec::new();
    if verified.is_empty() {
        return Ok(Some(truths));
    }
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
                return Ok(None);
            };
            mine.push(t);
        }
        truths.push(mine);
    }
    Ok(Some(truths))
}

/// The verdicts of one dataset at one thread count: each backend against the first
/// (builds), or against the fastest (solvers).
fn verdicts(
    sides: &[judge::Side<'_>],
    results: &[BenchResult],
    config: &BenchConfig,
) -> Vec<Versus> {
    if results.len() < 2 {
        return Vec::new();
    }
    // The fastest of those whose times are solves' (no wrong answers, something
    // solved, times the harness can account for).
    let fair = |i: usize| {
        let side = &sides[i];
        results[i].wrong == 0
            && side.solves
            && side.outcomes.contains(&judge::Outcome::Solved)
            && (config.rules.trust_times || side.claims.doubt(side.label).is_none())
    };
    let us = |i: usize| results[i].us_per_puzzle;
    let base = match config.rules.kind {
        Kind::Builds => 0,
        Kind::Solvers => (0..results.len())
            .filter(|&i| fair(i))
            .min_by(|&a, &b| us(a).total_cmp(&us(b)))
            .unwrap_or(0),
    };
    (0..results.len())
        .filter(|&i| i != base)
        .map(|i| {
            let judged = judge::judge(&sides[base], &sides[i], &config.rules);
            judged.versus(&results[base], &results[i], How::Paired, &config.rules)
        })
        .collect()
}

/// Instructions per puzzle of `v.other` over `v.base`, counted on the same puzzles.
fn instructions_ratio(results: &[BenchResult], v: &Versus) -> Option<f64> {
    let of = |label: &str| {
        let r = results.iter().find(|r| {
            r.backend == label && r.dataset.path == v.dataset && r.threads == v.threads
        })?;
        r.instructions.as_ref()
    };
    of(&v.other)?.ratio_to(of(&v.base)?)
}

/// Counts each backend's instructions on each dataset's sample, once for every thread
/// count, and adds them to the results.
fn count_instructions(
    datasets: &[Dataset],
    config: &BenchConfig,
    n: u64,
    results: &mut [BenchResult],
    observer: &mut dyn Observer,
) -> anyhow::Result<()> {
    for dataset in datasets {
        let mut sample = Vec::new();
        dataset.unpack(0..dataset.len().min(n as usize), &mut sample);
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
            let mine: Vec<_> = sample
                .iter()
                .filter(|b| backend.solves_side(b.side()))
                .cloned()
                .collect();
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
    Ok(())
}

#[cfg(test)]
mod tests;
