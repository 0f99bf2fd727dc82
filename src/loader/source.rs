//! The bytes of one source, read so that an interrupt ends them even while a read is
//! blocked (a FIFO, a slow pipe, a terminal) or endless (`/dev/zero`).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::base::cpu::IoTime;
use crate::base::{fnv1a, interrupt};

/// A file or standard input. Each read first checks for an interrupt (then fails with
/// [`interrupt::stopped_reading`]); a source that can block (anything but a regular
/// file) is polled in short waits, so an interrupt ends a read that would wait forever.
pub struct RawSource {
    file: File,
    blocks: bool,
    /// Where each read's CPU time is counted ([`crate::base::cpu::timed_io`]).
    pub(super) timed: Option<IoTime>,
    /// Where the bytes read are counted, and hashed (FNV-1a 64) when asked.
    pub(super) bytes: Arc<AtomicU64>,
    pub(super) hash: Option<Arc<AtomicU64>>,
}

impl RawSource {
    /// Opens a file. Opening a FIFO waits for its writer, so that wait happens on a
    /// helper thread that an interrupt abandons.
    pub fn open(path: &Path, written: &crate::output::Written) -> io::Result<RawSource> {
        if path.is_file() {
            let file = File::open(path)?;
            // Reached through a link or a folder (a direct path is refused up front).
            if written.has(&file.metadata()?) {
                return Err(io::Error::other(
                    "it is an output of this run (reached through a link); not read",
                ));
            }
            return Ok(RawSource::file(file));
        }
        let owned = path.to_path_buf();
        let what = format!("a writer of the FIFO {}", path.display());
        interrupt::open_waiting(&what, move || File::open(owned)).map(RawSource::file)
    }

    fn file(file: File) -> RawSource {
        let blocks = !file.metadata().is_ok_and(|m| m.is_file());
        RawSource {
            file,
            blocks,
            timed: None,
            bytes: Arc::default(),
            hash: None,
        }
    }

    /// Standard input, read directly (not through std's own buffer).
    pub fn stdin() -> io::Result<RawSource> {
        use std::os::fd::AsFd;
        // A duplicate of descriptor 0: closing it leaves standard input open.
        let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
        Ok(RawSource::file(file))
    }
}

impl Read for RawSource {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            if interrupt::requested() {
                return Err(interrupt::stopped_reading());
            }
            // SAFETY: `fd` is one valid pollfd that outlives the call; count 1 matches.
            match self.blocks.then(|| unsafe { libc::poll(&mut fd, 1, 100) }) {
                Some(0) => {}
                Some(..0) => {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
                _ => break,
            }
        }
        let n = crate::base::cpu::timed_io(self.timed.as_ref(), || self.file.read(buf))?;
        self.bytes.fetch_add(n as u64, Relaxed);
        if let Some(h) = &self.hash {
            // One reader at a time: a load and a store, no contention.
            h.store(fnv1a(h.load(Relaxed), &buf[..n]), Relaxed);
        }
        Ok(n)
    }
}
