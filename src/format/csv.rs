//! CSV with a header naming the puzzle column and maybe the solution's ([`PUZZLE_NAMES`],
//! [`SOLUTION_NAMES`]); other columns are ignored. Fields are separated by `,`, `;`, a tab
//! or `|` (whichever the header uses); `--puzzle-column` and `--solution-column` choose by
//! name or by number (then a file may have no header). Each line is one record (not the
//! `csv` crate's records): a stray quote costs one record, and none grows past the line cap.

use std::io::{self, BufRead};

use ::csv::ByteRecord;

use super::cells::Cells;
use super::lines::{Lines, trim};
use super::{Columns as Chosen, Layout, Notes, RawRecord, RecordReader};
use crate::board::nine::{CELLS, Grid};
use crate::board::{self, Board};
use crate::record::{Expected, ParseError, Puzzle};

/// Header names of a puzzle column (compared without case), and of a solution column.
pub(crate) const PUZZLE_NAMES: &str = "quizzes quiz puzzle puzzles board grid question unsolved sudoku problem givens input clues_grid";
pub(crate) const SOLUTION_NAMES: &str = "solutions solution answer answers solved output result";

/// A column chosen on the command line: its header name, or its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    Name(String),
    Number(usize),
}

impl std::str::FromStr for Column {
    type Err = String;

    fn from_str(s: &str) -> Result<Column, String> {
        match s.parse::<usize>() {
            Ok(0) => Err("columns are numbered from 1".into()),
            Ok(n) => Ok(Column::Number(n)),
            Err(_) if s.trim().is_empty() => Err("an empty column name".into()),
            Err(_) => Ok(Column::Name(s.trim().to_string())),
        }
    }
}

/// Which fields hold what.
struct Header {
    puzzle: usize,
    solution: Option<usize>,
    fields: usize,
}

pub(crate) struct CsvReader<R> {
    lines: Lines<R>,
    columns: Columns,
    number: u64,
    done: bool,
    notes: Notes,
}

/// Where the puzzle (and solution) are in each row.
#[derive(Default)]
struct Columns {
    fields: ByteRecord,
    header: Option<Header>,
    cells: Cells,
    chosen: Option<Chosen>,
    /// The field separator, from the first line.
    delimiter: u8,
}

impl<R: BufRead> CsvReader<R> {
    pub fn new(lines: Lines<R>, cells: Cells, layout: &Layout) -> CsvReader<R> {
        CsvReader {
            lines,
            columns: Columns {
                cells,
                chosen: layout.columns.clone(),
                ..Columns::default()
            },
            number: 0,
            done: false,
            notes: Notes::default(),
        }
    }
}

impl Columns {
    /// Reads the columns from the first line. `Ok(true)` when it is a header, `Ok(false)`
    /// when columns were given by number and it is already data.
    fn first_line(&mut self, bytes: &[u8], number: u64) -> Result<bool, ParseError> {
        self.delimiter = delimiter_of(bytes);
        split(&mut self.fields, bytes, self.delimiter).map_err(|m| ParseError::new(number, m))?;
        let chosen = self.chosen.as_ref();
        // A column chosen by number over data: no header (a header names the answers'
        // column as it would for a puzzle column found by name).
        if let Some(&Column::Number(n)) = chosen.map(|c| &c.puzzle)
            && let Some(field) = self.fields.get(n - 1)
            && parse_field(field, &self.cells).is_ok()
        {
            let solution = match chosen.and_then(|c| c.solution.as_ref()) {
                Some(Column::Number(s)) => Some(s - 1),
                _ => None,
            };
            // The row must reach the columns chosen.
            let needed = n.max(solution.map_or(0, |s| s + 1));
            self.header = Some(Header {
                puzzle: n - 1,
                solution,
                fields: self.fields.len().max(needed),
            });
            return Ok(false);
        }
        let header = read_header(&self.fields, chosen);
        if header.is_none() && chosen.is_none() {
            // No header: the first field that is a grid is the puzzle, a full grid after
            // it the solution (`puzzle,solution` files without a header).
            let grid_at = |from: usize, full: bool| {
                (from..self.fields.len()).find(|&k| {
                    parse_field(&self.fields[k], &self.cells).is_ok_and(|g| !full || g.is_full())
                })
            };
            if let Some(puzzle) = grid_at(0, false) {
                self.header = Some(Header {
                    puzzle,
                    solution: grid_at(puzzle + 1, true),
                    fields: self.fields.len(),
                });
                return Ok(false);
            }
        }
        self.header = Some(header.ok_or_else(|| {
            let wanted = match chosen.map(|c| &c.puzzle) {
                Some(Column::Name(n)) => format!("column named {n:?}"),
                _ => format!("puzzle column ({})", PUZZLE_NAMES.replace(' ', ", ")),
            };
            let why = format!("the CSV header has no {wanted}; choose one with --puzzle-column");
            ParseError::new(number, why)
        })?);
        Ok(true)
    }

