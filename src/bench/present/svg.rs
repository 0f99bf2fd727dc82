//! Small hand-made SVG charts for the HTML report and `history --plot`: a log-log
//! scatter of one backend's per-puzzle times against another's, and trend lines with
//! change points. Every text is escaped; sizes are fixed so a page lays out at once.

use std::fmt::Write as _;

use super::html::escape;

const W: f64 = 640.0;
const H: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 50.0;

/// A log-log scatter: x = `a`'s time, y = `b`'s time, µs, with the diagonal and the
/// noise band; points above the band (slower in `b`) in red, below in green.
pub fn scatter(title: &str, a: &str, b: &str, points: &[(f64, f64)], band_pct: f64) -> String {
    let positive: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0)
        .collect();
    let lo = positive
        .iter()
        .map(|p| p.0.min(p.1))
        .fold(f64::INFINITY, f64::min);
    let hi = positive.iter().map(|p| p.0.max(p.1)).fold(0.0, f64::max);
    let (lo, hi) = if positive.is_empty() {
        (1.0, 10.0)
    } else {
        (
            10f64.powf(lo.log10().floor()),
            10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0)),
        )
    };
    let (l0, l1) = (lo.log10(), hi.log10());
    let x = |v: f64| LEFT + (v.log10() - l0) / (l1 - l0) * (W - LEFT - RIGHT);
    let y = |v: f64| H - BOTTOM - (v.log10() - l0) / (l1 - l0) * (H - TOP - BOTTOM);
    let mut s = open(title);
    // Decades.
    let mut d = lo;
    while d <= hi * 1.0001 {
        let _ = write!(
            s,
            r##"<line x1="{x0:.1}" y1="{y0:.1}" x2="{x0:.1}" y2="{y1:.1}" class="grid"/><line x1="{l:.1}" y1="{yy:.1}" x2="{r:.1}" y2="{yy:.1}" class="grid"/><text x="{x0:.1}" y="{ty:.1}" class="tick" text-anchor="middle">{lab}</text><text x="{tx:.1}" y="{yy:.1}" class="tick" text-anchor="end" dy="4">{lab}</text>"##,
            x0 = x(d),
            y0 = TOP,
            y1 = H - BOTTOM,
            l = LEFT,
            r = W - RIGHT,
            yy = y(d),
            ty = H - BOTTOM + 16.0,
            tx = LEFT - 6.0,
            lab = tick_label(d),
        );
        d *= 10.0;
    }
    // The diagonal and the band.
    let k = 1.0 + band_pct / 100.0;
    let _ = write!(
        s,
        r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" class="band"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" class="diag"/>"##,
        x(lo),
        y((lo * k).min(hi)),
        x(hi / k),
        y(hi),
        x(hi),
        y(hi / k),
        x(lo * k),
        y(lo),
        x(lo),
        y(lo),
        x(hi),
        y(hi),
    );
    for &(a_us, b_us) in &positive {
        let class = if b_us > a_us * k {
            "slower"
        } else if b_us * k < a_us {
            "faster"
        } else {
            "same"
        };
        let _ = write!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="2" class="{class}"/>"#,
            x(a_us),
            y(b_us)
        );
    }
    let slower = positive.iter().filter(|(a, b)| *b > a * k).count();
    let faster = positive.iter().filter(|(a, b)| b * k < *a).count();
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" class="axis" text-anchor="middle">{} µs per puzzle</text><text x="16" y="{:.1}" class="axis" text-anchor="middle" transform="rotate(-90 16 {:.1})">{} µs per puzzle</text><text x="{:.1}" y="{:.1}" class="note">{} puzzles: {} slower in {} by more than {}%, {} faster</text></svg>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 12.0,
        escape(a),
        (TOP + H - BOTTOM) / 2.0,
        (TOP + H - BOTTOM) / 2.0,
        escape(b),
        LEFT + 8.0,
        TOP + 14.0,
        positive.len(),
        slower,
        escape(b),
        band_pct,
        faster,
    );
    s
}

