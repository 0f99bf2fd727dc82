//! Relative speed: on each dataset at each thread count, the backend with the lowest
//! headline and how many times faster it ran than each other one, with the uncertainty
//! (hyperfine's summary is the model). Computed once here; every output (terminal,
//! Markdown, JSON, CSV, HTML) renders this value.
//!
//! The ratio is of the headlines (medians over rounds), so a reader can check it against
//! the table. Its uncertainty is hyperfine's first-order propagation of the two sides'
//! relative standard deviations between rounds (the table's spread column):
//! `σ = ratio · √(cv_fast² + cv_other²)`. Not an interval of the medians: with the
//! default five rounds the order statistics give none (`stats::MEDIAN_CI_MIN`), while the
//! spread is defined from two rounds on. The two backends' rounds are measured one after
//! the other, so they are taken as independent (`--paired` measures the correlated,
//! block-by-block ratio instead). A tie is decided on the logarithm of the ratio, whose
//! first-order standard deviation is `σ / ratio` (times are multiplicative: on the ratio
//! itself a thousandfold difference with wide spreads would pass for a tie): within two
//! of them is within the noise. That is stricter than a test on the standard error, so
//! no winner is declared by noise.

use serde::Serialize;

use super::{BenchResult, stats};
use crate::solver::Backend;

/// Differences within this many standard deviations of the log ratio are no difference.
const TIE_SIGMAS: f64 = 2.0;

/// One dataset at one thread count (only where at least two backends ran).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Relative {
    pub dataset: String,
    pub threads: usize,
    /// The lowest headline among the backends that can be compared; `None` when none can.
    pub fastest: Option<String>,
    /// Every other backend, in the run's order.
    pub others: Vec<Versus>,
}

/// One backend against the fastest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Versus {
    pub backend: String,
    /// Its headline / the fastest's (at least 1): how many times faster the fastest ran.
    pub ratio: Option<f64>,
    /// One standard deviation of `ratio`; `None` with fewer than two rounds on a side.
    pub ratio_sd: Option<f64>,
    pub standing: Standing,
    /// Why there is no ratio (`standing` is `no_ratio`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Slower than the fastest by more than the uncertainty.
    Slower,
    /// Within the uncertainty: not told apart from the fastest.
    WithinNoise,
    /// Fewer than two rounds on a side: no uncertainty, so no claim either way.
    TooFewRounds,
    /// Not compared (`why` says why).
    NoRatio,
}

impl Standing {
    pub fn name(self) -> &'static str {
        match self {
            Standing::Slower => "slower",
            Standing::WithinNoise => "within_noise",
            Standing::TooFewRounds => "too_few_rounds",
            Standing::NoRatio => "no_ratio",
        }
    }
}

impl Relative {
    /// How `backend` stands on this dataset and thread count: `None` for the fastest.
    pub fn of(&self, backend: &str) -> Option<&Versus> {
        self.others.iter().find(|v| v.backend == backend)
    }
}

/// The summaries of a run: one per dataset x thread count with two backends or more, in
/// the order the run measured them.
pub fn summarize(results: &[BenchResult]) -> Vec<Relative> {
    let mut groups: Vec<Vec<&BenchResult>> = Vec::new();
    for r in results {
        let same = |g: &&mut Vec<&BenchResult>| {
            g[0].dataset.path == r.dataset.path
                && g[0].dataset.hash == r.dataset.hash
                && g[0].threads == r.threads
        };
        match groups.iter_mut().find(same) {
            Some(g) if !g.iter().any(|o| o.backend == r.backend) => g.push(r),
            Some(_) => {}
            None => groups.push(vec![r]),
        }
    }
    groups
        .into_iter()
        .filter(|g| g.len() > 1)
        .map(|g| relative(&g))
        .collect()
}

