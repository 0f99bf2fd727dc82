//! The `line` format (and POJ 3074): one puzzle a line, its cells first (then a
//! `:count:solution` suffix or other fields), one field among others, or spread over
//! equal groups (9 fields of 9, 81 of one); a second complete grid is the answer. A line
//! holding nothing like a puzzle is skipped and counted; a run of 82 cells, a stray
//! character among the cells or a broken suffix is an error naming the column.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::cells::Cells;
use super::csv::{answered, expecting, solution_expected};
use super::lines::{Line, Lines, MAX_LINE, trim};
use super::{Body, Item, LineBlock, Reading};
use super::{Notes, RawRecord, RecordReader, bad_cell, char_at};
use crate::board::nine::{CELLS, Grid};
use crate::board::{self, Board};
use crate::record::{ParseError, Puzzle, SourceName};

/// Records parsed here before blocks go out: enough that a file read in the wrong
/// format shows in the loader's counts (and its note).
const PARSED_HEAD: u64 = 1024;

/// Most bytes in one block of lines: the loader's buffer holds 64 KiB.
const BLOCK_MAX: usize = 64 * 1024;

/// A field's start and end in its line.
type Span = (usize, usize);

/// A puzzle read from a line, or an error placed at an offset in it.
type Parsed = Result<Puzzle, (usize, String)>;

/// A line's record; `None`: the line holds nothing like a puzzle.
type Read = Option<Result<Puzzle, ParseError>>;

pub(crate) struct LineReader<R> {
    lines: Lines<R>,
    reading: Arc<Reading>,
    notes: Notes,
    /// Past `PARSED_HEAD` records, blocks of lines go out unparsed.
    blocks: bool,
    /// Parse errors among the records parsed here.
    errors: u64,
    /// The last record, held until the next line shows whether it names its answer,
    /// and the end met meanwhile (a read error, reported after it; the caller stops).
    held: Option<RawRecord>,
    end: Option<io::Result<()>>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(lines: Lines<R>, poj: bool, cells: Cells, blocks: bool) -> LineReader<R> {
        let notes = Notes::default();
        let reading = Reading {
            cells,
            poj,
            terminator: lines.terminator,
            numbering: AtomicU64::new(0),
            skipped: notes.skipped.clone(),
        };
        LineReader {
            lines,
            reading: Arc::new(reading),
            notes,
            blocks,
            errors: 0,
            held: None,
            end: None,
        }
    }

    /// A block of `n` lines from line `first` for the caller to split; `cut`: the full
    /// length of a single line cut to `MAX_LINE`.
    fn block(&self, (first, n, bytes): (u64, u64, Vec<u8>), cut: Option<u64>) -> RawRecord {
        RawRecord {
            number: 0,
            line: first + n - 1,
            body: Body::Lines(LineBlock {
                bytes,
                first_line: first,
                lines: n,
                cut,
                reading: Arc::clone(&self.reading),
            }),
        }
    }
}

impl<R: BufRead + Send> RecordReader for LineReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        loop {
            // The records parsed here (blocks number after them).
            let parsed = self.reading.numbering.load(Ordering::Relaxed);
            // Blocks go out once the head is over and at most half of it failed to parse
            // (else all is parsed here, so the loader can say the file looks misread).
            let blocks = self.blocks && parsed >= PARSED_HEAD && self.errors * 2 <= parsed;
            if (blocks || self.end.is_some())
                && let Some(held) = self.held.take()
            {
                return Some(Ok(held));
            }
            if let Some(end) = &mut self.end {
                return std::mem::replace(end, Ok(())).err().map(Err);
            }
            // A line holding `end` is read alone below: it may end the input.
            if blocks && let Some(block) = self.lines.next_block(BLOCK_MAX, b"end").transpose() {
                return Some(block.map(|b| self.block(b, None)));
            }
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                end => {
                    self.end = Some(end.map(drop));
                    continue;
                }
            };
            let (number, t) = (line.number, trim(line.bytes));
            if t.is_empty() || (line.len <= MAX_LINE as u64 && is_comment(t, &self.reading.cells)) {
                continue;
            }
            if t == b"end" {
                self.end = Some(Ok(()));
                continue;
            }
            if blocks {
                let cut = (line.len > MAX_LINE as u64).then_some(line.len);
                let bytes = line.bytes.to_vec();
                return Some(Ok(self.block((number, 1, bytes), cut)));
            }
            // A line right after a puzzle naming its answer (`solution: 6524...`) is
            // its expected answer; then no blocks, which could split such a pair.
            if let Some(held) = &mut self.held
                && held.line + 1 == number
                && let Body::Parsed(Ok(puzzle)) = &mut held.body
                && puzzle.expected.is_none()
                && let Some(answer) = answer_of(t, &self.reading.cells)
                && matches!(&puzzle.board, Board::Nine(p) if keeps(&answer, p))
            {
                puzzle.expected = Some(solution_expected(answer.into()));
                self.notes.explained += 1;
                self.blocks = false;
                return self.held.take().map(Ok);
            }
            let Some(body) = read_line(&line, &self.reading, parsed > 0) else {
                self.notes.skipped.add(1, number, t);
                continue;
            };
            self.reading.numbering.store(parsed + 1, Ordering::Relaxed);
            self.errors += u64::from(body.is_err());
            self.notes.explained += u64::from(body.is_ok());
            let record = RawRecord {
                number: parsed + 1,
                line: number,
                body: Body::Parsed(body),
            };
            if let Some(held) = self.held.replace(record) {
                return Some(Ok(held));
            }
        }
    }

    fn notes(&mut self) -> &mut Notes {
        &mut self.notes
    }
}

