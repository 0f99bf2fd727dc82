//! The parallel runner: solves records chunk by chunk on a rayon pool, each thread with
//! its own guarded solver, and hands results on in input order.
//!
//! Records are read a chunk at a time (sized to about a quarter of a second of work) and a
//! chunk's results are written before the next chunk is read, so memory stays flat
//! however long the input is.

mod assess;
mod guarded;
mod pool;
mod result;

pub use guarded::{Attempt, GuardedSolver, quiet_guarded_panics};
pub use pool::{Pooled, SolverPool};
pub use result::{PuzzleResult, Status};

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::record::Record;
use crate::solver::{Backend, Limits};

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub backend: Backend,
    pub limits: Limits,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
}

/// Aim for chunks that take about this long, so progress is smooth and memory flat.
const CHUNK_TARGET: Duration = Duration::from_millis(250);
const MAX_CHUNK: usize = 8192;

/// Pulls records from `records`, solves them on `config.threads` threads and passes the
/// results, in input order, to `sink` a chunk at a time. Stops at the first sink error.
/// Returns the number of threads used.
///
/// While one chunk is solved, the previous one is written and the next one read on
/// another pool thread, so the serial I/O overlaps the solving; at most three chunks
/// are in memory at once.
pub fn run<I, S>(records: I, config: &RunConfig, mut sink: S) -> anyhow::Result<usize>
where
    I: Iterator<Item = Record> + Send,
    S: FnMut(&[PuzzleResult]) -> anyhow::Result<()> + Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()?;
    let threads = pool.current_num_threads();
    let solvers = SolverPool::new(&config.backend, &config.limits);
    solvers.prefill(threads);
    let mut records = records;
    let mut chunk_len = 16 * threads;
    let mut current: Vec<Record> = records.by_ref().take(chunk_len).collect();
    let mut solved: Vec<PuzzleResult> = Vec::new();
    while !current.is_empty() {
        let start = Instant::now();
        let (results, next) = pool.install(|| {
            rayon::join(
                || solve_chunk(&current, &solvers),
                || -> anyhow::Result<Vec<Record>> {
                    if !solved.is_empty() {
                        sink(&solved)?;
                    }
                    Ok(records.by_ref().take(chunk_len).collect())
                },
            )
        });
        let next = next?;
        chunk_len = next_chunk_len(current.len(), start.elapsed(), threads);
        solved = results;
        current = next;
    }
    if !solved.is_empty() {
        sink(&solved)?;
    }
    Ok(threads)
}

fn solve_chunk(chunk: &[Record], solvers: &SolverPool) -> Vec<PuzzleResult> {
    let batch = solvers.get().batch_size();
    if batch <= 1 {
        return chunk
            .par_iter()
            .map_init(
                || solvers.get(),
                |solver, record| solver.solve_record(record, rayon::current_thread_index()),
            )
            .collect();
    }
    // A batched backend takes its puzzles a batch at a time.
    let per_thread = chunk.len().div_ceil(rayon::current_num_threads().max(1));
    let batches: Vec<Vec<PuzzleResult>> = chunk
        .par_chunks(per_thread.clamp(1, batch))
        .map_init(
            || solvers.get(),
            |solver, records| solver.solve_records(records, rayon::current_thread_index()),
        )
        .collect();
    batches.into_iter().flatten().collect()
}

/// Scales the chunk so the next one takes about `CHUNK_TARGET`.
fn next_chunk_len(done: usize, took: Duration, threads: usize) -> usize {
    let per_second = done as f64 / took.as_secs_f64().max(1e-6);
    let wanted = (per_second * CHUNK_TARGET.as_secs_f64()) as usize;
    wanted.clamp(threads.max(1), MAX_CHUNK)
}

#[cfg(test)]
mod tests;
