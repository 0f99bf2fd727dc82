//! Ctrl-C and SIGTERM in every command: sent to a child process after a handshake (a
//! row written, a pipe drained, a file created), never after a bare sleep.
#![cfg(unix)]

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{project_file, read_csv};

fn binary() -> Command {
    let mut cmd = Command::new(crate::common::bin());
    let builds = Path::new(env!("CARGO_TARGET_TMPDIR")).join("builds");
    cmd.env("SUDOKU_BENCH_BUILDS", builds);
    cmd
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: kill(2) with the pid of our own child process.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(rc, 0);
}

/// Waits until `ready` holds, for at most a minute.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The exit code, waiting at most a minute (a child that ignores the signal fails).
fn exit_code(child: &mut Child) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the child did not stop");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A pipe's capacity in bytes.
#[cfg(target_os = "linux")]
fn pipe_size(fd: &impl AsRawFd) -> usize {
    // SAFETY: F_GETPIPE_SZ takes no argument and only returns a number.
    let n = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETPIPE_SZ) };
    assert!(n > 0, "F_GETPIPE_SZ: {}", std::io::Error::last_os_error());
    n as usize
}

/// A pipe's capacity in bytes: elsewhere, the common 64 KiB.
#[cfg(not(target_os = "linux"))]
fn pipe_size(_: &impl AsRawFd) -> usize {
    64 * 1024
}

/// Bytes waiting in a pipe.
fn unread(fd: &impl AsRawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int through the valid pointer.
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut n) };
    assert_eq!(rc, 0);
    n as usize
}

fn lines_of(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

fn puzzles(n: usize) -> String {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    text.lines()
        .skip(1)
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn an_endless_input_stops_at_the_first_interrupt() {
    let dir = tempfile::tempdir().unwrap();
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let csv = dir.path().join(format!("z{sig}.csv"));
        let mut child = binary()
            .args(["solve", "/dev/zero", "--csv"])
            .arg(&csv)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for("the CSV header", || lines_of(&csv) == 1);
        signal(&child, sig);
        assert_eq!(exit_code(&mut child), Some(130));
    }
}

#[test]
fn an_interrupt_during_format_detection_keeps_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let csv = dir.path().join("out.csv");
    let mut child = binary()
        .arg("solve")
        .arg(&fifo)
        .arg("--csv")
        .arg(&csv)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Opening the FIFO returns once the child has opened it too.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all(puzzles(3).as_bytes()).unwrap();
    // Three records, far less than the 8 KiB detection looks at, and no end of input.
    wait_for("the child to read the pipe", || unread(&writer) == 0);
    signal(&child, libc::SIGINT);
    assert_eq!(exit_code(&mut child), Some(130));
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let (_, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 3);
    assert!(stdout.contains("stopped after 3 records"), "{stdout}");
}

#[test]
fn a_second_interrupt_never_cuts_a_row_going_to_a_slow_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    std::fs::write(&big, puzzles(3000).repeat(10)).unwrap();
    let mut child = binary()
        .arg("solve")
        .arg(&big)
        .args(["--csv", "-", "-j", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 200];
    stdout.read_exact(&mut first).unwrap();
    // Stop reading until the pipe is full: the child is then blocked writing a chunk.
    // Full for this pipe: its size, or where its pages' fill leaves it (a page partly
    // read is not written to again), the same count for 100 ms. The kernel makes a
    // new pipe two pages instead of 16 when the user's pipes hold too much already
    // (other tests' children, on a busy machine).
    let size = pipe_size(&stdout);
    let (mut last, mut since) = (0, Instant::now());
    wait_for("a full pipe", || {
        let n = unread(&stdout);
        if n != last {
            (last, since) = (n, Instant::now());
        }
        n >= size * 15 / 16 || (n >= 1024 && since.elapsed() >= Duration::from_millis(100))
    });
    signal(&child, libc::SIGINT);
    let mut stderr = child.stderr.take().unwrap();
    let mut said = Vec::new();
    wait_for("the first interrupt's message", || {
        let mut b = [0u8; 256];
        let n = stderr.read(&mut b).unwrap();
        said.extend_from_slice(&b[..n]);
        String::from_utf8_lossy(&said).contains("interrupted")
    });
    signal(&child, libc::SIGINT);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert_eq!(exit_code(&mut child), Some(130));
    let mut all = first.to_vec();
    all.extend(rest);
    assert!(all.ends_with(b"\n"), "the output ends mid-row");
    let (header, rows) = read_csv(&String::from_utf8(all).unwrap());
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.len() == header.len()));
}

