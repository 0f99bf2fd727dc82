//! Foreign solvers: a small C solver (tests/data/foreign/solver.c), compiled here with
//! the system C compiler, behind `exec:` and `lib:`, in honest, wrong, crashing and
//! hanging variants, and as online-judge submissions.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{field, project_file, read_csv, stdout_csv, sudoku_bench};

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
        assert!(
            rows.iter()
                .all(|r| field(&header, r, "matches_expected") == "true"),
            "{judge}"
        );
    }
    // A submission that prints nothing for a case: no solution, which is wrong here.
    let script = dir.path().join("half.sh");
    std::fs::write(&script, "#!/bin/sh\nhead -n 1\n").unwrap();
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-", "-j", "1", "-b"])
        .arg(format!("exec:poj3074:sh {}", script.display()))
        .arg(&path)
        .assert()
        .code(4);
    let (header, rows) = stdout_csv(&out);
    assert!(statuses(&header, &rows, "no_solution") > 0);
}

#[test]
fn the_built_in_worker_speaks_the_protocol() {
    let worker = format!(
        "exec:{} worker -b dlx-arena",
        assert_cmd::cargo::cargo_bin("sudoku-bench").display()
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
