//! `compare`: two saved runs, or a saved run against a fresh run of its benchmark; and
//! `compare --list`.

use super::Exit;
use super::bench::{
    Loaded, Watcher, busy_note, load_datasets, no_verdict_when_busy, progress_bar, verdicts,
};
use crate::bench::machine::LoadProbe;
use std::path::Path;

use crate::bench::baseline::{self, BaselineRef, Comparisons, Store};
use crate::bench::present::compared::Compared;
use crate::bench::present::export::ExportManager;
use crate::bench::present::terminal;
use crate::bench::{BenchRun, run_bench};
use crate::options::{CompareAction, CompareOptions};
use crate::output::write_whole;
use crate::report::text_table::{Align, TextTable};

pub(super) fn compare(opts: CompareOptions) -> anyhow::Result<Exit> {
    let outputs = Outputs {
        html: opts.html,
        exports: ExportManager(opts.exports),
        noise: opts.noise,
    };
    match opts.action {
        CompareAction::List(store) => list(&store, opts.text),
        CompareAction::Saved { old, new } => {
            let c = verdicts(&old.0, &old.1, &new.1, opts.noise, opts.text)?;
            outputs.write(&old.0, &old.1, &name(&new.0), &new.1, &c)?;
            Ok(exit_of(&c, false))
        }
        CompareAction::Rerun { old, rerun } => {
            let datasets = match load_datasets(&rerun.datasets, &rerun.load, &rerun.subset)? {
                Loaded::Ready(d) => d,
                Loaded::Stopped(exit) => return Ok(exit),
            };
            for (d, want) in datasets.iter().zip(&rerun.hashes) {
                if d.info.hash != *want {
                    anyhow::bail!(
                        "dataset {} changed since the baseline ({want} vs {}): the runs are not comparable",
                        d.info.path,
                        d.info.hash
                    );
                }
            }
            let exports = ExportManager::default();
            let bar = progress_bar(opts.progress, &rerun.config, datasets.len());
            let mut watcher = Watcher::new(bar, None, &exports, &rerun.config);
            let probe = LoadProbe::start();
            let measured = run_bench(&datasets, &rerun.config, &mut watcher)?;
            watcher.bar.finish_and_clear();
            let busy = busy_note(&probe, &rerun.config.threads);
            let mut new = BenchRun::new(&rerun.config, measured.results);
            new.partial = measured.interrupted;
            opts.text.print(&terminal::render(&new))?;
            if new.partial {
                return Ok(Exit::Interrupted);
            }
            let c = verdicts(&old.0, &old.1, &new, opts.noise, opts.text)?;
            outputs.write(&old.0, &old.1, "this build", &new, &c)?;
            Ok(exit_of(&c, busy))
        }
    }
}

/// The exit status of a comparison: 5 on a regression (1 when it was measured on a
/// busy machine: the load alone can make one), 1 when wall times moved between runs
/// made under different loads (no verdict either way), else 0.
pub(super) fn exit_of(c: &Comparisons, busy: bool) -> Exit {
    if c.regressed() > 0 {
        return no_verdict_when_busy(busy).unwrap_or(Exit::Regressed);
    }
    if c.unjudged() > 0 {
        say!(
            "error: no verdict: the runs were measured under different loads, and {} of the comparisons moved in wall time, which the load alone can do; compare runs made on a quiet machine, or with `bench --paired`, which the load slows alike",
            c.unjudged()
        );
        return Exit::Failure;
    }
    Exit::Success
}

fn name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// What `compare` writes besides the terminal: the HTML report and the exports.
struct Outputs {
    html: Option<crate::output::Target>,
    exports: ExportManager,
    noise: f64,
}

impl Outputs {
    fn write(
        &self,
        old_path: &Path,
        old: &BenchRun,
        new_name: &str,
        new: &BenchRun,
        c: &Comparisons,
    ) -> anyhow::Result<()> {
        let old_name = name(old_path);
        if let Some(target) = &self.html {
            let page = crate::bench::present::html::compare_report(
                &old_name, old, new_name, new, c, self.noise,
            );
            write_whole(target, page.as_bytes())?;
        }
        self.exports.write_compared(&Compared {
            old_name: &old_name,
            old,
            new_name,
            new,
            comparisons: c,
            noise_pct: self.noise,
        })
    }
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
        ("revision", Left),
        ("results", Right),
        ("backends", Left),
        ("datasets", Left),
    ]);
    for name in &names {
        match baseline::load(store, &BaselineRef::Name(name.clone())) {
            Ok((_, run)) => {
                let mut backends: Vec<&str> =
                    run.results.iter().map(|r| r.backend.as_str()).collect();
                backends.dedup();
                let mut datasets: Vec<String> = Vec::new();
                for r in &run.results {
                    let short = crate::bench::present::dataset_name(&r.dataset.path);
                    if !datasets.contains(&short) {
                        datasets.push(short);
                    }
                }
                let partial = if run.partial { " (partial)" } else { "" };
                table.row(vec![
                    name.clone(),
                    run.date.clone(),
                    run.build.git_revision.clone().unwrap_or_default(),
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
