//! `compare`'s exports (`--export-csv`, `--export-json`, `--export-markdown`): the
//! verdicts of one run against another, in the formats `bench` exports a run in.

use std::fmt::Write as _;

use serde::Serialize;

use crate::bench::BenchRun;
use crate::bench::baseline::{Comparisons, Verdict};

/// A comparison and what it compared.
pub struct Compared<'a> {
    /// The baseline's name (or path) and run.
    pub old_name: &'a str,
    pub old: &'a BenchRun,
    /// The new run's name, or "this build" for a fresh run.
    pub new_name: &'a str,
    pub new: &'a BenchRun,
    pub comparisons: &'a Comparisons,
    pub noise_pct: f64,
}

/// Which run, in a few fields.
#[derive(Serialize)]
struct Side<'a> {
    name: &'a str,
    date: &'a str,
    git_revision: Option<&'a str>,
    partial: bool,
}

impl<'a> Side<'a> {
    fn of(name: &'a str, run: &'a BenchRun) -> Side<'a> {
        Side {
            name,
            date: &run.date,
            git_revision: run.build.git_revision.as_deref(),
            partial: run.partial,
        }
    }
}

#[derive(Serialize)]
struct Json<'a> {
    baseline: Side<'a>,
    new: Side<'a>,
    noise_pct: f64,
    regressed: usize,
    unjudged: usize,
    #[serde(flatten)]
    comparisons: &'a Comparisons,
}

pub fn json(c: &Compared<'_>) -> anyhow::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(&Json {
        baseline: Side::of(c.old_name, c.old),
        new: Side::of(c.new_name, c.new),
        noise_pct: c.noise_pct,
        regressed: c.comparisons.regressed(),
        unjudged: c.comparisons.unjudged(),
        comparisons: c.comparisons,
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// One row per backend x dataset x threads compared.
#[derive(Serialize)]
struct Row<'a> {
    backend: &'a str,
    dataset: &'a str,
    threads: usize,
    old_us: f64,
    new_us: f64,
    change_pct: f64,
    ci95_low_pct: f64,
    ci95_high_pct: f64,
    p_value: f64,
    verdict: Verdict,
    /// `wall`, or `cpu` when the runs' loads differed.
    clock: &'a str,
    work_changed: Option<&'a str>,
    instructions_change_pct: Option<f64>,
    instructions_verdict: Option<Verdict>,
}

pub fn csv(c: &Compared<'_>) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &c.comparisons.rows {
        w.serialize(Row {
            backend: &r.backend,
            dataset: &r.dataset,
            threads: r.threads,
            old_us: r.old_us,
            new_us: r.new_us,
            change_pct: r.change_pct,
            ci95_low_pct: r.ci95_pct.0,
            ci95_high_pct: r.ci95_pct.1,
            p_value: r.p_value,
            verdict: r.verdict,
            clock: &r.clock,
            work_changed: r.work_changed.as_deref(),
            instructions_change_pct: r.instructions_change_pct,
            instructions_verdict: r.instructions_verdict,
        })?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

pub fn markdown(c: &Compared<'_>) -> anyhow::Result<Vec<u8>> {
    let side = |name: &str, run: &BenchRun| {
        format!(
            "{name} ({}, {}{})",
            run.date,
            run.build
                .git_revision
                .as_deref()
                .unwrap_or("unknown revision"),
            if run.partial { ", partial" } else { "" }
        )
    };
    let mut s = String::new();
    writeln!(
        s,
        "sudoku-bench comparison: {} against the baseline {}\n",
        side(c.new_name, c.new),
        side(c.old_name, c.old)
    )?;
    s.push_str(&super::compare::markdown(c.comparisons, c.noise_pct));
    Ok(s.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::baseline::compare;
    use crate::bench::present::export::tests::synthetic_run;

    /// The synthetic run against itself with dlx-arena twice as slow.
    fn compared(test: impl FnOnce(&Compared<'_>)) {
        let old = synthetic_run();
        let mut new = synthetic_run();
        for r in new.results.iter_mut().filter(|r| r.backend == "dlx-arena") {
            r.us_per_puzzle *= 2.0;
            for ns in &mut r.rounds_ns {
                *ns *= 2;
            }
        }
        let comparisons = compare(&old, &new, 5.0).unwrap();
        test(&Compared {
            old_name: "base",
            old: &old,
            new_name: "new",
            new: &new,
            comparisons: &comparisons,
            noise_pct: 5.0,
        });
    }

    #[test]
    fn every_format_has_every_verdict() {
        compared(|c| {
            let json: serde_json::Value = serde_json::from_slice(&json(c).unwrap()).unwrap();
            assert_eq!(json["baseline"]["name"], "base");
            assert_eq!(json["regressed"], 1);
            let rows = json["rows"].as_array().unwrap();
            assert_eq!(rows.len(), 3);
            assert_eq!(rows[1]["backend"], "dlx-arena");
            assert_eq!(rows[1]["verdict"], "regressed");

            let csv = String::from_utf8(csv(c).unwrap()).unwrap();
            let lines: Vec<&str> = csv.lines().collect();
            assert_eq!(lines.len(), 4, "{csv}");
            assert!(lines[0].starts_with("backend,dataset,threads,old_us,new_us,change_pct"));
            assert!(lines[2].starts_with("dlx-arena,") && lines[2].contains(",regressed,"));
            assert!(lines[1].contains(",no_change,"));

            let md = String::from_utf8(markdown(c).unwrap()).unwrap();
            assert!(md.starts_with("sudoku-bench comparison: new (2026-11-29T23:50:14Z"));
            assert!(md.contains("| dlx-arena | datasets/generated-3000.txt | 1 |"));
            assert!(md.contains("| regressed |"), "{md}");
            assert!(md.contains("1 regressed"), "{md}");
        });
    }
}
