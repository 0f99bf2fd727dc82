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
    assert_eq!(o.run.backend, Backend::Bitboard);
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
        &["solve", "--only", "nope"],
        &["solve", "--sample", "0"],
        &["solve", "--timeout=-0.5"],
        &["gen", "--min-clues", "90"],
        &["bench", "x", "--warmup", "99999999"],
        &["bench", "x", "--min-round-ms", "99999999"],
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
