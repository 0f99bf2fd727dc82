//! The one SVG generator, by hand: cumulative distributions of per-puzzle time on a log
//! axis spanning all the data (an outlier fits without squashing the rest). Every text is
//! escaped; sizes are fixed, so a page lays out at once; a [`Palette`] colours a backend
//! alike on every page.

use std::fmt::Write as _;

const W: f64 = 720.0;
const H: f64 = 440.0;
/// The plot area, inside fixed margins: room for the title, the labels and the axis titles.
const LEFT: f64 = 90.0;
const RIGHT: f64 = W - 40.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = H - 58.0;
/// A line of labels inside a plot.
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
    for c in crate::base::bounds::shown(s, &['\n', '\t']).chars() {
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

/// A colour per backend name, hashed from the name so it is the same on every page; names
/// of one page that hash alike each take the next free colour (in name order).
pub struct Palette {
    slots: Vec<(String, usize)>,
}

impl Palette {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Palette {
        let names: std::collections::BTreeSet<&str> = names.into_iter().collect();
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
}

/// FNV-1a of the name, into the palette: the same on every run and machine.
fn hash_slot(name: &str) -> usize {
    let h = crate::base::fnv1a(crate::base::FNV_START, name.as_bytes());
    (h % PALETTE.len() as u64) as usize
}

/// A log axis over the whole decades `l0` to `l1` (log10).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Decades {
    l0: i32,
    l1: i32,
}

impl Decades {
    /// The decades that hold `values` (µs): at least one, from 0.01 µs on; 1 to 10
    /// where there is none.
    fn of(values: impl Iterator<Item = f64>) -> Decades {
        let logs = values
            .filter(|v| v.is_finite())
            .map(|v| v.max(0.01).log10());
        let (lo, hi) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), l| {
            (lo.min(l), hi.max(l))
        });
        if lo > hi {
            return Decades { l0: 0, l1: 1 };
        }
        let l0 = lo.floor() as i32;
        Decades {
            l0,
            l1: (hi.ceil() as i32).max(l0 + 1),
        }
    }

    /// Where `v` lies along the axis: 0 at its start, 1 at its end.
    fn at(self, v: f64) -> f64 {
        (v.max(0.01).log10() - f64::from(self.l0)) / f64::from(self.l1 - self.l0)
    }
}

/// A vertical grid line at `x`, `attrs` after its class.
fn x_grid(s: &mut String, x: f64, attrs: &str) {
    let _ = write!(
        s,
        r#"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{BOTTOM}" class="grid"{attrs}/>"#
    );
}

/// One series of [`cdf`]: the backend it is of (its colour), its label (in the legend),
/// and its (µs, fraction) points in order.
pub struct Series<'a> {
    pub backend: String,
    pub label: String,
    pub points: &'a [(f64, f64)],
}

/// One panel of [`cdf`].
pub struct Panel<'a> {
    pub title: String,
    pub series: Vec<Series<'a>>,
}

