//! CSV with a header naming a `quizzes`/`puzzle` column and optionally `solutions`/`solution`.
//!
//! Each line is one CSV record: puzzle files never have fields spanning lines, and reading
//! line by line means a stray quote costs one record, not the rest of the file, and a
//! record can never grow past the line cap.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{RawRecord, RecordReader};
use crate::grid::Grid;
use crate::record::{Expected, ParseError, Puzzle};

/// Which fields hold what, from the header row.
struct Header {
    puzzle: usize,
    solution: Option<usize>,
    fields: usize,
}

pub(crate) struct CsvReader<R> {
    lines: Lines<R>,
    fields: Fields,
    header: Option<Header>,
    number: u64,
    done: bool,
}

impl<R: BufRead> CsvReader<R> {
    pub fn new(input: R) -> CsvReader<R> {
        CsvReader {
            lines: Lines::new(input),
            fields: Fields::default(),
            header: None,
            number: 0,
            done: false,
        }
    }
}

impl<R: BufRead + Send> RecordReader for CsvReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        while !self.done {
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            let number = line.number;
            let mut bytes = line.bytes;
            if number == 1 {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            }
            if bytes.iter().all(|b| b.is_ascii_whitespace()) && line.too_long().is_none() {
                continue;
            }
            let body = match (&self.header, line.too_long()) {
                (None, _) => {
                    self.header = self
                        .fields
                        .split(bytes)
                        .ok()
                        .and_then(|()| read_header(&self.fields));
                    if self.header.is_some() {
                        continue;
                    }
                    self.done = true;
                    let msg = "the CSV header has no `quizzes` or `puzzle` column";
                    Err(ParseError::new(number, msg))
                }
                (Some(_), Some(too_long)) => Err(too_long),
                (Some(header), None) => self
                    .fields
                    .split(bytes)
                    .and_then(|()| parse_row(&self.fields, header))
                    .map_err(|msg| ParseError::new(number, msg)),
            };
            self.number += 1;
            return Some(Ok(RawRecord {
                number: self.number,
                line: number,
                body,
            }));
        }
        None
    }
}

/// The fields of one line, unquoted and trimmed, in one reused buffer.
#[derive(Default)]
struct Fields {
    buf: Vec<u8>,
    ends: Vec<usize>,
}

impl Fields {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.buf[start..self.ends[k]]
    }

    /// Splits a line at commas; `"..."` quotes a field (`""` is a quote inside one).
    fn split(&mut self, line: &[u8]) -> Result<(), String> {
        self.buf.clear();
        self.ends.clear();
        let blank = |b: u8| b == b' ' || b == b'\t';
        let mut i = 0;
        loop {
            while i < line.len() && blank(line[i]) {
                i += 1;
            }
            if line.get(i) == Some(&b'"') {
                let open = i;
                i += 1;
                loop {
                    match line.get(i) {
                        None => return Err(format!("column {}: unclosed quote", open + 1)),
                        Some(b'"') if line.get(i + 1) == Some(&b'"') => {
                            self.buf.push(b'"');
                            i += 2;
                        }
                        Some(b'"') => break,
                        Some(&b) => {
                            self.buf.push(b);
                            i += 1;
                        }
                    }
                }
                i += 1;
                while i < line.len() && blank(line[i]) {
                    i += 1;
                }
                if i < line.len() && line[i] != b',' {
                    return Err(format!("column {}: text after a closing quote", i + 1));
                }
            } else {
                let start = self.buf.len();
                while i < line.len() && line[i] != b',' {
                    self.buf.push(line[i]);
                    i += 1;
                }
                while self.buf.len() > start && blank(self.buf[self.buf.len() - 1]) {
                    self.buf.pop();
                }
            }
            self.ends.push(self.buf.len());
            if i >= line.len() {
                return Ok(());
            }
            i += 1; // the comma
        }
    }
}

/// The columns named in a header row, `None` without a puzzle column.
fn read_header(fields: &Fields) -> Option<Header> {
    let find = |names: [&[u8]; 2]| {
        (0..fields.len()).find(|&k| names.iter().any(|n| fields.get(k).eq_ignore_ascii_case(n)))
    };
    let puzzle = find([b"quizzes", b"puzzle"])?;
    let solution = find([b"solutions", b"solution"]);
    Some(Header {
        puzzle,
        solution,
        fields: fields.len(),
    })
}

