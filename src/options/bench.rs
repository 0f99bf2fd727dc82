//! `bench` and `compare` options: measurement settings, exports, and baselines (loaded
//! and validated here, before anything is measured).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use super::{limits, usage};
use crate::base::{bounds, push_new};
use crate::bench::baseline::{self, BaselineRef, Store};
use crate::bench::builds::{self, Builds};
use crate::bench::judge::Rules;
use crate::bench::present::export::ExportFormat;
use crate::bench::{BenchConfig, BenchRun, Kind, hash_file};
use crate::cli::{BenchArgs, CompareArgs, ExportArgs, ForeignArgs};
use crate::loader::subset::Subset;
use crate::loader::{Input, LoadOptions};
use crate::output::{self, Place, Target, TextTo};
use crate::solver::{Backend, Limits};

/// `--save-baseline`: where, checked before measuring, and where its build is kept
/// (`None`: nowhere to keep it, said).
pub struct SaveBaseline {
    pub name: String,
    pub target: Target,
    pub store: Store,
    pub builds: Option<Builds>,
}

pub struct BenchOptions {
    pub datasets: Vec<Input>,
    pub load: LoadOptions,
    pub subset: Subset,
    pub config: BenchConfig,
    pub exports: Vec<(ExportFormat, Target)>,
    pub per_puzzle: Option<Target>,
    pub save: Option<SaveBaseline>,
    pub progress: bool,
    pub html: Option<Target>,
    /// `--record` (or a saved baseline): the history file results are appended to, and
    /// what appends them (`record`, or `baseline NAME`).
    pub record: Option<(Target, String)>,
    /// Where the tables go.
    pub text: TextTo,
}

/// A baseline's benchmark, to run again.
pub struct Rerun {
    /// Each checked against the hash the baseline recorded.
    pub datasets: Vec<Input>,
    pub load: LoadOptions,
    pub subset: Subset,
    /// The benchmark on this build alone, for figures against figures.
    pub config: BenchConfig,
    /// Each backend's saved build and this one, to run side by side; or why the saved
    /// build cannot run here.
    pub pairs: Result<Vec<BuildPair>, String>,
}

/// One backend's two builds.
pub struct BuildPair {
    pub label: String,
    pub old: Backend,
    pub new: Backend,
    pub threads: Vec<usize>,
}

pub enum CompareAction {
    List(Store),
    Saved {
        old: Box<(PathBuf, BenchRun)>,
        new: Box<(PathBuf, BenchRun)>,
    },
    Rerun {
        old: Box<(PathBuf, BenchRun)>,
        rerun: Box<Rerun>,
    },
}

pub struct CompareOptions {
    pub action: CompareAction,
    pub rules: Rules,
    pub progress: bool,
    pub html: Option<Target>,
    /// `--export-*`: the verdicts, in each format.
    pub exports: Vec<(ExportFormat, Target)>,
    /// Where the tables go.
    pub text: TextTo,
}

