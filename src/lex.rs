//! The one lexer: what a word, a literal, a comment and a bracket are, for every part of myhill.
//!
//! Main items: [`lex`], which cuts an input into [`Lexeme`]s that tile it exactly, and
//! [`Class`]. Token units ([`crate::text::Units`] at [`crate::text::Granularity::Tokens`]), the inferred tree
//! and the identifier-renaming pass all read the same lexemes, so they agree on what a word is.
//! The shape of an input is read here too, once for everyone: the one bracket pairing
//! ([`pair_brackets`], streamed by [`bracket_scan`] and [`bracket_pairs`]; its depth for a pass
//! that scans) and the indentation of its lines, for indented code (`indented_lines`).
//!
//! The classes, tried in this order at each position:
//! - [`Class::Space`]: a run of ASCII whitespace;
//! - [`Class::Comment`]: `//` to the end of the line (with its newline), `/* ... */`, and `#` at the
//!   start of a line when no letter follows it (a `#include` or `#define` is a directive, lexed
//!   as `#` and words, so its names stay visible);
//! - [`Class::Literal`]: a `"..."` string closed before an unescaped newline, or a character
//!   literal (`'x'`, `'\n'`, one UTF-8 character);
//! - [`Class::Word`]: a letter, `_` or non-ASCII byte, then letters, digits, `_` and non-ASCII
//!   bytes (identifiers and keywords);
//! - [`Class::Number`]: a digit, then letters, digits, `_`, and `.` when a digit follows it
//!   (`42`, `0x1f`, `4.5e3`);
//! - [`Class::Punct`]: any other single byte.
//!
//! ```
//! use myhill::text::{Class, lex};
//! let input = b"x = f(\"a(b\", 4.5); // done\n";
//! let pieces: Vec<(&[u8], Class)> = lex(input).iter().map(|l| (&input[l.start..l.end], l.class)).collect();
//! assert_eq!(pieces[0], (&b"x"[..], Class::Word));
//! assert_eq!(pieces[6], (&b"\"a(b\""[..], Class::Literal));
//! assert_eq!(pieces[9], (&b"4.5"[..], Class::Number));
//! assert_eq!(pieces[13], (&b"// done\n"[..], Class::Comment));
//! ```
//!
//! Limits: a heuristic for C-like and script-like text, not a parser of any one language.
//! Single-quoted strings longer than one character (Python) are not literals; an unterminated
//! quote or comment opener is plain punctuation.

/// What a lexeme is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A run of ASCII whitespace.
    Space,
    /// A line or block comment, kept whole.
    Comment,
    /// A string or character literal, kept whole.
    Literal,
    /// An identifier or keyword.
    Word,
    /// A numeric literal.
    Number,
    /// Any other single byte.
    Punct(u8),
}

/// One lexeme: `input[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lexeme {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset past the last byte.
    pub end: usize,
    /// What it is.
    pub class: Class,
}

/// Whether `b` is ASCII whitespace as the lexer counts it.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether `b` may continue a word: a letter, digit, `_` or non-ASCII byte.
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The end of a line comment starting at `i`: past its newline, or the end of the input.
fn line_end(input: &[u8], i: usize) -> usize {
    input[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |k| i + k + 1)
}

/// The end of a `"` string starting at `i`, if it closes before an unescaped newline.
fn string_end(input: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < input.len() {
        match input[j] {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            b'\n' => return None,
            _ => j += 1,
        }
    }
    None
}

/// The end of a character literal starting at `i`: one character or a short escape.
fn char_end(input: &[u8], i: usize) -> Option<usize> {
    let rest = &input[i + 1..];
    let body = match *rest.first()? {
        b'\\' => {
            let close = rest.iter().take(12).skip(2).position(|&b| b == b'\'')?;
            close + 2
        }
        b'\'' | b'\n' => return None,
        b if b < 0x80 => 1,
        // One UTF-8 character: a lead byte and its continuation bytes.
        _ => 1 + rest[1..].iter().take_while(|&&b| b & 0xc0 == 0x80).count(),
    };
    let close = rest.get(body)?;
    (*close == b'\'' && !rest[..body].contains(&b'\n')).then_some(i + 1 + body + 1)
}

fn number_end(input: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < input.len() {
        let b = input[j];
        let dot_then_digit = b == b'.' && input.get(j + 1).is_some_and(|d| d.is_ascii_digit());
        if is_word_byte(b) || dot_then_digit {
            j += 1;
        } else {
            break;
        }
    }
    j
}

