//! Counts and distributions over results, shared by the `solve` summary and `bench`:
//! statuses, solve times (an HDR histogram: constant memory however many puzzles), work
//! counters and answer checks. Tallies merge with `+=`, so each thread can keep its own.

use crate::record::SourceName;
use std::ops::AddAssign;

use hdrhistogram::Histogram;

use crate::run::{PuzzleResult, Status, Verification};
use crate::solver::{Clock, Counters};

/// The first wrong answer seen, to show the user where to look.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongAnswer {
    pub source: SourceName,
    pub line: u64,
    pub error: String,
}

/// The answer checks: solutions checked and how many were invalid; answers compared
/// with the expected ones and how many disagreed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    pub checked: u64,
    pub invalid: u64,
    pub compared: u64,
    pub mismatches: u64,
}

add_assign!(Checks: checked, invalid, compared, mismatches);

/// Claims the verifier confirmed, refuted, and could not decide (its budget ran out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Decided {
    pub confirmed: u64,
    pub refuted: u64,
    pub undecided: u64,
}

/// What a solver said of its own time against what the harness saw it spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    /// The time of calls timed by the solver's own clock (a library's call, a program's
    /// report).
    pub reported_ns: u128,
    /// The time the harness saw those calls take beyond it (a program's round trip less
    /// the transport, a library's untimed second call).
    pub unseen_ns: u128,
    /// Calls that needed a second, untimed call for the solution.
    pub second_calls: u64,
}

add_assign!(Claims: reported_ns, unseen_ns, second_calls);

/// Time of each call that reached the solver (ns, 1 ns to 1 hour; longer saturates).
#[derive(Clone, Debug)]
pub struct Times(pub Histogram<u64>);

impl Default for Times {
    fn default() -> Self {
        Times(Histogram::new_with_bounds(1, 3_600_000_000_000, 3).expect("valid histogram bounds"))
    }
}

#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub(crate) records: u64,
    /// Records with a 9x9 board, and with a board of another size.
    pub(crate) boards: [u64; 2],
    counts: [u64; Status::ALL.len()],
    pub(crate) solve_ns: Times,
    pub(crate) solve_ns_total: u128,
    pub(crate) nodes: u128,
    pub(crate) guesses: u128,
    /// Calls whose nodes, and whose guesses, the backend counted.
    nodes_counted: u64,
    guesses_counted: u64,
    /// Calls that needed no guess.
    no_guess: u64,
    /// Claims the verifier confirmed, and those it could not decide (refuted ones are
    /// counted by status).
    confirmed: u64,
    unverified: u64,
    /// Calls timed by each clock (`Clock::ALL` order).
    clocks: [u64; Clock::ALL.len()],
    /// Calls timed by the solver's own clock.
    pub(crate) claims: Claims,
    pub(crate) checks: Checks,
    /// Records with a wrong answer: invalid solutions, disagreements with expected
    /// answers, puzzles on which the backend failed (one may be all at once).
    pub(crate) wrong: u64,
    /// Replaced by whoever merges tallies kept per thread: they see the results out of
    /// input order.
    pub(crate) first_wrong: Option<WrongAnswer>,
}

impl Tally {
    pub fn add(&mut self, r: &PuzzleResult) {
        self.records += 1;
        if let Some(board) = &r.puzzle {
            self.boards[usize::from(board.side() != 9)] += 1;
        }
        self.counts[r.status as usize] += 1;
        if r.status.reached_solver() {
            self.solve_ns.0.saturating_record(r.time_ns.max(1));
            self.solve_ns_total += r.time_ns as u128;
            self.clocks[r.clock as usize] += 1;
            if matches!(r.clock, Clock::Call | Clock::Program) {
                let c = &mut self.claims;
                c.reported_ns += u128::from(r.time_ns);
                // A call the machine interrupted (a busy core) must not weigh as a
                // solver that hides its work in every call: each counts for ten times
                // its own time and a microsecond at most.
                let most = 10 * (r.time_ns + 1000);
                c.unseen_ns += u128::from(r.unseen_ns.min(most));
                c.second_calls += u64::from(r.clock == Clock::Call && r.unseen_ns > 0);
            }
            if let Some(n) = r.nodes {
                self.nodes += n as u128;
                self.nodes_counted += 1;
            }
            if let Some(g) = r.guesses {
                self.guesses += g as u128;
                self.guesses_counted += 1;
                self.no_guess += u64::from(g == 0);
            }
        }
        match r.verified {
            Verification::Confirmed => self.confirmed += 1,
            Verification::Unknown => self.unverified += 1,
            Verification::None | Verification::Refuted => {}
        }
        if let Some(valid) = r.valid {
            self.checks.checked += 1;
            self.checks.invalid += u64::from(!valid);
        }
        if let Some(matches) = r.matches_expected {
            self.checks.compared += 1;
            self.checks.mismatches += u64::from(!matches);
        }
        self.wrong += u64::from(r.is_mismatch());
        if self.first_wrong.is_none() && r.is_mismatch() {
            self.first_wrong = Some(WrongAnswer {
                source: r.source,
                line: r.line,
                error: r.error.clone().unwrap_or_default(),
            });
        }
    }

