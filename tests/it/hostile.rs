//! A careless or hostile command line, a planted baseline: nothing is destroyed, nothing
//! crashes, nothing is misreported. One test per finding of the issue that asked for it.

use std::path::{Path, PathBuf};

use crate::common::contains;
use crate::common::{project_file, read_csv, sudoku_bench, sudoku_bench_in};

/// A small dataset in `dir`, and a copy to compare it with afterwards.
fn dataset(dir: &Path) -> (PathBuf, Vec<u8>) {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let body: String = text.lines().take(21).map(|l| format!("{l}\n")).collect();
    let path = dir.join("in.txt");
    std::fs::write(&path, &body).unwrap();
    (path, body.into_bytes())
}

fn assert_intact(path: &Path, bytes: &[u8]) {
    assert_eq!(
        std::fs::read(path).unwrap(),
        bytes,
        "{} was changed",
        path.display()
    );
}

#[test]
fn an_output_that_is_the_input_by_any_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (input, bytes) = dataset(dir.path());
    std::fs::hard_link(&input, dir.path().join("hard.csv")).unwrap();
    std::os::unix::fs::symlink(&input, dir.path().join("soft.csv")).unwrap();
    for out in ["hard.csv", "soft.csv", "./sub/../in.txt"] {
        sudoku_bench_in(dir.path())
            .args(["solve", "in.txt", "--csv", out])
            .assert()
            .code(1)
            .stderr(contains("same file as the input"));
        assert_intact(&input, &bytes);
    }
    assert!(!dir.path().join("sub").exists());
    // Standard input is an input too (`solve --csv in.txt < in.txt`).
    let out = std::process::Command::new(crate::common::bin())
        .current_dir(dir.path())
        .args(["solve", "--csv", "in.txt"])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));
    assert_intact(&input, &bytes);
    // A folder given as input: nothing may be written inside it.
    sudoku_bench()
        .arg("solve")
        .arg(dir.path())
        .arg("--csv")
        .arg(dir.path().join("new.csv"))
        .assert()
        .code(1)
        .stderr(contains("inside the input directory"));
}

/// Red-team findings: a folder walked as an input reached the run's own CSV through a
/// link and read its rows back (1.6 GB in 30 s); `> rows.csv` wrote the summary over
/// the rows with exit 0; a FIFO in a folder blocked the walk.
#[test]
fn the_runs_own_outputs_are_never_read_or_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = dataset(dir.path());
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::copy(&input, data.join("a.txt")).unwrap();
    // A link to an output that does not exist yet, and one to an output that does.
    std::os::unix::fs::symlink("../out.csv", data.join("z.csv")).unwrap();
    std::fs::write(dir.path().join("old.csv"), "x\n").unwrap();
    std::os::unix::fs::symlink("../old.csv", data.join("y.csv")).unwrap();
    let fifo = data.join("f.txt");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // The first run also reads y.csv (old.csv is no output of it): its one line, `x`, is
    // too short for any board's row, text, so the file holds no puzzle (no row).
    for (out, link, rows) in [("out.csv", "z.csv", 20), ("old.csv", "y.csv", 20)] {
        sudoku_bench_in(dir.path())
            .args(["solve", "data", "-q", "--no-progress", "--csv", out])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(3)
            .stderr(contains(format!("{link}: it is an output of this run")))
            .stderr(contains("f.txt: not a regular file"));
        let (_, got) = read_csv(&std::fs::read_to_string(dir.path().join(out)).unwrap());
        assert_eq!(got.len(), rows, "{out}: a.txt's 20 records");
        // Not an output of the next run: a dangling link there.
        std::fs::remove_file(dir.path().join(out)).unwrap();
    }
    // Standard output or error redirected onto an output.
    let csv = dir.path().join("rows.csv");
    for stderr in [false, true] {
        let file = std::fs::File::create(&csv).unwrap();
        let mut cmd = std::process::Command::new(crate::common::bin());
        cmd.args(["solve", "--no-progress", "--csv"])
            .arg(&csv)
            .arg(&input);
        match stderr {
            false => cmd.stdout(file),
            true => cmd.stderr(file),
        };
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "stderr redirected: {stderr}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(stderr || said.contains("(redirected there)"), "{said}");
    }
}

