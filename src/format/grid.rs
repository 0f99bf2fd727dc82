//! The `grid` format: N rows of N cells a board, drawn any way people draw them (see
//! `GRAMMAR`). Text is skipped and ends a board it cuts short (one error; the next grid
//! reads). Back-to-back grids are resynchronized when one has conflicting givens and a
//! shifted reading gives clean grids (a missing or extra row).

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::cells::Cells;
use super::lines::{Line, Lines, trim};
use super::{Body, Notes, RawRecord, RecordReader, bad_cell};
use crate::board::nine::Grid;
use crate::board::{self, Board, Square};
use crate::record::{ParseError, Puzzle};

/// One line, as the grid reader sees it.
#[derive(Clone, Debug)]
pub(crate) enum LineKind {
    /// A board's row, or why the line is a broken one.
    Row(Result<Row, ParseError>),
    /// A blank line or a `===` line: between bands or between boards.
    Separator,
    /// Borders only (`-----+-----`, `╟───┼───╢`, `],`): ignored, even between rows.
    Border,
    /// Text: skipped; a board it cuts short is an error.
    Header,
    /// A damaged board on one line: a record of its own.
    Board(ParseError),
    /// Empty comma fields alone (`,,,,,,,,`, a spreadsheet's empty row), this many commas:
    /// a row of blanks or a break (see [`GridReader::take`]).
    Empty(usize),
    Comment,
}

/// A row of a board: its values (every 9x9 row, and numbers such as `12 0 3 ...`), or
/// one-character cells (`chars`) whose alphabet is decided for the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    chars: bool,
    cells: Vec<u8>,
    /// It followed a label (`A 5 3 _ ...`, `Row 1: ...`), dropped.
    labelled: bool,
    /// Its blanks are spaces (`| 1 |   |`, `4   7 3  `).
    spaced: bool,
}

impl Row {
    pub(crate) fn of(chars: bool, cells: Vec<u8>) -> Row {
        Row {
            chars,
            cells,
            labelled: false,
            spaced: false,
        }
    }

    fn spaced(chars: bool, cells: Vec<u8>) -> Row {
        Row {
            spaced: true,
            ..Row::of(chars, cells)
        }
    }
}

/// How a file writes its rows, decided once for the file from its sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowStyle {
    /// Blanks are written `-`, so a row of nine `-` is a row of blanks, not a border.
    pub dash_blanks: bool,
    /// Comma rows start with a label (`ID,c1,...,c9`), not a cell.
    pub label_column: bool,
    /// A line of digits alone before a grid is its title (a score, an id), not a row.
    pub digit_titles: bool,
    /// Boards with rectangular boxes (6x6, 8x8, 10x10, 12x12) are read.
    pub rectangular: bool,
    /// Rows in as many columns as this side, a space a blank (`   26 7 1`; trailing blanks
    /// may be cut): decided from that many such lines in a row ([`space_blank_row`]).
    pub space_blanks: Option<u8>,
    /// A blank line after every row (a double-spaced print): blank lines part no board.
    pub double_spaced: bool,
}

/// A row of at most `side` columns of symbols and spaces (blanks), padded to `side`: values
/// (4 to 9: digits), or characters with `.` blanks (16, 25: an alphabet decided later).
pub(crate) fn space_blank_row(raw: &[u8], side: u8) -> Option<Row> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    // A row of spaces only, as wide as the board (inside a board: see `next_kind`).
    let spaces = raw.len() == usize::from(side) && raw.iter().all(|&b| b == b' ');
    // Spaces past the last column are no blanks (`    7   3 `).
    let raw = raw
        .get(usize::from(side)..)
        .map_or(raw, |_| raw.trim_ascii_end());
    // A row of `0` blanks and no space is one too (`500000000` above `4   7 3  `).
    let low = match raw.len() == usize::from(side) && !raw.contains(&b' ') {
        true => b'0',
        false => b'1',
    };
    let chars = side > 9;
    let symbol = |b: &u8| match chars {
        true => b.is_ascii_alphanumeric(),
        false => (low..=b'0' + side).contains(b),
    };
    let ok = raw.len() <= usize::from(side)
        && raw.iter().all(|b| *b == b' ' || symbol(b))
        && (raw.iter().any(symbol) || spaces);
    ok.then(|| {
        let mut row: Vec<u8> = match chars {
            true => raw
                .iter()
                .map(|&b| if b == b' ' { b'.' } else { b })
                .collect(),
            false => raw.iter().map(|&b| b.saturating_sub(b'0')).collect(),
        };
        row.resize(usize::from(side), if chars { b'.' } else { 0 });
        Row::spaced(chars, row)
    })
}

/// Why a board of rectangular boxes is no board of this size: a box conflict, and
/// givens that fit boxes of another shape (12x12 in 2x6 where 3x4 is read).
fn other_boxes(board: &Board) -> Option<String> {
    let Board::Other(square) = board else {
        return None;
    };
    let (shape, side) = (square.shape(), square.side());
    let conflict = (square.find_conflict())
        .filter(|c| shape.rows != shape.cols && matches!(c.unit, board::Unit::Box(_)))?;
    // Whether two givens share a value in a box of `rows` x `cols` cells.
    let clash = |rows: usize, cols: usize| {
        let mut seen = vec![false; side * side];
        let mut givens = square.cells().iter().enumerate().filter(|c| *c.1 != 0);
        givens.any(|(i, &v)| {
            let b = (i / side / rows) * (side / cols) + i % side / cols;
            std::mem::replace(&mut seen[b * side + usize::from(v) - 1], true)
        })
    };
    let (rows, cols) = (2..side / 2 + 1)
        .filter(|&r| side % r == 0 && r != shape.rows)
        .map(|r| (r, side / r))
        .find(|&(r, c)| !clash(r, c))?;
    Some(format!(
        "{conflict}, and no row or column repeats a value: its givens fit boxes of {rows}x{cols}; {side}x{side} boards are read in boxes of {}x{} only",
        shape.rows, shape.cols
    ))
}

/// The content of an XML element on one line (`<row>000700000</row>`).
fn element(t: &[u8]) -> &[u8] {
    // Every row but an XML one is no scan.
    if let [b'<', .., b'>'] = t
        && let Some(open) = t.iter().position(|&b| b == b'>')
        && let Some(close) = t.windows(2).rposition(|w| w == b"</")
        && open < close
    {
        return trim(&t[open + 1..close]);
    }
    t
}

/// A row without the brackets and quotes around it and a separator after them
/// (`[5, 3, 0, ...],`, `'53..7....',`, `{{0, 0, ...},`, Prolog's `[_,_,3,_]].`).
fn unwrap(t: &[u8]) -> &[u8] {
    // Past the bracket that closes a row's first, a label (numpy's `[0 4 ... 0]]22`);
    // never another row (`[5, 3, ...], [6, 0, ...]`).
    let mut depth = 0;
    let close = t.iter().position(|b| {
        depth += i32::from(b"[{".contains(b)) - i32::from(b"]}".contains(b));
        depth == 0
    });
    let t = match close {
        Some(i)
            if b"[{".contains(&t[0])
                && t[..i].iter().filter(|b| b.is_ascii_digit()).count() > 3
                && !t[i..].iter().any(|b| b"[{".contains(b)) =>
        {
            &t[..=i]
        }
        _ => t,
    };
    let wrap = |b: &u8| matches!(b, b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'\'' | b'"');
    let end = match t {
        [.., b, b',' | b';' | b'.'] if wrap(b) => t.len() - 1,
        _ => t.len(),
    };
    let t = &t[..end];
    let start = t.iter().position(|b| !wrap(b)).unwrap_or(t.len());
    let end = t.iter().rposition(|b| !wrap(b)).map_or(start, |i| i + 1);
    trim(&t[start..end])
}

/// The fields of a row split by `d`, each unwrapped; beside `d`, a `|` is a box's edge
/// (`-,-,-|8,-,5`), parting fields, never one; `|` parting them, one at each end is a frame
/// where the fields inside make a board's side (else blanks: `|12|||10|...|14|`).
fn fields(t: &[u8], d: u8) -> impl Iterator<Item = &[u8]> {
    let framed = d == b'|'
        && matches!(t, [b'|', .., b'|'])
        && board::Shape::of_side(memchr::memchr_iter(b'|', t).count() - 1).is_some();
    let t = if framed { &t[1..t.len() - 1] } else { t };
    t.split(move |&b| b == d)
        .flat_map(move |f| {
            let bars = d != b'|' && f.contains(&b'|');
            (f.split(move |&b| bars && b == b'|')).filter(move |p| !bars || !trim(p).is_empty())
        })
        .map(|f| unwrap(trim(f)))
}

