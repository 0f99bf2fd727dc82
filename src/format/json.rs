//! JSON documents (`json`), one after another (JSON lines too): boards as strings, as
//! nested numbers or as rows of strings; objects naming a puzzle and maybe its answer;
//! lists of puzzles paired with lists of answers by position. Answers are never puzzles.
//! A byte-level splitter finds where each value ends (serde_json neither resumes after a
//! broken value nor hands out an array's elements one at a time), so a top-level array
//! longer than [`WHOLE`] is read an element at a time and a million puzzles take the
//! memory of one.

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead};

use serde_json::Value;
use serde_json::value::RawValue;

use super::cells::Cells;
use super::csv::{PUZZLE_NAMES, SOLUTION_NAMES, answered, expecting, parse_field};
use super::{Body, Notes, RawRecord, RecordReader};
use crate::board::{Board, Shape, Square};
use crate::record::{ParseError, Puzzle};

/// A top-level array up to this size is parsed whole (it may be one board of rows); below
/// the detection sample's size, so a sample cut inside a long array reads as the file does.
const WHOLE: usize = 32 * 1024;

/// The largest value parsed whole: an element of a long top-level array, or a document.
const MAX_VALUE: usize = 64 << 20;

/// The shortest string that can be a board (4x4); shorter strings in a list are labels.
const SHORTEST_BOARD: usize = 16;

/// Keys naming a grid of true and false that marks a saved game's givens.
const GIVEN_NAMES: &str = "fixed frozen given givens locked readonly initial prefilled clues";

pub(crate) struct JsonReader<R> {
    input: R,
    /// Bytes read and not yet consumed: `buf[at..]`, the line of `buf[at]`.
    buf: Vec<u8>,
    at: usize,
    line: u64,
    eof: bool,
    /// Inside a long top-level array, read element by element.
    in_array: bool,
    done: bool,
    out: Out,
}

/// The records found and not yet handed out.
#[derive(Default)]
struct Out {
    cells: Cells,
    /// The byte that ends a line: `\r` in a file of bare CRs.
    end: u8,
    queue: VecDeque<RawRecord>,
    number: u64,
    /// The last line a good record explained: records that share a line explain it once.
    explained_to: u64,
    notes: Notes,
}

/// Words naming Sudoku variants whose rules no reader applies.
const VARIANTS: &str = "samurai killer jigsaw irregular diagonal windoku hyper kropki thermo sandwich arrow consecutive";

impl Out {
    /// Notes settings beside puzzles that no reader applies (a variant's rules), the
    /// first few of them.
    fn unread(&mut self, items: impl Iterator<Item = String>) {
        for item in items {
            let unread = &mut self.notes.unread;
            if unread.len() < 8 && !unread.contains(&item) {
                unread.push(item);
            }
        }
    }

    /// A record on lines `line` to `end`.
    fn push(&mut self, line: u64, end: u64, body: Result<Puzzle, String>) {
        self.number += 1;
        if body.is_ok() {
            self.notes.explained += end.saturating_sub(self.explained_to.max(line - 1));
            self.explained_to = self.explained_to.max(end);
        }
        self.queue.push_back(RawRecord {
            number: self.number,
            line,
            body: Body::Parsed(body.map_err(|e| ParseError::new(line, e))),
        });
    }
}

impl<R: BufRead> JsonReader<R> {
    pub fn new(input: R, cells: Cells, end: u8) -> JsonReader<R> {
        JsonReader {
            input,
            buf: Vec::new(),
            at: 0,
            line: 1,
            eof: false,
            in_array: false,
            done: false,
            out: Out {
                cells,
                end,
                ..Out::default()
            },
        }
    }

