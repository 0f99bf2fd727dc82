use std::process::ExitCode;

use clap::Parser;

use sudoku_bench::app;
use sudoku_bench::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match app::run(cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            // A closed pipe (`| head`) is a normal way to stop reading: exit quietly.
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("Error: {err:#}");
            ExitCode::from(app::Exit::Failure as u8)
        }
    }
}
