//! What makes a benchmark run comparable: the machine, the build and the date.

use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// The machine a run was measured on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: String,
    /// Logical cores (hardware threads).
    pub cores: usize,
    pub physical_cores: Option<usize>,
    pub os: String,
}

/// The build that measured it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub version: String,
    /// `git rev-parse --short HEAD` at build time, `-dirty` when there were changes.
    pub git_revision: Option<String>,
    pub rustc: String,
}

impl Machine {
    pub fn current() -> Machine {
        use sysinfo::{CpuRefreshKind, RefreshKind, System};
        let sys =
            System::new_with_specifics(RefreshKind::nothing().with_cpu(CpuRefreshKind::nothing()));
        let cpu = sys
            .cpus()
            .first()
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            physical_cores: System::physical_core_count(),
            os: System::long_os_version().unwrap_or_else(|| std::env::consts::OS.into()),
        }
    }
}

impl Build {
    pub fn current() -> Build {
        let rev = env!("SUDOKU_BENCH_GIT_REVISION");
        Build {
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_revision: (!rev.is_empty()).then(|| rev.to_string()),
            rustc: env!("SUDOKU_BENCH_RUSTC").to_string(),
        }
    }
}

/// The current time as RFC 3339 UTC, e.g. `2026-11-29T23:12:57Z`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since the Unix epoch as RFC 3339 UTC (Howard Hinnant's civil-from-days).
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_795_993_977), "2026-11-29T23:12:57Z");
    }

    #[test]
    fn knows_this_machine_and_build() {
        let m = Machine::current();
        assert!(m.cores >= 1);
        assert!(!m.cpu.is_empty());
        assert!(Build::current().rustc.starts_with("rustc"));
    }
}
