//! Checking what the user gave before anything runs: the input file, the test command, the output.

use super::Fail;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Reads INPUT, or says exactly what is wrong with it.
pub fn read_input(input: &Path) -> Result<Vec<u8>, Fail> {
    let meta = std::fs::metadata(input).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Fail::setup(format!(
                "input file {} does not exist: check the path",
                input.display()
            ))
        } else {
            Fail::setup(format!("cannot read input file {}: {e}", input.display()))
        }
    })?;
    if meta.is_dir() {
        return Err(Fail::setup(format!(
            "{} is a directory: give the file to reduce (myhill reduces one file)",
            input.display()
        )));
    }
    std::fs::read(input).map_err(|e| {
        Fail::setup(format!(
            "cannot read input file {}: {e} (check its permissions, e.g. chmod u+r)",
            input.display()
        ))
    })
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

/// Splits TEST into words and resolves its program, so it can run from a temporary directory.
/// Arguments naming files in the current directory are made absolute for the same reason.
pub fn resolve_test(test: &str) -> Result<Vec<String>, Fail> {
    let words = shlex::split(test).ok_or_else(|| {
        Fail::setup(format!(
            "cannot split the test command {test:?}: check its quotes"
        ))
    })?;
    let Some(program) = words.first() else {
        return Err(Fail::setup(
            "the test command is empty: give a script or program, e.g. ./test.sh",
        ));
    };
    let cwd = std::env::current_dir()
        .map_err(|e| Fail::setup(format!("cannot read the current directory: {e}")))?;
    let local = cwd.join(program);
    let resolved = if program.contains('/') || (!local.is_dir() && local.exists()) {
        if !local.exists() {
            return Err(Fail::setup(format!(
                "the test {program} does not exist: check the path"
            )));
        }
        if local.is_dir() {
            return Err(Fail::setup(format!(
                "the test {program} is a directory: give a script or program"
            )));
        }
        if !is_executable(&local) {
            return Err(Fail::setup(format!(
                "the test {program} is not executable: run chmod +x {program}"
            )));
        }
        local
    } else {
        find_on_path(program).ok_or_else(|| {
            Fail::setup(format!(
                "the test program {program:?} was not found on PATH: give its path, e.g. ./{program}"
            ))
        })?
    };
    let mut argv = vec![resolved.to_string_lossy().into_owned()];
    for word in &words[1..] {
        let candidate = cwd.join(word);
        if !word.starts_with('-')
            && !word.is_empty()
            && candidate.exists()
            && !Path::new(word).is_absolute()
        {
            argv.push(candidate.to_string_lossy().into_owned());
        } else {
            argv.push(word.clone());
        }
    }
    Ok(argv)
}

/// The first free backup name: INPUT.orig, then INPUT.orig.1, INPUT.orig.2, ...
pub fn backup_path(input: &Path) -> PathBuf {
    let base = format!("{}.orig", input.display());
    let mut path = PathBuf::from(&base);
    let mut k = 1;
    while path.exists() {
        path = PathBuf::from(format!("{base}.{k}"));
        k += 1;
    }
    path
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, then rename.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".myhill-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Some(mode) = mode {
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Quotes words for a shell command the user can paste.
pub fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            shlex::try_quote(w)
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| w.clone())
        })
        .collect::<Vec<_>>()
        .join(" ")
}
