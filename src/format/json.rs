//! JSON documents (`json`), one after another (JSON lines too): boards as strings, as
//! nested numbers (`0` or `null` blank) or as rows of strings; objects naming a puzzle and
//! maybe its answer; lists of puzzles, paired with a list of answers by position; objects
//! holding any of these. Answers are never read as puzzles.
//!
//! A top-level array longer than [`WHOLE`] is read element by element, each parsed
//! whole by `serde_json` (at most [`MAX_VALUE`]), so a document of a million puzzles
//! takes the memory of one. A small byte-level splitter finds where each value ends;
//! every record keeps the line its value starts on.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use serde_json::Value;
use serde_json::value::RawValue;

use super::cells::Cells;
use super::csv::{PUZZLE_NAMES, SOLUTION_NAMES, parse_field};
use super::{Body, Notes, RawRecord, RecordReader};
use crate::board::{Board, Shape, Square};
use crate::record::{Expected, ParseError, Puzzle};

/// A top-level array up to this size is parsed whole (it may be one board of rows); a
/// longer one (or one that does not parse) is read element by element. Below the
/// detection sample's size, so a sample cut inside a long array reads as the file does.
const WHOLE: usize = 32 * 1024;

/// The largest value parsed whole: an element of a long top-level array, or any other
/// top-level value.
const MAX_VALUE: usize = 64 << 20;

/// The shortest string that can be a board (4x4); shorter strings in a list are labels.
const SHORTEST_BOARD: usize = 16;

pub(crate) struct JsonReader<R> {
    input: R,
    cells: Cells,
    /// Bytes read and not yet consumed: `buf[at..]`, the line of `buf[at]`.
    buf: Vec<u8>,
    at: usize,
    line: u64,
    eof: bool,
    /// Inside a long top-level array, read element by element.
    in_array: bool,
    number: u64,
    /// The last line a good record was counted as explaining: records that share a
    /// line explain it once.
    explained_to: u64,
    done: bool,
    queue: VecDeque<RawRecord>,
    notes: Notes,
}

