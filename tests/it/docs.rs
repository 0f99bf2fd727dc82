//! Every command the README and `docs/` show is run, so they stay true: each line of a
//! ` ```sh ` block and each `$ ` line of a ` ```console ` block, with the built binary as
//! `sudoku-bench` (and as `target/release/sudoku-bench`), in a scratch folder (and a home of its own) that holds the project's `datasets/`, `scripts/`
//! and `tests/` (read-only links) and nothing else. A command must exit 0, or with a
//! status its own comment names (`# exit 5 if it regressed`). `cargo` commands are
//! `.ci/run`'s: `cargo run --release -- ARGS` runs the binary under test with ARGS, the
//! others are not run here. Where a command names `../shared/` and that folder is absent,
//! it is skipped with a message (CI has it).

use crate::common::{program, project_file};
use std::path::Path;
use std::time::Duration;

/// A command from a document: where it is, what it runs, the exit statuses it may give.
#[derive(Debug)]
struct DocCommand {
    place: String,
    text: String,
    allowed: Vec<i32>,
}

/// The commands of one Markdown text, in order.
fn commands(name: &str, text: &str) -> Vec<DocCommand> {
    let mut found = Vec::new();
    let mut fence: Option<String> = None;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            fence = match fence {
                None => Some(info.trim().to_string()),
                Some(_) => None,
            };
            continue;
        }
        let command = match fence.as_deref() {
            Some("sh") => Some(line),
            Some("console") => line.strip_prefix("$ "),
            _ => None,
        };
        // A continued line (`\` at its end) joins the next one, in either kind of block.
        let line = match (&mut pending, command) {
            (Some((_, text)), _) if fence.is_some() => {
                text.push('\n');
                text.push_str(line);
                line
            }
            (_, Some(command)) => {
                pending = Some((i + 1, command.to_string()));
                command
            }
            _ => continue,
        };
        if line.ends_with('\\') {
            continue;
        }
        let (at, text) = pending.take().expect("a command in progress");
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        found.push(DocCommand {
            place: format!("{name}:{at}"),
            allowed: allowed_statuses(&text),
            text,
        });
    }
    assert!(fence.is_none(), "{name}: a code block is not closed");
    found
}

/// 0, and every `exit N` the command's trailing comment names.
fn allowed_statuses(command: &str) -> Vec<i32> {
    let mut allowed = vec![0];
    let Some((_, comment)) = command.rsplit_once(" # ") else {
        return allowed;
    };
    let mut rest = comment;
    while let Some(at) = rest.find("exit ") {
        rest = &rest[at + 5..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(status) = digits.parse() {
            allowed.push(status);
        }
    }
    allowed
}

/// Runs `cargo run --release -- ARGS` as the binary under test; other cargo commands
/// belong to `.ci/run` and are skipped here.
const PRELUDE: &str = r#"cargo() {
    if [ "$1 $2 $3" = "run --release --" ]; then shift 3; sudoku-bench "$@"; return; fi
    echo "(cargo $1: run by .ci/run, not here)"
}
"#;

#[test]
fn the_parser_finds_commands_continuations_and_allowed_statuses() {
    let text = "text\n```sh\nsudoku-bench a\n# comment\nsudoku-bench b \\\n  --c  # exit 5 or exit 1\n```\n\
                ```console\n$ sudoku-bench d\noutput\n```\n```text\nsudoku-bench e\n```\n";
    let found = commands("X.md", text);
    let texts: Vec<&str> = found.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "sudoku-bench a",
            "sudoku-bench b \\\n  --c  # exit 5 or exit 1",
            "sudoku-bench d"
        ]
    );
    assert_eq!(found[1].place, "X.md:5");
    assert_eq!(found[1].allowed, [0, 5, 1]);
    assert_eq!(found[2].allowed, [0]);
}

#[test]
fn every_command_in_the_readme_and_docs_runs() {
    let mut documents = vec![project_file("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(project_file("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    documents.extend(docs);

    // Each document in a scratch folder of its own, all at once: their commands are
    // mostly `bench` runs, timed by the clock rather than by the work, so running the
    // documents side by side takes a fraction of the time and changes no outcome.
    let outcomes: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|scope| {
        let runs: Vec<_> = (documents.iter())
            .map(|document| scope.spawn(|| run_document(document)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let ran: usize = outcomes.iter().map(|o| o.0).sum();
    let skipped: usize = outcomes.iter().map(|o| o.1).sum();
    let failures: Vec<String> = outcomes.into_iter().flat_map(|o| o.2).collect();
    eprintln!("documented commands: {ran} run, {skipped} skipped");
    assert!(
        ran >= 10,
        "only {ran} commands found in the README and docs/"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs one document's commands in order: how many ran, how many were skipped, failures.
fn run_document(document: &Path) -> (usize, usize, Vec<String>) {
    // The scratch folder sits one level down, so that `../shared` can be the project's.
    let scratch = tempfile::tempdir().unwrap();
    let work = scratch.path().join("project");
    let bin_dir = scratch.path().join("bin");
    std::fs::create_dir_all(work.join("results")).unwrap();
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::fs::create_dir_all(scratch.path().join("home")).unwrap();
    std::os::unix::fs::symlink(crate::common::bin(), bin_dir.join("sudoku-bench")).unwrap();
    // `cargo build --release` is .ci/run's: its binary is the one under test.
    std::fs::create_dir_all(work.join("target/release")).unwrap();
    let built = work.join("target/release/sudoku-bench");
    std::os::unix::fs::symlink(crate::common::bin(), built).unwrap();
    for dir in ["datasets", "scripts", "tests"] {
        std::os::unix::fs::symlink(project_file(dir), work.join(dir)).unwrap();
    }
    let shared = project_file("../shared");
    let have_shared = shared.is_dir();
    if have_shared {
        std::os::unix::fs::symlink(&shared, scratch.path().join("shared")).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let (mut ran, mut skipped, mut failures) = (0, 0, Vec::new());
    let name = document
        .strip_prefix(project_file(""))
        .unwrap_or(document)
        .display()
        .to_string();
    let text = std::fs::read_to_string(document).unwrap();
    for command in commands(&name, &text) {
        if command.text.contains("../shared/") && !have_shared {
            eprintln!(
                "{}: skipped (no ../shared): {}",
                command.place, command.text
            );
            skipped += 1;
            continue;
        }
        ran += 1;
        let started = std::time::Instant::now();
        let output = run(&work, &path, &scratch.path().join("home"), &command.text);
        eprintln!(
            "{}: {:.1} s: {}",
            command.place,
            started.elapsed().as_secs_f64(),
            command.text
        );
        let status = output.status.code().unwrap_or(-1);
        if !command.allowed.contains(&status) {
            failures.push(format!(
                "{} exited {status} (allowed {:?}): {}\n{}",
                command.place,
                command.allowed,
                command.text,
                String::from_utf8_lossy(&output.stderr)
                    .lines()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    (ran, skipped, failures)
}

/// Runs one command in `work`, with a home of its own (the docs install completions there).
fn run(work: &Path, path: &str, home: &Path, text: &str) -> std::process::Output {
    program("bash")
        .args(["--norc", "--noprofile", "-c", &format!("{PRELUDE}{text}")])
        .current_dir(work)
        .env("PATH", path)
        .env("HOME", home)
        .env_remove("SUDOKU_BENCH_BASELINES")
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap()
}
