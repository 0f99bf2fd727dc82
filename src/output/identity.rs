//! What a path names on disk, for telling whether an output is also an input or another
//! output: device and inode for what exists (hard links and symbolic links included),
//! the normalized absolute path for what does not exist yet (`sub/../x` is `x`).

use crate::base::lock;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A file's identity: device and inode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId((u64, u64));

/// What kind of thing a resolved path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing there yet.
    Missing,
    File,
    Directory,
    /// A character device such as `/dev/null` or a terminal: never the same data as
    /// anything else, so exempt from the checks.
    CharDevice,
    /// A pipe or FIFO: writes of up to `PIPE_BUF` bytes are atomic.
    Fifo,
    /// A socket or block device.
    Other,
}

/// A path resolved as far as the file system allows.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// Absolute, symbolic links followed, `.` and `..` applied.
    pub path: PathBuf,
    pub kind: Kind,
    /// `None` when nothing exists there.
    pub id: Option<FileId>,
}

impl Resolved {
    /// True when the two name the same file (never for character devices).
    pub fn same_as(&self, other: &Resolved) -> bool {
        let device = self.kind == Kind::CharDevice || other.kind == Kind::CharDevice;
        match (&self.id, &other.id) {
            _ if device => false,
            (Some(a), Some(b)) => a == b,
            (None, None) => self.path == other.path,
            _ => false,
        }
    }

    /// True when `self` lies inside the directory `dir`.
    pub fn inside(&self, dir: &Resolved) -> bool {
        dir.kind == Kind::Directory && self.path.starts_with(&dir.path) && self.path != dir.path
    }
}

/// Symbolic links followed before giving up (as the kernel's ELOOP limit).
const MAX_LINKS: usize = 40;

/// Resolves `path` (relative to the working directory).
pub fn resolve(path: &Path) -> io::Result<Resolved> {
    resolve_depth(path, 0)
}

fn resolve_depth(path: &Path, links: usize) -> io::Result<Resolved> {
    if links > MAX_LINKS {
        return Err(io::Error::other(format!(
            "{}: too many levels of symbolic links",
            path.display()
        )));
    }
    if let Ok(meta) = fs::metadata(path) {
        let path = fs::canonicalize(path)?;
        return Ok(existing(path, &meta));
    }
    // Does not exist (or is a dangling link): resolve the existing part, then apply the
    // rest by hand. Directories created later are plain directories, so `..` after one
    // is its parent.
    let absolute = std::path::absolute(path)?;
    let mut base = PathBuf::from("/");
    let mut missing = false;
    for component in absolute.components() {
        match component {
            // No prefix on Unix.
            Component::Prefix(_) | Component::CurDir => {}
            Component::RootDir => base.push(component.as_os_str()),
            Component::ParentDir => {
                base.pop();
            }
            Component::Normal(name) if missing => base.push(name),
            Component::Normal(name) => {
                let next = base.join(name);
                match fs::canonicalize(&next) {
                    Ok(real) => base = real,
                    Err(_) => {
                        missing = true;
                        base = match fs::symlink_metadata(&next) {
                            Ok(m) if m.file_type().is_symlink() => {
                                let target = base.join(fs::read_link(&next)?);
                                resolve_depth(&target, links + 1)?.path
                            }
                            _ => next,
                        };
                    }
                }
            }
        }
    }
    // `missing/../existing` lands on something that exists after all.
    match fs::metadata(&base) {
        Ok(meta) => Ok(existing(fs::canonicalize(&base)?, &meta)),
        Err(_) => Ok(Resolved {
            path: base,
            kind: Kind::Missing,
            id: None,
        }),
    }
}

fn existing(path: PathBuf, meta: &Metadata) -> Resolved {
    use std::os::unix::fs::FileTypeExt;
    let kind = match meta.file_type() {
        t if t.is_file() => Kind::File,
        t if t.is_dir() => Kind::Directory,
        t if t.is_char_device() => Kind::CharDevice,
        t if t.is_fifo() => Kind::Fifo,
        _ => Kind::Other,
    };
    Resolved {
        id: Some(file_id(meta)),
        kind,
        path,
    }
}

fn file_id(meta: &Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    FileId((meta.dev(), meta.ino()))
}

