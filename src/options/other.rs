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
        backend: backend("--backend", &a.backend)?,
        limits,
        output,
    })
}

pub struct GenOptions {
    pub count: u64,
    pub seed: u64,
    pub min_clues: usize,
    pub output: Target,
    pub threads: usize,
    pub backend: Backend,
    /// Uniqueness checks: two solutions, the given node budget and time limit.
    pub limits: Limits,
}

pub(super) fn generate(a: GenArgs) -> anyhow::Result<GenOptions> {
    let min_clues = bounds::within(a.min_clues, 17, 81).or_else(|e| usage("--min-clues", e))?;
    let backend = backend("--backend", &a.backend)?;
    if !backend.is_solver() {
        return usage(
            "--backend",
            format!("{backend} solves nothing; gen needs a solver to check uniqueness"),
        );
    }
    if a.max_nodes == 0 {
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
        min_clues: min_clues as usize,
        output,
        threads: threads(a.threads)?,
        backend,
        limits: Limits {
            max_solutions: 2,
            max_nodes: a.max_nodes,
            timeout: timeout(a.timeout)?,
            deadline: None,
            cancel: Some(&interrupt::INTERRUPTED),
        },
    })
}