impl LineBlock {
    /// The block's records as items, numbered from 1 within it, parsed as the reader
    /// parses its lines.
    pub fn items(&self, source: &SourceName) -> Vec<Item> {
        let (all, mut start) = (&self.bytes[..], 0);
        let mut out = Vec::with_capacity(all.len() / 82 + 1);
        // Lines that hold no puzzle, and the first: added to the source's once a block.
        let mut skipped = (0, None);
        // Past the last terminator: nothing, or a line read alone, which comes without
        // its terminator, already stripped.
        let ends = memchr::memchr_iter(self.reading.terminator, all).chain([all.len()]);
        for (end, number) in ends.zip(self.first_line..) {
            let bytes = &all[start..end];
            let bytes = bytes
                .strip_suffix(b"\r")
                .filter(|_| end < all.len())
                .unwrap_or(bytes);
            start = end + 1;
            // A line read alone may have been cut; one in a block is whole.
            let len = self.cut.unwrap_or(bytes.len() as u64);
            let line = Line { number, bytes, len };
            let t = trim(bytes);
            if t.is_empty() || (len <= MAX_LINE as u64 && is_comment(t, &self.reading.cells)) {
                continue;
            }
            debug_assert!(t != b"end", "an `end` line is read alone");
            match read_line(&line, &self.reading, true) {
                Some(body) => out.push(Item {
                    source: *source,
                    number: out.len() as u64 + 1,
                    line: number,
                    body: Body::Parsed(body),
                }),
                None => {
                    skipped.0 += 1;
                    skipped.1.get_or_insert((number, t));
                }
            }
        }
        if let (n, Some((line, t))) = skipped {
            self.reading.skipped.add(n, line, t);
        }
        out
    }
}

/// `#`, `%`, `//`, `/*` and `*/` start comment lines; so does an XML
/// comment on one line. Never a blank the user named (`--blanks '#'`).
pub(crate) fn is_comment(t: &[u8], cells: &Cells) -> bool {
    let mark = matches!(t.first(), Some(b'#' | b'%'))
        || t.starts_with(b"//")
        || t.starts_with(b"/*")
        || t.starts_with(b"*/")
        || (t.starts_with(b"<!--") && t.ends_with(b"-->"));
    mark && !cells.is_extra_blank(t[0])
}

/// The record in a line neither blank nor a comment, for the reader and blocks alike;
/// `None`: nothing like a puzzle, skipped.
fn read_line(line: &Line, reading: &Reading, after_first: bool) -> Read {
    let (cells, suffix) = (&reading.cells, !reading.poj);
    if let Some(too_long) = line.too_long() {
        return Some(Err(too_long));
    }
    let (number, line) = (line.number, line.bytes);
    // A line of one mark or blank but `.` and `0` repeated (`----`, `====`, `xxxx`): a
    // rule between puzzles, unless it is an empty board: a named blank as many as a
    // board's cells, or 81 `-` (files that write blanks `-` have them).
    let text = trim(line);
    let rule = |c: &u8| {
        let board = cells.is_extra_blank(*c) || (*c == b'-' && text.len() == CELLS);
        (c.is_ascii_punctuation() || cells.value(*c) == Some(0))
            && !b"0.".contains(c)
            && text.iter().all(|b| b == c)
            && !(board && board::Shape::of_cells(text.len()).is_some())
    };
    // So is a table's rule (`-----+-----`, `--|--`) but a board's count of `-` blanks.
    let border = |b: &u8| b"-+=| ".contains(b) && !cells.is_extra_blank(*b);
    let dashes = || text.iter().filter(|&&b| b == b'-').count();
    let table = text.iter().all(border)
        && text.iter().any(|b| b"+|".contains(b))
        && board::Shape::of_cells(dashes()).is_none();
    if text.first().is_some_and(rule) || table {
        return None;
    }
    let lead = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let s = &line[lead..];
    // A JSON object on one line (JSON lines), read as the `json` format reads one.
    if s.first() == Some(&b'{')
        && let Ok(text) = std::str::from_utf8(trim(s))
        && let Some(found) = super::json::object_record(text, cells)
    {
        return Some(found.map_err(|msg| ParseError::new(number, msg)));
    }
    let at = |(i, msg): (usize, String)| ParseError::at(number, lead + i + 1, msg);
    if let Some(found) = leading_puzzle(s, cells, suffix).or_else(|| fields(s, cells, suffix)) {
        return Some(found.map_err(at));
    }
    // Between puzzles, a line naming answers, or digits and spaces alone (a grid's
    // row, triples), says the file is no list of puzzles a line.
    let digits = line.iter().filter(|b| b.is_ascii_digit()).count();
    let spaced = line
        .iter()
        .all(|b| b.is_ascii_digit() || b" \t".contains(b));
    let message = match super::names_answers(line) {
        true if after_first => "this line names answers: answers listed apart from their puzzles are not read (give each on its puzzle's line, `puzzle:solution`)".into(),
        false if after_first && digits >= 4 && spaced => {
            format!("{digits} digits but no puzzle: this file is read one puzzle a line")
        }
        _ => return damaged(line, number, cells),
    };
    Some(Err(ParseError::new(number, message)))
}

/// A run of cells as long as the smallest board's and no puzzle is an error.
fn damaged(line: &[u8], number: u64, cells: &Cells) -> Read {
    // A word of more characters than 81, a square's count: a board larger than any
    // read, or of a board's count, most of them cells (`10023400<0...`, 256), why no board.
    let t = trim(line);
    let (n, side) = (t.len(), t.len().isqrt());
    if n > CELLS && side * side == n && !t.iter().any(u8::is_ascii_whitespace) {
        if side > 25 {
            let message = format!("{n} cells: {}", board::unread(side));
            return Some(Err(ParseError::new(number, message)));
        }
        if board::Shape::of_side(side).is_some()
            && 4 * t.iter().filter(|&&b| cells.is_cell(b)).count() >= 3 * n
            && let Err((i, e)) = cells.chars(t)
        {
            let column = t.as_ptr() as usize - line.as_ptr() as usize + i + 1;
            return Some(Err(ParseError::at(number, column, e)));
        }
    }
    // With no digit 1-9, letters A-I count: a flag reads them (see `bad_cell`).
    let letters = !line.iter().any(|b| matches!(b, b'1'..=b'9'));
    let cellish =
        |b: &u8| cells.is_cell(*b) || (letters && matches!(b.to_ascii_uppercase(), b'A'..=b'I'));
    let (at, run) = line
        .split(|b| !cellish(b))
        .map(|r| (r.as_ptr() as usize - line.as_ptr() as usize, r))
        .max_by_key(|(_, r)| r.len())?;
    (run.len() >= 16).then(|| {
        let message = match run.iter().position(|&b| !cells.is_cell(b)) {
            Some(i) => bad_cell(line, at + i),
            None => format!("a run of {} cells, but no puzzle in this line", run.len()),
        };
        Err(ParseError::new(number, message))
    })
}

