//! The binary's file I/O: reading INPUT, checking `-o`, the backup, and atomic writes.

use super::exit::Fail;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Reads INPUT, or says exactly what is wrong with it.
pub fn read_input(input: &Path) -> Result<Vec<u8>, Fail> {
    let meta = std::fs::metadata(input).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Fail::usage(format!(
                "input file {} does not exist: check the path",
                input.display()
            ))
        } else {
            Fail::usage(format!("cannot read input file {}: {e}", input.display()))
        }
    })?;
    if meta.is_dir() {
        return Err(Fail::usage(format!(
            "{} is a directory: give the file to reduce (myhill reduces one file)",
            input.display()
        )));
    }
    if !meta.is_file() {
        return Err(Fail::usage(format!(
            "{} is not a regular file: copy what you want reduced into a file first",
            input.display()
        )));
    }
    std::fs::read(input).map_err(|e| {
        Fail::usage(format!(
            "cannot read input file {}: {e} (check its permissions, e.g. chmod u+r)",
            input.display()
        ))
    })
}

/// Where a result written to `path` must go: the file itself, or, when `path` is a symbolic
/// link, the file it points to (so the link stays a link and its target gets the result).
/// Refused: anything that is not, or would not become, a regular file (a directory, a
/// device, a FIFO, `/dev/stdout` and the like, which an atomic rename would replace).
pub fn resolve_output(path: &Path, flag: &str) -> Result<PathBuf, Fail> {
    let mut target = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let is_special = |p: &Path| ["/dev", "/proc", "/sys"].iter().any(|r| p.starts_with(r));
    // A link through /proc or /dev (`/dev/stdout`, `/proc/self/fd/1`) names a stream, even
    // when the stream is a file.
    let mut special = is_special(&target);
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&target).map_err(|e| {
                    Fail::usage(format!("cannot read the link {}: {e}", target.display()))
                })?;
                target = parent_dir(&target).join(link).components().collect();
                special |= is_special(&target);
            }
            _ => break,
        }
    }
    // Its directory, through any links, so `/dev/fd/1` is seen for what it is.
    let dir = parent_dir(&target);
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let target = match target.file_name() {
        Some(name) => dir.join(name),
        None => target.clone(),
    };
    special |= is_special(&target);
    let kind = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_file() && !special => None,
        Ok(meta) => Some(match meta.file_type() {
            t if t.is_dir() => "a directory",
            t if t.is_fifo() => "a FIFO",
            t if t.is_char_device() || t.is_block_device() => "a device",
            t if t.is_socket() => "a socket",
            _ => "not a regular file",
        }),
        Err(_) if special => Some("not a regular file"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !dir.is_dir() {
                return Err(Fail::usage(format!(
                    "{flag} {}: the directory {} does not exist",
                    path.display(),
                    dir.display()
                )));
            }
            None
        }
        Err(e) => {
            return Err(Fail::usage(format!(
                "cannot use {flag} {}: {e}",
                path.display()
            )));
        }
    };
    if let Some(what) = kind {
        return Err(Fail::usage(format!(
            "{flag} {} is {what}: myhill writes its result to a regular file (through a \
             temporary file and a rename, so the file is never half written); give the path of \
             one, e.g. -o result.txt, and read it from there",
            path.display()
        )));
    }
    Ok(target)
}

/// Checks `-o PATH` before any test runs: it must be a regular file or none yet
/// ([`resolve_output`]), and not INPUT itself (under any name or link).
pub fn check_output(output: &Path, input: &Path) -> Result<(), Fail> {
    let resolved = resolve_output(output, "-o")?;
    protect_output(&resolved, output, input, &[])
}

