//! Relative speed and verdicts in every output, end to end: `bench`'s summary of which
//! backend ran fastest (terminal, Markdown, JSON, CSV, HTML), `--paired`'s verdicts in
//! the Markdown and CSV exports, and `compare`'s exports.

use std::path::Path;

use crate::common::{contains, field, project_file, read_csv, sudoku_bench_in};

/// The first `n` puzzles of the shipped dataset, as `d.txt` in `dir`.
fn sample(dir: &Path, n: usize) {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(n).collect();
    std::fs::write(dir.join("d.txt"), lines.join("\n") + "\n").unwrap();
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Short rounds: what is checked is where the summary goes, not what it measures.
const QUICK: [&str; 7] = [
    "--rounds",
    "3",
    "--warmup",
    "0",
    "--min-round-ms",
    "5",
    "--no-progress",
];

#[test]
fn bench_says_which_backend_ran_fastest_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 20);
    let out = sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "bitboard,dlx-static,null"])
        .args(QUICK)
        .args(["--export-csv", "r.csv", "--export-json", "r.json"])
        .args(["--export-markdown", "r.md", "--html", "r.html"])
        .assert()
        .success()
        .stdout(contains("relative speed on d.txt -j1:"))
        // null solves nothing: never the fastest, and it says why.
        .stdout(contains("null: no ratio (solves nothing"));
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();

    // JSON: the fastest of the two solvers, the other's ratio at least 1 with its
    // uncertainty from three rounds each, and null without a ratio.
    let run: serde_json::Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    let rel = &run["relative"][0];
    assert_eq!(
        (rel["dataset"].as_str(), rel["threads"].as_u64()),
        (Some("d.txt"), Some(1))
    );
    let fastest = rel["fastest"].as_str().unwrap().to_string();
    let other = match fastest.as_str() {
        "bitboard" => "dlx-static",
        "dlx-static" => "bitboard",
        _ => panic!("fastest: {fastest}"),
    };
    let others = rel["others"].as_array().unwrap();
    let versus = others.iter().find(|v| v["backend"] == other).unwrap();
    let us = |name: &str| {
        let r = run["results"].as_array().unwrap();
        r.iter().find(|r| r["backend"] == name).unwrap()["us_per_puzzle"]
            .as_f64()
            .unwrap()
    };
    let ratio = versus["ratio"].as_f64().unwrap();
    assert!(
        (ratio - us(other) / us(&fastest)).abs() < 1e-9 && ratio >= 1.0,
        "{rel}"
    );
    assert!(versus["ratio_sd"].as_f64().unwrap() >= 0.0);
    let standing = versus["standing"].as_str().unwrap();
    assert!(["slower", "within_noise"].contains(&standing), "{standing}");
    let null = others.iter().find(|v| v["backend"] == "null").unwrap();
    assert_eq!(
        (null["standing"].as_str(), null["ratio"].as_f64()),
        (Some("no_ratio"), None)
    );

    // The terminal says the same, hyperfine's way.
    assert!(stdout.contains(&format!("  {fastest} ran\n")), "{stdout}");
    let line = match standing {
        "slower" => format!("{ratio:.2} ± "),
        _ => format!("about as fast as {other}: {ratio:.2} ± "),
    };
    assert!(stdout.contains(&line), "{line:?} in\n{stdout}");

    // CSV: in each row.
    let (header, rows) = read_csv(&read(dir.path(), "r.csv"));
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap().clone();
    let (f, o, n) = (row(&fastest), row(other), row("null"));
    assert_eq!(field(&header, &f, "relative"), "fastest");
    assert_eq!(field(&header, &o, "fastest"), fastest);
    assert_eq!(field(&header, &o, "relative"), standing);
    let csv_ratio: f64 = field(&header, &o, "vs_fastest").parse().unwrap();
    assert!((csv_ratio - ratio).abs() < 1e-9);
    assert_eq!(field(&header, &n, "relative"), "no_ratio");
    assert!(field(&header, &n, "relative_why").contains("solves nothing"));

    // Markdown and HTML: the sentence.
    let md = read(dir.path(), "r.md");
    assert!(
        md.contains(&format!("**Relative speed** on d.txt -j1: {fastest} ran")),
        "{md}"
    );
    assert!(md.contains(&line), "{md}");
    let html = read(dir.path(), "r.html");
    let summary = format!(r#"<p class="summary">d.txt -j1: {fastest} ran"#);
    assert!(html.contains(&summary), "{html}");
    // First: right under the heading, before everything else.
    let first = html.find("</h1>").unwrap() + "</h1>".len();
    assert!(html[first..].starts_with(&summary), "{html}");
}

