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
