//! Foreign solvers: a small C solver (tests/data/foreign/solver.c), compiled here with
//! the system C compiler, behind `exec:` and `lib:`, in honest, wrong, crashing and
//! hanging variants, and as online-judge submissions.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::contains;
use crate::common::{field, project_file, read_csv, stdout_csv, sudoku_bench};

/// The compiled variants, built once for the whole test binary.
fn built() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let src = project_file("tests/data/foreign/solver.c");
        let variants: &[(&str, &[&str])] = &[
            ("good", &[]),
            ("bare", &["-DBARE"]),
            ("wrong", &["-DWRONG"]),
            ("crash", &["-DCRASH"]),
            ("hang", &["-DHANG"]),
            ("poj", &["-DPOJ3074"]),
            ("hdu", &["-DHDU1426"]),
            ("libgood.so", &["-DLIBRARY", "-shared", "-fPIC"]),
            ("libwrong.so", &["-DLIBRARY", "-DWRONG", "-shared", "-fPIC"]),
            ("libcrash.so", &["-DLIBRARY", "-DCRASH", "-shared", "-fPIC"]),
            (
                "liblate.so",
                &[
                    "-DLIBRARY",
                    "-DSOLUTION_ONLY_AT_LIMIT_1",
                    "-shared",
                    "-fPIC",
                ],
            ),
            ("silent", &["-DSILENT"]),
            ("first-only", &["-DFIRST_ONLY"]),
            ("tdoku-example", &["-DTDOKU_EXAMPLE"]),
            (
                "libnothing.so",
                &["-DLIBRARY", "-DNOTHING", "-shared", "-fPIC"],
            ),
            (
                "libturns.so",
                &["-DLIBRARY", "-DWRONG_AFTER=80", "-shared", "-fPIC"],
            ),
            (
                "libthreaded.so",
                &["-DLIBRARY", "-DTHREADED", "-shared", "-fPIC", "-pthread"],
            ),
            (
                "libnoguess.so",
                &["-DLIBRARY", "-DNO_GUESSES", "-shared", "-fPIC"],
            ),
            (
                "libsecond.so",
                &["-DLIBRARY", "-DSEARCH_IN_SECOND", "-shared", "-fPIC"],
            ),
            (
                "libslower.so",
                &["-DLIBRARY", "-DSLOWER=100", "-shared", "-fPIC"],
            ),
            ("slower", &["-DSLOWER=100"]),
            (
                "libslowsecond.so",
                &[
                    "-DLIBRARY",
                    "-DSOLUTION_ONLY_AT_LIMIT_1",
                    "-DSLOW_AT_LIMIT_1",
                    "-shared",
                    "-fPIC",
                ],
            ),
        ];
        for (name, flags) in variants {
            let status = Command::new("cc")
                .arg("-O2")
                .args(*flags)
                .arg("-o")
                .arg(dir.join(name))
                .arg(&src)
                .status()
                .expect("a C compiler (cc) is needed: every Rust toolchain links with one");
            assert!(status.success(), "compiling {name}");
        }
        dir
    })
}

fn exec(name: &str) -> String {
    format!("exec:{}", built().join(name).display())
}

fn lib(name: &str) -> String {
    format!("lib:{}:solve", built().join(name).display())
}

/// A sample of the shipped dataset with some puzzles whose first cell is `1` (the
/// trigger of the misbehaving variants); returns the file and how many those are.
fn sample(dir: &Path, n: usize) -> (PathBuf, usize) {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(n).collect();
    let triggers = lines.iter().filter(|l| l.starts_with('1')).count();
    assert!(triggers > 0, "the sample needs trigger puzzles");
    let path = dir.join("sample.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    (path, triggers)
}

fn statuses(header: &[String], rows: &[Vec<String>], status: &str) -> usize {
    rows.iter()
        .filter(|r| field(header, r, "status") == status)
        .count()
}

#[test]
fn an_honest_program_and_library_match_the_built_in_backends() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = sample(dir.path(), 300);
    // The C solver keeps global state: its library runs on one thread (the default).
    for (backend, status, threads) in [
        (exec("good"), "unique", "2"),
        (exec("bare"), "solved", "2"),
        (lib("libgood.so"), "unique", "1"),
        (lib("liblate.so"), "unique", "1"),
    ] {
        for mode in ["per-puzzle", "stream"] {
            let out = sudoku_bench()
                .args([
                    "solve",
                    "-q",
                    "--csv",
                    "-",
                    "-j",
                    threads,
                    "--exec-mode",
                    mode,
                ])
                .args(["-b", &backend])
                .arg(&path)
                .assert()
                .success();
            let (header, rows) = stdout_csv(&out);
            assert_eq!(statuses(&header, &rows, status), 300, "{backend} {mode}");
            // Every answer compared with the file's own.
            assert!(
                rows.iter()
                    .all(|r| field(&header, r, "matches_expected") == "true")
            );
            assert!(rows.iter().all(|r| field(&header, r, "backend") == backend));
        }
    }
}

