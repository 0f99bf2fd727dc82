//! `lib:PATH:SYMBOL`: a solver in a shared library with tdoku's C type
//!
//! ```c
//! size_t fn(const char *input, size_t limit, uint32_t flags, char *solution, size_t *num_guesses);
//! ```
//!
//! It returns the number of solutions up to `limit`, writes the first one and reports its
//! guesses. Pitfalls handled: the input is zero-padded (tdoku reads byte 81 to tell a
//! plain puzzle from pencil marks); a solver that writes a solution only when `limit` is 1
//! gets a second call (counted in [`second_calls`]); a crash cannot be contained in the
//! process, so it ends the run with a message naming the library and the puzzle. The
//! deadline and the cancel flag are checked before each call (a call cannot be stopped),
//! and the deadline again after it: an overrun is reported.

use std::collections::HashMap;
use std::ffi::c_char;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::budget::{Budget, Stop};
use super::{Limits, SolveOutcome, Solver};
use crate::grid::{CELLS, Grid};

/// tdoku's solver type.
pub type SolveFn =
    unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LibSpec {
    /// The whole spec, as every output names the backend.
    pub spec: String,
    pub path: PathBuf,
    pub symbol: String,
}

impl LibSpec {
    /// Parses what follows `lib:`: a file path (never looked up on the library search
    /// path), a `:`, and the symbol (what follows the last `:`).
    pub fn parse(rest: &str) -> Result<LibSpec, String> {
        let Some((path, symbol)) = rest.rsplit_once(':') else {
            return Err(format!("lib:{rest}: give lib:PATH:SYMBOL"));
        };
        if path.is_empty() || symbol.is_empty() {
            return Err(format!("lib:{rest}: give lib:PATH:SYMBOL"));
        }
        if !symbol
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!("lib:{rest}: {symbol:?} is not a C symbol"));
        }
        // A bare name would be searched for on the library path: make it a file path.
        let path = PathBuf::from(path);
        let path = match path.components().count() {
            1 if !path.is_absolute() => PathBuf::from(".").join(path),
            _ => path,
        };
        Ok(LibSpec {
            spec: format!("lib:{rest}"),
            path,
            symbol: symbol.to_string(),
        })
    }

    /// Loads the library (once per process) and finds the symbol.
    pub fn load(&self) -> Result<SolveFn, String> {
        static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<libloading::Library>>>> =
            OnceLock::new();
        let mut loaded = LOADED
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = std::fs::canonicalize(&self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        let lib = match loaded.get(&key) {
            Some(lib) => Arc::clone(lib),
            None => {
                let _ = crash::install();
                crash::about_to_load(&self.spec);
                // SAFETY: loading runs the library's initializers: code the user named on
                // the command line to be run, as an `exec:` program would be.
                let lib = unsafe { libloading::Library::new(&key) };
                crash::returned();
                let lib = lib.map_err(|e| format!("{}: {e}", self.path.display()))?;
                let lib = Arc::new(lib);
                loaded.insert(key, Arc::clone(&lib));
                lib
            }
        };
        // SAFETY: the symbol is trusted to have tdoku's type (the documented contract of
        // `lib:`); the library stays loaded for the life of the process (kept above).
        let func = unsafe { lib.get::<SolveFn>(self.symbol.as_bytes()) }
            .map_err(|e| format!("{}: {}: {e}", self.path.display(), self.symbol))?;
        Ok(*func)
    }
}

/// What fills the guard zone after a solution buffer, and how long that zone is: short,
/// since filling and checking it falls inside the timed call.
const GUARD: u8 = 0xA5;
const GUARD_ZONE: usize = 256;

/// Calls that needed a second call to get the solution, over the whole run.
static SECOND_CALLS: AtomicU64 = AtomicU64::new(0);

/// How many uniqueness checks needed a second call (`limit` 1) to get a solution.
pub fn second_calls() -> u64 {
    SECOND_CALLS.load(Ordering::Relaxed)
}

pub struct LibSolver {
    spec: Arc<LibSpec>,
    func: Result<SolveFn, String>,
    error: Option<String>,
}

