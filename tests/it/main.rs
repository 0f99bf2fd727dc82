//! The integration tests, one binary: each module drives the built `sudoku-bench`
//! (or the library) end to end. One binary links once, where thirteen linked thirteen
//! times.

mod common;

mod architecture;
mod bench;
mod cli;
mod completions;
mod docs;
mod foreign;
mod hostile;
mod hostile_libs;
mod layouts;
mod misreads;
mod pages;
mod properties;
mod realworld;
mod relative;
mod report;
mod robustness;
mod shapes;
mod signals;
mod sizes;
