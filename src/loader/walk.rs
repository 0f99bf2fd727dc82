//! Folders given as inputs: their data files, recursively, in sorted order.
//!
//! Hidden entries are skipped, and so are files that look like documentation
//! (`README*`, `LICENSE*`, `*.md`, images, JSON, ...) unless `--glob` chooses files.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

impl Walk {
    /// The files under `dir`, sorted by name at each level, depth first.
    pub fn list(&self, dir: &Path) -> Listing {
        let mut listing = Listing::default();
        let mut seen = HashSet::new();
        self.visit(dir, dir, 0, &mut listing, &mut seen);
        listing
    }

    fn visit(
        &self,
        root: &Path,
        dir: &Path,
        depth: usize,
        out: &mut Listing,
        seen: &mut HashSet<PathBuf>,
    ) {
        // A link back up the tree would loop: each folder is read once.
        let real = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !seen.insert(real) {
            return;
        }
        let entries = match fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                out.errors.push((dir.to_path_buf(), e));
                return;
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => out.errors.push((dir.to_path_buf(), e)),
            }
        }
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            match fs::metadata(&path) {
                Ok(m) if m.is_dir() => {
                    if self.max_depth.is_some_and(|d| depth >= d) {
                        out.skipped_deep += 1;
                    } else {
                        self.visit(root, &path, depth + 1, out, seen);
                    }
                }
                Ok(m) if m.is_file() => {
                    let relative = path.strip_prefix(root).unwrap_or(&path);
                    self.consider(&path, &name, relative, out);
                }
                // Opening a FIFO would wait for a writer, a device may never end: only
                // regular files are data here (name one directly to read it).
                Ok(_) => out.special.push(path),
                // Kept, so that opening it reports why it cannot be read.
                Err(_) => out.files.push(path),
            }
        }
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
        let all = Walk::default().list(dir.path());
        assert_eq!(all.files, [p("a.txt"), p("b/c/y.sdk"), p("b/z.txt")]);
        assert_eq!(all.skipped_docs.len(), 3);
        let shallow = Walk {
            max_depth: Some(1),
            ..Walk::default()
        }
        .list(dir.path());
        assert_eq!(shallow.files, [p("a.txt"), p("b/z.txt")]);
        assert_eq!(shallow.skipped_deep, 1);
        let json = Walk {
            globs: vec!["*.json".into()],
            ..Walk::default()
        }
        .list(dir.path());
        assert_eq!(json.files, [p("b/x.json")]);
    }
}
