//! The sane ranges of every number a user or a file gives: the options layer checks the
//! command line against them, and saved runs (untrusted files) are checked against the
//! same ones when read.

use std::time::Duration;

/// Worker threads, per run or per thread count of `bench`.
pub const MAX_THREADS: usize = 1024;
/// Thread counts one `bench` may list.
pub const MAX_THREAD_COUNTS: usize = 64;
/// A per-puzzle time limit: one year.
pub const MAX_TIMEOUT_S: f64 = 365.0 * 24.0 * 3600.0;
/// `bench --min-time`: one week.
pub const MAX_MIN_TIME_S: f64 = 7.0 * 24.0 * 3600.0;
pub const MAX_ROUNDS: u32 = 100_000;
pub const MAX_WARMUP: u32 = 10_000;
/// `--noise`, percent.
pub const MAX_NOISE_PCT: f64 = 1000.0;
/// Solutions counted per puzzle.
pub const MAX_SOLUTIONS: u32 = 1_000_000_000;
/// Records `--sample` holds in memory.
pub const MAX_SAMPLE: u64 = 10_000_000;
/// What a command may hold of its input in memory at once, in bytes: `bench`'s dataset
/// (in its compact form: 53 bytes a 9x9 puzzle, 98 with its solution) and `--sample`'s
/// reservoir, in `solve` and `bench`. A file's size says nothing of it (a 14 KB zstd
/// file holds two million puzzles), so it is counted as records are read, and reading
/// stops past it with [`held_too_much`].
pub const MAX_HELD_BYTES: u64 = 1 << 30;
/// Longest text field accepted from a saved run (paths, names).
pub const MAX_TEXT: usize = 4096;

/// What a record holds in memory, counted against [`MAX_HELD_BYTES`].
pub trait Held {
    fn held_bytes(&self) -> u64;
}

/// Why `what` stopped after `records` records: more than [`MAX_HELD_BYTES`] in memory;
/// `advice` says how to read less.
pub fn held_too_much(what: &str, records: u64, advice: &str) -> String {
    format!(
        "{what}: more than {} MiB held in memory after {records} records; {advice}",
        MAX_HELD_BYTES >> 20
    )
}

/// A number of threads: 1 to `MAX_THREADS` (0, "one per core", only where the caller
/// allows it).
pub fn threads(n: usize, zero_ok: bool) -> Result<usize, String> {
    match n {
        0 if zero_ok => Ok(0),
        1..=MAX_THREADS => Ok(n),
        _ if n > MAX_THREADS => Err(format!(
            "{n} threads is more than {MAX_THREADS}; use at most {MAX_THREADS}"
        )),
        _ => Err("a thread count is 1 or more".to_string()),
    }
}

/// A duration in seconds: finite, more than 0 (or at least 0 when `zero_ok`), at most `max`.
pub fn seconds(value: f64, zero_ok: bool, max: f64) -> Result<Duration, String> {
    // Below a microsecond no limit or duration means anything (1e-320 was a limit that
    // stopped every puzzle at once).
    let low_ok = value >= 1e-6 || (zero_ok && value == 0.0);
    if !value.is_finite() || !low_ok || value > max {
        let low = if zero_ok { "0 or 0.000001" } else { "0.000001" };
        return Err(format!(
            "{value:?} is not a number of seconds from {low} to {max}"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

/// A whole number in `lo..=hi`.
pub fn within<T: PartialOrd + std::fmt::Display>(value: T, lo: T, hi: T) -> Result<T, String> {
    if value < lo || value > hi {
        return Err(format!("{value} is not from {lo} to {hi}"));
    }
    Ok(value)
}

/// A finite number in `lo..=hi`.
pub fn finite(value: f64, lo: f64, hi: f64) -> Result<f64, String> {
    if !value.is_finite() || value < lo || value > hi {
        return Err(format!("{value:?} is not a number from {lo} to {hi}"));
    }
    Ok(value)
}

/// A character untrusted text may not bring to a terminal or a page: a control character
/// (an escape sequence, a line break, a bell) or a bidirectional override or isolate,
/// which reorders what follows it (a name shown as another).
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every unsafe character (see [`is_unsafe_char`]) but those in `keep` made
/// U+FFFD, for a terminal: file names from a folder, messages with them.
pub fn shown<'a>(text: &'a str, keep: &[char]) -> std::borrow::Cow<'a, str> {
    let unsafe_here = |c: char| is_unsafe_char(c) && !keep.contains(&c);
    match text.chars().any(unsafe_here) {
        false => text.into(),
        true => text
            .chars()
            .map(|c| if unsafe_here(c) { '\u{FFFD}' } else { c })
            .collect::<String>()
            .into(),
    }
}

/// Text from a file that will be printed or used as a path: bounded, no control
/// characters (a terminal escape in a "backend name" stays out of the terminal) and no
/// bidirectional overrides.
pub fn text(value: &str) -> Result<&str, String> {
    if value.len() > MAX_TEXT {
        return Err(format!(
            "a text of {} bytes (at most {MAX_TEXT})",
            value.len()
        ));
    }
    if let Some(c) = value.chars().find(|&c| is_unsafe_char(c)) {
        return Err(format!("a text with the control character {c:?}"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_are_refused() {
        assert!(threads(100_000, true).is_err());
        assert!(threads(0, false).is_err());
        assert_eq!(threads(0, true), Ok(0));
        for bad in ["a\u{1b}[2J", "a\nb", "evil\u{202E}txt.exe", "\u{2067}x"] {
            assert!(text(bad).is_err(), "{bad:?}");
        }
        assert!(text("Grid 01 — ünïcode").is_ok());
        for bad in [f64::NAN, -1.0, 0.0, 1e19, 1e308, f64::INFINITY] {
            assert!(seconds(bad, false, MAX_TIMEOUT_S).is_err(), "{bad}");
        }
        assert!(seconds(0.0, true, MAX_MIN_TIME_S).is_ok());
        assert!(seconds(-1.0, true, MAX_MIN_TIME_S).is_err());
        assert_eq!(seconds(0.25, false, 1.0), Ok(Duration::from_millis(250)));
        assert!(within(0u32, 1, 2).is_err());
        assert!(finite(f64::NAN, 0.0, 1.0).is_err());
        assert!(text("a\u{1b}[31m").is_err());
        assert!(text(&"x".repeat(MAX_TEXT + 1)).is_err());
    }
}
