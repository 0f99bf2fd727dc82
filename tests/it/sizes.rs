//! Boards of every size end to end: the 16x16 judges byte-exact, layouts of every size
//! read and solved, backends that solve only 9x9 saying so, `gen --size`, and a time
//! limit that stops a 25x25 search.

use crate::common::contains;
use crate::common::{easy_16x16, field, project_file, read_csv, sudoku_bench};

fn dataset(name: &str) -> Vec<u8> {
    std::fs::read(project_file(&format!("datasets/{name}"))).unwrap()
}

#[test]
fn the_16x16_judges_match_their_samples_byte_for_byte() {
    for (problem, input, output) in [
        ("uva1309", "uva1309-sample.in", "uva1309-sample.out"),
        ("poj3076", "uva1309-sample.in", "uva1309-sample.out"),
        (
            "spoj-sudoku",
            "spoj-sudoku-sample.in",
            "spoj-sudoku-sample.out",
        ),
        // Held back: five generated cases, answers from the generator, not from judge.
        ("uva1309", "uva1309-multi.in", "uva1309-multi.out"),
        ("spoj-sudoku", "spoj-sudoku-multi.in", "uva1309-multi.out"),
    ] {
        for backend in [None, Some("dlx-arena")] {
            let mut cmd = sudoku_bench();
            cmd.args(["judge", problem]);
            if let Some(b) = backend {
                cmd.args(["-b", b]);
            }
            cmd.write_stdin(dataset(input))
                .assert()
                .success()
                .stdout(dataset(output));
        }
    }
}

#[test]
fn a_16x16_judge_reports_a_broken_case_and_answers_the_others() {
    let sample = String::from_utf8(dataset("uva1309-sample.in")).unwrap();
    let answer = String::from_utf8(dataset("uva1309-sample.out")).unwrap();
    let broken = sample.replacen("--A----C-----O-I", "--A----C-----O-Z", 1);
    let out = sudoku_bench()
        .args(["judge", "uva1309"])
        .write_stdin(format!("{sample}\n{broken}\n{sample}"))
        .assert()
        .code(3)
        .stderr(contains("case 2 (line 18)"))
        .stderr(contains("'Z' is not a letter A-P"));
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        format!("{answer}\n{answer}")
    );
    // SPOJ reads only as many cases as its count line says.
    let spoj = format!("1\n{sample}\n{sample}");
    sudoku_bench()
        .args(["judge", "spoj-sudoku"])
        .write_stdin(spoj)
        .assert()
        .success()
        .stdout(answer.clone());
    // A count line that promises more cases than the input holds passed silently.
    let short = format!("3\n{sample}\n{sample}");
    sudoku_bench()
        .args(["judge", "spoj-sudoku"])
        .write_stdin(short)
        .assert()
        .code(3)
        .stderr(contains(
            "its first line promised 3 cases; the input ends after 2",
        ))
        .stdout(format!("{answer}\n{answer}"));
}

#[test]
fn a_backend_for_9x9_only_says_unsupported_and_exits_3() {
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-", "-j1", "-b", "dlx-static"])
        .arg(project_file("datasets/gen-16x16-20.txt"))
        .assert()
        .code(3);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(rows.len(), 20);
    for r in &rows {
        assert_eq!(field(&header, r, "status"), "unsupported");
        assert!(field(&header, r, "error").contains("dlx-arena and dfs"));
        assert_eq!(field(&header, r, "size"), "16");
        assert_eq!(field(&header, r, "solution"), "");
    }
    sudoku_bench()
        .args(["judge", "uva1309", "-b", "bitboard"])
        .write_stdin(dataset("uva1309-sample.in"))
        .assert()
        .code(3)
        .stdout("")
        .stderr(contains("unsupported"));
}

#[test]
fn the_general_backends_solve_the_shipped_sets_of_every_size() {
    for (file, size, rows) in [
        ("gen-4x4-200.txt", "4", 200),
        ("gen-16x16-20.txt", "16", 20),
        ("gen-25x25-4.txt", "25", 4),
    ] {
        // Naive backtracking collapses above 9x9 (it runs out of its node budget):
        // that is checked below, not here.
        let backends: &[&str] = match size {
            "4" => &["dlx-arena", "dfs"],
            _ => &["dlx-arena"],
        };
        for backend in backends {
            let out = sudoku_bench()
                .args(["solve", "-q", "--csv", "-", "-j2", "-b", backend])
                .arg(project_file(&format!("datasets/{file}")))
                .assert()
                .success();
            let (header, got) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
            assert_eq!(got.len(), rows, "{file} {backend}");
            for r in &got {
                assert_eq!(field(&header, r, "status"), "unique", "{file} {backend}");
                assert_eq!(field(&header, r, "valid"), "true");
                assert_eq!(field(&header, r, "matches_expected"), "true");
                assert_eq!(field(&header, r, "size"), size);
            }
        }
    }
}

