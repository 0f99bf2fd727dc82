//! The end-of-run summary: counts by status, wall time, throughput, solve-time statistics.
//!
//! Per-puzzle times go into an HDR histogram (3 significant digits), so the median of
//! ten million puzzles costs a few kilobytes, not eighty megabytes.

use std::fmt::Write as _;
use std::time::Duration;

use hdrhistogram::Histogram;

use crate::run::{PuzzleResult, Status};

pub struct Summary {
    counts: [u64; Status::ALL.len()],
    records: u64,
    solve_ns: Histogram<u64>,
    solve_ns_total: u128,
    nodes: u128,
    guesses: u128,
    checked: u64,
    invalid: u64,
    compared: u64,
    mismatches: u64,
    /// Inputs that could not be opened or read (not records).
    pub input_failures: u64,
    /// The run was stopped by an interrupt before the input ended.
    pub interrupted: bool,
}

impl Default for Summary {
    fn default() -> Self {
        Summary::new()
    }
}

impl Summary {
    pub fn new() -> Summary {
        Summary {
            counts: [0; Status::ALL.len()],
            records: 0,
            // One ns to one hour; values outside saturate.
            solve_ns: Histogram::new_with_bounds(1, 3_600_000_000_000, 3)
                .expect("valid histogram bounds"),
            solve_ns_total: 0,
            nodes: 0,
            guesses: 0,
            checked: 0,
            invalid: 0,
            compared: 0,
            mismatches: 0,
            input_failures: 0,
            interrupted: false,
        }
    }

    pub fn add(&mut self, r: &PuzzleResult) {
        self.records += 1;
        self.counts[r.status as usize] += 1;
        if !matches!(
            r.status,
            Status::ParseError | Status::InvalidGivens | Status::Error
        ) {
            self.solve_ns.saturating_record(r.time_ns.max(1));
            self.solve_ns_total += r.time_ns as u128;
            self.nodes += r.nodes as u128;
            self.guesses += r.guesses as u128;
        }
        if let Some(valid) = r.valid {
            self.checked += 1;
            self.invalid += u64::from(!valid);
        }
        if let Some(matches) = r.matches_expected {
            self.compared += 1;
            self.mismatches += u64::from(!matches);
        }
    }

    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn count(&self, status: Status) -> u64 {
        self.counts[status as usize]
    }

    /// Wrong answers: invalid solutions, disagreements with expected answers, and
    /// puzzles on which the backend failed.
    pub fn wrong_answers(&self) -> u64 {
        self.invalid + self.mismatches + self.count(Status::Error)
    }

    /// Records that were solved (timed).
    pub fn solved(&self) -> u64 {
        self.solve_ns.len()
    }

    pub fn total_solve_time(&self) -> Duration {
        Duration::from_nanos(self.solve_ns_total.min(u64::MAX as u128) as u64)
    }

    pub fn mean_solve_us(&self) -> f64 {
        if self.solved() == 0 {
            return 0.0;
        }
        self.solve_ns_total as f64 / self.solved() as f64 / 1000.0
    }

    pub fn percentile_solve_us(&self, q: f64) -> f64 {
        self.solve_ns.value_at_quantile(q) as f64 / 1000.0
    }

    /// The summary as text lines, for a person.
    pub fn render(&self, backend: &str, threads: usize, wall: Duration) -> String {
        let mut s = String::new();
        let secs = wall.as_secs_f64();
        let rate = if secs > 0.0 {
            self.records as f64 / secs
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "{backend}: {} records in {:.3} s ({} records/s) on {threads} thread{}",
            self.records,
            secs,
            human_rate(rate),
            if threads == 1 { "" } else { "s" }
        );
        let counts: Vec<String> = Status::ALL
            .iter()
            .filter(|&&st| self.count(st) > 0)
            .map(|&st| format!("{} {}", st.name(), self.count(st)))
            .collect();
        if counts.is_empty() {
            let _ = writeln!(s, "  status: no records");
        } else {
            let _ = writeln!(s, "  status: {}", counts.join(", "));
        }
        if self.solved() > 0 {
            let n = self.solved() as f64;
            let _ = writeln!(
                s,
                "  solve time per puzzle: mean {:.2} µs, median {:.2} µs, p90 {:.2} µs, max {:.2} µs (sum {:.3} s)",
                self.mean_solve_us(),
                self.percentile_solve_us(0.5),
                self.percentile_solve_us(0.9),
                self.solve_ns.max() as f64 / 1000.0,
                self.solve_ns_total as f64 / 1e9
            );
            let _ = writeln!(
                s,
                "  work per puzzle: mean {:.1} nodes, {:.2} guesses",
                self.nodes as f64 / n,
                self.guesses as f64 / n
            );
        }
        let _ = writeln!(
            s,
            "  checks: {} solutions checked, {} invalid; {} compared with expected answers, {} mismatched",
            self.checked, self.invalid, self.compared, self.mismatches
        );
        if self.interrupted {
            let _ = writeln!(
                s,
                "  interrupted: stopped after {} records; every one of them is written, as whole rows",
                self.records
            );
        }
        if self.input_failures > 0 {
            let _ = writeln!(
                s,
                "  inputs that could not be read: {}",
                self.input_failures
            );
        }
        s
    }
}

fn human_rate(rate: f64) -> String {
    match rate {
        r if r >= 1e6 => format!("{:.2} M", r / 1e6),
        r if r >= 1e4 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.1}"),
    }
}
