//! Paired measurement (`bench --paired`): the backends take turns on the same puzzles,
//! block by block, in an order shuffled with a recorded seed, so whatever else the
//! machine does falls on all of them alike. Each backend after the first gets its ratio to
//! the first (the median of the per-block ratios), with a distribution-free 95%
//! confidence interval (the sign test's order statistics), and a verdict.
//!
//! The clock: with one thread and only built-in backends, the thread's CPU time (it
//! stops while another process holds the core, which wall time does not, and it covers
//! all their work, done on this thread); with several threads, wall time; with a foreign
//! backend, whose work may run on threads or in processes of its own, the sum of each
//! backend's calls' own times (a library's call alone, a program's own report), the
//! same way for every backend compared. Every answer of every round is checked.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::measure::{
    Job, calls_ns, check, chunk_records, chunks, complete, present, solve_each, undo,
};
use super::summary::summarize;
use super::truth::Truths;
use super::{BenchConfig, BenchResult, Dataset, Observer};
use crate::bench::baseline::Verdict;
use crate::bench::stats;
use crate::board::Board;
use crate::cpu::thread_cpu_ns;
use crate::interrupt;
use crate::rng::SplitMix64;
use crate::run::{Attempt, GuardedSolver, SolverPool};
use crate::solver::Backend;
use crate::tally::Tally;

/// A block of puzzles lasts about this long for the slowest backend.
const BLOCK_NS: u64 = 10_000_000;
const MAX_BLOCKS: usize = 200;
const MIN_BLOCKS: usize = 8;
/// Puzzles unpacked at a time for the warmup pass.
const WARMUP_STRETCH: usize = 16_384;

/// One backend against the first, on one dataset at one thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    pub baseline: String,
    pub backend: String,
    pub dataset: String,
    pub threads: usize,
    /// Time of `backend` / time of `baseline` (geometric mean over the pairs).
    pub ratio: f64,
    pub ci95: (f64, f64),
    /// Blocks measured back to back for both.
    pub pairs: usize,
    /// `cpu` (the thread's CPU time, one thread), `wall`, or `calls` (the sum of the
    /// calls' own times, with a foreign backend).
    pub clock: String,
    pub noise_pct: f64,
    pub verdict: Verdict,
    /// The seed of the order the backends took turns in.
    pub seed: u64,
    /// Instructions per puzzle of `backend` / of `baseline` (`--instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_ratio: Option<f64>,
}

impl PairedComparison {
    /// Why this clock, for a person.
    pub fn clock_reason(&self) -> &'static str {
        match self.clock.as_str() {
            "cpu" => {
                "one thread, built-in backends: its CPU time covers their work and does not count time spent waiting for a core"
            }
            "calls" => {
                "a foreign backend: its work may run outside this thread's CPU clock, so every backend is timed by its calls' own times (a library's call alone, a program's own report), as wall time"
            }
            _ => "several threads: wall time (CPU time would add the threads up)",
        }
    }
}

/// The clock of a paired comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    Cpu,
    Wall,
    Calls,
}

struct Contender<'a> {
    backend: &'a Backend,
    label: &'a str,
    solver: GuardedSolver,
    pool: SolverPool,
    truths: Option<&'a Truths>,
    /// The time of each measured block, in order (the clock of the comparison).
    blocks_ns: Vec<u64>,
    /// Wall time of each round (all blocks).
    rounds_ns: Vec<u64>,
    tally: Tally,
    first: Tally,
    /// The attempts of the block in hand, checked once every backend took it.
    attempts: Vec<(Attempt, Option<usize>)>,
    /// A `lib:` solver's calls for a solution over the measurement.
    second_calls: u64,
}

/// What the paired run measured on one dataset at one thread count.
pub(super) struct Paired {
    pub results: Vec<BenchResult>,
    pub comparisons: Vec<PairedComparison>,
}

