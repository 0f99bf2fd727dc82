//! `judge` and `gen` options.

use super::{backend, threads, timeout, usage};
use crate::bounds;
use crate::cli::{GenArgs, JudgeArgs};
use crate::interrupt;
use crate::judge::Problem;
use crate::output::{self, Place, Target, Wanted};
use crate::solver::{Backend, Limits};

pub struct JudgeOptions {
    pub problem: Problem,
    pub backend: Backend,
    /// One solution a case: the judges promise exactly one.
    pub limits: Limits,
    pub output: Target,
}

pub(super) fn judge(a: JudgeArgs) -> anyhow::Result<JudgeOptions> {
    let problem: Problem = a.problem.parse().or_else(|e| usage("PROBLEM", e))?;
    if a.max_nodes == 0 {
        return usage("--max-nodes", "the node budget is 1 or more");
    }
    let limits = Limits {
        max_solutions: 1,
        max_nodes: a.max_nodes,
        timeout: timeout(a.timeout)?,
        deadline: None,
        cancel: Some(&interrupt::INTERRUPTED),
    };
    let std = Place::Std;
    let output = output::plan(
        &[Place::Std],
        &[Wanted {
            option: "the output",
            place: &std,
        }],
        false,
    )?
    .remove(0);
    Ok(JudgeOptions {
        problem,
        backend: match &a.backend {
            Some(name) => backend("--backend", name)?,
            None => Backend::fastest_for(problem.side()),
        },
        limits,
        output,
    })
}

pub struct GenOptions {
    pub count: u64,
    pub seed: u64,
    /// Box size: 2 (4x4) to 5 (25x25).
    pub box_size: usize,
    pub min_clues: usize,
    pub output: Target,
    pub threads: usize,
    pub backend: Backend,
    /// Uniqueness checks: two solutions, the given node budget and time limit.
    pub limits: Limits,
}

pub(super) fn generate(a: GenArgs) -> anyhow::Result<GenOptions> {
    let Some(box_size) = crate::board::box_of_side(a.size as usize) else {
        return usage(
            "--size",
            format!("{} is no board size: 4, 9, 16 or 25", a.size),
        );
    };
    // The fewest clues known to make a unique puzzle (4x4, 9x9, 16x16: 55; 25x25: a
    // floor well under any found), and defaults that generate in seconds to minutes.
    let (floor, default) = [(4, 6), (17, 22), (55, 100), (150, 300)][box_size - 2];
    let max_nodes = a.max_nodes.unwrap_or(if box_size == 3 {
        100_000_000
    } else {
        1_000_000
    });
    let cells = (box_size as u32).pow(4);
    let min_clues = bounds::within(a.min_clues.unwrap_or(default), floor, cells)
        .or_else(|e| usage("--min-clues", e))?;
    let backend = match &a.backend {
        Some(name) => backend("--backend", name)?,
        None => Backend::fastest_for(box_size * box_size),
    };
    if !backend.is_solver() {
        return usage(
            "--backend",
            format!("{backend} solves nothing; gen needs a solver to check uniqueness"),
        );
    }
    if max_nodes == 0 {
        return usage("--max-nodes", "the node budget is 1 or more");
    }
    let place = a.output.as_deref().map_or(Place::Std, Place::from_arg);
    let output = output::plan(
        &[],
        &[Wanted {
            option: "--output",
            place: &place,
        }],
        false,
    )?
    .remove(0);
    Ok(GenOptions {
        count: a.count,
        seed: a.seed,
        box_size,
        min_clues: min_clues as usize,
        output,
        threads: threads(a.threads)?,
        backend,
        limits: Limits {
            max_solutions: 2,
            max_nodes,
            timeout: timeout(a.timeout)?,
            deadline: None,
            cancel: Some(&interrupt::INTERRUPTED),
        },
    })
}
