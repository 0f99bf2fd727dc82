//! Folders given as inputs: their data files, recursively, in sorted order; hidden
//! entries skipped, and files that look like documentation (`README*`, `*.md`, images,
//! JSON, ...) unless `--glob` chooses files. Each folder is read once (a link back up the
//! tree does not loop), through an open handle, never by its whole path again.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags};

use super::LoadError;

/// How folders are walked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Levels below a folder given as input to descend (`None`: all).
    pub max_depth: Option<usize>,
    /// When not empty, only files whose name (or path below the folder, for a pattern
    /// with `/`) matches one of these are read, documentation or not.
    pub globs: Vec<String>,
}

const DOC_EXTENSIONS: [&str; 20] = [
    "md", "markdown", "rst", "html", "htm", "pdf", "json", "png", "jpg", "jpeg", "gif", "svg",
    "py", "rs", "c", "cpp", "h", "java", "js", "yml",
];

/// True for a name that looks like documentation, code or an image, not puzzles.
fn looks_like_docs(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or("");
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        stem,
        "readme" | "license" | "licence" | "copying" | "changelog" | "authors"
    ) || DOC_EXTENSIONS.contains(&ext)
}

/// Folders kept open at once, the deepest: each opens its subfolders relative to itself
/// (by path, 1,000 levels took 26 s). One closed is opened again by its path.
const OPEN_FOLDERS: usize = 64;

/// A folder being walked: its entries not yet looked at, last first. Its depth is its
/// place on the walk's stack.
struct Level {
    path: PathBuf,
    folder: Option<File>,
    entries: Vec<Entry>,
    /// What its listing holds.
    held: u64,
}

/// An entry of a listing: its name and what it is (symbolic links followed).
type Entry = (OsString, io::Result<FileType>);

/// What the walk holds for each folder it read (its device and inode in a set).
const ID_BYTES: u64 = 2 * std::mem::size_of::<(u64, u64)>() as u64;

/// A walk in progress ([`Walk::walker`]): its files one at a time. It holds the
/// listings of the folders from the top to the one being read and the identities of
/// the others, counted against `budget`: a listing that would pass it is an error.
pub struct Walker {
    walk: Walk,
    /// The folder walked.
    pub top: PathBuf,
    stack: Vec<Level>,
    seen: HashSet<(u64, u64)>,
    budget: u64,
    /// A folder that could not be entered, handed out next.
    error: Option<LoadError>,
    /// The interrupt flag: once set, the walk ends.
    stop: &'static AtomicBool,
    /// Files left out as documentation (the first few named), folders too deep.
    skipped_docs: u64,
    docs_named: Vec<String>,
    skipped_deep: u64,
}

impl Walk {
    /// A walk of the files under `dir`, sorted by name at each level, depth first,
    /// that `stop` (the interrupt flag) ends.
    pub fn walker(&self, dir: &Path, stop: &'static AtomicBool, budget: u64) -> Walker {
        let mut w = Walker {
            walk: self.clone(),
            top: dir.to_path_buf(),
            stack: Vec::new(),
            seen: HashSet::new(),
            budget,
            error: None,
            stop,
            skipped_docs: 0,
            docs_named: Vec::new(),
            skipped_deep: 0,
        };
        w.enter(dir, open(CWD, dir.as_os_str()));
        w
    }
}

/// The folder `name` in `dir`.
fn open(dir: impl rustix::fd::AsFd, name: &OsStr) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(rustix::fs::openat(dir, name, flags, Mode::empty())?.into())
}

