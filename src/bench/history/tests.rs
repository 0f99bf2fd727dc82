use super::*;

/// An interrupt flag never set.
static GO: AtomicBool = AtomicBool::new(false);

fn entry(backend: &str, date: &str, us: f64) -> Entry {
    Entry {
        format_version: FORMAT_VERSION,
        date: date.to_string(),
        version: "0.1.0".into(),
        revision: Some("abc".into()),
        source: "record".into(),
        machine: "cpu x2".into(),
        backend: backend.into(),
        dataset: "d.txt".into(),
        dataset_hash: "h".into(),
        puzzles: 10,
        threads: 1,
        rounds: 3,
        max_solutions: 2,
        us_per_puzzle: us,
        puzzles_per_s: 1e6 / us,
        spread_pct: 1.0,
        wrong: 0,
        nodes_per_puzzle: Some(5.0),
        guesses_per_puzzle: None,
        instructions_per_puzzle: None,
        partial: false,
        method: "pass+symmetry".into(),
    }
}

fn line(e: &Entry) -> String {
    serde_json::to_string(e).unwrap()
}

#[test]
fn bad_lines_are_named_and_skipped_good_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.jsonl");
    let good = entry("dlx-static", "2026-01-01T00:00:00Z", 10.0);
    let mut negative = good.clone();
    negative.us_per_puzzle = -1.0;
    let mut future = good.clone();
    future.format_version = 99;
    let mut threads = good.clone();
    threads.threads = 0;
    let text = format!(
        "{}\n\nnot json\n{}\n{}\n{}\n{}\n{}",
        line(&good),
        line(&negative),
        line(&future),
        line(&threads),
        "x".repeat(MAX_LINE + 10),
        line(&good) // no final newline
    );
    std::fs::write(&path, text).unwrap();
    let loaded = load(&path, &GO).unwrap();
    assert_eq!(loaded.entries, vec![good.clone(), good]);
    let skipped = loaded.skipped.join("\n");
    assert_eq!(loaded.skipped.len(), 5, "{skipped}");
    for (n, why) in [
        (3, "not a history entry"),
        (4, "us_per_puzzle -1 is not a positive number"),
        (5, "format version 99"),
        (6, "threads 0"),
        (7, "longer than"),
    ] {
        assert!(
            skipped.contains(&format!("h.jsonl:{n}: {why}")),
            "{skipped}"
        );
    }
}

#[test]
fn a_missing_history_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let e = load(&dir.path().join("none.jsonl"), &GO).unwrap_err();
    assert!(format!("{e:#}").contains("--record"), "{e:#}");
    let e = load(dir.path(), &GO).unwrap_err();
    assert!(format!("{e:#}").contains("not a regular file"), "{e:#}");
}

#[test]
fn series_group_by_backend_dataset_threads_machine_and_sort_by_date() {
    let a2 = entry("a", "2026-01-02T00:00:00Z", 2.0);
    let b1 = entry("b", "2026-01-01T00:00:00Z", 5.0);
    let a1 = entry("a", "2026-01-01T00:00:00Z", 1.0);
    let mut a_j2 = a1.clone();
    a_j2.threads = 2;
    let mut a_other_data = a1.clone();
    a_other_data.dataset_hash = "other".into();
    let entries = vec![
        a2.clone(),
        b1.clone(),
        a1.clone(),
        a_j2.clone(),
        a_other_data.clone(),
    ];
    let s = series(&entries);
    assert_eq!(s.len(), 4);
    assert_eq!(s[0], vec![&a1, &a2]);
    assert_eq!(s[1], vec![&b1]);
    assert_eq!(s[2], vec![&a_j2]);
    assert_eq!(s[3], vec![&a_other_data]);
}

