//! A benchmark run as saved (baselines, the JSON export), and its validation: a saved run
//! is read back from a file anyone may have written, so every field is checked.

use serde::{Deserialize, Serialize};

use super::BenchConfig;
use super::dataset::DatasetInfo;
use crate::base::bounds;
use crate::bench::machine::{Build, Machine};
use crate::report::tally::Decided;

/// Version of the saved-run layout; bumped when fields change meaning (2: each result's
/// rounds on its own clock, outcomes per puzzle, builds kept).
pub const FORMAT_VERSION: u32 = 2;

/// A whole benchmark run, as saved and exported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRun {
    pub format_version: u32,
    pub date: String,
    pub build: Build,
    pub machine: Machine,
    pub settings: BenchSettings,
    pub results: Vec<BenchResult>,
    /// An interrupt stopped the run: some results are missing.
    #[serde(default)]
    pub partial: bool,
    /// The verdicts of the run, as it printed them (written, never read back: a verdict
    /// is made from measurements, not from a file).
    #[serde(default, skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub versus: Vec<super::Versus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchSettings {
    /// `--instructions N`: instructions counted on the first N puzzles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    pub max_solutions: u32,
    pub max_nodes: u64,
    /// Per-puzzle time limit, seconds.
    #[serde(default)]
    pub timeout_s: Option<f64>,
    pub warmup: u32,
    pub rounds: u32,
    pub min_time_s: Option<f64>,
    /// How the datasets were read, so a re-run reads them the same way.
    #[serde(default)]
    pub input: ReadSettings,
    /// Each round's puzzles presented under a fresh symmetry (`--symmetry`).
    #[serde(default)]
    pub symmetry: bool,
}

named! {
    /// The clock of a result's blocks and rounds (see `bench::engine`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Timing {
        /// The measuring thread's CPU time: one thread, built-in backends.
        #[default]
        Cpu => "cpu",
        /// Wall time: several threads.
        Wall => "wall",
        /// The sum of the calls' own times over the threads: a foreign backend in the run,
        /// timed around its work alone, and every other backend so too.
        Calls => "calls",
    }
}

impl Timing {
    /// Why this clock, for a person.
    pub fn reason(self) -> &'static str {
        match self {
            Timing::Cpu => {
                "one thread, built-in backends: its CPU time covers their work and does not count time spent waiting for a core"
            }
            Timing::Wall => "several threads: wall time (CPU time would add the threads up)",
            Timing::Calls => {
                "a foreign backend: its work may run outside this thread's CPU clock, so every backend is timed by its calls' own times (a library's call alone, a program's own report)"
            }
        }
    }
}

/// The input options of a run (`--format`, `--blanks`, columns, folders, subsets).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadSettings {
    pub format: Option<String>,
    pub blanks: Option<String>,
    /// `--alphabet`; left out when not given, as in runs saved before it existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alphabet: Option<String>,
    pub puzzle_column: Option<String>,
    pub solution_column: Option<String>,
    /// `--solutions-follow` when not `auto`.
    pub solutions_follow: Option<String>,
    pub globs: Vec<String>,
    pub max_depth: Option<usize>,
    pub skip: u64,
    pub limit: Option<u64>,
    pub sample: Option<u64>,
    pub seed: u64,
}

/// One backend on one dataset at one thread count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    /// Its label (`--backends LABEL=SPEC`), or the backend's name.
    pub backend: String,
    /// What the label stands for, when it is not the backend's name itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    pub dataset: DatasetInfo,
    pub threads: usize,
    /// The clock of `rounds_ns`.
    pub timing: Timing,
    /// The time of each measured round (every puzzle once), nanoseconds.
    pub rounds_ns: Vec<u64>,
    /// How many cores other programs kept busy on average while it was measured
    /// (Linux, `/proc/stat`); `None` where that could not be told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Headline: median round time / puzzles, µs.
    pub us_per_puzzle: f64,
    /// Puzzles / median round time.
    pub puzzles_per_s: f64,
    /// Relative standard deviation of the round times, percent.
    pub spread_pct: f64,
    /// Rounds whose time is an outlier by the median absolute deviation.
    pub round_outliers: usize,
    /// Per-call times over all measured rounds.
    pub per_call: PerCall,
    /// Puzzles answered wrong (or failed) in any round (must be 0).
    pub wrong: u64,
    /// Wrong answers over every round.
    pub wrong_answers: u64,
    /// Puzzles given up on (the node budget or the time limit) in any round.
    pub budget_exceeded: u64,
    /// Boards of a size the backend does not solve.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unsupported: u64,
    /// Puzzles solved without a single guess, percent.
    pub no_guess_pct: f64,
    pub nodes_per_puzzle: f64,
    pub guesses_per_puzzle: f64,
    /// Exact work of one round: equal totals mean the same search.
    pub nodes_total: u64,
    pub guesses_total: u64,
    /// Cumulative distribution of per-call times: (µs, fraction of puzzles at or below).
    pub cdf: Vec<(f64, f64)>,
    /// How a foreign backend was timed, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreign: Option<ForeignNotes>,
    /// Which work counters the backend reports (the others read "n/a").
    #[serde(default)]
    pub counters: crate::solver::Counters,
    /// Its claims checked by a verifier, when they were (every round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<Verified>,
    /// `--instructions`: counted by valgrind on a sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<super::Instructions>,
    /// The content hash of the foreign library or program file measured (lib:, exec:); None for built-in backends, whose code is the executable's (`Build::exe`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The files a foreign backend's spec names, kept with a saved baseline (`compare`
    /// runs them again).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<Kept>,
}

