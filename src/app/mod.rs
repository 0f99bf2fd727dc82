//! The commands: wires loader -> runner -> reporter and decides the exit status.

mod bench;

use std::io::{BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;

use crate::cli::{Cli, Command, GenArgs, JudgeArgs, LimitArgs, SolveArgs};
use crate::loader::{Input, Loader};
use crate::report::{OutputPath, Progress, Reporter, ensure_not_an_input};
use crate::run::{self, RunConfig};
use crate::solver::{DlxStatic, Limits};

/// Exit statuses (documented in the README).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Every record was read, and every answer checked out.
    Success = 0,
    /// A fatal error (bad output path, I/O error while writing, ...).
    Failure = 1,
    /// Some input could not be read, or some records could not be parsed.
    InputProblems = 3,
    /// Some answer was wrong: an invalid solution, or a disagreement with the expected one.
    WrongAnswers = 4,
    /// `compare` (or `bench --baseline`) found a regression.
    Regressed = 5,
    /// Stopped by Ctrl-C (SIGINT) or SIGTERM; what was done is written.
    Interrupted = 130,
}

/// Set by the first Ctrl-C (or SIGTERM): stop taking new puzzles.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The first interrupt lets the run finish its chunk in flight and write it; a second
/// one exits at once.
fn handle_interrupts() {
    // Fails only if a handler is already set (a second call in one process): keep it.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(Exit::Interrupted as i32);
        }
        eprintln!("\ninterrupted: finishing the puzzles in flight (Ctrl-C again to quit now)");
    });
}

/// A backend's panic is caught and reported in that puzzle's row; the default hook
/// would also print it on stderr, once per puzzle. Other threads keep the default.
fn quiet_solver_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let solver_thread = std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with("solver-"));
        if !solver_thread {
            default(info);
        }
    }));
}

pub fn run(cli: Cli) -> anyhow::Result<Exit> {
    quiet_solver_panics();
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Judge(args) => judge(args),
        Command::Gen(args) => generate(args),
        Command::Bench(args) => bench::bench(args),
        Command::Compare(args) => bench::compare(args),
    }
}

pub(crate) fn limits(args: &LimitArgs) -> Limits {
    Limits {
        max_solutions: args.max_solutions,
        max_nodes: args.max_nodes,
        timeout: args.timeout,
        ..Limits::default()
    }
}

/// Parse errors shown on stderr before the rest are only counted.
const SHOWN_PARSE_ERRORS: u64 = 10;

