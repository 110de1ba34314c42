//! A directory tree as one byte string: paths, modes, symbolic links, empty directories and
//! file contents, so that a tree is reduced, cached, budgeted and kept on disk as one value.
//!
//! Main types: [`Archive`] (the entries of a tree, sorted), [`Entry`], [`EntryKind`] and
//! [`Splice`] (an archive with one file's content left open, to test that file's candidates
//! inside the whole tree). An archive is encoded as a header line and one record per entry, in
//! path order, each record standing alone (its path and content are length-prefixed), so
//! deleting a file or a whole subdirectory deletes a contiguous run of records:
//!
//! ```text
//! myhill-tree 1
//! d 755 3:pkg
//! f 644 10:pkg/mod.py 4:1/0
//! l 777 4:link 10:pkg/mod.py
//! ```
//!
//! ```
//! use myhill::archive::{Archive, Entry, EntryKind};
//! let tree = Archive::new(vec![
//!     Entry::file("main.py", 0o644, b"import pkg.mod\n"),
//!     Entry::dir("pkg", 0o755),
//!     Entry::file("pkg/mod.py", 0o644, b"1/0\n"),
//! ]).unwrap();
//! let bytes = tree.encode();
//! assert!(Archive::is_archive(&bytes));
//! assert_eq!(Archive::decode(&bytes).unwrap(), tree);
//! assert_eq!((tree.files(), tree.content_bytes()), (2, 19));
//! // One file's content open: a smaller content gives a shortlex-smaller archive.
//! let splice = tree.splice(2).unwrap();
//! assert_eq!(splice.content(&bytes), b"1/0\n");
//! assert!(splice.lift(b"1/0").len() < bytes.len());
//! ```
//!
//! A file's content is the only part a reduction edits in place; shortlex order on the archive
//! agrees with shortlex order on that content (a shorter content never has a longer length
//! field), so a reduction that only accepts shortlex-smaller archives still terminates.
//!
//! Limits: regular files, directories and symbolic links only (a FIFO, socket or device is
//! refused by [`Archive::from_dir`]); owners, times and extended attributes are not kept;
//! a symbolic link is kept as its target text, never followed.

use std::fmt;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const MAGIC: &[u8] = b"myhill-tree 1\n";

/// What one entry of a tree is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A directory (its contents are the entries below its path).
    Dir,
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A symbolic link and its target, as written (never followed).
    Symlink(Vec<u8>),
}

/// One path of a tree: relative, `/`-separated, with no `.`, `..` or empty component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path relative to the tree's root.
    pub path: Vec<u8>,
    /// The permission bits (`0o7777` at most).
    pub mode: u32,
    /// What it is.
    pub kind: EntryKind,
}

impl Entry {
    /// A regular file.
    pub fn file(path: &str, mode: u32, content: &[u8]) -> Entry {
        Entry {
            path: path.as_bytes().to_vec(),
            mode,
            kind: EntryKind::File(content.to_vec()),
        }
    }

    /// A directory.
    pub fn dir(path: &str, mode: u32) -> Entry {
        Entry {
            path: path.as_bytes().to_vec(),
            mode,
            kind: EntryKind::Dir,
        }
    }

    /// A symbolic link to `target`.
    pub fn symlink(path: &str, target: &str) -> Entry {
        Entry {
            path: path.as_bytes().to_vec(),
            mode: 0o777,
            kind: EntryKind::Symlink(target.as_bytes().to_vec()),
        }
    }

    /// Whether it is a regular file.
    pub fn is_file(&self) -> bool {
        matches!(self.kind, EntryKind::File(_))
    }

    /// The path's components.
    fn components(&self) -> impl Iterator<Item = &[u8]> {
        self.path.split(|&b| b == b'/')
    }

    /// Whether `self` lies under the directory `dir` (strictly).
    pub fn is_under(&self, dir: &Entry) -> bool {
        self.path.len() > dir.path.len()
            && self.path.starts_with(&dir.path)
            && self.path[dir.path.len()] == b'/'
    }

    /// Its path as a file system path.
    pub fn path(&self) -> &Path {
        Path::new(std::ffi::OsStr::from_bytes(&self.path))
    }
}

/// Why bytes are not an archive, or why a tree cannot be made one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveError(pub String);

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArchiveError {}

