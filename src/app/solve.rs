//! `solve`: stream the inputs through the runner into the per-puzzle outputs.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::Exit;
use crate::base::interrupt;
use crate::loader::{Input, Loader};
use crate::options::SolveOptions;
use crate::report::{Progress, Reporter};
use crate::run::verify::describe;
use crate::run::{self, RunStats, Status};
use crate::solver::{Backend, timing_notes};

/// How much of the run's CPU the serial part (reading, writing) took: with `-jN` it caps
/// the speed-up at about 1 / (its share). The part inside read and write calls is said
/// apart: that is the kernel copying the bytes, which stays serial.
fn serial_note(stats: &RunStats) -> String {
    let total_ns = crate::base::cpu::process_cpu_ns();
    let share = (total_ns > 0).then(|| {
        let pct = 100.0 * stats.serial_cpu_ns as f64 / total_ns as f64;
        format!(", {pct:.1}% of the process's CPU time")
    });
    format!(
        "harness: reading and writing took {:.1} ms of CPU on one thread ({:.1} ms of it inside read and write calls){}",
        stats.serial_cpu_ns as f64 / 1e6,
        stats.serial_io_ns as f64 / 1e6,
        share.unwrap_or_default()
    )
}

/// Parse errors shown on stderr before the rest are only counted.
const SHOWN_PARSE_ERRORS: u64 = 10;

pub(super) fn solve(mut opts: SolveOptions) -> anyhow::Result<Exit> {
    let reads_stdin = opts.inputs.is_empty() || opts.inputs.contains(&Input::Stdin);
    if reads_stdin && std::io::stdin().is_terminal() {
        say!(
            "reading puzzles from the terminal: type or paste them, then Ctrl-D (name a file to read a file)"
        );
    }
    let loader = Loader::new(std::mem::take(&mut opts.inputs), opts.load.clone());
    // Blocks of lines, unless a subset counts records as they are read.
    let loader = match opts.subset == Default::default() {
        true => loader.in_blocks(),
        false => loader,
    };
    let bytes_read = loader.bytes_read();
    // Folders are walked for their size only for a progress bar's estimate.
    let total = opts.progress.then(|| loader.total_bytes()).flatten();
    let progress = Progress::new(opts.progress, total);
    let notes = progress.clone();
    let loader = loader.on_note(move |note| notes.println(&format!("note: {note}")));
    let (mut reporter, formatter) = Reporter::open(&opts.outputs, opts.load.io.clone())?;
    let input_failures = AtomicU64::new(0);
    let records_read = AtomicU64::new(0);
    let records = loader.items().filter_map(|item| match item {
        Ok(item) => {
            // A block of lines counts its lines: the progress bar's estimate of the total.
            let records = match &item.body {
                crate::format::Body::Lines(block) => block.lines,
                _ => 1,
            };
            records_read.fetch_add(records, Ordering::Relaxed);
            Some(item)
        }
        Err(e) => {
            input_failures.fetch_add(1, Ordering::Relaxed);
            progress.println(&format!("error: {e}"));
            None
        }
    });
    let records = opts.subset.apply(records).map_err(anyhow::Error::msg)?;
    let start = Instant::now();
    let mut parse_errors = 0u64;
    let stats = run::run(
        records,
        &opts.run,
        |records| formatter.piece(records),
        |parts| {
            reporter.write_parts(&parts)?;
            for note in reporter.summary.take_notes() {
                progress.println(&format!("note: {note}"));
            }
            // The first few parse errors on stderr too; all of them are in the CSV.
            for part in &parts {
                let room = SHOWN_PARSE_ERRORS.saturating_sub(parse_errors) as usize;
                for error in part.parse_errors.iter().take(room) {
                    progress.println(&format!("error: {error}"));
                }
                parse_errors += part.parse_error_count;
            }
            progress.advance(
                parts.iter().map(|p| p.records).sum(),
                records_read.load(Ordering::Relaxed),
                bytes_read.load(Ordering::Relaxed),
            );
            Ok(())
        },
    )?;
    let wall = start.elapsed();
    progress.finish();
    if parse_errors > SHOWN_PARSE_ERRORS {
        say!(
            "error: {} more records could not be parsed (each has a parse_error row)",
            parse_errors - SHOWN_PARSE_ERRORS
        );
    }
    let mut summary = reporter.finish(formatter);
    for note in summary.take_notes() {
        say!("note: {note}");
    }
    summary.input_failures = input_failures.load(Ordering::Relaxed);
    // Then the summary: its notes, the verdict on an input with no record, the exit code.
    let (run, t) = (&opts.run, &summary.tally);
    summary.interrupted = interrupt::requested();
    summary.notes = timing_notes(
        &run.backend,
        &t.clocks(),
        &run.limits,
        t.claims.second_calls,
    );
    summary.verifier = (run.verify.covers(&run.backend)).then(|| describe(&run.backend));
    if opts.load.verbose {
        summary.notes.push(serial_note(&stats));
        if matches!(run.backend.for_side(9), Backend::Bitboard) && summary.tally.boards[0] > 0 {
            let path = crate::solver::Bitboard::new().path().name();
            summary.notes.push(format!("bitboard: ran its {path} path"));
        }
    }
    let t = &summary.tally;
    // No record at all is never a clean run (as in `bench` and `judge`): a wrong file,
    // or a subset that kept nothing.
    let nothing = t.records == 0 && summary.input_failures == 0 && !summary.interrupted;
    if nothing {
        match opts.subset.skip {
            0 => say!("error: the input holds no puzzles"),
            n => say!("error: no records left after --skip {n}: the input holds fewer"),
        }
    }
    // The backend the summary names: for `fastest`, the backends that took the records.
    let [nine, other] = t.boards;
    let backend = &opts.run.backend;
    let name = match (backend, nine > 0, other > 0) {
        (Backend::Fastest, true, true) => format!(
            "{} for 9x9, {} for other sizes",
            backend.for_side(9),
            backend.for_side(16)
        ),
        (Backend::Fastest, false, true) => backend.for_side(16).to_string(),
        _ => backend.for_side(9).to_string(),
    };
    let text = summary.render(&name, stats.threads, wall);
    opts.summary.print(&text)?;
    Ok(Exit::worst(
        summary.interrupted,
        t.wrong > 0,
        nothing
            || summary.input_failures > 0
            || t.count(Status::ParseError) > 0
            || t.count(Status::Unsupported) > 0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_serial_note_says_the_part_inside_read_and_write_calls() {
        let stats = RunStats {
            threads: 2,
            serial_cpu_ns: 90_000_000,
            serial_io_ns: 60_000_000,
        };
        let note = serial_note(&stats);
        assert!(
            note.starts_with(
                "harness: reading and writing took 90.0 ms of CPU on one thread \
                 (60.0 ms of it inside read and write calls)"
            ),
            "{note}"
        );
    }
}
