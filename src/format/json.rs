//! JSON documents (`json`): arrays of puzzle strings, arrays of objects that name a
//! puzzle (and maybe its answer), grids as nested arrays of numbers (`0` or `null` for
//! a blank), objects holding any of these, and several documents one after another.
//!
//! Read as a stream: a value is parsed whole only when it is small ([`WHOLE`]); a value
//! that is not a record itself (a list of records, an object holding lists) is entered
//! and its members are read one by one, each numbered from the line it starts on. So a
//! document of a million puzzles takes constant memory, and an error names its line.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use serde_json::{Map, Value};

use super::cells::Cells;
use super::csv::{PUZZLE_NAMES, SOLUTION_NAMES, parse_field};
use super::{Body, Notes, RawRecord, RecordReader};
use crate::board::{self, Board, Shape, Square};
use crate::record::{Expected, ParseError, Puzzle};

/// Values up to this size are parsed whole; any one record fits.
const WHOLE: usize = 64 * 1024;

/// Containers entered one inside another at most: puzzle files nest a few levels; a
/// bound keeps a hostile `[[[[...` from rescanning its bytes level after level.
const MAX_DEPTH: usize = 16;

/// The shortest string that can be a board (4x4); shorter strings in a list are labels.
const SHORTEST_BOARD: usize = 16;

pub(crate) struct JsonReader<R> {
    input: R,
    cells: Cells,
    /// Bytes read and not yet consumed: `buf[at..]`.
    buf: Vec<u8>,
    at: usize,
    eof: bool,
    /// The line of `buf[at]`.
    line: u64,
    number: u64,
    /// The containers being read member by member, innermost last: `true` for an
    /// object.
    open: Vec<bool>,
    /// For each container in `open`: entered under a key that names no puzzle, so
    /// text in it that does not look like a board is a label.
    labels: Vec<bool>,
    /// The key of the value about to be read, in an object.
    key: Option<String>,
    done: bool,
    queue: VecDeque<RawRecord>,
    notes: Notes,
}

/// How far the value at the cursor goes.
enum Scan {
    /// Its length in bytes.
    Whole(usize),
    /// Longer than [`WHOLE`].
    Big,
    /// The input ends inside it.
    Cut,
}

/// What a value is to this reader.
enum Meaning {
    Record(Result<Puzzle, String>),
    /// A container of records: read its members one by one.
    Enter,
    Skip,
}

impl<R: BufRead> JsonReader<R> {
    pub fn new(input: R, cells: Cells) -> JsonReader<R> {
        JsonReader {
            input,
            cells,
            buf: Vec::new(),
            at: 0,
            eof: false,
            line: 1,
            number: 0,
            open: Vec::new(),
            labels: Vec::new(),
            key: None,
            done: false,
            queue: VecDeque::new(),
            notes: Notes::default(),
        }
    }

