//! Streams records from files, folders and standard input, one source at a time, in
//! constant memory.
//!
//! Each source is opened, decompressed when its first bytes say so ([`decode`]), and its
//! format detected from a sample of its content unless one is forced. Folders are walked
//! recursively ([`walk`]), a file at a time. What a user should know about a source (a
//! header skipped, a format that explained little of the file) goes to a note callback;
//! how it was read goes with its name ([`SourceName::reading`]). Nothing else is kept of
//! a source once it is read: what the names and the walk hold is counted against the
//! memory budget.
//!
//! After an interrupt the source being read ends at its next read (see [`source`]): the
//! records already read are still yielded, and no further source is opened.

mod decode;
mod source;
pub(crate) mod subset;
mod walk;

pub use decode::decompress;
pub use source::RawSource;
pub use walk::Walk;
use walk::{Found, Walker};

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::fs;
use std::io::{self, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::base::cpu::IoTime;
use crate::base::{FNV_START, fnv1a, interrupt};
use crate::format::Item;
use crate::format::{
    Format, Layout, Notes, RecordReader, SAMPLE, alphabets, cr_only, detect, solutions_follow,
    solutions_follow_note,
};
use crate::record::{Reading, Record, SourceName};
use decode::Compression;

const BUFFER: usize = 64 * 1024;

/// A command-line input: a file, a folder of files, or `-` for standard input.
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

    /// `-` for standard input, else the path as given, with characters that could
    /// drive a terminal (a folder's file named with an escape sequence) as U+FFFD: the
    /// name goes into every message, table and row about the source.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(path) => {
                crate::base::bounds::shown(&path.display().to_string(), &[]).into()
            }
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
    /// A source no reading fits: why, and what to do.
    #[error("{path}: {why}")]
    Refused { path: String, why: String },
}

impl LoadError {
    /// The source the error is about.
    pub fn path(&self) -> &str {
        match self {
            LoadError::Open { path, .. }
            | LoadError::ListDir { path, .. }
            | LoadError::Read { path, .. }
            | LoadError::Refused { path, .. } => path,
            LoadError::Stopped => "",
        }
    }
}

/// How sources are read.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Forced instead of detected per source.
    pub format: Option<Format>,
    pub layout: Layout,
    pub walk: Walk,
    /// Say on the note callback which format each source was read as.
    pub verbose: bool,
    /// Where the reads' CPU time is counted (`solve -v`).
    pub io: Option<IoTime>,
}

/// What the source being read turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SourceReport {
    name: SourceName,
    format: Format,
    notes: Notes,
    records: u64,
    /// Parse errors among the records parsed here.
    parse_errors: u64,
}

/// The note for a source most of whose records could not be read: a sign that its
/// layout was guessed wrong. `None` when it reads well enough.
pub fn misread_note(name: &SourceName, records: u64, parse_errors: u64) -> Option<String> {
    let reading = name.reading()?;
    if parse_errors < 3 || parse_errors * 2 <= records {
        return None;
    }
    let others: Vec<&str> = Format::ALL
        .iter()
        .map(|f| f.name())
        .filter(|f| *f != reading.format)
        .collect();
    let how = match reading.detected {
        true => format!(" (detected: {})", crate::format::RULE),
        false => String::new(),
    };
    Some(format!(
        "{name}: {parse_errors} of {records} records could not be read as {}{how}; if the file is laid out otherwise, name its format with --format ({})",
        reading.format,
        others.join(", ")
    ))
}

/// The note for lines skipped because they hold no puzzle (`first`: the first one's
/// number and text, where the reader met it).
pub fn skipped_note(
    name: &SourceName,
    skipped: u64,
    first: Option<&(u64, String)>,
) -> Option<String> {
    let first = match first {
        Some((line, text)) => format!(", the first line {line}: {text:?}"),
        None => String::new(),
    };
    (skipped > 0).then(|| format!("{name}: skipped {skipped} line(s) that hold no puzzle{first}"))
}

/// A source still to open, or a folder being walked.
enum Pending {
    Source(Input),
    Folder(Walker),
}

/// The source being read.
struct Current {
    reader: Box<dyn RecordReader>,
    line: u64,
    report: SourceReport,
}

type NoteSink = Box<dyn FnMut(&str) + Send>;

