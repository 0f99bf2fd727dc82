//! The one SVG generator, by hand: a log-log scatter of one backend's per-puzzle times
//! against another's, trend lines with change points (the HTML report, `history --plot`),
//! and cumulative distributions of per-puzzle time (`--plot`, the report). Every text is
//! escaped; sizes are fixed so a page lays out at once, and each chart's [`Frame`] makes
//! its margins from the widths of the labels that go in them, so none is cut off.
//!
//! Axis ranges are robust ([`Quartiles::fenced`]): one outlier does not squash the rest;
//! what lies beyond is drawn on the edge and counted. Series take their colour from a
//! [`Palette`]: one colour per backend, the same on every page.

use std::fmt::Write as _;

const W: f64 = 720.0;
const H: f64 = 440.0;
/// The plot area's top with no notes: the title's line above it.
const TOP: f64 = 40.0;
const PAD: f64 = 8.0;
const TITLE_PX: f64 = 15.0;
const TICK_PX: f64 = 13.0;
const AXIS_PX: f64 = 14.0;
const NOTE_PX: f64 = 13.0;
/// A line of notes inside a plot.
const LINE: f64 = 18.0;

/// Series colours, none of them the red and green that mean slower and faster.
pub const PALETTE: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
    "#393b79", "#00707a",
];

/// Text for SVG and HTML: the five markup characters as entities, control characters
/// (but newline and tab) as U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in crate::bounds::shown(s, &['\n', '\t']).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A colour per backend name. The colour is picked from the name (a hash into
/// [`PALETTE`]), so a backend has the same colour on the bench, compare and history
/// pages; names of one page that hash alike are told apart, each after the first (in
/// name order) taking the next free colour. Past ten names colours repeat.
pub struct Palette {
    slots: Vec<(String, usize)>,
}

impl Palette {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Palette {
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort_unstable();
        names.dedup();
        let mut taken = [false; PALETTE.len()];
        let mut slots = Vec::with_capacity(names.len());
        for name in names {
            let mut slot = hash_slot(name);
            if taken.contains(&false) {
                while taken[slot] {
                    slot = (slot + 1) % PALETTE.len();
                }
            }
            taken[slot] = true;
            slots.push((name.to_string(), slot));
        }
        Palette { slots }
    }

    /// The palette index of `name`: its own on this page, or its hash's for a name the
    /// page did not list.
    pub fn slot(&self, name: &str) -> usize {
        self.slots
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| hash_slot(name), |s| s.1)
    }

    pub fn color(&self, name: &str) -> &'static str {
        PALETTE[self.slot(name)]
    }
}

/// FNV-1a of the name, into the palette: the same on every run and machine.
fn hash_slot(name: &str) -> usize {
    let h = crate::bench::dataset::fnv1a(crate::bench::dataset::FNV_START, name.as_bytes());
    (h % PALETTE.len() as u64) as usize
}

/// A sample's order statistics, what a robust axis range is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quartiles {
    min: f64,
    q1: f64,
    median: f64,
    q3: f64,
    max: f64,
}

impl Quartiles {
    /// Of the finite values (linear interpolation between order statistics).
    fn of(values: &[f64]) -> Option<Quartiles> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let pos = q * (v.len() - 1) as f64;
            let (i, frac) = (pos.floor() as usize, pos.fract());
            v[i] + (v[(i + 1).min(v.len() - 1)] - v[i]) * frac
        };
        (!v.is_empty()).then(|| Quartiles {
            min: v[0],
            q1: at(0.25),
            median: at(0.5),
            q3: at(0.75),
            max: v[v.len() - 1],
        })
    }

    /// Of a cumulative distribution's points (value, fraction at or below), in order,
    /// each statistic through `f` (a monotonic map: log10 for a log axis).
    fn of_cdf(points: &[(f64, f64)], f: impl Fn(f64) -> f64) -> Option<Quartiles> {
        let points: Vec<(f64, f64)> = points.iter().copied().filter(|p| p.0.is_finite()).collect();
        let at = |q: f64| points.iter().find(|p| p.1 >= q).map(|p| f(p.0));
        Some(Quartiles {
            min: f(points.first()?.0),
            q1: at(0.25)?,
            median: at(0.5)?,
            q3: at(0.75)?,
            max: f(points.last()?.0),
        })
    }

    /// The range an axis shows: Tukey's far-out fences (the quartiles widened by three
    /// interquartile ranges, the range taken as at least `least_spread`), cut to the
    /// data's own range. Values beyond are outliers, drawn on the edge and counted.
    fn fenced(self, least_spread: f64) -> (f64, f64) {
        let spread = 3.0 * (self.q3 - self.q1).max(least_spread);
        (
            self.min.max(self.q1 - spread),
            self.max.min(self.q3 + spread),
        )
    }
}

