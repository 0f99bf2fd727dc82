//! sudoku-bench: bulk-solve Sudoku collections in parallel and measure solvers.
//!
//! Data flows one way: [`loader`] streams [`Record`]s, [`run`] solves them on a rayon
//! pool with one [`solver::Solver`] per thread, and [`report`] writes the results through
//! [`output`], the only writer of files. [`cli`] holds the raw flags and [`options`]
//! turns them into checked options; [`app`] runs the commands. `ARCHITECTURE.md` has the
//! module map.
//!
//! ```
//! use sudoku_bench::solver::{Backend, Limits};
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

pub mod app;
pub mod bench;
pub mod board;
pub mod bounds;
pub mod cli;
pub mod cpu;
pub mod format;
pub mod generate;
pub mod interrupt;
pub mod judge;
pub mod loader;
pub mod options;
pub mod output;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod solver;
pub mod subset;
pub mod symmetry;
pub mod tally;

pub use board::Grid;
pub use record::{Expected, ParseError, Puzzle, Record};
