//! Benchmark exports: the formats, each turned into its file's bytes, and the manager
//! that writes them.

use crate::bench::BenchRun;
use crate::output::{Target, TargetKind, write_whole};

/// The export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Json,
    Markdown,
}

impl ExportFormat {
    /// The run as this format's file.
    pub fn serialize(self, run: &BenchRun) -> anyhow::Result<Vec<u8>> {
        Ok(match self {
            ExportFormat::Csv => super::csv::export(run)?,
            // The layout of a saved baseline, with the verdicts.
            ExportFormat::Json => {
                let mut bytes = serde_json::to_vec_pretty(run)?;
                bytes.push(b'\n');
                bytes
            }
            ExportFormat::Markdown => super::markdown::export(run).into_bytes(),
        })
    }
}

/// Writes every requested export: the regular files whole after each result, so an
/// interrupted run keeps what it measured; devices and pipes the final version only.
#[derive(Default)]
pub struct ExportManager(pub Vec<(ExportFormat, Target)>);

impl ExportManager {
    /// Writes the exports; `last` for the final version of the run.
    pub fn write_all(&self, run: &BenchRun, last: bool) -> anyhow::Result<()> {
        for (format, target) in &self.0 {
            if last || matches!(target.kind, TargetKind::File(_)) {
                write_whole(target, &format.serialize(run)?)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::machine::{Build, Machine};
    use crate::bench::saved::{BenchSettings, FORMAT_VERSION};
    use crate::bench::{BenchResult, PerCall, dataset::DatasetInfo};

    /// A run with fixed numbers, so the exports are byte-for-byte stable.
    pub(crate) fn synthetic_run() -> BenchRun {
        let result = |backend: &str, threads: usize, us: f64| BenchResult {
            backend: backend.into(),
            dataset: DatasetInfo {
                path: "datasets/generated-3000.txt".into(),
                hash: "fnv1a64:3e8743477a8e6acd".into(),
                records: 3000,
                puzzles: 3000,
                parse_errors: 0,
                other_sizes: 0,
            },
            threads,
            rounds_ns: vec![(us * 3e6) as u64; 3],
            us_per_puzzle: us,
            puzzles_per_s: 1e6 / us,
            spread_pct: 0.5,
            round_outliers: 0,
            per_call: PerCall {
                mean_us: us * threads as f64,
                median_us: us * 0.8 * threads as f64,
                p90_us: us * 1.5,
                p99_us: us * 3.0,
                max_us: us * 14.0,
                mad_us: us * 0.2,
                outliers: 12,
                calls: 9000,
            },
            wrong: 0,
            budget_exceeded: 0,
            unsupported: 0,
            no_guess_pct: 41.7,
            nodes_per_puzzle: 97.55,
            guesses_per_puzzle: 2.09,
            nodes_total: 292_652,
            guesses_total: 6258,
            cdf: vec![(us * 0.5, 0.0), (us * 0.8, 0.5), (us * 14.0, 1.0)],
            foreign: None,
            counters: Default::default(),
            instructions: None,
            ..Default::default()
        };
        BenchRun {
            format_version: FORMAT_VERSION,
            date: "2026-11-29T23:50:14Z".into(),
            build: Build {
                version: "0.1.0".into(),
                git_revision: Some("ae5c432a9408".into()),
                rustc: "rustc 1.95.0 (59807616e 2026-04-14)".into(),
                exe: None,
            },
            machine: Machine {
                cpu: "AMD EPYC".into(),
                cores: 2,
                physical_cores: Some(1),
                os: "Linux (Debian GNU/Linux 12)".into(),
            },
            settings: BenchSettings {
                instructions: None,
                max_solutions: 2,
                max_nodes: 100_000_000,
                timeout_s: None,
                warmup: 1,
                rounds: 3,
                min_time_s: None,
                input: Default::default(),
                ..Default::default()
            },
            results: vec![
                result("dlx-static", 1, 17.5),
                result("dlx-arena", 1, 23.25),
                result("dlx-static", 2, 9.0),
            ],
            partial: false,
            versus: vec![crate::bench::Versus {
                base: "dlx-static".into(),
                other: "dlx-arena".into(),
                dataset: "datasets/generated-3000.txt".into(),
                threads: 1,
                kind: crate::bench::Kind::Solvers,
                how: crate::bench::How::Paired,
                timing: crate::bench::Timing::Cpu,
                ratio: Some(1.3286),
                low: Some(1.3102),
                high: Some(1.3391),
                pairs: 184,
                noise_pct: 2.0,
                verdict: crate::bench::Verdict::Differs,
                why: None,
                instructions_ratio: None,
            }],
        }
    }

    fn export(format: ExportFormat) -> String {
        let bytes = format.serialize(&synthetic_run()).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn csv_export() {
        insta::assert_snapshot!(export(ExportFormat::Csv));
    }

    #[test]
    fn markdown_export() {
        insta::assert_snapshot!(export(ExportFormat::Markdown));
    }

    #[test]
    fn json_export_round_trips() {
        let json = export(ExportFormat::Json);
        insta::assert_snapshot!(json);
        // The verdicts are written, never read back: a verdict is made from measurements.
        let back: BenchRun = serde_json::from_str(&json).unwrap();
        let mut run = synthetic_run();
        assert!(json.contains(r#""verdict": "differs""#));
        run.versus.clear();
        assert_eq!(back, run);
    }

    #[test]
    fn the_page_draws_every_backend() {
        let page = super::super::html::bench_report("t", &[], &synthetic_run());
        let svg = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap() + 6];
        for label in ["dlx-static -j1", "dlx-arena -j1", "dlx-static -j2"] {
            assert!(svg.contains(label), "{label}");
        }
        assert!(svg.contains("µs per puzzle (log scale)"));
        assert!(svg.contains("fraction of puzzles solved within"));
        assert!(svg.contains("generated-3000.txt: time per puzzle, cumulative"));
        assert_eq!(svg.matches("<polyline").count(), 3, "a series per result");
        assert_eq!(super::super::svg::tests::well_formed(svg), Ok(()));
    }

    #[test]
    fn the_manager_writes_every_target() {
        use crate::output::{Place, plan_optional};
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| Some(Place::Path(dir.path().join(name)));
        let wanted = [
            (ExportFormat::Csv, "--export-csv", at("a.csv")),
            (ExportFormat::Json, "--export-json", None),
            (ExportFormat::Markdown, "--export-markdown", at("sub/a.md")),
        ];
        let mut planned = plan_optional(&[], &wanted, false).unwrap();
        let targets = wanted
            .iter()
            .filter_map(|w| Some((w.0, planned.take(w.0)?)));
        ExportManager(targets.collect())
            .write_all(&synthetic_run(), false)
            .unwrap();
        assert!(dir.path().join("a.csv").exists());
        assert!(dir.path().join("sub/a.md").exists());
        // No temporary files are left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    /// Under a puzzle a second, a rate keeps its digits (it read `0`), in every layout.
    #[test]
    fn a_slow_rate_keeps_its_digits() {
        let mut run = synthetic_run();
        run.results[0].puzzles_per_s = 0.34;
        let md = ExportFormat::Markdown.serialize(&run).unwrap();
        assert!(String::from_utf8(md).unwrap().contains("| 0.340 |"));
        let table = crate::bench::present::terminal::render(&run);
        assert!(table.contains(" 0.340 "), "{table}");
    }

    /// A long dataset path is cut the same way in the table and in the notes on its rows.
    #[test]
    fn the_table_and_its_notes_name_a_dataset_alike() {
        let mut run = synthetic_run();
        let long = "/a/long/checkout/of/the/project/datasets/generated-3000.txt";
        for r in &mut run.results {
            r.dataset.path = long.into();
        }
        let text = crate::bench::present::terminal::render(&run);
        let name = super::super::dataset_name(long);
        assert!(name.len() < long.len());
        let row = text.lines().find(|l| l.starts_with("dlx-static")).unwrap();
        let note = text.lines().find(|l| l.starts_with("outliers")).unwrap();
        assert!(row.contains(&name) && note.contains(&name), "{text}");
    }

    #[test]
    fn the_terminal_table_shows_efficiency() {
        let table = crate::bench::present::terminal::render(&synthetic_run());
        insta::assert_snapshot!(table);
    }
}