    /// The byte `i` past the cursor, reading more input as needed; `None` at the end.
    fn byte(&mut self, i: usize) -> io::Result<Option<u8>> {
        while self.buf.len() <= self.at + i && !self.eof {
            self.buf.drain(..self.at);
            self.at = 0;
            let chunk = self.input.fill_buf()?;
            let n = chunk.len();
            self.buf.extend_from_slice(chunk);
            self.input.consume(n);
            self.eof = n == 0;
        }
        Ok(self.buf.get(self.at + i).copied())
    }

    fn consume(&mut self, n: usize) {
        let taken = &self.buf[self.at..self.at + n];
        self.line += memchr::memchr_iter(self.out.end, taken).count() as u64;
        self.at += n;
    }

    /// The next byte that is not white space, not consumed.
    fn peek(&mut self) -> io::Result<Option<u8>> {
        while self.byte(0)?.is_some_and(|b| b.is_ascii_whitespace()) {
            self.consume(1);
        }
        self.byte(0)
    }

    /// The length of the value at the cursor, reading more input as needed, up to
    /// `limit` bytes (`limit + 1`: longer); `None` when the input ends inside it.
    fn scan(&mut self, limit: usize) -> io::Result<Option<usize>> {
        let (mut i, mut depth, mut string, mut escaped) = (0, 0usize, false, false);
        let scalar = !matches!(self.buf[self.at], b'"' | b'[' | b'{');
        while let Some(b) = self.byte(i)? {
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
        Ok(scalar.then_some(i))
    }

    /// A broken document: one error where it breaks, and nothing more is read.
    fn broken(&mut self, message: String) {
        self.out.push(self.line, self.line, Err(message));
        self.done = true;
    }

    /// Reads on until a record is queued or the input ends.
    fn advance(&mut self) -> io::Result<()> {
        while self.out.queue.is_empty() && !self.done {
            let Some(b) = self.peek()? else {
                if self.in_array {
                    self.broken("the JSON document ends before its last bracket".into());
                }
                self.done = true;
                break;
            };
            if self.in_array && matches!(b, b',' | b']') {
                self.consume(1);
                self.in_array = b == b',';
                continue;
            }
            // Too long or broken to parse whole: element by element (see `WHOLE`), each
            // element a record; where even the first breaks, they may be a board's rows
            // (`[['5',' ',...],...]`), so the array is one broken record.
            let top = b == b'[' && !self.in_array;
            let limit = if top { WHOLE } else { MAX_VALUE };
            let Some(n) = self.scan(limit)? else {
                self.broken("the JSON document ends inside a value".into());
                break;
            };
            let text = &self.buf[self.at..self.at + n.min(limit)];
            let parses = |t: &[u8]| {
                let mut values = serde_json::Deserializer::from_slice(t).into_iter::<&RawValue>();
                values.next().is_some_and(|v| v.is_ok())
            };
            if top && (n > limit || !parses(text) && parses(&text[1..])) {
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
            let number = self.out.number;
            Doc::read(text, self.line, self.in_array, &mut self.out);
            // A value that holds no board (`[[1, 6, 4, 5, 3, 2, 7, 8, 9]]`): skipped, counted.
            if self.out.number == number {
                let lines = memchr::memchr_iter(self.out.end, text).count() as u64 + 1;
                let first = text
                    .split(|&b| b == self.out.end)
                    .next()
                    .unwrap_or_default();
                self.out.notes.skipped.add(lines, self.line, first);
            }
            // A scalar gives no record but the error that it is no JSON: the end.
            self.done = !matches!(b, b'"' | b'[' | b'{') && !self.out.queue.is_empty();
            self.consume(n);
        }
        Ok(())
    }
}

impl<R: BufRead + Send> RecordReader for JsonReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        let next = self.advance().map(|()| self.out.queue.pop_front());
        next.transpose()
    }

    fn notes(&mut self) -> &mut Notes {
        &mut self.out.notes
    }
}

/// One value parsed whole, the records found in it going out.
struct Doc<'a> {
    text: &'a str,
    /// The line of `text[at..]`: records come in order, so each counts the line ends
    /// since the last (counted from the top, two long lists were quadratic).
    line: u64,
    at: usize,
    out: &'a mut Out,
}

