//! Solver backends behind one trait, chosen through the [`Backend`] enum.
//!
//! A solver does no I/O and no timing: it counts solutions up to a limit and reports
//! machine-independent work counters. The runner times it and the reporter writes.

mod bitboard;
mod budget;
mod dfs;
mod dlx_arena;
mod dlx_static;
pub mod exact_cover;
pub mod exec;
mod fastest;
#[cfg(test)]
pub(crate) mod mock;
mod null;
#[cfg(feature = "reference")]
mod reference;
pub mod shared_lib;

pub use bitboard::{Bitboard, Path as BitboardPath};
pub use dfs::Dfs;
pub use dlx_arena::DlxArena;
pub use dlx_static::DlxStatic;
pub use null::Null;
#[cfg(feature = "reference")]
pub use reference::Reference;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Square;
use crate::board::nine::Grid;
use budget::Stop;

/// Default node budget: about a second of `dfs` (110 million nodes a second on the
/// development VM); the DLX backends need at most tens of thousands on any 9x9 puzzle.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// How far a search may go (the deadline and the cancel flag are checked at the root and
/// then every 1,024 nodes). Build it with `..Limits::default()`.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after this many solutions (1: find one; 2: check uniqueness).
    pub max_solutions: u32,
    /// Stop after visiting this many search-tree nodes.
    pub max_nodes: u64,
    /// Stop once this instant has passed (`SolveOutcome::timed_out`).
    pub deadline: Option<Instant>,
    /// The per-puzzle time limit the runner turns into `deadline` as each solve starts;
    /// solvers read only `deadline`.
    pub timeout: Option<Duration>,
    /// Stop once this flag is set, e.g. from a Ctrl-C handler (`SolveOutcome::cancelled`).
    /// `&'static` keeps `Limits` `Copy`: use a `static` or a leaked `Box`.
    pub cancel: Option<&'static AtomicBool>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_solutions: 2,
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
            timeout: None,
            cancel: None,
        }
    }
}

impl Limits {
    pub(crate) fn budget(&self) -> budget::Budget {
        budget::Budget::new(self.max_nodes, self.deadline, self.cancel)
    }

    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// For a call that cannot be stopped once it runs: what stops it before it starts
    /// (the flag read directly, since a budget reads it only after 1,024 nodes; the clock
    /// as node 1 of a budget without a node limit).
    pub(crate) fn stop_now(&self) -> Option<Stop> {
        let cancelled = self.cancelled().then_some(Stop::Cancelled);
        cancelled.or_else(|| budget::Budget::new(u64::MAX, self.deadline, None).charge(1))
    }
}

/// What one search found and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Solutions found, at most `Limits::max_solutions`.
    pub solutions: u32,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// Search-tree nodes visited (the root counts as one).
    pub nodes: u64,
    /// Branch points that had more than one choice.
    pub guesses: u64,
    /// The search stopped early: the node budget, or the two flags below.
    pub budget_exceeded: bool,
    /// The deadline passed first (`budget_exceeded` is set too).
    pub timed_out: bool,
    /// The cancel flag was set first (`budget_exceeded` is set too).
    pub cancelled: bool,
    /// The solver failed on this puzzle (a foreign program died or answered nonsense);
    /// [`Solver::take_error`] says why.
    pub failed: bool,
    /// A foreign solver gave a solution without saying whether there are more.
    pub count_is_lower_bound: bool,
    /// The time of the work alone, when the solver measured it itself: the call's time
    /// then, in place of the harness's clock around the whole call.
    pub time_ns: Option<u64>,
    /// Where the call's time comes from.
    pub clock: Clock,
    /// Which of `nodes` and `guesses` the solver counted.
    pub counted: Counters,
    /// The solution is still to be fetched, untimed, by [`Solver::complete`] (a library
    /// that writes one only when asked for one).
    pub solution_pending: bool,
    /// Time the harness saw the solver spend on the puzzle beyond `time_ns`: a program's
    /// round trip less its own time and the transport, a library's untimed second call.
    pub unseen_ns: u64,
}

named! {
    /// Where a call's time comes from: the harness's clock around the call, or a clock of
    /// the solver's own (said in every output, since they do not measure the same thing).
    #[derive(
        Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
    )]
    #[serde(rename_all = "kebab-case")]
    pub enum Clock {
        /// The built-in backends.
        #[default]
        Harness => "harness",
        /// `lib:`.
        Call => "call",
        /// `exec:`, `ns=`.
        Program => "program",
        /// `exec:` without `ns=`.
        RoundTrip => "round-trip",
        /// `exec:` streams and judge submissions that report no time of their own.
        Batch => "batch",
    }
}

