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
        if let Some(why) = disagreement(r, noise_pct) {
            let _ = writeln!(s, "{what}: {why}");
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

/// Where the headline and the per-call median tell different stories, a sentence that
/// says so: the headline times whole passes (the harness between the calls, the machine's
/// interruptions), the per-call median only the solver's calls. A headline that moved
/// is one with a verdict either way (or none for the load); a median that moved is
/// beyond the noise threshold.
pub fn disagreement(r: &Comparison, noise_pct: f64) -> Option<String> {
    let (old, new) = r.per_call_median_us?;
    let calls_pct = (new / old - 1.0) * 100.0;
    let calls_moved = calls_pct.abs() > noise_pct;
    let headline_moved = matches!(
        r.verdict,
        Verdict::Regressed | Verdict::Improved | Verdict::DifferentLoad
    );
    let clock = if r.clock == "cpu" {
        "CPU time"
    } else {
        "wall time"
    };
    let pct = |p: f64| format!("{p:+.0}%");
    match (headline_moved, calls_moved) {
        (true, false) => Some(format!(
            "{clock} {} but per-call median unchanged ({}): the harness or the machine, not the solver",
            pct(r.change_pct),
            pct(calls_pct)
        )),
        // "Unchanged" only where the headline stayed within the noise, not where it
        // moved as far but too noisily for a verdict.
        (false, true) if r.verdict == Verdict::NoChange && r.change_pct.abs() <= noise_pct => {
            Some(format!(
                "per-call median {} but {clock} unchanged ({}): the calls alone moved, not the whole passes (timer overhead, or time between the calls that moved the other way)",
                pct(calls_pct),
                pct(r.change_pct)
            ))
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(change_pct: f64, verdict: Verdict, medians: Option<(f64, f64)>) -> Comparison {
        Comparison {
            backend: "b".into(),
            dataset: "d.txt".into(),
            threads: 1,
            old_us: 10.0,
            new_us: 10.0 * (1.0 + change_pct / 100.0),
            change_pct,
            ci95_pct: (change_pct - 1.0, change_pct + 1.0),
            p_value: 0.001,
            verdict,
            work_changed: None,
            instructions_change_pct: None,
            instructions_verdict: None,
            clock: "wall".into(),
            loads: None,
            per_call_median_us: medians,
        }
    }

    #[test]
    fn a_headline_that_moves_alone_is_said_to() {
        let said = disagreement(&row(108.0, Verdict::Regressed, Some((5.0, 5.1))), 5.0);
        assert_eq!(
            said.as_deref(),
            Some(
                "wall time +108% but per-call median unchanged (+2%): the harness or the machine, not the solver"
            )
        );
        let said = disagreement(&row(1.0, Verdict::NoChange, Some((5.0, 7.0))), 5.0).unwrap();
        assert!(said.starts_with("per-call median +40% but wall time unchanged (+1%)"));
        // Both moved, neither moved, or no medians: nothing to say.
        for r in [
            row(108.0, Verdict::Regressed, Some((5.0, 10.0))),
            row(1.0, Verdict::NoChange, Some((5.0, 5.1))),
            row(108.0, Verdict::Regressed, None),
            row(1.0, Verdict::WrongAnswers, Some((5.0, 9.0))),
            // The headline moved as far, too noisily for a verdict: not "unchanged".
            row(-16.0, Verdict::NoChange, Some((5.0, 4.6))),
        ] {
            assert_eq!(disagreement(&r, 5.0), None);
        }
        // The table's notes say it too.
        let c = Comparisons {
            rows: vec![row(108.0, Verdict::Regressed, Some((5.0, 5.1)))],
            only_old: vec![],
            only_new: vec![],
        };
        assert!(
            render(&c, 5.0)
                .contains("b on d.txt -j1: wall time +108% but per-call median unchanged")
        );
    }
}
