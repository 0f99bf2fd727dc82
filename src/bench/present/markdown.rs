//! A Markdown table, for READMEs and pull requests.

use std::fmt::Write as _;

use super::export::Exporter;
use crate::bench::BenchRun;

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn serialize(&self, run: &BenchRun) -> anyhow::Result<Vec<u8>> {
        let mut s = String::new();
        let rev = run
            .build
            .git_revision
            .as_deref()
            .unwrap_or("unknown revision");
        writeln!(
            s,
            "sudoku-bench {} ({rev}), {}, {} ({} cores), {}; max-solutions {}, {} rounds after {} warmup\n",
            run.build.version,
            run.date,
            run.machine.cpu,
            run.machine.cores,
            run.machine.os,
            run.settings.max_solutions,
            run.settings.rounds,
            run.settings.warmup
        )?;
        writeln!(
            s,
            "| backend | dataset | threads | puzzles | wrong | no guess | nodes | guesses | µs/puzzle | median µs | p99 µs | puzzles/s | spread |"
        )?;
        writeln!(s, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")?;
        for r in &run.results {
            let [no_guess, nodes, guesses] = r.work_cells();
            let [us, per_s] = r.headline_cells(3);
            writeln!(
                s,
                "| {} | {} | {} | {} | {} | {no_guess} | {nodes} | {guesses} | {us} | {:.3} | {:.3} | {per_s} | ±{:.1}% |",
                r.backend,
                r.dataset.path,
                r.threads,
                r.dataset.puzzles,
                r.wrong,
                r.per_call.median_us,
                r.per_call.p99_us,
                r.spread_pct
            )?;
        }
        writeln!(
            s,
            "\nµs/puzzle: {}; median and p99: per solver call.",
            run.settings.timing.short()
        )?;
        Ok(s.into_bytes())
    }
}
