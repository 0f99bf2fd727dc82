//! The HTML report (`--html FILE` on `bench` and `compare`): one self-contained page,
//! inline CSS and SVG, no script, nothing fetched; all that comes from a user or a file
//! is escaped.

use std::fmt::Write as _;

use super::svg::{PALETTE, Palette, escape};
use super::table::Table;
use super::{svg, terminal, verdicts};
use crate::bench::machine::Machine;
use crate::bench::{BenchRun, Versus};
use crate::report::text_table::Align;

/// A page being built: what goes under its heading.
struct Page {
    body: String,
    /// One colour per backend, the same on every page: the charts' lines and the
    /// swatches beside the backend names in the tables.
    palette: Palette,
}

impl Page {
    fn h(&mut self, level: u8, text: &str) {
        let _ = write!(self.body, "<h{level}>{}</h{level}>", escape(text));
    }

    fn p(&mut self, class: &str, text: &str) {
        let _ = write!(self.body, r#"<p class="{class}">{}</p>"#, escape(text));
    }

    /// A table in a box of its own that scrolls sideways where it is wider than the page;
    /// a cell is escaped text, a verdict badge when it names one, a backend's name in colour.
    fn table(&mut self, table: &Table) {
        let class = |a: Align| if a == Align::Left { "l" } else { "r" };
        self.body
            .push_str(r#"<div class="scroll"><table><thead><tr>"#);
        for &(h, align) in &table.columns {
            // A title wraps only between words ("-j" and "µs/puzzle" stay whole).
            let wraps = if h.contains(' ') { " w" } else { "" };
            let _ = write!(
                self.body,
                r#"<th class="{}{wraps}">{}</th>"#,
                class(align),
                escape(h)
            );
        }
        self.body.push_str("</tr></thead><tbody>");
        for row in &table.rows {
            self.body.push_str("<tr>");
            for (cell, &(h, align)) in row.iter().zip(&table.columns) {
                let _ = write!(self.body, r#"<td class="{}">"#, class(align));
                let _ = match (badge(cell), h) {
                    (Some(class), _) => write!(
                        self.body,
                        r#"<span class="badge {class}">{}</span>"#,
                        escape(cell)
                    ),
                    (None, "backend" | "vs") => write!(
                        self.body,
                        r#"<span class="name"><span class="swatch c{}"></span>{}</span>"#,
                        self.palette.slot(cell),
                        escape(cell)
                    ),
                    _ => write!(self.body, "{}", escape(cell)),
                };
                self.body.push_str("</td>");
            }
            self.body.push_str("</tr>");
        }
        self.body.push_str("</tbody></table></div>");
    }

    /// Verdict cards: what was compared, the verdict in the units of the sentence
    /// above (its class: `bad`, `good`, `same`), and why beside it where there is
    /// something to say.
    fn verdicts(&mut self, versus: &[Versus]) {
        if versus.is_empty() {
            return;
        }
        self.body.push_str(r#"<div class="verdicts">"#);
        for v in versus {
            let what = format!("{} vs {} on {} -j{}", v.other, v.base, v.dataset, v.threads);
            let _ = write!(
                self.body,
                r#"<div class="verdict {}"><span>{}</span><b>{}</b>"#,
                badge(v.verdict.name()).unwrap_or("same"),
                escape(&what),
                escape(&v.short())
            );
            if let Some(why) = v.why.as_deref().filter(|w| !w.is_empty()) {
                let _ = write!(self.body, r#"<small>{}</small>"#, escape(why));
            }
            self.body.push_str("</div>");
        }
        self.body.push_str("</div>");
    }

    /// The page, `title` its title and its heading.
    fn finish(self, title: &str) -> String {
        // A swatch class per palette colour.
        let title = escape(title);
        let swatches: String = PALETTE
            .iter()
            .enumerate()
            .map(|(i, c)| format!(".c{i}{{background:{c}}}"))
            .collect();
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
             <title>{title}</title><style>{CSS}{swatches}</style></head><body><main><h1>{title}</h1>{}<footer>sudoku-bench {}</footer></main></body></html>\n",
            self.body,
            escape(env!("CARGO_PKG_VERSION")),
        )
    }
}

fn badge(cell: &str) -> Option<&'static str> {
    match cell.split(' ').next() {
        Some("regressed") => Some("bad"),
        Some("improved") => Some("good"),
        Some("no") if cell.starts_with("no change") => Some("same"),
        _ => None,
    }
}

/// The page's style. Tables scroll inside their own box (`.scroll`) where they cannot
/// fit, so the page itself never gets wider than the window; charts shrink to fit.
const CSS: &str = "body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}\
main{max-width:1180px;margin:0 auto;padding:20px 24px;box-sizing:border-box}h1{font-size:24px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 8px}h1,h2{overflow-wrap:anywhere}\
.summary{font-size:17px;margin:6px 0 12px}.meta{color:#5a6270;font-size:13px;margin:2px 0;overflow-wrap:anywhere}\
.note{color:#5a6270;font-size:13px;overflow-wrap:anywhere}\
.scroll{max-width:100%;overflow-x:auto;margin:6px 0}\
table{border-collapse:collapse;background:white;font-size:12.5px;box-shadow:0 1px 2px #0001}\
th,td{padding:5px 8px;border-bottom:1px solid #e6e8eb}th{background:#eef0f3;font-weight:600;vertical-align:bottom}\
.r{text-align:right}.l{text-align:left;overflow-wrap:break-word}td.r,th{white-space:nowrap}th.w{white-space:normal}\
.name{white-space:nowrap}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}\
.badge{padding:1px 7px;border-radius:9px;font-weight:600;white-space:nowrap}.bad{background:#fde2e1;color:#a4161a}\
.good{background:#dcf5e0;color:#1b6b2a}.same{background:#e8eaee;color:#39404d}\
.verdicts{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}\
.verdict{background:white;border-radius:8px;padding:10px 14px;box-shadow:0 1px 2px #0002;font-size:13px;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere}\
.verdict small{flex-basis:100%;color:#39404d;font-size:13px}\
.verdict.bad{border-left:5px solid #d62728}.verdict.good{border-left:5px solid #2ca02c}.verdict.same{border-left:5px solid #8a93a3}\
figure{margin:10px 10px 10px 0;display:inline-block;max-width:100%;vertical-align:top;background:white;box-shadow:0 1px 2px #0001}figure svg{display:block;max-width:100%;height:auto}\
footer{margin-top:32px;color:#8a93a3;font-size:12px}";

/// The distributions of the run's results in one chart: a panel per dataset, in the
/// order of the results, a series per result with times.
fn cdf(page: &mut Page, run: &BenchRun) {
    if run.results.iter().all(|r| r.cdf.is_empty()) {
        return;
    }
    page.h(2, "Per-puzzle time distributions");
    let mut datasets: Vec<&str> = run.results.iter().map(|r| &*r.dataset.path).collect();
    let mut seen = std::collections::HashSet::new();
    datasets.retain(|d| seen.insert(*d));
    let panels: Vec<svg::Panel<'_>> = datasets
        .iter()
        .map(|&dataset| svg::Panel {
            title: format!("{}: time per puzzle, cumulative", svg::file_name(dataset)),
            series: (run.results.iter())
                .filter(|r| r.dataset.path == dataset && !r.cdf.is_empty())
                .map(|r| svg::Series {
                    backend: r.backend.clone(),
                    label: format!(
                        "{} -j{} (median {:.1} µs)",
                        r.backend, r.threads, r.per_call.median_us
                    ),
                    points: r.cdf.as_slice(),
                })
                .collect(),
        })
        .collect();
    let chart = svg::cdf("time per puzzle, cumulative", &panels, &page.palette);
    // An SVG made by this program, its texts already escaped.
    let _ = write!(page.body, r#"<figure>{chart}</figure>"#);
}

/// The page of a `bench` run, or of a `compare` (`heading`, and a line naming each
/// build compared).
pub fn bench_report(heading: &str, builds: &[String], run: &BenchRun) -> String {
    // Every backend the run names: the same colour on every page.
    let names = run.results.iter().map(|r| r.backend.as_str());
    let palette = Palette::new(names.chain(run.versus.iter().map(|v| v.base.as_str())));
    let mut page = Page {
        body: String::new(),
        palette,
    };
    // One sentence per verdict, the page's answer, right under the heading.
    for v in &run.versus {
        let said = format!("{} -j{}: {}.", v.dataset, v.threads, v.sentence());
        page.p("summary", &said);
    }
    for line in builds {
        page.p("meta", line);
    }
    let Machine { cpu, cores, os, .. } = &run.machine;
    let (build, date) = (run.build.describe(), &run.date);
    let machine = format!("sudoku-bench {build}, {date} — {cpu} ({cores} cores), {os}");
    page.p("meta", &machine);
    let s = &run.settings;
    let (rounds, warmup, max_solutions) = (s.rounds, s.warmup, s.max_solutions);
    let settings = format!(
        "{rounds} rounds at least, after {warmup} warmup; max-solutions {max_solutions}; headline µs/puzzle: the median round's time / puzzles"
    );
    page.p("meta", &settings);
    if run.partial {
        page.p(
            "meta",
            "PARTIAL: interrupted; the measurement in flight was dropped",
        );
    }
    page.verdicts(&run.versus);
    page.h(2, "Results");
    page.table(&terminal::table(run).without(&["mean µs", "max µs", "effic."]));
    let builds = verdicts::builds(&run.versus);
    if !builds.is_empty() {
        page.h(2, "Builds compared");
        page.table(&verdicts::table(&builds));
    }
    if let Some(v) = run.versus.first() {
        page.p("note", &verdicts::legend(v));
    }
    cdf(&mut page, run);
    page.finish(heading)
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
        let mut page = Page {
            body: String::new(),
            palette: Palette::new([]),
        };
        page.table(&Table {
            columns: vec![("<th>", Align::Left), ("verdict", Align::Left)],
            rows: vec![vec!["<script>alert(1)</script>".into(), "regressed".into()]],
        });
        let html = page.finish("</title><script>");
        assert!(!html.contains("<script>"));
        assert!(html.contains(r#"<span class="badge bad">regressed</span>"#));
    }
}
