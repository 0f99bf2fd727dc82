//! Byte lines over any `BufRead`, in constant memory: the line-oriented formats share this.

use std::io::{self, BufRead};

use crate::record::ParseError;

/// Longest line kept whole; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// One line without its terminator (`\n`, `\r\n`, or a trailing `\r`).
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// The line, or its first `MAX_LINE` bytes when it is longer.
    pub bytes: &'a [u8],
    /// Full length in bytes, terminator excluded.
    pub len: u64,
}

impl Line<'_> {
    /// The error for a line longer than `MAX_LINE`, `None` for a line kept whole.
    pub fn too_long(&self) -> Option<ParseError> {
        let message = || format!("line is {} bytes long, longer than {MAX_LINE}", self.len);
        (self.len > self.bytes.len() as u64).then(|| ParseError::new(self.number, message()))
    }
}

/// Splits a byte stream into lines; never needs UTF-8.
pub(crate) struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    number: u64,
    pub(super) terminator: u8,
}

impl<R: BufRead> Lines<R> {
    /// Lines ended by `terminator` (`\n`, or `\r` for files with CR-only endings).
    pub fn with_terminator(input: R, terminator: u8) -> Lines<R> {
        Lines {
            input,
            buf: Vec::new(),
            number: 0,
            terminator,
        }
    }

    /// The next line, `Ok(None)` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let (mut len, mut last, buf) = (0u64, 0u8, &mut self.buf);
        loop {
            let (used, end) = peek(&mut self.input, |avail| {
                let newline = memchr::memchr(self.terminator, avail);
                let chunk = &avail[..newline.unwrap_or(avail.len())];
                buf.extend_from_slice(&chunk[..chunk.len().min(MAX_LINE - buf.len())]);
                last = chunk.last().copied().unwrap_or(last);
                len += chunk.len() as u64;
                let used = chunk.len() + usize::from(newline.is_some());
                (used, newline.is_some() || avail.is_empty())
            })?;
            if used == 0 && len == 0 {
                return Ok(None);
            }
            self.input.consume(used);
            if end {
                break;
            }
        }
        if last == b'\r' {
            len -= 1;
            self.buf.truncate(len.min(MAX_LINE as u64) as usize);
        }
        self.number += 1;
        let (number, bytes) = (self.number, &self.buf[..]);
        Ok(Some(Line { number, bytes, len }))
    }

    /// The whole lines buffered, up to `max` bytes, stopping before a line holding
    /// `avoid`: the first one's number, how many, and their bytes with terminators.
    /// `Ok(None)`: read the next line with [`Lines::next_line`].
    pub fn next_block(
        &mut self,
        max: usize,
        avoid: &[u8],
    ) -> io::Result<Option<(u64, u64, Vec<u8>)>> {
        let Some(bytes) = peek(&mut self.input, |avail| {
            let window = &avail[..avail.len().min(max)];
            let mut take = memchr::memrchr(self.terminator, window)? + 1;
            if let Some(at) = memchr::memmem::find(&window[..take], avoid) {
                take = memchr::memrchr(self.terminator, &window[..at]).map_or(0, |p| p + 1);
            }
            (take > 0).then(|| window[..take].to_vec())
        })?
        else {
            return Ok(None);
        };
        // memchr counts with SIMD (its `count` is specialized).
        let lines = memchr::memchr_iter(self.terminator, &bytes).count() as u64;
        self.input.consume(bytes.len());
        self.number += lines;
        Ok(Some((self.number - lines + 1, lines, bytes)))
    }
}

/// `f` of the first bytes of `input`, an interrupted read tried again.
pub(crate) fn peek<T>(input: &mut impl BufRead, mut f: impl FnMut(&[u8]) -> T) -> io::Result<T> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            head => return head.map(&mut f),
        }
    }
}

/// `bytes` without leading and trailing spaces and tabs.
pub(crate) fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] | [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader finds terminators with memchr: SIMD where the CPU has it.
    fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
        memchr::memchr(byte, bytes)
    }

    impl<R: BufRead> Lines<R> {
        pub fn new(input: R) -> Lines<R> {
            Lines::with_terminator(input, b'\n')
        }
    }

    fn all(input: &[u8]) -> Vec<(u64, Vec<u8>, u64)> {
        let mut lines = Lines::new(io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            out.push((l.number, l.bytes.to_vec(), l.len));
        }
        out
    }

    #[test]
    fn splits_cr_only_endings() {
        let mut lines = Lines::with_terminator(
            io::BufReader::with_capacity(5, &b"ab\rcd\r\rlast"[..]),
            b'\r',
        );
        let mut got = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            got.push(l.bytes.to_vec());
        }
        assert_eq!(
            got,
            [b"ab".to_vec(), b"cd".to_vec(), vec![], b"last".to_vec()]
        );
    }

    #[test]
    fn splits_mixed_endings() {
        let got = all(b"ab\r\ncd\n\r\n\nlast\r");
        let want: Vec<(u64, Vec<u8>, u64)> = vec![
            (1, b"ab".to_vec(), 2),
            (2, b"cd".to_vec(), 2),
            (3, vec![], 0),
            (4, vec![], 0),
            (5, b"last".to_vec(), 4),
        ];
        assert_eq!(got, want);
        assert_eq!(all(b"no newline"), vec![(1, b"no newline".to_vec(), 10)]);
        assert!(all(b"").is_empty());
        assert_eq!(all(b"\xff\xfe\n").len(), 1);
    }

    #[test]
    fn long_lines_are_capped_not_kept() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\r\nok\n");
        let mut lines = Lines::new(io::BufReader::new(&input[..]));
        let long = lines.next_line().unwrap().unwrap();
        assert_eq!((long.bytes.len(), long.len), (MAX_LINE, 200_000));
        let msg = long.too_long().unwrap().message;
        assert_eq!(msg, "line is 200000 bytes long, longer than 65536");
        let ok = lines.next_line().unwrap().unwrap();
        assert_eq!((ok.number, ok.bytes, ok.too_long()), (2, &b"ok"[..], None));
        // A `\r` just past the cap is a terminator, not an extra byte.
        let mut exact = vec![b'y'; MAX_LINE];
        exact.extend_from_slice(b"\r\n");
        assert_eq!(all(&exact)[0].2, MAX_LINE as u64);
    }

    #[test]
    fn finds_the_first_newline() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes: Vec<u8> = (0..len).map(|i| b"\x0b\r\x8a\x89a"[i % 5]).collect();
                if at < len {
                    bytes[at] = b'\n';
                    bytes.extend_from_slice(b"\n\n");
                }
                let want = bytes.iter().position(|&b| b == b'\n');
                assert_eq!(find_byte(&bytes, b'\n'), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn trims_spaces_and_tabs() {
        assert_eq!(trim(b" \t a b\t "), b"a b");
        assert_eq!(trim(b" \t "), b"");
    }
}
