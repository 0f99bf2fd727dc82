//! A foreign program as a peer that may lie, crash or hang: its own process group, its
//! answers read with a deadline (the calling thread polls its output), large inputs
//! written by a thread of their own (so neither side can deadlock on a full pipe), the
//! tail of its stderr kept for messages, and a kill that takes its whole group.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What came from the program.
pub enum FromChild {
    /// One line, its newline included.
    Line(Vec<u8>),
    /// End of its standard output (it exited or closed it).
    Eof,
}

/// How waiting for an answer ended.
pub enum Wait {
    Got(FromChild),
    TimedOut,
    Cancelled,
}

/// Bytes of stderr kept for messages.
const STDERR_TAIL: usize = 2048;
/// Longest answer line kept; the rest of a longer one is dropped (it will not parse).
const MAX_ANSWER: usize = 64 * 1024;

pub struct Worker {
    child: Child,
    /// Written directly (one short line at a time), or handed to the writer thread.
    stdin: Option<ChildStdin>,
    writer: Option<Sender<Vec<u8>>>,
    stdout: ChildStdout,
    /// Output read but not yet returned as a line.
    pending: Vec<u8>,
    eof: bool,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Worker {
    /// Starts `program` with `args` in a process group of its own, with `env` added.
    pub fn spawn(
        program: &Path,
        args: &[String],
        env: &[(&str, String)],
    ) -> std::io::Result<Worker> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let mut stderr_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        // Drained all the time, so the program never blocks on a full stderr pipe.
        std::thread::Builder::new()
            .name("exec-stderr".into())
            .spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stderr_pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut t = tail
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    t.extend(&buf[..n]);
                    let extra = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..extra);
                }
            })?;
        Ok(Worker {
            child,
            stdin,
            writer: None,
            stdout,
            pending: Vec::new(),
            eof: false,
            stderr,
        })
    }

    /// Writes one short line now (the program reads it, or the next read says it died).
    /// Once a batch went through the writer thread, it owns the pipe: the line goes
    /// there too, in order.
    pub fn send_line(&mut self, bytes: &[u8]) {
        if let Some(tx) = &self.writer {
            let _ = tx.send(bytes.to_vec());
        } else if let Some(stdin) = &mut self.stdin {
            if stdin.write_all(bytes).and_then(|()| stdin.flush()).is_err() {
                self.stdin = None;
            }
        }
    }

    /// Hands bytes to a writer thread: a large input cannot block the caller while the
    /// program waits for its output to be read.
    pub fn send_all(&mut self, bytes: Vec<u8>) {
        if self.writer.is_none() {
            if let Some(mut stdin) = self.stdin.take() {
                let (tx, rx) = mpsc::channel::<Vec<u8>>();
                let spawned = std::thread::Builder::new()
                    .name("exec-writer".into())
                    .spawn(move || {
                        for chunk in rx {
                            if stdin
                                .write_all(&chunk)
                                .and_then(|()| stdin.flush())
                                .is_err()
                            {
                                break;
                            }
                        }
                    });
                if spawned.is_ok() {
                    self.writer = Some(tx);
                }
            }
        }
        if let Some(tx) = &self.writer {
            let _ = tx.send(bytes);
        }
    }

    /// Closes the program's standard input once what was sent is written.
    pub fn close_input(&mut self) {
        self.stdin = None;
        self.writer = None;
    }

    /// The next line of output, waiting until `deadline`; gives up when `cancelled`
    /// says so (checked every 20 ms).
    pub fn wait(&mut self, deadline: Instant, cancelled: impl Fn() -> bool) -> Wait {
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(i + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                return Wait::Got(FromChild::Line(line));
            }
            if self.eof {
                return match self.pending.is_empty() {
                    true => Wait::Got(FromChild::Eof),
                    false => Wait::Got(FromChild::Line(std::mem::take(&mut self.pending))),
                };
            }
            let now = Instant::now();
            if now >= deadline {
                return Wait::TimedOut;
            }
            if cancelled() {
                return Wait::Cancelled;
            }
            let step = (deadline - now).min(Duration::from_millis(20));
            if !readable(&self.stdout, step) {
                continue;
            }
            let mut buf = [0u8; 8192];
            match self.stdout.read(&mut buf) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    if self.pending.len() < MAX_ANSWER {
                        self.pending.extend_from_slice(&buf[..n]);
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => self.eof = true,
            }
        }
    }

    /// Whether the program itself has exited (a child it left may hold its output open).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Its exit status, after a short wait (`None` if it is still running).
    fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if start.elapsed() < Duration::from_millis(500) => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }

    /// After its output ended: why, when it did not exit with success (a crash, a
    /// signal, an exit code); `None` when it exited 0 or still runs.
    pub fn failed_exit(&mut self) -> Option<String> {
        match self.exit_status() {
            Some(s) if !s.success() => Some(self.obituary()),
            _ => None,
        }
    }

    /// Why it stopped answering: its exit status (after a short wait) and the end of
    /// what it wrote on stderr.
    pub fn obituary(&mut self) -> String {
        let status = self.exit_status();
        let how = match status {
            Some(s) => format!("exited ({s})"),
            None => "closed its output".to_string(),
        };
        let tail = self.stderr_tail();
        match tail.is_empty() {
            true => how,
            false => format!("{how}; its stderr ends: {tail}"),
        }
    }

    fn stderr_tail(&self) -> String {
        let bytes: Vec<u8> = self
            .stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .copied()
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = &lines[lines.len().saturating_sub(3)..];
        last.join(" / ").chars().take(300).collect()
    }

    /// Kills its whole process group and reaps it.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        {
            let pid = self.child.id() as libc::pid_t;
            // SAFETY: kill(2) with the negative pid of the group this process created
            // for its child; at worst the group is already gone (ESRCH).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True when `out` has something to read (or hit end of file) within `wait`.
#[cfg(unix)]
fn readable(out: &ChildStdout, wait: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let mut fd = libc::pollfd {
        fd: out.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = wait.as_millis().clamp(1, 1000) as libc::c_int;
    // SAFETY: one valid pollfd that outlives the call; the count matches.
    unsafe { libc::poll(&mut fd, 1, ms) > 0 }
}

#[cfg(not(unix))]
fn readable(_out: &ChildStdout, _wait: Duration) -> bool {
    true
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.close_input();
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line sent after a batch reaches the program: once the writer thread owns the
    /// pipe, `send_line` goes through it (it used to drop the line and time out).
    #[test]
    fn a_line_after_a_batch_reaches_the_program() {
        let mut worker = Worker::spawn(Path::new("cat"), &[], &[]).unwrap();
        let deadline = || Instant::now() + Duration::from_secs(5);
        worker.send_all(b"batch 1\nbatch 2\n".to_vec());
        worker.send_line(b"single\n");
        for want in ["batch 1\n", "batch 2\n", "single\n"] {
            match worker.wait(deadline(), || false) {
                Wait::Got(FromChild::Line(line)) => assert_eq!(line, want.as_bytes()),
                _ => panic!("no line {want:?}"),
            }
        }
    }
}
