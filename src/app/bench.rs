//! `bench`: measure, export, save, compare.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Exit;
use crate::bench::baseline::Found;
use crate::bench::builds;
use crate::bench::history;
use crate::bench::machine::{Build, LoadProbe};
use crate::bench::present::export::ExportManager;
use crate::bench::present::html;
use crate::bench::present::terminal;
use crate::bench::{
    BenchConfig, BenchResult, BenchRun, Dataset, DatasetError, Kind, Observer, Verdict, Versus,
    run_bench,
};
use crate::loader::subset::Subset;
use crate::loader::{Input, LoadOptions};
use crate::options::{BenchOptions, SaveBaseline};
use crate::output::append_lines;
use crate::output::{Target, TargetKind, TextTo, write_whole};
use crate::report::{RowOutput, RowOutputKind};
use crate::run::PuzzleResult;

pub(super) fn bench(opts: BenchOptions) -> anyhow::Result<Exit> {
    let budget = crate::base::bounds::MAX_HELD_BYTES;
    let datasets = match load_datasets(&opts.datasets, &opts.load, &opts.subset, budget)? {
        Ok(d) => d,
        Err(exit) => return Ok(exit),
    };
    let exports = ExportManager(opts.exports);
    let per_puzzle = (opts.per_puzzle.as_ref())
        .map(|target| RowOutput::open(RowOutputKind::Csv, target))
        .transpose()?;
    let build = Build::current();
    // The files a baseline keeps are copied before they are measured: what is kept is
    // what ran, even if a file is replaced during the run.
    let mut kept = Vec::new();
    if let Some(builds) = opts.save.as_ref().and_then(|s| s.builds.as_ref()) {
        for (label, backend) in opts.config.labels.iter().zip(&opts.config.backends) {
            kept.push(builds::keep_files(builds, label, backend)?);
        }
    }
    let probe = LoadProbe::start();
    let (config, progress) = (&opts.config, opts.progress);
    let mut run = measure(&datasets, config, progress, per_puzzle, &exports, &build)?;
    busy_note(&probe, &opts.config.threads);
    for r in &mut run.results {
        if let Some(k) = kept.iter().find(|k| k.label == r.backend) {
            (r.kept, r.code) = (k.kept.clone(), builds::identity(&k.kept));
        }
    }
    // The table and the baseline come first: an export that cannot be written must not
    // cost the measurements.
    let exported = exports.write_all(&run, true);
    let text = opts.text;
    text.print(&terminal::render(&run))?;
    text.print(&terminal::instructions(&run))?;
    if let Some(save) = &opts.save {
        save_baseline(save, &run, &kept, text)?;
    }
    // The history before the verdicts: a regression is recorded too.
    let recorded = (opts.record.as_ref()).map_or(Ok(()), |r| record(r, &run, text));
    let html = (opts.html.as_ref()).map_or(Ok(()), |target| {
        let page = html::bench_report("sudoku-bench: benchmark", &[], &run);
        write_whole(target, page.as_bytes())
    });
    exported?;
    recorded?;
    html?;
    let unread = datasets.iter().any(|d| d.info.parse_errors > 0)
        || run.results.iter().any(|r| r.unsupported > 0);
    Ok(exit_of(&run, unread))
}

/// The exit status of a run: the worst of an interrupt, wrong answers, records not read,
/// a regression between builds (5), and builds that could not be judged (1).
pub(super) fn exit_of(run: &BenchRun, unread: bool) -> Exit {
    let wrong = run.results.iter().any(|r| r.wrong > 0);
    let builds = run.versus.iter().filter(|v| v.kind == Kind::Builds);
    let unjudged = builds.filter(|v| v.verdict == Verdict::Unjudged).count();
    match Exit::worst(run.partial, wrong, unread) {
        Exit::Success if run.versus.iter().any(Versus::regressed) => Exit::Regressed,
        Exit::Success if unjudged > 0 => {
            say!(
                "error: no verdict on {unjudged} of the builds compared (the reasons are above): nothing can be said of them"
            );
            Exit::Failure
        }
        exit => exit,
    }
}

