//! Saved runs and the regression verdict.
//!
//! As in criterion, a change counts only when it is both outside the noise threshold and
//! statistically significant (Welch's t-test on the per-round times, 5% level). Work
//! counters are compared exactly: different node or guess totals mean the algorithm
//! changed, not the machine.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::bench::{BenchResult, BenchRun, FORMAT_VERSION};
use crate::stats;

/// Where named baselines live, relative to the working directory.
pub const BASELINE_DIR: &str = "results/baselines";

/// The file of a baseline: a name (`results/baselines/NAME.json`) or a path to a `.json`.
pub fn baseline_path(name_or_path: &str) -> PathBuf {
    let p = Path::new(name_or_path);
    if name_or_path.ends_with(".json") || p.components().count() > 1 {
        p.to_path_buf()
    } else {
        Path::new(BASELINE_DIR).join(format!("{name_or_path}.json"))
    }
}

/// Saves `run` as baseline `name`; an existing one is kept unless `force`.
pub fn save(run: &BenchRun, name: &str, force: bool) -> anyhow::Result<PathBuf> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        bail!("a baseline name is a plain file name, not {name:?}");
    }
    let path = baseline_path(name);
    if path.exists() && !force {
        bail!(
            "baseline {name:?} already exists ({}); pass --force to replace it",
            path.display()
        );
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let json = serde_json::to_vec_pretty(run)?;
    crate::report::write_atomically(&path, &json)?;
    Ok(path)
}

pub fn load(name_or_path: &str) -> anyhow::Result<BenchRun> {
    let path = baseline_path(name_or_path);
    let bytes =
        std::fs::read(&path).with_context(|| format!("reading baseline {}", path.display()))?;
    let run: BenchRun = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not a saved sudoku-bench run", path.display()))?;
    if run.format_version != FORMAT_VERSION {
        bail!(
            "{} has format version {}, this build reads {FORMAT_VERSION}",
            path.display(),
            run.format_version
        );
    }
    Ok(run)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Improved,
    Regressed,
    /// Within the noise threshold, or not statistically significant.
    NoChange,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::NoChange => "no change",
        }
    }
}

/// One backend x dataset x threads, old against new.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub backend: String,
    pub dataset: String,
    pub threads: usize,
    pub old_us: f64,
    pub new_us: f64,
    /// Relative change of the mean per-puzzle time, percent (negative is faster).
    pub change_pct: f64,
    /// 95% confidence interval of the change, percent.
    pub ci95_pct: (f64, f64),
    pub p_value: f64,
    pub verdict: Verdict,
    /// Set when the search itself did different work.
    pub work_changed: Option<String>,
}

/// Compares `new` with `old`. Refuses runs whose settings differ, or whose datasets
/// of the same path differ in content.
pub fn compare(old: &BenchRun, new: &BenchRun, noise_pct: f64) -> anyhow::Result<Vec<Comparison>> {
    let (a, b) = (&old.settings, &new.settings);
    if (a.max_solutions, a.max_nodes, a.timeout_s) != (b.max_solutions, b.max_nodes, b.timeout_s) {
        bail!(
            "the runs used different settings (max-solutions {} vs {}, max-nodes {} vs {}): \
             rerun with the baseline's settings",
            a.max_solutions,
            b.max_solutions,
            a.max_nodes,
            b.max_nodes
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
    let pairs: Vec<(&BenchResult, &BenchResult)> = new
        .results
        .iter()
        .filter_map(|n| {
            old.results
                .iter()
                .find(|o| {
                    o.backend == n.backend
                        && o.dataset.hash == n.dataset.hash
                        && o.threads == n.threads
                })
                .map(|o| (o, n))
        })
        .collect();
    if pairs.is_empty() {
        bail!("the runs have no backend, dataset and thread count in common");
    }
    Ok(pairs
        .into_iter()
        .map(|(o, n)| compare_one(o, n, noise_pct))
        .collect())
}

fn compare_one(old: &BenchResult, new: &BenchResult, noise_pct: f64) -> Comparison {
    let (a, b) = (old.round_us_per_puzzle(), new.round_us_per_puzzle());
    let (old_us, new_us) = (stats::mean(&a), stats::mean(&b));
    let scale = 100.0 / old_us;
    let (change_pct, ci95_pct, p_value) = match stats::welch(&a, &b) {
        Some(w) => (
            w.difference * scale,
            (w.ci95.0 * scale, w.ci95.1 * scale),
            w.p_value,
        ),
        // A single round on a side: a change, but no evidence it is real.
        None => {
            let c = (new_us - old_us) * scale;
            (c, (f64::NEG_INFINITY, f64::INFINITY), 1.0)
        }
    };
    let verdict = if change_pct.abs() <= noise_pct || p_value >= 0.05 {
        Verdict::NoChange
    } else if change_pct < 0.0 {
        Verdict::Improved
    } else {
        Verdict::Regressed
    };
    let work_changed =
        (old.nodes_total != new.nodes_total || old.guesses_total != new.guesses_total).then(|| {
            format!(
                "nodes/puzzle {:.1} -> {:.1}, guesses/puzzle {:.2} -> {:.2}",
                old.nodes_per_puzzle,
                new.nodes_per_puzzle,
                old.guesses_per_puzzle,
                new.guesses_per_puzzle
            )
        });
    Comparison {
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
    }
}

/// The comparison as a table for a person.
pub fn render(comparisons: &[Comparison], noise_pct: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<12} {:<40} {:>3} {:>11} {:>11} {:>9} {:>21} {:>8}  verdict",
        "backend", "dataset", "-j", "old µs", "new µs", "change", "95% CI", "p"
    );
    for c in comparisons {
        let _ = writeln!(
            s,
            "{:<12} {:<40} {:>3} {:>11.3} {:>11.3} {:>+8.2}% {:>+9.2}%..{:>+8.2}% {:>8.4}  {}{}",
            c.backend,
            shorten(&c.dataset, 40),
            c.threads,
            c.old_us,
            c.new_us,
            c.change_pct,
            c.ci95_pct.0,
            c.ci95_pct.1,
            c.p_value,
            c.verdict.name(),
            c.work_changed
                .as_deref()
                .map(|w| format!("; work changed: {w}"))
                .unwrap_or_default()
        );
    }
    let regressed = comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Regressed)
        .count();
    let _ = writeln!(
        s,
        "noise threshold {noise_pct}%, significance 5% (Welch's t-test over rounds): {}",
        match regressed {
            0 => "no regression".to_string(),
            n => format!("{n} regressed"),
        }
    );
    s
}

