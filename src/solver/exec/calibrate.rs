//! The pipe round trip of the line protocol, measured once against a trivial worker
//! (this program's own `worker -b null`, which answers `0` at once) and subtracted from
//! every per-puzzle time, as hyperfine subtracts the cost of starting a shell.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::process::{FromChild, Wait, Worker};

/// Round trips timed (after as many unmeasured ones).
const SAMPLES: usize = 200;

/// The median round trip in nanoseconds (0 when it cannot be measured).
pub fn round_trip_ns() -> u64 {
    static MEASURED: OnceLock<u64> = OnceLock::new();
    *MEASURED.get_or_init(|| measure().unwrap_or(0))
}

fn measure() -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let args = ["worker".to_string(), "-b".to_string(), "null".to_string()];
    let mut worker = Worker::spawn(&exe, &args, &[]).ok()?;
    let line =
        b".................................................................................\n";
    let mut times = Vec::with_capacity(SAMPLES);
    for i in 0..2 * SAMPLES {
        let start = Instant::now();
        worker.send(line);
        match worker.wait(start + Duration::from_secs(5), || false) {
            Wait::Got(FromChild::Line(_)) => {}
            _ => return None,
        }
        if i >= SAMPLES {
            times.push(start.elapsed().as_nanos() as u64);
        }
    }
    times.sort_unstable();
    Some(times[times.len() / 2])
}
