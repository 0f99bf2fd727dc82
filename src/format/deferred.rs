//! The `line` format's fast path for `solve`: past the head of a file, a reader may
//! hand out a whole block of lines ([`Body::Lines`]), so the reading thread only reads
//! bytes; the runner splits and parses them on its worker threads ([`LineBlock::items`]).
//! Everything else sees [`Record`]s only.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::cells::Cells;
use crate::record::Skipped;
use crate::record::{ParseError, Puzzle, Record, SourceName};

/// What the loader hands out when it defers parsing: a record, or lines standing for
/// the records they hold.
#[derive(Debug)]
pub struct Item {
    /// The file it came from (`-` for standard input).
    pub source: SourceName,
    /// As [`Record::number`]; 0 for a block of lines, whose records are numbered when
    /// split.
    pub number: u64,
    /// As [`Record::line`]; a block's last line.
    pub line: u64,
    pub body: Body,
}

impl Item {
    /// About how many records this one stands for: a block's lines, else 1.
    pub fn weight(&self) -> usize {
        match &self.body {
            Body::Lines(block) => block.weight(),
            _ => 1,
        }
    }

    /// The record. A block must be split first ([`LineBlock::items`]).
    pub fn into_record(mut self) -> Record {
        self.take_record(0)
    }

    /// The record, numbered after the `before` records of its source, on the worker
    /// thread that solves it; an empty error is left behind.
    pub fn take_record(&mut self, before: u64) -> Record {
        let empty = Body::Parsed(Err(ParseError::new(self.line, String::new())));
        Record {
            source: self.source,
            number: self.number + before,
            line: self.line,
            puzzle: std::mem::replace(&mut self.body, empty).parse(self.line),
        }
    }
}

/// What a reader read: a record's puzzle or error, or a block of lines whose parsing
/// waits for a worker thread.
#[derive(Debug)]
pub enum Body {
    Parsed(Result<Puzzle, ParseError>),
    Lines(LineBlock),
}

impl crate::base::bounds::Held for Item {
    fn held_bytes(&self) -> u64 {
        let heap = match &self.body {
            Body::Parsed(p) => crate::record::heap_bytes(p),
            Body::Lines(block) => block.bytes.capacity(),
        };
        (std::mem::size_of::<Item>() + heap) as u64
    }
}

impl Body {
    /// The puzzle or the parse error of the record that starts at `line`.
    pub fn parse(self, line: u64) -> Result<Puzzle, ParseError> {
        match self {
            Body::Parsed(r) => r,
            // A block reached code that takes one record: a bug, reported, not a panic.
            Body::Lines(_) => {
                debug_assert!(false, "a block of lines was not split into records");
                let why = "internal error: a block of lines was not split into records";
                Err(ParseError::new(line, why))
            }
        }
    }

    /// True for a parse error (a block's are not known yet).
    pub fn is_err(&self) -> bool {
        matches!(self, Body::Parsed(Err(_)))
    }
}

/// Whole lines of a `line` (or POJ) file, each with its terminator but a last one cut
/// from the input alone (see `Lines::next_block`).
#[derive(Debug)]
pub struct LineBlock {
    pub(crate) bytes: Vec<u8>,
    pub(crate) first_line: u64,
    /// Lines in the block (blank and comment lines too).
    pub(crate) lines: u64,
    /// A single line longer than `MAX_LINE`, cut to it: its full length.
    pub(crate) cut: Option<u64>,
    pub(crate) reading: Arc<Reading>,
}

/// How a source's lines are read: shared by its reader and every block of it.
#[derive(Debug, Default)]
pub struct Reading {
    pub(crate) cells: Cells,
    /// POJ 3074: the judges' cells, no suffix.
    pub(crate) poj: bool,
    pub(crate) terminator: u8,
    /// The number of the source's last record before the next block; blocks take their
    /// numbers from it in input order ([`LineBlock::records_before`]).
    pub(crate) numbering: AtomicU64,
    /// The source's count of lines that hold no puzzle.
    pub(crate) skipped: Skipped,
}

impl LineBlock {
    /// About how many records the block holds, to size work (and memory) by: its
    /// lines, or as many 81-cell lines as its bytes would make (one long line weighs
    /// what it holds).
    pub fn weight(&self) -> usize {
        (self.lines as usize).max(self.bytes.len() / 82)
    }

    /// How many records of the source come before the `n` of this block, which are
    /// counted as taken: asked of each block in input order.
    pub fn records_before(&self, n: usize) -> u64 {
        self.reading.numbering.fetch_add(n as u64, Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Body {
        /// The parsed result; tests read without deferring, so a block is a bug there.
        pub fn result(&self) -> &Result<Puzzle, ParseError> {
            match self {
                Body::Parsed(r) => r,
                Body::Lines(b) => panic!("unexpected block {b:?}"),
            }
        }
    }
}
