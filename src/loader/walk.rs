//! Folders given as inputs: their data files, recursively, in sorted order.
//!
//! Hidden entries are skipped, and so are files that look like documentation
//! (`README*`, `LICENSE*`, `*.md`, images, JSON, ...) unless `--glob` chooses files.
//! Each folder is read once (a link back up the tree does not loop), through an open
//! handle on Unix: looking at an entry never walks its whole path again.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use folder::{Folder, Kind};

/// How folders are walked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Levels below a folder given as input to descend (`None`: all).
    pub max_depth: Option<usize>,
    /// When not empty, only files whose name (or path below the folder, for a pattern
    /// with `/`) matches one of these are read, documentation or not.
    pub globs: Vec<String>,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<PathBuf>,
    /// Folders that could not be listed, with why.
    pub errors: Vec<(PathBuf, io::Error)>,
    /// Entries that are not regular files (FIFOs, sockets, devices): not read.
    pub special: Vec<PathBuf>,
    /// Files left out as documentation, and folders below the depth limit.
    pub skipped_docs: Vec<PathBuf>,
    pub skipped_deep: usize,
}

const DOC_NAMES: [&str; 6] = [
    "readme",
    "license",
    "licence",
    "copying",
    "changelog",
    "authors",
];
const DOC_EXTENSIONS: [&str; 20] = [
    "md", "markdown", "rst", "html", "htm", "pdf", "json", "png", "jpg", "jpeg", "gif", "svg",
    "py", "rs", "c", "cpp", "h", "java", "js", "yml",
];

/// True for a name that looks like documentation, code or an image, not puzzles.
pub fn looks_like_docs(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or("");
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    DOC_NAMES.contains(&stem) || DOC_EXTENSIONS.contains(&ext)
}

/// Folders kept open at once, the deepest: each lists its entries and opens its
/// subfolders relative to itself, in constant time whatever its depth (by path, every
/// call walked the whole path again: 1,000 levels took 26 s). One that was closed is
/// opened again by its path when it has a subfolder left to open.
const OPEN_FOLDERS: usize = 64;

/// A folder being walked: its path, and its entries not yet looked at, last first.
struct Level {
    path: PathBuf,
    folder: Option<Folder>,
    entries: Vec<(OsString, io::Result<Kind>)>,
    depth: usize,
}

/// A walk in progress: the folders from the top to the one being listed.
struct Walker<'a> {
    stack: Vec<Level>,
    /// A link back up the tree would loop: each folder is read once.
    seen: HashSet<folder::Id>,
    out: Listing,
    stop: &'a AtomicBool,
}

impl Walk {
    /// The files under `dir`, sorted by name at each level, depth first; `None` once
    /// `stop` (the interrupt flag) is set: nothing of a walk cut short is read.
    pub fn list(&self, dir: &Path, stop: &AtomicBool) -> Option<Listing> {
        let mut w = Walker {
            stack: Vec::new(),
            seen: HashSet::new(),
            out: Listing::default(),
            stop,
        };
        w.enter(dir, Folder::open(dir), 0);
        while let Some(level) = w.stack.last_mut() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let Some((name, kind)) = level.entries.pop() else {
                w.stack.pop();
                continue;
            };
            let path = level.path.join(&name);
            match kind {
                Ok(Kind::Folder) if self.max_depth.is_some_and(|d| level.depth >= d) => {
                    w.out.skipped_deep += 1;
                }
                Ok(Kind::Folder) => {
                    let opened = match &level.folder {
                        Some(folder) => folder.child(&name, &path),
                        None => Folder::open(&path),
                    };
                    let depth = level.depth + 1;
                    w.enter(&path, opened, depth);
                }
                Ok(Kind::File) => {
                    let relative = path.strip_prefix(dir).unwrap_or(&path);
                    self.consider(&path, &name.to_string_lossy(), relative, &mut w.out);
                }
                // Opening a FIFO would wait for a writer, a device may never end: only
                // regular files are data here (name one directly to read it).
                Ok(Kind::Other) => w.out.special.push(path),
                // Kept, so that opening it reports why it cannot be read.
                Err(_) => w.out.files.push(path),
            }
        }
        Some(w.out)
    }

    fn consider(&self, path: &Path, name: &str, relative: &Path, out: &mut Listing) {
        if self.globs.is_empty() {
            match looks_like_docs(name) {
                true => out.skipped_docs.push(path.to_path_buf()),
                false => out.files.push(path.to_path_buf()),
            }
            return;
        }
        let relative = relative.to_string_lossy().replace('\\', "/");
        let chosen = self.globs.iter().any(|g| match g.contains('/') {
            true => glob_match(g.as_bytes(), relative.as_bytes()),
            false => glob_match(g.as_bytes(), name.as_bytes()),
        });
        if chosen {
            out.files.push(path.to_path_buf());
        }
    }
}

impl Walker<'_> {
    /// Lists the folder `opened` at `path` onto the stack, unless it was read already;
    /// one that cannot be opened or listed is an error.
    fn enter(&mut self, path: &Path, opened: io::Result<Folder>, depth: usize) {
        let listed = opened.and_then(|folder| match self.seen.insert(folder.id()?) {
            true => Ok(Some((folder.names()?, folder))),
            false => Ok(None),
        });
        let (names, folder) = match listed {
            Ok(Some(listed)) => listed,
            Ok(None) => return,
            Err(e) => return self.out.errors.push((path.to_path_buf(), e)),
        };
        let mut entries: Vec<(OsString, io::Result<Kind>)> = names
            .into_iter()
            .filter(|name| !name.as_encoded_bytes().starts_with(b"."))
            .take_while(|_| !self.stop.load(Ordering::Relaxed))
            .map(|name| {
                let kind = folder.kind(&name);
                (name, kind)
            })
            .collect();
        entries.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        self.stack.push(Level {
            path: path.to_path_buf(),
            folder: Some(folder),
            entries,
            depth,
        });
        if let Some(shallower) = self.stack.len().checked_sub(OPEN_FOLDERS + 1) {
            self.stack[shallower].folder = None;
        }
    }
}

