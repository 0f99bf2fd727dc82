//! `history` on the terminal: one line per series, a sparkline, and its change points.

use std::fmt::Write as _;

use crate::bench::history::Trend;
use crate::report::text_table::{Align, TextTable, shorten};

pub const HEADERS: [&str; 11] = [
    "backend",
    "dataset",
    "-j",
    "machine",
    "method",
    "runs",
    "first µs",
    "last µs",
    "best µs",
    "last vs first",
    "change points",
];

const SPARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The cells of each series (shared with the HTML report).
pub fn rows(trends: &[Trend<'_>]) -> Vec<Vec<String>> {
    trends
        .iter()
        .map(|t| {
            let v = t.values();
            let e = t.points[0];
            let (first, last) = (v[0], v[v.len() - 1]);
            let best = v.iter().copied().fold(f64::INFINITY, f64::min);
            let steps: Vec<String> = t
                .steps
                .iter()
                .map(|s| {
                    let at = t.points[s.index];
                    format!(
                        "{:+.1}% at {} ({})",
                        s.change_pct(),
                        at.date.get(..10).unwrap_or(&at.date),
                        at.revision.as_deref().unwrap_or("?")
                    )
                })
                .collect();
            vec![
                e.backend.clone(),
                e.dataset.clone(),
                e.threads.to_string(),
                e.machine.clone(),
                e.method.clone(),
                v.len().to_string(),
                format!("{first:.3}"),
                format!("{last:.3}"),
                format!("{best:.3}"),
                format!("{:+.1}%", (last / first - 1.0) * 100.0),
                if steps.is_empty() {
                    "none".into()
                } else {
                    steps.join("; ")
                },
            ]
        })
        .collect()
}

/// The newest `width` values as a sparkline, low to high.
pub fn sparkline(values: &[f64], width: usize) -> String {
    let v = &values[values.len().saturating_sub(width)..];
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(0.0, f64::max);
    v.iter()
        .map(|&x| {
            let i = if hi > lo {
                ((x - lo) / (hi - lo) * 7.0).round() as usize
            } else {
                3
            };
            SPARKS[i.min(7)]
        })
        .collect()
}

pub fn render(file: &str, trends: &[Trend<'_>], min_step_pct: f64) -> String {
    use Align::{Left, Right};
    let mut table = TextTable::new(&[
        ("backend", Left),
        ("dataset", Left),
        ("-j", Right),
        ("machine", Left),
        ("method", Left),
        ("runs", Right),
        ("first µs", Right),
        ("last µs", Right),
        ("best µs", Right),
        ("last/first", Right),
        ("trend", Left),
        ("change points", Left),
    ]);
    for (t, mut row) in trends.iter().zip(rows(trends)) {
        row[1] = shorten(&row[1], 32);
        row[3] = shorten(&row[3], 24);
        row.insert(10, sparkline(&t.values(), 24));
        table.row(row);
    }
    let mut s = format!("history: {file}\n");
    s.push_str(&table.render());
    let steps: usize = trends.iter().map(|t| t.steps.len()).sum();
    let _ = writeln!(
        s,
        "µs: the headline of each run (median over rounds of µs per puzzle); series: backend x dataset content x threads x machine x method \
         (the headline's clock, pass or calls, and +symmetry when passes presented their puzzles in fresh forms).\n\
         change points: least-squares segmentation of log times with a BIC-like penalty (3σ² ln n, σ from successive differences); \
         a step needs two runs on its new level and at least {min_step_pct}%: {steps} found"
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
