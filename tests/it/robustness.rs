//! Bad input, interrupts and hostile puzzles: nothing lost, nothing hangs, nothing crashes.

use crate::common::contains;
use crate::common::{field, project_file, read_csv, stdout_csv, sudoku_bench};

/// Solves one file of the malformed corpus; returns (status, line, error) per row.
fn rows_of(file: &str, exit: i32) -> Vec<(String, String, String)> {
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "-q"])
        .arg(project_file(&format!("tests/data/malformed/{file}")))
        .assert()
        .code(exit);
    let (header, rows) = stdout_csv(&out);
    rows.iter()
        .map(|r| {
            (
                field(&header, r, "status").to_string(),
                field(&header, r, "line").to_string(),
                field(&header, r, "error").to_string(),
            )
        })
        .collect()
}

/// The bad record sits between two good ones: both are solved, the bad one named.
fn assert_sandwich(file: &str, lines: [&str; 3], status: &str, error: &str) {
    let rows = rows_of(file, 3);
    assert_eq!(rows.len(), 3, "{file}: {rows:?}");
    assert_eq!(rows[0].0, "unique", "{file}");
    assert_eq!(rows[2].0, "unique", "{file}");
    assert_eq!(rows[1].0, status, "{file}");
    assert_eq!(rows[1].2, error, "{file}");
    let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(got, lines, "{file}");
}

#[test]
fn each_malformed_record_gets_its_own_row() {
    let cell = "is not a digit 1-9 or a blank";
    assert_sandwich(
        "wrong_length.txt",
        ["1", "2", "3"],
        "parse_error",
        "line 2, column 71: line ends after 70 cells, expected 81",
    );
    assert_sandwich(
        "bad_chars.txt",
        ["1", "2", "3"],
        "parse_error",
        &format!("line 2, column 10: '@' {cell}"),
    );
    assert_sandwich(
        "invalid_utf8.txt",
        ["1", "2", "3"],
        "parse_error",
        &format!("line 2, column 21: '\u{FFFD}' {cell}"),
    );
    assert_sandwich(
        "truncated.grid",
        ["1", "11", "17"],
        "parse_error",
        "line 11: grid ends after 5 rows, expected 9",
    );
    assert_sandwich(
        "missing_token.hdu",
        ["1", "11", "21"],
        "parse_error",
        "line 14: line has 8 tokens, expected 9",
    );
    assert_sandwich(
        "wrong_fields.csv",
        ["2", "3", "4"],
        "parse_error",
        "line 3: row has 1 fields, header has 2",
    );
    let rows = rows_of("conflicting_givens.txt", 0);
    assert_eq!(rows[1].0, "invalid_givens");
    assert_eq!(rows[1].2, "digit 5 twice in row 1 (r1c1 and r1c2)");
    // An empty input is no clean run: exit 3, as in bench and judge.
    assert_eq!(rows_of("empty.txt", 3).len(), 0);
}

#[test]
fn parse_errors_are_named_on_stderr_with_file_and_line() {
    sudoku_bench()
        .args(["solve", "-q"])
        .arg(project_file("tests/data/malformed/bad_chars.txt"))
        .assert()
        .code(3)
        .stderr(contains("bad_chars.txt: line 2, column 10:"));
}

#[test]
fn a_line_of_megabytes_is_one_error_and_never_held_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    let good = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    let mut text = format!("{good}\n");
    text.push_str(&"7".repeat(5 << 20));
    text.push_str(&format!("\n{good}\n"));
    std::fs::write(&path, text).unwrap();
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "-q"])
        .arg(&path)
        .assert()
        .code(3);
    let (header, rows) = stdout_csv(&out);
    let statuses: Vec<&str> = rows.iter().map(|r| field(&header, r, "status")).collect();
    assert_eq!(statuses, ["unique", "parse_error", "unique"]);
    assert_eq!(
        field(&header, &rows[1], "error"),
        "line 2: line is 5242880 bytes long, longer than 65536"
    );
}

/// Red-team finding: damage in a compressed file's first 64 KiB gave 0 records ("read
/// error after line 0") where `gzip -dc` recovers the lines before it: the sample read
/// for detection was dropped with its error. A checksum damaged at the end: every record
/// before it is solved, then the damage is an error after the last line (exit 3).
#[test]
fn damage_in_a_compressed_sample_keeps_the_records_before_it() {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(50)
        .map(|l| format!("{}\n", &l[..81]))
        .collect();
    // From the end: gzip's CRC, zstd's checksum, xz's stream footer (its CRC).
    for (kind, from_end) in [("gz", 5), ("zst", 1), ("xz", 12)] {
        let mut bytes = crate::common::compress(kind, text.as_bytes());
        let at = bytes.len() - from_end;
        bytes[at] ^= 0x55;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("p.{kind}"));
        std::fs::write(&path, bytes).unwrap();
        let out = sudoku_bench()
            .args(["solve", "--csv", "-", "-q"])
            .arg(&path)
            .assert()
            .code(3)
            .stderr(contains("read error after line 50"));
        let (header, rows) = stdout_csv(&out);
        assert_eq!(rows.len(), 50, "{kind}");
        assert!(
            rows.iter().all(|r| field(&header, r, "status") == "unique"),
            "{kind}"
        );
    }
}

#[test]
fn unreadable_inputs_are_skipped_and_the_exit_status_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "-q"])
        .arg(dir.path().join("missing.txt"))
        .arg(project_file("tests/data/malformed/conflicting_givens.txt"))
        .assert()
        .code(3)
        .stderr(contains("missing.txt"));
    let (_, rows) = stdout_csv(&out);
    assert_eq!(rows.len(), 3);
}

