//! What `solve` writes: the per-puzzle outputs (CSV, solutions file), the
//! summary and the progress bar; and the one writer of text tables, which `bench`'s
//! presentation ([`crate::bench::present`]) uses too. Files are written only through
//! [`crate::output`].
//!
//! A per-puzzle output is a [`RowFormat`]: it turns each result into one row of bytes.
//! Adding one is a file implementing it and an arm in [`RowOutputKind::format`].

mod csv;
mod progress;
mod solutions;
mod summary;
pub(crate) mod tally;
pub mod text_table;

pub use self::csv::{CsvRows, uint};
pub use progress::Progress;
pub use solutions::SolutionsRows;
pub use summary::{Summary, rate};

use crate::base::lock;
use std::sync::{Mutex, PoisonError};

use crate::output::{RowStream, Rows, StreamError, Target};
use crate::report::tally::{Tally, WrongAnswer};
use crate::run::{Collect, PuzzleResult, Status};
use summary::{Counts, SourceCounts};

/// Turns results into rows of one per-puzzle output.
pub trait RowFormat: Send {
    /// The first row, if the output has one.
    fn header(&mut self, _out: &mut Vec<u8>) {}
    /// Appends one row (ending with a newline) for `r`.
    fn row(&mut self, r: &PuzzleResult, out: &mut Vec<u8>);
}

/// The per-puzzle outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOutputKind {
    /// `--csv`: one CSV row per record.
    Csv,
    /// `--solutions`: `puzzle:count:solution` lines.
    Solutions,
}

impl RowOutputKind {
    pub fn format(self) -> Box<dyn RowFormat> {
        match self {
            RowOutputKind::Csv => Box::new(CsvRows::default()),
            RowOutputKind::Solutions => Box::new(SolutionsRows),
        }
    }
}

/// Opens a per-puzzle output and writes its header.
fn open_output(kind: RowOutputKind, target: &Target) -> anyhow::Result<RowStream> {
    let mut stream = RowStream::open(target)?;
    kind.format().header(stream.row_buffer());
    if !stream.row_buffer().is_empty() {
        stream.end_row();
        stream.commit()?;
    }
    Ok(stream)
}

/// A per-puzzle output written on the calling thread (bench's `--per-puzzle`).
pub struct RowOutput {
    format: Box<dyn RowFormat>,
    stream: RowStream,
}

impl RowOutput {
    /// Opens the output and writes its header.
    pub fn open(kind: RowOutputKind, target: &Target) -> anyhow::Result<RowOutput> {
        let (format, stream) = (kind.format(), open_output(kind, target)?);
        Ok(RowOutput { format, stream })
    }

    /// Writes one row per result, all at once.
    pub fn write(&mut self, results: &[PuzzleResult]) -> Result<(), StreamError> {
        for r in results {
            self.format.row(r, self.stream.row_buffer());
            self.stream.end_row();
        }
        self.stream.commit()
    }
}

/// Room made for each row up front: a CSV row with a puzzle and its solution is about
/// 200 bytes; growing the buffer would copy it.
const ROW_BYTES: usize = 256;

/// Parse errors a [`Part`] keeps the text of; the rest are counted.
pub const PART_PARSE_ERRORS: usize = 10;

/// Results turned into what the serial writer needs, on the worker thread that solved
/// them: the rows of every output, the counts per source, the first wrong answer and
/// the first parse errors. The results themselves are dropped there.
#[derive(Debug, Default)]
pub struct Part {
    /// One per output, in the order they were opened.
    rows: Vec<Rows>,
    sources: Vec<SourceCounts>,
    first_wrong: Option<WrongAnswer>,
    /// `source: message` of the first parse errors.
    pub parse_errors: Vec<String>,
    pub parse_error_count: u64,
    pub records: u64,
}

/// The half of the reporter that works on worker threads: formats results into a
/// [`Part`] and adds them to a tally.
pub struct RowFormatter {
    kinds: Vec<RowOutputKind>,
    /// Tallies not in use: a piece takes one and gives it back, so each is counted into
    /// by one thread at a time (a shared one would serialize the workers), about one a
    /// thread; merged at the end.
    tallies: Mutex<Vec<Tally>>,
}

