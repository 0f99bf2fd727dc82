//! Boards of every size: 4x4, 9x9, 16x16 and 25x25 (box size 2 to 5).
//!
//! 9x9 puzzles travel as [`Grid`] (81 bytes, copied freely, the fast path); other sizes
//! as a [`Square`] on the heap. [`Board`] is either, so that records, results and
//! outputs carry any size while every 9x9 path stays what it was.

use std::fmt;

pub mod nine;
pub(crate) mod symmetry;

pub use nine::Grid;

/// The largest side of any board.
pub const MAX_SIDE: usize = 25;

/// The boxes of a board: `rows` x `cols` cells each, `rows * cols` a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

impl Shape {
    /// Every board read, solved and generated: square boxes 2 to 5, and the rectangular
    /// ones people publish (6x6 in 2x3 boxes, 8x8 in 2x4, 10x10 in 2x5, 12x12 in 3x4).
    pub const ALL: [Shape; 8] = [
        Shape { rows: 2, cols: 2 },
        Shape { rows: 2, cols: 3 },
        Shape { rows: 2, cols: 4 },
        Shape { rows: 3, cols: 3 },
        Shape { rows: 2, cols: 5 },
        Shape { rows: 3, cols: 4 },
        Shape { rows: 4, cols: 4 },
        Shape { rows: 5, cols: 5 },
    ];

    /// Cells a row, values a board has.
    pub const fn side(self) -> usize {
        self.rows * self.cols
    }

    /// The shape of a board with `side` cells a row, if it is one's.
    pub fn of_side(side: usize) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.side() == side)
    }

    /// The shape of a board with `cells` cells, if it is one's.
    pub fn of_cells(cells: usize) -> Option<Shape> {
        Shape::ALL
            .into_iter()
            .find(|s| s.side() * s.side() == cells)
    }

    /// The box of a row and column.
    #[inline]
    pub fn box_of(self, r: usize, c: usize) -> usize {
        (r / self.rows) * self.rows + c / self.cols
    }
}

/// Why a square of `side` is no board read.
pub fn unread(side: usize) -> String {
    format!(
        "a {side}x{side} board, which is not read (boards of side {})",
        sides()
    )
}

/// The board sides, for messages: "4, 6, 8, 9, 10, 12, 16 or 25".
pub fn sides() -> String {
    let sides: Vec<String> = Shape::ALL.iter().map(|s| s.side().to_string()).collect();
    let (last, rest) = sides.split_last().expect("shapes");
    format!("{} or {last}", rest.join(", "))
}

/// A board of any size. Cells hold `0` (blank) or `1..=side`.
#[derive(Clone)]
pub struct Square {
    /// Its boxes' rows and columns.
    rows: u8,
    cols: u8,
    cells: Box<[u8]>,
    /// The symbols its file wrote it in, for what is written about it (`None`: read
    /// from numbers, or made here). No part of its value: boards compare by cells.
    pub symbols: Option<Alphabet>,
}

impl PartialEq for Square {
    fn eq(&self, other: &Square) -> bool {
        (self.rows, self.cols, &self.cells) == (other.rows, other.cols, &other.cells)
    }
}

impl Eq for Square {}

/// One of a board's units (rows, columns, boxes), numbered from 1 in messages.
pub use crate::board::nine::Unit;

impl Square {
    /// A board from its cells, row by row (`0` blank); `Err`: why they make none.
    pub fn new(cells: Vec<u8>) -> Result<Square, String> {
        let n = cells.len();
        let shape = Shape::of_cells(n)
            .ok_or_else(|| format!("{n} cells is no board's size (a side of {})", sides()))?;
        let side = shape.side();
        if let Some(cell) = cells.iter().position(|&v| usize::from(v) > side) {
            let (r, c, value) = (cell / side + 1, cell % side + 1, cells[cell]);
            return Err(format!(
                "r{r}c{c} holds {value}, more than the board's {side}"
            ));
        }
        Ok(Square {
            rows: shape.rows as u8,
            cols: shape.cols as u8,
            cells: cells.into_boxed_slice(),
            symbols: None,
        })
    }

    pub fn from_grid(g: &Grid) -> Square {
        Square {
            rows: 3,
            cols: 3,
            cells: g.cells().to_vec().into_boxed_slice(),
            symbols: None,
        }
    }

