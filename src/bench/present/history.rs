//! `history` on the terminal: one line per series, a sparkline, and its change points,
//! each named by what lies on either side of it.

use std::fmt::Write as _;

use super::dataset_name;
use super::table::{Column, Table};
use crate::bench::history::change_points::{Cause, Step};
use crate::bench::history::{Entry, Trend};
use crate::report::text_table::{Align, shorten};

const SPARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A row per series, its newest values at a glance.
fn table(trends: &[Trend<'_>]) -> Table {
    use Align::{Left, Right};
    let us = |v: f64| format!("{v:.3}");
    let first = |t: &Trend<'_>| t.points[0].us_per_puzzle;
    let last = |t: &Trend<'_>| t.points[t.points.len() - 1].us_per_puzzle;
    let best = |t: &Trend<'_>| t.values().into_iter().fold(f64::INFINITY, f64::min);
    let columns: &[Column<'_, Trend<'_>>] = &[
        ("backend", Left, &|t| t.points[0].backend.clone()),
        ("dataset", Left, &|t| dataset_name(&t.points[0].dataset)),
        ("-j", Right, &|t| t.points[0].threads.to_string()),
        ("machine", Left, &|t| shorten(&t.points[0].machine, 24)),
        ("method", Left, &|t| t.points[0].method.clone()),
        ("runs", Right, &|t| t.points.len().to_string()),
        ("last build", Left, &|t| build(t.points[t.points.len() - 1])),
        ("first µs", Right, &|t| us(first(t))),
        ("last µs", Right, &|t| us(last(t))),
        ("best µs", Right, &|t| us(best(t))),
        ("last/first", Right, &|t| {
            format!("{:+.1}%", (last(t) / first(t) - 1.0) * 100.0)
        }),
        ("trend", Left, &|t| sparkline(&t.values(), 24)),
        ("change points", Left, &|t| {
            let steps: Vec<String> = t.steps.iter().map(|s| step_words(t, s)).collect();
            match steps.is_empty() {
                true => "none".into(),
                false => steps.join("; "),
            }
        }),
    ];
    Table::of(trends, columns)
}

/// A build for a person: the revision and the first 12 hex digits of its code's hash.
fn build(e: &Entry) -> String {
    let code = e.code.as_deref().map_or("?".into(), |c| {
        let hex = c.rsplit(':').next().unwrap_or(c);
        hex.chars().take(12).collect::<String>()
    });
    format!("{} {code}", e.revision.as_deref().unwrap_or("?"))
}

/// A step in words, where and what: "run 6 (2025-03-14): code changed: +14.2% slower
/// (A → B)", "machine shift (same build A)", or a build not recorded.
pub fn step_words(t: &Trend<'_>, s: &Step) -> String {
    let (a, b) = (build(t.points[s.index - 1]), build(t.points[s.index]));
    let pct = s.change_pct();
    let moved = format!("{pct:+.1}% {}", if pct > 0.0 { "slower" } else { "faster" });
    let at = t.points[s.index];
    let what = match s.cause {
        Cause::Code => format!("code changed: {moved} ({a} → {b})"),
        Cause::Machine => format!("machine shift (same build {a}): {moved}"),
        Cause::Unrecorded => format!("build not recorded: {moved} ({a} → {b})"),
    };
    format!(
        "run {} ({}): {what}",
        s.index + 1,
        at.date.get(..10).unwrap_or(&at.date)
    )
}

/// The newest `width` values as a sparkline, low to high.
fn sparkline(values: &[f64], width: usize) -> String {
    let v = &values[values.len().saturating_sub(width)..];
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(0.0, f64::max);
    v.iter()
        .map(|&x| match hi > lo {
            true => SPARKS[(((x - lo) / (hi - lo) * 7.0).round() as usize).min(7)],
            false => SPARKS[3],
        })
        .collect()
}

pub fn render(file: &str, trends: &[Trend<'_>], min_step_pct: f64) -> String {
    let mut s = format!("history: {file}\n");
    s.push_str(&table(trends).render());
    let steps: usize = trends.iter().map(|t| t.steps.len()).sum();
    let _ = writeln!(
        s,
        "µs: the headline of each run (median over rounds of µs per puzzle); series: backend x dataset content x threads x machine x method \
         (the headline's clock, pass or calls, and +symmetry when passes presented their puzzles in fresh forms); runs oldest first.\n\
         change points: a least-squares fit of steps to the log times; a step must stand out of the noise (σ from \
         successive differences) by 4σ² ln n where the build changes, twice that within one build, and be at least \
         {min_step_pct}% with two runs on its new level. A build: its revision (-dirty: changed tree) and the first 12 hex \
         digits of the hash of the code measured (this tool's executable, or the lib: or exec: file; ? if not recorded). \
         Change points found: {steps}."
    );
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn sparklines_span_low_to_high() {
        assert_eq!(super::sparkline(&[1.0, 2.0, 3.0], 10), "▁▅█");
        assert_eq!(super::sparkline(&[5.0, 5.0], 10), "▄▄");
        assert_eq!(super::sparkline(&[1.0, 2.0, 3.0], 2).chars().count(), 2);
    }
}
