//! `worker`: any built-in backend behind the exec: line protocol. It is the test
//! fixture and calibration target of `exec:`, and an example for people writing their
//! own: read a line, answer a line (`count:solution`, with its own time as `ns=`),
//! flush. It does little else between two solves: work between them (formatting,
//! allocating) cools the caches the next solve needs.

use std::io::{BufRead, BufReader, Read as _, Write};

use super::Exit;
use crate::base::interrupt;
use crate::board::Board;
use crate::board::nine::Grid;
use crate::format::Cells;
use crate::loader::RawSource;
use crate::output::{Kind, Stream, resolve_stream};
use crate::report::uint;
use crate::run::{Attempt, GuardedSolver};
use crate::solver::exec::MAX_SOLUTIONS_ENV;
use crate::solver::{Backend, Limits};

/// Answers puzzle lines on standard input with `backend` under `limits` (the count limit
/// comes from `SUDOKU_BENCH_MAX_SOLUTIONS`, as for any program), until the input ends
/// (exit 0) or an interrupt (exit 130).
pub(super) fn worker(backend: Backend, mut limits: Limits) -> anyhow::Result<Exit> {
    limits.max_solutions = std::env::var(MAX_SOLUTIONS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(2);
    // `worker < f >> f` would read its own answers back, without end.
    if let (Some(i), Some(o)) = (
        resolve_stream(Stream::Stdin),
        resolve_stream(Stream::Stdout),
    ) && i.kind == Kind::File
        && i.same_as(&o)
    {
        return Err(crate::options::UsageError(
                "standard output is the file standard input reads: the answers would be read back as puzzles; write them elsewhere".into(),
            )
            .into());
    }
    // Built in, so not verified here: whoever reads the answers verifies them.
    // A fresh solver every `ANEW` puzzles, placed somewhere else each time, as `bench`
    // does per block: one placement for a whole run tilts a saved build's times against
    // the current one's by a few percent (an identical build read "improved -2.2%").
    const ANEW: u64 = 64;
    let mut rng = crate::base::rng::SplitMix64::new(u64::from(std::process::id()));
    let fresh = |random: u64| {
        crate::solver::placed_anew(random, || GuardedSolver::new(&backend, &limits, None))
    };
    let mut solver = fresh(rng.next_u64());
    let mut solved = 0u64;
    let cells = Cells::default();
    let mut input = BufReader::with_capacity(1 << 16, RawSource::stdin()?);
    let mut out = std::io::stdout().lock();
    let (mut line, mut reply) = (Vec::new(), Vec::new());
    loop {
        line.clear();
        let read = input
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line);
        let n = match read {
            Ok(0) => break,
            Ok(n) => n,
            Err(_) if interrupt::requested() => break,
            Err(e) => return Err(e.into()),
        };
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        match <&[u8; 81]>::try_from(text)
            .ok()
            .and_then(|t| cells.parse81(t).ok())
        {
            Some(values) => {
                let grid = Grid::from_cells(values).expect("0-9");
                if solved > 0 && solved.is_multiple_of(ANEW) {
                    solver = fresh(rng.next_u64());
                }
                solved += 1;
                answer(solver.attempt_board(&Board::Nine(grid)), &mut reply);
            }
            None => {
                let shown: String = String::from_utf8_lossy(text).chars().take(100).collect();
                reply.extend(format!("! not a puzzle line: {shown:?}\n").bytes());
            }
        };
        // Each answer goes out at once: the harness gives each its time limit.
        out.write_all(&reply)?;
        out.flush()?;
        reply.clear();
        // The rest of an over-long line, answered already, is skipped without being held.
        if n == MAX_LINE && line.last() != Some(&b'\n') {
            match input.skip_until(b'\n') {
                Ok(_) => {}
                Err(_) if interrupt::requested() => break,
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(Exit::worst(interrupt::requested(), false, false))
}

/// The longest line read at once: a puzzle line (81 cells, CR LF) with room for the
/// start of whatever else a line holds. A longer one is answered as soon as this much is
/// read, and its rest skipped: memory stays constant (`worker < /dev/zero`
/// aborted on a failed allocation).
const MAX_LINE: usize = 1024;

/// The protocol's answer to what the backend did, appended to `out`: `count:solution`
/// with the time and work (`ns=`, `nodes=`, `guesses=`), `?` when it gave up, `!` when
/// it failed. Written byte by byte: little work between two timed solves.
fn answer(attempt: Attempt, out: &mut Vec<u8>) {
    match attempt {
        Attempt::Solved { outcome, .. } if outcome.cancelled => out.extend(b"? interrupted"),
        Attempt::Solved { outcome, .. } if outcome.timed_out => out.extend(b"? timed out"),
        Attempt::Solved { outcome, .. } if outcome.budget_exceeded => {
            out.extend(b"? out of its node budget")
        }
        Attempt::Solved {
            outcome, time_ns, ..
        } => {
            uint(out, outcome.solutions.into());
            out.push(b':');
            if let Some(s) = outcome.solution {
                out.extend(s.to_line_with(b'0'));
            }
            out.extend(b" ns=");
            uint(out, time_ns);
            if outcome.counted.nodes {
                out.extend(b" nodes=");
                uint(out, outcome.nodes);
            }
            if outcome.counted.guesses {
                out.extend(b" guesses=");
                uint(out, outcome.guesses);
            }
        }
        Attempt::Panicked { message, .. } => {
            out.extend(format!("! panicked: {}", one_line(&message)).bytes())
        }
        Attempt::Failed { message, .. } => out.extend(format!("! {}", one_line(&message)).bytes()),
        Attempt::Skipped | Attempt::Unsupported => {
            out.extend(b"! not a 9x9 puzzle this backend solves")
        }
    }
    out.push(b'\n');
}

fn one_line(message: &str) -> String {
    message.replace(['\n', '\r'], " ")
}