/// Checks the output before any test runs (`output` as [`resolve_output`] made it, `given`
/// as the user wrote it): it must not be INPUT itself (under any name or link), nor any of
/// the `kept` files (the test's script and the files it names, the launcher), which the
/// result would replace.
pub fn protect_output(
    output: &Path,
    given: &Path,
    input: &Path,
    kept: &[(PathBuf, &str)],
) -> Result<(), Fail> {
    let same = |a: &Path, b: &Path| match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    };
    if same(output, input) {
        return Err(Fail::usage(format!(
            "-o {} names the input itself: the original would be lost. Leave out -o to reduce \
             in place (the original is kept as {}.orig), or name another file",
            given.display(),
            input.display()
        )));
    }
    for (path, what) in kept {
        if same(output, path) {
            return Err(Fail::usage(format!(
                "-o {} names {what} ({}): the result would replace it. Name another file for \
                 the result",
                given.display(),
                path.display()
            )));
        }
    }
    Ok(())
}

pub(super) fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The mode bits of `path`, to give the result the original's permissions.
pub fn mode_of(path: &Path) -> Option<u32> {
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// Keeps the original before INPUT is reduced in place, reusing a copy already kept: an
/// `INPUT.orig*` with the same bytes, or, when INPUT is the result of an earlier run (its
/// best, written back over INPUT), that run's backup. So running the same command again does
/// not pile up backups. Otherwise makes a new one ([`make_backup`]).
pub fn keep_original(
    input: &Path,
    bytes: &[u8],
    key: u128,
    mode: Option<u32>,
) -> Result<PathBuf, Fail> {
    let base = format!("{}.orig", input.display());
    for k in 0..1000 {
        let path = if k == 0 {
            PathBuf::from(&base)
        } else {
            PathBuf::from(format!("{base}.{k}"))
        };
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => {
                if std::fs::read(&path).is_ok_and(|b| b == bytes) {
                    return Ok(path);
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let abs = std::path::absolute(input).unwrap_or_else(|_| input.to_path_buf());
    if let Some(root) = myhill::runs::default_runs_root() {
        for (_, info) in myhill::runs::list_runs(&root, 200) {
            if info.output == abs
                && info.best_hash == Some(key)
                && let Some(backup) = info.backup.filter(|b| b.is_file())
            {
                return Ok(backup);
            }
        }
    }
    make_backup(input, bytes, mode)
}

/// Keeps a copy of INPUT under the first free name of INPUT.orig, INPUT.orig.1, ...: written
/// to a temporary file first and linked into place without replacing anything.
pub fn make_backup(input: &Path, bytes: &[u8], mode: Option<u32>) -> Result<PathBuf, Fail> {
    let base = format!("{}.orig", input.display());
    let fail = |path: &Path, e: std::io::Error| {
        Fail::usage(format!(
            "cannot keep the original as {}: {e} (check that the directory is writable, or use -o PATH)",
            path.display()
        ))
    };
    let tmp = temp_with(bytes, parent_dir(input), mode).map_err(|e| fail(Path::new(&base), e))?;
    let mut tmp = tmp;
    for k in 0.. {
        let path = if k == 0 {
            PathBuf::from(&base)
        } else {
            PathBuf::from(format!("{base}.{k}"))
        };
        match tmp.persist_noclobber(&path) {
            Ok(_) => return Ok(path),
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => tmp = e.file,
            Err(e) => return Err(fail(&path, e.error)),
        }
    }
    unreachable!("backup names are unbounded")
}

/// Temporary files of atomic writes are named `.myhill-PID-XXXX.tmp`, so that a later run can
/// tell its own leftovers (from a process killed mid-write) from the user's files.
const TEMP_PREFIX: &str = ".myhill-";
const TEMP_SUFFIX: &str = ".tmp";

/// Removes, from `dir`, the temporary files of atomic writes whose writer is no longer alive
/// (a SIGKILL between creating the temporary and renaming it leaves one behind). Only regular
/// files named by `temp_with` are touched; a file whose process still runs is left alone.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = name
            .strip_prefix(TEMP_PREFIX)
            .filter(|rest| rest.ends_with(TEMP_SUFFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn temp_with(
    bytes: &[u8],
    dir: &Path,
    mode: Option<u32>,
) -> std::io::Result<tempfile::NamedTempFile> {
    use std::io::Write;
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Some(mode) = mode {
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode))?;
    }
    Ok(tmp)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, synced, then
/// renamed over `path`. A reader sees the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    let dir = parent_dir(path);
    let tmp = temp_with(bytes, dir, mode)?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
