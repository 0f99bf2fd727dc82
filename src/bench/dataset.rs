//! A dataset loaded into memory once, for repeated passes, and its content hash.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::grid::Grid;
use crate::loader::{Input, LoadError, LoadOptions, Loader};
use crate::record::Record;
use crate::subset::Subset;

/// A dataset loaded into memory for repeated passes.
pub struct Dataset {
    pub info: DatasetInfo,
    pub(super) records: Vec<Record>,
    /// Indices of the records that are solvable puzzles (parsed, givens consistent).
    pub(super) timed: Vec<usize>,
    pub(super) grids: Vec<Grid>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The input as given: a file, a folder, or `-`.
    pub path: String,
    /// FNV-1a 64 of the bytes read (every file of a folder, in order): runs on different
    /// data never compare.
    pub hash: String,
    pub records: u64,
    /// Records timed: parse errors and conflicting givens are not solved.
    pub puzzles: u64,
    /// Records that could not be read as puzzles.
    #[serde(default)]
    pub parse_errors: u64,
}

/// Why a dataset cannot be measured: an input problem (exit 3), not a failure.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DatasetError(pub String);

impl Dataset {
    /// Loads a dataset: a file, a folder or standard input, read as `solve` reads it.
    /// `None` when an interrupt stopped the reading. A source that cannot be read, or
    /// a dataset with no puzzle in it, is a [`DatasetError`].
    pub fn load(
        input: &Input,
        load: &LoadOptions,
        subset: &Subset,
    ) -> anyhow::Result<Option<Dataset>> {
        // A dataset is read whole into memory: a device such as /dev/zero never ends.
        // (Pipes and FIFOs end when their writer does: they are read.)
        #[cfg(unix)]
        if let Input::File(path) = input {
            use std::os::unix::fs::FileTypeExt;
            if let Ok(meta) = std::fs::metadata(path) {
                let t = meta.file_type();
                if t.is_char_device() || t.is_block_device() || t.is_socket() {
                    return Err(DatasetError(format!(
                        "{}: a device, not a file, folder or pipe: a dataset is read whole",
                        path.display()
                    ))
                    .into());
                }
            }
        }
        let loader = Loader::new(vec![input.clone()], load.clone()).hashing();
        let name = input.name();
        let mut loader = loader;
        let mut read = Vec::new();
        for item in loader.by_ref() {
            match item {
                Ok(record) => read.push(record),
                Err(LoadError::Stopped) => return Ok(None),
                Err(e) => return Err(DatasetError(e.to_string()).into()),
            }
        }
        if crate::interrupt::requested() {
            return Ok(None);
        }
        let hash = loader.hash().expect("hashing");
        let mut records: Vec<Record> = subset.apply(read.into_iter()).collect();
        records.iter_mut().for_each(|r| {
            r.resolve();
        });
        let parse_errors = records.iter().filter(|r| r.body.is_err()).count() as u64;
        let timed: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.parsed()
                    .as_ref()
                    .as_ref()
                    .is_ok_and(|p| p.grid.find_conflict().is_none())
            })
            .map(|(i, _)| i)
            .collect();
        if timed.is_empty() {
            return Err(DatasetError(format!(
                "{name}: no puzzle to measure ({} records, {parse_errors} could not be read)",
                records.len()
            ))
            .into());
        }
        let grids = timed
            .iter()
            .map(|&i| {
                records[i]
                    .parsed()
                    .as_ref()
                    .as_ref()
                    .expect("timed records parsed")
                    .grid
            })
            .collect();
        Ok(Some(Dataset {
            info: DatasetInfo {
                path: name,
                hash,
                records: records.len() as u64,
                puzzles: timed.len() as u64,
                parse_errors,
            },
            records,
            timed,
            grids,
        }))
    }
}

/// FNV-1a 64 of a regular file's bytes. Bounded: anything but a regular file (a FIFO,
/// `/dev/zero`) is refused, and no more than the file's size is read.
pub fn hash_file(path: &Path) -> anyhow::Result<String> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!(
            "{} is not a regular file: a dataset is read into memory and hashed, so it must be a file",
            path.display()
        );
    }
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut reader = BufReader::new(file.take(meta.len()));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = reader
            .read(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_bytes_and_refuses_endless_files() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("e.txt");
        // FNV-1a 64 of "x" (and of "a", the published test vector), checked in Python.
        std::fs::write(&other, "x").unwrap();
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63f54c86021707");
        std::fs::write(&other, "a").unwrap();
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63dc4c8601ec8c");
        if Path::new("/dev/zero").exists() {
            let e = hash_file(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }
}
