//! `judge`, `gen` and `man` options.

use super::{backend, limits, threads, usage};
use crate::base::bounds;
use crate::board::Shape;
use crate::cli::{self, GenArgs, JudgeArgs, ManArgs};
use crate::judge::Problem;
use crate::output::{self, Place, Target};
use crate::solver::{Backend, Limits};

pub struct JudgeOptions {
    pub problem: Problem,
    pub backend: Backend,
    /// One solution a case: the judges promise exactly one.
    pub limits: Limits,
    pub output: Target,
}

pub(super) fn judge(a: JudgeArgs) -> anyhow::Result<JudgeOptions> {
    Ok(JudgeOptions {
        problem: a.problem.parse().or_else(|e| usage("PROBLEM", e))?,
        limits: limits(1, a.max_nodes, a.timeout)?,
        output: plan_one(&[Place::Std], "the output", Place::Std)?,
        backend: (a.backend.as_deref())
            .map_or(Ok(Backend::Bitboard), |b| backend("--backend", b))?,
    })
}

/// The one output of a command, at `place`, planned against `inputs`.
fn plan_one(inputs: &[Place], option: &'static str, place: Place) -> anyhow::Result<Target> {
    Ok(output::plan(inputs, &[(option, &place)], false)?.remove(0))
}

pub struct GenOptions {
    pub count: u64,
    pub seed: u64,
    /// The boxes of the boards made.
    pub shape: Shape,
    pub min_clues: usize,
    pub output: Target,
    pub threads: usize,
    pub backend: Backend,
    /// Uniqueness checks: two solutions, the given node budget and time limit.
    pub limits: Limits,
}

pub(super) fn generate(a: GenArgs) -> anyhow::Result<GenOptions> {
    let Some(shape) = Shape::of_side(a.size as usize) else {
        return usage(
            "--size",
            format!("{} is no board size: {}", a.size, crate::board::sides()),
        );
    };
    let side = shape.side();
    // The fewest clues known to make a unique puzzle (4x4, 6x6: 8, 9x9: 17, 16x16: 55;
    // for the others a floor well under any found), and defaults that generate in
    // seconds to minutes.
    let (floor, default) = match side {
        4 => (4, 6),
        6 => (8, 12),
        8 => (12, 22),
        9 => (17, 22),
        10 => (16, 36),
        12 => (24, 55),
        16 => (55, 100),
        _ => (150, 300),
    };
    let max_nodes = a
        .max_nodes
        .unwrap_or(if side == 9 { 100_000_000 } else { 1_000_000 });
    let min_clues = bounds::within(a.min_clues.unwrap_or(default), floor, (side * side) as u32)
        .or_else(|e| usage("--min-clues", e))?;
    let backend = (a.backend.as_deref())
        .map_or(Ok(Backend::fastest_for(side)), |b| backend("--backend", b))?;
    if !backend.is_solver() {
        return usage(
            "--backend",
            format!("{backend} solves nothing; gen needs a solver to check uniqueness"),
        );
    }
    if let Backend::Exec(spec) = &backend
        && let crate::solver::exec::Protocol::Judge(_) = spec.protocol
    {
        return usage(
            "--backend",
            format!(
                "{backend} is a judge submission: it gives one solution a case and never counts them, and gen proves each puzzle unique by counting to two; name a built-in backend, a lib:, or an exec: program that answers count:solution"
            ),
        );
    }
    let place = a.output.as_deref().map_or(Place::Std, Place::from_arg);
    Ok(GenOptions {
        count: a.count,
        seed: a.seed,
        shape,
        min_clues: min_clues as usize,
        output: plan_one(&[], "--output", place)?,
        threads: threads(a.threads, true)?,
        backend,
        limits: limits(2, max_nodes, a.timeout)?,
    })
}

/// `man`: the pages, and where they go.
pub struct ManOptions {
    /// Every page, the program's first: each page's SEE ALSO names the others.
    pub pages: Vec<clap::Command>,
    pub to: ManTo,
}

pub enum ManTo {
    /// This one of `pages` on standard output.
    Print(usize),
    /// Every page as a new file: these paths, one per page, none there when checked.
    Files(Vec<std::path::PathBuf>),
}

pub(super) fn man(a: ManArgs) -> anyhow::Result<ManOptions> {
    let pages = cli::documented();
    let to = match (a.subcommand, a.dir) {
        (_, Some(dir)) => {
            let files: Vec<_> = pages
                .iter()
                .map(|p| dir.join(format!("{}.1", cli::page_name(p))))
                .collect();
            // Checked for all before any is written: a refusal writes nothing.
            if let Some(there) = files.iter().find(|f| f.symlink_metadata().is_ok()) {
                anyhow::bail!(
                    "refusing to write the manual pages: {} is there already (remove the old pages first)",
                    there.display()
                );
            }
            ManTo::Files(files)
        }
        (None, None) => ManTo::Print(0),
        (Some(name), None) => match pages.iter().skip(1).position(|p| p.get_name() == name) {
            Some(i) => ManTo::Print(i + 1),
            None => {
                let names: Vec<&str> = pages.iter().skip(1).map(|p| p.get_name()).collect();
                return usage(
                    "SUBCOMMAND",
                    format!(
                        "no manual page for {name:?}; there is one for {}",
                        names.join(", ")
                    ),
                );
            }
        },
    };
    Ok(ManOptions { pages, to })
}
