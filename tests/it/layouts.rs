//! Reading what people publish: one test per finding of the issue that asked for it
//! (layouts, strictness, sources, subsets, outputs).

use std::path::Path;

use crate::common::contains;
use crate::common::{
    compress, field, project_file, solve_named, stdout_csv, sudoku_bench, sudoku_bench_in,
};

const P: &str = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
const S: &str = "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

/// The first `n` puzzles of the shipped dataset (puzzle, solution).
fn shipped(n: usize) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    text.lines()
        .skip(1)
        .take(n)
        .map(|l| (l[..81].to_string(), l[84..165].to_string()))
        .collect()
}

/// Solves `text` from a file named `name`; returns the exit code and the statuses.
fn solve_text(name: &str, text: &[u8], args: &[&str]) -> (i32, Vec<(String, String)>) {
    let args: Vec<&str> = std::iter::once("-q").chain(args.iter().copied()).collect();
    let (out, header, rows) = solve_named(name, text, &args);
    let rows = rows
        .iter()
        .map(|r| {
            (
                field(&header, r, "status").to_string(),
                field(&header, r, "matches_expected").to_string() + field(&header, r, "error"),
            )
        })
        .collect();
    (out.status.code().unwrap(), rows)
}

fn statuses(rows: &[(String, String)]) -> Vec<&str> {
    rows.iter().map(|r| r.0.as_str()).collect()
}

fn grid_of(p: &str, row: impl Fn(&str) -> String) -> String {
    (0..9).map(|r| row(&p[r * 9..r * 9 + 9]) + "\n").collect()
}

#[test]
fn norvig_separators_are_read_by_detection_and_by_format_grid() {
    let text: String = shipped(5)
        .iter()
        .map(|(p, _)| {
            format!(
                "=========\n{}",
                grid_of(&p.replace('.', "0"), str::to_string)
            )
        })
        .collect();
    for args in [&[][..], &["--format", "grid"]] {
        let (code, rows) = solve_text("easy50.txt", text.as_bytes(), args);
        assert_eq!((code, statuses(&rows)), (0, vec!["unique"; 5]), "{args:?}");
    }
}

#[test]
fn a_title_with_a_question_mark_does_not_make_a_file_hdu() {
    let mut text = "Royle's list of 17-clue puzzles? Some, with commas.\n".to_string();
    for (p, _) in shipped(20) {
        text += &format!("{}\n", p.replace('.', "0"));
    }
    let (code, rows) = solve_text("sudoku17.txt", text.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 20));
}

