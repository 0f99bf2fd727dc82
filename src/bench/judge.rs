//! Verdicts: one backend against another on the same puzzles, outcome by outcome first,
//! then the ratio of total times with a bootstrap interval, then words. The one place
//! that judges, for `bench` and `compare` alike; docs/bench.md ("Verdicts") says how.

use serde::{Deserialize, Serialize};

use super::{BenchResult, Timing};
use crate::base::rng::SplitMix64;
use crate::run::{PuzzleResult, Status};

named! {
    /// A puzzle's outcome for one backend, over every round.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Outcome {
        #[default]
        NotYet => "not measured",
        Solved => "solved",
        Wrong => "answered wrong",
        GaveUp => "gave up (budget or time limit)",
        Failed => "failed",
        /// A board size the backend does not take.
        Unsupported => "not taken (board size)",
        /// `null`: it solves nothing.
        NotSolved => "not solved",
        /// Solved in some rounds only.
        Mixed => "solved in some rounds only",
    }
}

impl Outcome {
    pub fn of(r: &PuzzleResult) -> Outcome {
        match r.status {
            Status::Error => Outcome::Failed,
            _ if r.is_mismatch() => Outcome::Wrong,
            Status::BudgetExceeded | Status::Interrupted => Outcome::GaveUp,
            Status::Unsupported => Outcome::Unsupported,
            Status::NotSolved => Outcome::NotSolved,
            _ => Outcome::Solved,
        }
    }

    /// The outcome over one more round: a wrong answer or a failure in any round stays,
    /// any other change makes it `Mixed`.
    pub fn and(self, next: Outcome) -> Outcome {
        match (self, next) {
            (Outcome::NotYet, n) => n,
            (Outcome::Wrong, _) | (_, Outcome::Wrong) => Outcome::Wrong,
            (Outcome::Failed, _) | (_, Outcome::Failed) => Outcome::Failed,
            (a, b) if a == b => a,
            _ => Outcome::Mixed,
        }
    }
}

use crate::report::tally::Claims;

impl Claims {
    /// Why these times cannot be judged by: they cover less than a quarter of what the
    /// harness saw the solver spend (a program reporting `ns=1`, a library searching in
    /// the untimed second call).
    pub fn doubt(&self, label: &str) -> Option<String> {
        (self.unseen_ns > 3 * self.reported_ns).then(|| {
            let seen = self.reported_ns + self.unseen_ns;
            format!(
                "{label}'s own times cover {:.1}% of the time the harness saw it spend on the same calls ({}): its times cannot be checked (--trust-reported-times judges by them anyway)",
                100.0 * self.reported_ns as f64 / seen.max(1) as f64,
                match self.second_calls {
                    0 => "the round trips, less the transport".to_string(),
                    n => format!("{n} untimed second calls for solutions"),
                }
            )
        })
    }
}

/// What the engine measured of one backend, for a verdict.
pub struct Side<'a> {
    pub label: &'a str,
    /// False for `null`.
    pub solves: bool,
    pub outcomes: &'a [Outcome],
    /// Block times, `blocks` a round.
    pub times: &'a [u64],
    pub blocks: usize,
    pub claims: Claims,
}

/// Two builds of one solver, or two solvers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The first backend is the old build: regressed, improved, exit 5.
    Builds,
    /// Which ran faster, and how many times: never regressed or improved.
    #[default]
    Solvers,
}

/// How the two were measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    /// On the same blocks, taking turns.
    #[default]
    Paired,
    /// A fresh run against saved figures: needs a quiet machine.
    Saved,
}

named! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Verdict {
        Regressed => "regressed",
        Improved => "improved",
        NoChange => "no change",
        /// Two solvers: the other ran slower (or faster, below 1).
        Differs => "differs",
        /// Two solvers whose interval holds 1.
        AboutAsFast => "about as fast",
        /// `why` says why.
        #[serde(rename = "no_verdict")]
        Unjudged => "no verdict",
    }
}

/// One backend against another on one dataset at one thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    /// The old build, or the fastest solver.
    pub base: String,
    pub other: String,
    pub dataset: String,
    pub threads: usize,
    pub kind: Kind,
    pub how: How,
    pub timing: Timing,
    /// The other's total time over the base's, on the same puzzles.
    pub ratio: Option<f64>,
    /// Its 95% interval.
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Pairs of blocks (paired), or rounds (the fewer side's), behind the ratio.
    pub pairs: usize,
    pub noise_pct: f64,
    pub verdict: Verdict,
    /// What decided, where the times did not, or why there is no ratio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Instructions per puzzle, other over base (`--instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_ratio: Option<f64>,
}