/// A value as a `Value` (`null` where `serde_json` refuses it: a number out of range).
fn parse(v: &RawValue) -> Value {
    serde_json::from_str(v.get()).unwrap_or(Value::Null)
}

/// Whether keys, in the order given, are 0, 1, 2, ... or 1, 2, 3, ...
fn indexed<'k>(keys: impl Iterator<Item = &'k str>) -> bool {
    let mut keys = keys.peekable();
    let from = usize::from(keys.peek() == Some(&"1"));
    keys.peek().is_some() && keys.zip(from..).all(|(k, i)| k == i.to_string())
}

/// Sorts members in number order (digit strings sort so by length, then text): whether
/// they are keyed 0, 1, 2, ... (or from 1).
fn by_number<T>(members: &mut [(String, T)]) -> bool {
    members.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    indexed(members.iter().map(|m| m.0.as_str()))
}

/// An object keyed 0, 1, 2, ... (or from 1) as the list it writes, and so the objects in
/// it (pandas' `to_json` rows).
fn listed(v: Value) -> Value {
    let Value::Object(map) = v else { return v };
    let mut members: Vec<_> = map.into_iter().collect();
    match by_number(&mut members) {
        true => Value::Array(members.into_iter().map(|m| listed(m.1)).collect()),
        false => Value::Object(members.into_iter().collect()),
    }
}

/// The items of a list, or of an object keyed 0, 1, 2, ... (pandas' columns) in the
/// order of its keys, with the keys (none for a list).
fn entries(v: &RawValue) -> Option<(Vec<String>, Vec<&RawValue>)> {
    if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(v.get()) {
        return Some((Vec::new(), items));
    }
    let mut members = members(v.get())?;
    by_number(&mut members).then(|| members.into_iter().unzip())
}

/// An object's members in their order (by where they stand), values left unparsed.
fn members(text: &str) -> Option<Vec<(String, &RawValue)>> {
    let map: HashMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let mut members: Vec<_> = map.into_iter().collect();
    members.sort_by_key(|m| m.1.get().as_ptr());
    Some(members)
}

/// The first member whose key is one of `names`.
fn find<'v>(members: &[(String, &'v RawValue)], names: &str) -> Option<&'v RawValue> {
    members.iter().find(|(k, _)| named(k, names)).map(|m| m.1)
}

