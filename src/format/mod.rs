//! Input formats: each turns a byte stream into puzzle records, one at a time.

mod csv;
mod grid;
mod hdu;
mod line;
mod lines;
mod poj;

use std::fmt;
use std::io::BufRead;

use crate::grid::cell_value;
use crate::record::{ParseError, Puzzle};

pub use lines::MAX_LINE;

/// The layouts a source can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One 81-character puzzle a line, optionally `puzzle:count:solution`.
    Line,
    /// CSV with a `quizzes`/`puzzle` column and optionally `solutions`/`solution`.
    Csv,
    /// 9 lines of 9 cells a puzzle, borders allowed.
    Grid,
    /// HDU 1426: 9 lines of 9 space-separated tokens, `?` unknown.
    Hdu,
    /// POJ 3074: 81-character lines until a line `end`.
    Poj,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Line,
        Format::Csv,
        Format::Grid,
        Format::Hdu,
        Format::Poj,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Csv => "csv",
            Format::Grid => "grid",
            Format::Hdu => "hdu",
            Format::Poj => "poj",
        }
    }

    /// Guesses the format from the first bytes of a source (a few KiB are plenty).
    pub fn detect(head: &[u8]) -> Format {
        let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        let lines = || {
            let split = head.split(|&b| b == b'\n');
            split.map(|l| lines::trim(l.strip_suffix(b"\r").unwrap_or(l)))
        };
        let Some(first) = lines().find(|l| !l.is_empty() && l[0] != b'#') else {
            return Format::Line;
        };
        let lower = first.to_ascii_lowercase();
        let has = |needle: &[u8]| lower.windows(needle.len()).any(|w| w == needle);
        let single = matches!(&lower[..], b"quizzes" | b"puzzle"); // a one-column header
        if single || (has(b",") && (has(b"quizzes") || has(b"puzzle"))) {
            return Format::Csv;
        }
        let tokens: Vec<&[u8]> = first.split(|&b| b == b' ').collect();
        if first.contains(&b'?') || (tokens.len() == 9 && tokens.iter().all(|t| t.len() == 1)) {
            // Both read 9 one-character tokens a line; only HDU 1426 has `?`.
            return match head.contains(&b'?') {
                true => Format::Hdu,
                false => Format::Grid,
            };
        }
        let count_line = first.len() < 9 && first.iter().all(u8::is_ascii_digit);
        let cells: Vec<u8> = first
            .iter()
            .copied()
            .filter(|&b| !grid::is_border(b))
            .collect();
        // Nine cells between borders, or a border line such as `+-----+-----+`.
        let row = matches!(cells.len(), 0 | 9) && cells.iter().all(|&b| cell_value(b).is_some());
        if count_line || row || first.starts_with(b"Grid ") {
            return Format::Grid;
        }
        match lines().any(|l| l == b"end") {
            true => Format::Poj,
            false => Format::Line,
        }
    }

    /// A reader of this format's records from `input`. A UTF-8 byte-order mark at the
    /// start is skipped.
    pub fn reader<'a, R: BufRead + Send + 'a>(self, mut input: R) -> Box<dyn RecordReader + 'a> {
        // A read error here shows up again, with context, at the reader's first read.
        if input
            .fill_buf()
            .is_ok_and(|b| b.starts_with(b"\xEF\xBB\xBF"))
        {
            input.consume(3);
        }
        match self {
            Format::Line => Box::new(line::LineReader::new(input, false)),
            Format::Poj => Box::new(poj::reader(input)),
            Format::Csv => Box::new(csv::CsvReader::new(input)),
            Format::Grid => Box::new(grid::GridReader::new(input)),
            Format::Hdu => Box::new(hdu::reader(input)),
        }
    }
}

/// A format name this build does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}; the formats are line, csv, grid, hdu and poj")]
pub struct UnknownFormat(pub String);

impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One record before the loader attaches its source name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRecord {
    /// 1-based ordinal in the source.
    pub number: u64,
    /// 1-based line where the record starts.
    pub line: u64,
    pub body: Result<Puzzle, ParseError>,
}

/// A source of records in one format.
pub trait RecordReader: Send {
    /// `None` at end of input; `Err` only for real I/O errors (the caller then
    /// abandons the rest of the source).
    fn next_record(&mut self) -> Option<std::io::Result<RawRecord>>;
}

/// The character at byte `i`, for error messages (U+FFFD where it is not UTF-8).
fn char_at(bytes: &[u8], i: usize) -> char {
    let end = bytes.len().min(i + 4);
    let lossy = String::from_utf8_lossy(&bytes[i..end]);
    lossy.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The message for a byte that is not a cell.
fn bad_cell(bytes: &[u8], i: usize) -> String {
    let c = char_at(bytes, i);
    format!("{c:?} is not a digit 1-9 or a blank ('.' or '0')")
}

#[cfg(test)]
pub(crate) fn read_all(format: Format, input: &[u8]) -> Vec<RawRecord> {
    let mut reader = format.reader(std::io::BufReader::with_capacity(16, input));
    std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ALL: [Format; 5] = Format::ALL;

    #[test]
    fn detects_each_format() {
        let p = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
        let cases: &[(String, Format)] = &[
            (format!("\u{FEFF}# top\r\n\r\n{p}\r\n"), Format::Line),
            (format!("{p}:1:\n"), Format::Line),
            (format!("{p}\n{p}\nend\n"), Format::Poj),
            ("quizzes,solutions\n1,2\n".into(), Format::Csv),
            (" Puzzle \r\n".into(), Format::Csv),
            ("id,Puzzle,solution,clues,difficulty\n".into(), Format::Csv),
            ("7 1 2 ? 6 ? 3 5 8\n".into(), Format::Hdu),
            ("7 1 2 4 6 9 3 5 8\n? 6 5 2 ? 7 1 ? 4\n".into(), Format::Hdu),
            ("7 1 2 4 6 9 3 5 8\n".into(), Format::Grid),
            ("4 . . |. . . |8 . 5\n".into(), Format::Grid),
            ("+-------+-------+\n".into(), Format::Grid),
            ("1\n103000509\n".into(), Format::Grid),
            ("Grid 01\n003020600\n".into(), Format::Grid),
            ("".into(), Format::Line),
            ("# only a comment".into(), Format::Line),
        ];
        for (input, want) in cases {
            assert_eq!(Format::detect(input.as_bytes()), *want, "{input:?}");
        }
    }

    #[test]
    fn names_match_the_command_line() {
        let names: Vec<&str> = ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names, crate::cli::FORMATS);
        for f in ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
            assert_eq!(f.to_string(), f.name());
        }
        assert!("nope".parse::<Format>().is_err());
    }

    fn noisy_bytes() -> impl Strategy<Value = Vec<u8>> {
        let picks = b"123456789.0? \t\r\n\n\n,#|+-:endGrid\"quizzes,".to_vec();
        let byte = prop_oneof![any::<u8>(), prop::sample::select(picks)];
        prop::collection::vec(byte, 0..600)
    }

    proptest! {
        #[test]
        fn readers_never_panic_and_end(bytes in noisy_bytes()) {
            let _ = Format::detect(&bytes);
            for f in ALL {
                let mut reader = f.reader(&bytes[..]);
                let mut n = 0;
                while let Some(r) = reader.next_record() {
                    prop_assert!(r.is_ok());
                    n += 1;
                    prop_assert!(n <= bytes.len(), "{f:?} does not end");
                }
            }
        }
    }
}
