//! End-to-end tests of the `sudoku-bench` binary.

use crate::common::contains;
use crate::common::{field, project_file, read_csv, stable_csv, stdout_csv, sudoku_bench};

fn solve_to_csv(args: &[&str], expected_exit: i32) -> (Vec<String>, Vec<Vec<String>>) {
    let out = sudoku_bench()
        .arg("solve")
        .args(args)
        .args(["--csv", "-", "-q"])
        .assert()
        .code(expected_exit);
    read_csv(&String::from_utf8(out.get_output().stdout.clone()).unwrap())
}

#[test]
fn solves_the_shipped_dataset_with_every_backend() {
    let path = project_file("datasets/generated-3000.txt");
    for backend in ["dlx-static", "dlx-arena", "bitboard"] {
        let (header, rows) = solve_to_csv(&[path.to_str().unwrap(), "-b", backend], 0);
        assert_eq!(rows.len(), 3000);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(field(&header, row, "record"), (i + 1).to_string());
            assert_eq!(field(&header, row, "line"), (i + 2).to_string());
            assert_eq!(field(&header, row, "status"), "unique");
            assert_eq!(field(&header, row, "matches_expected"), "true");
            assert_eq!(field(&header, row, "valid"), "true");
        }
    }
    // dfs on the first 200: these have 22+ clues and finish well within budget.
    let first: String = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .take(201)
        .collect::<Vec<_>>()
        .join("\n");
    let out = sudoku_bench()
        .args(["solve", "-b", "dfs", "--csv", "-", "-q"])
        .write_stdin(first)
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    assert_eq!(rows.len(), 200);
    assert!(
        rows.iter()
            .all(|r| field(&header, r, "matches_expected") == "true")
    );
}

#[test]
fn every_status_in_one_file_with_each_backend() {
    let path = project_file("tests/data/mixed.txt");
    for backend in ["dlx-static", "dlx-arena", "bitboard", "dfs"] {
        let (header, rows) = solve_to_csv(&[path.to_str().unwrap(), "-b", backend], 3);
        let statuses: Vec<&str> = rows.iter().map(|r| field(&header, r, "status")).collect();
        assert_eq!(
            statuses,
            [
                "unique",
                "no_solution",
                "multiple",
                "invalid_givens",
                "parse_error",
                "parse_error",
                "unique"
            ],
            "{backend}"
        );
        let lines: Vec<&str> = rows.iter().map(|r| field(&header, r, "line")).collect();
        assert_eq!(lines, ["2", "3", "4", "5", "6", "7", "8"]);
        assert_eq!(
            field(&header, &rows[3], "error"),
            "digit 5 twice in row 1 (r1c1 and r1c2)"
        );
        assert!(field(&header, &rows[4], "error").contains("column 24"));
        assert_eq!(field(&header, &rows[2], "solutions"), "2");
        assert_eq!(field(&header, &rows[0], "matches_expected"), "true");
        assert_eq!(field(&header, &rows[1], "matches_expected"), "true");
        assert_eq!(field(&header, &rows[2], "matches_expected"), "true");
    }
}

#[test]
fn max_solutions_one_reports_solved() {
    let path = project_file("tests/data/mixed.txt");
    let (header, rows) = solve_to_csv(&[path.to_str().unwrap(), "--max-solutions", "1"], 3);
    let statuses: Vec<&str> = rows.iter().map(|r| field(&header, r, "status")).collect();
    assert_eq!(statuses[..3], ["solved", "no_solution", "solved"]);
    assert!(
        rows.iter()
            .all(|r| field(&header, r, "matches_expected") != "false")
    );
}

#[test]
fn csv_snapshot() {
    let out = sudoku_bench()
        .args(["solve", "-b", "dlx-static", "--csv", "-", "-q"])
        .arg(project_file("tests/data/mixed.txt"))
        .assert()
        .code(3);
    insta::assert_snapshot!(stable_csv(&String::from_utf8_lossy(
        &out.get_output().stdout
    )));
}

#[test]
fn judge_outputs_are_byte_identical_to_the_samples() {
    for (problem, stem) in [("hdu1426", "hdu1426-sample"), ("poj3074", "poj3074-sample")] {
        for backend in ["dlx-static", "dlx-arena", "bitboard", "dfs"] {
            let input = std::fs::read(project_file(&format!("datasets/{stem}.in"))).unwrap();
            let want = std::fs::read(project_file(&format!("datasets/{stem}.out"))).unwrap();
            sudoku_bench()
                .args(["judge", problem, "-b", backend])
                .write_stdin(input)
                .assert()
                .success()
                .stdout(want);
        }
    }
}

