//! Streams records from files, directories and standard input, one source at a time,
//! in constant memory.
//!
//! After an interrupt the source being read ends at its next read (see [`source`]): the
//! records already read are still yielded, and no further source is opened.

mod source;

pub use source::RawSource;

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::fs;
use std::io::{self, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::format::{Format, RecordReader};
use crate::interrupt;
use crate::record::Record;

/// How much of a source is looked at to guess its format.
const SNIFF: usize = 8 * 1024;
const BUFFER: usize = 64 * 1024;

/// A command-line input: a file, a directory of files, or `-` for standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    pub fn from_arg(arg: impl AsRef<OsStr>) -> Input {
        match arg.as_ref() {
            a if a == "-" => Input::Stdin,
            a => Input::File(PathBuf::from(a)),
        }
    }

    /// `-` for standard input, else the path as given.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(path) => path.display().to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: {source}")]
    Open { path: String, source: io::Error },
    #[error("{path}: cannot list directory: {source}")]
    ListDir { path: String, source: io::Error },
    /// An interrupt came while a source was being opened: not a failure.
    #[error("reading stopped by an interrupt")]
    Stopped,
    #[error("{path}: read error after line {line}: {source}")]
    Read {
        path: String,
        line: u64,
        source: io::Error,
    },
}

impl LoadError {
    /// The source the error is about.
    pub fn path(&self) -> &str {
        match self {
            LoadError::Open { path, .. }
            | LoadError::ListDir { path, .. }
            | LoadError::Read { path, .. } => path,
            LoadError::Stopped => "",
        }
    }
}

/// A source still to open, or an error found while listing inputs.
enum Pending {
    Source(Input),
    Failed(LoadError),
}

/// The source being read.
struct Current {
    name: Arc<str>,
    reader: Box<dyn RecordReader>,
    line: u64,
}

/// The records of all inputs, in order; an iterator of `Result<Record, LoadError>`.
pub struct Loader {
    pending: VecDeque<Pending>,
    format: Option<Format>,
    bytes: Arc<AtomicU64>,
    total: Option<u64>,
    current: Option<Current>,
}

impl Loader {
    /// A loader over `inputs` (standard input when empty); `format` forces a format
    /// instead of guessing one for each source. Directories are listed here.
    pub fn new(inputs: Vec<Input>, format: Option<Format>) -> Loader {
        let mut loader = Loader {
            pending: VecDeque::new(),
            format,
            bytes: Arc::new(AtomicU64::new(0)),
            total: Some(0),
            current: None,
        };
        if inputs.is_empty() {
            loader.add(Input::Stdin);
        }
        for input in inputs {
            loader.add(input);
        }
        loader
    }

    /// Queues an input, or the files of a directory, and adds up their sizes.
    fn add(&mut self, input: Input) {
        let size = match &input {
            Input::Stdin => None,
            Input::File(path) => match fs::metadata(path) {
                Ok(m) if m.is_dir() => {
                    match list_dir(path) {
                        Ok(files) => files.into_iter().for_each(|f| self.add(Input::File(f))),
                        Err(source) => {
                            let path = input.name();
                            let error = LoadError::ListDir { path, source };
                            self.pending.push_back(Pending::Failed(error));
                        }
                    }
                    return;
                }
                Ok(m) if m.is_file() => Some(m.len()),
                Ok(_) => None,     // a pipe or device: no size known
                Err(_) => Some(0), // fails on open, reads nothing
            },
        };
        self.total = self.total.zip(size).map(|(t, s)| t + s);
        self.pending.push_back(Pending::Source(input));
    }

    /// Shared count of input bytes read so far, for progress reports.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.bytes)
    }

    /// The summed size of all input files, `None` when stdin or a pipe is among them.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// Opens a source, guesses its format unless one is forced, and starts its reader.
    fn open(&self, input: &Input) -> Result<Current, LoadError> {
        let name = input.name();
        let opened = match input {
            Input::Stdin => RawSource::stdin(),
            Input::File(path) => RawSource::open(path),
        };
        let raw = opened.map_err(|source| match interrupt::is_stopped_reading(&source) {
            true => LoadError::Stopped,
            false => LoadError::Open {
                path: name.clone(),
                source,
            },
        })?;
        let mut counted = Counting {
            inner: raw,
            bytes: Arc::clone(&self.bytes),
        };
        let (format, head) = match self.format {
            Some(f) => (f, Vec::new()),
            None => {
                let head = sniff(&mut counted).map_err(|source| LoadError::Read {
                    path: name.clone(),
                    line: 0,
                    source,
                })?;
                (Format::detect(&head), head)
            }
        };
        let input = BufReader::with_capacity(BUFFER, Cursor::new(head).chain(counted));
        Ok(Current {
            name: name.into(),
            reader: format.reader(input),
            line: 0,
        })
    }
}

impl Iterator for Loader {
    type Item = Result<Record, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(cur) = &mut self.current {
                match cur.reader.next_record() {
                    Some(Ok(raw)) => {
                        cur.line = raw.line;
                        return Some(Ok(Record {
                            source: Arc::clone(&cur.name),
                            number: raw.number,
                            line: raw.line,
                            body: raw.body,
                        }));
                    }
                    Some(Err(source)) if interrupt::is_stopped_reading(&source) => {
                        self.current = None;
                        self.pending.clear();
                        return None;
                    }
                    Some(Err(source)) => {
                        let (path, line) = (cur.name.to_string(), cur.line);
                        self.current = None;
                        return Some(Err(LoadError::Read { path, line, source }));
                    }
                    None => self.current = None,
                }
            }
            if interrupt::requested() {
                return None;
            }
            match self.pending.pop_front()? {
                Pending::Failed(e) => return Some(Err(e)),
                Pending::Source(input) => match self.open(&input) {
                    Ok(cur) => self.current = Some(cur),
                    Err(LoadError::Stopped) => return None,
                    Err(e) => return Some(Err(e)),
                },
            }
        }
    }
}

