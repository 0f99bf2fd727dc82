//! What the loader yields: one record per puzzle in the input, parse failures included,
//! or a block of lines standing for the records it holds (`solve` past a file's head).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::Board;

/// One input record: where it came from and either a puzzle or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The file it came from (`-` for standard input).
    pub source: SourceName,
    /// 1-based ordinal of the record within its source (the case number for judge
    /// formats); 0 for a block of lines, whose records are numbered when split.
    pub number: u64,
    /// 1-based line of the source where the record starts (a block's last line).
    pub line: u64,
    pub body: Body,
}

impl Record {
    /// About how many records this one stands for: a block's lines, else 1.
    pub fn weight(&self) -> usize {
        match &self.body {
            Body::Lines(block) => block.weight(),
            _ => 1,
        }
    }

    /// The puzzle or the parse error, parsing a pending line here if it is one.
    pub fn parsed(&self) -> Cow<'_, Result<Puzzle, ParseError>> {
        match &self.body {
            Body::Parsed(r) => Cow::Borrowed(r),
            Body::Line(line) => Cow::Owned(line.parse(self.line)),
            Body::Lines(_) => Cow::Owned(Err(Body::unsplit(self.line))),
        }
    }

    /// Parses a pending line in place (on the worker thread that solves the record).
    pub fn resolve(&mut self) -> &Result<Puzzle, ParseError> {
        match &self.body {
            Body::Line(line) => self.body = Body::Parsed(line.parse(self.line)),
            Body::Lines(_) => self.body = Body::Parsed(Err(Body::unsplit(self.line))),
            Body::Parsed(_) => {}
        }
        match &self.body {
            Body::Parsed(r) => r,
            _ => unreachable!("just parsed"),
        }
    }
}

/// The name of a source, shared by its records and results. Every source opened gets
/// its own id: [`SourceName::same`] tells two sources of one name apart (a file given
/// twice, stdin twice). [`SourceName::local`] is the same source with a reference count
/// of this thread's own, so that worker threads cloning it per record do not fight
/// over one cache line.
#[derive(Clone)]
pub struct SourceName {
    id: u64,
    name: Arc<str>,
}

impl SourceName {
    pub fn new(name: &str) -> SourceName {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        SourceName {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            name: name.into(),
        }
    }

    /// The same source, not just the same name.
    pub fn same(&self, other: &SourceName) -> bool {
        self.id == other.id
    }

    /// This source with a copy of the name counted by this thread alone (the last
    /// source seen on the thread is kept).
    pub fn local(&self) -> SourceName {
        thread_local! {
            static LAST: RefCell<Option<SourceName>> = const { RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some(s) if s.id == self.id => s.clone(),
                _ => {
                    let copy = SourceName {
                        id: self.id,
                        name: Arc::from(&*self.name),
                    };
                    *last = Some(copy.clone());
                    copy
                }
            }
        })
    }
}

impl Deref for SourceName {
    type Target = str;

    fn deref(&self) -> &str {
        &self.name
    }
}

impl From<&str> for SourceName {
    fn from(name: &str) -> SourceName {
        SourceName::new(name)
    }
}

impl From<String> for SourceName {
    fn from(name: String) -> SourceName {
        SourceName::new(&name)
    }
}

/// Names compare as text, as `Arc<str>` did: [`SourceName::same`] compares sources.
impl PartialEq for SourceName {
    fn eq(&self, other: &SourceName) -> bool {
        self.name == other.name
    }
}

impl Eq for SourceName {}

impl fmt::Debug for SourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.name, f)
    }
}

impl fmt::Display for SourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A record's content: parsed, or a line or block of lines whose parsing waits for a
/// worker thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    Parsed(Result<Puzzle, ParseError>),
    /// A `line`-format line past the head of its file, kept as bytes: parsing it is
    /// left to the thread that solves it, so the reading thread only splits lines.
    Line(PendingLine),
    /// Whole lines of a `line`-format file, past its head: split, parsed and numbered
    /// by the runner ([`LineBlock::records`]), so the reading thread only reads bytes.
    Lines(LineBlock),
}

impl From<Result<Puzzle, ParseError>> for Body {
    fn from(r: Result<Puzzle, ParseError>) -> Body {
        Body::Parsed(r)
    }
}

impl Body {
    /// A block reached code that takes one record: a bug, reported, not a panic.
    fn unsplit(line: u64) -> ParseError {
        debug_assert!(false, "a block of lines was not split into records");
        ParseError::new(
            line,
            "internal error: a block of lines was not split into records",
        )
    }

    /// True for a parse error (a pending line is not known to be one yet).
    pub fn is_err(&self) -> bool {
        matches!(self, Body::Parsed(Err(_)))
    }

    /// The parsed result; tests read without deferring, so a pending line is a bug there.
    #[cfg(test)]
    pub fn result(&self) -> &Result<Puzzle, ParseError> {
        match self {
            Body::Parsed(r) => r,
            Body::Line(l) => panic!("unexpected pending line {l:?}"),
            Body::Lines(b) => panic!("unexpected block {b:?}"),
        }
    }
}

/// Longest line kept pending; a longer one is parsed by the reader.
pub const PENDING_MAX: usize = 94;

/// The bytes of one `line`-format line and how to read them.
#[derive(Clone, PartialEq, Eq)]
pub struct PendingLine {
    len: u8,
    /// The judges' cells (POJ 3074) instead of the default ones, and no suffix.
    poj: bool,
    bytes: [u8; PENDING_MAX],
}

