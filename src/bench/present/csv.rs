//! One CSV row per backend x dataset x thread count; its relative speed and paired
//! verdict in the row (the columns are empty where it has none).

use serde::Serialize;

use crate::bench::BenchRun;
use crate::bench::baseline::Verdict;

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
    /// The fastest backend on this dataset at this thread count, this one's µs/puzzle
    /// over the fastest's with one standard deviation, and how it stands (`fastest`,
    /// `slower`, `within_noise`, `too_few_rounds`, `no_ratio` and why).
    fastest: Option<&'a str>,
    vs_fastest: Option<f64>,
    vs_fastest_sd: Option<f64>,
    relative: Option<&'static str>,
    relative_why: Option<&'a str>,
    /// `--paired`: its time over the first backend's, with the 95% CI, and the verdict.
    paired_vs: Option<&'a str>,
    paired_ratio: Option<f64>,
    paired_ci95_low: Option<f64>,
    paired_ci95_high: Option<f64>,
    paired_verdict: Option<Verdict>,
}

pub fn export(run: &BenchRun) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let relative = run.relative();
    for r in &run.results {
        let group = relative.iter().find(|g| {
            g.dataset == r.dataset.path
                && g.threads == r.threads
                && (g.fastest.as_deref() == Some(&r.backend) || g.of(&r.backend).is_some())
        });
        let versus = group.and_then(|g| g.of(&r.backend));
        let paired = run.paired.iter().find(|p| {
            p.backend == r.backend && p.dataset == r.dataset.path && p.threads == r.threads
        });
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
            fastest: group.and_then(|g| g.fastest.as_deref()),
            vs_fastest: match versus {
                Some(v) => v.ratio,
                None => group.map(|_| 1.0),
            },
            vs_fastest_sd: versus.and_then(|v| v.ratio_sd),
            relative: match versus {
                Some(v) => Some(v.standing.name()),
                None => group.map(|_| "fastest"),
            },
            relative_why: versus.and_then(|v| v.why.as_deref()),
            paired_vs: paired.map(|p| p.baseline.as_str()),
            paired_ratio: paired.map(|p| p.ratio),
            paired_ci95_low: paired.map(|p| p.ci95.0),
            paired_ci95_high: paired.map(|p| p.ci95.1),
            paired_verdict: paired.map(|p| p.verdict),
        })?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}