/// An open folder: its entries looked at and its subfolders opened relative to it.
#[cfg(unix)]
mod folder {
    use std::ffi::{OsStr, OsString};
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    use std::path::Path;

    use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags};

    /// Device and inode.
    pub type Id = (u64, u64);

    pub enum Kind {
        Folder,
        File,
        Other,
    }

    pub struct Folder(std::fs::File);

    impl Folder {
        pub fn open(path: &Path) -> io::Result<Folder> {
            Folder::at(CWD, path.as_os_str())
        }

        /// The subfolder `name`, at `path`. Refused past the longest path the system
        /// opens: the files below could not be opened by their paths.
        pub fn child(&self, name: &OsStr, path: &Path) -> io::Result<Folder> {
            if path.as_os_str().len() >= libc::PATH_MAX as usize {
                return Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG));
            }
            Folder::at(&self.0, name)
        }

        fn at(dir: impl rustix::fd::AsFd, name: &OsStr) -> io::Result<Folder> {
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(dir, name, flags, Mode::empty())?;
            Ok(Folder(fd.into()))
        }

        pub fn id(&self) -> io::Result<Id> {
            let meta = self.0.metadata()?;
            Ok((meta.dev(), meta.ino()))
        }

        pub fn names(&self) -> io::Result<Vec<OsString>> {
            let mut names = Vec::new();
            for entry in Dir::read_from(&self.0)? {
                let entry = entry?;
                let name = entry.file_name().to_bytes();
                if name != b"." && name != b".." {
                    names.push(OsStr::from_bytes(name).to_owned());
                }
            }
            Ok(names)
        }

        /// What `name` is, symbolic links followed.
        pub fn kind(&self, name: &OsStr) -> io::Result<Kind> {
            let stat = rustix::fs::statat(&self.0, name, AtFlags::empty())?;
            Ok(match FileType::from_raw_mode(stat.st_mode) {
                FileType::Directory => Kind::Folder,
                FileType::RegularFile => Kind::File,
                _ => Kind::Other,
            })
        }
    }
}

/// A folder by its path, elsewhere.
#[cfg(not(unix))]
mod folder {
    use std::ffi::{OsStr, OsString};
    use std::fs;
    use std::io;
    use std::path::{Path, PathBuf};

    /// The canonical path.
    pub type Id = PathBuf;

    pub enum Kind {
        Folder,
        File,
        Other,
    }

    pub struct Folder(PathBuf);

    impl Folder {
        pub fn open(path: &Path) -> io::Result<Folder> {
            Ok(Folder(path.to_path_buf()))
        }

        pub fn child(&self, name: &OsStr, _path: &Path) -> io::Result<Folder> {
            Folder::open(&self.0.join(name))
        }

        pub fn id(&self) -> io::Result<Id> {
            fs::canonicalize(&self.0)
        }

        pub fn names(&self) -> io::Result<Vec<OsString>> {
            fs::read_dir(&self.0)?
                .map(|entry| entry.map(|e| e.file_name()))
                .collect()
        }

        pub fn kind(&self, name: &OsStr) -> io::Result<Kind> {
            let meta = fs::metadata(self.0.join(name))?;
            Ok(match (meta.is_dir(), meta.is_file()) {
                (true, _) => Kind::Folder,
                (_, true) => Kind::File,
                _ => Kind::Other,
            })
        }
    }
}

/// `*` (any run, not `/`), `?` (one character) and literal characters.
pub fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if (c == b'?' && text[t] != b'/') || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) if text[st] != b'/' => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
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
        let all = Walk::default().list(dir.path(), &GO).unwrap();
        assert_eq!(all.files, [p("a.txt"), p("b/c/y.sdk"), p("b/z.txt")]);
        assert_eq!(all.skipped_docs.len(), 3);
        let shallow = Walk {
            max_depth: Some(1),
            ..Walk::default()
        }
        .list(dir.path(), &GO)
        .unwrap();
        assert_eq!(shallow.files, [p("a.txt"), p("b/z.txt")]);
        assert_eq!(shallow.skipped_deep, 1);
        let json = Walk {
            globs: vec!["*.json".into()],
            ..Walk::default()
        }
        .list(dir.path(), &GO)
        .unwrap();
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
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            dir.path(),
            dir.path()
                .join(deep.iter().take(500).collect::<PathBuf>())
                .join("up"),
        )
        .unwrap();
        let all = Walk::default().list(dir.path(), &GO).unwrap();
        assert_eq!(
            all.files,
            [bottom.join("p.txt"), dir.path().join("d/z.txt")]
        );
        assert!(all.errors.is_empty(), "{:?}", all.errors);
        let stop = AtomicBool::new(true);
        assert!(Walk::default().list(dir.path(), &stop).is_none());
    }

    /// Below the longest path the system opens, a folder is an error (its files could
    /// not be opened by their paths), and the walk goes on.
    #[cfg(unix)]
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
        let all = Walk::default().list(dir.path(), &GO).unwrap();
        assert_eq!(all.files, [dir.path().join("dd/a.txt")]);
        assert_eq!(all.errors.len(), 1);
        let (path, e) = &all.errors[0];
        assert_eq!(e.raw_os_error(), Some(libc::ENAMETOOLONG));
        assert!(path.as_os_str().len() >= libc::PATH_MAX as usize);
    }
}