    /// The 9x9 grid, when this is one.
    pub fn to_grid(&self) -> Option<Grid> {
        let cells: [u8; 81] = (*self.cells).try_into().ok()?;
        Grid::from_cells(cells).ok()
    }

    /// Its boxes' shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        Shape {
            rows: usize::from(self.rows),
            cols: usize::from(self.cols),
        }
    }

    /// Cells a row (and values there are).
    #[inline]
    pub fn side(&self) -> usize {
        self.shape().side()
    }

    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell. Panics when the value is above the side (a programming error).
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(usize::from(value) <= self.side(), "cell value {value}");
        self.cells[cell] = value;
    }

    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Row, column and box of a cell.
    #[inline]
    pub fn units_of(&self, cell: usize) -> (usize, usize, usize) {
        let side = self.side();
        let (r, c) = (cell / side, cell % side);
        (r, c, self.shape().box_of(r, c))
    }

    /// The first two givens with one value in a unit: rows, then columns, then boxes;
    /// then 9x9 boards name the first pair unit by unit, other sizes the one whose
    /// second cell comes first (the orders their messages have always had).
    pub fn find_conflict(&self) -> Option<Conflict> {
        let side = self.side();
        // Where each unit's each value was seen first.
        let mut seen = vec![usize::MAX; side * side];
        for kind in 0..3 {
            seen.fill(usize::MAX);
            for i in 0..side * side {
                // 9x9: the `place`th cell of unit `u`; other sizes: reading order.
                let (u, place) = (i / 9, i % 9);
                let cell = match (side, kind) {
                    (9, 1) => place * 9 + u,
                    (9, 2) => (u / 3 * 3 + place / 3) * 9 + u % 3 * 3 + place % 3,
                    _ => i,
                };
                let value = self.cells[cell];
                if value == 0 {
                    continue;
                }
                let (r, c, b) = self.units_of(cell);
                let slot = &mut seen[[r, c, b][kind] * side + usize::from(value) - 1];
                if *slot != usize::MAX {
                    let unit = [Unit::Row(r), Unit::Column(c), Unit::Box(b)][kind];
                    let cells = (*slot, cell);
                    return Some(Conflict {
                        unit,
                        value,
                        cells,
                        side,
                    });
                }
                *slot = cell;
            }
        }
        None
    }

    /// Checks that `self` solves `puzzle`: same size, complete, givens kept, no unit
    /// holding a value twice. Independent of every solver.
    pub fn check_solution_of(&self, puzzle: &Square) -> Result<(), String> {
        if self.shape() != puzzle.shape() {
            return Err(format!(
                "a {0}x{0} answer to a {1}x{1} puzzle",
                self.side(),
                puzzle.side()
            ));
        }
        let side = self.side();
        for (cell, (&s, &p)) in self.cells.iter().zip(puzzle.cells.iter()).enumerate() {
            let (r, c) = (cell / side + 1, cell % side + 1);
            if s == 0 {
                return Err(format!("r{r}c{c} is blank"));
            }
            if p != 0 && p != s {
                return Err(format!("the given at r{r}c{c} was changed"));
            }
        }
        match self.find_conflict() {
            Some(c) => Err(c.to_string()),
            None => Ok(()),
        }
    }

    /// One character a cell, row after row, `.` blanks, in `alphabet` (`None`: digits up
    /// to 9x9, `A`.. above: what protocols and judges take, whatever the file wrote).
    pub fn write_line(&self, alphabet: Option<Alphabet>, out: &mut Vec<u8>) {
        let plain = match self.side() {
            ..=9 => Alphabet::Digits,
            _ => Alphabet::Letters,
        };
        let a = alphabet.unwrap_or(plain);
        out.extend(self.cells.iter().map(|&v| a.symbol(v)));
    }

    pub fn to_line(&self) -> String {
        let mut out = Vec::with_capacity(self.cells.len());
        self.write_line(None, &mut out);
        String::from_utf8(out).expect("ASCII")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.to_line())
    }
}