#[test]
fn grids_drawn_every_way_read_back() {
    let bands = |p: &str| -> String {
        let rows: Vec<String> = (0..9).map(|r| p[r * 9..r * 9 + 9].to_string()).collect();
        rows.chunks(3).map(|b| b.join("\n") + "\n\n").collect()
    };
    let pipes = |r: &str| format!("{}|{}|{}", &r[..3], &r[3..6], &r[6..]);
    let ruled: String = (0..9)
        .map(|i| {
            let row = pipes(&P[i * 9..i * 9 + 9]);
            if i == 3 || i == 6 {
                format!("---+---+---\n{row}\n")
            } else {
                format!("{row}\n")
            }
        })
        .collect();
    let comma = |blank: &str| {
        grid_of(P, |r| {
            let cells: Vec<String> = r
                .chars()
                .map(|c| {
                    if c == '.' {
                        blank.to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!(
                "{}, {}, {}",
                cells[..3].join(","),
                cells[3..6].join(","),
                cells[6..].join(",")
            )
        })
    };
    for (what, text) in [
        ("blank lines between bands", bands(P)),
        ("| and ---+--- rules", ruled),
        ("comma cells", comma("0")),
        ("empty comma fields", comma("")),
        ("X blanks", comma("X")),
        ("_ blanks", grid_of(&P.replace('.', "_"), |r| r.to_string())),
    ] {
        let twice = format!("{text}\n{text}");
        let (code, rows) = solve_text("grid.txt", twice.as_bytes(), &[]);
        assert_eq!(
            (code, statuses(&rows)),
            (0, vec!["unique"; 2]),
            "{what}:\n{twice}"
        );
    }
}

#[test]
fn one_line_records_with_other_fields() {
    let commas: String = P
        .chars()
        .map(|c| {
            if c == '.' {
                String::new()
            } else {
                c.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    let text = format!(
        "0000183b305c {}  1.2\n{P},417,24\n{commas}\n{P}\t{S}\n",
        P.replace('.', "0")
    );
    let (code, rows) = solve_text("bank.txt", text.as_bytes(), &[]);
    assert_eq!((code, statuses(&rows)), (0, vec!["unique"; 4]));
    // The solution in the last line was compared.
    assert!(rows[3].1.starts_with("true"), "{rows:?}");
}

#[test]
fn headerless_and_named_csv_compare_their_answers() {
    let pairs = shipped(30);
    let headerless: String = pairs.iter().map(|(p, s)| format!("{p},{s}\n")).collect();
    for args in [&[][..], &["--format", "csv"]] {
        let (code, rows) = solve_text("kaggle.csv", headerless.as_bytes(), args);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(rows.len(), 30);
        assert!(
            rows.iter().all(|r| r.1 == "true"),
            "{args:?}: answers compared"
        );
    }
    let named = format!(
        "puzzle_id,board,answer\n{}",
        pairs
            .iter()
            .enumerate()
            .map(|(i, (p, s))| format!("{i},{p},{s}\n"))
            .collect::<String>()
    );
    let (code, rows) = solve_text("bank.csv", named.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 30));
    assert!(rows.iter().all(|r| r.1 == "true"));
    // A header far longer than the old 8 KiB look.
    let long: Vec<String> = (0..2000).map(|i| format!("extra_column_{i}")).collect();
    let text = format!(
        "quizzes,{}\n{}\n",
        long.join(","),
        format!("{P},").repeat(1) + &",".repeat(1999)
    );
    let (code, rows) = solve_text("wide.csv", text.as_bytes(), &[]);
    assert_eq!((code, statuses(&rows)), (0, vec!["unique"]));
    // Columns chosen by number, the solution first.
    let swapped: String = pairs.iter().map(|(p, s)| format!("{s};{p}\n")).collect();
    let args = ["--puzzle-column", "2", "--solution-column", "1"];
    let (code, rows) = solve_text("swapped.csv", swapped.as_bytes(), &args);
    assert_eq!((code, rows.len()), (0, 30));
    assert!(rows.iter().all(|r| r.1 == "true"));
}

#[test]
fn a_record_that_is_not_exactly_one_grid_is_an_error_never_another_puzzle() {
    let text = format!(
        "{P}1:1:{S}\n{P}\n{}@{}\n{P}:1:{}\n",
        &P[..40],
        &P[41..],
        &S[..5]
    );
    let (code, rows) = solve_text("strict.txt", text.as_bytes(), &[]);
    assert_eq!(code, 3);
    assert_eq!(
        statuses(&rows),
        ["parse_error", "unique", "parse_error", "parse_error"]
    );
    assert!(
        rows[0].1.contains("column 82") && rows[0].1.contains("82 cells"),
        "{rows:?}"
    );
    assert!(rows[2].1.contains("column 41"), "{rows:?}");
    assert!(rows[3].1.contains("solution has 5 cells"), "{rows:?}");
}

#[test]
fn old_mac_line_endings_and_a_count_line_at_the_top() {
    let pairs = shipped(100);
    let cr: String = pairs.iter().map(|(p, _)| format!("{p}\r")).collect();
    let (code, rows) = solve_text("mac.txt", cr.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 100));
    let counted = format!(
        "90\n{}",
        pairs[..90]
            .iter()
            .map(|(p, _)| format!("{p}\n"))
            .collect::<String>()
    );
    let (code, rows) = solve_text("counted.txt", counted.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 90));
}

#[test]
fn a_missing_row_costs_its_grid_only() {
    let pairs = shipped(6);
    let mut text = String::new();
    for (i, (p, _)) in pairs.iter().enumerate() {
        let grid = grid_of(p, str::to_string);
        let grid = match i {
            // Back to back, one row lost in the second grid.
            1 => grid
                .lines()
                .enumerate()
                .filter(|(k, _)| *k != 4)
                .map(|(_, l)| format!("{l}\n"))
                .collect(),
            _ => grid,
        };
        text += &grid;
    }
    let (code, rows) = solve_text("poj2676.txt", text.as_bytes(), &[]);
    assert_eq!(code, 3);
    assert_eq!(
        statuses(&rows),
        [
            "unique",
            "parse_error",
            "unique",
            "unique",
            "unique",
            "unique"
        ]
    );
    // With a separator it is found at once.
    let separated = text.replacen(
        &grid_of(&pairs[2].0, str::to_string),
        &format!("\n{}", grid_of(&pairs[2].0, str::to_string)),
        1,
    );
    let (_, rows) = solve_text("sep.txt", separated.as_bytes(), &[]);
    assert_eq!(
        statuses(&rows),
        [
            "unique",
            "parse_error",
            "unique",
            "unique",
            "unique",
            "unique"
        ]
    );
}

#[test]
fn compressed_files_are_read_by_their_magic_bytes() {
    let text = std::fs::read(project_file("tests/data/kaggle.csv")).unwrap();
    for kind in ["gz", "zst", "xz", "bz2"] {
        let (code, rows) = solve_text(&format!("puzzles.{kind}"), &compress(kind, &text), &[]);
        assert_eq!((code, statuses(&rows)), (0, vec!["unique"; 2]), "{kind}");
        assert!(rows.iter().all(|r| r.1 == "true"), "{kind}");
    }
}

#[test]
fn folders_are_read_recursively_without_their_documentation() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p);
    std::fs::create_dir_all(d("sets/hard")).unwrap();
    std::fs::write(d("sets/a.txt"), format!("{P}\n")).unwrap();
    std::fs::write(
        d("sets/hard/b.txt.gz"),
        compress("gz", format!("{P}\n{P}\n").as_bytes()),
    )
    .unwrap();
    std::fs::write(d("sets/README.md"), "# About these puzzles\n").unwrap();
    std::fs::write(d("sets/.hidden.txt"), "junk").unwrap();
    let out = sudoku_bench()
        .args(["solve", "--csv", "-"])
        .arg(d("sets"))
        .assert()
        .success();
    let (header, rows) = stdout_csv(&out);
    assert_eq!(rows.len(), 3);
    assert!(field(&header, &rows[2], "source").ends_with("hard/b.txt.gz"));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("README.md") && stderr.contains("--glob"),
        "{stderr}"
    );
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "--max-depth", "0"])
        .arg(d("sets"))
        .assert()
        .success();
    assert_eq!(stdout_csv(&out).1.len(), 1);
    let out = sudoku_bench()
        .args(["solve", "--csv", "-", "--glob", "*.gz"])
        .arg(d("sets"))
        .assert()
        .success();
    assert_eq!(stdout_csv(&out).1.len(), 2);
}

