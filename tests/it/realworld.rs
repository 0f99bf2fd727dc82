//! Samples of collections as people publish them (`tests/data/real-world/`, with their
//! sources in the README there): each is read and solved, and the record count, the
//! statuses, the answers compared and the exit status are what `expected.json` says.

use std::collections::BTreeMap;

use crate::common::{field, project_file, read_csv, sudoku_bench};

#[derive(serde::Deserialize)]
struct Expected {
    rows: usize,
    statuses: BTreeMap<String, usize>,
    compared: usize,
    exit: i32,
    /// Why a sample is not read as puzzles (unsupported, another board size, not data).
    #[serde(default)]
    why: Option<String>,
    /// The backend to solve it with, when not the default (boards other than 9x9).
    #[serde(default)]
    backend: Option<String>,
}

#[derive(serde::Deserialize)]
struct Sample {
    file: String,
    records: usize,
}

#[test]
fn every_published_layout_reads_as_expected() {
    let dir = project_file("tests/data/real-world");
    let expected: BTreeMap<String, Expected> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let manifest: Vec<Sample> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        expected.len(),
        manifest.len(),
        "every sample has expectations"
    );
    let mut failures = Vec::new();
    for sample in &manifest {
        let want = &expected[&sample.file];
        let out = sudoku_bench()
            .args(["solve", "-q", "--csv", "-", "-j", "1"])
            .args(["-b", want.backend.as_deref().unwrap_or("bitboard")])
            .arg(dir.join(&sample.file))
            .output()
            .unwrap();
        let (header, rows) = read_csv(&String::from_utf8_lossy(&out.stdout));
        let mut statuses = BTreeMap::new();
        for r in &rows {
            *statuses
                .entry(field(&header, r, "status").to_string())
                .or_insert(0) += 1;
        }
        let compared = rows
            .iter()
            .filter(|r| !field(&header, r, "matches_expected").is_empty())
            .count();
        let mismatched = rows
            .iter()
            .filter(|r| field(&header, r, "matches_expected") == "false")
            .count();
        let got = (rows.len(), &statuses, compared, out.status.code());
        if got != (want.rows, &want.statuses, want.compared, Some(want.exit)) || mismatched > 0 {
            failures.push(format!("{}: got {got:?}", sample.file));
        }
        // A sample read as puzzles yields one puzzle per published record.
        if want.why.is_none() {
            let puzzles = rows.len() - statuses.get("parse_error").copied().unwrap_or(0);
            if puzzles != sample.records {
                failures.push(format!(
                    "{}: {puzzles} puzzles, the manifest says {}",
                    sample.file, sample.records
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_whole_folder_of_them_with_a_breakdown_per_file() {
    let out = sudoku_bench()
        .args(["solve", "--glob", "*.txt", "--glob", "*.csv"])
        .arg(project_file("tests/data/real-world"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Some samples are not puzzles (on purpose): exit 3, and every file has a line.
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("euler96-sudoku.txt") && stdout.contains("grid"),
        "{stdout}"
    );
    assert!(
        stdout.contains("kaggle-1m-quizzes-solutions.csv"),
        "{stdout}"
    );
}