#[test]
fn a_wrong_solver_is_caught_and_the_first_wrong_puzzle_shown() {
    let dir = tempfile::tempdir().unwrap();
    let (path, triggers) = sample(dir.path(), 200);
    for backend in [exec("wrong"), lib("libwrong.so")] {
        let out = sudoku_bench()
            .args(["solve", "-j1", "--csv"])
            .arg(dir.path().join("w.csv"))
            .args(["-b", &backend])
            .arg(&path)
            .assert()
            .code(4);
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(stdout.contains("first wrong answer"), "{stdout}");
        let (header, rows) = read_csv(&std::fs::read_to_string(dir.path().join("w.csv")).unwrap());
        let wrong = rows
            .iter()
            .filter(|r| field(&header, r, "valid") == "false")
            .count();
        assert_eq!(wrong, triggers, "{backend}");
    }
}

#[test]
fn a_crashing_program_costs_one_puzzle_per_crash_and_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let (path, triggers) = sample(dir.path(), 200);
    for mode in ["per-puzzle", "stream"] {
        let out = sudoku_bench()
            .args([
                "solve",
                "-q",
                "--csv",
                "-",
                "-j",
                "2",
                "--exec-mode",
                mode,
                "-b",
                &exec("crash"),
            ])
            .arg(&path)
            .assert()
            .code(4);
        let (header, rows) = stdout_csv(&out);
        assert_eq!(rows.len(), 200);
        let errors: Vec<&Vec<String>> = rows
            .iter()
            .filter(|r| field(&header, r, "status") == "error")
            .collect();
        if mode == "per-puzzle" {
            assert_eq!(errors.len(), triggers);
            assert_eq!(statuses(&header, &rows, "unique"), 200 - triggers);
            let why = field(&header, errors[0], "error");
            assert!(why.contains("exited") && why.contains("signal"), "{why}");
        } else {
            // A stream loses the puzzles in flight when the program dies.
            assert!(errors.len() >= triggers, "{}", errors.len());
        }
    }
}

#[test]
fn a_hanging_program_is_killed_at_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let (path, triggers) = sample(dir.path(), 60);
    let start = std::time::Instant::now();
    let out = sudoku_bench()
        .args([
            "solve",
            "-q",
            "--csv",
            "-",
            "-j",
            "2",
            "--timeout",
            "0.2",
            "-b",
            &exec("hang"),
        ])
        .arg(&path)
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    assert_eq!(statuses(&header, &rows, "budget_exceeded"), triggers);
    assert_eq!(statuses(&header, &rows, "unique"), 60 - triggers);
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    let timed_out = rows
        .iter()
        .find(|r| field(&header, r, "status") == "budget_exceeded")
        .unwrap();
    assert_eq!(field(&header, timed_out, "error"), "timed out after 200ms");
}

#[test]
fn a_crashing_library_ends_the_run_naming_itself_and_the_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = sample(dir.path(), 200);
    let csv = dir.path().join("lib.csv");
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv"])
        .arg(&csv)
        .args(["-b", &lib("libcrash.so")])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("libcrash.so") && stderr.contains("crashed on puzzle 1"),
        "{stderr}"
    );
    // Whatever was written before is whole rows.
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.ends_with('\n'));
}

#[test]
fn judge_submissions_are_checked_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = sample(dir.path(), 300);
    for (judge, name) in [("poj3074", "poj"), ("hdu1426", "hdu")] {
        let backend = format!("exec:{judge}:{}", built().join(name).display());
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-", "-j", "2", "-b", &backend])
            .arg(&path)
            .assert()
            .success();
        let (header, rows) = stdout_csv(&out);
        assert_eq!(statuses(&header, &rows, "solved"), 300, "{judge}");
        // Its cases are timed by the batch: the summary says how the limit applied.
        let clocks: Vec<&str> = rows.iter().map(|r| field(&header, r, "clock")).collect();
        assert!(clocks.iter().all(|&c| c == "batch"), "{judge}: {clocks:?}");
        assert!(
            rows.iter()
                .all(|r| field(&header, r, "matches_expected") == "true"),
            "{judge}"
        );
    }
    let out = sudoku_bench()
        .args(["solve", "-j", "1", "--timeout", "0.5", "-b"])
        .arg(format!("exec:poj3074:{}", built().join("poj").display()))
        .arg(&path)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.contains("the time limit applies to each batch as a whole: up to 1000 cases a process, 0.5 s a case"),
        "{stdout}"
    );
    // A submission that prints nothing for a case claims no solution: the verifier
    // refutes it (it was `no_solution` and, without expected answers, exit 0).
    let script = dir.path().join("half.sh");
    std::fs::write(&script, "#!/bin/sh\nhead -n 1\n").unwrap();
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-", "-j", "1", "-b"])
        .arg(format!("exec:poj3074:sh {}", script.display()))
        .arg(&path)
        .assert()
        .code(4);
    let (header, rows) = stdout_csv(&out);
    // (The first case of each batch is answered with the case itself: an error.)
    assert_eq!(statuses(&header, &rows, "no_solution"), 0);
    let errors = statuses(&header, &rows, "error");
    assert!(errors >= 1);
    assert_eq!(statuses(&header, &rows, "refuted"), 300 - errors);
    let refuted = rows
        .iter()
        .find(|r| field(&header, r, "status") == "refuted")
        .unwrap();
    assert_eq!(field(&header, refuted, "verified"), "false");
    assert!(
        field(&header, refuted, "error")
            .ends_with("claimed no solution; bitboard found exactly one solution"),
        "{refuted:?}"
    );
}