/// Two equal givens in one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: Unit,
    pub value: u8,
    pub cells: (usize, usize),
    side: usize,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.cells;
        let s = self.side;
        // Above 9x9 the record may have spelled values as letters, hex or numbers:
        // both the letter and the number.
        let value = match s {
            // As 9x9 messages always were.
            9 => format!("digit {}", self.value),
            ..=9 => (Alphabet::Digits.symbol(self.value) as char).to_string(),
            _ => format!(
                "{} ({})",
                Alphabet::Letters.symbol(self.value) as char,
                self.value
            ),
        };
        let at = |cell: usize| format!("r{}c{}", cell / s + 1, cell % s + 1);
        write!(
            f,
            "{value} twice in {} ({} and {})",
            self.unit,
            at(a),
            at(b)
        )
    }
}

named! {
    /// How a record's cell characters are read on a board bigger than 9x9.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Alphabet {
        /// Digits `1`..: up to 9x9 (`0` is a blank).
        Digits => "digits",
        /// `A`=1, `B`=2, ... (either case; `0` is a blank).
        Letters => "letters",
        /// `0`-`9`, `A`-`F` for 1 to 16 (a 16x16 record that uses `0` with letters).
        Hex => "hex",
        /// `1`-`9` then `A`=10 ... `G`=16 (`0` is a blank).
        DigitsThenLetters => "digits-letters",
    }
}

impl std::str::FromStr for Alphabet {
    type Err = String;

    fn from_str(s: &str) -> Result<Alphabet, String> {
        let known = Alphabet::ALL.into_iter().find(|a| a.name() == s);
        let names: Vec<_> = Alphabet::ALL.iter().map(|a| a.name()).collect();
        let names = names.join(", ");
        known.ok_or_else(|| format!("unknown alphabet {s:?}; the alphabets are {names}"))
    }
}

impl Alphabet {
    /// Whether it writes every value of a board of `side`.
    pub fn fits(self, side: usize) -> bool {
        match self {
            Alphabet::Digits => side <= 9,
            Alphabet::Letters => side <= 26,
            Alphabet::Hex => (10..=16).contains(&side),
            Alphabet::DigitsThenLetters => (10..=35).contains(&side),
        }
    }

    /// The characters of the values 1 to `side`, for messages.
    pub fn describe(self, side: usize) -> String {
        let letter = |v: usize| char::from(b'A' + (v - 1) as u8);
        match self {
            Alphabet::Digits => format!("1-{side}"),
            Alphabet::Letters => format!("A-{}", letter(side)),
            Alphabet::Hex if side == 10 => "0-9".to_string(),
            Alphabet::Hex => format!("0-9 then A-{}", letter(side - 10)),
            Alphabet::DigitsThenLetters => format!("1-9 then A-{}", letter(side - 9)),
        }
    }

    /// The alphabet a record's characters use, guessed from which occur: `None` when
    /// no alphabet of this board size explains them all.
    pub fn guess(bytes: &[u8], side: usize) -> Option<Alphabet> {
        let mut digits = false; // 1-9
        let mut zero = false;
        let mut top = 0u8; // highest letter, as its value (A = 1)
        for &b in bytes {
            match b {
                b'1'..=b'9' => digits = true,
                b'0' => zero = true,
                b'A'..=b'Z' | b'a'..=b'z' => {
                    top = top.max(b.to_ascii_uppercase() - b'A' + 1);
                }
                _ => {}
            }
        }
        let top = usize::from(top);
        // `0` beside letters no higher than `F`: hex digits.
        let hex_like = zero && (1..=6).contains(&top);
        match side {
            ..=9 if top == 0 => Some(Alphabet::Digits),
            ..=9 => (!digits && top <= side).then_some(Alphabet::Letters),
            _ if !digits && !hex_like => (top <= side).then_some(Alphabet::Letters),
            16 if top <= 6 => Some(Alphabet::Hex),
            16 if top == 7 => Some(Alphabet::DigitsThenLetters),
            // 10x10 and 12x12: `0`-`9` (and `A`, `B`) as values with `0`, else digits
            // then letters (25x25's `1`-`9`, `A`-`P` too).
            10 | 12 if zero && top + 10 <= side => Some(Alphabet::Hex),
            _ if top + 9 <= side => Some(Alphabet::DigitsThenLetters),
            _ => None,
        }
    }

