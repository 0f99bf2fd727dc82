//! The benchmark table on the terminal.

use std::fmt::Write as _;

use crate::baseline::shorten;
use crate::bench::{BenchResult, BenchRun};

/// One line per backend x dataset x threads, then a note on what the columns mean.
pub fn render(run: &BenchRun) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<11} {:<28} {:>3} {:>7} {:>5} {:>7} {:>8} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11} {:>7} {:>6}",
        "backend",
        "dataset",
        "-j",
        "puzzles",
        "wrong",
        "noguess",
        "nodes",
        "guesses",
        "µs/puzzle",
        "mean µs",
        "median µs",
        "p99 µs",
        "max µs",
        "puzzles/s",
        "spread",
        "effic."
    );
    for r in &run.results {
        let _ = writeln!(s, "{}", row(run, r));
    }
    let _ = writeln!(
        s,
        "µs/puzzle: median over rounds of whole-pass wall time / puzzles (the headline); \
         mean/median/p99/max: per solver call, all rounds.\n\
         spread: relative standard deviation between rounds; effic.: throughput / (threads x 1-thread throughput)."
    );
    for r in &run.results {
        if r.wrong > 0 {
            let _ = writeln!(
                s,
                "WRONG ANSWERS: {} on {}: {} (see --per-puzzle)",
                r.backend, r.dataset.path, r.wrong
            );
        }
        if r.per_call.outliers > 0 || r.round_outliers > 0 {
            let _ = writeln!(
                s,
                "outliers ({} on {} -j{}): {} puzzle calls ({:.1}%) beyond 3.5 MAD ({:.2} µs) of the median, {} of {} rounds",
                r.backend,
                shorten(&r.dataset.path, 40),
                r.threads,
                r.per_call.outliers,
                100.0 * r.per_call.outliers as f64
                    / (r.dataset.puzzles as f64 * r.rounds_ns.len() as f64).max(1.0),
                r.per_call.mad_us,
                r.round_outliers,
                r.rounds_ns.len()
            );
        }
    }
    s
}

fn row(run: &BenchRun, r: &BenchResult) -> String {
    format!(
        "{:<11} {:<28} {:>3} {:>7} {:>5} {:>6.1}% {:>8.1} {:>8.2} {:>10.3} {:>10.3} {:>10.3} {:>10.3} {:>10.1} {:>11.0} {:>6.1}% {:>6}",
        r.backend,
        shorten(&r.dataset.path, 28),
        r.threads,
        r.dataset.puzzles,
        r.wrong,
        r.no_guess_pct,
        r.nodes_per_puzzle,
        r.guesses_per_puzzle,
        r.us_per_puzzle,
        r.per_call.mean_us,
        r.per_call.median_us,
        r.per_call.p99_us,
        r.per_call.max_us,
        r.puzzles_per_s,
        r.spread_pct,
        run.efficiency(r)
            .map_or("-".to_string(), |e| format!("{:.2}", e))
    )
}
