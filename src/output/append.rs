//! Appending whole lines (the history): one `write` of all of them to a file opened
//! with `O_APPEND`, so lines from two runs never interleave; on a failure the file is cut
//! back to its old length, so no half line is left.

use std::io::Write;

use anyhow::Context;

use super::{Target, TargetKind};

/// Appends `bytes` (whole lines) to `target`, creating the file and its folder.
pub fn append_lines(target: &Target, bytes: &[u8]) -> anyhow::Result<()> {
    let what = || format!("appending to {}", target.label);
    match &target.kind {
        TargetKind::Stdout => super::print_stdout(bytes).with_context(what),
        TargetKind::Direct(path) => super::open_direct(path, true)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(what),
        TargetKind::File(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .with_context(what)?;
            super::identity::claim_path(path);
            if !file.metadata().with_context(what)?.is_file() {
                anyhow::bail!("{} is not a regular file", target.label);
            }
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
            Ok(())
        }
    }
}

fn ends_with_newline(path: &std::path::Path, len: u64) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut last = [0u8; 1];
    std::fs::File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(len - 1))?;
            f.read_exact(&mut last)
        })
        .is_ok_and(|()| last[0] == b'\n')
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
        };
        append_lines(&target, b"a\n").unwrap();
        append_lines(&target, b"b\nc\n").unwrap();
        std::fs::write(&path, b"a\nhalf").unwrap();
        append_lines(&target, b"d\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\nhalf\nd\n");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_leaves_the_file_as_it_was() {
        let target = Target {
            label: "/dev/full".into(),
            kind: TargetKind::Direct("/dev/full".into()),
        };
        assert!(append_lines(&target, b"x\n").is_err());
    }
}
