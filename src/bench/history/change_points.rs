//! Change points in a series of benchmark results, told apart by the builds on either
//! side: optimal partitioning (Jackson et al., 2005) of the log times, on a median-of-3
//! smoothing, with a per-step penalty of `4 σ² ln n` where the build changes and twice
//! that within one build. docs/bench.md ("History") says why.

use std::sync::atomic::{AtomicBool, Ordering};

/// What a step lies between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Two builds whose code differs.
    Code,
    /// Runs of one build: the machine moved.
    Machine,
    /// A build on either side was not recorded (entries older than the code hash).
    Unrecorded,
}

/// One change point: the series moves from `before` to `after` at point `index`.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub index: usize,
    pub before: f64,
    pub after: f64,
    pub cause: Cause,
}

impl Step {
    /// The change in percent (positive: slower).
    pub fn change_pct(&self) -> f64 {
        (self.after / self.before - 1.0) * 100.0
    }
}

/// Shortest segment: one point alone could be an outlier.
const MIN_SEGMENT: usize = 2;
/// Longest series looked at (the newest points): O(n²) must stay quick.
pub const MAX_POINTS: usize = 5000;

/// What lies between runs `i - 1` and `i` of a series whose runs were measured by
/// `builds` (a code identity each; `None` where it was not recorded).
pub fn cause(builds: &[Option<&str>], i: usize) -> Cause {
    match (builds[i - 1], builds[i]) {
        (Some(a), Some(b)) if a == b => Cause::Machine,
        (Some(_), Some(_)) => Cause::Code,
        _ => Cause::Unrecorded,
    }
}

/// The change points of `values` (positive numbers, e.g. µs per puzzle), oldest first,
/// measured by `builds` (as many); cut short (and not all found) once `stop` is set.
pub fn detect(
    values: &[f64],
    builds: &[Option<&str>],
    min_step_pct: f64,
    stop: &AtomicBool,
) -> Vec<Step> {
    let y: Vec<f64> = values.iter().map(|v| v.max(1e-12).ln()).collect();
    let n = y.len();
    if n < 2 * MIN_SEGMENT {
        return Vec::new();
    }
    let sigma = noise(&y).max(1e-4);
    let unit = sigma * sigma * (n as f64).ln();
    // The penalty of a segment starting at each run (the first starts the series).
    let penalty: Vec<f64> = (0..n)
        .map(|i| match i {
            0 => 0.0,
            _ if cause(builds, i) == Cause::Machine => 8.0 * unit,
            _ => 4.0 * unit,
        })
        .collect();
    let mut starts = partition(&median3(&y), &penalty, stop);
    // Merge the smallest step while any is below the threshold.
    while !stop.load(Ordering::Relaxed) {
        // The steps between the segments, each segment at its median.
        let level = |i: usize| {
            let end = starts.get(i + 1).copied().unwrap_or(y.len());
            let mut seg: Vec<f64> = y[starts[i]..end].to_vec();
            seg.sort_by(f64::total_cmp);
            seg[seg.len() / 2].exp()
        };
        let steps: Vec<Step> = (1..starts.len())
            .map(|i| Step {
                index: starts[i],
                before: level(i - 1),
                after: level(i),
                cause: cause(builds, starts[i]),
            })
            .collect();
        let smallest = steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.change_pct().abs() < min_step_pct)
            .min_by(|a, b| a.1.change_pct().abs().total_cmp(&b.1.change_pct().abs()));
        let Some((i, _)) = smallest else {
            return steps;
        };
        starts.remove(i + 1);
    }
    Vec::new()
}

/// Running median of three, the ends by Tukey's rule (the median of the end point, its
/// neighbour, and the neighbour's line extrapolated): a lone outlier at either end goes.
/// `detect` smooths four points at least.
fn median3(y: &[f64]) -> Vec<f64> {
    let med = |a: f64, b: f64, c: f64| a.max(b).min(a.min(b).max(c));
    let n = y.len();
    let mut out: Vec<f64> = (0..n)
        .map(|i| match i {
            0 => y[0],
            _ if i == n - 1 => y[i],
            _ => med(y[i - 1], y[i], y[i + 1]),
        })
        .collect();
    out[0] = med(y[0], out[1], 3.0 * out[1] - 2.0 * out[2]);
    out[n - 1] = med(y[n - 1], out[n - 2], 3.0 * out[n - 2] - 2.0 * out[n - 3]);
    out
}

/// Robust noise: the median absolute successive difference, scaled to a standard
/// deviation (1.4826 for the MAD of a normal, √2 for the difference of two points).
fn noise(y: &[f64]) -> f64 {
    let mut d: Vec<f64> = y.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    d.sort_by(f64::total_cmp);
    let median = d[d.len() / 2];
    median * 1.4826 / std::f64::consts::SQRT_2
}

