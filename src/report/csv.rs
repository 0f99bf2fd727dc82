//! The per-puzzle CSV: exactly one row per input record, in input order.

use std::io::{BufWriter, Write};
use std::sync::Arc;

use crate::run::PuzzleResult;

/// The columns, in order. The README documents each one.
pub const COLUMNS: [&str; 16] = [
    "source",
    "record",
    "line",
    "backend",
    "status",
    "solutions",
    "clues",
    "valid",
    "matches_expected",
    "nodes",
    "guesses",
    "time_ns",
    "thread",
    "puzzle",
    "solution",
    "error",
];

/// Writes result rows as CSV with a header.
///
/// Rows are formatted by hand, byte for byte what `csv::Writer` with its defaults wrote
/// (tests compare the two): only text fields can need quotes, and most fields are
/// numbers or fixed words, which serde and csv-core made costly per record.
pub struct CsvReport<W: Write> {
    out: BufWriter<W>,
    row: Vec<u8>,
    /// The last source and its field: every row of a source shares one `Arc`.
    source: Option<(Arc<str>, Vec<u8>)>,
}

impl<W: Write> CsvReport<W> {
    pub fn new(out: W) -> csv::Result<CsvReport<W>> {
        let mut report = CsvReport {
            out: BufWriter::with_capacity(1 << 16, out),
            row: Vec::with_capacity(512),
            source: None,
        };
        for (i, name) in COLUMNS.iter().enumerate() {
            if i > 0 {
                report.row.push(b',');
            }
            text(&mut report.row, name);
        }
        report.row.push(b'\n');
        report.out.write_all(&report.row)?;
        Ok(report)
    }