/// On a log axis, the fences lie at least a decade beyond the quartiles.
const DECADE_SPREAD: f64 = 1.0 / 3.0;

/// A log axis over the whole decades `l0` to `l1` (log10).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Decades {
    l0: i32,
    l1: i32,
}

impl Decades {
    /// The decades that show `range` (log10): at least one, from 0.01 µs on; 1 to 10
    /// where there is no range.
    fn of(range: Option<(f64, f64)>) -> Decades {
        let Some((lo, hi)) = range else {
            return Decades { l0: 0, l1: 1 };
        };
        let l0 = (lo.floor() as i32).max(-2);
        Decades {
            l0,
            l1: (hi.ceil() as i32).max(l0 + 1),
        }
    }

    fn lo(self) -> f64 {
        10f64.powi(self.l0)
    }

    fn hi(self) -> f64 {
        10f64.powi(self.l1)
    }

    /// Where `v` lies along the axis: 0 at its start, 1 at its end.
    fn at(self, v: f64) -> f64 {
        (v.log10() - f64::from(self.l0)) / f64::from(self.l1 - self.l0)
    }

    /// The labelled ticks: every decade, and 2 and 5 times each where the axis spans
    /// two decades or fewer.
    fn ticks(self) -> Vec<f64> {
        let mut ticks = Vec::new();
        for e in self.l0..=self.l1 {
            let d = 10f64.powi(e);
            ticks.push(d);
            if self.l1 - self.l0 <= 2 && e < self.l1 {
                ticks.extend([2.0 * d, 5.0 * d]);
            }
        }
        ticks
    }
}

/// Width of `text` at `px` pixels, erring wide (system-ui's glyphs average about 0.55 em).
fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.62
}

/// `text` cut with an ellipsis to fit `width` pixels at `px`.
fn fit(text: &str, px: f64, width: f64) -> String {
    if text_width(text, px) <= width {
        return text.to_string();
    }
    let keep = (width / (px * 0.62)).floor().max(1.0) as usize - 1;
    let mut s: String = text.chars().take(keep).collect();
    s.push('…');
    s
}

/// Where a chart's plot area lies: the margins made room for the notes between the
/// title and the plot, the y labels (the widest of them), the y axis's title, the x
/// labels and the x axis's title, and half the last x label, which is centred on the
/// right end. Its methods draw the parts every chart has.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Frame {
    fn new(y_labels: &[String], last_x_label: &str, notes: usize) -> Frame {
        let widest = y_labels
            .iter()
            .map(|l| text_width(l, TICK_PX))
            .fold(0.0, f64::max);
        Frame {
            left: PAD + AXIS_PX * 1.3 + PAD + widest + 6.0,
            right: W - (PAD + text_width(last_x_label, TICK_PX) / 2.0).max(20.0),
            top: TOP + notes as f64 * LINE,
            bottom: H - (6.0 + TICK_PX * 1.3 + 6.0 + AXIS_PX * 1.3 + PAD),
        }
    }

    /// The x of a point `at` (0 to 1) of the way along the x axis.
    fn x(&self, at: f64) -> f64 {
        self.left + at * (self.right - self.left)
    }

    /// The y of a point `at` (0 to 1) of the way up the y axis.
    fn y(&self, at: f64) -> f64 {
        self.bottom - at * (self.bottom - self.top)
    }

    /// A vertical grid line at `x`, `attrs` after its class.
    fn x_grid(&self, s: &mut String, x: f64, attrs: &str) {
        let (top, bottom) = (self.top, self.bottom);
        let _ = write!(
            s,
            r#"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{bottom:.1}" class="grid"{attrs}/>"#
        );
    }

    /// An x label (a number), centred under the axis at `x`.
    fn x_tick(&self, s: &mut String, x: f64, label: &str) {
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" class="tick" text-anchor="middle">{label}</text>"#,
            self.bottom + 6.0 + TICK_PX
        );
    }

    /// A y tick: its grid line across the plot, its label right-aligned just left of
    /// the axis.
    fn y_tick(&self, s: &mut String, y: f64, label: &str) {
        let _ = write!(
            s,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" class="grid"/><text x="{:.1}" y="{y:.1}" dy="{:.1}" class="tick" text-anchor="end">{}</text>"#,
            self.left,
            self.right,
            self.left - 6.0,
            TICK_PX * 0.35,
            escape(label)
        );
    }

    /// The titles of both axes (the x one under the x labels, the y one turned).
    fn axis_titles(&self, s: &mut String, x_title: &str, y_title: &str) {
        let (mid, x) = ((self.top + self.bottom) / 2.0, PAD + AXIS_PX);
        let x_title = fit(x_title, AXIS_PX, W - 2.0 * PAD);
        let y_title = fit(y_title, AXIS_PX, self.bottom - self.top);
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" class="axis" text-anchor="middle">{}</text><text x="{x:.1}" y="{mid:.1}" class="axis" text-anchor="middle" transform="rotate(-90 {x:.1} {mid:.1})">{}</text>"#,
            (self.left + self.right) / 2.0,
            H - PAD - AXIS_PX * 0.3,
            escape(&x_title),
            escape(&y_title),
        );
    }

    /// The notes between the title and the plot area (as many as `new` made room for).
    fn notes(&self, s: &mut String, lines: &[String]) {
        for (i, text) in lines.iter().enumerate() {
            let _ = write!(
                s,
                r#"<text x="{PAD}" y="{:.1}" class="note">{}</text>"#,
                TOP - 2.0 + i as f64 * LINE,
                escape(&fit(text, NOTE_PX, W - 2.0 * PAD))
            );
        }
    }
}