#[test]
fn judge_hdu_separates_solutions_with_one_blank_line() {
    let case = std::fs::read_to_string(project_file("datasets/hdu1426-sample.in")).unwrap();
    let input = format!("{case}\n{case}\n{case}");
    let out = sudoku_bench()
        .args(["judge", "hdu1426"])
        .write_stdin(input)
        .assert()
        .success();
    insta::assert_snapshot!(String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn judge_poj_stops_at_end() {
    let input = std::fs::read_to_string(project_file("datasets/poj3074-sample.in")).unwrap()
        + "this is never read\n";
    let out = sudoku_bench()
        .args(["judge", "poj3074"])
        .write_stdin(input)
        .assert()
        .success();
    insta::assert_snapshot!(String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn each_format_is_detected_and_solved() {
    for (file, count) in [
        ("tests/data/kaggle.csv", 2),
        ("tests/data/bordered.grid", 2),
        ("tests/data/poj2676.txt", 1),
        ("tests/data/crlf.txt", 2),
        ("datasets/hdu1426-sample.in", 1),
        ("datasets/poj3074-sample.in", 2),
    ] {
        let (header, rows) = solve_to_csv(&[project_file(file).to_str().unwrap()], 0);
        assert_eq!(rows.len(), count, "{file}");
        for row in &rows {
            assert_eq!(field(&header, row, "status"), "unique", "{file}");
            assert_eq!(field(&header, row, "valid"), "true", "{file}");
        }
    }
}

#[test]
fn reads_stdin_and_directories() {
    let input = std::fs::read(project_file("tests/data/crlf.txt")).unwrap();
    let (header, rows) = {
        let out = sudoku_bench()
            .args(["solve", "--csv", "-", "-q", "-"])
            .write_stdin(input)
            .assert()
            .success();
        stdout_csv(&out)
    };
    assert_eq!(rows.len(), 2);
    assert_eq!(field(&header, &rows[0], "source"), "-");

    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        project_file("tests/data/crlf.txt"),
        dir.path().join("b.txt"),
    )
    .unwrap();
    std::fs::copy(
        project_file("tests/data/kaggle.csv"),
        dir.path().join("a.csv"),
    )
    .unwrap();
    let (header, rows) = solve_to_csv(&[dir.path().to_str().unwrap()], 0);
    let sources: Vec<&str> = rows.iter().map(|r| field(&header, r, "source")).collect();
    assert_eq!(sources.len(), 4);
    assert!(sources[0].ends_with("a.csv") && sources[3].ends_with("b.txt"));
}

#[test]
fn missing_input_is_reported_and_the_rest_solved() {
    let good = project_file("tests/data/crlf.txt");
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "-q", "no/such/file.txt"])
        .arg(&good)
        .assert()
        .code(3)
        .stderr(contains("no/such/file.txt"));
    let (_, rows) = stdout_csv(&out);
    assert_eq!(rows.len(), 2);
}

#[test]
fn wrong_expected_answers_exit_4() {
    let text = "\
.5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4:1:562483917978162435314975628825736149791824563436519872269348751547291386183657294\n";
    sudoku_bench()
        .args(["solve", "-q", "-"])
        .write_stdin(text)
        .assert()
        .code(4);
}

#[test]
fn solutions_file_round_trips_as_expected_answers() {
    let dir = tempfile::tempdir().unwrap();
    let solved = dir.path().join("out.solved");
    sudoku_bench()
        .args(["solve", "-q", "--solutions"])
        .arg(&solved)
        .arg(project_file("tests/data/mixed.txt"))
        .assert()
        .code(3);
    let text = std::fs::read_to_string(&solved).unwrap();
    assert_eq!(text.lines().count(), 7);
    assert!(text.lines().nth(1).unwrap().ends_with(":0:"));
    // Fed back, every answer agrees; the parse errors were written as comments.
    let (header, rows) = solve_to_csv(&[solved.to_str().unwrap(), "-b", "dlx-arena"], 0);
    assert_eq!(rows.len(), 5);
    assert!(
        rows.iter()
            .all(|r| field(&header, r, "matches_expected") != "false")
    );
}

#[test]
fn refuses_to_overwrite_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::copy(project_file("tests/data/crlf.txt"), &input).unwrap();
    sudoku_bench()
        .args(["solve", "--csv"])
        .arg(&input)
        .arg(&input)
        .assert()
        .code(1)
        .stderr(contains("it is the same file as the input"));
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(project_file("tests/data/crlf.txt")).unwrap()
    );
}

