//! Input formats: each turns a byte stream into puzzle records, one at a time.
//!
//! What is read is the table of docs/inputs.md (`GRAMMAR` in this module's tests keeps them together).
//! [`detect`] picks a source's reading from a sample of its content, by the rule its
//! module states. A [`Layout`] carries what a reader needs besides its format: the cell
//! alphabet, the line terminator, the CSV columns a user chose, how grid rows are
//! written, and whether parsing is left to the caller.

mod cells;
mod csv;
mod deferred;
mod detect;
mod grid;
mod hdu;
mod json;
mod line;
pub(crate) mod lines;
mod poj;
mod solutions_follow;

pub use cells::Cells;
pub use csv::Column;
pub use deferred::{Body, Item, LineBlock, Reading};
pub use detect::{RULE, SAMPLE, detect, fix, reading};
pub use grid::RowStyle;
pub use solutions_follow::Pairs;

use std::fmt;
use std::io::BufRead;

use lines::Lines;

use crate::record::Skipped;

named! {
    /// The layouts a source can have.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Format {
        Line => "line",
        Csv => "csv",
        Grid => "grid",
        Hdu => "hdu",
        Poj => "poj",
        Json => "json",
    }
}

/// The CSV columns a user chose (`--puzzle-column`, `--solution-column`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    pub puzzle: Column,
    pub solution: Option<Column>,
}

/// How a source is read besides its format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub cells: Cells,
    /// Lines end with a bare CR (classic Mac files); CRLF is read either way.
    pub cr_only: bool,
    pub columns: Option<Columns>,
    /// How grid rows are written, decided from the sample.
    pub rows: RowStyle,
    /// Past the head of a `line` file, whole blocks of lines go out ([`Body::Lines`]),
    /// split, parsed and numbered by the caller (`solve` without a subset).
    pub blocks: bool,
    /// Each puzzle is followed or preceded by its solution (`--solutions-follow`;
    /// `None`: decided per source from its sample).
    pub pairs: Option<Pairs>,
}

/// What the reader found besides records.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// Lines skipped because they hold no puzzle.
    pub skipped: Skipped,
    /// Lines the records read so far stand on (a good record's own lines): what
    /// detection compares.
    pub explained: u64,
    /// The grid reader saw rows with `-` blanks.
    pub dash_blanks: bool,
    /// Settings beside puzzles (`anti_knight: true`, `mode: samurai`): a variant's
    /// rules, or other switches, that no reader applies.
    pub unread: Vec<String>,
}