    /// The character of value `v` (`.` for a blank).
    pub fn symbol(self, v: u8) -> u8 {
        match (self, v) {
            (_, 0) => b'.',
            (Alphabet::Letters, v) => b'A' + v - 1,
            (Alphabet::Hex, 1..=10) => b'0' + v - 1,
            (Alphabet::Hex, v) => b'A' + v - 11,
            (_, 1..=9) => b'0' + v,
            (_, v) => b'A' + v - 10,
        }
    }

    /// The value of one character: `Some(0)` for a blank, `None` for no cell at all.
    pub fn value(self, b: u8, side: usize) -> Option<u8> {
        let v = match (self, b) {
            // `+` too: published 25x25 files use it.
            (_, b'.' | b'-' | b'_' | b'*' | b'+') => 0,
            (Alphabet::Hex, b'0'..=b'9') => b - b'0' + 1,
            (Alphabet::Hex, b'A'..=b'F' | b'a'..=b'f') => b.to_ascii_uppercase() - b'A' + 11,
            (_, b'0') => 0,
            (Alphabet::Digits | Alphabet::DigitsThenLetters, b'1'..=b'9') => b - b'0',
            (Alphabet::Letters, b'A'..=b'Z' | b'a'..=b'z') => b.to_ascii_uppercase() - b'A' + 1,
            (Alphabet::DigitsThenLetters, b'A'..=b'Z' | b'a'..=b'z') => {
                b.to_ascii_uppercase() - b'A' + 10
            }
            _ => return None,
        };
        (usize::from(v) <= side).then_some(v)
    }
}

/// Reads a run of one-character cells (16, 256 or 625 of them; 81 goes through
/// [`Grid`]) in the alphabet its characters suggest. The error is the index of the
/// first character that is not a cell, with why.
pub fn parse_chars(bytes: &[u8]) -> Result<Square, (usize, String)> {
    let Some(shape) = Shape::of_cells(bytes.len()) else {
        return Err((
            bytes.len(),
            format!("{} cells is no board's size", bytes.len()),
        ));
    };
    let side = shape.side();
    let Some(alphabet) = Alphabet::guess(bytes, side) else {
        let i = bytes
            .iter()
            .position(|b| b.is_ascii_alphanumeric())
            .unwrap_or(0);
        return Err((
            i,
            format!("mixes characters no {side}x{side} alphabet explains"),
        ));
    };
    let square = read_in(bytes, side, alphabet)?;
    // `1`-`9`, `A`-`F` and `0` read as hex (0 a value), or as `1`-`9`, `A`-`G` with `0`
    // blank and no `G` given: the reading without a conflict is the file's.
    if alphabet == Alphabet::Hex
        && square.find_conflict().is_some()
        && let Ok(other) = read_in(bytes, side, Alphabet::DigitsThenLetters)
        && other.find_conflict().is_none()
    {
        return Ok(other);
    }
    Ok(square)
}

/// Reads one-character cells in `alphabet`; the error is the index of the first
/// character that is not a cell, with why.
pub fn read_in(bytes: &[u8], side: usize, alphabet: Alphabet) -> Result<Square, (usize, String)> {
    let mut cells = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        match alphabet.value(b, side) {
            Some(v) => cells.push(v),
            None => {
                let c = if b.is_ascii_graphic() { b as char } else { '?' };
                return Err((i, format!("{c:?} is not a cell of a {side}x{side} board")));
            }
        }
    }
    let mut square = Square::new(cells).expect("sized and checked");
    square.symbols = Some(alphabet);
    Ok(square)
}

/// Reads cells written as numbers, one a token (`0` blank): 16, 81, 256 or 625 of
/// them. `None` when the tokens are not all numbers or not a board's count.
pub fn parse_numbers<'a>(tokens: impl Iterator<Item = &'a [u8]>) -> Option<Result<Board, String>> {
    let mut cells = Vec::new();
    for t in tokens {
        if t.is_empty() || t.len() > 2 || !t.iter().all(u8::is_ascii_digit) {
            return None;
        }
        cells.push(t.iter().fold(0u8, |v, d| v * 10 + (d - b'0')));
        if cells.len() > MAX_SIDE * MAX_SIDE {
            return None;
        }
    }
    Shape::of_cells(cells.len())?;
    Some(Square::new(cells).map(Board::from))
}

/// A puzzle or a solution of any size: 9x9 inline, other sizes on the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    Nine(Grid),
    /// Never a 9x9 board ([`Board::from`] makes sure).
    Other(Box<Square>),
}

