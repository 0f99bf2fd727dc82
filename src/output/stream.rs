//! Streaming outputs: whole rows only, even on a full disk or a second Ctrl-C.

use std::fs::File;
use std::io::{self, Write};

use anyhow::Context;

use super::identity::{Kind, Stream, resolve_stream};
use super::{Target, TargetKind};
use crate::base::interrupt::gate;

/// Writes to a pipe of up to this many bytes are atomic (POSIX `PIPE_BUF`): the process
/// can end before or after one, never inside it.
const PIPE_BUF: usize = libc::PIPE_BUF;

/// Writes text to standard output (a summary, a table) under the same rules as rows.
pub fn print_stdout(bytes: &[u8]) -> io::Result<()> {
    let pipe = resolve_stream(Stream::Stdout).is_some_and(|r| r.kind == Kind::Fifo);
    let _gate = (!pipe || bytes.len() > PIPE_BUF).then(gate);
    write_sink(&mut Sink::Stdout, bytes)
}

/// A write error on a streaming output, saying what the output holds now.
#[derive(Debug, thiserror::Error)]
#[error("writing {label}: {source}; {state}")]
pub struct StreamError {
    pub label: String,
    #[source]
    pub source: io::Error,
    pub state: String,
}

enum Sink {
    Stdout,
    File(File),
}

/// Whole rows formatted away from the stream (on a worker thread), each ended by
/// [`Rows::end_row`], for [`RowStream::commit_rows`].
#[derive(Debug, Default)]
pub struct Rows {
    buf: Vec<u8>,
    /// End of each row in `buf`.
    ends: Vec<usize>,
}

impl Rows {
    pub fn with_capacity(rows: usize, bytes: usize) -> Rows {
        Rows {
            buf: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(rows),
        }
    }

    /// Where the next row's bytes go.
    #[inline]
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Ends the row written into the buffer since the last call.
    #[inline]
    pub fn end_row(&mut self) {
        self.ends.push(self.buf.len());
    }
}

/// Rows go into [`RowStream::row_buffer`], each ended by [`RowStream::end_row`], and reach
/// the output at [`RowStream::commit`], whole; or they come formatted elsewhere, as
/// [`Rows`], to [`RowStream::commit_rows`]. On a write error a regular file is cut back
/// to its last whole row, and the error names the output and says it is partial.
pub struct RowStream {
    label: String,
    sink: Sink,
    /// A regular file is cut back on error; a pipe is written in atomic pieces of whole
    /// rows.
    kind: Kind,
    pending: Rows,
    rows: u64,
    bytes: u64,
    failed: bool,
}

