//! End-to-end tests of `bench` and `compare`.

use crate::common::contains;
use crate::common::{project_file, read_csv, sudoku_bench_in};
use std::path::Path;

/// `compare ARGS` run in `dir`.
fn compare(dir: &Path, args: &[&str]) -> crate::common::Assert {
    sudoku_bench_in(dir).arg("compare").args(args).assert()
}

/// The first `n` puzzles of the shipped dataset, as a file in `dir`.
fn sample(dir: &std::path::Path, n: usize, name: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).take(n).collect();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn bench_writes_the_table_every_export_and_a_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), 40, "a.txt");
    let b = sample(dir.path(), 20, "b.txt");
    let out = sudoku_bench_in(dir.path())
        .args(["bench", "a.txt", "b.txt", "--rounds", "3", "--warmup", "1"])
        .args(["--export-csv", "out/r.csv", "--export-json", "out/r.json"])
        .args(["--export-markdown", "out/r.md", "--html", "out/r.html"])
        .args(["--per-puzzle", "out/pp.csv", "--save-baseline", "first"])
        .assert()
        .success()
        .stdout(contains("µs/puzzle"))
        .stdout(contains("saved baseline \"first\""));
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    // Without --backends: the fast solvers, not the naive `dfs` (seconds, not a minute,
    // on the shipped dataset).
    let default: Vec<_> = sudoku_bench::Backend::bench_default().collect();
    assert!(!default.contains(&sudoku_bench::Backend::Dfs));
    for backend in sudoku_bench::Backend::ALL {
        // Table rows start at the margin (the relative-speed lines are indented).
        let rows = stdout
            .lines()
            .filter(|l| l.split(' ').next() == Some(backend.name()))
            .count();
        let expected = if default.contains(&backend) { 2 } else { 0 };
        assert_eq!(rows, expected, "{backend} in\n{stdout}");
    }
    let (header, rows) = read_csv(&std::fs::read_to_string(dir.path().join("out/r.csv")).unwrap());
    let backends = default.len();
    assert_eq!(rows.len(), 2 * backends);
    assert!(header.contains(&"us_per_puzzle".to_string()));
    let (_, per_puzzle) =
        read_csv(&std::fs::read_to_string(dir.path().join("out/pp.csv")).unwrap());
    assert_eq!(per_puzzle.len(), backends * (40 + 20));
    assert!(
        std::fs::read_to_string(dir.path().join("out/r.html"))
            .unwrap()
            .contains("<svg")
    );
    assert!(
        std::fs::read_to_string(dir.path().join("out/r.md"))
            .unwrap()
            .contains("| bitboard |")
    );
    let saved = dir.path().join("results/baselines/first.json");
    assert!(saved.exists());
    drop((a, b));

    // A baseline is never overwritten silently, and the refusal comes before measuring.
    sudoku_bench_in(dir.path())
        .args(["bench", "b.txt", "--save-baseline", "first"])
        .assert()
        .code(1)
        .stderr(contains("--force"));
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "b.txt",
            "--rounds",
            "1",
            "--save-baseline",
            "first",
            "--force",
        ])
        .assert()
        .success();

    // The same run compared with itself: no change anywhere, exit 0.
    compare(dir.path(), &["out/r.json", "out/r.json"])
        .success()
        .stdout(contains("no regression"));
}

/// A saved run whose round times are set to 1 ms x `factor`, with small round-to-round
/// differences as on a quiet machine (the measured ones are whatever the machine gave).
fn scaled(run: &serde_json::Value, factor: f64) -> serde_json::Value {
    let mut run = run.clone();
    for r in run["results"].as_array_mut().unwrap() {
        let rounds: Vec<serde_json::Value> = [1.0, 1.01, 0.99, 1.005, 0.995]
            .iter()
            .map(|jitter| ((1e6 * factor * jitter).round() as u64).into())
            .collect();
        r["rounds_ns"] = rounds.into();
        r["load"] = 0.0.into();
        // The headline is the median round.
        let puzzles = r["dataset"]["puzzles"].as_f64().unwrap();
        r["us_per_puzzle"] = (((1e6 * factor).round()) / 1000.0 / puzzles).into();
    }
    run
}

/// Three rounds of dlx-static on 30 puzzles (`a.txt`), saved as `base.json`.
fn measured_run(dir: &Path) -> serde_json::Value {
    sample(dir, 30, "a.txt");
    sudoku_bench_in(dir)
        .args([
            "bench",
            "a.txt",
            "--backends",
            "dlx-static",
            "--rounds",
            "3",
            // Long enough for the load to be measured (the kernel's ticks: 0.5 s of
            // wall time at least).
            "--min-time",
            "1",
        ])
        .args(["--export-json", "base.json"])
        .assert()
        .success();
    serde_json::from_str(&std::fs::read_to_string(dir.join("base.json")).unwrap()).unwrap()
}

