use std::process::ExitCode;

use clap::Parser;

use sudoku_bench::app::{self, Exit};
use sudoku_bench::bounds::shown;
use sudoku_bench::cli::Cli;
use sudoku_bench::options::{self, UsageError};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match options::from_cli(cli).and_then(app::run) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) if err.is::<UsageError>() => {
            let err = err.to_string();
            let err = shown(&err, &['\n']);
            eprintln!("error: {err}\n\nFor more information, try '--help'.");
            ExitCode::from(Exit::Usage as u8)
        }
        Err(err) if sudoku_bench::interrupt::is_interrupt(&err) => {
            eprintln!("Error: {}", shown(&format!("{err:#}"), &['\n']));
            ExitCode::from(sudoku_bench::interrupt::EXIT_CODE as u8)
        }
        Err(err) => {
            // Paths and messages from files and foreign programs: nothing that drives
            // the terminal.
            eprintln!("Error: {}", shown(&format!("{err:#}"), &['\n']));
            ExitCode::from(Exit::Failure as u8)
        }
    }
}