impl RowStream {
    /// Opens (creates or truncates) the output. Its parent folders are created.
    pub fn open(target: &Target) -> anyhow::Result<RowStream> {
        let (sink, kind) = match &target.kind {
            TargetKind::Stdout => {
                let kind = resolve_stream(Stream::Stdout).map_or(Kind::Other, |r| r.kind);
                (Sink::Stdout, kind)
            }
            TargetKind::File(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating the folder {}", dir.display()))?;
                }
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)
                    .with_context(|| format!("creating {}", target.label))?;
                // Two runs given one file tore its rows and lost a quarter of them, both
                // exiting 0: the second is refused, the file left to the first. The
                // lock goes with the file when it closes.
                if !super::try_lock(&file) {
                    anyhow::bail!(
                        "another run is writing {} now; give this one another file, or wait",
                        target.label
                    );
                }
                file.set_len(0)
                    .with_context(|| format!("creating {}", target.label))?;
                target.written.claim_path(path);
                (Sink::File(file), Kind::File)
            }
            TargetKind::Direct(path) => {
                let file = super::open_direct(path, false)
                    .with_context(|| format!("opening {}", target.label))?;
                let kind = super::resolve(path).map_or(Kind::Other, |r| r.kind);
                (Sink::File(file), kind)
            }
        };
        Ok(RowStream {
            label: target.label.clone(),
            sink,
            kind,
            pending: Rows::with_capacity(1 << 8, 1 << 16),
            rows: 0,
            bytes: 0,
            failed: false,
        })
    }

    /// Where the next row's bytes go.
    #[inline]
    pub fn row_buffer(&mut self) -> &mut Vec<u8> {
        self.pending.buffer()
    }

    /// Ends the row written into the buffer since the last call.
    #[inline]
    pub fn end_row(&mut self) {
        self.pending.end_row();
    }

    /// Writes the pending rows.
    pub fn commit(&mut self) -> Result<(), StreamError> {
        let mut pending = std::mem::take(&mut self.pending);
        let result = self.commit_rows(&pending);
        pending.buf.clear();
        pending.ends.clear();
        self.pending = pending;
        result
    }

    /// Writes rows formatted elsewhere, whole, after those already written.
    pub fn commit_rows(&mut self, rows: &Rows) -> Result<(), StreamError> {
        if self.failed {
            return Err(self.error(io::Error::other("an earlier write failed")));
        }
        if rows.ends.is_empty() {
            return Ok(());
        }
        let result = if self.kind == Kind::Fifo {
            self.write_pipe_pieces(rows)
        } else {
            let _gate = gate();
            write_sink(&mut self.sink, &rows.buf).map(|()| {
                self.rows += rows.ends.len() as u64;
                self.bytes += rows.buf.len() as u64;
            })
        };
        result.map_err(|e| {
            self.failed = true;
            if let (true, Sink::File(file)) = (self.kind == Kind::File, &self.sink) {
                // Best effort: the error below is reported either way.
                let _ = file.set_len(self.bytes);
            }
            self.error(e)
        })
    }

    /// Pieces of whole rows of at most `PIPE_BUF` bytes (a longer row alone, under the
    /// gate). Counts the rows of each piece written, so an error knows what got through.
    fn write_pipe_pieces(&mut self, rows: &Rows) -> io::Result<()> {
        let (mut start, mut ends) = (0, &rows.ends[..]);
        while !ends.is_empty() {
            // The first row, and those after it that fit in the piece.
            let n = 1 + ends[1..]
                .iter()
                .take_while(|&&e| e - start <= PIPE_BUF)
                .count();
            let stop = ends[n - 1];
            let piece = &rows.buf[start..stop];
            let _gate = (piece.len() > PIPE_BUF).then(gate);
            write_sink(&mut self.sink, piece)?;
            self.rows += n as u64;
            self.bytes += piece.len() as u64;
            start = stop;
            ends = &ends[n..];
        }
        Ok(())
    }

    fn error(&self, source: io::Error) -> StreamError {
        let rows = self.rows;
        let state = if source.kind() == io::ErrorKind::BrokenPipe {
            format!("its reader closed it after {rows} rows; the rest was not written")
        } else if self.kind == Kind::File {
            format!("the file is partial: it ends after {rows} whole rows")
        } else {
            format!("the output is partial: {rows} whole rows were written")
        };
        StreamError {
            label: self.label.clone(),
            source,
            state,
        }
    }
}

fn write_sink(sink: &mut Sink, bytes: &[u8]) -> io::Result<()> {
    match sink {
        Sink::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
        Sink::File(file) => file.write_all(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Place, plan};

    impl RowStream {
        fn rows(&self) -> u64 {
            self.rows
        }
    }

    #[test]
    fn rows_reach_the_file_whole_at_each_commit() {
        let dir = tempfile::tempdir().unwrap();
        let place = Place::Path(dir.path().join("a/b.csv"));
        let target = plan(&[], &[("--csv", &place)], false).unwrap().remove(0);
        let mut s = RowStream::open(&target).unwrap();
        for i in 0..3 {
            s.row_buffer()
                .extend_from_slice(format!("row {i}\n").as_bytes());
            s.end_row();
        }
        assert_eq!(std::fs::read(dir.path().join("a/b.csv")).unwrap(), b"");
        s.commit().unwrap();
        assert_eq!(s.rows(), 3);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b.csv")).unwrap(),
            "row 0\nrow 1\nrow 2\n"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_is_an_error_that_says_what_was_written() {
        let place = Place::Path("/dev/full".into());
        let Ok(mut targets) = plan(&[], &[("--csv", &place)], false) else {
            return;
        };
        let Ok(mut s) = RowStream::open(&targets.remove(0)) else {
            return; // no /dev/full here
        };
        s.row_buffer().extend_from_slice(b"x\n");
        s.end_row();
        let e = s.commit().unwrap_err();
        assert!(e.to_string().contains("partial: 0 whole rows"), "{e}");
        assert!(s.commit().is_err());
    }
}