    /// Reads more input into the buffer; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.at > 0 {
            self.buf.drain(..self.at);
            self.at = 0;
        }
        let chunk = self.input.fill_buf()?;
        if chunk.is_empty() {
            self.eof = true;
            return Ok(false);
        }
        let n = chunk.len();
        self.buf.extend_from_slice(chunk);
        self.input.consume(n);
        Ok(true)
    }

    fn consume(&mut self, n: usize) {
        let taken = &self.buf[self.at..self.at + n];
        self.line += taken.iter().filter(|&&b| b == b'\n').count() as u64;
        self.at += n;
    }

    /// The next byte that is not white space, not consumed.
    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            while let Some(&b) = self.buf.get(self.at) {
                if !b.is_ascii_whitespace() {
                    return Ok(Some(b));
                }
                self.consume(1);
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
    }

    /// Finds the end of the value at the cursor (which is not white space), reading
    /// more input as needed, up to [`WHOLE`] bytes.
    fn scan(&mut self) -> io::Result<Scan> {
        let mut i = 0;
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let first = self.buf[self.at];
        loop {
            while let Some(&b) = self.buf.get(self.at + i) {
                i += 1;
                if in_string {
                    if i > WHOLE {
                        return Ok(Scan::Big);
                    }
                    match (escaped, b) {
                        (true, _) => escaped = false,
                        (false, b'\\') => escaped = true,
                        (false, b'"') => {
                            in_string = false;
                            if depth == 0 {
                                return Ok(Scan::Whole(i));
                            }
                        }
                        _ => {}
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(Scan::Whole(i));
                        }
                    }
                    // A number, `true`, `false` or `null` ends at what follows it.
                    b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n'
                        if depth == 0 && !matches!(first, b'"' | b'[' | b'{') =>
                    {
                        return Ok(Scan::Whole(i - 1));
                    }
                    _ => {}
                }
                if i > WHOLE {
                    return Ok(Scan::Big);
                }
            }
            if i > WHOLE {
                return Ok(Scan::Big);
            }
            if !self.fill()? {
                // A scalar may end the input.
                let scalar = depth == 0 && !in_string && !matches!(first, b'"' | b'[' | b'{');
                return Ok(if scalar { Scan::Whole(i) } else { Scan::Cut });
            }
        }
    }

    /// Moves to the next value to read, past commas, closing brackets and keys. False
    /// at the end of the input.
    fn next_value(&mut self) -> io::Result<Result<bool, String>> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(match self.open.is_empty() {
                    true => Ok(false),
                    false => Err("the JSON document ends before its last bracket".into()),
                });
            };
            match b {
                b',' => self.consume(1),
                b']' | b'}' => {
                    self.labels.pop();
                    if self.open.pop().is_none() {
                        return Ok(Err(format!("{:?} closes nothing", char::from(b))));
                    }
                    self.consume(1);
                }
                b'"' if self.open.last() == Some(&true) && self.key.is_none() => {
                    let Scan::Whole(n) = self.scan()? else {
                        return Ok(Err("a key that does not end".into()));
                    };
                    let key: String = match serde_json::from_slice(&self.buf[self.at..self.at + n])
                    {
                        Ok(k) => k,
                        Err(e) => return Ok(Err(format!("not JSON: {e}"))),
                    };
                    self.consume(n);
                    if self.peek()? != Some(b':') {
                        return Ok(Err(format!("no ':' after the key {key:?}")));
                    }
                    self.consume(1);
                    self.key = Some(key);
                }
                _ => return Ok(Ok(true)),
            }
        }
    }

    fn record(&mut self, line: u64, body: Result<Puzzle, String>) {
        self.number += 1;
        self.queue.push_back(RawRecord {
            number: self.number,
            line,
            body: Body::Parsed(body.map_err(|e| ParseError::new(line, e))),
        });
    }

    /// A broken document: one error where it breaks, and nothing more is read.
    fn broken(&mut self, message: String) {
        let line = self.line;
        self.record(line, Err(message));
        self.done = true;
    }

    /// Consumes the string at the cursor, however long, keeping none of it.
    fn skip_string(&mut self) -> io::Result<()> {
        self.consume(1);
        let mut escaped = false;
        loop {
            while let Some(&b) = self.buf.get(self.at) {
                self.consume(1);
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => return Ok(()),
                    _ => {}
                }
            }
            if !self.fill()? {
                return Ok(());
            }
        }
    }

    /// Reads the container opening at the cursor member by member.
    fn enter(&mut self, bracket: u8, labels: bool) {
        if self.open.len() == MAX_DEPTH {
            return self.broken(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        self.consume(1);
        self.open.push(bracket == b'{');
        self.labels.push(labels);
    }

    /// Reads on until a record is queued or the input ends.
    fn advance(&mut self) -> io::Result<()> {
        while self.queue.is_empty() && !self.done {
            match self.next_value()? {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.broken(e);
                    break;
                }
            }
            let key = self.key.take();
            let in_object = self.open.last() == Some(&true);
            // A list under a key that names no puzzle (`"comments": [...]`): its text
            // is labels unless it looks like a board.
            let labels = in_object && !key.as_deref().is_some_and(|k| named(k, &PUZZLE_NAMES));
            let labelled = self.labels.last() == Some(&true);
            let line = self.line;
            let first = self.buf[self.at];
            match self.scan()? {
                Scan::Whole(n) => {
                    let value: Value = match serde_json::from_slice(&self.buf[self.at..self.at + n])
                    {
                        Ok(v) => v,
                        // A container is read member by member, so the damage is found
                        // where it is; anything else is one error, and reading goes on
                        // past it (its end was found above).
                        Err(_) if matches!(first, b'[' | b'{') => {
                            self.enter(first, labels);
                            continue;
                        }
                        Err(e) => {
                            self.consume(n);
                            self.record(line, Err(format!("not JSON: {e}")));
                            continue;
                        }
                    };
                    match meaning(&value, key.as_deref(), in_object, labelled, &self.cells) {
                        Meaning::Record(r) => {
                            self.consume(n);
                            self.record(line, r);
                        }
                        Meaning::Enter => self.enter(first, labels),
                        Meaning::Skip => self.consume(n),
                    }
                }
                // A container too long to parse whole, or cut short by the end of
                // the input: read its members one by one.
                Scan::Big | Scan::Cut if matches!(first, b'[' | b'{') => self.enter(first, labels),
                Scan::Big if first == b'"' => {
                    self.skip_string()?;
                    let message = format!("a string of more than {} KiB: no board", WHOLE / 1024);
                    self.record(line, Err(message));
                }
                Scan::Big => self.broken(format!("a value of more than {} KiB", WHOLE / 1024)),
                Scan::Cut => self.broken("the JSON document ends inside a value".into()),
            }
        }
        Ok(())
    }
}