/// `bench d.txt` of dlx-static and dfs, 3 rounds, with `more` options, in `dir`:
/// Ctrl-C once `export` is written (after the first result), and what it left.
fn bench_interrupted_after_a_result(
    dir: &Path,
    more: &[&str],
    export: &Path,
) -> std::process::Output {
    let child = binary()
        .current_dir(dir)
        .args([
            "bench",
            "small.txt",
            "d.txt",
            "--backends",
            "dlx-static,dfs",
            "--rounds",
            "3",
        ])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the first result", || export.exists());
    signal(&child, libc::SIGINT);
    child.wait_with_output().unwrap()
}

#[test]
fn an_interrupted_bench_keeps_its_table_exports_and_a_partial_baseline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.txt"), puzzles(20)).unwrap();
    std::fs::write(dir.path().join("d.txt"), puzzles(3000)).unwrap();
    let export = dir.path().join("e.json");
    // Exports are rewritten after each dataset's results: the first dataset's are done.
    let more = ["--export-json", "e.json", "--save-baseline", "cut"];
    let out = bench_interrupted_after_a_result(dir.path(), &more, &export);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("dlx-static") && stdout.contains("PARTIAL"),
        "{stdout}"
    );
    assert!(stdout.contains("saved partial baseline"), "{stdout}");
    let saved = dir.path().join("results/baselines/cut.json");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(run["partial"], true);
    assert!(!run["results"].as_array().unwrap().is_empty());
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(export).unwrap()).unwrap();
    assert_eq!(exported["partial"], true);

    // Red-team finding: an interrupted `--save-baseline NAME --force` replaced a good
    // baseline with an empty one. A partial run never replaces one: the saved baseline
    // is kept byte for byte.
    let saved = dir.path().join("results/baselines/cut.json");
    let before = std::fs::read(&saved).unwrap();
    let export = dir.path().join("e2.json");
    let out = bench_interrupted_after_a_result(
        dir.path(),
        &[
            "--save-baseline",
            "cut",
            "--force",
            "--no-progress",
            "--export-json",
            "e2.json",
        ],
        &export,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("not saved"), "{stderr}");
    assert_eq!(std::fs::read(&saved).unwrap(), before);
}

#[test]
fn an_interrupted_judge_answers_the_cases_it_read() {
    let mut child = binary()
        .args(["judge", "poj3074"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let cases: String = puzzles(2)
        .lines()
        .map(|l| format!("{}\n", &l[..81]))
        .collect();
    stdin.write_all(cases.as_bytes()).unwrap();
    wait_for("the child to read its input", || unread(&stdin) == 0);
    signal(&child, libc::SIGINT);
    assert_eq!(exit_code(&mut child), Some(130));
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().all(|l| l.len() == 81));
}

/// The worker exited 0 when interrupted: it answers what it read and exits 130.
#[test]
fn an_interrupted_worker_exits_130_after_its_answers() {
    let mut child = binary()
        .args(["worker", "-b", "dlx-static"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let line = format!("{}\n", &puzzles(1)[..81]);
    stdin.write_all(line.as_bytes()).unwrap();
    // Its answer came: it reads the next line now (its input stays open).
    let mut answer = [0u8; 2];
    stdout.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"1:");
    signal(&child, libc::SIGINT);
    assert_eq!(exit_code(&mut child), Some(130));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(rest.contains(" ns="), "{rest}");
}

#[test]
fn an_interrupted_gen_writes_whole_blocks_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gen.txt");
    let mut child = binary()
        .args(["gen", "--count", "100000000", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the first block", || lines_of(&out) > 1);
    signal(&child, libc::SIGTERM);
    assert_eq!(exit_code(&mut child), Some(130));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    let puzzles = text.lines().count() - 1;
    assert_eq!(puzzles % 1024, 0, "{puzzles}");
}

/// SIGKILL of the tool left the `exec:` programs it started running for ever; a
/// parent-death signal now ends them with it (Linux).
#[cfg(target_os = "linux")]
#[test]
fn programs_die_with_a_killed_tool() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hang.sh");
    std::fs::write(&script, "#!/bin/sh\necho $$ > \"$1\"\nexec sleep 300\n").unwrap();
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    let pid_file = dir.path().join("pid");
    let mut child = binary()
        .args(["solve", "-q", "-j1", "--csv", "/dev/null", "-b"])
        .arg(format!("exec:{} {}", script.display(), pid_file.display()))
        .arg(project_file("datasets/generated-3000.txt"))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the program to start", || {
        std::fs::read_to_string(&pid_file).is_ok_and(|s| s.ends_with('\n'))
    });
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    // Gone, or a zombie nobody reaps (a container's first process may not).
    wait_for("the program to die", || {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .map_or(true, |s| s.contains("State:\tZ"))
    });
}