/// Measures every backend of `config` on `dataset`, taking turns; `truths[i]` checks
/// the claims of backend `i` when they are verified. `None` on interrupt.
pub(super) fn run_paired<'a>(
    pool: &rayon::ThreadPool,
    threads: usize,
    dataset: &Dataset,
    config: &'a BenchConfig,
    truths: &[Option<&'a Truths>],
    observer: &mut dyn Observer,
) -> anyhow::Result<Option<Paired>> {
    let mut contenders: Vec<Contender<'a>> = config
        .backends
        .iter()
        .zip(&config.labels)
        .zip(truths)
        .map(|((backend, label), truths)| {
            // Claims are checked against the dataset's truths: the solvers verify none.
            let pool = SolverPool::new(backend, &config.limits).verifying(None);
            if threads > 1 {
                pool.prefill(threads);
            }
            Contender {
                backend,
                label,
                solver: GuardedSolver::new(backend, &config.limits).verifying(None),
                pool,
                truths: *truths,
                blocks_ns: Vec::new(),
                rounds_ns: Vec::new(),
                tally: Tally::new(),
                first: Tally::new(),
                attempts: Vec::new(),
                second_calls: 0,
            }
        })
        .collect();
    // Puzzles are unpacked a block (or a warmup stretch) at a time, before the clock.
    let mut grids = Vec::new();
    let n = dataset.len();
    // Warmup: one pass each, which also says how long a pass takes.
    let mut slowest = 1u64;
    for c in &mut contenders {
        observer.on_pass(&format!(
            "{} on {} -j{threads}: warmup (paired)",
            c.label, dataset.info.path
        ));
        let mut wall = 0;
        for start in (0..n).step_by(WARMUP_STRETCH) {
            dataset.unpack(start..(start + WARMUP_STRETCH).min(n), &mut grids);
            present(config, 0, start as u64, &mut grids);
            wall += measure(pool, threads, c, &grids).wall;
        }
        slowest = slowest.max(wall);
        if interrupt::requested() {
            return Ok(None);
        }
    }
    // The thread's CPU clock covers only work done on this thread: built-in backends'.
    // A foreign backend is timed by its calls' own clocks, and so is every other.
    let clock = if config.backends.iter().any(Backend::is_foreign) {
        Clock::Calls
    } else if threads == 1 && thread_cpu_ns() > 0 {
        Clock::Cpu
    } else {
        Clock::Wall
    };
    // At least MIN_BLOCKS a pass, so that even a small dataset gives enough pairs.
    let blocks = (slowest / BLOCK_NS).clamp(MIN_BLOCKS as u64, MAX_BLOCKS as u64) as usize;
    // Blocks with the untimed records around them: the first round's rows.
    let blocks = chunks(dataset, n.div_ceil(blocks));
    let mut rng = SplitMix64::new(config.seed ^ dataset.info.records);
    let probe = crate::bench::machine::LoadProbe::start();
    let started = Instant::now();
    let mut round = 0usize;
    while round < config.rounds.max(1) as usize
        || config
            .min_time
            .is_some_and(|t| started.elapsed() < t && round < 10_000)
    {
        observer.on_pass(&format!(
            "{} backends on {} -j{threads}: paired round {}",
            contenders.len(),
            dataset.info.path,
            round + 1
        ));
        let mut round_wall = vec![0u64; contenders.len()];
        for block in &blocks {
            let start = block.timed.start;
            dataset.unpack(block.timed.clone(), &mut grids);
            // Every backend takes the block in the same form, fresh each round.
            let symmetries = present(config, round as u64 + 1, start as u64, &mut grids);
            let mut order: Vec<usize> = (0..contenders.len()).collect();
            rng.shuffle(&mut order);
            for i in order {
                let c = &mut contenders[i];
                // A fresh built-in solver per block, placed somewhere else each time
                // (`placed_anew`). A foreign solver keeps its own state, which we
                // cannot renew (this project's C library renews its own).
                if !c.backend.is_foreign() {
                    c.solver = crate::solver::placed_anew(rng.next_u64(), || {
                        GuardedSolver::new(c.backend, &config.limits).verifying(None)
                    });
                }
                let second_calls = crate::solver::shared_lib::second_calls();
                let times = measure(pool, threads, c, &grids);
                c.second_calls += crate::solver::shared_lib::second_calls() - second_calls;
                c.blocks_ns.push(match clock {
                    Clock::Cpu => times.cpu,
                    Clock::Wall => times.wall,
                    Clock::Calls => times.calls,
                });
                round_wall[i] += match clock {
                    Clock::Calls => times.calls,
                    _ => times.wall,
                };
                if interrupt::requested() {
                    return Ok(None);
                }
                if let Some(symmetries) = &symmetries {
                    undo(&mut c.attempts, symmetries);
                }
            }
            // Every answer of every round is checked, outside the clocks, block by
            // block (one block's attempts in memory, not a dataset's): the first
            // round's become the rows, backend by backend, the others are counted.
            let records = match round {
                0 => chunk_records(dataset, block),
                _ => Vec::new(),
            };
            for c in &mut contenders {
                if round == 0 {
                    let checked = check(
                        dataset,
                        c.truths,
                        &c.solver,
                        c.label,
                        &records,
                        std::mem::take(&mut c.attempts),
                    );
                    checked.iter().for_each(|r| c.first.add(r));
                    let combo = super::Combo {
                        label: c.label,
                        dataset: &dataset.info.path,
                        threads,
                    };
                    observer.on_rows(&combo, &checked)?;
                } else {
                    tally_block(dataset, c, start);
                }
            }
        }
        for (c, wall) in contenders.iter_mut().zip(round_wall) {
            c.rounds_ns.push(wall);
        }
        round += 1;
    }
    // A program's own CPU shows as other programs' load: it cannot be told apart.
    let load = probe.others().filter(|_| {
        !config
            .backends
            .iter()
            .any(|b| matches!(b, Backend::Exec(_)))
    });
    let mut results = Vec::new();
    for c in &mut contenders {
        let job = Job {
            pool,
            threads,
            backend: c.backend,
            label: c.label,
            dataset,
            config,
            truths: c.truths,
        };
        c.tally += &c.first;
        let mut result = summarize(
            &job,
            std::mem::take(&mut c.rounds_ns),
            1,
            &c.tally,
            &c.first,
            c.second_calls,
        );
        result.load = load;
        results.push(result);
    }
    let comparisons = contenders[1..]
        .iter()
        .map(|c| compare(&contenders[0], c, dataset, threads, clock, config))
        .collect();
    Ok(Some(Paired {
        results,
        comparisons,
    }))
}