/// What `bench` writes, each planned and taken back under its own key.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Output {
    Export(ExportFormat),
    PerPuzzle,
    SaveBaseline,
    Html,
    History,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<BenchOptions> {
    let config = config(&a)?;
    let (mut load, subset) = super::input::load_options(&config.read, a.input.verbose)?;
    let store = Store::locate(a.store.baselines_dir.as_deref())?;
    // Where `--save-baseline NAME` goes; refused before measuring, not after minutes of
    // work, when the name is bad or taken (without `--force`).
    let save_place = (a.save_baseline.as_deref())
        .map(|name| -> anyhow::Result<Place> {
            baseline::check_name(name).or_else(|e| usage("--save-baseline", e))?;
            let path = store.path_of(name);
            if path.exists() && !a.force {
                anyhow::bail!(
                    "baseline {name:?} already exists ({}); pass --force to replace it",
                    path.display()
                );
            }
            Ok(Place::Path(path))
        })
        .transpose()?;
    let place = |p: &Option<PathBuf>| p.as_deref().map(Place::from_arg);
    if a.history.is_some() && !a.record && a.save_baseline.is_none() {
        return usage(
            "--history",
            "it names where --record (or --save-baseline) appends: add --record",
        );
    }
    let recording = a.record || a.save_baseline.is_some();
    let history = recording.then(|| match &a.history {
        Some(p) => Place::from_arg(p),
        None => Place::Path(crate::bench::history::default_path(&store)),
    });
    if let Some(Place::Path(p)) = &history {
        crate::bench::history::check_appendable(p).or_else(|e| usage("--history", e))?;
    }
    use Output as O;
    let mut wanted = export_places(&a.export);
    wanted.extend([
        (O::PerPuzzle, "--per-puzzle", place(&a.per_puzzle)),
        (O::SaveBaseline, "--save-baseline", save_place),
        (O::Html, "--html", place(&a.html)),
        (O::History, "--history", history),
    ]);
    let inputs: Vec<Place> = a.datasets.iter().map(|d| Place::from_arg(d)).collect();
    let mut planned = output::plan_optional(&inputs, &wanted, false)?;
    load.written = planned.written();
    let save_target = planned.take(O::SaveBaseline);
    let record = planned
        .take(O::History)
        .map(|target| match &a.save_baseline {
            Some(name) if !a.record => (target, format!("baseline {name}")),
            _ => (target, "record".into()),
        });
    let save = save_target
        .zip(a.save_baseline)
        .map(|(target, name)| SaveBaseline {
            name,
            target,
            store,
            builds: Builds::locate(),
        });
    Ok(BenchOptions {
        datasets: a.datasets.iter().map(Input::from_arg).collect(),
        load,
        subset,
        config,
        per_puzzle: planned.take(O::PerPuzzle),
        save,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
        html: planned.take(O::Html),
        record,
        text: planned.text,
        exports: exports_of(planned),
    })
}

/// `--export-*`, which `bench` and `compare` share: each format with its option and place.
fn export_places(a: &ExportArgs) -> Vec<(Output, &'static str, Option<Place>)> {
    let place = |p: &Option<PathBuf>| p.as_deref().map(Place::from_arg);
    use ExportFormat::{Csv, Json, Markdown};
    vec![
        (Output::Export(Csv), "--export-csv", place(&a.export_csv)),
        (Output::Export(Json), "--export-json", place(&a.export_json)),
        (
            Output::Export(Markdown),
            "--export-markdown",
            place(&a.export_markdown),
        ),
    ]
}

/// The export targets planned, once every other output was taken.
fn exports_of(planned: output::Planned<Output>) -> Vec<(ExportFormat, Target)> {
    planned
        .targets
        .into_iter()
        .filter_map(|(o, t)| match o {
            Output::Export(f) => Some((f, t)),
            _ => None,
        })
        .collect()
}

/// The measurement settings, every number checked.
fn config(a: &BenchArgs) -> anyhow::Result<BenchConfig> {
    let (labels, backends): (Vec<String>, Vec<Backend>) =
        backends(&a.backends, &a.foreign)?.into_iter().unzip();
    // Builds of one solver: said by the flag, or by the labels `old` and `new`.
    let builds = a.builds || labels.iter().any(|l| l == "old") && labels.iter().any(|l| l == "new");
    if builds && backends.len() < 2 {
        return usage(
            "--builds",
            "give at least two backends: the first is the old build, the others are compared with it",
        );
    }
    // Thread counts: each 1 to 1024, no repeats, a bounded list.
    if a.threads.len() > bounds::MAX_THREAD_COUNTS {
        return usage(
            "--threads",
            format!("at most {} thread counts", bounds::MAX_THREAD_COUNTS),
        );
    }
    for (i, &n) in a.threads.iter().enumerate() {
        super::threads(n, false)?;
        if a.threads[..i].contains(&n) {
            return usage("--threads", format!("{n} is listed twice"));
        }
    }
    super::foreign::threads(&backends, &a.threads, &a.foreign)?;
    Ok(BenchConfig {
        instructions: instructions(a.instructions, &backends)?,
        backends,
        threads: a.threads.clone(),
        limits: limits(a.limits.max_solutions, a.limits.max_nodes, a.limits.timeout)?,
        warmup: bounds::within(a.warmup, 0, bounds::MAX_WARMUP)
            .or_else(|e| usage("--warmup", e))?,
        rounds: bounds::within(a.rounds.unwrap_or(DEFAULT_ROUNDS), 1, bounds::MAX_ROUNDS)
            .or_else(|e| usage("--rounds", e))?,
        min_time: match (a.min_time, a.rounds) {
            (None, None) => Some(DEFAULT_MIN_TIME),
            _ => a
                .min_time
                .map(|t| bounds::seconds(t, true, bounds::MAX_MIN_TIME_S))
                .transpose()
                .or_else(|e| usage("--min-time", e))?,
        },
        read: super::input::read_settings(&a.input),
        labels,
        rules: Rules {
            kind: if builds { Kind::Builds } else { Kind::Solvers },
            seed: a.input.seed,
            noise_pct: noise(a.noise)?,
            trust_times: a.trust_reported_times,
        },
        verify: super::foreign::verify(&a.foreign),
        symmetry: a.symmetry == "on",
    })
}

