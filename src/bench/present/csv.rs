//! One CSV row per backend x dataset x thread count, its verdict in the row (the
//! columns are empty where it has none).

use serde::Serialize;

use crate::bench::BenchRun;

#[derive(Serialize)]
struct Row<'a> {
    backend: &'a str,
    dataset: &'a str,
    dataset_hash: &'a str,
    threads: usize,
    puzzles: u64,
    wrong: u64,
    wrong_answers: u64,
    budget_exceeded: u64,
    /// Empty where the backend reports no such counter.
    no_guess_pct: Option<f64>,
    nodes_per_puzzle: Option<f64>,
    guesses_per_puzzle: Option<f64>,
    us_per_puzzle: f64,
    puzzles_per_s: f64,
    efficiency: Option<f64>,
    rounds: usize,
    clock: &'static str,
    spread_pct: f64,
    round_outliers: usize,
    per_call_mean_us: f64,
    per_call_median_us: f64,
    per_call_p90_us: f64,
    per_call_p99_us: f64,
    per_call_max_us: f64,
    per_call_mad_us: f64,
    per_call_outliers: u64,
    /// Its verdict against `vs` (the old build, or the fastest solver) on this dataset
    /// at this thread count: the ratio of total times, its 95% interval, the verdict and
    /// why (empty where it has none).
    vs: Option<&'a str>,
    ratio: Option<f64>,
    ratio_low: Option<f64>,
    ratio_high: Option<f64>,
    verdict: Option<&'static str>,
    why: Option<&'a str>,
}

pub fn export(run: &BenchRun) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &run.results {
        let v = run.versus.iter().find(|v| {
            v.other == r.backend && v.dataset == r.dataset.path && v.threads == r.threads
        });
        w.serialize(Row {
            backend: &r.backend,
            dataset: &r.dataset.path,
            dataset_hash: &r.dataset.hash,
            threads: r.threads,
            puzzles: r.dataset.puzzles,
            wrong: r.wrong,
            wrong_answers: r.wrong_answers,
            budget_exceeded: r.budget_exceeded,
            no_guess_pct: r.counters.guesses.then_some(r.no_guess_pct),
            nodes_per_puzzle: r.counters.nodes.then_some(r.nodes_per_puzzle),
            guesses_per_puzzle: r.counters.guesses.then_some(r.guesses_per_puzzle),
            us_per_puzzle: r.us_per_puzzle,
            puzzles_per_s: r.puzzles_per_s,
            efficiency: run.efficiency(r),
            rounds: r.rounds_ns.len(),
            clock: r.timing.name(),
            spread_pct: r.spread_pct,
            round_outliers: r.round_outliers,
            per_call_mean_us: r.per_call.mean_us,
            per_call_median_us: r.per_call.median_us,
            per_call_p90_us: r.per_call.p90_us,
            per_call_p99_us: r.per_call.p99_us,
            per_call_max_us: r.per_call.max_us,
            per_call_mad_us: r.per_call.mad_us,
            per_call_outliers: r.per_call.outliers,
            vs: v.map(|v| v.base.as_str()),
            ratio: v.and_then(|v| v.ratio),
            ratio_low: v.and_then(|v| v.low),
            ratio_high: v.and_then(|v| v.high),
            verdict: v.map(|v| v.verdict.name()),
            why: v.and_then(|v| v.why.as_deref()),
        })?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}
