//! Summary statistics: means, medians, spreads and outliers (the verdicts' intervals are
//! `judge`'s bootstraps). Small samples (benchmark rounds) are plain slices; per-puzzle
//! times, which can number millions, live in HDR histograms.

use hdrhistogram::Histogram;

/// NaN for none (0 / 0).
pub fn mean(xs: &[f64]) -> f64 {
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
}
