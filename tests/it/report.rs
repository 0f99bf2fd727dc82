//! Paired runs, the history, instruction counts and the HTML report, end to end; the
//! report is opened in a real headless browser where Debian's chromium is installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::contains;
use crate::common::{project_file, sudoku_bench_in};

/// The first `n` puzzles of the shipped dataset, as a file in `dir`.
pub(crate) fn sample(dir: &Path, n: usize, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(n).collect();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A saved run with every round `factor` times as long (its per-call times unchanged).
pub(crate) fn slowed(run: &serde_json::Value, factor: u64) -> serde_json::Value {
    let mut slow = run.clone();
    for r in slow["results"].as_array_mut().unwrap() {
        let rounds: Vec<u64> = r["rounds_ns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() * factor)
            .collect();
        r["rounds_ns"] = serde_json::json!(rounds);
        r["us_per_puzzle"] =
            serde_json::json!(r["us_per_puzzle"].as_f64().unwrap() * factor as f64);
    }
    slow
}

#[test]
fn two_builds_are_judged_each_against_the_first() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 30, "d.txt");
    // dfs does the work of dlx-static many times over: regressed, exit 5.
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "old=dlx-static,new=dfs"])
        .args(["--rounds", "5", "--export-json", "r.json", "--no-progress"])
        .assert()
        .code(5)
        .stdout(contains("builds compared:"))
        .stdout(contains("regressed +"));
    let run = json(&dir.path().join("r.json"));
    let v = &run["versus"][0];
    assert_eq!(
        (v["base"].as_str(), v["other"].as_str()),
        (Some("old"), Some("new"))
    );
    assert_eq!(
        (v["verdict"].as_str(), v["kind"].as_str()),
        (Some("regressed"), Some("builds"))
    );
    assert_eq!(v["timing"], "cpu");
    let ratio = v["ratio"].as_f64().unwrap();
    let (lo, hi) = (v["low"].as_f64().unwrap(), v["high"].as_f64().unwrap());
    assert!(1.0 < lo && lo <= ratio && ratio <= hi, "{v}");
    assert_eq!(run["results"][1]["backend"], "new");
    // The other way round: improved, exit 0.
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "old=dfs,new=dlx-static"])
        .args(["--rounds", "5", "--no-progress"])
        .assert()
        .success()
        .stdout(contains("improved -"));
    // Two solvers: which ran faster, never regressed or exit 5 (the finding: two
    // different solvers came out "regressed", exit 5).
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--backends", "dlx-static,dfs"])
        .args(["--rounds", "5", "--no-progress"])
        .assert()
        .success()
        .stdout(contains("dlx-static ran"))
        .stdout(contains("times faster than dfs"))
        .stdout(contains("regressed").not());
}

#[test]
fn builds_need_two_backends_and_labels_that_differ() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 10, "d.txt");
    for (backends, why) in [
        ("dlx-static", "at least two backends"),
        ("dlx-static,dlx-static", "listed twice"),
        ("a=dlx-static,a=dlx-arena", "listed twice"),
        ("b<i>=dlx-static,dlx-arena", "unknown backend"),
    ] {
        sudoku_bench_in(dir.path())
            .args(["bench", "d.txt", "--builds", "--backends", backends])
            .assert()
            .code(2)
            .stderr(contains(why));
    }
}

