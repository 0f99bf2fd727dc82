//! Paired verdicts (`bench --paired`), as a table for a person.

use std::fmt::Write as _;

use super::dataset_name;
use super::table::{Column, Table, dash};
use crate::bench::PairedComparison;
use crate::report::text_table::Align;

/// The columns a person reads (the terminal and Markdown).
const SHOWN: &[&str] = &[
    "backend", "vs", "dataset", "-j", "ratio", "95% CI", "pairs", "clock", "verdict",
];

pub fn render(comparisons: &[PairedComparison]) -> String {
    if comparisons.is_empty() {
        return String::new();
    }
    let mut table = table(comparisons).select(SHOWN);
    table.map("dataset", dataset_name);
    let mut s = format!(
        "\npaired (each backend against {}):\n",
        comparisons[0].baseline
    );
    s.push_str(&table.text());
    let _ = writeln!(s, "{}", legend(comparisons));
    s
}

/// The verdicts as a Markdown section (empty without any).
pub fn markdown(comparisons: &[PairedComparison]) -> String {
    if comparisons.is_empty() {
        return String::new();
    }
    format!(
        "\n**Paired** (each backend against {}):\n\n{}\n{}.\n",
        comparisons[0].baseline,
        table(comparisons).select(SHOWN).markdown(),
        legend(comparisons)
    )
}

/// What the ratios are, and the outcome.
fn legend(comparisons: &[PairedComparison]) -> String {
    let regressed = comparisons
        .iter()
        .filter(|c| c.verdict == crate::bench::baseline::Verdict::Regressed)
        .count();
    let c = &comparisons[0];
    format!(
        "ratio: time / the first backend's time on the same blocks of puzzles (median of the block ratios, 95% CI from their order statistics); \
         noise threshold {}%; order seed {}; clock {} ({}): {}",
        c.noise_pct,
        c.seed,
        c.clock,
        c.clock_reason(),
        match regressed {
            0 => "no regression".to_string(),
            n => format!("{n} regressed"),
        }
    )
}

/// The cells of each verdict (shared with the HTML report).
pub fn table(comparisons: &[PairedComparison]) -> Table {
    use Align::{Left, Right};
    let columns: &[Column<'_, PairedComparison>] = &[
        ("backend", Left, &|c| c.backend.clone()),
        ("dataset", Left, &|c| c.dataset.clone()),
        ("vs", Left, &|c| c.baseline.clone()),
        ("-j", Right, &|c| c.threads.to_string()),
        ("ratio", Right, &|c| format!("{:.4}", c.ratio)),
        ("95% CI", Right, &|c| {
            format!("{:.4}..{:.4}", c.ci95.0, c.ci95.1)
        }),
        ("pairs", Right, &|c| c.pairs.to_string()),
        ("clock", Left, &|c| c.clock.clone()),
        ("instr. ratio", Right, &|c| dash(c.instructions_ratio, 4)),
        ("verdict", Left, &|c| c.verdict.name().into()),
    ];
    Table::of(comparisons, columns)
}
