//! `compare`: a saved baseline's build against this one, run again side by side; or two
//! saved runs' figures; and `compare --list`.

use super::Exit;
use super::bench::{busy_note, exit_of, load_datasets, measure};
use std::path::{Path, PathBuf};

use crate::base::push_new;
use crate::bench::baseline::{self, BaselineRef, Store};
use crate::bench::builds::Builds;
use crate::bench::machine::{Build, LoadProbe, Machine};
use crate::bench::present::export::ExportManager;
use crate::bench::present::terminal;
use crate::bench::present::{dataset_name, html};
use crate::bench::{BenchResult, BenchRun};
use crate::options::{CompareAction, CompareOptions, Rerun};
use crate::output::write_whole;
use crate::report::text_table::{Align, TextTable};

pub(super) fn compare(opts: CompareOptions) -> anyhow::Result<Exit> {
    match &opts.action {
        CompareAction::List(store) => list(store, opts.text),
        CompareAction::Saved { old, new } => {
            let builds = named(&old.0, &old.1, side("new", &new.0, &new.1), &new.1.build);
            against_saved(&opts, &builds, &old.1, new.1.clone(), false)
        }
        CompareAction::Rerun { old, rerun } => rerun_old(&opts, old, rerun),
    }
}

/// `new`'s figures judged against the saved ones of `old`, then shown: both runs'
/// results, each named by its side ("bitboard (old)"), the verdicts, `new`'s settings.
fn against_saved(
    opts: &CompareOptions,
    builds: &[String],
    old: &BenchRun,
    new: BenchRun,
    busy: bool,
) -> anyhow::Result<Exit> {
    let (versus, only) = baseline::compare(old, &new, &opts.rules)?;
    let mut results = Vec::new();
    for (run, which) in [(old, "old"), (&new, "new")] {
        results.extend(run.results.iter().map(|r| BenchResult {
            backend: format!("{} ({which})", r.backend),
            ..r.clone()
        }));
    }
    let run = BenchRun {
        results,
        versus,
        ..new
    };
    finish(opts, builds, run, &only, busy)
}

/// `compare NAME` alone: the baseline's benchmark again, each backend's saved build and
/// this one side by side, or (where the saved build cannot run) this build's figures
/// against the saved ones.
fn rerun_old(
    opts: &CompareOptions,
    old: &(PathBuf, BenchRun),
    rerun: &Rerun,
) -> anyhow::Result<Exit> {
    let budget = crate::base::bounds::MAX_HELD_BYTES;
    let datasets = match load_datasets(&rerun.datasets, &rerun.load, &rerun.subset, budget)? {
        Ok(d) => d,
        Err(exit) => return Ok(exit),
    };
    let build = Build::current();
    let this = format!("new: this build, sudoku-bench {}", build.describe());
    let builds = named(&old.0, &old.1, this, &build);
    let exports = ExportManager::default();
    let mut config = rerun.config.clone();
    let pairs = match &rerun.pairs {
        Ok(pairs) => pairs,
        Err(why) => {
            say!(
                "note: the saved build cannot run here ({why}): comparing this build's fresh figures with the saved ones, not side by side, which only a quiet machine makes fair"
            );
            let differ = old.1.machine.differences(&Machine::current());
            if !differ.is_empty() {
                say!(
                    "warning: the baseline was measured on another machine ({}): its times do not compare with these",
                    differ.join(", ")
                );
            }
            let probe = LoadProbe::start();
            let new = measure(&datasets, &config, opts.progress, None, &exports, &build)?;
            let busy = busy_note(&probe, &config.threads);
            if new.partial {
                opts.text.print(&terminal::render(&new))?;
                return Ok(Exit::Interrupted);
            }
            return against_saved(opts, &builds, &old.1, new, busy);
        }
    };
    // Each backend's two builds side by side, taking turns, on its own.
    let mut run = BenchRun::new(&config, &build);
    for pair in pairs {
        config.labels = Vec::from(["old", "new"].map(|s| format!("{} ({s})", pair.label)));
        config.backends = vec![pair.old.clone(), pair.new.clone()];
        config.threads = pair.threads.clone();
        // The pairs' results and verdicts in turn, in the last pair's run.
        let mut last = measure(&datasets, &config, opts.progress, None, &exports, &build)?;
        last.results.splice(0..0, run.results);
        last.versus.splice(0..0, run.versus);
        run = last;
        if run.partial {
            break;
        }
    }
    finish(opts, &builds, run, &Default::default(), false)
}