/// A row of a board other than 9x9: a side's number tokens, or one-character cells.
fn wide_row(t: &[u8], rectangular: bool, cells: &Cells) -> Option<Row> {
    // Rectangular sides only where the file holds them: else 8 cells are a broken 9x9 row.
    let width = |n: usize| {
        board::Shape::of_side(n).is_some_and(|s| n != 9 && (s.rows == s.cols || rectangular))
    };
    let mut tokens: Vec<&[u8]> = match strict(t, cells) {
        Some(d) => fields(t, d).collect(),
        None => t
            .split(|b| matches!(b, b' ' | b'\t' | b';' | b'|'))
            .filter(|t| !t.is_empty())
            .collect(),
    };
    // A trailing comma, unless the empty field is a 9x9 row's last (blank) cell.
    if tokens.last() == Some(&&b""[..]) && width(tokens.len() - 1) && tokens.len() != 9 {
        tokens.pop();
    }
    for t in tokens.iter_mut().filter(|t| t.is_empty()) {
        *t = &b"."[..];
    }
    // `.` or `..` (a blank as wide as a two-digit number), `_`, `-`, `*`, `x` alike.
    let blank = |t: &[u8]| matches!(t, [b, ..] if !b.is_ascii_digit() && cells.value(*b) == Some(0) && t.len() <= 2 && t.iter().all(|c| c == b));
    let number = |t: &&[u8]| blank(t) || (t.len() <= 2 && t.iter().all(u8::is_ascii_digit));
    // A `0` beside another blank is a value (`x 0 15`: numbers 0-15): no number row.
    let some_number = tokens.iter().any(|t| !blank(t))
        && !(tokens.iter().any(|t| blank(t)) && tokens.iter().any(|t| t == b"0"));
    // A number past 9 makes it no broken 9x9 row (unless its characters make nine
    // cells: `0 9 0 8 2 4 50 0`), so rectangular sides read too.
    let past_nine = tokens.iter().any(|t| t.len() == 2 && !blank(t))
        && tokens.iter().map(|t| t.len()).sum::<usize>() != 9;
    let width = |n| width(n) || (past_nine && n != 9 && board::Shape::of_side(n).is_some());
    if width(tokens.len()) && tokens.len() > 1 && tokens.iter().all(number) && some_number {
        let value = |t: &&[u8]| match blank(t) {
            true => 0,
            false => t.iter().fold(0u8, |v, d| v * 10 + (d - b'0')),
        };
        return Some(Row::of(false, tokens.iter().map(value).collect()));
    }
    let chars: Vec<u8> = tokens.concat();
    // Together, one a token, or in groups of one length (`ABCD EFGH IJKL MNOP`).
    let one_run = tokens.iter().all(|t| t.len() == tokens[0].len());
    let cellish =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*' | b'+');
    // Below 16 no lowercase, and capitals only from 10x10 (`Easy`, `SUDOKU`: titles);
    // blanks (`x`) are cells at every size, but blanks alone with a letter among them
    // are a rule (`x x x x`, `XXXX`).
    let letters = cells.alphabet(chars.len()) == Some(board::Alphabet::Letters);
    let small = |b: &u8| {
        cells.value(*b) == Some(0)
            || (letters && b.is_ascii_alphabetic())
            || !b.is_ascii_lowercase() && (chars.len() >= 10 || !b.is_ascii_alphabetic())
    };
    let given = chars.iter().any(|b| cells.value(*b) != Some(0));
    let small_ok = (chars.len() >= 16 || chars.iter().all(small))
        && (given || !chars.iter().any(u8::is_ascii_alphabetic));
    let some_cell = chars.iter().any(|b| !b"-+_*".contains(b));
    let cells_ok =
        chars.iter().all(cellish) && small_ok && some_cell && !super::is_word(&chars, cells);
    (one_run && width(chars.len()) && cells_ok).then(|| Row::of(true, chars))
}

/// The separator of a row whose every field counts, an empty one a blank: `,`, or `;`
/// between single cells (`;;7;6;;;8;;9`; `12.;...;..9` is three groups of cells), or
/// a [`marked`] row's mark.
fn strict(t: &[u8], cells: &Cells) -> Option<u8> {
    if t.contains(&b',') {
        return Some(b',');
    }
    if t.contains(&b';') && fields(t, b';').all(|f| f.len() <= 1) {
        return Some(b';');
    }
    // `|` between a row's cells, a board's side of them, none over two wide, no space, an
    // empty field a blank (`1|||2|3|...`, `|5|||4||6|||1|`); in other counts, `||` is a
    // box's edge (`5|3|.||.|7|.`).
    let fields = || fields(t, b'|');
    (t.contains(&b'|')
        && !t.iter().any(u8::is_ascii_whitespace)
        && fields().any(<[u8]>::is_empty)
        && board::Shape::of_side(fields().count()).is_some()
        && fields().all(|f| f.len() <= 2))
    .then_some(b'|')
    .or_else(|| marked(t, cells))
}

/// One mark between each two cells, a board's side of them (`0.0.0.7.0.0.5.0.6`): 17
/// characters are no row of cells, 9 are (never 5 cells apart). Not a frame (`-+-+-`,
/// `.-.-.`: `-`, `=`, `_`, `+` and `|` draw them) nor column numbers (`1.2.3.4.5.6.7.8.9`,
/// which would shift the board).
fn marked(t: &[u8], cells: &Cells) -> Option<u8> {
    let [_, d, ..] = *t else { return None };
    let (cells_at, marks_at) = (t.iter().step_by(2), t.iter().skip(1).step_by(2));
    let side = t.len().div_ceil(2);
    (d.is_ascii_punctuation()
        && !b"-=_+|".contains(&d)
        && t.len() % 2 == 1
        && crate::board::Shape::of_side(side).is_some()
        && { marks_at }.all(|&b| b == d)
        && cells_at.clone().all(|&b| b != d && cells.is_cell(b))
        && !cells_at
            .map(|&b| cells.value(b))
            .eq((1..=side as u8).map(Some)))
    .then_some(d)
}

/// Sections of a saved game that hold its state, not a puzzle (SadMan's `.sdk` files):
/// skipped to the next section.
const STATE_SECTIONS: &str = "state pencilmarks colours colors candidates";

/// The most lines of empty fields kept for a board to take as rows (see
/// [`GridReader::blank_rows`], which tries every choice among them).
const MAX_EMPTIES: usize = 10;

/// Whether a line of `commas` empty fields is a row of a board of `side` (a comma after the
/// last field or not).
fn fits(commas: usize, side: usize) -> bool {
    commas + 1 == side || commas == side
}

/// The longest line of digits read as a title where each grid follows one (`digit_titles`).
const MAX_TITLE: usize = 32;

/// Reads boards: the `grid` format, or (with HDU 1426's token rows) `hdu`.
pub(crate) struct GridReader<R> {
    lines: Lines<R>,
    cells: Cells,
    style: RowStyle,
    /// HDU 1426's token rows: "case" in messages, no title, header or resynchronizing.
    pub(super) hdu: Option<fn(&Line<'_>, &Cells) -> LineKind>,
    at: State,
}

/// Where a [`GridReader`] stands.
#[derive(Default)]
struct State {
    number: u64,
    notes: Notes,
    /// Lines read ahead, handled before new ones.
    pending: VecDeque<(u64, LineKind)>,
    /// The board being read: each row's line and cells.
    rows: Vec<(u64, Result<Row, ParseError>)>,
    /// Whether a complete board had a separator between its bands (`None`: no board yet).
    banded: Option<bool>,
    banded_now: bool,
    /// No separator or header came since the last board (back to back with the next),
    /// and a header did (a blank line inside this board is between its bands).
    joined: bool,
    headed: bool,
    /// Spacer rows were dropped from the board being read.
    spacers: bool,
    /// Lines of empty fields in or right before the board being read: the row they would
    /// be, their line, their commas.
    empties: Vec<(usize, u64, usize)>,
    /// The last line not blank was a title (`digit_titles`): digits next are a row.
    titled: bool,
    /// In a saved game's section of no puzzle (see [`STATE_SECTIONS`]).
    in_state: bool,
    /// A line naming answers came since the last record: the next board is an answer
    /// (`Some(false)`: only if it keeps the last puzzle's givens, after `SOLVED`, which
    /// may be a remark on that puzzle).
    answer_next: Option<bool>,
    /// The last record, held until the next shows whether it is its answer.
    held: Option<RawRecord>,
    queue: VecDeque<RawRecord>,
}

impl<R: BufRead> GridReader<R> {
    pub fn new(lines: Lines<R>, cells: Cells, style: RowStyle) -> GridReader<R> {
        GridReader {
            lines,
            cells,
            style,
            hdu: None,
            at: State::default(),
        }
    }

