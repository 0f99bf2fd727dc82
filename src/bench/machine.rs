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
    /// The executable's content hash (`fnv1a64:...`): two builds of one revision, or of
    /// a changed tree, differ here. `None` in runs saved before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exe: Option<String>,
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

    /// What differs between the machine of `self` and that of `other`, for a warning
    /// (times from two machines do not compare).
    pub fn differences(&self, other: &Machine) -> Vec<String> {
        let mut d = Vec::new();
        if self.cpu != other.cpu {
            d.push(format!("CPU {:?} vs {:?}", self.cpu, other.cpu));
        }
        if self.cores != other.cores {
            d.push(format!("{} vs {} cores", self.cores, other.cores));
        }
        if self.os != other.os {
            d.push(format!("OS {:?} vs {:?}", self.os, other.os));
        }
        d
    }
}

/// How busy the rest of the machine was during a measurement (Linux: `/proc/stat`,
/// whose CPU times include the time a hypervisor stole from this VM).
pub struct LoadProbe {
    start: Option<(u64, u64)>,
    own_ns: u64,
}

/// Machine-wide busy and total CPU time so far, in clock ticks.
fn machine_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let v: Vec<u64> = line
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is within user).
    let field = |i: usize| v.get(i).copied().unwrap_or(0);
    let busy = field(0) + field(1) + field(2) + field(5) + field(6) + field(7);
    Some((busy, busy + field(3) + field(4)))
}

impl LoadProbe {
    pub fn start() -> LoadProbe {
        LoadProbe {
            start: machine_ticks(),
            own_ns: crate::base::cpu::process_cpu_ns(),
        }
    }

    /// The cores other programs kept busy on average since `start`, when that can be
    /// told (Linux, and a run long enough for the kernel's 10 ms ticks).
    pub fn others(&self) -> Option<f64> {
        let (busy0, total0) = self.start?;
        let (busy1, total1) = machine_ticks()?;
        let total = total1.checked_sub(total0)?;
        if total < 100 {
            return None;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        // Ticks are 1/100 s on Linux (USER_HZ).
        let own_ticks = (crate::base::cpu::process_cpu_ns() - self.own_ns) as f64 / 1e7;
        let others_busy = (busy1.saturating_sub(busy0)) as f64 - own_ticks;
        Some((others_busy.max(0.0) / total as f64) * cores)
    }
}

impl Build {
    /// This build, its executable hashed (about 40 ms: once per command that records it).
    pub fn current() -> Build {
        let rev = env!("SUDOKU_BENCH_GIT_REVISION");
        Build {
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_revision: (!rev.is_empty()).then(|| rev.to_string()),
            rustc: env!("SUDOKU_BENCH_RUSTC").to_string(),
            exe: crate::bench::hash_file(&running_exe()).ok(),
        }
    }

    /// The revision, for a person.
    pub fn revision(&self) -> &str {
        self.git_revision.as_deref().unwrap_or("unknown revision")
    }

    /// The executable's hash, short, for a person.
    pub fn exe_short(&self) -> String {
        let hash = self.exe.as_deref().unwrap_or("unknown");
        let hex = hash.strip_prefix("fnv1a64:").unwrap_or(hash);
        // By characters: a saved run's text is untrusted, and may not be ASCII.
        hex.chars().take(12).collect()
    }

    /// "0.1.0 (fe420a7abcde-dirty, executable 3f2a1b0c9d8e)": what `--version` prints
    /// and every comparison names.
    pub fn describe(&self) -> String {
        let (version, revision, exe) = (&self.version, self.revision(), self.exe_short());
        format!("{version} ({revision}, executable {exe})")
    }
}

/// The file this process runs: on Linux the inode it was started from, even when a
/// rebuild has since put another file at its path.
pub fn running_exe() -> std::path::PathBuf {
    let proc = std::path::Path::new("/proc/self/exe");
    match proc.exists() {
        true => proc.to_path_buf(),
        false => std::env::current_exe().unwrap_or_default(),
    }
}

/// The time `ahead_s` seconds from now as RFC 3339 UTC, e.g. `2026-11-29T23:12:57Z`.
pub fn now_utc(ahead_s: u64) -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs + ahead_s)
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

    /// Finding: a saved run's executable hash was cut at byte 12, so a planted
    /// non-ASCII hash panicked `compare --list` and every comparison naming the build.
    #[test]
    fn a_planted_hash_is_cut_by_characters() {
        let build = Build {
            version: "0.1.0".into(),
            git_revision: None,
            rustc: String::new(),
            exe: Some("fnv1a64:aéééééééééééé".into()),
        };
        assert_eq!(build.exe_short(), "aééééééééééé");
    }

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
