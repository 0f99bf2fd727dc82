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
pub mod verify;

pub use guarded::{GuardedSolver, Verifier, quiet_guarded_panics};
pub use pool::SolverPool;
pub use result::{Attempt, PuzzleResult, Status, Verification};
pub use verify::{Truth, Verify, verifier_of};

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::base::cpu::{IoTime, thread_cpu_ns};
use crate::format::{Body, Item, LineBlock};
use crate::solver::{Backend, Limits};

/// What a run used.
#[derive(Clone, Copy, Debug)]
pub struct RunStats {
    pub threads: usize,
    /// CPU time of the serial part: reading records and handing parts to the sink (0
    /// unless measured: [`RunConfig::serial_io`]).
    pub serial_cpu_ns: u64,
    /// The part of `serial_cpu_ns` spent inside the input's reads and the outputs'
    /// writes (the kernel copying the bytes, mostly).
    pub serial_io_ns: u64,
}

/// Settings of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub backend: Backend,
    pub limits: Limits,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Whose claims are verified.
    pub verify: Verify,
    /// Where the serial part's reads and writes count their CPU time, when the serial
    /// part is measured (`solve -v`): each reading of a thread's CPU clock is a system
    /// call.
    pub serial_io: Option<IoTime>,
}

/// Aim for chunks that take about this long, so progress is smooth and memory flat.
const CHUNK_TARGET: Duration = Duration::from_millis(250);
const MAX_CHUNK: usize = 8192;
/// A chunk's rows are written while the next chunk is solved: at a few threads, a
/// smaller chunk keeps them in the cache until then (the kernel's copy of cold rows
/// cost 60% more at -j1 with chunks of 8,192).
const MAX_CHUNK_PER_THREAD: usize = 1024;

/// Turns results into a part on the thread that solved them (rows formatted, counts
/// taken: work that would otherwise be serial). Each result is dropped once handed
/// over, and borrows its record instead of copying it.
pub trait Collect {
    type Part: Send;
    fn add(&mut self, result: &PuzzleResult<'_>);
    fn finish(self) -> Self::Part;
}

/// Pulls records from `records`, solves them on `config.threads` threads, collects each
/// piece of results with a collector from `collect` (given the piece's length), and
/// passes the parts, in input order, to `sink` a chunk at a time. Stops at the first
/// sink error. Returns the number of threads used and the CPU time of the serial part.
///
/// While one chunk is solved, the previous one is written and the next one read on
/// another pool thread, so the serial I/O overlaps the solving; at most three chunks
/// are in memory at once.
pub fn run<I, C, F, S>(
    mut records: I,
    config: &RunConfig,
    collect: F,
    mut sink: S,
) -> anyhow::Result<RunStats>
where
    I: Iterator<Item = Item> + Send,
    C: Collect,
    F: Fn(usize) -> C + Sync,
    S: FnMut(Vec<C::Part>) -> anyhow::Result<()> + Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()?;
    let threads = pool.current_num_threads();
    let solvers = SolverPool::new(&config.backend, &config.limits, Some(config.verify));
    solvers.prefill(threads);
    let mut chunk_len = 16 * threads;
    // `n` records, a block of lines counted as its lines.
    let take = |records: &mut I, n: usize| {
        let mut chunk = Vec::new();
        let mut weight = 0;
        while weight < n {
            let Some(record) = records.next() else { break };
            weight += record.weight();
            chunk.push(record);
        }
        chunk
    };
    let mut current: Vec<Item> = take(&mut records, chunk_len);
    let mut solved: Vec<C::Part> = Vec::new();
    let mut serial = (0, 0);
    // This thread's CPU time and its part in I/O spent in `f`, when measured.
    let io = config.serial_io.as_ref();
    let measured = |serial: &mut (u64, u64), f: &mut dyn FnMut() -> anyhow::Result<()>| {
        let times = || io.map_or((0, 0), |io| (thread_cpu_ns(), io.ns()));
        let before = times();
        let done = f();
        let after = times();
        serial.0 += after.0.saturating_sub(before.0);
        serial.1 += after.1 - before.1;
        done
    };
    // The whole loop runs on the pool: the calling thread waits once, not once a chunk.
    pool.install(|| -> anyhow::Result<()> {
        while !current.is_empty() {
            let start = Instant::now();
            // Chunks are taken by weight (a block's lines or bytes): sized by weight too.
            let weight: usize = current.iter().map(Item::weight).sum();
            let mut next = Vec::new();
            let (parts, written) = rayon::join(
                || solve_chunk(std::mem::take(&mut current), &solvers, &collect),
                || {
                    measured(&mut serial, &mut || {
                        if !solved.is_empty() {
                            sink(std::mem::take(&mut solved))?;
                        }
                        next = take(&mut records, chunk_len);
                        Ok(())
                    })
                },
            );
            // Scaled so the next chunk takes about `CHUNK_TARGET`.
            let per_second = weight as f64 / start.elapsed().as_secs_f64().max(1e-6);
            let wanted = (per_second * CHUNK_TARGET.as_secs_f64()) as usize;
            let most = (MAX_CHUNK_PER_THREAD * threads).min(MAX_CHUNK);
            chunk_len = wanted.clamp(threads.max(1), most);
            solved = parts;
            written?;
            current = next;
        }
        if !solved.is_empty() {
            measured(&mut serial, &mut || sink(std::mem::take(&mut solved)))?;
        }
        Ok(())
    })?;
    Ok(RunStats {
        threads,
        serial_cpu_ns: serial.0,
        serial_io_ns: serial.1,
    })
}

