//! `--show-output`: foreign programs' stderr passed through to ours, line by line.
//!
//! A program's stderr is always drained by a thread of its own (`process`), so the
//! program never waits on it: a full pipe would stop it mid-puzzle, inside the clock.
//! With `--show-output` that thread also hands each line, made safe for a terminal
//! (control characters and bidirectional overrides made U+FFFD, cut at
//! [`MAX_LINE`] bytes), to one printer thread through a queue of [`QUEUE`] lines. It
//! never waits for the printer: a line that finds the queue full is dropped and
//! counted (the count is said, once a second at most), so neither a flood nor a
//! terminal that stalls can block the program or make us hold more than the queue.

use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// Lines waiting for the printer; past this many, lines are dropped.
const QUEUE: usize = 1024;
/// Longest line passed through, in bytes; the rest of it is dropped (`…` says so).
pub(super) const MAX_LINE: usize = 1024;
/// Longest program name a shown line starts with.
const MAX_PREFIX: usize = 40;

// Static: the process has one stderr, so one printer and one count of its lines, which
// `flush` reads as the process exits.
static QUEUED: AtomicU64 = AtomicU64::new(0);
static PRINTED: AtomicU64 = AtomicU64::new(0);
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// Where one program's lines go: the prefix that names it.
pub(super) struct Shown {
    prefix: String,
    line: Vec<u8>,
    cut: bool,
}

impl Shown {
    /// Lines of the program `spec` names.
    pub(super) fn new(spec: &str) -> Shown {
        let name: String = crate::base::bounds::shown(spec, &[])
            .chars()
            .take(MAX_PREFIX)
            .collect();
        Shown {
            prefix: format!("[{name}] "),
            line: Vec::new(),
            cut: false,
        }
    }

    /// Bytes as read from the pipe: each whole line goes to the printer.
    pub(super) fn take(&mut self, bytes: &[u8]) {
        self.split(bytes, send);
    }

    /// The program's stderr ended: a last line without its newline goes too.
    pub(super) fn finish(&mut self) {
        if !self.line.is_empty() {
            send(self.end_line());
        }
    }

    /// Each line `bytes` ends, shown, to `emit`; the start of the next is kept.
    fn split(&mut self, bytes: &[u8], mut emit: impl FnMut(String)) {
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            let (text, ends) = match piece.strip_suffix(b"\n") {
                Some(text) => (text, true),
                None => (piece, false),
            };
            let room = MAX_LINE - self.line.len();
            self.cut |= text.len() > room;
            self.line.extend_from_slice(&text[..text.len().min(room)]);
            if ends {
                emit(self.end_line());
            }
        }
    }

    /// The line so far as shown, and a fresh one begun.
    fn end_line(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        let more = if self.cut { "…" } else { "" };
        let shown = format!(
            "{}{}{more}\n",
            self.prefix,
            crate::base::bounds::shown(text, &['\t'])
        );
        self.line.clear();
        self.cut = false;
        shown
    }
}

/// Queues a line for the printer, or drops it if the queue is full: never waits.
fn send(line: String) {
    // Static: the one printer of the process's one stderr (see QUEUED).
    static PRINTER: OnceLock<Option<SyncSender<String>>> = OnceLock::new();
    let printer = PRINTER.get_or_init(|| {
        let (tx, rx) = sync_channel::<String>(QUEUE);
        let started = std::thread::Builder::new()
            .name("exec-show".into())
            .spawn(move || {
                let mut noted = Instant::now();
                for line in rx {
                    let mut err = std::io::stderr().lock();
                    let _ = err.write_all(line.as_bytes());
                    drop(err);
                    PRINTED.fetch_add(1, Ordering::Release);
                    // A flood drops lines all along: said once a second, not per line.
                    if noted.elapsed() >= Duration::from_secs(1) {
                        say_dropped();
                        noted = Instant::now();
                    }
                }
            });
        started.ok().map(|_| tx)
    });
    QUEUED.fetch_add(1, Ordering::AcqRel);
    let sent = printer.as_ref().is_some_and(|tx| tx.try_send(line).is_ok());
    if !sent {
        QUEUED.fetch_sub(1, Ordering::AcqRel);
        DROPPED.fetch_add(1, Ordering::Relaxed);
    }
}

/// Says how many lines were dropped since it last said, if any were.
fn say_dropped() {
    let dropped = DROPPED.swap(0, Ordering::Relaxed);
    if dropped > 0 {
        say!(
            "note: {dropped} lines of a program's stderr not shown: written faster than they could be shown"
        );
    }
}

/// Waits, at most `limit`, for the lines queued so far to be printed, then says what was
/// dropped: called once a command is done, before the process exits.
pub fn flush(limit: Duration) {
    let start = Instant::now();
    while PRINTED.load(Ordering::Acquire) < QUEUED.load(Ordering::Acquire)
        && start.elapsed() < limit
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    say_dropped();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines are whole however the reads cut them; long ones are cut; control
    /// characters never pass.
    #[test]
    fn lines_are_whole_cut_and_safe() {
        let mut s = Shown::new("exec:./x\u{1b}[2J");
        let mut out = Vec::new();
        s.split(b"par", |l| out.push(l));
        assert!(out.is_empty());
        s.split(b"tial\r\nnext\x1b]0;title\x07\t.\n", |l| out.push(l));
        s.split(&vec![b'x'; 3 * MAX_LINE], |l| out.push(l));
        s.split(b"\nend", |l| out.push(l));
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], "[exec:./x\u{fffd}[2J] partial\n");
        assert_eq!(
            out[1],
            "[exec:./x\u{fffd}[2J] next\u{fffd}]0;title\u{fffd}\t.\n"
        );
        let long = format!("[exec:./x\u{fffd}[2J] {}…\n", "x".repeat(MAX_LINE));
        assert_eq!(out[2], long);
        assert_eq!(s.end_line(), "[exec:./x\u{fffd}[2J] end\n");
    }
}