impl Clock {
    /// What the clock measures, for a person (what each variant's time is).
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Harness => "the harness's clock around each call, in this process",
            Clock::Call => {
                "around the library function alone (input, guard zone, crash note and any second call for the solution are outside it)"
            }
            Clock::Program => {
                "the program's own report of each puzzle's time (ns=), checked to be within its round trip and otherwise not verifiable"
            }
            Clock::RoundTrip => "each pipe round trip less the transport",
            Clock::Batch => "each batch's time divided by its puzzles",
        }
    }
}

impl SolveOutcome {
    pub(crate) fn stopped(&mut self, stop: Stop) {
        self.budget_exceeded = true;
        self.timed_out = stop == Stop::Deadline;
        self.cancelled = stop == Stop::Cancelled;
    }
}

/// A Sudoku solver. Each thread owns one; state is reused from puzzle to puzzle.
pub trait Solver: Send {
    /// Counts the solutions of `puzzle` up to `limits.max_solutions`; conflicting givens
    /// have none (the C library relies on it), never a panic.
    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome;

    /// Counts the solutions of a board that is not 9x9 (4x4, 16x16, 25x25), the
    /// first solution beside the outcome (whose `solution` stays `None`). `None`:
    /// this backend does not solve boards of this size.
    fn solve_square(
        &mut self,
        _puzzle: &Square,
        _limits: &Limits,
    ) -> Option<(SolveOutcome, Option<Square>)> {
        None
    }

    /// Solves several 9x9 puzzles at once, for solvers that work in batches (a judge
    /// submission, puzzles streamed to a foreign program); `None` means one at a time.
    /// Each outcome comes with why its puzzle failed or stopped, where the solver knows
    /// (`None`: [`Solver::take_error`] says why for all of them). `limits.timeout` is a
    /// per-puzzle limit; the solver applies it as it can (and `timing_notes` says how).
    fn solve_boards(
        &mut self,
        _puzzles: &[&Grid],
        _limits: &Limits,
    ) -> Option<Vec<(SolveOutcome, Option<String>)>> {
        None
    }

    /// How many puzzles a call of [`Solver::solve_boards`] takes at best (1: not batched).
    fn batch_size(&self) -> usize {
        1
    }

    /// Why the last call failed, when an outcome has `failed` set.
    fn take_error(&mut self) -> Option<String> {
        None
    }

    /// Called before each timed call: a solver restarts what it needs here (a foreign
    /// process that died), so that starting is never timed.
    fn prepare(&mut self) {}

    /// Fetches what a call left pending (`SolveOutcome::solution_pending`), outside the
    /// clock (`bench` after a stretch of timed calls: between two, it slowed them by 3%).
    /// `Err`: the fetch failed, and the call with it.
    fn complete(&mut self, _puzzle: &Grid, _outcome: &mut SolveOutcome) -> Result<(), String> {
        Ok(())
    }
}

/// The available backends: which solver to build, parsed from its name (each said in
/// a few words by [`Backend::description`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    DlxStatic,
    DlxArena,
    Bitboard,
    Dfs,
    #[cfg(feature = "reference")]
    Reference,
    Null,
    Fastest,
    Exec(Arc<exec::ExecSpec>),
    Lib(Arc<shared_lib::LibSpec>),
    /// Test-only solvers that panic, crawl or hang on purpose.
    #[cfg(test)]
    Mock(mock::Mock),
}

/// The work counters a backend reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Counters {
    pub nodes: bool,
    pub guesses: bool,
}

impl Counters {
    /// Neither counter (a foreign program that reports none).
    pub const NONE: Counters = Counters {
        nodes: false,
        guesses: false,
    };
}

impl Default for Counters {
    /// The built-in backends count both (and runs saved before this field existed came
    /// from them).
    fn default() -> Self {
        Counters {
            nodes: true,
            guesses: true,
        }
    }
}

impl Backend {
    /// Whether the backend takes boards of `side` x `side`: every one 9x9, those that
    /// implement [`Solver::solve_square`] every size.
    pub fn solves_side(&self, side: usize) -> bool {
        let any = matches!(
            self,
            Backend::DlxArena | Backend::Dfs | Backend::Null | Backend::Fastest
        );
        side == 9 || any
    }