    pub fn count(&self, status: Status) -> u64 {
        self.counts[status as usize]
    }

    /// Calls that reached the solver (and were timed).
    pub fn solved(&self) -> u64 {
        self.solve_ns.0.len()
    }

    pub fn mean_solve_us(&self) -> f64 {
        per(self.solve_ns_total, self.solved()) / 1000.0
    }

    pub fn percentile_solve_us(&self, q: f64) -> f64 {
        self.solve_ns.0.value_at_quantile(q) as f64 / 1000.0
    }

    pub fn nodes_per_puzzle(&self) -> f64 {
        per(self.nodes, self.nodes_counted)
    }

    pub fn guesses_per_puzzle(&self) -> f64 {
        per(self.guesses, self.guesses_counted)
    }

    /// Share of the calls whose guesses were counted that needed no guess, percent.
    pub fn no_guess_pct(&self) -> f64 {
        100.0 * per(self.no_guess as u128, self.guesses_counted)
    }

    /// The work counters the backend reported: a counter no call reported reads
    /// "n/a" (a library that leaves `num_guesses` alone is not "100% no guess").
    pub fn counters(&self) -> Counters {
        Counters {
            nodes: self.nodes_counted > 0,
            guesses: self.guesses_counted > 0,
        }
    }

    pub fn verified(&self) -> Decided {
        Decided {
            confirmed: self.confirmed,
            refuted: self.count(Status::Refuted),
            undecided: self.unverified,
        }
    }

    /// The clocks the calls were timed by, with how many calls each.
    pub fn clocks(&self) -> Vec<(Clock, u64)> {
        Clock::ALL
            .into_iter()
            .zip(self.clocks)
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

fn per(total: u128, n: u64) -> f64 {
    if n == 0 { 0.0 } else { total as f64 / n as f64 }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        add(&mut self.boards, &other.boards);
        add(&mut self.counts, &other.counts);
        add(&mut self.clocks, &other.clocks);
        self.records += other.records;
        // Both histograms have the same bounds, so adding cannot fail.
        let _ = self.solve_ns.0.add(&other.solve_ns.0);
        self.solve_ns_total += other.solve_ns_total;
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.nodes_counted += other.nodes_counted;
        self.guesses_counted += other.guesses_counted;
        self.no_guess += other.no_guess;
        self.confirmed += other.confirmed;
        self.unverified += other.unverified;
        self.claims += other.claims;
        self.checks += other.checks;
        self.wrong += other.wrong;
        if self.first_wrong.is_none() {
            self.first_wrong.clone_from(&other.first_wrong);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(
        status: Status,
        time_ns: u64,
        guesses: u64,
        valid: Option<bool>,
    ) -> PuzzleResult<'static> {
        PuzzleResult {
            source: "s".into(),
            number: 1,
            line: 7,
            backend: "b",
            status,
            puzzle: None,
            solutions: 1,
            solution: None,
            valid,
            matches_expected: None,
            nodes: Some(10),
            guesses: Some(guesses),
            time_ns,
            clock: Clock::Harness,
            unseen_ns: 0,
            verified: Verification::None,
            thread: None,
            error: Some("bad".into()),
        }
    }

    /// Red-team finding: an invalid solution that also disagreed with the input counted
    /// as two wrong answers (36 of 19 puzzles), and `compare` then refused the baseline.
    #[test]
    fn a_wrong_answer_counts_once_however_it_is_wrong() {
        let mut t = Tally::default();
        let mut r = result(Status::Unique, 5, 0, Some(false));
        r.matches_expected = Some(false);
        t.add(&r);
        let mut failed = result(Status::Error, 5, 0, Some(false));
        failed.matches_expected = Some(false);
        t.add(&failed);
        t.add(&result(Status::Unique, 5, 0, Some(true)));
        assert_eq!(t.wrong, 2);
        let mut merged = Tally::default();
        merged += &t;
        assert_eq!(merged.wrong, 2);
    }

    #[test]
    fn merged_tallies_equal_one_tally_of_everything() {
        let results = [
            result(Status::Unique, 1000, 0, Some(true)),
            result(Status::Multiple, 3000, 2, Some(true)),
            result(Status::ParseError, 0, 0, None),
            result(Status::Unique, 2000, 1, Some(false)),
        ];
        let mut all = Tally::default();
        results.iter().for_each(|r| all.add(r));
        let (mut a, mut b) = (Tally::default(), Tally::default());
        results[..2].iter().for_each(|r| a.add(r));
        results[2..].iter().for_each(|r| b.add(r));
        a += &b;
        assert_eq!(a.records, all.records);
        assert_eq!(a.solved(), 3);
        assert_eq!(a.count(Status::Unique), 2);
        assert_eq!((a.nodes, a.guesses), (30, 3));
        assert_eq!(a.wrong, 1);
        assert_eq!(a.first_wrong, all.first_wrong);
        assert_eq!(a.first_wrong.as_ref().unwrap().line, 7);
        assert!((a.no_guess_pct() - 100.0 / 3.0).abs() < 1e-9);
        assert_eq!(a.percentile_solve_us(0.5), all.percentile_solve_us(0.5));
        assert_eq!(a.mean_solve_us(), 2.0);
    }
}