impl<R: BufRead + Send> RecordReader for JsonReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        if let Err(e) = self.advance() {
            return Some(Err(e));
        }
        self.queue.pop_front().map(Ok)
    }

    fn notes(&mut self) -> &mut Notes {
        &mut self.notes
    }
}

/// What `value` is, met under `key` in an object or as a member of a list.
fn meaning(
    value: &Value,
    key: Option<&str>,
    in_object: bool,
    labelled: bool,
    cells: &Cells,
) -> Meaning {
    let key = key.unwrap_or("");
    let puzzle_key = named(key, &PUZZLE_NAMES);
    // Under another name in an object (not an answer's): text (a name, a note) and
    // numbers (scores, counts) are passed over, but never what looks like a board.
    let other_key = in_object && !puzzle_key;
    match value {
        Value::String(_) if other_key && named(key, &SOLUTION_NAMES) => Meaning::Skip,
        // In a list, every string but a short label; under another name, what looks
        // like a board (a year or a score is no board: shorter than the smallest).
        Value::String(s)
            if puzzle_key
                || (in_object && looks_like_board(s) && s.trim().len() >= SHORTEST_BOARD)
                || (!in_object
                    && (looks_like_board(s)
                        || (!labelled && s.trim().len() >= SHORTEST_BOARD))) =>
        {
            Meaning::Record(string_board(s, cells).map(Puzzle::new))
        }
        Value::Object(map) => match object_record(map, cells) {
            Some(r) => Meaning::Record(r),
            None => Meaning::Enter,
        },
        // Under another name, numbers in the shape of a board are one (`sudoku1:
        // [[8, 2, null, ...], ...]`); an answer's, and other numbers, are passed over.
        Value::Array(items)
            if is_numbers(items)
                && other_key
                && (named(key, &SOLUTION_NAMES) || !board_shaped(items)) =>
        {
            Meaning::Skip
        }
        // A list of flat boards (`{ 4, 0, ... }` rows of 16 cells, 20 of them) is no
        // board of rows: its members are read one by one.
        Value::Array(items) if is_numbers(items) && flat_boards(items) => Meaning::Enter,
        Value::Array(items) if is_numbers(items) => {
            Meaning::Record(numbers_board(items).map(Puzzle::new))
        }
        Value::Array(items) => {
            if let Some(rows) = rows_of(items) {
                return Meaning::Record(string_board(&rows, cells).map(Puzzle::new));
            }
            if let Some(pair) = pair(items, cells) {
                return Meaning::Record(Ok(pair));
            }
            // A name and a board (`("Discrepancy - q1=99529", [[1, 2, 0, ...], ...])`):
            // the board, without the name.
            if let [a, b] = &items[..] {
                let label = |v: &Value| v.as_str().is_some_and(|s| !looks_like_board(s));
                let board = |v: &Value| match v {
                    Value::Array(rows) => is_numbers(rows),
                    Value::String(s) => looks_like_board(s),
                    _ => false,
                };
                match (label(a) && board(b), board(a) && label(b)) {
                    (true, _) => return meaning(b, None, false, false, cells),
                    (_, true) => return meaning(a, None, false, false, cells),
                    _ => {}
                }
            }
            match items
                .iter()
                .any(|v| v.is_array() || v.is_object() || v.is_string())
            {
                true => Meaning::Enter,
                false => Meaning::Skip,
            }
        }
        _ => Meaning::Skip,
    }
}

