//! The end-of-run summary of `solve`: counts by status, wall time, throughput, solve-time
//! statistics and checks, from a [`Tally`].

use crate::record::SourceName;
use std::fmt::Write as _;
use std::time::Duration;

use super::text_table::{Align, TextTable, shorten};
use crate::loader::SourceReport;
use crate::run::{PuzzleResult, Status};
use crate::tally::Tally;

/// What became of one input file's records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceCounts {
    pub name: SourceName,
    pub records: u64,
    /// `unique`, `solved` or `multiple`.
    pub solved: u64,
    pub no_solution: u64,
    pub parse_errors: u64,
    pub wrong: u64,
}

#[derive(Default)]
pub struct Summary {
    pub tally: Tally,
    /// Inputs that could not be opened or read (not records).
    pub input_failures: u64,
    /// The run was stopped by an interrupt before the input ended.
    pub interrupted: bool,
    /// Per input file, in input order.
    pub sources: Vec<SourceCounts>,
    /// How each file was read (format, header lines), from the loader.
    pub reports: Vec<SourceReport>,
    /// Lines about how the backend was measured (a foreign backend's clock).
    pub notes: Vec<String>,
    /// Which backends verified the claims, when they were verified.
    pub verifier: Option<String>,
}

impl SourceCounts {
    fn new(name: SourceName) -> SourceCounts {
        SourceCounts {
            name,
            records: 0,
            solved: 0,
            no_solution: 0,
            parse_errors: 0,
            wrong: 0,
        }
    }
}

/// Counts `r` under its source, the last in `sources` or a new one.
pub(crate) fn count_source(sources: &mut Vec<SourceCounts>, r: &PuzzleResult) {
    // Records of a source come together and share one name: compare pointers.
    if sources.last().is_none_or(|s| !s.name.same(&r.source)) {
        sources.push(SourceCounts::new(r.source));
    }
    let s = sources.last_mut().expect("just pushed");
    s.records += 1;
    match r.status {
        Status::Unique | Status::Solved | Status::Multiple => s.solved += 1,
        Status::NoSolution => s.no_solution += 1,
        Status::ParseError => s.parse_errors += 1,
        _ => {}
    }
    s.wrong += u64::from(r.is_mismatch());
}

impl Summary {
    /// Adds the per-source counts of the records that follow those counted so far.
    pub(crate) fn add_sources(&mut self, later: &[SourceCounts]) {
        let mut later = later.iter();
        if let (Some(last), Some(first)) = (self.sources.last_mut(), later.clone().next()) {
            if last.name.same(&first.name) {
                last.records += first.records;
                last.solved += first.solved;
                last.no_solution += first.no_solution;
                last.parse_errors += first.parse_errors;
                last.wrong += first.wrong;
                later.next();
            }
        }
        self.sources.extend(later.cloned());
    }

    /// A line per input file, when there are several.
    fn render_sources(&self, s: &mut String) {
        if let [only] = &self.reports[..] {
            let how = if only.detected {
                "detected"
            } else {
                "--format"
            };
            let _ = writeln!(s, "  input: {} read as {} ({how})", only.name, only.format);
        }
        if self.sources.len() < 2 {
            return;
        }
        use Align::{Left, Right};
        let mut table = TextTable::new(&[
            ("  file", Left),
            ("format", Left),
            ("records", Right),
            ("solved", Right),
            ("no solution", Right),
            ("parse errors", Right),
            ("wrong", Right),
        ]);
        for c in &self.sources {
            let format = self
                .reports
                .iter()
                .find(|r| r.name.same(&c.name))
                .map_or(String::new(), |r| r.format.to_string());
            table.row(vec![
                format!("  {}", shorten(&c.name, 50)),
                format,
                c.records.to_string(),
                c.solved.to_string(),
                c.no_solution.to_string(),
                c.parse_errors.to_string(),
                c.wrong.to_string(),
            ]);
        }
        s.push_str(&table.render());
    }

