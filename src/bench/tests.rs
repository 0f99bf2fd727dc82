//! `bench` end to end on a tiny dataset, including test-only backends.

use super::*;
use crate::bench::baseline::Verdict;
use crate::cpu::thread_cpu_ns;
use crate::solver::mock::Mock;

fn tiny_dataset() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.txt");
    std::fs::write(
        &path,
        "\
.5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4:1:652483917978162435314975628825736149791824563436519872269348751547291386183657294
55..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4
.5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72
8.........95.......76.........426798...571243...893165......916....3.487....1.532:2:
",
    )
    .unwrap();
    (dir, path)
}

fn load(path: &std::path::Path) -> Dataset {
    let input = crate::loader::Input::File(path.to_path_buf());
    Dataset::load(&input, &Default::default(), &Default::default())
        .unwrap()
        .unwrap()
}

fn config(backends: Vec<Backend>, threads: Vec<usize>) -> BenchConfig {
    let backends_of = backends.clone();
    BenchConfig {
        labels: backends.iter().map(|b| b.name().to_string()).collect(),
        backends,
        threads,
        limits: Limits::default(),
        warmup: 1,
        rounds: 3,
        min_time: None,
        min_round: Duration::ZERO,
        read: Default::default(),
        paired: false,
        seed: 7,
        noise_pct: 5.0,
        instructions: None,
        verify: Default::default(),
        timing: BenchConfig::timing_for(&backends_of),
        symmetry: true,
    }
}

#[derive(Default)]
struct Counts {
    passes: usize,
    rows: usize,
    /// Whose rows came, call by call.
    labels: Vec<String>,
}

impl Observer for Counts {
    fn on_pass(&mut self, _label: &str) {
        self.passes += 1;
    }
    fn on_rows(&mut self, combo: &Combo<'_>, results: &[PuzzleResult]) -> anyhow::Result<()> {
        self.rows += results.len();
        self.labels.push(combo.label.to_string());
        Ok(())
    }
}

#[test]
fn benches_every_backend_and_checks_answers() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    assert_eq!((dataset.info.records, dataset.info.puzzles), (4, 2));
    assert!(dataset.info.hash.starts_with("fnv1a64:"));
    let config = config(Backend::ALL.to_vec(), vec![1, 2]);
    let mut counts = Counts::default();
    let measured = run_bench(&[dataset], &config, &mut counts).unwrap();
    let results = measured.results;
    assert!(!measured.interrupted);
    assert_eq!(results.len(), 2 * Backend::ALL.len());
    assert_eq!(counts.passes, results.len() * 4);
    assert_eq!(counts.rows, results.len() * 4);
    for r in &results {
        assert_eq!(r.wrong, 0, "{}", r.backend);
        assert_eq!(r.rounds_ns.len(), 3);
        assert_eq!(r.per_call.calls, 3 * 2);
        assert!(r.us_per_puzzle > 0.0 && r.puzzles_per_s > 0.0);
        assert!(!r.cdf.is_empty());
        assert!(r.per_call.median_us <= r.per_call.max_us);
    }
    // The same search, whatever the thread count: identical work.
    assert_eq!(
        results[0].nodes_total,
        results[Backend::ALL.len()].nodes_total
    );
    let run = BenchRun::new(&config, results);
    assert_eq!(run.validate(), Ok(()));
    let two = &run.results[Backend::ALL.len()];
    assert!(run.efficiency(two).is_some());
}

#[test]
fn a_panicking_backend_is_counted_wrong_and_the_bench_goes_on() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    // The first cell of the first puzzle is blank (0): every call on it panics.
    let backends = vec![
        Backend::Mock(Mock::PanicsOnFirstCell(0)),
        Backend::DlxStatic,
    ];
    let measured = run_bench(
        &[dataset],
        &config(backends, vec![1, 2]),
        &mut Counts::default(),
    )
    .unwrap();
    let r = &measured.results;
    assert_eq!(r.len(), 4);
    // One wrong answer per pass (3 rounds, one pass each), the other puzzle solved.
    assert_eq!(
        (r[0].wrong, r[1].wrong, r[2].wrong, r[3].wrong),
        (3, 0, 3, 0)
    );
}