impl LibSolver {
    pub fn new(spec: Arc<LibSpec>) -> LibSolver {
        if let Ok(()) = crash::install() {}
        LibSolver {
            func: spec.load(),
            spec,
            error: None,
        }
    }

    /// One call: the solution count and the first solution, when it wrote one; `Err` when
    /// it wrote past the 96 bytes of its solution buffer.
    fn call(
        &self,
        func: SolveFn,
        input: &[u8; 96],
        limit: usize,
    ) -> Result<(usize, Option<Grid>, usize), String> {
        // The buffer the solver owns is 96 bytes; a guard zone after it catches a solver
        // that writes past them (which would otherwise corrupt this thread's stack).
        let mut solution = [GUARD; 96 + GUARD_ZONE];
        solution[..96].fill(0);
        let mut guesses = 0usize;
        crash::about_to_call(&self.spec.spec, &input[..CELLS]);
        // SAFETY: `input` is 81 cells then zeros (tdoku reads byte 81; more is padding),
        // `solution` has room for 81 bytes and a terminator, `guesses` is a valid
        // pointer; the function is trusted to have tdoku's type (the `lib:` contract).
        let count = unsafe {
            func(
                input.as_ptr().cast(),
                limit,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        crash::returned();
        if let Some(past) = solution[96..].iter().rposition(|&b| b != GUARD) {
            return Err(format!(
                "wrote {} bytes past the end of its 96-byte solution buffer",
                past + 1
            ));
        }
        let grid = Grid::from_line(&solution[..CELLS])
            .ok()
            .filter(Grid::is_full);
        Ok((count, grid, guesses))
    }
}

impl Solver for LibSolver {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        let func = match &self.func {
            Ok(f) => *f,
            Err(e) => {
                self.error = Some(e.clone());
                out.failed = true;
                return out;
            }
        };
        // A call cannot be stopped: the flag and the clock are checked before it.
        if limits.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
            out.stopped(Stop::Cancelled);
            return out;
        }
        if let Some(stop) = Budget::new(u64::MAX, limits.deadline, None).charge(1) {
            out.stopped(stop);
            return out;
        }
        let mut input = [0u8; 96];
        input[..CELLS].copy_from_slice(&puzzle.to_line_with(b'.'));
        let limit = limits.max_solutions as usize;
        let called = self
            .call(func, &input, limit)
            .and_then(|(count, solution, guesses)| {
                match solution {
                    // Some solvers write the solution only when asked for one.
                    None if count > 0 && limit > 1 => {
                        SECOND_CALLS.fetch_add(1, Ordering::Relaxed);
                        let again = self.call(func, &input, 1)?;
                        Ok((count, again.1, guesses))
                    }
                    _ => Ok((count, solution, guesses)),
                }
            });
        let (count, solution, guesses) = match called {
            Ok(r) => r,
            Err(e) => {
                self.error = Some(e);
                out.failed = true;
                return out;
            }
        };
        // The call could not be stopped, but a limit it overran still says so (each call
        // has a fresh deadline, so the check before it alone would never fire).
        if let Some(stop) = Budget::new(u64::MAX, limits.deadline, None).charge(1) {
            out.stopped(stop);
        }
        out.solutions = count.min(limit) as u32;
        out.solution = solution.filter(|_| count > 0);
        out.guesses = guesses as u64;
        out
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }
}

/// A crash inside a library ends the process; this says which library and which puzzle
/// first (from a signal handler: only a `write` of a message prepared before the call).
mod crash {
    use std::cell::UnsafeCell;

    const LEN: usize = 512;

    thread_local! {
        /// The message for a crash during the current call, and its length (0: none).
        static NOTE: UnsafeCell<([u8; LEN], usize)> = const { UnsafeCell::new(([0; LEN], 0)) };
    }

