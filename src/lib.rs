//! sudoku-bench: bulk-solve Sudoku collections in parallel and measure solvers.
//!
//! Data flows one way: `loader` streams [`Record`]s, `run` solves them on a rayon pool
//! with one [`Solver`] per thread, and `report` writes the results through `output`,
//! the only writer of files. `cli` holds the raw flags and `options` turns them into
//! checked options; `app` runs the commands; `bench` is the benchmark product.
//! `ARCHITECTURE.md` has the module map.
//!
//! ```
//! use sudoku_bench::{Backend, Limits};
//! use sudoku_bench::Grid;
//!
//! let puzzle: Grid = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
//!     .parse()
//!     .unwrap();
//! let mut solver = Backend::DlxStatic.new_solver();
//! let outcome = solver.solve(&puzzle, &Limits::default());
//! assert_eq!(outcome.solutions, 1);
//! assert!(outcome.solution.unwrap().check_solution_of(&puzzle).is_ok());
//! ```

#![warn(clippy::undocumented_unsafe_blocks)]
// Standard error through `say!` only: `eprintln!` panics when stderr is closed.
#![warn(clippy::print_stderr)]
// The docs are for the developers of this crate (`cargo doc --document-private-items`):
// its modules are private, and public items link to them freely.
#![allow(rustdoc::private_intra_doc_links)]

// Process groups, signals, `flock`, `poll`, guard pages and folders opened relative to
// each other: the tool is built for Unix (Linux, macOS) only.
#[cfg(not(unix))]
compile_error!("sudoku-bench runs on Unix (Linux, macOS) only");

/// A line to standard error that never panics: with stderr closed (`2>&1 | head`) or
/// full, a finished run must not end in a panic and exit 101, as `eprintln!` would.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// An enum whose variants each have a name (a CSV column's value, a flag's): `ALL`,
/// the variants in order, and `name()`.
macro_rules! named {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident => $text:literal,)* }) => {
        $(#[$m])*
        $vis enum $name { $($(#[$vm])* $v,)* }

        impl $name {
            #[allow(dead_code)]
            pub const ALL: [$name; [$($text),*].len()] = [$($name::$v),*];

            pub fn name(self) -> &'static str {
                match self { $($name::$v => $text,)* }
            }
        }
    };
}

/// `+=` for a struct of counts, field by field.
macro_rules! add_assign {
    ($name:ty: $($field:ident),*) => {
        impl std::ops::AddAssign for $name {
            fn add_assign(&mut self, o: $name) {
                $(self.$field += o.$field;)*
            }
        }
    };
}

// Every module is the crate's own, so the compiler reports what nothing uses; the
// public interface is the list of re-exports below.
mod app;
mod base;
mod bench;
mod board;
mod cli;
mod format;
mod generate;
mod judge;
mod loader;
mod options;
mod output;
mod record;
mod report;
mod run;
mod solver;

// The public interface, all of it: for the C library (ffi/), the benchmarks, the fuzz
// targets and the integration tests.
pub use base::rng::SplitMix64;
pub use board::{Board, Grid, Shape};
pub use format::{Body, Format, detect};
pub use generate::generate;
pub use loader::{Input, Loader, decompress};
pub use record::{Expected, ParseError, Puzzle, Record};
pub use run::GuardedSolver;
pub use solver::{Backend, Limits, Solver, placed_anew};

/// The `sudoku-bench` command: parses the command line, runs the command, and turns
/// its outcome into the exit status (usage errors 2, interrupts 130, failures 1).
pub fn main() -> std::process::ExitCode {
    use app::Exit;
    use base::bounds::shown;
    use clap::Parser;
    use std::process::ExitCode;

    // A file size limit (`ulimit -f`) then fails the write (EFBIG) instead of killing
    // the run mid-row: the rows written stay whole and the message says so. Programs
    // the tool starts get the default back.
    // SAFETY: sets a signal's disposition to "ignore", before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // `--version` names the build exactly: its revision and the executable's hash.
    if let Some("-V" | "--version") = std::env::args().nth(1).as_deref() {
        println!(
            "sudoku-bench {}",
            bench::machine::Build::current().describe()
        );
        return ExitCode::SUCCESS;
    }
    let cli = cli::Cli::parse();
    base::interrupt::running();
    let outcome = options::from_cli(cli).and_then(app::run);
    // Whatever follows is the tool's own exit, not a library's.
    base::interrupt::ending();
    match outcome {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) if err.is::<options::UsageError>() => {
            let err = err.to_string();
            let err = shown(&err, &['\n']);
            say!("error: {err}\n\nFor more information, try '--help'.");
            ExitCode::from(Exit::Usage as u8)
        }
        Err(err) => {
            // Paths and messages from files and foreign programs: nothing that drives
            // the terminal.
            say!("Error: {}", shown(&format!("{err:#}"), &['\n']));
            match base::interrupt::is_interrupt(&err) {
                true => ExitCode::from(base::interrupt::EXIT_CODE as u8),
                false => ExitCode::from(Exit::Failure as u8),
            }
        }
    }
}