#[test]
fn dfs_budget_is_reported_not_hung() {
    let hostile =
        "001000000200000000003000000400000005005000600600000040007103000800000000009020000\n";
    let out = sudoku_bench()
        .args([
            "solve",
            "-b",
            "dfs",
            "--max-nodes",
            "100000",
            "--csv",
            "-",
            "-q",
        ])
        .write_stdin(hostile)
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    assert_eq!(field(&header, &rows[0], "status"), "budget_exceeded");
    assert_eq!(field(&header, &rows[0], "nodes"), "100001");
}

/// datasets/README.md promises that its command rewrites the shipped file, header
/// included, byte for byte.
#[test]
fn the_shipped_dataset_regenerates_byte_for_byte() {
    let out = sudoku_bench()
        .args(["gen", "--count", "3000", "--seed", "1", "--min-clues", "22"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let shipped = std::fs::read(project_file("datasets/generated-3000.txt")).unwrap();
    let line =
        |b: &[u8]| String::from_utf8_lossy(b.split(|&c| c == b'\n').next().unwrap()).to_string();
    assert_eq!(line(&out), line(&shipped));
    assert!(out == shipped, "the body differs");
}

#[test]
fn gen_is_reproducible_and_unique() {
    let run = || {
        sudoku_bench()
            .args(["gen", "--count", "50", "--seed", "42", "--min-clues", "25"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run());
    let text = String::from_utf8(a).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 50);
    sudoku_bench()
        .args(["solve", "-q", "-"])
        .write_stdin(text)
        .assert()
        .success();
}

#[test]
fn summary_goes_to_stdout_when_stdout_is_free() {
    sudoku_bench()
        .args(["solve"])
        .arg(project_file("tests/data/crlf.txt"))
        .assert()
        .success()
        .stdout(contains("bitboard: 2 records"))
        .stdout(contains("unique 2"))
        .stderr("");
}

#[test]
fn usage_errors_exit_2() {
    sudoku_bench()
        .args(["solve", "--max-solutions", "0"])
        .assert()
        .code(2);
    sudoku_bench()
        .args(["solve", "-b", "nope"])
        .assert()
        .code(2);
}

#[test]
fn a_byte_order_mark_is_skipped_in_every_format() {
    let line = std::fs::read_to_string(project_file("tests/data/crlf.txt")).unwrap();
    let grid = std::fs::read_to_string(project_file("tests/data/bordered.grid")).unwrap();
    let hdu = std::fs::read_to_string(project_file("datasets/hdu1426-sample.in")).unwrap();
    for (text, count) in [(line, 2), (grid, 2), (hdu, 1)] {
        let out = sudoku_bench()
            .args(["solve", "--csv", "-", "-q"])
            .write_stdin(format!("\u{FEFF}{text}"))
            .assert()
            .success();
        let (_, rows) = stdout_csv(&out);
        assert_eq!(rows.len(), count);
    }
    let poj = std::fs::read_to_string(project_file("datasets/poj3074-sample.in")).unwrap();
    sudoku_bench()
        .args(["judge", "poj3074"])
        .write_stdin(format!("\u{FEFF}{poj}"))
        .assert()
        .success()
        .stdout(std::fs::read_to_string(project_file("datasets/poj3074-sample.out")).unwrap());
}

#[test]
fn long_poj_input_stops_at_end() {
    // Longer than the 8 KiB detection window: `end` must still end it.
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let puzzles: Vec<&str> = text.lines().skip(1).take(200).map(|l| &l[..81]).collect();
    let input = puzzles.join("\n") + "\nend\nthis is never read\n";
    let (_, rows) = {
        let out = sudoku_bench()
            .args(["solve", "--csv", "-", "-q"])
            .write_stdin(input)
            .assert()
            .success();
        stdout_csv(&out)
    };
    assert_eq!(rows.len(), 200);
}

#[test]
fn two_outputs_to_one_place_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = project_file("tests/data/crlf.txt");
    sudoku_bench()
        .arg("solve")
        .arg(&input)
        .arg("--csv")
        .arg(&out)
        .arg("--solutions")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains("same output"));
    sudoku_bench()
        .arg("solve")
        .arg(&input)
        .args(["--csv", "-", "--solutions", "-"])
        .assert()
        .code(1);
}

/// A reader that goes away (`| head -0`) before reading anything.
fn run_with_closed_pipe(args: &[&str], input: &str) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(crate::common::bin())
        .arg("solve")
        .arg(project_file(input))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_loses_the_summary_but_never_the_exit_status() {
    // Only the summary went there: the exit status still tells the outcome.
    let out = run_with_closed_pipe(&[], "datasets/generated-3000.txt");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("w.csv");
    let wrong = run_with_closed_pipe(
        &["--csv", csv.to_str().unwrap()],
        "tests/data/wrong_answer.txt",
    );
    assert_eq!(wrong.status.code(), Some(4));
}

#[test]
fn rows_sent_to_a_closed_pipe_are_an_error() {
    let out = run_with_closed_pipe(&["--csv", "-"], "datasets/generated-3000.txt");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("standard output") && stderr.contains("reader closed"),
        "{stderr}"
    );
}

