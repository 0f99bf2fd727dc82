//! `gen`: puzzles generated in parallel a block at a time and written in order.

use rayon::prelude::*;

use super::Exit;
use crate::board::Board;
use crate::generate::{generate as generate_one, generate_square};
use crate::interrupt;
use crate::options::GenOptions;
use crate::output::RowStream;
use crate::run::{Attempt, GuardedSolver};
use crate::solver::{Backend, Limits};

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
    out.row_buffer().extend_from_slice(
        format!(
            "# sudoku-bench gen{size} --count {} --seed {} --min-clues {}: puzzle:1:solution, each with exactly one solution\n",
            opts.count, opts.seed, opts.min_clues
        )
        .as_bytes(),
    );
    out.end_row();
    out.commit()?;
    let (mut unfinished, mut failed, mut not_unique) = (0u64, 0u64, 0u64);
    let mut first = 0;
    while first < opts.count {
        let last = first.saturating_add(BLOCK).min(opts.count);
        let block: Vec<(Board, Board, u32, u32, bool)> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map_init(
                    || {
                        let solver = GuardedSolver::new(&opts.backend, &opts.limits);
                        // A foreign backend's "unique" is checked by one of ours.
                        let checker = opts
                            .backend
                            .is_foreign()
                            .then(|| GuardedSolver::new(&Backend::DlxArena, &Limits::default()));
                        (solver, checker)
                    },
                    |(solver, checker), i| {
                        let (puzzle, solution, u, f): (Board, Board, u32, u32) =
                            match opts.shape.side() {
                                9 => {
                                    let g = generate_one(opts.seed, i, opts.min_clues, solver);
                                    (g.puzzle.into(), g.solution.into(), g.unfinished, g.failed)
                                }
                                _ => {
                                    let g = generate_square(
                                        opts.seed,
                                        i,
                                        opts.shape,
                                        opts.min_clues,
                                        solver,
                                    );
                                    (g.puzzle.into(), g.solution.into(), g.unfinished, g.failed)
                                }
                            };
                        let unique = checker.as_mut().is_none_or(|c| {
                            matches!(c.attempt_board(&puzzle), Attempt::Solved { outcome, .. }
                                if outcome.solutions == 1 && !outcome.budget_exceeded)
                        });
                        (puzzle, solution, u, f, unique)
                    },
                )
                .collect()
        });
        if interrupt::requested() {
            // Checks cut short by the interrupt kept clues the seed would remove: this
            // block is not what the seed defines, so it is dropped.
            say!("interrupted: {first} puzzles written; the block in progress was dropped");
            return Ok(Exit::Interrupted);
        }
        for (puzzle, solution, u, f, unique) in &block {
            unfinished += u64::from(*u);
            failed += u64::from(*f);
            if !unique {
                not_unique += 1;
                continue;
            }
            let row = out.row_buffer();
            puzzle.write_line_with(b'.', row);
            row.extend_from_slice(b":1:");
            solution.write_line_with(b'0', row);
            row.push(b'\n');
            out.end_row();
        }
        out.commit()?;
        first = last;
    }
    if unfinished > 0 {
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
        say!("note: {unfinished} uniqueness checks ran out of {why}");
    }
    if not_unique > 0 {
        say!(
            "error: {not_unique} puzzles the backend called unique have more solutions (checked by dlx-arena); they were left out"
        );
    }
    if failed > 0 {
        say!(
            "error: the backend failed on {failed} uniqueness checks; their clues were kept (every puzzle is still unique)"
        );
    }
    if failed > 0 || not_unique > 0 {
        return Ok(Exit::WrongAnswers);
    }
    Ok(Exit::Success)
}
