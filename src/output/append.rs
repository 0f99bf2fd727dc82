//! Appending whole lines (the history): one `write` of all of them to a file opened
//! with `O_APPEND`, under an exclusive lock (`flock`, waited for as every wait is) held
//! from measuring the file to the end: lines from two runs never interleave, and a
//! failure cuts the file back to its old length, taking no other run's lines.

use std::io::Write;

use anyhow::Context;

use super::{Target, TargetKind};

/// Appends `bytes` (whole lines) to `target`, creating the file and its folder. Whether
/// the file was new, and whether folders on its path were missing and made: what was
/// made that was not there before, for a message that says exactly that.
pub fn append_lines(target: &Target, bytes: &[u8]) -> anyhow::Result<(bool, bool)> {
    let what = || format!("appending to {}", target.label);
    match &target.kind {
        TargetKind::Stdout => super::print_stdout(bytes)
            .with_context(what)
            .map(|()| (false, false)),
        TargetKind::Direct(path) => super::open_direct(path, true)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(what)
            .map(|()| (false, false)),
        TargetKind::File(path) => {
            let mut folders = false;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                folders = !dir.exists();
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            let open = |new: bool| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .create_new(new)
                    .open(path)
            };
            // Which of the two happened, not a look beforehand that a race could belie.
            let (mut file, new) = match open(true) {
                Ok(f) => (f, true),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    (open(false).with_context(what)?, false)
                }
                Err(e) => return Err(e).with_context(what),
            };
            target.written.claim_path(path);
            if !file.metadata().with_context(what)?.is_file() {
                anyhow::bail!("{} is not a regular file", target.label);
            }
            // Released when the file closes.
            let other = format!("another run to finish writing {}", target.label);
            crate::base::interrupt::wait_for(&other, || Ok(super::try_lock(&file).then_some(())))
                .with_context(what)?;
            let before = file.metadata().with_context(what)?.len();
            // A file that does not end its last line would glue ours onto it.
            let mut buf = Vec::with_capacity(bytes.len() + 1);
            if before > 0 && !ends_with_newline(path, before) {
                buf.push(b'\n');
            }
            buf.extend_from_slice(bytes);
            if let Err(e) = file.write_all(&buf).and_then(|()| file.sync_data()) {
                let _ = file.set_len(before);
                return Err(e).with_context(what);
            }
            Ok((new, folders))
        }
    }
}

fn ends_with_newline(path: &std::path::Path, len: u64) -> bool {
    use std::os::unix::fs::FileExt;
    let mut last = [0u8; 1];
    let read = std::fs::File::open(path).and_then(|f| f.read_exact_at(&mut last, len - 1));
    read.is_ok_and(|()| last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_appended_whole_and_a_missing_newline_is_added() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/h.jsonl");
        let target = Target {
            label: "h".into(),
            kind: TargetKind::File(path.clone()),
            written: Default::default(),
        };
        let (file, folders) = append_lines(&target, b"a\n").unwrap();
        assert!(file && folders);
        assert_eq!(append_lines(&target, b"b\nc\n").unwrap(), (false, false));
        std::fs::write(&path, b"a\nhalf").unwrap();
        append_lines(&target, b"d\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\nhalf\nd\n");
    }

    /// A failed append cut the file back to the length noted before it wrote, erasing
    /// lines another run appended meanwhile: the lock makes the other run wait, or this
    /// one wait for it, so what is cut back is this run's only.
    #[test]
    fn an_append_waits_for_another_runs_lock() {
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, b"a\n").unwrap();
        let other = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        // SAFETY: flock on a descriptor this test owns.
        assert_eq!(unsafe { libc::flock(other.as_raw_fd(), libc::LOCK_EX) }, 0);
        let target = Target {
            label: "h".into(),
            kind: TargetKind::File(path.clone()),
            written: Default::default(),
        };
        let ours = std::thread::spawn(move || append_lines(&target, b"ours\n").unwrap());
        std::thread::sleep(std::time::Duration::from_millis(200));
        // The other run appends while it holds the lock, then lets go.
        (&other).write_all(b"other\n").unwrap();
        drop(other);
        ours.join().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\nother\nours\n");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_leaves_the_file_as_it_was() {
        let target = Target {
            label: "/dev/full".into(),
            kind: TargetKind::Direct("/dev/full".into()),
            written: Default::default(),
        };
        assert!(append_lines(&target, b"x\n").is_err());
    }
}
