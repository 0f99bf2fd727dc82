//! The `bench` and `compare` commands.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{Exit, limits};
use crate::baseline::{self, Verdict};
use crate::bench::{BenchConfig, BenchRun, Dataset, run_bench};
use crate::cli::{BenchArgs, CompareArgs};
use crate::report::export::{ExportFormat, ExportManager};
use crate::report::{CsvReport, OutputPath, table};
use crate::solver::{Backend, Limits};

pub fn bench(args: BenchArgs) -> anyhow::Result<Exit> {
    if args.threads.contains(&0) {
        bail!("--threads takes counts of 1 or more");
    }
    let config = BenchConfig {
        backends: if args.backends.is_empty() {
            Backend::ALL.to_vec()
        } else {
            args.backends.clone()
        },
        threads: args.threads.clone(),
        limits: limits(&args.limits),
        warmup: args.warmup,
        rounds: args.rounds,
        min_time: args.min_time.map(Duration::from_secs_f64),
        min_round: Duration::from_millis(args.min_round_ms),
    };
    if let Some(name) = &args.save_baseline {
        // Refuse before measuring, not after minutes of work.
        let path = baseline::baseline_path(name);
        if path.exists() && !args.force {
            bail!(
                "baseline {name:?} already exists ({}); pass --force to replace it",
                path.display()
            );
        }
    }
    let old = args.baseline.as_deref().map(baseline::load).transpose()?;
    let mut exports = ExportManager::default();
    exports.add(ExportFormat::Csv, args.export_csv.clone());
    exports.add(ExportFormat::Json, args.export_json.clone());
    exports.add(ExportFormat::Markdown, args.export_markdown.clone());
    exports.add(ExportFormat::Svg, args.plot.clone());

    let run = measure(
        &args.datasets,
        args.format,
        &config,
        &exports,
        args.per_puzzle.clone(),
        args.no_progress,
    )?;
    std::io::stdout()
        .lock()
        .write_all(table::render(&run).as_bytes())?;
    if let Some(name) = &args.save_baseline {
        let path = baseline::save(&run, name, args.force)?;
        println!("saved baseline {name:?} to {}", path.display());
    }
    let mut exit = if run.results.iter().any(|r| r.wrong > 0) {
        Exit::WrongAnswers
    } else {
        Exit::Success
    };
    if let Some(old) = old {
        if verdicts(&old, &run, args.noise)? && exit == Exit::Success {
            exit = Exit::Regressed;
        }
    }
    Ok(exit)
}

pub fn compare(args: CompareArgs) -> anyhow::Result<Exit> {
    let old = baseline::load(&args.baseline)?;
    let new = match &args.new {
        Some(name) => baseline::load(name)?,
        None => rerun(&old, args.no_progress)?,
    };
    Ok(if verdicts(&old, &new, args.noise)? {
        Exit::Regressed
    } else {
        Exit::Success
    })
}

/// Prints the comparison; true when anything regressed.
fn verdicts(old: &BenchRun, new: &BenchRun, noise: f64) -> anyhow::Result<bool> {
    let comparisons = baseline::compare(old, new, noise)?;
    println!(
        "\ncomparing with the baseline of {} ({}):",
        old.date,
        old.build
            .git_revision
            .as_deref()
            .unwrap_or("unknown revision")
    );
    print!("{}", baseline::render(&comparisons, noise));
    Ok(comparisons.iter().any(|c| c.verdict == Verdict::Regressed))
}

/// Runs the benchmark a saved run describes, again, on this build.
fn rerun(old: &BenchRun, no_progress: bool) -> anyhow::Result<BenchRun> {
    let mut backends = Vec::new();
    let mut threads = Vec::new();
    let mut datasets: Vec<PathBuf> = Vec::new();
    for r in &old.results {
        let backend = Backend::from_str(&r.backend, false)
            .map_err(|_| anyhow::anyhow!("this build has no backend {:?}", r.backend))?;
        if !backends.contains(&backend) {
            backends.push(backend);
        }
        if !threads.contains(&r.threads) {
            threads.push(r.threads);
        }
        let path = PathBuf::from(&r.dataset.path);
        if !datasets.contains(&path) {
            datasets.push(path);
        }
    }
    let s = &old.settings;
    let config = BenchConfig {
        backends,
        threads,
        limits: Limits {
            max_solutions: s.max_solutions,
            max_nodes: s.max_nodes,
            timeout: s.timeout_s.map(Duration::from_secs_f64),
            ..Limits::default()
        },
        warmup: s.warmup,
        rounds: s.rounds,
        min_time: s.min_time_s.map(Duration::from_secs_f64),
        min_round: Duration::from_millis(s.min_round_ms),
    };
    let run = measure(
        &datasets,
        None,
        &config,
        &ExportManager::default(),
        None,
        no_progress,
    )?;
    std::io::stdout()
        .lock()
        .write_all(table::render(&run).as_bytes())?;
    Ok(run)
}

fn measure(
    paths: &[PathBuf],
    format: Option<crate::format::Format>,
    config: &BenchConfig,
    exports: &ExportManager,
    per_puzzle: Option<PathBuf>,
    no_progress: bool,
) -> anyhow::Result<BenchRun> {
    let datasets = paths
        .iter()
        .map(|p| Dataset::load(p, format).with_context(|| format!("loading {}", p.display())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut rows = match per_puzzle {
        Some(path) => Some(CsvReport::new(OutputPath::from_arg(&path).create()?)?),
        None => None,
    };
    let bar = progress_bar(
        !no_progress && std::io::stderr().is_terminal(),
        config,
        datasets.len(),
    );
    let mut partial = BenchRun::new(config, Vec::new());
    let results = run_bench(
        &datasets,
        config,
        &mut |label| {
            bar.set_message(label.to_string());
            bar.inc(1);
        },
        &mut |results| {
            if let Some(csv) = &mut rows {
                for r in results {
                    csv.write(r)?;
                }
                csv.flush()?;
            }
            Ok(())
        },
        &mut |result| {
            partial.results.push(result.clone());
            exports.write_all(&partial)
        },
    )?;
    bar.finish_and_clear();
    let run = BenchRun::new(config, results);
    exports.write_all(&run)?;
    Ok(run)
}

fn progress_bar(enabled: bool, config: &BenchConfig, datasets: usize) -> ProgressBar {
    if !enabled {
        return ProgressBar::hidden();
    }
    let passes = (config.warmup + config.rounds) as u64
        * (config.backends.len() * config.threads.len() * datasets) as u64;
    let bar = match config.min_time {
        Some(_) => ProgressBar::new_spinner(),
        None => ProgressBar::new(passes),
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} passes  {msg}",
        )
        .expect("valid template"),
    );
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
    bar
}
