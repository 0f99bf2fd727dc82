//! Measuring one backend on one dataset at one thread count: warmup, rounds, passes.

use std::time::Instant;

use rayon::prelude::*;

use super::summary::summarize;
use super::truth::Truths;
use super::{BenchConfig, BenchResult, Dataset, Observer, Timing};
use crate::bench::machine::LoadProbe;
use crate::board::Board;
use crate::cpu::{process_cpu_ns, thread_cpu_ns};
use crate::interrupt;
use crate::record::Record;
use crate::rng::SplitMix64;
use crate::run::{Attempt, GuardedSolver, PuzzleResult, SolverPool};
use crate::solver::Backend;
use crate::symmetry::Symmetry;
use crate::tally::Tally;

/// One backend x dataset x thread count.
pub(super) struct Job<'a> {
    pub pool: &'a rayon::ThreadPool,
    pub threads: usize,
    pub backend: &'a Backend,
    /// The name the results carry (`--backends LABEL=SPEC`, else the backend's name).
    pub label: &'a str,
    pub dataset: &'a Dataset,
    pub config: &'a BenchConfig,
    /// The verifier's counts, when this backend's claims are verified.
    pub truths: Option<&'a Truths>,
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
    // Claims are checked against the dataset's truths, found once: the solvers verify
    // nothing themselves.
    let mut solver = GuardedSolver::new(job.backend, &config.limits).verifying(None);
    let pool = SolverPool::new(job.backend, &config.limits).verifying(None);
    if job.threads > 1 {
        pool.prefill(job.threads);
    }
    let label = format!(
        "{} on {} -j{}",
        job.label, job.dataset.info.path, job.threads
    );
    let mut last_pass_ns = None;
    let mut grids = Vec::new();
    // Passes so far: each presents the puzzles in a form of its own (`--symmetry`).
    let mut pass_no = 0u64;
    for i in 0..config.warmup {
        observer.on_pass(&format!("{label}: warmup {}", i + 1));
        let mut ns = 0;
        for chunk in chunks(job.dataset, CHUNK) {
            // Rounds are sized by real time, whatever the headline's clock.
            ns += pass(job, &mut solver, &pool, chunk.timed, &mut grids, pass_no).wall_ns;
        }
        pass_no += 1;
        last_pass_ns = Some(ns);
        if interrupt::requested() {
            return Ok(None);
        }
    }
    let passes = passes_per_round(config, last_pass_ns);
    let second_calls_before = crate::solver::shared_lib::second_calls();
    let mut tally = Tally::new();
    let mut rounds_ns = Vec::new();
    let mut rounds_cpu_ns = Vec::new();
    let mut first_pass_tally = None;
    // How busy the rest of the machine was while this was measured.
    let probe = LoadProbe::start();
    let started = Instant::now();
    while rounds_ns.len() < config.rounds.max(1) as usize
        || config
            .min_time
            .is_some_and(|t| started.elapsed() < t && rounds_ns.len() < MAX_TIMED_ROUNDS)
    {
        observer.on_pass(&format!("{label}: round {}", rounds_ns.len() + 1));
        let (mut round_ns, mut round_cpu_ns) = (0, 0);
        for _ in 0..passes {
            let first = first_pass_tally.is_none();
            let mut pass_tally = Tally::new();
            // A pass goes chunk by chunk: each chunk timed, then its answers checked
            // (every answer of every pass), so the memory a pass needs stays bounded
            // whatever the size of the dataset.
            for chunk in chunks(job.dataset, CHUNK) {
                let p = pass(
                    job,
                    &mut solver,
                    &pool,
                    chunk.timed.clone(),
                    &mut grids,
                    pass_no,
                );
                if interrupt::requested() {
                    return Ok(None);
                }
                round_ns += p.time_ns;
                round_cpu_ns += p.cpu_ns;
                let records = chunk_records(job.dataset, &chunk);
                let checked = check(
                    job.dataset,
                    job.truths,
                    &solver,
                    job.label,
                    &records,
                    p.attempts,
                );
                checked.iter().for_each(|r| pass_tally.add(r));
                if first {
                    let combo = super::Combo {
                        label: job.label,
                        dataset: &job.dataset.info.path,
                        threads: job.threads,
                    };
                    observer.on_rows(&combo, &checked)?;
                }
            }
            tally += &pass_tally;
            if first {
                first_pass_tally = Some(pass_tally);
            }
            pass_no += 1;
        }
        // The time of one pass, averaged over the round's passes.
        rounds_ns.push(round_ns / passes);
        rounds_cpu_ns.push(round_cpu_ns / passes);
    }
    let load = probe.others();
    if let Some(t) = config.min_time.filter(|&t| started.elapsed() < t) {
        if rounds_ns.len() >= MAX_TIMED_ROUNDS && !interrupt::requested() {
            say!(
                "note: {label}: stopped after {MAX_TIMED_ROUNDS} rounds, {:.1} s of the --min-time {:.1} s (rounds are capped: each keeps its time in memory)",
                started.elapsed().as_secs_f64(),
                t.as_secs_f64()
            );
        }
    }
    let first = first_pass_tally.unwrap_or_default();
    let second_calls = crate::solver::shared_lib::second_calls() - second_calls_before;
    let mut result = summarize(
        job,
        rounds_ns,
        passes as usize,
        &tally,
        &first,
        second_calls,
    );
    // CPU time covers the work only where it all runs in this process: built-in
    // backends (a foreign one's calls are timed by their own clocks).
    if config.timing == Timing::Pass && rounds_cpu_ns.iter().all(|&ns| ns > 0) {
        result.rounds_cpu_ns = rounds_cpu_ns;
    }
    // A program's own CPU shows as other programs' load: it cannot be told apart.
    result.load = load.filter(|_| !matches!(job.backend, Backend::Exec(_)));
    Ok(Some(result))
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
    /// The pass's time on the headline's clock (see `Timing`).
    time_ns: u64,
    /// Its wall time, which sizes rounds (a program's own times may be far less).
    wall_ns: u64,
    /// The CPU time of the pass: the calling thread's with one thread, the process's
    /// with several (0 where it cannot be read).
    cpu_ns: u64,
}

