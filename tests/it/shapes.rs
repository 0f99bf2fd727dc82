//! A file's shape is decided once per file, from a sample, said, and applied to every
//! record: the alphabet of boards other than 9x9.

use crate::common::contains;
use crate::common::{easy_16x16, field, read_csv, solve_named, sudoku_bench};

/// `n` generated 16x16 puzzles (letters `A`-`P`, `.` blanks), seeded.
fn puzzles_16x16(n: usize) -> Vec<String> {
    String::from_utf8(easy_16x16(n, 11))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l[..256].to_string())
        .collect()
}

/// Letters `A`-`P` written as `1`-`9`, `A`-`G` (the other published 16x16 alphabet).
fn digits_letters(puzzle: &str) -> String {
    puzzle
        .chars()
        .map(|c| match c {
            'A'..='I' => char::from(b'1' + (c as u8 - b'A')),
            'J'..='P' => char::from(b'A' + (c as u8 - b'J')),
            other => other,
        })
        .collect()
}

/// Regression: in a 16x16 file written `1`-`9`, `A`-`G`, the lines that happened to
/// hold no `G` were read as hex (`1` as 2), relabelled without a word. The file's
/// alphabet is now decided once, said, and read into every record.
#[test]
fn a_16x16_alphabet_is_decided_once_per_file_not_per_line() {
    let puzzles: Vec<String> = puzzles_16x16(9)
        .into_iter()
        .enumerate()
        // Every third puzzle loses its Ps (the G of the other alphabet).
        .map(|(i, p)| if i % 3 == 0 { p.replace('P', ".") } else { p })
        .collect();
    let text: String = puzzles.iter().map(|p| digits_letters(p) + "\n").collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g16.txt");
    std::fs::write(&path, &text).unwrap();
    let out = sudoku_bench()
        .args(["solve", "-b", "null", "--csv", "-"])
        .arg(&path)
        .assert()
        .code(0)
        .stderr(contains(
            "16x16 boards read as 1-9 then A-G (digits-letters), decided from the 9 in its first 64 KiB",
        ));
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(rows.len(), 9);
    // Written back in the file's own symbols.
    for (row, puzzle) in rows.iter().zip(&puzzles) {
        assert_eq!(field(&header, row, "puzzle"), digits_letters(puzzle));
    }
    // Told otherwise, the file is read otherwise, and a line that does not fit says
    // what the file was taken to be and how to change it.
    let out = sudoku_bench()
        .args(["solve", "-b", "null", "--alphabet", "hex", "--csv", "-"])
        .arg(&path)
        .assert()
        .code(3);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    let error = field(&header, &rows[1], "error");
    assert!(
        error.contains("'G' is not a cell of a 16x16 board: this file writes 16x16 boards 0-9 then A-F (hex; --alphabet reads them otherwise)"),
        "{error}"
    );
}

const P: &str = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
const S: &str = "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

/// Solves `text` as a file named `name`: the exit code, each CSV row's line, status
/// and comparison with its expected answer, and stderr.
fn solve(name: &str, text: &str, args: &[&str]) -> (i32, Vec<(String, String, String)>, String) {
    let (out, header, rows) = solve_named(name, text.as_bytes(), args);
    let rows = rows
        .iter()
        .map(|r| {
            let f = |c| field(&header, r, c).to_string();
            (f("line"), f("status"), f("matches_expected"))
        })
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap(), rows, stderr)
}