/// A string that is a board or was meant to be one: four or more characters, nearly
/// all digits and blank marks.
fn looks_like_board(s: &str) -> bool {
    let t = s.trim();
    let cellish = t
        .bytes()
        .filter(|b| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'*'))
        .count();
    t.len() >= 4 && cellish * 10 >= t.len() * 9
}

/// An array of numbers (or `null`s, or one-character strings), flat or in rows: a
/// board written as numbers, or meant to be one.
fn is_numbers(items: &[Value]) -> bool {
    let scalar = |v: &Value| match v {
        Value::Null | Value::Number(_) => true,
        Value::String(s) => s.len() <= 2,
        _ => false,
    };
    !items.is_empty()
        && items.iter().all(|v| match v {
            Value::Array(row) => row.iter().all(scalar),
            v => scalar(v),
        })
        && items.iter().any(|v| !v.is_string())
}

/// Numbers laid out as a board: as many rows as each has cells, or a flat list of a
/// board's cells, for a board size this tool reads.
fn board_shaped(items: &[Value]) -> bool {
    let rows = items
        .iter()
        .all(|v| v.as_array().is_some_and(|r| r.len() == items.len()));
    match rows {
        true => Shape::of_side(items.len()).is_some(),
        false => Shape::of_cells(items.len()).is_some() && !items.iter().any(Value::is_array),
    }
}

/// Lists each holding a whole board's cells, more or fewer of them than a row holds
/// cells (as many would make one board of rows).
fn flat_boards(items: &[Value]) -> bool {
    let len = |v: &Value| v.as_array().map(Vec::len);
    let first = len(&items[0]);
    first.is_some_and(|n| n != items.len() && n > 9 && Shape::of_cells(n).is_some())
        && items.iter().all(|v| len(v) == first)
}

/// Whether `key` is one of `names`, any case.
fn named(key: &str, names: &[&str]) -> bool {
    names.iter().any(|n| key.trim().eq_ignore_ascii_case(n))
}

fn string_board(s: &str, cells: &Cells) -> Result<Board, String> {
    let board = parse_field(s.trim().as_bytes(), cells);
    // Exactly a board's cells long, spaces among them: a space is a blank there.
    if board.is_err() && s.contains(' ') && Shape::of_cells(s.len()).is_some() {
        if let Ok(b) = parse_field(s.replace(' ', ".").as_bytes(), cells) {
            return Ok(b);
        }
    }
    board
}

/// A board written as one string a row (`["53..7....", ...]`): the rows joined, when
/// there are as many as a board has rows, each as long as the first.
fn rows_of(items: &[Value]) -> Option<String> {
    let rows: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
    let width = rows.first()?.trim().len();
    let square = board::Shape::of_side(rows.len()).is_some() && width == rows.len();
    (square && rows.iter().all(|r| r.trim().len() == width)).then(|| rows.concat())
}