/// `items` after `lead`, comma-separated, in lines of at most `width` pixels.
fn wrap(lead: &str, items: &[String], width: f64) -> Vec<String> {
    let mut lines = vec![lead.to_string()];
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        let last = lines.len() - 1;
        let joined = format!("{} {item}{sep}", lines[last]);
        if text_width(&joined, NOTE_PX) <= width || i == 0 && lines[last] == lead {
            lines[last] = joined;
        } else {
            lines.push(format!("{item}{sep}"));
        }
    }
    lines
}

/// A marker on the edge of the plot area for a value beyond it: a triangle at (x, y)
/// pointing the way of the cut-off value (`dx`, `dy`: -1, 0 or 1).
fn beyond_marker(s: &mut String, x: f64, y: f64, (dx, dy): (f64, f64), attrs: &str) {
    let (r, w) = (6.0, 4.0);
    let tip = (x + dx * r, y + dy * r);
    let (b1, b2) = ((x - dy * w, y + dx * w), (x + dy * w, y - dx * w));
    let _ = write!(
        s,
        r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" {attrs}/>"#,
        tip.0, tip.1, b1.0, b1.1, b2.0, b2.1
    );
}

/// A log-log scatter: x = `a`'s time, y = `b`'s time, µs, with the diagonal and the
/// noise band; points above the band (slower in `b`) in red, below in green. Both axes
/// span the fenced range of all the times (whole decades); a point beyond is drawn on
/// the edge as a triangle pointing its way, and counted.
pub fn scatter(title: &str, a: &str, b: &str, points: &[(f64, f64)], band_pct: f64) -> String {
    let positive: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0)
        .collect();
    let logs: Vec<f64> = positive
        .iter()
        .flat_map(|&(x, y)| [x.log10(), y.log10()])
        .collect();
    let axis = Decades::of(Quartiles::of(&logs).map(|q| q.fenced(DECADE_SPREAD)));
    let (lo, hi) = (axis.lo(), axis.hi());
    // Which way a value lies off the axes: -1 below, 1 above, 0 on them.
    let off = |v: f64| f64::from(i8::from(v > hi) - i8::from(v < lo));
    let beyond = positive
        .iter()
        .filter(|p| off(p.0) != 0.0 || off(p.1) != 0.0)
        .count();
    let ticks = axis.ticks();
    let labels: Vec<String> = ticks.iter().map(|&t| tick_label(t)).collect();
    let f = Frame::new(&labels, &tick_label(hi), 1 + usize::from(beyond > 0));
    let (x, y) = (|v: f64| f.x(axis.at(v)), |v: f64| f.y(axis.at(v)));
    let mut s = open(title);
    for (&t, label) in ticks.iter().zip(&labels) {
        f.x_grid(&mut s, x(t), "");
        f.x_tick(&mut s, x(t), label);
        f.y_tick(&mut s, y(t), label);
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
    let (mut slower, mut faster) = (0, 0);
    for &(a_us, b_us) in &positive {
        let class = if b_us > a_us * k {
            slower += 1;
            "slower"
        } else if b_us * k < a_us {
            faster += 1;
            "faster"
        } else {
            "same"
        };
        let (cx, cy) = (x(a_us.clamp(lo, hi)), y(b_us.clamp(lo, hi)));
        match (off(a_us), off(b_us)) {
            (0.0, 0.0) => {
                let _ = write!(
                    s,
                    r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="2" class="{class}"/>"#
                );
            }
            // Up the page is a larger y.
            (dx, 0.0) => beyond_marker(&mut s, cx, cy, (dx, 0.0), &edge(class)),
            (_, dy) => beyond_marker(&mut s, cx, cy, (0.0, -dy), &edge(class)),
        }
    }
    let mut notes = vec![format!(
        "{} puzzles: {slower} slower in {b} by more than {band_pct}%, {faster} faster",
        positive.len()
    )];
    if beyond > 0 {
        notes.push(format!(
            "{beyond} beyond the axes: on the edge, as triangles"
        ));
    }
    f.notes(&mut s, &notes);
    f.axis_titles(
        &mut s,
        &format!("{a} µs per puzzle"),
        &format!("{b} µs per puzzle"),
    );
    s.push_str("</svg>");
    s
}

