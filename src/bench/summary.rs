//! One measurement's numbers: the headline from the pass times, the distribution from
//! every call, the work from one pass.

use hdrhistogram::Histogram;

use super::measure::Job;
use super::{BenchResult, ForeignNotes, PerCall, Verified};
use crate::bench::stats;
use crate::run::Status;
use crate::tally::Tally;

/// `all` tallies every measured pass; `first` the first one (the exact work of one pass).
/// `second_calls`: a `lib:` solver's calls for a solution, over the measurement.
pub(super) fn summarize(
    job: &Job<'_>,
    rounds_ns: Vec<u64>,
    passes: usize,
    all: &Tally,
    first: &Tally,
    second_calls: u64,
) -> BenchResult {
    let dataset = &job.dataset.info;
    // Boards of a size the backend does not solve cost it nothing and are not counted.
    let timed = dataset
        .puzzles
        .saturating_sub(first.count(Status::Unsupported));
    let puzzles = timed.max(1) as f64;
    let rounds: Vec<f64> = rounds_ns.iter().map(|&ns| ns as f64).collect();
    let median_pass = stats::median(&rounds);
    let per_call = all.solve_times();
    let us = |ns: u64| ns as f64 / 1000.0;
    let (mad_ns, outliers) = stats::histogram_mad(per_call);
    BenchResult {
        backend: job.label.to_string(),
        spec: (job.label != job.backend.name()).then(|| job.backend.name().to_string()),
        dataset: dataset.clone(),
        threads: job.threads,
        us_per_puzzle: median_pass / 1000.0 / puzzles,
        puzzles_per_s: if median_pass > 0.0 {
            timed as f64 / (median_pass / 1e9)
        } else {
            0.0
        },
        spread_pct: 100.0 * stats::std_dev(&rounds) / stats::mean(&rounds),
        round_outliers: stats::mad_outliers(&rounds),
        rounds_ns,
        rounds_cpu_ns: Vec::new(),
        load: None,
        passes_per_round: passes,
        per_call: PerCall {
            // 0 for no calls.
            mean_us: per_call.mean() / 1000.0,
            median_us: us(per_call.value_at_quantile(0.5)),
            p90_us: us(per_call.value_at_quantile(0.9)),
            p99_us: us(per_call.value_at_quantile(0.99)),
            max_us: us(per_call.max()),
            mad_us: mad_ns / 1000.0,
            outliers,
            calls: per_call.len(),
        },
        wrong: all.wrong_answers(),
        budget_exceeded: first.count(Status::BudgetExceeded),
        unsupported: first.count(Status::Unsupported),
        no_guess_pct: first.no_guess_pct(),
        nodes_per_puzzle: first.nodes_per_puzzle(),
        guesses_per_puzzle: first.guesses_per_puzzle(),
        nodes_total: first.nodes_total().min(u64::MAX as u128) as u64,
        guesses_total: first.guesses_total().min(u64::MAX as u128) as u64,
        cdf: cdf_points(per_call),
        foreign: job.backend.is_foreign().then(|| ForeignNotes {
            notes: crate::solver::timing_notes(
                job.backend,
                &all.clocks(),
                &job.config.limits,
                second_calls,
            ),
        }),
        counters: first.counters(),
        verified: job.truths.map(|_| {
            let (confirmed, refuted, undecided) = all.verified();
            Verified {
                by: crate::run::verify::describe(job.backend),
                confirmed,
                refuted,
                undecided,
            }
        }),
        instructions: None,
        code: None,
    }
}

/// About 100 points of the cumulative distribution, denser in the tail.
fn cdf_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    if h.is_empty() {
        return Vec::new();
    }
    let mut qs: Vec<f64> = (0..=90).map(|i| i as f64 / 100.0).collect();
    qs.extend([0.92, 0.94, 0.96, 0.98, 0.99, 0.995, 0.999, 0.9999, 1.0]);
    let mut points: Vec<(f64, f64)> = qs
        .iter()
        .map(|&q| (h.value_at_quantile(q) as f64 / 1000.0, q))
        .collect();
    points.dedup_by(|a, b| a.0 == b.0);
    points
}