/// A board other than 9x9: the first field of 16, 256 or 625 one-character cells (a
/// suffix, or a later complete field of that size its answer), or numbers, one a field.
fn other_size(s: &[u8], tokens: &[Span], cells: &Cells) -> Option<Parsed> {
    let cellish =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*' | b'+');
    let sized = |f: &[u8]| board::Shape::of_cells(f.len()).is_some_and(|s| s.side() != 9);
    let mut first_error = None;
    for (k, &(a, z)) in tokens.iter().enumerate() {
        let f = &s[a..z];
        let head = &f[..f.iter().position(|&b| b == b':').unwrap_or(f.len())];
        // A board's cells, or (with as many fields after it) its first row (`.4.. ...2`).
        let row = board::Shape::of_side(head.len()).is_some_and(|s| s.side() != 9);
        // A word in it (`NS-BBB-11-Skyscraper-SN`): a title, no board.
        let word = |w: &[u8]| w.len() >= 4 && super::is_word(w, cells);
        let titled = head.split(|b| !b.is_ascii_alphabetic()).any(word);
        if !(sized(head) || row) || !head.iter().all(cellish) || titled {
            continue;
        }
        // Fields as long after it: a larger board's rows (16 fields of 16 cells), its
        // answer, or puzzles side by side, which is no reading (never the first alone).
        let same = |&&(a, z): &&Span| z - a == f.len() && s[a..z].iter().all(cellish);
        // Counted to one past a board's rows: each field would count the rest again.
        let run = tokens[k..]
            .iter()
            .take(f.len() + 1)
            .take_while(same)
            .count();
        if run == f.len() && head.len() == f.len() {
            let rows: Vec<u8> = tokens[k..k + run]
                .iter()
                .flat_map(|&(a, z)| &s[a..z])
                .copied()
                .collect();
            // Rows of a board smaller than 9x9 only where they read (`2024 0131` is text).
            let board = cells.chars(&rows);
            if sized(head) || board.is_ok() {
                return Some(board.map(Puzzle::new).map_err(|(_, e)| (a, e)));
            }
        }
        if !sized(head) {
            continue;
        }
        let board = match cells.chars(head) {
            Ok(b) => b,
            Err((i, e)) => {
                first_error.get_or_insert((a + i, e));
                continue;
            }
        };
        if head.len() < f.len() {
            return Some(with_suffix(board.into(), s, a + head.len() + 1, cells));
        }
        let answer = |&(a, z): &Span| cells.chars(&s[a..z]).is_ok_and(|g| g.is_full());
        if run > 2 || (run == 2 && !answer(&tokens[k + 1])) {
            let message = format!(
                "{run} puzzles of {} cells on one line: write one a line",
                f.len()
            );
            return Some(Err((tokens[k + 1].0, message)));
        }
        let expected = tokens[k + 1..]
            .iter()
            .map(|&(a, z)| &s[a..z])
            .filter(|f| f.len() == head.len())
            .find_map(|f| cells.chars(f).ok())
            .filter(|g| g.is_full())
            .map(Board::from);
        return Some(Ok(answered(board.into(), expected)));
    }
    if let Some(numbers) = board::parse_numbers(tokens.iter().map(|&(a, z)| &s[a..z])) {
        let at = tokens.first().map_or(0, |t| t.0);
        return Some(numbers.map(Puzzle::new).map_err(|e| (at, e)));
    }
    first_error.map(Err)
}

/// The common case: 81 cells first, then nothing, a suffix, or a separator and fields.
fn leading_puzzle(s: &[u8], cells: &Cells, suffix: bool) -> Option<Parsed> {
    let head = s.first_chunk::<CELLS>()?;
    let next = s.get(CELLS).copied();
    if next.is_some_and(|b| cells.is_cell(b) || b.is_ascii_alphanumeric()) {
        return None; // more cells or a stray letter: the field reader says which
    }
    let grid = match Grid::from_line(head) {
        Ok(g) => g,
        Err(_) => Grid::from_cells(cells.parse81(head).ok()?).ok()?,
    };
    Some(match next {
        Some(b':') if suffix => with_suffix(grid.into(), s, CELLS + 1, cells),
        Some(_) => {
            let mut grids = find_grids(&s[CELLS + 1..], cells).1;
            grids.insert(0, (0, grid));
            puzzle_and_answer(&grids, CELLS + 1)
        }
        None => Ok(Puzzle::new(grid)),
    })
}

/// The puzzle and its answer from a line's grids: a complete grid first keeping the
/// givens of a second with blanks is its answer (`solution;puzzle`); else the first is
/// the puzzle and the next the answer. Another with blanks is an error (`at`: offset).
fn puzzle_and_answer(grids: &[(usize, Grid)], at: usize) -> Parsed {
    let ((_, first), rest) = grids.split_first().expect("a grid");
    let (puzzle, answer, rest) = match rest {
        [(_, second), more @ ..]
            if first.is_full() && !second.is_full() && keeps(first, second) =>
        {
            (second, Some(first), more)
        }
        _ => (first, rest.first().map(|(_, g)| g), rest),
    };
    if let Some(&(i, _)) = rest.iter().find(|(_, g)| !g.is_full()) {
        let n = rest.len() + 1;
        return Err((at + i, format!("{n} puzzles on one line: write one a line")));
    }
    Ok(answered((*puzzle).into(), answer.map(|&g| g.into())))
}

/// Whether the complete grid `full` keeps the givens of `puzzle`.
fn keeps(full: &Grid, puzzle: &Grid) -> bool {
    full.cells()
        .iter()
        .zip(puzzle.cells())
        .all(|(&f, &p)| p == 0 || p == f)
}

