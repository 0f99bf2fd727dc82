//! The regression verdict.
//!
//! As in criterion, a change counts only when it is both outside the noise threshold and
//! statistically significant (Welch's t-test on the per-round times, 5% level). Work
//! counters are compared exactly: different node or guess totals mean the algorithm
//! changed, not the machine.

use anyhow::bail;
use serde::Serialize;

use crate::bench::stats;
use crate::bench::{BenchResult, BenchRun};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Improved,
    Regressed,
    /// Within the noise threshold, or not statistically significant.
    NoChange,
    /// Too little data for any verdict (a paired run with fewer than 6 pairs).
    TooFewPairs,
    /// The two did not do the same work: one does not solve some board sizes, or they
    /// gave up on (`budget_exceeded`) different numbers of puzzles.
    NotComparable,
    /// One of the two gave wrong answers: its time is not a solve's.
    WrongAnswers,
    /// The runs were measured under different loads of the machine, and only wall
    /// times are there to compare: a change they show may be the load's.
    DifferentLoad,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::NoChange => "no change",
            Verdict::TooFewPairs => "too few pairs: no verdict",
            Verdict::NotComparable => "not the same boards solved or finished: no verdict",
            Verdict::WrongAnswers => "wrong answers: no verdict",
            Verdict::DifferentLoad => "different loads: no verdict",
        }
    }
}

/// One backend x dataset x threads, old against new.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub backend: String,
    pub dataset: String,
    pub threads: usize,
    /// The headline each run showed: median over rounds of µs per puzzle (of CPU time
    /// when `clock` is `cpu`).
    pub old_us: f64,
    pub new_us: f64,
    /// new / old headline, as a change in percent (negative is faster).
    pub change_pct: f64,
    /// 95% confidence interval of the change, percent: from the logarithms of the round
    /// times, so it never reaches -100%.
    pub ci95_pct: (f64, f64),
    pub p_value: f64,
    pub verdict: Verdict,
    /// Set when the search itself did different work.
    pub work_changed: Option<String>,
    /// Change of instructions per puzzle, percent, when both runs counted them on the
    /// same sample (`--instructions`): exact, so any change beyond the threshold counts.
    pub instructions_change_pct: Option<f64>,
    pub instructions_verdict: Option<Verdict>,
    /// What the change is of: `wall` (the headline) or `cpu` (CPU time, when the runs'
    /// loads differed and both recorded it).
    pub clock: String,
    /// The cores other programs kept busy during each run's measurement, when known.
    pub loads: Option<(f64, f64)>,
    /// The median time of one solver call, µs, old and new (where both runs have one):
    /// the solver alone, where the headline times whole passes.
    pub per_call_median_us: Option<(f64, f64)>,
}

/// The comparisons, and the results only one of the two runs has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparisons {
    pub rows: Vec<Comparison>,
    /// "backend on dataset -jN" of results only the old run has.
    pub only_old: Vec<String>,
    /// Likewise, only the new run.
    pub only_new: Vec<String>,
}

impl Comparisons {
    /// Rows whose wall times moved while the machine's load differed between the runs.
    pub fn unjudged(&self) -> usize {
        self.rows
            .iter()
            .filter(|c| c.verdict == Verdict::DifferentLoad)
            .count()
    }

    pub fn regressed(&self) -> usize {
        self.rows
            .iter()
            .filter(|c| {
                c.verdict == Verdict::Regressed
                    || c.instructions_verdict == Some(Verdict::Regressed)
            })
            .count()
    }
}

