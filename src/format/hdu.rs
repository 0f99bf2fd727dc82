//! HDU 1426: cases of 9 lines of 9 space-separated tokens (`1`-`9`, `?` unknown),
//! blank lines between cases.

use std::io::BufRead;

use super::cells::Cells;
use super::grid::{GridReader, LineKind, Row};
use super::lines::{Line, Lines, trim};
use crate::record::ParseError;

/// The grid reader with token rows and no count line or headers.
pub(crate) fn reader<R: BufRead>(lines: Lines<R>, cells: Cells) -> GridReader<R> {
    let mut reader = GridReader::new(lines, cells, Default::default());
    reader.hdu = Some(classify);
    reader
}

/// A blank line parts cases; a line of more words than cells is text; any other is a
/// row of 9 tokens (`?` and the usual blanks are blanks).
fn classify(line: &Line<'_>, cells: &Cells) -> LineKind {
    if trim(line.bytes).is_empty() {
        return LineKind::Separator;
    }
    let value = |token: &[u8]| match token {
        [b'?'] => Some(0),
        [b] => cells.value(*b),
        _ => None,
    };
    let tokens = line.bytes.split(|&b| b == b' ' || b == b'\t');
    let tokens: Vec<&[u8]> = tokens.filter(|t| !t.is_empty()).collect();
    let row: Vec<u8> = tokens.iter().filter_map(|t| value(t)).collect();
    if 2 * row.len() <= tokens.len() {
        return LineKind::Header;
    }
    if let Some(token) = tokens.iter().find(|t| value(t).is_none()) {
        let start = token.as_ptr() as usize - line.bytes.as_ptr() as usize;
        let token: String = String::from_utf8_lossy(token).chars().take(20).collect();
        let msg = format!("token {token:?} is not a digit 1-9 or '?'");
        return LineKind::Row(Err(ParseError::at(line.number, start + 1, msg)));
    }
    let n = row.len();
    let e = || ParseError::new(line.number, format!("line has {n} tokens, expected 9"));
    LineKind::Row((n == 9).then(|| Row::of(false, row)).ok_or_else(e))
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, read_all};

    /// The sample input of HDU 1426.
    const SAMPLE: &str = "\
7 1 2 ? 6 ? 3 5 8
? 6 5 2 ? 7 1 ? 4
? ? 8 5 1 3 6 7 2
9 2 4 ? 5 6 ? 3 7
5 ? 6 ? ? ? 2 4 1
1 ? 3 7 2 ? 9 ? 5
? ? 1 9 7 5 4 8 6
6 ? 7 8 3 ? 5 1 9
8 5 9 ? 4 ? ? 2 3
";
    const SAMPLE_LINE: &str =
        "712.6.358.652.71.4..8513672924.56.375.6...2411.372.9.5..19754866.783.519859.4..23";

    fn summary(input: &str) -> Vec<(u64, u64, Result<String, String>)> {
        let recs = read_all(Format::Hdu, input.as_bytes());
        let body = |r: &crate::format::RawRecord| match r.body.result() {
            Ok(p) => Ok(p.board.to_line()),
            Err(e) => Err(format!("{}", e)),
        };
        recs.iter().map(|r| (r.number, r.line, body(r))).collect()
    }

    #[test]
    fn reads_the_sample_in_several_layouts() {
        assert_eq!(summary(SAMPLE), [(1, 1, Ok(SAMPLE_LINE.to_string()))]);
        assert_eq!(
            crate::format::detect(SAMPLE.as_bytes(), &Default::default())
                .unwrap()
                .format,
            Format::Hdu
        );
        // Back to back, several blank lines, CRLF, trailing blanks, `0`/`.` blanks.
        let crlf = SAMPLE.replace('\n', "\r\n");
        let dots = SAMPLE.replacen('?', ".", 1).replacen('?', "0", 1);
        let input = format!("\n{SAMPLE}{crlf}\r\n\r\n\n{dots}\n\n  \n");
        let got: Vec<(u64, u64)> = summary(&input).iter().map(|r| (r.0, r.1)).collect();
        assert_eq!(got, [(1, 2), (2, 11), (3, 23)]);
        assert!(
            summary(&input)
                .iter()
                .all(|r| r.2 == Ok(SAMPLE_LINE.to_string()))
        );
    }

    #[test]
    fn reports_missing_and_bad_tokens_and_short_cases() {
        let missing = SAMPLE.replacen("7 1 2 ? 6", "7 1 2 6", 1);
        let bad = SAMPLE.replacen("? 6 5 2", "? 6 x5 2", 1);
        let short: String = SAMPLE.lines().take(4).map(|l| format!("{l}\n")).collect();
        let input = format!("{missing}\n{bad}\n{short}\n{SAMPLE}\n{short}");
        let got = summary(&input);
        let errs: Vec<&str> = got
            .iter()
            .filter_map(|r| r.2.as_ref().err())
            .map(|s| &s[..])
            .collect();
        assert_eq!(
            errs,
            [
                "line 1: line has 8 tokens, expected 9",
                "line 12, column 5: token \"x5\" is not a digit 1-9 or '?'",
                "line 21: case ends after 4 lines, expected 9",
                "line 36: case ends after 4 lines, expected 9",
            ]
        );
        assert_eq!(got[3], (4, 26, Ok(SAMPLE_LINE.to_string())));
        let utf8 = read_all(Format::Hdu, b"1 2 \xff\xfe 4 5 6 7 8 9\n");
        let e = utf8[0].body.result().clone().unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 5: token \"\u{FFFD}\u{FFFD}\" is not a digit 1-9 or '?'"
        );
        assert!(summary("").is_empty());
    }
}