/// Cuts `input` into lexemes that tile it exactly, in order.
pub fn lex(input: &[u8]) -> Vec<Lexeme> {
    lexemes(input).collect()
}

/// The lexemes of `input` one at a time, as [`lex`] cuts them, without holding them all (for
/// a scan of a large input in memory bounded by what the scan keeps).
pub fn lexemes(input: &[u8]) -> impl Iterator<Item = Lexeme> + '_ {
    let mut i = 0;
    // Only whitespace since the last newline (or the start).
    let mut at_line_start = true;
    std::iter::from_fn(move || {
        if i >= input.len() {
            return None;
        }
        let b = input[i];
        let next = input.get(i + 1).copied();
        let (end, class) = if is_space(b) {
            let len = input[i..].iter().take_while(|&&c| is_space(c)).count();
            (i + len, Class::Space)
        } else if b == b'/' && next == Some(b'/')
            || b == b'#' && at_line_start && !next.is_some_and(|c| c.is_ascii_alphabetic())
        {
            (line_end(input, i), Class::Comment)
        } else if b == b'/' && next == Some(b'*') {
            match input[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(k) => (i + 2 + k + 2, Class::Comment),
                None => (i + 1, Class::Punct(b)),
            }
        } else if b == b'"' {
            match string_end(input, i) {
                Some(end) => (end, Class::Literal),
                None => (i + 1, Class::Punct(b)),
            }
        } else if b == b'\'' {
            match char_end(input, i) {
                Some(end) => (end, Class::Literal),
                None => (i + 1, Class::Punct(b)),
            }
        } else if b.is_ascii_digit() {
            (number_end(input, i), Class::Number)
        } else if is_word_byte(b) {
            let len = input[i..].iter().take_while(|&&c| is_word_byte(c)).count();
            (i + len, Class::Word)
        } else {
            (i + 1, Class::Punct(b))
        };
        at_line_start = match class {
            Class::Space => at_line_start || input[i..end].contains(&b'\n'),
            // A line comment ends with its newline, so the next lexeme starts a line.
            Class::Comment => input[end - 1] == b'\n',
            _ => false,
        };
        let lexeme = Lexeme {
            start: i,
            end,
            class,
        };
        i = end;
        Some(lexeme)
    })
}

/// The closing bracket of an opening one: `(` `)`, `[` `]`, `{` `}`.
pub fn closer_of(open: u8) -> Option<u8> {
    match open {
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        b'{' => Some(b'}'),
        _ => None,
    }
}

/// What a lexeme is to the bracket pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bracket {
    /// An opening bracket (whether it pairs is known only when its closer comes).
    Open,
    /// A closing bracket that pairs with the opening one at `0` (the opener's index in
    /// [`pair_brackets`], its byte offset in [`bracket_scan`]).
    Close(usize),
    /// Any other lexeme, a closing bracket that pairs with nothing included.
    Other,
}

/// The one rule by which brackets pair, fed one lexeme at a time: an opening bracket waits on
/// a stack; a closing one pairs with the opener on top when it matches it, and is left
/// unpaired otherwise (the stack stays as it was).
#[derive(Default)]
pub(crate) struct Pairing {
    /// The openers waiting for their closer: the bracket and its id.
    open: Vec<(u8, usize)>,
}

impl Pairing {
    /// How many opening brackets stand open (unpaired ones included).
    pub(crate) fn depth(&self) -> usize {
        self.open.len()
    }

    /// Feeds the next lexeme (`id` names it in [`Bracket::Close`]).
    pub(crate) fn feed(&mut self, class: Class, id: usize) -> Bracket {
        let Class::Punct(b) = class else {
            return Bracket::Other;
        };
        if closer_of(b).is_some() {
            self.open.push((b, id));
            return Bracket::Open;
        }
        match self.open.last() {
            Some(&(o, at)) if closer_of(o) == Some(b) => {
                self.open.pop();
                Bracket::Close(at)
            }
            _ => Bracket::Other,
        }
    }
}

/// Pairs brackets: for each lexeme, the index of its partner if it is a bracket that pairs
/// with a matching one at the same nesting. Unpaired brackets (a `)` with no opener, or an
/// opener whose closer never comes) have none; literals and comments hide what is in them.
pub fn pair_brackets(lexemes: &[Lexeme]) -> Vec<Option<usize>> {
    pair_classes(lexemes.iter().map(|l| l.class))
}

