//! A foreign program as a peer that may lie, crash or hang: its own process group, its
//! answers read with a deadline, its input written without blocking while waiting (no
//! deadlock on a full pipe), the tail of its stderr kept, a kill that takes its group.

use crate::base::lock;
use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

/// Starts `cmd` from a thread that lives as long as the process (a parent-death signal
/// fires when the thread that forked the child ends, and worker threads come and go
/// with their pools).
fn spawn(cmd: Command) -> std::io::Result<Child> {
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    // Static: the parent-death signal binds a child to the thread that forked it.
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Request>();
        let started = std::thread::Builder::new()
            .name("exec-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            });
        if let Err(e) = started {
            say!(
                "warning: no thread to start programs from ({e}); starting them from worker threads"
            );
        }
        Mutex::new(tx)
    });
    let (reply, answer) = mpsc::channel();
    let sent = lock(spawner).send((cmd, reply));
    match sent {
        Ok(()) => answer.recv().unwrap_or_else(|_| {
            Err(std::io::Error::other(
                "the thread that starts programs ended",
            ))
        }),
        // No spawner thread: start it here.
        Err(mpsc::SendError((mut cmd, _))) => cmd.spawn(),
    }
}

/// What came from the program.
pub enum FromChild {
    /// One line, its newline included.
    Line(Vec<u8>),
    /// [`MAX_ANSWER`] bytes or more without a newline (the start of a line no answer is).
    TooLong(Vec<u8>),
    /// End of its output: it closed it, or it exited and what it left in the pipe was
    /// read (a child it left behind may hold the pipe open for ever).
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
/// Longest answer line: past it, what was read comes back as [`FromChild::TooLong`].
pub const MAX_ANSWER: usize = 64 * 1024;
/// How long the pipe is still read once the program exited, when a child it left keeps
/// writing into it.
const EXIT_GRACE: Duration = Duration::from_millis(100);
/// How often the program is checked for having exited while it keeps the pipe busy.
const EXIT_CHECK: Duration = Duration::from_millis(20);

pub struct Worker {
    child: Child,
    /// Non-blocking: written from `wait`, as the pipe has room.
    stdin: Option<ChildStdin>,
    /// Bytes not yet written.
    unsent: Vec<u8>,
    /// Bytes given to `send`, and of those, bytes the pipe took (for reading only): an
    /// answer that comes before its puzzle was written was not an answer to it.
    pub queued: u64,
    pub written: u64,
    /// Lines returned by `wait` (for reading only).
    pub answers: u64,
    /// Close the input once everything is written.
    close_when_sent: bool,
    stdout: ChildStdout,
    /// Output read but not yet returned as a line.
    pending: Vec<u8>,
    eof: bool,
    /// When the program was seen to have exited.
    exited_at: Option<Instant>,
    last_check: Instant,
    /// The end of its stderr, shared with the thread that reads it until end of file
    /// (its reference dropped then).
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Worker {
    /// Starts `program` with `args` in a process group of its own, with `env` added.
    pub fn spawn(
        program: &Path,
        args: &[impl AsRef<std::ffi::OsStr>],
        env: &[(&str, String)],
    ) -> std::io::Result<Worker> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .envs(env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id();
            // SAFETY: prctl, getppid and _exit are async-signal-safe; nothing else runs
            // in the child before exec.
            unsafe {
                cmd.pre_exec(move || {
                    // Killed with the tool, even by SIGKILL: the signal fires when the
                    // thread that forked ends, and `spawn` forks on one that lives as
                    // long as the process.
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    if libc::getppid() as u32 != parent {
                        // The tool ended before the signal was set.
                        libc::_exit(1);
                    }
                    // The tool ignores SIGXFSZ for itself; the program gets the default.
                    libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
                    Ok(())
                });
            }
        }
        let mut child = spawn(cmd)?;
        crate::base::interrupt::track_group(child.id());
        let stdin = child.stdin.take().expect("piped");
        // Writes to the program's input return at once when its pipe is full.
        let flags = rustix::fs::fcntl_getfl(&stdin)?;
        rustix::fs::fcntl_setfl(&stdin, flags | rustix::fs::OFlags::NONBLOCK)?;
        let stdout = child.stdout.take().expect("piped");
        let mut stderr_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        // Drained all the time, so the program never blocks on a full stderr pipe.
        std::thread::Builder::new()
            .name("exec-stderr".into())
            .spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = stderr_pipe.read(&mut buf) {
                    let mut t = lock(&tail);
                    t.extend(&buf[..n]);
                    let extra = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..extra);
                }
            })?;
        Ok(Worker {
            child,
            stdin: Some(stdin),
            unsent: Vec::new(),
            queued: 0,
            written: 0,
            answers: 0,
            close_when_sent: false,
            stdout,
            pending: Vec::new(),
            eof: false,
            exited_at: None,
            last_check: Instant::now(),
            stderr,
        })
    }

    /// Queues `bytes` for the program and writes what its input pipe takes now; the rest
    /// is written by `wait`, never blocking.
    pub fn send(&mut self, bytes: &[u8]) {
        self.unsent.extend_from_slice(bytes);
        self.queued += bytes.len() as u64;
        self.write_some();
    }

    /// Closes the program's standard input once what was sent is written.
    pub fn close_input(&mut self) {
        self.close_when_sent = true;
        self.write_some();
    }

    /// Writes what the pipe takes without blocking.
    fn write_some(&mut self) {
        while !self.unsent.is_empty() {
            let Some(stdin) = &mut self.stdin else { return };
            match stdin.write(&self.unsent) {
                Ok(0) => self.stdin = None,
                Ok(n) => {
                    self.unsent.drain(..n);
                    self.written += n as u64;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                // It closed its input (or died): the rest is never read.
                Err(_) => self.stdin = None,
            }
        }
        if self.close_when_sent {
            self.stdin = None;
        }
    }

    /// The next line of output, waiting until `deadline` (writing its input meanwhile) or
    /// `cancelled` (checked every 20 ms). Once the program itself exited, what it left in
    /// the pipe is read and its output ends, even if a child it left holds the pipe open.
    pub fn wait(&mut self, deadline: Instant, cancelled: impl Fn() -> bool) -> Wait {
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(i + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                self.answers += 1;
                return Wait::Got(FromChild::Line(line));
            }
            if self.pending.len() >= MAX_ANSWER {
                return Wait::Got(FromChild::TooLong(std::mem::take(&mut self.pending)));
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
            self.write_some();
            if let Some(at) = self.exited_at {
                // Everything the program wrote is in the pipe already: read what is
                // there now, for a short grace at most.
                if now - at > EXIT_GRACE || !self.poll(Duration::ZERO) {
                    self.eof = true;
                    continue;
                }
            } else {
                let step = (deadline - now).min(Duration::from_millis(20));
                let readable = self.poll(step);
                if !readable || self.last_check.elapsed() >= EXIT_CHECK {
                    self.last_check = Instant::now();
                    if self.exited() {
                        self.exited_at = Some(self.last_check);
                    }
                }
                if !readable {
                    continue;
                }
            }
            let mut buf = [0u8; 8192];
            match self.stdout.read(&mut buf) {
                Ok(0) => self.eof = true,
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => self.eof = true,
            }
        }
    }

    /// Waits up to `wait` for output to read or room in the input pipe (when something
    /// is left to write): whether there is output.
    fn poll(&self, wait: Duration) -> bool {
        use std::os::fd::AsRawFd;
        let input = match (&self.stdin, !self.unsent.is_empty()) {
            (Some(stdin), true) => stdin.as_raw_fd(),
            _ => -1, // ignored by poll(2)
        };
        let mut fds = [
            libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: input,
                events: libc::POLLOUT,
                revents: 0,
            },
        ];
        let ms = wait.as_millis().min(1000) as libc::c_int;
        // SAFETY: two valid pollfds that outlive the call; the count matches.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        ready > 0 && fds[0].revents != 0
    }

    /// Whether the program itself has exited (a child it left may hold its output open).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Its exit status, after a short wait (`None` if it is still running).
    fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        briefly(|| !matches!(self.child.try_wait(), Ok(None)));
        self.child.try_wait().ok().flatten()
    }

    /// After its output ended: why, when it did not exit with success (a crash, a
    /// signal, an exit code); `None` when it exited 0 or still runs.
    pub fn failed_exit(&mut self) -> Option<String> {
        match self.exit_status() {
            Some(s) if !s.success() => Some(self.obituary()),
            _ => None,
        }
    }

    /// Whether it exited with success (after a short wait).
    pub fn exited_cleanly(&mut self) -> bool {
        self.exit_status().is_some_and(|s| s.success())
    }

    /// Why it stopped answering: its exit status and the end of its stderr (its group
    /// killed first, so that a child holding stderr cannot keep the last of it back).
    pub fn obituary(&mut self) -> String {
        let status = self.exit_status();
        self.kill();
        briefly(|| Arc::strong_count(&self.stderr) == 1);
        let how = status.map_or("closed its output".into(), |s| format!("exited ({s})"));
        let bytes: Vec<u8> = lock(&self.stderr).iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = &lines[lines.len().saturating_sub(3)..];
        // Shown on a terminal: no escape sequence, carriage return or bell of the
        // program's may clear or rewrite it.
        let tail: String = crate::base::bounds::shown(&last.join(" / "), &[])
            .chars()
            .take(300)
            .collect();
        match tail.is_empty() {
            true => how,
            false => format!("{how}; its stderr ends: {tail}"),
        }
    }

    /// Kills its whole process group and reaps it.
    pub fn kill(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with the negative pid of the group this process created for
        // its child; at worst the group is already gone (ESRCH).
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        let _ = self.child.kill();
        let _ = self.child.wait();
        crate::base::interrupt::untrack_group(self.child.id());
    }
}

