//! CSV with a header naming a `quizzes`/`puzzle` column and optionally `solutions`/`solution`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use csv::{ByteRecord, ErrorKind, ReaderBuilder, Trim};

use super::{MAX_LINE, RawRecord, RecordReader};
use crate::grid::Grid;
use crate::record::{Expected, ParseError, Puzzle};

/// Which fields hold what, from the header row.
struct Header {
    puzzle: usize,
    solution: Option<usize>,
    fields: usize,
}

pub(crate) struct CsvReader<R> {
    rdr: csv::Reader<CapLines<R>>,
    record: ByteRecord,
    header: Option<Header>,
    number: u64,
    done: bool,
}

impl<R: BufRead> CsvReader<R> {
    pub fn new(input: R) -> CsvReader<R> {
        let capped = CapLines {
            input,
            seen: Lengths {
                line: 1,
                ..Lengths::default()
            },
        };
        let rdr = ReaderBuilder::new()
            .flexible(true)
            .has_headers(false)
            .trim(Trim::All)
            .from_reader(capped);
        let (record, header) = (ByteRecord::new(), None);
        CsvReader {
            rdr,
            record,
            header,
            number: 0,
            done: false,
        }
    }

    /// The body for the record just read, `None` for a good header row.
    fn parse(&mut self, line: u64) -> Option<Result<Puzzle, ParseError>> {
        let Some(header) = &self.header else {
            self.header = read_header(&self.record);
            self.done = self.header.is_none();
            let msg = "the CSV header has no `quizzes` or `puzzle` column";
            return self.done.then(|| Err(ParseError::new(line, msg)));
        };
        let long = &mut self.rdr.get_mut().seen.long;
        while long.front().is_some_and(|&(l, _)| l < line) {
            long.pop_front();
        }
        if let Some(&(_, len)) = long.front().filter(|&&(l, _)| l == line) {
            let msg = format!("line is {len} bytes long, longer than {MAX_LINE}");
            return Some(Err(ParseError::new(line, msg)));
        }
        Some(parse_row(&self.record, header).map_err(|msg| ParseError::new(line, msg)))
    }
}

impl<R: BufRead + Send> RecordReader for CsvReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        while !self.done {
            let (line, body) = match self.rdr.read_byte_record(&mut self.record) {
                Ok(false) => return None,
                // A blank line (spaces, or a `\r` made a space) holds one empty field.
                Ok(true) if self.record.iter().all(|f| f.is_empty()) => continue,
                Ok(true) => {
                    let line = self.record.position().map_or(0, |p| p.line());
                    (line, self.parse(line))
                }
                Err(e) => {
                    // Only I/O errors are errors; anything else becomes a last record.
                    let (line, msg) = (e.position().map_or(0, |p| p.line()), e.to_string());
                    if let ErrorKind::Io(io) = e.into_kind() {
                        return Some(Err(io));
                    }
                    self.done = true;
                    (line, Some(Err(ParseError::new(line, msg))))
                }
            };
            if let Some(body) = body {
                self.number += 1;
                return Some(Ok(RawRecord {
                    number: self.number,
                    line,
                    body,
                }));
            }
        }
        None
    }
}

/// The columns named in a header row, `None` without a puzzle column.
fn read_header(record: &ByteRecord) -> Option<Header> {
    let find = |names: [&[u8]; 2]| {
        record.iter().position(|f| {
            let f = f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f); // a BOM
            names.iter().any(|n| f.eq_ignore_ascii_case(n))
        })
    };
    let puzzle = find([b"quizzes", b"puzzle"])?;
    let solution = find([b"solutions", b"solution"]);
    Some(Header {
        puzzle,
        solution,
        fields: record.len(),
    })
}

fn parse_row(record: &ByteRecord, header: &Header) -> Result<Puzzle, String> {
    if record.len() < header.fields {
        return Err(format!(
            "row has {} fields, header has {}",
            record.len(),
            header.fields
        ));
    }
    let grid = Grid::from_line(&record[header.puzzle]).map_err(|e| format!("puzzle: {e}"))?;
    let Some(i) = header.solution.filter(|&i| !record[i].is_empty()) else {
        return Ok(Puzzle::new(grid));
    };
    let solution = Grid::from_line(&record[i]).map_err(|e| format!("solution: {e}"))?;
    if !solution.is_full() {
        return Err("solution: has blank cells".into());
    }
    let expected = Some(Expected {
        count: Some(1),
        solution: Some(solution),
    });
    Ok(Puzzle { grid, expected })
}

/// Passes input through, but drops the bytes of a line past `MAX_LINE` so that the csv
/// crate never holds a huge record, and notes such lines as (line, length). Turns `\r`
/// into a space: csv numbers CRLF lines wrongly, and trimming drops the space again.
struct CapLines<R> {
    input: R,
    seen: Lengths,
}

/// Where the input is, and the over-long lines not yet reported.
#[derive(Default)]
struct Lengths {
    line: u64,
    run: u64,
    cr: bool,
    long: VecDeque<(u64, u64)>,
}

impl Lengths {
    fn end_line(&mut self) {
        let len = self.run - u64::from(self.cr);
        if len > MAX_LINE as u64 {
            self.long.push_back((self.line, len));
        }
        (self.line, self.run, self.cr) = (self.line + 1, 0, false);
    }
}

impl<R: BufRead> Read for CapLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if self.seen.run > 0 {
                    self.seen.end_line();
                }
                return Ok(0);
            }
            let (mut n, mut used) = (0, 0);
            while n < out.len() && used < avail.len() {
                let b = avail[used];
                used += 1;
                if b == b'\n' {
                    self.seen.end_line();
                } else {
                    (self.seen.run, self.seen.cr) = (self.seen.run + 1, b == b'\r');
                    if self.seen.run > MAX_LINE as u64 {
                        continue;
                    }
                }
                out[n] = if b == b'\r' { b' ' } else { b };
                n += 1;
            }
            self.input.consume(used);
            if n > 0 || out.is_empty() {
                return Ok(n);
            }
        }
    }
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
            let expected = p.expected.unwrap();
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
}