/// The records of all inputs, in order; an iterator of `Result<Record, LoadError>`.
pub struct Loader {
    pending: VecDeque<Pending>,
    options: LoadOptions,
    bytes: Arc<AtomicU64>,
    hash: Option<Arc<AtomicU64>>,
    total: Option<u64>,
    /// The folders among the inputs, whose sizes are added up when asked.
    folders: Vec<PathBuf>,
    current: Option<Current>,
    /// What the names of the sources opened hold, for the life of the process.
    names_held: u64,
    on_note: NoteSink,
    /// Blocks of lines past the head of each `line` file ([`Loader::in_blocks`]).
    blocks: bool,
}

impl Loader {
    /// A loader over `inputs` (standard input when empty). Folders are listed here.
    pub fn new(inputs: Vec<Input>, options: LoadOptions) -> Loader {
        let mut loader = Loader {
            pending: VecDeque::new(),
            options,
            bytes: Arc::new(AtomicU64::new(0)),
            hash: None,
            total: Some(0),
            folders: Vec::new(),
            current: None,
            names_held: 0,
            on_note: Box::new(|note| say!("note: {note}")),
            blocks: false,
        };
        if inputs.is_empty() {
            loader.add(Input::Stdin);
        }
        for input in inputs {
            loader.add(input);
        }
        loader
    }

    /// Sends notes (a header skipped, a format that explained little) to `sink`
    /// instead of stderr.
    pub fn on_note(mut self, sink: impl FnMut(&str) + Send + 'static) -> Loader {
        self.on_note = Box::new(sink);
        self
    }

    /// Past the head of each plain `line` file, whole blocks of lines
    /// ([`Body::Lines`]), read through [`Loader::items`]: the caller splits, parses and
    /// numbers them on its worker threads ([`crate::format::LineBlock`]). For callers that need no
    /// count of records as they are read.
    pub fn in_blocks(mut self) -> Loader {
        self.blocks = true;
        self
    }

    /// Hashes every byte read (FNV-1a 64, as read from disk, compressed or not).
    pub fn hashing(mut self) -> Loader {
        self.hash = Some(Arc::new(AtomicU64::new(FNV_START)));
        self
    }

    /// The hash of the bytes read so far, when [`Loader::hashing`].
    pub fn hash(&self) -> Option<String> {
        self.hash
            .as_ref()
            .map(|h| format!("fnv1a64:{:016x}", h.load(Ordering::Relaxed)))
    }

    /// Queues an input, or a walk of a folder, and adds up the files' sizes.
    fn add(&mut self, input: Input) {
        let size = match &input {
            Input::Stdin => None,
            Input::File(path) => match fs::metadata(path) {
                Ok(m) if m.is_dir() => {
                    let walker = self.options.walk.walker(path, &interrupt::INTERRUPTED);
                    self.folders.push(path.clone());
                    return self.pending.push_back(Pending::Folder(walker));
                }
                Ok(m) if m.is_file() => Some(m.len()),
                Ok(_) => None,     // a pipe or device: no size known
                Err(_) => Some(0), // fails on open, reads nothing
            },
        };
        self.total = self.total.zip(size).map(|(t, s)| t + s);
        self.pending.push_back(Pending::Source(input));
    }

    /// The next file of the folder being walked, or what went wrong there; `None` at
    /// its end, once its notes are said.
    fn walk(&mut self) -> Option<Result<Input, LoadError>> {
        let Some(Pending::Folder(walker)) = self.pending.front_mut() else {
            return None;
        };
        let held = self.names_held + walker.held();
        if held > crate::base::bounds::MAX_HELD_BYTES {
            let path = walker.top().display().to_string();
            self.pending.clear();
            let source = io::Error::other(format!(
                "more than {} MiB held in memory for the names of the files read and the walk: read fewer files at once (--glob, or the folders below it)",
                crate::base::bounds::MAX_HELD_BYTES >> 20
            ));
            return Some(Err(LoadError::ListDir { path, source }));
        }
        let found = match walker.next() {
            Some(found) => found,
            None => {
                let notes = walker.notes();
                self.pending.pop_front();
                for note in notes {
                    (self.on_note)(&note);
                }
                return None;
            }
        };
        Some(match found {
            Found::File(path) => Ok(Input::File(path)),
            Found::Special(path) => Err(LoadError::Open {
                path: path.display().to_string(),
                source: io::Error::other(
                    "not a regular file (a FIFO, socket or device), so not read from a folder; name it to read it",
                ),
            }),
            Found::Error(path, source) => Err(LoadError::ListDir {
                path: path.display().to_string(),
                source,
            }),
        })
    }

