//! The build store: what a saved baseline needs to be run again (this tool's executable,
//! the files a foreign backend's spec names), each copied once and named by its content
//! hash. It lives outside every project ([`Builds::locate`]): a baseline in a repository
//! is untrusted and a build is code, so `compare` runs only what this user's own runs
//! copied here, each copy checked against its hash, a foreign backend only as the command
//! line names it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};

use super::dataset::hash_file;
use super::saved::{BenchResult, Kept, is_hash};
use crate::base::{FNV_START, fnv1a};
use crate::solver::Backend;
use crate::solver::exec::ExecSpec;
use crate::solver::shared_lib::LibSpec;

/// The environment variable naming the build store.
pub const ENV: &str = "SUDOKU_BENCH_BUILDS";
/// The executable's name in the store.
const EXE: &str = "sudoku-bench";

pub struct Builds {
    pub dir: PathBuf,
}

impl Builds {
    /// `$SUDOKU_BENCH_BUILDS`, else under `$XDG_CACHE_HOME`, else under `~/.cache`;
    /// `None` where none is set.
    pub fn locate() -> Option<Builds> {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let dir = var(ENV)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("sudoku-bench/builds")))
            .or_else(|| var("HOME").map(|h| h.join(".cache/sudoku-bench/builds")))?;
        Some(Builds { dir })
    }

    /// Keeps a copy of the file at `path` under `name`, once per content: its hash.
    pub fn keep(&self, path: &Path, name: &str) -> anyhow::Result<String> {
        let hash = hash_file(path)?;
        if self.find(&hash).is_some() {
            return Ok(hash);
        }
        let folder = self.dir.join(&hash["fnv1a64:".len()..]);
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("creating {}", folder.display()))?;
        // Copied beside, checked, then renamed: a copy cut short, or of a file that
        // changed meanwhile, is never found.
        let tmp = folder.join(format!(".{name}.{}", std::process::id()));
        let copied = std::fs::copy(path, &tmp)
            .map_err(anyhow::Error::from)
            .and_then(|_| hash_file(&tmp));
        let why = match copied {
            Ok(h) if h == hash => None,
            Ok(_) => Some("it changed while it was copied".into()),
            Err(e) => Some(format!("{e:#}")),
        };
        if let Some(why) = why {
            let _ = std::fs::remove_file(&tmp);
            bail!("keeping {}: {why}", path.display());
        }
        std::fs::rename(&tmp, folder.join(name))
            .with_context(|| format!("keeping {} in {}", path.display(), folder.display()))?;
        Ok(hash)
    }

    /// The kept copy of `hash`, its content checked; `None` where there is none (kept
    /// on another machine, or removed).
    pub fn find(&self, hash: &str) -> Option<PathBuf> {
        if !is_hash(hash) {
            return None;
        }
        let folder = self.dir.join(&hash["fnv1a64:".len()..]);
        std::fs::read_dir(folder)
            .ok()?
            .filter_map(|e| Some(e.ok()?.path()))
            .find(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                    && std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file())
                    && hash_file(p).is_ok_and(|h| h == hash)
            })
    }

    /// Keeps the running executable: its hash.
    pub fn keep_exe(&self) -> anyhow::Result<String> {
        self.keep(&super::machine::running_exe(), EXE)
    }

    /// A built-in backend of the build `exe` (a kept executable), as the `exec:` program
    /// that runs it: its `worker`, with the limits of `result`'s run.
    pub fn worker(&self, exe: &str, name: &str, limits: &crate::solver::Limits) -> Option<Backend> {
        let path = self.find(exe)?;
        let mut words = vec![
            path.display().to_string(),
            "worker".into(),
            "-b".into(),
            name.into(),
            "--max-nodes".into(),
            limits.max_nodes.to_string(),
        ];
        if let Some(t) = limits.timeout {
            words.extend(["--timeout".into(), t.as_secs_f64().to_string()]);
        }
        Some(exec_backend(words, None))
    }
}

/// An `exec:` backend of the words `words` (the program first), its spec written so that
/// it parses back; in `like`'s mode where given.
fn exec_backend(mut words: Vec<String>, like: Option<&ExecSpec>) -> Backend {
    let spec = crate::solver::leaked(format!("exec:{}", shell_words::join(&words)));
    let program = words.remove(0);
    Backend::Exec(Arc::new(ExecSpec {
        spec,
        program,
        args: words,
        protocol: crate::solver::exec::Protocol::Lines,
        mode: like.map_or(Default::default(), |l| l.mode),
        shared: Default::default(),
    }))
}