#[test]
fn subsets_skip_limit_and_reproducible_samples() {
    let path = project_file("datasets/generated-3000.txt");
    let numbers = |args: &[&str]| -> Vec<String> {
        let out = sudoku_bench()
            .args(["solve", "--csv", "-", "-q"])
            .args(args)
            .arg(&path)
            .assert()
            .success();
        let (header, rows) = stdout_csv(&out);
        rows.iter()
            .map(|r| field(&header, r, "record").to_string())
            .collect()
    };
    assert_eq!(
        numbers(&["--skip", "10", "--limit", "3"]),
        ["11", "12", "13"]
    );
    let a = numbers(&["--sample", "7", "--seed", "5"]);
    assert_eq!(a.len(), 7);
    assert_eq!(a, numbers(&["--sample", "7", "--seed", "5"]));
    assert_ne!(a, numbers(&["--sample", "7", "--seed", "6"]));
}

#[test]
fn the_per_file_summary() {
    let out = sudoku_bench()
        .arg("solve")
        .arg(project_file("tests/data/mixed.txt"))
        .arg(project_file("tests/data/crlf.txt"))
        .assert()
        .code(3);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    // The summary counts every record, and has a line per file.
    assert!(stdout.contains("9 records"), "{stdout}");
    assert!(
        stdout.contains("mixed.txt") && stdout.contains("crlf.txt"),
        "{stdout}"
    );
}

#[test]
fn any_solution_count_limit() {
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    // Three backends agree on the count when allowed to count far enough.
    for backend in ["dlx-static", "dlx-arena", "bitboard", "dfs"] {
        let out = sudoku_bench()
            .args([
                "solve",
                "-q",
                "--csv",
                "-",
                "--max-solutions",
                "1000",
                "-b",
                backend,
                "-",
            ])
            .write_stdin(format!("{multi}\n"))
            .assert()
            .success();
        let (header, rows) = stdout_csv(&out);
        assert_eq!(field(&header, &rows[0], "solutions"), "872", "{backend}");
    }
    let file = format!("{multi}:872\n");
    let (code, rows) = solve_text("m.txt", file.as_bytes(), &["--max-solutions", "1000"]);
    assert_eq!((code, statuses(&rows)), (0, vec!["multiple"]));
    // Counting to 10 against a file that says 872: a match, up to the limit.
    let (code, _) = solve_text("m.txt", file.as_bytes(), &["--max-solutions", "10"]);
    assert_eq!(code, 0);
    let (code, rows) = solve_text(
        "m.txt",
        format!("{multi}:125\n").as_bytes(),
        &["--max-solutions", "1000"],
    );
    assert_eq!(code, 4);
    assert!(
        rows[0].1.contains("expected 125 solution(s), found 872"),
        "{rows:?}"
    );
}

#[test]
fn completions_man_page_and_version() {
    for shell in ["bash", "zsh", "fish"] {
        sudoku_bench()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(contains("sudoku-bench"));
    }
    sudoku_bench()
        .arg("man")
        .assert()
        .success()
        .stdout(contains(".TH sudoku-bench"));
    let out = sudoku_bench().arg("--version").assert().success();
    let version = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        version.contains(env!("CARGO_PKG_VERSION")) && version.contains('('),
        "{version}"
    );
}

