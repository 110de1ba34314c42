//! Printing that never panics: a closed pipe (`myhill ... | head`) must not end a reduction.

use std::io::Write;

/// Writes a line to stderr; a write error is ignored.
pub fn err(line: impl AsRef<str>) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{}", line.as_ref());
}

/// Writes text to stderr as it is; a write error is ignored.
pub fn err_raw(text: impl AsRef<str>) {
    let mut e = std::io::stderr().lock();
    let _ = write!(e, "{}", text.as_ref());
    let _ = e.flush();
}

/// Writes a line to stdout; a write error is ignored.
pub fn out(line: impl AsRef<str>) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{}", line.as_ref());
}

/// Writes bytes to stdout as they are; a write error is ignored.
pub fn out_raw(bytes: &[u8]) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(bytes);
    let _ = o.flush();
}