    /// The summary as text lines, for a person.
    pub fn render(&self, backend: &str, threads: usize, wall: Duration) -> String {
        let t = &self.tally;
        let mut s = String::new();
        let secs = wall.as_secs_f64();
        let rate = if secs > 0.0 {
            t.records() as f64 / secs
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "{backend}: {} records in {:.3} s ({} records/s) on {threads} thread{}",
            t.records(),
            secs,
            self::rate(rate),
            if threads == 1 { "" } else { "s" }
        );
        let counts: Vec<String> = Status::ALL
            .iter()
            .filter(|&&st| t.count(st) > 0)
            .map(|&st| format!("{} {}", st.name(), t.count(st)))
            .collect();
        if counts.is_empty() {
            let _ = writeln!(s, "  status: no records");
        } else {
            let _ = writeln!(s, "  status: {}", counts.join(", "));
        }
        self.render_work(&mut s);
        self.render_checks(&mut s);
        self.render_sources(&mut s);
        for note in &self.notes {
            let _ = writeln!(s, "  {note}");
        }
        s
    }

    /// Solve times and work per puzzle.
    fn render_work(&self, s: &mut String) {
        let t = &self.tally;
        if t.solved() > 0 {
            let _ = writeln!(
                s,
                "  solve time per puzzle: mean {:.2} µs, median {:.2} µs, p90 {:.2} µs, max {:.2} µs (sum {:.3} s)",
                t.mean_solve_us(),
                t.percentile_solve_us(0.5),
                t.percentile_solve_us(0.9),
                t.max_solve_us(),
                t.total_solve_ns() as f64 / 1e9
            );
            let c = t.counters();
            let nodes = match c.nodes {
                true => format!("{:.1} nodes", t.nodes_per_puzzle()),
                false => "nodes n/a".into(),
            };
            let guesses = match c.guesses {
                true => format!("{:.2} guesses", t.guesses_per_puzzle()),
                false => "guesses n/a".into(),
            };
            let _ = writeln!(s, "  work per puzzle: mean {nodes}, {guesses}");
        }
    }

    /// Answer checks, and what went wrong.
    fn render_checks(&self, s: &mut String) {
        let t = &self.tally;
        let (checked, invalid, compared, mismatched) = t.checks();
        let _ = writeln!(
            s,
            "  checks: {checked} solutions checked, {invalid} invalid; {compared} compared with expected answers, {mismatched} mismatched"
        );
        if let Some(by) = &self.verifier {
            let (confirmed, refuted, unknown) = t.verified();
            let _ = writeln!(
                s,
                "  claims verified by {by}, untimed: {confirmed} confirmed, {refuted} refuted, {unknown} undecided (the verifier's budget ran out)"
            );
        }
        if let Some(w) = t.first_wrong() {
            let _ = writeln!(
                s,
                "  first wrong answer: {} line {}: {}",
                w.source, w.line, w.error
            );
        }
        if self.interrupted {
            let _ = writeln!(
                s,
                "  interrupted: stopped after {} records; every one of them is written, as whole rows",
                t.records()
            );
        }
        if t.count(Status::Unsupported) > 0 {
            let _ = writeln!(
                s,
                "  unsupported: {} boards of a size this backend does not solve (the dlx-arena and dfs backends solve every size)",
                t.count(Status::Unsupported)
            );
        }
        if self.input_failures > 0 {
            let _ = writeln!(
                s,
                "  inputs that could not be read: {}",
                self.input_failures
            );
        }
    }
}

/// A rate (things a second) for people, the one form every table, summary and progress
/// bar shows: whole numbers from 100 up, three significant digits below (0.34 a second
/// is `0.340`, not `0`), `n/a` for no rate at all.
pub fn rate(per_s: f64) -> String {
    if !per_s.is_finite() || per_s < 0.0 {
        return "n/a".into();
    }
    let whole = format!("{per_s:.0}");
    // `whole` has three digits from 99.5 up.
    if per_s == 0.0 || whole.len() >= 3 {
        return whole;
    }
    // Digits after the point for three significant ones; past nine, a rate is all but 0.
    let decimals = (2 - per_s.log10().floor() as i64).clamp(0, 9) as usize;
    format!("{per_s:.decimals$}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rate_keeps_three_significant_digits_below_100() {
        let shown: Vec<String> = [0.34, 0.0012345, 1.0, 12.34, 99.4, 99.7, 156.4, 75081.2, 0.0]
            .map(super::rate)
            .into();
        let want = [
            "0.340", "0.00123", "1.00", "12.3", "99.4", "100", "156", "75081", "0",
        ];
        assert_eq!(shown, want);
        assert_eq!(super::rate(f64::NAN), "n/a");
        assert_eq!(super::rate(f64::INFINITY), "n/a");
    }
}
