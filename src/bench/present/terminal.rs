//! The benchmark table on the terminal.

use std::fmt::Write as _;

use super::dataset_name;
use super::table::{Column, Table, dash};
use crate::bench::{BenchResult, BenchRun, Instructions};
use crate::report::text_table::Align;

/// One line per backend x dataset x threads, then a note on what the columns mean.
pub fn render(run: &BenchRun) -> String {
    let mut table = table(run).without(&["instr./puzzle"]);
    // Narrow for a terminal: a short title, the end of a long path.
    table.rename("no guess", "noguess");
    table.map("dataset", dataset_name);
    let mut s = table.render();
    // " (cpu: ...)": the clocks of the run's results, each with why.
    let mut clocks: Vec<String> = Vec::new();
    for t in run.results.iter().map(|r| r.timing) {
        crate::base::push_new(&mut clocks, format!("{}: {}", t.name(), t.reason()));
    }
    let clocks = match clocks.is_empty() {
        true => String::new(),
        false => format!(" ({})", clocks.join("; ")),
    };
    let _ = writeln!(
        s,
        "µs/puzzle: the median round's time / puzzles, on its clock{clocks} (the headline); mean/median/p99/max: per solver call, all rounds.\n\
         spread: relative standard deviation between rounds; effic.: throughput / (threads x 1-thread throughput).",
    );
    for r in &run.results {
        notes(&mut s, r, run.settings.symmetry);
    }
    s.push_str(&super::verdicts::text(&run.versus));
    if run.partial {
        s.push_str(
            "PARTIAL: interrupted; the measurement in flight was dropped, the rows above are whole\n",
        );
    }
    s
}

/// The bench table's cells, every column one of its renderers shows (terminal,
/// Markdown, HTML): each picks its own.
pub fn table(run: &BenchRun) -> Table {
    use Align::{Left, Right};
    let us = |v: f64| format!("{v:.3}");
    // "n/a" for a counter the backend does not report, and for the headline of a
    // backend that solved none of the dataset's boards.
    let or_na = |shown: bool, cell: String| if shown { cell } else { "n/a".into() };
    let solved = |r: &BenchResult| r.timed_puzzles() > 0;
    let columns: &[Column<'_, BenchResult>] = &[
        ("backend", Left, &|r| r.backend.clone()),
        ("dataset", Left, &|r| r.dataset.path.clone()),
        ("-j", Right, &|r| r.threads.to_string()),
        ("puzzles", Right, &|r| r.dataset.puzzles.to_string()),
        ("wrong", Right, &|r| r.wrong.to_string()),
        ("no guess", Right, &|r| {
            or_na(r.counters.guesses, format!("{:.1}%", r.no_guess_pct))
        }),
        ("nodes", Right, &|r| {
            or_na(r.counters.nodes, format!("{:.1}", r.nodes_per_puzzle))
        }),
        ("guesses", Right, &|r| {
            or_na(r.counters.guesses, format!("{:.2}", r.guesses_per_puzzle))
        }),
        ("µs/puzzle", Right, &|r| {
            or_na(solved(r), us(r.us_per_puzzle))
        }),
        ("mean µs", Right, &|r| us(r.per_call.mean_us)),
        ("median µs", Right, &|r| us(r.per_call.median_us)),
        ("p99 µs", Right, &|r| us(r.per_call.p99_us)),
        ("max µs", Right, &|r| format!("{:.1}", r.per_call.max_us)),
        ("puzzles/s", Right, &|r| {
            or_na(solved(r), crate::report::rate(r.puzzles_per_s))
        }),
        ("spread", Right, &|r| format!("{:.1}%", r.spread_pct)),
        ("effic.", Right, &|r| dash(run.efficiency(r), 2)),
        ("instr./puzzle", Right, &|r| {
            dash(r.instructions.as_ref().map(|i| i.per_puzzle), 0)
        }),
    ];
    Table::of(&run.results, columns)
}