/// The segment starts (0 first) minimizing cost + `penalty[start]` per segment; one
/// segment once `stop` is set (the search is O(n²)).
fn partition(y: &[f64], penalty: &[f64], stop: &AtomicBool) -> Vec<usize> {
    let n = y.len();
    let mut sum = vec![0.0; n + 1];
    let mut sq = vec![0.0; n + 1];
    for (i, v) in y.iter().enumerate() {
        sum[i + 1] = sum[i] + v;
        sq[i + 1] = sq[i] + v * v;
    }
    // Squared error of y[a..b] around its mean.
    let cost = |a: usize, b: usize| {
        let len = (b - a) as f64;
        let s = sum[b] - sum[a];
        ((sq[b] - sq[a]) - s * s / len).max(0.0)
    };
    // best[b]: the least cost of y[..b] (infinite where there is none: a segment would be
    // too short), so no segment starts there; last[b]: where its last segment starts.
    let mut best = vec![f64::INFINITY; n + 1];
    let mut last = vec![0usize; n + 1];
    best[0] = 0.0;
    for b in MIN_SEGMENT..=n {
        if stop.load(Ordering::Relaxed) {
            return vec![0];
        }
        for a in (0..=b - MIN_SEGMENT).rev() {
            let c = best[a] + penalty[a] + cost(a, b);
            if c < best[b] {
                best[b] = c;
                last[b] = a;
            }
        }
    }
    // Back from the end, segment by segment, to the start at 0.
    let mut starts: Vec<usize> =
        std::iter::successors(Some(last[n]), |&a| (a > 0).then(|| last[a])).collect();
    starts.reverse();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    static GO: AtomicBool = AtomicBool::new(false);

    /// A deterministic wobble of about ±1%.
    fn noisy(level: f64, n: usize, seed: u64) -> Vec<f64> {
        let mut rng = crate::base::rng::SplitMix64::new(seed);
        (0..n)
            .map(|_| level * (1.0 + (rng.next_u64() % 2001) as f64 / 100_000.0 - 0.01))
            .collect()
    }

    /// Every run a build of its own (CI), named by its position.
    fn each_new(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    fn detect_new(values: &[f64], min: f64) -> Vec<Step> {
        let names = each_new(values.len());
        let builds: Vec<Option<&str>> = names.iter().map(|b| Some(b.as_str())).collect();
        detect(values, &builds, min, &GO)
    }

    #[test]
    fn a_flat_series_has_no_step() {
        assert!(detect_new(&noisy(10.0, 40, 1), 2.0).is_empty());
        assert!(detect_new(&[5.0; 30], 2.0).is_empty());
    }

    #[test]
    fn a_step_is_found_where_it_happened() {
        let mut y = noisy(10.0, 20, 2);
        y.extend(noisy(11.0, 15, 3));
        let steps = detect_new(&y, 2.0);
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!((steps[0].index, steps[0].cause), (20, Cause::Code));
        assert!((steps[0].change_pct() - 10.0).abs() < 2.0, "{steps:?}");
    }

    #[test]
    fn two_steps_both_ways() {
        let mut y = noisy(10.0, 12, 4);
        y.extend(noisy(8.0, 12, 5));
        y.extend(noisy(9.0, 12, 6));
        let idx: Vec<usize> = detect_new(&y, 2.0).iter().map(|s| s.index).collect();
        assert_eq!(idx, [12, 24]);
    }

    #[test]
    fn one_outlier_is_not_a_step_but_two_points_on_a_new_level_are() {
        let mut y = noisy(10.0, 20, 7);
        y[10] = 30.0;
        assert!(detect_new(&y, 2.0).is_empty());
        let mut y = noisy(10.0, 20, 8);
        y.extend([13.0, 13.1]);
        let steps = detect_new(&y, 2.0);
        assert_eq!(steps.iter().map(|s| s.index).collect::<Vec<_>>(), [20]);
        // A lone outlier at either end is not a step either.
        for at in [0, 19] {
            let mut y = noisy(10.0, 20, 9);
            y[at] = 30.0;
            assert!(detect_new(&y, 2.0).is_empty(), "{at}");
        }
    }

    #[test]
    fn steps_below_the_threshold_are_merged() {
        let mut y = vec![10.0; 10];
        y.extend([10.1; 10]);
        assert_eq!(detect_new(&y, 0.5).len(), 1);
        assert!(detect_new(&y, 2.0).is_empty());
    }

    #[test]
    fn causes_come_from_the_builds_on_either_side() {
        let b = [Some("a"), Some("a"), Some("b"), None, None];
        let causes: Vec<Cause> = (1..b.len()).map(|i| cause(&b, i)).collect();
        // Two unrecorded builds are never taken for one.
        use Cause::*;
        assert_eq!(causes, [Machine, Code, Unrecorded, Unrecorded]);
    }

    proptest! {
        #[test]
        fn steps_are_ordered_in_range_and_apart(
            values in proptest::collection::vec(0.001f64..1e6, 0..80),
            builds in proptest::collection::vec(proptest::option::of(0u8..3), 80),
            min in 0.0f64..20.0,
        ) {
            let names: Vec<Option<String>> = builds.iter().map(|b| b.map(|b| b.to_string())).collect();
            let builds: Vec<Option<&str>> = names[..values.len()].iter().map(|b| b.as_deref()).collect();
            let steps = detect(&values, &builds, min, &GO);
            let mut prev = 0;
            for s in &steps {
                prop_assert!(s.index >= prev + MIN_SEGMENT && s.index + MIN_SEGMENT <= values.len());
                prop_assert!(s.change_pct().abs() >= min);
                prop_assert!(s.before.is_finite() && s.after.is_finite());
                prop_assert_eq!(s.cause, cause(&builds, s.index));
                prev = s.index;
            }
        }
    }
}