/// The files a run writes (its planned outputs, and each file as it is created), so
/// that its reading never takes one of them as an input: a folder walked as an input
/// may reach one through a link, and would read the run's own rows back forever. Each
/// is kept with its path, and counts only while that path still names it (a file
/// replaced or deleted frees its inode for another). Planned outputs share one
/// ([`super::Target::written`]); the loader is given it ([`crate::loader::LoadOptions`]).
#[derive(Clone, Debug, Default)]
pub struct Written(Arc<Mutex<Vec<(PathBuf, FileId)>>>);

impl Written {
    /// Notes that the run writes `file` (nothing for a device, which holds no data).
    pub(crate) fn claim(&self, file: &Resolved) {
        if let (Some(id), false) = (&file.id, file.kind == Kind::CharDevice) {
            let mut written = lock(&self.0);
            written.retain(|(p, _)| p != &file.path);
            written.push((file.path.clone(), id.clone()));
        }
    }

    /// Notes that the run writes the file at `path`, once it exists.
    pub(crate) fn claim_path(&self, path: &Path) {
        if let Ok(meta) = fs::metadata(path) {
            let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            self.claim(&existing(path, &meta));
        }
    }

    /// True when `meta` (of a file the loader is about to read) is that of a file the
    /// run writes.
    pub fn has(&self, meta: &Metadata) -> bool {
        let id = file_id(meta);
        lock(&self.0).iter().any(|(claimed, claimed_id)| {
            claimed_id == &id && fs::metadata(claimed).is_ok_and(|m| file_id(&m) == *claimed_id)
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

/// What a standard stream is connected to: a file, a pipe, a terminal...; `None` when
/// that cannot be told.
pub fn resolve_stream(stream: Stream) -> Option<Resolved> {
    use std::os::fd::AsFd;
    let (owned, name) = match stream {
        Stream::Stdin => (std::io::stdin().as_fd().try_clone_to_owned(), "input"),
        Stream::Stdout => (std::io::stdout().as_fd().try_clone_to_owned(), "output"),
        Stream::Stderr => (std::io::stderr().as_fd().try_clone_to_owned(), "error"),
    };
    let meta = fs::File::from(owned.ok()?).metadata().ok()?;
    Some(existing(PathBuf::from(format!("<standard {name}>")), &meta))
}

/// True when standard output was closed when the program started. The Rust runtime then
/// opens `/dev/null` in its place, read-write (a shell's `> /dev/null` is write-only),
/// so data written there would vanish without an error.
pub fn stdout_was_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let fd = std::io::stdout().as_raw_fd();
        // SAFETY: F_GETFL on a descriptor this process owns reads its flags only.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        let null = resolve(Path::new("/dev/null")).ok();
        let stdout = resolve_stream(Stream::Stdout);
        let is_null = null
            .zip(stdout)
            .is_some_and(|(n, s)| n.id.is_some() && n.id == s.id);
        is_null && flags >= 0 && flags & libc::O_ACCMODE == libc::O_RDWR
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_dot_dots_name_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        fs::write(&a, "x").unwrap();
        let r = |p: &Path| resolve(p).unwrap();
        fs::hard_link(&a, dir.path().join("hard")).unwrap();
        assert!(r(&a).same_as(&r(&dir.path().join("hard"))));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, dir.path().join("soft")).unwrap();
            assert!(r(&a).same_as(&r(&dir.path().join("soft"))));
            // A dangling link names the file it would create.
            std::os::unix::fs::symlink(dir.path().join("new.csv"), dir.path().join("d")).unwrap();
            let dangling = r(&dir.path().join("d"));
            assert_eq!(dangling.kind, Kind::Missing);
            assert!(dangling.same_as(&r(&dir.path().join("new.csv"))));
        }
        // Through a directory that does not exist yet.
        let through = r(&dir.path().join("sub/../a.txt"));
        assert!(through.same_as(&r(&a)));
        let missing = r(&dir.path().join("sub/../b.csv"));
        assert_eq!(missing.kind, Kind::Missing);
        assert!(missing.same_as(&r(&dir.path().join("b.csv"))));
        assert!(!missing.same_as(&r(&dir.path().join("c.csv"))));
        assert!(missing.inside(&r(dir.path())));
    }

    #[test]
    fn character_devices_are_exempt() {
        let null = resolve(Path::new("/dev/null")).unwrap();
        if null.kind == Kind::CharDevice {
            assert!(!null.same_as(&null.clone()));
        }
    }
}
