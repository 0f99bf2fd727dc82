//! The 9x9 board, `Grid`: 81 cells, `0` for a blank, `1..=9` for a digit (the fast path;
//! other sizes are `Square`s).

use std::fmt;
use std::str::FromStr;

use super::{Conflict, Square};

/// Number of cells in a 9x9 grid.
pub const CELLS: usize = 81;

/// Row (0..9) of a cell index.
#[inline]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column (0..9) of a cell index.
#[inline]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// Box (0..9, row-major) of a cell index.
#[inline]
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// A 9x9 Sudoku grid. Cells hold `0` (blank) or a digit `1..=9`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// One of the 27 units (rows, columns, boxes), numbered from 1 in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Row(usize),
    Column(usize),
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Why a string is not an 81-cell grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridParseError {
    #[error("expected 81 cells, found {0}")]
    Length(usize),
    #[error("column {column}: {found:?} is not a digit 1-9 or a blank ('.' or '0')")]
    Character { column: usize, found: char },
}

impl Grid {
    /// The grid with every cell blank.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// A grid from cell values (`0` blank, `1..=9` digits); `Err`: the first cell above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Grid, usize> {
        match cells.iter().position(|&v| v > 9) {
            Some(cell) => Err(cell),
            None => Ok(Grid { cells }),
        }
    }

    /// Parses exactly 81 bytes of `1`-`9` givens and `.` or `0` blanks.
    pub fn from_line(line: &[u8]) -> Result<Grid, GridParseError> {
        let Ok(line) = <&[u8; CELLS]>::try_from(line) else {
            return Err(GridParseError::Length(line.len()));
        };
        // One branch-free pass (it vectorizes); the first bad byte is looked up only on error.
        let mut cells = [0u8; CELLS];
        let mut bad = false;
        for (c, &b) in cells.iter_mut().zip(line) {
            let v = if b == b'.' { 0 } else { b.wrapping_sub(b'0') };
            bad |= v > 9;
            *c = v;
        }
        if bad {
            let i = line.iter().position(|&b| b != b'.' && !b.is_ascii_digit());
            let i = i.expect("a bad byte was seen");
            // The character there, decoded where its bytes are UTF-8.
            let found = String::from_utf8_lossy(&line[i..CELLS.min(i + 4)])
                .chars()
                .next();
            return Err(GridParseError::Character {
                column: i + 1,
                found: found.expect("a byte"),
            });
        }
        Ok(Grid { cells })
    }

    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell. Panics when `value > 9` (a programming error, not input).
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value <= 9, "cell value {value} out of range");
        self.cells[cell] = value;
    }

    /// Number of givens (non-blank cells).
    pub fn clues(&self) -> usize {
        // Summed as bytes (81 fits) so that it vectorizes.
        self.cells.iter().map(|&v| u8::from(v != 0)).sum::<u8>() as usize
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal digits in one unit, checking rows, then columns, then boxes.
    pub fn find_conflict(&self) -> Option<Conflict> {
        // Almost every grid has no conflict: a bitmask pass proves that cheaply, and the
        // search that names the first pair (the one for every size) runs only when there
        // is one.
        if self.has_no_conflict() {
            return None;
        }
        Square::from_grid(self).find_conflict()
    }

    /// True when no unit holds a digit twice. Each unit keeps a 4-bit count per digit in
    /// a `u64` (a unit has 9 cells, so no count overflows); one pass of adds, then a
    /// mask finds any count of two or more.
    fn has_no_conflict(&self) -> bool {
        // Indexed by the byte itself (cells never exceed 9), so no masking is needed.
        const ONE: [u64; 256] = {
            let mut t = [0u64; 256];
            let mut d = 1;
            while d <= 9 {
                t[d] = 1 << (4 * d);
                d += 1;
            }
            t
        };
        // Bits 1..=3 of the counts of digits 1..=9: set when a count is two or more.
        const TWO_OR_MORE: u64 = 0xEE_EEEE_EEE0;
        let mut cols = [0u64; 9];
        let mut any = 0u64;
        for band in self.cells.chunks_exact(27) {
            let mut boxes = [0u64; 3];
            for row in band.chunks_exact(9) {
                // Three cells of a row in a box: one add to the box, not three.
                let mut count = 0u64;
                for (k, three) in row.chunks_exact(3).enumerate() {
                    let ones = [
                        ONE[usize::from(three[0])],
                        ONE[usize::from(three[1])],
                        ONE[usize::from(three[2])],
                    ];
                    cols[3 * k] += ones[0];
                    cols[3 * k + 1] += ones[1];
                    cols[3 * k + 2] += ones[2];
                    let sum = ones[0] + ones[1] + ones[2];
                    boxes[k] += sum;
                    count += sum;
                }
                any |= count;
            }
            any |= boxes[0] | boxes[1] | boxes[2];
        }
        for c in cols {
            any |= c;
        }
        any & TWO_OR_MORE == 0
    }

    /// Checks that `self` is a complete, valid grid that keeps every given of `puzzle`.
    ///
    /// Deliberately written without any solver code: it is the independent check of every
    /// solution the project prints.
    pub fn check_solution_of(&self, puzzle: &Grid) -> Result<(), String> {
        // Every answer printed passes; the check for every size names the fault of one
        // that does not.
        let kept =
            (self.cells.iter().zip(&puzzle.cells)).all(|(&s, &p)| s != 0 && (p == 0 || p == s));
        if kept && self.has_no_conflict() {
            return Ok(());
        }
        Square::from_grid(self).check_solution_of(&Square::from_grid(puzzle))
    }

    /// The 81-character line form, with `blank` for blank cells.
    pub fn to_line_with(&self, blank: u8) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        for (o, &v) in out.iter_mut().zip(self.cells.iter()) {
            *o = if v == 0 { blank } else { b'0' + v };
        }
        out
    }

    /// The 81-character line form with `.` blanks, as a `String`.
    pub fn to_line(&self) -> String {
        self.to_line_with(b'.').iter().map(|&b| b as char).collect()
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl FromStr for Grid {
    type Err = GridParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::from_line(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    const SOLUTION: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    #[test]
    fn parses_and_prints_round_trip() {
        let g: Grid = PUZZLE.parse().unwrap();
        assert_eq!(g.to_line(), PUZZLE);
        assert_eq!(g.clues(), 34);
        let zeros = PUZZLE.replace('.', "0");
        assert_eq!(zeros.parse::<Grid>().unwrap(), g);
    }

    #[test]
    fn rejects_bad_length_and_characters() {
        assert_eq!(Grid::from_line(b"123"), Err(GridParseError::Length(3)));
        let mut bad = PUZZLE.to_string();
        bad.replace_range(4..5, "x");
        assert_eq!(
            bad.parse::<Grid>(),
            Err(GridParseError::Character {
                column: 5,
                found: 'x'
            })
        );
    }

    #[test]
    fn units_are_right() {
        assert_eq!(box_of(0), 0);
        assert_eq!(box_of(8), 2);
        assert_eq!(box_of(40), 4);
        assert_eq!(box_of(80), 8);
        let in_box: Vec<usize> = (0..CELLS).filter(|&c| box_of(c) == 4).collect();
        assert_eq!(in_box, [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!((0..CELLS).filter(|&c| col_of(c) == 2).nth(8), Some(74));
    }

    #[test]
    fn finds_conflicts_in_each_unit_kind() {
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        g.set(8, 5);
        assert_eq!(g.find_conflict().unwrap().unit, Unit::Row(0));
        let mut g = Grid::EMPTY;
        g.set(1, 3);
        g.set(73, 3);
        assert_eq!(g.find_conflict().unwrap().unit, Unit::Column(1));
        let mut g = Grid::EMPTY;
        g.set(0, 7);
        g.set(20, 7);
        let c = g.find_conflict().unwrap();
        assert_eq!(c.unit, Unit::Box(0));
        assert_eq!(c.to_string(), "digit 7 twice in box 1 (r1c1 and r3c3)");
        assert!(PUZZLE.parse::<Grid>().unwrap().find_conflict().is_none());
    }

    #[test]
    fn quick_check_sees_every_digit_twice() {
        for d in 1..=9 {
            for (a, b) in [(0, 8), (0, 72), (0, 20), (80, 60)] {
                let mut g = Grid::EMPTY;
                g.set(a, d);
                g.set(b, d);
                assert!(!g.has_no_conflict(), "{d} at {a} and {b}");
                assert!(g.find_conflict().is_some());
            }
        }
    }

    proptest::proptest! {
        /// The quick check agrees with the search that names the pair.
        #[test]
        fn quick_conflict_check_agrees(
            // From nearly blank to nearly full, so that grids with and without conflicts
            // both come up at every density.
            (blank_percent, seeds) in (0u32..=100, proptest::collection::vec((0u32..100, 1u8..=9), CELLS))
        ) {
            let cells: Vec<u8> = seeds.iter().map(|&(p, d)| if p < blank_percent { 0 } else { d }).collect();
            let g = Grid::from_cells(cells.clone().try_into().unwrap()).unwrap();
            proptest::prop_assert_eq!(g.has_no_conflict(), Square::from_grid(&g).find_conflict().is_none());
            proptest::prop_assert_eq!(g.clues(), cells.iter().filter(|&&v| v != 0).count());
        }
    }

    #[test]
    fn checks_solutions_independently() {
        let p: Grid = PUZZLE.parse().unwrap();
        let s: Grid = SOLUTION.parse().unwrap();
        assert_eq!(s.check_solution_of(&p), Ok(()));
        assert_eq!(p.check_solution_of(&p).unwrap_err(), "r1c1 is blank");
        // Swapping two cells in a row keeps rows valid but breaks columns.
        let mut t = s;
        t.set(0, s.get(1));
        t.set(1, s.get(0));
        assert_eq!(
            t.check_solution_of(&p).unwrap_err(),
            "the given at r1c2 was changed"
        );
        let e = t.check_solution_of(&Grid::EMPTY).unwrap_err();
        assert!(e.starts_with("digit ") && e.contains(" twice in "), "{e}");
    }
}
