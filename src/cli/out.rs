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

/// One line of what a test printed, made safe for a terminal: every non-printing character
/// (controls such as ESC, NUL, BEL and CR, bidirectional overrides) and every byte that is
/// not UTF-8 is written as an escape (`\e`, `\0`, `\x07`, `\u{202e}`, `\xff`); a run of more
/// than three of one escape is written once with its count; at most `max` characters are
/// kept, the rest said as a count.
pub fn printable(line: &[u8], max: usize) -> String {
    let mut pieces: Vec<String> = Vec::new();
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            pieces.push(escape_char(c));
        }
        for b in chunk.invalid() {
            pieces.push(format!("\\x{b:02x}"));
        }
    }
    let mut text = String::new();
    let mut shown = 0;
    let mut i = 0;
    while i < pieces.len() {
        if shown >= max {
            text.push_str(&format!("... ({} more characters)", pieces.len() - i));
            break;
        }
        let piece = &pieces[i];
        let run = pieces[i..].iter().take_while(|p| *p == piece).count();
        if piece.len() > 1 && run > 3 {
            text.push_str(&format!("{piece}(x{run})"));
            i += run;
        } else {
            text.push_str(piece);
            i += 1;
        }
        shown += 1;
    }
    text
}

fn escape_char(c: char) -> String {
    let bidi =
        matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    match c {
        '\t' => "\\t".to_string(),
        '\r' => "\\r".to_string(),
        '\0' => "\\0".to_string(),
        '\u{1b}' => "\\e".to_string(),
        c if c.is_control() => format!("\\x{:02x}", c as u32),
        c if bidi => format!("\\u{{{:x}}}", c as u32),
        c => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn nothing_that_moves_a_terminal_gets_through() {
        assert_eq!(
            printable(b"\x1b[2J\x1b]2;pane\x07ok\r", 100),
            "\\e[2J\\e]2;pane\\x07ok\\r"
        );
        assert_eq!(printable(&[0u8; 4096], 100), "\\0(x4096)");
        assert_eq!(printable(b"a\xffb \xe2\x80\xae", 100), "a\\xffb \\u{202e}");
        assert_eq!(printable(b"abcdef", 3), "abc... (3 more characters)");
    }
}
