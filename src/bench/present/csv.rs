//! One CSV row per backend x dataset x thread count, its verdict in the row (the
//! columns are empty where it has none).

use crate::bench::BenchRun;

/// The columns, in the order of each row's cells.
const HEADER: &str = "backend,dataset,dataset_hash,threads,puzzles,wrong,wrong_answers,\
    budget_exceeded,no_guess_pct,nodes_per_puzzle,guesses_per_puzzle,us_per_puzzle,puzzles_per_s,\
    efficiency,rounds,clock,spread_pct,round_outliers,per_call_mean_us,per_call_median_us,\
    per_call_p90_us,per_call_p99_us,per_call_max_us,per_call_mad_us,per_call_outliers,vs,ratio,\
    ratio_low,ratio_high,verdict,why";

pub fn export(run: &BenchRun) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    if !run.results.is_empty() {
        w.write_record(HEADER.split(','))?;
    }
    for r in &run.results {
        let v = run.versus.iter().find(|v| {
            v.other == r.backend && v.dataset == r.dataset.path && v.threads == r.threads
        });
        let (c, d) = (&r.per_call, &r.dataset);
        // In HEADER's order, as serde writes them (`None` empty): a counter the backend
        // does not report, the verdict (against `vs`: the old build, or the fastest solver).
        w.serialize((
            (&r.backend, &d.path, &d.hash, r.threads, d.puzzles),
            (r.wrong, r.wrong_answers, r.budget_exceeded),
            r.counters.guesses.then_some(r.no_guess_pct),
            r.counters.nodes.then_some(r.nodes_per_puzzle),
            r.counters.guesses.then_some(r.guesses_per_puzzle),
            (r.us_per_puzzle, r.puzzles_per_s, run.efficiency(r)),
            (
                r.rounds_ns.len(),
                r.timing.name(),
                r.spread_pct,
                r.round_outliers,
            ),
            (
                c.mean_us,
                c.median_us,
                c.p90_us,
                c.p99_us,
                c.max_us,
                c.mad_us,
                c.outliers,
            ),
            (v.map(|v| &v.base), v.and_then(|v| v.ratio)),
            (v.and_then(|v| v.low), v.and_then(|v| v.high)),
            (
                v.map(|v| v.verdict.name()),
                v.and_then(|v| v.why.as_deref()),
            ),
        ))?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}
