//! The comparison of two runs, as a table for a person.

use std::fmt::Write as _;

use crate::bench::baseline::{Comparisons, Verdict};
use crate::report::text_table::{Align, TextTable, shorten};

pub fn render(c: &Comparisons, noise_pct: f64) -> String {
    use Align::{Left, Right};
    let mut table = TextTable::new(&[
        ("backend", Left),
        ("dataset", Left),
        ("-j", Right),
        ("old µs", Right),
        ("new µs", Right),
        ("change", Right),
        ("95% CI", Right),
        ("p", Right),
        ("verdict", Left),
    ]);
    for r in &c.rows {
        let work = r
            .work_changed
            .as_deref()
            .map(|w| format!("; work changed: {w}"))
            .unwrap_or_default();
        table.row(vec![
            r.backend.clone(),
            shorten(&r.dataset, 40),
            r.threads.to_string(),
            format!("{:.3}", r.old_us),
            format!("{:.3}", r.new_us),
            format!("{:+.2}%", r.change_pct),
            format!("{:+.2}%..{:+.2}%", r.ci95_pct.0, r.ci95_pct.1),
            format!("{:.4}", r.p_value),
            format!(
                "{}{}{work}",
                r.verdict.name(),
                if r.clock == "cpu" { " (CPU time)" } else { "" }
            ),
        ]);
    }
    let mut s = table.render();
    for r in &c.rows {
        let what = format!(
            "{} on {} -j{}",
            r.backend,
            shorten(&r.dataset, 40),
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
