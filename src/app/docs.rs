//! The program describing itself: shell completion scripts and manual pages, both made
//! from the clap definition in `cli`.

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Exit, print};
use crate::cli;
use crate::options::{ManOptions, ManTo};

const BIN: &str = "sudoku-bench";

/// A shell completion script on standard output.
pub(super) fn completions(shell: Shell) -> anyhow::Result<Exit> {
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

/// `man`: one page on standard output, or every page as new files.
pub(super) fn man(options: ManOptions) -> anyhow::Result<Exit> {
    let ManOptions { pages, to } = options;
    match to {
        ManTo::Print(i) => print(&String::from_utf8_lossy(&page(&pages, i)?))?,
        ManTo::Files(files) => {
            let written = files
                .into_iter()
                .enumerate()
                .map(|(i, file)| Ok((file, page(&pages, i)?)))
                .collect::<anyhow::Result<Vec<_>>>()?;
            crate::output::write_new(&written)?;
        }
    }
    Ok(Exit::Success)
}

/// `pages[i]`'s manual page (roff), its SEE ALSO naming every other page.
fn page(pages: &[clap::Command], i: usize) -> anyhow::Result<Vec<u8>> {
    let source = format!("{BIN} {}", pages[0].get_version().unwrap_or_default());
    let mut roff = Vec::new();
    clap_mangen::Man::new(pages[i].clone())
        .source(source)
        .render(&mut roff)?;
    // Last, as man-pages(7) orders the sections. Page names are letters and hyphens:
    // a hyphen is the only character roff needs escaped; `\%` keeps a name unbroken.
    let others: Vec<String> = (pages.iter().enumerate())
        .filter(|&(j, _)| j != i)
        .map(|(_, p)| format!(".BR \\%{} (1)", cli::page_name(p).replace('-', "\\-")))
        .collect();
    roff.extend(format!(".SH \"SEE ALSO\"\n{}\n", others.join(",\n")).bytes());
    Ok(roff)
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
