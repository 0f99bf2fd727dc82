//! What a cell may be written as: digits `1`-`9`, and the blanks a file uses (`.`, `0`,
//! `_`, `X`, `x`, `*`, `-`, `?` by default, more with `--blanks`).

use crate::board::{self, Alphabet, MAX_SIDE, Shape, Square};

/// Blanks every reader accepts.
pub const DEFAULT_BLANKS: &str = "._0Xx*-?";

/// The cell alphabet of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cells {
    /// The value of each byte as a cell: 0 for a blank, 1-9 for a digit, `NONE` else.
    value: [u8; 256],
    /// How boards other than 9x9 write their values, by side (decided per file, or
    /// `--alphabet`); `None`: each record's characters say.
    alphabets: [Option<Alphabet>; MAX_SIDE + 1],
}

const NONE: u8 = 0xFF;

impl Default for Cells {
    fn default() -> Self {
        Cells::with_blanks("").expect("the default blanks are fine")
    }
}

impl Cells {
    /// Only `.` and `0`, the blanks the online judges' formats allow (HDU 1426 adds `?`):
    /// the judge formats are exact.
    pub fn judge() -> Cells {
        Cells::blanks(".0").expect("the judges' blanks are fine")
    }

    /// The default blanks plus `extra` (ASCII punctuation or letters, not digits 1-9).
    pub fn with_blanks(extra: &str) -> Result<Cells, String> {
        Cells::blanks(&format!("{DEFAULT_BLANKS}{extra}"))
    }

    /// Digits and these blanks.
    fn blanks(blanks: &str) -> Result<Cells, String> {
        let mut value = [NONE; 256];
        for d in 1..=9u8 {
            value[usize::from(b'0' + d)] = d;
        }
        for c in blanks.chars() {
            if !c.is_ascii_graphic() || matches!(c, '1'..='9') {
                return Err(format!(
                    "{c:?} cannot be a blank: blanks are ASCII characters other than 1-9 and spaces"
                ));
            }
            value[c as usize] = 0;
        }
        Ok(Cells {
            value,
            alphabets: [None; MAX_SIDE + 1],
        })
    }

    /// These cells with `c` a blank too.
    pub fn with_blank(mut self, c: u8) -> Cells {
        self.value[usize::from(c)] = 0;
        self
    }

    /// These cells with boards of every size written in `alphabet` where it fits (`--alphabet`);
    /// 9x9 boards are written in digits but for the rare file in letters A-I.
    pub fn written_in(self, alphabet: Alphabet) -> Cells {
        let sides = Shape::ALL.into_iter().map(Shape::side);
        let nine = |side| side != 9 || alphabet == Alphabet::Letters;
        let sides = sides.filter(|&side| nine(side) && alphabet.fits(side));
        sides.fold(self, |cells, side| cells.with_alphabet(side, alphabet))
    }

    /// These cells with boards of `side` written in `alphabet`.
    pub fn with_alphabet(mut self, side: usize, alphabet: Alphabet) -> Cells {
        self.alphabets[side] = Some(alphabet);
        // 9x9 boards are read through the value table: there A-I (either case) are 1-9.
        if side == 9 && alphabet == Alphabet::Letters {
            for v in 1..=9u8 {
                self.value[usize::from(b'0' + v)] = NONE;
                self.value[usize::from(b'@' + v)] = v;
                self.value[usize::from(b'`' + v)] = v;
            }
        }
        self
    }

    /// The alphabet of boards of `side`, where one was decided.
    pub fn alphabet(&self, side: usize) -> Option<Alphabet> {
        self.alphabets.get(side).copied().flatten()
    }

    /// A board other than 9x9 written one character a cell, in the file's alphabet for
    /// its size; the error: the first character that is not a cell, and why.
    pub fn chars(&self, bytes: &[u8]) -> Result<Square, (usize, String)> {
        let side = Shape::of_cells(bytes.len()).map(Shape::side);
        // The file's blanks (`x`, `--blanks`) at every size, where no alphabet makes
        // them a value (`0` is one in hex, `X` a 25x25 letter); copied only when present.
        let blank = |b: &u8| {
            self.value(*b) == Some(0)
                && Alphabet::ALL
                    .iter()
                    .all(|a| a.value(*b, side.unwrap_or(0)).is_none())
        };
        let bytes: std::borrow::Cow<[u8]> = match bytes.iter().any(blank) {
            true => bytes
                .iter()
                .map(|b| if blank(b) { b'.' } else { *b })
                .collect(),
            false => bytes.into(),
        };
        let Some((side, alphabet)) = side.and_then(|side| Some((side, self.alphabet(side)?)))
        else {
            return board::parse_chars(&bytes);
        };
        board::read_in(&bytes, side, alphabet).map_err(|(i, e)| {
            let (how, name) = (alphabet.describe(side), alphabet.name());
            let message = format!(
                "{e}: this file writes {side}x{side} boards {how} ({name}; --alphabet reads them otherwise)"
            );
            (i, message)
        })
    }

    /// The cell a byte stands for.
    #[inline]
    pub fn value(&self, b: u8) -> Option<u8> {
        let v = self.value[usize::from(b)];
        (v != NONE).then_some(v)
    }

    /// A blank the user added (`--blanks`), which no reader takes for a border.
    pub fn is_extra_blank(&self, b: u8) -> bool {
        self.value[usize::from(b)] == 0 && !DEFAULT_BLANKS.as_bytes().contains(&b)
    }

    #[inline]
    pub fn is_cell(&self, b: u8) -> bool {
        self.value[usize::from(b)] != NONE
    }

    /// Parses exactly 81 cell bytes, or returns the index of the first that is not one.
    #[inline]
    pub fn parse81(&self, bytes: &[u8; 81]) -> Result<[u8; 81], usize> {
        let cells = bytes.map(|b| self.value[usize::from(b)]);
        memchr::memchr(NONE, &cells).map_or(Ok(cells), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_digits_and_others() {
        let c = Cells::default();
        for b in DEFAULT_BLANKS.bytes() {
            assert_eq!(c.value(b), Some(0), "{}", b as char);
        }
        assert_eq!(c.value(b'7'), Some(7));
        assert_eq!(c.value(b'/'), None);
        let q = Cells::with_blanks("/").unwrap();
        assert_eq!(q.value(b'/'), Some(0));
        assert!(Cells::with_blanks("5").is_err());
        assert!(Cells::with_blanks(" ").is_err());
        let mut line = [b'.'; 81];
        line[3] = b'9';
        assert_eq!(c.parse81(&line).unwrap()[3], 9);
        line[40] = b'y';
        assert_eq!(c.parse81(&line), Err(40));
    }
}