pub(super) fn compare(a: CompareArgs) -> anyhow::Result<CompareOptions> {
    let rules = Rules {
        kind: Kind::Builds,
        noise_pct: noise(a.noise)?,
        seed: 1,
        trust_times: a.trust_reported_times,
    };
    let store = Store::locate(a.store.baselines_dir.as_deref())?;
    let load = |name: &str, option: &str| -> anyhow::Result<(PathBuf, BenchRun)> {
        let what = BaselineRef::parse(name).or_else(|e| usage(option, e))?;
        baseline::load(&store, &what)
    };
    let given: Vec<Backend> = (backends(&a.backends, &a.foreign)?.into_iter())
        .map(|(_, b)| b)
        .collect();
    let action = match (&a.baseline, &a.new) {
        _ if a.list => CompareAction::List(store.clone()),
        (Some(old), Some(new)) => CompareAction::Saved {
            old: Box::new(load(old, "BASELINE")?),
            new: Box::new(load(new, "NEW")?),
        },
        (Some(old), None) => {
            let old = load(old, "BASELINE")?;
            let rerun = Box::new(rerun(&old.1, &store, &given, &rules)?);
            CompareAction::Rerun {
                old: Box::new(old),
                rerun,
            }
        }
        (None, _) => return usage("BASELINE", "name a baseline, or pass --list"),
    };
    // The files compare reads, which no output may replace.
    let read: Vec<PathBuf> = match &action {
        CompareAction::List(_) => Vec::new(),
        CompareAction::Saved { old, new } => vec![old.0.clone(), new.0.clone()],
        CompareAction::Rerun { old, rerun } => {
            let files = rerun.datasets.iter().filter_map(|d| match d {
                Input::File(p) => Some(p.clone()),
                _ => None,
            });
            std::iter::once(old.0.clone()).chain(files).collect()
        }
    };
    let inputs: Vec<Place> = read.into_iter().map(Place::Path).collect();
    let mut wanted = export_places(&a.export);
    let html = a.html.as_deref().map(Place::from_arg);
    wanted.push((Output::Html, "--html", html));
    let mut planned = output::plan_optional(&inputs, &wanted, false)?;
    Ok(CompareOptions {
        action,
        rules,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
        html: planned.take(Output::Html),
        text: planned.text,
        exports: exports_of(planned),
    })
}