#[test]
fn records_build_a_history_with_trends() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 30, "d.txt");
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let bench = |extra: &[&str]| {
        sudoku_bench_in(dir.path())
            .args([
                "bench",
                "d.txt",
                "--backends",
                "dlx-static,dlx-arena",
                "--rounds",
                "2",
            ])
            .args(["--no-progress"])
            .args(extra)
            .assert()
            .success()
    };
    // `results/` is there: only the file is new, and the note says no more.
    bench(&["--record"])
        .stdout(contains("recorded 2 results"))
        .stderr(contains("note: created the history file "))
        .stderr(contains("results/history.jsonl"))
        .stderr(contains("folder").not());
    bench(&["--record", "--history", "new/sub/h.jsonl"]).stderr(contains(
        "note: created the history file new/sub/h.jsonl, and the folders missing on its path",
    ));
    bench(&["--save-baseline", "b1"]).stderr(contains("history file").not());
    bench(&[]); // neither: nothing appended
    let history = dir.path().join("results/history.jsonl");
    let text = std::fs::read_to_string(&history).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["source"], "record");
    assert_eq!(lines[3]["source"], "baseline b1");
    assert!(
        lines
            .iter()
            .all(|l| l["us_per_puzzle"].as_f64().unwrap() > 0.0)
    );
    sudoku_bench_in(dir.path())
        .args(["history"])
        .assert()
        .success()
        .stdout(contains("dlx-arena"))
        .stdout(contains("runs"));
    // A line that is not an entry: said with its number, skipped, exit 3.
    std::fs::write(&history, text.clone() + "{\"oops\": 1}\n").unwrap();
    sudoku_bench_in(dir.path())
        .args(["history", "--backend", "dlx-static"])
        .assert()
        .code(3)
        .stderr(contains("history.jsonl:5: not a history entry"))
        .stdout(contains("dlx-static"));
    // --history without anything that appends is a mistake.
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--history", "h.jsonl"])
        .assert()
        .code(2)
        .stderr(contains("add --record"));
}