/// Waits until `done` (asked every 5 ms), for half a second at most.
fn briefly(mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() && start.elapsed() < Duration::from_millis(500) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch larger than the pipe and lines after it reach the program in order, the
    /// writing done while waiting.
    #[test]
    fn a_large_batch_then_a_line_reach_the_program() {
        let mut worker = Worker::spawn(Path::new("cat"), &[""; 0], &[]).unwrap();
        let deadline = || Instant::now() + Duration::from_secs(5);
        let batch: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        worker.send(&batch);
        worker.send(b"single\n");
        for i in 0..20_000 {
            match worker.wait(deadline(), || false) {
                Wait::Got(FromChild::Line(line)) => assert_eq!(line, format!("{i}\n").as_bytes()),
                _ => panic!("no line {i}"),
            }
        }
        match worker.wait(deadline(), || false) {
            Wait::Got(FromChild::Line(line)) => assert_eq!(line, b"single\n"),
            _ => panic!("no last line"),
        }
        assert_eq!(worker.written, worker.queued);
    }

    /// A program that never reads cannot hold the caller past its deadline.
    #[test]
    fn a_program_that_never_reads_times_out() {
        let mut worker = Worker::spawn(Path::new("sleep"), &["30"], &[]).unwrap();
        worker.send(&vec![b'.'; 1 << 20]);
        let start = Instant::now();
        let got = worker.wait(start + Duration::from_millis(300), || false);
        assert!(matches!(got, Wait::TimedOut));
        assert!(worker.written < worker.queued);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