/// A board written as numbers ([`is_numbers`]): a flat array of a board's cells, or
/// its rows; `0`, `null` and one-character blanks (`"."`, `""`) are blanks, a
/// one-character string of a digit is that digit.
fn numbers_board(items: &[Value]) -> Result<Board, String> {
    let mut values = Vec::new();
    let mut cell = |v: &Value| -> Result<(), String> {
        let n = match v {
            Value::Null => Some(0),
            Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
            Value::String(s) if s.is_empty() || s == "." || s == "0" => Some(0),
            Value::String(s) => s.parse().ok(),
            _ => None,
        };
        values.push(n.ok_or_else(|| format!("{v} is no cell"))?);
        Ok(())
    };
    for item in items {
        match item {
            Value::Array(row) => row.iter().try_for_each(&mut cell)?,
            v => cell(v)?,
        }
    }
    Square::new(values)
        .map(Board::from)
        .map_err(|e| e.to_string())
}

/// Two strings, one a complete grid and the other not: a puzzle and its answer, in
/// either order.
fn pair(items: &[Value], cells: &Cells) -> Option<Puzzle> {
    let [Value::String(a), Value::String(b)] = items else {
        return None;
    };
    let (a, b) = (string_board(a, cells).ok()?, string_board(b, cells).ok()?);
    let (puzzle, answer) = match (a.is_full(), b.is_full()) {
        (false, true) => (a, b),
        (true, false) => (b, a),
        _ => return None,
    };
    // The answer is checked against the puzzle later, like any expected answer.
    Some(Puzzle {
        board: puzzle,
        expected: Some(Box::new(Expected {
            count: Some(1),
            solution: Some(answer),
        })),
    })
}

/// A record from an object that names a puzzle (one of the CSV's puzzle names) and
/// maybe its answer (a solution name: one grid, or a list of every solution); `None`
/// when it names no puzzle, or names a list of them (`{"puzzles": [...]}`).
pub(crate) fn object_record(
    map: &Map<String, Value>,
    cells: &Cells,
) -> Option<Result<Puzzle, String>> {
    let field = |names: &[&str]| map.iter().find(|(k, _)| named(k, names));
    let (key, puzzle) = field(&PUZZLE_NAMES)?;
    let list = match puzzle {
        Value::Array(items) => !is_numbers(items) && rows_of(items).is_none(),
        other => other.is_object(),
    };
    if list {
        return None;
    }
    let board = match value_board(puzzle, cells) {
        Ok(b) => b,
        Err(e) => return Some(Err(format!("{key}: {e}"))),
    };
    let expected = match field(&SOLUTION_NAMES) {
        None | Some((_, Value::Null)) => None,
        Some((key, v)) => match answer(v, &board, cells) {
            Ok(e) => Some(Box::new(e)),
            Err(e) => return Some(Err(format!("{key}: {e}"))),
        },
    };
    Some(Ok(Puzzle { board, expected }))
}

/// A board from a string or from numbers.
fn value_board(v: &Value, cells: &Cells) -> Result<Board, String> {
    match v {
        Value::String(s) => string_board(s, cells),
        Value::Array(items) if is_numbers(items) => numbers_board(items),
        Value::Array(items) => match rows_of(items) {
            Some(rows) => string_board(&rows, cells),
            None => Err("an array that is no board".into()),
        },
        other => Err(format!("{other} is no board")),
    }
}

/// The expected answer: one complete grid, or a list of every solution (its length the
/// count, its one grid the solution when there is one).
fn answer(v: &Value, puzzle: &Board, cells: &Cells) -> Result<Expected, String> {
    let solved = |v: &Value| -> Result<Board, String> {
        let s = value_board(v, cells)?;
        match (s.side() == puzzle.side(), s.is_full()) {
            (false, _) => {
                let (a, b) = (puzzle.side(), s.side());
                Err(format!("{b}x{b} for a {a}x{a} puzzle"))
            }
            (true, false) => Err("has blank cells".into()),
            (true, true) => Ok(s),
        }
    };
    match v {
        Value::Array(list) if !is_numbers(list) => {
            let all = list.iter().map(solved).collect::<Result<Vec<_>, _>>()?;
            Ok(Expected {
                count: Some(all.len() as u64),
                solution: (all.len() == 1).then(|| all[0].clone()),
            })
        }
        v => Ok(Expected {
            count: Some(1),
            solution: Some(solved(v)?),
        }),
    }
}
