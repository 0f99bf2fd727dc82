//! Measuring the backends of a run on one dataset at one thread count: the one rounds
//! loop of `bench` and `compare`. The backends take turns block by block, in a seeded
//! order, so whatever else the machine does falls on all of them alike; every answer is
//! checked outside the clock. docs/bench.md says how blocks are cut and timed.

use std::time::Instant;

use rayon::prelude::*;

use super::judge::{Outcome, Side};
use super::truth::Truths;
use super::{
    BenchConfig, BenchResult, Dataset, ForeignNotes, Observer, PerCall, Timing, Verified, Versus,
};
use crate::base::cpu::{process_cpu_ns, thread_cpu_ns};
use crate::base::interrupt;
use crate::base::rng::SplitMix64;
use crate::bench::stats;
use crate::board::Board;
use crate::board::symmetry::Symmetry;
use crate::record::Record;
use crate::report::tally::Tally;
use crate::run::{Attempt, GuardedSolver, SolverPool};
use crate::solver::Backend;

/// A block lasts about this long for the slowest backend...
const BLOCK_NS: u64 = 10_000_000;
/// ... and at least this long for the fastest: a turn of a few calls measures the
/// caches a slower backend left cold more than the backend, and blocks that small let
/// a third, slow backend change the other two's ratio.
const MIN_TURN_NS: u64 = 200_000;
/// Fewest blocks a pass is cut into, however fast: a ratio needs pairs of blocks.
const FEWEST: usize = 4;
const MIN_BLOCKS: usize = 8;
const MAX_BLOCKS: usize = 200;
/// Most puzzles a block holds: one block's attempts and records are in memory at a time
/// (about 400 bytes a puzzle), never a whole dataset's.
const MAX_BLOCK: usize = 16_384;
/// Puzzles solved untimed before each timed turn, to warm the caches.
const WARM: usize = 4;
/// Most rounds `--min-time` adds: each keeps its block times in memory.
const MAX_ROUNDS: usize = 10_000;

/// One backend and everything measured of it.
pub(super) struct Contender<'a> {
    pub backend: &'a Backend,
    /// Carried by every result (a label other than the backend's name is made once per
    /// contender, a handful a command).
    pub label: &'static str,
    solver: GuardedSolver,
    pool: SolverPool,
    truths: Option<&'a Truths>,
    /// The time of each block on the run's clock, round after round.
    pub times: Vec<u64>,
    tally: Tally,
    /// The first round's: the exact work of one pass.
    first: Tally,
    /// Each timed puzzle's outcome over every round.
    pub outcomes: Vec<Outcome>,
    /// The attempts of the block in hand, checked once every backend took it.
    attempts: Vec<Attempt>,
}

/// Measures every backend of `config` on `dataset`; `truths[i]` checks the claims of
/// backend `i` when they are verified. A result per backend and the verdicts; `None` on
/// interrupt (the measurement in flight is dropped, never reported half done).
pub(super) fn measure<'a>(
    pool: &rayon::ThreadPool,
    threads: usize,
    dataset: &Dataset,
    config: &'a BenchConfig,
    truths: &[Option<&'a Truths>],
    observer: &mut dyn Observer,
) -> anyhow::Result<Option<(Vec<BenchResult>, Vec<Versus>)>> {
    let mut contenders: Vec<Contender<'a>> = config
        .backends
        .iter()
        .zip(&config.labels)
        .zip(truths)
        .map(|((backend, label), &truths)| Contender::new(backend, label, truths, config, threads))
        .collect();
    let timing = match config.backends.iter().any(Backend::is_foreign) {
        true => Timing::Calls,
        false if threads == 1 && thread_cpu_ns() > 0 => Timing::Cpu,
        false => Timing::Wall,
    };
    let mut passes = Passes {
        pool,
        threads,
        dataset,
        config,
        observer,
        grids: Vec::new(),
    };
    let Some((fastest, slowest)) = passes.warm_up(&mut contenders) else {
        return Ok(None);
    };
    let n = dataset.len();
    let befores: Vec<u32> = dataset.untimed.iter().map(|(b, _)| *b).collect();
    let size = n.div_ceil(block_count(fastest, slowest, n)).max(1);
    let blocks = chunks_of(n, &befores, size);
    let mut rng = SplitMix64::new(config.rules.seed ^ dataset.info.records);
    let probe = crate::bench::machine::LoadProbe::start();
    if !passes.rounds(&blocks, timing, &mut contenders, &mut rng)? {
        return Ok(None);
    }
    // A program's own CPU shows as other programs' load: it cannot be told apart.
    let load = probe.others().filter(|_| !config.runs_programs());
    let results: Vec<BenchResult> = (contenders.iter())
        .map(|c| BenchResult {
            load,
            ..c.result(dataset, threads, timing, blocks.len(), config)
        })
        .collect();
    let sides: Vec<Side> = (contenders.iter())
        .map(|c| Side {
            label: c.label,
            solves: c.backend.is_solver(),
            outcomes: &c.outcomes,
            times: &c.times,
            blocks: blocks.len(),
            claims: c.tally.claims,
        })
        .collect();
    let versus = super::verdicts(&sides, &results, config);
    Ok(Some((results, versus)))
}

