//! The `grid` format: 9 rows of 9 cells a puzzle, drawn any way people draw them.
//!
//! A row is a line with 9 cells once borders (`|`, `+`, `=`, `-`, box-drawing
//! characters) and spacing are dropped; cells may be written together, spaced, or
//! separated by commas (an empty comma field is a blank). Lines of borders and blank
//! lines may separate bands and grids; lines of text (`Grid 01`, a title) and `===`
//! lines start a new grid; a count line at the top (POJ 2676) is skipped.
//!
//! A grid cut short is one error, and the next grid is read correctly: a separator or
//! header inside a grid ends it. Grids back to back with no separator at all are
//! resynchronized when one comes out with conflicting givens and a shifted reading
//! gives clean grids (a missing or extra row).

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::cells::Cells;
use super::lines::{Line, Lines, trim};
use super::{Notes, RawRecord, RecordReader, bad_cell};
use crate::board::nine::Grid;
use crate::board::{self, Square};
use crate::record::{ParseError, Puzzle};

/// One line, as the grid reader sees it.
#[derive(Clone, Debug)]
pub(crate) enum LineKind {
    /// Nine cells, or why the line is a broken row.
    Row(Result<[u8; 9], ParseError>),
    /// A blank line: between bands or between grids.
    Separator,
    /// A line of borders only (`-----+-----`, `╟───┼───╢`): ignored, even between rows.
    Border,
    /// Text or a `===` line: a new grid starts.
    Header,
    Comment,
    /// A row of a board that is not 9x9: 4, 16 or 25 cells.
    Wide(WideRow),
}

/// A row of a board other than 9x9 (4 to 25 cells): numbers (`12 0 3 ...`), or characters whose alphabet
/// is guessed once the whole board is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WideRow {
    numbers: bool,
    cells: Vec<u8>,
}

/// The row of a board other than 9x9 in a line, if it is one: as many number tokens
/// as a board's side, or one-character cells (together, spaced, in groups, or between
/// `|` and `,`).
fn wide_row(t: &[u8], rectangular: bool) -> Option<WideRow> {
    // Rectangular boxes' sides (6, 8, 10, 12) only in a file decided to hold them: in
    // another, a line of 8 cells is a broken 9x9 row.
    let width = |n: usize| {
        board::Shape::of_side(n).is_some_and(|s| n != 9 && (s.rows == s.cols || rectangular))
    };
    // Comma fields all count (an empty one is a blank, as in 9x9 comma rows).
    let tokens: Vec<&[u8]> = match t.contains(&b',') {
        true => {
            let mut fields: Vec<&[u8]> = t.split(|&b| b == b',').map(trim).collect();
            // A trailing comma, unless the empty field is a 9x9 row's last (blank) cell.
            let trailing = fields.last().is_some_and(|f| f.is_empty());
            if trailing && width(fields.len() - 1) && fields.len() != 9 {
                fields.pop();
            }
            fields
        }
        false => t
            .split(|b| matches!(b, b' ' | b'\t' | b';' | b'|'))
            .filter(|t| !t.is_empty())
            .collect(),
    };
    let tokens: Vec<&[u8]> = tokens
        .into_iter()
        .map(|t| if t.is_empty() { &b"."[..] } else { t })
        .collect();
    let blank = |t: &[u8]| matches!(t, b"." | b"_" | b"-" | b"*");
    let number = |t: &&[u8]| blank(t) || (t.len() <= 2 && t.iter().all(u8::is_ascii_digit));
    let some_number = tokens.iter().any(|t| !blank(t));
    if width(tokens.len()) && tokens.len() > 1 && tokens.iter().all(number) && some_number {
        let cells = tokens
            .iter()
            .map(|&t| match blank(t) {
                true => 0,
                false => t.iter().fold(0u8, |v, d| v * 10 + (d - b'0')),
            })
            .collect();
        return Some(WideRow {
            numbers: true,
            cells,
        });
    }
    let cells: Vec<u8> = tokens.concat();
    // Together, one a token, or in groups of one length (`ABCD EFGH IJKL MNOP`).
    let one_run = tokens.iter().all(|t| t.len() == tokens[0].len());
    let cellish =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*' | b'+');
    // A row shorter than 16 has no lowercase letter, and capitals only from 10x10 up
    // (`Easy`, `Puzzle`, `SUDOKU` are titles).
    let small_ok = cells.len() >= 16
        || cells
            .iter()
            .all(|b| !b.is_ascii_lowercase() && (cells.len() >= 10 || !b.is_ascii_alphabetic()));
    let some_cell = cells
        .iter()
        .any(|b| !matches!(b, b'-' | b'+' | b'_' | b'*'));
    (one_run && width(cells.len()) && cells.iter().all(cellish) && small_ok && some_cell).then_some(
        WideRow {
            numbers: false,
            cells,
        },
    )
}