#[test]
fn the_built_in_worker_speaks_the_protocol() {
    let worker = format!(
        "exec:{} worker -b dlx-arena",
        crate::common::bin().display()
    );
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-", "-j", "2", "-b", &worker])
        .arg(project_file("tests/data/mixed.txt"))
        .assert()
        .code(3);
    let (header, rows) = stdout_csv(&out);
    let got: Vec<&str> = rows.iter().map(|r| field(&header, r, "status")).collect();
    assert_eq!(
        got,
        [
            "unique",
            "no_solution",
            "multiple",
            "invalid_givens",
            "parse_error",
            "parse_error",
            "unique"
        ]
    );
}

/// `worker < f >> f` read its own answers back as puzzles and grew the file without
/// end: an output that is its input is refused.
#[cfg(unix)]
#[test]
fn the_worker_refuses_to_write_into_its_own_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.txt");
    let text = std::fs::read_to_string(project_file("tests/data/mixed.txt")).unwrap();
    std::fs::write(&path, &text).unwrap();
    let input = std::fs::File::open(&path).unwrap();
    let output = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let out = std::process::Command::new(crate::common::bin())
        .arg("worker")
        .stdin(input)
        .stdout(output)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("standard output is the file standard input reads")
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_shell_pipeline_and_a_python_one_liner_are_solvers_too() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = sample(dir.path(), 50);
    // Answers nothing useful: "0" for every puzzle; caught as wrong (the file has answers).
    let out = sudoku_bench()
        .args([
            "solve",
            "-q",
            "-j1",
            "-b",
            "exec:sh -c 'while read p; do echo 0; done'",
        ])
        .arg(&path)
        .assert()
        .code(4);
    drop(out);
    if Command::new("python3").arg("--version").output().is_ok() {
        let py = "import sys\nfor line in sys.stdin:\n    print('0', flush=True)\n";
        let script = dir.path().join("zero.py");
        std::fs::write(&script, py).unwrap();
        sudoku_bench()
            .args(["solve", "-q", "-j1", "-b"])
            .arg(format!("exec:python3 {}", script.display()))
            .arg(&path)
            .assert()
            .code(4);
    }
}

#[test]
fn unknown_programs_and_libraries_are_refused_before_anything_runs() {
    for backend in [
        "exec:no-such-program-anywhere",
        "lib:./nope.so:solve",
        "exec:sh -c 'unclosed",
    ] {
        sudoku_bench()
            .args(["solve", "-b", backend, "-"])
            .write_stdin("")
            .assert()
            .code(2);
    }
    let good = lib("libgood.so");
    sudoku_bench()
        .args(["solve", "-j", "2", "-b", &good, "-"])
        .write_stdin("")
        .assert()
        .code(2);
    let missing_symbol = format!("lib:{}:nosuch", built().join("libgood.so").display());
    sudoku_bench()
        .args(["solve", "-b", &missing_symbol, "-"])
        .write_stdin("")
        .assert()
        .code(2);
}

/// The first `n` puzzles of the shipped dataset, in a file.
fn first(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(n).collect();
    let path = dir.join("first.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Writes `body` as an executable shell script `name` in `dir`; returns its `exec:` spec
/// (with `prefix`, e.g. `poj3074:`, for a judge protocol).
fn script(dir: &Path, name: &str, prefix: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("exec:{prefix}{}", path.display())
}

/// `solve -j1` of `path` with the backend `spec` and `more` options, CSV on stdout, the
/// whole run bounded by a minute.
fn solve_with(spec: &str, path: &Path, more: &[&str]) -> crate::common::Assert {
    sudoku_bench()
        .timeout(std::time::Duration::from_secs(60))
        .args(["solve", "-q", "--csv", "-", "-j1", "-b", spec])
        .args(more)
        .arg(path)
        .assert()
}

/// The statuses of the rows and the errors they carry.
fn summary(out: &crate::common::Assert) -> (Vec<String>, Vec<String>) {
    let (header, rows) = stdout_csv(out);
    let statuses = rows.iter().map(|r| field(&header, r, "status").to_string());
    let errors = rows.iter().map(|r| field(&header, r, "error").to_string());
    (
        statuses.collect(),
        errors.filter(|e| !e.is_empty()).collect(),
    )
}

/// `yes 0` answers at once and never reads: once its input pipe (64 KiB, some 800
/// puzzles) is full, writing the next puzzle used to block for ever, past `--timeout`.
/// Now the writing waits with the answer, and an answer to a puzzle that could not be
/// written is an error.
#[test]
fn a_program_that_answers_without_reading_never_hangs_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 1500);
    let out = solve_with("exec:yes 0", &path, &["--timeout", "2"]).code(4);
    let (statuses, errors) = summary(&out);
    assert_eq!(statuses.len(), 1500);
    assert!(!errors.is_empty());
    assert!(
        errors
            .iter()
            .filter(|e| !e.starts_with("expected") && !e.contains("claimed no solution"))
            .all(|e| e.contains("answered before reading its puzzle")),
        "{errors:?}"
    );
}