/// UTF-8's byte-order mark, skipped where a source starts with it.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Format {
    /// A reader of this format's records from `input`. A UTF-8 byte-order mark at the
    /// start is skipped.
    pub fn reader<'a, R: BufRead + Send + 'a>(
        self,
        mut input: R,
        layout: &Layout,
    ) -> Box<dyn RecordReader + 'a> {
        // A read error here shows up again, with context, at the reader's first read.
        if input.fill_buf().is_ok_and(|b| b.starts_with(BOM)) {
            input.consume(BOM.len());
        }
        let cells = layout.cells.clone();
        let terminator = if layout.cr_only { b'\r' } else { b'\n' };
        let lines = |input| Lines::with_terminator(input, terminator);
        let reader: Box<dyn RecordReader + 'a> = match self {
            Format::Line | Format::Poj => {
                let poj = self == Format::Poj;
                let cells = if poj { Cells::judge() } else { cells };
                let reader = line::LineReader::new(lines(input), poj, cells, layout.blocks);
                Box::new(reader)
            }
            Format::Csv => Box::new(csv::CsvReader::new(lines(input), cells, layout)),
            Format::Grid => Box::new(grid::GridReader::new(lines(input), cells, layout.rows)),
            Format::Hdu => Box::new(hdu::reader(lines(input), Cells::judge())),
            Format::Json => Box::new(json::JsonReader::new(input, cells, terminator)),
        };
        match layout.pairs {
            Some(p @ (Pairs::After | Pairs::Before)) => {
                Box::new(solutions_follow::WithSolutions::new(
                    reader,
                    p == Pairs::Before,
                    self == Format::Grid,
                ))
            }
            _ => reader,
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        let known = Format::ALL.into_iter().find(|f| f.name() == s);
        known.ok_or_else(|| {
            format!("unknown format {s:?}; the formats are line, csv, grid, hdu, poj and json")
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One record before the loader attaches its source name.
#[derive(Debug)]
pub struct RawRecord {
    /// 1-based ordinal in the source.
    pub number: u64,
    /// 1-based line where the record starts.
    pub line: u64,
    pub body: Body,
}

/// A source of records in one format.
pub trait RecordReader: Send {
    /// `None` at end of input; `Err` only for real I/O errors (the caller then
    /// abandons the rest of the source).
    fn next_record(&mut self) -> Option<std::io::Result<RawRecord>>;

    /// What was skipped and explained so far.
    fn notes(&mut self) -> &mut Notes;
}

/// The character at byte `i`, for error messages (U+FFFD where it is not UTF-8).
fn char_at(bytes: &[u8], i: usize) -> char {
    let end = bytes.len().min(i + 4);
    let lossy = String::from_utf8_lossy(&bytes[i..end]);
    lossy.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The message for a byte that is not a cell; for a letter A-I in text that writes its
/// values so (no digit 1-9), the flag that reads them.
fn bad_cell(bytes: &[u8], i: usize) -> String {
    let c = char_at(bytes, i);
    let letter = |b: &u8| matches!(b.to_ascii_uppercase(), b'A'..=b'I');
    let letters = bytes.iter().filter(|b| letter(b)).count();
    let digits = bytes.iter().any(|b| matches!(b, b'1'..=b'9'));
    // A number in exponent notation around `i` (`4.30021E+78`): a spreadsheet's.
    let number = |b: &u8| b.is_ascii_digit() || b".eE+-".contains(b);
    let from = bytes[..i]
        .iter()
        .rposition(|b| !number(b))
        .map_or(0, |k| k + 1);
    let to = bytes[i..]
        .iter()
        .position(|b| !number(b))
        .map_or(bytes.len(), |k| i + k);
    let float = std::str::from_utf8(&bytes[from..to]).is_ok_and(|t| t.parse::<f64>().is_ok());
    let hint = match (letter(&bytes[i]) && letters >= 17 && !digits, float) {
        (true, _) => "; this text writes its values A-I: --alphabet letters reads them as 1-9",
        (_, true) if matches!(bytes.get(i + 1), Some(b'+' | b'-')) => {
            "; a number in exponent notation: a spreadsheet saved the puzzles as numbers and lost their digits; export them as text"
        }
        _ => "",
    };
    format!("{c:?} is not a digit 1-9 or a blank{hint}")
}

/// The one punctuation character (or letter, where `letters`) that, read as a blank,
/// makes `text` `want` cells: the fix a refusal names (`--blanks :`).
pub(crate) fn blank_for(text: &[u8], cells: &Cells, want: usize, letters: bool) -> Option<u8> {
    let odd = |b: &&u8| !cells.is_cell(**b) && !matches!(b, b' ' | b'\t' | b',' | b'|');
    let odd: Vec<u8> = text.iter().filter(odd).copied().collect();
    let c = *odd.first()?;
    let cells_then = text.iter().filter(|&&b| b == c || cells.is_cell(b)).count();
    let one = (c.is_ascii_punctuation() || (letters && c.is_ascii_alphabetic()))
        && odd.len() > 1
        && odd.iter().all(|&b| b == c);
    (one && cells_then == want).then_some(c)
}

/// [`blank_for`], said.
pub(crate) fn blank_hint(text: &[u8], cells: &Cells, want: usize, letters: bool) -> Option<String> {
    let c = char::from(blank_for(text, cells, want, letters)?);
    Some(format!(
        "{c:?} read as a blank would make {want} cells: --blanks {c}"
    ))
}

/// Beside `-1` blanks a `0` is a value: values from 0 (`int(d) - 1`) are no reading.
const ZERO_BASED: &str = "a 0 beside -1 or null blanks: values from 0 are not read; add 1 to each";

/// A grid row whose `-1` and `null` fields among single cells (`-1|8|-1|7`, YAML's
/// `[null, 8, ...]`) are made blanks, written `.` after spaces so columns stay put.
pub(crate) fn word_blanks(t: &[u8]) -> Option<Result<Vec<u8>, &'static str>> {
    memchr::memchr2(b'-', b'n', t)?; // most rows have neither: nothing to split
    let sep = |b: &u8| b" \t|,;[](){}\"'".contains(b);
    let word = |f: &[u8]| f == b"-1" || f == b"null";
    let fields = t.split(sep).filter(|f| !f.is_empty());
    let (words, others) = fields.partition::<Vec<&[u8]>, _>(|f| word(f));
    if words.is_empty() || others.is_empty() || others.iter().any(|f| f.len() != 1) {
        return None;
    }
    let side = crate::board::Shape::of_side(words.len() + others.len());
    if side.is_some() && others.contains(&&b"0"[..]) {
        return Some(Err(ZERO_BASED));
    }
    let (mut out, mut at) = (t.to_vec(), 0);
    for f in t.split(sep) {
        if word(f) {
            out[at..at + f.len() - 1].fill(b' ');
            out[at + f.len() - 1] = b'.';
        }
        at += f.len() + 1;
    }
    Some(Ok(out))
}

/// Letters alone, in both cases but blanks (`x`): a word (`ConstraintSolver`), no cells.
fn is_word(t: &[u8], cells: &Cells) -> bool {
    let letter = |case: fn(&u8) -> bool| t.iter().any(|b| case(b) && cells.value(*b) != Some(0));
    t.iter().all(u8::is_ascii_alphabetic)
        && letter(u8::is_ascii_lowercase)
        && letter(u8::is_ascii_uppercase)
}

/// A label naming answers (`Solutions:`, `SOLUTION 1`, `"solution":`, `SOLUTIONS = [`):
/// a word naming them, and at most one other word. A count before the word (`2
/// solutions`, `two solutions`, `no solution`, `multi-solution`) is a remark on the puzzle before
/// it.
fn names_answers(t: &[u8]) -> bool {
    let words: Vec<&[u8]> = t
        .split(|b| !b.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let is = |w: &[u8], names: &[&str]| names.iter().any(|n| w.eq_ignore_ascii_case(n.as_bytes()));
    let answer = |w: &&[u8]| is(w, &["solution", "solutions", "answer", "answers"]);
    let counts = ["no", "one", "two", "unique", "multi", "multiple", "several"];
    let number = t.trim_ascii_start().first().is_some_and(u8::is_ascii_digit);
    match words[..] {
        [w, ..] if number && answer(&w) => false,
        [c, w] if is(c, &counts) && answer(&w) => false,
        _ => words.len() <= 2 && words.iter().any(answer),
    }
}

#[cfg(test)]
pub(crate) use tests::read_all;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What is read: each format's layouts, in [`Format::ALL`]'s order; the table
    /// docs/inputs.md shows, which a test keeps the same.
    const GRAMMAR: [&str; 6] = [
        "one puzzle a line: its cells alone (its rows maybe apart: spaces, `|`, `/`, `\\`, or `.` where `.` is no blank), first (then `:count:solution`, a separator and other fields) or as one field among others; a second complete grid on the line is its answer; a line holding no puzzle (a title, a label, code) is skipped",
        "a table whose first line names the puzzle column (quizzes, puzzle, board, ...) and maybe the answer's (solutions, solution, answer, ...), `,` `;` tab or `|` between fields; without such a line, columns by position (--puzzle-column)",
        "N rows of N cells a board (4 to 25): cells together or with one separator (spaces, commas, `|` (alone between a row's cells, an empty field a blank: `|5|||4|`), one mark between each two cells as in `0.0.7.0`, not a frame's `-` `=` `_` `+` `|`; an empty field, `-1` or `null` a blank, a line of empty fields alone (`,,,,,,,,`) a row of blanks where the board lacks rows (below); boxes between bars with spaces for blanks), borders and brackets, YAML list items, blank lines, titles and labels between boards, a label before a row (`A`, `Row 1:`) and column numbers above them, a row in an XML element, the symbols in order above a board (`0123456789ABCDEF`, where it makes the board conflict and the shifted rows not); a board after a line naming answers is the answer of the one before",
        "HDU 1426: 9 lines of 9 tokens, `?` blanks",
        "POJ 3074: one puzzle a line until a line `end`",
        "JSON documents and JSON lines: boards as strings or nested numbers, objects naming a puzzle (puzzle, quiz, grid, ...) and its answer (solution, answer, ...), lists of puzzles paired with lists of answers by position, objects keyed 0, 1, 2, ... as lists, a complete board beside a grid of true and false marking its givens",
    ];

    pub(crate) fn read_all(format: Format, input: &[u8]) -> Vec<RawRecord> {
        let mut reader = format.reader(
            std::io::BufReader::with_capacity(16, input),
            &Layout::default(),
        );
        std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap())).collect()
    }

    /// The records `d`'s reading finds in `input`.
    fn records(d: &detect::Detected, input: &[u8]) -> usize {
        let mut reader = d.format.reader(input, &d.layout);
        std::iter::from_fn(|| reader.next_record()).count()
    }

    const ALL: [Format; 6] = Format::ALL;

    #[test]
    fn detects_each_format() {
        let p = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
        let rows: Vec<&str> = (0..9).map(|r| &p[r * 9..r * 9 + 9]).collect();
        let spaced = |blank: &str| -> String {
            rows.iter()
                .map(|r| {
                    let cells: Vec<String> = r
                        .chars()
                        .map(|c| {
                            if c == '.' {
                                blank.to_string()
                            } else {
                                c.to_string()
                            }
                        })
                        .collect();
                    cells.join(" ") + "\n"
                })
                .collect()
        };
        let plain: String = rows.iter().map(|r| format!("{r}\n")).collect();
        let cases: &[(String, Format)] = &[
            (format!("\u{FEFF}# top\r\n\r\n{p}\r\n"), Format::Line),
            (format!("{p}:1:\n"), Format::Line),
            (format!("{p}\n{p}\nend\n"), Format::Poj),
            (format!("quizzes,solutions\n{p},\n"), Format::Csv),
            (format!(" Puzzle \r\n{p}\r\n"), Format::Csv),
            (
                format!("id,Puzzle,solution,clues,difficulty\n1,{p},,0,0\n"),
                Format::Csv,
            ),
            (spaced("?"), Format::Hdu),
            (spaced("."), Format::Grid),
            (format!("1\n{plain}"), Format::Grid),
            (format!("Grid 01\n{plain}"), Format::Grid),
            (format!("A title, with a ? in it\n{p}\n{p}\n"), Format::Line),
            (
                p.replace('.', "0").to_string() + "\r" + &p.replace('.', "0") + "\r",
                Format::Line,
            ),
            ("".into(), Format::Line),
            ("# only a comment".into(), Format::Line),
        ];
        for (input, want) in cases {
            let d = detect(input.as_bytes(), &Layout::default()).unwrap();
            assert_eq!(d.format, *want, "{input:?}");
        }
        let input = format!("{p}\r{p}\r");
        let cr = detect(input.as_bytes(), &Layout::default()).unwrap();
        assert!(cr.layout.cr_only);
        assert_eq!((records(&cr, input.as_bytes()), cr.errors), (2, 0));
    }

    /// A table whose puzzle fields cannot be read (leading zeros lost, an unknown blank)
    /// stays CSV: each row is an error. A looser reading used to take every row's
    /// solution as its puzzle, solve it, and exit 0. A header naming the answers'
    /// column decides; one naming the puzzles' alone is one reading among others.
    #[test]
    fn a_table_with_unreadable_puzzles_stays_csv() {
        let s = "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
        let lost = s[6..].to_string(); // a puzzle starting with zeros, read as a number
        let unknown = s.replace(['1', '2'], "/");
        let p = s.replacen('1', ".", 9);
        let cases = [
            (
                format!("quizzes,solutions\n{lost},{s}\n{lost},{s}\n"),
                (Format::Csv, 2, 2),
            ),
            (
                format!("quizzes,solutions\n{unknown},{s}\n{unknown},{s}\n"),
                (Format::Csv, 2, 2),
            ),
            (
                format!("puzzle,solution\n{p}:1:{s}\n{p}:1:{s}\n"),
                (Format::Csv, 2, 2),
            ),
            (
                format!("puzzle\n{p}:1:{s}\n{p}:1:{s}\n"),
                (Format::Line, 2, 0),
            ),
        ];
        for (input, want) in cases {
            let d = detect(input.as_bytes(), &Layout::default()).unwrap();
            let found = records(&d, input.as_bytes());
            assert_eq!((d.format, found, d.errors), want, "{input}");
        }
    }

    /// Program code is refused, saying what to do; a title that names no code is read.
    #[test]
    fn program_source_is_refused() {
        let p = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
        for code in [
            "const puzzles = [",
            "PUZZLES = [",
            "int grid[9][9] = {",
            "val b = arrayOf(",
            "import sudoku",
            "#include <stdio.h>",
        ] {
            let input = format!("{code}\n  \"{p}\",\n]\n");
            let e = detect(input.as_bytes(), &Layout::default()).unwrap_err();
            assert!(
                e.contains("program code") && e.contains("one a line"),
                "{e}"
            );
        }
        for title in ["Puzzles = easy ones", "a == b", "x => [1]"] {
            let input = format!("{title}\n{p}\n");
            assert!(
                detect(input.as_bytes(), &Layout::default()).is_ok(),
                "{title}"
            );
        }
    }

    /// The grammar's one table is the one docs/inputs.md shows.
    #[test]
    fn the_grammar_is_the_documented_table() {
        let doc = include_str!("../../docs/inputs.md");
        for (format, text) in ALL.into_iter().zip(GRAMMAR) {
            let row = format!("| `{format}` | {} |", text.replace('|', "\\|"));
            assert!(doc.contains(&row), "docs/inputs.md lacks: {row}");
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

    /// A puzzle of box size 2, 4 or 5 and its solution: a pattern solution, values
    /// relabelled, some cells blanked.
    fn other_size() -> impl Strategy<Value = (crate::board::Square, crate::board::Square)> {
        prop::sample::select(vec![2usize, 4, 5])
            .prop_flat_map(|n| {
                let side = n * n;
                let values: Vec<u8> = (1..=side as u8).collect();
                (
                    Just(n),
                    Just(values).prop_shuffle(),
                    prop::collection::vec(any::<bool>(), side * side),
                )
            })
            .prop_map(|(n, values, blank)| {
                let side = n * n;
                let cells = (0..side * side)
                    .map(|i| values[(n * ((i / side) % n) + (i / side) / n + i % side) % side])
                    .collect();
                let solution = crate::board::Square::new(cells).unwrap();
                let mut puzzle = solution.clone();
                for (cell, b) in blank.into_iter().enumerate() {
                    if b {
                        puzzle.set(cell, 0);
                    }
                }
                (puzzle, solution)
            })
    }

    /// The layouts a board of another size is written in, each read back.
    fn layouts(p: &crate::board::Square, s: &crate::board::Square) -> Vec<(Format, String)> {
        let side = p.side();
        let rows = |b: &crate::board::Square, numbers: bool, sep: &str| -> String {
            let line = b.to_line();
            (0..side)
                .map(|r| {
                    let row = &b.cells()[r * side..(r + 1) * side];
                    match numbers {
                        true => row.iter().map(u8::to_string).collect::<Vec<_>>().join(sep),
                        false => line[r * side..(r + 1) * side].to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        };
        vec![
            (Format::Line, format!("{}\n", p.to_line())),
            (Format::Line, format!("{}:1:{}\n", p.to_line(), s.to_line())),
            (
                Format::Line,
                format!("id7,{},{}\n", p.to_line(), s.to_line()),
            ),
            (
                Format::Csv,
                format!("puzzle,solution\n{},{}\n", p.to_line(), s.to_line()),
            ),
            (Format::Grid, rows(p, false, "")),
            (Format::Grid, rows(p, true, " ")),
            (Format::Grid, rows(p, true, ",")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn other_sizes_round_trip_in_every_layout((p, s) in other_size()) {
            for (format, text) in layouts(&p, &s) {
                let recs = read_all(format, text.as_bytes());
                prop_assert_eq!(recs.len(), 1, "{:?} {}", format, text);
                let got = recs[0].body.result().as_ref().map_err(|e| e.to_string());
                let got = got.unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
                prop_assert_eq!(&got.board, &crate::board::Board::from(p.clone()));
                // The layouts that give the solution hold it once more than the others.
                if text.matches(&s.to_line()).count() > usize::from(p == s) {
                    let want = crate::board::Board::from(s.clone());
                    let solution = got.expected.as_ref().and_then(|e| e.solution.as_ref());
                    prop_assert_eq!(solution, Some(&want), "{:?} {}", format, text);
                }
            }
        }

        #[test]
        fn readers_never_panic_and_end(bytes in noisy_bytes()) {
            let _ = detect(&bytes, &Layout::default());
            for f in ALL {
                let mut reader = f.reader(&bytes[..], &Layout::default());
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
