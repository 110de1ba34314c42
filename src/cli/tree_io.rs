//! The binary's file I/O for a directory input: reading the tree, checking `-o OUTDIR`, keeping
//! the original as `DIR.orig`, and replacing a tree atomically.
//!
//! A tree is written whole beside its place (a hidden sibling directory), then swapped in with
//! one `renameat2(RENAME_EXCHANGE)`, so a reader sees the old tree or the new one, never a mix;
//! the old one is then removed. Where the file system cannot exchange, the old tree is renamed
//! aside first (a moment with no tree at the path, never a partial one).

use super::exit::Fail;
use super::files::write_atomic;
use myhill::archive::Archive;
use rustix::fs::{CWD, RenameFlags, renameat_with};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// How results are written: one file (with the original's mode) or a whole tree.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub tree: bool,
    pub mode: Option<u32>,
}

impl Target {
    /// Writes `bytes` (an encoded tree when `tree`) to `path` atomically.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        if self.tree {
            write_tree(path, bytes)
        } else {
            write_atomic(path, bytes, self.mode)
        }
    }
}

/// Files and content bytes of an encoded tree, for messages.
pub fn sizes(bytes: &[u8]) -> Option<(usize, usize)> {
    let tree = Archive::decode(bytes).ok()?;
    Some((tree.files(), tree.content_bytes()))
}

/// Reads the tree under `dir` as one byte string, or says what is wrong with it.
pub fn read_tree(dir: &Path) -> Result<Vec<u8>, Fail> {
    let tree = Archive::from_dir(dir).map_err(|e| Fail::usage(e.to_string()))?;
    if tree.files() == 0 {
        return Err(Fail::usage(format!(
            "{} is a directory with no file in it: there is nothing to reduce",
            dir.display()
        )));
    }
    Ok(tree.encode())
}

fn absolute(path: &Path) -> PathBuf {
    // Resolve what exists (links included), then add what does not.
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => absolute(parent).join(name),
        _ => abs,
    }
}

/// Checks `-o OUTDIR` for a directory input before any test runs: not DIR itself, nothing
/// inside it and nothing that holds it (replacing either would lose the original); a path
/// that is free or an empty directory, in a directory that exists.
pub fn check_output(output: &Path, input: &Path) -> Result<(), Fail> {
    let (out, dir) = (absolute(output), absolute(input));
    if out == dir || out.starts_with(&dir) {
        return Err(Fail::usage(format!(
            "-o {} is {} {}: the original would be lost or the result would land in the \
             tree being reduced. Leave out -o to reduce in place (the original is kept as \
             {}.orig), or name a path outside it",
            output.display(),
            if out == dir {
                "the input directory"
            } else {
                "inside the input directory"
            },
            input.display(),
            input.display()
        )));
    }
    if dir.starts_with(&out) {
        return Err(Fail::usage(format!(
            "-o {} holds the input directory {}: replacing it would lose the original. Name a \
             new path outside the input",
            output.display(),
            input.display()
        )));
    }
    match std::fs::symlink_metadata(output) {
        Ok(meta) if meta.is_dir() => {
            let empty = std::fs::read_dir(output).is_ok_and(|mut d| d.next().is_none());
            if !empty {
                return Err(Fail::usage(format!(
                    "-o {} is a directory that is not empty: the result tree replaces what is \
                     at -o, so give a new path (or an empty directory)",
                    output.display()
                )));
            }
        }
        Ok(_) => {
            return Err(Fail::usage(format!(
                "-o {} exists and is not a directory: the input is a directory, so the result \
                 is one too; give a new path",
                output.display()
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = out.parent().unwrap_or(Path::new("/"));
            if !parent.is_dir() {
                return Err(Fail::usage(format!(
                    "-o {}: the directory {} does not exist",
                    output.display(),
                    parent.display()
                )));
            }
        }
        Err(e) => {
            return Err(Fail::usage(format!(
                "cannot use -o {}: {e}",
                output.display()
            )));
        }
    }
    Ok(())
}

/// Where the result tree goes: `-o OUTDIR` (checked by [`check_output`] unless the run is
/// resumed: then it holds what the run wrote), else DIR itself.
pub fn output_path(args: &super::ReduceArgs, input: &Path) -> Result<PathBuf, Fail> {
    match &args.output {
        None => Ok(absolute(input)),
        Some(o) => {
            if args.resume.is_none() {
                check_output(o, input)?;
            }
            Ok(absolute(o))
        }
    }
}

/// A free hidden sibling of `path`: `.NAME.myhill-WHAT-PID-K`.
fn sibling(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tree".into());
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let pid = std::process::id();
    (0u64..)
        .map(|k| dir.join(format!(".{name}.myhill-{what}-{pid}-{k}")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .expect("a free name")
}

/// Removes a tree myhill made, even one with read-only directories.
fn remove_tree(path: &Path) {
    if std::fs::remove_dir_all(path).is_ok() {
        return;
    }
    fn writable(dir: &Path) {
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    writable(&e.path());
                }
            }
        }
    }
    writable(path);
    let _ = std::fs::remove_dir_all(path);
}

/// Builds the tree `bytes` encode beside `path`, complete, and returns where.
fn build_beside(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let tree = Archive::decode(bytes).map_err(std::io::Error::other)?;
    let fresh = sibling(path, "new");
    if let Err(e) = tree.write_to(&fresh) {
        remove_tree(&fresh);
        return Err(e);
    }
    Ok(fresh)
}

fn sync_dir_of(path: &Path) {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Replaces the tree at `path` (or makes it) by the tree `bytes` encode, atomically.
pub fn write_tree(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let fresh = build_beside(path, bytes)?;
    let placed = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            renameat_with(CWD, &fresh, CWD, path, RenameFlags::NOREPLACE).map_err(Into::into)
        }
        Err(e) => Err(e),
        Ok(meta) if !meta.is_dir() => Err(std::io::Error::other(format!(
            "{} is not a directory",
            path.display()
        ))),
        Ok(_) => match renameat_with(CWD, &fresh, CWD, path, RenameFlags::EXCHANGE) {
            // `fresh` now holds the old tree.
            Ok(()) => Ok(()),
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
                let old = sibling(path, "old");
                std::fs::rename(path, &old).and_then(|()| {
                    std::fs::rename(&fresh, path)?;
                    std::fs::rename(&old, &fresh)
                })
            }
            Err(e) => Err(e.into()),
        },
    };
    remove_tree(&fresh);
    placed?;
    sync_dir_of(path);
    Ok(())
}