    /// The first row of the board being read, if it is one.
    fn first(&self) -> Option<&Row> {
        self.at.rows.first().and_then(|r| r.1.as_ref().ok())
    }

    /// The side of the board being read: its first row's width.
    fn side(&self) -> usize {
        self.first().map_or(9, |r| r.cells.len())
    }

    /// The next line's kind, the read-ahead first; text is counted as skipped here, once.
    fn next_kind(&mut self) -> io::Result<Option<(u64, LineKind)>> {
        if let Some(k) = self.at.pending.pop_front() {
            return Ok(Some(k));
        }
        let board = self.first().map(|r| (r.chars, r.cells.len()));
        let at = &mut self.at;
        let Some(line) = self.lines.next_line()? else {
            return Ok(None);
        };
        let t = trim(line.bytes);
        if let [b'[', name @ .., b']'] = t {
            let name = String::from_utf8_lossy(name).to_ascii_lowercase();
            at.in_state = STATE_SECTIONS.split(' ').any(|s| s == name);
        }
        if at.in_state {
            at.notes.skipped.add(1, line.number, t);
            return Ok(Some((line.number, LineKind::Header)));
        }
        // A row of blanks only inside a board: `--------` where its cells are characters
        // together, blanks apart where they are numbers (`* * * *`; `****` there is a line).
        let mut blanks = t.to_vec();
        blanks.retain(|b| !matches!(b, b' ' | b'\t' | b','));
        // A letter blank (`x`) too, where the file writes them.
        let blank = |chars: bool, b: &u8| match chars {
            true => {
                matches!(b, b'-' | b'.' | b'+')
                    || (b.is_ascii_alphabetic() && self.cells.value(*b) == Some(0))
            }
            false => !matches!(b, b'0' | b'-' | b'+') && self.cells.value(*b) == Some(0),
        };
        let apart = t.len() > blanks.len();
        let blank_row = board
            .filter(|&(chars, n)| {
                n == blanks.len() && (chars || apart) && blanks.iter().all(|b| blank(chars, b))
            })
            .map(|(chars, n)| Row::of(chars, vec![if chars { b'.' } else { 0 }; n]));
        // At a board's start, digits alone shorter than a row (padded, no space in them)
        // are a title or a count (`1`), not a row cut short (`812      ` is a row).
        let space_row = (self.style.space_blanks)
            .and_then(|side| space_blank_row(line.bytes, side))
            .filter(|row| {
                !at.rows.is_empty()
                    || (!t.is_empty() && (line.bytes.contains(&b' ') || !row.cells.contains(&0)))
            });
        if let Some(row) = line.too_long().map(Err).or(space_row.or(blank_row).map(Ok)) {
            return Ok(Some((line.number, LineKind::Row(row))));
        }
        // Digits too short for a row (a separator after them or an element around them
        // aside: `16;`, `<size>9</size>`): a title or a count; with `digit_titles`, any
        // before a board.
        let d = element(t);
        let d = d.strip_suffix(b";").or(d.strip_suffix(b",")).unwrap_or(d);
        let digits = !d.is_empty() && d.iter().all(u8::is_ascii_digit);
        let title = (digits
            && d.len() < 9
            && self.hdu.is_none()
            && wide_row(d, self.style.rectangular, &self.cells).is_none())
            || (digits
                && self.style.digit_titles
                && !at.titled
                && at.rows.is_empty()
                && t.len() <= MAX_TITLE);
        if !t.is_empty() {
            at.titled = title;
        }
        // Between boards, one to three blanks (`...`: "and so on") or numbers (a box size
        // `2 3`, an end `-1`) are text, shorter than any row, and so is a size with its
        // box's (`2x3`, `12,3,4;`); in one, a damaged row.
        let cells: Vec<&u8> = t.iter().filter(|b| !b.is_ascii_whitespace()).collect();
        let number = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b',');
        // Sizes parsed as bytes: no product of two overflows (`4294967296x4294967296`).
        let sized = || {
            let words = d.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty());
            let sizes: Option<Vec<usize>> = (words.flat_map(|w| w.split(|b| b",;x".contains(b))))
                .map(|w| Some(std::str::from_utf8(w).ok()?.parse::<u8>().ok()?.into()))
                .collect();
            match sizes.as_deref() {
                Some(&[r, c]) => board::Shape::of_side(r * c).is_some(),
                Some(&[n, r, c]) => n == r * c && board::Shape::of_side(n).is_some(),
                _ => false,
            }
        };
        let text = at.rows.is_empty()
            && (sized()
                || ((1..4).contains(&cells.len())
                    && (cells.iter().all(|&&b| self.cells.value(b) == Some(0))
                        || (cells.iter().all(|&b| number(b))
                            && cells.iter().any(|b| b.is_ascii_digit())))));
        let kind = match (title || text, self.hdu) {
            (true, _) => LineKind::Header,
            (false, Some(hdu)) => hdu(&line, &self.cells),
            (false, None) => classify(&line, &self.cells, &mut self.style),
        };
        if let LineKind::Header = kind {
            at.notes.skipped.add(1, line.number, t);
            let solved = t.eq_ignore_ascii_case(b"solved") || t.eq_ignore_ascii_case(b"solved:");
            if self.hdu.is_none() && (solved || super::names_answers(t)) {
                at.answer_next = Some(!solved || at.answer_next == Some(true));
            }
        }
        Ok(Some((line.number, kind)))
    }

    /// A record for the rows read, short of the side; a lone short row of digits was a title.
    fn broken(&mut self) -> io::Result<()> {
        if self.spacers(false) && self.at.rows.is_empty() {
            self.at.spacers = false;
            return Ok(());
        }
        let n = self.at.rows.len();
        let taken = self.blank_rows();
        let (chars, side) = (self.first().is_some_and(|r| r.chars), self.side());
        for &(i, at) in taken.iter().flatten() {
            let row = Row::of(chars, vec![if chars { b'.' } else { 0 }; side]);
            self.at.rows.insert(at, (self.at.empties[i].1, Ok(row)));
        }
        for &(i, _) in taken.iter().flatten().rev() {
            self.at.empties.remove(i);
        }
        // Those left after its last row stand right before the next board.
        let (after, before): (Vec<_>, Vec<_>) = std::mem::take(&mut self.at.empties)
            .into_iter()
            .partition(|e| n > 0 && e.0 == n);
        self.at.empties = before;
        let done = match taken {
            Some(_) => self.complete(),
            None => self.short(),
        };
        self.at
            .empties
            .extend(after.into_iter().map(|e| (0, e.1, e.2)));
        done
    }

    /// The record of a board that ends short (or a title, a setting: skipped).
    fn short(&mut self) -> io::Result<()> {
        self.drop_empties();
        let (side, rows) = (self.side(), std::mem::take(&mut self.at.rows));
        self.at.spacers = false;
        // Or a labelled one (`Digits: 1..9` in a YAML file; at any size the symbols in
        // order, `symbols: ["1", ..., "9"]`): a setting, no board.
        let symbols = |r: &Row| (r.cells.iter().zip(1..)).all(|(&c, i)| c == i || c == b'0' + i);
        if let [(n, Ok(row))] = &rows[..]
            && (side < 9 || (row.labelled && symbols(row)))
            && (row.labelled || (row.chars && row.cells.iter().all(u8::is_ascii_digit)))
        {
            let symbol = |&v: &u8| board::Alphabet::DigitsThenLetters.symbol(v);
            let text: Vec<u8> = match row.chars {
                true => row.cells.clone(),
                false => row.cells.iter().map(symbol).collect(),
            };
            self.at.notes.skipped.add(1, *n, &text);
            return Ok(());
        }
        let (n, first) = (rows.len(), rows[0].0);
        let message = match (self.hdu.is_some(), side) {
            (true, _) => format!("case ends after {n} lines, expected 9"),
            (false, 9) => format!("grid ends after {n} rows, expected 9"),
            _ => format!("a {side}x{side} board ends after {n} rows, expected {side}"),
        };
        let e = rows.iter().find_map(|(_, r)| r.clone().err());
        self.record(first, Err(e.unwrap_or(ParseError::new(first, message))));
        Ok(())
    }

    /// The lines of empty fields in or right before the board that are its rows of
    /// blanks, each with its place: as many as it lacks rows, such that every other stands
    /// where a band ends (a break). `None` where no choice, or choices making two boards, fit.
    fn blank_rows(&self) -> Option<Vec<(usize, usize)>> {
        let side = self.side();
        let lack = side.checked_sub(self.at.rows.len())?;
        let band = board::Shape::of_side(side).map_or(3, |s| s.rows);
        let fits: Vec<(usize, usize)> = (self.at.empties.iter().enumerate())
            .filter(|(_, e)| fits(e.2, side))
            .map(|(i, e)| (i, e.0))
            .collect();
        if self.at.rows.is_empty() || lack == 0 {
            return None;
        }
        let mut choices = (0..1u32 << fits.len())
            .filter(|m| m.count_ones() as usize == lack)
            .filter_map(|m| {
                let mut taken = Vec::new();
                for (j, &(i, at)) in fits.iter().enumerate() {
                    let at = at + taken.len();
                    match m >> j & 1 {
                        1 => taken.push((i, at)),
                        _ if at % band != 0 => return None,
                        _ => {}
                    }
                }
                Some(taken)
            });
        let taken = choices.next()?;
        let places = |t: &[(usize, usize)]| t.iter().map(|p| p.1).collect::<Vec<_>>();
        choices
            .all(|c| places(&c) == places(&taken))
            .then_some(taken)
    }

    /// Lines of empty fields no board took: skipped, counted.
    fn drop_empties(&mut self) {
        let empties = std::mem::take(&mut self.at.empties);
        if let Some(&(_, line, commas)) = empties.first() {
            let text = ",".repeat(commas);
            (self.at.notes.skipped).add(empties.len() as u64, line, text.as_bytes());
        }
    }

    /// Queues a record (numbered in turn), or joins it to the puzzle before it as its
    /// answer when a line naming answers came between them.
    fn record(&mut self, line: u64, body: Result<Puzzle, ParseError>) {
        let at = &mut self.at;
        (at.joined, at.headed, at.banded_now) = (true, false, false);
        let mut r = RawRecord {
            number: 0,
            line,
            body: Body::Parsed(body),
        };
        if let Some(named) = at.answer_next.take() {
            if (at.held.as_mut()).is_some_and(|h| super::solutions_follow::join(h, &r)) {
                return;
            }
            let puzzle = |r: &RawRecord| match &r.body {
                Body::Parsed(Ok(p)) => Some(p.board.to_square().cells().to_vec()),
                _ => None,
            };
            // Blanks, and the values of a fifth of the puzzle's givens or more, none other:
            // a part of its answer.
            let held = at.held.as_ref().and_then(puzzle);
            let partial = held.zip(puzzle(&r)).is_some_and(|(p, q)| {
                let both = p.iter().zip(&q).filter(|c| *c.0 != 0 && *c.1 != 0);
                let clues = p.iter().filter(|&&v| v != 0).count();
                p.len() == q.len()
                    && q.contains(&0)
                    && 5 * both.clone().count() >= clues
                    && both.into_iter().all(|(a, b)| a == b)
            });
            let message = match partial {
                true => "an answer (after a line naming answers) with blank cells",
                false => "an answer (after a line naming answers) with no puzzle right before it",
            };
            if partial || named {
                r.body = Body::Parsed(Err(ParseError::new(line, message)));
            }
        }
        at.queue.extend(at.held.replace(r));
    }

    /// Rows of spaces between bars in a board that writes no blank as a space are a
    /// drawing's spacers (`|       |       |       |`), not rows of blanks: dropped;
    /// whether there were.
    fn spacers(&mut self, complete: bool) -> bool {
        let spaced = |r: &Row, blank: bool| r.spaced && r.cells.iter().all(|&v| v == 0) == blank;
        let rows = &mut self.at.rows;
        let spacer = |r: &Result<Row, ParseError>| r.as_ref().is_ok_and(|r| spaced(r, true));
        let n = rows.iter().filter(|r| spacer(&r.1)).count();
        // The one that completes a board with none dropped before is its last row.
        let last = n == 1 && rows.last().is_some_and(|r| spacer(&r.1)) && !self.at.spacers;
        if rows.iter().flat_map(|r| &r.1).any(|r| spaced(r, false)) || n == 0 || (complete && last)
        {
            return false;
        }
        rows.retain(|(_, r)| !spacer(r));
        self.at.spacers = true;
        true
    }

    /// The record of a board, all its rows read.
    fn complete(&mut self) -> io::Result<()> {
        self.drop_empties();
        let (side, rows) = (self.side(), std::mem::take(&mut self.at.rows));
        self.at.spacers = false;
        let first = rows[0].0;
        let chars = matches!(rows[0].1, Ok(Row { chars: true, .. }));
        let board = self.board_of(&rows);
        // The board's symbols in order above its rows (`0123456789ABCDEF`) make a
        // conflict and the next row none: that line is skipped, the rows after it read again.
        if let Ok(r) = &rows[0].1
            && board::Alphabet::ALL.iter().any(|a| {
                let value = |b: u8| if r.chars { a.value(b, side) } else { Some(b) };
                (r.cells.iter().zip(1..)).all(|(&b, v)| value(b) == Some(v))
            })
            && board.as_ref().is_ok_and(Board::has_conflict)
            && let Some(next) = self.next_kind()?
        {
            let mut shifted = rows[1..].to_vec();
            if let (n, LineKind::Row(row)) = &next {
                shifted.push((*n, row.clone()));
            }
            self.at.pending.push_front(next);
            if self.board_of(&shifted).is_ok_and(|b| !b.has_conflict()) {
                // The board's header: explained, as its rows are (a reading that takes it
                // for a row explains no more).
                self.at.notes.explained += 1;
                let text = r.cells.iter().map(|&b| if r.chars { b } else { b'0' + b });
                let text: Vec<u8> = text.collect();
                self.at.notes.skipped.add(1, first, &text);
                let back = shifted[..side - 1].iter();
                let back = back.map(|(n, r)| (*n, LineKind::Row(r.clone())));
                self.at.pending = back.chain(std::mem::take(&mut self.at.pending)).collect();
                return Ok(());
            }
        }
        self.at.banded = Some(self.at.banded == Some(true) || self.at.banded_now);
        let body = if let Some(message) = board.as_ref().ok().and_then(other_boxes) {
            // Explained, so that detection says so rather than another reading's damage.
            self.at.notes.explained += side as u64;
            Err(ParseError::new(first, message))
        } else if board.as_ref().is_ok_and(Board::has_conflict)
            && side == 9
            && !chars
            && self.at.joined
            && self.hdu.is_none()
            && let Some(shift) = self.resync(&rows)?
        {
            let message = format!(
                "grid ends after {shift} rows, expected 9 (the rows after it read as whole grids)"
            );
            Err(ParseError::new(first, message))
        } else {
            board.map(Puzzle::new)
        };
        self.at.notes.explained += side as u64 * u64::from(body.is_ok());
        self.record(first, body);
        Ok(())
    }

    /// The board `rows` make, or the first error among them.
    fn board_of(&self, rows: &[(u64, Result<Row, ParseError>)]) -> Result<Board, ParseError> {
        let (first, side) = (rows[0].0, rows.len());
        let chars = matches!(rows[0].1, Ok(Row { chars: true, .. }));
        let values = rows.iter().map(|(_, r)| r.clone().map(|r| r.cells));
        values
            .collect::<Result<Vec<_>, _>>()
            .and_then(|v| match chars {
                true => (self.cells.chars(&v.concat()).map(Board::from))
                    .map_err(|(i, e)| ParseError::new(first + (i / side) as u64, e)),
                false => (Square::new(v.concat()).map(Board::from))
                    .map_err(|e| ParseError::new(first, e.to_string())),
            })
    }

    /// Back-to-back grids, one with conflicting givens: if starting the next grid `shift`
    /// rows into this one gives two plausible grids (no conflict, one solution) and the
    /// reading as it is does not, the rows from `shift` on are read again.
    fn resync(&mut self, rows: &[(u64, Result<Row, ParseError>)]) -> io::Result<Option<usize>> {
        use crate::solver::{DlxStatic, Limits, Solver};
        fn nine(kind: &LineKind) -> Option<&[u8]> {
            match kind {
                LineKind::Row(Ok(r)) if r.cells.len() == 9 && !r.chars => Some(&r.cells),
                _ => None,
            }
        }
        let mut ahead: Vec<(u64, LineKind)> = Vec::new();
        while ahead.len() < 18
            && ahead.last().is_none_or(|(_, k)| nine(k).is_some())
            && let Some(next) = self.next_kind()?
        {
            ahead.push(next);
        }
        // The board's rows are all 9x9 rows of numbers (no other is resynchronized).
        let board = rows.iter().flat_map(|(_, r)| r).map(|r| &r.cells[..]);
        let cells: Vec<&[u8]> = board
            .chain(ahead.iter().map_while(|(_, k)| nine(k)))
            .collect();
        let mut solver = Box::<DlxStatic>::default();
        let limits = Limits {
            max_nodes: 100_000,
            ..Limits::default() // two solutions at most
        };
        let mut good = |from: usize| {
            let grid = (cells.get(from..from + 9))
                .and_then(|c| Grid::from_cells(c.concat().try_into().ok()?).ok());
            let grid = grid.filter(|g| g.find_conflict().is_none());
            grid.map(|g| solver.solve(&g, &limits))
                .is_some_and(|out| out.solutions == 1 && !out.budget_exceeded)
        };
        let shift = match cells.len() >= 18 && good(9) {
            true => None,
            false => (1..9).find(|&d| good(d) && (cells.len() < d + 18 || good(d + 9))),
        };
        let back = rows[shift.unwrap_or(rows.len())..].iter();
        let back = back.map(|(n, r)| (*n, LineKind::Row(r.clone())));
        let pending = std::mem::take(&mut self.at.pending);
        self.at.pending = back.chain(ahead).chain(pending).collect();
        Ok(shift)
    }

    /// Single digits are characters too: a row of them (`0 5 1 0 ...`) joins a board of
    /// characters (`0 1 4 B ...`), and one of characters makes those before it characters.
    fn one_kind(&mut self, row: &mut Result<Row, ParseError>) {
        let digits = |r: &Row| !r.chars && r.cells.iter().all(|&v| v <= 9);
        let to_chars = |r: &mut Row| {
            r.chars = true;
            r.cells.iter_mut().for_each(|v| *v += b'0');
        };
        let Ok(r) = row else { return };
        let width = self.first().map(|f| (f.chars, f.cells.len()));
        let rows = &mut self.at.rows;
        if width == Some((true, r.cells.len())) && digits(r) {
            to_chars(r);
        } else if r.chars
            && width == Some((false, r.cells.len()))
            && rows.iter().all(|x| x.1.as_ref().is_ok_and(digits))
        {
            rows.iter_mut().flat_map(|(_, r)| r).for_each(to_chars);
        }
    }

    /// Takes one line into the board being read.
    fn take(&mut self, line: u64, kind: LineKind) -> io::Result<()> {
        let at = &mut self.at;
        match kind {
            LineKind::Comment => {}
            LineKind::Row(mut row) => {
                // Lines of empty fields right before it, as many as the board lacks rows:
                // the board ends there (see `broken`), and this row starts the next.
                let n = self.at.rows.len();
                let run = (self.at.empties.iter().rev()).take_while(|e| e.0 == n);
                if n > 0 && run.count() >= self.side().saturating_sub(n) {
                    self.at.pending.push_front((line, LineKind::Row(row)));
                    return self.broken();
                }
                self.one_kind(&mut row);
                let (chars, side) = (self.first().is_some_and(|r| r.chars), self.side());
                // Column numbers over labelled rows (`  1 2 3 ...`, `A 5 3 _ ...`): a header.
                if let (Ok(r), [(n, Ok(first))]) = (&row, &self.at.rows[..])
                    && r.labelled
                    && !first.labelled
                    && first.cells.iter().copied().eq(1..=first.cells.len() as u8)
                {
                    self.at.notes.skipped.add(1, *n, b"column numbers");
                    self.at.rows.clear();
                }
                // A row of another kind or width than the first ends the board (read
                // again); of its kind and one cell too few or too many, it is damaged.
                if let Ok(r) = &row
                    && (r.chars, r.cells.len()) != (chars, side)
                    && !self.at.rows.is_empty()
                {
                    if r.chars != chars || r.cells.len().abs_diff(side) != 1 {
                        self.at.pending.push_front((line, LineKind::Row(row)));
                        return self.broken();
                    }
                    let message = format!("row has {} cells, expected {side}", r.cells.len());
                    row = Err(ParseError::new(line, message));
                }
                self.at.rows.push((line, row));
                if self.at.rows.len() == self.side() && !self.spacers(true) {
                    self.complete()?;
                }
            }
            LineKind::Border => at.joined &= !at.rows.is_empty(),
            LineKind::Separator if at.rows.is_empty() => at.joined = false,
            // Between bands, unless earlier boards had separators only between boards.
            LineKind::Separator => {
                let band = board::Shape::of_side(self.side()).map_or(3, |s| s.rows);
                match self.style.double_spaced
                    || (self.at.rows.len().is_multiple_of(band)
                        && (self.at.banded != Some(false) || self.at.headed))
                {
                    true => self.at.banded_now = true,
                    false => self.broken()?,
                }
            }
            // Kept as a row of blanks the board may lack (see `broken`); one of another
            // width is a break.
            LineKind::Empty(commas) => {
                let side = self.side();
                if !self.at.rows.is_empty() && !fits(commas, side) {
                    self.broken()?;
                }
                self.at.joined &= !self.at.rows.is_empty();
                // The last few only: a board's choice among them is tried every way.
                if self.at.empties.len() == MAX_EMPTIES {
                    let (_, first, commas) = self.at.empties.remove(0);
                    (self.at.notes.skipped).add(1, first, ",".repeat(commas).as_bytes());
                }
                self.at.empties.push((self.at.rows.len(), line, commas));
            }
            LineKind::Header | LineKind::Board(_) => {
                if !at.rows.is_empty() {
                    self.broken()?;
                }
                self.drop_empties();
                match kind {
                    LineKind::Board(e) => self.record(line, Err(e)),
                    _ => (self.at.joined, self.at.headed) = (false, true),
                }
            }
        }
        Ok(())
    }
}