impl Versus {
    /// Two builds, the other one regressed: in time or outcomes, or in instructions
    /// beyond the noise threshold (counts have no noise).
    pub fn regressed(&self) -> bool {
        self.kind == Kind::Builds
            && (self.verdict == Verdict::Regressed
                || self
                    .instructions_ratio
                    .is_some_and(|r| r > 1.0 + self.noise_pct / 100.0))
    }

    /// The verdict in words, in the units of the sentence it stands in: "regressed
    /// +10.2%", "4.48 times faster", "about as fast", "no verdict".
    pub fn short(&self) -> String {
        let r = self.ratio.unwrap_or(f64::NAN);
        match self.verdict {
            Verdict::Regressed | Verdict::Improved | Verdict::NoChange if r.is_finite() => {
                format!("{} {:+.1}%", self.verdict.name(), (r - 1.0) * 100.0)
            }
            Verdict::Differs if r >= 1.0 => format!("{r:.2} times faster"),
            Verdict::Differs => format!("{:.2} times slower", 1.0 / r),
            v => v.name().to_string(),
        }
    }

    /// The sentence: "new took 1.102 times old's time (1.091..1.113): regressed", "bitboard
    /// ran 4.48 times faster than dlx-static (4.41..4.55)".
    pub fn sentence(&self) -> String {
        let why = (self.why.as_deref()).map_or(String::new(), |w| format!(": {w}"));
        let Some(r) = self.ratio.filter(|_| self.verdict != Verdict::Unjudged) else {
            let what = self.verdict.name();
            return format!("{} against {}: {what}{why}", self.other, self.base);
        };
        match (self.kind, self.ran()) {
            (Kind::Solvers, Some(ran)) => format!("{} ran {ran}{why}", self.base),
            _ => format!(
                "{} took {r:.3} times {}'s time{}: {}{why}",
                self.other,
                self.base,
                self.interval(),
                self.short()
            ),
        }
    }

    /// Two solvers with a ratio, how the base ran: "4.48 times faster than dlx-static
    /// (4.41..4.55)", "about as fast as dlx-static: 1.002 (0.991..1.013)".
    pub fn ran(&self) -> Option<String> {
        let (r, interval, other) = (self.ratio?, self.interval(), &self.other);
        match self.verdict {
            Verdict::Differs => Some(format!("{} than {other}{interval}", self.short())),
            Verdict::AboutAsFast => Some(format!("about as fast as {other}: {r:.3}{interval}")),
            _ => None,
        }
    }

    /// " (1.091..1.113)": the 95% interval, where there is one.
    fn interval(&self) -> String {
        match (self.low, self.high) {
            (Some(l), Some(h)) => format!(" ({l:.3}..{h:.3})"),
            _ => String::new(),
        }
    }
}

/// The settings a verdict is made with.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub kind: Kind,
    pub noise_pct: f64,
    pub seed: u64,
    /// Judge by a solver's own times even where they cover too little of what the
    /// harness saw (`--trust-reported-times`).
    pub trust_times: bool,
}

/// Fewest pairs of blocks, and fewest rounds (a side), that give a verdict.
const MIN_PAIRS: usize = 6;
const MIN_ROUNDS: usize = 3;
/// A pair where one side took this many times its usual time for the block is a
/// disturbance's, not the work's: no difference in work triples one side alone.
const DISTURBED: f64 = 3.0;

/// `b` against `a`, measured in the same run taking turns: outcomes first, then the ratio
/// of total times.
pub fn judge(a: &Side<'_>, b: &Side<'_>, rules: &Rules) -> Judged {
    for side in [a, b] {
        if !side.solves {
            return Judged::unjudged(format!("{} solves nothing", side.label));
        }
    }
    if let Some(decided) = outcomes(a, b, rules.kind) {
        return decided;
    }
    for side in [a, b] {
        if !side.outcomes.contains(&Outcome::Solved) {
            return Judged::unjudged(format!("{} solved none of the puzzles", side.label));
        }
        if let Some(doubt) = side.claims.doubt(side.label).filter(|_| !rules.trust_times) {
            return Judged::unjudged(doubt);
        }
    }
    let estimate = paired(a, b, rules.seed);
    let verdict = verdict(&estimate, rules);
    let why = match verdict {
        Verdict::Unjudged => estimate.thin(),
        _ if estimate.dropped > 0 => Some(format!(
            "{} of {} pairs left out: one side took {DISTURBED} times its usual time for the block",
            estimate.dropped,
            estimate.pairs + estimate.dropped
        )),
        _ => None,
    };
    Judged {
        estimate: Some(estimate),
        verdict,
        why,
    }
}