/// A file a foreign backend's spec names, copied into the build store when a baseline
/// is saved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// The word of the spec it stands for (0: the library, or the program).
    pub word: usize,
    /// As the spec gave it.
    pub path: String,
    /// Its content hash (`fnv1a64:...`), which names its copy.
    pub hash: String,
}

/// How a foreign backend was measured. (Runs saved before had `round_trip_ns` and
/// `second_calls` here, which the notes now say; they are read and ignored.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignNotes {
    /// How its calls were timed, a line per clock, and its second calls for solutions.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Claims verified over every measured pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verified {
    /// The verifying backends.
    pub by: String,
    /// Saved beside `by`: `confirmed`, `refuted`, `undecided`.
    #[serde(flatten)]
    pub decided: Decided,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerCall {
    pub mean_us: f64,
    pub median_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    pub mad_us: f64,
    /// Calls more than 3.5 MADs from the median (counted over all passes).
    pub outliers: u64,
    /// Calls made over all measured passes (0 in runs saved before it was recorded).
    #[serde(default)]
    pub calls: u64,
}

/// Longest list of rounds accepted from a file.
const MAX_SAVED_ROUNDS: usize = 1_000_000;

impl BenchRun {
    /// A run of this build with no results yet (`build`: `Build::current()`, hashed once
    /// per command).
    pub fn new(config: &BenchConfig, build: &Build) -> BenchRun {
        BenchRun {
            format_version: FORMAT_VERSION,
            date: crate::bench::machine::now_utc(0),
            build: build.clone(),
            machine: Machine::current(),
            settings: BenchSettings {
                instructions: config.instructions,
                max_solutions: config.limits.max_solutions,
                max_nodes: config.limits.max_nodes,
                timeout_s: config.limits.timeout.map(|t| t.as_secs_f64()),
                warmup: config.warmup,
                rounds: config.rounds,
                min_time_s: config.min_time.map(|d| d.as_secs_f64()),
                input: config.read.clone(),
                symmetry: config.symmetry,
            },
            results: Vec::new(),
            partial: false,
            versus: Vec::new(),
        }
    }

    /// Throughput at `threads` relative to `threads` times the single-thread throughput
    /// of the same backend and dataset, when the run has both.
    pub fn efficiency(&self, r: &BenchResult) -> Option<f64> {
        let one = self.results.iter().find(|o| {
            o.threads == 1 && o.backend == r.backend && o.dataset.hash == r.dataset.hash
        })?;
        (one.puzzles_per_s > 0.0).then(|| r.puzzles_per_s / (r.threads as f64 * one.puzzles_per_s))
    }