impl<R: BufRead> JsonReader<R> {
    pub fn new(input: R, cells: Cells) -> JsonReader<R> {
        JsonReader {
            input,
            cells,
            buf: Vec::new(),
            at: 0,
            line: 1,
            eof: false,
            in_array: false,
            number: 0,
            explained_to: 0,
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
        self.buf.drain(..self.at);
        self.at = 0;
        let chunk = self.input.fill_buf()?;
        let n = chunk.len();
        self.buf.extend_from_slice(chunk);
        self.input.consume(n);
        self.eof = n == 0;
        Ok(n > 0)
    }

    fn consume(&mut self, n: usize) {
        let taken = &self.buf[self.at..self.at + n];
        self.line += memchr::memchr_iter(b'\n', taken).count() as u64;
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

    /// The length of the value at the cursor, reading more input as needed, up to
    /// `limit` bytes (`limit + 1`: longer); `None` when the input ends inside it.
    fn scan(&mut self, limit: usize) -> io::Result<Option<usize>> {
        let (mut i, mut depth, mut string, mut escaped) = (0, 0usize, false, false);
        let scalar = !matches!(self.buf[self.at], b'"' | b'[' | b'{');
        loop {
            while let Some(&b) = self.buf.get(self.at + i) {
                match (string, escaped, b) {
                    _ if i > limit => return Ok(Some(i)),
                    (true, true, _) => escaped = false,
                    (true, false, b'\\') => escaped = true,
                    (true, false, b'"') => string = false,
                    (true, ..) => {}
                    (false, _, b'"') => string = true,
                    (false, _, b'[' | b'{') => depth += 1,
                    (false, _, b']' | b'}') if depth > 0 => depth -= 1,
                    // A number, `true`, `false` or `null` ends at what follows it.
                    (false, _, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n') if scalar => {
                        return Ok(Some(i));
                    }
                    _ => {}
                }
                i += 1;
                if depth == 0 && !string && !scalar {
                    return Ok(Some(i));
                }
            }
            if !self.fill()? {
                return Ok(scalar.then_some(i));
            }
        }
    }

    /// A broken document: one error where it breaks, and nothing more is read.
    fn broken(&mut self, message: String) {
        let line = self.line;
        self.emit(Found::error(line, message));
        self.done = true;
    }

    fn emit(&mut self, Found { line, lines, body }: Found) {
        self.number += 1;
        if body.is_ok() {
            let end = line + lines - 1;
            self.notes.explained += end.saturating_sub(self.explained_to.max(line - 1));
            self.explained_to = self.explained_to.max(end);
        }
        self.queue.push_back(RawRecord {
            number: self.number,
            line,
            body: Body::Parsed(body.map_err(|e| ParseError::new(line, e))),
        });
    }

    /// Reads on until a record is queued or the input ends.
    fn advance(&mut self) -> io::Result<()> {
        while self.queue.is_empty() && !self.done {
            let Some(b) = self.peek()? else {
                if self.in_array {
                    self.broken("the JSON document ends before its last bracket".into());
                }
                self.done = true;
                break;
            };
            match (self.in_array, b) {
                (true, b',') => {
                    self.consume(1);
                    continue;
                }
                (true, b']') => {
                    self.consume(1);
                    self.in_array = false;
                    continue;
                }
                _ => {}
            }
            // A top-level array longer than `WHOLE`, or that does not parse: its elements
            // one by one, so it takes their memory, and damage is found where it is.
            let top = b == b'[' && !self.in_array;
            let limit = if top { WHOLE } else { MAX_VALUE };
            let Some(n) = self.scan(limit)? else {
                self.broken("the JSON document ends inside a value".into());
                break;
            };
            let text = &self.buf[self.at..self.at + n.min(limit)];
            if top && (n > limit || serde_json::from_slice::<&RawValue>(text).is_err()) {
                self.consume(1);
                self.in_array = true;
                continue;
            }
            if n > limit {
                let max = MAX_VALUE >> 20;
                self.broken(format!(
                    "a JSON value of more than {max} MiB: give the puzzles as a top-level array"
                ));
                break;
            }
            let found = Doc::read(text, self.line, &self.cells, self.in_array);
            // A scalar gives no record but the error that it is no JSON: the end.
            let scalar = !matches!(b, b'"' | b'[' | b'{');
            self.done = scalar && !found.is_empty();
            for f in found {
                self.emit(f);
            }
            self.consume(n);
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

/// One value parsed whole, and the records found in it.
struct Doc<'a> {
    text: &'a str,
    line: u64,
    cells: &'a Cells,
    out: Vec<Found>,
}

/// A record found in a value: the line it starts on, the lines it spans, its body.
struct Found {
    line: u64,
    lines: u64,
    body: Result<Puzzle, String>,
}

impl Found {
    fn error(line: u64, message: String) -> Found {
        Found {
            line,
            lines: 1,
            body: Err(message),
        }
    }
}

/// Whether keys, in the order given, are 0, 1, 2, ... or 1, 2, 3, ...
fn indexed<'k>(mut keys: impl Iterator<Item = &'k str>) -> bool {
    let Some(first) = keys.next() else {
        return false;
    };
    let from = usize::from(first == "1");
    (first == "0" || first == "1") && keys.zip(from + 1..).all(|(k, i)| k == i.to_string())
}

/// An object keyed 0, 1, 2, ... (or from 1) as the list it writes, and so the objects
/// in it: rows keyed so too (pandas' `to_json`) make a board of rows.
fn listed(v: Value) -> Value {
    let Value::Object(mut map) = v else { return v };
    // In number order (digit strings sort so by length, then text).
    let mut keys: Vec<String> = map.keys().cloned().collect();
    keys.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    if !indexed(keys.iter().map(String::as_str)) {
        return Value::Object(map);
    }
    Value::Array(
        keys.iter()
            .filter_map(|k| map.remove(k))
            .map(listed)
            .collect(),
    )
}

/// The items of a list, or of an object keyed 0, 1, 2, ... (pandas' columns) in the
/// order of its keys, with the keys (none for a list).
fn entries(v: &RawValue) -> Option<(Vec<String>, Vec<&RawValue>)> {
    if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(v.get()) {
        return Some((Vec::new(), items));
    }
    let mut members = members(v.get())?;
    // In number order (digit strings sort so by length, then text).
    members.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    indexed(members.iter().map(|m| m.0.as_str())).then(|| members.into_iter().unzip())
}

/// An object's members in their order (by where they stand), values left unparsed.
fn members(text: &str) -> Option<Vec<(String, &RawValue)>> {
    let map: std::collections::HashMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let mut members: Vec<_> = map.into_iter().collect();
    members.sort_by_key(|m| m.1.get().as_ptr());
    Some(members)
}

impl<'a> Doc<'a> {
    fn read(bytes: &'a [u8], line: u64, cells: &'a Cells, in_list: bool) -> Vec<Found> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return vec![Found::error(line, format!("not UTF-8: {e}"))],
        };
        let mut doc = Doc {
            text,
            line,
            cells,
            out: Vec::new(),
        };
        match serde_json::from_str::<&RawValue>(text) {
            Ok(raw) => doc.walk(raw, None, in_list, false),
            Err(e) => doc.out.push(Found::error(line, format!("not JSON: {e}"))),
        }
        doc.out
    }

    /// A record at `v`: the line it starts on and how many it spans.
    fn record(&mut self, v: &RawValue, body: Result<Puzzle, String>) {
        let v = v.get();
        let offset = v.as_ptr() as usize - self.text.as_ptr() as usize;
        let before = memchr::memchr_iter(b'\n', &self.text.as_bytes()[..offset]).count();
        let within = memchr::memchr_iter(b'\n', v.as_bytes()).count();
        self.out.push(Found {
            line: self.line + before as u64,
            lines: within as u64 + 1,
            body,
        });
    }

    /// The records in `v`, met under `key` in an object or (`in_list`) in a list; in a
    /// list under a key that names no puzzle (`labels`), text is a label unless it
    /// looks like a board.
    fn walk(&mut self, v: &'a RawValue, key: Option<&str>, in_list: bool, labels: bool) {
        let puzzle_key = key.is_some_and(|k| named(k, &PUZZLE_NAMES));
        match v.get().as_bytes()[0] {
            b'{' => match members(v.get()) {
                // Keyed 0, 1, 2, ... (or from 1): a list written as an object (PHP's
                // `json_encode`, Firebase), read as that list.
                Some(members) if indexed(members.iter().map(|m| m.0.as_str())) => {
                    let values: Vec<Value> = members
                        .iter()
                        .map(|m| listed(serde_json::from_str(m.1.get()).unwrap_or(Value::Null)))
                        .collect();
                    // Its text is a board only if it looks like one, as under a key.
                    match board_of(&values, self.cells) {
                        Some(board) => self.record(v, board.map(Puzzle::new)),
                        None => members
                            .iter()
                            .for_each(|m| self.walk(m.1, None, true, true)),
                    }
                }
                Some(members) => self.object(v, &members),
                None => {}
            },
            b'[' => {
                let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(v.get()) else {
                    return;
                };
                let value: Value = serde_json::from_str(v.get()).unwrap_or(Value::Null);
                let Value::Array(values) = &value else { return };
                match board_of(values, self.cells) {
                    // Numbers under another name are a board only in a board's shape.
                    Some(_) if !puzzle_key && !in_list && !board_shaped(values) => {}
                    // Rows shorter than any board's (`[[1,0],[0,1]]`, `[4, [3,0], [3,1]]`):
                    // places of cells.
                    Some(_)
                        if values.iter().any(Value::is_array)
                            && values
                                .iter()
                                .all(|r| r.as_array().is_none_or(|r| r.len() < 4)) => {}
                    Some(board) => self.record(v, board.map(Puzzle::new)),
                    None if pair(values, self.cells).is_some() => {
                        self.record(v, Ok(pair(values, self.cells).expect("a pair")))
                    }
                    None => {
                        // A name and a board: the board, without the name.
                        let labelled = matches!(&values[..], [Value::String(s), b] if !looks_like_board(s) && !b.is_string());
                        let labels = labels || (!in_list && !puzzle_key && key.is_some());
                        for item in &items[usize::from(labelled)..] {
                            self.walk(item, None, true, labels);
                        }
                    }
                }
            }
            b'"' => {
                let Ok(s) = serde_json::from_str::<String>(v.get()) else {
                    return;
                };
                let board_like = looks_like_board(&s) && s.trim().len() >= SHORTEST_BOARD;
                if puzzle_key
                    || board_like
                    || (in_list && !labels && s.trim().len() >= SHORTEST_BOARD)
                {
                    self.record(v, string_board(&s, self.cells).map(Puzzle::new));
                }
            }
            _ => {}
        }
    }

    /// An object: a puzzle and its answer, lists of puzzles and of answers paired by
    /// position, or members holding records. Answers apart from puzzles are no puzzles.
    fn object(&mut self, v: &'a RawValue, members: &[(String, &'a RawValue)]) {
        let find = |names: &[&str]| members.iter().find(|(k, _)| named(k, names)).map(|m| m.1);
        let answer = find(&SOLUTION_NAMES);
        // Named otherwise (`value`), the one board beside a named answer is the puzzle.
        let puzzle = find(&PUZZLE_NAMES).or_else(|| {
            answer?;
            let mut boards = members.iter().filter(|(k, v)| {
                let parsed: Value = serde_json::from_str(v.get()).unwrap_or(Value::Null);
                let shaped = parsed.as_array().is_none_or(|items| board_shaped(items));
                !named(k, &SOLUTION_NAMES)
                    && shaped
                    && matches!(value_board(&parsed, self.cells), Some(Ok(_)))
            });
            let one = boards.next()?;
            boards.next().is_none().then_some(one.1)
        });
        if let Some(p) = puzzle {
            let parsed: Value = listed(serde_json::from_str(p.get()).unwrap_or(Value::Null));
            if let Some(board) = value_board(&parsed, self.cells) {
                let board = board.map(|b| masked(b, members));
                let body = board.and_then(|b| with_answer(b, answer, self.cells));
                return self.record(v, body);
            }
            if let (Some(puzzles), Some(answers)) = (entries(p), answer) {
                return self.paired(puzzles, answers);
            }
        }
        for (key, value) in members {
            if !named(key, &SOLUTION_NAMES) {
                self.walk(value, Some(key), false, false);
            }
        }
    }

    /// A list of puzzles and a list of their answers, paired by position.
    fn paired(&mut self, (keys, puzzles): (Vec<String>, Vec<&'a RawValue>), list: &'a RawValue) {
        let Some((answer_keys, answers)) = entries(list) else {
            return self.record(
                list,
                Err("the answers are no list to pair with the puzzles".into()),
            );
        };
        if !keys.is_empty() && !answer_keys.is_empty() && keys != answer_keys {
            let message = "the answers are keyed otherwise than the puzzles: not paired";
            return self.record(list, Err(message.into()));
        }
        let n = puzzles.len();
        if answers.len() != n {
            let message = format!(
                "{} answers for {n} puzzles: not paired by position",
                answers.len()
            );
            return self.record(list, Err(message));
        }
        for (p, a) in puzzles.into_iter().zip(&answers) {
            let parsed: Value = serde_json::from_str(p.get()).unwrap_or(Value::Null);
            let board = value_board(&parsed, self.cells).unwrap_or_else(|| Err("no board".into()));
            self.record(p, board.and_then(|b| with_answer(b, Some(a), self.cells)));
        }
    }
}

