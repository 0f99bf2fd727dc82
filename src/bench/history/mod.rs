//! `results/history.jsonl`: one line per benchmark result, appended by `bench --record`
//! and by every saved baseline, read back by `sudoku-bench history` as series with change
//! points ([`change_points`]). Read as untrusted input: a line that is not an entry is
//! reported with its number and skipped, and the file is read up to a size limit.

pub mod change_points;

use std::collections::HashMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::bench::{BenchResult, BenchRun};

/// Where the history lives inside a project (beside `results/baselines`).
pub const RELATIVE: &str = "results/history.jsonl";
/// Largest history read; older lines beyond it are not read (the newest are kept).
const MAX_FILE: u64 = 256 << 20;
/// Longest line read.
const MAX_LINE: usize = 64 << 10;
pub const FORMAT_VERSION: u32 = 1;

/// One result of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub format_version: u32,
    pub date: String,
    pub version: String,
    /// This tool's git revision, `-dirty` when its tree had changes.
    pub revision: Option<String>,
    /// The content hash of the code measured: this tool's executable (`Build::exe`) for
    /// a built-in backend, the library or program file for a foreign one. Runs of one
    /// code are of one build; `None` in entries written before it was recorded, which
    /// are never taken for one build.
    #[serde(default)]
    pub code: Option<String>,
    /// `record`, or `baseline NAME`.
    pub source: String,
    pub machine: String,
    pub backend: String,
    pub dataset: String,
    pub dataset_hash: String,
    pub puzzles: u64,
    pub threads: usize,
    pub rounds: u32,
    pub max_solutions: u32,
    /// The headline: median over rounds of µs per puzzle.
    pub us_per_puzzle: f64,
    pub puzzles_per_s: f64,
    pub spread_pct: f64,
    pub wrong: u64,
    pub nodes_per_puzzle: Option<f64>,
    pub guesses_per_puzzle: Option<f64>,
    #[serde(default)]
    pub instructions_per_puzzle: Option<f64>,
    /// The run was interrupted (its other results are missing).
    #[serde(default)]
    pub partial: bool,
    /// How the headline was measured: `pass` or `calls` (see `bench::Timing`), with
    /// `+symmetry` when each pass presented its puzzles in a fresh form. Runs measured
    /// another way are another series.
    #[serde(default = "pass")]
    pub method: String,
}

/// The method of entries written before it was recorded.
fn pass() -> String {
    "pass".into()
}

impl Entry {
    pub fn of(run: &BenchRun, r: &BenchResult, source: &str) -> Entry {
        Entry {
            format_version: FORMAT_VERSION,
            date: run.date.clone(),
            version: run.build.version.clone(),
            revision: run.build.git_revision.clone(),
            code: match r.foreign {
                Some(_) => r.code.clone(),
                None => run.build.exe.clone(),
            },
            source: source.to_string(),
            machine: format!("{} x{}", run.machine.cpu, run.machine.cores),
            backend: r.backend.clone(),
            dataset: r.dataset.path.clone(),
            dataset_hash: r.dataset.hash.clone(),
            puzzles: r.dataset.puzzles,
            threads: r.threads,
            rounds: run.settings.rounds,
            max_solutions: run.settings.max_solutions,
            us_per_puzzle: r.us_per_puzzle,
            puzzles_per_s: r.puzzles_per_s,
            spread_pct: r.spread_pct,
            wrong: r.wrong,
            nodes_per_puzzle: r.counters.nodes.then_some(r.nodes_per_puzzle),
            guesses_per_puzzle: r.counters.guesses.then_some(r.guesses_per_puzzle),
            instructions_per_puzzle: r.instructions.as_ref().map(|i| i.per_puzzle),
            partial: run.partial,
            method: match run.settings.symmetry {
                true => format!("{}+symmetry", r.timing.name()),
                false => r.timing.name().into(),
            },
        }
    }

    /// What makes two entries points of one series: backend, dataset hash, threads,
    /// machine and method.
    pub fn series_key(&self) -> (&str, &str, usize, &str, &str) {
        let (backend, hash) = (&self.backend, &self.dataset_hash);
        (backend, hash, self.threads, &self.machine, &self.method)
    }