/// Saves the run as a baseline, its build kept in the build store (said, with what was
/// not kept).
fn save_baseline(
    save: &SaveBaseline,
    run: &BenchRun,
    kept: &[builds::Keeping],
    text: TextTo,
) -> anyhow::Result<()> {
    if let Found::Nowhere(_) = save.store.found {
        say!(
            "note: no results/baselines folder in the working directory or above: creating {}",
            save.store.dir.display()
        );
    }
    // An interrupted run never costs a baseline that exists, and a run that measured
    // nothing is no baseline at all (`compare` would refuse it).
    let exists = matches!(&save.target.kind, TargetKind::File(path) if path.exists());
    if run.results.is_empty() || (run.partial && exists) {
        let why = match run.results.is_empty() {
            true => "nothing was measured",
            false => "the run was interrupted, and a partial run does not replace one",
        };
        let kept = exists.then_some("; the saved one is kept as it was");
        let kept = kept.unwrap_or_default();
        say!("note: baseline {:?} not saved: {why}{kept}", save.name);
        return Ok(());
    }
    let build = match &save.builds {
        Some(builds) => {
            let exe = builds.keep_exe()?;
            let mut files = vec![format!("executable {}", run.build.exe_short())];
            if run.build.exe.as_deref() != Some(exe.as_str()) {
                anyhow::bail!("this executable changed on disk during the run: its build cannot be kept");
            }
            for k in kept {
                files.extend(k.kept.iter().map(|f| format!("{}: {}", k.label, f.path)));
                files.extend(k.left.iter().map(|l| format!("{}: not kept: {l}", k.label)));
            }
            format!("; its build kept in {} ({})", builds.dir.display(), files.join(", "))
        }
        None => "; its build not kept: no build store (set SUDOKU_BENCH_BUILDS or HOME), so compare will judge by its figures".into(),
    };
    let json = serde_json::to_vec_pretty(run)?;
    write_whole(&save.target, &json)?;
    let partial = if run.partial { "partial " } else { "" };
    Ok(text.print(&format!(
        "saved {partial}baseline {:?} to {}{build}\n",
        save.name, save.target.label
    ))?)
}

/// Warns when other programs kept busy the cores this run needed (the most threads it
/// used), and returns true then: its times are inflated by the wait for a core.
pub(super) fn busy_note(probe: &LoadProbe, threads: &[usize]) -> bool {
    let Some(others) = probe.others() else {
        return false;
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let needed = threads.iter().copied().max().unwrap_or(1).min(cores);
    if !short_of_cores(others, cores, needed) {
        return false;
    }
    say!(
        "warning: the machine was busy: other programs kept {others:.1} of its {cores} cores busy on average while this run needed {needed}; its times are inflated by waiting for a core"
    );
    true
}

/// True when the cores other programs kept busy left fewer than `needed` free, with a
/// quarter of a core of slack (daemons, the terminal, this program's own helpers).
fn short_of_cores(others: f64, cores: usize, needed: usize) -> bool {
    cores as f64 - others + 0.25 < needed as f64
}

/// Appends the run's results to the history.
fn record((target, source): &(Target, String), run: &BenchRun, text: TextTo) -> anyhow::Result<()> {
    let (file, folders) = append_lines(target, &history::lines(run, source)?)?;
    // What was made, exactly: a results folder that was there is not "created".
    if file {
        let folders = folders.then_some(", and the folders missing on its path");
        let folders = folders.unwrap_or_default();
        say!("note: created the history file {}{folders}", target.label);
    }
    Ok(text.print(&format!(
        "recorded {} results in {}\n",
        run.results.len(),
        target.label
    ))?)
}

/// Loads every dataset before anything is measured, all of them within `budget` bytes
/// (`bounds::MAX_HELD_BYTES`: one budget for the command). An interrupt, a dataset that
/// cannot be read, holds no puzzle or goes past the budget stop here (exit 130 or 3);
/// parse errors are counted and said. The datasets, or the exit status of why nothing
/// will be measured.
pub(super) fn load_datasets(
    inputs: &[Input],
    load: &LoadOptions,
    subset: &Subset,
    budget: u64,
) -> anyhow::Result<Result<Vec<Dataset>, Exit>> {
    let mut out = Vec::new();
    let mut left = budget;
    for input in inputs {
        match Dataset::load(input, load, subset, left) {
            Ok(Some(d)) => {
                left = left.saturating_sub(d.held);
                if d.info.parse_errors > 0 {
                    say!(
                        "warning: {}: {} of {} records could not be read; they are not measured",
                        d.info.path,
                        d.info.parse_errors,
                        d.info.records
                    );
                }
                out.push(d);
            }
            Ok(None) => {
                say!("interrupted while loading the datasets: nothing was measured");
                return Ok(Err(Exit::Interrupted));
            }
            Err(e) if e.is::<DatasetError>() => {
                say!("error: {e}; nothing was measured");
                return Ok(Err(Exit::InputProblems));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Ok(out))
}

/// The run of `config` on `datasets`, showing progress, writing per-puzzle rows and
/// rewriting the exports as results come.
pub(super) fn measure(
    datasets: &[Dataset],
    config: &BenchConfig,
    progress: bool,
    per_puzzle: Option<RowOutput>,
    exports: &ExportManager,
    build: &Build,
) -> anyhow::Result<BenchRun> {
    let bar = match (progress, config.min_time) {
        (false, _) => ProgressBar::hidden(),
        (true, Some(_)) => ProgressBar::new_spinner(),
        (true, None) => ProgressBar::new(
            (config.warmup + config.rounds) as u64
                * (config.backends.len() * config.threads.len() * datasets.len()) as u64,
        ),
    };
    if progress {
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} passes  {msg}",
            )
            .expect("valid template"),
        );
        bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
    }
    let mut watcher = Watcher {
        bar,
        per_puzzle,
        exports,
        run: BenchRun::new(config, build),
        export_failed: false,
    };
    let run = run_bench(datasets, config, build, &mut watcher)?;
    watcher.bar.finish_and_clear();
    Ok(run)
}