/// Keys naming a grid of true and false that marks a saved game's givens.
const GIVEN_NAMES: [&str; 9] = [
    "fixed",
    "frozen",
    "given",
    "givens",
    "locked",
    "readonly",
    "initial",
    "prefilled",
    "clues",
];

/// A complete board beside a grid of true and false of its shape under a key naming
/// givens (`"frozen"`, `"fixed"`: a saved game) is the puzzle of the cells marked true.
/// A grid under another name (`"errors"`, `"editable"`) says nothing of the givens.
fn masked(board: Board, members: &[(String, &RawValue)]) -> Board {
    if !board.is_full() {
        return board; // a puzzle's blanks say its givens: no mask is looked for
    }
    let side = board.side();
    let mask = |(key, v): &(String, &RawValue)| {
        let rows: Vec<Vec<bool>> = serde_json::from_str(v.get()).ok()?;
        let shaped = rows.len() == side && rows.iter().all(|r| r.len() == side);
        let rows = rows.concat();
        (named(key, &GIVEN_NAMES) && shaped && rows.contains(&true)).then_some(rows)
    };
    let Some(mask) = members.iter().find_map(mask) else {
        return board;
    };
    let mut square = board.to_square().into_owned();
    for (cell, _) in mask.iter().enumerate().filter(|(_, given)| !**given) {
        square.set(cell, 0);
    }
    Board::from(square)
}

