//! The `line` format: one 81-character puzzle a line, optionally `puzzle:count[:solution]`.

use std::io::{self, BufRead};

use super::lines::{Line, Lines, trim};
use super::{RawRecord, RecordReader, bad_cell, char_at};
use crate::grid::{CELLS, Grid, GridParseError, cell_value};
use crate::record::{Expected, ParseError, Puzzle};

/// Reads the `line` format, or POJ 3074 when `poj` is set (no suffix). Both stop at a
/// line `end`: no puzzle can be `end`, and POJ input longer than the detection window
/// is otherwise indistinguishable from `line`.
pub(crate) struct LineReader<R> {
    lines: Lines<R>,
    number: u64,
    poj: bool,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R, poj: bool) -> LineReader<R> {
        LineReader {
            lines: Lines::new(input),
            number: 0,
            poj,
            done: false,
        }
    }
}

impl<R: BufRead + Send> RecordReader for LineReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        while !self.done {
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            let t = trim(line.bytes);
            if t.is_empty() || t[0] == b'#' {
                continue;
            }
            if t == b"end" {
                self.done = true;
                break;
            }
            self.number += 1;
            let body = match line.too_long() {
                Some(e) => Err(e),
                None => parse(&line, !self.poj),
            };
            let (number, line) = (self.number, line.number);
            return Some(Ok(RawRecord { number, line, body }));
        }
        None
    }
}

/// Parses a non-blank line: 81 cells after leading blanks, then an optional suffix.
fn parse(line: &Line<'_>, suffix: bool) -> Result<Puzzle, ParseError> {
    let lead = line
        .bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let at = |(i, msg): (usize, String)| ParseError::at(line.number, lead + i + 1, msg);
    parse_cells(&line.bytes[lead..], suffix).map_err(at)
}

/// Parses 81 cells and a suffix; errors carry the index of the fault.
fn parse_cells(s: &[u8], suffix: bool) -> Result<Puzzle, (usize, String)> {
    // `Grid::from_line` checks the cells in one pass; its error only locates the fault,
    // which is described from the whole line.
    let grid = match s.get(..CELLS).map(Grid::from_line) {
        Some(Ok(grid)) => grid,
        Some(Err(GridParseError::Character { column, .. })) => {
            return Err((column - 1, bad_cell(s, column - 1)));
        }
        Some(Err(GridParseError::Length(_))) => unreachable!("81 bytes"),
        None => {
            if let Some(i) = s.iter().position(|&b| cell_value(b).is_none()) {
                return Err((i, bad_cell(s, i)));
            }
            let msg = format!("line ends after {} cells, expected 81", s.len());
            return Err((s.len(), msg));
        }
    };
    let expected = match suffix && s.get(CELLS) == Some(&b':') {
        true => Some(Box::new(parse_suffix(s, CELLS + 1)?)),
        false => None,
    };
    Ok(Puzzle { grid, expected })
}