/// Classifies one line; the HDU reader brings its own.
pub(crate) type Classify = fn(&Line<'_>, &Cells, &mut RowStyle) -> LineKind;

/// How a file writes its rows, decided once for the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowStyle {
    /// Blanks are written `-` (learned from the rows as they come).
    pub dash_blanks: bool,
    /// Comma rows start with a label (`ID,c1,...,c9`), not a cell.
    pub label_column: bool,
    /// A line of digits alone before a grid is its title (a score, an id), not a row.
    pub digit_titles: bool,
    /// Boards with rectangular boxes (6x6, 8x8, 10x10, 12x12) are read.
    pub rectangular: bool,
}

/// The longest line of digits read as a grid's title (an id, a score) in a file whose
/// grids each follow one: a row's length included, since the file decides.
const MAX_TITLE: usize = 32;

/// Reads 9-row records: the `grid` format, or (with HDU 1426's token rows) `hdu`.
pub(crate) struct GridReader<R> {
    lines: Lines<R>,
    number: u64,
    cells: Cells,
    classify: Classify,
    /// HDU 1426: "case" and "lines" in messages, no resynchronizing.
    hdu: bool,
    notes: Notes,
    style: RowStyle,
    /// Lines read ahead, handled before new ones.
    pending: VecDeque<(u64, LineKind)>,
    /// The grid being read: each row's line and cells.
    rows: Vec<(u64, Result<[u8; 9], ParseError>)>,
    /// The board of another size being read: its first line and rows.
    wide: Vec<(u64, WideRow)>,
    /// Whether the file's boards of other sizes have gaps between bands (learned from
    /// the first one read), and whether the one being read had one.
    wide_banded: Option<bool>,
    wide_gap: bool,
    /// Complete grids so far, and whether any had a separator between its bands.
    grids: u64,
    banded: bool,
    banded_now: bool,
    /// A separator or header came since the last grid (so grids are not back to back).
    separated: bool,
    /// Text lines before the first grid: a header if a grid follows, parse errors if none.
    maybe_header: Vec<(u64, String)>,
    /// More than `MAX_HELD` text lines came before any grid: they were no header, and
    /// each text line is a record until a grid is read.
    headerless: bool,
    /// Text lines since the last record, after the first: a grid's title if one follows,
    /// parse errors if the file ends first (the cages of a killer file, a region map).
    trailing: Vec<u64>,
    /// Records to hand out before reading on.
    queue: VecDeque<RawRecord>,
    /// The last line that was not blank was a grid's title (`digit_titles`): the next
    /// line of digits is a row, however long.
    titled: bool,
}

impl<R: BufRead> GridReader<R> {
    pub fn new(lines: Lines<R>, cells: Cells, style: RowStyle) -> GridReader<R> {
        let mut reader = GridReader::with_rows(lines, cells, classify, false);
        reader.style = style;
        reader
    }