/// A program that exits 3 while a child it started keeps its output open is an error
/// naming its exit and stderr, not a timeout.
#[test]
fn a_program_that_exits_under_a_lingering_child_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 2);
    let spec = script(
        dir.path(),
        "dies.sh",
        "",
        "sleep 100 &\nread line\necho boom >&2\nexit 3\n",
    );
    let out = solve_with(&spec, &path, &["--timeout", "5"]).code(4);
    let (statuses, errors) = summary(&out);
    assert_eq!(statuses, ["error", "error"]);
    for e in &errors {
        assert!(
            e.contains("exited (exit status: 3); its stderr ends: boom"),
            "{e}"
        );
    }
}

/// A one-shot program (one answer, then exit 0) is restarted before the next puzzle,
/// not blamed for it; one that exits at once every time still ends in errors.
#[test]
fn a_one_shot_program_is_restarted_and_one_that_never_answers_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 20);
    let worker = crate::common::bin();
    let body = format!(
        "read p\necho \"$p\" | {} worker -b dlx-static\n",
        worker.display()
    );
    let spec = script(dir.path(), "oneshot.sh", "", &body);
    let out = solve_with(&spec, &path, &[]).success();
    let (statuses, errors) = summary(&out);
    assert!(statuses.iter().all(|s| s == "unique"), "{errors:?}");
    let out = solve_with("exec:true", &path, &[]).code(4);
    let (statuses, _) = summary(&out);
    assert!(statuses.len() == 20 && statuses.iter().all(|s| s == "error"));
}

/// An answer line past 64 KiB is an error (it used to be cut, its newline lost, and the
/// puzzle timed out); in a judge protocol, endless output without a newline is stopped.
#[test]
fn an_over_long_answer_line_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 2);
    let body = "while read p; do head -c 100000 /dev/zero | tr '\\0' x; echo; done\n";
    let spec = script(dir.path(), "long.sh", "", body);
    let out = solve_with(&spec, &path, &["--timeout", "5"]).code(4);
    let (statuses, errors) = summary(&out);
    assert_eq!(statuses, ["error", "error"]);
    assert!(errors[0].contains("answered with a line longer than 65536 bytes"));
    let spec = script(
        dir.path(),
        "zeros.sh",
        "poj3074:",
        "tr -d '\\n' < /dev/zero\n",
    );
    let out = solve_with(&spec, &path, &["--timeout", "5"]).code(4);
    let (statuses, errors) = summary(&out);
    assert_eq!(statuses, ["error", "error"]);
    assert!(errors[0].contains("printed more than"), "{errors:?}");
}

/// A judge submission that answered and exited 0 while a child it left keeps writing
/// into its output: its answers count, and the run neither waits past the deadline
/// (a child starting late used to hold it for ever) nor turns them into timeouts.
#[test]
fn a_judge_submission_s_answers_count_despite_a_trickling_child() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 5);
    let poj = built().join("poj");
    for (name, gap) in [("early.sh", "0"), ("late.sh", "0.3")] {
        let body = format!(
            "(sleep {gap}; while :; do echo; sleep 0.005; done) &\nexec {}\n",
            poj.display()
        );
        let spec = script(dir.path(), name, "poj3074:", &body);
        let start = std::time::Instant::now();
        let out = solve_with(&spec, &path, &["--timeout", "3"]).success();
        let (statuses, errors) = summary(&out);
        assert!(statuses.iter().all(|s| s == "solved"), "{name}: {errors:?}");
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "{name}"
        );
    }
}

/// The false verdicts, each reproduced: claims were taken on trust.
mod claims {
    use super::*;

    fn solve(backend: &str, path: &Path, extra: &[&str], code: i32) -> crate::common::Assert {
        sudoku_bench()
            .args(["solve", "--csv", "-", "-j1"])
            .args(extra)
            .args(["-b", backend])
            .arg(path)
            .assert()
            .code(code)
    }