#[test]
fn two_outputs_naming_one_file_are_refused_even_before_it_exists() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    sudoku_bench_in(dir.path())
        .args([
            "solve",
            "in.txt",
            "--csv",
            "same.csv",
            "--solutions",
            "sub/../same.csv",
        ])
        .assert()
        .code(1)
        .stderr(contains("same output"));
    assert!(!dir.path().join("same.csv").exists());
    assert!(!dir.path().join("sub").exists());
    // Character devices are never the same data: both may go to /dev/null.
    sudoku_bench_in(dir.path())
        .args([
            "solve",
            "in.txt",
            "--csv",
            "/dev/null",
            "--solutions",
            "/dev/null",
        ])
        .assert()
        .success();
}

#[test]
fn no_bench_output_may_overwrite_a_dataset() {
    let dir = tempfile::tempdir().unwrap();
    let (input, bytes) = dataset(dir.path());
    for option in [
        "--export-csv",
        "--export-json",
        "--export-markdown",
        "--per-puzzle",
    ] {
        sudoku_bench_in(dir.path())
            .args(["bench", "in.txt", "--rounds", "1", option, "in.txt"])
            .assert()
            .code(1)
            .stderr(contains("same file as the input"));
        assert_intact(&input, &bytes);
    }
    // Two exports to one file.
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "in.txt",
            "--export-csv",
            "r.out",
            "--export-json",
            "r.out",
        ])
        .assert()
        .code(1)
        .stderr(contains("same output"));
}

#[test]
fn numbers_out_of_range_are_usage_errors_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let cases: &[&[&str]] = &[
        &["solve", "in.txt", "--timeout", "1e19"],
        &["solve", "in.txt", "--timeout", "1e308"],
        &["solve", "in.txt", "--timeout", "0"],
        &["solve", "in.txt", "--timeout", "NaN"],
        // Red-team: a limit below a microsecond stopped every puzzle, exit 0.
        &["solve", "in.txt", "--timeout", "1e-320"],
        &["bench", "in.txt", "--min-time", "1e-9"],
        // Red-team: an empty list quietly meant the default list.
        &["bench", "in.txt", "--backends", ""],
        &["solve", "in.txt", "-j", "100000"],
        &["solve", "in.txt", "--max-nodes", "0"],
        &["bench", "in.txt", "--min-time=-1"],
        &["bench", "in.txt", "--min-time", "NaN"],
        &["bench", "in.txt", "--min-time", "1e300"],
        &["bench", "in.txt", "--timeout", "1e19"],
        &["bench", "in.txt", "-j", "1,100000"],
        &["bench", "in.txt", "-j", "1,1"],
        &["bench", "in.txt", "--noise", "NaN"],
        &["bench", "in.txt", "--rounds", "0"],
        &["bench", "in.txt", "--backends", "dlx-static,dlx-static"],
        &["gen", "-j", "100000"],
        &["gen", "--min-clues", "5"],
        &["gen", "-b", "null"],
        &["judge", "poj3074", "--timeout=-1"],
        &["compare", "x", "--noise", "inf"],
    ];
    for args in cases {
        let out = sudoku_bench_in(dir.path()).args(*args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.contains("invalid value"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn baseline_names_are_checked_before_anything_is_measured() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let long = "a".repeat(300);
    for name in ["../x", long.as_str(), "evil.json", ".hidden", "a/b"] {
        sudoku_bench_in(dir.path())
            // A benchmark that would take minutes: the refusal must come first.
            .args([
                "bench",
                "in.txt",
                "--min-time",
                "600",
                "--save-baseline",
                name,
            ])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("--save-baseline"));
    }
    assert!(!dir.path().join("evil.json").exists());
    assert!(!dir.path().join("results").exists());
}

/// Saves a real baseline in `dir/results/baselines`, then plants altered copies of it.
fn plant(dir: &Path, changes: &[(&str, &str, serde_json::Value)]) {
    dataset(dir);
    sudoku_bench_in(dir)
        .args([
            "bench",
            "in.txt",
            "--backends",
            "dlx-static",
            "--rounds",
            "2",
        ])
        .args(["--save-baseline", "base"])
        .assert()
        .success();
    let base = dir.join("results/baselines/base.json");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(base).unwrap()).unwrap();
    for (name, pointer, value) in changes {
        let mut planted = run.clone();
        match planted.pointer_mut(pointer) {
            Some(v) => *v = value.clone(),
            // A field the run did not have: added to the object above it.
            None => {
                let (parent, key) = pointer.rsplit_once('/').unwrap();
                let object = planted.pointer_mut(parent).unwrap();
                object
                    .as_object_mut()
                    .unwrap()
                    .insert(key.into(), value.clone());
            }
        }
        let path = dir.join(format!("results/baselines/{name}.json"));
        std::fs::write(path, serde_json::to_vec(&planted).unwrap()).unwrap();
    }
}

