//! `solve`'s options.

use std::io::IsTerminal;

use super::{backend, limits, threads};
use crate::cli::SolveArgs;
use crate::loader::subset::Subset;
use crate::loader::{Input, LoadOptions};
use crate::output::{self, Place, Target, TextTo};
use crate::report::RowOutputKind;
use crate::run::RunConfig;

pub struct SolveOptions {
    pub inputs: Vec<Input>,
    pub load: LoadOptions,
    pub subset: Subset,
    pub run: RunConfig,
    /// The per-puzzle outputs, checked.
    pub outputs: Vec<(RowOutputKind, Target)>,
    pub summary: TextTo,
    pub progress: bool,
}

pub(super) fn options(a: SolveArgs) -> anyhow::Result<SolveOptions> {
    let backend =
        super::foreign::prepare("--backend", backend("--backend", &a.backend)?, &a.foreign)?;
    let threads = threads(a.threads, true)?;
    let read = super::input::read_settings(&a.input);
    let (mut load, subset) = super::input::load_options(&read, a.input.verbose)?;
    let run = RunConfig {
        threads: super::foreign::threads(std::slice::from_ref(&backend), &[threads], &a.foreign)?
            .unwrap_or(threads),
        backend,
        limits: limits(a.limits.max_solutions, a.limits.max_nodes, a.limits.timeout)?,
        verify: super::foreign::verify(&a.foreign),
        serial_io: load.io.clone(),
    };
    let place = |p: &Option<std::path::PathBuf>| p.as_deref().map(Place::from_arg);
    let wanted = [
        (RowOutputKind::Csv, "--csv", place(&a.csv)),
        (RowOutputKind::Solutions, "--solutions", place(&a.solutions)),
    ];
    let inputs: Vec<Place> = match a.inputs.is_empty() {
        true => vec![Place::Std],
        false => a.inputs.iter().map(|p| Place::from_arg(p)).collect(),
    };
    let planned = output::plan_optional(&inputs, &wanted, a.quiet)?;
    load.written = planned.written();
    Ok(SolveOptions {
        inputs: a.inputs.iter().map(Input::from_arg).collect(),
        load,
        subset,
        run,
        outputs: planned.targets,
        summary: planned.text,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
    })
}
