//! The program describing itself: shell completion scripts and manual pages, both made
//! from the clap definition in `cli`.

use clap::CommandFactory;

use super::{Exit, print};
use crate::cli;
use crate::options::UsageError;

const BIN: &str = "sudoku-bench";

/// A shell completion script on standard output.
pub(super) fn completions(shell: &str) -> anyhow::Result<Exit> {
    use clap_complete::Shell;
    let shell: Shell = shell
        .parse()
        .map_err(|e| UsageError(format!("invalid value for SHELL: {e}")))?;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), BIN, &mut script);
    let mut script = String::from_utf8_lossy(&script).into_owned();
    if shell == Shell::Bash {
        script = mend_bash(&script, BIN);
    }
    print(&script)?;
    Ok(Exit::Success)
}

/// clap_complete's bash script (4.6) spells a state two ways when the program's name has
/// a hyphen: the loop over the words escapes the name's `-` as `__`, the arms that
/// answer as `__subcmd__` (clap-rs/clap#6421), so no arm past the program's own ever
/// matches and nothing completes after a subcommand. Every spelling is made the loop's;
/// a script that spells the name one way already stays consistent.
fn mend_bash(script: &str, bin: &str) -> String {
    script.replace(&bin.replace('-', "__subcmd__"), &bin.replace('-', "__"))
}

/// The manual page (roff) on standard output.
pub(super) fn man() -> anyhow::Result<Exit> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cli::Cli::command()).render(&mut page)?;
    print(&String::from_utf8_lossy(&page))?;
    Ok(Exit::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state the bash script's loop can reach (`cmd="..."`) has its arm (`...)`).
    #[test]
    fn every_bash_state_has_its_arm() {
        let mut script = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut cli::Cli::command(),
            BIN,
            &mut script,
        );
        let script = mend_bash(&String::from_utf8(script).unwrap(), BIN);
        let arms: std::collections::HashSet<&str> = script
            .lines()
            .filter_map(|l| l.trim().strip_suffix(')'))
            .collect();
        let states: Vec<&str> = script
            .lines()
            .filter_map(|l| l.trim().strip_prefix("cmd=\""))
            .filter_map(|l| l.strip_suffix('"'))
            .filter(|s| !s.is_empty())
            .collect();
        assert!(states.len() > 10, "{states:?}");
        for state in states {
            assert!(arms.contains(state), "no arm for {state}");
        }
    }
}
