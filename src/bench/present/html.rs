//! The HTML report (`--html FILE` on `bench`, `compare` and `history`): one
//! self-contained page, inline CSS and SVG, no script and nothing fetched. Everything
//! that comes from a user or a file (paths, labels, names) is escaped.

use std::fmt::Write as _;

use super::table::Table;
use super::{compare, history, paired, plot, svg, terminal};
use crate::bench::baseline::{Comparisons, Verdict};
use crate::bench::history::Trend;
use crate::bench::{BenchResult, BenchRun};

/// Most points in one scatter plot.
const MAX_POINTS: usize = 4000;

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in crate::bounds::shown(s, &['\n', '\t']).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Per-puzzle times of the first measured pass of each backend x dataset x threads
/// (µs, by record; NaN where no time was taken), for the scatter plots.
#[derive(Default)]
pub struct PuzzleTimes {
    pub series: Vec<(String, String, usize, Vec<f32>)>,
}

impl PuzzleTimes {
    fn get(&self, label: &str, dataset: &str, threads: usize) -> Option<&[f32]> {
        self.series
            .iter()
            .find(|(l, d, t, _)| l == label && d == dataset && *t == threads)
            .map(|s| s.3.as_slice())
    }
}

/// A page being built.
#[derive(Default)]
struct Page {
    body: String,
}

impl Page {
    fn h(&mut self, level: u8, text: &str) {
        let _ = write!(self.body, "<h{level}>{}</h{level}>", escape(text));
    }