/// Regression: a CSV grid with an `ID` column before the nine cells (`_` blanks) was
/// read right once, then failed "row has 10 cells". The label column is decided once
/// for the file, and said.
#[test]
fn grid_rows_after_a_label_column_read() {
    let mut text = String::from("ID,c1,c2,c3,c4,c5,c6,c7,c8,c9\n");
    for id in 1..=2 {
        for row in P.as_bytes().chunks(9) {
            let cells: Vec<String> = row
                .iter()
                .map(|&b| {
                    if b == b'.' {
                        "_".into()
                    } else {
                        char::from(b).to_string()
                    }
                })
                .collect();
            text += &format!("{id},{}\n", cells.join(","));
        }
    }
    let (code, statuses, stderr) = solve("id-grid.csv", &text, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(statuses.len(), 2, "{stderr}");
    assert!(statuses.iter().all(|r| r.1 == "unique"), "{statuses:?}");
    assert!(
        stderr.contains("each row starts with a label, not a cell"),
        "{stderr}"
    );
    // Row numbers 1-9 as labels are digits too: still a label column.
    let numbered: String = text
        .lines()
        .take(10)
        .enumerate()
        .map(|(i, l)| match i {
            0 => format!("{l}\n"),
            _ => format!("{i}{}\n", &l[1..]),
        })
        .collect();
    let (code, statuses, _) = solve("numbered.csv", &numbered, &[]);
    assert_eq!((code, statuses.len()), (0, 1), "{statuses:?}");
}

/// `solution;puzzle` lines were refused as "2 puzzles on one line": the answer is the
/// complete grid that keeps the other's givens, whichever comes first.
#[test]
fn a_pair_reads_in_either_order() {
    for text in [format!("{S};{P}\n{P};{S}\n"), format!("{S} {P}\n{P},{S}\n")] {
        let (code, statuses, stderr) = solve("pairs.txt", &text, &[]);
        assert_eq!(code, 0, "{stderr}");
        let got: Vec<(&str, &str)> = statuses.iter().map(|r| (&*r.1, &*r.2)).collect();
        assert_eq!(got, [("unique", "true"), ("unique", "true")], "{text}");
    }
    // A complete grid that does not keep the other's givens is no answer to it.
    let mut other = S.as_bytes().to_vec();
    other.swap(0, 1);
    let other = String::from_utf8(other).unwrap();
    let (code, statuses, _) = solve("pairs.txt", &format!("{other};{P}\n"), &[]);
    assert_eq!(code, 3);
    assert_eq!(statuses[0].1, "parse_error");
}

/// OpenSudoku written `<game data="..."/>`, no space before `/>`: every game was refused
/// ("'\"' is not a digit"). A quoted value ends at its closing quote.
#[test]
fn a_quoted_value_ends_at_its_quote() {
    let zeros = P.replace('.', "0");
    let text = format!(
        "<opensudoku>\n<game data=\"{zeros}\"/>\n<game data='{zeros}'>\n<game data=\"{zeros}\" />\n</opensudoku>\n"
    );
    let (code, statuses, stderr) = solve("games.opensudoku", &text, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(statuses.len(), 3, "{stderr}");
    assert!(statuses.iter().all(|r| r.1 == "unique"), "{statuses:?}");
}

/// With no `-b`, each record goes to the fastest backend for its size, the CSV names
/// it, and the summary says which took what; an explicit 9x9-only backend still says
/// `unsupported` for other sizes.
#[test]
fn the_default_backend_fits_each_board() {
    let sixteen: Vec<String> = puzzles_16x16(2);
    let text = format!("{P}\n{}\n{}\n", sixteen[0], sixteen[1]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.txt");
    std::fs::write(&path, &text).unwrap();
    sudoku_bench()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(0)
        .stdout(contains(
            "bitboard for 9x9, dlx-arena for other sizes: 3 records",
        ));
    let out = sudoku_bench()
        .args(["solve", "--csv", "-"])
        .arg(&path)
        .assert()
        .code(0);
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.get_output().stdout));
    let by: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (field(&header, r, "backend"), field(&header, r, "status")))
        .collect();
    assert_eq!(
        by,
        [
            ("bitboard", "unique"),
            ("dlx-arena", "unique"),
            ("dlx-arena", "unique")
        ]
    );
    let (code, statuses, _) = solve("mixed.txt", &text, &["-b", "bitboard"]);
    assert_eq!(code, 3);
    let got: Vec<&str> = statuses.iter().map(|s| s.1.as_str()).collect();
    assert_eq!(got, ["unique", "unsupported", "unsupported"]);
}

