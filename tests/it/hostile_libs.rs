//! Shared libraries that misbehave in ways a crash handler does not see: `exit()` in a
//! call or while loaded (the run ended with the library's status, 0 included, and rows
//! lost), and writes past the solution buffer (the stack corrupted after the call).
#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use crate::common::{project_file, read_csv, sudoku_bench};

const SOURCE: &str = r#"
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
static int calls;
__attribute__((constructor)) static void init(void) { if (getenv("EXIT_AT_LOAD")) exit(0); }
/* Solves nothing; says "no solution". */
size_t exits(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    if (++calls == 3) exit(0);
    return 0;
}
#include <pthread.h>
static void *watchdog(void *arg) { (void)arg; usleep(100000); exit(0); return NULL; }
/* Starts a thread of its own on the first call, which calls exit(0) a little later. */
size_t exits_later(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    if (++calls == 1) { pthread_t t; pthread_create(&t, NULL, watchdog, NULL); }
    usleep(100);
    return 0;
}
size_t slow(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    usleep(200000);
    return 0;
}
size_t overruns(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    memset(sol, '1', 120);
    return 0;
}
/* Claims two solutions, whatever the puzzle: a counting bug. */
size_t says_two(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    return limit < 2 ? limit : 2;
}
/* Writes PAST bytes past its 96-byte buffer on its first call. */
size_t overruns_by(const char *in, size_t limit, uint32_t f, char *sol, size_t *g) {
    *g = 0;
    if (++calls == 1) memset(sol, '1', 96 + atoi(getenv("PAST")));
    return 0;
}
"#;

fn build(dir: &Path) -> std::path::PathBuf {
    let src = dir.join("hostile.c");
    std::fs::write(&src, SOURCE).unwrap();
    let lib = dir.join("libhostile.so");
    let status = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-pthread", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .expect("a C compiler (cc)");
    assert!(status.success());
    lib
}

#[test]
fn a_library_that_exits_or_overruns_is_never_a_clean_run() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build(dir.path());
    let input = project_file("datasets/generated-3000.txt");
    let csv = dir.path().join("rows.csv");
    let run = |symbol: &str, load_exit: bool| {
        let mut cmd = sudoku_bench();
        if load_exit {
            cmd.env("EXIT_AT_LOAD", "1");
        }
        cmd.args(["solve", "-q", "-j1", "--no-progress", "-b"])
            .arg(format!("lib:{}:{symbol}", lib.display()))
            .arg("--csv")
            .arg(&csv)
            .arg(&input)
            .output()
            .unwrap()
    };
    for load_exit in [false, true] {
        let out = run("exits", load_exit);
        assert_eq!(out.status.code(), Some(1), "exit at load: {load_exit}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("called exit()"));
    }
    // From a thread of its own (a watchdog), mid-run: it ended the run with exit 0,
    // a few rows written, no message.
    let out = run("exits_later", false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("exit() was called from a thread the tool did not start, with the lib:"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.ends_with('\n'),
        "a cut row: {:?}",
        &text[text.len().saturating_sub(200)..]
    );
    let (header, rows) = read_csv(&text);
    assert!(rows.len() < 3000, "{}", rows.len());
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let out = run("overruns", false);
    assert_eq!(out.status.code(), Some(4));
    let (header, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 3000);
    let error = header.iter().position(|h| h == "error").unwrap();
    assert!(rows[0][error].contains("past the end of its 96-byte solution buffer"));
}

/// Red-team finding: `--timeout` did nothing for `lib:` (each call had a fresh deadline
/// and a call cannot be stopped): a call that overran it now says so.
#[test]
fn a_library_call_that_overran_the_time_limit_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build(dir.path());
    let input = dir.path().join("two.txt");
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    std::fs::write(&input, text.lines().take(3).collect::<Vec<_>>().join("\n")).unwrap();
    let out = sudoku_bench()
        .args([
            "solve",
            "-q",
            "-j1",
            "--timeout",
            "0.05",
            "--csv",
            "-",
            "-b",
        ])
        .arg(format!("lib:{}:slow", lib.display()))
        .arg(&input)
        .output()
        .unwrap();
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.stdout));
    let status = header.iter().position(|h| h == "status").unwrap();
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter().all(|r| r[status] == "budget_exceeded"),
        "{rows:?}"
    );
}

/// Red-team finding: a library writing past its solution buffer crashed the run later
/// (SIGABRT, SIGSEGV) without naming it, or was reported with the wrong extent. Past by
/// a byte or by a few thousand, the puzzle is an error saying how far, every other row
/// is kept and the run exits 4; far past, the call itself faults, and the note names
/// the library and the puzzle.
#[test]
fn a_library_writing_past_its_buffer_is_caught_at_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build(dir.path());
    let input = dir.path().join("ten.txt");
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(10).collect();
    std::fs::write(&input, lines.join("\n")).unwrap();
    let csv = dir.path().join("rows.csv");
    let run = |past: usize| {
        sudoku_bench()
            .env("PAST", past.to_string())
            .args(["solve", "-j1", "--no-progress", "-b"])
            .arg(format!("lib:{}:overruns_by", lib.display()))
            .arg("--csv")
            .arg(&csv)
            .arg(&input)
            .output()
            .unwrap()
    };
    for past in [1, 3000] {
        let out = run(past);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(4), "{stdout}");
        let (header, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
        assert_eq!(rows.len(), 10);
        let error = header.iter().position(|h| h == "error").unwrap();
        let s = if past == 1 { "" } else { "s" };
        let said = format!("wrote {past} byte{s} past the end of its 96-byte solution buffer");
        assert!(rows[0][error].contains(&said), "{:?}", rows[0]);
        let past_end = rows.iter().filter(|r| r[error].contains("past the end"));
        assert_eq!(past_end.count(), 1);
        assert!(stdout.contains(&format!("lib:{}:overruns_by failed: {said}", lib.display())));
    }
    let out = run(1 << 20);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    let puzzle = &lines[0][..81];
    assert!(
        stderr.contains(&format!(
            "the lib:{}:overruns_by backend crashed on puzzle {puzzle}",
            lib.display()
        )),
        "{stderr}"
    );
}

/// Red-team finding: `gen` trusted a foreign backend's "two or more solutions": one with
/// a counting bug kept every clue and wrote full grids as puzzles, exit 0; a judge
/// submission (which never counts) did the same, its note blaming the node budget. Every
/// count is verified by a built-in backend, and a backend that cannot count is refused.
#[test]
fn gen_verifies_every_count_a_foreign_backend_gives() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build(dir.path());
    let out = dir.path().join("gen.txt");
    let generate = |backend: &str| {
        sudoku_bench()
            .args([
                "gen", "--count", "2", "--seed", "1", "-j1", "-b", backend, "-o",
            ])
            .arg(&out)
            .output()
            .unwrap()
    };
    let run = generate(&format!("lib:{}:says_two", lib.display()));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("the backend's count was refuted on") && stderr.contains("bitboard"),
        "{stderr}"
    );
    let ones = "1".repeat(81);
    let run = generate(&format!("exec:sh -c 'while read p; do echo {ones}; done'"));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("a solution and no count"), "{stderr}");
    assert!(!stderr.contains("node budget"), "{stderr}");
    let run = generate("exec:poj3074:cat");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is a judge submission"), "{stderr}");
}