/// What [`judge`] says: the estimate (where there is a ratio), the verdict, and why
/// (where something needs saying).
#[derive(Debug)]
pub struct Judged {
    pub estimate: Option<Estimate>,
    pub verdict: Verdict,
    pub why: Option<String>,
}

impl Judged {
    pub fn unjudged(why: String) -> Judged {
        Judged {
            estimate: None,
            verdict: Verdict::Unjudged,
            why: Some(why),
        }
    }

    /// The verdict of `b` against `a` (results of one dataset at one thread count, on
    /// `b`'s clock), `why` with a note where two builds did different work.
    pub fn versus(self, a: &BenchResult, b: &BenchResult, how: How, rules: &Rules) -> Versus {
        let e = self.estimate;
        let nodes = a.counters.nodes && b.counters.nodes && a.nodes_total != b.nodes_total;
        let guesses =
            a.counters.guesses && b.counters.guesses && a.guesses_total != b.guesses_total;
        let mut why = self.why;
        if rules.kind == Kind::Builds && (nodes || guesses) {
            let note = format!(
                "the search changed: nodes/puzzle {:.1} -> {:.1}, guesses/puzzle {:.2} -> {:.2}",
                a.nodes_per_puzzle, b.nodes_per_puzzle, a.guesses_per_puzzle, b.guesses_per_puzzle
            );
            why = Some(why.map_or(String::new(), |w| format!("{w}; ")) + &note);
        }
        Versus {
            base: a.backend.clone(),
            other: b.backend.clone(),
            dataset: b.dataset.path.clone(),
            threads: b.threads,
            kind: rules.kind,
            how,
            timing: b.timing,
            ratio: e.map(|e| e.ratio),
            low: e.map(|e| e.low),
            high: e.map(|e| e.high),
            pairs: e.map_or(0, |e| e.pairs),
            noise_pct: rules.noise_pct,
            verdict: self.verdict,
            why,
            instructions_ratio: None,
        }
    }
}

/// A ratio and its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    pub pairs: usize,
    pub dropped: usize,
    /// Rounds behind it (the fewer side's, unpaired).
    pub rounds: usize,
    pub paired: bool,
}

impl Estimate {
    /// Why there is too little to judge by, if there is: an interval needs rounds to
    /// resample.
    fn thin(&self) -> Option<String> {
        if self.rounds < MIN_ROUNDS {
            return Some(format!("too few rounds ({} of {MIN_ROUNDS})", self.rounds));
        }
        (self.paired && self.pairs < MIN_PAIRS)
            .then(|| format!("too few pairs ({} of {MIN_PAIRS})", self.pairs))
    }
}

/// The verdict on an estimate, in the words of `rules.kind`.
pub fn verdict(e: &Estimate, rules: &Rules) -> Verdict {
    let noise = rules.noise_pct / 100.0;
    match rules.kind {
        _ if e.thin().is_some() || !e.ratio.is_finite() => Verdict::Unjudged,
        Kind::Builds if e.low > 1.0 && e.ratio > 1.0 + noise => Verdict::Regressed,
        Kind::Builds if e.high < 1.0 && e.ratio < 1.0 - noise => Verdict::Improved,
        Kind::Builds => Verdict::NoChange,
        Kind::Solvers if e.low <= 1.0 && 1.0 <= e.high => Verdict::AboutAsFast,
        Kind::Solvers => Verdict::Differs,
    }
}