    /// Shared count of input bytes read so far, for progress reports.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.bytes)
    }

    /// The summed size of all input files, `None` when stdin or a pipe is among them.
    /// A folder's files are walked for it (a pass that holds no names).
    pub fn total_bytes(&self) -> Option<u64> {
        let mut total = self.total?;
        for dir in &self.folders {
            let mut walker = self.options.walk.walker(dir, &interrupt::INTERRUPTED);
            while let Some(found) = walker.next() {
                if let Found::File(path) = found {
                    total += fs::metadata(path).map_or(0, |m| m.len());
                }
            }
        }
        Some(total)
    }

    /// Opens a source, decompresses it, detects its format unless one is forced, and
    /// starts its reader.
    fn open(&mut self, input: &Input) -> Result<Current, LoadError> {
        let name = input.name();
        let opened = match input {
            Input::Stdin => RawSource::stdin(),
            Input::File(path) => RawSource::open(path),
        }
        .map(|s| s.timed(self.options.io.clone()));
        let failed = |source: io::Error| match interrupt::is_stopped(&source) {
            true => LoadError::Stopped,
            false => LoadError::Open {
                path: name.clone(),
                source,
            },
        };
        let raw = opened.map_err(failed)?;
        let counted = Counting {
            inner: raw,
            bytes: Arc::clone(&self.bytes),
            hash: self.hash.clone(),
        };
        let read_error = |source: io::Error| LoadError::Read {
            path: name.clone(),
            line: 0,
            source,
        };
        let (mut decoded, compression) =
            decode::decompress(BufReader::with_capacity(BUFFER, counted)).map_err(read_error)?;
        let (head, damage) = sniff(&mut decoded);
        // Nothing decoded: the source fails as it opens.
        let damage = match damage {
            Some(e) if head.is_empty() => return Err(read_error(e)),
            damage => damage,
        };
        let (format, layout) = self.reading(&name, &head, compression)?;
        // Damage in the sample comes after the records before it.
        let head = Cursor::new(head).chain(decode::FirstError(damage));
        let input = BufReader::with_capacity(BUFFER, head.chain(decoded));
        let mut reader = format.reader(input, &layout);
        let reading = Reading {
            format: format.name(),
            detected: self.options.format.is_none(),
            parsed_later: layout.blocks,
        };
        // Lines the workers skip are counted where the run can read them at the end.
        let skipped = reading
            .parsed_later
            .then(|| reader.notes().skipped.0.clone());
        Ok(Current {
            reader,
            line: 0,
            report: SourceReport {
                name: SourceName::read(&name, reading, skipped),
                format,
                notes: Notes::default(),
                records: 0,
                parse_errors: 0,
            },
        })
    }

    /// How a source is read, from its first bytes: the format forced or detected, the
    /// layout (pairs, grid rows, alphabets decided from the sample), each decision said.
    fn reading(
        &mut self,
        name: &str,
        head: &[u8],
        compression: Option<Compression>,
    ) -> Result<(Format, Layout), LoadError> {
        let (format, mut layout, detected) = match self.options.format {
            // The line ending is the file's, whatever its format.
            Some(f) => {
                let cr_only = cr_only(head);
                (
                    f,
                    Layout {
                        cr_only,
                        ..self.options.layout.clone()
                    },
                    None,
                )
            }
            None => match detect(head, &self.options.layout) {
                Ok(d) => (d.format, d.layout.clone(), Some(d)),
                Err(why) => {
                    let path = name.to_string();
                    return Err(LoadError::Refused { path, why });
                }
            },
        };
        if self.options.layout.pairs.is_none() {
            let paired = solutions_follow(format, head, &layout);
            layout.pairs = Some(paired);
            if paired {
                (self.on_note)(&solutions_follow_note(name));
            }
        }
        let rows = layout.rows;
        let style = [
            (
                rows.label_column,
                "each row starts with a label, not a cell",
            ),
            (
                rows.digit_titles,
                "a line of digits alone before a grid is its title (a score, a number), not a row",
            ),
            (rows.rectangular, "it holds boards of rectangular boxes"),
        ];
        for (_, what) in style.iter().filter(|s| s.0 && format == Format::Grid) {
            (self.on_note)(&format!("{name}: {what} (decided from its content)"));
        }
        let (cells, decided) = alphabets(format, head, &layout);
        layout.cells = cells;
        for d in decided {
            (self.on_note)(&format!(
                "{name}: {side}x{side} boards read as {} ({}), decided from the {} in its first {} KiB; --alphabet reads them otherwise",
                d.alphabet.describe(d.side),
                d.alphabet.name(),
                d.records,
                SAMPLE / 1024,
                side = d.side
            ));
        }
        // Pairs are taken as they are read: nothing is left for workers to parse.
        layout.blocks = self.blocks && layout.pairs != Some(true);
        if self.options.verbose {
            let how = match &detected {
                Some(d) => format!(
                    "detected: it explains {} of the {} lines of its first {} KiB; {}",
                    d.explained,
                    d.lines,
                    SAMPLE / 1024,
                    crate::format::RULE
                ),
                None => "--format".into(),
            };
            let packed = compression.map_or(String::new(), |c| format!(", {}", c.describe()));
            (self.on_note)(&format!("{name}: read as {format} ({how}{packed})"));
        }
        Ok((format, layout))
    }

    /// Closes the current source: its report is kept, and its notes said. A source
    /// that held no puzzle is refused, saying why.
    fn finish(&mut self) -> Option<LoadError> {
        let mut cur = self.current.take()?;
        cur.report.notes = cur.reader.notes().clone();
        let r = &cur.report;
        // With records left unparsed, what they skip and fail is known only once they
        // are parsed: the caller says it then (`skipped_note`, `misread_note`).
        let skipped = r.notes.skipped.get();
        if r.records == 0 && (skipped > 0 || r.format == Format::Json) {
            return Some(LoadError::Refused {
                path: r.name.to_string(),
                why: no_puzzle(r),
            });
        }
        if r.name.reading().is_some_and(|r| r.parsed_later) {
            return None;
        }
        let notes = [
            skipped_note(&r.name, skipped, r.notes.first_skipped.as_ref()),
            misread_note(&r.name, r.records, r.parse_errors),
        ];
        for note in notes.into_iter().flatten() {
            (self.on_note)(&note);
        }
        None
    }
}

