//! The options layer.

use clap::Parser;

use super::bench::split_backends;
use super::*;

fn parse(args: &[&str]) -> anyhow::Result<Command> {
    let mut all = vec!["sudoku-bench"];
    all.extend_from_slice(args);
    from_cli(Cli::try_parse_from(all).unwrap())
}

#[test]
fn defaults_match_the_crate() {
    let Command::Solve(o) = parse(&["solve", "-q", "/dev/null"]).unwrap() else {
        panic!("not solve");
    };
    assert_eq!(o.run.limits.max_nodes, crate::solver::DEFAULT_MAX_NODES);
    assert_eq!(o.run.limits.max_solutions, 2);
    assert!(o.run.limits.cancel.is_some());
    assert_eq!(o.run.backend, Backend::Fastest);
}

#[test]
fn bad_values_are_usage_errors() {
    for args in [
        &["solve", "-b", "nope"][..],
        &["solve", "--max-solutions", "0"],
        &["solve", "--max-solutions", "2000000000"],
        &["solve", "--blanks", "5"],
        &["solve", "--puzzle-column", "0"],
        &["solve", "--solution-column", "2"],
        &["solve", "--sample", "0"],
        &["solve", "--timeout=-0.5"],
        &["gen", "--min-clues", "90"],
        &["bench", "x", "--warmup", "99999999"],
        &["bench", "x", "--noise=-1"],
    ] {
        let err = parse(args)
            .err()
            .unwrap_or_else(|| panic!("{args:?} accepted"));
        assert!(err.is::<UsageError>(), "{args:?}: {err}");
    }
}

#[test]
fn backend_lists_split_only_before_a_backend() {
    assert_eq!(split_backends("dlx-static,dfs"), ["dlx-static", "dfs"]);
    assert_eq!(
        split_backends("exec:solve --a,b,dlx-arena"),
        ["exec:solve --a,b", "dlx-arena"]
    );
    assert_eq!(
        split_backends("lib:a,b.so:f,exec:x,y"),
        ["lib:a,b.so:f", "exec:x,y"]
    );
    // A comma not followed by a backend name stays inside the spec.
    assert_eq!(split_backends("dfs,,dfs-like"), ["dfs,,dfs-like"]);
}

#[test]
fn every_output_gets_its_own_flag_and_target() {
    use crate::bench::present::export::ExportFormat as F;
    use crate::report::RowOutputKind as R;
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let (baselines, folder) = (at("b"), at(""));
    let bench = [
        "bench",
        "x",
        "--record",
        "--baselines-dir",
        baselines.as_str(),
    ];
    let solve = ["solve", "-q", "/dev/null"];
    let bench_flags = [
        "--export-csv",
        "--export-json",
        "--export-markdown",
        "--per-puzzle",
        "--html",
        "--history",
    ];
    let solve_flags = ["--csv", "--solutions"];
    // Each output pointed at a folder is refused under its own flag.
    let commands: [(&[&str], &[&str]); 2] = [(&bench, &bench_flags), (&solve, &solve_flags)];
    for (command, flags) in commands {
        for &flag in flags {
            let err = parse(&[command, &[flag, folder.as_str()][..]].concat())
                .err()
                .unwrap();
            assert!(
                err.to_string().starts_with(&format!("{flag} {folder} ")),
                "{err}"
            );
        }
    }
    // Each output, all named at once, gets the file named after its flag.
    let with = |command: &[&str], flags: &[&str]| {
        let paths: Vec<String> = flags.iter().map(|f| at(f)).collect();
        let mut args = command.to_vec();
        for (flag, path) in flags.iter().zip(&paths) {
            args.extend([*flag, path]);
        }
        parse(&args).unwrap()
    };
    let saving: &[&str] = &["--save-baseline", "saved"];
    let Command::Bench(o) = with(&[&bench[..], saving].concat(), &bench_flags) else {
        panic!("not bench");
    };
    let exports: Vec<(F, String)> = o.exports.into_iter().map(|(f, t)| (f, t.label)).collect();
    let expected = [
        (F::Csv, "--export-csv"),
        (F::Json, "--export-json"),
        (F::Markdown, "--export-markdown"),
    ];
    assert_eq!(exports, expected.map(|(f, flag)| (f, at(flag))));
    assert_eq!(o.per_puzzle.map(|t| t.label), Some(at("--per-puzzle")));
    assert_eq!(o.html.map(|t| t.label), Some(at("--html")));
    assert_eq!(o.record.map(|(t, _)| t.label), Some(at("--history")));
    assert_eq!(o.save.map(|s| s.target.label), Some(at("b/saved.json")));
    let Command::Solve(o) = with(&solve, &solve_flags) else {
        panic!("not solve");
    };
    let rows: Vec<(R, String)> = o.outputs.into_iter().map(|(k, t)| (k, t.label)).collect();
    let expected = [(R::Csv, "--csv"), (R::Solutions, "--solutions")];
    assert_eq!(rows, expected.map(|(k, flag)| (k, at(flag))));
}