#[test]
fn a_planted_baseline_is_refused_before_anything_runs() {
    use serde_json::json;
    let dir = tempfile::tempdir().unwrap();
    let planted: &[(&str, &str, serde_json::Value, &str)] = &[
        (
            "negtimeout",
            "/settings/timeout_s",
            json!(-1.0),
            "timeout_s",
        ),
        (
            "negmintime",
            "/settings/min_time_s",
            json!(-1.0),
            "min_time_s",
        ),
        (
            "zero",
            "/results/0/dataset/path",
            json!("/dev/zero"),
            "not a regular file",
        ),
        // A folder: all of it was read into memory before its hash was checked.
        (
            "folder",
            "/results/0/dataset/path",
            json!("/usr/bin"),
            "not a regular file",
        ),
        ("rounds", "/settings/rounds", json!(4294967295u64), "rounds"),
        ("threads", "/results/0/threads", json!(100000), "threads"),
        ("empty", "/results/0/rounds_ns", json!([]), "no rounds"),
        (
            "escape",
            "/results/0/backend",
            json!("dlx\u{1b}[2J"),
            "control character",
        ),
        (
            "code",
            "/results/0/backend",
            json!("exec:touch pwned"),
            "never from a file",
        ),
        (
            "follow",
            "/settings/input/solutions_follow",
            json!("maybe"),
            "input.solutions_follow",
        ),
        // A hash names a file of the build store: nothing else may stand there.
        (
            "kept",
            "/results/0/kept",
            json!([{"word": 0, "path": "x", "hash": "fnv1a64:../../../bin"}]),
            "not a content hash",
        ),
        // A built-in backend's name standing for another backend: a re-run would
        // measure the built-in one under it.
        (
            "labelled",
            "/results/0/spec",
            json!("dfs"),
            "is a built-in backend's name",
        ),
        (
            "refuted",
            "/results/0/verified",
            json!({"by": "bitboard", "confirmed": 0, "refuted": 5, "undecided": 0}),
            "refuted claims",
        ),
        ("load", "/results/0/load", json!(-3.0), "load"),
    ];
    let changes: Vec<(&str, &str, serde_json::Value)> = planted
        .iter()
        .map(|(n, p, v, _)| (*n, *p, v.clone()))
        .collect();
    plant(dir.path(), &changes);
    for (name, _, _, why) in planted {
        sudoku_bench_in(dir.path())
            .args(["compare", name])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(1)
            .stderr(contains(*why));
    }
    assert!(!dir.path().join("pwned").exists());
    // A run with no rounds is an error, never "no change".
    sudoku_bench_in(dir.path())
        .args(["compare", "base", "empty"])
        .assert()
        .code(1)
        .stderr(contains("no rounds"));
    // --list shows every one, the unreadable ones with why.
    sudoku_bench_in(dir.path())
        .args(["compare", "--list"])
        .assert()
        .success()
        .stdout(contains("base"))
        .stdout(contains("unreadable"));
}