    fn p(&mut self, class: &str, text: &str) {
        let _ = write!(self.body, r#"<p class="{class}">{}</p>"#, escape(text));
    }

    /// A table; a cell is escaped text, or a verdict badge when it names one. The CSS
    /// aligns the columns.
    fn table(&mut self, table: &Table) {
        self.body.push_str("<table><thead><tr>");
        for (h, _) in &table.columns {
            let _ = write!(self.body, "<th>{}</th>", escape(h));
        }
        self.body.push_str("</tr></thead><tbody>");
        for row in &table.rows {
            self.body.push_str("<tr>");
            for cell in row {
                let _ = match badge(cell) {
                    Some(class) => write!(
                        self.body,
                        r#"<td><span class="badge {class}">{}</span></td>"#,
                        escape(cell)
                    ),
                    None => write!(self.body, "<td>{}</td>", escape(cell)),
                };
            }
            self.body.push_str("</tr>");
        }
        self.body.push_str("</tbody></table>");
    }

    /// An SVG made by this program (its texts already escaped).
    fn figure(&mut self, svg: &str) {
        let _ = write!(self.body, r#"<figure>{svg}</figure>"#);
    }

    fn verdicts(&mut self, items: &[(String, Verdict)]) {
        if items.is_empty() {
            return;
        }
        self.body.push_str(r#"<div class="verdicts">"#);
        for (what, v) in items {
            let _ = write!(
                self.body,
                r#"<div class="verdict {}"><span>{}</span><b>{}</b></div>"#,
                badge(v.name()).unwrap_or("same"),
                escape(what),
                v.name()
            );
        }
        self.body.push_str("</div>");
    }

    fn finish(self, title: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
             <title>{}</title><style>{CSS}</style></head><body><main>{}<footer>sudoku-bench {}</footer></main></body></html>\n",
            escape(title),
            self.body,
            escape(env!("CARGO_PKG_VERSION")),
        )
    }
}

fn badge(cell: &str) -> Option<&'static str> {
    match cell {
        "regressed" => Some("bad"),
        "improved" => Some("good"),
        "no change" => Some("same"),
        _ => None,
    }
}

const CSS: &str = "body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}\
main{max-width:1180px;margin:0 auto;padding:24px}h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}\
.meta{color:#5a6270;font-size:13px;margin:2px 0}.note{color:#5a6270;font-size:12px}\
table{border-collapse:collapse;background:white;font-size:13px;margin:6px 0;box-shadow:0 1px 2px #0001}\
th,td{padding:5px 9px;border-bottom:1px solid #e6e8eb;text-align:right;white-space:nowrap}\
th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}th{background:#eef0f3;font-weight:600}\
.badge{padding:1px 7px;border-radius:9px;font-weight:600}.bad{background:#fde2e1;color:#a4161a}\
.good{background:#dcf5e0;color:#1b6b2a}.same{background:#e8eaee;color:#39404d}\
.verdicts{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}\
.verdict{background:white;border-radius:8px;padding:10px 14px;box-shadow:0 1px 2px #0002;font-size:13px;display:flex;gap:10px;align-items:center}\
.verdict.bad{border-left:5px solid #d62728}.verdict.good{border-left:5px solid #2ca02c}.verdict.same{border-left:5px solid #8a93a3}\
figure{margin:10px 0;display:inline-block;background:white;box-shadow:0 1px 2px #0001}figure svg{display:block;max-width:100%;height:auto}\
footer{margin-top:32px;color:#8a93a3;font-size:12px}";

fn meta(page: &mut Page, run: &BenchRun) {
    page.p(
        "meta",
        &format!(
            "sudoku-bench {} ({}), {} — {} ({} cores), {}",
            run.build.version,
            run.build.revision(),
            run.date,
            run.machine.cpu,
            run.machine.cores,
            run.machine.os
        ),
    );
    let s = &run.settings;
    page.p(
        "meta",
        &format!(
            "{} rounds after {} warmup; max-solutions {}; headline µs/puzzle: {}",
            s.rounds,
            s.warmup,
            s.max_solutions,
            s.timing.short()
        ),
    );
}

fn results_table(page: &mut Page, run: &BenchRun) {
    page.table(&terminal::table(run).without(&["mean µs", "max µs", "effic."]));
}

fn cdf(page: &mut Page, run: &BenchRun) {
    if run.results.iter().any(|r| !r.cdf.is_empty()) {
        page.h(2, "Per-puzzle time distributions");
        page.figure(&plot::plot(run));
    }
}

/// The page for one `bench` run.
pub fn bench_report(
    run: &BenchRun,
    times: &PuzzleTimes,
    baseline: Option<(&str, &Comparisons, f64)>,
) -> String {
    let mut page = Page::default();
    page.h(1, "sudoku-bench: benchmark");
    meta(&mut page, run);
    if run.partial {
        page.p(
            "meta",
            "PARTIAL: interrupted; the measurement in flight was dropped",
        );
    }
    let mut verdicts: Vec<(String, Verdict)> = run
        .paired
        .iter()
        .map(|c| {
            (
                format!(
                    "{} vs {} on {} ×{:.4}",
                    c.backend, c.baseline, c.dataset, c.ratio
                ),
                c.verdict,
            )
        })
        .collect();
    if let Some((name, comparisons, _)) = baseline {
        verdicts.extend(comparisons.rows.iter().map(|c| {
            (
                format!(
                    "{} on {} vs baseline {name}: {:+.2}%",
                    c.backend, c.dataset, c.change_pct
                ),
                c.verdict,
            )
        }));
    }
    page.verdicts(&verdicts);
    page.h(2, "Results");
    results_table(&mut page, run);
    if !run.paired.is_empty() {
        page.h(2, "Paired comparisons");
        page.table(&paired::table(&run.paired));
        if let Some(c) = run.paired.first() {
            page.p(
                "note",
                &format!(
                    "ratio: time / the first backend's time on the same blocks of puzzles, taken in turns in a shuffled order (seed {}): the median of the block ratios, its 95% CI from their order statistics; noise threshold {}%; clock {}: {}",
                    c.seed,
                    c.noise_pct,
                    c.clock,
                    c.clock_reason()
                ),
            );
        }
    }
    if let Some((name, comparisons, noise)) = baseline {
        page.h(2, &format!("Against baseline {name}"));
        comparison_table(&mut page, comparisons, noise);
    }
    cdf(&mut page, run);
    scatters(&mut page, run, times);
    page.finish("sudoku-bench benchmark")
}

/// Each backend after the first against the first, per dataset and thread count.
fn scatters(page: &mut Page, run: &BenchRun, times: &PuzzleTimes) {
    let mut first_done = false;
    let band = run.paired.first().map_or(5.0, |c| c.noise_pct.max(1.0));
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for r in &run.results {
        if seen.contains(&(r.dataset.path.as_str(), r.threads)) {
            continue;
        }
        seen.push((&r.dataset.path, r.threads));
        let same: Vec<&BenchResult> = run
            .results
            .iter()
            .filter(|o| o.dataset.path == r.dataset.path && o.threads == r.threads)
            .collect();
        let Some(a) = same.first() else { continue };
        let Some(ta) = times.get(&a.backend, &a.dataset.path, a.threads) else {
            continue;
        };
        for b in &same[1..] {
            let Some(tb) = times.get(&b.backend, &b.dataset.path, b.threads) else {
                continue;
            };
            let points: Vec<(f64, f64)> = ta
                .iter()
                .zip(tb)
                .map(|(&x, &y)| (f64::from(x), f64::from(y)))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            if points.is_empty() {
                continue;
            }
            if !first_done {
                page.h(2, "Per puzzle: each backend against the first");
                page.p(
                    "note",
                    "One point per puzzle (first measured pass), log-log: above the diagonal the puzzle took longer on the second backend; red points are beyond the band.",
                );
                first_done = true;
            }
            let name = svg::file_name(&r.dataset.path);
            page.figure(&svg::scatter(
                &format!("{} vs {} on {name} -j{}", b.backend, a.backend, r.threads),
                &a.backend,
                &b.backend,
                &svg::thin(&points, MAX_POINTS),
                band,
            ));
        }
    }
}

fn comparison_table(page: &mut Page, c: &Comparisons, noise: f64) {
    page.table(&compare::table(c));
    for (side, list) in [("the baseline", &c.only_old), ("the new run", &c.only_new)] {
        if !list.is_empty() {
            page.p(
                "note",
                &format!("only in {side} (not compared): {}", list.join(", ")),
            );
        }
    }
    page.p(
        "note",
        &format!("old/new µs: the headline of each run (median over rounds); noise threshold {noise}%, significance 5% (Welch's t-test on log round times)"),
    );
}

/// The page for `compare`.
pub fn compare_report(
    old_name: &str,
    old: &BenchRun,
    new_name: &str,
    new: &BenchRun,
    c: &Comparisons,
    noise: f64,
) -> String {
    let mut page = Page::default();
    page.h(1, &format!("sudoku-bench: {new_name} against {old_name}"));
    page.p("meta", &format!("baseline {old_name}:"));
    meta(&mut page, old);
    page.p("meta", &format!("new {new_name}:"));
    meta(&mut page, new);
    let verdicts: Vec<(String, Verdict)> = c
        .rows
        .iter()
        .map(|r| {
            (
                format!(
                    "{} on {} -j{}: {:+.2}%",
                    r.backend, r.dataset, r.threads, r.change_pct
                ),
                r.verdict,
            )
        })
        .collect();
    page.verdicts(&verdicts);
    page.h(2, "Comparison");
    comparison_table(&mut page, c, noise);
    // Both runs' distributions in one plot per dataset.
    let mut both = new.clone();
    let runs = [(old_name, old), (new_name, new)];
    let named = runs.iter().flat_map(|(name, run)| {
        let named = move |r: &BenchResult| BenchResult {
            backend: format!("{name}: {}", r.backend),
            ..r.clone()
        };
        run.results.iter().map(named)
    });
    both.results = named.collect();
    cdf(&mut page, &both);
    page.h(2, "The new run");
    results_table(&mut page, new);
    page.finish("sudoku-bench comparison")
}

/// The page for `history`.
pub fn history_report(file: &str, trends: &[Trend<'_>], skipped: usize) -> String {
    let mut page = Page::default();
    page.h(1, "sudoku-bench: history");
    page.p(
        "meta",
        &format!(
            "{file}: {} series{}",
            trends.len(),
            if skipped > 0 {
                format!(", {skipped} lines skipped")
            } else {
                String::new()
            }
        ),
    );
    let verdicts: Vec<(String, Verdict)> = trends
        .iter()
        .flat_map(|t| {
            let e = t.points[0];
            t.steps.iter().map(move |s| {
                let at = t.points[s.index];
                (
                    format!(
                        "{} on {} -j{}: {:+.1}% at {} ({})",
                        e.backend,
                        e.dataset,
                        e.threads,
                        s.change_pct(),
                        at.date,
                        at.revision.as_deref().unwrap_or("?")
                    ),
                    if s.change_pct() > 0.0 {
                        Verdict::Regressed
                    } else {
                        Verdict::Improved
                    },
                )
            })
        })
        .collect();
    page.verdicts(&verdicts);
    page.h(2, "Trends");
    page.table(&history::table(trends));
    for t in trends {
        page.figure(&trend_svg(t));
    }
    page.finish("sudoku-bench history")
}

/// One series as a trend plot.
pub fn trend_svg(t: &Trend<'_>) -> String {
    let e = t.points[0];
    let name = svg::file_name(&e.dataset);
    let dates: Vec<String> = t.points.iter().map(|p| p.date.clone()).collect();
    let steps: Vec<(usize, f64)> = t.steps.iter().map(|s| (s.index, s.change_pct())).collect();
    svg::trend(
        &format!("{} on {name} -j{} ({})", e.backend, e.threads, e.machine),
        &t.values(),
        &dates,
        &steps,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_names_are_escaped() {
        assert_eq!(
            escape("<a href='x'>&\"</a>\u{7}"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;\u{FFFD}"
        );
        let mut page = Page::default();
        page.table(&Table {
            columns: vec![("<th>", crate::report::text_table::Align::Left)],
            rows: vec![vec!["<script>alert(1)</script>".into(), "regressed".into()]],
        });
        let html = page.finish("</title><script>");
        assert!(!html.contains("<script>"));
        assert!(html.contains(r#"<span class="badge bad">regressed</span>"#));
    }
}