    fn row(&mut self, bytes: &[u8], number: u64) -> Result<Puzzle, ParseError> {
        let header = self.header.as_ref().expect("read first");
        split(&mut self.fields, bytes, self.delimiter)
            .and_then(|()| parse_row(&self.fields, header, &self.cells))
            .map_err(|msg| ParseError::new(number, msg))
    }
}

impl<R: BufRead + Send> RecordReader for CsvReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        while !self.done {
            let line = match self.lines.next_line().transpose()? {
                Ok(line) => line,
                Err(e) => return Some(Err(e)),
            };
            let t = trim(line.bytes);
            if (t.is_empty() || t.starts_with(b"#")) && line.too_long().is_none() {
                continue;
            }
            let (columns, number) = (&mut self.columns, line.number);
            let body = match (&columns.header, line.too_long()) {
                (None, _) => match columns.first_line(line.bytes, number) {
                    Ok(true) => continue,
                    Ok(false) => columns.row(line.bytes, number),
                    Err(e) => {
                        self.done = true;
                        Err(e)
                    }
                },
                (Some(_), Some(too_long)) => Err(too_long),
                (Some(_), None) => columns.row(line.bytes, number),
            };
            self.number += 1;
            // A good row explains its line, and the first one the header above it.
            self.notes.explained += u64::from(body.is_ok()) * (1 + u64::from(self.number == 1));
            return Some(Ok(RawRecord {
                number: self.number,
                line: number,
                body: super::Body::Parsed(body),
            }));
        }
        None
    }

    fn notes(&mut self) -> &mut Notes {
        &mut self.notes
    }
}

/// The field separator a header line uses: the most frequent of `,`, `;`, tab and `|`
/// outside quotes (in the even pieces between quotes).
fn delimiter_of(line: &[u8]) -> u8 {
    let unquoted = line.split(|&b| b == b'"').step_by(2).flatten();
    let count = |d: &u8| unquoted.clone().filter(|&b| b == d).count();
    // The first of the most frequent (`max_by_key` keeps the last).
    let seps = [b',', b';', b'\t', b'|'];
    seps.into_iter().rev().max_by_key(count).expect("four")
}

/// The fields of `first`, a source's first line, when it is a CSV header naming a puzzle
/// column (the one chosen, or one of [`PUZZLE_NAMES`]): their count, and whether it
/// names the answers' column too.
pub(crate) fn header(first: &[u8], chosen: Option<&Chosen>) -> Option<(usize, bool)> {
    let mut fields = ByteRecord::new();
    split(&mut fields, first, delimiter_of(first)).ok()?;
    read_header(&fields, chosen).map(|h| (h.fields, h.solution.is_some()))
}

/// Splits a line at the delimiter into `fields` (a reused record), each unquoted and
/// trimmed; `"..."` quotes a field (`""` is a quote inside one).
fn split(fields: &mut ByteRecord, line: &[u8], delimiter: u8) -> Result<(), String> {
    fields.clear();
    // Padding, but never the delimiter: a tab that separates fields is no blank
    // (`\tpuzzle\tsolution`, a pandas index column, starts with an empty field).
    let blank = |b: u8| (b == b' ' || b == b'\t') && b != delimiter;
    let skip = |i: usize| i + line[i..].iter().take_while(|&&b| blank(b)).count();
    let (mut i, mut quoted) = (0, Vec::new());
    loop {
        i = skip(i);
        if line.get(i) == Some(&b'"') {
            let open = i;
            i += 1;
            quoted.clear();
            loop {
                match line.get(i) {
                    None => return Err(format!("column {}: unclosed quote", open + 1)),
                    Some(b'"') if line.get(i + 1) != Some(&b'"') => break,
                    Some(&b) => {
                        quoted.push(b);
                        i += 1 + usize::from(b == b'"');
                    }
                }
            }
            fields.push_field(&quoted);
            i = skip(i + 1);
            if i < line.len() && line[i] != delimiter {
                return Err(format!("column {}: text after a closing quote", i + 1));
            }
        } else {
            let end = line[i..].iter().position(|&b| b == delimiter);
            let field = &line[i..end.map_or(line.len(), |n| i + n)];
            let padding = field.iter().rev().take_while(|&&b| blank(b)).count();
            fields.push_field(&field[..field.len() - padding]);
            i += field.len();
        }
        if i >= line.len() {
            return Ok(());
        }
        i += 1; // the delimiter
    }
}