    pub fn with_rows(
        lines: Lines<R>,
        cells: Cells,
        classify: Classify,
        hdu: bool,
    ) -> GridReader<R> {
        GridReader {
            lines,
            number: 0,
            cells,
            classify,
            hdu,
            notes: Notes::default(),
            style: RowStyle::default(),
            pending: VecDeque::new(),
            rows: Vec::new(),
            wide: Vec::new(),
            wide_banded: None,
            wide_gap: false,
            grids: 0,
            banded: false,
            banded_now: false,
            separated: true,
            maybe_header: Vec::new(),
            headerless: false,
            trailing: Vec::new(),
            queue: VecDeque::new(),
            titled: false,
        }
    }

    /// The next line's kind, from the read-ahead first.
    fn next_kind(&mut self) -> io::Result<Option<(u64, LineKind)>> {
        if let Some(k) = self.pending.pop_front() {
            return Ok(Some(k));
        }
        let Some(line) = self.lines.next_line()? else {
            return Ok(None);
        };
        let (number, mut past_header) = (line.number, false);
        let kind = match line.too_long() {
            Some(e) => LineKind::Row(Err(e)),
            None => {
                let t = trim(line.bytes);
                if let Some((_, first)) = self.wide.first() {
                    // A row of blanks only (`----------------`) inside a board.
                    let blanks = t.iter().filter(|&&b| !matches!(b, b' ' | b'\t' | b','));
                    if !first.numbers
                        && blanks.clone().count() == first.cells.len()
                        && blanks.clone().all(|&b| matches!(b, b'-' | b'.' | b'+'))
                    {
                        let cells = blanks.copied().collect();
                        let row = WideRow {
                            numbers: false,
                            cells,
                        };
                        return Ok(Some((line.number, LineKind::Wide(row))));
                    }
                }
                // Four digits may be a 4x4 row: read as one, and as a count if alone.
                let count_line = !t.is_empty()
                    && t.len() < 9
                    && t.iter().all(u8::is_ascii_digit)
                    && wide_row(t, self.style.rectangular).is_none();
                // In a file whose grids each follow a number (a score, an id), decided
                // per file: a line of digits alone before a grid is its title.
                let digit_title = self.style.digit_titles
                    && !self.titled
                    && self.rows.is_empty()
                    && self.wide.is_empty()
                    && !t.is_empty()
                    && t.len() <= MAX_TITLE
                    && t.iter().all(u8::is_ascii_digit);
                if !t.is_empty() {
                    self.titled = digit_title;
                }
                let top_count = !self.hdu && self.number == 0 && self.rows.is_empty() && count_line;
                let kind = match top_count || digit_title {
                    true => LineKind::Header,
                    false => (self.classify)(&line, &self.cells, &mut self.style),
                };
                if let (LineKind::Header, true) = (&kind, self.rows.is_empty()) {
                    if self.number == 0 {
                        let text: String = String::from_utf8_lossy(t).chars().take(60).collect();
                        self.maybe_header.push((line.number, text));
                        // Memory stays flat on a long text file: past a plausible header,
                        // the lines held are records (a board being read is let finish).
                        past_header = self.maybe_header.len() > MAX_HELD && self.wide.is_empty();
                    } else if self.headerless && self.grids == 0 && self.wide.is_empty() {
                        self.number += 1;
                        self.queue.push_back(no_grid(self.number, line.number));
                    }
                }
                kind
            }
        };
        if past_header {
            self.headerless = true;
            self.held_are_records();
        }
        Ok(Some((number, kind)))
    }

    /// The text lines held as a possible header become records, in line order.
    fn held_are_records(&mut self) {
        for (n, _) in std::mem::take(&mut self.maybe_header) {
            self.number += 1;
            self.queue.push_back(no_grid(self.number, n));
        }
    }

    /// The text lines since the last record become records, in line order.
    fn trailing_are_records(&mut self) {
        for n in std::mem::take(&mut self.trailing) {
            self.number += 1;
            self.queue.push_back(no_grid(self.number, n));
        }
    }

    /// A record for the rows read, which are fewer than 9.
    fn broken(&mut self) -> RawRecord {
        let rows = std::mem::take(&mut self.rows);
        let what = if self.hdu {
            "case ends after"
        } else {
            "grid ends after"
        };
        let unit = if self.hdu { "lines" } else { "rows" };
        let message = format!("{what} {} {unit}, expected 9", rows.len());
        self.record(
            rows[0].0,
            Err(first_error(&rows).unwrap_or_else(|| ParseError::new(rows[0].0, message))),
        )
    }