/// The benchmark a saved run describes, checked before anything runs: datasets that
/// are files (their content checked here), read with the recorded input options; the
/// built-in backends, and the foreign ones only as the command line names them now
/// (`given`: a baseline file never makes this program run a program or load a library
/// it names). With each backend's saved build where the build store has it.
fn rerun(old: &BenchRun, store: &Store, given: &[Backend], rules: &Rules) -> anyhow::Result<Rerun> {
    let mut backends: Vec<Backend> = Vec::new();
    let mut threads = Vec::new();
    let mut datasets: Vec<Input> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for r in &old.results {
        let spec = r.spec.as_deref().unwrap_or(&r.backend);
        let built_in = Backend::built_in().find(|b| b.name() == spec);
        let backend = match built_in.or_else(|| given.iter().find(|g| g.name() == spec).cloned()) {
            Some(b) => b,
            None => anyhow::bail!(
                "the baseline's {:?} is {spec:?}, which compare runs only as the command line names it (never from a file): compare ... --backends {spec:?}",
                r.backend
            ),
        };
        if !labels.contains(&r.backend) {
            labels.push(r.backend.clone());
            backends.push(backend);
        }
        push_new(&mut threads, r.threads);
        let input = Input::File(dataset_path(&r.dataset.path, &r.dataset.hash, store)?);
        push_new(&mut datasets, input);
    }
    let s = &old.settings;
    let (load, subset) = super::input::load_options(&s.input, false)?;
    let config = BenchConfig {
        instructions: instructions(s.instructions, &backends)?,
        labels: labels.clone(),
        backends: backends.clone(),
        threads,
        // Checked as the saved run was: the same numbers.
        limits: limits(s.max_solutions, s.max_nodes, s.timeout_s)?,
        // At least what a verdict needs by default, whatever the baseline took.
        warmup: s.warmup.max(1),
        rounds: s.rounds.max(DEFAULT_ROUNDS),
        min_time: Some(s.min_time_s.map_or(DEFAULT_MIN_TIME, |t| {
            Duration::from_secs_f64(t).max(DEFAULT_MIN_TIME)
        })),
        read: s.input.clone(),
        rules: Rules {
            seed: s.input.seed,
            ..*rules
        },
        verify: Default::default(),
        symmetry: s.symmetry,
    };
    let pairs = pairs(old, &labels, &backends, &config.limits);
    Ok(Rerun {
        datasets,
        load,
        subset,
        config,
        pairs,
    })
}

/// Each backend's saved build and this one, or why they cannot be run side by side.
fn pairs(
    old: &BenchRun,
    labels: &[String],
    backends: &[Backend],
    limits: &Limits,
) -> Result<Vec<BuildPair>, String> {
    let store = Builds::locate().ok_or("no build store (set SUDOKU_BENCH_BUILDS or HOME)")?;
    let new_exe = store
        .keep_exe()
        .map_err(|e| format!("this build cannot be kept: {e:#}"))?;
    let mut pairs = Vec::new();
    for (label, backend) in labels.iter().zip(backends) {
        let results: Vec<_> = old.results.iter().filter(|r| r.backend == *label).collect();
        let (old_build, new_build) = match backend.is_foreign() {
            true => (
                builds::old_of(&store, backend, results[0])?,
                backend.clone(),
            ),
            false => {
                let exe = old.build.exe.as_deref().unwrap_or_default();
                let worker = |exe| store.worker(exe, backend.name(), limits);
                let old = worker(exe).ok_or_else(|| {
                    format!(
                        "the baseline's build (executable {}) is not in the build store {}: it was saved on another machine, or before builds were kept",
                        old.build.exe_short(),
                        store.dir.display()
                    )
                })?;
                (old, worker(&new_exe).ok_or("this build's copy vanished")?)
            }
        };
        pairs.push(BuildPair {
            label: label.clone(),
            old: old_build,
            new: new_build,
            threads: results.iter().map(|r| r.threads).collect(),
        });
    }
    Ok(pairs)
}

/// Where a baseline's dataset is now: as written (relative to the working directory),
/// or relative to the project its baselines folder belongs to. Only a regular file,
/// whose content is checked here, streamed, before anything is loaded: a planted
/// baseline naming a folder (`/usr/bin`) had it all read into memory first.
fn dataset_path(path: &str, hash: &str, store: &Store) -> anyhow::Result<PathBuf> {
    if path == "-" {
        anyhow::bail!(
            "the baseline measured standard input, which cannot be read again: give the new run's file as NEW"
        );
    }
    let given = PathBuf::from(path);
    let found = match store.project_root() {
        Some(root) if !given.exists() && given.is_relative() && root.join(&given).exists() => {
            root.join(given)
        }
        _ => given,
    };
    let meta = std::fs::metadata(&found)
        .map_err(|e| anyhow::anyhow!("the baseline's dataset {path}: {e}"))?;
    if !meta.is_file() {
        anyhow::bail!(
            "the baseline's dataset {path} is not a regular file; compare re-runs a file only (give the new run as NEW)"
        );
    }
    let now =
        hash_file(&found).map_err(|e| anyhow::anyhow!("the baseline's dataset {path}: {e:#}"))?;
    if now != hash {
        anyhow::bail!(
            "dataset {} changed since the baseline ({hash} vs {now}): the runs are not comparable",
            found.display()
        );
    }
    Ok(found)
}