    fn check(&self) -> Result<(), String> {
        if self.format_version != FORMAT_VERSION {
            return Err(format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                self.format_version
            ));
        }
        let us = self.us_per_puzzle;
        // A nanosecond to a day a puzzle: anything outside is not a measurement.
        if !(1e-3..=8.64e10).contains(&us) {
            let why = match us.is_finite() && us > 0.0 {
                true => "is out of range",
                false => "is not a positive number",
            };
            return Err(format!("us_per_puzzle {us} {why}"));
        }
        if !looks_like_a_date(&self.date) {
            return Err(format!("date {:?} is not an RFC 3339 UTC time", self.date));
        }
        // A date past tomorrow would be the latest point of its series for years and
        // hide the real trend. The shape is fixed, so the first 19 bytes compare as text.
        let tomorrow = crate::bench::machine::now_utc(86_400);
        if self.date[..19] > tomorrow[..19] {
            return Err(format!("date {:?} is in the future", self.date));
        }
        if self.threads == 0 || self.threads > crate::base::bounds::MAX_THREADS {
            return Err(format!("threads {} out of range", self.threads));
        }
        let text = [
            &self.backend,
            &self.dataset,
            &self.dataset_hash,
            &self.machine,
            &self.date,
            &self.method,
            self.revision.as_deref().unwrap_or(""),
            self.code.as_deref().unwrap_or(""),
        ];
        if text.iter().any(|t| t.len() > 4096) {
            return Err("a field is longer than 4096 bytes".into());
        }
        Ok(())
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` with fields in range: the dates this tool writes, which
/// sort as text.
fn looks_like_a_date(d: &str) -> bool {
    let b = d.as_bytes();
    // Digits (`0`) and separators where the shape has them: every field but the fraction.
    let shape = (b"0000-00-00T00:00:00".iter().zip(b))
        .all(|(&s, &c)| c == s || (s == b'0' && c.is_ascii_digit()));
    let number = |r: std::ops::Range<usize>| d[r].parse().unwrap_or(u32::MAX);
    // Digits, a number a u32 holds.
    let fraction = |f: &str| f.bytes().all(|c| c.is_ascii_digit()) && f.parse::<u32>().is_ok();
    shape
        && b.len() >= 20
        && b.ends_with(b"Z")
        && (1..=12).contains(&number(5..7))
        && (1..=31).contains(&number(8..10))
        && number(11..13) < 24
        && number(14..16) < 60
        && number(17..19) < 61
        && (b.len() == 20 || (b[19] == b'.' && fraction(&d[20..b.len() - 1])))
}

/// Whether appending to `path` could only add to a history (a missing or empty file, or
/// one whose first line is an entry), not spoil a baseline, a dataset or an export.
pub fn check_appendable(path: &Path) -> Result<(), String> {
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(()); // Missing: created. Unreadable: the append itself will say.
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(()); // A device or pipe: written as it is (planned with the outputs).
    }
    let mut first = Vec::new();
    if read_line(&mut std::io::BufReader::new(file), &mut first).is_err() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&first);
    if text.trim().is_empty() || serde_json::from_str::<Entry>(text.trim()).is_ok() {
        return Ok(());
    }
    Err(format!(
        "{} is not a history file (its first line is not a history entry): appending would spoil it",
        path.display()
    ))
}

/// The entries of `run` as JSON lines.
pub fn lines(run: &BenchRun, source: &str) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    // A backend that solved none of a dataset's boards (all of a size it does not
    // solve) has no time to record.
    for r in run.results.iter().filter(|r| r.timed_puzzles() > 0) {
        serde_json::to_writer(&mut out, &Entry::of(run, r, source))?;
        out.push(b'\n');
    }
    Ok(out)
}

/// The history file of the project around the working directory: beside the baselines
/// folder `store` found (its grandparent's `results/`).
pub fn default_path(store: &crate::bench::baseline::Store) -> PathBuf {
    (store.dir.parent()).map_or_else(|| PathBuf::from(RELATIVE), |r| r.join("history.jsonl"))
}

/// What was read: the entries in file order, and a note for every line skipped.
#[derive(Debug, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub skipped: Vec<String>,
    /// Bytes at the start of a file over the size limit that were not read.
    pub unread_bytes: u64,
}

/// Reads the history at `path`, up to the line where `stop` (the interrupt flag) is set;
/// a missing file is an error that says how to make one.
pub fn load(path: &Path, stop: &AtomicBool) -> anyhow::Result<Loaded> {
    let no_history = || {
        format!(
            "{}: no history yet (bench --record or --save-baseline appends to it)",
            path.display()
        )
    };
    // Looked at before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).with_context(no_history)?;
    if !meta.is_file() {
        anyhow::bail!("{}: not a regular file", path.display());
    }
    let mut file = std::fs::File::open(path).with_context(no_history)?;
    let mut out = Loaded::default();
    let cut = meta.len() > MAX_FILE;
    // Past the limit, keep the newest: start at a line boundary near the end (its number
    // unknown).
    out.unread_bytes = meta.len().saturating_sub(MAX_FILE);
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(out.unread_bytes))?;
    let mut reader = std::io::BufReader::new(file.take(MAX_FILE));
    let mut buf = Vec::new();
    let mut number = 0;
    let mut skip_partial = cut;
    while !stop.load(Ordering::Relaxed) {
        buf.clear();
        let n = read_line(&mut reader, &mut buf)?;
        if n == 0 {
            break;
        }
        number += 1;
        if std::mem::take(&mut skip_partial) {
            continue;
        }
        let at = |why: String| match cut {
            true => format!("{}: a line near the end: {why}", path.display()),
            false => format!("{}:{number}: {why}", path.display()),
        };
        if buf.len() > MAX_LINE {
            out.skipped
                .push(at(format!("longer than {MAX_LINE} bytes")));
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<Entry>(text) {
            Ok(e) => match e.check() {
                Ok(()) => out.entries.push(e),
                Err(why) => out.skipped.push(at(why)),
            },
            Err(e) => out.skipped.push(at(format!("not a history entry ({e})"))),
        }
    }
    Ok(out)
}

/// One line, at most MAX_LINE + 1 bytes of it kept (the rest is read and dropped); 0
/// at the end of the file.
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let n = r.take(MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n > MAX_LINE && buf.last() != Some(&b'\n') {
        r.skip_until(b'\n')?;
    }
    Ok(n)
}

/// Entries grouped into series (in order of first appearance), each oldest first.
pub fn series(entries: &[Entry]) -> Vec<Vec<&Entry>> {
    // Each series' place by its key: one look-up per entry (a search of the keys so far
    // made 20,000 series of 3 entries take 7 s).
    let mut index: HashMap<_, usize> = HashMap::new();
    let mut out: Vec<Vec<&Entry>> = Vec::new();
    for e in entries {
        let i = *index.entry(e.series_key()).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[i].push(e);
    }
    for s in &mut out {
        // Dates are RFC 3339 UTC: they sort as text. Stable: file order breaks ties.
        s.sort_by(|a, b| a.date.cmp(&b.date));
        if s.len() > change_points::MAX_POINTS {
            s.drain(..s.len() - change_points::MAX_POINTS);
        }
    }
    out
}

/// A series with its change points.
pub struct Trend<'a> {
    pub points: Vec<&'a Entry>,
    pub steps: Vec<change_points::Step>,
}

impl Trend<'_> {
    pub fn values(&self) -> Vec<f64> {
        self.points.iter().map(|e| e.us_per_puzzle).collect()
    }
}

/// The trend of each series, up to the one where `stop` (the interrupt flag) is set:
/// the series analysed before it.
pub fn trends<'a>(entries: &'a [Entry], min_step_pct: f64, stop: &AtomicBool) -> Vec<Trend<'a>> {
    let mut out = Vec::new();
    for points in series(entries) {
        let values: Vec<f64> = points.iter().map(|e| e.us_per_puzzle).collect();
        let builds: Vec<Option<&str>> = points.iter().map(|e| e.code.as_deref()).collect();
        let steps = change_points::detect(&values, &builds, min_step_pct, stop);
        // Cut short: this series' steps are not all found.
        if stop.load(Ordering::Relaxed) {
            break;
        }
        out.push(Trend { points, steps });
    }
    out
}

#[cfg(test)]
mod tests;
