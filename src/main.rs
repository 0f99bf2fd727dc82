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
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("Error: {err:#}");
            ExitCode::from(app::Exit::Failure as u8)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = match e.downcast_ref::<csv::Error>().map(csv::Error::kind) {
            Some(csv::ErrorKind::Io(io)) => Some(io.kind()),
            _ => e.downcast_ref::<std::io::Error>().map(std::io::Error::kind),
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}