    /// A program that prints nothing was `no_solution` for solvable puzzles, exit 0
    /// (no expected answers in the input to catch it).
    #[test]
    fn a_program_that_prints_nothing_is_refuted() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 20);
        let out = solve(&exec("silent"), &path, &["-q"], 4);
        let (header, rows) = stdout_csv(&out);
        assert_eq!(statuses(&header, &rows, "refuted"), 20);
        for r in &rows {
            assert_eq!(field(&header, r, "verified"), "false");
            assert!(
                field(&header, r, "error")
                    .ends_with("claimed no solution; bitboard found exactly one solution")
            );
        }
        // The summary says how many claims were checked, and by what.
        let out = sudoku_bench()
            .args(["solve", "-j1", "-b", &exec("silent")])
            .arg(&path)
            .assert()
            .code(4);
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(
            stdout.contains("claims verified by bitboard (9x9), dlx-arena (other sizes), untimed: 0 confirmed, 20 refuted"),
            "{stdout}"
        );
    }

    /// A program that stops at the first solution and says `1` was `unique` for the
    /// empty grid.
    #[test]
    fn a_program_that_stops_at_the_first_solution_is_refuted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        let unique = std::fs::read_to_string(first(dir.path(), 1)).unwrap();
        std::fs::write(&path, format!("{}\n{unique}", ".".repeat(81))).unwrap();
        let out = solve(&exec("first-only"), &path, &["-q"], 4);
        let (header, rows) = stdout_csv(&out);
        let got: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (field(&header, r, "status"), field(&header, r, "verified")))
            .collect();
        assert_eq!(got, [("refuted", "false"), ("unique", "true")]);
        assert!(
            field(&header, &rows[0], "error")
                .ends_with("claimed exactly one solution; bitboard found 2 or more solutions")
        );
        // Its claims are kept as it made them: the count column says what it said.
        assert_eq!(field(&header, &rows[0], "solutions"), "1");
    }

    /// `bench --paired` rated a library that does nothing "improved" x13: it answered
    /// wrong where the other solved, so there is no ratio, and both are said.
    #[test]
    fn a_library_that_does_nothing_gets_no_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 30);
        sudoku_bench()
            .args(["bench", "--rounds", "3", "--no-progress"])
            .args([
                "--backends",
                &format!("dlx-static,{}", lib("libnothing.so")),
            ])
            .arg(&path)
            .assert()
            .code(4)
            .stdout(contains("no ratio (not the same outcomes on 30 puzzles"))
            .stdout(contains("solved 0 of 30 (answered wrong 30)"))
            .stdout(contains("times faster").not());
    }

    /// `--paired` checked only its first round: a library that turns wrong after 80
    /// calls (a warmup pass and the first round of 30 puzzles are 60) was "improved",
    /// wrong 0, exit 0. Every round is checked, and a wrong answer in any round counts
    /// its puzzle wrong.
    #[test]
    fn paired_runs_check_every_round() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 30);
        sudoku_bench()
            .args(["bench", "--rounds", "4", "--no-progress"])
            .args([
                "--backends",
                &format!("{},turns={}", lib("libgood.so"), lib("libturns.so")),
            ])
            .args(["--export-json"])
            .arg(dir.path().join("r.json"))
            .arg(&path)
            .assert()
            .code(4)
            .stdout(contains("no ratio (not the same outcomes"));
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap())
                .unwrap();
        assert_eq!(run["results"][1]["wrong"], 30, "{run}");
        assert!(
            run["results"][1]["wrong_answers"].as_u64().unwrap() >= 30,
            "{run}"
        );
        assert_eq!(run["results"][0]["wrong"], 0);
    }

    /// The thread's CPU clock missed work a library did on a thread of its own: a solver
    /// twice as slow in wall time came out "improved". With a foreign backend, every
    /// backend is timed by its calls' own (wall) times: two builds, the second regressed.
    #[test]
    fn a_library_working_on_its_own_thread_is_timed_by_the_wall() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 30);
        sudoku_bench()
            .args(["bench", "--rounds", "5", "--no-progress", "--builds"])
            .args([
                "--backends",
                &format!("{},threaded={}", lib("libgood.so"), lib("libthreaded.so")),
            ])
            .arg(&path)
            .assert()
            .code(5)
            .stdout(contains("calls"))
            .stdout(contains("regressed"));
    }

    /// A library that never writes `num_guesses` showed "100% no guess".
    #[test]
    fn a_library_that_counts_no_guesses_shows_n_a() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 10);
        let out = sudoku_bench()
            .args(["solve", "-b", &lib("libnoguess.so")])
            .arg(&path)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(stdout.contains("nodes n/a, guesses n/a"), "{stdout}");
        sudoku_bench()
            .args(["bench", "--rounds", "1", "--no-progress", "--backends"])
            .arg(lib("libnoguess.so"))
            .arg(&path)
            .assert()
            .success()
            .stdout(contains("100.0%").not())
            .stdout(contains("n/a"));
        // A library that does write it is counted.
        let out = solve(&lib("libgood.so"), &path, &["-q"], 0);
        let (header, rows) = stdout_csv(&out);
        assert!(
            rows.iter()
                .all(|r| !field(&header, r, "guesses").is_empty())
        );
        assert!(rows.iter().all(|r| field(&header, r, "nodes").is_empty()));
    }

    /// A solver that writes its solution only for limit 1 needs a second call for the
    /// check: it was timed with the first. Here the second call takes 20 ms; the times
    /// recorded are the first call's alone, on the `call` clock.
    #[test]
    fn a_second_call_for_the_solution_is_not_timed() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 10);
        let out = solve(&lib("libslowsecond.so"), &path, &["-q"], 0);
        let (header, rows) = stdout_csv(&out);
        let mut times = Vec::new();
        for r in &rows {
            assert_eq!(field(&header, r, "status"), "unique");
            assert_eq!(field(&header, r, "clock"), "call");
            times.push(field(&header, r, "time_ns").parse::<u64>().unwrap());
        }
        // Every row would hold the second call if it were timed: the median tells, where
        // one call slowed by a busy machine would not.
        times.sort_unstable();
        let median = times[times.len() / 2];
        assert!(
            median < 15_000_000,
            "{times:?} ns include the 20 ms second call"
        );
        // bench makes the second calls after each stretch of timed calls: every answer
        // still has its solution, checked.
        sudoku_bench()
            .args(["bench", "--rounds", "2", "--no-progress", "--export-json"])
            .arg(dir.path().join("r.json"))
            .args(["--backends", &lib("liblate.so")])
            .arg(&path)
            .assert()
            .success();
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap())
                .unwrap();
        let r = &run["results"][0];
        assert_eq!(r["wrong"], 0);
        assert_eq!(r["verified"]["refuted"], 0);
        assert!(r["verified"]["confirmed"].as_u64().unwrap() >= 20, "{r}");
        let notes = r["foreign"]["notes"].to_string();
        assert!(notes.contains("needed a second call"), "{notes}");
    }

    /// A program that gives up on every puzzle (`?`) at once is not "improved" or faster:
    /// the two did not finish the same puzzles, so there is no ratio.
    #[test]
    fn a_program_that_gives_up_gets_no_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 30);
        let quitter = script(
            dir.path(),
            "quitter.sh",
            "",
            "while read l; do echo '? not today'; done",
        );
        sudoku_bench()
            .args(["bench", "--rounds", "3", "--no-progress"])
            .args(["--backends", &format!("bitboard,quitter={quitter}")])
            .arg(&path)
            .assert()
            .success()
            .stdout(contains(
                "quitter: no ratio (not the same outcomes on 30 puzzles",
            ))
            .stdout(contains(
                "quitter solved 0 of 30 (gave up (budget or time limit) 30)",
            ))
            .stdout(contains("times faster").not());
    }

    /// `--instructions` on a library counted its second call for the solution (20 ms of
    /// spinning here) and the harness's bookkeeping: it counts the timed call alone.
    #[test]
    fn instructions_of_a_library_count_the_timed_call_alone() {
        if std::process::Command::new("valgrind")
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("skipped: valgrind is not installed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 5);
        sudoku_bench()
            .args(["bench", "--rounds", "1", "--warmup", "0", "--no-progress"])
            .args(["--instructions", "5", "--export-json"])
            .arg(dir.path().join("r.json"))
            .args([
                "--backends",
                &format!(
                    "late={},slow={}",
                    lib("liblate.so"),
                    lib("libslowsecond.so")
                ),
            ])
            .arg(&path)
            .assert()
            .success();
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap())
                .unwrap();
        let count = |i: usize| run["results"][i]["instructions"]["total"].as_u64().unwrap();
        // The same solver; 20 ms of spinning would be millions of instructions more.
        assert!(count(1) < count(0) * 2, "{} vs {}", count(1), count(0));
        assert!(count(0) > 5 * 1000);
    }

    /// The worker answered `0` (no solution) when its backend ran out of budget.
    #[test]
    fn the_worker_gives_up_rather_than_claiming_no_solution() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 40);
        let worker = format!(
            "exec:{} worker -b dfs --max-nodes 50",
            crate::common::bin().display()
        );
        let out = solve(&worker, &path, &["-q"], 0);
        let (header, rows) = stdout_csv(&out);
        let gave_up = statuses(&header, &rows, "budget_exceeded");
        assert!(
            gave_up > 0,
            "dfs needs more than 50 nodes for some of these"
        );
        assert_eq!(gave_up + statuses(&header, &rows, "unique"), 40);
        let r = rows
            .iter()
            .find(|r| field(&header, r, "status") == "budget_exceeded")
            .unwrap();
        assert!(field(&header, r, "error").contains("gave up: out of its node budget"));
        // Its own times are the ones recorded (a puzzle it gave up on comes with none).
        for r in &rows {
            let clock = match field(&header, r, "status") {
                "unique" => "program",
                _ => "round-trip",
            };
            assert_eq!(field(&header, r, "clock"), clock);
        }
    }

    /// Batched programs had `n x --timeout` for a batch of n: a stream of 256 puzzles
    /// with a hanging one held the run for 256 x 0.3 s. The limit holds per puzzle.
    #[test]
    fn a_stream_keeps_the_time_limit_per_puzzle() {
        let dir = tempfile::tempdir().unwrap();
        let (path, triggers) = sample(dir.path(), 200);
        let start = std::time::Instant::now();
        let out = solve(
            &exec("hang"),
            &path,
            &["-q", "--exec-mode", "stream", "--timeout", "0.3"],
            0,
        );
        let (header, rows) = stdout_csv(&out);
        assert!(statuses(&header, &rows, "budget_exceeded") >= triggers);
        // One hang costs 0.3 s and the puzzles after it in its batch: far from 60 s.
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "{:?}",
            start.elapsed()
        );
    }

    /// tdoku's own example program: block-buffered output timed out with no hint; line
    /// buffered, its `puzzle:count:solution` answers were all rejected.
    #[test]
    fn tdoku_s_example_program_is_understood_and_its_buffering_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 5);
        let buffered = format!("exec:{} 2", built().join("tdoku-example").display());
        let out = solve(&buffered, &path, &["-q", "--timeout", "0.5"], 0);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            stderr.contains("block-buffered") && stderr.contains("stdbuf -oL"),
            "{stderr}"
        );
        if std::process::Command::new("stdbuf")
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("skipped the line-buffered half: no stdbuf");
            return;
        }
        let line_buffered = format!(
            "exec:stdbuf -oL {} 2",
            built().join("tdoku-example").display()
        );
        let out = solve(&line_buffered, &path, &["-q"], 0);
        let (header, rows) = stdout_csv(&out);
        assert_eq!(statuses(&header, &rows, "unique"), 5);
        assert!(rows.iter().all(|r| field(&header, r, "verified") == "true"));
    }

    /// A label took a built-in backend's name (`dlx-static=lib:...`), and `compare`
    /// re-ran the built-in one under it: a false regression.
    #[test]
    fn a_label_may_not_be_a_built_in_backend_s_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = first(dir.path(), 5);
        for name in ["dlx-static", "bitboard", "reference", "null"] {
            sudoku_bench()
                .args(["bench", "--rounds", "1", "--backends"])
                .arg(format!("{name}={}", lib("libgood.so")))
                .arg(&path)
                .assert()
                .code(2)
                .stderr(contains("is the name of a built-in backend"));
        }
    }
}