#[test]
fn dfs_on_16x16_stops_at_its_budget_and_never_answers_wrong() {
    let out = sudoku_bench()
        .args([
            "solve",
            "-q",
            "--csv",
            "-",
            "-j2",
            "-b",
            "dfs",
            "--max-nodes",
            "2000000",
        ])
        .arg(project_file("datasets/gen-16x16-20.txt"))
        .assert()
        .success();
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(rows.len(), 20);
    for r in &rows {
        let status = field(&header, r, "status");
        assert!(matches!(status, "unique" | "budget_exceeded"), "{status}");
        assert_ne!(field(&header, r, "valid"), "false");
        assert_ne!(field(&header, r, "matches_expected"), "false");
    }
}

#[test]
fn solutions_written_back_read_back_at_every_size() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["gen-4x4-200.txt", "gen-16x16-20.txt", "gen-25x25-4.txt"] {
        let again = dir.path().join(format!("{file}.solutions"));
        sudoku_bench()
            .args(["solve", "-q", "-b", "dlx-arena", "--solutions"])
            .arg(&again)
            .arg(project_file(&format!("datasets/{file}")))
            .assert()
            .success();
        let out = sudoku_bench()
            .args(["solve", "-q", "-b", "dlx-arena", "--csv", "-"])
            .arg(&again)
            .assert()
            .success();
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
        assert!(!rows.is_empty());
        for r in &rows {
            assert_eq!(field(&header, r, "matches_expected"), "true", "{file}");
        }
    }
}

#[test]
fn gen_makes_unique_puzzles_of_every_size_the_same_each_time() {
    for size in ["4", "6", "8", "10", "12", "16", "25"] {
        let run = || {
            sudoku_bench()
                .args(["gen", "--size", size, "-n", "2", "-s", "9", "-j2"])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        };
        let first = run();
        assert_eq!(first, run(), "{size}");
        let out = sudoku_bench()
            .args(["solve", "-q", "-b", "dlx-arena", "--csv", "-"])
            .write_stdin(first)
            .assert()
            .success();
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
        assert_eq!(rows.len(), 2);
        for r in &rows {
            assert_eq!(field(&header, r, "status"), "unique");
            assert_eq!(field(&header, r, "matches_expected"), "true");
            assert_eq!(field(&header, r, "valid"), "true");
            assert_eq!(field(&header, r, "size"), size);
        }
    }
    sudoku_bench()
        .args(["gen", "--size", "7"])
        .assert()
        .code(2)
        .stderr(contains("4, 6, 8, 9, 10, 12, 16 or 25"));
    sudoku_bench()
        .args(["gen", "--size", "16", "--min-clues", "20"])
        .assert()
        .code(2);
}

#[test]
fn a_time_limit_stops_a_25x25_search() {
    // An empty 25x25 board with every solution counted: a search without end.
    let empty = ".".repeat(625) + "\n";
    let start = std::time::Instant::now();
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-", "-b", "dlx-arena"])
        .args(["--timeout", "0.5", "--max-solutions", "1000000000"])
        .args(["--max-nodes", "1000000000000"])
        .write_stdin(empty)
        .assert()
        .success();
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(field(&header, &rows[0], "status"), "budget_exceeded");
    assert!(field(&header, &rows[0], "error").contains("timed out"));
}

/// The 16x16 judge submission of `tests/data/foreign/uva1309.c`, built once per
/// variant.
fn submission(variant: &str) -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let src = project_file("tests/data/foreign/uva1309.c");
        for (name, flag) in [
            ("good", None),
            ("spoj", Some("-DSPOJ")),
            ("wrong", Some("-DWRONG")),
            ("crash", Some("-DCRASH")),
            ("hang", Some("-DHANG")),
        ] {
            let status = std::process::Command::new("cc")
                .arg("-O2")
                .args(flag)
                .arg("-o")
                .arg(dir.join(name))
                .arg(&src)
                .status()
                .expect("a C compiler (cc)");
            assert!(status.success(), "compiling {name}");
        }
        dir
    });
    dir.join(variant)
}