impl PendingLine {
    /// `None` when the line is longer than [`PENDING_MAX`].
    pub(crate) fn new(line: &[u8], poj: bool) -> Option<PendingLine> {
        let mut bytes = [0u8; PENDING_MAX];
        bytes.get_mut(..line.len())?.copy_from_slice(line);
        Some(PendingLine {
            len: line.len() as u8,
            poj,
            bytes,
        })
    }

    fn parse(&self, number: u64) -> Result<Puzzle, ParseError> {
        crate::format::parse_pending(&self.bytes[..usize::from(self.len)], number, self.poj)
    }
}

impl fmt::Debug for PendingLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = String::from_utf8_lossy(&self.bytes[..usize::from(self.len)]);
        f.debug_tuple("PendingLine").field(&text).finish()
    }
}

/// Whole lines of a `line` (or POJ) file, each with its terminator but a last one cut
/// from the input alone (see `Lines::next_block`).
#[derive(Clone)]
pub struct LineBlock {
    pub(crate) bytes: Vec<u8>,
    pub(crate) first_line: u64,
    pub(crate) lines: u64,
    pub(crate) terminator: u8,
    pub(crate) poj: bool,
    /// A single line longer than `MAX_LINE`, cut to it: its full length.
    pub(crate) cut: Option<u64>,
    /// The number of the source's last record before this block; blocks take their
    /// numbers from it in input order ([`LineBlock::records_before`]).
    pub(crate) numbering: Arc<AtomicU64>,
}

impl LineBlock {
    /// Lines in the block (blank and comment lines too).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// About how many records the block holds, to size work (and memory) by: its
    /// lines, or as many 81-cell lines as its bytes would make (one long line weighs
    /// what it holds).
    pub fn weight(&self) -> usize {
        (self.lines as usize).max(self.bytes.len() / 82)
    }

    /// The block's records, numbered from 1 within it (see [`LineBlock::records_before`]), and
    /// parsed as the reader parses a deferred line. Blank and comment lines hold none.
    pub fn records(&self, source: &SourceName) -> Vec<Record> {
        use crate::format::lines::{MAX_LINE, too_long, trim};
        let source = source.local();
        let mut out = Vec::with_capacity(self.bytes.len() / 82 + 1);
        let mut line_number = self.first_line;
        let mut add = |line: &[u8], line_number: u64| {
            let t = trim(line);
            // A line read alone may have been cut; one in a block is whole.
            let len = self.cut.unwrap_or(line.len() as u64);
            let whole = len <= MAX_LINE as u64;
            let cells = crate::format::pending_cells(self.poj);
            if t.is_empty() || crate::format::line::holds_no_record(t, cells, !self.poj, whole) {
                return;
            }
            debug_assert!(t != b"end", "an `end` line is read alone");
            let body = match len > MAX_LINE as u64 {
                true => Err(too_long(line_number, len)),
                false => crate::format::parse_pending(line, line_number, self.poj),
            };
            out.push(Record {
                source: source.clone(),
                number: out.len() as u64 + 1,
                line: line_number,
                body: Body::Parsed(body),
            });
        };
        let mut start = 0;
        for end in memchr::memchr_iter(self.terminator, &self.bytes) {
            let line = &self.bytes[start..end];
            add(line.strip_suffix(b"\r").unwrap_or(line), line_number);
            line_number += 1;
            start = end + 1;
        }
        // A line read alone comes without its terminator, already stripped.
        if start < self.bytes.len() {
            add(&self.bytes[start..], line_number);
        }
        out
    }

    /// How many records of the source come before the `n` of this block, which are
    /// counted as taken: asked of each block in input order.
    pub fn records_before(&self, n: usize) -> u64 {
        self.numbering.fetch_add(n as u64, Ordering::Relaxed)
    }
}

impl fmt::Debug for LineBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineBlock")
            .field("first_line", &self.first_line)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// Blocks compare by content (tests compare records).
impl PartialEq for LineBlock {
    fn eq(&self, other: &LineBlock) -> bool {
        (
            &self.bytes,
            self.first_line,
            self.terminator,
            self.poj,
            self.cut,
        ) == (
            &other.bytes,
            other.first_line,
            other.terminator,
            other.poj,
            other.cut,
        )
    }
}

impl Eq for LineBlock {}

/// A puzzle and, when the input says so, the answer it should have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens: 9x9 inline, other sizes boxed.
    pub board: Board,
    /// Boxed: few inputs give one, and a smaller `Record` is cheaper to move around.
    pub expected: Option<Box<Expected>>,
}

impl Puzzle {
    pub fn new(board: impl Into<Board>) -> Puzzle {
        Puzzle {
            board: board.into(),
            expected: None,
        }
    }
}

/// An expected answer from the input (`puzzle:count:solution` lines, a CSV solution column).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Expected {
    /// Number of solutions the puzzle has (reference files write `2` for "two or more").
    pub count: Option<u64>,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<Board>,
}

/// A malformed record: the line (and column, where it helps) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u64,
    pub column: Option<usize>,
    pub message: String,
}

impl ParseError {
    pub fn new(line: u64, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column: None,
            message: message.into(),
        }
    }

    pub fn at(line: u64, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column: Some(column),
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {}: {}", self.line, c, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}
