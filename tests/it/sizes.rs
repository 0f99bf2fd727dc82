//! Boards of every size end to end: layouts of every size read and solved, backends
//! that solve only 9x9 saying so, `gen --size`, and a time limit that stops a 25x25
//! search.

use crate::common::contains;
use crate::common::{field, project_file, read_csv, sudoku_bench};

fn dataset(name: &str) -> Vec<u8> {
    std::fs::read(project_file(&format!("datasets/{name}"))).unwrap()
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