    /// Checks that every field makes sense; the message names the first one that does not.
    pub fn validate(&self) -> Result<(), String> {
        if self.format_version != FORMAT_VERSION {
            return Err(format!(
                "format version {}, this build reads {FORMAT_VERSION} (its times are on other clocks): save the baseline again with this build",
                self.format_version
            ));
        }
        let revision = self.build.git_revision.as_deref();
        for (name, value) in [
            ("date", self.date.as_str()),
            ("build.version", self.build.version.as_str()),
            ("build.rustc", self.build.rustc.as_str()),
            ("machine.cpu", self.machine.cpu.as_str()),
            ("machine.os", self.machine.os.as_str()),
            ("build.git_revision", revision.unwrap_or_default()),
        ] {
            bounds::text(value).map_err(field(name))?;
        }
        self.settings
            .validate()
            .map_err(|e| format!("settings: {e}"))?;
        if self.results.is_empty() {
            return Err("no results".into());
        }
        let mut seen = std::collections::HashSet::new();
        for (i, r) in self.results.iter().enumerate() {
            r.validate().map_err(|e| format!("result {}: {e}", i + 1))?;
            // Two results for one combination: which would be compared?
            if !seen.insert((&r.backend, &r.dataset.path, &r.dataset.hash, r.threads)) {
                return Err(format!(
                    "result {}: a second result for {} on {} -j{}",
                    i + 1,
                    r.backend,
                    r.dataset.path,
                    r.threads
                ));
            }
        }
        Ok(())
    }
}

impl BenchSettings {
    fn validate(&self) -> Result<(), String> {
        bounds::within(self.max_solutions, 1, bounds::MAX_SOLUTIONS)
            .map_err(field("max_solutions"))?;
        bounds::within(self.max_nodes, 1, u64::MAX).map_err(field("max_nodes"))?;
        if let Some(t) = self.timeout_s {
            bounds::seconds(t, false, bounds::MAX_TIMEOUT_S).map_err(field("timeout_s"))?;
        }
        if let Some(t) = self.min_time_s {
            bounds::seconds(t, true, bounds::MAX_MIN_TIME_S).map_err(field("min_time_s"))?;
        }
        bounds::within(self.warmup, 0, bounds::MAX_WARMUP).map_err(field("warmup"))?;
        bounds::within(self.rounds, 1, bounds::MAX_ROUNDS).map_err(field("rounds"))?;
        let i = &self.input;
        for (name, v) in [
            ("input.format", &i.format),
            ("input.blanks", &i.blanks),
            ("input.puzzle_column", &i.puzzle_column),
            ("input.solution_column", &i.solution_column),
            ("input.solutions_follow", &i.solutions_follow),
        ] {
            bounds::text(v.as_deref().unwrap_or_default()).map_err(field(name))?;
        }
        if let Some(v) = &i.solutions_follow
            && !matches!(v.as_str(), "yes" | "no")
        {
            return Err(format!("input.solutions_follow: {v:?} is not yes or no"));
        }
        if i.globs.len() > 64 {
            return Err("input.globs: more than 64 patterns".into());
        }
        for g in &i.globs {
            bounds::text(g).map_err(field("input.globs"))?;
        }
        if let Some(n) = i.sample {
            bounds::within(n, 1, bounds::MAX_SAMPLE).map_err(field("input.sample"))?;
        }
        Ok(())
    }
}

impl BenchResult {
    /// Puzzles the backend solved in a pass: the dataset's, less the boards of a size
    /// it does not solve.
    pub fn timed_puzzles(&self) -> u64 {
        self.dataset.puzzles.saturating_sub(self.unsupported)
    }

    /// Per-puzzle time of each round, µs.
    pub fn round_us_per_puzzle(&self) -> Vec<f64> {
        let n = self.timed_puzzles().max(1) as f64;
        self.rounds_ns
            .iter()
            .map(|&ns| ns as f64 / 1000.0 / n)
            .collect()
    }