impl<R: BufRead + Send> RecordReader for GridReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        loop {
            if let Some(mut r) = self.at.queue.pop_front() {
                self.at.number += 1;
                r.number = self.at.number;
                return Some(Ok(r));
            }
            let next = self.next_kind();
            match next.and_then(|k| k.map(|(line, kind)| self.take(line, kind)).transpose()) {
                Ok(Some(())) => {}
                Ok(None) if !self.at.rows.is_empty() => {
                    if let Err(e) = self.broken() {
                        return Some(Err(e));
                    }
                }
                Ok(None) => {
                    self.drop_empties();
                    self.at.queue.push_back(self.at.held.take()?)
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }

    fn notes(&mut self) -> &mut Notes {
        self.at.notes.dash_blanks = self.style.dash_blanks;
        &mut self.at.notes
    }
}

/// What a line is in the `grid` format: a row may follow a label (`A 5 3 _ ...`,
/// `Row 1: 5 3 ...`) where the whole line is no row.
fn classify(line: &Line<'_>, cells: &Cells, style: &mut RowStyle) -> LineKind {
    // Box-drawing bars are `|` (`│87 │  1│4  │`: Simple Sudoku's rows drawn so).
    const BARS: [char; 3] = ['│', '┃', '║'];
    let drawn = (line.bytes.contains(&0xE2))
        .then(|| String::from_utf8_lossy(line.bytes))
        .filter(|text| text.contains(BARS))
        .map(|text| text.replace(BARS, "|"));
    match super::word_blanks(line.bytes).or(drawn.map(|d| Ok(d.into_bytes()))) {
        Some(Ok(ref bytes)) => return classify(&Line { bytes, ..*line }, cells, style),
        Some(Err(e)) => return LineKind::Row(Err(ParseError::new(line.number, e))),
        None => {}
    }
    let kind = classify_cells(line, cells, style);
    let label = row_label(line.bytes).filter(|_| !matches!(kind, LineKind::Row(Ok(_))));
    let Some((at, letter)) = label else {
        return kind;
    };
    let (bytes, mut trial) = (&line.bytes[at..], *style);
    match classify_cells(&Line { bytes, ..*line }, cells, &mut trial) {
        // A letter alone labels a 9x9 row of values only, and is no cell itself (`x 5 3
        // ...` is a damaged row; in wider boards letters are cells).
        LineKind::Row(Ok(mut row))
            if letter.is_none_or(|b| !row.chars && row.cells.len() == 9 && !cells.is_cell(b)) =>
        {
            // A comment is no row (`# 1:  3 7 2 ...`, an answer commented out): skipped as
            // text, so the note counts it.
            if let LineKind::Comment = kind {
                return LineKind::Header;
            }
            (*style, row.labelled) = (trial, true);
            LineKind::Row(Ok(row))
        }
        _ => kind,
    }
}

/// Where the cells start after a row's label, and the label when it is a letter alone
/// (`A`, a coordinate): a letter, a word and a number of one or two digits (`Row 1`,
/// `r1`; not `A 5`: a letter and a cell), a number before nine cells or more written
/// together (`1 ___|___|___`), or anything up to a `:` (`1:`); then a space, `|`, `:`, `)` or `.`
/// (dots with one of the others).
fn row_label(t: &[u8]) -> Option<(usize, Option<u8>)> {
    let run = |t: &[u8], f: fn(&u8) -> bool| t.iter().take_while(|b| f(b)).count();
    let lead = run(t, u8::is_ascii_whitespace);
    let rest = &t[lead..];
    let word = run(rest, u8::is_ascii_alphabetic);
    let spaces = run(&rest[word..], |&b| b == b' ');
    let number = run(&rest[word + spaces..], u8::is_ascii_digit);
    let numbered = (1..=2).contains(&number) && (word >= 2 || (word == 1 && spaces == 0));
    // Cells together, nine or more (a smaller row might be a damaged one: `2 4561`).
    let cells = trim(&rest[number..]);
    let together = cells.len() >= 9 && !cells.iter().any(u8::is_ascii_whitespace);
    let label = match word {
        _ if numbered => word + spaces + number,
        0 if (1..=2).contains(&number) && rest.get(number) == Some(&b' ') && together => number,
        1 => 1,
        _ => memchr::memchr(b':', rest).filter(|&i| i > 0 && i <= 12)?,
    };
    // A dot ends a label before a space only (`A. 5 3`); dots are blanks (`B . . 1`,
    // `AT17.6..`).
    let dot = usize::from(rest[label..].starts_with(b". "));
    let after = dot + run(&rest[label + dot..], |b| b" \t|:)".contains(b));
    let letter = (word == 1 && !numbered).then_some(rest[0]);
    (after > 0 && label + after < rest.len()).then_some((lead + label + after, letter))
}

/// What a line is, read as a row from its first character.
fn classify_cells(line: &Line<'_>, cells: &Cells, style: &mut RowStyle) -> LineKind {
    let t = trim(line.bytes);
    if t.is_empty() || t.starts_with(b"```") || t.starts_with(b"~~~") {
        return LineKind::Separator; // a Markdown code fence around a grid is a blank line
    }
    if super::line::is_comment(t, cells) {
        return LineKind::Comment;
    }
    // A board's row may end with a label (`... 16 .  #3` after its last row), where `#`
    // is no blank (`--blanks '#'`).
    let unlabelled = (t.windows(2))
        .position(|w| w[0].is_ascii_whitespace() && w[1] == b'#' && !cells.is_extra_blank(b'#'))
        .map_or(t, |i| trim(&t[..i]));
    if let Some(row) = boxed_row(line.bytes, cells) {
        return LineKind::Row(Ok(row));
    }
    // A YAML list's item (`- [5, 3, 0, ...]`): the marker is no cell.
    let item = unlabelled
        .strip_prefix(b"- ")
        .filter(|t| t.first() == Some(&b'['));
    let inner = unwrap(element(item.unwrap_or(unlabelled)));
    // A `;` ends comma rows in some files (`5,3,-,-,7,-,-,-,-;`).
    let inner = match inner {
        [row @ .., b';'] if row.contains(&b',') => row,
        _ => inner,
    };
    let cell = |b: &u8| b.is_ascii_alphanumeric() || cells.is_cell(*b) || *b >= 0x80;
    if let Some(row) = piped_row(inner, cells) {
        return LineKind::Row(Ok(row));
    }
    if inner.iter().all(|b| b" \t,".contains(b))
        && let commas @ 3.. = inner.iter().filter(|&&b| b == b',').count()
    {
        return LineKind::Empty(commas);
    }
    if !inner.iter().any(cell) {
        return LineKind::Border; // `[`, `],`, `]);`, `,`
    }
    if let Some(row) = wide_row(inner, style.rectangular, cells) {
        return LineKind::Row(Ok(row));
    }
    if let Some(d) = strict(inner, cells) {
        return comma_row(line, inner, d, cells, style.label_column);
    }
    // A frame whose corners are one mark (Simple Sudoku's `*-----------*`,
    // `x-------x-------x`): the corners are no blank cells (`|---|---|---|`, `.-.-.-.` are rows).
    if let [c, inside @ .., e] = t
        && c == e
        && !c.is_ascii_digit()
        && !b"|-.".contains(c)
    {
        let rule = |b: &u8| matches!(b, b'-' | b'+' | b'=' | b'|' | b' ') || b == c;
        if inside.iter().filter(|&&b| b == b'-').count() >= 3 && inside.iter().all(rule) {
            return LineKind::Border;
        }
    }
    // A section or title in brackets (`[Puzzle]`, SadMan's files).
    if matches!(t[0], b'[' | b'(' | b'<' | b'{') && inner.iter().any(u8::is_ascii_alphabetic) {
        return LineKind::Header;
    }
    // The cells inside the brackets and quotes (`None` a `-`), placed for columns.
    let (bytes, mut found) = (line.bytes, Vec::with_capacity(9));
    let mut i = inner.as_ptr() as usize - bytes.as_ptr() as usize;
    let end = i + inner.len();
    while i < end {
        match bytes[i] {
            // A box-drawing character (U+2500 to U+257F).
            0xE2 if matches!(bytes.get(i + 1), Some(0x94 | 0x95)) => i += 2,
            // Blanks a user named (`--blanks +`) are cells, never borders.
            b if cells.is_extra_blank(b) => found.push(Some(0)),
            b if b" \t|+=!:[]{}()'\";".contains(&b) => {}
            b'-' => found.push(None),
            b => match cells.value(b) {
                Some(v) => found.push(Some(v)),
                None => {
                    // A line holding a board (81 cells or more together: `0123...ABCDEF...`
                    // after a 16x16 grid, `53..7.... ; hard`) is a damaged record of its
                    // own, never text; else a letter (`ü` too) makes text.
                    let run = |c: &u8| c.is_ascii_alphanumeric() || cells.is_cell(*c);
                    let board = t.split(|c| !run(c)).any(|run| run.len() >= 81);
                    // The blank that would make a row of a board's side: the fix named.
                    let mut sides = (4..=25).filter(|&n| board::Shape::of_side(n).is_some());
                    let hint = sides.find_map(|n| super::blank_hint(t, cells, n, false));
                    let hint = hint.map(|h| format!("; {h}")).unwrap_or_default();
                    let e = ParseError::at(line.number, i + 1, bad_cell(bytes, i) + &hint);
                    return match (board, super::char_at(bytes, i).is_alphabetic()) {
                        (true, _) => LineKind::Board(e),
                        (false, true) => LineKind::Header,
                        (false, false) => LineKind::Row(Err(e)),
                    };
                }
            },
        }
        i += 1;
    }
    let plain = found.iter().flatten().count();
    // Nine dashes are a row of blanks in a file that writes blanks as `-`, unless `+`
    // joins them: `+---+---+---+` is a border there too.
    if plain == 0 && (!(style.dash_blanks && found.len() == 9) || t.contains(&b'+')) {
        // Borders only; a line of `=` separates bands or grids (Norvig's files).
        return match t.iter().all(|&b| matches!(b, b'=' | b' ')) {
            true => LineKind::Separator,
            false => LineKind::Border,
        };
    }
    let keep_dashes = plain != 9 && found.len() == 9;
    style.dash_blanks |= keep_dashes;
    let dash = keep_dashes.then_some(0);
    let row = found.iter().filter_map(|v| v.or(dash)).collect();
    nine(line, row, cells)
}

/// A row drawn as boxes of one width between bars, each as many cells as the board's
/// side over the boxes, a space in a cell's slot (every character, or every second one)
/// a blank (Simple Sudoku's `|   |37 | 81|`, a solver's ` 8 || 7   1 ||`, one box
/// `|     1   2        |`, a 16x16's `|   A   4 |`); `None` where no slot holds a space.
fn boxed_row(raw: &[u8], cells: &Cells) -> Option<Row> {
    // Spaces and tabs outside outer bars: boxes of blanks (`   | 6 |   `), else an indent.
    let barred = |t: &[u8]| t.starts_with(b"|") && t.ends_with(b"|");
    let t = trim(raw);
    let lines = [raw, t].into_iter();
    lines
        .take(1 + usize::from(barred(t) && t.len() < raw.len()))
        .find_map(|line| {
            let mut boxes: Vec<&[u8]> = (line.split(|&b| b == b'|'))
                .filter(|b| !b.is_empty())
                .collect();
            boxed(&boxes, barred(line), cells).or_else(|| {
                // A last box of blanks whose spaces an editor trimmed (`5 4|9  |`).
                boxes.push(b"");
                (!barred(line) && line.ends_with(b"|")).then(|| boxed(&boxes, false, cells))?
            })
        })
}

/// The row `boxes` make (see [`boxed_row`]); `outer`: the row has bars at both ends.
fn boxed(boxes: &[&[u8]], outer: bool, cells: &Cells) -> Option<Row> {
    let (n, w) = (boxes.len(), boxes.first()?.len());
    let cell = |c: &u8| *c == b' ' || cells.is_cell(*c) || c.is_ascii_uppercase();
    // The last may be short: trailing spaces trimmed (`at` pads it).
    let (last, rest) = boxes.split_last()?;
    let widths = rest.iter().all(|b| b.len() == w) && last.len() <= w;
    // Three boxes (9x9), or as many as a row of the board's boxes, or one between bars.
    if !(n == 3 || outer) || !boxes.iter().all(|b| b.iter().all(cell)) || !widths {
        return None;
    }
    let at = |b: &[u8], i: usize| b.get(i).copied().unwrap_or(b' ');
    // The cells of a box (a side's box width, or the side in one box), in slots every
    // character or every second one.
    let shapes = board::Shape::ALL.iter();
    let widths = shapes
        .filter(|s| s.cols * n == s.side() || n == 1)
        .map(|s| s.side() / n);
    let slots = widths.flat_map(|k| [(k, 1, 0), (k, 2, 0), (k, 2, 1)]);
    let slots: Vec<usize> = slots
        .filter(|&(k, step, first)| first + step * (k - 1) < w && w <= first + step * k)
        .map(|(k, step, first)| (0..k).map(|i| first + step * i).collect())
        .find(|slots: &Vec<usize>| {
            (0..w).all(|i| slots.contains(&i) || boxes.iter().all(|b| at(b, i) == b' '))
        })?;
    let row: Vec<u8> = (boxes.iter())
        .flat_map(|b| slots.iter().map(|&i| at(b, i)))
        .collect();
    // Past 9x9, blanks written otherwise (`_ _ 6  |`) leave spaces padding only.
    let written = row.len() != 9
        && row
            .iter()
            .any(|&c| !b" 0".contains(&c) && cells.value(c) == Some(0));
    // A space in a slot the line holds (a trimmed box's padding is no blank written).
    let spaced = boxes
        .iter()
        .any(|b| slots.iter().any(|&i| b.get(i) == Some(&b' ')));
    if !spaced || written {
        return None;
    }
    // Past 9x9 the characters, their alphabet decided for the file (`0` a hex value).
    let chars = row.len() > 9;
    let cell = |c: u8| match c {
        b' ' => Some(if chars { b'.' } else { 0 }),
        _ if chars => Some(c),
        _ => cells.value(c),
    };
    Some(Row::spaced(
        chars,
        row.into_iter().map(cell).collect::<Option<_>>()?,
    ))
}

/// A row of cells between `|` bars (or `:` inside a box), as many as a board's side, where
/// a field of spaces is a blank (`| 1 |   | 4 | ...`, `| | |2|1|`, `| 1 :   |`); empty
/// fields (`||`) are double bars. A row of blanks only has fields of one width, a cell's
/// (`|   |   |   |` spaces boxes apart).
fn piped_row(t: &[u8], cells: &Cells) -> Option<Row> {
    let bar = |&b: &u8| b == b'|' || (b == b':' && !cells.is_cell(b));
    let fields: Vec<&[u8]> = t.split(bar).filter(|f| !f.is_empty()).collect();
    let blanks = fields
        .iter()
        .filter(|f| f.iter().all(|&b| b == b' '))
        .count();
    let cell_wide = |f: &&[u8]| f.len() <= 3 && f.len() == fields[0].len();
    if board::Shape::of_side(fields.len()).is_none()
        || blanks == 0
        || (blanks == fields.len() && !fields.iter().all(cell_wide))
    {
        return None;
    }
    // Past 9x9 the characters, their alphabet decided for the file (`0` a hex value).
    let chars = fields.len() > 9;
    let cell = |f: &&[u8]| match (trim(f), chars) {
        ([], _) => Some(if chars { b'.' } else { 0 }),
        ([b], true) => (b.is_ascii_alphanumeric() || cells.is_cell(*b)).then_some(*b),
        ([b], false) => cells.value(*b),
        _ => None,
    };
    Some(Row::spaced(
        chars,
        fields.iter().map(cell).collect::<Option<_>>()?,
    ))
}

/// The row of nine cells, or why another number is none: naming the variants of that width,
/// or a character that read as a blank would make nine (`--blanks +`).
fn nine(line: &Line<'_>, row: Vec<u8>, cells: &Cells) -> LineKind {
    let n = row.len();
    let message = match n {
        9 => return LineKind::Row(Ok(Row::of(false, row))),
        21 => "row has 21 cells: a samurai board (five overlapping 9x9 grids), which is not read; give its grids one by one".into(),
        27 => "row has 27 cells: three rows on one line, or three 9x9 grids side by side, which is not read; write a row a line".into(),
        15 | 18 | 33 => format!("row has {n} cells: several 9x9 grids side by side, or a variant (samurai, butterfly), which is not read"),
        _ => {
            let hint = super::blank_hint(trim(line.bytes), cells, 9, false).map(|h| format!("; {h}"));
            // A row of nine characters, spaces among its digits and not only between
            // them one by one (`5 0 1 0 2`): spaces were blanks.
            let raw = line.bytes;
            let between = raw.iter().enumerate().all(|(i, &b)| (b == b' ') == (i % 2 == 1));
            let spaced = raw.len() == 9 && !between && raw.iter().all(|&b| b == b' ' || b.is_ascii_digit());
            let hint = hint.or_else(|| spaced.then(|| "; spaces as blanks are not read: write them '.' or '0'".into()));
format!("row has {n} cells, expected 9{}", hint.unwrap_or_default())
        }
    };
    LineKind::Row(Err(ParseError::new(line.number, message)))
}

/// A row of cells split by `d` (see [`strict`]): `7,0,0, 0,0,4, ...` or `5,,,2,...`
/// (empty is blank), after a label where the file's rows start with one.
fn comma_row(line: &Line<'_>, inner: &[u8], d: u8, cells: &Cells, label_column: bool) -> LineKind {
    let mut row = Vec::with_capacity(9);
    let mut fields: Vec<&[u8]> = fields(inner, d).collect();
    if label_column && fields.len() > 1 {
        fields.remove(0);
    }
    if fields.len() == 10 && fields[9].is_empty() {
        fields.pop(); // a trailing comma
    }
    for f in fields {
        match f {
            [] => row.push(0),
            [b] if cells.is_cell(*b) => row.push(cells.value(*b).expect("a cell")),
            cell if cell.iter().any(u8::is_ascii_alphabetic) => return LineKind::Header,
            cell => {
                // Every field is a part of the line: its place there, for the column.
                let at = cell.as_ptr() as usize - line.bytes.as_ptr() as usize;
                let i = at + cell.iter().position(|&b| !cells.is_cell(b)).unwrap_or(0);
                let e = ParseError::at(line.number, i + 1, bad_cell(line.bytes, i));
                return LineKind::Row(Err(e));
            }
        }
    }
    // Numbers grouped in parentheses inside the row (`5, 5, 3, (4, 2), (2, 3)`): tuples.
    if inner.contains(&b'(') {
        let message = "groups in parentheses (`(4, 2)`): tuples, not a row of cells";
        return LineKind::Row(Err(ParseError::new(line.number, message)));
    }
    nine(line, row, cells)
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, RawRecord, read_all};