    pub fn about_to_call(spec: &str, puzzle: &[u8]) {
        let text = format!(
            "\nsudoku-bench: the {spec} backend crashed on puzzle {}; the rows written before it are kept\n",
            String::from_utf8_lossy(puzzle)
        );
        NOTE.with(|n| {
            // SAFETY: only this thread touches its note, and not re-entrantly: the handler
            // runs on this thread only while the call below is in progress.
            let (buf, len) = unsafe { &mut *n.get() };
            let bytes = &text.as_bytes()[..text.len().min(LEN)];
            buf[..bytes.len()].copy_from_slice(bytes);
            *len = bytes.len();
        });
    }

    pub fn returned() {
        // SAFETY: as in `about_to_call`.
        NOTE.with(|n| unsafe { (*n.get()).1 = 0 });
    }

    #[cfg(unix)]
    extern "C" fn on_crash(sig: libc::c_int) {
        let _ = NOTE.try_with(|n| {
            // SAFETY: reads this thread's note, written before the call that crashed;
            // write(2) is async-signal-safe.
            unsafe {
                let (buf, len) = &*n.get();
                if *len > 0 {
                    libc::write(2, buf.as_ptr().cast(), *len);
                }
            }
        });
        // SAFETY: the handler was installed with SA_RESETHAND: raising again takes the
        // default action (the process ends with the signal, as it would have).
        unsafe {
            libc::raise(sig);
        }
    }

    /// A library that calls `exit()` during a call (or while it is loaded) would end the
    /// run with its own status, 0 included, and the rows not yet written lost: say so
    /// and exit 1 instead. (`_exit()` bypasses this; nothing in-process can catch it.)
    #[cfg(unix)]
    extern "C" fn on_exit() {
        let note = NOTE.try_with(|n| {
            // SAFETY: as in `about_to_call`; exit handlers run on the exiting thread.
            let (buf, len) = unsafe { &*n.get() };
            String::from_utf8_lossy(&buf[..*len]).into_owned()
        });
        if let Some(note) = note.ok().filter(|n| !n.trim().is_empty()) {
            let note = note.trim().replacen("crashed", "called exit()", 1);
            eprintln!("\n{note}; exit status 1 (data was lost)");
            // SAFETY: ends the process at once, as the library asked, with the true status.
            unsafe { libc::_exit(1) };
        }
    }

    /// Prepares the note for a library that exits while it is being loaded.
    pub fn about_to_load(spec: &str) {
        about_to_call(spec, b"(none: while it was loaded)");
    }

    #[cfg(unix)]
    pub fn install() -> Result<(), ()> {
        use std::sync::Once;
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: registers a plain function with no arguments to run at exit().
            unsafe { libc::atexit(on_exit) };
            for sig in [
                libc::SIGSEGV,
                libc::SIGBUS,
                libc::SIGILL,
                libc::SIGFPE,
                libc::SIGABRT,
            ] {
                // SAFETY: a zeroed sigaction with a handler that only writes and re-raises;
                // SA_RESETHAND restores the default action first. The alternate stack
                // Rust sets up for stack overflows stays in use (SA_ONSTACK).
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_crash as extern "C" fn(libc::c_int) as usize;
                    action.sa_flags = libc::SA_RESETHAND | libc::SA_ONSTACK;
                    libc::sigaction(sig, &action, std::ptr::null_mut());
                }
            }
        });
        Ok(())
    }

    #[cfg(not(unix))]
    pub fn install() -> Result<(), ()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_at_the_last_colon_and_never_search_the_library_path() {
        let s = LibSpec::parse("/opt/x:y/libs.so:solve").unwrap();
        assert_eq!(
            (s.path, s.symbol.as_str()),
            (PathBuf::from("/opt/x:y/libs.so"), "solve")
        );
        let bare = LibSpec::parse("libtdoku.so:TdokuSolverDpllTriadSimd").unwrap();
        assert_eq!(bare.path, PathBuf::from("./libtdoku.so"));
        for bad in ["nosymbol", ":f", "a.so:", "a.so:f-g"] {
            assert!(LibSpec::parse(bad).is_err(), "{bad}");
        }
        assert!(LibSpec::parse("./missing.so:f").unwrap().load().is_err());
    }
}