/// Prints the comparison, writes its outputs; its exit status: 5 on a regression (1
/// when it was judged from figures measured on a busy machine: the load alone can make
/// one). `only`: the results the baseline alone, and the new run alone, has.
fn finish(
    opts: &CompareOptions,
    builds: &[String],
    run: BenchRun,
    only: &[Vec<String>; 2],
    busy: bool,
) -> anyhow::Result<Exit> {
    let mut s = format!("\ncomparing builds:\n  {}\n", builds.join("\n  "));
    s.push_str(&terminal::render(&run));
    for (side, list) in ["the baseline", "the new run"].into_iter().zip(only) {
        if !list.is_empty() {
            s.push_str(&format!(
                "only in {side} (not compared): {}\n",
                list.join(", ")
            ));
        }
    }
    opts.text.print(&s)?;
    if let Some(target) = &opts.html {
        let page = html::bench_report("sudoku-bench: comparison", builds, &run);
        write_whole(target, page.as_bytes())?;
    }
    ExportManager(opts.exports.clone()).write_all(&run, true)?;
    let exit = exit_of(&run, false);
    if exit == Exit::Regressed && busy {
        say!(
            "error: no verdict: the regressions above were judged from figures measured on a busy machine and may come from the load; run the saved build and this one side by side (compare on the machine that saved it), which the load slows alike"
        );
        return Ok(Exit::Failure);
    }
    Ok(exit)
}

/// The lines naming the two builds, and whether they are one executable.
fn named(old_path: &Path, old: &BenchRun, new_line: String, new: &Build) -> Vec<String> {
    let mut lines = vec![side("old", old_path, old), new_line];
    if old.build.exe.is_some() && old.build.exe == new.exe {
        lines.push("the two are the same executable: this compares the build with itself".into());
    }
    lines
}

/// "old: before (results/baselines/before.json), saved 2026-12-03T..., sudoku-bench 0.1.0 (...)".
fn side(which: &str, path: &Path, run: &BenchRun) -> String {
    let name = path
        .file_stem()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    format!(
        "{which}: {name} ({}), of {}, sudoku-bench {}",
        path.display(),
        run.date,
        run.build.describe()
    )
}

/// One line per saved baseline.
fn list(store: &Store, text: crate::output::TextTo) -> anyhow::Result<Exit> {
    let names = store.names()?;
    if names.is_empty() {
        text.print(&format!("no baselines in {}\n", store.describe()))?;
        return Ok(Exit::Success);
    }
    use Align::{Left, Right};
    let mut table = TextTable::new(&[
        ("name", Left),
        ("date", Left),
        ("build", Left),
        ("results", Right),
        ("backends", Left),
        ("datasets", Left),
    ]);
    let builds = Builds::locate();
    for name in &names {
        match baseline::load(store, &BaselineRef::Name(name.clone())) {
            Ok((_, run)) => {
                // Each once, in order of first appearance (results run backends within
                // datasets and thread counts, so repeats are not adjacent).
                let mut backends: Vec<&str> = Vec::new();
                let mut datasets: Vec<String> = Vec::new();
                for r in &run.results {
                    push_new(&mut backends, r.backend.as_str());
                    push_new(&mut datasets, dataset_name(&r.dataset.path));
                }
                let partial = if run.partial { " (partial)" } else { "" };
                let kept = match (run.build.exe.as_deref()).and_then(|h| builds.as_ref()?.find(h)) {
                    Some(_) => "",
                    None => " (not kept here)",
                };
                table.row(vec![
                    name.clone(),
                    run.date.clone(),
                    format!("{}{kept}", run.build.describe()),
                    format!("{}{partial}", run.results.len()),
                    backends.join(","),
                    datasets.join(", "),
                ]);
            }
            Err(e) => {
                let mut row = vec![String::new(); 5];
                row[0] = name.clone();
                row.push(format!("unreadable: {e:#}"));
                table.row(row);
            }
        }
    }
    text.print(&format!(
        "baselines in {}:\n{}",
        store.dir.display(),
        table.render()
    ))?;
    Ok(Exit::Success)
}