    fn record(&mut self, line: u64, body: Result<Puzzle, ParseError>) -> RawRecord {
        // A record: the text lines before it were a header (or its title) after all.
        for (n, text) in std::mem::take(&mut self.maybe_header) {
            self.notes.header(n, text.as_bytes());
        }
        self.trailing.clear();
        self.number += 1;
        self.separated = false;
        self.banded_now = false;
        RawRecord {
            number: self.number,
            line,
            body: body.into(),
        }
    }

    /// A board of another size cut short.
    fn wide_broken(&mut self) -> RawRecord {
        self.wide_gap = false;
        let rows = std::mem::take(&mut self.wide);
        let (first, width) = (rows[0].0, rows[0].1.cells.len());
        let message = format!(
            "a {width}x{width} board ends after {} rows, expected {width}",
            rows.len()
        );
        self.record(first, Err(ParseError::new(first, message)))
    }

    /// The record of a board of another size, all its rows read.
    fn wide_complete(&mut self) -> RawRecord {
        self.wide_banded.get_or_insert(self.wide_gap);
        self.wide_gap = false;
        let rows = std::mem::take(&mut self.wide);
        let first = rows[0].0;
        let numbers = rows[0].1.numbers;
        let cells: Vec<u8> = rows.into_iter().flat_map(|(_, r)| r.cells).collect();
        let board = match numbers {
            true => Square::new(cells).map_err(|e| ParseError::new(first, e.to_string())),
            false => self.cells.chars(&cells).map_err(|(i, e)| {
                let side = board::Shape::of_cells(cells.len()).map_or(1, board::Shape::side);
                ParseError::new(first + (i / side) as u64, e)
            }),
        };
        self.grids += 1;
        self.record(first, board.map(Puzzle::new))
    }

    /// The record of 9 rows read.
    fn complete(&mut self) -> io::Result<RawRecord> {
        let rows = std::mem::take(&mut self.rows);
        self.grids += 1;
        self.banded |= self.banded_now;
        let first = rows[0].0;
        if let Some(e) = first_error(&rows) {
            return Ok(self.record(first, Err(e)));
        }
        let grid = assemble(&rows);
        if grid.find_conflict().is_some() && !self.separated && !self.hdu {
            if let Some(shift) = self.resync(&rows)? {
                let message = format!(
                    "grid ends after {shift} rows, expected 9 (the rows after it read as whole grids)"
                );
                return Ok(self.record(first, Err(ParseError::new(first, message))));
            }
        }
        Ok(self.record(first, Ok(Puzzle::new(grid))))
    }

    /// Back-to-back grids, one with conflicting givens: looks whether starting the next
    /// grid `shift` rows into this one gives two plausible grids (conflict-free, with
    /// one solution) while the reading as it is does not. If so, the rows from `shift` on
    /// are read again. A grid of genuinely conflicting givens followed by good grids
    /// keeps its reading.
    fn resync(&mut self, rows: &[(u64, Result<[u8; 9], ParseError>)]) -> io::Result<Option<usize>> {
        let mut ahead: Vec<(u64, LineKind)> = Vec::new();
        while ahead.len() < 18 {
            match self.next_kind()? {
                Some((n, LineKind::Row(Ok(r)))) => ahead.push((n, LineKind::Row(Ok(r)))),
                Some(other) => {
                    ahead.push(other);
                    break;
                }
                None => break,
            }
        }
        let cells: Vec<[u8; 9]> = rows
            .iter()
            .map(|r| *r.1.as_ref().expect("checked"))
            .chain(ahead.iter().map_while(|(_, k)| match k {
                LineKind::Row(Ok(r)) => Some(*r),
                _ => None,
            }))
            .collect();
        let mut checker = Plausible::default();
        let mut good = |from: usize| {
            cells.len() >= from + 9 && checker.check(&grid_of(&cells[from..from + 9]))
        };
        let as_read_goes_on = cells.len() >= 18 && good(9);
        let shift = match as_read_goes_on {
            true => None,
            false => (1..9).find(|&d| good(d) && (cells.len() < d + 18 || good(d + 9))),
        };
        let back: Vec<(u64, LineKind)> = match shift {
            Some(d) => rows[d..]
                .iter()
                .map(|(n, r)| (*n, LineKind::Row(r.clone())))
                .chain(ahead)
                .collect(),
            None => ahead,
        };
        for item in back.into_iter().rev() {
            self.pending.push_front(item);
        }
        Ok(shift)
    }
}