    /// Finding: a 30x30 row `AT17.6....` was a row after the label `AT17.`, read as a
    /// broken 25x25 board; dots alone end no label.
    #[test]
    fn dots_alone_end_no_label() {
        assert_eq!(super::row_label(b"AT17.6....D.3REC..ON..G2......"), None);
        assert_eq!(super::row_label(b"Row 1. 5 3 0"), Some((7, None)));
        assert_eq!(super::row_label(b"Row 1: 5 3 0"), Some((7, None)));
    }

    const BORDERED: &str = "\
4 . . |. . . |8 . 5
. 3 . |. . . |. . .
. . . |7 . . |. . .
------+------+------
. 2 . |. . . |. 6 .
. . . |. 8 . |4 . .
. . . |. 1 . |. . .
------+------+------
. . . |6 . 3 |. 7 .
5 . . |2 . . |. . .
1 . 4 |. . . |. . .
";
    const TOP95_1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn lines_of(recs: &[RawRecord]) -> Vec<(u64, u64, bool)> {
        recs.iter()
            .map(|r| (r.number, r.line, r.body.result().is_ok()))
            .collect()
    }

    /// Found by the loader fuzz target: a long line of digits, then a short one, after a
    /// header. The long one, taken back as a count once the short one was read, was
    /// reported after it, so record 3 said line 2 after record 2 said line 3.
    #[test]
    fn text_lines_without_a_grid_are_reported_in_line_order() {
        let input = "Puzzle,Solution\n1692458489715263562348197\n49720312\n# end\n";
        let recs = read_all(Format::Grid, input.as_bytes());
        let lines: Vec<(u64, u64)> = recs.iter().map(|r| (r.number, r.line)).collect();
        assert_eq!(lines, [(1, 2)]);
    }