    /// The real solvers (not `Null`), in report order.
    pub const ALL: [Backend; 4 + cfg!(feature = "reference") as usize] = [
        Backend::DlxStatic,
        Backend::DlxArena,
        Backend::Bitboard,
        Backend::Dfs,
        #[cfg(feature = "reference")]
        Backend::Reference,
    ];

    /// `bench`'s backends when `--backends` is not given: the real solvers that are
    /// `benched_by_default`, in report order.
    pub fn bench_default() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().filter(Backend::benched_by_default)
    }

    /// Whether `bench` runs it without being named: the solvers fast enough for a run
    /// "after each change". `dfs` is not (on the shipped dataset it took 94% of a 49 s
    /// run); it runs when named.
    pub fn benched_by_default(&self) -> bool {
        Backend::ALL.contains(self) && *self != Backend::Dfs
    }

    /// Every backend built in, `Null` and `Fastest` included.
    pub fn built_in() -> impl Iterator<Item = Backend> {
        Backend::ALL
            .into_iter()
            .chain([Backend::Null, Backend::Fastest])
    }

    /// The backend that solves boards of `side` x `side`: itself, but for `Fastest`.
    pub fn for_side(&self, side: usize) -> Backend {
        match self {
            Backend::Fastest => Backend::fastest_for(side),
            other => other.clone(),
        }
    }

    /// The fastest built-in backend for boards of `side` x `side`: what `judge` and `gen`
    /// use unless told.
    pub fn fastest_for(side: usize) -> Backend {
        match side {
            9 => Backend::Bitboard,
            _ => Backend::DlxArena,
        }
    }

    /// Whether `name` is a built-in backend's, in this build or in one with the
    /// `reference` feature (a label may be neither).
    pub fn is_built_in_name(name: &str) -> bool {
        name == "reference" || Backend::built_in().any(|b| b.name() == name)
    }

    /// The name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::DlxStatic => "dlx-static",
            Backend::DlxArena => "dlx-arena",
            Backend::Bitboard => "bitboard",
            Backend::Dfs => "dfs",
            #[cfg(feature = "reference")]
            Backend::Reference => "reference",
            Backend::Null => "null",
            Backend::Fastest => "fastest",
            Backend::Exec(spec) => spec.spec,
            Backend::Lib(spec) => spec.spec,
            #[cfg(test)]
            Backend::Mock(m) => m.name(),
        }
    }

    /// What a built-in backend is, in a few words (`sudoku-bench backends`).
    pub fn description(&self) -> &'static str {
        match self {
            Backend::DlxStatic => {
                "Dancing Links on fixed arrays sized for 9x9 (no heap per puzzle)"
            }
            Backend::DlxArena => "Dancing Links on a reusable arena: a general exact-cover solver",
            Backend::Bitboard => {
                "band bitboards: singles, locked candidates, then guesses (the fastest here)"
            }
            Backend::Dfs => "naive cell-by-cell backtracking, digits 1..9 (the baseline)",
            #[cfg(feature = "reference")]
            Backend::Reference => "the AGPL `sudoku` crate (built with --features reference)",
            Backend::Null => "solves nothing: measures the harness's own cost",
            Backend::Fastest => {
                "each record to the fastest here for its size: bitboard for 9x9, dlx-arena for others (solve's default)"
            }
            Backend::Exec(_) => "a foreign program",
            Backend::Lib(_) => "a function in a shared library",
            #[cfg(test)]
            Backend::Mock(_) => "a test-only solver",
        }
    }

    /// The spec forms of foreign solvers, with what they are.
    pub const FOREIGN_FORMS: [(&'static str, &'static str); 2] = [
        (
            "exec:CMD",
            "a program: one puzzle a line on stdin, `count:solution` a line on stdout (exec:hdu1426:CMD, exec:poj3074:CMD: a judge submission)",
        ),
        (
            "lib:PATH:SYMBOL",
            "a function with tdoku's C type in a shared library",
        ),
    ];

    /// True for the backends that run code from outside this program.
    pub fn is_foreign(&self) -> bool {
        matches!(self, Backend::Exec(_) | Backend::Lib(_))
    }

    /// False only for `Null`, which returns zero solutions for every puzzle: its results
    /// are no answers and must not be checked or compared.
    pub fn is_solver(&self) -> bool {
        *self != Backend::Null
    }

    pub fn new_solver(&self) -> Box<dyn Solver> {
        self.new_solver_with(&Limits::default())
    }

    /// A fresh solver for searches under `limits` (a foreign program is told the
    /// solution-count limit when it starts).
    pub fn new_solver_with(&self, limits: &Limits) -> Box<dyn Solver> {
        match self {
            Backend::DlxStatic => Box::new(DlxStatic::default()),
            Backend::DlxArena => Box::new(DlxArena::default()),
            Backend::Bitboard => Box::new(Bitboard::new()),
            Backend::Dfs => Box::new(Dfs::default()),
            #[cfg(feature = "reference")]
            Backend::Reference => Box::new(Reference),
            Backend::Null => Box::new(Null),
            Backend::Fastest => Box::new(fastest::Fastest::default()),
            Backend::Exec(spec) => Box::new(exec::ExecSolver::new(Arc::clone(spec), limits)),
            Backend::Lib(spec) => Box::new(shared_lib::LibSolver::new(Arc::clone(spec))),
            #[cfg(test)]
            Backend::Mock(m) => m.new_solver(),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    /// A backend name this build does not know, or a foreign spec that does not parse.
    type Err = String;

    fn from_str(s: &str) -> Result<Backend, String> {
        if let Some(rest) = s.strip_prefix("exec:") {
            return exec::ExecSpec::parse(rest).map(|e| Backend::Exec(Arc::new(e)));
        }
        if let Some(rest) = s.strip_prefix("lib:") {
            return shared_lib::LibSpec::parse(rest).map(|l| Backend::Lib(Arc::new(l)));
        }
        Backend::built_in().find(|b| b.name() == s).ok_or_else(|| {
            let known: Vec<String> = Backend::built_in().map(|b| b.name().to_string()).collect();
            format!(
                "unknown backend {s:?}; this build has {}, and exec:CMD and lib:PATH:SYMBOL",
                known.join(", ")
            )
        })
    }
}

/// A foreign backend's name, kept for the process's life: made once per spec a command
/// line names (a handful), so that each result carries the name as a pointer.
pub fn leaked(name: String) -> &'static str {
    Box::leak(name.into_boxed_str())
}

