//! Whole-file outputs (exports, pages, baselines): never seen half written.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::{Target, TargetKind};

/// Writes `bytes` as the whole of `target`: a regular file as a temporary file
/// ([`beside`]) renamed over it, the old one left as it was on any failure; devices and
/// FIFOs in place; standard output through the same gate as rows.
pub fn write_whole(target: &Target, bytes: &[u8]) -> anyhow::Result<()> {
    match &target.kind {
        TargetKind::Stdout => {
            super::print_stdout(bytes).with_context(|| format!("writing {}", target.label))
        }
        TargetKind::Direct(path) => {
            let mut file = super::open_direct(path, false)
                .with_context(|| format!("opening {}", target.label))?;
            file.write_all(bytes)
                .with_context(|| format!("writing {}", target.label))
        }
        TargetKind::File(path) => {
            if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
                let label = &target.label;
                anyhow::bail!(
                    "writing {label}: {} is no longer a regular file",
                    path.display()
                );
            }
            // On failure `persist` hands the file back, and dropping it removes it.
            (beside(path, bytes).and_then(|tmp| Ok(tmp.persist(path).map_err(|e| e.error)?)))
                .with_context(|| format!("writing {}", target.label))?;
            target.written.claim_path(path);
            Ok(())
        }
    }
}

/// Writes each `(path, bytes)` as a new regular file, whole, or none of them: a path
/// that anything (a link too) has taken by the time its file is put in place is refused,
/// left as it was, and the files this call put in place before it are removed.
pub fn write_new(files: &[(PathBuf, Vec<u8>)]) -> anyhow::Result<()> {
    for (done, (path, bytes)) in files.iter().enumerate() {
        // On failure `persist_noclobber` hands the file back, and dropping it removes it.
        let written = beside(path, bytes)
            .and_then(|tmp| Ok(tmp.persist_noclobber(path).map_err(|e| e.error)?))
            .with_context(|| format!("writing {}", path.display()));
        if let Err(e) = written {
            for (path, _) in &files[..done] {
                let _ = std::fs::remove_file(path);
            }
            return Err(e);
        }
    }
    Ok(())
}

/// `bytes` in a temporary file created exclusively (a random name, so a planted link
/// cannot redirect it) in `path`'s folder, which is created if missing.
fn beside(path: &Path, bytes: &[u8]) -> anyhow::Result<tempfile::NamedTempFile> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp").rand_bytes(10);
    // As a plain create would (the umask applies), not the 0600 of a temporary file.
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(std::fs::Permissions::from_mode(0o666));
    let mut tmp = builder
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Place, plan};

    fn target(path: &Path) -> Target {
        let place = Place::Path(path.to_path_buf());
        plan(&[], &[("--x", &place)], false).unwrap().remove(0)
    }

    #[test]
    fn replaces_whole_files_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sub/out.json");
        write_whole(&target(&out), b"one").unwrap();
        write_whole(&target(&out), b"two").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        assert_eq!(
            std::fs::read_dir(dir.path().join("sub")).unwrap().count(),
            1
        );
    }

    #[test]
    fn writes_through_a_link_to_its_target_and_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&target(&link), b"new").unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // The target became a directory after the check: an error, nothing left behind.
        let t = target(&dir.path().join("x.json"));
        std::fs::create_dir(dir.path().join("x.json")).unwrap();
        assert!(write_whole(&t, b"x").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
    }

    #[test]
    fn new_files_are_written_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("d/a"), dir.path().join("d/b"));
        write_new(&[(a.clone(), b"a".to_vec()), (b.clone(), b"b".to_vec())]).unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"b");
        // `b` is taken: refused, left as it was, and `c`, written before it, removed.
        let c = dir.path().join("d/c");
        let err = write_new(&[(c.clone(), b"c".to_vec()), (b.clone(), b"new".to_vec())]);
        assert!(format!("{:#}", err.unwrap_err()).contains("/d/b"));
        assert_eq!(std::fs::read(&b).unwrap(), b"b");
        assert!(!c.exists());
        let left = std::fs::read_dir(dir.path().join("d")).unwrap().count();
        assert_eq!(left, 2, "no temporary file either");
    }
}