impl RowFormatter {
    /// A collector for a piece of `records` results, on the worker thread that solves
    /// them.
    pub fn piece(&self, records: usize) -> PartBuilder<'_> {
        let rows = || Rows::with_capacity(records, records * ROW_BYTES);
        PartBuilder {
            formatter: self,
            formats: self.kinds.iter().map(|k| (k.format(), rows())).collect(),
            tally: lock(&self.tallies).pop().unwrap_or_default(),
            part: Part::default(),
        }
    }
}

/// Turns results into a [`Part`] one at a time ([`RowFormatter::piece`]).
pub struct PartBuilder<'f> {
    formatter: &'f RowFormatter,
    formats: Vec<(Box<dyn RowFormat>, Rows)>,
    tally: Tally,
    part: Part,
}

impl Collect for PartBuilder<'_> {
    type Part = Part;

    fn add(&mut self, r: &PuzzleResult<'_>) {
        let part = &mut self.part;
        part.records += 1;
        for (format, rows) in &mut self.formats {
            format.row(r, rows.buffer());
            rows.end_row();
        }
        self.tally.add(r);
        // Records of a source come together and share one name: compare pointers.
        if part.sources.last().is_none_or(|s| !s.name.same(&r.source)) {
            part.sources.push(SourceCounts {
                name: r.source,
                counts: Counts::default(),
            });
        }
        let s = &mut part.sources.last_mut().expect("just pushed").counts;
        s.records += 1;
        match r.status {
            Status::Unique | Status::Solved | Status::Multiple => s.solved += 1,
            Status::NoSolution => s.no_solution += 1,
            Status::ParseError => s.parse_errors += 1,
            _ => {}
        }
        s.wrong += u64::from(r.is_mismatch());
        if r.status == Status::ParseError {
            part.parse_error_count += 1;
            if part.parse_errors.len() < PART_PARSE_ERRORS {
                let error = r.error.as_deref().unwrap_or("");
                part.parse_errors.push(format!("{}: {error}", r.source));
            }
        }
    }

    fn finish(mut self) -> Part {
        // The tally's first wrong answer is this piece's: it starts each piece with none.
        let mut part = self.part;
        part.first_wrong = self.tally.first_wrong.take();
        lock(&self.formatter.tallies).push(self.tally);
        part.rows = self.formats.into_iter().map(|(_, rows)| rows).collect();
        part
    }
}

/// The serial half of the reporter: writes the parts to every per-puzzle output, in
/// order, whole rows only, and keeps the summary.
pub struct Reporter {
    outputs: Vec<RowStream>,
    pub(crate) summary: Summary,
    timed: Option<crate::base::cpu::IoTime>,
}

impl Reporter {
    /// Opens the outputs (writing their headers); the formatter goes to the workers.
    /// `timed`: where each write's CPU time is counted (`solve -v`).
    pub fn open(
        outputs: &[(RowOutputKind, Target)],
        timed: Option<crate::base::cpu::IoTime>,
    ) -> anyhow::Result<(Reporter, RowFormatter)> {
        let streams = outputs
            .iter()
            .map(|(kind, target)| open_output(*kind, target))
            .collect::<anyhow::Result<_>>()?;
        let formatter = RowFormatter {
            kinds: outputs.iter().map(|(kind, _)| *kind).collect(),
            tallies: Mutex::default(),
        };
        let reporter = Reporter {
            outputs: streams,
            summary: Summary::default(),
            timed,
        };
        Ok((reporter, formatter))
    }

    /// Writes parts, in order, to every output.
    pub fn write_parts(&mut self, parts: &[Part]) -> Result<(), StreamError> {
        for part in parts {
            self.summary.add_sources(&part.sources);
            let first_wrong = &mut self.summary.tally.first_wrong;
            if first_wrong.is_none() {
                first_wrong.clone_from(&part.first_wrong);
            }
            for (out, rows) in self.outputs.iter_mut().zip(&part.rows) {
                crate::base::cpu::timed_io(self.timed.as_ref(), || out.commit_rows(rows))?;
            }
        }
        Ok(())
    }

    /// The summary, with every thread's tally merged (the first wrong answer in input
    /// order is the one taken from the parts).
    pub fn finish(self, formatter: RowFormatter) -> Summary {
        let mut summary = self.summary;
        summary.end_source();
        let tallies = formatter.tallies.into_inner();
        for tally in tallies.unwrap_or_else(PoisonError::into_inner) {
            summary.tally += &tally;
        }
        summary
    }
}