/// The processes whose parent is `pid`, with their command lines.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        // `pid (comm) state ppid ...`: the name may hold spaces, the fields after do not.
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        if after.split_whitespace().nth(1) == Some(&pid.to_string()) {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            out.push((child, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    out
}

/// Red-team finding: Ctrl-C while `--instructions` counted lost the whole run (exit 1:
/// the count's child died and its failure was an error): no table, no baseline, no
/// history, no HTML. Now the measurements are kept and written, and it exits 130.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupt_during_the_instruction_count_keeps_the_run() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.txt"), puzzles(2000)).unwrap();
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let html = format!("r{sig}.html");
        let child = binary()
            .current_dir(dir.path())
            .args([
                "bench",
                "d.txt",
                "--backends",
                "dlx-static",
                "--rounds",
                "1",
            ])
            .args(["--instructions", "2000", "--no-progress", "--record"])
            .args(["--save-baseline", &format!("cut{sig}"), "--html", &html])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut counter = None;
        wait_for("the instruction count", || {
            counter = children(child.id())
                .into_iter()
                .find(|(_, cmd)| cmd.contains("count-instructions"));
            counter.is_some()
        });
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
        assert!(
            stdout.contains("dlx-static") && stdout.contains("PARTIAL"),
            "{stdout}"
        );
        let saved = dir.path().join(format!("results/baselines/cut{sig}.json"));
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
        assert_eq!(run["partial"], true);
        assert_eq!(run["results"].as_array().unwrap().len(), 1);
        let history = std::fs::read_to_string(dir.path().join("results/history.jsonl")).unwrap();
        assert!(history.lines().count() >= 1, "{history}");
        assert!(std::fs::metadata(dir.path().join(&html)).unwrap().len() > 0);
        // valgrind was killed with the run, not left counting.
        let (pid, _) = counter.unwrap();
        wait_for("valgrind to die", || {
            std::fs::read_to_string(format!("/proc/{pid}/status"))
                .map_or(true, |s| s.contains("State:\tZ"))
        });
    }
}

/// Bytes this process has read so far (`rchar` of `/proc/PID/io`).
#[cfg(target_os = "linux")]
fn bytes_read(child: &Child) -> u64 {
    let io = std::fs::read_to_string(format!("/proc/{}/io", child.id())).unwrap_or_default();
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .map_or(0, |n| n.parse().unwrap())
}

/// Red-team finding: `history` ignored Ctrl-C and SIGTERM (read, analysed and showed
/// everything, exit 0). Now reading stops at once: nothing shown, exit 130.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupt_while_reading_the_history_stops_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.jsonl");
    let line = r#"{"format_version":1,"date":"2025-01-01T00:00:00Z","version":"0.1.0","revision":"abc","source":"record","machine":"cpu x2","backend":"B","dataset":"d.txt","dataset_hash":"h","puzzles":10,"threads":1,"rounds":3,"max_solutions":2,"us_per_puzzle":10.0,"puzzles_per_s":1e5,"spread_pct":1.0,"wrong":0,"nodes_per_puzzle":null,"guesses_per_puzzle":null}"#;
    // 25 MB: reading it takes a while after the first 4 MB.
    let text: String = (0..60_000)
        .map(|n| format!("{}\n", line.replace("\"B\"", &format!("\"b{n}\""))))
        .collect();
    std::fs::write(&file, text).unwrap();
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let child = binary()
            .args(["history", "--file"])
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for("the history being read", || bytes_read(&child) > 4 << 20);
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{stderr}");
        assert!(stderr.contains("nothing shown"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

/// Red-team finding: with another process holding the history's lock, `bench --record`
/// waited without a word, Ctrl-C did not end the wait, and it exited 0. It says what it
/// waits for, and the first Ctrl-C ends the wait with exit 130, the history untouched.
#[test]
fn a_wait_for_the_history_lock_is_said_and_ends_at_the_first_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.txt"), puzzles(20)).unwrap();
    let history = dir.path().join("h.jsonl");
    std::fs::write(&history, "").unwrap();
    let held = std::fs::File::open(&history).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX) }, 0);
    let mut child = binary()
        .current_dir(dir.path())
        .args([
            "bench",
            "d.txt",
            "--backends",
            "dlx-static",
            "--rounds",
            "1",
        ])
        .args(["--no-progress", "--record", "--history", "h.jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut buf) {
            all.extend_from_slice(&buf[..n]);
            let _ = tx.send(String::from_utf8_lossy(&all).into_owned());
        }
    });
    let mut said = String::new();
    wait_for("the wait to be said", || {
        while let Ok(s) = rx.try_recv() {
            said = s;
        }
        said.contains("waiting for another run to finish writing h.jsonl")
    });
    signal(&child, libc::SIGINT);
    assert_eq!(exit_code(&mut child), Some(130), "{said}");
    drop(held);
    assert_eq!(std::fs::read(&history).unwrap(), b"");
}