/// What every pass of one measurement shares, and the boards of the block in hand.
struct Passes<'p, 'a> {
    pool: &'p rayon::ThreadPool,
    threads: usize,
    dataset: &'p Dataset,
    config: &'a BenchConfig,
    observer: &'p mut dyn Observer,
    grids: Vec<Board>,
}

impl<'a> Passes<'_, 'a> {
    /// The warmup passes, which also say how long a pass takes: the fastest solver's
    /// and the slowest backend's wall time (ns), or `None` on interrupt.
    fn warm_up(&mut self, contenders: &mut [Contender<'a>]) -> Option<(u64, u64)> {
        let (n, threads) = (self.dataset.len(), self.threads);
        let (mut fastest, mut slowest) = (u64::MAX, 0u64);
        for c in contenders {
            for pass in 0..self.config.warmup {
                self.observer.on_pass(&format!(
                    "{} on {} -j{threads}: warmup {}",
                    c.label,
                    self.dataset.info.path,
                    pass + 1
                ));
                let mut wall = 0;
                for start in (0..n).step_by(MAX_BLOCK) {
                    (self.dataset).unpack(start..(start + MAX_BLOCK).min(n), &mut self.grids);
                    present(self.config, u64::from(pass), start as u64, &mut self.grids);
                    let started = Instant::now();
                    c.solve(self.pool, threads, &self.grids);
                    wall += started.elapsed().as_nanos() as u64;
                    c.attempts.clear();
                }
                slowest = slowest.max(wall);
                if c.backend.is_solver() {
                    fastest = fastest.min(wall);
                }
                if interrupt::requested() {
                    return None;
                }
            }
        }
        Some((fastest.min(slowest), slowest))
    }

    /// The timed rounds, every backend taking its turn on each block: `--rounds` of
    /// them, or more until `--min-time` has passed. `false` on interrupt.
    fn rounds(
        &mut self,
        blocks: &[Chunk],
        timing: Timing,
        contenders: &mut [Contender<'a>],
        rng: &mut SplitMix64,
    ) -> anyhow::Result<bool> {
        let (config, threads) = (self.config, self.threads);
        let names: Vec<&str> = contenders.iter().map(|c| c.label).collect();
        let names = names.join(", ");
        let started = Instant::now();
        let mut round = 0;
        while round < config.rounds.max(1) as usize
            || config
                .min_time
                .is_some_and(|t| started.elapsed() < t && round < MAX_ROUNDS)
        {
            self.observer.on_pass(&format!(
                "{names} on {} -j{threads}: round {}",
                self.dataset.info.path,
                round + 1
            ));
            for block in blocks {
                self.dataset.unpack(block.timed.clone(), &mut self.grids);
                // Every backend takes the block in the same form, fresh each round.
                let forms = present(
                    config,
                    round as u64 + 1,
                    block.timed.start as u64,
                    &mut self.grids,
                );
                let mut order: Vec<usize> = (0..contenders.len()).collect();
                rng.shuffle(&mut order);
                for i in order {
                    let c = &mut contenders[i];
                    // A fresh solver per block, placed somewhere else each time, so where
                    // the allocator put one instance's tables does not tilt a result. A
                    // program keeps its process.
                    if !matches!(c.backend, Backend::Exec(_)) {
                        c.solver = crate::solver::placed_anew(rng.next_u64(), || {
                            GuardedSolver::new(c.backend, &config.limits, None)
                        });
                    }
                    let time = c.turn(self, timing);
                    c.times.push(time);
                    if interrupt::requested() {
                        return Ok(false);
                    }
                }
                for c in contenders.iter_mut() {
                    c.check(self, block, round, forms.as_deref())?;
                }
            }
            round += 1;
        }
        if let Some(t) = config.min_time.filter(|&t| started.elapsed() < t)
            && round >= MAX_ROUNDS
            && !interrupt::requested()
        {
            say!(
                "note: {} on {}: stopped after {MAX_ROUNDS} rounds, {:.1} s of the --min-time {:.1} s",
                contenders[0].label,
                self.dataset.info.path,
                started.elapsed().as_secs_f64(),
                t.as_secs_f64()
            );
        }
        Ok(true)
    }
}

impl<'a> Contender<'a> {
    fn new(
        backend: &'a Backend,
        label: &'a str,
        truths: Option<&'a Truths>,
        config: &BenchConfig,
        threads: usize,
    ) -> Contender<'a> {
        // Claims are checked against the dataset's truths: the solvers verify none.
        let pool = SolverPool::new(backend, &config.limits, None);
        if threads > 1 {
            pool.prefill(threads);
        }
        Contender {
            backend,
            label: match label == backend.name() {
                true => backend.name(),
                false => crate::solver::leaked(label.to_string()),
            },
            solver: GuardedSolver::new(backend, &config.limits, None),
            pool,
            truths,
            times: Vec::new(),
            tally: Tally::default(),
            first: Tally::default(),
            outcomes: Vec::new(),
            attempts: Vec::new(),
        }
    }

    /// Solves `grids` once each into `self.attempts`, each call timed: on this thread with
    /// one (no scheduling in the way), on `pool` with several, in the solver's batches.
    fn solve(&mut self, pool: &rayon::ThreadPool, threads: usize, grids: &[Board]) {
        self.attempts.clear();
        self.attempts.reserve(grids.len());
        let batch = self.solver.batch_size();
        match (threads, batch) {
            (1, 1) => self
                .attempts
                .extend(grids.iter().map(|g| self.solver.timed_board(g))),
            (1, _) => {
                for c in grids.chunks(batch) {
                    self.attempts.extend(self.solver.attempt_boards(c));
                }
            }
            _ => {
                let solvers = &self.pool;
                let size = grids.len().div_ceil(threads).clamp(1, batch.max(16));
                let parts: Vec<Vec<Attempt>> = pool.install(|| {
                    grids
                        .par_chunks(size)
                        .map_init(
                            || solvers.get(),
                            |s, c| match batch {
                                1 => c.iter().map(|g| s.timed_board(g)).collect(),
                                _ => s.attempt_boards(c),
                            },
                        )
                        .collect()
                });
                self.attempts.extend(parts.into_iter().flatten());
            }
        }
        // What the calls left pending (a second call for a solution), now that the
        // clocks have stopped.
        for (board, attempt) in grids.iter().zip(&mut self.attempts) {
            self.solver.complete(board, attempt);
        }
    }

    /// One timed turn on the block in hand: its time on the run's clock.
    fn turn(&mut self, p: &Passes<'_, '_>, timing: Timing) -> u64 {
        let (pool, threads, grids) = (p.pool, p.threads, &p.grids);
        let cpu = || match threads {
            1 => thread_cpu_ns(),
            _ => process_cpu_ns(),
        };
        // A few untimed calls first: what ran on this core since the backend's last turn
        // left the caches cold (a Python program in the run halved bitboard's ratio to a
        // C library, 200 to 100).
        self.solve(pool, threads, &grids[grids.len().saturating_sub(WARM)..]);
        let cpu_start = cpu();
        let start = Instant::now();
        self.solve(pool, threads, grids);
        let wall = start.elapsed().as_nanos() as u64;
        let time = match timing {
            Timing::Cpu => cpu().saturating_sub(cpu_start),
            Timing::Wall => wall,
            Timing::Calls => {
                self.attempts.iter().map(Attempt::time_ns).sum::<u64>() / threads as u64
            }
        };
        time.max(1)
    }

    /// Checks and counts the answers of a block, every round's (timed puzzles `block.timed`,
    /// presented as the boards in hand under `forms`); the first round's become the rows.
    fn check(
        &mut self,
        p: &mut Passes<'_, '_>,
        block: &Chunk,
        round: usize,
        forms: Option<&[Symmetry]>,
    ) -> anyhow::Result<()> {
        let (dataset, grids, threads) = (p.dataset, &p.grids, p.threads);
        let records: Vec<(Option<usize>, Record)> = match round {
            0 => chunk_records(dataset, block),
            _ => block
                .timed
                .clone()
                .map(|k| (Some(k), dataset.record(k)))
                .collect(),
        };
        if self.outcomes.len() < dataset.len() {
            self.outcomes.resize(dataset.len(), Outcome::NotYet);
        }
        let mut attempts = std::mem::take(&mut self.attempts).into_iter();
        let mut results = Vec::with_capacity(records.len());
        for (timed, record) in &records {
            let mut r = match *timed {
                None => self
                    .solver
                    .assess_with(record, Attempt::Skipped, None, None),
                Some(k) => {
                    let at = k - block.timed.start;
                    let mut attempt = attempts.next().expect("an attempt per timed puzzle");
                    // A solution found for the presented form, mapped back to the original's.
                    if let Some(s) = forms.map(|f| &f[at])
                        && let Attempt::Solved {
                            outcome, square, ..
                        } = &mut attempt
                    {
                        outcome.solution = outcome.solution.map(|g| s.undo_grid(&g));
                        if let Some(sq) = square {
                            **sq = s.undo_square(sq);
                        }
                    }
                    let truth = self.truths.map(|t| t.get(k, grids[at].side()));
                    let mut r = self.solver.assess_with(record, attempt, Some(0), truth);
                    r.thread = r.thread.filter(|_| threads > 1);
                    let outcome = Outcome::of(&r);
                    self.outcomes[k] = self.outcomes[k].and(outcome);
                    // The form the solver was given: `solve` of it reproduces a wrong one.
                    if outcome == Outcome::Wrong && forms.is_some() {
                        let given = grids[at].to_line();
                        let why = r.error.take().map_or(String::new(), |e| format!("{e}; "));
                        r.error = Some(format!(
                            "{why}the solver was given it as {given} (--symmetry)"
                        ));
                    }
                    r
                }
            };
            r.backend = self.label;
            results.push(r);
        }
        results.iter().for_each(|r| self.tally.add(r));
        if round == 0 {
            results.iter().for_each(|r| self.first.add(r));
            p.observer.on_rows(&results)?;
        }
        Ok(())
    }

    /// The result: the headline from the rounds' times, the distribution from every
    /// call, the work from the first round, the outcomes per puzzle.
    fn result(
        &self,
        dataset: &Dataset,
        threads: usize,
        timing: Timing,
        blocks: usize,
        config: &BenchConfig,
    ) -> BenchResult {
        let info = &dataset.info;
        let count = |o: Outcome| self.outcomes.iter().filter(|&&x| x == o).count() as u64;
        let unsupported = count(Outcome::Unsupported);
        let timed = info.puzzles.saturating_sub(unsupported);
        let rounds_ns: Vec<u64> = self
            .times
            .chunks(blocks.max(1))
            .map(|round| round.iter().sum())
            .collect();
        let rounds: Vec<f64> = rounds_ns.iter().map(|&ns| ns as f64).collect();
        let median_round = stats::median(&rounds);
        let per_call = &self.tally.solve_ns.0;
        let us = |ns: u64| ns as f64 / 1000.0;
        let (mad_ns, outliers) = stats::histogram_mad(per_call);
        let first = &self.first;
        BenchResult {
            backend: self.label.to_string(),
            spec: (self.label != self.backend.name()).then(|| self.backend.name().to_string()),
            dataset: info.clone(),
            threads,
            timing,
            us_per_puzzle: median_round / 1000.0 / timed.max(1) as f64,
            puzzles_per_s: match median_round > 0.0 {
                true => timed as f64 / (median_round / 1e9),
                false => 0.0,
            },
            spread_pct: 100.0 * stats::variance(&rounds).sqrt() / stats::mean(&rounds),
            round_outliers: stats::mad_outliers(&rounds),
            rounds_ns,
            per_call: PerCall {
                mean_us: per_call.mean() / 1000.0,
                median_us: us(per_call.value_at_quantile(0.5)),
                p90_us: us(per_call.value_at_quantile(0.9)),
                p99_us: us(per_call.value_at_quantile(0.99)),
                max_us: us(per_call.max()),
                mad_us: mad_ns / 1000.0,
                outliers,
                calls: per_call.len(),
            },
            wrong: count(Outcome::Wrong) + count(Outcome::Failed),
            wrong_answers: self.tally.wrong,
            budget_exceeded: count(Outcome::GaveUp) + count(Outcome::Mixed),
            unsupported,
            no_guess_pct: first.no_guess_pct(),
            nodes_per_puzzle: first.nodes_per_puzzle(),
            guesses_per_puzzle: first.guesses_per_puzzle(),
            nodes_total: first.nodes.min(u64::MAX as u128) as u64,
            guesses_total: first.guesses.min(u64::MAX as u128) as u64,
            cdf: cdf_points(per_call),
            foreign: self.backend.is_foreign().then(|| ForeignNotes {
                notes: crate::solver::timing_notes(
                    self.backend,
                    &self.tally.clocks(),
                    &config.limits,
                    self.tally.claims.second_calls,
                ),
            }),
            counters: first.counters(),
            verified: self.truths.map(|_| Verified {
                by: crate::run::verify::describe(self.backend),
                decided: self.tally.verified(),
            }),
            ..Default::default()
        }
    }
}