/// A block's times: wall, the calling thread's CPU, and the sum of the calls' own
/// times over the threads.
struct Times {
    wall: u64,
    cpu: u64,
    calls: u64,
}

/// One block of puzzles on one backend: the attempts (into the contender's, whose
/// memory is reserved first so that nothing is allocated while the clocks run) and
/// their times.
fn measure(
    pool: &rayon::ThreadPool,
    threads: usize,
    c: &mut Contender<'_>,
    grids: &[Board],
) -> Times {
    c.attempts.clear();
    c.attempts.reserve(grids.len());
    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    solve_each(
        pool,
        threads,
        &mut c.solver,
        &c.pool,
        grids,
        &mut c.attempts,
    );
    let wall = start.elapsed().as_nanos() as u64;
    let cpu = thread_cpu_ns().saturating_sub(cpu_start);
    complete(&mut c.solver, grids, &mut c.attempts);
    Times {
        wall: wall.max(1),
        cpu,
        calls: (calls_ns(&c.attempts) / threads as u64).max(1),
    }
}

/// Checks the answers of a block of a later round (timed puzzles `start..`) and counts
/// them in the contender's tally; its attempts are emptied.
fn tally_block(dataset: &Dataset, c: &mut Contender<'_>, start: usize) {
    for (k, (attempt, thread)) in (start..).zip(c.attempts.drain(..)) {
        let record = dataset.record(k);
        let truth = c.truths.map(|t| t.get(k, dataset.side(k)));
        let r = c.solver.assess_with(&record, attempt, thread, truth);
        c.tally.add(&r);
    }
}

/// The paired verdict of `b` against `a`.
fn compare(
    a: &Contender<'_>,
    b: &Contender<'_>,
    dataset: &Dataset,
    threads: usize,
    clock: Clock,
    config: &BenchConfig,
) -> PairedComparison {
    let logs: Vec<f64> = a
        .blocks_ns
        .iter()
        .zip(&b.blocks_ns)
        .map(|(&x, &y)| (y.max(1) as f64 / x.max(1) as f64).ln())
        .collect();
    // The median of the block ratios: a disturbance that hits a few blocks hard (on a
    // busy VM the block ratios have tails of ±20-40% around a core of ±3%) barely moves
    // it, where it widens a t interval of the mean two- or threefold.
    let (median, (lo, hi)) = stats::median_ci95(&logs).unwrap_or((0.0, (0.0, 0.0)));
    let ratio = median.exp();
    let ci95 = (lo.exp(), hi.exp());
    let noise = config.noise_pct / 100.0;
    use crate::run::Status::{BudgetExceeded, Unsupported};
    let verdict = if a.tally.wrong_answers() > 0 || b.tally.wrong_answers() > 0 {
        // A backend that answers wrong is not faster or slower: its time is not a
        // solve's.
        Verdict::WrongAnswers
    } else if a.first.count(Unsupported) != b.first.count(Unsupported)
        || a.tally.count(BudgetExceeded) != b.tally.count(BudgetExceeded)
    {
        // Boards one does not solve, or puzzles one gave up on, are not the same work.
        Verdict::NotComparable
    } else if logs.len() < stats::MEDIAN_CI_MIN {
        Verdict::TooFewPairs
    } else if ci95.0 > 1.0 && ratio > 1.0 + noise {
        Verdict::Regressed
    } else if ci95.1 < 1.0 && ratio < 1.0 - noise {
        Verdict::Improved
    } else {
        Verdict::NoChange
    };
    PairedComparison {
        baseline: a.label.to_string(),
        backend: b.label.to_string(),
        dataset: dataset.info.path.clone(),
        threads,
        ratio,
        ci95,
        pairs: logs.len(),
        clock: match clock {
            Clock::Cpu => "cpu",
            Clock::Wall => "wall",
            Clock::Calls => "calls",
        }
        .into(),
        noise_pct: config.noise_pct,
        verdict,
        seed: config.seed,
        instructions_ratio: None,
    }
}
