//! `gen`: puzzles generated in parallel a block at a time and written in order.

use rayon::prelude::*;

use super::Exit;
use crate::base::interrupt;
use crate::generate::{Checks, Generated, generate as generate_one};
use crate::options::GenOptions;
use crate::output::RowStream;
use crate::run::{GuardedSolver, Verify};

/// Puzzles generated between two writes.
const BLOCK: u64 = 1024;

pub(super) fn generate(opts: GenOptions) -> anyhow::Result<Exit> {
    let mut out = RowStream::open(&opts.output)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()?;
    // The command that writes these bytes, the default size left out as in the shipped
    // datasets/generated-3000.txt, which a regeneration must match byte for byte.
    let size = match opts.shape.side() as u32 {
        crate::cli::GEN_DEFAULT_SIZE => String::new(),
        side => format!(" --size {side}"),
    };
    let header = format!(
        "# sudoku-bench gen{size} --count {} --seed {} --min-clues {}: puzzle:1:solution, each with exactly one solution\n",
        opts.count, opts.seed, opts.min_clues
    );
    out.row_buffer().extend_from_slice(header.as_bytes());
    out.end_row();
    out.commit()?;
    let mut checks = Checks::default();
    for first in (0..opts.count).step_by(BLOCK as usize) {
        let last = first.saturating_add(BLOCK).min(opts.count);
        let block: Vec<Generated> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map_init(
                    // A foreign backend's every count is verified by a built-in one.
                    || GuardedSolver::new(&opts.backend, &opts.limits, Some(Verify::Foreign)),
                    |solver, i| generate_one(opts.seed, i, opts.shape, opts.min_clues, solver),
                )
                .collect()
        });
        if interrupt::requested() {
            // Checks cut short by the interrupt kept clues the seed would remove: this
            // block is not what the seed defines, so it is dropped.
            say!("interrupted: {first} puzzles written; the block in progress was dropped");
            return Ok(Exit::Interrupted);
        }
        for g in &block {
            checks += g.checks;
            let row = out.row_buffer();
            g.puzzle.write_line_with(b'.', row);
            row.extend_from_slice(b":1:");
            g.solution.write_line_with(b'0', row);
            row.push(b'\n');
            out.end_row();
        }
        out.commit()?;
    }
    // Says what the checks that proved nothing were, and the exit status they make.
    if checks.unfinished > 0 {
        // A node budget stops a check at the same point everywhere; only a time limit
        // makes the output depend on the machine.
        let why = match opts.limits.timeout {
            Some(_) => {
                "their node budget or time; their clues were kept, so the output depends on this machine's speed"
            }
            None => {
                "their node budget; their clues were kept (the output is the same on every machine)"
            }
        };
        say!(
            "note: {} uniqueness checks ran out of {why}",
            checks.unfinished
        );
    }
    let kept = "their clues were kept (every puzzle is still unique)";
    if checks.refuted > 0 {
        say!(
            "error: the backend's count was refuted on {} uniqueness checks (verified by {}); {kept}",
            checks.refuted,
            crate::run::verify::describe(&opts.backend)
        );
    }
    if checks.uncounted > 0 {
        say!(
            "error: the backend answered {} uniqueness checks with a solution and no count: gen needs a backend that counts to two; {kept}",
            checks.uncounted
        );
    }
    if checks.failed > 0 {
        say!(
            "error: the backend failed on {} uniqueness checks; {kept}",
            checks.failed
        );
    }
    Ok(Exit::worst(
        false,
        checks.failed + checks.refuted + checks.uncounted > 0,
        false,
    ))
}