/// The regular files of a directory, sorted, hidden files skipped.
fn list_dir(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
        // Follows symbolic links; an entry that cannot be read is kept to report why.
        if !hidden && fs::metadata(&path).map_or(true, |m| m.is_file()) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Reads up to `SNIFF` bytes, fewer at end of input or after an interrupt (what was
/// read is kept, and the next read ends the source).
fn sniff(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(SNIFF);
    match input.take(SNIFF as u64).read_to_end(&mut head) {
        Err(e) if !interrupt::is_stopped_reading(&e) => Err(e),
        _ => Ok(head),
    }
}

/// Adds every byte read to a shared counter.
struct Counting<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    const HDU: &str = "\
4 ? ? ? ? ? 8 ? 5
? 3 ? ? ? ? ? ? ?
? ? ? 7 ? ? ? ? ?
? 2 ? ? ? ? ? 6 ?
? ? ? ? 8 ? 4 ? ?
? ? ? ? 1 ? ? ? ?
? ? ? 6 ? 3 ? 7 ?
5 ? ? 2 ? ? ? ? ?
1 ? 4 ? ? ? ? ? ?
";

    /// (source, number, line, parsed) for records, the error text for errors.
    fn summary(loader: Loader) -> Vec<Result<(String, u64, u64, bool), String>> {
        loader
            .map(|r| match r {
                Ok(r) => Ok((r.source.to_string(), r.number, r.line, r.body.is_ok())),
                Err(e) => Err(e.to_string()),
            })
            .collect()
    }

    #[test]
    fn reads_files_and_directories_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let path = |name: &str| tmp.path().join(name);
        let name = |name: &str| path(name).display().to_string();
        let dir = path("dir");
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(path("judge.txt"), format!("{HDU}\n{HDU}")).unwrap();
        fs::write(dir.join("b.txt"), format!("# c\r\n{P}:1\r\n\r\n{P}\r\n")).unwrap();
        fs::write(dir.join("a.csv"), format!("quizzes\n{P}\n")).unwrap();
        fs::write(dir.join("c.txt"), "").unwrap();
        fs::write(dir.join(".hidden"), "junk").unwrap();
        fs::write(dir.join("sub/d.txt"), P).unwrap();
        fs::write(path("poj"), format!("{P}\nend\n")).unwrap();
        let inputs = ["judge.txt", "missing", "dir", "poj"].map(|n| Input::from_arg(path(n)));
        let loader = Loader::new(inputs.to_vec(), None);
        let sizes: u64 = ["judge.txt", "dir/b.txt", "dir/a.csv", "poj"]
            .iter()
            .map(|n| fs::metadata(path(n)).unwrap().len())
            .sum();
        assert_eq!(loader.total_bytes(), Some(sizes));
        let bytes = loader.bytes_read();
        let got = summary(loader);
        let missing = format!(
            "{}: No such file or directory (os error 2)",
            name("missing")
        );
        let b = dir.join("b.txt").display().to_string();
        let a = dir.join("a.csv").display().to_string();
        assert_eq!(
            got,
            [
                Ok((name("judge.txt"), 1, 1, true)),
                Ok((name("judge.txt"), 2, 11, true)),
                Err(missing),
                Ok((a, 1, 2, true)),
                Ok((b.clone(), 1, 2, true)),
                Ok((b, 2, 4, true)),
                Ok((name("poj"), 1, 1, true)),
            ]
        );
        assert_eq!(bytes.load(Ordering::Relaxed), sizes);
    }

    #[test]
    fn forced_format_empty_inputs_and_stdin() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("x");
        fs::write(&file, format!("{P}\nnot a puzzle\n")).unwrap();
        let got = summary(Loader::new(
            vec![Input::File(file.clone())],
            Some(Format::Line),
        ));
        assert_eq!(got.len(), 2);
        assert!(!got[1].as_ref().unwrap().3);
        fs::create_dir(tmp.path().join("empty")).unwrap();
        let empty = Loader::new(vec![Input::File(tmp.path().join("empty"))], None);
        assert_eq!(empty.total_bytes(), Some(0));
        assert!(summary(empty).is_empty());
        assert_eq!(Input::from_arg("-"), Input::Stdin);
        assert_eq!(Input::Stdin.name(), "-");
        assert_eq!(Input::from_arg("a/b").name(), "a/b");
        assert_eq!(Loader::new(vec![], None).total_bytes(), None);
        fn send<T: Send>(_: &T) {}
        send(&Loader::new(vec![Input::File(file)], None));
    }

    #[test]
    fn read_errors_abandon_the_source_and_go_on() {
        let tmp = tempfile::tempdir().unwrap();
        let (gone, ok) = (tmp.path().join("gone"), tmp.path().join("ok"));
        fs::write(&gone, P).unwrap();
        fs::write(&ok, P).unwrap();
        let loader = Loader::new(vec![Input::File(gone.clone()), Input::File(ok)], None);
        // A file that became a directory opens but fails to read.
        fs::remove_file(&gone).unwrap();
        fs::create_dir(&gone).unwrap();
        let got: Vec<_> = loader.collect();
        let err = got[0].as_ref().unwrap_err();
        assert!(matches!(err, LoadError::Read { line: 0, .. }), "{err}");
        assert_eq!(err.path(), gone.display().to_string());
        assert!(got[1].as_ref().unwrap().body.is_ok());
        assert_eq!(got.len(), 2);
    }
}