/// [`pair_brackets`] over the classes of any run of lexemes (those of one declaration with its
/// spaces and comments left out, say): the same rule, partners by position in the run.
pub fn pair_classes(classes: impl ExactSizeIterator<Item = Class>) -> Vec<Option<usize>> {
    let mut partner = vec![None; classes.len()];
    let mut pairing = Pairing::default();
    for (i, class) in classes.enumerate() {
        if let Bracket::Close(open) = pairing.feed(class, i) {
            partner[open] = Some(i);
            partner[i] = Some(open);
        }
    }
    partner
}

/// The lexemes of `input` one at a time with what each is to the bracket pairing (the rule of
/// [`pair_brackets`], a closer naming its opener by byte offset) and how many opening
/// brackets stand open around it after it (unpaired ones included).
///
/// This is the streaming form of [`pair_brackets`] for scans of inputs of any size: it keeps
/// only the open brackets, not every lexeme, so the chunk passes (on inputs far above
/// [`crate::tree::Nesting::MAX_BYTES`], which reads them as flat) and the kind of an original read
/// the same pairs as the nesting does, in memory bounded by what the scan keeps.
pub fn bracket_scan(input: &[u8]) -> impl Iterator<Item = (Lexeme, Bracket, usize)> + '_ {
    let mut pairing = Pairing::default();
    lexemes(input).map(move |l| {
        let bracket = pairing.feed(l.class, l.start);
        (l, bracket, pairing.open.len())
    })
}

/// Every bracket pair of `input` as [`pair_brackets`] pairs them: (where the opening bracket
/// starts, where the closing one starts), sorted. Streams ([`bracket_scan`]): 8 bytes per pair
/// instead of every lexeme on a large input. Offsets are u32: for inputs below 4 GiB.
pub fn bracket_pairs(input: &[u8]) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = bracket_scan(input)
        .filter_map(|(l, bracket, _)| match bracket {
            Bracket::Close(open) => Some((open as u32, l.start as u32)),
            _ => None,
        })
        .collect();
    pairs.sort_unstable();
    pairs
}

/// One line of an input as indented code reads it: where it starts and ends (past its
/// newline), its indentation (the spaces and tabs it starts with, one column each) and
/// whether it is blank (whitespace alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IndentedLine {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) indent: usize,
    pub(crate) blank: bool,
}

