//! Relative speed in words, hyperfine's way ("bitboard ran 4.21 ± 0.10 times faster than
//! dlx-static"): the same sentences, from one `Relative`, on the terminal, in Markdown
//! and in the HTML report.

use std::fmt::Write as _;

use crate::bench::BenchRun;
use crate::bench::relative::{Relative, Standing, Versus};

/// What a summary says.
pub struct Said {
    /// "DATASET -jN".
    pub title: String,
    /// "bitboard ran", or which could be compared when none is beside the fastest.
    pub head: String,
    /// One per backend compared with the fastest: "4.21 ± 0.10 times faster than X".
    pub ratios: Vec<String>,
    /// One per backend not compared: "X: no ratio (why)".
    pub excluded: Vec<String>,
}

/// How the ratios are made, in a sentence (after the summaries).
pub fn legend(run: &BenchRun) -> String {
    let mut s = String::from(
        "relative speed: each backend's µs/puzzle over the fastest's, ± one standard deviation propagated from both sides' spread between rounds; within the noise: the ratio's logarithm is within two of its standard deviations of zero",
    );
    if !run.paired.is_empty() {
        s.push_str("; the paired ratios, on the same blocks of puzzles taken in turns, are the sharper measure");
    }
    s
}

/// `cut`: the dataset named as the tables name it (the terminal), else in full.
pub fn said(r: &Relative, cut: bool) -> Said {
    let (ratios, excluded): (Vec<&Versus>, Vec<&Versus>) = r
        .others
        .iter()
        .partition(|v| v.standing != Standing::NoRatio);
    Said {
        title: match cut {
            true => format!("{} -j{}", super::dataset_name(&r.dataset), r.threads),
            false => format!("{} -j{}", r.dataset, r.threads),
        },
        head: match (&r.fastest, ratios.is_empty()) {
            (Some(f), false) => format!("{f} ran"),
            (Some(f), true) => format!("only {f} can be compared"),
            (None, _) => "no backend can be compared".into(),
        },
        ratios: ratios.iter().map(|v| ratio(v)).collect(),
        excluded: excluded
            .iter()
            .map(|v| {
                format!(
                    "{}: no ratio ({})",
                    v.backend,
                    v.why.as_deref().unwrap_or("not compared")
                )
            })
            .collect(),
    }
}

fn ratio(v: &Versus) -> String {
    let x = v.ratio.unwrap_or(f64::NAN);
    let sd = v.ratio_sd.unwrap_or(f64::NAN);
    match v.standing {
        Standing::WithinNoise => format!(
            "about as fast as {}: {x:.2} ± {sd:.2}, within the noise",
            v.backend
        ),
        Standing::TooFewRounds => format!(
            "{x:.2} times faster than {} (too few rounds for an uncertainty)",
            v.backend
        ),
        _ => format!("{x:.2} ± {sd:.2} times faster than {}", v.backend),
    }
}

/// For the terminal: a block per dataset and thread count, then the legend; empty when
/// no dataset had two backends.
pub fn text(run: &BenchRun) -> String {
    let mut s = String::new();
    for r in &run.relative() {
        let said = said(r, true);
        let _ = writeln!(s, "\nrelative speed on {}:\n  {}", said.title, said.head);
        for line in &said.ratios {
            let _ = writeln!(s, "    {line}");
        }
        for line in &said.excluded {
            let _ = writeln!(s, "  {line}");
        }
    }
    if !s.is_empty() {
        let _ = writeln!(s, "{}", legend(run));
    }
    s
}

/// For Markdown: a paragraph and a list per dataset and thread count, then the legend.
pub fn markdown(run: &BenchRun) -> String {
    let mut s = String::new();
    for r in &run.relative() {
        let said = said(r, false);
        let _ = writeln!(s, "\n**Relative speed** on {}: {}\n", said.title, said.head);
        for line in said.ratios.iter().chain(&said.excluded) {
            let _ = writeln!(s, "- {line}");
        }
    }
    if !s.is_empty() {
        let _ = writeln!(s, "\n{}.", legend(run));
    }
    s
}

/// For the HTML report: one sentence per dataset and thread count.
pub fn sentences(run: &BenchRun) -> Vec<String> {
    run.relative()
        .iter()
        .map(|r| {
            let said = said(r, false);
            let mut s = format!("{}: {}", said.title, said.head);
            if !said.ratios.is_empty() {
                let _ = write!(s, " {}", said.ratios.join("; "));
            }
            for line in &said.excluded {
                let _ = write!(s, ". {line}");
            }
            s.push('.');
            s
        })
        .collect()
}
