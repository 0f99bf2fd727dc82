//! The only writer of files.
//!
//! - [`plan`] checks, before anything runs, every output against every input and every
//!   other output by identity (device and inode), standard input and output included.
//! - [`write_whole`] writes a whole file: an exclusively created temporary file beside
//!   the target, then a rename, so a reader never sees half of it; [`write_new`] the
//!   same for a file that must not be there yet (a rename that refuses to replace).
//! - [`RowStream`] streams rows (CSV, solutions): whole rows only, and on a write error
//!   the file is cut back to its last whole row and the error says it is partial.
//!
//! A second Ctrl-C exits only between rows ([`crate::base::interrupt::exit_between_rows`]).

mod append;
mod identity;
mod stream;
mod whole;

pub use append::append_lines;
pub use identity::{Kind, Resolved, Stream, Written, resolve, resolve_stream, stdout_was_closed};
pub use stream::{RowStream, Rows, StreamError, print_stdout};
pub use whole::{write_new, write_whole};

use std::path::{Path, PathBuf};

/// Opens a device, FIFO or socket output for writing (appending when `append`).
/// Opening a FIFO waits for its reader, so that wait happens on a helper thread that an
/// interrupt abandons: one Ctrl-C or SIGTERM ends a run waiting on a FIFO no one reads.
pub(crate) fn open_direct(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    let open = move |path: &Path| {
        std::fs::OpenOptions::new()
            .write(true)
            .append(append)
            .open(path)
    };
    if !resolve(path).is_ok_and(|r| r.kind == Kind::Fifo) {
        return open(path);
    }
    let owned = path.to_path_buf();
    let what = format!("a reader of the FIFO {}", path.display());
    crate::base::interrupt::open_waiting(&what, move || open(&owned))
}

/// Takes the exclusive lock on `file` (`flock`) if no other process holds it. A file
/// system without locks locks nothing: that is no other run.
fn try_lock(file: &std::fs::File) -> bool {
    !matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// Where a command's text for people goes: its summary, its tables, what it saved.
/// Decided here, by [`plan_optional`], for every command alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextTo {
    Stdout,
    Stderr,
    Nowhere,
}

impl TextTo {
    /// Prints `text` where it goes. A reader that went away (`| true`) loses only this
    /// text: the exit status still tells what happened.
    pub fn print(self, text: &str) -> std::io::Result<()> {
        match self {
            TextTo::Stdout => match print_stdout(text.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other,
            },
            TextTo::Stderr => {
                let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
                Ok(())
            }
            TextTo::Nowhere => Ok(()),
        }
    }
}

/// A place named on the command line: `-` (standard input or output) or a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Std,
    Path(PathBuf),
}

impl Place {
    pub fn from_arg(arg: &Path) -> Place {
        if arg.as_os_str() == "-" {
            Place::Std
        } else {
            Place::Path(arg.to_path_buf())
        }
    }
}

/// An output, checked and ready to open.
#[derive(Clone, Debug)]
pub struct Target {
    /// What the user wrote, for messages (`standard output` for `-`).
    pub label: String,
    pub kind: TargetKind,
    /// The files of the run this target is planned in, which it adds its file to.
    pub written: Written,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetKind {
    Stdout,
    /// A regular file, or none yet: written at this resolved path (links followed).
    File(PathBuf),
    /// A character device, FIFO or socket: written in place, never renamed over.
    Direct(PathBuf),
}

/// Why an output was refused.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(
        "refusing to write {what} {output}: it is the same file as the input {input} (writing would destroy it)"
    )]
    IsInput {
        what: String,
        output: String,
        input: String,
    },
    #[error("refusing to write {what} {output}: it is inside the input directory {input}")]
    InsideInput {
        what: String,
        output: String,
        input: String,
    },
    #[error("{a} and {b} name the same output ({output}); give them different files")]
    SameOutput {
        a: String,
        b: String,
        output: String,
    },
    #[error("standard output is closed: what is sent there would be lost")]
    Closed,
    #[error("{what} {output} is a directory, not a file")]
    Directory { what: String, output: String },
    #[error("{what} {output}: {source}")]
    Resolve {
        what: String,
        output: String,
        source: std::io::Error,
    },
}

