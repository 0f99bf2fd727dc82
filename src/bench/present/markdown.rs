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
        let mut table =
            super::terminal::table(run).without(&["mean µs", "max µs", "effic.", "instr./puzzle"]);
        // Markdown's own forms, for readers of a README: words, the spread as a ±.
        table.rename("-j", "threads");
        table.map("spread", |p| format!("±{p}"));
        s.push_str(&table.markdown());
        writeln!(
            s,
            "\nµs/puzzle: {}; median and p99: per solver call.",
            run.settings.timing.short()
        )?;
        s.push_str(&super::relative::markdown(run));
        s.push_str(&super::paired::markdown(&run.paired));
        Ok(s.into_bytes())
    }
}
