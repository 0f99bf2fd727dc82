//! Boards of every size end to end: the 16x16 judges byte-exact, layouts of every size
//! read and solved, backends that solve only 9x9 saying so, `gen --size`, and a time
//! limit that stops a 25x25 search.

mod common;

use common::{field, project_file, read_csv, sudoku_bench};
use predicates::str::contains;

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
        .stdout(answer);
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
        assert!(field(&header, r, "error").contains("-b dlx-arena"));
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
    for size in ["4", "16", "25"] {
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
            assert_eq!(field(&header, r, "size"), size);
        }
    }
    sudoku_bench()
        .args(["gen", "--size", "10"])
        .assert()
        .code(2)
        .stderr(contains("4, 9, 16 or 25"));
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