/// Whether rows make a real puzzle: no conflict and exactly one solution (rows of two
/// different puzzles put together have none or many). Used only to resynchronize.
#[derive(Default)]
struct Plausible {
    solver: Option<Box<crate::solver::DlxStatic>>,
}

impl Plausible {
    fn check(&mut self, grid: &Grid) -> bool {
        use crate::solver::{Limits, Solver};
        if grid.find_conflict().is_some() {
            return false;
        }
        let solver = self.solver.get_or_insert_with(Default::default);
        let limits = Limits {
            max_solutions: 2,
            max_nodes: 100_000,
            ..Limits::default()
        };
        let out = solver.solve(grid, &limits);
        out.solutions == 1 && !out.budget_exceeded
    }
}

impl<R: BufRead + Send> RecordReader for GridReader<R> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        loop {
            if let Some(r) = self.queue.pop_front() {
                return Some(Ok(r));
            }
            let (line, kind) = match self.next_kind() {
                Ok(Some(k)) => k,
                Ok(None) if !self.wide.is_empty() => return Some(Ok(self.wide_broken())),
                Ok(None) if !self.rows.is_empty() => return Some(Ok(self.broken())),
                Ok(None) => {
                    // No grid at all: the text lines were no header but the content.
                    self.held_are_records();
                    // Text after the last grid titles nothing: it is no puzzle.
                    self.trailing_are_records();
                    match self.queue.pop_front() {
                        Some(r) => return Some(Ok(r)),
                        None => return None,
                    }
                }
                Err(e) => return Some(Err(e)),
            };
            if let [(n, first)] = &self.wide[..] {
                // A lone line of four digits at the top was a count (`1000`), not a row.
                let count = !first.numbers && first.cells.iter().all(u8::is_ascii_digit);
                // A comment may sit inside a board (below): it says nothing yet.
                let ends = !matches!(kind, LineKind::Wide(_) | LineKind::Comment);
                if count && self.number == 0 && ends {
                    let text = String::from_utf8_lossy(&first.cells).into_owned();
                    // In line order: the current line may already be there.
                    let at = self.maybe_header.partition_point(|(m, _)| m < n);
                    self.maybe_header.insert(at, (*n, text));
                    self.wide.clear();
                }
            }
            // A blank line or a border between bands of a board being read, in a file
            // whose first such board had them (or none yet): in a file without them, a
            // blank line ends a board that lost a band, which is then an error.
            if let Some((_, first)) = self.wide.first() {
                let n = board::Shape::of_side(first.cells.len()).map_or(1, |s| s.rows);
                let between_bands = self.wide.len() % n == 0;
                let gap = matches!(kind, LineKind::Separator | LineKind::Border);
                if between_bands && gap && self.wide_banded != Some(false) {
                    self.wide_gap = true;
                    continue;
                }
            }
            if !self.wide.is_empty() && !matches!(kind, LineKind::Wide(_) | LineKind::Comment) {
                // A board of another size ends early: the line is read again after it.
                self.pending.push_front((line, kind));
                return Some(Ok(self.wide_broken()));
            }
            match kind {
                LineKind::Comment => {}
                LineKind::Wide(row) => {
                    if !self.rows.is_empty() {
                        self.pending.push_front((line, LineKind::Wide(row)));
                        return Some(Ok(self.broken()));
                    }
                    let same = self.wide.first().is_none_or(|(_, f)| {
                        f.numbers == row.numbers && f.cells.len() == row.cells.len()
                    });
                    if !same {
                        self.pending.push_front((line, LineKind::Wide(row)));
                        return Some(Ok(self.wide_broken()));
                    }
                    let width = row.cells.len();
                    self.wide.push((line, row));
                    if self.wide.len() == width {
                        return Some(Ok(self.wide_complete()));
                    }
                }
                LineKind::Border => self.separated |= self.rows.is_empty(),
                LineKind::Row(row) => {
                    self.rows.push((line, row));
                    if self.rows.len() == 9 {
                        return Some(self.complete());
                    }
                }
                LineKind::Separator => match self.rows.len() {
                    0 => self.separated = true,
                    // Between bands, unless earlier grids showed that this file's
                    // separators come only between grids.
                    3 | 6 if self.grids == 0 || self.banded => self.banded_now = true,
                    _ => return Some(Ok(self.broken())),
                },
                LineKind::Header => {
                    if !self.rows.is_empty() {
                        self.pending.push_front((line, LineKind::Header));
                        return Some(Ok(self.broken()));
                    }
                    self.separated = true;
                    // (Unless this line is a record already: text before any grid in a
                    // file that has no header.)
                    let queued = self.queue.back().is_some_and(|r| r.line == line);
                    if self.number > 0 && !queued {
                        self.trailing.push(line);
                        // Flat memory: that many lines title no grid.
                        if self.trailing.len() > MAX_HELD {
                            self.trailing_are_records();
                        }
                    }
                }
            }
        }
    }

    fn notes(&mut self) -> &mut Notes {
        self.notes.dash_blanks = self.style.dash_blanks;
        &mut self.notes
    }
}

