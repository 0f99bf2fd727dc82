use super::change_points::Cause;
use super::*;
use crate::bench::present;

/// An interrupt flag never set.
static GO: AtomicBool = AtomicBool::new(false);

fn entry(backend: &str, date: &str, us: f64) -> Entry {
    Entry {
        format_version: FORMAT_VERSION,
        date: date.to_string(),
        version: "0.1.0".into(),
        revision: Some("abc".into()),
        code: Some("fnv1a64:0123456789abcdef".into()),
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
    assert!(change_points::detect(&values, &[None; 20], 2.0, &stop).is_empty());
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

/// Runs of `backend`, an hour apart, each measured by the build beside its time (a
/// revision and a code hash; `None`: not recorded).
fn runs(backend: &str, points: &[(Option<&str>, f64)]) -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, &(build, us)) in points.iter().enumerate() {
        let mut e = entry(
            backend,
            &format!("2026-01-{:02}T{:02}:00:00Z", 1 + i / 24, i % 24),
            us,
        );
        e.revision = build.map(|b| format!("rev-{b}"));
        e.code = build.map(|b| format!("fnv1a64:{b}"));
        out.push(e);
    }
    out
}

/// `n` times around `level`, each within ±`pct`% (uniform, deterministic).
fn noisy(level: f64, n: usize, pct: f64, rng: &mut crate::base::rng::SplitMix64) -> Vec<f64> {
    let steps = 2000;
    (0..n)
        .map(|_| level * (1.0 + pct / 100.0 * (rng.below(steps + 1) as f64 / 1000.0 - 1.0)))
        .collect()
}

/// The change points of one series, in words.
fn found(entries: &[Entry]) -> Vec<(usize, Cause, f64, String)> {
    let t = trends(entries, 2.0, &GO);
    assert_eq!(t.len(), 1);
    t[0].steps
        .iter()
        .map(|s| {
            (
                s.index,
                s.cause,
                s.change_pct(),
                present::history::step_words(&t[0], s),
            )
        })
        .collect()
}

/// Issue 39: 5 runs of one build, then 5 of a build whose bitboard is 14% slower. The
/// untouched dlx-static got "improved -6.7%" and "regressed +5.3%", bitboard -16.1% then
/// +34.2%, all of one revision. Now the untouched series has no code change point, and
/// bitboard one, of about +14%, between the two builds.
#[test]
fn a_step_between_two_builds_is_the_code_and_noise_is_not() {
    for seed in 1..=5 {
        let mut rng = crate::base::rng::SplitMix64::new(seed);
        let builds = [Some("aaaaaaaaaaaaaaaa"); 5]
            .into_iter()
            .chain([Some("bbbbbbbbbbbbbbbb"); 5]);
        let mut same = noisy(10.0, 10, 4.0, &mut rng);
        let untouched: Vec<_> = builds.clone().zip(same.drain(..)).collect();
        let mut slower = noisy(10.0, 5, 4.0, &mut rng);
        slower.extend(noisy(11.4, 5, 4.0, &mut rng));
        let stepped: Vec<_> = builds.zip(slower).collect();
        let untouched = found(&runs("dlx-static", &untouched));
        assert!(
            untouched.iter().all(|s| s.1 != Cause::Code),
            "seed {seed}: {untouched:?}"
        );
        let stepped = found(&runs("bitboard", &stepped));
        assert_eq!(stepped.len(), 1, "seed {seed}: {stepped:?}");
        let (index, cause, pct, words) = &stepped[0];
        assert_eq!((*index, *cause), (5, Cause::Code), "seed {seed}");
        assert!((10.0..18.0).contains(pct), "seed {seed}: {pct}");
        assert!(
            words.contains("code changed: +")
                && words.contains(
                    "(rev-aaaaaaaaaaaaaaaa aaaaaaaaaaaa → rev-bbbbbbbbbbbbbbbb bbbbbbbbbbbb)"
                ),
            "{words}"
        );
    }
}

