//! `bench` end to end on a tiny dataset, including test-only backends.

use super::*;
use crate::base::cpu::thread_cpu_ns;
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
    Dataset::load(&input, &Default::default(), &Default::default(), 1 << 30)
        .unwrap()
        .unwrap()
}

fn config(backends: Vec<Backend>, threads: Vec<usize>) -> BenchConfig {
    BenchConfig {
        labels: backends.iter().map(|b| b.name().to_string()).collect(),
        backends,
        threads,
        limits: Limits::default(),
        warmup: 1,
        rounds: 3,
        min_time: None,
        read: Default::default(),
        rules: judge::Rules {
            kind: Kind::Solvers,
            seed: 7,
            noise_pct: 1.0,
            trust_times: false,
        },
        instructions: None,
        verify: Default::default(),
        symmetry: true,
    }
}

/// A build to name the runs by (hashing the test executable would only cost time).
fn build() -> crate::bench::machine::Build {
    crate::bench::machine::Build {
        version: "0.1.0".into(),
        git_revision: None,
        rustc: "rustc".into(),
        exe: None,
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
    fn on_rows(&mut self, results: &[PuzzleResult]) -> anyhow::Result<()> {
        self.rows += results.len();
        // A block's rows are one backend's, named by its label.
        self.labels.push(
            results
                .first()
                .map_or_else(String::new, |r| r.backend.to_string()),
        );
        Ok(())
    }
    fn on_result(&mut self, _result: &BenchResult) -> anyhow::Result<()> {
        Ok(())
    }
}

#[test]
fn benches_every_backend_and_checks_answers() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    assert_eq!((dataset.info.records, dataset.info.puzzles), (4, 2));
    assert!(dataset.info.hash.starts_with("fnv1a64:"));
    let mut all = Backend::ALL.to_vec();
    all.push(Backend::Null);
    let n = all.len();
    let config = config(all, vec![1, 2]);
    let mut counts = Counts::default();
    let this = crate::bench::machine::Build::current();
    let measured = run_bench(&[dataset], &config, &this, &mut counts).unwrap();
    let results = &measured.results;
    assert!(!measured.partial);
    assert_eq!(results.len(), 2 * n);
    // Per thread count: a warmup pass of each backend, then 3 rounds they take in turns.
    assert_eq!(counts.passes, 2 * (n + 3));
    assert_eq!(counts.rows, results.len() * 4);
    for r in results {
        assert_eq!((r.wrong, r.wrong_answers), (0, 0), "{}", r.backend);
        assert_eq!(r.rounds_ns.len(), 3);
        assert_eq!(r.per_call.calls, 3 * 2);
        assert!(r.us_per_puzzle > 0.0 && r.puzzles_per_s > 0.0);
        assert!(!r.cdf.is_empty());
        assert!(r.per_call.median_us <= r.per_call.max_us);
    }
    // The same search, whatever the thread count: identical work.
    assert_eq!(results[0].nodes_total, results[n].nodes_total);
    // Two solvers each: every other backend against the fastest, never "regressed".
    assert_eq!(measured.versus.len(), 2 * (n - 1));
    assert!(
        measured
            .versus
            .iter()
            .all(|v| v.kind == Kind::Solvers && !v.regressed())
    );
    let null = measured.versus.iter().find(|v| v.other == "null");
    let null = null.unwrap_or_else(|| panic!("{:#?}", measured.versus));
    assert_eq!((null.verdict, null.ratio), (Verdict::Unjudged, None));
    assert_eq!(null.why.as_deref(), Some("null solves nothing"));
    let run = measured;
    assert_eq!(run.validate(), Ok(()));
    let two = &run.results[n];
    assert!(run.efficiency(two).is_some());
}

#[test]
fn a_panicking_backend_is_counted_wrong_per_puzzle_and_the_bench_goes_on() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    // The first cell of the first puzzle is blank (0): every call on it panics.
    let backends = vec![
        Backend::Mock(Mock::PanicsOnFirstCell(0)),
        Backend::DlxStatic,
    ];
    // Puzzles as written: the trigger stays in place.
    let mut config = config(backends, vec![1, 2]);
    config.symmetry = false;
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
    let r = &measured.results;
    assert_eq!(r.len(), 4);
    // One puzzle wrong, in each of the 3 rounds; the other puzzle solved.
    let wrong: Vec<(u64, u64)> = r.iter().map(|r| (r.wrong, r.wrong_answers)).collect();
    assert_eq!(wrong, [(1, 3), (0, 0), (1, 3), (0, 0)]);
}