    /// Text between and after grids is skipped and counted wherever it stands (a killer
    /// or jigsaw file's cages and regions too: the note names them), and a long tail of
    /// it is held nowhere.
    #[test]
    fn text_between_and_after_grids_is_skipped_and_counted() {
        let input = format!("Grid 01\n{BORDERED}Grid 02\n{BORDERED}\nABCDEFGHI\n# c\nabc\n");
        let mut reader = Format::Grid.reader(input.as_bytes(), &Default::default());
        let recs: Vec<RawRecord> =
            std::iter::from_fn(|| reader.next_record().map(Result::unwrap)).collect();
        let n = BORDERED.lines().count() as u64;
        assert_eq!(lines_of(&recs), [(1, 2, true), (2, n + 3, true)]);
        let notes = reader.notes();
        assert_eq!(notes.skipped.get(), (4, Some((1, "Grid 01".into()))));
        let tail: String = (1..=2500).map(|i| format!("cage {i}\n")).collect();
        let recs = read_all(Format::Grid, format!("{BORDERED}{tail}").as_bytes());
        assert_eq!(recs.len(), 1);
    }

    /// Red-team findings: Simple Sudoku's `*-----------*` frame (its corners read as
    /// blanks), a `[Puzzle]` section line (SadMan, pzl.org.uk format 3) and, in a file
    /// with `-` blanks, `+---+---+---+` borders (read as rows of blanks) each cost the
    /// puzzle: two errors, or a made-up puzzle and an error.
    #[test]
    fn frames_sections_and_plus_borders_are_no_rows() {
        let rows = [
            "2..1.5..3",
            ".54...71.",
            ".1.2.3.8.",
            "6.28.73.4",
            ".........",
            "1.53.98.6",
            ".2.7.1.6.",
            ".81...24.",
            "7..4.2..1",
        ];
        let framed = |top: &str, mid: &str, dash: bool| {
            let mut out = format!("{top}\n");
            for (i, r) in rows.iter().enumerate() {
                let r = if dash {
                    r.replace('.', "-")
                } else {
                    r.to_string()
                };
                out += &format!("|{}|{}|{}|\n", &r[..3], &r[3..6], &r[6..]);
                if i == 2 || i == 5 {
                    out += &format!("{mid}\n");
                }
            }
            out + top + "\n"
        };
        let cases = [
            framed("*-----------*", "|---+---+---|", false),
            format!("[Puzzle]\n{}\n", rows.join("\n")),
            format!("#3x3\n{}", framed("+---+---+---+", "+---+---+---+", true)),
        ];
        for input in cases {
            let recs = read_all(Format::Grid, input.as_bytes());
            assert_eq!(recs.len(), 1, "{input}");
            let board = &recs[0].body.result().as_ref().unwrap().board;
            assert!(board.nine().is_some(), "{input}");
            assert_eq!(board.clues(), 36, "{input}");
        }
    }