/// Why a source that held no puzzle is refused.
fn no_puzzle(r: &SourceReport) -> String {
    if r.format == Format::Json {
        return "a JSON document with no board in it: boards are strings or nested numbers, in lists or under keys naming a puzzle (puzzle, quiz, grid, ...)".into();
    }
    let first = match &r.notes.first_skipped {
        Some((line, text)) => format!(" (line {line}: {text:?})"),
        None => String::new(),
    };
    format!(
        "no line of it holds a puzzle in any reading{first}; the readings are those of docs/inputs.md: one puzzle a line, CSV with a header naming the puzzle column (--puzzle-column names another), grids, JSON"
    )
}

/// Records, parsed: a loader told to defer parsing hands out [`Item`]s instead
/// ([`Loader::items`]).
impl Iterator for Loader {
    type Item = Result<Record, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        debug_assert!(!self.blocks, "a loader in blocks is read through items()");
        self.next_item().map(|item| item.map(Item::into_record))
    }
}

impl Loader {
    /// Every item, blocks of lines included (see [`Loader::in_blocks`]): records, and
    /// blocks of lines left unparsed.
    pub fn items(mut self) -> impl Iterator<Item = Result<Item, LoadError>> + Send {
        std::iter::from_fn(move || self.next_item())
    }

    fn next_item(&mut self) -> Option<Result<Item, LoadError>> {
        loop {
            if let Some(cur) = &mut self.current {
                match cur.reader.next_record() {
                    Some(Ok(raw)) => {
                        cur.line = raw.line;
                        cur.report.records += 1;
                        cur.report.parse_errors += u64::from(raw.body.is_err());
                        return Some(Ok(Item {
                            source: cur.report.name,
                            number: raw.number,
                            line: raw.line,
                            body: raw.body,
                        }));
                    }
                    // After an interrupt any read error ends the source: a decoder may
                    // wrap the "stopped" error in its own.
                    Some(Err(_)) if interrupt::requested() => {
                        self.finish();
                        self.pending.clear();
                        return None;
                    }
                    Some(Err(source)) => {
                        let (path, line) = (cur.report.name.to_string(), cur.line);
                        self.finish();
                        return Some(Err(LoadError::Read { path, line, source }));
                    }
                    None => {
                        if let Some(refused) = self.finish() {
                            return Some(Err(refused));
                        }
                    }
                }
            }
            if interrupt::requested() {
                return None;
            }
            let input = match self.pending.front()? {
                Pending::Folder(_) => match self.walk() {
                    Some(Ok(input)) => input,
                    Some(Err(e)) => return Some(Err(e)),
                    None => continue,
                },
                Pending::Source(_) => match self.pending.pop_front() {
                    Some(Pending::Source(input)) => input,
                    _ => continue,
                },
            };
            self.names_held += SourceName::held_bytes(&input.name());
            match self.open(&input) {
                Ok(cur) => self.current = Some(cur),
                Err(LoadError::Stopped) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Reads up to `SAMPLE` bytes, fewer at end of input, after an interrupt (the next read
/// ends the source) or at a read error (damage in a compressed file): what was read
/// before it is kept, with the error.
fn sniff(input: &mut impl Read) -> (Vec<u8>, Option<io::Error>) {
    let mut head = Vec::with_capacity(SAMPLE);
    match input.take(SAMPLE as u64).read_to_end(&mut head) {
        Err(_) if interrupt::requested() => (head, None),
        Err(e) => (head, Some(e)),
        Ok(_) => (head, None),
    }
}

/// Adds every byte read to a shared counter, and to a hash when asked.
struct Counting<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
    hash: Option<Arc<AtomicU64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        if let Some(h) = &self.hash {
            // One reader at a time: a load and a store, no contention.
            h.store(
                fnv1a(h.load(Ordering::Relaxed), &buf[..n]),
                Ordering::Relaxed,
            );
        }
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
                Ok(r) => Ok((r.source.to_string(), r.number, r.line, r.puzzle.is_ok())),
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
        let loader = Loader::new(inputs.to_vec(), LoadOptions::default());
        let sizes: u64 = [
            "judge.txt",
            "dir/b.txt",
            "dir/a.csv",
            "dir/sub/d.txt",
            "poj",
        ]
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
        let d = dir.join("sub/d.txt").display().to_string();
        assert_eq!(
            got,
            [
                Ok((name("judge.txt"), 1, 1, true)),
                Ok((name("judge.txt"), 2, 11, true)),
                Err(missing),
                Ok((a, 1, 2, true)),
                Ok((b.clone(), 1, 2, true)),
                Ok((b, 2, 4, true)),
                Ok((d, 1, 1, true)),
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
            LoadOptions {
                format: Some(Format::Line),
                ..LoadOptions::default()
            },
        ));
        assert_eq!(got.len(), 1);
        assert!(got[0].as_ref().unwrap().3);
        fs::create_dir(tmp.path().join("empty")).unwrap();
        let empty = Loader::new(
            vec![Input::File(tmp.path().join("empty"))],
            LoadOptions::default(),
        );
        assert_eq!(empty.total_bytes(), Some(0));
        assert!(summary(empty).is_empty());
        assert_eq!(Input::from_arg("-"), Input::Stdin);
        assert_eq!(Input::Stdin.name(), "-");
        assert_eq!(Input::from_arg("a/b").name(), "a/b");
        assert_eq!(
            Loader::new(vec![], LoadOptions::default()).total_bytes(),
            None
        );
        fn send<T: Send>(_: &T) {}
        send(&Loader::new(
            vec![Input::File(file)],
            LoadOptions::default(),
        ));
    }

    #[test]
    fn read_errors_abandon_the_source_and_go_on() {
        let tmp = tempfile::tempdir().unwrap();
        let (gone, ok) = (tmp.path().join("gone"), tmp.path().join("ok"));
        fs::write(&gone, P).unwrap();
        fs::write(&ok, P).unwrap();
        let loader = Loader::new(
            vec![Input::File(gone.clone()), Input::File(ok)],
            LoadOptions::default(),
        );
        // A file that became a directory opens but fails to read.
        fs::remove_file(&gone).unwrap();
        fs::create_dir(&gone).unwrap();
        let got: Vec<_> = loader.collect();
        let err = got[0].as_ref().unwrap_err();
        assert!(matches!(err, LoadError::Read { line: 0, .. }), "{err}");
        assert_eq!(err.path(), gone.display().to_string());
        assert!(got[1].as_ref().unwrap().puzzle.is_ok());
        assert_eq!(got.len(), 2);
    }
}