fn relative(group: &[&BenchResult]) -> Relative {
    // Compared on the same puzzles only: the backends that time the most of them.
    let most = group
        .iter()
        .filter(|r| unfit(r).is_none())
        .map(|r| r.timed_puzzles())
        .max();
    let why = |r: &BenchResult| {
        unfit(r).or_else(|| {
            (Some(r.timed_puzzles()) < most).then(|| {
                format!(
                    "solves fewer of the boards ({} of {} of a size it does not solve): its µs/puzzle is over other puzzles",
                    r.unsupported, r.dataset.puzzles
                )
            })
        })
    };
    let fastest = group
        .iter()
        .filter(|r| why(r).is_none())
        .min_by(|a, b| a.us_per_puzzle.total_cmp(&b.us_per_puzzle));
    let others = group
        .iter()
        .filter(|r| fastest.is_none_or(|f| !std::ptr::eq(*f, **r)))
        .map(|r| match (why(r), fastest) {
            (None, Some(f)) => versus(f, r),
            // There is no fastest only when every backend has its reason.
            (why, _) => Versus {
                backend: r.backend.clone(),
                ratio: None,
                ratio_sd: None,
                standing: Standing::NoRatio,
                why,
            },
        })
        .collect();
    Relative {
        dataset: group[0].dataset.path.clone(),
        threads: group[0].threads,
        fastest: fastest.map(|f| f.backend.clone()),
        others,
    }
}

/// Why a result's time is not a solve time to compare, if it is not.
fn unfit(r: &BenchResult) -> Option<String> {
    let spec = r.spec.as_deref().unwrap_or(&r.backend);
    if spec.parse::<Backend>().is_ok_and(|b| !b.is_solver()) {
        return Some("solves nothing: it measures the harness's own cost".into());
    }
    if r.wrong > 0 {
        return Some(format!("{} wrong answers or failures", r.wrong));
    }
    if r.budget_exceeded > 0 {
        return Some(format!(
            "{} puzzles stopped at the node budget or time limit: their time is the budget's",
            r.budget_exceeded
        ));
    }
    if r.timed_puzzles() == 0 {
        return Some("solves none of the boards".into());
    }
    if r.rounds_ns.is_empty() || !(r.us_per_puzzle.is_finite() && r.us_per_puzzle > 0.0) {
        return Some("no time measured".into());
    }
    None
}

