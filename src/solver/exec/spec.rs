//! `exec:[PROTOCOL:]CMD`: a foreign program, split into words as `sh` would.

use std::path::PathBuf;

use crate::board::nine::Grid;

/// How puzzles (9x9 boards) are handed to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// The line protocol: one puzzle a line in, one answer a line out.
    Lines,
    /// A judge submission for this problem, fed a batch of cases.
    Judge(Problem),
}

named! {
    /// The online-judge problems: what `judge` answers as an accepted solution would, and
    /// what `exec:PROBLEM:CMD` feeds a submission; each by its name in either.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Problem {
        /// HDU 1426: 9 lines of 9 tokens (`?` unknown), a blank line between cases.
        Hdu1426 => "hdu1426",
        /// POJ 3074: 81-character lines (`.` unknown), `end` ends the input.
        Poj3074 => "poj3074",
    }
}

impl Problem {
    /// One case (or its answer) as the judge writes it: HDU 1426's 9 rows of 9 tokens
    /// (blanks `?`, an empty line before all but the first), or POJ 3074's line of 81.
    pub fn write_case(self, board: &Grid, not_first: bool, out: &mut Vec<u8>) {
        if self == Problem::Poj3074 {
            out.extend_from_slice(&board.to_line_with(b'.'));
            out.push(b'\n');
            return;
        }
        if not_first {
            out.push(b'\n');
        }
        for (i, &c) in board.cells().iter().enumerate() {
            out.push(if c == 0 { b'?' } else { b'0' + c });
            out.push(if i % 9 == 8 { b'\n' } else { b' ' });
        }
    }
}

impl std::str::FromStr for Problem {
    type Err = String;

    fn from_str(s: &str) -> Result<Problem, String> {
        let found = Problem::ALL.into_iter().find(|p| p.name() == s);
        found.ok_or_else(|| format!("unknown problem {s:?}: hdu1426 or poj3074"))
    }
}

/// How the line protocol is timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExecMode {
    /// One puzzle at a time, each timed, the calibrated pipe round trip subtracted.
    #[default]
    PerPuzzle,
    /// Many puzzles in flight; each gets the batch's time divided by its size.
    Stream,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecSpec {
    /// The whole spec, as every output names the backend (see [`super::super::leaked`]).
    pub spec: &'static str,
    pub program: String,
    pub args: Vec<String>,
    pub protocol: Protocol,
    pub mode: ExecMode,
    pub shared: super::Shared,
}

impl ExecSpec {
    /// Parses what follows `exec:`.
    pub fn parse(rest: &str) -> Result<ExecSpec, String> {
        let (protocol, command) = match rest.split_once(':').map(|(name, c)| (name.parse(), c)) {
            Some((Ok(problem), c)) => (Protocol::Judge(problem), c),
            _ => (Protocol::Lines, rest),
        };
        let words = shell_words::split(command).map_err(|e| format!("exec:{rest}: {e}"))?;
        let Some((program, args)) = words.split_first() else {
            return Err("exec: needs a command".to_string());
        };
        Ok(ExecSpec {
            spec: crate::solver::leaked(format!("exec:{rest}")),
            program: program.clone(),
            args: args.to_vec(),
            protocol,
            mode: ExecMode::default(),
            shared: Default::default(),
        })
    }

    /// The program to run: a path as given, or the first match on `PATH`; an error when
    /// there is none, so a typo is said before anything runs.
    pub fn resolve(&self) -> Result<PathBuf, String> {
        if self.program.contains('/') {
            let given = PathBuf::from(&self.program);
            let found = given.is_file().then_some(given);
            return found.ok_or_else(|| format!("{}: no such program", self.program));
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(&self.program))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("{}: not found on PATH", self.program))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_sh_and_reads_the_protocol() {
        let s = ExecSpec::parse("sh -c 'sed s/x/y/ | cat'").unwrap();
        assert_eq!((s.program.as_str(), s.args.len()), ("sh", 2));
        assert_eq!(s.args[1], "sed s/x/y/ | cat");
        assert_eq!(s.protocol, Protocol::Lines);
        let j = ExecSpec::parse("poj3074:./a.out --fast").unwrap();
        assert_eq!(
            (j.protocol, j.program.as_str()),
            (Protocol::Judge(Problem::Poj3074), "./a.out")
        );
        assert_eq!(j.spec, "exec:poj3074:./a.out --fast");
        for problem in Problem::ALL {
            let s = ExecSpec::parse(&format!("{}:./sub", problem.name())).unwrap();
            assert_eq!(s.protocol, Protocol::Judge(problem));
        }
        assert!(ExecSpec::parse("").is_err());
        assert!(ExecSpec::parse("sh -c 'unclosed").is_err());
        assert!(
            ExecSpec::parse("definitely-not-a-program-here")
                .unwrap()
                .resolve()
                .is_err()
        );
        assert!(ExecSpec::parse("sh").unwrap().resolve().is_ok());
    }

    #[test]
    fn nine_by_nine_cases_are_written_as_each_judge_reads_them() {
        let g = Grid::from_line(format!("1{}", ".".repeat(80)).as_bytes()).unwrap();
        let mut out = Vec::new();
        Problem::Hdu1426.write_case(&g, true, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("\n1 ? ? ? ? ? ? ? ?\n? ? ? ? ? ? ? ? ?\n"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 10);
        let mut out = Vec::new();
        Problem::Poj3074.write_case(&g, true, &mut out);
        assert_eq!(out, format!("1{}\n", ".".repeat(80)).into_bytes());
    }

    #[test]
    fn the_problems_are_the_ones_judge_takes() {
        use clap::CommandFactory;
        let cli = crate::cli::Cli::command();
        let judge = cli.find_subcommand("judge").unwrap();
        let arg = judge.get_arguments().find(|a| a.get_id() == "problem");
        let values = arg.unwrap().get_possible_values();
        let names: Vec<&str> = values.iter().map(|v| v.get_name()).collect();
        assert_eq!(names, Problem::ALL.map(Problem::name));
        for problem in Problem::ALL {
            assert_eq!(problem.name().parse(), Ok(problem));
        }
        assert!("uva".parse::<Problem>().is_err());
    }
}
