//! `lib:PATH:SYMBOL`: a solver in a shared library with tdoku's C type
//!
//! ```c
//! size_t fn(const char *input, size_t limit, uint32_t flags, char *solution, size_t *num_guesses);
//! ```
//!
//! The clock runs around the call alone (`Clock::Call`). The input is zero-padded (tdoku
//! reads byte 81 to tell a puzzle from pencil marks); a solver that writes a solution only
//! when `limit` is 1 gets a second, untimed call for the check; one that never writes
//! `num_guesses` counts no guesses (`n/a`); a write past the solution buffer is caught
//! ([`guard`]); a crash ends the run naming the library and the puzzle ([`crash`]). A call
//! cannot be stopped: the limits are checked before it, and the deadline after it.

use crate::base::lock;
use std::collections::HashMap;
use std::ffi::c_char;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use std::time::Instant;

use super::budget::Budget;
use super::{Clock, Counters, Limits, SolveOutcome, Solver};
use crate::board::nine::{CELLS, Grid};

/// tdoku's solver type.
pub type SolveFn =
    unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibSpec {
    /// The whole spec, as every output names the backend (see [`super::leaked`]).
    pub spec: &'static str,
    pub path: PathBuf,
    pub symbol: String,
}

impl LibSpec {
    /// Parses what follows `lib:`: a file path (never looked up on the library search
    /// path), a `:`, and the symbol (what follows the last `:`).
    pub fn parse(rest: &str) -> Result<LibSpec, String> {
        let Some((path, symbol)) = rest
            .rsplit_once(':')
            .filter(|(p, s)| !p.is_empty() && !s.is_empty())
        else {
            return Err(format!("lib:{rest}: give lib:PATH:SYMBOL"));
        };
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
            spec: super::leaked(format!("lib:{rest}")),
            path,
            symbol: symbol.to_string(),
        })
    }

    /// Loads the library (once per process) and finds the symbol.
    pub fn load(&self) -> Result<SolveFn, String> {
        // Static for the C ABI: a library is process-wide once loaded (its atexit
        // handlers and threads stay), so it is loaded once and never unloaded.
        static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<libloading::Library>>>> =
            OnceLock::new();
        let mut loaded = lock(LOADED.get_or_init(Default::default));
        let key = std::fs::canonicalize(&self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        let lib = match loaded.get(&key) {
            Some(lib) => Arc::clone(lib),
            None => {
                crash::install();
                crash::about_to_call(self.spec, b"(none: while it was loaded)");
                // SAFETY: loading runs the library's initializers: code the user named on
                // the command line to be run, as an `exec:` program would be.
                let lib = unsafe { libloading::Library::new(&key) };
                crash::returned();
                let lib = Arc::new(lib.map_err(|e| format!("{}: {e}", self.path.display()))?);
                crash::loaded(self.spec);
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

/// What `num_guesses` holds before a call: a library that leaves it so counts none.
const UNSET: usize = usize::MAX;
/// The solution buffer the function is given.
const SOLUTION: usize = 96;

pub struct LibSolver {
    spec: Arc<LibSpec>,
    func: Result<SolveFn, String>,
    error: Option<String>,
    /// The solution buffer, guarded (see [`guard::Guarded`]).
    solution: guard::Guarded,
}

/// What one call returned.
struct Called {
    count: usize,
    solution: Option<Grid>,
    /// `None`: the function left `num_guesses` as it was.
    guesses: Option<usize>,
    time_ns: u64,
}

impl LibSolver {
    pub fn new(spec: Arc<LibSpec>) -> LibSolver {
        LibSolver {
            func: spec.load(),
            spec,
            error: None,
            solution: guard::Guarded::new(),
        }
    }

    /// One call, timed alone: everything the harness does for it (the buffers, the
    /// crash note, the guard check, reading the solution) is before or after the clock.
    /// `counted`: the call whose time is the puzzle's (`--instructions` counts it alone);
    /// not the second call for a solution.
    /// `Err` when it wrote past the 96 bytes of its solution buffer.
    fn call(
        &mut self,
        func: SolveFn,
        puzzle: &Grid,
        limit: usize,
        counted: bool,
    ) -> Result<Called, String> {
        // The input as the function reads it: 81 cells, then zeros (tdoku reads byte 81).
        let mut cells = [0u8; 96];
        cells[..CELLS].copy_from_slice(&puzzle.to_line_with(b'.'));
        self.solution.buffer().fill(0);
        let mut guesses = UNSET;
        let input = cells.as_ptr().cast::<c_char>();
        let solution = self.solution.buffer().as_mut_ptr().cast::<c_char>();
        crash::about_to_call(self.spec.spec, &cells[..CELLS]);
        let start = Instant::now();
        // SAFETY: `input` is 81 cells then zeros (tdoku reads byte 81; more is padding),
        // `solution` has room for 81 bytes and a terminator (and guard bytes, then pages
        // that fault, past them), `guesses` is a valid pointer; the function is trusted
        // to have tdoku's type (the `lib:` contract). The buffers outlive the call.
        let count = unsafe {
            match counted {
                true => sudoku_bench_counted_call(func, input, limit, solution, &mut guesses),
                false => func(input, limit, 0, solution, &mut guesses),
            }
        };
        let time_ns = start.elapsed().as_nanos() as u64;
        crash::returned();
        if let Some(past) = self.solution.overrun() {
            return Err(format!(
                "wrote {past} byte{} past the end of its {SOLUTION}-byte solution buffer",
                if past == 1 { "" } else { "s" },
            ));
        }
        Ok(Called {
            count,
            solution: Grid::from_line(&self.solution.buffer()[..CELLS])
                .ok()
                .filter(Grid::is_full),
            guesses: (guesses != UNSET).then_some(guesses),
            time_ns,
        })
    }
}

/// The library call a puzzle's time is, and all `bench --instructions` counts of a
/// `lib:` backend (callgrind collects inside this function only). Never inlined, so that
/// it exists to be found.
///
/// # Safety
/// As for `func` itself: tdoku's type, and pointers valid for it.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn sudoku_bench_counted_call(
    func: SolveFn,
    input: *const c_char,
    limit: usize,
    solution: *mut c_char,
    guesses: *mut usize,
) -> usize {
    // SAFETY: the caller's promises.
    unsafe { func(input, limit, 0, solution, guesses) }
}

impl Solver for LibSolver {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {
        let mut out = SolveOutcome {
            clock: Clock::Call,
            counted: Counters::NONE,
            ..SolveOutcome::default()
        };
        // A call cannot be stopped: the limits are checked before it.
        if let Some(stop) = limits.stop_now().filter(|_| self.func.is_ok()) {
            out.stopped(stop);
            return out;
        }
        let limit = limits.max_solutions as usize;
        let called = match self
            .func
            .clone()
            .and_then(|f| self.call(f, puzzle, limit, true))
        {
            Ok(c) => c,
            Err(e) => {
                self.error = Some(e);
                out.failed = true;
                return out;
            }
        };
        out.time_ns = Some(called.time_ns);
        // The call could not be stopped, but a limit it overran still says so (each call
        // has a fresh deadline, so the check before it alone would never fire).
        if let Some(stop) = Budget::new(u64::MAX, limits.deadline, None).charge(1) {
            out.stopped(stop);
        }
        // Some solvers (tdoku) write the solution only when asked for one: a second
        // call gets it, outside the clock (`complete`); it only serves the check.
        out.solution_pending = called.solution.is_none() && called.count > 0 && limit > 1;
        out.solutions = called.count.min(limit) as u32;
        out.solution = called.solution.filter(|_| called.count > 0);
        if let Some(g) = called.guesses {
            out.guesses = g as u64;
            out.counted.guesses = true;
        }
        out
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    fn complete(&mut self, puzzle: &Grid, out: &mut SolveOutcome) -> Result<(), String> {
        if std::mem::take(&mut out.solution_pending)
            && let Ok(func) = self.func
        {
            let again = self.call(func, puzzle, 1, false)?;
            out.solution = again.solution.filter(|_| again.count > 0);
        }
        Ok(())
    }
}

/// The solution buffer a library writes into, at the start of a page of its own whose
/// rest holds guard bytes, between pages that fault on any access. An overrun within the
/// page is found by the check after the call (the puzzle is an error, the run goes on);
/// one past it faults in the call, which the crash note names, instead of corrupting
/// memory that crashes the run later, or never.
mod guard {
    use super::SOLUTION;

    const BYTE: u8 = 0xA5;
    /// Pages that fault before the buffer's; all pages (16 fault after it).
    const BEFORE: usize = 1;
    const PAGES: usize = BEFORE + 1 + 16;

    pub struct Guarded {
        /// The buffer's page, `size` bytes, the buffer its first `SOLUTION`.
        page: *mut u8,
        size: usize,
    }

    // SAFETY: the mapping is this value's alone (never shared, unmapped on drop); the
    // raw pointer is what keeps it from being `Send` by itself.
    unsafe impl Send for Guarded {}

    impl Guarded {
        /// Pages of `size` bytes, none accessible but the buffer's.
        pub fn new() -> Guarded {
            // SAFETY: sysconf only reads a constant of the system.
            let size = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize).max(4096);
            // SAFETY: a fresh anonymous mapping with no access, this value's alone, then
            // the buffer's page made readable and writable; both checked.
            let page = unsafe {
                let map = libc::mmap(
                    std::ptr::null_mut(),
                    size * PAGES,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                );
                assert!(map != libc::MAP_FAILED, "no memory for a solution buffer");
                let page = map.cast::<u8>().add(size * BEFORE);
                let rw = libc::PROT_READ | libc::PROT_WRITE;
                assert_eq!(libc::mprotect(page.cast(), size, rw), 0);
                page
            };
            let mut guarded = Guarded { page, size };
            guarded.page()[SOLUTION..].fill(BYTE);
            guarded
        }

        fn page(&mut self) -> &mut [u8] {
            // SAFETY: `page` is `size` readable and writable bytes this value owns.
            unsafe { std::slice::from_raw_parts_mut(self.page, self.size) }
        }

        pub fn buffer(&mut self) -> &mut [u8] {
            &mut self.page()[..SOLUTION]
        }

        /// How many bytes past the buffer a call wrote (to the last one it changed), the
        /// guard bytes then made whole again. Unchanged (the usual case): one pass that
        /// the compiler vectorizes.
        pub fn overrun(&mut self) -> Option<usize> {
            let zone = &mut self.page()[SOLUTION..];
            if zone.iter().fold(0, |any, &b| any | (b ^ BYTE)) == 0 {
                return None;
            }
            let past = zone.iter().rposition(|&b| b != BYTE)? + 1;
            zone.fill(BYTE);
            Some(past)
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            let map = self.page.wrapping_sub(self.size * BEFORE);
            // SAFETY: the mapping made in `new`, unmapped once.
            unsafe { libc::munmap(map.cast(), self.size * PAGES) };
        }
    }
}

/// A crash inside a library ends the process; this says which library and which puzzle
/// first (from a signal handler: only a `write` of a message prepared before the call).
mod crash {
    use crate::base::lock;
    use std::cell::Cell;
    use std::sync::Mutex;

    /// The backend and the puzzle of the call in progress on this thread: pointers to
    /// memory that outlives the call, set just before it and cleared after it, so that
    /// the note costs two stores, not a message formatted for every call.
    type Note = Option<(*const str, *const [u8])>;

    thread_local! {
        // Static: the signal and exit handlers read it, and they take no arguments.
        static NOTE: Cell<Note> = const { Cell::new(None) };
    }

    pub fn about_to_call(spec: &str, puzzle: &[u8]) {
        NOTE.with(|n| n.set(Some((spec, puzzle))));
    }

    pub fn returned() {
        NOTE.with(|n| n.set(None));
    }

    /// The spec and the puzzle of the call in progress, if one is.
    fn current() -> Option<(&'static [u8], &'static [u8])> {
        let (spec, puzzle) = NOTE.try_with(Cell::get).ok()??;
        // SAFETY: set by `about_to_call` from a `&str` and a slice that the caller keeps
        // alive until `returned` clears the note; read only on this thread while the
        // call is in progress (a signal or exit handler runs on the thread that called).
        unsafe { Some(((*spec).as_bytes(), &*puzzle)) }
    }

    const BEFORE: &[u8] = b"\nsudoku-bench: the ";
    const CRASHED: &[u8] = b" backend crashed on puzzle ";
    const AFTER: &[u8] = b"; the rows written before it are kept\n";

    extern "C" fn on_crash(sig: libc::c_int) {
        if let Some((spec, puzzle)) = current() {
            for part in [BEFORE, spec, CRASHED, puzzle, AFTER] {
                // SAFETY: write(2) is async-signal-safe; the bytes are valid (above).
                unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
            }
        }
        // SAFETY: the handler was installed with SA_RESETHAND: raising again takes the
        // default action (the process ends with the signal, as it would have).
        unsafe { libc::raise(sig) };
    }

    /// The libraries loaded, for an `exit()` from a thread of their own. Static: the
    /// atexit handler (C ABI, no arguments) reads it.
    static LOADED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    pub fn loaded(spec: &str) {
        lock(&LOADED).push(spec.to_string());
    }

    /// A library that calls `exit()` during a call, while it is loaded, or from a thread
    /// of its own (a watchdog) would end the run with its own status, 0 included, and
    /// the rows not yet written lost: say so and exit 1 instead, between rows.
    /// (`_exit()` bypasses this; nothing in-process can catch it.)
    extern "C" fn on_exit() {
        if current().is_none() && crate::base::interrupt::exit_is_foreign() {
            let specs = lock(&LOADED).join(", ");
            if !specs.is_empty() {
                // No row is cut: a write in progress on another thread ends first.
                let _gate = crate::base::interrupt::gate();
                say!(
                    "\nsudoku-bench: exit() was called from a thread the tool did not start, with the {specs} backend loaded; the rows written before it are kept; exit status 1 (data was lost)"
                );
                // SAFETY: ends the process at once with the true status.
                unsafe { libc::_exit(1) };
            }
        }
        if let Some((spec, puzzle)) = current() {
            say!(
                "\nsudoku-bench: the {} backend called exit() on puzzle {}; the rows written before it are kept; exit status 1 (data was lost)",
                String::from_utf8_lossy(spec),
                String::from_utf8_lossy(puzzle)
            );
            // SAFETY: ends the process at once, as the library asked, with the true status.
            unsafe { libc::_exit(1) };
        }
    }

    pub fn install() {
        use std::sync::Once;
        // Static: signal handlers are per process, installed once.
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