/// The columns named in a header row, `None` without a puzzle column.
fn read_header(fields: &ByteRecord, chosen: Option<&Chosen>) -> Option<Header> {
    let at =
        |name: &str| (0..fields.len()).find(|&k| fields[k].eq_ignore_ascii_case(name.as_bytes()));
    let find = |wanted: Option<&Column>, names: &str| match wanted {
        Some(Column::Number(n)) => Some(n - 1),
        Some(Column::Name(name)) => at(name),
        None => names.split(' ').find_map(at),
    };
    let puzzle = find(chosen.map(|c| &c.puzzle), PUZZLE_NAMES)?;
    let solution = find(chosen.and_then(|c| c.solution.as_ref()), SOLUTION_NAMES);
    Some(Header {
        puzzle,
        solution: solution.filter(|&s| s != puzzle),
        fields: fields.len(),
    })
}

fn parse_row(fields: &ByteRecord, header: &Header, cells: &Cells) -> Result<Puzzle, String> {
    let needed = header.puzzle.max(header.solution.unwrap_or(0)) + 1;
    let (n, h) = (fields.len(), header.fields);
    // A column given by number past the header's last ("row has 2 fields, header has 2"
    // said nothing).
    if n < needed && needed > h {
        return Err(format!(
            "the row has {n} fields and the header {h}: no column {needed} (--puzzle-column or --solution-column counts from 1)"
        ));
    }
    // Columns after the ones read may be left out (`1,P,S` under five names), unless a
    // board before the puzzle's column shows that one before it was (`P,S,0`).
    let shifted = || (0..header.puzzle).any(|k| parse_field(&fields[k], cells).is_ok());
    if n < needed || (n < h && shifted()) {
        return Err(format!("row has {n} fields, header has {h}"));
    }
    let board = parse_field(&fields[header.puzzle], cells).map_err(|e| format!("puzzle: {e}"))?;
    let Some(i) = header.solution else {
        // A complete grid in a field past the header's is the puzzle's answer, as a
        // second complete grid on a line is (`id,level,board` rows with a 4th field).
        let mut extra = fields.iter().skip(h).map(|f| parse_field(f, cells));
        let answer = extra.find_map(|s| s.ok().filter(|s| s.is_full() && s.side() == board.side()));
        return Ok(answered(board, answer));
    };
    // A field of blanks only (empty, `0`) or a board of them (`000...0`): no answer.
    let blank = |&b: &u8| b == b' ' || cells.value(b) == Some(0);
    let solution = match parse_field(&fields[i], cells) {
        Ok(s) if s.clues() == 0 => return Ok(Puzzle::new(board)),
        Err(_) if fields[i].iter().all(blank) => return Ok(Puzzle::new(board)),
        s => s.map_err(|e| format!("solution: {e}"))?,
    };
    if !solution.is_full() {
        return Err("solution: has blank cells".into());
    }
    if solution.side() != board.side() {
        let (a, b) = (board.side(), solution.side());
        return Err(format!("solution: {b}x{b} for a {a}x{a} puzzle"));
    }
    // One published solution, not a claim that it is the only one.
    Ok(answered(board, Some(solution)))
}

/// A puzzle and what its file says of its answer: how many solutions, and one.
pub(crate) fn expecting(board: Board, count: Option<u64>, solution: Option<Board>) -> Puzzle {
    let expected = Some(Box::new(Expected { count, solution }));
    Puzzle { board, expected }
}