#[test]
fn baselines_are_found_from_anywhere_in_the_project() {
    let dir = tempfile::tempdir().unwrap();
    plant(dir.path(), &[]);
    let sub = dir.path().join("deep/sub");
    std::fs::create_dir_all(&sub).unwrap();
    // From a subfolder: the baseline and its dataset (named relative to the project).
    sudoku_bench_in(&sub)
        .args(["compare", "base", "--noise", "1000"])
        .assert()
        .success()
        .stdout(contains("no regression"));
    sudoku_bench_in(&sub)
        .arg("bench")
        .arg(dir.path().join("in.txt"))
        .args(["--rounds", "1", "--save-baseline", "second"])
        .assert()
        .success();
    assert!(dir.path().join("results/baselines/second.json").exists());
    assert!(!sub.join("results").exists());
    // An explicit folder wins, and a missing name says where it looked.
    sudoku_bench_in(&sub)
        .args(["compare", "nothere", "--baselines-dir", "elsewhere"])
        .assert()
        .code(1)
        .stderr(contains("no baseline \"nothere\""))
        .stderr(contains("elsewhere"));
}

#[test]
fn unfinished_searches_leave_the_count_empty_in_the_solutions_file() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = dataset(dir.path());
    let solved = dir.path().join("null.solved");
    sudoku_bench()
        .args(["solve", "-q", "-b", "null", "--solutions"])
        .arg(&solved)
        .arg(&input)
        .assert()
        .success();
    let text = std::fs::read_to_string(&solved).unwrap();
    assert!(text.lines().all(|l| l.ends_with("::")), "{text}");
    // Read back, it claims nothing: no mismatch, exit 0.
    sudoku_bench()
        .args(["solve", "-q"])
        .arg(&solved)
        .assert()
        .success();
}

#[test]
fn rows_to_a_closed_standard_output_are_an_error() {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(crate::common::bin());
    cmd.args(["solve", "--csv", "-"])
        .arg(project_file("tests/data/crlf.txt"))
        .stderr(std::process::Stdio::piped());
    // SAFETY: close(2) is async-signal-safe; nothing else runs in the child before exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is closed"));
}

/// Two runs given one `--csv` tore its rows and lost about a quarter of them, both
/// exiting 0: a file another run is writing (it holds the lock) is refused, untouched.
#[test]
fn a_csv_another_run_is_writing_is_refused() {
    use std::os::fd::AsRawFd;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    std::fs::write(&csv, "the other run's rows\n").unwrap();
    let other = std::fs::OpenOptions::new().write(true).open(&csv).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(other.as_raw_fd(), libc::LOCK_EX) }, 0);
    sudoku_bench()
        .args(["solve", "-b", "null", "--csv"])
        .arg(&csv)
        .arg(project_file("tests/data/crlf.txt"))
        .assert()
        .code(1)
        .stderr(contains("another run is writing"));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "the other run's rows\n"
    );
    drop(other);
    sudoku_bench()
        .args(["solve", "-b", "null", "--csv"])
        .arg(&csv)
        .arg(project_file("tests/data/crlf.txt"))
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .starts_with("source,")
    );
}

/// The final message to a closed standard error (`2>&1 | head -0`) panicked: exit 101
/// instead of the run's own status.
#[test]
fn a_closed_standard_error_is_no_panic() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "y".repeat(100) + "\n").unwrap();
    let mut cmd = std::process::Command::new(crate::common::bin());
    cmd.args(["solve", "--csv"])
        .arg(dir.path().join("rows.csv"))
        .arg(&bad);
    // SAFETY: pipe, close and dup2 are async-signal-safe; nothing else runs before exec.
    unsafe {
        cmd.pre_exec(|| {
            // Standard error is a pipe nobody reads: every write to it fails (EPIPE).
            let mut fds = [0; 2];
            libc::pipe(fds.as_mut_ptr());
            libc::close(fds[0]);
            libc::dup2(fds[1], 2);
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_whole_rows(&dir.path().join("rows.csv"));
}

/// A file size limit makes the disk "full" after `bytes`, for a child process only.
/// SIGXFSZ keeps its default action (it killed the run mid-row, with no message): the
/// tool must turn it into a write error itself.
fn solve_with_file_limit(args: &[&std::ffi::OsStr], bytes: u64) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(crate::common::bin());
    cmd.args(args);
    // SAFETY: setrlimit and signal are async-signal-safe; nothing else runs before exec.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            Ok(())
        });
    }
    cmd.output().unwrap()
}