impl std::str::FromStr for Board {
    type Err = String;

    /// One character a cell: 81 as [`Grid`] reads them, other sizes as
    /// [`parse_chars`] does.
    fn from_str(s: &str) -> Result<Board, String> {
        if s.len() == 81 {
            return s
                .parse::<Grid>()
                .map(Board::Nine)
                .map_err(|e| e.to_string());
        }
        parse_chars(s.as_bytes())
            .map(Board::from)
            .map_err(|(i, e)| format!("column {}: {e}", i + 1))
    }
}

impl From<Grid> for Board {
    fn from(g: Grid) -> Board {
        Board::Nine(g)
    }
}

impl From<Square> for Board {
    fn from(s: Square) -> Board {
        match s.to_grid() {
            Some(g) => Board::Nine(g),
            None => Board::Other(Box::new(s)),
        }
    }
}

impl Board {
    /// The 9x9 grid, when it is one.
    #[inline]
    pub fn nine(&self) -> Option<&Grid> {
        match self {
            Board::Nine(g) => Some(g),
            Board::Other(_) => None,
        }
    }

    /// Any size as a [`Square`] (a copy for 9x9).
    pub fn to_square(&self) -> std::borrow::Cow<'_, Square> {
        match self {
            Board::Nine(g) => std::borrow::Cow::Owned(Square::from_grid(g)),
            Board::Other(s) => std::borrow::Cow::Borrowed(s),
        }
    }

    pub fn side(&self) -> usize {
        match self {
            Board::Nine(_) => 9,
            Board::Other(s) => s.side(),
        }
    }

    /// The bytes it holds on the heap (a 9x9 grid is inline).
    pub fn heap_bytes(&self) -> usize {
        match self {
            Board::Nine(_) => 0,
            Board::Other(s) => std::mem::size_of::<Square>() + s.cells().len(),
        }
    }

    pub fn clues(&self) -> usize {
        match self {
            Board::Nine(g) => g.clues(),
            Board::Other(s) => s.clues(),
        }
    }

    pub fn is_full(&self) -> bool {
        match self {
            Board::Nine(g) => g.is_full(),
            Board::Other(s) => s.is_full(),
        }
    }

    /// The first two conflicting givens, said in words.
    pub fn conflict(&self) -> Option<String> {
        match self {
            Board::Nine(g) => g.find_conflict().map(|c| c.to_string()),
            Board::Other(s) => s.find_conflict().map(|c| c.to_string()),
        }
    }

    pub fn has_conflict(&self) -> bool {
        self.conflict().is_some()
    }

    /// Checks that `self` solves `puzzle` (see [`Square::check_solution_of`]).
    pub fn check_solution_of(&self, puzzle: &Board) -> Result<(), String> {
        match (self, puzzle) {
            (Board::Nine(s), Board::Nine(p)) => s.check_solution_of(p),
            _ => self.to_square().check_solution_of(&puzzle.to_square()),
        }
    }

    /// One character a cell, `blank` for blanks on a 9x9 board (`.` on others, where
    /// `0` may be read as a value); other sizes in their file's symbols.
    pub fn write_line_with(&self, blank: u8, out: &mut Vec<u8>) {
        match self {
            Board::Nine(g) => out.extend_from_slice(&g.to_line_with(blank)),
            Board::Other(s) => s.write_line(s.symbols, out),
        }
    }

    /// The symbols its file wrote it in (boards other than 9x9).
    pub fn symbols(&self) -> Option<Alphabet> {
        match self {
            Board::Nine(_) => None,
            Board::Other(s) => s.symbols,
        }
    }

    pub fn to_line(&self) -> String {
        let mut out = Vec::new();
        self.write_line_with(b'.', &mut out);
        String::from_utf8(out).expect("ASCII")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Smallest and largest box size of square boxes: 4x4 and 25x25 boards.
    const MIN_BOX: usize = 2;
    const MAX_BOX: usize = 5;

    impl Square {
        /// The blank board with square boxes of `n` cells a side.
        pub(crate) fn empty(n: usize) -> Square {
            assert!((MIN_BOX..=MAX_BOX).contains(&n), "box size {n}");
            Square::new(vec![0; n.pow(4)]).expect("a board's size")
        }
    }

    /// A solved board of box size `n`: the pattern solution, its values relabelled.
    pub(crate) fn solved(n: usize, relabel: &[u8]) -> Square {
        let side = n * n;
        let mut cells = Vec::with_capacity(side * side);
        for r in 0..side {
            for c in 0..side {
                let v = (n * (r % n) + r / n + c) % side;
                cells.push(relabel[v]);
            }
        }
        Square::new(cells).unwrap()
    }

    fn identity(side: usize) -> Vec<u8> {
        (1..=side as u8).collect()
    }

    #[test]
    fn sizes_and_symbols() {
        assert_eq!(Shape::of_cells(16), Some(Shape { rows: 2, cols: 2 }));
        assert_eq!(Shape::of_cells(625), Some(Shape { rows: 5, cols: 5 }));
        assert_eq!(Shape::of_cells(36), Some(Shape { rows: 2, cols: 3 }));
        assert_eq!(Shape::of_cells(144), Some(Shape { rows: 3, cols: 4 }));
        assert_eq!(Shape::of_cells(49), None);
        assert_eq!(Alphabet::Letters.symbol(16), b'P');
        assert_eq!(Alphabet::Letters.symbol(25), b'Y');
        assert_eq!(Alphabet::Digits.symbol(4), b'4');
        assert!(Square::new(vec![5; 16]).is_err());
        assert!(Square::new(vec![0; 17]).is_err());
    }

    #[test]
    fn the_checker_finds_each_kind_of_fault() {
        for n in MIN_BOX..=MAX_BOX {
            let s = solved(n, &identity(n * n));
            let side = n * n;
            assert_eq!(s.check_solution_of(&s), Ok(()), "{n}");
            let mut puzzle = s.clone();
            puzzle.set(0, 0);
            assert_eq!(s.check_solution_of(&puzzle), Ok(()));
            let mut blank = s.clone();
            blank.set(3, 0);
            assert_eq!(
                blank.check_solution_of(&puzzle).unwrap_err(),
                "r1c4 is blank"
            );
            // Swapping two values in a row keeps the row whole but breaks columns.
            let mut swapped = s.clone();
            let (a, b) = (s.get(side), s.get(side + 1));
            swapped.set(side, b);
            swapped.set(side + 1, a);
            let e = swapped.check_solution_of(&Square::empty(n)).unwrap_err();
            assert!(e.contains("twice in column"), "{e}");
            let mut changed = s.clone();
            changed.set(0, s.get(1));
            changed.set(1, s.get(0));
            let mut given = puzzle.clone();
            given.set(1, s.get(1));
            let e = changed.check_solution_of(&given).unwrap_err();
            assert_eq!(e, "the given at r1c2 was changed");
        }
    }

    #[test]
    fn conflicts_are_found_in_the_order_nine_by_nine_uses() {
        let mut s = Square::empty(4);
        s.set(0, 3);
        s.set(17, 3); // same box (r2c2), different row and column
        let c = s.find_conflict().unwrap();
        assert_eq!(c.unit, Unit::Box(0));
        // Both spellings: the record may have given the value as a letter or a number.
        assert_eq!(c.to_string(), "C (3) twice in box 1 (r1c1 and r2c2)");
        let mut small = Square::empty(2);
        small.set(0, 2);
        small.set(1, 2);
        assert_eq!(
            small.find_conflict().unwrap().to_string(),
            "2 twice in row 1 (r1c1 and r1c2)"
        );
        // A value too large is named by its row and column.
        let mut cells = vec![0u8; 256];
        cells[21] = 99;
        assert_eq!(
            Square::new(cells).unwrap_err().to_string(),
            "r2c6 holds 99, more than the board's 16"
        );
        s.set(5, 3); // same row as cell 0
        assert_eq!(s.find_conflict().unwrap().unit, Unit::Row(0));
    }

    #[test]
    fn alphabets() {
        let g = |s: &str, side| Alphabet::guess(s.as_bytes(), side);
        assert_eq!(g("--A----C-----O-I", 16), Some(Alphabet::Letters));
        assert_eq!(g("0.1F", 16), Some(Alphabet::Hex));
        assert_eq!(g("19G.", 16), Some(Alphabet::DigitsThenLetters));
        assert_eq!(g("x+ab", 25), Some(Alphabet::Letters));
        assert_eq!(g("1P", 25), Some(Alphabet::DigitsThenLetters));
        assert_eq!(g("1Q", 25), None);
        assert_eq!(g("Z", 16), None);
        assert_eq!(g("0321", 4), Some(Alphabet::Digits));
        assert_eq!(Alphabet::Hex.value(b'0', 16), Some(1));
        assert_eq!(Alphabet::Hex.value(b'f', 16), Some(16));
        assert_eq!(Alphabet::Letters.value(b'0', 16), Some(0));
        assert_eq!(Alphabet::Letters.value(b'Q', 16), None);
        assert_eq!(Alphabet::DigitsThenLetters.value(b'G', 16), Some(16));
        assert_eq!(Alphabet::Digits.value(b'5', 4), None);
    }

    /// Red-team finding: 16x16 written `1`-`9`, `A`-`G` with `0` blanks and no `G` among
    /// the givens was read as hex (`0` a value): 256 clues, "invalid givens", exit 0.
    #[test]
    fn digits_then_letters_without_a_g_are_not_hex() {
        let sym = b"123456789ABCDEFG";
        let line: Vec<u8> = (0..256)
            .map(|i| {
                let (r, c) = (i / 16, i % 16);
                let v = (4 * (r % 4) + r / 4 + c) % 16; // a valid full board, 0-based
                // The Gs and every third other cell are blanks.
                if v == 15 || i % 3 == 0 { b'0' } else { sym[v] }
            })
            .collect();
        let square = parse_chars(&line).unwrap();
        assert!(square.find_conflict().is_none());
        let blanks = line.iter().filter(|&&b| b == b'0').count();
        assert_eq!(square.cells().iter().filter(|&&v| v == 0).count(), blanks);
        // A full hex board (`0` a value, no conflict) stays hex.
        let hex: Vec<u8> = (0..256)
            .map(|i| b"0123456789ABCDEF"[(4 * ((i / 16) % 4) + (i / 16) / 4 + i % 16) % 16])
            .collect();
        let square = parse_chars(&hex).unwrap();
        assert!(square.find_conflict().is_none() && square.cells().iter().all(|&v| v > 0));
    }

    #[test]
    fn a_line_of_the_wrong_alphabet_says_where() {
        let mut line = "-".repeat(256).into_bytes();
        line[10] = b'1';
        line[20] = b'Q';
        let (i, msg) = parse_chars(&line).unwrap_err();
        assert_eq!(i, 10, "{msg}");
        assert!(parse_chars(b"1234").is_err());
    }

    fn any_square() -> impl Strategy<Value = Square> {
        (MIN_BOX..=MAX_BOX)
            .prop_flat_map(|n| {
                let side = n * n;
                (
                    Just(n),
                    Just(identity(side)).prop_shuffle(),
                    proptest::collection::vec(proptest::bool::ANY, side * side),
                )
            })
            .prop_map(|(n, relabel, blank)| {
                let mut s = solved(n, &relabel);
                for (cell, b) in blank.into_iter().enumerate() {
                    if b {
                        s.set(cell, 0);
                    }
                }
                s
            })
    }

    proptest! {
        #[test]
        fn lines_round_trip_at_every_size(s in any_square()) {
            let line = s.to_line();
            prop_assert_eq!(line.len(), s.side() * s.side());
            if s.side() == 9 {
                let g = Grid::from_line(line.as_bytes()).unwrap();
                prop_assert_eq!(Square::from_grid(&g), s);
            } else {
                prop_assert_eq!(parse_chars(line.as_bytes()).unwrap(), s);
            }
        }

        #[test]
        fn hex_and_mixed_spellings_read_back(s in any_square()) {
            prop_assume!(s.side() == 16);
            let hex: Vec<u8> = s.cells().iter().map(|&v| match v {
                0 => b'-',
                v => b"0123456789ABCDEF"[usize::from(v) - 1],
            }).collect();
            let mixed: Vec<u8> = s.cells().iter().map(|&v| match v {
                0 => b'0',
                v => b"123456789ABCDEFG"[usize::from(v) - 1],
            }).collect();
            // The guess needs the telling characters: a full board always has them.
            if s.is_full() {
                prop_assert_eq!(&parse_chars(&hex).unwrap(), &s);
                prop_assert_eq!(&parse_chars(&mixed).unwrap(), &s);
            }
        }
    }
}
