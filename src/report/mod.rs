//! Reports: the per-puzzle outputs (CSV, solutions file), the summary, the progress bar,
//! and `bench`'s tables and exports. Files are written only through [`crate::output`].
//!
//! A per-puzzle output is a [`RowFormat`]: it turns each result into one row of bytes.
//! Adding one is a file implementing it and an arm in [`RowOutputKind::format`].

mod bench_csv;
pub mod compare;
mod csv;
pub mod export;
pub mod history;
pub mod html;
mod json;
mod jsonl;
mod markdown;
pub mod paired;
pub mod plot;
mod progress;
mod solutions;
mod summary;
pub mod svg;
pub mod table;
pub mod text_table;

pub use self::csv::{COLUMNS, CsvRows};
pub use progress::Progress;
pub use solutions::SolutionsRows;
pub use summary::Summary;

use crate::output::{RowStream, StreamError, Target};
use crate::run::{PuzzleResult, Status};

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
    /// `--jsonl`: one JSON object per record.
    Jsonl,
}

impl RowOutputKind {
    pub fn format(self) -> Box<dyn RowFormat> {
        match self {
            RowOutputKind::Csv => Box::new(CsvRows::default()),
            RowOutputKind::Solutions => Box::new(SolutionsRows),
            RowOutputKind::Jsonl => Box::new(jsonl::JsonRows::default()),
        }
    }
}

/// One per-puzzle output: its format and the stream it writes.
pub struct RowOutput {
    format: Box<dyn RowFormat>,
    stream: RowStream,
}

impl RowOutput {
    /// Opens the output and writes its header.
    pub fn open(kind: RowOutputKind, target: &Target) -> anyhow::Result<RowOutput> {
        let mut format = kind.format();
        let mut stream = RowStream::open(target)?;
        let before = stream.row_buffer().len();
        format.header(stream.row_buffer());
        if stream.row_buffer().len() > before {
            stream.end_row();
            stream.commit()?;
        }
        Ok(RowOutput { format, stream })
    }

    /// Writes one row per result (those `only` keeps), all at once.
    pub fn write(
        &mut self,
        results: &[PuzzleResult],
        only: Option<&Only>,
    ) -> Result<(), StreamError> {
        for r in results.iter().filter(|r| only.is_none_or(|o| o.keeps(r))) {
            self.format.row(r, self.stream.row_buffer());
            self.stream.end_row();
        }
        self.stream.commit()
    }
}

/// Writes each chunk of results to every per-puzzle output and keeps the tally.
#[derive(Default)]
pub struct Reporter {
    outputs: Vec<RowOutput>,
    only: Option<Only>,
    pub summary: Summary,
}

impl Reporter {
    pub fn open(
        outputs: &[(RowOutputKind, Target)],
        only: Option<Only>,
    ) -> anyhow::Result<Reporter> {
        let outputs = outputs
            .iter()
            .map(|(kind, target)| RowOutput::open(*kind, target))
            .collect::<anyhow::Result<_>>()?;
        Ok(Reporter {
            outputs,
            only,
            summary: Summary::default(),
        })
    }

    /// Counts a chunk and writes it to every output, whole rows only.
    pub fn write_chunk(&mut self, results: &[PuzzleResult]) -> Result<(), StreamError> {
        for r in results {
            self.summary.add(r);
        }
        for out in &mut self.outputs {
            out.write(results, self.only.as_ref())?;
        }
        Ok(())
    }
}

/// `--only`: the statuses whose rows the per-puzzle outputs keep (`wrong` keeps the
/// wrong answers whatever their status).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Only {
    statuses: [bool; Status::ALL.len()],
    wrong: bool,
}

impl Only {
    pub fn keeps(&self, r: &PuzzleResult) -> bool {
        self.statuses[r.status as usize] || (self.wrong && r.is_mismatch())
    }
}

impl std::str::FromStr for Only {
    type Err = String;

    fn from_str(s: &str) -> Result<Only, String> {
        let mut only = Only {
            statuses: [false; Status::ALL.len()],
            wrong: false,
        };
        for name in s.split(',').map(str::trim) {
            if name == "wrong" {
                only.wrong = true;
                continue;
            }
            let status = Status::ALL
                .iter()
                .find(|st| st.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = Status::ALL.iter().map(|s| s.name()).collect();
                    format!(
                        "unknown status {name:?}; the statuses are {}, and wrong",
                        names.join(", ")
                    )
                })?;
            only.statuses[*status as usize] = true;
        }
        Ok(only)
    }
}