/// A program's stderr is drained all the time and only its end kept, for a failure: a
/// flood of it stalls nothing, and none of it reaches ours.
#[test]
fn a_programs_stderr_is_drained_and_not_shown() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = sample(dir.path(), 20);
    let script = dir.path().join("talker.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf 'hello \\033[2J from stderr\\n' >&2\nyes flood | head -n 50000 >&2\nexec '{}' worker -b bitboard\n",
            crate::common::bin().display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let backend = format!("exec:{}", script.display());
    let bench = [
        "bench",
        "--backends",
        &backend,
        "--rounds",
        "1",
        "--warmup",
        "0",
    ];
    for args in [&["solve", "-q", "-b", &backend][..], &bench[..]] {
        let out = sudoku_bench()
            .args(args)
            .args(["-j", "1"])
            .arg(&path)
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            !stderr.contains("hello") && !stderr.contains("flood"),
            "{stderr}"
        );
    }
}

/// Finding: with `--symmetry on` a wrong answer was reported on a record that `solve`
/// then passed: the form the solver was given was said nowhere. The per-puzzle row (and
/// the note) names it now, and `solve` of that form reproduces the wrong answer.
#[test]
fn a_wrong_answer_under_a_symmetry_names_the_form_the_solver_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 60);
    sudoku_bench()
        .current_dir(dir.path())
        .args(["bench", "--rounds", "1", "--warmup", "0", "--no-progress"])
        .args([
            "--backends",
            &lib("libwrong.so"),
            "--per-puzzle",
            "rows.csv",
        ])
        .arg(&path)
        .assert()
        .code(4)
        .stdout(contains("each row names the form the solver was given"));
    let (header, rows) = read_csv(&std::fs::read_to_string(dir.path().join("rows.csv")).unwrap());
    let wrong: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| field(&header, r, "error").contains("the solver was given it as "))
        .collect();
    assert!(!wrong.is_empty(), "{rows:?}");
    for r in wrong {
        let given = field(&header, r, "error")
            .split("the solver was given it as ")
            .nth(1)
            .unwrap()[..81]
            .to_string();
        // The trigger of the wrong variant: a first cell of 1, in the form it was given.
        assert!(given.starts_with('1'), "{given}");
        let again = dir.path().join("again.txt");
        std::fs::write(&again, format!("{given}\n")).unwrap();
        sudoku_bench()
            .args(["solve", "-q", "-b", &lib("libwrong.so")])
            .arg(&again)
            .assert()
            .code(4);
    }
}