/// Runs of one build cannot make a code change point, however far the machine moves;
/// a shift beyond the noise is one of the machine, worded so.
#[test]
fn runs_of_one_build_make_at_most_a_machine_shift() {
    for seed in 1..=5 {
        let mut rng = crate::base::rng::SplitMix64::new(seed);
        let mut values = noisy(10.0, 5, 4.0, &mut rng);
        values.extend(noisy(12.0, 5, 4.0, &mut rng));
        let points: Vec<_> = values.into_iter().map(|v| (Some("aaaa"), v)).collect();
        let steps = found(&runs("bitboard", &points));
        assert_eq!(steps.len(), 1, "seed {seed}: {steps:?}");
        assert_eq!((steps[0].0, steps[0].1), (5, Cause::Machine));
        assert!(
            steps[0]
                .3
                .contains("machine shift (same build rev-aaaa aaaa): +"),
            "{}",
            steps[0].3
        );
    }
}

/// CI: every run a build of its own. One real 10% step among noise is one change point,
/// where it happened.
#[test]
fn every_run_a_new_build_finds_the_one_real_step() {
    for seed in 1..=5 {
        let mut rng = crate::base::rng::SplitMix64::new(seed);
        let mut values = noisy(10.0, 15, 3.0, &mut rng);
        values.extend(noisy(11.0, 15, 3.0, &mut rng));
        let names: Vec<String> = (0..values.len()).map(|i| format!("{i:04}")).collect();
        let points: Vec<_> = names.iter().map(|n| Some(n.as_str())).zip(values).collect();
        let steps = found(&runs("bitboard", &points));
        assert_eq!(steps.len(), 1, "seed {seed}: {steps:?}");
        assert_eq!((steps[0].0, steps[0].1), (15, Cause::Code), "seed {seed}");
        assert!(
            steps[0].3.contains("(rev-0014 0014 → rev-0015 0015)"),
            "{}",
            steps[0].3
        );
    }
}

/// Entries written before the code hash was recorded are unknown builds: never one
/// build (no machine shift), never a named code change.
#[test]
fn entries_without_a_code_hash_are_builds_not_recorded() {
    let mut rng = crate::base::rng::SplitMix64::new(7);
    let mut values = noisy(10.0, 5, 2.0, &mut rng);
    values.extend(noisy(12.0, 5, 2.0, &mut rng));
    let old: Vec<_> = values.iter().map(|&v| (None, v)).collect();
    let steps = found(&runs("bitboard", &old));
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!((steps[0].0, steps[0].1), (5, Cause::Unrecorded));
    assert!(steps[0].3.contains("build not recorded: +") && steps[0].3.contains("(? ? → ? ?)"));
    // Old runs, then new ones of one build: a step at the change is not the machine's.
    let mixed: Vec<_> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| (if i < 5 { None } else { Some("bbbb") }, v))
        .collect();
    let steps = found(&runs("bitboard", &mixed));
    assert_eq!(
        (steps[0].0, steps[0].1),
        (5, Cause::Unrecorded),
        "{steps:?}"
    );
    // A line written before the field existed reads as not recorded.
    let mut line: serde_json::Value =
        serde_json::to_value(entry("a", "2026-01-01T00:00:00Z", 1.0)).unwrap();
    line.as_object_mut().unwrap().remove("code");
    assert_eq!(serde_json::from_value::<Entry>(line).unwrap().code, None);
}

/// A built-in backend's code is the executable; a foreign one's is its own file, and
/// without one it is not recorded (never the executable's).
#[test]
fn an_entry_records_the_code_it_measured() {
    let mut run = crate::bench::present::export::tests::synthetic_run();
    run.build.exe = Some("fnv1a64:e1".into());
    run.results[1].foreign = Some(Default::default());
    run.results[1].code = Some("fnv1a64:11b".into());
    run.results[2].foreign = Some(Default::default());
    let codes: Vec<Option<String>> = run
        .results
        .iter()
        .map(|r| Entry::of(&run, r, "record").code)
        .collect();
    assert_eq!(
        codes[..3],
        [Some("fnv1a64:e1".into()), Some("fnv1a64:11b".into()), None]
    );
}