#[test]
fn a_timeout_stops_a_hanging_backend_in_every_pass() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    let mut config = config(vec![Backend::Mock(Mock::Hang)], vec![1]);
    config.limits.timeout = Some(Duration::from_millis(5));
    config.rounds = 1;
    let measured = run_bench(&[dataset], &config, &mut Counts::default()).unwrap();
    let r = &measured.results[0];
    assert_eq!((r.budget_exceeded, r.wrong), (2, 0));
    assert!(r.per_call.median_us >= 5000.0, "{}", r.per_call.median_us);
}

/// A dataset of `n` copies of one puzzle that takes dlx-static some microseconds.
fn repeated(n: usize) -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.txt");
    let line =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    std::fs::write(&path, line.repeat(n)).unwrap();
    let dataset = load(&path);
    (dir, dataset)
}

fn paired(backends: Vec<Backend>) -> BenchConfig {
    let mut c = config(backends, vec![1]);
    c.paired = true;
    c.noise_pct = 1.0;
    c.rounds = 20;
    c
}

#[test]
fn paired_runs_take_turns_and_judge_each_backend_against_the_first() {
    let (_dir, dataset) = repeated(40);
    let config = paired(vec![
        Backend::DlxStatic,
        Backend::Mock(Mock::Slow(2000)),
        Backend::DlxStatic,
    ]);
    let mut config = config;
    config.labels = vec!["a".into(), "slow".into(), "b".into()];
    let mut counts = Counts::default();
    let measured = run_bench(&[dataset], &config, &mut counts).unwrap();
    assert_eq!(measured.results.len(), 3);
    assert_eq!(measured.paired.len(), 2);
    let slow = &measured.paired[0];
    assert_eq!(
        (slow.baseline.as_str(), slow.backend.as_str()),
        ("a", "slow")
    );
    assert_eq!(slow.verdict, Verdict::Regressed, "{slow:?}");
    assert!(slow.ratio > 1.5 && slow.ratio < 3.0, "{slow:?}");
    assert!(slow.ci95.0 > 1.0 && slow.ci95.0 <= slow.ratio && slow.ratio <= slow.ci95.1);
    // At least 8 blocks a pass, more when the machine is slow: a whole number a round.
    assert!(
        slow.pairs >= 20 * 8 && slow.pairs % 20 == 0,
        "a pass has at least 8 blocks: {slow:?}"
    );
    assert_eq!(slow.seed, 7);
    // Rows once per backend, results named by label, every answer right.
    assert_eq!(counts.rows, 3 * 40);
    // The first round's rows come block by block, backend by backend: no backend's
    // answers are held for the whole dataset (they took 400 bytes a puzzle).
    assert!(counts.labels.len() >= 3 * 8, "{:?}", counts.labels);
    assert!(counts.labels.chunks(3).all(|c| c == ["a", "slow", "b"]));
    let names: Vec<&str> = measured
        .results
        .iter()
        .map(|r| r.backend.as_str())
        .collect();
    assert_eq!(names, ["a", "slow", "b"]);
    assert!(
        measured
            .results
            .iter()
            .all(|r| r.wrong == 0 && r.rounds_ns.len() == 20)
    );
    // Same code both sides: an interval that holds 1, or a ratio within a few percent.
    let same = &measured.paired[1];
    assert!(same.ci95.0 < same.ci95.1);
    assert!((same.ratio - 1.0).abs() < 0.25, "{same:?}");
    // The run keeps them, and they survive a round trip through JSON.
    let mut run = BenchRun::new(&config, measured.results);
    run.paired = measured.paired;
    let back: BenchRun = serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
    assert_eq!(back.paired, run.paired);
    assert_eq!(back.validate(), Ok(()));
}

#[test]
fn a_faster_backend_is_improved() {
    let (_dir, dataset) = repeated(40);
    let config = paired(vec![Backend::Mock(Mock::Slow(2000)), Backend::DlxStatic]);
    let measured = run_bench(&[dataset], &config, &mut Counts::default()).unwrap();
    let p = &measured.paired[0];
    assert_eq!(p.verdict, Verdict::Improved, "{p:?}");
    assert!(p.ci95.1 < 1.0);
    assert_eq!(p.clock, if thread_cpu_ns() > 0 { "cpu" } else { "wall" });
}
