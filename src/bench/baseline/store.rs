//! Where baselines live: `results/baselines` of the project around the working
//! directory (found upward, as cargo finds `Cargo.toml`), or where `--baselines-dir` or
//! `SUDOKU_BENCH_BASELINES` says.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::bench::BenchRun;

/// The environment variable naming the baselines folder.
pub const ENV: &str = "SUDOKU_BENCH_BASELINES";
/// Where baselines live inside a project.
pub const RELATIVE: &str = "results/baselines";
/// Longest baseline name.
pub const MAX_NAME: usize = 100;
/// Largest saved run read (a run of many results with CDFs is a few hundred KiB).
const MAX_FILE: u64 = 64 << 20;

/// How the baselines folder was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// `--baselines-dir`.
    Option,
    /// `SUDOKU_BENCH_BASELINES`.
    Env,
    /// `results/baselines` in the working directory or above.
    Upward,
    /// None found: these were the places looked at; saving creates `./results/baselines`.
    Nowhere(Vec<PathBuf>),
}

#[derive(Clone, Debug)]
pub struct Store {
    pub dir: PathBuf,
    pub found: Found,
}

impl Store {
    /// The folder `explicit` names, else the environment's, else the first
    /// `results/baselines` from the working directory upward.
    pub fn locate(explicit: Option<&Path>) -> anyhow::Result<Store> {
        let at = |dir: PathBuf, found| Ok(Store { dir, found });
        if let Some(dir) = explicit {
            return at(dir.to_path_buf(), Found::Option);
        }
        if let Some(dir) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
            return at(PathBuf::from(dir), Found::Env);
        }
        let cwd = std::env::current_dir().context("reading the working directory")?;
        let mut looked = Vec::new();
        for dir in cwd.ancestors() {
            let candidate = dir.join(RELATIVE);
            if candidate.is_dir() {
                return at(candidate, Found::Upward);
            }
            looked.push(candidate);
        }
        at(cwd.join(RELATIVE), Found::Nowhere(looked))
    }

    /// The file of baseline `name` (a checked name).
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The project the folder belongs to (its grandparent), for datasets named relative
    /// to it.
    pub fn project_root(&self) -> Option<PathBuf> {
        (self.found != Found::Option && self.found != Found::Env)
            .then(|| self.dir.parent()?.parent().map(Path::to_path_buf))
            .flatten()
    }

    /// Where it looked, for a message when a name is not found.
    pub fn describe(&self) -> String {
        match &self.found {
            Found::Option => format!("{} (--baselines-dir)", self.dir.display()),
            Found::Env => format!("{} (${ENV})", self.dir.display()),
            Found::Upward => self.dir.display().to_string(),
            Found::Nowhere(looked) => format!(
                "no {RELATIVE} folder in the working directory or above (looked at {} places, from {} up); \
                 pass --baselines-dir or set ${ENV}",
                looked.len(),
                looked
                    .first()
                    .map_or_else(String::new, |p| p.display().to_string())
            ),
        }
    }

    /// The names of the saved baselines, sorted.
    pub fn names(&self) -> anyhow::Result<Vec<String>> {
        let mut names = Vec::new();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(names),
            Err(e) => return Err(e).with_context(|| format!("listing {}", self.dir.display())),
        };
        for entry in entries {
            let name = entry?.file_name();
            if let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".json"))
                && check_name(stem).is_ok()
            {
                names.push(stem.to_string());
            }
        }
        names.sort();
        Ok(names)
    }
}

/// A baseline name: letters, digits, `-`, `_` and `.` (not first), at most
/// [`MAX_NAME`] characters; `.json` is added, so a name does not end with it.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(format!(
            "a baseline name has 1 to {MAX_NAME} characters, not {}",
            name.len()
        ));
    }
    if name.starts_with('.') || !name.chars().all(ok_char) {
        return Err(format!(
            "{name:?} is not a baseline name: use letters, digits, '-', '_' and '.' (not first); \
             baselines are saved as NAME.json in the baselines folder"
        ));
    }
    if name.ends_with(".json") {
        return Err(format!(
            "{name:?}: give the name without .json (it is added)"
        ));
    }
    Ok(())
}

/// What `compare` or `--baseline` names: a saved baseline or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaselineRef {
    Name(String),
    Path(PathBuf),
}

impl BaselineRef {
    /// A path when it has a separator or ends in `.json`; else a name.
    pub fn parse(s: &str) -> Result<BaselineRef, String> {
        if s.ends_with(".json") || s.contains(['/', '\\']) {
            return Ok(BaselineRef::Path(PathBuf::from(s)));
        }
        check_name(s)?;
        Ok(BaselineRef::Name(s.to_string()))
    }
}

/// Reads and validates a saved run: a regular file of at most 64 MiB, valid JSON of
/// the layout, every field in range. Returns where it was read from too.
pub fn load(store: &Store, what: &BaselineRef) -> anyhow::Result<(PathBuf, BenchRun)> {
    let path = match what {
        BaselineRef::Path(p) => p.clone(),
        BaselineRef::Name(name) => {
            let path = store.path_of(name);
            if !path.exists() {
                anyhow::bail!("no baseline {name:?} in {}", store.describe());
            }
            path
        }
    };
    let meta =
        std::fs::metadata(&path).with_context(|| format!("reading baseline {}", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!("baseline {} is not a regular file", path.display());
    }
    if meta.len() > MAX_FILE {
        anyhow::bail!(
            "baseline {} is {} bytes, more than a saved run can be ({MAX_FILE})",
            path.display(),
            meta.len()
        );
    }
    let mut bytes = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(MAX_FILE).read_to_end(&mut bytes))
        .with_context(|| format!("reading baseline {}", path.display()))?;
    let run: BenchRun = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not a saved sudoku-bench run", path.display()))?;
    run.validate()
        .map_err(|e| anyhow::anyhow!("{} is not a usable saved run: {e}", path.display()))?;
    Ok((path, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain() {
        for good in ["main", "v1.2", "a_b-c"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let long = "x".repeat(300);
        for bad in [
            "",
            "../x",
            "a/b",
            ".hidden",
            "evil.json",
            long.as_str(),
            "a b",
            "é",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert_eq!(
            BaselineRef::parse("main"),
            Ok(BaselineRef::Name("main".into()))
        );
        assert_eq!(
            BaselineRef::parse("x/run.json"),
            Ok(BaselineRef::Path("x/run.json".into()))
        );
        assert!(BaselineRef::parse("a b").is_err());
    }
}
