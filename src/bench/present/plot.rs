//! `--export-svg`: per dataset, each backend's cumulative distribution of per-puzzle time
//! on a log axis, drawn by `svg.rs` (also a figure of the HTML report).

use super::svg::{self, Palette};
use crate::bench::BenchRun;

/// One run's distributions, coloured by its own backends.
pub fn plot(run: &BenchRun) -> String {
    let palette = Palette::new(run.results.iter().map(|r| r.backend.as_str()));
    chart(&[("", run)], &palette)
}

/// A panel per dataset, in the order of the results; a series per result with times,
/// its label led by its run's name where that is not empty (compare's two runs).
pub fn chart(runs: &[(&str, &BenchRun)], palette: &Palette) -> String {
    let results = || {
        runs.iter()
            .flat_map(|(name, run)| run.results.iter().map(move |r| (*name, r)))
    };
    let mut datasets: Vec<&str> = Vec::new();
    for (_, r) in results() {
        if !datasets.contains(&r.dataset.path.as_str()) {
            datasets.push(&r.dataset.path);
        }
    }
    let panels: Vec<svg::Panel<'_>> = datasets
        .iter()
        .map(|&dataset| {
            let series = results()
                .filter(|(_, r)| r.dataset.path == dataset && !r.cdf.is_empty())
                .map(|(run, r)| {
                    let lead = if run.is_empty() {
                        String::new()
                    } else {
                        format!("{run}: ")
                    };
                    let name = format!("{lead}{} -j{}", r.backend, r.threads);
                    svg::Series {
                        backend: r.backend.clone(),
                        label: format!("{name} (median {:.1} µs)", r.per_call.median_us),
                        points: r.cdf.as_slice(),
                    }
                })
                .collect();
            let name = svg::file_name(dataset);
            svg::Panel {
                title: format!("{name}: time per puzzle, cumulative"),
                series,
            }
        })
        .collect();
    svg::cdf("time per puzzle, cumulative", &panels, palette)
}