/// A puzzle with the answer its file gives, if any (no claim that it is the only one).
pub(crate) fn answered(board: Board, answer: Option<Board>) -> Puzzle {
    let expected = answer.map(solution_expected);
    Puzzle { board, expected }
}

/// An expected answer from a solution field, no claim that it is the only one.
pub(crate) fn solution_expected(solution: Board) -> Box<Expected> {
    Box::new(Expected {
        count: None,
        solution: Some(solution),
    })
}

/// A board in one field: 81 cells, or 81 cells once spacing and brackets are dropped
/// (`[[0, 0, 3, ...], ...]`, `003 020 600 ...`); or another size's 16, 256 or 625
/// cells, one character each or as numbers (`[[0, 12, ...], ...]`).
pub(crate) fn parse_field(field: &[u8], cells: &Cells) -> Result<Board, String> {
    if let Ok(head) = <&[u8; CELLS]>::try_from(field) {
        return match cells.parse81(head) {
            Ok(values) => Ok(Grid::from_cells(values).expect("0-9").into()),
            Err(i) => Err(format!("column {}: {}", i + 1, super::bad_cell(field, i))),
        };
    }
    // Quotes too: a field written `"""0030..."""` holds its board in quotes.
    let spacing = |b: &u8| b" ,;|/\\[]()\t\n\r\"'".contains(b);
    let kept: Vec<u8> = field.iter().filter(|b| !spacing(b)).copied().collect();
    if kept.len() != field.len() {
        if let Ok(head) = <&[u8; CELLS]>::try_from(&kept[..])
            && let Ok(values) = cells.parse81(head)
        {
            return Ok(Grid::from_cells(values).expect("0-9").into());
        }
        // JSON's `null` and `-1` in a list of numbers are blanks, as in the JSON reader.
        let blank = |t: &[u8]| matches!(t, b"null" | b"-1");
        let tokens = field.split(spacing).filter(|t| !t.is_empty());
        let tokens = tokens.map(|t| if blank(t) { &b"0"[..] } else { t });
        if let Some(board) = board::parse_numbers(tokens) {
            return board;
        }
    }
    if board::Shape::of_cells(kept.len()).is_some_and(|s| s.side() != 9) {
        return cells.chars(&kept).map(Board::from).map_err(|(_, e)| e);
    }
    if let Some(i) = field.iter().position(|&b| !cells.is_cell(b)) {
        return Err(format!("column {}: {}", i + 1, super::bad_cell(field, i)));
    }
    Err(format!("expected 81 cells, found {}", field.len()))
}

#[cfg(test)]
mod tests {
    use crate::board::nine::Grid;
    use crate::format::{Format, read_all};

    const P: &str =
        "..45.21781...9..3....8....46..45.....7.9...128.12.35..4.......935..6.8.7.9.3..62.";
    const S: &str =
        "964532178187694235235817964629451783573986412841273596416728359352169847798345621";

    /// (number, line, solution given, error message)
    fn summary(input: &[u8]) -> Vec<(u64, u64, bool, String)> {
        let recs = read_all(Format::Csv, input);
        let row = |r: &crate::format::RawRecord| match r.body.result() {
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
            let p = r.body.result().as_ref().unwrap();
            let expected = p.expected.as_deref().unwrap();
            assert_eq!(p.board.to_line(), P);
            assert_eq!(
                (expected.count, expected.solution.clone()),
                (None, Some(S.parse::<Grid>().unwrap().into()))
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
                "puzzle: column 1: '\u{FFFD}' is not a digit 1-9 or a blank",
                "",
            ]
        );
        assert_eq!((got[5].0, got[5].1), (6, 7));
    }

    #[test]
    fn rejects_a_header_without_puzzle_column() {
        let got = summary(format!("id,text\n1,{P}\n").as_bytes());
        assert_eq!(
            got,
            [(
                1,
                1,
                false,
                "the CSV header has no puzzle column (quizzes, quiz, puzzle, puzzles, board, grid, question, unsolved, sudoku, problem, givens, input, clues_grid); choose one with --puzzle-column".into()
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
                "puzzle: column 82: '\"' is not a digit 1-9 or a blank",
                "column 85: text after a closing quote",
                ""
            ]
        );
    }
}
