//! The end-of-run summary of `solve`: counts by status, wall time, throughput, solve-time
//! statistics and checks, from a [`Tally`].

use crate::record::SourceName;
use std::fmt::Write as _;
use std::time::Duration;

use super::text_table::{Align, TextTable, shorten};
use crate::loader::{misread_note, skipped_note};
use crate::report::tally::Tally;
use crate::run::Status;

/// Files the summary lists one by one; those after them are summed into one line, so
/// that what it keeps does not grow with the number of files.
pub const LISTED_SOURCES: usize = 100;

/// What became of records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub records: u64,
    /// `unique`, `solved` or `multiple`.
    pub solved: u64,
    pub no_solution: u64,
    pub parse_errors: u64,
    pub wrong: u64,
}

add_assign!(Counts: records, solved, no_solution, parse_errors, wrong);

/// What became of one input file's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceCounts {
    pub name: SourceName,
    pub counts: Counts,
}

#[derive(Default)]
pub struct Summary {
    pub tally: Tally,
    /// Inputs that could not be opened or read (not records).
    pub input_failures: u64,
    /// The run was stopped by an interrupt before the input ended.
    pub interrupted: bool,
    /// The first [`LISTED_SOURCES`] input files, in input order; the last may be the
    /// one whose records are still coming.
    sources: Vec<SourceCounts>,
    /// The files after those, and their counts summed.
    other_files: u64,
    others: Counts,
    /// Notes on files most of whose records could not be read, for the caller to say
    /// ([`Summary::take_notes`]).
    notes_due: Vec<String>,
    /// Lines about how the backend was measured (a foreign backend's clock).
    pub notes: Vec<String>,
    /// Which backends verified the claims, when they were verified.
    pub verifier: Option<String>,
}

impl Summary {
    /// Adds the per-source counts of the records that follow those counted so far.
    pub(crate) fn add_sources(&mut self, later: &[SourceCounts]) {
        for c in later {
            match self.sources.last_mut() {
                Some(last) if last.name.same(&c.name) => last.counts += c.counts,
                _ => {
                    self.end_source();
                    self.sources.push(*c);
                }
            }
        }
    }

    /// The last source's records are all counted: said when most could not be read
    /// (where the reader left that to the run), and summed with the others once the
    /// listed ones are all there.
    pub(crate) fn end_source(&mut self) {
        let Some(last) = self.sources.last().copied() else {
            return;
        };
        let c = last.counts;
        if last.name.reading().is_some_and(|r| r.parsed_later) {
            let skipped = last.name.skipped().map(|s| s.get()).unwrap_or_default();
            self.notes_due.extend(skipped_note(&last.name, skipped));
            self.notes_due
                .extend(misread_note(&last.name, c.records, c.parse_errors, || None));
        }
        if self.sources.len() > LISTED_SOURCES {
            self.sources.pop();
            self.other_files += 1;
            self.others += c;
        }
    }

    /// The notes due since the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes_due)
    }

    /// The summary as text lines, for a person.
    pub fn render(&self, backend: &str, threads: usize, wall: Duration) -> String {
        let t = &self.tally;
        let mut s = String::new();
        let secs = wall.as_secs_f64();
        let rate = if secs > 0.0 {
            t.records as f64 / secs
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "{backend}: {} records in {:.3} s ({} records/s) on {threads} thread{}",
            t.records,
            secs,
            self::rate(rate),
            if threads == 1 { "" } else { "s" }
        );
        let counts: Vec<String> = Status::ALL
            .iter()
            .filter(|&&st| t.count(st) > 0)
            .map(|&st| format!("{} {}", st.name(), t.count(st)))
            .collect();
        let counts = match counts.is_empty() {
            true => "no records".to_string(),
            false => counts.join(", "),
        };
        let _ = writeln!(s, "  status: {counts}");
        if t.solved() > 0 {
            let _ = writeln!(
                s,
                "  solve time per puzzle: mean {:.2} µs, median {:.2} µs, p90 {:.2} µs, max {:.2} µs (sum {:.3} s)",
                t.mean_solve_us(),
                t.percentile_solve_us(0.5),
                t.percentile_solve_us(0.9),
                t.solve_ns.0.max() as f64 / 1000.0,
                t.solve_ns_total as f64 / 1e9
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
        let c = t.checks;
        let _ = writeln!(
            s,
            "  checks: {} solutions checked, {} invalid; {} compared with expected answers, {} mismatched",
            c.checked, c.invalid, c.compared, c.mismatches
        );
        if let Some(by) = &self.verifier {
            let v = t.verified();
            // Why a claim is undecided, only where one is.
            let why = match v.undecided {
                0 => "",
                _ => " (the verifier's budget ran out)",
            };
            let _ = writeln!(
                s,
                "  claims verified by {by}, untimed: {} confirmed, {} refuted, {} undecided{why}",
                v.confirmed, v.refuted, v.undecided
            );
        }
        if let Some(w) = &t.first_wrong {
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
                t.records
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
        // How the one input file was read, or a line per file when there are several.
        if let ([only], 0) = (&self.sources[..], self.other_files)
            && let Some(r) = only.name.reading()
        {
            let how = if r.detected { "detected" } else { "--format" };
            let _ = writeln!(s, "  input: {} read as {} ({how})", only.name, r.format);
        } else if self.sources.len() > 1 {
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
            let row = |table: &mut TextTable, file: String, format: &str, c: &Counts| {
                let counts = [c.records, c.solved, c.no_solution, c.parse_errors, c.wrong];
                let cells = [file, format.to_string()].into_iter();
                table.row(cells.chain(counts.map(|n| n.to_string())).collect());
            };
            for c in &self.sources {
                let format = c.name.reading().map_or("", |r| r.format);
                let file = format!("  {}", shorten(&c.name, 50));
                row(&mut table, file, format, &c.counts);
            }
            if self.other_files > 0 {
                let more = format!("  ({} more files)", self.other_files);
                row(&mut table, more, "", &self.others);
            }
            s.push_str(&table.render());
        }
        for note in &self.notes {
            let _ = writeln!(s, "  {note}");
        }
        s
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