fn bad(msg: impl Into<String>) -> ArchiveError {
    ArchiveError(msg.into())
}

/// A directory tree: its entries in path order (a directory before what it holds, and what it
/// holds right after it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Archive {
    entries: Vec<Entry>,
}

/// An archive with the content of one file left open: [`Splice::lift`] puts a candidate
/// content in its place, giving the whole tree's bytes.
#[derive(Clone, Debug)]
pub struct Splice {
    /// Everything before the file's content length.
    head: Vec<u8>,
    /// Everything after the file's content.
    tail: Vec<u8>,
    /// Where the content starts and ends in the archive it was taken from.
    content: std::ops::Range<usize>,
}

impl Splice {
    /// The whole tree with `content` as the open file's bytes.
    pub fn lift(&self, content: &[u8]) -> Vec<u8> {
        let len = content.len().to_string();
        let mut out =
            Vec::with_capacity(self.head.len() + len.len() + 1 + content.len() + self.tail.len());
        out.extend_from_slice(&self.head);
        out.extend_from_slice(len.as_bytes());
        out.push(b':');
        out.extend_from_slice(content);
        out.extend_from_slice(&self.tail);
        out
    }

    /// The content in `whole`, a tree this splice lifted.
    pub fn unlift<'a>(&self, whole: &'a [u8]) -> &'a [u8] {
        let field = &whole[self.head.len()..whole.len() - self.tail.len()];
        let colon = field
            .iter()
            .position(|&b| b == b':')
            .expect("a lifted tree");
        &field[colon + 1..]
    }

    /// The open file's content in `archive`, the bytes this splice was taken from.
    pub fn content<'a>(&self, archive: &'a [u8]) -> &'a [u8] {
        &archive[self.content.clone()]
    }
}

fn put_field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(bytes.len().to_string().as_bytes());
    out.push(b':');
    out.extend_from_slice(bytes);
}

impl Archive {
    /// A tree of `entries` (in any order): sorted, checked, and with every missing parent
    /// directory added (mode 755).
    pub fn new(mut entries: Vec<Entry>) -> Result<Archive, ArchiveError> {
        for e in &entries {
            check_path(&e.path)?;
            if e.mode > 0o7777 {
                return Err(bad(format!(
                    "{}: mode {:o} is more than permission bits",
                    e.path().display(),
                    e.mode
                )));
            }
        }
        let mut parents = Vec::new();
        for e in &entries {
            let mut at = 0;
            while let Some(i) = e.path[at..].iter().position(|&b| b == b'/') {
                parents.push(e.path[..at + i].to_vec());
                at += i + 1;
            }
        }
        parents.sort();
        parents.dedup();
        for p in parents {
            if !entries.iter().any(|e| e.path == p) {
                entries.push(Entry {
                    path: p,
                    mode: 0o755,
                    kind: EntryKind::Dir,
                });
            }
        }
        entries.sort_by(|a, b| a.components().cmp(b.components()));
        for w in entries.windows(2) {
            if w[0].path == w[1].path {
                return Err(bad(format!("{} appears twice", w[0].path().display())));
            }
        }
        for e in &entries {
            let parent = e.path.iter().rposition(|&b| b == b'/');
            if let Some(p) = parent
                && entries
                    .iter()
                    .any(|d| d.path == e.path[..p] && d.kind != EntryKind::Dir)
            {
                return Err(bad(format!(
                    "{} lies under something that is not a directory",
                    e.path().display()
                )));
            }
        }
        Ok(Archive { entries })
    }

    /// Its entries, in path order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many regular files it holds.
    pub fn files(&self) -> usize {
        self.entries.iter().filter(|e| e.is_file()).count()
    }

    /// The bytes of all its regular files.
    pub fn content_bytes(&self) -> usize {
        self.entries
            .iter()
            .map(|e| match &e.kind {
                EntryKind::File(c) => c.len(),
                _ => 0,
            })
            .sum()
    }