impl<'a> Doc<'a> {
    fn read(bytes: &'a [u8], line: u64, in_list: bool, out: &'a mut Out) {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return out.push(line, line, Err(format!("not UTF-8: {e}"))),
        };
        match serde_json::from_str::<&RawValue>(text) {
            Ok(raw) => Doc {
                text,
                line,
                at: 0,
                out,
            }
            .walk(raw, None, in_list, false),
            Err(e) => {
                // A Python or Haskell list: the line reading reads one board a line.
                let fix = ": single-quoted strings (a Python or Haskell list) are not JSON: write the puzzles one a line (a board's rows on one line are one puzzle)";
                let quoted = text.trim_start_matches(|c| c != '\'' && c != '"');
                let fix = if quoted.starts_with('\'') { fix } else { "" };
                out.push(line, line, Err(format!("not JSON: {e}{fix}")))
            }
        }
    }

    /// A record on the lines of `v`.
    fn record(&mut self, v: &RawValue, body: Result<Puzzle, String>) {
        let v = v.get();
        let offset = v.as_ptr() as usize - self.text.as_ptr() as usize;
        let lines = |t: &str| memchr::memchr_iter(self.out.end, t.as_bytes()).count() as u64;
        self.line = match self.at <= offset {
            true => self.line + lines(&self.text[self.at..offset]),
            false => self.line - lines(&self.text[offset..self.at]),
        };
        self.at = offset;
        self.out.push(self.line, self.line + lines(v), body);
    }

    /// The records in `v`, met under `key` or (`in_list`) in a list; in a list under a key
    /// naming no puzzle (`labels`), text is a label unless it looks like a board.
    fn walk(&mut self, v: &'a RawValue, key: Option<&str>, in_list: bool, labels: bool) {
        let puzzle_key = key.is_some_and(|k| named(k, PUZZLE_NAMES));
        match v.get().as_bytes()[0] {
            b'{' => match members(v.get()) {
                // A list written as an object (PHP's `json_encode`, Firebase): its text
                // is a board only if it looks like one, as under a key.
                Some(members) if indexed(members.iter().map(|m| m.0.as_str())) => {
                    let values = members.iter().map(|m| listed(parse(m.1))).collect();
                    match value_board(&Value::Array(values), &self.out.cells) {
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
                let Some((_, items)) = entries(v) else { return };
                let value = parse(v);
                let Value::Array(values) = &value else { return };
                // Rows shorter than any board's (`[[1,0],[0,1]]`): places of cells.
                let short = |r: &Value| r.as_array().is_none_or(|r| r.len() < 4);
                let places = values.iter().any(Value::is_array) && values.iter().all(short);
                match value_board(&value, &self.out.cells) {
                    _ if let Some(why) = unread_side(values) => self.record(v, Err(why)),
                    // Numbers under another name are a board only in a board's shape.
                    Some(_) if !puzzle_key && !in_list && !board_shaped(values) => {}
                    Some(_) if places => {}
                    Some(board) => self.record(v, board.map(Puzzle::new)),
                    None => match pair(values, &self.out.cells) {
                        Some(puzzle) => self.record(v, Ok(puzzle)),
                        None => {
                            // A name and a board: the board, without the name.
                            let labelled = matches!(&values[..], [Value::String(s), b] if !looks_like_board(s) && !b.is_string());
                            let labels = labels || (!in_list && !puzzle_key && key.is_some());
                            for item in &items[usize::from(labelled)..] {
                                self.walk(item, None, true, labels);
                            }
                        }
                    },
                }
            }
            b'"' => {
                let Value::String(s) = parse(v) else { return };
                let long = s.trim().len() >= SHORTEST_BOARD;
                if puzzle_key || (long && (looks_like_board(&s) || (in_list && !labels))) {
                    self.record(v, string_board(&s, &self.out.cells).map(Puzzle::new));
                }
            }
            _ => {}
        }
    }

    /// An object: a puzzle and its answer, lists of puzzles and of answers paired by
    /// position, or members holding records. Answers apart from puzzles are no puzzles.
    fn object(&mut self, v: &'a RawValue, members: &[(String, &'a RawValue)]) {
        // A variant named anywhere (`"mode": "samurai"`, `"type": "Killer Sudoku"`; not
        // in a sentence): its rules are not applied.
        let variant = |s: &str| {
            let mut words = s
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| !w.is_empty());
            words.clone().count() <= 2 && words.any(|w| named(w, VARIANTS))
        };
        let variants = members.iter().filter_map(|(k, v)| {
            // Short text only: no list is parsed for it.
            let text = (v.get().len() < 42).then(|| parse(v))?;
            let text = text.as_str().filter(|t| variant(t))?;
            Some(format!("{}: {text:?}", quoted(k)))
        });
        self.out.unread(variants);
        if let Some(why) = by_place(members, &self.out.cells) {
            return self.record(v, Err(why));
        }
        let cells = &self.out.cells;
        let at = answer_at(members, cells);
        let answer = at.map(|i| members[i].1);
        let no_answer = |i: usize, k: &str| Some(i) != at && !named(k, SOLUTION_NAMES);
        let is_board = |v: Option<&&RawValue>| board_in(v, cells).is_some();
        // Named otherwise (`value`, `RawSudoku`), the one board beside a named answer is
        // the puzzle (text with lowercase letters other than blanks only with no conflict:
        // an encoded string may have a board's length, `b7a9_13c16...`), and the one list
        // of boards beside a list of answers the puzzles.
        let puzzle = find(members, PUZZLE_NAMES).or_else(|| {
            let listed_answers = entries(answer?).is_some();
            // Each member parsed once; a list's first item only beside answers.
            let is_puzzle = |(i, (k, v)): &(usize, &(String, &RawValue))| {
                let parsed = parse(v);
                let shaped = parsed.as_array().is_none_or(|items| board_shaped(items));
                let lower = |b: u8| b.is_ascii_lowercase() && cells.value(b) != Some(0);
                let plain = parsed.as_str().is_none_or(|s| !s.bytes().any(lower));
                let board = value_board(&parsed, cells);
                let board = shaped && matches!(board, Some(Ok(b)) if plain || !b.has_conflict());
                let list = || entries(v).is_some_and(|(_, items)| is_board(items.first()));
                no_answer(*i, k) && (board || (listed_answers && list()))
            };
            let mut boards = members.iter().enumerate().filter(is_puzzle).map(|m| m.1);
            let one = boards.next()?;
            boards.next().is_none().then_some(one.1)
        });
        if let Some(p) = puzzle {
            if let Some(board) = value_board(&listed(parse(p)), &self.out.cells) {
                let set = members.iter().filter(|m| m.1.get() == "true");
                self.out
                    .unread(set.map(|m| format!("{}: true", quoted(&m.0))));
                let board = board.map(|b| masked(b, members));
                let board = board.and_then(|b| with_answer(b, answer, &self.out.cells));
                return self.record(v, board);
            }
            if let (Some(puzzles), Some(answers)) = (entries(p), answer) {
                return self.paired(puzzles, answers);
            }
        }
        for (i, (k, v)) in members.iter().enumerate() {
            if no_answer(i, k) {
                self.walk(v, Some(k), false, false);
            }
        }
    }

    /// A list of puzzles and a list of their answers, paired by position.
    fn paired(&mut self, (keys, puzzles): (Vec<String>, Vec<&'a RawValue>), list: &'a RawValue) {
        let n = puzzles.len();
        let message = match entries(list) {
            None => "the answers are no list to pair with the puzzles".to_string(),
            Some((k, _)) if !keys.is_empty() && !k.is_empty() && keys != k => {
                "the answers are keyed otherwise than the puzzles: not paired".into()
            }
            Some((_, a)) if a.len() != n => {
                let m = a.len();
                format!("{m} answers for {n} puzzles: not paired by position")
            }
            Some((_, answers)) => {
                for (p, a) in puzzles.into_iter().zip(answers) {
                    let board = value_board(&parse(p), &self.out.cells);
                    let board = board.unwrap_or_else(|| Err("no board".into()));
                    let board = board.and_then(|b| with_answer(b, Some(a), &self.out.cells));
                    self.record(p, board);
                }
                return;
            }
        };
        self.record(list, Err(message));
    }
}