fn bench_in(dir: &Path, args: &[&str]) -> std::process::Output {
    sudoku_bench_in(dir)
        .arg("bench")
        .args(args)
        .args(["--rounds", "1", "--warmup", "0"])
        .output()
        .unwrap()
}

#[test]
fn bench_reads_what_solve_reads_and_refuses_to_measure_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("junk.txt"), "not a puzzle\nnor this\n").unwrap();
    let out = bench_in(dir.path(), &["junk.txt"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("junk.txt: no line of it holds a puzzle")
    );
    assert!(out.stdout.is_empty(), "nothing measured, no table");
    let out = bench_in(dir.path(), &["missing.txt"]);
    assert_eq!(out.status.code(), Some(3));
    // Partly readable: the errors are counted and said, the rest measured, exit 3.
    let text = format!("{P}\n{}\n{P}\n", &P[..80]);
    std::fs::write(dir.path().join("part.txt"), &text).unwrap();
    let out = bench_in(dir.path(), &["part.txt", "--backends", "dlx-static"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 3 records could not be read"));
    // Standard input and a folder.
    std::fs::create_dir(dir.path().join("set")).unwrap();
    std::fs::write(dir.path().join("set/a.txt"), format!("{P}\n")).unwrap();
    let out = sudoku_bench_in(dir.path())
        .args([
            "bench",
            "-",
            "set",
            "--backends",
            "dlx-static",
            "--rounds",
            "1",
        ])
        .write_stdin(format!("{P}\n{P}\n"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.lines().any(|l| l.starts_with("dlx-static  -")),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("dlx-static  set")),
        "{stdout}"
    );
}

/// QQWing's `--solution` output (and any generator that prints the answer under the
/// puzzle): each complete grid that solves the puzzle before it is that puzzle's
/// expected answer, in lines and in grids; `--solutions-follow` overrides the guess.
#[test]
fn a_solution_printed_after_its_puzzle_is_its_answer_not_a_puzzle() {
    let pairs = shipped(40);
    let lines: String = pairs.iter().map(|(p, s)| format!("{p}\n{s}\n")).collect();
    let (code, rows) = solve_text("qqwing.txt", lines.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 40));
    assert!(
        rows.iter().all(|r| r == &("unique".into(), "true".into())),
        "{rows:?}"
    );
    // Readable grids, a blank line after each (QQWing's default print style).
    let dotted = |p: &str| grid_of(&p.replace('0', "."), |r| format!(" {r} "));
    let grids: String = pairs[..5]
        .iter()
        .map(|(p, s)| format!("{}\n{}\n", dotted(p), dotted(s)))
        .collect();
    let (code, rows) = solve_text("qqwing-grids.txt", grids.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 5), "{rows:?}");
    assert!(rows.iter().all(|r| r.1 == "true"), "{rows:?}");
    // Told not to: every grid is a puzzle, the solutions given ones.
    let (code, rows) = solve_text(
        "qqwing.txt",
        lines.as_bytes(),
        &["--solutions-follow", "no"],
    );
    assert_eq!((code, rows.len()), (0, 80));
    // In a file of pairs, a complete grid that does not solve its puzzle is a wrong
    // answer in the file (exit 4), not an 81-clue puzzle of its own.
    let (p, s) = &pairs[1];
    let wrong = &pairs[2].1; // complete, but another puzzle's
    let text = format!("{lines}{p}\n{wrong}\n{p}\n{s}\n");
    let (code, rows) = solve_text("qqwing.txt", text.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (4, 42), "{rows:?}");
    // It solves no puzzle: it breaks a given (it said "the solution differs").
    assert!(
        rows[40]
            .1
            .starts_with("falsethe file's answer does not solve the puzzle"),
        "{rows:?}"
    );
    // A plain file of puzzles and the odd full grid is not paired.
    let mut plain: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    plain.push_str(&format!("{}\n{}\n", pairs[0].0, pairs[0].1));
    let (code, rows) = solve_text("plain.txt", plain.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 42));
    // Forced on a file read with --format: pairs where they are.
    let (_, rows) = solve_text(
        "plain.txt",
        plain.as_bytes(),
        &["--format", "line", "--solutions-follow", "yes"],
    );
    assert_eq!(rows.len(), 41);
}

/// A forced format reads the file's own line endings: classic Mac CR-only lines are 20
/// records with `--format line`, not one.
#[test]
fn a_forced_format_keeps_the_files_line_endings() {
    let text: String = shipped(20).iter().map(|(p, _)| format!("{p}\r")).collect();
    for args in [&[][..], &["--format", "line"]] {
        let (code, rows) = solve_text("mac.txt", text.as_bytes(), args);
        assert_eq!((code, rows.len()), (0, 20), "{args:?}");
    }
}
