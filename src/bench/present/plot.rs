//! SVG plots: per dataset, each backend's cumulative distribution of per-puzzle time on a
//! log axis. Pure Rust (plotters' SVG backend): no system libraries.

use plotters::prelude::*;

use super::export::Exporter;
use crate::bench::{BenchResult, BenchRun};

pub struct PlotExporter;

const PANEL_HEIGHT: u32 = 420;

impl Exporter for PlotExporter {
    fn serialize(&self, run: &BenchRun) -> anyhow::Result<Vec<u8>> {
        let mut datasets: Vec<&str> = Vec::new();
        for r in &run.results {
            if !datasets.contains(&r.dataset.path.as_str()) {
                datasets.push(&r.dataset.path);
            }
        }
        let mut svg = String::new();
        {
            let height = PANEL_HEIGHT * datasets.len().max(1) as u32;
            let root = SVGBackend::with_string(&mut svg, (960, height)).into_drawing_area();
            root.fill(&WHITE).map_err(plot_error)?;
            let panels = root.split_evenly((datasets.len().max(1), 1));
            for (panel, dataset) in panels.iter().zip(&datasets) {
                let results: Vec<&BenchResult> = run
                    .results
                    .iter()
                    .filter(|r| r.dataset.path == *dataset && !r.cdf.is_empty())
                    .collect();
                draw_panel(panel, dataset, &results).map_err(plot_error)?;
            }
            root.present().map_err(plot_error)?;
        }
        Ok(svg.into_bytes())
    }
}

/// Control characters are not allowed in XML at all (a file name may hold them): each
/// becomes U+FFFD. The SVG backend escapes the rest.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| match crate::bounds::is_unsafe_char(c) {
            true => '\u{FFFD}',
            false => c,
        })
        .collect()
}

fn plot_error<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e:?}")
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw_panel(
    area: &Area<'_>,
    dataset: &str,
    results: &[&BenchResult],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let xs = results.iter().flat_map(|r| r.cdf.iter().map(|p| p.0));
    // No timed call at all (a backend that solved none of the boards): any range.
    let lo = match xs.clone().fold(f64::INFINITY, f64::min) {
        lo if lo.is_finite() => lo.max(0.01),
        _ => 1.0,
    };
    let hi = xs.fold(0.0, f64::max).max(lo * 10.0);
    let (lo, hi) = (
        10f64.powf(lo.log10().floor()),
        10f64.powf(hi.log10().ceil()),
    );
    let name = printable(dataset.rsplit(['/', '\\']).next().unwrap_or(dataset));
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{name}: time per puzzle, cumulative"),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d((lo..hi).log_scale(), 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("µs per puzzle (log scale)")
        .y_desc("fraction of puzzles solved within")
        .x_label_formatter(&|v| format!("{v}"))
        .draw()?;
    for (i, r) in results.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        // A step plot: the fraction at or below each time.
        let mut points = Vec::with_capacity(r.cdf.len() * 2);
        let mut last_y = 0.0;
        for &(x, y) in &r.cdf {
            let x = x.max(lo);
            points.push((x, last_y));
            points.push((x, y));
            last_y = y;
        }
        let label = format!(
            "{} -j{} (median {:.1} µs)",
            printable(&r.backend),
            r.threads,
            r.per_call.median_us
        );
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