/// A complete board beside a grid of true and false of its shape under a key naming
/// givens (`"frozen"`, `"fixed"`: a saved game) is the puzzle of the cells marked true.
fn masked(board: Board, members: &[(String, &RawValue)]) -> Board {
    let side = board.side();
    let mask = |(key, v): &(String, &RawValue)| {
        let rows: Vec<Vec<bool>> = serde_json::from_str(v.get()).ok()?;
        let shaped = rows.len() == side && rows.iter().all(|r| r.len() == side);
        let rows = rows.concat();
        let given = board.is_full() && named(key, GIVEN_NAMES);
        (given && shaped && rows.contains(&true)).then_some(rows)
    };
    let Some(mask) = members.iter().find_map(mask) else {
        return board;
    };
    let mut square = board.to_square().into_owned();
    for cell in (0..mask.len()).filter(|&c| !mask[c]) {
        square.set(cell, 0);
    }
    Board::from(square)
}

/// Lists of cell places beside a complete grid (`"g": {"e": [0, 1, 8, ...]}`) mark its
/// givens or its blanks, which is no rule: why the object is no puzzle.
fn by_place(of: &[(String, &RawValue)], cells: &Cells) -> Option<String> {
    // Seventeen places or more (a 9x9 board's givens or blanks), in order, each once (a
    // board's numbers repeat), read from the text: most objects hold no such list.
    let places = |v: &RawValue| {
        let inner = v.get().strip_prefix('[')?.strip_suffix(']')?;
        let items: Vec<u64> = (inner.split(','))
            .map(|n| n.trim().parse().ok())
            .collect::<Option<_>>()?;
        let places = items.len() >= 17 && items.windows(2).all(|w| w[0] < w[1] && w[1] <= 625);
        places.then_some(items.len())
    };
    // An object long enough to hold such a list, one level down (`"g": {"e": [...]}`).
    let nested = |(k, v): &(String, &RawValue)| match v.get().starts_with('{') {
        true if v.get().len() < 40 || !v.get().contains('[') => None,
        true => members(v.get())?.iter().find_map(|(j, v)| {
            Some((
                format!("{}: {{{}: [...]}}", quoted(k), quoted(j)),
                places(v)?,
            ))
        }),
        false => Some((format!("{}: [...]", quoted(k)), places(v)?)),
    };
    let (key, n) = of.iter().find_map(nested)?;
    let full = |(_, v): &(String, &RawValue)| board_in(Some(v), cells).filter(Board::is_full);
    of.iter().find_map(full)?;
    Some(format!(
        "a complete grid beside a list of {n} cell places ({key}): its givens or its blanks marked by place, which is not read; write each puzzle's cells, `.` for blanks"
    ))
}