fn statuses(args: &[&str], input: Vec<u8>, code: i32) -> Vec<(String, String)> {
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-"])
        .args(args)
        .write_stdin(input)
        .assert()
        .code(code);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    rows.iter()
        .map(|r| {
            assert_ne!(field(&header, r, "matches_expected"), "false", "{r:?}");
            (
                field(&header, r, "status").to_string(),
                field(&header, r, "error").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_16x16_judge_submission_runs_as_the_judge_would() {
    let puzzles = easy_16x16(30, 7);
    for (protocol, variant) in [
        ("uva1309", "good"),
        ("poj3076", "good"),
        ("spoj-sudoku", "spoj"),
    ] {
        let backend = format!("exec:{protocol}:{}", submission(variant).display());
        for threads in ["1", "2"] {
            let got = statuses(&["-b", &backend, "-j", threads], puzzles.clone(), 0);
            assert_eq!(got.len(), 30);
            assert!(
                got.iter().all(|(s, _)| s == "solved"),
                "{protocol}: {got:?}"
            );
        }
    }
    // The project's own judge is a submission too.
    let own = format!(
        "exec:uva1309:{} judge uva1309",
        crate::common::bin().display()
    );
    let got = statuses(&["-b", &own], dataset("gen-16x16-20.txt"), 0);
    assert!(got.iter().all(|(s, _)| s == "solved"), "{got:?}");
}

#[test]
fn a_16x16_submission_that_lies_crashes_or_hangs_is_caught() {
    let puzzles = easy_16x16(30, 7);
    let run = |variant: &str, extra: &[&str], code: i32| {
        let backend = format!("exec:uva1309:{}", submission(variant).display());
        let mut args = vec!["-b", backend.as_str(), "-j1"];
        args.extend(extra);
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-"])
            .args(&args)
            .write_stdin(puzzles.clone())
            .assert()
            .code(code);
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
        assert_eq!(rows.len(), 30);
        rows.iter()
            .map(|r| {
                (
                    field(&header, r, "status").to_string(),
                    field(&header, r, "valid").to_string(),
                    field(&header, r, "error").to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    // Two cells swapped in every answer: each one is found invalid.
    for (_, valid, _) in run("wrong", &[], 4) {
        assert_eq!(valid, "false");
    }
    // Dies after its first answer: the cases it never answered are errors that say so,
    // not "no solution".
    let crashed = run("crash", &[], 4);
    assert!(crashed.iter().any(|(s, _, _)| s == "solved"));
    for (status, _, error) in crashed.iter().filter(|(s, _, _)| s != "solved") {
        assert_eq!(status, "error");
        assert!(error.contains("before answering"), "{error}");
    }
    // Never answers: the time limit (per case, for the whole batch) stops it.
    let start = std::time::Instant::now();
    for (status, _, error) in run("hang", &["--timeout", "0.05"], 0) {
        assert_eq!(status, "budget_exceeded");
        assert!(error.contains("timed out"), "{error}");
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn a_16x16_protocol_given_other_sizes_says_unsupported() {
    let backend = format!("exec:uva1309:{}", submission("good").display());
    let mut mixed = dataset("gen-4x4-200.txt");
    mixed.truncate(mixed.iter().position(|&b| b == b'\n').unwrap() + 1);
    mixed.extend(&dataset("generated-3000.txt")[..200]);
    for (status, error) in statuses(&["-b", &backend], mixed, 3) {
        if status != "parse_error" {
            assert_eq!(status, "unsupported");
            assert!(error.contains("does not solve"), "{error}");
        }
    }
}

#[test]
fn bench_times_every_size_and_says_what_a_backend_cannot_solve() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.csv");
    let out = sudoku_bench()
        .args(["bench", "--no-progress", "--rounds", "1", "--warmup", "0"])
        .args(["--backends", "dlx-arena,dfs", "--max-nodes", "2000000"])
        .arg("--per-puzzle")
        .arg(&rows)
        .arg(project_file("datasets/gen-4x4-200.txt"))
        .arg(project_file("datasets/gen-16x16-20.txt"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(stdout.contains("gen-16x16-20.txt"), "{stdout}");
    let (header, rows) = read_csv(&std::fs::read_to_string(&rows).unwrap());
    assert_eq!(rows.len(), 2 * (200 + 20));
    for r in &rows {
        let status = field(&header, r, "status");
        assert!(matches!(status, "unique" | "budget_exceeded"), "{status}");
        assert_ne!(field(&header, r, "matches_expected"), "false");
        if field(&header, r, "size") == "16" && field(&header, r, "backend") == "dlx-arena" {
            assert_eq!(status, "unique");
        }
    }
    // A 9x9 backend on a 16x16 dataset: said, and exit 3.
    sudoku_bench()
        .args(["bench", "--no-progress", "--rounds", "1", "--warmup", "0"])
        .args(["--backends", "dlx-static"])
        .arg(project_file("datasets/gen-16x16-20.txt"))
        .assert()
        .code(3)
        .stdout(contains("unsupported: dlx-static"));
}

/// A shell script in `dir` (run through `sh`, so no executable bit is needed).
fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn a_16x16_submission_is_held_to_the_judges_rules() {
    let dir = tempfile::tempdir().unwrap();
    let judge = crate::common::bin();
    let judge = judge.display();
    let puzzles = easy_16x16(30, 7);
    let rows = |body: &str, extra: &[&str]| {
        let backend = format!("exec:uva1309:{}", script(dir.path(), "s.sh", body));
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-", "-j1", "-b", &backend])
            .args(extra)
            .write_stdin(puzzles.clone())
            .assert();
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
        assert_eq!(rows.len(), 30);
        rows.iter()
            .map(|r| {
                let status = field(&header, r, "status").to_string();
                (status, field(&header, r, "error").to_string())
            })
            .collect::<Vec<_>>()
    };
    // Other alphabets than A-P, lowercase, lines of the wrong length: not answers.
    for tr in ["tr A-P a-p", "tr A-P 0-9A-F", "sed 's/^A/AA/'"] {
        let got = rows(&format!("{judge} judge uva1309 | {tr}"), &[]);
        assert!(got.iter().all(|(s, _)| s == "error"), "{tr}: {got:?}");
    }
    // One garbage grid, then death: each case says its own reason.
    let got = rows(
        "cat > /dev/null\nfor i in $(seq 16); do echo ZZZZZZZZZZZZZZZZ; done\nexit 1",
        &[],
    );
    // (Each batch of cases starts a process of its own: each answers its first case.)
    assert!(got[0].1.contains("\"ZZZZZZZZZZZZZZZZ\""), "{}", got[0].1);
    assert!(
        got[1].1.contains("exit status: 1) before answering"),
        "{}",
        got[1].1
    );
    assert!(
        got.iter()
            .all(|(s, e)| s == "error" && (e.contains("ZZZ") ^ e.contains("before answering"))),
        "{got:?}"
    );
    // A child left behind holding the output open: the answers count once the program
    // itself has exited; the time limit is not waited out.
    let start = std::time::Instant::now();
    let got = rows(
        &format!("sleep 30 &\n{judge} judge uva1309"),
        &["--timeout", "2"],
    );
    assert!(got.iter().all(|(s, _)| s == "solved"), "{got:?}");
    assert!(start.elapsed() < std::time::Duration::from_secs(25));
    // Endless output is cut off, not held in memory.
    let got = rows(&format!("{judge} judge uva1309\nyes ABCDEFGHIJKLMNOP"), &[]);
    assert!(
        got.iter().all(|(_, e)| e.contains("printed more than")),
        "{got:?}"
    );
}

#[test]
fn a_16x16_submission_gets_its_boards_in_one_batch_among_other_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let body = format!(
        "echo start >> {}\nexec {}",
        log.display(),
        submission("good").display()
    );
    let backend = format!("exec:uva1309:{}", script(dir.path(), "s.sh", &body));
    // 16x16 boards between 4x4 ones.
    let mut mixed = Vec::new();
    let easy = easy_16x16(30, 7);
    let four = dataset("gen-4x4-200.txt");
    let records = |text: &[u8]| -> Vec<Vec<u8>> {
        text.split(|&c| c == b'\n')
            .filter(|l| !l.is_empty() && l[0] != b'#')
            .map(<[u8]>::to_vec)
            .collect()
    };
    for (a, b) in records(&four).iter().zip(records(&easy).iter()).take(10) {
        for line in [a, b] {
            mixed.extend_from_slice(line);
            mixed.push(b'\n');
        }
    }
    let got = statuses(&["-b", &backend, "-j1"], mixed, 3);
    assert_eq!(
        got.iter().filter(|(s, _)| s == "solved").count(),
        10,
        "{got:?}"
    );
    assert_eq!(got.iter().filter(|(s, _)| s == "unsupported").count(), 10);
    let starts = std::fs::read_to_string(&log).unwrap().lines().count();
    assert!(starts <= 2, "{starts} processes for 10 cases");
}

#[test]
fn bench_counts_only_the_boards_a_backend_solves() {
    let dir = tempfile::tempdir().unwrap();
    let mixed = dir.path().join("mixed.txt");
    let nine = dataset("generated-3000.txt");
    let mut text: Vec<u8> = nine
        .split(|&c| c == b'\n')
        .take(41)
        .flat_map(|l| [l, b"\n"].concat())
        .collect();
    text.extend(&dataset("gen-4x4-200.txt"));
    std::fs::write(&mixed, text).unwrap();
    let four = project_file("datasets/gen-4x4-200.txt");
    let page = dir.path().join("p.html");
    let out = sudoku_bench()
        .args(["bench", "--no-progress", "--rounds", "1", "--warmup", "0"])
        .args(["--backends", "bitboard,dlx-arena", "--export-json"])
        .arg(dir.path().join("run.json"))
        .arg("--html")
        .arg(&page)
        .arg(&mixed)
        .arg(&four)
        .assert()
        .code(3);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(
        stdout.contains("of 240 boards are of a size it does not solve"),
        "{stdout}"
    );
    assert!(stdout.contains("over the other 40"), "{stdout}");
    // No board of the 4x4 set solved: no headline, and a chart all the same.
    let row = stdout
        .lines()
        .find(|l| l.starts_with("bitboard") && l.contains("gen-4x4-200"))
        .unwrap();
    assert!(row.contains("n/a"), "{row}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("<svg"));
    // No ratio between backends that solved different boards (it was "2251x faster").
    sudoku_bench()
        .args(["bench", "--no-progress", "--rounds", "2"])
        .args(["--backends", "dlx-arena,bitboard"])
        .arg(&mixed)
        .assert()
        .code(3)
        .stdout(contains(
            "dlx-arena: no ratio (not the same outcomes on 200 puzzles",
        ))
        .stdout(contains("times faster").not());
}

/// Boards with rectangular boxes (6x6 in 2x3, 8x8 in 2x4, 10x10 in 2x5, 12x12 in 3x4):
/// drawn as grids with box borders, read, solved by `dlx-arena` (the default for them)
/// and `dfs`, each answer checked by the independent checker; a wrong box shape is
/// caught there.
#[test]
fn rectangular_boxes_read_solve_and_check() {
    let six = "\
1 . . | . . 6
. . 6 | 1 . .
------+------
. 1 . | . 6 .
. 6 . | . 1 .
------+------
. . 1 | 6 . .
6 . . | . . 1
";
    for backend in ["fastest", "dlx-arena", "dfs"] {
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-", "-b", backend])
            .write_stdin(six)
            .assert()
            .code(0);
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
        assert_eq!(rows.len(), 1, "{backend}");
        assert_eq!(field(&header, &rows[0], "size"), "6");
        assert_eq!(field(&header, &rows[0], "valid"), "true", "{backend}");
    }
    // 2x3 boxes: a 6 in r1c1 and in r2c3 share box 1 (a 3x2 reading would not). On one
    // line it is a puzzle with conflicting givens; drawn as a grid, whose boxes the
    // reader assumed, it is refused as boxes of another shape.
    let clash = "6.....\n..6...\n......\n......\n......\n......\n";
    let line = clash.replace('\n', "") + "\n";
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-"])
        .write_stdin(line)
        .assert()
        .code(0);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(field(&header, &rows[0], "status"), "invalid_givens");
    assert!(field(&header, &rows[0], "error").contains("box 1"));
    let out = sudoku_bench()
        .args(["solve", "-q", "--csv", "-"])
        .write_stdin(clash)
        .assert()
        .code(3);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(field(&header, &rows[0], "status"), "parse_error");
    let error = field(&header, &rows[0], "error");
    assert!(
        error.contains("box 1") && error.contains("boxes of 2x3"),
        "{error}"
    );
}