fn write_json(dir: &Path, name: &str, v: &serde_json::Value) {
    std::fs::write(dir.join(name), serde_json::to_vec(v).unwrap()).unwrap();
}

/// The same few puzzles measured pass after pass in the same form are learnt by branch
/// predictors and caches. With `--symmetry on` (the default) each pass presents them in
/// a fresh form: the Dancing Links search tree changes with the form (other work
/// counted), every answer is still mapped back and checked, and the run says so.
#[test]
fn passes_present_their_puzzles_in_fresh_forms() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 30, "a.txt");
    let run = |symmetry: &str, name: &str| -> serde_json::Value {
        sudoku_bench_in(dir.path())
            .args([
                "bench",
                "a.txt",
                "--backends",
                "dlx-static",
                "--rounds",
                "2",
            ])
            .args([
                "--symmetry",
                symmetry,
                "--export-json",
                name,
                "--no-progress",
            ])
            .assert()
            .success();
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(name)).unwrap()).unwrap()
    };
    let on = run("on", "on.json");
    let off = run("off", "off.json");
    let again = run("on", "again.json");
    assert_eq!(on["settings"]["symmetry"], true);
    assert_eq!(off["settings"]["symmetry"], false);
    for r in [&on, &off] {
        assert_eq!(r["results"][0]["wrong"], 0);
    }
    let nodes = |r: &serde_json::Value| r["results"][0]["nodes_total"].as_u64().unwrap();
    assert_ne!(nodes(&on), nodes(&off));
    // Seeded: the same forms again, the same work.
    assert_eq!(nodes(&on), nodes(&again));
    // Runs presented differently do not compare.
    compare(dir.path(), &["on.json", "off.json"])
        .code(1)
        .stderr(contains("presented their puzzles differently"));
}

/// The false verdict of the issue: two saved runs of the same build, one made while
/// other programs kept a core busy, compared "+108% regressed, exit 5". A run on one
/// thread is timed by its CPU time, which waiting for a core does not inflate; wall times
/// (several threads) measured under different loads get no verdict (exit 1), never a
/// regression.
#[test]
fn runs_made_under_different_loads_get_no_false_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let base = measured_run(dir.path());
    let r = &base["results"][0];
    assert_eq!(r["timing"], "cpu", "{r}");
    assert!(r["load"].as_f64().is_some(), "{r}");
    let write = |name: &str, v: &serde_json::Value| write_json(dir.path(), name, v);
    let mut quiet = scaled(&base, 1.0);
    quiet["results"][0]["timing"] = "wall".into();
    // Twice the wall time under a load of 1.2 busy cores.
    let mut busy = scaled(&base, 2.0);
    busy["results"][0]["timing"] = "wall".into();
    busy["results"][0]["load"] = 1.2.into();
    write("quiet.json", &quiet);
    write("busy.json", &busy);
    compare(dir.path(), &["quiet.json", "busy.json"])
        .code(1)
        .stdout(contains("different loads"))
        .stderr(contains("no verdict"));
    // Runs timed on other clocks do not compare.
    let cpu = scaled(&base, 1.0);
    write("cpu.json", &cpu);
    compare(dir.path(), &["quiet.json", "cpu.json"])
        .code(1)
        .stdout(contains("measured on different clocks (wall vs cpu)"));
    // The same load on both sides: a real slowdown is still found.
    busy["results"][0]["load"] = 0.1.into();
    write("busy.json", &busy);
    compare(dir.path(), &["quiet.json", "busy.json"])
        .code(5)
        .stdout(contains("regressed"));
}