/// Most records in one piece of a chunk: enough to make a part's fixed costs small,
/// few enough that each thread gets several pieces to balance, and that a piece's
/// buffers (results, rows) stay under glibc's initial 128 KiB mmap threshold (larger
/// ones may be mapped and unmapped each time, page faults included).
const MAX_PIECE: usize = 256;

/// Solves a chunk: its parts in order.
fn solve_chunk<C: Collect>(
    chunk: Vec<Item>,
    solvers: &SolverPool,
    collect: &(impl Fn(usize) -> C + Sync),
) -> Vec<C::Part> {
    let threads = rayon::current_num_threads().max(1);
    let batch = solvers.get().batch_size();
    let mut groups: Vec<(Vec<Item>, u64)> =
        if chunk.iter().any(|r| matches!(r.body, Body::Lines(_))) {
            // Blocks of lines are split and parsed in parallel, then numbered in order.
            let split: Vec<(Vec<Item>, Option<LineBlock>)> = chunk
                .into_par_iter()
                .with_max_len(1)
                .map(|r| match r.body {
                    Body::Lines(block) => (block.items(&r.source), Some(block)),
                    _ => (vec![r], None),
                })
                .collect();
            group(split, batch > 1)
        } else {
            vec![(chunk, 0)]
        };
    let total: usize = groups.iter().map(|g| g.0.len()).sum();
    let per_thread = total.div_ceil(threads);
    let piece = if batch <= 1 {
        per_thread.div_ceil(4).clamp(1, MAX_PIECE)
    } else {
        // A batched backend takes its puzzles a batch at a time.
        per_thread.clamp(1, batch)
    };
    let pieces: Vec<(&mut [Item], u64)> = groups
        .iter_mut()
        .flat_map(|(items, before)| items.chunks_mut(piece).map(|p| (p, *before)))
        .collect();
    pieces
        .into_par_iter()
        .map_init(
            || solvers.get(),
            |solver, (items, before)| {
                let thread = rayon::current_thread_index();
                let mut part = collect(items.len());
                if batch <= 1 {
                    for item in items.iter_mut() {
                        part.add(&solver.solve_record(&item.take_record(before), thread));
                    }
                } else {
                    // Lines the reader left unparsed are parsed here, in parallel.
                    let records: Vec<_> = items.iter_mut().map(|i| i.take_record(before)).collect();
                    for r in solver.solve_records(&records, thread) {
                        part.add(&r);
                    }
                }
                part.finish()
            },
        )
        .collect()
}

/// Runs of records from split blocks, in input order, each with the number of records
/// of its source before it (what numbers a split block's records). Records the reader
/// numbered itself join the run before them, and for a batching backend (a foreign
/// program) everything is one run: its batches are not cut at a block's edge, nor a
/// record left alone.
fn group(split: Vec<(Vec<Item>, Option<LineBlock>)>, batching: bool) -> Vec<(Vec<Item>, u64)> {
    let mut groups: Vec<(Vec<Item>, u64)> = Vec::new();
    // The last run holds records the reader numbered.
    let mut loose = false;
    for (records, block) in split {
        match &block {
            Some(b) => {
                let before = b.records_before(records.len());
                groups.push((records, before));
            }
            None if loose => groups.last_mut().expect("a loose run").0.extend(records),
            None => groups.push((records, 0)),
        }
        loose = block.is_none();
    }
    if batching {
        let items = groups.into_iter().flat_map(|(items, before)| {
            items.into_iter().map(move |mut r| {
                r.number += before;
                r
            })
        });
        return vec![(items.collect(), 0)];
    }
    groups
}

#[cfg(test)]
mod tests;