impl Walker {
    /// The next file, or what is not read (a folder not listed, a FIFO or device);
    /// `None` at the end or after an interrupt. A file whose kind could not be looked at
    /// is handed out: opening it says why.
    pub fn next(&mut self) -> Option<Result<PathBuf, LoadError>> {
        loop {
            if let Some(error) = self.error.take() {
                return Some(Err(error));
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let depth = self.stack.len().checked_sub(1)?;
            let level = &mut self.stack[depth];
            let Some((name, kind)) = level.entries.pop() else {
                self.stack.pop();
                continue;
            };
            let path = level.path.join(&name);
            match kind {
                Ok(FileType::Directory) if self.walk.max_depth.is_some_and(|d| depth >= d) => {
                    self.skipped_deep += 1;
                }
                Ok(FileType::Directory) => {
                    let opened = match &level.folder {
                        // Past the longest path the system opens, the files below could
                        // not be opened by their paths.
                        Some(_) if path.as_os_str().len() >= libc::PATH_MAX as usize => {
                            Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG))
                        }
                        Some(folder) => open(folder, &name),
                        None => open(CWD, path.as_os_str()),
                    };
                    self.enter(&path, opened);
                }
                Ok(FileType::RegularFile) => {
                    let name = name.to_string_lossy();
                    let globs = &self.walk.globs;
                    if globs.is_empty() && looks_like_docs(&name) {
                        self.skipped_docs += 1;
                        if self.docs_named.len() < 3 {
                            self.docs_named.push(name.into_owned());
                        }
                        continue;
                    }
                    let relative = path.strip_prefix(&self.top).unwrap_or(&path);
                    let relative = relative.to_string_lossy();
                    let text = |g: &str| match g.contains('/') {
                        true => relative.as_bytes(),
                        false => name.as_bytes(),
                    };
                    if globs.is_empty() || globs.iter().any(|g| glob_match(g.as_bytes(), text(g))) {
                        return Some(Ok(path));
                    }
                }
                // Opening a FIFO would wait for a writer, a device may never end: only
                // regular files are data here (name one directly to read it).
                Ok(_) => {
                    let why = "not a regular file (a FIFO, socket or device), so not read from a folder; name it to read it";
                    let source = io::Error::other(why);
                    return Some(Err(LoadError::Open(path.display().to_string(), source)));
                }
                Err(_) => return Some(Ok(path)),
            }
        }
    }

    /// Bytes the walk holds now: the listings on its path, the identities seen.
    pub fn held(&self) -> u64 {
        let listings: u64 = self.stack.iter().map(|l| l.held).sum();
        listings + self.seen.len() as u64 * ID_BYTES
    }

    /// Says what the walk left out, once it ends.
    pub fn notes(&self, say: &mut dyn FnMut(&str)) {
        let top = self.top.display();
        if self.skipped_docs > 0 {
            let more = if self.skipped_docs > 3 { ", ..." } else { "" };
            say(&format!(
                "{top}: skipped {} file(s) that look like documentation, code or images ({}{more}); choose files with --glob",
                self.skipped_docs,
                self.docs_named.join(", ")
            ));
        }
        if self.skipped_deep > 0 {
            let deep = self.skipped_deep;
            say(&format!(
                "{top}: {deep} folder(s) below --max-depth not read"
            ));
        }
    }

    /// Lists the folder `opened` at `path` onto the stack unless it was read already; one
    /// not opened or listed, or whose listing would pass the budget, is an error.
    fn enter(&mut self, path: &Path, opened: io::Result<File>) {
        let listed = opened.and_then(|folder| {
            let meta = folder.metadata()?;
            match self.seen.insert((meta.dev(), meta.ino())) {
                true => self.list(&folder).map(|entries| Some((entries, folder))),
                false => Ok(None),
            }
        });
        let (mut entries, folder) = match listed {
            Ok(Some(listed)) => listed,
            Ok(None) => return,
            Err(source) => {
                return self.error = Some(LoadError::ListDir(path.display().to_string(), source));
            }
        };
        entries.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let names: u64 = entries.iter().map(|(n, _)| n.capacity() as u64).sum();
        let held = (entries.capacity() * std::mem::size_of::<Entry>()) as u64 + names;
        self.stack.push(Level {
            path: path.to_path_buf(),
            folder: Some(folder),
            entries,
            held,
        });
        if let Some(shallower) = self.stack.len().checked_sub(OPEN_FOLDERS + 1) {
            self.stack[shallower].folder = None;
        }
    }

    /// A folder's entries but hidden ones, each with its kind; refused once they would
    /// pass what is left of the budget (counted as they are listed: what a listing
    /// holds, with room for its list's growth, never more).
    fn list(&self, folder: &File) -> io::Result<Vec<Entry>> {
        let left = self.budget.saturating_sub(self.held());
        let (mut entries, mut held) = (Vec::new(), 0);
        for entry in Dir::read_from(folder)? {
            let entry = entry?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            // `.` and `..` too.
            if name.as_bytes().starts_with(b".") {
                continue;
            }
            held += (name.len() + 2 * std::mem::size_of::<Entry>()) as u64;
            if held > left {
                return Err(io::Error::other(format!(
                    "its listing would hold more than {} MiB in memory ({} entries listed so far); read it in parts (--glob, or the folders below it)",
                    left >> 20,
                    entries.len()
                )));
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let stat = rustix::fs::statat(folder, name, AtFlags::empty());
            let kind = stat.map(|s| FileType::from_raw_mode(s.st_mode));
            entries.push((name.to_owned(), kind.map_err(Into::into)));
        }
        Ok(entries)
    }
}