/// One pass (number `pass_no`) over the timed puzzles `timed`: every puzzle solved once,
/// each call timed, under a symmetry of its own when `--symmetry` is on (its answer
/// mapped back). Its time is the whole pass's wall time (`Timing::Pass`), or the sum of
/// the calls' own times over the threads (`Timing::Calls`: the clock of a foreign
/// backend, around its work alone).
fn pass(
    job: &Job<'_>,
    solver: &mut GuardedSolver,
    pool: &SolverPool,
    timed: std::ops::Range<usize>,
    grids: &mut Vec<Board>,
    pass_no: u64,
) -> Pass {
    // Unpacked and presented before the clock starts.
    let start_at = timed.start;
    job.dataset.unpack(timed, grids);
    let symmetries = present(job.config, pass_no, start_at as u64, grids);
    let grids: &[Board] = grids;
    let batch = solver.batch_size();
    let cpu = || match job.threads {
        1 => thread_cpu_ns(),
        _ => process_cpu_ns(),
    };
    let mut attempts = Vec::with_capacity(grids.len());
    let cpu_start = cpu();
    let start = Instant::now();
    if batch == 1 {
        solve_each(job.pool, job.threads, solver, pool, grids, &mut attempts);
    } else if job.threads == 1 {
        let batches = grids.chunks(batch).flat_map(|c| solver.attempt_boards(c));
        attempts.extend(batches.map(|a| (a, Some(0))));
    } else {
        let size = grids.len().div_ceil(job.threads).clamp(1, batch);
        let batches: Vec<Vec<(Attempt, Option<usize>)>> = job.pool.install(|| {
            grids
                .par_chunks(size)
                .map_init(
                    || pool.get(),
                    |s, c| {
                        let thread = rayon::current_thread_index();
                        let attempts = s.attempt_boards(c).into_iter();
                        attempts.map(|a| (a, thread)).collect()
                    },
                )
                .collect()
        });
        attempts.extend(batches.into_iter().flatten());
    }
    let wall_ns = start.elapsed().as_nanos() as u64;
    let cpu_ns = match cpu_start {
        0 => 0,
        c => cpu().saturating_sub(c),
    };
    let time_ns = match job.config.timing {
        Timing::Pass => wall_ns,
        Timing::Calls => calls_ns(&attempts) / job.threads as u64,
    };
    complete(solver, grids, &mut attempts);
    if let Some(symmetries) = symmetries {
        undo(&mut attempts, &symmetries);
    }
    Pass {
        attempts,
        time_ns: time_ns.max(1),
        wall_ns: wall_ns.max(1),
        cpu_ns,
    }
}

/// Each of `grids` solved once, each call timed, into `out` (empty, its room reserved
/// before the clocks run): with one thread, on the caller's thread and solver, no
/// scheduling in the way; with several, on `pool` with solvers from `solvers`.
pub(super) fn solve_each(
    pool: &rayon::ThreadPool,
    threads: usize,
    solver: &mut GuardedSolver,
    solvers: &SolverPool,
    grids: &[Board],
    out: &mut Vec<(Attempt, Option<usize>)>,
) {
    if threads == 1 {
        out.extend(grids.iter().map(|g| (solver.timed_board(g), Some(0))));
    } else {
        pool.install(|| {
            grids
                .par_iter()
                .with_min_len(16)
                .map_init(
                    || solvers.get(),
                    |s, g| (s.timed_board(g), rayon::current_thread_index()),
                )
                .collect_into_vec(out)
        });
    }
}