/// A trend: values in order (x is the run's position), change points as vertical
/// marks with their change, the x labels from `labels` (dates) at a few places.
pub fn trend(title: &str, values: &[f64], labels: &[String], steps: &[(usize, f64)]) -> String {
    let mut s = open(title);
    if values.is_empty() {
        s.push_str("</svg>");
        return s;
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(hi * 0.02).max(1e-9);
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    let n = values.len();
    let x = |i: usize| {
        LEFT + if n > 1 {
            i as f64 / (n - 1) as f64
        } else {
            0.5
        } * (W - LEFT - RIGHT)
    };
    let y = |v: f64| H - BOTTOM - (v - lo) / (hi - lo) * (H - TOP - BOTTOM);
    for t in 0..=4 {
        let v = lo + (hi - lo) * t as f64 / 4.0;
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{r:.1}" y2="{yy:.1}" class="grid"/><text x="{tx:.1}" y="{yy:.1}" dy="4" class="tick" text-anchor="end">{v:.3}</text>"##,
            yy = y(v),
            r = W - RIGHT,
            tx = LEFT - 6.0,
        );
    }
    let ticks = n.min(5);
    for t in 0..ticks {
        let i = if ticks > 1 {
            t * (n - 1) / (ticks - 1)
        } else {
            0
        };
        let label = labels.get(i).map_or("", |l| l.get(..10).unwrap_or(l));
        let anchor = match t {
            0 if ticks > 1 => "start",
            t if t + 1 == ticks && ticks > 1 => "end",
            _ => "middle",
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="{anchor}">{}</text>"#,
            x(i),
            H - BOTTOM + 16.0,
            escape(label)
        );
    }
    for &(i, pct) in steps {
        let xx = (x(i - 1) + x(i)) / 2.0;
        let class = if pct > 0.0 { "step-up" } else { "step-down" };
        let _ = write!(
            s,
            r#"<line x1="{xx:.1}" y1="{TOP}" x2="{xx:.1}" y2="{:.1}" class="{class}"/><text x="{:.1}" y="{:.1}" class="{class}-text">{pct:+.1}%</text>"#,
            H - BOTTOM,
            xx + 4.0,
            TOP + 12.0,
        );
    }
    let path: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let _ = write!(
        s,
        r#"<polyline points="{}" class="trend"/>"#,
        path.join(" ")
    );
    for (i, &v) in values.iter().enumerate() {
        let _ = write!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" class="point"/>"#,
            x(i),
            y(v)
        );
    }
    let _ = write!(
        s,
        r#"<text x="16" y="{c:.1}" class="axis" text-anchor="middle" transform="rotate(-90 16 {c:.1})">µs per puzzle</text></svg>"#,
        c = (TOP + H - BOTTOM) / 2.0
    );
    s
}

fn open(title: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img"><style>{STYLE}</style><title>{t}</title><rect width="{W}" height="{H}" fill="white"/><text x="{LEFT}" y="18" class="title">{t}</text>"#,
        t = escape(title)
    )
}

/// Inside each SVG, so a plot saved alone (`history --plot`) looks the same.
const STYLE: &str = "text{font-family:system-ui,sans-serif}.title{font-size:14px;font-weight:600}\
.tick{font-size:11px;fill:#555}.axis{font-size:12px}.note{font-size:11px;fill:#333}\
.grid{stroke:#e3e3e3}.diag{stroke:#444;stroke-dasharray:4 3}.band{fill:#eef}\
.slower{fill:#d62728;fill-opacity:.6}.faster{fill:#2ca02c;fill-opacity:.6}.same{fill:#1f77b4;fill-opacity:.35}\
.trend{fill:none;stroke:#1f77b4;stroke-width:1.5}.point{fill:#1f77b4}\
.step-up{stroke:#d62728;stroke-width:1.5}.step-down{stroke:#2ca02c;stroke-width:1.5}\
.step-up-text{font-size:11px;fill:#d62728}.step-down-text{font-size:11px;fill:#2ca02c}";

fn tick_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// At most `max` points: evenly spaced ones, and the `max / 10` farthest from the
/// diagonal (the puzzles that moved most), in input order.
pub fn thin(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
    if points.len() <= max {
        return points.to_vec();
    }
    let far = max / 10;
    let mut by_distance: Vec<usize> = (0..points.len()).collect();
    let dist = |i: usize| {
        let (a, b) = points[i];
        (b.max(1e-9) / a.max(1e-9)).ln().abs()
    };
    by_distance.sort_by(|&i, &j| dist(j).total_cmp(&dist(i)));
    let mut keep = vec![false; points.len()];
    for &i in by_distance.iter().take(far) {
        keep[i] = true;
    }
    let step = points.len() as f64 / (max - far) as f64;
    for k in 0..max - far {
        keep[(k as f64 * step) as usize] = true;
    }
    points
        .iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(*p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_points_are_classed() {
        let svg = scatter(
            "<t>",
            "a&b",
            "<script>",
            &[(1.0, 2.0), (2.0, 1.0), (5.0, 5.0), (0.0, 1.0)],
            5.0,
        );
        assert!(!svg.contains("<script>") && svg.contains("&lt;script&gt;"));
        assert!(svg.contains("a&amp;b"));
        assert_eq!(svg.matches("class=\"slower\"").count(), 1);
        assert_eq!(svg.matches("class=\"faster\"").count(), 1);
        assert_eq!(svg.matches("class=\"same\"").count(), 1);
        assert!(svg.ends_with("</svg>"));
    }

    #[test]
    fn thinning_keeps_the_extremes() {
        let mut pts: Vec<(f64, f64)> = (1..=10_000).map(|i| (i as f64, i as f64)).collect();
        pts[5000].1 = 1e6;
        let thin = thin(&pts, 1000);
        assert!(thin.len() <= 1000);
        assert!(thin.contains(&(5001.0, 1e6)));
    }

    #[test]
    fn a_trend_marks_its_steps() {
        let svg = trend(
            "t",
            &[1.0, 1.0, 2.0, 2.0],
            &vec!["2026-01-01T00:00:00Z".to_string(); 4],
            &[(2, 100.0)],
        );
        assert!(svg.contains("+100.0%") && svg.contains("step-up"));
        assert!(svg.contains("2026-01-01"));
    }
}