/// About 100 points of the cumulative distribution of per-call times, denser in the tail.
fn cdf_points(h: &hdrhistogram::Histogram<u64>) -> Vec<(f64, f64)> {
    if h.is_empty() {
        return Vec::new();
    }
    let qs = (0..=90).map(|i| i as f64 / 100.0);
    let tail = [0.92, 0.94, 0.96, 0.98, 0.99, 0.995, 0.999, 0.9999, 1.0];
    let mut points: Vec<(f64, f64)> = (qs.chain(tail))
        .map(|q| (h.value_at_quantile(q) as f64 / 1000.0, q))
        .collect();
    points.dedup_by(|a, b| a.0 == b.0);
    points
}

/// Presents `boards` each under a symmetry of its own, when `--symmetry` is on: seeded
/// by the run's seed, the round and the place in the dataset, so every backend sees
/// the same forms, and a run with the same seed the same ones again.
pub(super) fn present(
    config: &BenchConfig,
    round: u64,
    first: u64,
    boards: &mut [Board],
) -> Option<Vec<Symmetry>> {
    let mix = |x: u64| SplitMix64::new(x).next_u64();
    // Each puzzle's form depends on the puzzle and the round alone, never on how the
    // dataset was cut into blocks: a third backend that changes the blocks' size must
    // not change the other two's work.
    config.symmetry.then(|| {
        (first..)
            .zip(boards.iter_mut())
            .map(|(k, b)| {
                let mut rng = SplitMix64::new(config.rules.seed ^ mix(round) ^ mix(k ^ 0x5EED));
                let s = Symmetry::random(b.side(), &mut rng);
                *b = s.apply(b);
                s
            })
            .collect()
    })
}