/// Checks `outputs` (each the option that names it, `--csv`, and where it goes) against
/// `inputs` (files, directories, or `-` for standard input) and against each other, and
/// returns them ready to open, in order. `stdout_used` says that something else (a
/// summary) goes to standard output, so it must not be an input either.
pub fn plan(
    inputs: &[Place],
    outputs: &[(&str, &Place)],
    stdout_used: bool,
) -> Result<Vec<Target>, PlanError> {
    let inputs: Vec<(String, Resolved)> = inputs
        .iter()
        .filter_map(|place| match place {
            Place::Std => resolve_stream(Stream::Stdin).map(|r| ("(standard input)".into(), r)),
            Place::Path(p) => resolve(p).ok().map(|r| (p.display().to_string(), r)),
        })
        .collect();
    // Standard output or error redirected onto an output file (`> rows.csv`) would
    // write the summary or the notes over its rows: outputs are checked against them too.
    let mut seen: Vec<(String, Resolved)> = Vec::new();
    let stdout = resolve_stream(Stream::Stdout);
    if let (true, Some(out)) = (stdout_used, &stdout) {
        check_inputs("standard output", "", out, &inputs)?;
        seen.push(("standard output (redirected there)".into(), out.clone()));
    }
    if let Some(err) = resolve_stream(Stream::Stderr) {
        seen.push(("standard error (redirected there)".into(), err));
    }
    seen.retain(|(_, r)| r.kind == Kind::File);
    let redirected = seen.len();
    let mut stdout_option: Option<String> = None;
    let mut targets = Vec::new();
    let written = Written::default();
    for &(option, place) in outputs {
        let what = option.to_string();
        if place == &Place::Std
            && let Some(a) = stdout_option.replace(what.clone())
        {
            return Err(PlanError::SameOutput {
                a,
                b: what,
                output: "standard output".into(),
            });
        }
        // The target's label and kind, and what it is on disk (`None` for a standard
        // output that cannot be looked at).
        let (label, kind, resolved) = match place {
            Place::Std => ("standard output".into(), TargetKind::Stdout, stdout.clone()),
            Place::Path(p) => {
                let label = p.display().to_string();
                let r = resolve(p).map_err(|source| PlanError::Resolve {
                    what: what.clone(),
                    output: label.clone(),
                    source,
                })?;
                let kind = match r.kind {
                    Kind::Directory => {
                        return Err(PlanError::Directory {
                            what,
                            output: label,
                        });
                    }
                    Kind::Missing | Kind::File => TargetKind::File(r.path.clone()),
                    _ => TargetKind::Direct(r.path.clone()),
                };
                (label, kind, Some(r))
            }
        };
        let target = Target {
            label,
            kind,
            written: written.clone(),
        };
        if let Some(resolved) = resolved {
            check_inputs(&what, &target.label, &resolved, &inputs)?;
            written.claim(&resolved);
            // Standard output is no other output for one that goes there.
            let from = if place == &Place::Std { redirected } else { 0 };
            if let Some((a, _)) = seen[from..].iter().find(|(_, o)| resolved.same_as(o)) {
                return Err(PlanError::SameOutput {
                    a: a.clone(),
                    b: what,
                    output: target.label,
                });
            }
            seen.push((what, resolved));
        }
        targets.push(target);
    }
    Ok(targets)
}

/// [`plan`] for outputs that each may or may not be wanted, each given as its key, the
/// option that names it and where it goes: the targets of those named come back under
/// their keys, so that none is ever taken for another by its place in a list. Where
/// the command's text goes ([`TextTo`]) is decided with them (`quiet`: nowhere).
pub fn plan_optional<K: Copy>(
    inputs: &[Place],
    outputs: &[(K, &str, Option<Place>)],
    quiet: bool,
) -> Result<Planned<K>, PlanError> {
    let stdout_taken = outputs.iter().any(|(_, _, p)| *p == Some(Place::Std));
    // Standard output, unless `quiet`, or unless an output named `-` takes it: that
    // output then has standard output alone (an export sharing it with the tables was
    // neither JSON nor CSV), and the text goes to standard error when a person reads
    // it there (a terminal), else nowhere.
    let text = match (quiet, stdout_taken) {
        (true, _) => TextTo::Nowhere,
        (false, false) => TextTo::Stdout,
        (false, true) if std::io::IsTerminal::is_terminal(&std::io::stderr()) => TextTo::Stderr,
        (false, true) => TextTo::Nowhere,
    };
    let (keys, wanted): (Vec<K>, Vec<(&str, &Place)>) = outputs
        .iter()
        .filter_map(|(key, option, place)| Some((*key, (*option, place.as_ref()?))))
        .unzip();
    let targets = plan(inputs, &wanted, text == TextTo::Stdout)?;
    if stdout_taken && stdout_was_closed() {
        return Err(PlanError::Closed);
    }
    Ok(Planned {
        targets: keys.into_iter().zip(targets).collect(),
        declared: outputs.iter().map(|(key, ..)| *key).collect(),
        text,
    })
}

