//! Ctrl-C (SIGINT) and SIGTERM, the same way in every command.
//!
//! The first one sets [`INTERRUPTED`]: reads stop (even a read blocked on a FIFO or a
//! slow pipe, see `loader`), searches in flight stop within about 1,024 nodes (the flag
//! is every search's cancel flag), and each command writes what it has and exits 130.
//! A second one exits at once, but only between two rows of output
//! ([`exit_between_rows`]): every write that could be cut holds [`gate`].

use crate::base::lock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

/// Set by the first interrupt. Static: the signal handler sets it.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit status of an interrupted run.
pub const EXIT_CODE: i32 = 130;

/// True once an interrupt came.
#[inline]
pub fn requested() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Installs the handler; later calls do nothing.
pub fn install() {
    // Static: a signal handler is one per process.
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only when another handler is set (an embedding program's): keep it.
        let _ = ctrlc::set_handler(on_signal);
    });
}

fn on_signal() {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // The foreign programs' process groups first: they would outlive the run.
        for &pid in lock(&GROUPS).iter() {
            // SAFETY: kill(2) on a process group this process created (the handler runs
            // on the ctrlc crate's thread, not in a signal context); at worst it is gone.
            unsafe {
                libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
            }
        }
        exit_between_rows(EXIT_CODE);
    }
    say!("\ninterrupted: finishing what is in flight and writing it (Ctrl-C again to quit now)");
}

/// Held while bytes that could be cut are being written; a second Ctrl-C takes it
/// before exiting, so the process never ends in the middle of such a write. Static:
/// the signal handler takes it.
static GATE: Mutex<()> = Mutex::new(());

/// Taken around a write that must not be cut (a row, a summary).
pub fn gate() -> MutexGuard<'static, ()> {
    lock(&GATE)
}

/// Set while the command runs (from `main`, not in a program that uses the library),
/// and once it ends on its own: an `exit()` in between is a foreign library's (which
/// the `lib:` backend's exit handler reports). Static: that atexit handler (C ABI)
/// reads them.
static RUNNING: AtomicBool = AtomicBool::new(false);
static ENDING: AtomicBool = AtomicBool::new(false);

pub fn running() {
    RUNNING.store(true, Ordering::SeqCst);
}

/// The tool is ending on its own: its exit status stands.
pub fn ending() {
    ENDING.store(true, Ordering::SeqCst);
}

/// Whether an `exit()` now is one the tool did not start.
pub fn exit_is_foreign() -> bool {
    RUNNING.load(Ordering::SeqCst) && !ENDING.load(Ordering::SeqCst)
}

/// Exits with `code` once no write that could be cut is in progress.
pub fn exit_between_rows(code: i32) -> ! {
    let _gate = gate();
    ending();
    std::process::exit(code)
}

/// Process groups of the foreign programs running now: a second interrupt exits at once,
/// and they would outlive the run, so it kills them first. Static: the signal handler
/// reads it.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Notes a foreign program's process group (its leader's pid).
pub fn track_group(pid: u32) {
    lock(&GROUPS).push(pid);
}

/// Forgets a process group, once it was killed and reaped.
pub fn untrack_group(pid: u32) {
    lock(&GROUPS).retain(|&p| p != pid);
}

/// What an interrupt stopped: a read (the source ends there, and the records read
/// before it are kept), or a wait for a lock another run holds or a FIFO's other end
/// (the run ends, exit 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted while {0}")]
pub struct Stopped(pub String);

/// The I/O error for a read cut short by an interrupt.
pub fn stopped_reading() -> std::io::Error {
    std::io::Error::other(Stopped("reading".into()))
}

/// The one way the tool waits on something outside it (a lock another run holds, a
/// FIFO's reader): `ready` polled until it gives a value; after a second the wait is
/// said (`waiting for {what}`), and the first interrupt ends it with
/// [`Stopped`] (exit 130), before anything is written.
pub fn wait_for<T>(
    what: &str,
    mut ready: impl FnMut() -> std::io::Result<Option<T>>,
) -> std::io::Result<T> {
    let start = std::time::Instant::now();
    let mut said = false;
    loop {
        if let Some(value) = ready()? {
            return Ok(value);
        }
        if requested() {
            return Err(std::io::Error::other(Stopped(format!(
                "waiting for {what}"
            ))));
        }
        if !said && start.elapsed() >= std::time::Duration::from_secs(1) {
            say!("waiting for {what} (Ctrl-C stops waiting)");
            said = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Opens a FIFO (`open` waits for its other end) on a helper thread, waited for as
/// [`wait_for`] waits, so an interrupt abandons it.
pub fn open_waiting(
    what: &str,
    open: impl FnOnce() -> std::io::Result<std::fs::File> + Send + 'static,
) -> std::io::Result<std::fs::File> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("open".into())
        .spawn(move || {
            let _ = tx.send(open());
        })?;
    wait_for(what, || match rx.try_recv() {
        Ok(opened) => opened.map(Some),
        Err(std::sync::mpsc::TryRecvError::Empty) => Ok(None),
        Err(std::sync::mpsc::TryRecvError::Disconnected) => {
            Err(std::io::Error::other("the open thread failed"))
        }
    })
}

/// True when `err` ends a run because of an interrupt (exit status 130, not 1).
pub fn is_interrupt(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.is::<Stopped>() || e.downcast_ref::<std::io::Error>().is_some_and(is_stopped))
}

/// True for an I/O error an interrupt made.
pub fn is_stopped(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Stopped>())
}