/// A block of a dataset: timed puzzles `timed`, and the untimed records `untimed`
/// around them (parse errors and invalid givens go with the next timed puzzle; the last
/// block takes the rest).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Chunk {
    pub timed: std::ops::Range<usize>,
    /// Indices into the dataset's untimed records.
    pub untimed: std::ops::Range<usize>,
}

/// How many blocks a pass of `n` puzzles is cut into, when it takes the fastest solver
/// `fastest` ns and the slowest backend `slowest` (0: not measured, `--warmup 0`).
fn block_count(fastest: u64, slowest: u64, n: usize) -> usize {
    let shortest = match fastest {
        0 => usize::MAX,
        _ => ((fastest / MIN_TURN_NS) as usize).max(FEWEST),
    };
    ((slowest / BLOCK_NS) as usize)
        .clamp(MIN_BLOCKS, MAX_BLOCKS)
        .min(shortest)
        .max(n.div_ceil(MAX_BLOCK))
}

/// Blocks of `size` timed puzzles out of `n`, in order, together holding every record
/// once; `befores[i]` is how many timed puzzles come before untimed record `i`
/// (ascending).
pub(super) fn chunks_of(n: usize, befores: &[u32], size: usize) -> Vec<Chunk> {
    let count = n.div_ceil(size).max(1);
    let untimed_before = |k: usize| befores.partition_point(|&b| (b as usize) < k);
    (0..count)
        .map(|k| {
            let (a, b) = (k * size, ((k + 1) * size).min(n));
            let end = match k + 1 == count {
                true => befores.len(),
                false => untimed_before(b),
            };
            Chunk {
                timed: a..b,
                untimed: untimed_before(a)..end,
            }
        })
        .collect()
}