/// Unclear messages from the second hostile pass: a gzip'ed UTF-16 file (every line
/// "no puzzle"), a 36x36 board ("no puzzle in this line"), `--puzzle-column` past the
/// last column ("row has 2 fields, header has 2").
#[test]
fn messages_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let utf16: Vec<u8> = std::iter::once(0xFEFFu16)
        .chain(format!("{puzzle}\r\n{puzzle}\r\n").encode_utf16())
        .flat_map(u16::to_le_bytes)
        .collect();
    for kind in ["gz", "zst", "xz", "bz2"] {
        let path = dir.path().join(format!("u16.txt.{kind}"));
        std::fs::write(&path, crate::common::compress(kind, &utf16)).unwrap();
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-"])
            .arg(&path)
            .assert()
            .success();
        assert_eq!(stdout_csv(&out).1.len(), 2, "{kind}");
    }
    let big = dir.path().join("b36.txt");
    std::fs::write(&big, ".".repeat(36 * 36) + "\n").unwrap();
    sudoku_bench()
        .arg("solve")
        .arg(&big)
        .assert()
        .code(3)
        .stderr(contains("1296 cells: a 36x36 board, which is not read"));
    let csv = dir.path().join("two.csv");
    std::fs::write(&csv, format!("id,puzzle\n1,{puzzle}\n")).unwrap();
    sudoku_bench()
        .args(["solve", "--puzzle-column", "5"])
        .arg(&csv)
        .assert()
        .code(3)
        .stderr(contains("no column 5"));
}

/// An input with no puzzle exits 3 in every command (solve exited 0, bench 3), and
/// `--skip` past the end says so (it said the input holds no puzzles).
#[test]
fn no_puzzle_at_all_is_exit_3_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    sudoku_bench()
        .arg("solve")
        .arg(dir.path())
        .assert()
        .code(3)
        .stderr(contains("no puzzles"));
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    sudoku_bench()
        .args(["bench", "--backends", "null", "--rounds", "1"])
        .arg(&empty)
        .assert()
        .code(3);
    sudoku_bench()
        .args(["judge", "poj3074"])
        .write_stdin("")
        .assert()
        .code(3)
        .stderr(contains("no cases"));
    sudoku_bench()
        .args(["solve", "--skip", "18446744073709551615"])
        .arg(project_file("tests/data/crlf.txt"))
        .assert()
        .code(3)
        .stderr(contains(
            "no records left after --skip 18446744073709551615",
        ));
}

