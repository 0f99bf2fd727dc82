//! Summary statistics: means, medians, spreads, outliers and the two-sample test used
//! for regression verdicts. Small samples (benchmark rounds) are plain slices; per-puzzle
//! times, which can number millions, live in HDR histograms.

use hdrhistogram::Histogram;
use statrs::distribution::{ContinuousCDF, StudentsT};

pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample variance (n - 1 in the denominator).
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

pub fn std_dev(xs: &[f64]) -> f64 {
    variance(xs).sqrt()
}

/// The median (mean of the two middle values for an even count).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Median absolute deviation, scaled by 1.4826 so it estimates the standard deviation
/// of normal data.
pub fn mad(xs: &[f64]) -> f64 {
    let m = median(xs);
    let dev: Vec<f64> = xs.iter().map(|x| (x - m).abs()).collect();
    1.4826 * median(&dev)
}

/// Counts values whose modified z-score exceeds 3.5 (Iglewicz and Hoaglin): robust to
/// the outliers it looks for, unlike a mean-and-standard-deviation rule.
pub fn mad_outliers(xs: &[f64]) -> usize {
    let (m, s) = (median(xs), mad(xs));
    if s == 0.0 {
        return xs.iter().filter(|&&x| x != m).count();
    }
    xs.iter().filter(|&&x| ((x - m) / s).abs() > 3.5).count()
}

/// Median absolute deviation of the values in a histogram (scaled as in [`mad`]), and
/// the count of values beyond 3.5 of it from the median.
pub fn histogram_mad(h: &Histogram<u64>) -> (f64, u64) {
    if h.is_empty() {
        return (0.0, 0);
    }
    let m = h.value_at_quantile(0.5) as f64;
    let mut dev = Histogram::<u64>::new_with_bounds(1, h.high(), 3).expect("valid bounds");
    for v in h.iter_recorded() {
        let d = (v.value_iterated_to() as f64 - m).abs() as u64;
        dev.saturating_record_n(d.max(1), v.count_at_value());
    }
    let s = 1.4826 * dev.value_at_quantile(0.5) as f64;
    let outliers = h
        .iter_recorded()
        .filter(|v| s > 0.0 && ((v.value_iterated_to() as f64 - m) / s).abs() > 3.5)
        .map(|v| v.count_at_value())
        .sum();
    (s, outliers)
}

/// Fewest values for which the order statistics give a 95% interval of the median.
pub const MEDIAN_CI_MIN: usize = 6;

/// The median and its distribution-free 95% confidence interval: the order statistics
/// that the sign test gives (exact binomial up to 1,000 values, the normal approximation
/// above). Robust: a few wild values, such as the blocks a disturbance hit, barely move
/// it. With fewer than [`MEDIAN_CI_MIN`] values no such interval exists, and the
/// interval is the whole range (`None` for an empty slice).
pub fn median_ci95(xs: &[f64]) -> Option<(f64, (f64, f64))> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return None;
    }
    let m = median(&v);
    if n < MEDIAN_CI_MIN {
        return Some((m, (v[0], v[n - 1])));
    }
    // k: the most values that may be cut from each end, P(Bin(n, 1/2) <= k - 1) <= 2.5%.
    let k = if n <= 1000 {
        let mut k = 0;
        let mut cdf = 0.0;
        let mut term = 0.5f64.powi(n as i32); // P(X = 0)
        loop {
            cdf += term;
            if cdf > 0.025 {
                break k;
            }
            k += 1;
            term *= (n - k + 1) as f64 / k as f64;
        }
    } else {
        let nf = n as f64;
        ((nf - 1.96 * nf.sqrt()) / 2.0).floor().max(0.0) as usize
    };
    Some((m, (v[k], v[n - 1 - k])))
}

/// Welch's two-sample t-test of the difference of means `b - a`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Welch {
    /// Mean of `b` minus mean of `a`.
    pub difference: f64,
    /// Two-sided 95% confidence interval of the difference.
    pub ci95: (f64, f64),
    /// Two-sided p-value of "the means are equal".
    pub p_value: f64,
}