    /// The symbolic links whose target leaves the tree, with their targets: an absolute one
    /// (in a copy it still points at the original place, so a test may write there) or a
    /// relative one that climbs above the root (in a copy made elsewhere it dangles).
    pub fn links_leaving(&self) -> Vec<(&Path, &Path)> {
        self.entries
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::Symlink(target) => {
                    let target = Path::new(std::ffi::OsStr::from_bytes(target));
                    leaves(e.path(), target).then_some((e.path(), target))
                }
                _ => None,
            })
            .collect()
    }

    /// Whether `bytes` start like an encoded archive.
    pub fn is_archive(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// The encoding of entry `i` alone.
    fn record(&self, i: usize) -> Vec<u8> {
        let e = &self.entries[i];
        let mut out = Vec::new();
        let (tag, data) = match &e.kind {
            EntryKind::Dir => (b'd', None),
            EntryKind::File(c) => (b'f', Some(c)),
            EntryKind::Symlink(t) => (b'l', Some(t)),
        };
        out.push(tag);
        out.extend_from_slice(format!(" {:o} ", e.mode).as_bytes());
        put_field(&mut out, &e.path);
        if let Some(d) = data {
            out.push(b' ');
            put_field(&mut out, d);
        }
        out.push(b'\n');
        out
    }

    /// The records, one per entry, in order; [`Archive::encode`] is the header and their
    /// concatenation.
    pub fn records(&self) -> Vec<Vec<u8>> {
        (0..self.entries.len()).map(|i| self.record(i)).collect()
    }

    /// The header and the records of the entries whose index `keep` accepts.
    pub fn encode_kept(records: &[Vec<u8>], keep: impl Fn(usize) -> bool) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for (i, r) in records.iter().enumerate() {
            if keep(i) {
                out.extend_from_slice(r);
            }
        }
        out
    }

    /// The tree as one byte string.
    pub fn encode(&self) -> Vec<u8> {
        Archive::encode_kept(&self.records(), |_| true)
    }

    /// The tree `bytes` encode, or what is wrong with them.
    pub fn decode(bytes: &[u8]) -> Result<Archive, ArchiveError> {
        let mut rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| bad("not a myhill tree (no header line)"))?;
        let mut entries = Vec::new();
        while !rest.is_empty() {
            let (e, r) = decode_record(rest)?;
            entries.push(e);
            rest = r;
        }
        let archive = Archive::new(entries.clone())?;
        if archive.entries != entries {
            return Err(bad(
                "the entries are out of order or a directory is missing",
            ));
        }
        Ok(archive)
    }

    /// The archive with file `i`'s content open (`None` if entry `i` is not a regular file).
    pub fn splice(&self, i: usize) -> Option<Splice> {
        let EntryKind::File(content) = &self.entries.get(i)?.kind else {
            return None;
        };
        let records = self.records();
        let mut head = MAGIC.to_vec();
        for r in &records[..i] {
            head.extend_from_slice(r);
        }
        let own = &records[i];
        let digits = content.len().to_string().len();
        // The record ends with "<len>:<content>\n".
        let at = own.len() - 1 - content.len() - 1 - digits;
        head.extend_from_slice(&own[..at]);
        let start = head.len() + digits + 1;
        let mut tail = vec![b'\n'];
        for r in &records[i + 1..] {
            tail.extend_from_slice(r);
        }
        Some(Splice {
            head,
            tail,
            content: start..start + content.len(),
        })
    }

    /// Reads the tree under `root` (not following symbolic links). A FIFO, socket or device
    /// is refused, naming it.
    pub fn from_dir(root: &Path) -> Result<Archive, ArchiveError> {
        let mut entries = Vec::new();
        read_into(root, Path::new(""), &mut entries, 0)?;
        Archive::new(entries)
    }

    /// Makes the tree under `root`, a directory that must not exist yet (its parent must).
    /// Directories get their modes last, so a read-only one is still filled.
    pub fn write_to(&self, root: &Path) -> io::Result<()> {
        std::fs::create_dir(root)?;
        for e in &self.entries {
            let path = root.join(e.path());
            match &e.kind {
                EntryKind::Dir => std::fs::create_dir(&path)?,
                EntryKind::File(c) => {
                    std::fs::write(&path, c)?;
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(e.mode))?;
                }
                EntryKind::Symlink(t) => {
                    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(t), &path)?
                }
            }
        }
        for e in self.entries.iter().rev() {
            if e.kind == EntryKind::Dir {
                let path = root.join(e.path());
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(e.mode))?;
            }
        }
        Ok(())
    }
}