    /// A header of any length before the first grid is skipped, and the grid read.
    #[test]
    fn a_long_header_is_skipped() {
        let header: String = (1..=1200).map(|i| format!("title {i}\n")).collect();
        let input = format!("{header}{BORDERED}\nafter\n{BORDERED}");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 1201, true), (2, 1214, true)]);
    }

    /// A comment after the first row of a 4x4 board: the row is still the board's, not a
    /// count line (it was, and the board was reported cut short at line 3).
    #[test]
    fn a_comment_after_a_first_digit_row_keeps_the_board() {
        for input in ["1234\n# c\n3412\n2143\n4321\n", "1234\n3412\n2143\n4321\n"] {
            let recs = read_all(Format::Grid, input.as_bytes());
            assert_eq!(recs.len(), 1, "{input:?}");
            assert_eq!((recs[0].number, recs[0].line), (1, 1), "{input:?}");
            let board = &recs[0].body.result().as_ref().unwrap().board;
            assert_eq!(board.to_line(), "1234341221434321", "{input:?}");
        }
    }

    #[test]
    fn reads_bordered_grids_with_crlf() {
        let input = format!("# from top95\n\n{BORDERED}\n\n\n{BORDERED}").replace('\n', "\r\n");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 3, true), (2, 17, true)]);
        assert_eq!(
            recs[1].body.result().as_ref().unwrap().board.to_line(),
            TOP95_1
        );
    }

    #[test]
    fn reads_poj_2676_and_euler_layouts() {
        let compact: String = BORDERED
            .lines()
            .filter(|l| !l.starts_with('-'))
            .map(|l| l.replace([' ', '|'], "") + "\n")
            .collect();
        let poj = format!("2\n{0}{0}", compact.replace('.', "0"));
        let recs = read_all(Format::Grid, poj.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 2, true), (2, 11, true)]);
        let euler = format!("Grid 01\n{compact}Grid 02\n{compact}");
        let recs = read_all(Format::Grid, euler.as_bytes());
        assert_eq!(lines_of(&recs), [(1, 2, true), (2, 12, true)]);
    }

    #[test]
    fn reports_bad_rows_and_truncated_grids_then_resyncs() {
        let mut bad = BORDERED.replacen("4 . .", "4 @ .", 1);
        bad = bad.replacen(". 3 . |", ". 3 |", 1);
        let cut: String = BORDERED.lines().take(3).map(|l| format!("{l}\n")).collect();
        let input = format!("{bad}\n{cut}\n{BORDERED}{cut}");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(
            lines_of(&recs),
            [(1, 1, false), (2, 13, false), (3, 17, true), (4, 28, false)]
        );
        let e = |i: usize| recs[i].body.result().clone().unwrap_err();
        assert_eq!((e(0).line, e(0).column), (1, Some(3)));
        assert!(
            e(0).message.starts_with("'@' is not a digit"),
            "{}",
            e(0).message
        );
        assert_eq!(e(1).message, "grid ends after 3 rows, expected 9");
        assert_eq!(e(3).message, "grid ends after 3 rows, expected 9");
        let short = read_all(Format::Grid, b"1234567890\n");
        assert_eq!(
            short[0].body.result().clone().unwrap_err().message,
            "row has 10 cells, expected 9"
        );
        let utf8 = read_all(Format::Grid, b"1234 5678\xff\n");
        let e = utf8[0].body.result().clone().unwrap_err();
        assert!(e.column == Some(10) && e.message.starts_with("'\u{FFFD}' is not"));
        assert!(read_all(Format::Grid, b"").is_empty());
        assert!(read_all(Format::Grid, b"\n\n# x\n").is_empty());
    }
}
