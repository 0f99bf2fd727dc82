//! Foreign backends (`exec:`, `lib:`) checked before anything runs: the program found,
//! the library loaded and its symbol found, the thread count they may use.

use std::sync::Arc;

use super::usage;
use crate::cli::ForeignArgs;
use crate::run::Verify;
use crate::solver::Backend;
use crate::solver::exec::ExecMode;

/// The backend ready to run: an exec: spec gets its mode, and an exec: program or a
/// lib: library that cannot be found or loaded is a usage error now.
pub(crate) fn prepare(
    option: &str,
    backend: Backend,
    args: &ForeignArgs,
) -> anyhow::Result<Backend> {
    match backend {
        Backend::Exec(spec) => {
            let mut spec = Arc::unwrap_or_clone(spec);
            spec.mode = match args.exec_mode.as_str() {
                "stream" => ExecMode::Stream,
                _ => ExecMode::PerPuzzle,
            };
            spec.resolve().or_else(|e| usage(option, e))?;
            Ok(Backend::Exec(Arc::new(spec)))
        }
        Backend::Lib(spec) => {
            spec.load().or_else(|e| usage(option, e))?;
            Ok(Backend::Lib(spec))
        }
        other => Ok(other),
    }
}

/// The threads a run may use: lib: backends keep to one unless `--lib-threadsafe`; a
/// count asked for explicitly is never lowered, it is refused.
pub(crate) fn threads(
    backends: &[Backend],
    asked: &[usize],
    args: &ForeignArgs,
) -> anyhow::Result<Option<usize>> {
    let lib = backends.iter().find(|b| matches!(b, Backend::Lib(_)));
    let Some(lib) = lib.filter(|_| !args.lib_threadsafe) else {
        return Ok(None);
    };
    if asked.iter().any(|&n| n > 1) {
        return usage(
            "--threads",
            format!(
                "{lib} runs on one thread (foreign solvers often keep global state); pass --lib-threadsafe to allow more"
            ),
        );
    }
    if asked.contains(&0) {
        say!(
            "note: {lib} runs on one thread (foreign solvers often keep global state); --lib-threadsafe allows more"
        );
    }
    Ok(Some(1))
}

/// `--verify`: whose claims are checked (clap allows only the two names).
pub(crate) fn verify(args: &ForeignArgs) -> Verify {
    match args.verify.as_str() {
        "all" => Verify::All,
        _ => Verify::Foreign,
    }
}