/// The records of `chunk`, in input order (unsolved records included), each with the
/// index of its timed puzzle (`None`: untimed).
pub(super) fn chunk_records(dataset: &Dataset, chunk: &Chunk) -> Vec<(Option<usize>, Record)> {
    let mut untimed = dataset.untimed[chunk.untimed.clone()].iter().peekable();
    let mut out = Vec::with_capacity(chunk.timed.len() + chunk.untimed.len());
    for k in chunk.timed.clone() {
        while let Some((_, record)) = untimed.next_if(|(before, _)| *before as usize <= k) {
            out.push((None, record.clone()));
        }
        out.push((Some(k), dataset.record(k)));
    }
    out.extend(untimed.map(|(_, record)| (None, record.clone())));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_hold_every_record_once_with_untimed_ones_before_the_next_timed() {
        // Records 0..10; 1, 4, 5 and 9 are untimed (parse errors), after 1, 3, 3 and 6
        // timed puzzles.
        let befores = [1, 3, 3, 6];
        let got = chunks_of(6, &befores, 2);
        let want = [(0..2, 0..1), (2..4, 1..3), (4..6, 3..4)];
        assert_eq!(got.len(), want.len());
        for (c, (t, u)) in got.iter().zip(want) {
            assert_eq!((c.timed.clone(), c.untimed.clone()), (t, u));
        }
        // One chunk when the dataset is small; the trailing untimed record included.
        assert_eq!(
            chunks_of(6, &befores, 100),
            [Chunk {
                timed: 0..6,
                untimed: 0..4
            }]
        );
        // Untimed records before the first puzzle go with the first chunk.
        assert_eq!(chunks_of(4, &[0, 0, 2], 2)[0].untimed, 0..2);
    }

    #[test]
    fn blocks_last_10_ms_for_the_slowest_and_200_us_at_least_for_the_fastest() {
        const MS: u64 = 1_000_000;
        // 3,000 puzzles, 7.5 ms a pass for the fastest, 30 ms for the slowest: 8 blocks.
        assert_eq!(block_count(15 * MS / 2, 30 * MS, 3000), MIN_BLOCKS);
        // A Python program 90 s a pass in the run: more blocks, but none shorter than
        // 200 us for the fastest (a few calls a turn: the ratio of two fast backends
        // would measure the caches the program left cold).
        assert_eq!(block_count(15 * MS / 2, 90_000 * MS, 3000), 37);
        // 200 puzzles, 0.5 ms a pass for the fastest: four blocks (the fewest), whatever
        // else runs.
        assert_eq!(block_count(MS / 2, 110 * MS, 200), FEWEST);
        assert_eq!(block_count(MS / 2, 6_000 * MS, 200), FEWEST);
        // No warmup, nothing measured: the fewest blocks for the slowest, as before.
        assert_eq!(block_count(0, 0, 3000), MIN_BLOCKS);
        // A huge dataset: no block holds more than MAX_BLOCK puzzles.
        assert_eq!(block_count(MS, 2 * MS, 10_000_000), 611);
    }
}