/// The JSON of the issue: a pretty-printed array of `{"input", "solutions": [...]}`
/// (every input line was rejected, every answer solved as an 81-clue puzzle), nested
/// grids with `null` blanks, arrays of strings, objects of lists, pairs.
#[test]
fn json_documents_read_as_their_records() {
    let nested = |p: &str, blank: &str| -> String {
        let rows: Vec<String> = p
            .as_bytes()
            .chunks(9)
            .map(|r| {
                let cells: Vec<String> = r
                    .iter()
                    .map(|&b| {
                        if b == b'.' {
                            blank.to_string()
                        } else {
                            char::from(b).to_string()
                        }
                    })
                    .collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        format!("[{}]", rows.join(",\n    "))
    };
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let cases = [
        (
            "input-solutions.json",
            format!(
                "[\n  {{\n    \"input\": \"{P}\",\n    \"solutions\": [\n      \"{S}\"\n    ]\n  }},\n  {{\n    \"input\": \"{multi}\",\n    \"solutions\": [\"x\", \"y\"]\n  }}\n]\n"
            ),
            vec![("2", "unique", "true"), ("8", "parse_error", "")],
        ),
        (
            "grids.json",
            format!(
                "{{\"puzzles\": [\n  {{\"id\": 7, \"grid\": {}, \"solution\": \"{S}\"}},\n  {{\"grid\": {}}}\n]}}\n",
                nested(P, "null"),
                nested(P, "0")
            ),
            vec![("2", "unique", "true"), ("11", "unique", "")],
        ),
        (
            "strings.json",
            format!(
                "{{\"easy\": [\"{P}\", \"{P}\"],\n \"hard\": [\"{multi}\"], \"name\": \"set one\"}}"
            ),
            vec![
                ("1", "unique", ""),
                ("1", "unique", ""),
                ("2", "multiple", ""),
            ],
        ),
        (
            "pairs.json",
            format!("[[\"{S}\", \"{P}\"],\n [\"{P}\", \"{S}\"],\n [\"{P}\", \"{P}\"]]"),
            vec![
                ("1", "unique", "true"),
                ("2", "unique", "true"),
                ("3", "unique", ""),
                ("3", "unique", ""),
            ],
        ),
    ];
    for (name, text, want) in cases {
        let (code, got, stderr) = solve(name, &text, &["-v"]);
        let got: Vec<(&str, &str, &str)> = got
            .iter()
            .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
            .collect();
        assert_eq!(got, want, "{name}: {stderr}");
        let errors = want.iter().any(|w| w.1 == "parse_error");
        assert_eq!(code, if errors { 3 } else { 0 }, "{name}: {stderr}");
        assert!(stderr.contains("read as json"), "{name}: {stderr}");
    }
}

/// A document far larger than what is parsed whole is read a record at a time, each
/// numbered from its own line; a document that breaks keeps the records before it and
/// says where it broke.
#[test]
fn a_large_json_document_streams_and_a_broken_one_says_where() {
    let n = 3000;
    let body: Vec<String> = (0..n).map(|_| format!("  \"{P}\"")).collect();
    let text = format!("[\n{}\n]\n", body.join(",\n"));
    assert!(text.len() > 200_000);
    let (code, got, stderr) = solve("big.json", &text, &[]);
    assert_eq!((code, got.len()), (0, n), "{stderr}");
    assert_eq!(got[0].0, "2");
    assert_eq!(got[n - 1].0, (n + 1).to_string());
    let cut = &text[..text.len() / 2];
    let (code, got, _) = solve("cut.json", cut, &[]);
    assert_eq!(code, 3);
    let last = got.last().unwrap();
    assert_eq!(last.1, "parse_error");
    assert!(got[..got.len() - 1].iter().all(|g| g.1 == "unique"));
    assert!(got.len() > n / 3);
}

/// A puzzle under a key no list names is still read (never dropped without a word);
/// text under other keys, and an answer's key, are passed over.
#[test]
fn json_strings_under_other_keys_read_when_they_are_boards() {
    let text = format!(
        "{{\"title\": \"Set one, with a long description\", \"data\": \"{P}\", \"answer\": \"{S}\"}}\n"
    );
    let (code, rows, stderr) = solve("set.json", &text, &["-v"]);
    assert_eq!(code, 0, "{stderr}");
    let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(got, ["unique"], "{stderr}");
}

/// Program source is no data format: JavaScript, Python, TypeScript and C files holding
/// puzzles are refused, saying which line is code and what to do, and read only as a
/// reading named with `--format` reads them (its puzzle lines; the code skipped).
#[test]
fn program_source_is_refused_saying_what_to_do() {
    let rows = P.as_bytes().chunks(9).map(|r| {
        let cells: Vec<String> = r
            .iter()
            .map(|&c| {
                if c == b'.' {
                    "0".into()
                } else {
                    char::from(c).to_string()
                }
            })
            .collect();
        format!("    [{}],\n", cells.join(", "))
    });
    let board: String = rows.collect();
    let cases = [
        (
            "p.js",
            format!("const puzzles = [\n  \"{P}\",\n  \"{P}\",\n];\n\nexport default puzzles;\n"),
            1,
        ),
        (
            "p.py",
            format!("# puzzles\nPUZZLES = [\n    \"{P}\",\n    '{P}',\n]\n"),
            2,
        ),
        (
            "m.js",
            format!("module.exports = {{\n  easy: [\n    \"{P}\",\n  ],\n}};\n"),
            1,
        ),
        (
            "board.py",
            format!("import sys\n\nBOARD = [\n{board}]\n"),
            1,
        ),
        (
            "g.c",
            format!(
                "int grid[9][9] = {{\n{}}};\n",
                board.replace('[', "{").replace(']', "}")
            ),
            1,
        ),
    ];
    for (name, text, line) in &cases {
        let (code, rows, stderr) = solve(name, text, &[]);
        assert_eq!((code, rows.len()), (3, 0), "{name}: {stderr}");
        let said = format!("line {line} is program code");
        assert!(
            stderr.contains(&said) && stderr.contains("one a line"),
            "{name}: {stderr}"
        );
    }
    let (code, rows, stderr) = solve("p.js", &cases[0].1, &["--format", "line"]);
    assert_eq!((code, rows.len()), (0, 2), "{stderr}");
}

/// A grid in a Markdown code fence (a README): the fence lines broke the grid.
#[test]
fn a_grid_in_a_markdown_fence_reads() {
    let grid: String = P
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
        .collect();
    let text = format!("## Input\n```text\n{grid}```\n\n~~~\n{grid}~~~\n");
    let (code, rows, stderr) = solve("README.md", &text, &[]);
    assert_eq!(code, 0, "{stderr}");
    let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(got, ["unique"; 2], "{stderr}");
}

/// 16x16 grids as people draw them: one symbol a cell with spaces, a blank line between
/// bands and a `#N` label after each; numbers 1-16 with `_` blanks; cells in groups of
/// four. Each read every grid as a broken board or a wrong size.
#[test]
fn wide_grids_read_as_people_draw_them() {
    let puzzles = puzzles_16x16(3);
    let rows = |p: &str| -> Vec<String> {
        (0..16)
            .map(|r| p[16 * r..16 * r + 16].to_string())
            .collect()
    };
    let spaced_cells = |r: &str| r.chars().map(String::from).collect::<Vec<_>>().join(" ");
    let mut spaced = String::new();
    let mut numbers = String::new();
    let mut groups = String::new();
    for (k, p) in puzzles.iter().enumerate() {
        for (i, r) in rows(p).iter().enumerate() {
            if i > 0 && i % 4 == 0 {
                spaced += "\n";
            }
            spaced += &format!("{}\n", spaced_cells(r));
            let cells: Vec<String> = r
                .bytes()
                .map(|b| match b {
                    b'.' => "_".to_string(),
                    b => (b - b'A' + 1).to_string(),
                })
                .collect();
            numbers += &format!("{}\n", cells.join(" "));
            groups += &format!("{} {} {} {}\n", &r[..4], &r[4..8], &r[8..12], &r[12..]);
        }
        spaced += &format!("#{}\n\n", k + 1);
        numbers += "\n";
        groups += "\n";
    }
    for (name, text) in [
        ("spaced.txt", spaced),
        ("numbers.txt", numbers),
        ("groups.txt", groups),
    ] {
        let (code, rows, stderr) = solve(name, &text, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        assert_eq!(got, ["unique"; 3], "{name}: {stderr}");
    }
}

/// A score line before each grid: the first grid was read and every later score taken
/// as a short row (all but one puzzle lost). Decided once for the file, and said.
#[test]
fn a_number_before_each_grid_is_its_title() {
    let grid: String = P
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", String::from_utf8_lossy(r).replace('.', "0")))
        .collect();
    let text: String = [1000, 37, 123456]
        .iter()
        .map(|score| format!("{score}\n{grid}"))
        .collect();
    let (code, rows, stderr) = solve("scored.txt", &text, &[]);
    assert_eq!(code, 0, "{stderr}");
    let got: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(got, ["2", "12", "22"], "{stderr}");
    // An id as long as a row (nine digits) before each grid, back to back or apart:
    // the grids were read shifted by a line, as wrong puzzles, with one error at the end.
    for gap in ["", "\n"] {
        let text: String = (0..4)
            .map(|k| format!("{:09}\n{grid}{gap}", 100_000_000 + 7919 * k))
            .collect();
        let (code, rows, stderr) = solve("ids.txt", &text, &[]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains("a line of digits alone before a grid is its title"),
            "{stderr}"
        );
        let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        assert_eq!(got, ["unique"; 4], "{stderr}");
        let step = if gap.is_empty() { 10 } else { 11 };
        let lines: Vec<String> = (0..4).map(|k| (2 + step * k).to_string()).collect();
        let got: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(got, lines, "{stderr}");
    }
    // Where the number is a row (a 4x4 board's), it stays one (the grid solves no puzzle
    // after it: no pair).
    let four = "1234\n3412\n4321\n2143\n\n12..\n..12\n2..3\n.3..\n";
    let (code, rows, stderr) = solve("four.txt", four, &[]);
    assert_eq!(rows.len(), 2, "{stderr}");
    assert_eq!(code, 0, "{stderr}");
}

/// Red-team findings on the JSON reader, each fixed: numbers that make no board (300,
/// -2, a short row; `-1` is a blank since survey 7) and broken strings under other keys vanished without a row; a pair
/// whose answer is wrong became two records; one bad member lost a whole small document.
#[test]
fn red_team_findings_on_the_new_readers() {
    let grid = |bad: &str| -> String {
        let cells: Vec<String> = P
            .chars()
            .map(|c| if c == '.' { "0".into() } else { c.to_string() })
            .collect();
        let mut rows: Vec<String> = cells
            .chunks(9)
            .map(|r| format!("[{}]", r.join(",")))
            .collect();
        rows[0] = rows[0].replacen('0', bad, 1);
        format!("[{}]", rows.join(","))
    };
    for bad in ["300", "-2", "0,0"] {
        let text = format!(
            "[{{\"puzzle\": {}}}, {{\"puzzle\": {}}}]",
            grid("0"),
            grid(bad)
        );
        let (code, rows, stderr) = solve("nums.json", &text, &[]);
        let got: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        assert_eq!(
            (code, got),
            (3, vec!["unique", "parse_error"]),
            "{bad}: {stderr}"
        );
    }
    let broken = P.replacen('.', "!", 1);
    let text =
        format!("{{\"easy\": [\"{P}\"], \"medium\": {{\"a\": \"{P}\", \"b\": \"{broken}\"}}}}");
    let (code, rows, _) = solve("keys.json", &text, &[]);
    assert_eq!((code, rows.len()), (3, 3));
    let wrong = format!("{}5", &S[..80]);
    let (code, rows, _) = solve("pair.json", &format!("[[\"{P}\", \"{wrong}\"]]"), &[]);
    assert_eq!((code, rows.len(), rows[0].2.as_str()), (4, 1, "false"));
    let text = format!("[\n\"{P}\",\n\"{P}\",\n\"bad \\x\",\n\"{P}\"\n]\n");
    let (code, rows, _) = solve("damaged.json", &text, &["--format", "json"]);
    let got: Vec<(&str, &str)> = rows.iter().map(|r| (r.0.as_str(), r.1.as_str())).collect();
    assert_eq!(code, 3);
    assert_eq!(
        got,
        [
            ("2", "unique"),
            ("3", "unique"),
            ("4", "parse_error"),
            ("5", "unique")
        ]
    );
}

/// A samurai board (five overlapping 9x9 grids, 21 cells a row) is refused with a
/// message that says what it looks like, drawn or on one line.
#[test]
fn a_samurai_board_is_refused_by_name() {
    let in_grid = |r: usize, c: usize| {
        let side = !(9..12).contains(&c);
        (r < 9 && side) || ((6..15).contains(&r) && (6..15).contains(&c)) || (r >= 12 && side)
    };
    let rows: Vec<String> = (0..21)
        .map(|r| {
            (0..21)
                .map(|c| if in_grid(r, c) { '.' } else { ' ' })
                .collect()
        })
        .collect();
    let drawn = rows.join("\n") + "\n";
    let (code, out, stderr) = solve("samurai.txt", &drawn, &["--format", "grid"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("samurai"), "{stderr}");
    assert!(out.iter().all(|r| r.1 == "parse_error"));
    let line = rows.concat().replace(' ', ".") + "\n";
    let (code, _, stderr) = solve("samurai-line.txt", &line, &[]);
    assert_eq!(code, 3);
    assert!(stderr.contains("441 cells: a samurai board"), "{stderr}");
}