fn assert_whole_rows(csv: &Path) -> usize {
    let bytes = std::fs::read(csv).unwrap();
    assert!(bytes.ends_with(b"\n"), "the CSV ends mid-row");
    let (header, rows) = read_csv(&String::from_utf8(bytes).unwrap());
    assert!(rows.iter().all(|r| r.len() == header.len()));
    rows.len()
}

#[test]
fn a_full_disk_leaves_whole_rows_and_says_the_file_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("out.csv");
    let input = project_file("datasets/generated-3000.txt");
    let out = solve_with_file_limit(
        &[
            "solve".as_ref(),
            input.as_os_str(),
            "--csv".as_ref(),
            csv.as_os_str(),
            "-j1".as_ref(),
        ],
        100_000,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(csv.to_str().unwrap()), "{stderr}");
    assert!(stderr.contains("partial"), "{stderr}");
    let rows = assert_whole_rows(&csv);
    assert!(rows > 0 && rows < 3000, "{rows}");
    assert!(
        stderr.contains(&format!("{} whole rows", rows + 1)),
        "{stderr}"
    );
}

#[test]
fn a_full_tmpfs_leaves_whole_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&mnt)
        .output()
        .is_ok_and(|o| o.status.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    }
    let csv = mnt.join("out.csv");
    let out = sudoku_bench()
        .arg("solve")
        .arg(project_file("datasets/generated-3000.txt"))
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let rows = assert_whole_rows(&csv);
    let _ = std::process::Command::new("umount").arg(&mnt).status();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("partial"), "{stderr}");
    assert!(rows < 3000);
}

/// Red-team findings: a foreign solver that answers `1:` (a count, no grid) was trusted:
/// `solve` said `unique` with exit 0, and `gen` wrote puzzles labelled unique that were
/// not; one that says "no solution" to everything made `gen` write full grids, exit 0.
#[test]
fn a_solver_that_claims_without_showing_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = dataset(dir.path());
    let claims = "exec:sh -c 'while read p; do echo 1:; done'";
    sudoku_bench()
        .args(["solve", "-q", "-j1", "--no-progress", "-b", claims])
        .arg(&input)
        .assert()
        .code(4);
    for liar in [claims, "exec:sh -c 'while read p; do echo 0; done'"] {
        let out = dir.path().join("gen.txt");
        sudoku_bench()
            .args([
                "gen", "--count", "2", "--seed", "1", "-j1", "-b", liar, "-o",
            ])
            .arg(&out)
            .assert()
            .code(4);
        // Whatever it wrote is unique by dlx-static's count.
        sudoku_bench()
            .args(["solve", "-q", "-b", "dlx-static"])
            .arg(&out)
            .assert()
            .code(0);
    }
}

/// Red-team finding: a program's stderr reached the terminal raw in messages (an escape
/// sequence could clear the screen or rewrite the line).
#[test]
fn a_programs_stderr_cannot_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = dataset(dir.path());
    let out = sudoku_bench()
        .args(["solve", "-j1", "--no-progress", "--csv", "-", "-b"])
        .arg(r"exec:sh -c 'read p; printf \033[2J\033[31mEVIL\rX\a >&2; exit 7'")
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let all = [out.stdout, out.stderr].concat();
    assert!(String::from_utf8_lossy(&all).contains("EVIL"));
    assert!(!all.iter().any(|&b| b == 0x1b || b == 0x07 || b == b'\r'));
}

/// A file in a folder named with an escape sequence or a bidirectional override: the
/// name in every message, table and row is shown with U+FFFD in their place.
#[cfg(unix)]
#[test]
fn a_file_name_cannot_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = dataset(dir.path());
    let folder = dir.path().join("in");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(&input, folder.join("good.txt")).unwrap();
    std::fs::write(folder.join("a\u{1b}[2Jred\u{202E}txt.exe.txt"), "junk\n").unwrap();
    let out = sudoku_bench()
        .args(["solve", "-j1", "--no-progress", "--csv", "-"])
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let all = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
    assert!(
        all.contains("red\u{FFFD}txt.exe.txt: no line of it holds a puzzle"),
        "{all}"
    );
    assert!(
        !all.contains('\u{1b}') && !all.contains('\u{202E}'),
        "{all}"
    );
}