/// Makes `T` (a solver, or what holds one) behind a spacer of 64 bytes to 8 KiB that
/// `random` chooses: where its tables land moves its speed for its life (up to 8%
/// between two dlx-static instances), so solvers made anew land elsewhere each time.
pub fn placed_anew<T>(random: u64, make: impl FnOnce() -> T) -> T {
    let spacer = vec![1u8; 64 * (1 + (random % 128) as usize)];
    let made = make();
    drop(std::hint::black_box(spacer));
    made
}

/// How the calls of `backend` were timed, for a person: a line per clock other than
/// the harness's own, saying what it leaves out and how sure it is; `second_calls` is
/// how many uniqueness checks of a `lib:` solver needed a second call for the solution.
pub fn timing_notes(
    backend: &Backend,
    clocks: &[(Clock, u64)],
    limits: &Limits,
    second_calls: u64,
) -> Vec<String> {
    let limit = exec::per_puzzle_timeout(limits).as_secs_f64();
    let mut notes = Vec::new();
    for &(clock, calls) in clocks {
        let detail = match clock {
            Clock::Harness => continue,
            Clock::Call | Clock::Program => String::new(),
            Clock::RoundTrip => match backend {
                Backend::Exec(spec) => spec.shared.spread_note(),
                _ => None,
            }
            .unwrap_or_else(|| " (the transport could not be calibrated: taken as 0)".into()),
            Clock::Batch => match backend {
                Backend::Exec(spec) if spec.protocol == exec::Protocol::Lines => format!(
                    " (up to {} in flight); the time limit holds per puzzle: each answer within {limit} s of the one before",
                    exec::STREAM_BATCH
                ),
                _ => format!(
                    "; the time limit applies to each batch as a whole: up to {} cases a process, {limit} s a case",
                    exec::JUDGE_BATCH
                ),
            },
        };
        notes.push(format!(
            "timing ({}, {calls} calls): {}{detail}",
            clock.name(),
            clock.describe()
        ));
    }
    if second_calls > 0 {
        notes.push(format!(
            "{second_calls} uniqueness checks needed a second call (limit 1) for the solution, outside the clock"
        ));
    }
    notes
}

#[cfg(test)]
mod tests;