/// The files `backend`'s spec names that a baseline keeps (the word they stand for, the
/// path), and a phrase for each word left out.
pub fn files_of(backend: &Backend) -> (Vec<(usize, PathBuf)>, Vec<String>) {
    let (mut keep, mut left) = (Vec::new(), Vec::new());
    match backend {
        Backend::Lib(spec) => keep.push((0, spec.path.clone())),
        Backend::Exec(spec) => {
            let words = std::iter::once(&spec.program).chain(&spec.args);
            for (i, word) in words.enumerate() {
                let path = Path::new(word);
                if i == 0 && !word.contains('/') {
                    left.push(format!(
                        "{word} (found on PATH: an interpreter or a system program)"
                    ));
                } else if path.is_file() {
                    keep.push((i, path.to_path_buf()));
                } else if path.is_dir() {
                    left.push(format!("{word} (a folder)"));
                }
            }
        }
        _ => {}
    }
    (keep, left)
}

/// What a saved baseline keeps of one backend: its files' copies (their identity:
/// [`identity`]), and the words of its spec left out (said).
pub struct Keeping {
    pub label: String,
    pub kept: Vec<Kept>,
    pub left: Vec<String>,
}

/// Keeps the files of the backend labelled `label`.
pub fn keep_files(builds: &Builds, label: &str, backend: &Backend) -> anyhow::Result<Keeping> {
    let (files, left) = files_of(backend);
    let mut kept = Vec::new();
    for (word, path) in files {
        let name = path
            .file_name()
            .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
        let hash = builds.keep(&path, &name)?;
        kept.push(Kept {
            word,
            path: path.display().to_string(),
            hash,
        });
    }
    Ok(Keeping {
        label: label.to_string(),
        kept,
        left,
    })
}

/// One hash for the files of a backend: the file's own, or a hash of theirs.
pub fn identity(kept: &[Kept]) -> Option<String> {
    match kept {
        [] => None,
        [one] => Some(one.hash.clone()),
        many => {
            let h = (many.iter()).fold(FNV_START, |h, k| fnv1a(h, k.hash.as_bytes()));
            Some(format!("fnv1a64:{h:016x}"))
        }
    }
}

/// The saved build of a foreign backend that the command line names now (`given`): its
/// spec with the kept copies in place of the files, or why it cannot be run.
pub fn old_of(builds: &Builds, given: &Backend, saved: &BenchResult) -> Result<Backend, String> {
    let (files, _) = files_of(given);
    let same_words = files.len() == saved.kept.len()
        && files
            .iter()
            .zip(&saved.kept)
            .all(|((w, p), k)| *w == k.word && p.display().to_string() == k.path);
    if saved.kept.is_empty() || !same_words {
        return Err(format!(
            "the baseline kept no copy of the files {given} names{}",
            match saved.kept.is_empty() {
                true => "",
                false => " (it kept others: the spec differs)",
            }
        ));
    }
    let mut copies = Vec::new();
    for k in &saved.kept {
        let copy = builds
            .find(&k.hash)
            .ok_or_else(|| format!("its copy of {} is not in {}", k.path, builds.dir.display()))?;
        copies.push((k.word, copy));
    }
    Ok(match given {
        Backend::Lib(spec) => {
            let path = copies[0].1.clone();
            Backend::Lib(Arc::new(LibSpec {
                spec: crate::solver::leaked(format!("lib:{}:{}", path.display(), spec.symbol)),
                path,
                symbol: spec.symbol.clone(),
            }))
        }
        Backend::Exec(spec) => {
            let mut words = [vec![spec.program.clone()], spec.args.clone()].concat();
            for (w, copy) in copies {
                words[w] = copy.display().to_string();
            }
            exec_backend(words, Some(spec))
        }
        other => return Err(format!("{other} is built in")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_is_found_by_content_and_a_changed_copy_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let builds = Builds {
            dir: dir.path().join("store"),
        };
        let file = dir.path().join("libx.so");
        std::fs::write(&file, b"one").unwrap();
        let hash = builds.keep(&file, "libx.so").unwrap();
        // Kept once: keeping it again finds the copy.
        assert_eq!(builds.keep(&file, "libx.so").unwrap(), hash);
        let copy = builds.find(&hash).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), b"one");
        // The original replaced in place: the copy is the old one still.
        std::fs::write(&file, b"two").unwrap();
        assert_eq!(std::fs::read(builds.find(&hash).unwrap()).unwrap(), b"one");
        // A copy changed in the store is not run.
        std::fs::write(&copy, b"tampered").unwrap();
        assert_eq!(builds.find(&hash), None);
        // A hash from a file that is not one names nothing.
        assert_eq!(builds.find("fnv1a64:../../etc"), None);
    }
}