/// Findings: a `lib:` that did its search in the untimed second call was "26,000 times
/// faster", and a program reporting `ns=1` "6,000 times faster than bitboard" and
/// "improved" against itself, with only a note that its clock could not be checked. Their
/// own times cover almost none of what the harness saw them spend: no ratio, no verdict.
#[test]
fn times_a_solver_cannot_account_for_give_no_ratio() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 40);
    sudoku_bench()
        .args(["bench", "--rounds", "4", "--no-progress"])
        .args([
            "--backends",
            &format!("bitboard,second={}", lib("libsecond.so")),
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("second: no ratio (second's own times cover"))
        .stdout(contains("untimed second calls"))
        .stdout(contains("times faster").not());
    let liar = script(
        dir.path(),
        "liar.sh",
        "",
        &format!(
            "'{}' worker -b bitboard | sed -u 's/ ns=[0-9]*/ ns=1/'",
            crate::common::bin().display()
        ),
    );
    sudoku_bench()
        .args(["bench", "--rounds", "4", "--no-progress"])
        .args(["--backends", &format!("bitboard,liar={liar}")])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("liar: no ratio (liar's own times cover"))
        .stdout(contains("times faster").not());
    // Against itself, as two builds: no verdict (exit 1), never "improved".
    sudoku_bench()
        .args(["bench", "--rounds", "4", "--no-progress", "--builds"])
        .args(["--backends", &format!("old={liar},new={liar}")])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(contains("no verdict"))
        .stdout(contains("improved -").not());
    // Judged by those times anyway, when asked.
    sudoku_bench()
        .args([
            "bench",
            "--rounds",
            "4",
            "--no-progress",
            "--trust-reported-times",
        ])
        .args(["--backends", &format!("bitboard,liar={liar}")])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("times faster than"));
}