/// The attributes of a point of `class` drawn on the edge.
fn edge(class: &str) -> String {
    format!(r#"class="{class} edge""#)
}

/// Evenly spaced round values (1, 2 or 5 times a power of ten apart) covering `lo..hi`,
/// about `count` of them, and the decimals their labels need.
fn nice_ticks(lo: f64, hi: f64, count: usize) -> (Vec<f64>, usize) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - lo.abs().max(1e-6) * 0.1, hi + hi.abs().max(1e-6) * 0.1)
    };
    let raw = (hi - lo) / count.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (ticks, (-step.log10().floor()).max(0.0) as usize)
}

/// A change point on a [`trend`]: between runs `at - 1` and `at` (from 0), its label,
/// and its class: `step-up` (slower code), `step-down` (faster code), `step-other`.
pub struct Mark {
    pub at: usize,
    pub label: String,
    pub class: &'static str,
}

/// A trend: values in run order (x is the run's number, 1 the oldest shown) in `color`,
/// change points as vertical marks with their labels. The y axis spans the fenced range
/// of the values (the spread taken as at least a third of the median, so a step up to
/// twice the level always shows); a run beyond is drawn on the edge as a triangle, and
/// counted under the axis.
pub fn trend(title: &str, values: &[f64], marks: &[Mark], color: &str) -> String {
    let mut s = open(title);
    let Some(q) = Quartiles::of(values) else {
        s.push_str("</svg>");
        return s;
    };
    let (lo, hi) = q.fenced(q.median.abs() / 3.0);
    let pad = (hi - lo) * 0.05;
    let (ticks, decimals) = nice_ticks((lo - pad).max(0.0), hi + pad, 5);
    let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
    let tick_labels: Vec<String> = ticks.iter().map(|t| format!("{t:.decimals$}")).collect();
    let n = values.len();
    let f = Frame::new(&tick_labels, &n.to_string(), 0);
    let x = |i: usize| {
        f.x(if n > 1 {
            i as f64 / (n - 1) as f64
        } else {
            0.5
        })
    };
    let y = |v: f64| f.y((v.clamp(lo, hi) - lo) / (hi - lo));
    for (&t, label) in ticks.iter().zip(&tick_labels) {
        f.y_tick(&mut s, y(t), label);
    }
    // Run numbers: the first, and round ones about 60 px apart.
    let (runs, _) = nice_ticks(0.0, n as f64, ((f.right - f.left) / 60.0) as usize);
    let every = (runs[1] - runs[0]).round().max(1.0) as usize;
    for run in (1..=n).filter(|r| r % every == 0 || *r == 1) {
        f.x_tick(&mut s, x(run - 1), &run.to_string());
    }
    // Each change's label in the first row where it clears the labels before it.
    let mut row_ends: Vec<f64> = Vec::new();
    for m in marks.iter().filter(|m| (1..n).contains(&m.at)) {
        let xx = (x(m.at - 1) + x(m.at)) / 2.0;
        let w = text_width(&m.label, NOTE_PX);
        // Past the right end, the label goes left of its line.
        let (start, anchor_x, anchor) = if xx + 4.0 + w > f.right {
            (xx - 4.0 - w, xx - 4.0, "end")
        } else {
            (xx + 4.0, xx + 4.0, "start")
        };
        let row = match row_ends.iter().position(|&end| start > end + 4.0) {
            Some(row) => row,
            None => {
                row_ends.push(f64::NEG_INFINITY);
                row_ends.len() - 1
            }
        };
        row_ends[row] = start + w;
        let _ = write!(
            s,
            r#"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" class="{c}"/><text x="{anchor_x:.1}" y="{:.1}" class="{c}-text halo" text-anchor="{anchor}">{}</text>"#,
            f.top,
            f.bottom,
            f.top + 14.0 + row as f64 * LINE,
            escape(&m.label),
            c = m.class,
        );
    }
    let path: Vec<String> = (values.iter().enumerate())
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let _ = write!(
        s,
        r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="1.8"/>"#,
        path.join(" ")
    );
    let fill = format!(r#"fill="{color}""#);
    let mut beyond = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        let (cx, cy) = (x(i), y(v));
        if v > hi || v < lo {
            beyond.push(v);
            let way = if v > hi { -1.0 } else { 1.0 };
            beyond_marker(&mut s, cx, cy, (0.0, way), &fill);
        } else {
            let _ = write!(s, r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="3" {fill}/>"#);
        }
    }
    let x_title = match beyond.as_slice() {
        [] => "run, oldest first".to_string(),
        [v] => format!(
            "run, oldest first; 1 run beyond the axis ({v:.1} µs), on its edge as a triangle"
        ),
        v => format!(
            "run, oldest first; {} runs beyond the axis ({:.1} to {:.1} µs), on its edge as triangles",
            v.len(),
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(0.0, f64::max)
        ),
    };
    f.axis_titles(&mut s, &x_title, "µs per puzzle");
    s.push_str("</svg>");
    s
}

/// One series of [`cdf`]: the backend it is of (its colour), its name (in the notes),
/// its label (in the legend), and its (µs, fraction) points in order.
pub struct Series<'a> {
    pub backend: String,
    pub name: String,
    pub label: String,
    pub points: &'a [(f64, f64)],
}