fn solve(args: SolveArgs) -> anyhow::Result<Exit> {
    let csv = args.csv.as_deref().map(OutputPath::from_arg);
    let solutions = args.solutions.as_deref().map(OutputPath::from_arg);
    for out in csv.iter().chain(solutions.iter()) {
        ensure_not_an_input(out, &args.inputs)?;
    }
    if let (Some(a), Some(b)) = (&csv, &solutions) {
        ensure_distinct(a, b)?;
    }
    let stdout_taken = [&csv, &solutions]
        .iter()
        .any(|o| matches!(o, Some(OutputPath::Stdout)));

    let inputs: Vec<Input> = args.inputs.iter().map(Input::from_arg).collect();
    let loader = Loader::new(inputs, args.format);
    let bytes_read = loader.bytes_read();
    let stderr_is_terminal = std::io::stderr().is_terminal();
    let progress = Progress::new(
        stderr_is_terminal && !args.no_progress,
        loader.total_bytes(),
    );
    let mut reporter = Reporter::new(csv.as_ref(), solutions.as_ref())?;
    let config = RunConfig {
        backend: args.solver.backend,
        limits: Limits {
            // Ctrl-C abandons the searches in flight too (status `interrupted`).
            cancel: Some(&INTERRUPTED),
            ..limits(&args.solver.limits)
        },
        threads: args.threads,
    };

    handle_interrupts();
    let input_failures = AtomicU64::new(0);
    let records_read = AtomicU64::new(0);
    let records = loader.take_while(|_| !INTERRUPTED.load(Ordering::Relaxed));
    let records = records.filter_map(|item| match item {
        Ok(record) => {
            records_read.fetch_add(1, Ordering::Relaxed);
            Some(record)
        }
        Err(e) => {
            input_failures.fetch_add(1, Ordering::Relaxed);
            progress.println(&format!("error: {e}"));
            None
        }
    });
    let start = Instant::now();
    let mut parse_errors = 0u64;
    let threads = run::run(records, &config, |chunk| {
        reporter.write_chunk(chunk)?;
        // The first few parse errors on stderr too; all of them are in the CSV.
        for r in chunk.iter().filter(|r| r.status == run::Status::ParseError) {
            parse_errors += 1;
            if parse_errors <= SHOWN_PARSE_ERRORS {
                let error = r.error.as_deref().unwrap_or("");
                progress.println(&format!("error: {}: {error}", r.source));
            }
        }
        progress.advance(
            chunk.len() as u64,
            records_read.load(Ordering::Relaxed),
            bytes_read.load(Ordering::Relaxed),
        );
        Ok(())
    })?;
    let wall = start.elapsed();
    progress.finish();
    if parse_errors > SHOWN_PARSE_ERRORS {
        eprintln!(
            "error: {} more records could not be parsed (each has a parse_error row)",
            parse_errors - SHOWN_PARSE_ERRORS
        );
    }
    reporter.flush()?;
    let mut summary = reporter.summary;
    summary.input_failures = input_failures.load(Ordering::Relaxed);
    summary.interrupted = INTERRUPTED.load(Ordering::Relaxed);

    if summary.records() == 0 && summary.input_failures == 0 {
        eprintln!("warning: the input holds no puzzles");
    }
    if !args.quiet {
        let text = summary.render(config.backend.name(), threads, wall);
        if !stdout_taken {
            std::io::stdout().lock().write_all(text.as_bytes())?;
        } else if stderr_is_terminal {
            eprint!("{text}");
        }
    }
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if summary.wrong_answers() > 0 {
        Exit::WrongAnswers
    } else if summary.input_failures > 0 || summary.count(run::Status::ParseError) > 0 {
        Exit::InputProblems
    } else {
        Exit::Success
    })
}

/// Two outputs to one place would interleave into garbage.
fn ensure_distinct(a: &OutputPath, b: &OutputPath) -> anyhow::Result<()> {
    let same = match (a, b) {
        (OutputPath::Stdout, OutputPath::Stdout) => true,
        (OutputPath::File(x), OutputPath::File(y)) => {
            std::path::absolute(x).ok() == std::path::absolute(y).ok()
                || x.canonicalize()
                    .is_ok_and(|x| y.canonicalize().is_ok_and(|y| x == y))
        }
        _ => false,
    };
    if same {
        anyhow::bail!("--csv and --solutions name the same output; give them different files");
    }
    Ok(())
}

fn judge(args: JudgeArgs) -> anyhow::Result<Exit> {
    let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut out = BufWriter::new(std::io::stdout().lock());
    // The judges guarantee a unique solution: stopping at the first one is enough.
    let limits = Limits {
        max_solutions: 1,
        max_nodes: args.max_nodes,
        ..Limits::default()
    };
    let report = crate::judge::judge(args.problem, args.backend, &limits, stdin, &mut out)?;
    Ok(if report.failed > 0 {
        Exit::InputProblems
    } else {
        Exit::Success
    })
}

/// Puzzles are generated in parallel a block at a time and written in order.
fn generate(args: GenArgs) -> anyhow::Result<Exit> {
    let out_path = args
        .output
        .as_deref()
        .map_or(OutputPath::Stdout, OutputPath::from_arg);
    let mut out = out_path.create()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    writeln!(
        out,
        "# sudoku-bench gen --count {} --seed {} --min-clues {}: puzzle:1:solution, each with exactly one solution",
        args.count, args.seed, args.min_clues
    )?;
    const BLOCK: u64 = 1024;
    let mut first = 0;
    while first < args.count {
        let last = (first + BLOCK).min(args.count);
        let block: Vec<_> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map_init(DlxStatic::new, |solver, i| {
                    crate::generate::generate(args.seed, i, args.min_clues as usize, solver)
                })
                .collect()
        });
        for g in block {
            writeln!(out, "{}:1:{}", g.puzzle, g.solution.to_line())?;
        }
        out.flush().context("writing the puzzles")?;
        first = last;
    }
    out.flush().context("writing the puzzles")?;
    Ok(Exit::Success)
}