#[test]
fn hostile_puzzles_end_within_budget_and_dlx_solves_them() {
    let hostile = [
        "001000000200000000003000000400000005005000600600000040007103000800000000009020000",
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    ];
    let input = hostile.join("\n") + "\n";
    let out = sudoku_bench()
        .args([
            "solve",
            "-b",
            "dfs",
            "--max-nodes",
            "2000000",
            "--csv",
            "-",
            "-q",
        ])
        .write_stdin(input.clone())
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    for row in &rows {
        assert_eq!(field(&header, row, "status"), "budget_exceeded");
        assert_eq!(field(&header, row, "nodes"), "2000001");
    }
    for backend in ["dlx-static", "dlx-arena", "bitboard"] {
        let out = sudoku_bench()
            .args(["solve", "-b", backend, "--csv", "-", "-q"])
            .write_stdin(input.clone())
            .assert()
            .success();
        let (header, rows) = stdout_csv(&out);
        assert_eq!(field(&header, &rows[0], "status"), "multiple", "{backend}");
        assert_eq!(field(&header, &rows[1], "status"), "unique", "{backend}");
    }
}

#[cfg(unix)]
#[test]
fn an_interrupt_leaves_a_valid_partial_csv_and_a_summary() {
    use std::process::{Command, Stdio};
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    // Enough work to be still running when the signal comes: the dataset, repeated.
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let input = dir.path().join("big.txt");
    std::fs::write(&input, text.repeat(60)).unwrap();
    let csv = dir.path().join("out.csv");
    let child = Command::new(crate::common::bin())
        .args(["solve", "-j", "1", "--csv"])
        .arg(&csv)
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The handshake: the first chunk of rows is on disk.
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 2 {
        assert!(start.elapsed() < Duration::from_secs(60), "no rows written");
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("interrupted: stopped after"), "{stdout}");
    let (header, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert!(
        !rows.is_empty() && rows.len() < 180_000,
        "{} rows",
        rows.len()
    );
    // Whole rows, in order, each one solved (or, for the rare long search in flight,
    // abandoned after its first 1,024 nodes), and as many as the summary says.
    assert!(rows.iter().all(|r| r.len() == header.len()));
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(field(&header, row, "record"), (i + 1).to_string());
        match field(&header, row, "status") {
            "unique" => {}
            "interrupted" => assert!(field(&header, row, "nodes").parse::<u64>().unwrap() >= 1024),
            other => panic!("row {}: {other}", i + 1),
        }
    }
    assert!(
        stdout.contains(&format!("stopped after {} records", rows.len())),
        "{stdout}"
    );
}

#[test]
fn a_timeout_stops_a_hopeless_search_and_says_so() {
    let hostile =
        "001000000200000000003000000400000005005000600600000040007103000800000000009020000\n";
    let start = std::time::Instant::now();
    let out = sudoku_bench()
        .args([
            "solve",
            "-b",
            "dfs",
            "--max-nodes",
            "100000000000",
            "--timeout",
            "0.3",
        ])
        .args(["--csv", "-", "-q"])
        .write_stdin(hostile)
        .assert()
        .success();
    // Generous: only that it did not run for the minutes the search would take.
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    let (header, rows) = stdout_csv(&out);
    assert_eq!(field(&header, &rows[0], "status"), "budget_exceeded");
    assert_eq!(field(&header, &rows[0], "error"), "timed out after 300ms");
}

#[test]
fn the_null_backend_solves_nothing_and_fails_nothing() {
    let out = sudoku_bench()
        .args(["solve", "-b", "null", "--csv", "-", "-q"])
        .arg(project_file("tests/data/malformed/conflicting_givens.txt"))
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    let statuses: Vec<&str> = rows.iter().map(|r| field(&header, r, "status")).collect();
    assert_eq!(statuses, ["not_solved", "invalid_givens", "not_solved"]);
}

/// The peak resident memory of `solve -q` on `input`, in bytes (from `wait4`, this
/// child's own figure).
#[cfg(target_os = "linux")]
// Reaped by `wait4`, which `Child::wait` cannot be asked for.
#[allow(clippy::zombie_processes)]
fn peak_rss(input: &std::path::Path) -> u64 {
    let child = std::process::Command::new(crate::common::bin())
        .args(["solve", "-j1", "--no-progress"])
        .arg(input)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on the pid of a child this test started and has not waited for.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss as u64 * 1024
}

/// Red-team finding: a folder of 200,000 hard links (a few MB on disk) took 1.4 GB in
/// `solve`: every file's name, report and summary line was kept (about 1 KB a file),
/// and the summary listed every file. A walk holds what it needs, the summary lists
/// the first files and sums the rest, and what is left per file is a few dozen bytes.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_of_many_files_costs_little_memory_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let one = dir.path().join("one");
    let many = dir.path().join("many");
    std::fs::create_dir_all(&one).unwrap();
    std::fs::create_dir_all(&many).unwrap();
    let base = one.join("base.txt");
    std::fs::write(&base, format!("{}\n", text.lines().nth(1).unwrap())).unwrap();
    let files = 30_000;
    for i in 0..files {
        std::fs::hard_link(&base, many.join(format!("linked-{i:05}.txt"))).unwrap();
    }
    let per_file = peak_rss(&many).saturating_sub(peak_rss(&one)) / files;
    assert!(per_file < 400, "{per_file} bytes a file");
    let out = sudoku_bench()
        .args(["solve", "-j1"])
        .arg(&many)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(stdout.contains("(29900 more files)"), "{stdout}");
    assert!(stdout.lines().count() < 120, "{stdout}");
}