/// Parses `count[:solution]` starting at `start`.
fn parse_suffix(s: &[u8], start: usize) -> Result<Expected, (usize, String)> {
    let field_end = |from: usize| {
        let len = s[from..]
            .iter()
            .position(|&b| matches!(b, b':' | b' ' | b'\t'));
        from + len.unwrap_or(s.len() - from)
    };
    let end = field_end(start);
    // `puzzle::solution` leaves the count unknown (what `solve --solutions` writes when the
    // search stopped early); a lone `puzzle:` is a mistake.
    if end == start && s.get(end) != Some(&b':') {
        return Err((start, "missing count after ':'".into()));
    }
    if let Some(i) = (start..end).find(|&i| !s[i].is_ascii_digit()) {
        return Err((
            i,
            format!("{:?} in the count is not a digit", char_at(s, i)),
        ));
    }
    let digits = std::str::from_utf8(&s[start..end]).expect("ASCII digits");
    let count = match digits {
        "" => None,
        _ => Some(
            digits
                .parse::<u64>()
                .map_err(|_| (start, "count is too large".to_string()))?,
        ),
    };
    let mut expected = Expected {
        count,
        solution: None,
    };
    if s.get(end) == Some(&b':') {
        let (from, to) = (end + 1, field_end(end + 1));
        if let Some(i) = (from..to).find(|&i| !matches!(s[i], b'1'..=b'9')) {
            let c = char_at(s, i);
            return Err((i, format!("{c:?} in the solution is not a digit 1-9")));
        }
        match to - from {
            0 => {}
            CELLS => expected.solution = Grid::from_line(&s[from..to]).ok(),
            n => return Err((from, format!("solution has {n} cells, expected 81"))),
        }
    }
    Ok(expected)
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, read_all};
    use crate::grid::Grid;
    use crate::record::Expected;
    use proptest::prelude::*;

    const P: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    fn errors(input: &str) -> Vec<(u64, Option<usize>, String)> {
        let recs = read_all(Format::Line, input.as_bytes());
        let err = |r: &crate::format::RawRecord| r.body.clone().unwrap_err();
        recs.iter()
            .map(|r| (err(r).line, err(r).column, err(r).message))
            .collect()
    }

    #[test]
    fn reads_puzzles_comments_and_crlf() {
        let input = format!(
            "# c\r\n\r\n  {P}\r\n \t\n{P} trailing text\n{}\r",
            P.replace('.', "0")
        );
        let recs = read_all(Format::Line, input.as_bytes());
        let got: Vec<(u64, u64)> = recs.iter().map(|r| (r.number, r.line)).collect();
        assert_eq!(got, [(1, 3), (2, 5), (3, 6)]);
        for r in &recs {
            let puzzle = r.body.as_ref().unwrap();
            assert_eq!(
                (puzzle.grid.to_line(), puzzle.expected.clone()),
                (P.to_string(), None)
            );
        }
    }

    #[test]
    fn reads_count_and_solution_suffixes() {
        let input =
            format!("{P}:1:{S}\n{P}:0\n{P}:2:\n{P}:125 note\n{P}:1:{S} x\n{P}::{S}\n{P}::\n");
        let got: Vec<Expected> = read_all(Format::Line, input.as_bytes())
            .into_iter()
            .map(|r| *r.body.unwrap().expected.unwrap())
            .collect();
        let sol = Some(S.parse::<Grid>().unwrap());
        let e = |count, solution| Expected {
            count: Some(count),
            solution,
        };
        let unknown = |solution| Expected {
            count: None,
            solution,
        };
        assert_eq!(
            got,
            [
                e(1, sol),
                e(0, None),
                e(2, None),
                e(125, None),
                e(1, sol),
                unknown(sol),
                unknown(None)
            ]
        );
    }

    #[test]
    fn reports_errors_with_columns() {
        let short = &P[..80];
        let input = format!(
            "{short}\n  12x\n{P}:\n{P}:1x\n{P}:1:{}\n{P}:1:{}0\n{P}:99999999999999999999\n",
            &S[..80],
            &S[..80]
        );
        let cell = "is not a digit 1-9 or a blank ('.' or '0')";
        let want = [
            (
                1,
                Some(81),
                "line ends after 80 cells, expected 81".to_string(),
            ),
            (2, Some(5), format!("'x' {cell}")),
            (3, Some(83), "missing count after ':'".into()),
            (4, Some(84), "'x' in the count is not a digit".into()),
            (5, Some(85), "solution has 80 cells, expected 81".into()),
            (
                6,
                Some(165),
                "'0' in the solution is not a digit 1-9".into(),
            ),
            (7, Some(83), "count is too large".into()),
        ];
        assert_eq!(errors(&input), want);
        let bad_utf8 = errors(&format!("{}\u{e9}\n\u{ff}", &P[..3]));
        assert_eq!(bad_utf8[0].2, format!("'é' {cell}"));
        assert_eq!((bad_utf8[0].1, bad_utf8[1].1), (Some(4), Some(1)));
        let raw = read_all(Format::Line, b"\xff\xfe\n");
        assert_eq!(
            raw[0].body.clone().unwrap_err().message,
            format!("'\u{FFFD}' {cell}")
        );
    }

    #[test]
    fn long_line_is_an_error_and_reading_goes_on() {
        let mut input = P.repeat(2500).into_bytes();
        input.extend_from_slice(format!("\r\n{P}\r\n").as_bytes());
        let recs = read_all(Format::Line, &input);
        let msg = recs[0].body.clone().unwrap_err().message;
        assert_eq!(msg, "line is 202500 bytes long, longer than 65536");
        assert_eq!((recs[1].number, recs[1].line), (2, 2));
        assert!(recs[1].body.is_ok());
        assert!(read_all(Format::Line, b"").is_empty());
    }

    proptest! {
        #[test]
        fn lines_round_trip(s in "[1-9.0]{81}") {
            let recs = read_all(Format::Line, s.as_bytes());
            let grid = recs[0].body.as_ref().unwrap().grid;
            prop_assert_eq!(grid.to_line(), s.replace('0', "."));
            let again = read_all(Format::Line, grid.to_line().as_bytes());
            prop_assert_eq!(again[0].body.as_ref().unwrap().grid, grid);
        }
    }

    #[test]
    fn a_line_end_ends_the_input_as_in_poj() {
        let input = format!("{P}\n  end \n{P}\n");
        assert_eq!(read_all(Format::Line, input.as_bytes()).len(), 1);
    }
}
