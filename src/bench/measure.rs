//! Measuring one backend on one dataset at one thread count: warmup, rounds, passes.

use std::time::Instant;

use rayon::prelude::*;

use super::summary::summarize;
use super::{BenchConfig, BenchResult, Dataset, Observer};
use crate::grid::Grid;
use crate::interrupt;
use crate::run::{Attempt, GuardedSolver, PuzzleResult};
use crate::solver::Backend;
use crate::tally::Tally;

/// One backend x dataset x thread count.
pub(super) struct Job<'a> {
    pub pool: &'a rayon::ThreadPool,
    pub threads: usize,
    pub backend: &'a Backend,
    pub dataset: &'a Dataset,
    pub config: &'a BenchConfig,
}

/// Most passes one round repeats.
const MAX_PASSES: u64 = 10_000;
/// Most rounds `--min-time` adds.
const MAX_TIMED_ROUNDS: usize = 10_000;

/// Warmup, then the measured rounds; `None` when an interrupt came (the measurement in
/// flight is dropped, never reported half done).
pub(super) fn bench_one(
    job: &Job<'_>,
    observer: &mut dyn Observer,
) -> anyhow::Result<Option<BenchResult>> {
    let config = job.config;
    let mut solver = GuardedSolver::new(job.backend, &config.limits);
    let label = format!(
        "{} on {} -j{}",
        job.backend, job.dataset.info.path, job.threads
    );
    let mut last_pass_ns = None;
    for i in 0..config.warmup {
        observer.on_pass(&format!("{label}: warmup {}", i + 1));
        last_pass_ns = Some(pass(job, &mut solver).wall_ns);
        if interrupt::requested() {
            return Ok(None);
        }
    }
    let passes = passes_per_round(config, last_pass_ns);
    let mut tally = Tally::new();
    let mut rounds_ns = Vec::new();
    let mut first_pass_tally = None;
    let started = Instant::now();
    while rounds_ns.len() < config.rounds.max(1) as usize
        || config
            .min_time
            .is_some_and(|t| started.elapsed() < t && rounds_ns.len() < MAX_TIMED_ROUNDS)
    {
        observer.on_pass(&format!("{label}: round {}", rounds_ns.len() + 1));
        let mut round_ns = 0;
        for _ in 0..passes {
            let p = pass(job, &mut solver);
            if interrupt::requested() {
                return Ok(None);
            }
            round_ns += p.wall_ns;
            // Every answer of every pass is checked.
            let checked = check(job.dataset, &solver, p.attempts);
            let mut pass_tally = Tally::new();
            checked.iter().for_each(|r| pass_tally.add(r));
            tally += &pass_tally;
            if first_pass_tally.is_none() {
                observer.on_rows(&checked)?;
                first_pass_tally = Some(pass_tally);
            }
        }
        // The time of one pass, averaged over the round's passes.
        rounds_ns.push(round_ns / passes);
    }
    let first = first_pass_tally.unwrap_or_default();
    Ok(Some(summarize(
        job,
        rounds_ns,
        passes as usize,
        &tally,
        &first,
    )))
}

/// A pass of a few milliseconds is at the mercy of every hiccup of the machine: a round
/// repeats it until the round lasts `min_round` (as criterion batches iterations). The
/// warmup pass says how long a pass takes.
fn passes_per_round(config: &BenchConfig, last_pass_ns: Option<u64>) -> u64 {
    match last_pass_ns {
        Some(ns) if ns > 0 => (config.min_round.as_nanos() as u64)
            .div_ceil(ns)
            .clamp(1, MAX_PASSES),
        _ => 1,
    }
}

struct Pass {
    /// Per timed puzzle, in dataset order: what the call did and which thread did it.
    attempts: Vec<(Attempt, Option<usize>)>,
    wall_ns: u64,
}

/// One pass: every puzzle solved once, each call timed, the whole pass timed.
fn pass(job: &Job<'_>, solver: &mut GuardedSolver) -> Pass {
    let grids: &[Grid] = &job.dataset.grids;
    let start = Instant::now();
    let attempts = if job.threads == 1 {
        // One thread: the caller's thread and solver, no scheduling in the way.
        grids.iter().map(|g| (solver.attempt(g), Some(0))).collect()
    } else {
        let (backend, limits) = (solver.backend(), solver.limits());
        job.pool.install(|| {
            grids
                .par_iter()
                .with_min_len(16)
                .map_init(
                    || GuardedSolver::new(backend, limits),
                    |s, g| (s.attempt(g), rayon::current_thread_index()),
                )
                .collect()
        })
    };
    Pass {
        attempts,
        wall_ns: start.elapsed().as_nanos() as u64,
    }
}

/// Every record's result for one pass, in input order (unsolved records included).
fn check(
    dataset: &Dataset,
    solver: &GuardedSolver,
    attempts: Vec<(Attempt, Option<usize>)>,
) -> Vec<PuzzleResult> {
    let mut solved: Vec<Option<(Attempt, Option<usize>)>> = vec![None; dataset.records.len()];
    for (&i, attempt) in dataset.timed.iter().zip(attempts) {
        solved[i] = Some(attempt);
    }
    dataset
        .records
        .iter()
        .zip(solved)
        .map(|(record, s)| match s {
            Some((attempt, thread)) => solver.assess(record, attempt, thread),
            None => solver.assess(record, Attempt::Skipped, None),
        })
        .collect()
}
