//! Paired verdicts (`bench --paired`), as a table for a person.

use std::fmt::Write as _;

use crate::bench::PairedComparison;
use crate::report::text_table::{Align, TextTable, shorten};

pub fn render(comparisons: &[PairedComparison]) -> String {
    if comparisons.is_empty() {
        return String::new();
    }
    use Align::{Left, Right};
    let mut table = TextTable::new(&[
        ("backend", Left),
        ("vs", Left),
        ("dataset", Left),
        ("-j", Right),
        ("ratio", Right),
        ("95% CI", Right),
        ("pairs", Right),
        ("clock", Left),
        ("verdict", Left),
    ]);
    for c in comparisons {
        table.row(vec![
            c.backend.clone(),
            c.baseline.clone(),
            shorten(&c.dataset, 32),
            c.threads.to_string(),
            format!("{:.4}", c.ratio),
            format!("{:.4}..{:.4}", c.ci95.0, c.ci95.1),
            c.pairs.to_string(),
            c.clock.clone(),
            c.verdict.name().to_string(),
        ]);
    }
    let mut s = format!(
        "\npaired (each backend against {}):\n",
        comparisons[0].baseline
    );
    s.push_str(&table.render());
    let regressed = comparisons
        .iter()
        .filter(|c| c.verdict == crate::bench::baseline::Verdict::Regressed)
        .count();
    let c = &comparisons[0];
    let _ = writeln!(
        s,
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
    );
    s
}
