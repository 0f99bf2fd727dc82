//! `--export-svg`: per dataset, each backend's cumulative distribution of per-puzzle time
//! on a log axis, drawn by `svg.rs` (also a figure of the HTML report).

use super::svg;
use crate::bench::BenchRun;

/// A panel per dataset, in the order of the results; a series per result with times.
pub fn plot(run: &BenchRun) -> String {
    let mut datasets: Vec<&str> = Vec::new();
    for r in &run.results {
        if !datasets.contains(&r.dataset.path.as_str()) {
            datasets.push(&r.dataset.path);
        }
    }
    let panels: Vec<svg::Panel<'_>> = datasets
        .iter()
        .map(|&dataset| {
            let series = run
                .results
                .iter()
                .filter(|r| r.dataset.path == dataset && !r.cdf.is_empty())
                .map(|r| {
                    let label = format!(
                        "{} -j{} (median {:.1} µs)",
                        r.backend, r.threads, r.per_call.median_us
                    );
                    (label, r.cdf.as_slice())
                })
                .collect();
            let name = svg::file_name(dataset);
            (format!("{name}: time per puzzle, cumulative"), series)
        })
        .collect();
    svg::cdf("time per puzzle, cumulative", &panels)
}
