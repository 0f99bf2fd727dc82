//! `solve`'s options.

use std::io::IsTerminal;

use super::{backend, format, limits, threads};
use crate::cli::SolveArgs;
use crate::format::Format;
use crate::loader::Input;
use crate::output::{self, Place, Target, Wanted};
use crate::report::RowOutputKind;
use crate::run::RunConfig;

/// Where the summary goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryTo {
    Stdout,
    Stderr,
    Nowhere,
}

pub struct SolveOptions {
    pub inputs: Vec<Input>,
    pub format: Option<Format>,
    pub run: RunConfig,
    /// The per-puzzle outputs, checked.
    pub outputs: Vec<(RowOutputKind, Target)>,
    pub summary: SummaryTo,
    pub progress: bool,
}

pub(super) fn options(a: SolveArgs) -> anyhow::Result<SolveOptions> {
    let run = RunConfig {
        backend: backend("--backend", &a.backend)?,
        limits: limits(&a.limits)?,
        threads: threads(a.threads)?,
    };
    let format = format(a.format.as_deref())?;
    let wanted: Vec<(RowOutputKind, &str, Place)> = [
        (RowOutputKind::Csv, "--csv", &a.csv),
        (RowOutputKind::Solutions, "--solutions", &a.solutions),
    ]
    .into_iter()
    .filter_map(|(kind, option, path)| Some((kind, option, Place::from_arg(path.as_ref()?))))
    .collect();
    let stdout_taken = wanted.iter().any(|(_, _, p)| *p == Place::Std);
    let stderr_is_terminal = std::io::stderr().is_terminal();
    let summary = match (a.quiet, stdout_taken) {
        (true, _) => SummaryTo::Nowhere,
        (false, false) => SummaryTo::Stdout,
        (false, true) if stderr_is_terminal => SummaryTo::Stderr,
        (false, true) => SummaryTo::Nowhere,
    };
    let inputs: Vec<Place> = match a.inputs.is_empty() {
        true => vec![Place::Std],
        false => a.inputs.iter().map(|p| Place::from_arg(p)).collect(),
    };
    let checks: Vec<Wanted<'_>> = wanted
        .iter()
        .map(|(_, option, place)| Wanted { option, place })
        .collect();
    let targets = output::plan(&inputs, &checks, summary == SummaryTo::Stdout)?;
    if stdout_taken && output::stdout_was_closed() {
        anyhow::bail!("standard output is closed: the rows sent there would be lost");
    }
    Ok(SolveOptions {
        inputs: a.inputs.iter().map(Input::from_arg).collect(),
        format,
        run,
        outputs: wanted.into_iter().map(|(k, _, _)| k).zip(targets).collect(),
        summary,
        progress: !a.no_progress && stderr_is_terminal,
    })
}