/// A baseline keeps the library and the program it measured: replaced in place by a
/// build twice as slow, `compare` runs the kept copy against the file now there, side
/// by side, and finds the regression; put back, no change.
#[test]
fn a_library_or_program_replaced_in_place_is_compared_with_its_kept_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = first(dir.path(), 40);
    for (good, slow, spec) in [
        ("libgood.so", "libslower.so", "lib:./x.so:solve"),
        ("good", "slower", "exec:./x.so"),
    ] {
        let put = |name: &str| {
            // A new file at the path, as a build writes it (not the old file changed).
            let _ = std::fs::remove_file(dir.path().join("x.so"));
            std::fs::copy(built().join(name), dir.path().join("x.so")).unwrap();
        };
        let run = |args: &[&str]| {
            let mut cmd = sudoku_bench();
            cmd.current_dir(dir.path())
                .args(args)
                .args(["--no-progress"]);
            cmd
        };
        put(good);
        run(&[
            "bench",
            "--rounds",
            "3",
            "--backends",
            spec,
            "--save-baseline",
            "before",
            "--force",
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("its build kept in"));
        // A wide noise threshold: the test checks which files run, not how finely a
        // busy test machine can time them (the study in results/ does that).
        put(slow);
        run(&["compare", "before", "--backends", spec, "--noise", "40"])
            .assert()
            .code(5)
            .stdout(contains("regressed +"));
        put(good);
        run(&["compare", "before", "--backends", spec, "--noise", "40"])
            .assert()
            .success()
            .stdout(contains("no change"));
        // Not named on the command line: never run from what the file says.
        run(&["compare", "before"])
            .assert()
            .code(1)
            .stderr(contains("never from a file"));
    }
}

/// `worker < /dev/zero` aborted on a failed allocation: a line grew without bound. An
/// over-long line is answered with `!` as soon as it is known to be one, before it
/// ends, and the worker goes on with the next line.
#[cfg(unix)]
#[test]
fn the_worker_answers_an_endless_line_at_once_and_keeps_going() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(crate::common::bin())
        .args(["worker", "-b", "dlx-static"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // A megabyte of zeros, no line break yet.
    stdin.write_all(&vec![0u8; 1 << 20]).unwrap();
    stdin.flush().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        while stdout.read_line(&mut line).unwrap() > 0 {
            tx.send(std::mem::take(&mut line)).unwrap();
        }
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(30));
    let puzzle = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let puzzle = &puzzle.lines().nth(1).unwrap()[..81];
    stdin.write_all(&vec![0u8; 1 << 20]).unwrap();
    writeln!(stdin, "\n{puzzle}").unwrap();
    drop(stdin);
    let second = rx.recv_timeout(std::time::Duration::from_secs(30));
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    let first = first.expect("an answer before the line ended");
    assert!(
        first.starts_with("! not a puzzle line: \"\\0\\0"),
        "{first}"
    );
    let second = second.unwrap();
    assert!(second.starts_with("1:"), "{second}");
}