fn parse_row(fields: &Fields, header: &Header) -> Result<Puzzle, String> {
    if fields.len() < header.fields {
        return Err(format!(
            "row has {} fields, header has {}",
            fields.len(),
            header.fields
        ));
    }
    let grid = Grid::from_line(fields.get(header.puzzle)).map_err(|e| format!("puzzle: {e}"))?;
    let Some(i) = header.solution.filter(|&i| !fields.get(i).is_empty()) else {
        return Ok(Puzzle::new(grid));
    };
    let solution = Grid::from_line(fields.get(i)).map_err(|e| format!("solution: {e}"))?;
    if !solution.is_full() {
        return Err("solution: has blank cells".into());
    }
    let expected = Some(Box::new(Expected {
        count: Some(1),
        solution: Some(solution),
    }));
    Ok(Puzzle { grid, expected })
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, read_all};
    use crate::grid::Grid;

    const P: &str =
        "..45.21781...9..3....8....46..45.....7.9...128.12.35..4.......935..6.8.7.9.3..62.";
    const S: &str =
        "964532178187694235235817964629451783573986412841273596416728359352169847798345621";

    /// (number, line, solution given, error message)
    fn summary(input: &[u8]) -> Vec<(u64, u64, bool, String)> {
        let recs = read_all(Format::Csv, input);
        let row = |r: &crate::format::RawRecord| match &r.body {
            Ok(p) => (p.expected.is_some(), String::new()),
            Err(e) => (false, e.message.clone()),
        };
        recs.iter()
            .map(|r| (r.number, r.line, row(r).0, row(r).1))
            .collect()
    }

    #[test]
    fn reads_kaggle_files_with_bom_and_crlf() {
        let zeros = P.replace('.', "0");
        let input = format!("\u{FEFF}quizzes,solutions\r\n{zeros},{S}\r\n\r\n\"{P}\",{S}\r\n");
        let recs = read_all(Format::Csv, input.as_bytes());
        assert_eq!(
            recs.iter().map(|r| (r.number, r.line)).collect::<Vec<_>>(),
            [(1, 2), (2, 4)]
        );
        for r in &recs {
            let p = r.body.as_ref().unwrap();
            let expected = p.expected.as_deref().unwrap();
            assert_eq!(p.grid.to_line(), P);
            assert_eq!(
                (expected.count, expected.solution),
                (Some(1), Some(S.parse::<Grid>().unwrap()))
            );
        }
        let input =
            format!("id,puzzle,solution,clues,difficulty\n1,{P},{S},40,0.0\n2, {P} ,,40,1.5\n");
        assert_eq!(
            summary(input.as_bytes()),
            [(1, 2, true, String::new()), (2, 3, false, String::new())]
        );
        let input = format!(" Puzzle \n{P}\n");
        assert_eq!(summary(input.as_bytes()), [(1, 2, false, String::new())]);
        assert!(summary(b"").is_empty());
        assert!(summary(b"quizzes,solutions\r\n").is_empty());
    }

    #[test]
    fn reports_bad_rows_and_goes_on() {
        let input = format!(
            "quizzes,solutions\n{P}\n{},{S}\n{P},{}\n{P},{}\n",
            &P[..80],
            &S[..80],
            S.replacen('9', ".", 1),
        );
        let mut input = input.into_bytes();
        input.push(0xFF);
        input.extend_from_slice(format!("{},\n{P},{S}\n", &P[1..]).as_bytes());
        let got = summary(&input);
        let msgs: Vec<&str> = got.iter().map(|r| &r.3[..]).collect();
        assert_eq!(
            msgs,
            [
                "row has 1 fields, header has 2",
                "puzzle: expected 81 cells, found 80",
                "solution: expected 81 cells, found 80",
                "solution: has blank cells",
                "puzzle: column 1: '\u{FFFD}' is not a digit 1-9 or a blank ('.' or '0')",
                "",
            ]
        );
        assert_eq!((got[5].0, got[5].1), (6, 7));
    }

    #[test]
    fn rejects_a_header_without_puzzle_column() {
        let got = summary(format!("id,grid\n1,{P}\n").as_bytes());
        assert_eq!(
            got,
            [(
                1,
                1,
                false,
                "the CSV header has no `quizzes` or `puzzle` column".into()
            )]
        );
    }

    #[test]
    fn long_lines_are_errors_not_kept() {
        let mut input = b"quizzes\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 200_000));
        input.extend_from_slice(format!("\r\n{P}\r\n").as_bytes());
        let got = summary(&input);
        let msg = "line is 200000 bytes long, longer than 65536".to_string();
        assert_eq!(got, [(1, 2, false, msg), (2, 3, false, String::new())]);
    }

    #[test]
    fn a_stray_quote_costs_one_record() {
        let input = format!("quizzes\n\"{P}\n{P}\n\"{P}\"\"x\"\n\"{P}\" x\n{P}\n");
        let msgs: Vec<String> = summary(input.as_bytes()).into_iter().map(|r| r.3).collect();
        assert_eq!(
            msgs,
            [
                "column 1: unclosed quote",
                "",
                "puzzle: expected 81 cells, found 83",
                "column 85: text after a closing quote",
                ""
            ]
        );
    }
}
