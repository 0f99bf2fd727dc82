//! Streams records from files, folders ([`walk`]) and standard input, one source at a
//! time, in constant memory: each source decompressed when its first bytes say so
//! ([`decode`]), its format detected from a sample unless one is forced. Notes go to a
//! callback; how a source was read goes with its name, nothing else is kept of it (the
//! names and the walk are counted against the memory budget). After an interrupt the
//! source being read ends at its next read ([`source`]) and no other opens.

mod decode;
mod source;
pub(crate) mod subset;
mod walk;

pub use decode::decompress;
pub use source::RawSource;
pub use walk::Walk;

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::fs;
use std::io::{self, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::base::bounds::{MAX_HELD_BYTES, shown};
use crate::base::cpu::IoTime;
use crate::base::{FNV_START, interrupt};
use crate::format::{Format, Item, Layout, Pairs, RULE, RecordReader, SAMPLE, fix, reading};
use crate::record::{FirstSkipped, Reading, Record, SourceName};
use walk::Walker;

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

    /// `-` for standard input, else the path as given, with characters that could drive
    /// a terminal as U+FFFD: the name goes into every message, table and row.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(path) => shown(&path.display().to_string(), &[]).into(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}: {1}")]
    Open(String, #[source] io::Error),
    #[error("{0}: cannot list directory: {1}")]
    ListDir(String, #[source] io::Error),
    #[error("{path}: read error after line {line}: {source}")]
    Read {
        path: String,
        line: u64,
        source: io::Error,
    },
    /// A source no reading fits: why, and what to do.
    #[error("{0}: {1}")]
    Refused(String, String),
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
    /// The files the run writes, never read as its inputs.
    pub written: crate::output::Written,
}

/// The note for a source most of whose records could not be read: a sign that its
/// layout was guessed wrong, with the flag that reads its first bytes (`fix`, tried
/// only here). `None` when it reads well enough.
pub fn misread_note(
    name: &SourceName,
    records: u64,
    parse_errors: u64,
    fix: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let reading = name.reading()?;
    if parse_errors < 3 || parse_errors * 2 <= records {
        return None;
    }
    let how = reading.detected.then(|| format!(" (detected: {RULE})"));
    // A table's puzzles are in a column: another reading of its lines would take
    // whatever board a row holds (its answer) for the puzzle.
    let fix = match reading.format == Format::Csv.name() {
        true => "if another column holds the puzzles, name it with --puzzle-column".into(),
        false => match fix() {
            Some(f) => format!("{f} reads its first {} KiB with no error", SAMPLE >> 10),
            None => "docs/inputs.md says what each --format reads".into(),
        },
    };
    Some(format!(
        "{name}: {parse_errors} of {records} records could not be read as {}{}; {fix}",
        reading.format,
        how.unwrap_or_default()
    ))
}

/// The note for lines skipped because they hold no puzzle (`first`: the first one).
pub fn skipped_note(
    name: &SourceName,
    (skipped, first): (u64, Option<FirstSkipped>),
) -> Option<String> {
    let first = first.map(|(line, text)| format!(", the first line {line}: {text:?}"));
    let first = first.unwrap_or_default();
    (skipped > 0).then(|| format!("{name}: skipped {skipped} line(s) that hold no puzzle{first}"))
}

/// A source still to open, or a folder being walked.
enum Pending {
    Source(Input),
    Folder(Box<Walker>),
}

/// The source being read: the line of its last record, its records and parse errors.
struct Current {
    reader: Box<dyn RecordReader>,
    name: SourceName,
    format: Format,
    line: u64,
    records: u64,
    parse_errors: u64,
    /// The first bytes, where the format was detected: a refusal tries flags on them.
    head: Option<Vec<u8>>,
}

/// The records of all inputs, in order; an iterator of `Result<Record, LoadError>`.
pub struct Loader {
    pending: VecDeque<Pending>,
    options: LoadOptions,
    bytes: Arc<AtomicU64>,
    hash: Option<Arc<AtomicU64>>,
    current: Option<Current>,
    /// What the names of the sources opened hold, for the life of the process.
    names_held: u64,
    on_note: Box<dyn FnMut(&str) + Send>,
    /// Blocks of lines past the head of each `line` file ([`Loader::in_blocks`]).
    blocks: bool,
}

impl Loader {
    /// A loader over `inputs` (standard input when empty). Folders are listed here.
    pub fn new(mut inputs: Vec<Input>, options: LoadOptions) -> Loader {
        if inputs.is_empty() {
            inputs.push(Input::Stdin);
        }
        let stop = &interrupt::INTERRUPTED;
        let pending = inputs.into_iter().map(|input| match &input {
            Input::File(path) if path.is_dir() => {
                Pending::Folder(Box::new(options.walk.walker(path, stop, MAX_HELD_BYTES)))
            }
            _ => Pending::Source(input),
        });
        Loader {
            pending: pending.collect(),
            options,
            bytes: Arc::new(AtomicU64::new(0)),
            hash: None,
            current: None,
            names_held: 0,
            on_note: Box::new(|note| say!("note: {note}")),
            blocks: false,
        }
    }

    /// Sends notes to `sink` instead of stderr.
    pub fn on_note(mut self, sink: impl FnMut(&str) + Send + 'static) -> Loader {
        self.on_note = Box::new(sink);
        self
    }

    /// Past the head of each plain `line` file, whole blocks of lines, read through
    /// [`Loader::items`], which the caller parses on its worker threads
    /// ([`crate::format::LineBlock`]): for callers that count no records as they read.
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
        let hash = self.hash.as_ref()?.load(Ordering::Relaxed);
        Some(format!("fnv1a64:{hash:016x}"))
    }

    /// Shared count of input bytes read so far, for progress reports.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.bytes)
    }

    /// The summed size of all input files, `None` when stdin or a pipe is among them.
    /// A folder's files are walked for it (a pass that holds no names).
    pub fn total_bytes(&self) -> Option<u64> {
        let mut total = 0;
        for pending in &self.pending {
            match pending {
                Pending::Source(Input::Stdin) => return None,
                // A pipe or device: no size known; a file that fails to open reads nothing.
                Pending::Source(Input::File(path)) => match fs::metadata(path) {
                    Ok(m) if !m.is_file() => return None,
                    m => total += m.map_or(0, |m| m.len()),
                },
                Pending::Folder(folder) => {
                    let stop = &interrupt::INTERRUPTED;
                    let mut walker = self.options.walk.walker(&folder.top, stop, MAX_HELD_BYTES);
                    while let Some(found) = walker.next() {
                        total += found.map_or(0, |f| fs::metadata(f).map_or(0, |m| m.len()));
                    }
                }
            }
        }
        Some(total)
    }

    /// The next source opened, or why finding or opening one failed; `None` at the end
    /// or after an interrupt. A folder's notes are said at its end.
    fn next_source(&mut self) -> Option<Result<Current, LoadError>> {
        let input = loop {
            if interrupt::requested() {
                return None;
            }
            let mut walker = match self.pending.pop_front()? {
                Pending::Source(input) => break input,
                Pending::Folder(walker) => walker,
            };
            if self.names_held + walker.held() > MAX_HELD_BYTES {
                self.pending.clear();
                let source = io::Error::other(format!(
                    "more than {} MiB held in memory for the names of the files read and the walk: read fewer files at once (--glob, or the folders below it)",
                    MAX_HELD_BYTES >> 20
                ));
                let path = walker.top.display().to_string();
                return Some(Err(LoadError::ListDir(path, source)));
            }
            let Some(found) = walker.next() else {
                walker.notes(&mut self.on_note);
                continue;
            };
            self.pending.push_front(Pending::Folder(walker));
            match found {
                Ok(path) => break Input::File(path),
                Err(e) => return Some(Err(e)),
            }
        };
        self.names_held += SourceName::held_bytes(&input.name());
        Some(self.open(&input))
    }

    /// Opens a source, decompresses it, detects its format, and starts its reader.
    fn open(&mut self, input: &Input) -> Result<Current, LoadError> {
        let name = input.name();
        let opened = match input {
            Input::Stdin => RawSource::stdin(),
            Input::File(path) => RawSource::open(path, &self.options.written),
        };
        let mut raw = opened.map_err(|source| LoadError::Open(name.clone(), source))?;
        raw.timed = self.options.io.clone();
        raw.bytes = Arc::clone(&self.bytes);
        raw.hash = self.hash.clone();
        let read_error = |source| LoadError::Read {
            path: name.clone(),
            line: 0,
            source,
        };
        let (mut decoded, compression) =
            decode::decompress(BufReader::with_capacity(BUFFER, raw)).map_err(read_error)?;
        // The sample. Damage met in it (a compressed file's) comes after the records
        // before it; with nothing before it, the source fails as it opens.
        let mut head = Vec::with_capacity(SAMPLE);
        let read = (&mut decoded).take(SAMPLE as u64).read_to_end(&mut head);
        let mut damage = read.err();
        if let Some(e) = damage.take_if(|_| head.is_empty()) {
            return Err(read_error(e));
        }
        let (options, say) = (&self.options, &mut self.on_note);
        let (format, mut layout, how) = reading(&name, &head, options.format, &options.layout, say)
            .map_err(|why| {
                let fix = fix(&head, &options.layout, None).map(|f| format!(" ({f} reads it)"));
                LoadError::Refused(name.clone(), why + &fix.unwrap_or_default())
            })?;
        // Pairs are taken as they are read: nothing is left for workers to parse.
        layout.blocks = self.blocks && matches!(layout.pairs, None | Some(Pairs::No));
        if self.options.verbose {
            let packed = compression.map_or(String::new(), |c| format!(", {}", c.describe()));
            (self.on_note)(&format!("{name}: read as {format} ({how}{packed})"));
        }
        let kept = options.format.is_none().then(|| head.clone());
        let head = Cursor::new(head).chain(decode::FirstError(damage));
        let input = BufReader::with_capacity(BUFFER, head.chain(decoded));
        let mut reader = format.reader(input, &layout);
        let reading = Reading {
            format: format.name(),
            detected: self.options.format.is_none(),
            parsed_later: layout.blocks,
        };
        // Lines the workers skip are counted where the run can read them at the end.
        let skipped = layout.blocks.then(|| reader.notes().skipped.clone());
        Ok(Current {
            reader,
            name: SourceName::new(&name, Some(reading), skipped),
            format,
            line: 0,
            records: 0,
            parse_errors: 0,
            head: kept,
        })
    }

    /// Closes the current source, its notes said. A source that held no puzzle is
    /// refused, saying why.
    fn finish(&mut self) -> Option<LoadError> {
        let mut cur = self.current.take()?;
        let (name, notes) = (cur.name, cur.reader.notes());
        let skipped = notes.skipped.get();
        if cur.records == 0 && (skipped.0 > 0 || cur.format == Format::Json) {
            let first = skipped.1.as_ref();
            let at = first.map(|(line, text)| format!(" (line {line}: {text:?})"));
            // The flag that reads it (`2 3 9 e e e 4 1 e`: `--blanks e`), tried first.
            let hint = (cur.head.as_ref()).and_then(|h| fix(h, &self.options.layout, None));
            let why = match cur.format {
                Format::Json => "a JSON document with no board this tool reads in it: boards are strings or nested numbers, in lists or under keys naming a puzzle (puzzle, quiz, grid, ...), never objects a cell or maps of cell names; under keys naming answers (solution, answer, ...) they are answers, never puzzles; to read another shape, extract its puzzles one a line".into(),
                _ => format!(
                    "no line of it holds a puzzle in any reading{}{}; the readings are those of docs/inputs.md: one puzzle a line, CSV with a header naming the puzzle column (--puzzle-column names another), grids, JSON",
                    at.unwrap_or_default(),
                    hint.map(|h| format!("; {h} reads it")).unwrap_or_default()
                ),
            };
            return Some(LoadError::Refused(name.to_string(), why));
        }
        if !notes.unread.is_empty() {
            let keys = notes.unread.join(", ");
            (self.on_note)(&format!(
                "{name}: {keys}: a variant's rules or other settings beside the puzzles, not applied: every board is solved by classic Sudoku's rules only"
            ));
        }
        // With records left unparsed, what they skip and fail is known only once they
        // are parsed: the caller says it then (`skipped_note`, `misread_note`).
        if name.reading().is_some_and(|r| r.parsed_later) {
            return None;
        }
        let notes = [
            skipped_note(&name, skipped),
            misread_note(&name, cur.records, cur.parse_errors, || {
                fix(cur.head.as_ref()?, &self.options.layout, Some(cur.format))
            }),
        ];
        for note in notes.into_iter().flatten() {
            (self.on_note)(&note);
        }
        None
    }

    /// Every item: records, and blocks of lines left unparsed ([`Loader::in_blocks`]).
    pub fn items(mut self) -> impl Iterator<Item = Result<Item, LoadError>> + Send {
        std::iter::from_fn(move || self.next_item())
    }

    fn next_item(&mut self) -> Option<Result<Item, LoadError>> {
        loop {
            let failed = match &mut self.current {
                Some(cur) => {
                    let failed = match cur.reader.next_record() {
                        Some(Ok(raw)) => {
                            cur.line = raw.line;
                            cur.records += 1;
                            cur.parse_errors += u64::from(raw.body.is_err());
                            return Some(Ok(Item {
                                source: cur.name,
                                number: raw.number,
                                line: raw.line,
                                body: raw.body,
                            }));
                        }
                        Some(Err(source)) => {
                            let (path, line) = (cur.name.to_string(), cur.line);
                            Some(LoadError::Read { path, line, source })
                        }
                        None => None,
                    };
                    failed.or(self.finish())
                }
                None => self
                    .next_source()?
                    .map(|cur| self.current = Some(cur))
                    .err(),
            };
            // After an interrupt an error just ends the reading: a read or an open it
            // stopped, or a decoder's error wrapping that. (No source opens after it.)
            if let Some(e) = failed {
                return (!interrupt::requested()).then_some(Err(e));
            }
        }
    }
}

/// Records, parsed ([`Loader::items`] for a loader [`Loader::in_blocks`]).
impl Iterator for Loader {
    type Item = Result<Record, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        debug_assert!(!self.blocks, "a loader in blocks is read through items()");
        self.next_item().map(|item| item.map(Item::into_record))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl LoadError {
        /// The source the error is about.
        fn path(&self) -> &str {
            match self {
                LoadError::Open(path, _)
                | LoadError::ListDir(path, _)
                | LoadError::Read { path, .. }
                | LoadError::Refused(path, _) => path,
            }
        }
    }

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