/// Text lines held before the first grid as a possible header, at most: more are no
/// header, and they are reported as records as they come.
const MAX_HELD: usize = 1000;

/// The record of a text line where a grid was expected.
fn no_grid(number: u64, line: u64) -> RawRecord {
    RawRecord {
        number,
        line,
        body: Err(ParseError::new(line, "no puzzle grid here")).into(),
    }
}

fn first_error(rows: &[(u64, Result<[u8; 9], ParseError>)]) -> Option<ParseError> {
    rows.iter().find_map(|(_, r)| r.as_ref().err().cloned())
}

fn assemble(rows: &[(u64, Result<[u8; 9], ParseError>)]) -> Grid {
    let cells: Vec<[u8; 9]> = rows
        .iter()
        .map(|r| *r.1.as_ref().expect("no errors"))
        .collect();
    grid_of(&cells)
}

fn grid_of(rows: &[[u8; 9]]) -> Grid {
    let mut cells = [0u8; 81];
    for (r, row) in rows.iter().enumerate() {
        cells[r * 9..r * 9 + 9].copy_from_slice(row);
    }
    Grid::from_cells(cells).expect("cells are 0-9")
}

/// True for a box-drawing character (U+2500 to U+257F) starting at `i`.
fn box_drawing(bytes: &[u8], i: usize) -> bool {
    bytes[i] == 0xE2 && matches!(bytes.get(i + 1), Some(0x94 | 0x95))
}