#[test]
fn backends_lists_every_name_solve_accepts() {
    let out = sudoku_bench()
        .arg("backends")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(&names[names.len() - 2..], ["exec:CMD", "lib:PATH:SYMBOL"]);
    assert!(
        names.contains(&"bitboard") && names.contains(&"null"),
        "{text}"
    );
    // The ones marked are bench's default list, the same the library declares.
    let marked: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with("(bench's default)"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let default: Vec<_> = sudoku_bench::Backend::bench_default().collect();
    assert_eq!(marked, default.iter().map(|b| b.name()).collect::<Vec<_>>());
    assert!(
        !marked.contains(&"dfs") && marked.contains(&"bitboard"),
        "{text}"
    );
    for line in text.lines() {
        let (name, what) = line.split_once("  ").unwrap();
        assert!(!what.trim().is_empty(), "{line}");
        if name.contains(':') {
            continue;
        }
        sudoku_bench()
            .args(["solve", "-q", "-b", name.trim(), "-"])
            .write_stdin(".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4\n")
            .assert()
            .success();
    }
}

/// A puzzle line for the tests of reading past a file's head.
const GOOD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Past the head of a file, lines are parsed on the worker threads: a bad line there
/// is still a parse error row naming its line, said on stderr, and a wrong answer
/// there still exits 4, with the same summary as an eager read.
#[test]
fn late_records_parsed_on_workers_report_as_early_ones() {
    let good = GOOD;
    let wrong = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4:1:562483917978162435314975628825736149791824563436519872269348751547291386183657295";
    let bad = format!("{}a", &good[..80]);
    let mut text = String::new();
    for i in 1..=3000 {
        text.push_str(match i {
            2500 => bad.as_str(),
            2700 => wrong,
            _ => good,
        });
        text.push('\n');
    }
    let out = sudoku_bench()
        .args(["solve", "-b", "null", "-j", "2", "--csv", "-", "-"])
        .write_stdin(text.clone())
        .assert()
        .code(3);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("-: line 2500, column 81: 'a' is not a digit"),
        "{stderr}"
    );
    let (header, rows) = read_csv(&String::from_utf8(out.get_output().stdout.clone()).unwrap());
    assert_eq!(rows.len(), 3000);
    assert_eq!(field(&header, &rows[2499], "status"), "parse_error");
    assert_eq!(field(&header, &rows[2499], "line"), "2500");
    // The wrong expected answer is found by a real backend.
    sudoku_bench()
        .args(["solve", "-q", "-j", "2", "-"])
        .write_stdin(text.replace(&bad, good))
        .assert()
        .code(4);
}

/// A file whose head reads well and whose rest does not still gets the note that says
/// it may be misread, though the rest was parsed on the worker threads.
#[test]
fn a_misread_tail_is_noted_with_several_threads() {
    let good = GOOD;
    let mut text = format!("{good}\n").repeat(1030);
    for _ in 0..5000 {
        text.push_str(&format!("{}\n", &good[..80]));
    }
    for threads in ["1", "2"] {
        let out = sudoku_bench()
            .args(["solve", "-q", "-b", "null", "-j", threads, "-"])
            .write_stdin(text.clone())
            .assert()
            .code(3);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains("note: -: 5000 of 6030 records could not be read as line"),
            "-j{threads}: {stderr}"
        );
    }
}

/// Past a file's head, `solve` reads whole blocks of lines and leaves splitting,
/// parsing and numbering to the workers. The rows are those of a read that counts
/// records as it goes (`--limit`): per source, with comments, blank lines, CRLF, bad
/// lines and a file given twice.
#[test]
fn blocks_of_lines_number_records_as_a_counting_read_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = String::new();
    for i in 1..=5000 {
        match i % 97 {
            0 => a.push_str("# a comment\r\n"),
            1 => a.push_str("\r\n"),
            2 => a.push_str(&format!("{}a\r\n", &GOOD[..80])),
            _ => a.push_str(&format!("{GOOD}\r\n")),
        }
    }
    let b = format!("{GOOD}:1\n").repeat(3000);
    let (pa, pb) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let run = |extra: &[&str]| {
        let out = sudoku_bench()
            .args(["solve", "-q", "-b", "null", "--csv", "-"])
            .args(extra)
            .args([&pa, &pb, &pa])
            .assert()
            .code(3);
        stable_csv(&String::from_utf8(out.get_output().stdout.clone()).unwrap())
    };
    let counted = run(&["-j", "2", "--limit", "100000"]);
    let skipped = (1..=5000).filter(|i| i % 97 < 2).count();
    assert_eq!(counted.lines().count(), 1 + 2 * (5000 - skipped) + 3000);
    for threads in ["1", "2", "3"] {
        assert_eq!(run(&["-j", threads]), counted, "-j{threads}");
    }
}

/// `solve -v` says which of bitboard's compiled paths ran; the variable forces the
/// baseline, and a name that is no path is a usage error.
#[test]
fn solve_verbose_names_the_bitboard_path() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    sudoku_bench()
        .args(["solve", "-v", "-"])
        .env("SUDOKU_BENCH_BITBOARD_PATH", "x86-64")
        .write_stdin(puzzle)
        .assert()
        .success()
        .stdout(contains("bitboard: ran its x86-64 path"));
    sudoku_bench()
        .args(["solve", "-"])
        .env("SUDOKU_BENCH_BITBOARD_PATH", "avx9000")
        .write_stdin(puzzle)
        .assert()
        .code(2)
        .stderr(contains(
            "not one of x86-64, x86-64-v2, x86-64-v3, x86-64-v4",
        ));
}