/// Keeps the original tree before DIR is reduced in place: an existing `DIR.orig*` that holds
/// the same tree is reused, else the tree is built beside DIR and renamed to the first free
/// name of `DIR.orig`, `DIR.orig.1`, ... (never over anything).
pub fn keep_original(input: &Path, bytes: &[u8]) -> Result<PathBuf, Fail> {
    let base = format!("{}.orig", input.display());
    let name = |k: u32| {
        if k == 0 {
            PathBuf::from(&base)
        } else {
            PathBuf::from(format!("{base}.{k}"))
        }
    };
    for k in 0..1000 {
        let path = name(k);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => {
                if Archive::from_dir(&path).is_ok_and(|t| t.encode() == bytes) {
                    return Ok(path);
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let fail = |path: &Path, e: std::io::Error| {
        Fail::usage(format!(
            "cannot keep the original as {}: {e} (check that the directory is writable, or use -o PATH)",
            path.display()
        ))
    };
    let fresh = build_beside(input, bytes).map_err(|e| fail(Path::new(&base), e))?;
    for k in 0.. {
        let path = name(k);
        match renameat_with(CWD, &fresh, CWD, &path, RenameFlags::NOREPLACE) {
            Ok(()) => {
                sync_dir_of(&path);
                return Ok(path);
            }
            Err(e) if e == rustix::io::Errno::EXIST => continue,
            Err(e) => {
                remove_tree(&fresh);
                return Err(fail(&path, e.into()));
            }
        }
    }
    unreachable!("backup names are unbounded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_replaces_a_tree_and_a_backup_never_overwrites() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("proj");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("a"), "one").unwrap();
        let first = read_tree(&dir).unwrap();
        std::fs::create_dir(root.path().join("proj.orig")).unwrap();
        let kept = keep_original(&dir, &first).unwrap();
        assert_eq!(kept, root.path().join("proj.orig.1"));
        assert_eq!(keep_original(&dir, &first).unwrap(), kept, "reused");
        let small =
            myhill::archive::Archive::new(vec![myhill::archive::Entry::file("b", 0o600, b"2")])
                .unwrap()
                .encode();
        write_tree(&dir, &small).unwrap();
        assert_eq!(read_tree(&dir).unwrap(), small);
        let names: Vec<_> = std::fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 3, "no temporary tree is left: {names:?}");
        let fresh = root.path().join("out");
        write_tree(&fresh, &small).unwrap();
        assert_eq!(read_tree(&fresh).unwrap(), small);
    }

    #[test]
    fn output_inside_or_around_the_input_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("proj");
        std::fs::create_dir(&dir).unwrap();
        assert!(check_output(&dir, &dir).is_err());
        assert!(check_output(&dir.join("sub"), &dir).is_err());
        assert!(check_output(root.path(), &dir).is_err());
        assert!(check_output(&root.path().join("elsewhere"), &dir).is_ok());
    }
}