/// The puzzle `board` with the answer `answer` gives: one board (one solution, not a
/// claim that it is the only one), or a list of every solution (its length the count).
fn with_answer(board: Board, answer: Option<&RawValue>, cells: &Cells) -> Result<Puzzle, String> {
    let value = answer.map_or(Value::Null, |a| listed(parse(a)));
    let solved = |v: &Value| -> Result<Board, String> {
        let s = value_board(v, cells).unwrap_or_else(|| Err(format!("{v} is no board")))?;
        let (a, b) = (s.side(), board.side());
        match (a == b, s.is_full()) {
            (false, _) => Err(format!("the answer is {a}x{a} for a {b}x{b} puzzle")),
            (true, false) => Err("the answer has blank cells".into()),
            (true, true) => Ok(s),
        }
    };
    let all = match (&value, value_board(&value, cells)) {
        (Value::Null, _) => return Ok(Puzzle::new(board)),
        // Every cell blank: no answer given.
        (_, Some(Ok(b))) if b.clues() == 0 => return Ok(Puzzle::new(board)),
        (Value::Array(list), None) => list.iter().map(solved).collect::<Result<Vec<_>, _>>()?,
        (v, _) => return solved(v).map(|s| answered(board, Some(s))),
    };
    let solution = (all.len() == 1).then(|| all[0].clone());
    Ok(expecting(board, Some(all.len() as u64), solution))
}

/// A board from a string, numbers (flat or in rows) or one string a row.
fn value_board(v: &Value, cells: &Cells) -> Option<Result<Board, String>> {
    match v {
        Value::String(s) => Some(string_board(s, cells)),
        Value::Array(items) if is_numbers(items) && !flat_boards(items) => {
            Some(numbers_board(items))
        }
        Value::Array(items) => rows_of(items, cells).map(|rows| string_board(&rows, cells)),
        _ => None,
    }
}

/// A string meant to be a board: 4 characters or more, nearly all digits and blank marks.
fn looks_like_board(s: &str) -> bool {
    let t = s.trim();
    let cellish = |b: &u8| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'*');
    t.len() >= 4 && t.bytes().filter(cellish).count() * 10 >= t.len() * 9
}