/// Shows progress, writes per-puzzle rows and rewrites exports as results come.
struct Watcher<'a> {
    bar: ProgressBar,
    per_puzzle: Option<RowOutput>,
    exports: &'a ExportManager,
    /// The results so far, for the exports.
    run: BenchRun,
    /// An export failed: said once, and the measuring goes on (the final write at the
    /// end reports it again, as an error).
    export_failed: bool,
}

impl Observer for Watcher<'_> {
    fn on_pass(&mut self, label: &str) {
        self.bar.set_message(label.to_string());
        self.bar.inc(1);
    }

    fn on_rows(&mut self, results: &[PuzzleResult]) -> anyhow::Result<()> {
        if let Some(out) = &mut self.per_puzzle {
            out.write(results)?;
        }
        Ok(())
    }

    fn on_result(&mut self, result: &BenchResult) -> anyhow::Result<()> {
        self.run.results.push(result.clone());
        if let Err(e) = self.exports.write_all(&self.run, false)
            && !std::mem::replace(&mut self.export_failed, true)
        {
            self.bar
                .suspend(|| say!("warning: {e:#}; measuring goes on"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// Red-team finding: two CPU hogs on the 2-core VM made every `compare` say
    /// "regressed" (+150%). One hog leaves a -j1 run its core; two do not.
    #[test]
    fn a_run_is_short_of_cores_only_when_others_took_the_ones_it_needed() {
        use super::short_of_cores;
        assert!(!short_of_cores(0.1, 2, 1));
        assert!(!short_of_cores(1.0, 2, 1));
        assert!(short_of_cores(1.4, 2, 1));
        assert!(short_of_cores(0.5, 2, 2));
        assert!(!short_of_cores(0.2, 2, 2));
        assert!(!short_of_cores(6.0, 16, 8));
        assert!(short_of_cores(9.0, 16, 8));
    }

    #[test]
    fn machines_that_differ_are_named() {
        let a = crate::bench::machine::Machine {
            cpu: "A".into(),
            cores: 2,
            physical_cores: Some(1),
            os: "Linux".into(),
        };
        assert!(a.differences(&a.clone()).is_empty());
        let b = crate::bench::machine::Machine {
            cores: 16,
            ..a.clone()
        };
        assert_eq!(a.differences(&b), ["2 vs 16 cores"]);
    }
}