/// Each field's span, and the strict delimiter (`,` or `;`: every field counts, an empty
/// one a blank); else (`None`) runs of spaces, tabs, `|`, `~`, `=` (and with `marks`, `/`,
/// `\` and `.`) separate fields.
fn split(s: &[u8], marks: bool) -> (Option<u8>, Vec<Span>) {
    // Read again (`marks`), `,` and `;` are text (`...|solution|source; notes, more`).
    let strict = [b',', b';'].into_iter().find(|d| !marks && s.contains(d));
    // One list closed, another opened (`0]];[[7`): their cells are two fields.
    let between = |i: usize| {
        i > 0 && b")]}".contains(&s[i - 1]) && s.get(i + 1).is_some_and(|b| b"([{".contains(b))
    };
    // `|` parts groups of cells too (`B|0;7;5;...|8;6;1;...`), looked for where it is.
    let bar = match strict {
        Some(d) if memchr::memchr(b'|', s).is_none() => d,
        _ => b'|',
    };
    // `.` parts rows only where nothing else does (`53..7..../6..195...`).
    let dots = marks && memchr::memchr2(b'/', b'\\', s).is_none();
    let is_sep = |i: usize| match (strict, s[i]) {
        (Some(d), b) => b == d || b == bar || between(i),
        // `=`: `key=value` pairs (`data="..."` in XML); `~`: `solution~puzzle~level`.
        (None, b) => {
            matches!(b, b' ' | b'\t' | b'|' | b'=' | b'~')
                || (marks && matches!(b, b'/' | b'\\'))
                || (dots && b == b'.')
        }
    };
    let mut tokens = Vec::new();
    // Text before a `;` ahead of the first `,` is a label (a size, an id: `9;1,5,9,...`).
    let label = match (memchr::memchr(b';', s), memchr::memchr(b',', s)) {
        (Some(i), Some(j)) if i < j && strict == Some(b',') => i + 1,
        _ => 0,
    };
    let mut start = label;
    // An empty field after a closing bracket (`..., 9]],`) is past the list: no blank; a
    // quoted one is a field wherever it stands (`],[' ','2'`).
    let mut closed = false;
    for i in (label..s.len()).filter(|&i| is_sep(i)).chain([s.len()]) {
        let (mut a, mut z) = (start, i);
        // Fields may be padded, bracketed (`[[5,3,0,...]]`) or quoted; a quoted value
        // ends at its closing quote (`data="..."/>`); code before a list's bracket
        // (`board: [][]byte{{'5'`) is no part of its first field.
        if let Some(open) = s[a..z]
            .iter()
            .rposition(|b| matches!(b, b'(' | b'[' | b'{'))
            && a + open + 1 < z
            && !s[a..a + open].contains(&b'"')
        {
            a += open + 1;
        }
        while a < z && matches!(s[a], b' ' | b'\t' | b'(' | b'[' | b'{') {
            a += 1;
        }
        if let Some(&q @ (b'"' | b'\'')) = s.get(a).filter(|_| a < z)
            && let Some(end) = s[a + 1..z].iter().position(|&b| b == q)
        {
            z = a + 1 + end;
        }
        while a < z && matches!(s[a], b' ' | b'\t' | b'"' | b'\'') {
            a += 1;
        }
        while z > a && matches!(s[z - 1], b' ' | b'\t' | b'"' | b'\'' | b')' | b']' | b'}') {
            z -= 1;
        }
        let quoted = s[start..i].iter().any(|b| matches!(b, b'"' | b'\''));
        if a < z || (strict.is_some() && (!closed || quoted)) {
            tokens.push((a, z));
        }
        closed = s[z..i].iter().any(|b| matches!(b, b')' | b']' | b'}'));
        start = i + 1;
    }
    (strict, tokens)
}

/// The line's fields, and each 81-cell grid in it with its start: a field of 81 cells,
/// or consecutive fields of 1, 3, 9 or 27 cells that make 81. In a line holding none so,
/// `/`, `\` or `.` may part its rows (`530070000/600195000/...`, `700910006.000060000...`:
/// then `.` is no blank), and `,` or `;` may be text: a date or a fraction beside a puzzle
/// is no mark between rows.
fn find_grids(s: &[u8], cells: &Cells) -> (Vec<Span>, Vec<(usize, Grid)>) {
    let found = grids_in(s, cells, false);
    if found.1.is_empty()
        && s.iter()
            .any(|b| matches!(b, b'/' | b'\\' | b';' | b',' | b'.'))
    {
        let marked = grids_in(s, cells, true);
        if !marked.1.is_empty() {
            return marked;
        }
    }
    found
}

fn grids_in(s: &[u8], cells: &Cells, marks: bool) -> (Vec<Span>, Vec<(usize, Grid)>) {
    let (strict, tokens) = split(s, marks);
    let field = |&(a, z): &Span| &s[a..z];
    // Width of each field as cells: `None` when it is not all cells.
    let width = |t: &Span| match field(t) {
        [] => strict.and(Some(1)),
        f => f.iter().all(|&b| cells.is_cell(b)).then_some(f.len()),
    };
    let mut grids = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        let Some(w @ (1 | 3 | 9 | 27 | CELLS)) = width(&tokens[k]) else {
            k += 1;
            continue;
        };
        let group = CELLS / w;
        // The whole run must be grids: in 82 one-cell fields, which 81 is a guess.
        let mut run_len = tokens[k..]
            .iter()
            .take_while(|t| width(t) == Some(w))
            .count();
        // A separator ending the line (`...,4,`) leaves an empty last field: no cell.
        let ends_empty = k + run_len == tokens.len() && tokens.last().is_some_and(|t| t.0 == t.1);
        if run_len % group == 1 && ends_empty {
            run_len -= 1;
        }
        if run_len % group != 0 || run_len == 0 {
            k += run_len.max(1);
            continue;
        }
        // An empty field is a blank.
        let values = tokens[k..k + group]
            .iter()
            .flat_map(|t| match field(t) {
                [] => &b"."[..],
                f => f,
            })
            .map(|&b| cells.value(b).expect("checked: all cells"));
        let mut cells81 = [0u8; CELLS];
        cells81.iter_mut().zip(values).for_each(|(c, v)| *c = v);
        let grid = Grid::from_cells(cells81).expect("cells are 0-9");
        grids.push((tokens[k].0, grid));
        k += group;
    }
    (tokens, grids)
}