/// The verdict of the outcomes, where they differ or bar a ratio.
fn outcomes(a: &Side<'_>, b: &Side<'_>, kind: Kind) -> Option<Judged> {
    let both = || a.outcomes.iter().zip(b.outcomes);
    let differ = both().filter(|(x, y)| x != y).count();
    if differ == 0 {
        let wrong = a.outcomes.iter().filter(|&&o| o == Outcome::Wrong).count();
        return (wrong > 0).then(|| {
            let why = format!("both answered {wrong} puzzles wrong: their times are not solves'");
            Judged::unjudged(why)
        });
    }
    let lost = both().any(|(x, y)| *x == Outcome::Solved && *y != Outcome::Solved);
    let gained = both().any(|(x, y)| *x != Outcome::Solved && *y == Outcome::Solved);
    let verdict = match kind {
        Kind::Builds if lost => Verdict::Regressed,
        Kind::Builds if gained => Verdict::Improved,
        _ => Verdict::Unjudged,
    };
    let why = format!(
        "not the same outcomes on {differ} puzzles, so no speed ratio: {}; {}",
        coverage(a),
        coverage(b)
    );
    Some(Judged {
        verdict,
        ..Judged::unjudged(why)
    })
}

/// "bitboard solved 2990 of 3000 (gave up on 10)".
fn coverage(side: &Side<'_>) -> String {
    let count = |o: Outcome| side.outcomes.iter().filter(|&&x| x == o).count();
    let rest: Vec<String> = Outcome::ALL[2..]
        .iter()
        .filter(|&&o| count(o) > 0)
        .map(|&o| format!("{} {}", o.name(), count(o)))
        .collect();
    let (label, solved, all) = (side.label, count(Outcome::Solved), side.outcomes.len());
    match rest.is_empty() {
        true => format!("{label} solved {solved} of {all}"),
        false => format!("{label} solved {solved} of {all} ({})", rest.join(", ")),
    }
}

/// Resamples a bootstrap takes, and the most draws it makes in all.
const RESAMPLES: usize = 2000;
const MAX_DRAWS: usize = 4_000_000;

/// The ratio of total times on the same blocks, taking turns, with a bootstrap that
/// resamples each block's rounds (pairs kept whole).
fn paired(a: &Side<'_>, b: &Side<'_>, seed: u64) -> Estimate {
    let blocks = a.blocks.max(1);
    // Per block, the pairs of its rounds, less those a disturbance hit.
    let mut by_block: Vec<Vec<(f64, f64)>> = vec![Vec::new(); blocks];
    for (i, (&x, &y)) in a.times.iter().zip(b.times).enumerate() {
        by_block[i % blocks].push((x as f64, y as f64));
    }
    let mut dropped = 0;
    for pairs in &mut by_block {
        let usual = |f: fn(&(f64, f64)) -> f64| {
            super::stats::median(&pairs.iter().map(f).collect::<Vec<_>>())
        };
        let (ua, ub) = (usual(|p| p.0), usual(|p| p.1));
        let before = pairs.len();
        pairs.retain(|&(x, y)| x <= DISTURBED * ua && y <= DISTURBED * ub);
        dropped += before - pairs.len();
    }
    by_block.retain(|p| !p.is_empty());
    let total = |f: fn(&(f64, f64)) -> f64| -> f64 {
        // Each block's mean time, so a block that lost pairs weighs as much as before.
        by_block
            .iter()
            .map(|p| p.iter().map(f).sum::<f64>() / p.len() as f64)
            .sum()
    };
    let ratio = total(|p| p.1) / total(|p| p.0);
    let pairs: usize = by_block.iter().map(Vec::len).sum();
    let mut rng = SplitMix64::new(seed ^ 0xB007);
    let resamples = (MAX_DRAWS / pairs.max(1)).clamp(200, RESAMPLES);
    let mut ratios: Vec<f64> = (0..resamples)
        .map(|_| {
            let (mut sa, mut sb) = (0.0, 0.0);
            for p in &by_block {
                let (mut xa, mut xb) = (0.0, 0.0);
                for _ in 0..p.len() {
                    let (x, y) = p[rng.below(p.len() as u64) as usize];
                    xa += x;
                    xb += y;
                }
                sa += xa / p.len() as f64;
                sb += xb / p.len() as f64;
            }
            sb / sa
        })
        .collect();
    let (low, high) = percentiles(&mut ratios);
    Estimate {
        ratio,
        low,
        high,
        pairs,
        dropped,
        rounds: a.times.len() / blocks,
        paired: true,
    }
}