/// The puzzle `board` with the answer `answer` gives: one board (one solution, not a
/// claim that it is the only one), or a list of every solution (its length the count).
fn with_answer(board: Board, answer: Option<&RawValue>, cells: &Cells) -> Result<Puzzle, String> {
    let value: Value = answer.map_or(Value::Null, |a| {
        listed(serde_json::from_str(a.get()).unwrap_or(Value::Null))
    });
    let solved = |v: &Value| -> Result<Board, String> {
        let s = value_board(v, cells).unwrap_or_else(|| Err(format!("{v} is no board")))?;
        match (s.side() == board.side(), s.is_full()) {
            (false, _) => Err(format!(
                "the answer is {0}x{0} for a {1}x{1} puzzle",
                s.side(),
                board.side()
            )),
            (true, false) => Err("the answer has blank cells".into()),
            (true, true) => Ok(s),
        }
    };
    let expected = match &value {
        Value::Null => None,
        // Every cell blank: no answer given.
        v if value_board(v, cells).is_some_and(|b| b.is_ok_and(|b| b.clues() == 0)) => None,
        Value::Array(list) if value_board(&value, cells).is_none() => {
            let all = list.iter().map(solved).collect::<Result<Vec<_>, _>>()?;
            Some(Expected {
                count: Some(all.len() as u64),
                solution: (all.len() == 1).then(|| all[0].clone()),
            })
        }
        v => Some(Expected {
            count: None,
            solution: Some(solved(v)?),
        }),
    };
    Ok(Puzzle {
        board,
        expected: expected.map(Box::new),
    })
}