    fn validate(&self) -> Result<(), String> {
        bounds::text(&self.backend).map_err(field("backend"))?;
        if let Some(spec) = &self.spec {
            bounds::text(spec).map_err(field("spec"))?;
            // The command line refuses such a label: a file that has one lies.
            if crate::solver::Backend::is_built_in_name(&self.backend) {
                return Err(format!(
                    "backend: {:?} is a built-in backend's name, but it stands for {spec:?}",
                    self.backend
                ));
            }
        }
        if self.backend.is_empty() {
            return Err("backend: empty".into());
        }
        bounds::text(&self.dataset.path).map_err(field("dataset.path"))?;
        bounds::text(&self.dataset.hash).map_err(field("dataset.hash"))?;
        if self.dataset.puzzles > self.dataset.records {
            return Err("dataset: more puzzles than records".into());
        }
        bounds::threads(self.threads, false).map_err(field("threads"))?;
        if self.rounds_ns.is_empty() {
            return Err("no rounds: nothing was measured".into());
        }
        if self.rounds_ns.len() > MAX_SAVED_ROUNDS {
            return Err(format!("more than {MAX_SAVED_ROUNDS} rounds"));
        }
        if self.rounds_ns.contains(&0) {
            return Err("a round of 0 ns".into());
        }
        if let Some(load) = self.load {
            bounds::finite(load, 0.0, bounds::MAX_THREADS as f64).map_err(field("load"))?;
        }
        // The counts of instructions, wrong answers, claims and boards: none more than
        // the calls made.
        if let Some(i) = &self.instructions {
            let consistent = i.puzzles >= 1
                && i.puzzles <= self.dataset.puzzles
                && i.total > 0
                && (i.per_puzzle - i.total as f64 / i.puzzles as f64).abs()
                    <= 1e-6 * i.per_puzzle.abs().max(1.0);
            if !consistent {
                return Err(format!(
                    "instructions: {} per puzzle is not {} over {} puzzles (of {})",
                    i.per_puzzle, i.total, i.puzzles, self.dataset.puzzles
                ));
            }
        }
        let calls = self
            .dataset
            .puzzles
            .saturating_mul(self.rounds_ns.len() as u64);
        if self.wrong > self.dataset.puzzles || self.wrong_answers > calls {
            return Err(format!(
                "wrong: {} puzzles, {} answers is more than were given",
                self.wrong, self.wrong_answers
            ));
        }
        for (name, hash) in self
            .kept
            .iter()
            .map(|k| ("kept.hash", &k.hash))
            .chain(self.code.iter().map(|c| ("code", c)))
        {
            // A hash names a file in the build store: nothing else may stand there.
            if !is_hash(hash) {
                return Err(format!("{name}: {hash:?} is not a content hash"));
            }
        }
        for k in &self.kept {
            bounds::text(&k.path).map_err(field("kept.path"))?;
        }
        if let Some(f) = &self.foreign {
            if f.notes.len() > 16 {
                return Err("foreign.notes: more than 16 lines".into());
            }
            for n in &f.notes {
                bounds::text(n).map_err(field("foreign.notes"))?;
            }
        }
        if let Some(Verified { by, decided: v }) = &self.verified {
            bounds::text(by).map_err(field("verified.by"))?;
            let claims = v
                .confirmed
                .saturating_add(v.refuted)
                .saturating_add(v.undecided);
            if claims > calls {
                return Err(format!(
                    "verified: {claims} claims is more than the {calls} calls made"
                ));
            }
            if v.refuted > self.wrong_answers {
                return Err(format!(
                    "verified: {} refuted claims, but {} wrong answers",
                    v.refuted, self.wrong
                ));
            }
        }
        if self.unsupported > self.dataset.puzzles {
            return Err(format!(
                "unsupported: {} boards is more than the dataset's {}",
                self.unsupported, self.dataset.puzzles
            ));
        }
        // The headline is the median round: a file that says otherwise was edited; the
        // other figures and the distribution are finite.
        let median = crate::bench::stats::median(&self.round_us_per_puzzle());
        if (self.us_per_puzzle - median).abs() > 1e-6 * median.max(1e-9) {
            return Err(format!(
                "us_per_puzzle {} is not the median of rounds_ns ({median})",
                self.us_per_puzzle
            ));
        }
        let c = &self.per_call;
        let numbers = [
            ("us_per_puzzle", self.us_per_puzzle),
            ("puzzles_per_s", self.puzzles_per_s),
            ("spread_pct", self.spread_pct),
            ("no_guess_pct", self.no_guess_pct),
            ("nodes_per_puzzle", self.nodes_per_puzzle),
            ("guesses_per_puzzle", self.guesses_per_puzzle),
            ("per_call.mean_us", c.mean_us),
            ("per_call.median_us", c.median_us),
            ("per_call.p90_us", c.p90_us),
            ("per_call.p99_us", c.p99_us),
            ("per_call.max_us", c.max_us),
            ("per_call.mad_us", c.mad_us),
        ];
        for (name, value) in numbers {
            bounds::finite(value, 0.0, f64::MAX).map_err(field(name))?;
        }
        if self
            .cdf
            .iter()
            .any(|&(x, q)| !(x.is_finite() && x >= 0.0 && (0.0..=1.0).contains(&q)))
        {
            return Err("cdf: a point out of range".into());
        }
        Ok(())
    }
}

/// `fnv1a64:` and 16 lowercase hex digits.
pub fn is_hash(s: &str) -> bool {
    s.strip_prefix("fnv1a64:")
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// A message about the field `name`.
fn field(name: &str) -> impl Fn(String) -> String + '_ {
    move |e| format!("{name}: {e}")
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