/// Red-team finding: grouping searched the keys seen so far for each entry, quadratic
/// in the series (20,000 series of 3 runs: 7 s). Now a map; the order stays the order
/// of first appearance.
#[test]
fn many_series_keep_the_order_they_first_appear_in() {
    let mut entries = Vec::new();
    for day in [3, 1, 2] {
        for n in 0..3000 {
            entries.push(entry(
                &format!("b{n}"),
                &format!("2026-01-0{day}T00:00:00Z"),
                1.0 + day as f64,
            ));
        }
    }
    let s = series(&entries);
    assert_eq!(s.len(), 3000);
    for (n, points) in s.iter().enumerate() {
        assert!(points.iter().all(|e| e.backend == format!("b{n}")));
        let days: Vec<f64> = points.iter().map(|e| e.us_per_puzzle).collect();
        assert_eq!(days, [2.0, 3.0, 4.0]);
    }
}

/// Red-team finding: `history` ignored Ctrl-C and exited 0. Reading and analysing stop
/// once the flag is set: the caller shows nothing, or only the series already done.
#[test]
fn a_set_flag_stops_reading_and_analysing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.jsonl");
    let mut entries = Vec::new();
    for day in 1..=20 {
        let us = if day <= 10 { 10.0 } else { 12.0 };
        entries.push(entry("a", &format!("2026-01-{day:02}T00:00:00Z"), us));
    }
    let text: Vec<String> = entries.iter().map(line).collect();
    std::fs::write(&path, text.join("\n")).unwrap();
    let stop = AtomicBool::new(true);
    assert!(load(&path, &stop).unwrap().entries.is_empty());
    assert!(trends(&entries, 2.0, &stop).is_empty());
    let values: Vec<f64> = entries.iter().map(|e| e.us_per_puzzle).collect();
    assert!(change_points::detect(&values, 2.0, &stop).is_empty());
    // Unset, the same calls find everything.
    assert_eq!(load(&path, &GO).unwrap().entries.len(), 20);
    assert_eq!(trends(&entries, 2.0, &GO)[0].steps.len(), 1);
}

#[test]
fn a_trend_with_a_step_reports_it() {
    let mut entries = Vec::new();
    for day in 1..=20 {
        let level = if day <= 10 { 10.0 } else { 12.0 };
        let wobble = if day % 2 == 0 { 0.05 } else { -0.05 };
        entries.push(entry(
            "a",
            &format!("2026-01-{day:02}T00:00:00Z"),
            level + wobble,
        ));
    }
    let t = trends(&entries, 2.0, &GO);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].values().len(), 20);
    assert_eq!(t[0].steps.len(), 1, "{:?}", t[0].steps.len());
}

#[test]
fn lines_round_trip_through_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.jsonl");
    let e = entry("dlx-static", "2026-01-01T00:00:00Z", 3.5);
    std::fs::write(&path, format!("{}\n", line(&e))).unwrap();
    assert_eq!(load(&path, &GO).unwrap().entries, vec![e]);
}

#[test]
fn absurd_values_and_dates_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.jsonl");
    let good = entry("a", "2026-01-01T00:00:00.123Z", 10.0);
    let mut lines = vec![line(&good)];
    for (us, date) in [
        (1e308, "2026-01-01T00:00:00Z"),
        (1e-308, "2026-01-01T00:00:00Z"),
        (10.0, "garbage"),
        (10.0, ""),
        (10.0, "2026-13-45T99:99:99Z"),
        (10.0, "<script>"),
        // Red-team finding: a line dated 9999 became the latest point and hid a step.
        (10.0, "9999-12-31T23:59:59Z"),
    ] {
        let mut e = good.clone();
        e.us_per_puzzle = us;
        e.date = date.into();
        lines.push(line(&e));
    }
    std::fs::write(&path, lines.join("\n")).unwrap();
    let loaded = load(&path, &GO).unwrap();
    assert_eq!(loaded.entries, vec![good]);
    assert_eq!(loaded.skipped.len(), 7, "{:?}", loaded.skipped);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let e = load(&fifo, &GO).unwrap_err();
    assert!(format!("{e:#}").contains("not a regular file"), "{e:#}");
}