/// An array of numbers (or `null`s, or one-character strings), flat or in rows: a
/// board written as numbers, or meant to be one.
fn is_numbers(items: &[Value]) -> bool {
    let scalar =
        |v: &Value| v.is_null() || v.is_number() || v.as_str().is_some_and(|s| s.len() <= 2);
    let cells = |v: &Value| v.as_array().map_or(scalar(v), |row| row.iter().all(scalar));
    items.iter().any(|v| !v.is_string()) && items.iter().all(cells)
}

/// A flat list of k*k numbers from 0 to k, blanks among them: a board of a side not read
/// (a 3x3 Latin square), said rather than passed over.
fn unread_side(items: &[Value]) -> Option<String> {
    let k = items.len().isqrt();
    let fits = |v: &Value| v.as_u64().is_some_and(|n| n <= k as u64);
    let blank = items.iter().any(|v| v.as_u64() == Some(0));
    (k >= 3
        && k * k == items.len()
        && Shape::of_side(k).is_none()
        && blank
        && items.iter().all(fits))
    .then(|| format!("{} numbers: {}", k * k, crate::board::unread(k)))
}

/// Numbers laid out as a board of a size read: as many rows as each has cells, or flat.
fn board_shaped(items: &[Value]) -> bool {
    let n = items.len();
    let rows = |v: &Value| v.as_array().is_some_and(|r| r.len() == n);
    match items.iter().all(rows) {
        true => Shape::of_side(n).is_some(),
        false => Shape::of_cells(n).is_some() && !items.iter().any(Value::is_array),
    }
}

/// Lists each holding a whole board's cells, more or fewer of them than a row holds
/// cells (as many would make one board of rows).
fn flat_boards(items: &[Value]) -> bool {
    let len = |v: &Value| v.as_array().map(Vec::len);
    let first = len(&items[0]);
    first.is_some_and(|n| n != items.len() && Shape::of_cells(n).is_some())
        && items.iter().all(|v| len(v) == first)
}

/// Whether `key` is one of the space-separated `names`, any case.
fn named(key: &str, names: &str) -> bool {
    names.split(' ').any(|n| key.trim().eq_ignore_ascii_case(n))
}

/// A file's key for a message: quoted, escaped and cut short (it may hold anything).
fn quoted(key: &str) -> String {
    format!("{:?}", key.chars().take(40).collect::<String>())
}

/// The board `v` is, if it is one.
fn board_in(v: Option<&&RawValue>, cells: &Cells) -> Option<Board> {
    value_board(&parse(v?), cells)?.ok()
}

/// Where the answers are: under a key of [`SOLUTION_NAMES`] holding no scalar shorter than
/// a board (`"solved": "true"` is a flag), else under a key with a word naming them
/// (`SolvedSudoku`, `sudoku_solution`) holding a complete board or a list of them
/// (`solution_time: "12s"`, `solved_today: [puzzles]` hold none).
fn answer_at(members: &[(String, &RawValue)], cells: &Cells) -> Option<usize> {
    let full = |v: Option<&&RawValue>| board_in(v, cells).is_some_and(|b| b.is_full());
    let boards = |v: &RawValue| full(Some(&v)) || entries(v).is_some_and(|(_, l)| full(l.first()));
    let short = |v: &RawValue| match v.get().as_bytes()[0] {
        b'"' => v.get().len() < SHORTEST_BOARD,
        b => !matches!(b, b'[' | b'{'),
    };
    let exact = (members.iter()).position(|m| named(&m.0, SOLUTION_NAMES) && !short(m.1));
    let worded = |(k, v): &(String, &RawValue)| names_answers(k) && boards(v);
    exact.or_else(|| members.iter().position(worded))
}