/// The general case: the puzzle is a field (or a run of fields) among others.
fn fields(s: &[u8], cells: &Cells, general: bool) -> Option<Parsed> {
    let (tokens, grids) = find_grids(s, cells);
    // Sukaku with spaces: 81 fields of 9 candidates.
    let candidates = |&(a, z): &Span| z - a == 9 && s[a..z].iter().all(|&b| cells.is_cell(b));
    if tokens.len() == CELLS && tokens.iter().all(candidates) {
        return Some(Err((tokens[0].0, PENCIL_MARKS.into())));
    }
    // A grid under a key naming answers (`"solution": "..."`) is no puzzle.
    if let Some((at, _)) = named_answer(s, &tokens, &grids) {
        let message = "an answer with no puzzle on its line (its key names answers): give it on its puzzle's line, or on the line right after it";
        return Some(Err((at, message.into())));
    }
    if !grids.is_empty() {
        return Some(puzzle_and_answer(&grids, 0));
    }
    (general.then(|| other_size(s, &tokens, cells)).flatten())
        .or_else(|| near_miss(s, &tokens, cells).map(Err))
}

/// The line's one grid when a key naming answers stands before it (`solution: ...`).
fn named_answer(s: &[u8], tokens: &[Span], grids: &[(usize, Grid)]) -> Option<(usize, Grid)> {
    let [(at, grid)] = grids[..] else {
        return None;
    };
    let &(a, z) = tokens.iter().take_while(|t| t.0 < at).last()?;
    super::names_answers(&s[a..z]).then_some((at, grid))
}

/// The complete grid a trimmed line names as an answer. Only a line starting with a key
/// (a letter, past quotes and a list's dash) is split: puzzle lines are split once.
fn answer_of(t: &[u8], cells: &Cells) -> Option<Grid> {
    let skip = |b: &&u8| matches!(b, b' ' | b'\t' | b'-' | b'"' | b'\'' | b'{');
    let key = t.iter().find(|b| !skip(b));
    if !key.is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let (tokens, grids) = find_grids(t, cells);
    named_answer(t, &tokens, &grids)
        .map(|(_, g)| g)
        .filter(Grid::is_full)
}

/// What a line of 729 cells is (Sukaku, or a solver's candidate dump).
const PENCIL_MARKS: &str =
    "729 cells: pencil marks (9 candidates a cell), not a puzzle's givens; not read";

/// A field that is almost a puzzle, or single-cell fields (`7,0,0,...`) that make no
/// board: the error that says what is wrong, and where.
fn near_miss(s: &[u8], tokens: &[Span], cells: &Cells) -> Option<(usize, String)> {
    // Cells but for one character a blank would explain, in a field or the whole line
    // (that character may also split fields, `53~~7~~~~6`).
    for &(a, z) in std::iter::once(&(0, trim(s).len())).chain(tokens) {
        if board::Shape::of_cells(z - a).is_some()
            && let Some(hint) = super::blank_hint(&s[a..z], cells, z - a, false)
        {
            let i = a + s[a..z].iter().position(|&b| !cells.is_cell(b)).unwrap_or(0);
            return Some((i, format!("{}; {hint}", bad_cell(s, i))));
        }
    }
    // `7.4` joins two one-cell fields where `.` separates rows.
    let singles = tokens.iter().filter(|&&(a, z)| z - a <= 1).count();
    let joined = tokens
        .iter()
        .filter(|&&(a, z)| matches!(s[a..z], [_, b'.', _]))
        .count();
    if joined > 0 && singles + 2 * joined == CELLS {
        let message = "'.' separates rows here, between one-cell fields; '.' is a blank in every layout, so this is no grid: separate every cell alike (`tr . ,`)";
        return Some((tokens[0].0, message.into()));
    }
    // 81 of them, but one character (the same each time) is no cell: the blank it is.
    let mut odd = tokens
        .iter()
        .filter(|&&(a, z)| z - a == 1 && !cells.is_cell(s[a]))
        .map(|t| t.0);
    if singles == CELLS
        && let Some(first) = odd.next()
        && odd.all(|i| s[i] == s[first])
    {
        let c = char::from(s[first]);
        let message = format!(
            "{c:?} is not a digit 1-9 or a blank; read as a blank, the line's 81 one-cell fields are a board: --blanks {c}"
        );
        return Some((first, message));
    }
    if (60..=100).contains(&singles) && singles * 2 > tokens.len() {
        let at = tokens.last().map_or(0, |t| t.0);
        // An id or a level written as one more cell: which 81 are the board is a guess.
        let why = if singles > CELLS {
            ": which 81 are the board is not told (an id or a level among them?); keep the board's 81 alone on the line, or in one field"
        } else {
            ""
        };
        return Some((at, format!("{singles} one-cell fields, expected 81{why}")));
    }
    // Fields of three cells or more side by side, about a board's cells but no board (a
    // row one cell short, `530070000 ... 40080300 ...`): a damaged puzzle, never text.
    let cellish = |t: &Span| t.1 >= t.0 + 3 && s[t.0..t.1].iter().all(|&b| cells.is_cell(b));
    let width = |run: &[Span]| run.iter().map(|t| t.1 - t.0).sum::<usize>();
    let mut runs = tokens.split(|t| !cellish(t));
    if let Some(run) = runs.find(|run| run.len() > 1 && (60..=100).contains(&width(run))) {
        let (n, k) = (width(run), run.len());
        let message =
            format!("{n} cells in {k} fields, no board: expected 81 in fields of one width");
        return Some((run[0].0, message));
    }
    // A square board larger than any read (36x36 is 1,296 cells).
    let symbols = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'*');
    for &(a, z) in tokens {
        let n = z - a;
        let side = (n as f64).sqrt().round() as usize;
        if side > 25 && side * side == n && n != CELLS * 9 && s[a..z].iter().all(symbols) {
            return Some((a, format!("{n} cells: {}", board::unread(side))));
        }
    }
    for &(a, z) in tokens {
        // Cells then a `:count:solution` suffix: the cells are what must be 81.
        let f = &s[a..z];
        let f = f.iter().position(|&b| b == b':').map_or(f, |i| &f[..i]);
        let (n, good) = (f.len(), f.iter().filter(|&&b| cells.is_cell(b)).count());
        // A run of cells of the wrong length, or about 81 characters nearly all cells.
        return Some(match f.iter().position(|&b| !cells.is_cell(b)) {
            None if n == CELLS * 9 => (a, PENCIL_MARKS.into()),
            None if n % CELLS == 0 && n > CELLS => {
                let k = n / CELLS;
                (
                    a + CELLS,
                    format!("{n} cells, {k} boards' worth back to back: write one a line"),
                )
            }
            None if n == 21 * 21 => {
                let samurai = "441 cells: a samurai board (21x21, five overlapping 9x9 grids), which is not read; give its grids one by one";
                (a, samurai.into())
            }
            None if (CELLS + 1..=200).contains(&n) => {
                (a + CELLS, format!("{n} cells, expected 81"))
            }
            None if (17..=CELLS).contains(&n) => {
                (a + n, format!("line ends after {n} cells, expected 81"))
            }
            Some(i) if (70..=100).contains(&n) && good * 10 >= n * 9 => (a + i, bad_cell(s, a + i)),
            _ => continue,
        });
    }
    None
}