fn notes(s: &mut String, r: &BenchResult, symmetry: bool) {
    if let Some(f) = &r.foreign {
        for note in &f.notes {
            let _ = writeln!(s, "{}: {note}", r.backend);
        }
    }
    // Each note names the row it is about.
    let on = format!("{} on {}", r.backend, dataset_name(&r.dataset.path));
    if let Some(v) = &r.verified {
        let _ = writeln!(
            s,
            "{on}: claims verified by {}, untimed: {} confirmed, {} refuted, {} undecided",
            v.by, v.decided.confirmed, v.decided.refuted, v.decided.undecided
        );
    }
    if r.wrong > 0 {
        let _ = writeln!(
            s,
            "WRONG ANSWERS: {on}: {} puzzles ({} wrong answers over {} rounds; see --per-puzzle{})",
            r.wrong,
            r.wrong_answers,
            r.rounds_ns.len(),
            match symmetry {
                true =>
                    ": each row names the form the solver was given (--symmetry), which `solve` reproduces",
                false => "",
            }
        );
    }
    if r.budget_exceeded > 0 {
        let _ = writeln!(
            s,
            "budget: {on}: {} of {} puzzles stopped at the node budget or time limit in some round (budget_exceeded); their time is the budget's, not a solve's",
            r.budget_exceeded, r.dataset.puzzles
        );
    }
    if r.unsupported > 0 {
        let _ = writeln!(
            s,
            "unsupported: {on}: {} of {} boards are of a size it does not solve; µs/puzzle and puzzles/s are over the other {}",
            r.unsupported,
            r.dataset.puzzles,
            r.timed_puzzles()
        );
    }
    if r.per_call.outliers > 0 || r.round_outliers > 0 {
        // Over the calls made: every round.
        let calls = r.per_call.calls as f64;
        let _ = writeln!(
            s,
            "outliers ({on} -j{}): {} puzzle calls ({:.1}%) beyond 3.5 MAD ({:.2} µs) of the median, {} of {} rounds",
            r.threads,
            r.per_call.outliers,
            100.0 * r.per_call.outliers as f64 / calls.max(1.0),
            r.per_call.mad_us,
            r.round_outliers,
            r.rounds_ns.len()
        );
    }
}

/// `--instructions`: one line per backend x dataset counted (empty when none was).
pub fn instructions(run: &BenchRun) -> String {
    use Align::{Left, Right};
    let counted: Vec<(&BenchResult, &Instructions)> = (run.results.iter())
        .filter_map(|r| Some((r, r.instructions.as_ref()?)))
        .collect();
    // A row per backend x dataset (each thread count has the same count), against the
    // dataset's first backend counted.
    let mut rows: Vec<(&BenchResult, &Instructions, String)> = Vec::new();
    for &(r, i) in &counted {
        let on = |d: &BenchResult| d.dataset.path == r.dataset.path;
        if rows.iter().any(|d| on(d.0) && d.0.backend == r.backend) {
            continue;
        }
        let first = counted.iter().find(|d| on(d.0)).map_or(i, |d| d.1);
        // Counts over other puzzles (sizes one backend does not solve) do not compare.
        let versus = (i.ratio_to(first)).map_or("n/a".to_string(), |r| format!("{r:.4}"));
        rows.push((r, i, versus));
    }
    if rows.is_empty() {
        return String::new();
    }
    let columns: &[Column<'_, (&BenchResult, &Instructions, String)>] = &[
        ("backend", Left, &|c| c.0.backend.clone()),
        ("dataset", Left, &|c| dataset_name(&c.0.dataset.path)),
        ("puzzles", Right, &|c| c.1.puzzles.to_string()),
        ("instructions/puzzle", Right, &|c| {
            format!("{:.0}", c.1.per_puzzle)
        }),
        ("vs first", Right, &|c| c.2.clone()),
    ];
    let table = Table::of(&rows, columns).render();
    format!("\ninstructions (callgrind, inside the solver calls only; no noise):\n{table}")
}