/// Refuses runs whose settings differ, or whose datasets of the same path differ in
/// content: nothing is measured before this says the runs can be compared.
pub fn check_comparable(
    old: &BenchRun,
    new_settings: &crate::bench::BenchSettings,
) -> anyhow::Result<()> {
    let (a, b) = (&old.settings, new_settings);
    if a.input != b.input {
        bail!(
            "the runs read their datasets differently ({:?} vs {:?}): rerun with the baseline's input options",
            a.input,
            b.input
        );
    }
    if a.timing != b.timing {
        bail!(
            "the runs timed their passes differently (timing {} vs {}: a run with a foreign backend times every backend by its calls' own times): compare runs of the same kind",
            a.timing.name(),
            b.timing.name()
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
    Ok(())
}

/// Compares `new` with `old`. Refuses runs whose settings differ, or whose datasets
/// of the same path differ in content.
pub fn compare(old: &BenchRun, new: &BenchRun, noise_pct: f64) -> anyhow::Result<Comparisons> {
    check_comparable(old, &new.settings)?;
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
    // A result that timed no board (all of a size its backend does not solve), or other
    // boards than its counterpart, compares nothing.
    let pairs: Vec<(&BenchResult, &BenchResult)> = new
        .results
        .iter()
        .filter_map(|n| old.results.iter().find(|o| same(o, n)).map(|o| (o, n)))
        .filter(|(o, n)| o.unsupported == n.unsupported && n.timed_puzzles() > 0)
        .collect();
    if pairs.is_empty() {
        bail!("the runs have no backend, dataset and thread count in common");
    }
    let only = |a: &BenchRun, b: &BenchRun| -> Vec<String> {
        a.results
            .iter()
            .filter(|x| !b.results.iter().any(|y| same(x, y)))
            .map(label)
            .collect()
    };
    Ok(Comparisons {
        rows: pairs
            .into_iter()
            .map(|(o, n)| compare_one(o, n, noise_pct))
            .collect(),
        only_old: only(old, new),
        only_new: only(new, old),
    })
}

/// Loads that differ by this many busy cores (or more) make wall times incomparable:
/// on a 2-vCPU VM one busy core slowed an unchanged build by 76-134%.
pub const LOAD_TOLERANCE: f64 = 0.5;

/// The verdict on a change, as criterion gives it: outside the noise threshold,
/// significant, and the interval agreeing on the direction.
fn judge(change_pct: f64, ci95_pct: (f64, f64), p_value: f64, noise_pct: f64) -> Verdict {
    if change_pct.abs() <= noise_pct || p_value >= 0.05 {
        Verdict::NoChange
    } else if change_pct > 0.0 && ci95_pct.0 > 0.0 {
        Verdict::Regressed
    } else if change_pct < 0.0 && ci95_pct.1 < 0.0 {
        Verdict::Improved
    } else {
        Verdict::NoChange
    }
}

/// The change between two series of per-puzzle times (µs): the change of the medians
/// in percent, its 95% interval and Welch's p on the logarithms.
fn change(old: &[f64], new: &[f64]) -> (f64, (f64, f64), f64) {
    let logs = |v: &[f64]| -> Vec<f64> { v.iter().map(|us| us.max(1e-9).ln()).collect() };
    let change_pct = (stats::median(new) / stats::median(old) - 1.0) * 100.0;
    let pct = |log_ratio: f64| (log_ratio.exp() - 1.0) * 100.0;
    match stats::welch(&logs(old), &logs(new)) {
        Some(w) => (change_pct, (pct(w.ci95.0), pct(w.ci95.1)), w.p_value),
        // A single round on a side: a change, but no evidence it is real.
        None => (change_pct, (-100.0, f64::INFINITY), 1.0),
    }
}

fn compare_one(old: &BenchResult, new: &BenchResult, noise_pct: f64) -> Comparison {
    let (mut old_us, mut new_us) = (old.us_per_puzzle, new.us_per_puzzle);
    let (mut change_pct, mut ci95_pct, mut p_value) =
        change(&old.round_us_per_puzzle(), &new.round_us_per_puzzle());
    let mut clock = "wall";
    // Runs made under different loads: wall time says more about the load than the
    // build. CPU time, where both runs have it, is judged instead; otherwise no
    // verdict is given from these figures.
    let loads = old.load.zip(new.load);
    let loads_differ = loads.is_some_and(|(a, b)| (a - b).abs() >= LOAD_TOLERANCE);
    let cpu = |r: &BenchResult| {
        let both = r.rounds_cpu_ns.len() == r.rounds_ns.len() && !r.rounds_cpu_ns.is_empty();
        both.then(|| r.per_puzzle_us(&r.rounds_cpu_ns))
    };
    if loads_differ {
        if let (Some(a), Some(b)) = (cpu(old), cpu(new)) {
            (change_pct, ci95_pct, p_value) = change(&a, &b);
            (old_us, new_us) = (stats::median(&a), stats::median(&b));
            clock = "cpu";
        }
    }
    let verdict = if old.wrong > 0 || new.wrong > 0 {
        // A run with wrong answers has no speed to judge.
        Verdict::WrongAnswers
    } else if old.budget_exceeded != new.budget_exceeded {
        // A puzzle given up on is not solved: the times measure different work.
        Verdict::NotComparable
    } else {
        match judge(change_pct, ci95_pct, p_value, noise_pct) {
            Verdict::Regressed | Verdict::Improved if loads_differ && clock == "wall" => {
                Verdict::DifferentLoad
            }
            v => v,
        }
    };
    // Only counters both sides report can say the search changed.
    let nodes = old.counters.nodes && new.counters.nodes && old.nodes_total != new.nodes_total;
    let guesses =
        old.counters.guesses && new.counters.guesses && old.guesses_total != new.guesses_total;
    let work_changed = (nodes || guesses).then(|| {
        format!(
            "nodes/puzzle {:.1} -> {:.1}, guesses/puzzle {:.2} -> {:.2}",
            old.nodes_per_puzzle,
            new.nodes_per_puzzle,
            old.guesses_per_puzzle,
            new.guesses_per_puzzle
        )
    });
    let instructions_change_pct = match (&old.instructions, &new.instructions) {
        (Some(a), Some(b)) if a.puzzles == b.puzzles && a.per_puzzle > 0.0 => {
            Some((b.per_puzzle / a.per_puzzle - 1.0) * 100.0)
        }
        _ => None,
    };
    let instructions_verdict = instructions_change_pct.map(|c| match c {
        c if c > noise_pct => Verdict::Regressed,
        c if c < -noise_pct => Verdict::Improved,
        _ => Verdict::NoChange,
    });
    Comparison {
        instructions_change_pct,
        instructions_verdict,
        backend: new.backend.clone(),
        dataset: new.dataset.path.clone(),
        threads: new.threads,
        old_us,
        new_us,
        change_pct,
        ci95_pct,
        p_value,
        verdict,
        work_changed,
        clock: clock.into(),
        loads,
        per_call_median_us: Some((old.per_call.median_us, new.per_call.median_us))
            .filter(|&(a, b)| a > 0.0 && b > 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::machine::{Build, Machine};
    use crate::bench::{BenchSettings, FORMAT_VERSION, PerCall, dataset::DatasetInfo};

    fn result(backend: &str, rounds_us: &[f64], nodes: u64) -> BenchResult {
        BenchResult {
            backend: backend.into(),
            dataset: DatasetInfo {
                path: "d.txt".into(),
                hash: "fnv1a64:1".into(),
                records: 100,
                puzzles: 100,
                parse_errors: 0,
                other_sizes: 0,
            },
            threads: 1,
            rounds_ns: rounds_us
                .iter()
                .map(|us| (us * 100.0 * 1000.0) as u64)
                .collect(),
            passes_per_round: 1,
            us_per_puzzle: stats::median(rounds_us),
            puzzles_per_s: 1e6 / stats::median(rounds_us),
            spread_pct: 0.0,
            round_outliers: 0,
            per_call: PerCall::default(),
            wrong: 0,
            budget_exceeded: 0,
            unsupported: 0,
            no_guess_pct: 0.0,
            nodes_per_puzzle: nodes as f64 / 100.0,
            guesses_per_puzzle: 0.0,
            nodes_total: nodes,
            guesses_total: 0,
            cdf: vec![],
            foreign: None,
            counters: Default::default(),
            instructions: None,
            ..Default::default()
        }
    }

    fn run(results: Vec<BenchResult>) -> BenchRun {
        BenchRun {
            format_version: FORMAT_VERSION,
            date: "2026-11-29T00:00:00Z".into(),
            build: Build::current(),
            machine: Machine {
                cpu: "test".into(),
                cores: 2,
                physical_cores: None,
                os: "test".into(),
            },
            settings: BenchSettings {
                instructions: None,
                max_solutions: 2,
                max_nodes: 1000,
                timeout_s: None,
                warmup: 1,
                rounds: 5,
                min_time_s: None,
                min_round_ms: 200,
                headline: String::new(),
                input: Default::default(),
                ..Default::default()
            },
            results,
            partial: false,
            paired: vec![],
        }
    }

    const BASE: [f64; 5] = [10.0, 10.2, 9.9, 10.1, 10.0];

    #[test]
    fn identical_runs_show_no_change() {
        let a = run(vec![result("dlx-static", &BASE, 500)]);
        let c = compare(&a, &a, 5.0).unwrap().rows;
        assert_eq!(c[0].verdict, Verdict::NoChange);
        assert!(c[0].change_pct.abs() < 1e-9);
        assert!(c[0].work_changed.is_none());
    }

    #[test]
    fn a_clear_slowdown_is_a_regression_and_a_speedup_an_improvement() {
        let old = run(vec![result("dlx-static", &BASE, 500)]);
        let slow = run(vec![result(
            "dlx-static",
            &[15.0, 15.2, 14.9, 15.1, 15.0],
            500,
        )]);
        let c = compare(&old, &slow, 5.0).unwrap().rows;
        assert_eq!(c[0].verdict, Verdict::Regressed);
        assert!((c[0].change_pct - 50.0).abs() < 1.0);
        assert!(c[0].ci95_pct.0 > 40.0 && c[0].ci95_pct.1 < 60.0);
        let fast = run(vec![result("dlx-static", &[5.0, 5.1, 4.9, 5.0, 5.0], 500)]);
        assert_eq!(
            compare(&old, &fast, 5.0).unwrap().rows[0].verdict,
            Verdict::Improved
        );
    }

    #[test]
    fn small_or_noisy_changes_are_no_change() {
        let old = run(vec![result("dfs", &BASE, 500)]);
        // 3% slower, significant, but inside the 5% threshold.
        let small = run(vec![result("dfs", &[10.3, 10.5, 10.2, 10.4, 10.3], 500)]);
        assert_eq!(
            compare(&old, &small, 5.0).unwrap().rows[0].verdict,
            Verdict::NoChange
        );
        // 10% slower at the median but all over the place: not significant.
        let noisy = run(vec![result("dfs", &[6.0, 18.0, 11.0, 20.0, 7.0], 500)]);
        let c = compare(&old, &noisy, 5.0).unwrap().rows;
        assert!(c[0].change_pct > 5.0 && c[0].p_value > 0.05);
        assert_eq!(c[0].verdict, Verdict::NoChange);
    }

    #[test]
    fn changed_work_is_reported() {
        let old = run(vec![result("dlx-arena", &BASE, 500)]);
        let new = run(vec![result("dlx-arena", &BASE, 600)]);
        let c = compare(&old, &new, 5.0).unwrap().rows;
        assert!(c[0].work_changed.as_deref().unwrap().contains("5.0 -> 6.0"));
    }

    #[test]
    fn refuses_different_data_or_settings() {
        let old = run(vec![result("dlx-static", &BASE, 500)]);
        let mut other_data = old.clone();
        other_data.results[0].dataset.hash = "fnv1a64:2".into();
        let err = compare(&old, &other_data, 5.0).unwrap_err().to_string();
        assert!(err.contains("changed since the baseline"), "{err}");
        let mut other_settings = old.clone();
        other_settings.settings.max_solutions = 1;
        let err = compare(&old, &other_settings, 5.0).unwrap_err().to_string();
        assert!(err.contains("different settings"), "{err}");
    }

    #[test]
    fn results_in_one_run_only_are_named() {
        let old = run(vec![
            result("dlx-static", &BASE, 500),
            result("dfs", &BASE, 9),
        ]);
        let new = run(vec![
            result("dlx-static", &BASE, 500),
            result("dlx-arena", &BASE, 9),
        ]);
        let c = compare(&old, &new, 5.0).unwrap();
        assert_eq!(c.rows.len(), 1);
        assert_eq!(c.only_old, ["dfs on d.txt -j1"]);
        assert_eq!(c.only_new, ["dlx-arena on d.txt -j1"]);
    }
}
