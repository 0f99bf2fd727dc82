//! `exec:[PROTOCOL:]CMD`: a foreign program, split into words as `sh` would.

use std::path::{Path, PathBuf};

/// How puzzles are handed to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// The line protocol: one puzzle a line in, one answer a line out.
    Lines,
    /// A judge submission for HDU 1426, fed a batch of cases.
    Hdu1426,
    /// A judge submission for POJ 3074, fed a batch of cases then `end`.
    Poj3074,
    /// A 16x16 judge submission for UVa 1309 (and POJ 3076, the same problem), fed a
    /// batch of cases.
    Uva1309,
    /// A 16x16 judge submission for SPOJ SUDOKU: UVa 1309's cases after a count line.
    SpojSudoku,
}

impl Protocol {
    /// The side of the boards the protocol carries.
    pub fn side(self) -> usize {
        match self {
            Protocol::Uva1309 | Protocol::SpojSudoku => 16,
            _ => 9,
        }
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

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExecSpec {
    /// The whole spec, as every output names the backend.
    pub spec: String,
    pub program: String,
    pub args: Vec<String>,
    pub protocol: Protocol,
    pub mode: ExecMode,
}

impl ExecSpec {
    /// Parses what follows `exec:`.
    pub fn parse(rest: &str) -> Result<ExecSpec, String> {
        let (protocol, command) = match rest.split_once(':') {
            Some(("hdu1426", c)) => (Protocol::Hdu1426, c),
            Some(("poj3074", c)) => (Protocol::Poj3074, c),
            Some(("uva1309" | "poj3076", c)) => (Protocol::Uva1309, c),
            Some(("spoj-sudoku", c)) => (Protocol::SpojSudoku, c),
            _ => (Protocol::Lines, rest),
        };
        let words = shell_words::split(command).map_err(|e| format!("exec:{rest}: {e}"))?;
        let Some((program, args)) = words.split_first() else {
            return Err("exec: needs a command".to_string());
        };
        Ok(ExecSpec {
            spec: format!("exec:{rest}"),
            program: program.clone(),
            args: args.to_vec(),
            protocol,
            mode: ExecMode::default(),
        })
    }

    /// The program to run: a path as given, or the first match on `PATH`; an error when
    /// there is none, so a typo is said before anything runs.
    pub fn resolve(&self) -> Result<PathBuf, String> {
        let given = Path::new(&self.program);
        if self.program.contains('/') {
            return match given.is_file() {
                true => Ok(given.to_path_buf()),
                false => Err(format!("{}: no such program", self.program)),
            };
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
            (Protocol::Poj3074, "./a.out")
        );
        assert_eq!(j.spec, "exec:poj3074:./a.out --fast");
        for (name, protocol) in [
            ("uva1309", Protocol::Uva1309),
            ("poj3076", Protocol::Uva1309),
            ("spoj-sudoku", Protocol::SpojSudoku),
        ] {
            let s = ExecSpec::parse(&format!("{name}:./sub")).unwrap();
            assert_eq!((s.protocol, s.protocol.side()), (protocol, 16));
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
}