/// Whether a key holds a word naming answers, camelCase or not.
fn names_answers(key: &str) -> bool {
    let mut words = String::new();
    for (i, c) in key.char_indices() {
        // camelCase: a capital after a small letter starts a word.
        if c.is_ascii_uppercase() && key[..i].ends_with(|p: char| p.is_ascii_lowercase()) {
            words.push(' ');
        }
        words.push(c.to_ascii_lowercase());
    }
    let word = |w: &str| ["solution", "solutions", "answer", "answers", "solved"].contains(&w);
    words.split(|c: char| !c.is_ascii_alphabetic()).any(word)
}

fn string_board(s: &str, cells: &Cells) -> Result<Board, String> {
    let board = parse_field(s.trim().as_bytes(), cells);
    // A JSON document written as a string (a Python `jsonpickle` dump), no board's text.
    if board.is_err()
        && s.trim_start().starts_with(['{', '['])
        && serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok()
    {
        return Err("a JSON document written as a string, not a board: decode it (`jq 'map(fromjson)'`), then extract its puzzles one a line".into());
    }
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

/// One string a row (`["53..7....", ...]`): the rows joined, when they make a square; below
/// 10x10, letters but blanks beside digits make none (cell names, `["R1C2", "R1C1", ...]`).
fn rows_of(items: &[Value], cells: &Cells) -> Option<String> {
    let rows: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
    let width = rows.first()?.trim().len();
    let square = Shape::of_side(rows.len()).is_some() && width == rows.len();
    let text = rows.concat();
    let letter = |b: u8| b.is_ascii_alphabetic() && cells.value(b) != Some(0);
    let mixed = text.bytes().any(letter) && text.bytes().any(|b| b.is_ascii_digit());
    (square && rows.iter().all(|r| r.trim().len() == width) && !(mixed && width < 10))
        .then_some(text)
}

/// A board written as numbers ([`is_numbers`]), flat or in rows; `0`, `-1`, `null`,
/// `"."` and `""` are blanks, a one-character string of a digit is that digit.
fn numbers_board(items: &[Value]) -> Result<Board, String> {
    // Blanks written `-1` or `null` (a word), beside a `0`: values from 0.
    let word = |v: &Value| v.is_null() || v.as_i64() == Some(-1);
    let cell = |v: &Value| {
        let n = match v {
            _ if word(v) || matches!(v.as_str(), Some("" | ".")) => Some(0),
            Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
            Value::String(s) => s.parse().ok(),
            _ => None,
        };
        n.ok_or_else(|| format!("{v} is no cell"))
    };
    let cells = items
        .iter()
        .flat_map(|v| v.as_array().map_or(std::slice::from_ref(v), Vec::as_slice));
    let values = cells.clone().map(cell).collect::<Result<_, _>>()?;
    if cells.clone().any(word) && cells.clone().any(|v| v.as_i64() == Some(0)) {
        return Err(super::ZERO_BASED.into());
    }
    Square::new(values).map(Board::from)
}

/// Two strings, a puzzle and its complete answer, in either order.
fn pair(items: &[Value], cells: &Cells) -> Option<Puzzle> {
    let [Value::String(a), Value::String(b)] = items else {
        return None;
    };
    let (a, b) = (string_board(a, cells).ok()?, string_board(b, cells).ok()?);
    match (a.is_full(), b.is_full()) {
        (false, true) => Some(answered(a, Some(b))),
        (true, false) => Some(answered(b, Some(a))),
        _ => None,
    }
}

/// A record from a JSON object on one line (JSON lines, read by the `line` format).
pub(crate) fn object_record(text: &str, cells: &Cells) -> Option<Result<Puzzle, String>> {
    let members = members(text)?;
    let board = value_board(&parse(find(&members, PUZZLE_NAMES)?), cells)?;
    let answer = answer_at(&members, cells).map(|i| members[i].1);
    Some(board.and_then(|b| with_answer(b, answer, cells)))
}