/// The ratio of the medians of two independent series of round times, with a bootstrap
/// of each side's rounds.
pub fn unpaired(a: &[f64], b: &[f64], seed: u64) -> Estimate {
    let median = super::stats::median;
    let ratio = median(b) / median(a);
    let mut rng = SplitMix64::new(seed ^ 0xB007);
    let mut draw = |xs: &[f64]| -> f64 {
        let sample: Vec<f64> = (0..xs.len())
            .map(|_| xs[rng.below(xs.len() as u64) as usize])
            .collect();
        median(&sample)
    };
    let mut ratios: Vec<f64> = match a.is_empty() || b.is_empty() {
        true => Vec::new(),
        false => (0..RESAMPLES).map(|_| draw(b) / draw(a)).collect(),
    };
    let (low, high) = percentiles(&mut ratios);
    Estimate {
        ratio,
        low,
        high,
        pairs: a.len().min(b.len()),
        dropped: 0,
        rounds: a.len().min(b.len()),
        paired: false,
    }
}

/// The 2.5th and 97.5th percentiles (NaN for none).
fn percentiles(xs: &mut [f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((xs.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side<'a>(
        label: &'a str,
        outcomes: &'a [Outcome],
        times: &'a [u64],
        blocks: usize,
    ) -> Side<'a> {
        Side {
            label,
            solves: true,
            outcomes,
            times,
            blocks,
            claims: Claims::default(),
        }
    }

    const BUILDS: Rules = Rules {
        kind: Kind::Builds,
        noise_pct: 1.0,
        seed: 1,
        trust_times: false,
    };

    /// `rounds` rounds of `blocks` blocks, block `j` costing `cost(j)`, each time
    /// jittered by up to ±3% with `seed`.
    fn times(
        rounds: usize,
        blocks: usize,
        seed: u64,
        cost: impl Fn(usize, usize) -> f64,
    ) -> Vec<u64> {
        let mut rng = SplitMix64::new(seed);
        (0..rounds * blocks)
            .map(|i| {
                let jitter = 1.0 + (rng.below(61) as f64 - 30.0) / 1000.0;
                (cost(i / blocks, i % blocks) * jitter) as u64
            })
            .collect()
    }

    #[test]
    fn a_tenth_more_work_reads_1_10_however_it_is_spread() {
        let solved = vec![Outcome::Solved; 100];
        // Blocks of very unequal cost (one holds a hard puzzle); the extra work of the
        // new build falls on a tenth of the calls, a different tenth each round, so most
        // blocks' ratios are near 1 and a few far above: the median of the block ratios
        // read 1.04-1.06 for this, the total is 1.10.
        let cost = |_: usize, j: usize| if j == 3 { 400_000.0 } else { 20_000.0 };
        let old = times(30, 10, 1, cost);
        let new: Vec<u64> = old
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                // The hard block doubles one round in ten, the easy ones take a tenth
                // more every round: a tenth more work in all.
                let extra = match (i / 10, i % 10) {
                    (round, 3) => f64::from(u8::from(round % 10 == 0)),
                    _ => 0.1,
                };
                (t as f64 * (1.0 + extra)) as u64
            })
            .collect();
        let total_old: u64 = old.iter().sum();
        let total_new: u64 = new.iter().sum();
        let truth = total_new as f64 / total_old as f64;
        let Judged {
            estimate: e,
            verdict: v,
            ..
        } = judge(
            &side("old", &solved, &old, 10),
            &side("new", &solved, &new, 10),
            &BUILDS,
        );
        let e = e.unwrap();
        assert!((e.ratio - truth).abs() < 0.005, "{e:?} against {truth}");
        assert!(e.low < e.ratio && e.ratio < e.high, "{e:?}");
        assert_eq!(v, Verdict::Regressed);
    }

    #[test]
    fn the_same_code_is_no_change_and_a_disturbance_is_left_out() {
        let solved = vec![Outcome::Solved; 10];
        let a = times(20, 8, 1, |_, _| 50_000.0);
        let mut b = times(20, 8, 2, |_, _| 50_000.0);
        // One turn stopped for 4 ms by another process.
        b[17] += 4_000_000;
        let Judged {
            estimate: e,
            verdict: v,
            why,
        } = judge(
            &side("old", &solved, &a, 8),
            &side("new", &solved, &b, 8),
            &BUILDS,
        );
        let e = e.unwrap();
        assert_eq!(v, Verdict::NoChange, "{e:?}");
        assert!(
            (e.ratio - 1.0).abs() < 0.01 && e.low <= 1.0 && 1.0 <= e.high,
            "{e:?}"
        );
        assert_eq!(e.dropped, 1);
        assert!(why.unwrap().contains("1 of 160 pairs left out"));
    }

    #[test]
    fn outcomes_decide_before_times() {
        let all = vec![Outcome::Solved; 10];
        let mut gave_up = all.clone();
        gave_up[4] = Outcome::GaveUp;
        // The new build gave up on a puzzle after the first round: it is far "faster".
        let t = times(10, 2, 1, |_, _| 10_000.0);
        let fast = times(10, 2, 1, |_, _| 10.0);
        let Judged {
            estimate: e,
            verdict: v,
            why,
        } = judge(
            &side("old", &all, &t, 2),
            &side("new", &gave_up, &fast, 2),
            &BUILDS,
        );
        assert_eq!((e, v), (None, Verdict::Regressed));
        let why = why.unwrap();
        assert!(
            why.contains("new solved 9 of 10 (gave up (budget or time limit) 1)"),
            "{why}"
        );
        // Fixed in the next build: improved, again whatever the times.
        let Judged { verdict: v, .. } = judge(
            &side("old", &gave_up, &fast, 2),
            &side("new", &all, &t, 2),
            &BUILDS,
        );
        assert_eq!(v, Verdict::Improved);
        // Two solvers that gave up on as many, but different, puzzles: no ratio.
        let mut other = all.clone();
        other[7] = Outcome::GaveUp;
        let solvers = Rules {
            kind: Kind::Solvers,
            ..BUILDS
        };
        let Judged {
            estimate: e,
            verdict: v,
            ..
        } = judge(
            &side("a", &gave_up, &t, 2),
            &side("b", &other, &t, 2),
            &solvers,
        );
        assert_eq!((e, v), (None, Verdict::Unjudged));
        // A backend that solves nothing gets no speed verdict.
        let mut null = side("null", &all, &fast, 2);
        null.solves = false;
        let Judged {
            verdict: v, why, ..
        } = judge(&side("a", &all, &t, 2), &null, &solvers);
        assert_eq!(v, Verdict::Unjudged);
        assert!(why.unwrap().contains("null solves nothing"));
    }

    #[test]
    fn times_a_solver_cannot_account_for_give_no_verdict() {
        let all = vec![Outcome::Solved; 10];
        let t = times(10, 2, 1, |_, _| 10_000.0);
        let mut liar = side("liar", &all, &t, 2);
        liar.claims = Claims {
            reported_ns: 20,
            unseen_ns: 120_000,
            second_calls: 0,
        };
        let Judged {
            estimate: e,
            verdict: v,
            why,
        } = judge(&side("old", &all, &t, 2), &liar, &BUILDS);
        assert_eq!((e, v), (None, Verdict::Unjudged));
        assert!(why.unwrap().contains("liar's own times cover 0.0%"));
        let trusting = Rules {
            trust_times: true,
            ..BUILDS
        };
        assert!(
            judge(&side("old", &all, &t, 2), &liar, &trusting)
                .estimate
                .is_some()
        );
    }

    #[test]
    fn two_solvers_get_times_faster_and_about_as_fast_only_when_the_interval_holds_1() {
        let all = vec![Outcome::Solved; 10];
        let fast = times(20, 8, 1, |_, _| 10_000.0);
        let slow = times(20, 8, 2, |_, _| 38_600.0);
        let solvers = Rules {
            kind: Kind::Solvers,
            ..BUILDS
        };
        let Judged {
            estimate: e,
            verdict: v,
            ..
        } = judge(
            &side("a", &all, &fast, 8),
            &side("b", &all, &slow, 8),
            &solvers,
        );
        let e = e.unwrap();
        assert_eq!(v, Verdict::Differs);
        assert!(
            (e.ratio - 3.86).abs() < 0.02 && e.low > 3.8 && e.high < 3.92,
            "{e:?}"
        );
        let same = times(20, 8, 3, |_, _| 10_000.0);
        let Judged {
            estimate: e,
            verdict: v,
            ..
        } = judge(
            &side("a", &all, &fast, 8),
            &side("b", &all, &same, 8),
            &solvers,
        );
        assert_eq!(v, Verdict::AboutAsFast, "{e:?}");
    }
}