#[test]
fn one_backend_has_no_relative_speed() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 10);
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "bitboard"])
        .args(QUICK)
        .args(["--export-json", "r.json", "--export-markdown", "r.md"])
        .assert()
        .success()
        .stdout(contains("relative speed").not());
    let run: serde_json::Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    assert!(run.get("relative").is_none());
    assert!(!read(dir.path(), "r.md").contains("Relative speed"));
}

#[test]
fn paired_verdicts_go_to_the_markdown_and_csv_exports() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 20);
    let out = sudoku_bench_in(dir.path())
        .args([
            "bench",
            "d.txt",
            "--backends",
            "old=dlx-static,new=bitboard",
        ])
        .args(QUICK)
        .args(["--export-csv", "r.csv", "--export-markdown", "r.md"])
        .assert();
    // 0, or 5 if the machine made bitboard look slower: either way the verdict is written.
    let code = out.get_output().status.code();
    assert!(matches!(code, Some(0 | 5)), "{code:?}");
    let md = read(dir.path(), "r.md");
    assert!(md.contains("**Paired** (each backend against old)"), "{md}");
    assert!(md.contains("| new | old | d.txt | 1 |"), "{md}");
    let (header, rows) = read_csv(&read(dir.path(), "r.csv"));
    let new = rows.iter().find(|r| r[0] == "new").unwrap();
    let old = rows.iter().find(|r| r[0] == "old").unwrap();
    assert_eq!(field(&header, new, "paired_vs"), "old");
    assert!(field(&header, new, "paired_ratio").parse::<f64>().unwrap() > 0.0);
    let verdict = field(&header, new, "paired_verdict");
    assert!(
        md.contains(&format!("| {} |", verdict.replace('_', " "))),
        "{verdict}"
    );
    // The first backend is the one the others are judged against: no verdict of its own.
    assert_eq!(field(&header, old, "paired_vs"), "");
}

#[test]
fn compare_writes_its_verdicts_to_every_export() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 10);
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "bitboard,dlx-static"])
        .args(QUICK)
        .args(["--export-json", "base.json"])
        .assert()
        .success();
    sudoku_bench_in(dir.path())
        .args(["compare", "base.json", "base.json"])
        .args(["--export-csv", "c.csv", "--export-json", "c.json"])
        .args(["--export-markdown", "c.md", "--html", "c.html"])
        .assert()
        .success()
        .stdout(contains("no regression"));
    let (header, rows) = read_csv(&read(dir.path(), "c.csv"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(field(&header, row, "verdict"), "no_change");
        assert_eq!(field(&header, row, "change_pct"), "0.0");
    }
    let json: serde_json::Value = serde_json::from_str(&read(dir.path(), "c.json")).unwrap();
    assert_eq!(json["baseline"]["name"], "base");
    assert_eq!(json["regressed"], 0);
    assert_eq!(json["rows"][1]["backend"], "dlx-static");
    assert_eq!(json["rows"][1]["verdict"], "no_change");
    let md = read(dir.path(), "c.md");
    assert!(
        md.contains("| bitboard | d.txt | 1 |") && md.contains("| no change |"),
        "{md}"
    );
    assert!(md.contains("no regression"));
    assert!(dir.path().join("c.html").exists());

    // An export is planned against the inputs like every output: never over the baseline.
    let before = read(dir.path(), "base.json");
    sudoku_bench_in(dir.path())
        .args([
            "compare",
            "base.json",
            "base.json",
            "--export-csv",
            "base.json",
        ])
        .assert()
        .failure();
    assert_eq!(read(dir.path(), "base.json"), before);
}