/// Cumulative distributions, one panel per dataset one above the other: each series as
/// steps (the fraction at or below each time) on a log x axis over whole decades, a
/// legend lower right. Each backend has its palette colour; a second series of one
/// colour in a panel (another thread count, the other run) is dashed, a third dotted.
pub fn cdf(title: &str, panels: &[Panel<'_>], palette: &Palette) -> String {
    // The document; its title is for a reader (and a screen reader).
    let height = H * panels.len().max(1) as f64;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" role="img"><style>{STYLE}</style><title>{}</title><rect width="{W}" height="{height}" fill="white"/>"#,
        escape(title)
    );
    for (k, panel) in panels.iter().enumerate() {
        let _ = write!(
            s,
            r#"<g transform="translate(0 {})"><text x="8" y="22" class="title">{}</text>"#,
            k as f64 * H,
            escape(&panel.title)
        );
        cdf_panel(&mut s, &panel.series, palette);
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The plot of one panel of [`cdf`].
fn cdf_panel(s: &mut String, series: &[Series<'_>], palette: &Palette) {
    let axis = Decades::of(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
    let x = |t: f64| LEFT + axis.at(t) * (RIGHT - LEFT);
    // The y of a point `at` (0 to 1) of the way up the y axis.
    let py = |at: f64| BOTTOM - at * (BOTTOM - TOP);
    // Each decade labelled, the times between as fainter lines.
    for e in axis.l0..=axis.l1 {
        let d = 10f64.powi(e);
        x_grid(s, x(d), "");
        // Its label, centred under the axis: whole numbers from 1 up, as many decimals
        // as a smaller one needs.
        let decimals = (-d.log10()).ceil().max(0.0) as usize;
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="middle">{d:.decimals$}</text>"#,
            x(d),
            BOTTOM + 19.0,
        );
        for m in (2..10).filter(|_| e < axis.l1) {
            x_grid(s, x(f64::from(m) * d), r#" stroke-opacity=".5""#);
        }
    }
    // Fractions: grid lines labelled left of the axis; then the axes' titles, the x one
    // under the labels, the y one turned.
    for p in [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] {
        let _ = write!(
            s,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{RIGHT}" y2="{y:.1}" class="grid"/><text x="{:.1}" y="{y:.1}" dy="4.5" class="tick" text-anchor="end">{p:.1}</text>"#,
            LEFT - 6.0,
            y = py(p)
        );
    }
    let mid = (TOP + BOTTOM) / 2.0;
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" class="axis" text-anchor="middle">µs per puzzle (log scale)</text><text x="22" y="{mid:.1}" class="axis" text-anchor="middle" transform="rotate(-90 22 {mid:.1})">fraction of puzzles solved within</text>"#,
        (LEFT + RIGHT) / 2.0,
        H - 12.0,
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
    for (one, stroke) in series.iter().zip(&strokes) {
        let mut reached = 0.0;
        let mut steps = Vec::new();
        for &(t, p) in one.points.iter().filter(|p| p.0.is_finite()) {
            let (xt, from, to) = (x(t), py(reached), py(p));
            reached = p;
            steps.push(format!("{xt:.1},{from:.1} {xt:.1},{to:.1}"));
        }
        let _ = write!(s, r#"<polyline points="{}" {stroke}/>"#, steps.join(" "));
    }
    // Over the lines, each label on a white halo; the first series the top row.
    let (x0, x1) = (RIGHT - 30.0, RIGHT - 10.0);
    for (i, (one, stroke)) in series.iter().zip(&strokes).enumerate() {
        let ly = BOTTOM - 14.0 - (series.len() - 1 - i) as f64 * LINE;
        let _ = write!(
            s,
            r#"<line x1="{x0:.1}" y1="{ly:.1}" x2="{x1:.1}" y2="{ly:.1}" {stroke}/><text x="{x0:.1}" y="{ly:.1}" dx="-6" dy="4.5" class="note halo" text-anchor="end">{}</text>"#,
            escape(&one.label)
        );
    }
}

/// Inside each SVG, so a chart looks the same wherever it is put.
const STYLE: &str = "text{font-family:system-ui,sans-serif}.title{font-size:15px;font-weight:600}\
.tick{font-size:13px;fill:#444}.axis{font-size:14px}.note{font-size:13px;fill:#333}\
.halo{stroke:white;stroke-width:3;paint-order:stroke}.grid{stroke:#e3e3e3}";

/// The last part of a dataset's path, for a chart's title.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
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
            label: format!("{backend} label"),
            points,
        }
    }

    #[test]
    fn every_chart_is_well_formed() {
        let hostile = "<b>&\"'\u{7}";
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
        assert_eq!(well_formed(&cdf), Ok(()));
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
        // Decades 0.1 to 1000, each labelled.
        for tick in [">0.1<", ">1<", ">10<", ">100<", ">1000<"] {
            assert!(svg.contains(tick), "{tick}");
        }
        assert!(!svg.contains(">10000<") && !svg.contains(">0.01<"));
        // A line and a legend entry per series, in its backend's colour; a step per
        // point, up from the one before.
        assert_eq!(svg.matches("<polyline").count(), 2);
        let color = format!("stroke=\"{}\"", PALETTE[Palette::new(["a", "b"]).slot("a")]);
        assert_eq!(svg.matches(&color).count(), 2);
        let steps = svg.split("<polyline points=\"").nth(1).unwrap();
        assert_eq!(steps.split('"').next().unwrap().split(' ').count(), 6);
    }

    #[test]
    fn an_outlier_widens_the_log_axis_to_its_decade() {
        // 99 calls near 10 µs, one at 10 s: the axis ends at 10^7 µs, the step to it drawn.
        let mut points: Vec<(f64, f64)> = (1..=99)
            .map(|i| (10.0 + f64::from(i) / 10.0, f64::from(i) / 100.0))
            .collect();
        points.push((1e7, 1.0));
        let panel = Panel {
            title: "p".into(),
            series: vec![series("a", &points)],
        };
        let svg = cdf("t", &[panel], &Palette::new(["a"]));
        assert!(svg.contains(">10000000<") && !svg.contains(">100000000<"));
        assert!(svg.contains(&format!("{RIGHT:.1},")), "{svg}");
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
}
