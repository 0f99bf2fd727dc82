//! A Markdown table, for READMEs and pull requests.

use crate::bench::BenchRun;
use crate::bench::machine::Machine;

pub fn export(run: &BenchRun) -> String {
    let Machine { cpu, cores, os, .. } = &run.machine;
    let st = &run.settings;
    let (max_solutions, rounds, warmup) = (st.max_solutions, st.rounds, st.warmup);
    let (version, revision, date) = (&run.build.version, run.build.revision(), &run.date);
    let mut s = format!(
        "sudoku-bench {version} ({revision}), {date}, {cpu} ({cores} cores), {os}; max-solutions {max_solutions}, {rounds} rounds after {warmup} warmup\n\n"
    );
    let mut table =
        super::terminal::table(run).without(&["mean µs", "max µs", "effic.", "instr./puzzle"]);
    // Markdown's own forms, for readers of a README: words, the spread as a ±.
    table.rename("-j", "threads");
    table.map("spread", |p| format!("±{p}"));
    s.push_str(&table.markdown());
    s.push_str(
        "\nµs/puzzle: the median round's time / puzzles; median and p99: per solver call.\n",
    );
    s.push_str(&super::verdicts::markdown(&run.versus));
    s
}