#[test]
fn a_timeout_stops_a_hanging_backend_in_every_round() {
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    let mut config = config(vec![Backend::Mock(Mock::Hang)], vec![1]);
    config.limits.timeout = Some(Duration::from_millis(5));
    config.rounds = 1;
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
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

fn builds(backends: Vec<Backend>) -> BenchConfig {
    let mut c = config(backends, vec![1]);
    c.rules.kind = Kind::Builds;
    c.rounds = 20;
    c
}

#[test]
fn builds_take_turns_and_each_is_judged_against_the_first() {
    let (_dir, dataset) = repeated(40);
    let mut config = builds(vec![
        Backend::DlxStatic,
        Backend::Mock(Mock::Slow(2000)),
        Backend::DlxStatic,
    ]);
    config.labels = vec!["a".into(), "slow".into(), "b".into()];
    let mut counts = Counts::default();
    let measured = run_bench(&[dataset], &config, &build(), &mut counts).unwrap();
    assert_eq!(measured.results.len(), 3);
    assert_eq!(measured.versus.len(), 2);
    let slow = &measured.versus[0];
    assert_eq!((slow.base.as_str(), slow.other.as_str()), ("a", "slow"));
    assert_eq!(slow.verdict, Verdict::Regressed, "{slow:?}");
    let (ratio, low, high) = (slow.ratio.unwrap(), slow.low.unwrap(), slow.high.unwrap());
    assert!(ratio > 1.5 && ratio < 3.0, "{slow:?}");
    assert!(low > 1.0 && low <= ratio && ratio <= high);
    // At least 8 blocks a round (a pair a disturbance hit may be left out).
    assert!(
        slow.pairs >= 20 * 8 - 8,
        "a round has at least 8 blocks: {slow:?}"
    );
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
    // Same code both sides: a ratio within a few percent.
    let same = &measured.versus[1];
    assert!((same.ratio.unwrap() - 1.0).abs() < 0.25, "{same:?}");
}

#[test]
fn a_faster_build_is_improved() {
    let (_dir, dataset) = repeated(40);
    let config = builds(vec![Backend::Mock(Mock::Slow(2000)), Backend::DlxStatic]);
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
    let v = &measured.versus[0];
    assert_eq!(v.verdict, Verdict::Improved, "{v:?}");
    assert!(v.high.unwrap() < 1.0);
    let cpu = if thread_cpu_ns() > 0 {
        Timing::Cpu
    } else {
        Timing::Wall
    };
    assert_eq!(v.timing, cpu);
}

/// Finding: the paired ratio was the median of the blocks' ratios, so a build doing a
/// tenth more work in all (every tenth call twice) read 1.036-1.058. It is the ratio of
/// total times now.
#[test]
fn a_tenth_more_work_reads_about_1_10() {
    // 37 puzzles: the doubled calls fall on other puzzles each round.
    let (_dir, dataset) = repeated(37);
    let mut config = builds(vec![Backend::DlxStatic, Backend::Mock(Mock::Repeats(10))]);
    config.rounds = 40;
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
    let v = &measured.versus[0];
    let ratio = v.ratio.unwrap();
    assert!((1.05..1.15).contains(&ratio), "{v:?}");
}

/// Findings: a build that gave up after the first round read thousands of times faster
/// and "improved"; one so slow it hit --timeout got "no verdict", shown as "no
/// regression", exit 0. Outcomes decide now, before any time.
#[test]
fn a_build_that_gives_up_where_the_old_one_solved_is_regressed() {
    let (_dir, dataset) = repeated(40);
    let config = builds(vec![
        Backend::DlxStatic,
        Backend::Mock(Mock::GivesUpAfter(60)),
    ]);
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
    let v = &measured.versus[0];
    assert_eq!((v.verdict, v.ratio), (Verdict::Regressed, None), "{v:?}");
    assert!(v.regressed());
    assert!(
        v.why
            .as_deref()
            .unwrap()
            .contains("not the same outcomes on 40 puzzles")
    );
    assert_eq!(measured.results[1].budget_exceeded, 40);
}

/// Findings: `--paired` rated `null` "improved", and two solvers that gave up on
/// different puzzles, as many each, got a verdict.
#[test]
fn a_backend_that_solves_nothing_or_other_puzzles_gets_no_ratio() {
    let (_dir, dataset) = repeated(40);
    let config = builds(vec![Backend::DlxStatic, Backend::Null]);
    let measured = run_bench(&[dataset], &config, &build(), &mut Counts::default()).unwrap();
    let v = &measured.versus[0];
    assert_eq!((v.verdict, v.ratio), (Verdict::Unjudged, None), "{v:?}");
    assert!(!v.regressed());
}

#[test]
fn a_puzzles_form_depends_on_the_puzzle_and_round_not_on_the_blocks() {
    // A third, slower backend cuts the dataset into other blocks; the forms each puzzle
    // is given, and so the other backends' work, must not change with them.
    let (_dir, path) = tiny_dataset();
    let dataset = load(&path);
    let config = config(vec![Backend::Null], vec![1]);
    let n = dataset.len();
    let mut whole = Vec::new();
    dataset.unpack(0..n, &mut whole);
    let forms = engine::present(&config, 3, 0, &mut whole).unwrap();
    for k in 0..n {
        let mut one = Vec::new();
        dataset.unpack(k..k + 1, &mut one);
        let form = engine::present(&config, 3, k as u64, &mut one).unwrap();
        assert_eq!((&form[0], &one[0]), (&forms[k], &whole[k]), "puzzle {k}");
    }
    // Another round, another form (of at least one puzzle).
    let mut again = Vec::new();
    dataset.unpack(0..n, &mut again);
    assert_ne!(engine::present(&config, 4, 0, &mut again).unwrap(), forms);
}
