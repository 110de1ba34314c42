//! One step of a reduction as a line diff against the step before, for the history that
//! `runs show` prints and the full view draws.
//!
//! Main items: [`Hunk`] and [`hunk`], the lines between two texts' common first and last
//! lines; [`hunk_lines`], a hunk as unified diff lines. Limits: one hunk a step (a step is
//! one accepted edit, which is mostly one place; several places show as one wider hunk).

/// One step as a line diff against the step before: at line `at` (0-based) of the old text,
/// `removed` lines gave way to `added` ones (each with its newline, if it had one).
#[derive(Debug, PartialEq)]
pub struct Hunk<'a> {
    pub at: usize,
    pub removed: Vec<&'a [u8]>,
    pub added: Vec<&'a [u8]>,
}

fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

/// `new` against `old` as one hunk: the lines between their common first and last lines.
pub fn hunk<'a>(old: &'a [u8], new: &'a [u8]) -> Hunk<'a> {
    let (a, b) = (lines(old), lines(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = (a.iter().rev().zip(b.iter().rev()))
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    Hunk {
        at: prefix,
        removed: a[prefix..a.len() - suffix].to_vec(),
        added: b[prefix..b.len() - suffix].to_vec(),
    }
}

/// A hunk as unified diff lines (without a header), `\ No newline at end of file` where due.
pub fn hunk_lines(h: &Hunk) -> Vec<String> {
    let mut out = Vec::new();
    for (sign, side) in [('-', &h.removed), ('+', &h.added)] {
        for line in side.iter() {
            let text = String::from_utf8_lossy(line);
            match text.strip_suffix('\n') {
                Some(t) => out.push(format!("{sign}{t}")),
                None => {
                    out.push(format!("{sign}{text}"));
                    out.push("\\ No newline at end of file".to_string());
                }
            }
        }
    }
    out
}
