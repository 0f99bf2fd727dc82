//! Verdicts for every output: two builds as a table, two solvers as sentences ("bitboard
//! ran 4.48 times faster than dlx-static"), each group with the legend of its ratios.

use std::fmt::Write as _;

use super::dataset_name;
use super::table::{Column, Table, dash};
use crate::bench::{How, Kind, Verdict, Versus};
use crate::report::text_table::Align;

/// The columns of the builds' table a person reads.
const SHOWN: &[&str] = &[
    "backend", "vs", "dataset", "-j", "ratio", "95% CI", "pairs", "clock", "verdict",
];

/// The verdicts' cells (the terminal, Markdown and HTML tables).
pub fn table(versus: &[Versus]) -> Table {
    use Align::{Left, Right};
    let columns: &[Column<'_, Versus>] = &[
        ("backend", Left, &|v| v.other.clone()),
        ("vs", Left, &|v| v.base.clone()),
        ("dataset", Left, &|v| v.dataset.clone()),
        ("-j", Right, &|v| v.threads.to_string()),
        ("ratio", Right, &|v| dash(v.ratio, 4)),
        ("95% CI", Right, &|v| match (v.low, v.high) {
            (Some(l), Some(h)) => format!("{l:.4}..{h:.4}"),
            _ => "-".into(),
        }),
        ("pairs", Right, &|v| v.pairs.to_string()),
        ("clock", Left, &|v| v.timing.name().into()),
        ("instr. ratio", Right, &|v| dash(v.instructions_ratio, 4)),
        ("verdict", Left, &|v| v.short()),
    ];
    Table::of(versus, columns)
}

/// How the ratios of `v` were measured, for its legend.
pub fn legend(v: &Versus) -> String {
    let how = match v.how {
        How::Paired => {
            "taking turns on the same blocks of puzzles (95% interval: a bootstrap of each block's rounds)"
        }
        How::Saved => {
            "a fresh run against saved figures, not side by side, which only a quiet machine makes fair (95% interval: a bootstrap of each side's rounds)"
        }
    };
    let words = match v.kind {
        Kind::Builds => format!(
            "; regressed or improved: the interval beyond 1 and the change beyond the noise threshold, {}%",
            v.noise_pct
        ),
        Kind::Solvers => "; about as fast: the interval holds 1".to_string(),
    };
    format!(
        "ratio: total time over {}'s on the same puzzles, {how}{words}; clock {}: {}",
        v.base,
        v.timing.name(),
        v.timing.reason()
    )
}

/// The verdicts between solvers of a dataset at a thread count, in order of first
/// appearance.
fn solver_groups(versus: &[Versus]) -> Vec<Vec<&Versus>> {
    let mut groups: Vec<Vec<&Versus>> = Vec::new();
    for v in versus.iter().filter(|v| v.kind == Kind::Solvers) {
        let same = |g: &&mut Vec<&Versus>| {
            g[0].dataset == v.dataset && g[0].threads == v.threads && g[0].base == v.base
        };
        match groups.iter_mut().find(same) {
            Some(g) => g.push(v),
            None => groups.push(vec![v]),
        }
    }
    groups
}

/// "bitboard ran", then "4.48 times faster than dlx-static (4.41..4.55)" / "null: no
/// ratio (null solves nothing)": a group of two solvers, in lines (those with a ratio
/// indented).
fn solver_lines(group: &[&Versus]) -> (String, Vec<(bool, String)>) {
    let mut lines = Vec::new();
    for v in group {
        lines.push(match v.ran() {
            Some(ran) => (true, ran),
            None => (
                false,
                format!(
                    "{}: no ratio ({})",
                    v.other,
                    v.why.as_deref().unwrap_or("not compared")
                ),
            ),
        });
        if let (Some(why), true) = (&v.why, v.ratio.is_some()) {
            lines.push((true, format!("({why})")));
        }
    }
    let head = match lines.iter().any(|(ratio, _)| *ratio) {
        true => format!("{} ran", group[0].base),
        false => format!("{}: no backend compared with it", group[0].base),
    };
    (head, lines)
}

/// For the terminal.
pub fn text(versus: &[Versus]) -> String {
    let mut s = String::new();
    for g in solver_groups(versus) {
        let (v, (head, lines)) = (g[0], solver_lines(&g));
        let title = format!("{} -j{}", dataset_name(&v.dataset), v.threads);
        let _ = writeln!(s, "\nrelative speed on {title}:\n  {head}");
        for (indent, line) in lines {
            let _ = writeln!(s, "{}{line}", if indent { "    " } else { "  " });
        }
        let _ = writeln!(s, "{}", legend(v));
    }
    let builds = builds(versus);
    if let Some(v) = builds.first() {
        let mut table = table(&builds).select(SHOWN);
        table.map("dataset", dataset_name);
        let _ = write!(s, "\nbuilds compared:\n{}", table.render());
        for (b, why) in builds.iter().filter_map(|b| Some((b, b.why.as_deref()?))) {
            let (dataset, threads) = (dataset_name(&b.dataset), b.threads);
            let _ = writeln!(s, "{} on {dataset} -j{threads}: {why}", b.other);
        }
        let _ = writeln!(s, "{}: {}", legend(v), outcome(&builds));
    }
    s
}

/// The verdicts between builds.
pub fn builds(versus: &[Versus]) -> Vec<Versus> {
    let builds = versus.iter().filter(|v| v.kind == Kind::Builds);
    builds.cloned().collect()
}

/// "no regression", "2 regressed".
fn outcome(builds: &[Versus]) -> String {
    let regressed = builds.iter().filter(|v| v.verdict == Verdict::Regressed);
    match regressed.count() {
        0 => "no regression".into(),
        n => format!("{n} regressed"),
    }
}

/// For Markdown.
pub fn markdown(versus: &[Versus]) -> String {
    let mut s = String::new();
    for g in solver_groups(versus) {
        let (v, (head, lines)) = (g[0], solver_lines(&g));
        let (dataset, threads) = (&v.dataset, v.threads);
        let _ = writeln!(s, "\n**Relative speed** on {dataset} -j{threads}: {head}\n");
        for (_, line) in lines {
            let _ = writeln!(s, "- {line}");
        }
        let _ = writeln!(s, "\n{}.", legend(v));
    }
    let builds = builds(versus);
    if let Some(v) = builds.first() {
        let _ = write!(
            s,
            "\n**Builds compared**:\n\n{}\n{}: {}.\n",
            table(&builds).select(SHOWN).markdown(),
            legend(v),
            outcome(&builds)
        );
    }
    s
}
