//! Completion scripts run in the shells they are for (bash always; zsh and fish where
//! installed, else a printed skip), and the manual pages: one per subcommand.

use std::path::Path;
use std::time::Duration;

use crate::common::{program, sudoku_bench};

const LIMIT: Duration = Duration::from_secs(60);

fn stdout_of(args: &[&str]) -> String {
    let out = sudoku_bench().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The visible subcommands, from `--help` (not `help`, which takes no options).
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["--help"]);
    let commands = help.split("Commands:\n").nth(1).expect("a command list");
    let names: Vec<String> = commands
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&n| n != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() > 5, "{names:?}");
    names
}

/// A subcommand's long options, from its `--help`: the first `--name` of each option line.
fn long_options(subcommand: &str) -> Vec<String> {
    let options: Vec<String> = stdout_of(&[subcommand, "--help"])
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').to_string())
        .collect();
    assert!(options.contains(&"--help".to_string()), "{options:?}");
    options
}

fn installed(shell: &str) -> bool {
    let found = program("sh")
        .args(["-c", &format!("command -v {shell}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        println!("skipped: {shell} is not installed");
    }
    found
}

fn script(dir: &Path, shell: &str) -> std::path::PathBuf {
    let path = dir.join(format!("sudoku-bench.{shell}"));
    std::fs::write(&path, stdout_of(&["completions", shell])).unwrap();
    path
}

/// Each line's completions, as bash computes them for a Tab at its end: the script
/// sourced, the `complete -F` function it registered called as readline would.
fn bash_complete(script: &Path, lines: &[&str]) -> Vec<Vec<String>> {
    const DRIVER: &str = r#"
source "$1" || exit 3
shift
spec=$(complete -p sudoku-bench) || exit 3
fn=${spec#*-F }
fn=${fn%% *}
for line in "$@"; do
    read -ra COMP_WORDS <<< "$line"
    [[ $line == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    "$fn" sudoku-bench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}" "=="
done
"#;
    let out = program("bash")
        .args(["--norc", "--noprofile", "-c", DRIVER, "bash"])
        .arg(script)
        .args(lines)
        .timeout(LIMIT)
        .assert()
        .success();
    replies(&out.get_output().stdout, lines.len())
}

/// `==`-ended groups of lines.
fn replies(stdout: &[u8], expected: usize) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(stdout);
    let groups: Vec<Vec<String>> = text
        .split_terminator("==\n")
        .map(|g| {
            g.lines()
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        })
        .collect();
    assert_eq!(groups.len(), expected, "{text}");
    groups
}

fn assert_offers(replies: &[String], wanted: &[String], line: &str) {
    for w in wanted {
        assert!(
            replies.iter().any(|r| r == w),
            "{line:?}: {w} missing from {replies:?}"
        );
    }
}

#[test]
fn bash_completes_every_subcommand_option() {
    if !installed("bash") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = script(dir.path(), "bash");
    let subcommands = subcommands();
    let lines: Vec<String> = subcommands
        .iter()
        .map(|s| format!("sudoku-bench {s} --"))
        .chain([
            "sudoku-bench so".into(),
            "sudoku-bench bench --ba".into(),
            "sudoku-bench solve --format ".into(),
        ])
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let got = bash_complete(&script, &lines);
    for (i, s) in subcommands.iter().enumerate() {
        assert_offers(&got[i], &long_options(s), lines[i]);
    }
    let n = subcommands.len();
    assert_eq!(got[n], ["solve"]);
    let mut ba: Vec<String> = long_options("bench")
        .into_iter()
        .filter(|o| o.starts_with("--ba"))
        .collect();
    ba.sort();
    let mut offered = got[n + 1].clone();
    offered.sort();
    assert_eq!(offered, ba);
    assert!(ba.contains(&"--backends".into()), "{ba:?}");
    assert_offers(&got[n + 2], &["line".into(), "csv".into()], lines[n + 2]);
}

#[test]
fn fish_completes_every_subcommand_option() {
    let dir = tempfile::tempdir().unwrap();
    let script = script(dir.path(), "fish");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("__fish_sudoku_bench_using_subcommand solve\" -l csv"));
    if !installed("fish") {
        return;
    }
    let subcommands = subcommands();
    let lines: Vec<String> = subcommands
        .iter()
        .map(|s| format!("sudoku-bench {s} --"))
        .collect();
    let out = program("fish")
        .args([
            "--no-config",
            "-c",
            "source $argv[1]; for l in $argv[2..]; complete -C $l; echo ==; end",
        ])
        .arg(&script)
        .args(&lines)
        .timeout(LIMIT)
        .assert()
        .success();
    let got = replies(&out.get_output().stdout, lines.len());
    for (i, s) in subcommands.iter().enumerate() {
        // `--flag<TAB>description`
        let flags: Vec<String> = got[i]
            .iter()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
        assert_offers(&flags, &long_options(s), &lines[i]);
    }
}

/// zsh completes only inside its line editor: an interactive zsh on a pseudo-terminal
/// (`zpty`) is sent each line with a Tab, then a key whose widget writes the edited
/// line to a file.
#[test]
fn zsh_completes_subcommand_options() {
    let dir = tempfile::tempdir().unwrap();
    let script = script(dir.path(), "zsh");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("(solve)") && text.contains("'--csv=[Write one CSV row"));
    if !installed("zsh") {
        return;
    }
    // For each subcommand, an option a prefix of which names it alone: Tab completes it.
    let mut cases = Vec::new();
    for s in subcommands() {
        let options = long_options(&s);
        let unique = options.iter().find_map(|o| {
            (3..o.len())
                .map(|n| &o[..n])
                .find(|p| options.iter().filter(|x| x.starts_with(p)).count() == 1)
                .map(|p| (p.to_string(), o.clone()))
        });
        let (prefix, option) = unique.expect("an option with a unique prefix");
        cases.push((
            format!("sudoku-bench {s} {prefix}"),
            format!("sudoku-bench {s} {option}"),
        ));
    }
    const DRIVER: &str = r#"
zmodload zsh/zpty || exit 3
script=$1 out=$2
shift 2
zpty z zsh -f -i || exit 3
zpty -w z "autoload -U compinit && compinit -u -D && source ${(q)script}"
zpty -w z "dump() { print -r -- \"\$BUFFER\" >> ${(q)out}; BUFFER=; }; zle -N dump; bindkey '^X' dump"
# One line at a time: zle may drop what was typed ahead of a completion.
n=0
for line in "$@"; do
    zpty -n -w z "$line"$'\t\C-x'
    (( n++ ))
    for i in {1..200}; do
        [[ -f $out ]] && dumped=("${(@f)$(<$out)}") && (( ${#dumped} >= n )) && break
        sleep 0.05
    done
done
zpty -d z
"#;
    let out = dir.path().join("lines");
    let typed: Vec<&str> = cases.iter().map(|(t, _)| t.as_str()).collect();
    program("zsh")
        .args(["-f", "-c", DRIVER, "zsh"])
        .arg(&script)
        .arg(&out)
        .args(&typed)
        .timeout(LIMIT)
        .assert()
        .success();
    let edited = std::fs::read_to_string(&out).unwrap_or_default();
    let edited: Vec<&str> = edited.lines().collect();
    assert_eq!(edited.len(), cases.len(), "{edited:?}");
    for ((typed, wanted), got) in cases.iter().zip(edited) {
        let rest = got.strip_prefix(wanted.as_str());
        assert!(
            rest.is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '-')),
            "{typed:?} completed to {got:?}, not {wanted:?}"
        );
    }
}

#[test]
fn a_manual_page_per_subcommand_and_none_written_over() {
    let subcommands = subcommands();
    for s in &subcommands {
        let page = stdout_of(&["man", s]);
        let name = format!("sudoku\\-bench\\-{}", s.replace('-', "\\-"));
        assert!(page.contains(&format!(".TH sudoku-bench-{s} 1")), "{page}");
        assert!(page.contains(&format!(".SH NAME\n{name} ")), "{page}");
        for option in long_options(s) {
            assert!(page.contains(&option.replace('-', "\\-")), "{s}: {option}");
        }
        // SEE ALSO names every other page, not this one.
        let see_also = page.split(".SH \"SEE ALSO\"\n").nth(1).expect(s);
        assert!(see_also.contains(".BR \\%sudoku\\-bench (1)"), "{see_also}");
        assert!(!see_also.contains(&format!("\\%{name} ")), "{see_also}");
        assert_eq!(see_also.lines().count(), subcommands.len(), "{see_also}");
    }
    let top = stdout_of(&["man"]);
    assert!(top.contains(".TH sudoku-bench 1"), "{top}");
    assert!(
        !top.contains("sudoku\\-bench\\-help"),
        "no page, so no link"
    );
    for hidden_or_unknown in ["count-instructions", "help", "nope"] {
        sudoku_bench()
            .args(["man", hidden_or_unknown])
            .assert()
            .code(2);
    }

    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    sudoku_bench()
        .args(["man", "--dir"])
        .arg(&pages)
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut wanted: Vec<String> = subcommands
        .iter()
        .map(|s| format!("sudoku-bench-{s}.1"))
        .chain(["sudoku-bench.1".into()])
        .collect();
    wanted.sort();
    assert_eq!(names, wanted);
    assert_eq!(
        std::fs::read_to_string(pages.join("sudoku-bench-solve.1")).unwrap(),
        stdout_of(&["man", "solve"])
    );

    // One page there already: refused, and nothing else written.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("sudoku-bench-gen.1"), "mine").unwrap();
    sudoku_bench()
        .args(["man", "--dir"])
        .arg(&other)
        .assert()
        .code(1)
        .stderr(crate::common::contains("sudoku-bench-gen.1"));
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(other.join("sudoku-bench-gen.1")).unwrap(),
        "mine"
    );
}