/// Issue 39: 5 runs of one build, then 5 of a build whose bitboard is 14% slower (times
/// with ±4% of noise). `history` flagged the untouched dlx-static ("-3.5%", a card) and
/// gave bitboard a second step, every card naming one revision. Now dlx-static has no
/// change point, and bitboard's one names both builds.
#[test]
fn history_tells_a_code_change_from_noise_and_names_both_builds() {
    let dir = tempfile::tempdir().unwrap();
    let untouched = [
        10.226, 10.314, 9.713, 10.098, 9.93, 10.013, 9.867, 9.655, 9.787, 9.728,
    ];
    let slower = [
        10.068, 10.205, 9.875, 9.738, 9.607, 11.039, 11.202, 11.817, 11.661, 11.306,
    ];
    let mut lines = String::new();
    for i in 0..10 {
        let (revision, exe) = match i < 5 {
            true => ("1111111", "fnv1a64:aaaaaaaaaaaaaaaa"),
            false => ("2222222-dirty", "fnv1a64:bbbbbbbbbbbbbbbb"),
        };
        for (backend, us) in [("dlx-static", untouched[i]), ("bitboard", slower[i])] {
            let e = serde_json::json!({
                "format_version": 1, "date": format!("2026-01-01T{i:02}:00:00Z"),
                "version": "0.1.0", "revision": revision, "code": exe, "source": "record",
                "machine": "cpu x2", "backend": backend, "dataset": "d.txt",
                "dataset_hash": "h", "puzzles": 100, "threads": 1, "rounds": 5,
                "max_solutions": 2, "us_per_puzzle": us, "puzzles_per_s": 1e6 / us,
                "spread_pct": 1.0, "wrong": 0, "method": "pass",
            });
            lines.push_str(&format!("{e}\n"));
        }
    }
    std::fs::write(dir.path().join("h.jsonl"), lines).unwrap();
    let out = sudoku_bench_in(dir.path())
        .args(["history", "--file", "h.jsonl"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let row = |backend: &str| {
        let line = stdout.lines().find(|l| l.starts_with(backend));
        line.unwrap_or_else(|| panic!("{stdout}")).to_string()
    };
    let both = "(1111111 aaaaaaaaaaaa → 2222222-dirty bbbbbbbbbbbb)";
    assert!(row("dlx-static").ends_with(" none"), "{stdout}");
    assert!(
        row("dlx-static").contains(" 2222222-dirty bbbbbbbbbbbb "),
        "the last build"
    );
    let bitboard = row("bitboard");
    assert!(
        bitboard.contains("run 6 (2026-01-01): code changed: +14.5% slower"),
        "{stdout}"
    );
    assert!(
        bitboard.contains(both) && !bitboard.contains(';'),
        "{stdout}"
    );
}

/// The notes on series longer than the analysis takes came out in a hash map's order,
/// different from run to run; now in the series' order.
#[test]
fn history_notes_long_series_in_a_stable_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for i in 0..5_001 {
        for backend in ["c-solver", "a-solver", "b-solver"] {
            let e = serde_json::json!({
                "format_version": 1, "date": format!("2026-01-01T00:00:{:02}Z", i % 60),
                "version": "0.1.0", "revision": "1111111", "code": "fnv1a64:aaaaaaaaaaaaaaaa",
                "source": "record", "machine": "cpu x2", "backend": backend, "dataset": "d.txt",
                "dataset_hash": "h", "puzzles": 100, "threads": 1, "rounds": 5,
                "max_solutions": 2, "us_per_puzzle": 10.0, "puzzles_per_s": 1e5,
                "spread_pct": 1.0, "wrong": 0, "method": "pass",
            });
            lines.push_str(&format!("{e}\n"));
        }
    }
    std::fs::write(dir.path().join("h.jsonl"), lines).unwrap();
    let out = sudoku_bench_in(dir.path())
        .args(["history", "--file", "h.jsonl"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("only the newest 5000 of its 5001 runs"))
        .collect();
    assert_eq!(notes.len(), 3, "{stderr}");
    for (note, backend) in notes.iter().zip(["a-solver", "b-solver", "c-solver"]) {
        assert!(
            note.starts_with(&format!("note: {backend} -j1")),
            "{stderr}"
        );
    }
}

#[test]
fn compare_shows_each_runs_headline_and_never_an_interval_below_minus_100() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 40, "d.txt");
    for name in ["one", "two"] {
        sudoku_bench_in(dir.path())
            .args([
                "bench",
                "d.txt",
                "--backends",
                "dlx-static",
                "--rounds",
                "3",
            ])
            .args(["--no-progress", "--save-baseline", name])
            .assert()
            .success();
    }
    let one = json(&dir.path().join("results/baselines/one.json"));
    let headline = one["results"][0]["us_per_puzzle"].as_f64().unwrap();
    let out = sudoku_bench_in(dir.path())
        .args(["compare", "one", "two", "--html", "c.html"])
        .assert()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("old: one (") && out.contains("new: two ("),
        "{out}"
    );
    assert!(out.contains("the same executable"), "{out}");
    // Both runs' results, each with its headline.
    assert!(out.contains(&format!("{headline:.3}")), "{out}");
    let page = std::fs::read_to_string(dir.path().join("c.html")).unwrap();
    assert!(page.contains("sudoku-bench: comparison") && page.contains("old: one ("));
    // A tenfold slowdown: the interval of the change stays above -100% both ways.
    let slow = slowed(&one, 10);
    std::fs::write(
        dir.path().join("slow.json"),
        serde_json::to_vec(&slow).unwrap(),
    )
    .unwrap();
    let text = String::from_utf8(
        sudoku_bench_in(dir.path())
            .args(["compare", "slow.json", "results/baselines/one.json"])
            .assert()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(text.contains("improved -90.0%"), "{text}");
    for pct in text.split_whitespace().filter_map(|w| w.strip_suffix('%')) {
        for part in pct.split("..") {
            if let Ok(v) = part.trim_end_matches('%').parse::<f64>() {
                assert!(v > -100.0, "{text}");
            }
        }
    }
}

