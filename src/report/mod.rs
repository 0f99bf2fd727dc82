//! Reports: the per-puzzle CSV, the solutions file, the summary and the progress bar.
//! Only the [`Reporter`] writes output files.

mod bench_csv;
mod csv;
pub mod export;
mod json;
mod markdown;
mod plot;
mod progress;
mod solutions;
mod summary;
pub mod table;

pub use self::csv::{COLUMNS, CsvReport};
pub use progress::Progress;
pub use solutions::SolutionsReport;
pub use summary::Summary;

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::run::PuzzleResult;

/// Where an output goes: a file, or standard output for `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputPath {
    Stdout,
    File(PathBuf),
}

impl OutputPath {
    pub fn from_arg(arg: &Path) -> OutputPath {
        if arg.as_os_str() == "-" {
            OutputPath::Stdout
        } else {
            OutputPath::File(arg.to_path_buf())
        }
    }

    fn display(&self) -> String {
        match self {
            OutputPath::Stdout => "standard output".to_string(),
            OutputPath::File(p) => p.display().to_string(),
        }
    }

    /// Opens the output, creating parent directories as needed. What is written reaches
    /// the file only at `flush`, in one write: a run stopped between two flushes leaves
    /// whole rows behind.
    pub fn create(&self) -> anyhow::Result<Box<dyn Write + Send>> {
        Ok(match self {
            OutputPath::Stdout => Box::new(WholeWrites::new(io::stdout())),
            OutputPath::File(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating directory {}", dir.display()))?;
                }
                let file =
                    File::create(path).with_context(|| format!("creating {}", path.display()))?;
                Box::new(WholeWrites::new(file))
            }
        })
    }
}

/// Holds everything written until `flush`, then hands it over in one `write_all`, so
/// the file grows by whole chunks of rows: no row is ever half on disk because the
/// process stopped between two writes.
pub struct WholeWrites<W: Write> {
    buf: Vec<u8>,
    out: W,
}

impl<W: Write> WholeWrites<W> {
    pub fn new(out: W) -> WholeWrites<W> {
        WholeWrites {
            buf: Vec::with_capacity(1 << 16),
            out,
        }
    }
}

impl<W: Write> Write for WholeWrites<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.out.flush()
    }
}

impl<W: Write> Drop for WholeWrites<W> {
    fn drop(&mut self) {
        // Like BufWriter: a last flush, errors ignored (callers flush explicitly first).
        let _ = self.flush();
    }
}

/// Writes a whole file so that readers never see half of it: a temporary file beside
/// it, then a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Refuses an output path that is one of the inputs: writing it would destroy the input.
pub fn ensure_not_an_input(output: &OutputPath, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let OutputPath::File(out) = output else {
        return Ok(());
    };
    let Ok(out) = out.canonicalize() else {
        return Ok(()); // It does not exist yet, so it is no input.
    };
    for input in inputs {
        let Ok(input) = input.canonicalize() else {
            continue;
        };
        if out == input || (input.is_dir() && out.starts_with(&input)) {
            anyhow::bail!(
                "refusing to write {}: it is one of the inputs",
                output.display()
            );
        }
    }
    Ok(())
}

/// Writes each chunk of results to every output and keeps the summary.
pub struct Reporter {
    csv: Option<CsvReport<Box<dyn Write + Send>>>,
    solutions: Option<SolutionsReport<Box<dyn Write + Send>>>,
    pub summary: Summary,
}

impl Reporter {
    pub fn new(csv: Option<&OutputPath>, solutions: Option<&OutputPath>) -> anyhow::Result<Self> {
        let csv = match csv {
            Some(path) => Some(
                CsvReport::new(path.create()?)
                    .with_context(|| format!("writing {}", path.display()))?,
            ),
            None => None,
        };
        let solutions = match solutions {
            Some(path) => Some(SolutionsReport::new(path.create()?)),
            None => None,
        };
        Ok(Reporter {
            csv,
            solutions,
            summary: Summary::new(),
        })
    }

    /// Writes a chunk and flushes, so what is done is on disk before the next chunk.
    pub fn write_chunk(&mut self, results: &[PuzzleResult]) -> anyhow::Result<()> {
        for r in results {
            self.summary.add(r);
            if let Some(csv) = &mut self.csv {
                csv.write(r).context("writing the CSV")?;
            }
            if let Some(out) = &mut self.solutions {
                out.write(r).context("writing the solutions")?;
            }
        }
        self.flush()
    }

    pub fn flush(&mut self) -> anyhow::Result<()> {
        if let Some(csv) = &mut self.csv {
            csv.flush().context("writing the CSV")?;
        }
        if let Some(out) = &mut self.solutions {
            out.flush().context("writing the solutions")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the writes that reach it.
    struct Counting(Vec<Vec<u8>>);

    impl Write for &mut Counting {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            self.0.push(data.to_vec());
            Ok(data.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn whole_writes_reach_the_output_in_one_write_per_flush() {
        let mut sink = Counting(Vec::new());
        {
            let mut w = WholeWrites::new(&mut sink);
            for i in 0..1000 {
                writeln!(w, "row {i}").unwrap();
            }
            w.flush().unwrap();
            writeln!(w, "last").unwrap();
        }
        assert_eq!(sink.0.len(), 2);
        assert!(sink.0[0].ends_with(b"row 999\n"));
        assert_eq!(sink.0[1], b"last\n");
    }

    #[test]
    fn outputs_never_overwrite_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x").unwrap();
        let out = OutputPath::File(dir.path().join("./in.txt"));
        assert!(ensure_not_an_input(&out, std::slice::from_ref(&input)).is_err());
        let inside = OutputPath::File(dir.path().join("in.txt"));
        assert!(ensure_not_an_input(&inside, &[dir.path().to_path_buf()]).is_err());
        let other = OutputPath::File(dir.path().join("out.csv"));
        assert!(ensure_not_an_input(&other, &[input]).is_ok());
    }
}