fn check_path(path: &[u8]) -> Result<(), ArchiveError> {
    let shown = String::from_utf8_lossy(path);
    if path.is_empty() || path.contains(&0) {
        return Err(bad(format!("{shown:?} is not a path")));
    }
    for c in path.split(|&b| b == b'/') {
        if c.is_empty() || c == b"." || c == b".." {
            return Err(bad(format!(
                "{shown:?} is not a plain relative path (empty, . or .. component)"
            )));
        }
    }
    Ok(())
}

fn read_into(
    root: &Path,
    rel: &Path,
    entries: &mut Vec<Entry>,
    depth: usize,
) -> Result<(), ArchiveError> {
    let dir = root.join(rel);
    let io_err = |p: &Path, e: io::Error| bad(format!("cannot read {}: {e}", p.display()));
    if depth > 256 {
        return Err(bad(format!("{} is nested too deeply", dir.display())));
    }
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| io_err(&dir, e))?
        .map(|r| r.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(|e| io_err(&dir, e))?;
    names.sort();
    for name in names {
        let rel = rel.join(&name);
        let path = root.join(&rel);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| io_err(&path, e))?;
        let mode = meta.permissions().mode() & 0o7777;
        let bytes = rel.as_os_str().as_bytes().to_vec();
        let kind = meta.file_type();
        if kind.is_dir() {
            entries.push(Entry {
                path: bytes,
                mode,
                kind: EntryKind::Dir,
            });
            read_into(root, &rel, entries, depth + 1)?;
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| io_err(&path, e))?;
            entries.push(Entry {
                path: bytes,
                mode: 0o777,
                kind: EntryKind::Symlink(target.as_os_str().as_bytes().to_vec()),
            });
        } else if kind.is_file() {
            let content = std::fs::read(&path).map_err(|e| {
                bad(format!(
                    "cannot read {}: {e} (check its permissions, e.g. chmod u+r)",
                    path.display()
                ))
            })?;
            entries.push(Entry {
                path: bytes,
                mode,
                kind: EntryKind::File(content),
            });
        } else {
            return Err(bad(format!(
                "{} is neither a file, a directory nor a symbolic link: move it out of the tree \
                 to reduce",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Reads `<decimal>:` and the bytes it counts.
fn take_field(rest: &[u8]) -> Result<(&[u8], &[u8]), ArchiveError> {
    let colon = rest
        .iter()
        .take(21)
        .position(|&b| b == b':')
        .ok_or_else(|| bad("a length field has no ':'"))?;
    let digits = &rest[..colon];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad("a length field is not a number"));
    }
    let len: usize = std::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("a length field is too large"))?;
    let rest = &rest[colon + 1..];
    if rest.len() < len {
        return Err(bad("a field runs past the end"));
    }
    Ok(rest.split_at(len))
}

fn decode_record(rest: &[u8]) -> Result<(Entry, &[u8]), ArchiveError> {
    let tag = rest[0];
    let rest = rest
        .get(1..)
        .and_then(|r| r.strip_prefix(b" "))
        .ok_or_else(|| bad("a record has no kind"))?;
    let space = rest
        .iter()
        .take(8)
        .position(|&b| b == b' ')
        .ok_or_else(|| bad("a record has no mode"))?;
    let mode = std::str::from_utf8(&rest[..space])
        .ok()
        .and_then(|s| u32::from_str_radix(s, 8).ok())
        .ok_or_else(|| bad("a mode is not an octal number"))?;
    let (path, mut rest) = take_field(&rest[space + 1..])?;
    let mut data = None;
    if tag != b'd' {
        let r = rest
            .strip_prefix(b" ")
            .ok_or_else(|| bad("a file or link record has no content"))?;
        let (d, r) = take_field(r)?;
        data = Some(d.to_vec());
        rest = r;
    }
    let rest = rest
        .strip_prefix(b"\n")
        .ok_or_else(|| bad("a record does not end with a newline"))?;
    let kind = match (tag, data) {
        (b'd', None) => EntryKind::Dir,
        (b'f', Some(d)) => EntryKind::File(d),
        (b'l', Some(d)) => EntryKind::Symlink(d),
        _ => return Err(bad(format!("unknown record kind {:?}", tag as char))),
    };
    let entry = Entry {
        path: path.to_vec(),
        mode,
        kind,
    };
    Ok((entry, rest))
}

/// Whether the link at `link` (a path in the tree) to `target` points outside the tree.
fn leaves(link: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return true;
    }
    // The link's directory, then the target's components from there.
    let mut depth = link.components().count().saturating_sub(1) as i64;
    for part in target.components() {
        match part {
            std::path::Component::ParentDir => depth -= 1,
            std::path::Component::Normal(_) => depth += 1,
            _ => {}
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn links_that_leave_the_tree_are_found() {
        let tree = super::Archive::new(vec![
            super::Entry::dir("lib", 0o755),
            super::Entry::symlink("lib/in", "../a.txt"),
            super::Entry::symlink("lib/up", "../../shared/x"),
            super::Entry::symlink("abs", "/etc/hostname"),
            super::Entry::file("a.txt", 0o644, b"a"),
            super::Entry::symlink("down", "lib/../a.txt"),
        ])
        .unwrap();
        let found: Vec<String> = tree
            .links_leaving()
            .iter()
            .map(|(l, t)| format!("{} -> {}", l.display(), t.display()))
            .collect();
        assert_eq!(found, ["abs -> /etc/hostname", "lib/up -> ../../shared/x"]);
    }
    use super::*;

    fn sample() -> Archive {
        Archive::new(vec![
            Entry::file("b/x y", 0o600, b"two\nlines\n"),
            Entry::file("a", 0o755, b""),
            Entry::dir("empty", 0o700),
            Entry::symlink("b/link", "../a"),
            Entry::file("b-c", 0o644, b"1:2 3\n"),
        ])
        .unwrap()
    }

    #[test]
    fn an_archive_round_trips_and_keeps_subtrees_together() {
        let tree = sample();
        let paths: Vec<String> = tree
            .entries()
            .iter()
            .map(|e| String::from_utf8_lossy(&e.path).into_owned())
            .collect();
        // b's parent was added; what b holds follows it, before b-c.
        assert_eq!(paths, ["a", "b", "b/link", "b/x y", "b-c", "empty"]);
        let bytes = tree.encode();
        assert_eq!(Archive::decode(&bytes).unwrap(), tree);
        assert_eq!(tree.files(), 3);
    }

    #[test]
    fn decoding_refuses_what_is_not_a_tree() {
        let bytes = sample().encode();
        for cut in 1..bytes.len() {
            // Every proper prefix past the header is refused or is a smaller tree, never a panic.
            let _ = Archive::decode(&bytes[..cut]);
        }
        assert!(Archive::decode(b"hello").is_err());
        let escape = Archive::new(vec![Entry::file("../x", 0o644, b"")]);
        assert!(escape.is_err());
        let mut swapped = MAGIC.to_vec();
        swapped.extend_from_slice(b"f 644 1:b 0:\nf 644 1:a 0:\n");
        assert!(Archive::decode(&swapped).is_err());
    }

    #[test]
    fn a_splice_lifts_a_content_into_the_tree() {
        let tree = sample();
        let bytes = tree.encode();
        let i = tree
            .entries()
            .iter()
            .position(|e| e.path == b"b/x y")
            .unwrap();
        let splice = tree.splice(i).unwrap();
        assert_eq!(splice.content(&bytes), b"two\nlines\n");
        assert_eq!(splice.lift(b"two\nlines\n"), bytes);
        assert_eq!(
            splice.unlift(&splice.lift(b"0123456789ab")),
            b"0123456789ab"
        );
        let smaller = Archive::decode(&splice.lift(b"two")).unwrap();
        assert_eq!(smaller.entries()[i].kind, EntryKind::File(b"two".to_vec()));
        assert!(tree.splice(1).is_none(), "a directory has no content");
    }

    #[test]
    fn a_tree_is_written_and_read_back_with_links_modes_and_empty_dirs() {
        let root = tempfile::tempdir().unwrap();
        let at = root.path().join("t");
        let tree = sample();
        tree.write_to(&at).unwrap();
        assert_eq!(Archive::from_dir(&at).unwrap(), tree);
        let meta = std::fs::symlink_metadata(at.join("b/link")).unwrap();
        assert!(meta.file_type().is_symlink());
        let mode = std::fs::metadata(at.join("a"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}