fn valgrind() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn instructions_are_counted_exactly_where_valgrind_is_installed() {
    if !valgrind() {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 30, "d.txt");
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "d.txt",
            "--backends",
            "a=dlx-static,b=dlx-static,c=dlx-arena",
        ])
        .args([
            "--rounds",
            "1",
            "--instructions",
            "20",
            "--export-json",
            "r.json",
            "--no-progress",
        ])
        .assert()
        .success()
        .stdout(contains("instructions (callgrind"));
    let run = json(&dir.path().join("r.json"));
    let count = |i: usize| {
        let ins = &run["results"][i]["instructions"];
        assert_eq!(ins["puzzles"], 20);
        ins["total"].as_u64().unwrap()
    };
    // The same code on the same puzzles: the same count, to the instruction.
    assert_eq!(count(0), count(1));
    assert!(count(0) > 20 * 1000, "{}", count(0));
    assert!(count(2) > count(0));
    // exec: programs run outside the counted process: refused before measuring.
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "d.txt",
            "--backends",
            "exec:cat",
            "--instructions",
            "5",
        ])
        .assert()
        .code(2)
        .stderr(contains("process of its own"));
    for bad in ["0", "10001"] {
        sudoku_bench_in(dir.path())
            .args(["bench", "d.txt", "--instructions", bad])
            .assert()
            .code(2);
    }
}

/// Red-team finding: `--instructions` counted the search without `--max-nodes` and
/// `--timeout`, another search than the one timed. Now the budget is the same, and a
/// search the time limit stopped is counted up to where it stopped.
#[test]
fn instructions_count_the_search_that_was_timed() {
    if !valgrind() {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A puzzle naive backtracking needs millions of nodes for.
    let hard = "001000000200000000003000000400000005005000600600000040007103000800000000009020000";
    std::fs::write(dir.path().join("h.txt"), format!("{hard}\n{hard}\n")).unwrap();
    let per_puzzle = |extra: &[&str]| -> f64 {
        sudoku_bench_in(dir.path())
            .args(["bench", "h.txt", "--backends", "dfs", "--rounds", "1"])
            .args(["--warmup", "0", "--instructions", "2"])
            .args(["--export-json", "r.json", "--no-progress"])
            .args(extra)
            .assert()
            .success();
        let run = json(&dir.path().join("r.json"));
        run["results"][0]["instructions"]["per_puzzle"]
            .as_f64()
            .unwrap()
    };
    let budget = per_puzzle(&["--max-nodes", "2000"]);
    let timed = per_puzzle(&["--timeout", "0.0005"]);
    let whole = per_puzzle(&["--max-nodes", "1000000"]);
    assert!(budget * 20.0 < whole, "{budget} vs {whole}");
    assert!(timed * 5.0 < whole, "{timed} vs {whole}");
}

/// Debian's chromium, or what SUDOKU_BENCH_CHROMIUM names.
pub(crate) fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SUDOKU_BENCH_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
    })
}

