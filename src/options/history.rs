//! `history` options.

use std::path::PathBuf;

use super::usage;
use crate::base::bounds;
use crate::bench::baseline::Store;
use crate::bench::history::default_path;
use crate::cli::HistoryArgs;
use crate::output::{self, Place, TextTo};

pub struct HistoryOptions {
    pub file: PathBuf,
    pub backends: Vec<String>,
    pub dataset: Option<String>,
    pub threads: Option<usize>,
    pub last: Option<usize>,
    pub min_step_pct: f64,
    /// Where the trend table goes.
    pub text: TextTo,
}

pub(super) fn options(a: HistoryArgs) -> anyhow::Result<HistoryOptions> {
    let file = match a.file {
        Some(f) => f,
        None => default_path(&Store::locate(a.store.baselines_dir.as_deref())?),
    };
    let min_step_pct =
        bounds::finite(a.min_step, 0.0, 1000.0).or_else(|e| usage("--min-step", e))?;
    if a.last == Some(0) {
        return usage("--last", "give 1 or more points");
    }
    let threads = a.threads.map(|j| super::threads(j, false)).transpose()?;
    // No output but the text: standard output checked against the history it reads.
    let planned = output::plan_optional::<()>(&[Place::Path(file.clone())], &[], false)?;
    Ok(HistoryOptions {
        file,
        backends: a.backend,
        dataset: a.dataset,
        threads,
        last: a.last,
        min_step_pct,
        text: planned.text,
    })
}
