//! The commands: each takes its checked options, wires loader -> runner -> reporter, and
//! decides the exit status.

mod bench;
mod compare;
mod docs;
mod generate;
mod history;
mod judge;
mod solve;
mod worker;

use crate::base::interrupt;
use crate::options::Command;
use crate::solver::{Backend, Bitboard};

/// Exit statuses (documented in the README).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Every record was read, and every answer checked out.
    Success = 0,
    /// A fatal error (an output that cannot be written, ...).
    Failure = 1,
    /// A bad command line.
    Usage = 2,
    /// Some input could not be read, or some records could not be parsed.
    InputProblems = 3,
    /// Some answer was wrong: an invalid solution, a disagreement with the expected one,
    /// or a backend that failed.
    WrongAnswers = 4,
    /// `compare` (or `bench --baseline`) found a regression.
    Regressed = 5,
    /// Stopped by Ctrl-C (SIGINT) or SIGTERM; what was done is written.
    Interrupted = 130,
}

impl Exit {
    /// The worst of what happened: an interrupt, then wrong answers, then input
    /// problems.
    pub fn worst(interrupted: bool, wrong: bool, input_problems: bool) -> Exit {
        match (interrupted, wrong, input_problems) {
            (true, _, _) => Exit::Interrupted,
            (_, true, _) => Exit::WrongAnswers,
            (_, _, true) => Exit::InputProblems,
            _ => Exit::Success,
        }
    }
}

pub fn run(command: Command) -> anyhow::Result<Exit> {
    crate::run::quiet_guarded_panics();
    interrupt::install();
    match command {
        Command::Solve(o) => solve::solve(*o),
        Command::Judge(o) => judge::judge(o),
        Command::Gen(o) => generate::generate(o),
        Command::Bench(o) => bench::bench(*o),
        Command::Compare(o) => compare::compare(*o),
        Command::History(o) => history::history(*o),
        Command::Worker { backend, limits } => worker::worker(backend, limits),
        Command::CountInstructions {
            backend,
            limits,
            file,
        } => {
            crate::bench::instructions::run_counted(&backend, &file, &limits)?;
            Ok(Exit::Success)
        }
        Command::Completions(shell) => docs::completions(shell),
        Command::Man(options) => docs::man(options),
        Command::Backends => backends(),
    }
}

/// `backends`: one line each, name then description, no header (for scripts and eyes);
/// the ones `bench` runs by default say so.
fn backends() -> anyhow::Result<Exit> {
    let mut lines: Vec<(String, String)> = Backend::built_in()
        .map(|b| {
            let mark = b.benched_by_default().then_some(" (bench's default)");
            let mark = mark.unwrap_or_default();
            let path = match b {
                Backend::Bitboard => format!(" [runs its {} path]", Bitboard::new().path().name()),
                _ => String::new(),
            };
            (
                b.name().to_string(),
                format!("{}{path}{mark}", b.description()),
            )
        })
        .collect();
    lines.extend(Backend::FOREIGN_FORMS.map(|(n, d)| (n.to_string(), d.to_string())));
    let width = lines.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let text: String = (lines.iter())
        .map(|(name, what)| format!("{name:width$}  {what}\n"))
        .collect();
    print(&text)?;
    Ok(Exit::Success)
}

/// Prints text on standard output (see [`crate::output::TextTo::print`]).
fn print(text: &str) -> anyhow::Result<()> {
    Ok(crate::output::TextTo::Stdout.print(text)?)
}

#[cfg(test)]
mod tests;
