//! The comparison of two runs, as a table for a person.

use std::fmt::Write as _;

use super::dataset_name;
use super::table::{Column, Table};
use crate::bench::baseline::{Comparison, Comparisons, Verdict};
use crate::report::text_table::Align;

pub fn render(c: &Comparisons, noise_pct: f64) -> String {
    let mut table = verdict_table(c);
    table.map("dataset", dataset_name);
    let mut s = table.text();
    for r in &c.rows {
        let what = format!(
            "{} on {} -j{}",
            r.backend,
            dataset_name(&r.dataset),
            r.threads
        );
        if let Some((a, b)) = r
            .loads
            .filter(|_| r.clock == "cpu" || r.verdict == Verdict::DifferentLoad)
        {
            let how = match r.clock.as_str() {
                "cpu" => {
                    "µs, change, interval and verdict are of CPU time, which waiting for a core does not inflate"
                }
                _ => {
                    "only wall times were recorded, and they may have moved with the load: no verdict"
                }
            };
            let _ = writeln!(
                s,
                "load ({what}): other programs kept {a:.2} cores busy during the baseline and {b:.2} during the new run; {how}"
            );
        }
        if let (Some(pct), Some(v)) = (r.instructions_change_pct, r.instructions_verdict) {
            let _ = writeln!(
                s,
                "instructions ({what}): {pct:+.3}% per puzzle, {}",
                v.name()
            );
        }
    }
    s.push_str(&legend(c, noise_pct));
    s
}

/// The table a person reads. No work column: the verdict says it, and which clock it
/// was judged by.
fn verdict_table(c: &Comparisons) -> Table {
    let mut table = table(c).without(&["instr. change", "work"]);
    let v = table.column("verdict");
    for (row, r) in table.rows.iter_mut().zip(&c.rows) {
        if r.clock == "cpu" {
            row[v].push_str(" (CPU time)");
        }
        if let Some(w) = &r.work_changed {
            let _ = write!(row[v], "; work changed: {w}");
        }
    }
    table
}

/// The results only one run has, what the columns are, and the outcome: a line each.
fn legend(c: &Comparisons, noise_pct: f64) -> String {
    let mut s = String::new();
    for (side, list) in [("the baseline", &c.only_old), ("the new run", &c.only_new)] {
        if !list.is_empty() {
            let _ = writeln!(s, "only in {side} (not compared): {}", list.join(", "));
        }
    }
    let _ = writeln!(
        s,
        "old/new µs: each run's headline (median over rounds); change: new / old headline; \
         95% CI and p: Welch's t-test on the log round times\n\
         noise threshold {noise_pct}%, significance 5%: {}",
        match (c.regressed(), c.unjudged()) {
            (0, 0) => "no regression".to_string(),
            (0, n) => format!("no verdict on {n} (different loads)"),
            (n, _) => format!("{n} regressed"),
        }
    );
    s
}

/// The comparison as Markdown: the table, then the legend as paragraphs.
pub fn markdown(c: &Comparisons, noise_pct: f64) -> String {
    let mut s = verdict_table(c).markdown();
    for line in legend(c, noise_pct).lines() {
        let _ = write!(s, "\n{line}\n");
    }
    s
}

/// The cells of each comparison (shared with the HTML report).
pub fn table(c: &Comparisons) -> Table {
    use Align::{Left, Right};
    let us = |v: f64| format!("{v:.3}");
    let columns: &[Column<'_, Comparison>] = &[
        ("backend", Left, &|r| r.backend.clone()),
        ("dataset", Left, &|r| r.dataset.clone()),
        ("-j", Right, &|r| r.threads.to_string()),
        ("old µs", Right, &|r| us(r.old_us)),
        ("new µs", Right, &|r| us(r.new_us)),
        ("change", Right, &|r| format!("{:+.2}%", r.change_pct)),
        ("95% CI", Right, &|r| {
            format!("{:+.2}%..{:+.2}%", r.ci95_pct.0, r.ci95_pct.1)
        }),
        ("p", Right, &|r| format!("{:.4}", r.p_value)),
        ("instr. change", Right, &|r| {
            r.instructions_change_pct
                .map_or("-".into(), |p| format!("{p:+.3}%"))
        }),
        ("verdict", Left, &|r| r.verdict.name().into()),
        ("work", Left, &|r| {
            r.work_changed.clone().unwrap_or_default()
        }),
    ];
    Table::of(&c.rows, columns)
}