const DEFAULT_ROUNDS: u32 = 5;
/// Rounds are cheap and each adds pairs: by default they go on this long per dataset
/// and thread count. Measured (results/ab-study): 5 rounds gave intervals of about ±2%
/// on a busy 2-vCPU VM, too wide to tell 3% from noise reliably.
const DEFAULT_MIN_TIME: Duration = Duration::from_secs(3);

fn noise(value: f64) -> anyhow::Result<f64> {
    bounds::finite(value, 0.0, bounds::MAX_NOISE_PCT).or_else(|e| usage("--noise", e))
}

/// `--instructions N`: a sample size, valgrind present, every backend countable.
fn instructions(n: Option<u64>, backends: &[Backend]) -> anyhow::Result<Option<u64>> {
    use crate::bench::instructions::{MAX_PUZZLES, uncountable, valgrind_version};
    let Some(n) = n else { return Ok(None) };
    if n == 0 || n > MAX_PUZZLES {
        return usage(
            "--instructions",
            format!("{n}: give 1 to {MAX_PUZZLES} puzzles"),
        );
    }
    if let Err(why) = valgrind_version() {
        anyhow::bail!("--instructions needs valgrind: {why}");
    }
    if let Some((b, why)) = backends.iter().find_map(|b| Some((b, uncountable(b)?))) {
        return usage("--instructions", format!("{b} cannot be counted: {why}"));
    }
    Ok(Some(n))
}

/// `--backends`: comma-separated and repeatable, each `SPEC` or `LABEL=SPEC`; empty means
/// `Backend::bench_default`. Labels (or names) must differ. Foreign ones are prepared
/// once every one is parsed.
fn backends(args: &[String], foreign: &ForeignArgs) -> anyhow::Result<Vec<(String, Backend)>> {
    if args.is_empty() {
        let default = Backend::bench_default().map(|b| (b.name().to_string(), b));
        return Ok(default.collect());
    }
    let mut out: Vec<(String, Backend)> = Vec::new();
    for arg in args {
        for spec in split_backends(arg) {
            let (label, spec) = label_of(spec).map_or((None, spec), |(l, rest)| (Some(l), rest));
            let backend = super::backend("--backends", spec)?;
            // A label that names a built-in backend would make saved runs lie: a
            // re-run (`compare`) would measure the built-in one under that name.
            if let Some(l) = label.filter(|l| Backend::is_built_in_name(l)) {
                return usage(
                    "--backends",
                    format!(
                        "{l}={spec}: {l} is the name of a built-in backend; give this one another label"
                    ),
                );
            }
            let label = label.map_or_else(|| backend.name().to_string(), str::to_string);
            if out.iter().any(|(l, _)| *l == label) {
                return usage(
                    "--backends",
                    format!("{label} is listed twice (give each a label: a=SPEC,b=SPEC)"),
                );
            }
            out.push((label, backend));
        }
    }
    if out.is_empty() {
        return usage(
            "--backends",
            "names no backend (leave it out for the default list)",
        );
    }
    (out.into_iter())
        .map(|(label, b)| Ok((label, super::foreign::prepare("--backends", b, foreign)?)))
        .collect()
}

/// `LABEL=SPEC`: a label of letters, digits, `-`, `_` and `.` before the first `=`, and
/// before any `:` (so `exec:env A=1 prog` keeps its `=`).
fn label_of(spec: &str) -> Option<(&str, &str)> {
    let (label, rest) = spec.split_once('=')?;
    let plain = !label.is_empty()
        && label.len() <= 64
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    plain.then_some((label, rest))
}

/// Splits a list at each comma that is followed by a backend name (or `exec:`/`lib:`),
/// so that a backend's own parameters may hold commas.
pub(crate) fn split_backends(list: &str) -> Vec<&str> {
    let starts_backend = |rest: &str| {
        // A label first: `old=lib:...`.
        let rest = label_of(rest).map_or(rest, |(_, spec)| spec);
        rest.starts_with("exec:")
            || rest.starts_with("lib:")
            || Backend::built_in().any(|b| {
                rest.strip_prefix(b.name())
                    .is_some_and(|after| after.is_empty() || after.starts_with(','))
            })
    };
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, _) in list.match_indices(',') {
        if starts_backend(&list[i + 1..]) {
            parts.push(&list[start..i]);
            start = i + 1;
        }
    }
    parts.push(&list[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}