    pub fn write(&mut self, r: &PuzzleResult) -> csv::Result<()> {
        let row = &mut self.row;
        row.clear();
        match &self.source {
            Some((source, field)) if Arc::ptr_eq(source, &r.source) => {
                row.extend_from_slice(field);
            }
            _ => {
                text(row, &r.source);
                self.source = Some((r.source.clone(), row.clone()));
            }
        }
        row.push(b',');
        uint(row, r.number);
        row.push(b',');
        uint(row, r.line);
        row.push(b',');
        // Fixed words that need no quotes (a test checks each one).
        row.extend_from_slice(r.backend.name().as_bytes());
        row.push(b',');
        row.extend_from_slice(r.status.name().as_bytes());
        row.push(b',');
        uint(row, r.solutions.into());
        row.push(b',');
        if let Some(g) = &r.puzzle {
            uint(row, g.clues() as u64);
        }
        row.push(b',');
        boolean(row, r.valid);
        row.push(b',');
        boolean(row, r.matches_expected);
        row.push(b',');
        uint(row, r.nodes);
        row.push(b',');
        uint(row, r.guesses);
        row.push(b',');
        uint(row, r.time_ns);
        row.push(b',');
        if let Some(t) = r.thread {
            uint(row, t as u64);
        }
        row.push(b',');
        if let Some(g) = &r.puzzle {
            row.extend_from_slice(&g.to_line_with(b'.'));
        }
        row.push(b',');
        if let Some(g) = &r.solution {
            row.extend_from_slice(&g.to_line_with(b'0'));
        }
        row.push(b',');
        if let Some(error) = &r.error {
            text(row, error);
        }
        row.push(b'\n');
        self.out.write_all(row)?;
        Ok(())
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(mut self) -> Result<W, std::io::Error> {
        // As `csv::Writer::into_inner` did: the output itself is flushed too.
        self.out.flush()?;
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

/// A text field, quoted as csv's `QuoteStyle::Necessary` quotes: when it holds a comma,
/// a quote or a line break, with quotes doubled.
fn text(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !needs_quotes(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    out.push(b'"');
    for part in bytes.split_inclusive(|&b| b == b'"') {
        out.extend_from_slice(part);
        if part.ends_with(b"\"") {
            out.push(b'"');
        }
    }
    out.push(b'"');
}

fn needs_quotes(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
}

/// An unsigned integer in decimal.
fn uint(out: &mut Vec<u8>, mut n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    // Two digits a step, from the last, into a local buffer copied out at once.
    const PAIRS: [u8; 200] = {
        let mut t = [0u8; 200];
        let mut i = 0;
        while i < 100 {
            t[2 * i] = b'0' + (i / 10) as u8;
            t[2 * i + 1] = b'0' + (i % 10) as u8;
            i += 1;
        }
        t
    };
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    while n >= 10 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n > 0 {
        at -= 1;
        digits[at] = b'0' + n as u8;
    }
    out.extend_from_slice(&digits[at..]);
}

/// `true`, `false`, or an empty field for `None`.
fn boolean(out: &mut Vec<u8>, b: Option<bool>) {
    match b {
        Some(true) => out.extend_from_slice(b"true"),
        Some(false) => out.extend_from_slice(b"false"),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::run::Status;
    use crate::solver::Backend;

    const PUZZLE: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";

    fn result(source: &str, error: Option<&str>) -> PuzzleResult {
        PuzzleResult {
            source: source.into(),
            number: 1234567,
            line: 10,
            backend: Backend::DlxStatic,
            status: Status::Unique,
            puzzle: Some(PUZZLE.parse().unwrap()),
            solutions: 1,
            solution: Some(Grid::EMPTY),
            valid: Some(true),
            matches_expected: Some(false),
            nodes: u64::MAX,
            guesses: 0,
            time_ns: 90,
            thread: None,
            error: error.map(str::to_string),
        }
    }

    /// The row as `csv::Writer` with its defaults writes it.
    fn by_csv_crate(r: &PuzzleResult) -> Vec<u8> {
        let opt = |v: Option<String>| v.unwrap_or_default();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            r.source.to_string(),
            r.number.to_string(),
            r.line.to_string(),
            r.backend.name().to_string(),
            r.status.name().to_string(),
            r.solutions.to_string(),
            opt(r.puzzle.map(|g| g.clues().to_string())),
            opt(r.valid.map(|v| v.to_string())),
            opt(r.matches_expected.map(|v| v.to_string())),
            r.nodes.to_string(),
            r.guesses.to_string(),
            r.time_ns.to_string(),
            opt(r.thread.map(|v| v.to_string())),
            opt(r.puzzle.map(|g| g.to_line())),
            opt(r.solution.map(|g| g.to_line().replace('.', "0"))),
            opt(r.error.clone()),
        ])
        .unwrap();
        w.into_inner().unwrap()
    }

    #[test]
    fn rows_are_what_the_csv_crate_writes() {
        let tricky = [
            "",
            "plain",
            "a,b",
            "say \"hi\"",
            "\"",
            "two\nlines",
            "cr\r",
            " sp ",
            "é,",
        ];
        let mut want = b"source,record,line,backend,status,solutions,clues,valid,\
            matches_expected,nodes,guesses,time_ns,thread,puzzle,solution,error\n"
            .to_vec();
        let mut report = CsvReport::new(Vec::new()).unwrap();
        for s in tricky {
            for r in [result(s, Some(s)), result(s, None)] {
                want.extend(by_csv_crate(&r));
                report.write(&r).unwrap();
            }
        }
        let mut r = result("x", None);
        for n in [0, 9, 10, 99, 100, 101, 1000, 12345, u64::MAX / 7] {
            (r.nodes, r.guesses, r.time_ns) = (n, n + 1, n * 3);
            want.extend(by_csv_crate(&r));
            report.write(&r).unwrap();
        }
        (r.puzzle, r.solution, r.valid, r.matches_expected, r.thread) =
            (None, None, None, None, Some(3));
        want.extend(by_csv_crate(&r));
        report.write(&r).unwrap();
        assert_eq!(
            String::from_utf8(report.into_inner().unwrap()).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[test]
    fn fixed_words_need_no_quotes() {
        let names = Backend::ALL
            .iter()
            .chain([&Backend::Null])
            .map(|b| b.name());
        let statuses = Status::ALL.iter().map(|s| s.name());
        for name in names.chain(statuses) {
            assert!(!needs_quotes(name.as_bytes()), "{name}");
        }
    }
}
