//! Saved runs: where named baselines live, loading them as the untrusted files they
//! are, and a fresh run judged against one's saved figures (where its build cannot run).

mod store;

pub use store::{BaselineRef, Found, Store, check_name, load};

use anyhow::bail;

use super::judge::{self, Judged, Rules};
use crate::bench::{BenchResult, BenchRun, How, Kind, Timing, Verdict, Versus};

/// Loads that differ by this many busy cores (or more) make wall times incomparable:
/// on a 2-vCPU VM one busy core slowed an unchanged build by 76-134%.
pub const LOAD_TOLERANCE: f64 = 0.5;

/// Each result of `new` against the same backend, dataset and thread count in `old`,
/// unpaired (needs a quiet machine): the verdicts, and the results only `old`, and only
/// `new`, has ("backend on dataset -jN"). Refuses runs whose settings or datasets differ.
pub fn compare(
    old: &BenchRun,
    new: &BenchRun,
    rules: &Rules,
) -> anyhow::Result<(Vec<Versus>, [Vec<String>; 2])> {
    // Runs whose settings differ first, then those whose datasets do.
    let (a, b) = (&old.settings, &new.settings);
    if a.input != b.input {
        bail!(
            "the runs read their datasets differently ({:?} vs {:?}): rerun with the baseline's input options",
            a.input,
            b.input
        );
    }
    if a.symmetry != b.symmetry {
        let on = |s: bool| if s { "on" } else { "off" };
        bail!(
            "the runs presented their puzzles differently (--symmetry {} vs {}): rerun with --symmetry {}",
            on(a.symmetry),
            on(b.symmetry),
            on(a.symmetry)
        );
    }
    if (a.max_solutions, a.max_nodes, a.timeout_s) != (b.max_solutions, b.max_nodes, b.timeout_s) {
        bail!(
            "the runs used different settings (max-solutions {} vs {}, max-nodes {} vs {}, timeout {:?} vs {:?}): \
             rerun with the baseline's settings",
            a.max_solutions,
            b.max_solutions,
            a.max_nodes,
            b.max_nodes,
            a.timeout_s,
            b.timeout_s
        );
    }
    for n in &new.results {
        if let Some(o) = old
            .results
            .iter()
            .find(|o| o.dataset.path == n.dataset.path && o.dataset.hash != n.dataset.hash)
        {
            bail!(
                "dataset {} changed since the baseline ({} vs {}): the runs are not comparable",
                n.dataset.path,
                o.dataset.hash,
                n.dataset.hash
            );
        }
    }
    let same = |o: &BenchResult, n: &BenchResult| {
        o.backend == n.backend && o.dataset.hash == n.dataset.hash && o.threads == n.threads
    };
    let label = |r: &BenchResult| format!("{} on {} -j{}", r.backend, r.dataset.path, r.threads);
    let only = |a: &BenchRun, b: &BenchRun| -> Vec<String> {
        a.results
            .iter()
            .filter(|x| !b.results.iter().any(|y| same(x, y)))
            .map(label)
            .collect()
    };
    let versus: Vec<Versus> = new
        .results
        .iter()
        .filter_map(|n| Some(saved(old.results.iter().find(|o| same(o, n))?, n, rules)))
        .collect();
    if versus.is_empty() {
        bail!("the runs have no backend, dataset and thread count in common");
    }
    Ok((versus, [only(old, new), only(new, old)]))
}

/// `new` against `old`'s saved figures: their outcomes' counts, then the ratio of their
/// rounds' medians.
fn saved(old: &BenchResult, new: &BenchResult, rules: &Rules) -> Versus {
    let counts = |r: &BenchResult| [r.wrong, r.budget_exceeded, r.unsupported];
    let (a, b) = (counts(old), counts(new));
    let judged = if a != b {
        let worse = b.iter().zip(&a).any(|(n, o)| n > o);
        let verdict = match (rules.kind, worse) {
            (Kind::Builds, true) => Verdict::Regressed,
            (Kind::Builds, false) => Verdict::Improved,
            _ => Verdict::Unjudged,
        };
        let said = |r: &BenchResult| {
            format!(
                "{} wrong, {} given up on, {} not taken of {}",
                r.wrong, r.budget_exceeded, r.unsupported, r.dataset.puzzles
            )
        };
        let why = format!(
            "not the same outcomes, so no speed ratio: old {}; new {}",
            said(old),
            said(new)
        );
        Judged {
            verdict,
            ..Judged::unjudged(why)
        }
    } else if old.wrong > 0 {
        Judged::unjudged("wrong answers: their times are not solves'".into())
    } else if old.timing != new.timing {
        Judged::unjudged(format!(
            "measured on different clocks ({} vs {})",
            old.timing.name(),
            new.timing.name()
        ))
    } else {
        let e = judge::unpaired(
            &old.round_us_per_puzzle(),
            &new.round_us_per_puzzle(),
            rules.seed,
        );
        let loads = old.load.zip(new.load);
        let differ = loads.is_some_and(|(a, b)| (a - b).abs() >= LOAD_TOLERANCE);
        let (verdict, why) = match judge::verdict(&e, rules) {
            Verdict::Regressed | Verdict::Improved if differ && old.timing == Timing::Wall => {
                let (a, b) = loads.unwrap_or_default();
                let why = format!(
                    "different loads ({a:.1} vs {b:.1} busy cores), and wall time moves with the load"
                );
                (Verdict::Unjudged, Some(why))
            }
            v => (v, None),
        };
        Judged {
            estimate: Some(e),
            verdict,
            why,
        }
    };
    Versus {
        base: format!("{} (old)", old.backend),
        other: format!("{} (new)", new.backend),
        instructions_ratio: (old.instructions.as_ref().zip(new.instructions.as_ref()))
            .and_then(|(a, b)| b.ratio_to(a)),
        ..judged.versus(old, new, How::Saved, rules)
    }
}