/// The end of a long path, so tables stay narrow.
pub fn shorten(s: &str, width: usize) -> String {
    let count = s.chars().count();
    if count <= width {
        return s.to_string();
    }
    let tail: String = s.chars().skip(count - (width - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchSettings, DatasetInfo, PerCall};
    use crate::machine::{Build, Machine};

    fn result(backend: &str, rounds_us: &[f64], nodes: u64) -> BenchResult {
        BenchResult {
            backend: backend.into(),
            dataset: DatasetInfo {
                path: "d.txt".into(),
                hash: "fnv1a64:1".into(),
                records: 100,
                puzzles: 100,
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
            no_guess_pct: 0.0,
            nodes_per_puzzle: nodes as f64 / 100.0,
            guesses_per_puzzle: 0.0,
            nodes_total: nodes,
            guesses_total: 0,
            cdf: vec![],
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
                max_solutions: 2,
                max_nodes: 1000,
                timeout_s: None,
                warmup: 1,
                rounds: 5,
                min_time_s: None,
                min_round_ms: 200,
                headline: String::new(),
            },
            results,
        }
    }

    const BASE: [f64; 5] = [10.0, 10.2, 9.9, 10.1, 10.0];

    #[test]
    fn identical_runs_show_no_change() {
        let a = run(vec![result("dlx-static", &BASE, 500)]);
        let c = compare(&a, &a, 5.0).unwrap();
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
        let c = compare(&old, &slow, 5.0).unwrap();
        assert_eq!(c[0].verdict, Verdict::Regressed);
        assert!((c[0].change_pct - 50.0).abs() < 1.0);
        assert!(c[0].ci95_pct.0 > 40.0 && c[0].ci95_pct.1 < 60.0);
        let fast = run(vec![result("dlx-static", &[5.0, 5.1, 4.9, 5.0, 5.0], 500)]);
        assert_eq!(
            compare(&old, &fast, 5.0).unwrap()[0].verdict,
            Verdict::Improved
        );
        assert!(render(&c, 5.0).contains("1 regressed"));
    }

    #[test]
    fn small_or_noisy_changes_are_no_change() {
        let old = run(vec![result("dfs", &BASE, 500)]);
        // 3% slower, significant, but inside the 5% threshold.
        let small = run(vec![result("dfs", &[10.3, 10.5, 10.2, 10.4, 10.3], 500)]);
        assert_eq!(
            compare(&old, &small, 5.0).unwrap()[0].verdict,
            Verdict::NoChange
        );
        // 20% slower on average but all over the place: not significant.
        let noisy = run(vec![result("dfs", &[6.0, 18.0, 9.0, 20.0, 7.0], 500)]);
        let c = compare(&old, &noisy, 5.0).unwrap();
        assert!(c[0].change_pct > 5.0 && c[0].p_value > 0.05);
        assert_eq!(c[0].verdict, Verdict::NoChange);
    }

    #[test]
    fn changed_work_is_reported() {
        let old = run(vec![result("dlx-arena", &BASE, 500)]);
        let new = run(vec![result("dlx-arena", &BASE, 600)]);
        let c = compare(&old, &new, 5.0).unwrap();
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
    fn saves_without_overwriting() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.json");
        let r = run(vec![result("dlx-static", &BASE, 500)]);
        std::fs::write(&path, serde_json::to_vec(&r).unwrap()).unwrap();
        assert_eq!(load(path.to_str().unwrap()).unwrap(), r);
        assert_eq!(
            baseline_path("main"),
            Path::new("results/baselines/main.json")
        );
        assert!(save(&r, "../x", false).is_err());
    }
}
