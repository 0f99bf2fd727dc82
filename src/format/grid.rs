//! The `grid` format: 9 rows of 9 cells a puzzle, with optional borders, blank lines
//! between puzzles, a leading count line (POJ 2676) or `Grid NN` headers (Project Euler 96).

use std::io::{self, BufRead};

use super::lines::{Line, Lines, trim};
use super::{RawRecord, RecordReader, bad_cell};
use crate::grid::{Grid, cell_value};
use crate::record::{ParseError, Puzzle};

/// Spacing and border characters, dropped from rows.
pub(crate) fn is_border(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'|' | b'+' | b'-')
}

/// Parses one non-blank line into its 9 cells; `None` for a line of borders only.
pub(crate) type RowParser = fn(&Line<'_>) -> Result<Option<[u8; 9]>, ParseError>;

/// Reads 9-row records: the `grid` format, or (with HDU 1426's token rows, and no
/// headers or count line) the `hdu` format.
pub(crate) struct GridReader<R> {
    lines: Lines<R>,
    number: u64,
    started: bool,
    parse_row: RowParser,
    /// HDU 1426: no headers or count line, "case"/"lines" in messages.
    hdu: bool,
}

impl<R: BufRead> GridReader<R> {
    pub fn new(input: R) -> GridReader<R> {
        GridReader::with_rows(input, parse_row, false)
    }

    pub fn with_rows(input: R, parse_row: RowParser, hdu: bool) -> GridReader<R> {
        GridReader {
            lines: Lines::new(input),
            number: 0,
            started: false,
            parse_row,
            hdu,
        }
    }
}

impl<R: BufRead + Send> RecordReader for GridReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        let (mut grid, mut rows, mut first, mut error) = (Grid::EMPTY, 0, 0, None);
        // A bad row still counts as a row, so the next grid starts in the right place.
        while rows < 9 {
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return Some(Err(e)),
            };
            let t = trim(line.bytes);
            if t.first() == Some(&b'#') {
                continue;
            }
            let header = !self.hdu && (t == b"Grid" || t.starts_with(b"Grid "));
            if t.is_empty() || header {
                if rows > 0 {
                    break;
                }
                continue;
            }
            let at_start = !self.started && !self.hdu;
            self.started = true;
            if at_start && t.len() < 9 && t.iter().all(u8::is_ascii_digit) {
                continue; // the count line of POJ 2676
            }
            let row = match line.too_long() {
                Some(e) => Err(e),
                None => (self.parse_row)(&line),
            };
            match row {
                Ok(None) => continue, // a border line
                Ok(Some(cells)) => {
                    for (c, v) in cells.into_iter().enumerate() {
                        grid.set(rows * 9 + c, v);
                    }
                }
                Err(e) => error = error.or(Some(e)),
            }
            if rows == 0 {
                first = line.number;
            }
            rows += 1;
        }
        if rows == 0 {
            return None;
        }
        self.number += 1;
        let body = match error {
            Some(e) => Err(e),
            None if rows < 9 => Err(ParseError::new(
                first,
                if self.hdu {
                    format!("case ends after {rows} lines, expected 9")
                } else {
                    format!("grid ends after {rows} rows, expected 9")
                },
            )),
            None => Ok(Puzzle::new(grid)),
        };
        let (number, line) = (self.number, first);
        Some(Ok(RawRecord { number, line, body }))
    }
}

/// The 9 cells of a row, `None` for a line of borders only.
fn parse_row(line: &Line<'_>) -> Result<Option<[u8; 9]>, ParseError> {
    let (mut cells, mut n) = ([0u8; 9], 0);
    for (i, &b) in line.bytes.iter().enumerate() {
        if is_border(b) {
            continue;
        }
        let v = cell_value(b)
            .ok_or_else(|| ParseError::at(line.number, i + 1, bad_cell(line.bytes, i)))?;
        if n < 9 {
            cells[n] = v;
        }
        n += 1;
    }
    match n {
        0 => Ok(None),
        9 => Ok(Some(cells)),
        _ => Err(ParseError::new(
            line.number,
            format!("row has {n} cells, expected 9"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, RawRecord, read_all};

    const BORDERED: &str = "\
4 . . |. . . |8 . 5
. 3 . |. . . |. . .
. . . |7 . . |. . .
------+------+------
. 2 . |. . . |. 6 .
. . . |. 8 . |4 . .
. . . |. 1 . |. . .
------+------+------
. . . |6 . 3 |. 7 .
5 . . |2 . . |. . .
1 . 4 |. . . |. . .
";
    const TOP95_1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn lines_of(recs: &[RawRecord]) -> Vec<(u64, u64, bool)> {
        recs.iter()
            .map(|r| (r.number, r.line, r.body.is_ok()))
            .collect()
    }

    #[test]
    fn reads_bordered_grids_with_crlf() {
        let input = format!("# from top95\n\n{BORDERED}\n\n\n{BORDERED}").replace('\n', "\r\n");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 3, true), (2, 17, true)]);
        assert_eq!(recs[1].body.as_ref().unwrap().grid.to_line(), TOP95_1);
    }

    #[test]
    fn reads_poj_2676_and_euler_layouts() {
        let compact: String = BORDERED
            .lines()
            .filter(|l| !l.starts_with('-'))
            .map(|l| l.replace([' ', '|'], "") + "\n")
            .collect();
        let poj = format!("2\n{0}{0}", compact.replace('.', "0"));
        let recs = read_all(Format::Grid, poj.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 2, true), (2, 11, true)]);
        let euler = format!("Grid 01\n{compact}Grid 02\n{compact}");
        let recs = read_all(Format::Grid, euler.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 2, true), (2, 12, true)]);
    }

    #[test]
    fn reports_bad_rows_and_truncated_grids_then_resyncs() {
        let mut bad = BORDERED.replacen("4 . .", "4 x .", 1);
        bad = bad.replacen(". 3 . |", ". 3 |", 1);
        let cut: String = BORDERED.lines().take(3).map(|l| format!("{l}\n")).collect();
        let input = format!("{bad}\n{cut}\n{BORDERED}{cut}");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(
            lines_of(&recs),
            [(1, 1, false), (2, 13, false), (3, 17, true), (4, 28, false)]
        );
        let e = |i: usize| recs[i].body.clone().unwrap_err();
        assert_eq!((e(0).line, e(0).column), (1, Some(3)));
        assert!(
            e(0).message.starts_with("'x' is not a digit"),
            "{}",
            e(0).message
        );
        assert_eq!(e(1).message, "grid ends after 3 rows, expected 9");
        assert_eq!(e(3).message, "grid ends after 3 rows, expected 9");
        let short = read_all(Format::Grid, b"1234567890\n");
        assert_eq!(
            short[0].body.clone().unwrap_err().message,
            "row has 10 cells, expected 9"
        );
        let utf8 = read_all(Format::Grid, b"1234 5678\xff\n");
        let e = utf8[0].body.clone().unwrap_err();
        assert!(e.column == Some(10) && e.message.starts_with("'\u{FFFD}' is not"));
        assert!(read_all(Format::Grid, b"").is_empty());
        assert!(read_all(Format::Grid, b"\n\n# x\n").is_empty());
    }
}
