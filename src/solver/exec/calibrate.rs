//! The pipe round trip of the line protocol, measured against `worker -b null` (which
//! answers at once) and taken out of each round trip of a program that reports no time
//! of its own. It drifts within a run (tens of percent on a busy VM), so each solver keeps
//! a worker beside its program and times a few round trips every so many puzzles,
//! untimed; a reservoir the program's solvers share gives the summary its spread.

use crate::base::lock;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::process::{FromChild, Wait, Worker};
use crate::base::rng::SplitMix64;

/// Round trips timed in the first burst, after as many unmeasured ones.
const FIRST_BURST: usize = 32;
/// Round trips timed in each later burst (after two unmeasured ones).
const BURST: usize = 8;
/// Puzzles between two bursts.
const EVERY: u32 = 64;
/// Recent samples the transport estimate is the median of.
const RECENT: usize = 64;
/// Samples kept for the run's spread (a uniform sample of all of them).
const RESERVOIR: usize = 4096;

/// A trivial worker beside a program, and the recent round trips to it.
#[derive(Default)]
pub struct Calibrator {
    worker: Option<Worker>,
    /// Whether starting the worker failed (then the transport is taken as 0).
    failed: bool,
    recent: VecDeque<u64>,
    since: u32,
}

impl Calibrator {
    /// Before a call, untimed: a burst of round trips when it is due.
    pub fn refresh(&mut self, shared: &Shared) {
        if self.failed || (self.since > 0 && self.since < EVERY) {
            self.since += 1;
            return;
        }
        match self.burst() {
            Some(samples) => {
                lock(&shared.0.1).record(&samples);
                self.recent.extend(samples);
                let old = self.recent.len().saturating_sub(RECENT);
                self.recent.drain(..old);
                self.since = 1;
            }
            None => {
                self.failed = true;
                self.worker = None;
            }
        }
    }

    /// The transport of one round trip now: the median of the recent samples (0 when
    /// none could be taken).
    pub fn transport_ns(&self) -> u64 {
        let mut v: Vec<u64> = self.recent.iter().copied().collect();
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    }

    /// A burst of round trips timed, after as many unmeasured ones the first time.
    fn burst(&mut self) -> Option<Vec<u64>> {
        if self.worker.is_none() {
            let exe = std::env::current_exe().ok()?;
            self.worker = Some(Worker::spawn(&exe, &["worker", "-b", "null"], &[]).ok()?);
        }
        let worker = self.worker.as_mut()?;
        let line =
            b".................................................................................\n";
        let (warm, n) = match self.recent.is_empty() {
            true => (FIRST_BURST, FIRST_BURST),
            false => (2, BURST),
        };
        let mut times = Vec::with_capacity(n);
        for i in 0..warm + n {
            let start = Instant::now();
            worker.send(line);
            match worker.wait(start + Duration::from_secs(5), || false) {
                Wait::Got(FromChild::Line(_)) => {}
                _ => return None,
            }
            if i >= warm {
                times.push(start.elapsed().as_nanos() as u64);
            }
        }
        Some(times)
    }
}

/// What the solvers of one program share while it runs (every clone of its spec holds
/// the same), no part of the spec's value: whether the silent-program warning was said,
/// and the round trips measured beside it.
#[derive(Clone, Debug, Default)]
pub struct Shared(Arc<(AtomicBool, Mutex<Samples>)>);

impl Shared {
    /// True the first time only.
    pub fn first_warning(&self) -> bool {
        !self.0.0.swap(true, Ordering::Relaxed)
    }

    /// The round trips measured so far, for the timing note: their median, the 80%
    /// between the 10th and 90th percentiles, and how many were measured (`None`: none).
    pub fn spread_note(&self) -> Option<String> {
        let samples = lock(&self.0.1);
        let mut v = samples.kept.clone();
        if v.is_empty() {
            return None;
        }
        v.sort_unstable();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        let (median, p10, p90) = (at(0.5), at(0.1), at(0.9));
        Some(format!(
            ", {:.1} µs (the median of {} calibrations against `worker -b null` during the run; 80% of them between {:.1} and {:.1} µs, so each time is uncertain by about ±{:.1} µs); a program that prints its own time (ns=) is timed by that instead",
            median as f64 / 1e3,
            samples.seen,
            p10 as f64 / 1e3,
            p90 as f64 / 1e3,
            (p90 - p10) as f64 / 2e3
        ))
    }
}

impl PartialEq for Shared {
    fn eq(&self, _: &Shared) -> bool {
        true
    }
}

impl Eq for Shared {}

/// The samples of the whole run: how many, and a uniform reservoir of them.
#[derive(Debug)]
struct Samples {
    seen: u64,
    kept: Vec<u64>,
    /// Chooses which sample a new one replaces.
    rng: SplitMix64,
}

impl Default for Samples {
    fn default() -> Samples {
        Samples {
            seen: 0,
            kept: Vec::new(),
            rng: SplitMix64::new(0x5EED),
        }
    }
}

impl Samples {
    fn record(&mut self, samples: &[u64]) {
        for &x in samples {
            self.seen += 1;
            if self.kept.len() < RESERVOIR {
                self.kept.push(x);
            } else if let Some(slot) = self.kept.get_mut(self.rng.below(self.seen) as usize) {
                // Full: it replaces a kept one with probability RESERVOIR / seen.
                *slot = x;
            }
        }
    }
}
