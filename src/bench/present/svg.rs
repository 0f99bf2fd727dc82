//! The one SVG generator, by hand: a log-log scatter of one backend's per-puzzle times
//! against another's, trend lines with change points (the HTML report, `history --plot`),
//! and cumulative distributions of per-puzzle time (`--export-svg`, the report). Every
//! text is escaped; sizes are fixed so a page lays out at once.

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

/// One panel of [`cdf`]: its title, and each series' label and (µs, fraction) points.
pub type Panel<'a> = (String, Vec<(String, &'a [(f64, f64)])>);

/// Line colours of [`cdf`], a series each; past the tenth, dashed, then dotted.
const COLORS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Cumulative distributions, one panel per dataset one above the other: each series as
/// steps (the fraction at or below each time) on a log x axis, a legend lower right.
pub fn cdf(title: &str, panels: &[Panel<'_>]) -> String {
    let mut s = root(title, H * panels.len().max(1) as f64);
    let (bottom, right, middle) = (H - BOTTOM, W - RIGHT, (TOP + H - BOTTOM) / 2.0);
    let (center, below, before_axis) = ((LEFT + right) / 2.0, bottom + 16.0, LEFT - 6.0);
    for (k, (caption, series)) in panels.iter().enumerate() {
        let times = series.iter().flat_map(|(_, points)| points.iter());
        let times = times.map(|p| p.0).filter(|t| t.is_finite());
        // No time at all (a backend that solved none of the boards): any range.
        let lo = match times.clone().fold(f64::INFINITY, f64::min) {
            lo if lo.is_finite() => lo.max(0.01),
            _ => 1.0,
        };
        let hi = times.fold(lo * 10.0, f64::max);
        let (l0, l1) = (lo.log10().floor(), hi.log10().ceil());
        // Times below the axis (0, under 0.01 µs) at its left end.
        let x = |t: f64| LEFT + (t.log10().max(l0) - l0) / (l1 - l0) * (right - LEFT);
        let y = |f: f64| bottom - f * (bottom - TOP);
        let (top, caption) = (k as f64 * H, escape(caption));
        let _ = write!(
            s,
            r#"<g transform="translate(0 {top})"><text x="{LEFT}" y="18" class="title">{caption}</text>"#
        );
        // Each decade labelled, the times between as fainter lines.
        for e in l0 as i32..=l1 as i32 {
            let (xd, label) = (x(10f64.powi(e)), tick_label(10f64.powi(e)));
            let _ = write!(
                s,
                r#"<line x1="{xd:.1}" y1="{TOP}" x2="{xd:.1}" y2="{bottom}" class="grid"/><text x="{xd:.1}" y="{below}" class="tick" text-anchor="middle">{label}</text>"#
            );
            // The last decade ends the axis.
            if e == l1 as i32 {
                break;
            }
            for m in 2..10 {
                let xm = x(f64::from(m) * 10f64.powi(e));
                let _ = write!(
                    s,
                    r#"<line x1="{xm:.1}" y1="{TOP}" x2="{xm:.1}" y2="{bottom}" class="grid" stroke-opacity=".5"/>"#
                );
            }
        }
        for (f, yf) in [0.0, 0.2, 0.4, 0.6, 0.8, 1.0].map(|f| (f, y(f))) {
            let _ = write!(
                s,
                r#"<line x1="{LEFT}" y1="{yf:.1}" x2="{right}" y2="{yf:.1}" class="grid"/><text x="{before_axis}" y="{yf:.1}" dy="4" class="tick" text-anchor="end">{f:.1}</text>"#
            );
        }
        let _ = write!(
            s,
            r#"<text x="{center}" y="{}" class="axis" text-anchor="middle">µs per puzzle (log scale)</text><text x="16" y="{middle}" class="axis" text-anchor="middle" transform="rotate(-90 16 {middle})">fraction of puzzles solved within</text>"#,
            H - 12.0
        );
        let stroke = |i: usize| {
            let (color, dash) = (COLORS[i % 10], ["none", "6 3", "2 2"][i / 10 % 3]);
            format!(r#"fill="none" stroke="{color}" stroke-width="2" stroke-dasharray="{dash}""#)
        };
        for (i, (_, points)) in series.iter().enumerate() {
            let mut reached = 0.0;
            let steps: Vec<String> = points
                .iter()
                .map(|&(t, f)| {
                    let (xt, from, to) = (x(t), y(reached), y(f));
                    reached = f;
                    format!("{xt:.1},{from:.1} {xt:.1},{to:.1}")
                })
                .collect();
            let (points, stroke) = (steps.join(" "), stroke(i));
            let _ = write!(s, r#"<polyline points="{points}" {stroke}/>"#);
        }
        // Over the lines, each label on a white halo; the first series the top row.
        for (i, (label, _)) in series.iter().enumerate() {
            let ly = bottom - 12.0 - (series.len() - 1 - i) as f64 * 16.0;
            let (x0, x1, stroke, label) = (right - 30.0, right - 10.0, stroke(i), escape(label));
            let _ = write!(
                s,
                r#"<line x1="{x0}" y1="{ly}" x2="{x1}" y2="{ly}" {stroke}/><text x="{x0}" y="{ly}" dx="-6" dy="4" class="note" text-anchor="end" stroke="white" stroke-width="3" paint-order="stroke">{label}</text>"#
            );
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The document, `height` tall; `title` is for a reader (and a screen reader).
fn root(title: &str, height: f64) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" role="img"><style>{STYLE}</style><title>{}</title><rect width="{W}" height="{height}" fill="white"/>"#,
        escape(title)
    )
}

/// A one-chart document, its title shown.
fn open(title: &str) -> String {
    format!(
        r#"{}<text x="{LEFT}" y="18" class="title">{}</text>"#,
        root(title, H),
        escape(title)
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

/// The last part of a dataset's path, for a chart's title.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
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
pub(crate) mod tests {
    use super::*;

    /// Whether `xml` is well-formed as far as these documents go: one root, tags closed
    /// in order, quotes paired, every `&` an entity, no control characters.
    pub(crate) fn well_formed(xml: &str) -> Result<(), String> {
        const ENTITIES: [&str; 5] = ["amp;", "lt;", "gt;", "quot;", "#39;"];
        let entity = |p: &str| ENTITIES.iter().any(|e| p.starts_with(e));
        let control = |c: char| c.is_control() && !"\n\t\r".contains(c);
        let clean = |t: &str| t.split('&').skip(1).all(entity) && !t.contains(control);
        let (mut open, mut roots, mut rest) = (Vec::new(), 0, xml);
        while let Some(lt) = rest.find('<') {
            let end = lt + rest[lt..].find('>').ok_or("an unclosed tag")?;
            let (text, tag) = (&rest[..lt], &rest[lt + 1..end]);
            rest = &rest[end + 1..];
            let outside = open.is_empty() && !text.trim().is_empty();
            if !clean(text) || !clean(tag) || outside || tag.matches('"').count() % 2 == 1 {
                return Err(format!("before or in <{tag}>: {text:?}"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop() != Some(name) {
                    return Err(format!("</{name}> closes another tag"));
                }
            } else {
                roots += usize::from(open.is_empty());
                if !tag.ends_with('/') {
                    open.push(tag.split(' ').next().unwrap_or_default());
                }
            }
        }
        match (roots, open.is_empty(), rest.trim()) {
            (1, true, "") => Ok(()),
            _ => Err(format!("{roots} roots, unclosed {open:?}, then {rest:?}")),
        }
    }

    #[test]
    fn the_checker_finds_broken_documents() {
        let good = r#"<svg a="1&amp;2"><g><line/></g><text>a &lt; b</text></svg>"#;
        assert_eq!(well_formed(good), Ok(()));
        let bad = [
            "<svg><g></svg></g>",
            "<svg>&</svg>",
            "<svg/><svg/>",
            "<svg>",
            "<svg a=\"></svg>",
            "<svg>\u{7}</svg>",
        ];
        for bad in bad {
            assert!(well_formed(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_chart_is_well_formed() {
        let hostile = "<b>&\"'\u{7}";
        let points = [(1.0, 2.0), (2.0, 1.0), (5.0, 5.0)];
        let dates = [hostile.to_string(), hostile.to_string()];
        let panels: Vec<Panel<'_>> = vec![
            (hostile.into(), vec![(hostile.into(), &points[..])]),
            ("empty".into(), vec![]),
        ];
        let cdf = cdf(hostile, &panels);
        assert_eq!(cdf.matches("<g transform=").count(), 2, "a panel each");
        assert!(!cdf.contains("<b>") && cdf.contains("&lt;b&gt;&amp;"));
        for svg in [
            scatter(hostile, hostile, hostile, &points, 5.0),
            trend(hostile, &[1.0, 2.0], &dates, &[(1, 100.0)]),
            cdf,
        ] {
            assert_eq!(well_formed(&svg), Ok(()));
        }
    }

    #[test]
    fn a_cdf_steps_on_a_log_axis() {
        let (a, b) = ([(3.0, 0.0), (30.0, 0.5), (300.0, 1.0)], [(0.5, 1.0)]);
        let series = vec![("a".into(), &a[..]), ("b".into(), &b[..])];
        let svg = cdf("t", &[("p".into(), series)]);
        // Decades 0.1 to 1000 from end to end of the axis, each labelled.
        for tick in [">1<", ">10<", ">100<"] {
            assert!(svg.contains(tick), "{tick}");
        }
        for (x, tick) in [(LEFT, "0.1"), (W - RIGHT, "1000")] {
            let at = format!(r#"x="{x:.1}" y="386" class="tick" text-anchor="middle">{tick}<"#);
            assert!(svg.contains(&at), "{at}");
        }
        assert!(!svg.contains(">10000<"));
        // A line and a legend entry per series; a step per point, up from the one before.
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("stroke=\"#1f77b4\"").count(), 2);
        let steps = svg.split("<polyline points=\"").nth(1).unwrap();
        assert_eq!(steps.split('"').next().unwrap().split(' ').count(), 6);
    }

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