#[test]
fn compare_flags_a_slowdown_and_refuses_different_data() {
    let dir = tempfile::tempdir().unwrap();
    let base = measured_run(dir.path());
    let write = |name: &str, v: &serde_json::Value| write_json(dir.path(), name, v);
    write("base2.json", &scaled(&base, 1.0));
    write("slow.json", &scaled(&base, 1.5));
    write("fast.json", &scaled(&base, 0.5));
    compare(dir.path(), &["base2.json", "slow.json"])
        .code(5)
        .stdout(contains("regressed"));
    compare(dir.path(), &["base2.json", "fast.json"])
        .success()
        .stdout(contains("improved"));

    let mut other = base.clone();
    other["results"][0]["dataset"]["hash"] = "fnv1a64:0".into();
    write("other.json", &other);
    compare(dir.path(), &["base.json", "other.json"])
        .code(1)
        .stderr(contains("not comparable"));
    let mut settings = base.clone();
    settings["settings"]["max_solutions"] = 1.into();
    write("settings.json", &settings);
    compare(dir.path(), &["base.json", "settings.json"])
        .code(1)
        .stderr(contains("different settings"));
    // A headline edited away from its rounds is refused, not believed.
    let mut edited = base.clone();
    let us = edited["results"][0]["us_per_puzzle"].as_f64().unwrap();
    edited["results"][0]["us_per_puzzle"] = (us * 2.0).into();
    write("edited.json", &edited);
    compare(dir.path(), &["base.json", "edited.json"])
        .code(1)
        .stderr(contains("not the median of rounds_ns"));
    // A result twice, more wrong answers than answers, made-up instruction counts.
    let mut twice = base.clone();
    let first = twice["results"][0].clone();
    twice["results"].as_array_mut().unwrap().push(first);
    let mut wrong = base.clone();
    wrong["results"][0]["wrong"] = u64::MAX.into();
    let mut counted = base.clone();
    counted["results"][0]["instructions"] = serde_json::json!({"puzzles": 10, "total": 45570, "per_puzzle": 99999.0, "tool": "callgrind"});
    for (name, run, why) in [
        ("twice.json", twice, "a second result"),
        ("wrong.json", wrong, "more than were given"),
        ("counted.json", counted, "instructions"),
    ] {
        write(name, &run);
        compare(dir.path(), &["base.json", name])
            .code(1)
            .stderr(contains(why));
    }
}

#[test]
fn compare_reruns_a_baseline() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 200, "a.txt");
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "a.txt",
            "--backends",
            "dlx-static",
            "--rounds",
            "5",
        ])
        .args(["--save-baseline", "base"])
        .assert()
        .success();
    // Re-running the same benchmark runs the saved build and this one side by side:
    // here the same executable, which it says.
    compare(dir.path(), &["base", "--noise", "1000"])
        .success()
        .stdout(contains("no regression"))
        .stdout(contains("the same executable"))
        .stdout(contains("dlx-static (new)"));
}

#[test]
fn bench_measures_scaling() {
    let dir = tempfile::tempdir().unwrap();
    sample(dir.path(), 60, "a.txt");
    let out = sudoku_bench_in(dir.path())
        .args([
            "bench",
            "a.txt",
            "--backends",
            "dlx-arena",
            "-j",
            "1,2",
            "--rounds",
            "2",
        ])
        .args(["--export-csv", "r.csv"])
        .assert()
        .success();
    drop(out);
    let (header, rows) = read_csv(&std::fs::read_to_string(dir.path().join("r.csv")).unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][col("threads")], "2");
    assert!(!rows[1][col("efficiency")].is_empty());
}

/// More puzzles than a pass holds in memory at once (16,384): every record still gets
/// exactly one row, in input order, bad lines included where they were.
#[test]
fn a_dataset_larger_than_a_chunk_keeps_every_record_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(project_file("datasets/generated-3000.txt")).unwrap();
    let puzzles: Vec<&str> = text.lines().skip(1).collect();
    let mut lines = Vec::new();
    for i in 0..20_000 {
        lines.push(if i % 5_000 == 4_999 {
            &puzzles[0][..80] // a puzzle cut short
        } else {
            puzzles[i % puzzles.len()]
        });
    }
    std::fs::write(dir.path().join("big.txt"), lines.join("\n") + "\n").unwrap();
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "big.txt",
            "--backends",
            "dlx-static",
            "--rounds",
            "1",
        ])
        .args(["--warmup", "0", "--no-progress"])
        .args(["--per-puzzle", "rows.csv"])
        .assert()
        .code(3);
    let (header, rows) = read_csv(&std::fs::read_to_string(dir.path().join("rows.csv")).unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.len(), 20_000);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[col("line")], (i + 1).to_string());
        let bad = i % 5_000 == 4_999;
        assert_eq!(row[col("status")] == "parse_error", bad, "row {i}");
        if !bad {
            assert_eq!(row[col("valid")], "true", "row {i}");
        }
    }
}

/// A device never ends: refused at once, not read forever.
#[cfg(unix)]
#[test]
fn a_device_is_not_a_dataset() {
    let dir = tempfile::tempdir().unwrap();
    sudoku_bench_in(dir.path())
        .args([
            "bench",
            "/dev/zero",
            "--backends",
            "dlx-static",
            "--no-progress",
        ])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(3)
        .stderr(contains("a device"));
}