/// Runs the browser headless on `page` with `args` in a window `size` (width, height)
/// pixels large, killed after a minute.
pub(crate) fn browse(
    browser: &Path,
    profile: &Path,
    size: (u32, u32),
    args: &[String],
    page: &Path,
) -> std::process::Output {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .args(["--no-first-run", "--hide-scrollbars"])
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the browser");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn the_html_report_renders_in_a_headless_browser() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 60, "generated.txt");
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "generated.txt",
            "--backends",
            "baseline=dlx-static,candidate=dfs",
            "--builds",
        ])
        .args(["--rounds", "5", "--html", "report.html", "--no-progress"])
        .assert()
        .code(5);
    let page = dir.path().join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing to fetch, no script.
    for banned in ["<script", "<link", "src=", "https://", "@import"] {
        assert!(!html.contains(banned), "the page holds {banned}");
    }
    // A distribution per backend: a line each, in one chart.
    assert!(html.contains("Per-puzzle time distributions"));
    assert_eq!(html.matches("<polyline").count(), 2, "a line per backend");
    let Some(browser) = chromium() else {
        if std::env::var_os("SUDOKU_BENCH_REQUIRE_BROWSER").is_some() {
            panic!("SUDOKU_BENCH_REQUIRE_BROWSER is set but no chromium was found");
        }
        eprintln!("skipped: chromium is not installed (Debian: apt-get install chromium)");
        return;
    };
    let profile = dir.path().join("profile");
    let dom = browse(
        &browser,
        &profile,
        (1280, 2200),
        &["--dump-dom".into()],
        &page,
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("sudoku-bench: benchmark"),
        "the browser rendered no page: {dom:.300}"
    );
    assert!(dom.contains("regressed") && dom.contains("candidate vs baseline"));
    assert!(dom.matches("<svg").count() >= 1, "the chart is in the DOM");
    let shot = dir.path().join("report.png");
    browse(
        &browser,
        &profile,
        (1280, 2200),
        &[format!("--screenshot={}", shot.display())],
        &page,
    );
    let png = std::fs::read(&shot).expect("the browser wrote a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 20_000,
        "a screenshot of an empty page? {} bytes",
        png.len()
    );
    if let Some(keep) = std::env::var_os("SUDOKU_BENCH_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
}

#[test]
fn history_appends_only_to_a_history_file() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 20, "d.txt");
    let args = ["--backends", "dlx-static", "--rounds", "1", "--no-progress"];
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--export-json", "run.json"])
        .args(args)
        .assert()
        .success();
    let before = std::fs::read(dir.path().join("run.json")).unwrap();
    sudoku_bench_in(dir.path())
        .args(["bench", "d.txt", "--record", "--history", "run.json"])
        .args(args)
        .assert()
        .code(2)
        .stderr(contains("not a history file"));
    assert_eq!(std::fs::read(dir.path().join("run.json")).unwrap(), before);
    // A new file, then the same file again: both fine.
    for _ in 0..2 {
        sudoku_bench_in(dir.path())
            .args(["bench", "d.txt", "--record", "--history", "h.jsonl"])
            .args(args)
            .assert()
            .success();
    }
    let text = std::fs::read_to_string(dir.path().join("h.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 2);
    // history on a FIFO says so at once instead of waiting for a writer.
    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    sudoku_bench_in(dir.path())
        .args(["history", "--file", "fifo"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(contains("not a regular file"));
}

/// Red-team finding: `--export-json -` and `--export-csv -` shared standard output with
/// the tables, so it was neither JSON nor CSV, exit 0. An output named `-` takes
/// standard output alone, in every command: what it holds is that output, whole.
#[test]
fn an_output_on_standard_output_has_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 20, "d.txt");
    let run = |args: &[&str]| {
        let out = sudoku_bench_in(dir.path())
            .args(args)
            .args(["--no-progress"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let bench = [
        "bench",
        "d.txt",
        "--backends",
        "dlx-static",
        "--rounds",
        "3",
    ];
    let json = run(&[&bench[..], &["--export-json", "-", "--save-baseline", "a"]].concat());
    let parsed: serde_json::Value = serde_json::from_str(&json).expect(&json);
    assert_eq!(parsed["results"][0]["backend"], "dlx-static");
    let fields = |csv: &str| -> Vec<usize> {
        csv.lines()
            .map(|l| l.split(',').count())
            .collect::<Vec<_>>()
    };
    for option in ["--export-csv", "--per-puzzle"] {
        let csv = run(&[&bench[..], &[option, "-"]].concat());
        let counts = fields(&csv);
        assert!(
            counts.len() > 1 && counts.iter().all(|&n| n == counts[0]),
            "{csv}"
        );
    }
    let compared = run(&["compare", "a", "a", "--export-json", "-"]);
    serde_json::from_str::<serde_json::Value>(&compared).expect(&compared);
    let csv = run(&["solve", "d.txt", "--csv", "-"]);
    assert_eq!(fields(&csv).len(), 21, "{csv}");
}
