//! The per-puzzle CSV: exactly one row per input record, in input order.

use super::RowFormat;
use crate::run::PuzzleResult;

/// The header: the columns, in order, none needing quotes. The README documents each
/// one. The last three were added later, at the end, so that older readers' columns keep
/// their place: cells a row (4, 9, 16, 25), the clock of `time_ns`, the verifier's
/// finding.
const HEADER: &str = "source,record,line,backend,status,solutions,clues,valid,matches_expected,\
    nodes,guesses,time_ns,thread,puzzle,solution,error,size,clock,verified\n";

/// Result rows as CSV with a header.
///
/// Rows are formatted by hand, byte for byte what `csv::Writer` with its defaults wrote
/// (tests compare the two): most fields are numbers or fixed words, which serde and
/// csv-core made costly per record.
#[derive(Default)]
pub struct CsvRows {
    /// The last source and backend and their fields: every row of a run shares them.
    source: ((usize, usize), Vec<u8>),
    backend: ((usize, usize), Vec<u8>),
}

impl RowFormat for CsvRows {
    fn header(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(HEADER.as_bytes());
    }

    fn row(&mut self, r: &PuzzleResult, out: &mut Vec<u8>) {
        cached(out, &mut self.source, &r.source);
        cell(out, Some(r.number), uint);
        cell(out, Some(r.line), uint);
        out.push(b',');
        cached(out, &mut self.backend, r.backend);
        cell(out, Some(r.status.name()), word);
        cell(out, Some(r.solutions.into()), uint);
        cell(out, r.puzzle.map(|g| g.clues() as u64), uint);
        cell(out, r.valid, boolean);
        cell(out, r.matches_expected, boolean);
        cell(out, r.nodes, uint);
        cell(out, r.guesses, uint);
        cell(out, Some(r.time_ns), uint);
        cell(out, r.thread.map(|t| t as u64), uint);
        cell(out, r.puzzle, |out, g| g.write_line_with(b'.', out));
        cell(out, r.solution.as_ref(), |out, g| {
            g.write_line_with(b'0', out)
        });
        cell(out, r.error.as_deref(), text);
        cell(out, r.puzzle.map(|g| g.side() as u64), uint);
        let clock = r.status.reached_solver().then(|| r.clock.name());
        cell(out, clock, word);
        cell(out, r.verified.as_bool(), boolean);
        out.push(b'\n');
    }
}

/// A cell after the first: the separator, then `value` as `write` writes it, or nothing.
#[inline(always)]
fn cell<T>(out: &mut Vec<u8>, value: Option<T>, write: impl FnOnce(&mut Vec<u8>, T)) {
    out.push(b',');
    if let Some(v) = value {
        write(out, v);
    }
}

/// Appends `value` as a text field, encoded once while the same text (the same address
/// and length: the source's and backend's names are never freed) comes row after row.
/// Inlined: it runs twice a row.
#[inline(always)]
fn cached(out: &mut Vec<u8>, cache: &mut ((usize, usize), Vec<u8>), value: &str) {
    let key = (value.as_ptr() as usize, value.len());
    if cache.0 != key {
        cache.1.clear();
        text(&mut cache.1, value);
        cache.0 = key;
    }
    out.extend_from_slice(&cache.1);
}

/// A fixed word (a status, a clock): it needs no quotes (a test checks each one).
fn word(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
}

