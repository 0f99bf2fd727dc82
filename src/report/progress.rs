//! The progress bar on stderr, shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
    total_bytes: Option<u64>,
}

impl Progress {
    /// A bar when `enabled`; an ETA when the input size is known (regular files).
    pub fn new(enabled: bool, total_bytes: Option<u64>) -> Progress {
        let bar = enabled.then(|| {
            let template = match total_bytes {
                Some(_) => "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/~{human_len} puzzles ({rate}, ETA {eta})",
                None => "{spinner} [{elapsed_precise}] {human_pos} puzzles ({rate})",
            };
            let style = ProgressStyle::with_template(template)
                .expect("valid template")
                .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{} puzzles/s", super::rate(state.per_sec()));
                });
            let target = ProgressDrawTarget::stderr_with_hz(10);
            ProgressBar::with_draw_target(None, target).with_style(style)
        });
        Progress { bar, total_bytes }
    }

    /// Records `done` more puzzles solved, with `read` records and `bytes_read` bytes of
    /// the input read so far.
    pub fn advance(&self, done: u64, read: u64, bytes_read: u64) {
        let Some(bar) = &self.bar else { return };
        bar.inc(done);
        let Some(total) = self.total_bytes else {
            return;
        };
        // The record count is estimated from the bytes per record read so far, once the
        // sample is large enough that the reader's look-ahead does not skew it.
        let pos = bar.position();
        if bytes_read >= total.min(1 << 20) && bytes_read > 0 {
            let estimate = (read as f64 * total as f64 / bytes_read as f64).round() as u64;
            bar.set_length(estimate.max(pos));
        }
    }

    /// Prints a line above the bar (or to stderr when there is no bar). Notes and errors
    /// quote files and foreign programs: nothing in them may drive the terminal.
    pub fn println(&self, line: &str) {
        let line = crate::base::bounds::shown(line, &['\n']);
        match &self.bar {
            Some(bar) => bar.suspend(|| say!("{line}")),
            None => say!("{line}"),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