/// A board from a string, numbers or rows of strings; `None` when `v` is none of these.
fn value_board(v: &Value, cells: &Cells) -> Option<Result<Board, String>> {
    match v {
        Value::String(s) => Some(string_board(s, cells)),
        Value::Array(items) => board_of(items, cells),
        _ => None,
    }
}

/// The board a list is: numbers (flat or in rows), or one string a row.
fn board_of(items: &[Value], cells: &Cells) -> Option<Result<Board, String>> {
    if is_numbers(items) && !flat_boards(items) {
        return Some(numbers_board(items));
    }
    rows_of(items).map(|rows| string_board(&rows, cells))
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
    if board.is_err()
        && s.contains(' ')
        && Shape::of_cells(s.len()).is_some()
        && let Ok(b) = parse_field(s.replace(' ', ".").as_bytes(), cells)
    {
        return Ok(b);
    }
    board
}

/// A board written as one string a row (`["53..7....", ...]`): the rows joined, when
/// there are as many as a board has rows, each as long as the first.
fn rows_of(items: &[Value]) -> Option<String> {
    let rows: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
    let width = rows.first()?.trim().len();
    let square = Shape::of_side(rows.len()).is_some() && width == rows.len();
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
    Some(Puzzle {
        board: puzzle,
        expected: Some(Box::new(Expected {
            count: None,
            solution: Some(answer),
        })),
    })
}

/// A record from a JSON object on one line (JSON lines, read by the `line` format):
/// `None` when it names no puzzle with a board.
pub(crate) fn object_record(text: &str, cells: &Cells) -> Option<Result<Puzzle, String>> {
    let members = members(text)?;
    let find = |names: &[&str]| members.iter().find(|(k, _)| named(k, names)).map(|m| m.1);
    let parsed: Value = serde_json::from_str(find(&PUZZLE_NAMES)?.get()).ok()?;
    let board = value_board(&parsed, cells)?;
    Some(board.and_then(|b| with_answer(b, find(&SOLUTION_NAMES), cells)))
}