/// `other` against the fastest `f`.
fn versus(f: &BenchResult, other: &BenchResult) -> Versus {
    let ratio = other.us_per_puzzle / f.us_per_puzzle;
    let cv = |r: &BenchResult| {
        let xs: Vec<f64> = r.rounds_ns.iter().map(|&ns| ns as f64).collect();
        (xs.len() >= 2).then(|| stats::std_dev(&xs) / stats::mean(&xs))
    };
    // The standard deviation of the log ratio.
    let log_sd = match (cv(f), cv(other)) {
        (Some(a), Some(b)) => Some((a * a + b * b).sqrt()),
        _ => None,
    };
    let standing = match log_sd {
        None => Standing::TooFewRounds,
        Some(sd) if ratio.ln() <= TIE_SIGMAS * sd => Standing::WithinNoise,
        Some(_) => Standing::Slower,
    };
    Versus {
        backend: other.backend.clone(),
        ratio: Some(ratio),
        ratio_sd: log_sd.map(|sd| ratio * sd),
        standing,
        why: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::dataset::DatasetInfo;

    /// A result whose rounds took these milliseconds, on 1,000 puzzles.
    fn result(backend: &str, rounds_ms: &[f64]) -> BenchResult {
        let rounds: Vec<f64> = rounds_ms.iter().map(|ms| ms * 1e6).collect();
        BenchResult {
            backend: backend.into(),
            dataset: DatasetInfo {
                path: "d.txt".into(),
                hash: "h".into(),
                puzzles: 1000,
                records: 1000,
                ..Default::default()
            },
            threads: 1,
            rounds_ns: rounds.iter().map(|&ns| ns as u64).collect(),
            us_per_puzzle: stats::median(&rounds) / 1000.0 / 1000.0,
            ..Default::default()
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_ratio_is_of_the_medians_and_its_sd_propagates_the_spreads() {
        // Medians 40 and 10 ms; relative standard deviations 0.1/4 (sd of 3.9, 4, 4.1
        // is 0.1, mean 4) and 0.1 (sd of 0.9, 1, 1.1 is 0.1, mean 1).
        let r = summarize(&[
            result("slow", &[39.0, 40.0, 41.0]),
            result("fast", &[9.0, 10.0, 11.0]),
        ]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].fastest.as_deref(), Some("fast"));
        let v = r[0].of("slow").unwrap();
        assert!(close(v.ratio.unwrap(), 4.0));
        let want = 4.0 * (0.025f64.powi(2) + 0.1f64.powi(2)).sqrt();
        assert!(close(v.ratio_sd.unwrap(), want), "{:?}", v.ratio_sd);
        assert_eq!(v.standing, Standing::Slower);
        assert!(r[0].of("fast").is_none());
    }

    #[test]
    fn a_difference_within_the_noise_is_a_tie_and_one_round_makes_no_claim() {
        let r = summarize(&[
            result("a", &[10.0, 12.0, 8.0]),
            result("b", &[10.5, 12.5, 8.5]),
        ]);
        // Medians 10 and 10.5 ms, each round 2 ms either side: 1.05, well within 2σ.
        assert_eq!(r[0].fastest.as_deref(), Some("a"));
        let v = r[0].of("b").unwrap();
        assert!(close(v.ratio.unwrap(), 1.05));
        assert_eq!(v.standing, Standing::WithinNoise);

        // A thousandfold difference is one, however wide the spreads.
        let r = summarize(&[
            result("a", &[1.0, 1.5, 0.5]),
            result("b", &[1000.0, 1500.0, 500.0]),
        ]);
        assert_eq!(r[0].of("b").unwrap().standing, Standing::Slower);

        let r = summarize(&[result("a", &[20.0]), result("b", &[10.0])]);
        let v = r[0].of("a").unwrap();
        assert!(close(v.ratio.unwrap(), 2.0));
        assert_eq!((v.ratio_sd, v.standing), (None, Standing::TooFewRounds));
    }

    #[test]
    fn failed_and_other_work_get_no_ratio_and_say_why() {
        let mut wrong = result("wrong", &[1.0, 1.0]);
        wrong.wrong = 3;
        let mut budget = result("budget", &[1.0, 1.0]);
        budget.budget_exceeded = 2;
        let mut fewer = result("fewer", &[1.0, 1.0]);
        fewer.unsupported = 10;
        let null = result("null", &[0.5, 0.5]);
        let r = summarize(&[wrong, budget, fewer, null, result("ok", &[5.0, 5.0])]);
        assert_eq!(r[0].fastest.as_deref(), Some("ok"));
        for (name, why) in [
            ("wrong", "3 wrong answers"),
            ("budget", "budget"),
            ("fewer", "solves fewer of the boards"),
            ("null", "solves nothing"),
        ] {
            let v = r[0].of(name).unwrap();
            assert_eq!((v.ratio, v.standing), (None, Standing::NoRatio), "{name}");
            assert!(
                v.why.as_deref().unwrap().contains(why),
                "{name}: {:?}",
                v.why
            );
        }
    }

    #[test]
    fn one_backend_has_no_summary_and_groups_are_per_dataset_and_threads() {
        assert!(summarize(&[result("a", &[1.0])]).is_empty());
        let mut other = result("b", &[2.0, 2.0]);
        other.threads = 2;
        let mut a2 = result("a", &[3.0, 3.0]);
        a2.threads = 2;
        let r = summarize(&[
            result("a", &[1.0, 1.0]),
            result("b", &[2.0, 2.0]),
            other,
            a2,
        ]);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].threads, r[0].fastest.as_deref()), (1, Some("a")));
        assert_eq!((r[1].threads, r[1].fastest.as_deref()), (2, Some("b")));
        // Nothing comparable: no fastest, each says why.
        let mut x = result("x", &[1.0]);
        x.wrong = 1;
        let mut y = result("y", &[1.0]);
        y.wrong = 1;
        let r = summarize(&[x, y]);
        assert_eq!(r[0].fastest, None);
        assert_eq!(r[0].others.len(), 2);
    }
}