/// `*` (any run, not `/`), `?` (one character) and literal characters.
pub fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    // The last `*`, and where in the text its run ends.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => (star, p) = (Some((p, t)), p + 1),
            Some(&c) if (c == b'?' && text[t] != b'/') || c == text[t] => (p, t) = (p + 1, t + 1),
            _ => match star {
                Some((sp, st)) if text[st] != b'/' => {
                    (p, t, star) = (sp + 1, st + 1, Some((sp, st + 1)));
                }
                _ => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// An interrupt flag never set.
    static GO: AtomicBool = AtomicBool::new(false);

    /// What a whole walk finds: its files, the folders it could not list.
    #[derive(Default)]
    struct Listing {
        files: Vec<PathBuf>,
        errors: Vec<(PathBuf, io::Error)>,
        skipped_docs: u64,
        skipped_deep: u64,
    }

    fn list(walk: &Walk, dir: &Path, stop: &'static AtomicBool, budget: u64) -> Listing {
        let mut w = walk.walker(dir, stop, budget);
        let mut out = Listing::default();
        while let Some(found) = w.next() {
            match found {
                Ok(p) => out.files.push(p),
                Err(LoadError::ListDir(path, source)) => out.errors.push((path.into(), source)),
                Err(_) => {}
            }
            assert!(w.held() <= budget);
        }
        out.skipped_docs = w.skipped_docs;
        out.skipped_deep = w.skipped_deep;
        out
    }

    fn all(walk: &Walk, dir: &Path) -> Listing {
        list(walk, dir, &GO, crate::base::bounds::MAX_HELD_BYTES)
    }

    #[test]
    fn globs_match_names() {
        assert!(glob_match(b"*.txt", b"top95.txt"));
        assert!(!glob_match(b"*.txt", b"top95.csv"));
        assert!(glob_match(b"top??.txt", b"top95.txt"));
        assert!(glob_match(b"sub/*.sdk", b"sub/a.sdk"));
        assert!(!glob_match(b"*.sdk", b"sub/a.sdk"));
        assert!(glob_match(b"*", b""));
    }

    #[test]
    fn walks_sorted_recursively_skipping_docs_and_hidden() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        fs::create_dir_all(p("b/c")).unwrap();
        fs::create_dir_all(p(".git")).unwrap();
        for f in [
            "a.txt",
            "README.md",
            "b/z.txt",
            "b/c/y.sdk",
            ".hidden",
            "LICENSE",
            "b/x.json",
        ] {
            fs::write(p(f), "x").unwrap();
        }
        fs::write(p(".git/config"), "x").unwrap();
        let found = all(&Walk::default(), dir.path());
        assert_eq!(found.files, [p("a.txt"), p("b/c/y.sdk"), p("b/z.txt")]);
        assert_eq!(found.skipped_docs, 3);
        let depth = Walk {
            max_depth: Some(1),
            ..Walk::default()
        };
        let shallow = all(&depth, dir.path());
        assert_eq!(shallow.files, [p("a.txt"), p("b/z.txt")]);
        assert_eq!(shallow.skipped_deep, 1);
        let globs = Walk {
            globs: vec!["*.json".into()],
            ..Walk::default()
        };
        let json = all(&globs, dir.path());
        assert_eq!(json.files, [p("b/x.json")]);
    }

    /// Red-team finding: a folder 1,000 levels deep took 23-52 s to walk (each level
    /// looked at by its whole path, and made canonical), and Ctrl-C was not looked at
    /// meanwhile. Each level is now opened relative to the one above it.
    #[test]
    fn a_folder_1000_levels_deep_is_walked_and_a_set_flag_stops_it() {
        let dir = tempfile::tempdir().unwrap();
        let deep: PathBuf = std::iter::repeat_n("d", 1000).collect();
        let bottom = dir.path().join(&deep);
        fs::create_dir_all(&bottom).unwrap();
        fs::write(bottom.join("p.txt"), "x").unwrap();
        fs::write(dir.path().join("d/z.txt"), "x").unwrap();
        // A link back to the top, 500 levels down: followed once, never looped.
        std::os::unix::fs::symlink(
            dir.path(),
            dir.path()
                .join(deep.iter().take(500).collect::<PathBuf>())
                .join("up"),
        )
        .unwrap();
        let found = all(&Walk::default(), dir.path());
        assert_eq!(
            found.files,
            [bottom.join("p.txt"), dir.path().join("d/z.txt")]
        );
        assert!(found.errors.is_empty(), "{:?}", found.errors);
        static STOP: AtomicBool = AtomicBool::new(true);
        let stopped = list(&Walk::default(), dir.path(), &STOP, u64::MAX);
        assert!(stopped.files.is_empty());
    }

    /// Below the longest path the system opens, a folder is an error (its files could
    /// not be opened by their paths), and the walk goes on.
    #[test]
    fn a_folder_past_the_longest_path_is_an_error() {
        use rustix::fs::{CWD, Mode, OFlags, mkdirat, openat};
        let dir = tempfile::tempdir().unwrap();
        let flags = OFlags::RDONLY | OFlags::DIRECTORY;
        let mut fd = openat(CWD, dir.path(), flags, Mode::empty()).unwrap();
        // Made level by level: its path is too long to make by path.
        let levels = libc::PATH_MAX as usize / 3 + 10;
        for _ in 0..levels {
            mkdirat(&fd, "dd", Mode::RWXU).unwrap();
            fd = openat(&fd, "dd", flags, Mode::empty()).unwrap();
        }
        fs::write(dir.path().join("dd/a.txt"), "x").unwrap();
        let found = all(&Walk::default(), dir.path());
        assert_eq!(found.files, [dir.path().join("dd/a.txt")]);
        assert_eq!(found.errors.len(), 1);
        let (path, e) = &found.errors[0];
        assert_eq!(e.raw_os_error(), Some(libc::ENAMETOOLONG));
        assert!(path.as_os_str().len() >= libc::PATH_MAX as usize);
    }

    /// A folder of 200,000 hard links took 1.4 GB in `solve`: every name of a walk was
    /// kept. A walk holds the listings on the path to the file it hands out, counted
    /// against the memory budget; a folder whose listing would pass it is an error, and
    /// the walk goes on.
    #[test]
    fn a_walk_holds_the_listings_on_its_path_within_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        fs::create_dir_all(p("big")).unwrap();
        fs::create_dir_all(p("small")).unwrap();
        for i in 0..300 {
            fs::write(p(&format!("big/{i:03}.txt")), "x").unwrap();
        }
        for f in ["small/a.txt", "small/b.txt", "z.txt"] {
            fs::write(p(f), "x").unwrap();
        }
        let whole = all(&Walk::default(), dir.path());
        assert_eq!(whole.files.len(), 303);
        // Room for a few dozen names: the big folder is refused, the rest is read.
        let budget = 40 * (8 + 2 * std::mem::size_of::<Entry>() as u64);
        let cut = list(&Walk::default(), dir.path(), &GO, budget);
        assert_eq!(cut.files, [p("small/a.txt"), p("small/b.txt"), p("z.txt")]);
        assert_eq!(cut.errors.len(), 1);
        assert_eq!(cut.errors[0].0, p("big"));
        assert!(cut.errors[0].1.to_string().contains("MiB in memory"));
        // Past the big folder, its listing is no longer held.
        let mut w = Walk::default().walker(dir.path(), &GO, crate::base::bounds::MAX_HELD_BYTES);
        let mut held_in_big = 0;
        while let Some(Ok(f)) = w.next() {
            match f.starts_with(p("big")) {
                true => held_in_big = held_in_big.max(w.held()),
                false if f == p("small/a.txt") => assert!(w.held() * 10 < held_in_big),
                false => {}
            }
        }
        assert!(held_in_big > 300 * 8);
    }
}
