//! Verdicts in every output, end to end: `bench`'s which backend ran fastest and by how
//! much (terminal, Markdown, JSON, CSV, HTML), two builds' verdicts in the Markdown and
//! CSV exports, and `compare`'s exports.

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

/// Short rounds: what is checked is where the verdicts go, not what they measure.
const QUICK: [&str; 5] = ["--rounds", "6", "--warmup", "0", "--no-progress"];

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
        .stdout(contains("null: no ratio (null solves nothing)"));
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();

    // JSON: the other solver against the fastest, taking turns: the ratio of total
    // times with its interval; null without a ratio.
    let run: serde_json::Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    let versus = run["versus"].as_array().unwrap();
    assert_eq!(versus.len(), 2, "{run}");
    let fastest = versus[0]["base"].as_str().unwrap().to_string();
    let other = match fastest.as_str() {
        "bitboard" => "dlx-static",
        "dlx-static" => "bitboard",
        _ => panic!("fastest: {fastest}"),
    };
    let v = versus.iter().find(|v| v["other"] == other).unwrap();
    assert_eq!(
        (v["kind"].as_str(), v["how"].as_str()),
        (Some("solvers"), Some("paired"))
    );
    let ratio = v["ratio"].as_f64().unwrap();
    let (low, high) = (v["low"].as_f64().unwrap(), v["high"].as_f64().unwrap());
    assert!(low <= ratio && ratio <= high, "{v}");
    let verdict = v["verdict"].as_str().unwrap();
    assert!(["differs", "about_as_fast"].contains(&verdict), "{verdict}");
    // "About as fast" only when the interval holds 1.
    assert_eq!(verdict == "about_as_fast", low <= 1.0 && 1.0 <= high, "{v}");
    let null = versus.iter().find(|v| v["other"] == "null").unwrap();
    assert_eq!(
        (null["verdict"].as_str(), null["ratio"].as_f64()),
        (Some("no_verdict"), None)
    );

    // The terminal says the same, hyperfine's way, with the interval.
    assert!(stdout.contains(&format!("  {fastest} ran\n")), "{stdout}");
    let line = match verdict {
        "differs" if ratio >= 1.0 => format!("{ratio:.2} times faster than {other} ("),
        "differs" => format!("{:.2} times slower than {other} (", 1.0 / ratio),
        _ => format!("about as fast as {other}: {ratio:.3} ("),
    };
    assert!(stdout.contains(&line), "{line:?} in\n{stdout}");
    assert!(
        !stdout.contains("regressed") && !stdout.contains("improved"),
        "{stdout}"
    );

    // CSV: in each row.
    let (header, rows) = read_csv(&read(dir.path(), "r.csv"));
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap().clone();
    let (f, o, n) = (row(&fastest), row(other), row("null"));
    assert_eq!(field(&header, &f, "vs"), "");
    assert_eq!(field(&header, &o, "vs"), fastest);
    assert_eq!(field(&header, &o, "verdict"), verdict.replace('_', " "));
    let csv_ratio: f64 = field(&header, &o, "ratio").parse().unwrap();
    assert!((csv_ratio - ratio).abs() < 1e-9);
    assert_eq!(field(&header, &n, "verdict"), "no verdict");
    assert!(field(&header, &n, "why").contains("solves nothing"));

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
    assert!(run.get("versus").is_none());
    assert!(!read(dir.path(), "r.md").contains("Relative speed"));
}

#[test]
fn verdicts_of_builds_go_to_the_markdown_and_csv_exports() {
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
    assert!(md.contains("**Builds compared**"), "{md}");
    assert!(md.contains("| new | old | d.txt | 1 |"), "{md}");
    let (header, rows) = read_csv(&read(dir.path(), "r.csv"));
    let new = rows.iter().find(|r| r[0] == "new").unwrap();
    let old = rows.iter().find(|r| r[0] == "old").unwrap();
    assert_eq!(field(&header, new, "vs"), "old");
    assert!(field(&header, new, "ratio").parse::<f64>().unwrap() > 0.0);
    let verdict = field(&header, new, "verdict");
    assert!(
        ["regressed", "improved", "no change"].contains(&verdict),
        "{verdict}"
    );
    assert!(md.contains(&format!("| {verdict} ")), "{verdict}");
    // The first backend is the one the others are judged against: no verdict of its own.
    assert_eq!(field(&header, old, "vs"), "");
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
    // Both runs' rows, each named by its side; the new ones carry the verdicts.
    let (header, rows) = read_csv(&read(dir.path(), "c.csv"));
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let new = row[0].ends_with(" (new)");
        assert!(new || row[0].ends_with(" (old)"), "{row:?}");
        let verdict = if new { "no change" } else { "" };
        assert_eq!(field(&header, row, "verdict"), verdict);
        assert_eq!(field(&header, row, "ratio"), if new { "1.0" } else { "" });
    }
    let json: serde_json::Value = serde_json::from_str(&read(dir.path(), "c.json")).unwrap();
    assert_eq!(json["versus"][1]["other"], "dlx-static (new)");
    assert_eq!(json["versus"][1]["base"], "dlx-static (old)");
    assert_eq!(json["versus"][1]["verdict"], "no_change");
    assert_eq!(json["versus"][1]["how"], "saved");
    let md = read(dir.path(), "c.md");
    assert!(
        md.contains("| bitboard (new) | bitboard (old) | d.txt | 1 |")
            && md.contains("| no change +0.0% |"),
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