/// Welch's t-test; `None` with fewer than two values on a side.
pub fn welch(a: &[f64], b: &[f64]) -> Option<Welch> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (va, vb) = (variance(a) / na, variance(b) / nb);
    let difference = mean(b) - mean(a);
    let se = (va + vb).sqrt();
    if se == 0.0 {
        // Identical constant samples: no evidence of change unless the means differ.
        let p = if difference == 0.0 { 1.0 } else { 0.0 };
        return Some(Welch {
            difference,
            ci95: (difference, difference),
            p_value: p,
        });
    }
    // Welch-Satterthwaite degrees of freedom.
    let df = (va + vb).powi(2) / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    let t = StudentsT::new(0.0, 1.0, df).ok()?;
    let stat = difference / se;
    let p_value = 2.0 * (1.0 - t.cdf(stat.abs()));
    let q = t.inverse_cdf(0.975);
    Some(Welch {
        difference,
        ci95: (difference - q * se, difference + q * se),
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn basic_statistics() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&xs), 5.0);
        assert!(close(variance(&xs), 32.0 / 7.0, 1e-12));
        assert_eq!(median(&xs), 4.5);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        // |x - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5 -> median 0.5
        assert!(close(mad(&xs), 1.4826 * 0.5, 1e-12));
        assert!(mean(&[]).is_nan());
    }

    #[test]
    fn median_interval_is_the_sign_tests_order_statistics() {
        // n = 10: P(X <= 1) = 11/1024 <= 2.5% < P(X <= 2) = 56/1024: cut 2 from each end.
        let xs: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        assert_eq!(median_ci95(&xs), Some((5.5, (3.0, 8.0))));
        // Too few for a 95% interval: the whole range.
        assert_eq!(median_ci95(&[3.0, 1.0, 2.0]), Some((2.0, (1.0, 3.0))));
        assert_eq!(median_ci95(&[]), None);
        // A wild value does not move it.
        let mut ys = vec![1.0; 50];
        ys[7] = 1e9;
        assert_eq!(median_ci95(&ys), Some((1.0, (1.0, 1.0))));
        // The normal approximation meets the exact one.
        let big: Vec<f64> = (0..2000).map(f64::from).collect();
        let (_, (lo, hi)) = median_ci95(&big).unwrap();
        assert!((955.0..=957.0).contains(&lo) && (1042.0..=1044.0).contains(&hi));
    }

    #[test]
    fn outliers_by_modified_z_score() {
        let xs = [10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 30.0];
        assert_eq!(mad_outliers(&xs), 1);
        assert_eq!(mad_outliers(&[1.0, 1.0, 1.0]), 0);
    }

    #[test]
    fn histogram_mad_matches_the_slice_version() {
        let mut h = Histogram::<u64>::new_with_bounds(1, 1_000_000, 3).unwrap();
        let xs: Vec<u64> = (1..=99).map(|i| 1000 + i * 10).chain([500_000]).collect();
        for &x in &xs {
            h.record(x).unwrap();
        }
        let f: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
        let (s, outliers) = histogram_mad(&h);
        assert!(close(s, mad(&f), mad(&f) * 0.01), "{s} vs {}", mad(&f));
        assert_eq!(outliers, 1);
    }

    #[test]
    fn welch_matches_known_values() {
        // scipy.stats.ttest_ind(b, a, equal_var=False): t = 2.07401, p = 0.064280,
        // 95% confidence interval (-0.223994, 6.503994).
        let a = [19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0];
        let b = [28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7];
        let w = welch(&a, &b).unwrap();
        assert!(close(w.difference, mean(&b) - mean(&a), 1e-12));
        assert!(close(w.p_value, 0.064280, 1e-5), "{}", w.p_value);
        assert!(close(w.ci95.0, -0.223994, 1e-5), "{:?}", w.ci95);
        assert!(close(w.ci95.1, 6.503994, 1e-5), "{:?}", w.ci95);
        let same = welch(&[1.0, 1.0], &[1.0, 1.0]).unwrap();
        assert_eq!(same.p_value, 1.0);
        assert!(welch(&[1.0], &[1.0, 2.0]).is_none());
    }
}