/// The lines of `input` with their indentation: the nesting of code that no bracket marks
/// (Python, YAML, make), where a line owns the deeper lines after it. The brackets' nesting
/// is read from the lexemes ([`pair_brackets`]); this one is read by line, because a block's
/// lines are what its passes cut (`indent/blocks`: a header with the lines under it, deleted
/// or dedented) and because a blank line has no lexeme of its own yet belongs to the block
/// around it whatever its indentation. The inferred tree reads the same indentation per
/// lexeme, as the spaces between a line's start and its first lexeme.
pub(crate) fn indented_lines(input: &[u8]) -> Vec<IndentedLine> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let end = input[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |i| start + i + 1);
        let text = &input[start..end];
        let indent = text
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let blank = text[indent..].iter().all(|b| b.is_ascii_whitespace());
        out.push(IndentedLine {
            start,
            end,
            indent,
            blank,
        });
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_lines_count_spaces_and_tabs_and_tell_blank_lines() {
        let input = b"a:\n  b\n\t\n\n\t c\nd";
        let lines: Vec<(usize, usize, usize, bool)> = indented_lines(input)
            .iter()
            .map(|l| (l.start, l.end, l.indent, l.blank))
            .collect();
        assert_eq!(
            lines,
            [
                (0, 3, 0, false),
                (3, 7, 2, false),
                (7, 9, 1, true),
                (9, 10, 0, true),
                (10, 14, 2, false),
                (14, 15, 0, false),
            ]
        );
        assert!(indented_lines(b"").is_empty());
    }
    use proptest::prelude::*;

    fn pieces(input: &[u8]) -> Vec<(String, Class)> {
        lex(input)
            .iter()
            .map(|l| {
                (
                    String::from_utf8_lossy(&input[l.start..l.end]).into_owned(),
                    l.class,
                )
            })
            .collect()
    }

    fn texts(input: &[u8]) -> Vec<String> {
        pieces(input).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn words_numbers_space_and_punctuation() {
        assert_eq!(
            texts(b"int x1 = 4.5e3;  a.b 1..2"),
            [
                "int", " ", "x1", " ", "=", " ", "4.5e3", ";", "  ", "a", ".", "b", " ", "1", ".",
                ".", "2"
            ]
        );
        let p = pieces(b"_a9 7z");
        assert_eq!(p[0].1, Class::Word);
        assert_eq!(p[2].1, Class::Number);
    }

    #[test]
    fn literals_and_comments_are_whole() {
        let p = texts(b"s = \"a(b\\\"c\" + 'x' + '\\n' + '(';\n/* { */ #x\n# hash (\nx");
        for whole in [
            "\"a(b\\\"c\"",
            "'x'",
            "'\\n'",
            "'('",
            "/* { */",
            "# hash (\n",
        ] {
            assert!(p.contains(&whole.to_string()), "{whole} in {p:?}");
        }
        // `#` opens a comment only at the start of a line, and not before a directive name.
        assert!(p.contains(&"#".to_string()));
        assert_eq!(texts(b"#include <a.h>\n")[..2], ["#", "include"]);
        assert_eq!(texts(b"  #!x\n")[1], "#!x\n");
        // Prose apostrophes and unterminated quotes are plain punctuation.
        assert_eq!(texts(b"don't \"x"), ["don", "'", "t", " ", "\"", "x"]);
        assert_eq!(texts(b"// a\n// b")[..2], ["// a\n", "// b"]);
    }

    #[test]
    fn brackets_pair_at_the_same_nesting_only() {
        let input = b"f(a[1], \")\") ) {";
        let lexemes = lex(input);
        let partner = pair_brackets(&lexemes);
        let at = |text: &[u8]| {
            lexemes
                .iter()
                .position(|l| &input[l.start..l.end] == text)
                .unwrap()
        };
        assert_eq!(partner[at(b"(")], Some(9));
        assert_eq!(partner[at(b"[")], Some(at(b"]")));
        // The `)` in the literal is hidden; the last `)` and the `{` have no partner.
        assert_eq!(partner[11], None);
        assert_eq!(partner[13], None);
    }

    #[test]
    fn the_streaming_scan_pairs_as_the_lexemes_do() {
        let input = b"f(a[1], \")\") ) { g({x}\n, y] }";
        let lexemes = lex(input);
        let partner = pair_brackets(&lexemes);
        let mut from_lexemes: Vec<(u32, u32)> = (0..lexemes.len())
            .filter_map(|i| partner[i].filter(|&p| p > i).map(|p| (i, p)))
            .map(|(i, p)| (lexemes[i].start as u32, lexemes[p].start as u32))
            .collect();
        from_lexemes.sort_unstable();
        assert_eq!(bracket_pairs(input), from_lexemes);
        // The `{` and `(` left open stay around what follows them; `]` and `}` meet the `(` on top
        // and pair with nothing.
        let depths: Vec<(u8, Bracket, usize)> = bracket_scan(input)
            .filter(|(l, ..)| l.class != Class::Space)
            .map(|(l, b, d)| (input[l.start], b, d))
            .skip(10)
            .collect();
        assert_eq!(depths[0], (b'{', Bracket::Open, 1));
        assert_eq!(depths[3], (b'{', Bracket::Open, 3));
        assert_eq!(depths[5], (b'}', Bracket::Close(19), 2));
        assert_eq!(depths[8], (b']', Bracket::Other, 2));
        assert_eq!(depths[9], (b'}', Bracket::Other, 2));
    }

    proptest! {
        #[test]
        fn the_streamed_pairs_are_the_pairs_of_the_lexemes(
            input in proptest::collection::vec(proptest::sample::select(b"a (){}[]\"/*'\n".to_vec()), 0..300)
        ) {
            let lexemes = lex(&input);
            let partner = pair_brackets(&lexemes);
            let mut pairs: Vec<(u32, u32)> = (0..lexemes.len())
                .filter_map(|i| partner[i].filter(|&p| p > i).map(|p| (i, p)))
                .map(|(i, p)| (lexemes[i].start as u32, lexemes[p].start as u32))
                .collect();
            pairs.sort_unstable();
            prop_assert_eq!(bracket_pairs(&input), pairs);
        }

        #[test]
        fn lexemes_tile_any_input(input in proptest::collection::vec(any::<u8>(), 0..400)) {
            let lexemes = lex(&input);
            let mut at = 0;
            for l in &lexemes {
                prop_assert_eq!(l.start, at);
                prop_assert!(l.end > l.start);
                at = l.end;
            }
            prop_assert_eq!(at, input.len());
        }
    }
}