/// A text field, quoted as csv's `QuoteStyle::Necessary` quotes: when it holds a comma,
/// a quote or a line break, with quotes doubled.
fn text(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !bytes
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
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

/// `n` in decimal, appended: what `to_string` writes, without formatting machinery.
#[inline]
pub fn uint(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::nine::Grid;
    use crate::run::Status;

    const PUZZLE: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";

    proptest::proptest! {
        /// Integers are written as `to_string` writes them, after what the row holds.
        #[test]
        fn uint_writes_decimal(n in proptest::prelude::any::<u64>(), small in 0u64..1000, medium in 0u64..200_000_000) {
            for n in [n, small, medium, u64::MAX, 0, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999_999, 100_000_000] {
                let mut out = b"x,".to_vec();
                uint(&mut out, n);
                proptest::prop_assert_eq!(out, format!("x,{n}").into_bytes());
            }
        }
    }

    fn result(source: &str, error: Option<&str>) -> PuzzleResult<'static> {
        PuzzleResult {
            source: source.into(),
            number: 1234567,
            line: 10,
            backend: "dlx-static",
            status: Status::Unique,
            puzzle: Some(Box::leak(Box::new(PUZZLE.parse().unwrap()))),
            solutions: 1,
            solution: Some(Grid::EMPTY.into()),
            valid: Some(true),
            matches_expected: Some(false),
            nodes: Some(u64::MAX),
            guesses: Some(0),
            time_ns: 90,
            clock: crate::solver::Clock::Call,
            unseen_ns: 0,
            verified: crate::run::Verification::Refuted,
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
            r.backend.to_string(),
            r.status.name().to_string(),
            r.solutions.to_string(),
            opt(r.puzzle.as_ref().map(|g| g.clues().to_string())),
            opt(r.valid.map(|v| v.to_string())),
            opt(r.matches_expected.map(|v| v.to_string())),
            opt(r.nodes.map(|v| v.to_string())),
            opt(r.guesses.map(|v| v.to_string())),
            r.time_ns.to_string(),
            opt(r.thread.map(|v| v.to_string())),
            opt(r.puzzle.as_ref().map(|g| g.to_line())),
            opt(r.solution.as_ref().map(|g| g.to_line().replace('.', "0"))),
            opt(r.error.clone()),
            opt(r.puzzle.as_ref().map(|g| g.side().to_string())),
            opt(r
                .status
                .reached_solver()
                .then(|| r.clock.name().to_string())),
            opt(r.verified.as_bool().map(|v| v.to_string())),
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
            matches_expected,nodes,guesses,time_ns,thread,puzzle,solution,error,size,clock,verified\n"
            .to_vec();
        let mut report = CsvRows::default();
        let mut got = Vec::new();
        report.header(&mut got);
        for s in tricky {
            for mut r in [result(s, Some(s)), result(s, None)] {
                r.backend = s;
                want.extend(by_csv_crate(&r));
                report.row(&r, &mut got);
            }
        }
        let mut r = result("x", None);
        for n in [0, 9, 10, 99, 100, 101, 1000, 12345, u64::MAX / 7] {
            (r.nodes, r.guesses, r.time_ns) = (Some(n), (n % 2 == 0).then_some(n + 1), n * 3);
            want.extend(by_csv_crate(&r));
            report.row(&r, &mut got);
        }
        // A 16x16 board, its line from the other writer; and a 4x4 one as the solution.
        let sixteen: String = (0..256)
            .map(|i| if i % 3 == 0 { 'A' } else { '.' })
            .collect();
        r.puzzle = Some(Box::leak(Box::new(
            crate::board::parse_chars(sixteen.as_bytes())
                .unwrap()
                .into(),
        )));
        r.solution = Some(
            crate::board::parse_chars(b"1234341221434321")
                .unwrap()
                .into(),
        );
        r.error = Some("long \"quoted\", and, commas".repeat(20));
        want.extend(by_csv_crate(&r));
        report.row(&r, &mut got);
        (r.puzzle, r.solution, r.valid, r.matches_expected, r.thread) =
            (None, None, None, None, Some(3));
        want.extend(by_csv_crate(&r));
        report.row(&r, &mut got);
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[test]
    fn fixed_words_need_no_quotes() {
        for name in Status::ALL.iter().map(|s| s.name()) {
            let mut out = Vec::new();
            text(&mut out, name);
            assert_eq!(out, name.as_bytes(), "{name}");
        }
    }
}