/// What a line is in the `grid` format.
fn classify(line: &Line<'_>, cells: &Cells, style: &mut RowStyle) -> LineKind {
    let t = trim(line.bytes);
    if t.is_empty() {
        return LineKind::Separator;
    }
    if super::line::is_comment(t) {
        return LineKind::Comment;
    }
    // A Markdown code fence (```, ~~~, ```text) around a grid: a blank line.
    if t.starts_with(b"```") || t.starts_with(b"~~~") {
        return LineKind::Separator;
    }
    // A board's row may end with a label (`... 16 .  #3` after its last row).
    let unlabelled = t
        .windows(2)
        .position(|w| w[0].is_ascii_whitespace() && w[1] == b'#')
        .map_or(t, |i| trim(&t[..i]));
    if let Some(row) = wide_row(unlabelled, style.rectangular) {
        return LineKind::Wide(row);
    }
    if t.contains(&b',') {
        return comma_row(line, cells, style.label_column);
    }
    // Simple Sudoku's `*-----------*` frame: the corners are no blank cells.
    if let [b'*', inside @ .., b'*'] = t {
        let rule = |b: &u8| matches!(b, b'-' | b'+' | b'=' | b'|' | b' ');
        if inside.iter().filter(|&&b| b == b'-').count() >= 3 && inside.iter().all(rule) {
            return LineKind::Border;
        }
    }
    // A section or title in brackets (`[Puzzle]`, SadMan's files).
    if matches!(t[0], b'[' | b'(' | b'<' | b'{') && t.iter().any(u8::is_ascii_alphabetic) {
        return LineKind::Header;
    }
    let (mut found, mut dashes, mut i) = (Vec::with_capacity(9), 0usize, 0);
    let bytes = line.bytes;
    while i < bytes.len() {
        let b = bytes[i];
        if box_drawing(bytes, i) {
            i += 3;
            continue;
        }
        match b {
            b' ' | b'\t' | b'|' | b'+' | b'=' | b'!' | b':' => {}
            b'-' => {
                dashes += 1;
                found.push((i, 0u8, true));
            }
            _ => match cells.value(b) {
                Some(v) => found.push((i, v, false)),
                None if b.is_ascii_alphabetic() => return LineKind::Header,
                None => {
                    return LineKind::Row(Err(ParseError::at(
                        line.number,
                        i + 1,
                        bad_cell(bytes, i),
                    )));
                }
            },
        }
        i += 1;
    }
    let plain = found.len() - dashes;
    // Nine dashes are a row of blanks in a file that writes blanks as `-`, unless `+`
    // joins them: `+---+---+---+` is a border there too.
    if plain == 0 && (!(style.dash_blanks && dashes == 9) || t.contains(&b'+')) {
        // Borders only; a line of `=` starts a new grid (Norvig's files).
        return match t.iter().all(|&b| matches!(b, b'=' | b' ')) {
            true => LineKind::Header,
            false => LineKind::Border,
        };
    }
    let keep_dashes = plain != 9 && plain + dashes == 9;
    style.dash_blanks |= keep_dashes;
    let row: Vec<u8> = found
        .iter()
        .filter(|(_, _, dash)| keep_dashes || !dash)
        .map(|&(_, v, _)| v)
        .collect();
    match <[u8; 9]>::try_from(row) {
        Ok(r) => LineKind::Row(Ok(r)),
        Err(row) => LineKind::Row(Err(ParseError::new(line.number, wrong_width(row.len())))),
    }
}

/// Why a row of `n` cells is none: the variants with rows of their own width are named.
fn wrong_width(n: usize) -> String {
    match n {
        21 => "row has 21 cells: a samurai board (five overlapping 9x9 grids), which is not read; give its grids one by one".into(),
        15 | 18 | 27 | 33 => format!("row has {n} cells: several 9x9 grids side by side, or a variant (samurai, butterfly), which is not read"),
        _ => format!("row has {n} cells, expected 9"),
    }
}