/// Presents `boards` each under a symmetry of its own, when `--symmetry` is on: seeded
/// by the run's seed, the pass and the place in the dataset, so every backend sees
/// the same forms, and a run with the same seed the same ones again.
pub(super) fn present(
    config: &BenchConfig,
    pass_no: u64,
    first: u64,
    boards: &mut [Board],
) -> Option<Vec<Symmetry>> {
    if !config.symmetry {
        return None;
    }
    let mix = |x: u64| SplitMix64::new(x).next_u64();
    let mut rng = SplitMix64::new(config.seed ^ mix(pass_no) ^ mix(first ^ 0x5EED));
    Some(
        boards
            .iter_mut()
            .map(|b| {
                let s = Symmetry::random(b.side(), &mut rng);
                *b = s.apply(b);
                s
            })
            .collect(),
    )
}

/// Does what the timed calls of a stretch left pending (a second call for a solution),
/// now that the clocks have stopped.
pub(super) fn complete(
    solver: &mut GuardedSolver,
    boards: &[Board],
    attempts: &mut [(Attempt, Option<usize>)],
) {
    for (board, (attempt, _)) in boards.iter().zip(attempts) {
        solver.complete(board, attempt);
    }
}

/// Maps the solutions found for presented puzzles back to the originals' form.
pub(super) fn undo(attempts: &mut [(Attempt, Option<usize>)], symmetries: &[Symmetry]) {
    for ((attempt, _), s) in attempts.iter_mut().zip(symmetries) {
        if let Attempt::Solved {
            outcome, square, ..
        } = attempt
        {
            outcome.solution = outcome.solution.map(|g| s.undo_grid(&g));
            if let Some(sq) = square {
                **sq = s.undo_square(sq);
            }
        }
    }
}

/// The sum of the calls' own times.
pub(super) fn calls_ns(attempts: &[(Attempt, Option<usize>)]) -> u64 {
    attempts
        .iter()
        .map(|(a, _)| match a {
            Attempt::Solved { time_ns, .. }
            | Attempt::Panicked { time_ns, .. }
            | Attempt::Failed { time_ns, .. } => *time_ns,
            Attempt::Skipped | Attempt::Unsupported => 0,
        })
        .sum()
}

/// Timed puzzles a chunk of a pass holds: the attempts and results of one chunk are in
/// memory at a time (about 400 bytes a puzzle), not a whole dataset's.
const CHUNK: usize = 16_384;

/// A stretch of a dataset: timed puzzles `timed`, and the untimed records `untimed`
/// around them (parse errors and invalid givens go with the next timed puzzle; the
/// last chunk takes the rest).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Chunk {
    pub timed: std::ops::Range<usize>,
    /// Indices into the dataset's untimed records.
    pub untimed: std::ops::Range<usize>,
}

/// The chunks of `size` timed puzzles that cover `dataset`, in order; together they
/// hold every record once.
pub(super) fn chunks(dataset: &Dataset, size: usize) -> Vec<Chunk> {
    let befores: Vec<u32> = dataset.untimed.iter().map(|(b, _)| *b).collect();
    chunks_of(dataset.len(), &befores, size)
}

/// Chunks of `size` timed puzzles out of `n`; `befores[i]` is how many timed puzzles
/// come before untimed record `i` (ascending).
pub(super) fn chunks_of(n: usize, befores: &[u32], size: usize) -> Vec<Chunk> {
    let count = n.div_ceil(size).max(1);
    let untimed_before = |k: usize| befores.partition_point(|&b| (b as usize) < k);
    (0..count)
        .map(|k| {
            let (a, b) = (k * size, ((k + 1) * size).min(n));
            let end = if k + 1 == count {
                befores.len()
            } else {
                untimed_before(b)
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

/// The results of a chunk's records ([`chunk_records`]) for one pass; `attempts` are
/// the chunk's timed puzzles'. Claims are checked against the job's truths when it
/// has them. Rows name the backend by its label (`--backends old=...`).
pub(super) fn check<'r>(
    dataset: &Dataset,
    truths: Option<&Truths>,
    solver: &GuardedSolver,
    label: &str,
    records: &'r [(Option<usize>, Record)],
    attempts: Vec<(Attempt, Option<usize>)>,
) -> Vec<PuzzleResult<'r>> {
    let label = crate::run::result_name(label);
    let mut attempts = attempts.into_iter();
    records
        .iter()
        .map(|(timed, record)| {
            let mut r = match *timed {
                None => solver.assess_with(record, Attempt::Skipped, None, None),
                Some(k) => {
                    let (attempt, thread) = attempts.next().expect("an attempt per timed puzzle");
                    let truth = truths.map(|t| t.get(k, dataset.side(k)));
                    solver.assess_with(record, attempt, thread, truth)
                }
            };
            r.backend = label;
            r
        })
        .collect()
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
}