/// One panel of [`cdf`].
pub struct Panel<'a> {
    pub title: String,
    pub series: Vec<Series<'a>>,
}

/// The shares of a distribution's points below `lo` and beyond `hi`.
struct Outside {
    below: f64,
    beyond: f64,
}

impl Outside {
    fn of(points: &[(f64, f64)], lo: f64, hi: f64) -> Outside {
        let finite = || points.iter().filter(|p| p.0.is_finite());
        let upto = |end: &dyn Fn(f64) -> bool| {
            finite()
                .take_while(|p| end(p.0))
                .last()
                .map_or(0.0, |p| p.1)
        };
        Outside {
            below: upto(&|t| t < lo),
            beyond: points.last().map_or(0.0, |p| p.1) - upto(&|t| t <= hi),
        }
    }
}

/// A share of the calls, as a percentage a person reads.
fn share(f: f64) -> String {
    match f * 100.0 {
        p if p >= 0.1 => format!("{p:.1}%"),
        p => format!("{p:.2}%"),
    }
}

/// Cumulative distributions, one panel per dataset one above the other: each series as
/// steps (the fraction at or below each time) on a log x axis, a legend lower right.
/// The x axis spans every series' fenced range (whole decades); a series that goes on
/// past the right end stops there at a triangle, and a note says what share of its
/// calls lies beyond (or below the left end). Each backend has its palette colour; a
/// second series of one colour in a panel (another thread count, the other run) is
/// dashed, a third dotted.
pub fn cdf(title: &str, panels: &[Panel<'_>], palette: &Palette) -> String {
    let mut s = root(title, H * panels.len().max(1) as f64);
    for (k, panel) in panels.iter().enumerate() {
        let _ = write!(
            s,
            r#"<g transform="translate(0 {})"><text x="{PAD}" y="22" class="title">{}</text>"#,
            k as f64 * H,
            escape(&fit(&panel.title, TITLE_PX, W - 2.0 * PAD))
        );
        cdf_panel(&mut s, &panel.series, palette);
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The plot of one panel of [`cdf`].
fn cdf_panel(s: &mut String, series: &[Series<'_>], palette: &Palette) {
    let range = (series.iter())
        .filter_map(|s| Quartiles::of_cdf(s.points, |t| t.max(0.01).log10()))
        .map(|q| q.fenced(DECADE_SPREAD))
        .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
    let axis = Decades::of(range);
    let (lo, hi) = (axis.lo(), axis.hi());
    let fractions = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];
    let y_labels: Vec<String> = fractions.iter().map(|f| format!("{f:.1}")).collect();
    // What lies off the axis, said above the plot.
    let said = |share_of: fn(&Outside) -> f64| -> Vec<String> {
        (series.iter())
            .map(|one| (one, share_of(&Outside::of(one.points, lo, hi))))
            .filter(|(_, part)| *part > 1e-9)
            .map(|(one, part)| format!("{} {}", one.name, share(part)))
            .collect()
    };
    let (under, over) = (said(|o| o.below), said(|o| o.beyond));
    let mut notes = Vec::new();
    if !over.is_empty() {
        let lead = format!("calls beyond {} µs (the triangles):", tick_label(hi));
        notes.extend(wrap(&lead, &over, W - 2.0 * PAD));
    }
    if !under.is_empty() {
        let lead = format!("calls under {} µs (at the left end):", tick_label(lo));
        notes.extend(wrap(&lead, &under, W - 2.0 * PAD));
    }
    let f = Frame::new(&y_labels, &tick_label(hi), notes.len());
    let x = |t: f64| f.x(axis.at(t.max(lo)));
    let y = |p: f64| f.y(p);
    // Each decade labelled, the times between as fainter lines; the last decade ends
    // the axis.
    let labelled = axis.ticks();
    for e in axis.l0..=axis.l1 {
        for m in 1..if e == axis.l1 { 2 } else { 10 } {
            let t = f64::from(m) * 10f64.powi(e);
            let faint = match labelled.contains(&t) {
                true => "",
                false => r#" stroke-opacity=".5""#,
            };
            f.x_grid(s, x(t), faint);
        }
    }
    for &t in &labelled {
        f.x_tick(s, x(t), &tick_label(t));
    }
    for (&p, label) in fractions.iter().zip(&y_labels) {
        f.y_tick(s, y(p), label);
    }
    f.axis_titles(
        s,
        "µs per puzzle (log scale)",
        "fraction of puzzles solved within",
    );
    // The k-th series of a colour in this panel: solid, dashed, dotted.
    let strokes: Vec<String> = (series.iter().enumerate())
        .map(|(i, one)| {
            let slot = palette.slot(&one.backend);
            let before = (series[..i].iter())
                .filter(|o| palette.slot(&o.backend) == slot)
                .count();
            let dash = ["none", "7 4", "2 3"][before % 3];
            format!(
                r#"fill="none" stroke="{}" stroke-width="2" stroke-dasharray="{dash}""#,
                PALETTE[slot]
            )
        })
        .collect();
    f.notes(s, &notes);
    for (one, stroke) in series.iter().zip(&strokes) {
        let mut reached = 0.0;
        let mut steps = Vec::new();
        for &(t, p) in one.points.iter().filter(|p| p.0.is_finite() && p.0 <= hi) {
            let (xt, from, to) = (x(t), y(reached), y(p));
            reached = p;
            steps.push(format!("{xt:.1},{from:.1} {xt:.1},{to:.1}"));
        }
        if Outside::of(one.points, lo, hi).beyond > 1e-9 {
            // Level to the right end, where the triangle says it goes on.
            let yr = y(reached);
            steps.push(format!("{:.1},{yr:.1}", f.right));
            let fill = format!(r#"fill="{}""#, palette.color(&one.backend));
            beyond_marker(s, f.right, yr, (1.0, 0.0), &fill);
        }
        let _ = write!(s, r#"<polyline points="{}" {stroke}/>"#, steps.join(" "));
    }
    // Over the lines, each label on a white halo; the first series the top row.
    let (x0, x1) = (f.right - 30.0, f.right - 10.0);
    for (i, (one, stroke)) in series.iter().zip(&strokes).enumerate() {
        let ly = f.bottom - 14.0 - (series.len() - 1 - i) as f64 * LINE;
        let label = fit(&one.label, NOTE_PX, x0 - 6.0 - f.left - 8.0);
        let _ = write!(
            s,
            r#"<line x1="{x0:.1}" y1="{ly:.1}" x2="{x1:.1}" y2="{ly:.1}" {stroke}/><text x="{x0:.1}" y="{ly:.1}" dx="-6" dy="{:.1}" class="note halo" text-anchor="end">{}</text>"#,
            NOTE_PX * 0.35,
            escape(&label)
        );
    }
}

/// Charts of one height ([`H`]) one above the other in one SVG (`history --plot`).
pub fn stack(charts: &[String]) -> String {
    let height = H * charts.len().max(1) as f64;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}">"#
    );
    for (i, chart) in charts.iter().enumerate() {
        let _ = write!(
            s,
            r#"<g transform="translate(0 {})">{chart}</g>"#,
            i as f64 * H
        );
    }
    s.push_str("</svg>\n");
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
        r#"{}<text x="{PAD}" y="22" class="title">{}</text>"#,
        root(title, H),
        escape(&fit(title, TITLE_PX, W - 2.0 * PAD))
    )
}

/// Inside each SVG, so a plot saved alone (`history --plot`) looks the same.
const STYLE: &str = "text{font-family:system-ui,sans-serif}.title{font-size:15px;font-weight:600}\
.tick{font-size:13px;fill:#444}.axis{font-size:14px}.note{font-size:13px;fill:#333}\
.halo{stroke:white;stroke-width:3;paint-order:stroke}\
.grid{stroke:#e3e3e3}.diag{stroke:#444;stroke-dasharray:4 3}.band{fill:#eef}\
.slower{fill:#d62728;fill-opacity:.6}.faster{fill:#2ca02c;fill-opacity:.6}.same{fill:#1f77b4;fill-opacity:.35}\
.edge{fill-opacity:.9}\
.step-up{stroke:#d62728;stroke-width:1.5}.step-down{stroke:#2ca02c;stroke-width:1.5}\
.step-other{stroke:#5a6270;stroke-width:1.5;stroke-dasharray:5 3}\
.step-up-text{font-size:13px;fill:#d62728}.step-down-text{font-size:13px;fill:#2ca02c}.step-other-text{font-size:13px;fill:#5a6270}";

/// A tick's label: whole numbers from 1 up, as many decimals as a smaller one needs.
fn tick_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let decimals = (-v.log10()).ceil().max(1.0) as usize;
        format!("{v:.decimals$}")
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

    fn series<'a>(backend: &str, points: &'a [(f64, f64)]) -> Series<'a> {
        Series {
            backend: backend.into(),
            name: backend.into(),
            label: format!("{backend} label"),
            points,
        }
    }

    #[test]
    fn every_chart_is_well_formed() {
        let hostile = "<b>&\"'\u{7}";
        let points = [(1.0, 2.0), (2.0, 1.0), (5.0, 5.0)];
        let cdf_points = [(1.0, 0.5), (1e9, 1.0)];
        let panels: Vec<Panel<'_>> = vec![
            Panel {
                title: hostile.into(),
                series: vec![series(hostile, &cdf_points)],
            },
            Panel {
                title: "empty".into(),
                series: vec![],
            },
        ];
        let cdf = cdf(hostile, &panels, &Palette::new([hostile]));
        assert_eq!(cdf.matches("<g transform=").count(), 2, "a panel each");
        assert!(!cdf.contains("<b>") && cdf.contains("&lt;b&gt;&amp;"));
        for svg in [
            scatter(hostile, hostile, hostile, &points, 5.0),
            trend(
                hostile,
                &[1.0, 2.0],
                &[Mark {
                    at: 1,
                    label: hostile.into(),
                    class: "step-up",
                }],
                "#000",
            ),
            stack(&[trend(hostile, &[], &[], "#000")]),
            cdf,
        ] {
            assert_eq!(well_formed(&svg), Ok(()));
        }
    }

    #[test]
    fn a_cdf_steps_on_a_log_axis() {
        let (a, b) = ([(3.0, 0.0), (30.0, 0.5), (300.0, 1.0)], [(0.5, 1.0)]);
        let svg = cdf(
            "t",
            &[Panel {
                title: "p".into(),
                series: vec![series("a", &a), series("b", &b)],
            }],
            &Palette::new(["a", "b"]),
        );
        // Decades 0.1 to 1000, each labelled; nothing beyond.
        for tick in [">0.1<", ">1<", ">10<", ">100<", ">1000<"] {
            assert!(svg.contains(tick), "{tick}");
        }
        assert!(!svg.contains(">10000<") && !svg.contains("beyond"));
        // A line and a legend entry per series, in its backend's colour; a step per
        // point, up from the one before.
        assert_eq!(svg.matches("<polyline").count(), 2);
        let color = format!("stroke=\"{}\"", Palette::new(["a", "b"]).color("a"));
        assert_eq!(svg.matches(&color).count(), 2);
        let steps = svg.split("<polyline points=\"").nth(1).unwrap();
        assert_eq!(steps.split('"').next().unwrap().split(' ').count(), 6);
    }

    #[test]
    fn an_outlier_is_marked_on_the_edge_not_stretching_the_axis() {
        // 99 calls near 10 µs, one at 10 s.
        let mut points: Vec<(f64, f64)> = (1..=99)
            .map(|i| (10.0 + f64::from(i) / 10.0, f64::from(i) / 100.0))
            .collect();
        points.push((1e7, 1.0));
        let svg = cdf(
            "t",
            &[Panel {
                title: "p".into(),
                series: vec![series("a", &points)],
            }],
            &Palette::new(["a"]),
        );
        assert!(svg.contains(">1000<") && !svg.contains(">10000<"), "{svg}");
        assert!(
            svg.contains("calls beyond 1000 µs (the triangles): a 1.0%"),
            "{svg}"
        );
        assert_eq!(svg.matches("<polygon").count(), 1, "one triangle");
        // The scatter: one puzzle a thousand times slower in b.
        let mut pairs: Vec<(f64, f64)> = (1..=50)
            .map(|i| (f64::from(i), f64::from(i) * 1.01))
            .collect();
        pairs.push((20.0, 20_000.0));
        let svg = scatter("t", "a", "b", &pairs, 5.0);
        assert!(svg.contains(">1000<") && !svg.contains(">10000<"), "{svg}");
        assert!(svg.contains("1 beyond the axes"));
        assert_eq!(svg.matches("class=\"slower edge\"").count(), 1);
        // The trend: one run ten times slower, drawn on the edge and said.
        let mut values = vec![100.0; 10];
        values[4] = 1000.0;
        let svg = trend("t", &values, &[], "#123456");
        assert!(svg.contains("1 run beyond the axis (1000.0 µs)"), "{svg}");
        assert!(!svg.contains(">1000<") && !svg.contains(">500<"), "{svg}");
    }

    #[test]
    fn robust_ranges_cut_outliers_and_keep_steps() {
        let q = Quartiles::of(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(
            (q.min, q.q1, q.median, q.q3, q.max),
            (1.0, 2.0, 3.0, 4.0, 5.0)
        );
        // Inside the fences: the data's own range.
        assert_eq!(q.fenced(0.0), (1.0, 5.0));
        // One value far out: the fence, q3 + 3 IQR.
        let q = Quartiles::of(&[10.0, 11.0, 12.0, 13.0, 14.0, 1000.0]).unwrap();
        let (lo, hi) = q.fenced(0.0);
        assert_eq!(lo, 10.0);
        assert!(
            (hi - (q.q3 + 3.0 * (q.q3 - q.q1))).abs() < 1e-9 && hi < 30.0,
            "{hi}"
        );
        // A level that doubles stays in view on a trend (spread at least median / 3).
        let step = [100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 200.0, 200.0];
        let q = Quartiles::of(&step).unwrap();
        assert_eq!(q.fenced(q.median / 3.0), (100.0, 200.0));
        // A distribution's quartiles from its points.
        let points = [(1.0, 0.1), (2.0, 0.3), (3.0, 0.6), (4.0, 0.8), (9.0, 1.0)];
        let q = Quartiles::of_cdf(&points, |t| t).unwrap();
        assert_eq!(
            (q.min, q.q1, q.median, q.q3, q.max),
            (1.0, 2.0, 3.0, 4.0, 9.0)
        );
        assert_eq!(Quartiles::of(&[f64::NAN]), None);
        assert_eq!(Decades::of(Some((0.3, 2.7))), Decades { l0: 0, l1: 3 });
        let (l0, l1) = (-2, -1);
        assert_eq!(
            Decades::of(Some((-9.0, -8.5))),
            Decades { l0, l1 },
            "from 0.01 µs on"
        );
    }

    #[test]
    fn a_backend_keeps_its_colour_across_pages_and_differs_within_one() {
        let names = [
            "dlx-static",
            "dlx-arena",
            "bitboard",
            "dfs",
            "exec:./a",
            "lib:x.so",
        ];
        let page = Palette::new(names);
        // Within a page: distinct, whatever the order they were listed in.
        let mut slots: Vec<usize> = names.iter().map(|n| page.slot(n)).collect();
        assert_eq!(
            page.slot("dfs"),
            Palette::new(names.iter().rev().copied()).slot("dfs")
        );
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), names.len());
        // Across pages: a name that collides with none keeps its hash's colour.
        for n in names {
            let alone = Palette::new([n]);
            assert_eq!(alone.slot(n), hash_slot(n));
            assert_eq!(alone.color(n), PALETTE[hash_slot(n)]);
        }
        let free: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| {
                names
                    .iter()
                    .filter(|m| hash_slot(m) == hash_slot(n))
                    .count()
                    == 1
            })
            .collect();
        for n in &free {
            assert_eq!(page.slot(n), hash_slot(n), "{n}");
        }
        // Two names of one hash on a page: told apart, the first (in name order) keeping it.
        let (a, b) = (0..1000)
            .map(|i| format!("b{i}"))
            .find_map(|b| (hash_slot(&b) == hash_slot("a")).then_some(("a", b)))
            .unwrap();
        let both = Palette::new([b.as_str(), a]);
        assert_eq!(both.slot(a), hash_slot(a));
        assert_ne!(both.slot(&b), both.slot(a));
        // Past the palette's size, every name still has a colour.
        let many: Vec<String> = (0..25).map(|i| format!("n{i}")).collect();
        let p = Palette::new(many.iter().map(String::as_str));
        assert!(many.iter().all(|n| p.slot(n) < PALETTE.len()));
    }

    #[test]
    fn a_trend_counts_runs_along_its_x_axis() {
        let values: Vec<f64> = (0..14).map(|i| 10.0 + f64::from(i % 3)).collect();
        let svg = trend("t", &values, &[], "#000");
        assert!(svg.contains(">run, oldest first<"), "{svg}");
        for run in [">1<", ">2<", ">14<"] {
            assert!(svg.contains(run), "{run}: {svg}");
        }
        assert!(!svg.contains(">15<") && !svg.contains(">0<"), "{svg}");
    }

    #[test]
    fn nice_ticks_are_round_and_cover_the_range() {
        let (ticks, decimals) = nice_ticks(187.0, 556.0, 5);
        assert_eq!(
            (ticks.first(), ticks.last(), decimals),
            (Some(&100.0), Some(&600.0), 0)
        );
        let (ticks, decimals) = nice_ticks(0.42, 0.47, 5);
        assert!(
            ticks[0] <= 0.42 && *ticks.last().unwrap() >= 0.47 && decimals == 2,
            "{ticks:?}"
        );
        let (ticks, _) = nice_ticks(5.0, 5.0, 5);
        assert!(ticks.len() >= 2);
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
        let mark = |at: usize, label: &str, class: &'static str| Mark {
            at,
            label: label.into(),
            class,
        };
        let marks = [mark(2, "+100.0%", "step-up"), mark(4, "<m>", "step-other")];
        let svg = trend("t", &[1.0, 1.0, 2.0, 2.0, 4.0, 4.0], &marks, "#123456");
        assert!(svg.contains(">+100.0%<") && svg.contains(r#"class="step-up""#));
        assert!(svg.contains(r#"class="step-other-text halo""#) && svg.contains(">&lt;m&gt;<"));
        assert!(svg.contains("stroke=\"#123456\""));
    }
}