/// A row of comma-separated cells: `7,0,0, 0,0,4, ...` or `5,,,2,...` (empty is blank),
/// after a label where the file's rows start with one.
fn comma_row(line: &Line<'_>, cells: &Cells, label_column: bool) -> LineKind {
    let mut row = Vec::with_capacity(9);
    let mut fields: Vec<&[u8]> = line.bytes.split(|&b| b == b',').collect();
    let mut at = 0;
    if label_column && fields.len() > 1 {
        at = fields.remove(0).len() + 1;
    }
    let n = match fields.last().map(|f| trim(f)) {
        Some([]) if fields.len() == 10 => 9, // a trailing comma
        _ => fields.len(),
    };
    for f in &fields[..n] {
        let cell = trim(f);
        let cell = cell.strip_prefix(b"[").unwrap_or(cell);
        let cell = cell.strip_suffix(b"]").unwrap_or(cell);
        match cell {
            [] => row.push(0),
            [b] if cells.is_cell(*b) => row.push(cells.value(*b).expect("a cell")),
            _ if cell.iter().any(u8::is_ascii_alphabetic) => return LineKind::Header,
            _ => {
                let i = at
                    + f.iter()
                        .position(|&b| !cells.is_cell(b) && b != b' ')
                        .unwrap_or(0);
                return LineKind::Row(Err(ParseError::at(
                    line.number,
                    i + 1,
                    bad_cell(line.bytes, i),
                )));
            }
        }
        at += f.len() + 1;
    }
    match <[u8; 9]>::try_from(row) {
        Ok(r) => LineKind::Row(Ok(r)),
        Err(row) => LineKind::Row(Err(ParseError::new(line.number, wrong_width(row.len())))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, RawRecord, read_all};

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
        assert_eq!(lines, [(1, 1), (2, 2), (3, 3)]);
    }

    /// Text after the last grid titles nothing: each line is a record that says so (a
    /// killer or jigsaw file's cages and regions were dropped, and its puzzle solved as
    /// a classic one, with exit 0). A title between grids is still a title, and a long
    /// tail is held in bounded memory.
    #[test]
    fn text_after_the_last_grid_is_no_puzzle() {
        let input = format!("Grid 01\n{BORDERED}Grid 02\n{BORDERED}\nABCDEFGHI\n# c\nabc\n");
        let recs = read_all(Format::Grid, input.as_bytes());
        let n = BORDERED.lines().count() as u64;
        let want = [
            (1, 2, true),
            (2, n + 3, true),
            (3, 2 * n + 4, false),
            (4, 2 * n + 6, false),
        ];
        assert_eq!(lines_of(&recs), want);

        let tail: String = (1..=2500).map(|i| format!("cage {i}\n")).collect();
        let lines = Lines::new(std::io::Cursor::new(
            format!("{BORDERED}{tail}").into_bytes(),
        ));
        let mut reader = GridReader::new(lines, Cells::default(), RowStyle::default());
        let mut n = 0;
        while let Some(r) = reader.next_record() {
            assert!(reader.trailing.len() <= MAX_HELD);
            n += 1;
            assert_eq!(r.unwrap().number, n);
        }
        assert_eq!(n, 2501);
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

    /// A long text file read as `grid`: every line is a record, in order, as before, but
    /// no more than `MAX_HELD` of them are held at once; and past that many, text lines
    /// before a grid are records, not a header.
    #[test]
    fn long_text_holds_a_bounded_number_of_lines() {
        let text: String = (1..=2500).map(|i| format!("some text {i}\n")).collect();
        let lines = Lines::new(std::io::Cursor::new(text.into_bytes()));
        let mut reader = GridReader::new(lines, Cells::default(), RowStyle::default());
        let mut n = 0;
        while let Some(r) = reader.next_record() {
            let r = r.unwrap();
            assert!(reader.maybe_header.len() <= MAX_HELD + 1);
            n += 1;
            assert_eq!((r.number, r.line), (n, n));
            assert!(r.body.result().as_ref().is_err());
        }
        assert_eq!(n, 2500);

        let header: String = (1..=1200).map(|i| format!("title {i}\n")).collect();
        let input = format!("{header}{BORDERED}\nafter\n{BORDERED}");
        let recs = read_all(Format::Grid, input.as_bytes());
        assert_eq!(recs.len(), 1202);
        assert!(
            recs[..1200]
                .iter()
                .all(|r| r.body.result().as_ref().is_err())
        );
        assert_eq!((recs[1200].number, recs[1200].line), (1201, 1201));
        assert!(recs[1200].body.result().is_ok() && recs[1201].body.result().is_ok());

        // A header of ordinary length is still a header.
        let header: String = (1..=50).map(|i| format!("title {i}\n")).collect();
        let recs = read_all(Format::Grid, format!("{header}{BORDERED}").as_bytes());
        assert_eq!(recs.len(), 1);
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
