//! A Markdown table, for READMEs and pull requests.

use std::fmt::Write as _;

use crate::bench::BenchRun;

pub fn export(run: &BenchRun) -> String {
    let mut s = format!(
        "sudoku-bench {} ({}), {}, {} ({} cores), {}; max-solutions {}, {} rounds after {} warmup\n\n",
        run.build.version,
        run.build.revision(),
        run.date,
        run.machine.cpu,
        run.machine.cores,
        run.machine.os,
        run.settings.max_solutions,
        run.settings.rounds,
        run.settings.warmup
    );
    let mut table =
        super::terminal::table(run).without(&["mean µs", "max µs", "effic.", "instr./puzzle"]);
    // Markdown's own forms, for readers of a README: words, the spread as a ±.
    table.rename("-j", "threads");
    table.map("spread", |p| format!("±{p}"));
    s.push_str(&table.markdown());
    let _ = writeln!(
        s,
        "\nµs/puzzle: the median round's time / puzzles; median and p99: per solver call."
    );
    s.push_str(&super::verdicts::markdown(&run.versus));
    s
}