/// The targets [`plan_optional`] gives, in the order asked for, each with its key.
pub struct Planned<K> {
    /// The targets not taken yet, in the order asked for.
    pub targets: Vec<(K, Target)>,
    /// Every output asked about, named or not: a key taken must be one of them.
    declared: Vec<K>,
    /// Where the command's text goes.
    pub text: TextTo,
}

impl<K: PartialEq + std::fmt::Debug> Planned<K> {
    /// The files these outputs write, for the loader to refuse as inputs.
    pub fn written(&self) -> Written {
        self.targets
            .first()
            .map_or_else(Written::default, |(_, t)| t.written.clone())
    }

    /// The target of the output `key`, if it was named. A key that was never declared
    /// is a bug (a misspelt key would quietly drop an output): tests panic on it.
    pub fn take(&mut self, key: K) -> Option<Target> {
        debug_assert!(
            self.declared.contains(&key),
            "output {key:?} was not declared"
        );
        let at = self.targets.iter().position(|(k, _)| *k == key)?;
        Some(self.targets.remove(at).1)
    }
}

fn check_inputs(
    what: &str,
    label: &str,
    out: &Resolved,
    inputs: &[(String, Resolved)],
) -> Result<(), PlanError> {
    for (input, r) in inputs {
        let (what, output, input) = (what.to_string(), label.to_string(), input.clone());
        if out.same_as(r) {
            return Err(PlanError::IsInput {
                what,
                output,
                input,
            });
        }
        if out.inside(r) {
            return Err(PlanError::InsideInput {
                what,
                output,
                input,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &Path) -> Place {
        Place::Path(path.to_path_buf())
    }

    #[test]
    fn outputs_are_checked_by_identity() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x").unwrap();
        let link = dir.path().join("link.csv");
        std::fs::hard_link(&input, &link).unwrap();
        let inputs = [p(&input)];
        let err = plan(&inputs, &[("--csv", &p(&link))], false).unwrap_err();
        assert!(matches!(err, PlanError::IsInput { .. }), "{err}");
        let a = p(&dir.path().join("same.csv"));
        let b = p(&dir.path().join("sub/../same.csv"));
        let err = plan(&inputs, &[("--csv", &a), ("--solutions", &b)], false).unwrap_err();
        assert!(matches!(err, PlanError::SameOutput { .. }), "{err}");
        let inside = p(&dir.path().join("out.csv"));
        let err = plan(&[p(dir.path())], &[("--csv", &inside)], false).unwrap_err();
        assert!(matches!(err, PlanError::InsideInput { .. }), "{err}");
        let std = Place::Std;
        let err = plan(&[], &[("--csv", &std), ("--solutions", &std)], false).unwrap_err();
        assert!(matches!(err, PlanError::SameOutput { .. }), "{err}");
        let null = p(Path::new("/dev/null"));
        let ok = plan(&inputs, &[("--csv", &null), ("--solutions", &null)], false);
        assert!(ok.is_ok(), "{ok:?}");
        assert!(matches!(ok.unwrap()[0].kind, TargetKind::Direct(_)));
        let err = plan(&inputs, &[("--csv", &p(dir.path()))], false);
        assert!(matches!(err, Err(PlanError::Directory { .. })));
    }

    /// A key taken that was never declared would quietly drop an output: a bug the
    /// tests catch.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "was not declared")]
    fn a_key_never_declared_is_a_bug() {
        let mut planned = plan_optional(&[], &[("--plot", "--plot", None)], false).unwrap();
        assert!(planned.take("--plot").is_none());
        planned.take("--plto");
    }
}