/// `board` with the `count[:solution]` suffix that starts at `start`.
fn with_suffix(board: Board, s: &[u8], start: usize, cells: &Cells) -> Parsed {
    let field_end = |from: usize| {
        let len = memchr::memchr3(b':', b' ', b'\t', &s[from..]);
        len.map_or(s.len(), |n| from + n)
    };
    let end = field_end(start);
    let (mut count, mut from) = (None, start);
    // A field far longer than any count is the solution, read as after `puzzle::`.
    if end - start <= 20 {
        // `puzzle::solution` leaves the count unknown (`solve --solutions` after a
        // stopped search); a lone `puzzle:` is a mistake.
        if end == start && s.get(end) != Some(&b':') {
            return Err((start, "missing count after ':'".into()));
        }
        if let Some(i) = (start..end).find(|&i| !s[i].is_ascii_digit()) {
            let c = char_at(s, i);
            return Err((i, format!("{c:?} in the count is not a digit")));
        }
        if end > start {
            let digits = std::str::from_utf8(&s[start..end]).expect("ASCII digits");
            let too_large = |_| (start, "count is too large".to_string());
            count = Some(digits.parse::<u64>().map_err(too_large)?);
        }
        from = end + usize::from(s.get(end) == Some(&b':'));
    }
    // The solution field (empty: none given).
    let (to, side) = (field_end(from), board.side());
    let (field, want) = (&s[from..to], side * side);
    if side == 9
        && let Some(i) = field.iter().position(|b| !matches!(b, b'1'..=b'9'))
    {
        let c = char_at(s, from + i);
        let message = format!("{c:?} in the solution is not a digit 1-9");
        return Err((from + i, message));
    }
    let solution = match field.len() {
        0 => None,
        n if n != want => return Err((from, format!("solution has {n} cells, expected {want}"))),
        _ if side == 9 => Grid::from_line(field).ok().map(Board::from),
        _ => match cells.chars(field) {
            Ok(g) if g.is_full() => Some(g.into()),
            Ok(_) => return Err((from, "the solution has blank cells".into())),
            Err((i, e)) => return Err((from + i, format!("in the solution: {e}"))),
        },
    };
    // Only other fields (after a space) may follow the solution, not `puzzle:S:2`.
    if s.get(to) == Some(&b':') {
        return Err((to, "a ':' field after the solution".into()));
    }
    Ok(expecting(board, count, solution))
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::board::nine::Grid;
    use crate::format::{Format, read_all};
    use crate::record::Expected;
    use proptest::prelude::*;

    pub(crate) const P: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    pub(crate) const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    fn errors(input: &str) -> Vec<(u64, Option<usize>, String)> {
        let recs = read_all(Format::Line, input.as_bytes());
        let err = |r: &crate::format::RawRecord| r.body.result().clone().unwrap_err();
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
            let puzzle = r.body.result().as_ref().unwrap();
            assert_eq!(
                (puzzle.board.to_line(), puzzle.expected.clone()),
                (P.to_string(), None)
            );
        }
    }

    #[test]
    fn reads_count_and_solution_suffixes() {
        let input = format!(
            "{P}:1:{S}\n{P}:0\n{P}:2:\n{P}:125 note\n{P}:1:{S} x\n{P}::{S}\n{P}::\n{P}:{S}\n"
        );
        let got: Vec<Expected> = read_all(Format::Line, input.as_bytes())
            .into_iter()
            .map(|r| *r.body.result().clone().unwrap().expected.unwrap())
            .collect();
        let sol: Option<crate::board::Board> = Some(S.parse::<Grid>().unwrap().into());
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
                e(1, sol.clone()),
                e(0, None),
                e(2, None),
                e(125, None),
                e(1, sol.clone()),
                unknown(sol.clone()),
                unknown(None),
                unknown(sol.clone()),
            ]
        );
    }

    /// Markup is skipped only where it cannot hide a puzzle: tags alone, few digits. A
    /// puzzle in element text, a broken `data`, a table row, two games on one line and a
    /// cut line are errors; a commented-out game is no record. The same in blocks.
    #[test]
    fn markup_never_hides_a_record() {
        let zeros = P.replace('.', "0");
        let input = format!(
            "<opensudoku version=\"2\">\n<folder name=\"Easy\" created=\"1778054847256\" modified=\"1778054847999\">\n\
             <game data=\"{zeros}\" state=\"0\" />\n\
             <puzzle id=\"1\">{P}</puzzle>\n\
             <game data=\"{}aaa\" />\n\
             <tr><td>{P}</td><td>{S}</td></tr>\n\
             <game data=\"{zeros}\" /><game data=\"{zeros}\" />\n\
             <!-- <game data=\"{zeros}\" /> -->\n\
             <{}>\n\
             </folder>\n",
            &zeros[..78],
            "a".repeat(70_000),
        );
        for mode in [Mode::Eager, Mode::Blocks] {
            let got: Vec<(u64, Option<String>)> = read_in(
                Format::Line,
                input.as_bytes(),
                &Default::default(),
                mode,
                1 << 17,
            )
            .iter()
            .map(|r| (r.line, r.puzzle.clone().err().map(|e| e.message)))
            .collect();
            let error_lines: Vec<u64> = got.iter().filter(|g| g.1.is_some()).map(|g| g.0).collect();
            assert_eq!(got.len(), 6, "{got:?}");
            assert_eq!(error_lines, [4, 5, 6, 7, 9], "{got:?}");
            assert!(
                got[4]
                    .1
                    .as_deref()
                    .unwrap()
                    .starts_with("2 puzzles on one line"),
                "{got:?}"
            );
            assert!(
                got[5].1.as_deref().unwrap().contains("bytes long"),
                "{got:?}"
            );
        }
    }

    #[test]
    fn reports_errors_with_columns() {
        let short = &P[..80];
        let input = format!(
            "{short}\n  12x\n{P}:\n{P}:1x\n{P}:1:{}\n{P}:1:{}0\n{P}:99999999999999999999\n{P}:{P}\n{}\n{P}:{S}:2\n{}\n",
            &S[..80],
            &S[..80],
            "123456789".repeat(81),
            ["123456789"; 81].join(" ")
        );
        let cell = "is not a digit 1-9 or a blank";
        let want = [
            (
                1,
                Some(81),
                "line ends after 80 cells, expected 81".to_string(),
            ),
            (3, Some(83), "missing count after ':'".into()),
            (4, Some(84), "'x' in the count is not a digit".into()),
            (5, Some(85), "solution has 80 cells, expected 81".into()),
            (
                6,
                Some(165),
                "'0' in the solution is not a digit 1-9".into(),
            ),
            (7, Some(83), "count is too large".into()),
            (8, Some(83), "'.' in the solution is not a digit 1-9".into()),
            (9, Some(1), super::PENCIL_MARKS.into()),
            (10, Some(164), "a ':' field after the solution".into()),
            (11, Some(1), super::PENCIL_MARKS.into()),
        ];
        assert_eq!(errors(&input), want);
        let bad_utf8 = errors(&format!("{}\u{e9}{}\n", &P[..60], &P[61..]));
        assert_eq!(bad_utf8[0].2, format!("'é' {cell}"));
        assert_eq!(bad_utf8[0].1, Some(61));
        let mut raw = P.as_bytes().to_vec();
        raw[10] = 0xff;
        let raw = read_all(Format::Line, &raw);
        assert_eq!(
            raw[0].body.result().clone().unwrap_err().message,
            format!("'\u{FFFD}' {cell}")
        );
        // A line far from a puzzle is skipped; one with a puzzle's run of cells is not.
        let junk = read_all(
            Format::Line,
            format!("{P}\n  12x\n\u{ff}\n<td>{P}</td><td>{P}</td>\n").as_bytes(),
        );
        let message = junk[1].body.result().clone().unwrap_err().message;
        assert_eq!(
            (junk.len(), message.as_str()),
            (2, "a run of 81 cells, but no puzzle in this line")
        );
    }

    #[test]
    fn long_line_is_an_error_and_reading_goes_on() {
        let mut input = P.repeat(2500).into_bytes();
        input.extend_from_slice(format!("\r\n{P}\r\n").as_bytes());
        let recs = read_all(Format::Line, &input);
        let msg = recs[0].body.result().clone().unwrap_err().message;
        assert_eq!(msg, "line is 202500 bytes long, longer than 65536");
        assert_eq!((recs[1].number, recs[1].line), (2, 2));
        assert!(recs[1].body.result().is_ok());
        assert!(read_all(Format::Line, b"").is_empty());
    }

    proptest! {
        #[test]
        fn lines_round_trip(cells in proptest::collection::vec(proptest::sample::select(b"123456789.0".to_vec()), 81)) {
            let s = String::from_utf8(cells).unwrap();
            let recs = read_all(Format::Line, s.as_bytes());
            let grid = recs[0].body.result().as_ref().unwrap().board.clone();
            prop_assert_eq!(grid.to_line(), s.replace('0', "."));
            let again = read_all(Format::Line, grid.to_line().as_bytes());
            prop_assert_eq!(&again[0].body.result().as_ref().unwrap().board, &grid);
        }
    }

    #[test]
    fn a_line_end_ends_the_input_as_in_poj() {
        let input = format!("{P}\n  end \n{P}\n");
        assert_eq!(read_all(Format::Line, input.as_bytes()).len(), 1);
    }

    /// How a test reads: parsed by the reader, or in blocks of lines.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Mode {
        Eager,
        Blocks,
    }

    /// Every record of `input` read in `mode` through a buffer of `capacity` bytes,
    /// blocks split and numbered as the runner does.
    fn read_in(
        format: Format,
        input: &[u8],
        layout: &crate::format::Layout,
        mode: Mode,
        capacity: usize,
    ) -> Vec<crate::record::Record> {
        let layout = crate::format::Layout {
            blocks: mode == Mode::Blocks,
            ..layout.clone()
        };
        let mut reader = format.reader(std::io::BufReader::with_capacity(capacity, input), &layout);
        let source: crate::record::SourceName = "-".into();
        std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap()))
            .flat_map(|raw| match raw.body {
                crate::format::Body::Lines(block) => {
                    let mut items = block.items(&source);
                    let before = block.records_before(items.len());
                    items.iter_mut().map(|i| i.take_record(before)).collect()
                }
                body => {
                    let item = crate::format::Item {
                        source,
                        number: raw.number,
                        line: raw.line,
                        body,
                    };
                    vec![item.into_record()]
                }
            })
            .collect()
    }

    /// A line of one of the kinds files hold: puzzles with and without answers, blanks,
    /// comments, junk, near misses.
    fn any_line() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[1-9.0]{81}",
            1 => "[1-9.]{81}:[0-3]:[1-9]{81}",
            1 => "[1-9.]{81}:[0-3]:[1-9.]{0,81}",
            1 => "[1-9.]{81},[1-9]{81}",
            1 => "[1-9.]{80,82}",
            1 => "[1-9.x ]{75,90}",
            1 => "#[a-z ]{0,20}",
            1 => Just(String::new()),
            1 => "[a-z]{1,10}",
            1 => "<[a-z]{1,8}( [a-z]{1,5}=\"[0-9]{1,3}\")?/?>",
            1 => "<game data=\"[0-9]{80,82}\" />",
            1 => "[1-9.]{81}:[1-9]{81}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Blocks of lines split and numbered by the runner give exactly the records the
        /// reader would have given, whatever the buffer holds and the lines end with.
        #[test]
        fn blocks_of_lines_read_what_the_reader_reads(
            lines in proptest::collection::vec(any_line(), 1400..1600),
            ending in 0..3usize,
            capacity in prop_oneof![Just(64usize), 100..400usize, Just(4096), Just(64 * 1024)],
        ) {
            let (sep, cr_only) = [("\n", false), ("\r\n", false), ("\r", true)][ending];
            let text = lines.join(sep) + if ending == 2 { "" } else { sep };
            let layout = crate::format::Layout { cr_only, ..Default::default() };
            for format in [Format::Line, Format::Poj] {
                let eager = read_in(format, text.as_bytes(), &layout, Mode::Eager, capacity);
                let blocks = read_in(format, text.as_bytes(), &layout, Mode::Blocks, capacity);
                prop_assert_eq!(&eager, &blocks);
            }
        }
    }

    /// A block weighs at least what its bytes would make as 81-cell lines: the runner
    /// sizes chunks by weight, and long lines counted one each held half a gigabyte.
    #[test]
    fn a_block_of_long_lines_weighs_its_bytes() {
        let mut text = format!("{P}\n").repeat(1100);
        text.push_str(&format!("{}\n", "x".repeat(65_000)).repeat(3));
        let layout = crate::format::Layout {
            blocks: true,
            ..Default::default()
        };
        let mut reader = Format::Line.reader(
            std::io::BufReader::with_capacity(256 * 1024, text.as_bytes()),
            &layout,
        );
        let weights: Vec<usize> = std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap()))
            .filter_map(|r| match r.body {
                crate::format::Body::Lines(b) => Some(b.weight()),
                _ => None,
            })
            .collect();
        assert!(
            weights.iter().sum::<usize>() >= 3 * 65_000 / 82,
            "{weights:?}"
        );
    }

    /// Past the head: an `end` line still ends the input, lines that only hold `end`
    /// are records, and a line longer than `MAX_LINE` is one error.
    #[test]
    fn blocks_of_lines_keep_end_and_long_lines() {
        let mut text = format!("{P}\n").repeat(1500);
        text.push_str("endless\n# the end\n");
        text.push_str(&"1".repeat(70_000));
        text.push_str("\r\n");
        text.push_str(&format!("{P}\r\n").repeat(20));
        text.push_str(" end \n");
        text.push_str(&format!("{P}\n").repeat(5));
        for capacity in [64, 4096, 64 * 1024, 256 * 1024] {
            let layout = Default::default();
            let eager = read_in(
                Format::Line,
                text.as_bytes(),
                &layout,
                Mode::Eager,
                capacity,
            );
            let blocks = read_in(
                Format::Line,
                text.as_bytes(),
                &layout,
                Mode::Blocks,
                capacity,
            );
            assert_eq!(eager, blocks, "capacity {capacity}");
            // `endless` holds no puzzle: skipped, as in the reader.
            assert_eq!(blocks.len(), 1500 + 1 + 20);
            let long = blocks[1500].puzzle.clone().unwrap_err().message;
            assert_eq!(long, "line is 70000 bytes long, longer than 65536");
            assert_eq!(blocks.last().unwrap().number, 1521);
        }
    }

    #[test]
    fn blocks_start_after_the_head_with_any_cells() {
        let text = format!("{P}\n").repeat(1100);
        for blanks in ["", "?"] {
            let layout = crate::format::Layout {
                blocks: true,
                cells: crate::format::Cells::with_blanks(blanks).unwrap(),
                ..Default::default()
            };
            let mut reader = Format::Line.reader(text.as_bytes(), &layout);
            let blocks: Vec<bool> = std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap()))
                .map(|r| matches!(r.body, crate::format::Body::Lines(_)))
                .collect();
            let head = super::PARSED_HEAD as usize;
            assert!(blocks[..head].iter().all(|&b| !b) && blocks[head..].iter().all(|&b| b));
            let eager = read_in(Format::Line, text.as_bytes(), &layout, Mode::Eager, 4096);
            let split = read_in(Format::Line, text.as_bytes(), &layout, Mode::Blocks, 4096);
            assert_eq!(eager, split);
        }
    }

    #[test]
    fn a_file_failing_in_its_head_is_parsed_to_the_end() {
        // Mostly junk: the loader must count its errors to say the file looks misread.
        let text = format!("{P}\n{}\n{}\n", &P[..80], &P[..79]).repeat(600);
        let layout = crate::format::Layout {
            blocks: true,
            ..Default::default()
        };
        let mut reader = Format::Line.reader(text.as_bytes(), &layout);
        let bodies: Vec<_> =
            std::iter::from_fn(|| reader.next_record().map(|r| r.unwrap().body)).collect();
        assert_eq!(bodies.len(), 1800);
        assert!(
            bodies
                .iter()
                .all(|b| matches!(b, crate::format::Body::Parsed(_)))
        );
    }
}
