//! One CSV row per backend x dataset x thread count.

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
    budget_exceeded: u64,
    /// Empty where the backend reports no such counter.
    no_guess_pct: Option<f64>,
    nodes_per_puzzle: Option<f64>,
    guesses_per_puzzle: Option<f64>,
    us_per_puzzle: f64,
    puzzles_per_s: f64,
    efficiency: Option<f64>,
    rounds: usize,
    spread_pct: f64,
    round_outliers: usize,
    per_call_mean_us: f64,
    per_call_median_us: f64,
    per_call_p90_us: f64,
    per_call_p99_us: f64,
    per_call_max_us: f64,
    per_call_mad_us: f64,
    per_call_outliers: u64,
}

pub fn export(run: &BenchRun) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &run.results {
        w.serialize(Row {
            backend: &r.backend,
            dataset: &r.dataset.path,
            dataset_hash: &r.dataset.hash,
            threads: r.threads,
            puzzles: r.dataset.puzzles,
            wrong: r.wrong,
            budget_exceeded: r.budget_exceeded,
            no_guess_pct: r.counters.guesses.then_some(r.no_guess_pct),
            nodes_per_puzzle: r.counters.nodes.then_some(r.nodes_per_puzzle),
            guesses_per_puzzle: r.counters.guesses.then_some(r.guesses_per_puzzle),
            us_per_puzzle: r.us_per_puzzle,
            puzzles_per_s: r.puzzles_per_s,
            efficiency: run.efficiency(r),
            rounds: r.rounds_ns.len(),
            spread_pct: r.spread_pct,
            round_outliers: r.round_outliers,
            per_call_mean_us: r.per_call.mean_us,
            per_call_median_us: r.per_call.median_us,
            per_call_p90_us: r.per_call.p90_us,
            per_call_p99_us: r.per_call.p99_us,
            per_call_max_us: r.per_call.max_us,
            per_call_mad_us: r.per_call.mad_us,
            per_call_outliers: r.per_call.outliers,
        })?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}
