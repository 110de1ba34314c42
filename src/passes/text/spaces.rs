//! The spacing passes: one candidate with every space that keeps no two tokens apart deleted,
//! and one with every line break that no directive needs deleted.
//!
//! Main types: [`SqueezeSpaces`] and [`SqueezeLines`], each a [`Pass`]; [`drop_spaces`] and
//! [`join_lines`] compute their candidates. In code whose grammar ignores spacing (C, C++,
//! Java, CSS), most spaces left after the whitespace squeeze sit between a word and a bracket
//! or an operator (`x = f (a, b) ;`), and the token pass deletes them one test per space.
//! [`SqueezeSpaces`] proposes, in one test, the input with every
//! run of spaces and tabs deleted unless the bytes on its two sides could join into one token
//! (two word characters, `a b`; two operator characters, `- -`, `/ *`); newlines stay, so the
//! line passes keep their units and preprocessor lines stay lines.
//!
//! ```
//! use myhill::passes::drop_spaces;
//! assert_eq!(drop_spaces(b"int x = f (a, - -b) ;\n"), b"int x=f(a,- -b);\n");
//! assert_eq!(drop_spaces(b"s = \"a b\" ;"), b"s=\"a b\";");
//! ```
//!
//! [`SqueezeLines`] does the same for line breaks once the line passes have had their turn
//! ([`join_lines`]): in statement code every statement left on its own line would otherwise
//! cost the word split a test or more per line break.
//!
//! ```
//! use myhill::passes::join_lines;
//! assert_eq!(join_lines(b"#include <a>\nint x;\nint\ny;\n// c\nz();\n"), b"#include <a>\nint x;int y;// c\nz();");
//! ```
//!
//! Limits: spaces inside literals and comments stay (they are one lexeme); a language where a
//! space between a word and an operator matters (a macro's stringified argument, `u8 "x"`)
//! makes the candidate fail, and the token pass then deletes the spaces one by one.

use crate::cx::Cx;
use crate::lex::{Class, lexemes};
use crate::report::Stop;
use crate::schedule::Pass;

/// What side of a space a byte puts it on: bytes of one kind may join into one token.
fn kind(b: u8) -> u8 {
    match b {
        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'$' | b'\'' | b'"' | 0x80.. => 0,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|' | b'^'
        | b'~' | b'.' | b':' | b'?' | b'#' | b'@' | b'\\' => 1,
        _ => 2,
    }
}

/// Whether bytes `b` and `a` could join into one token with nothing between them.
fn could_join(b: u8, a: u8) -> bool {
    kind(b) == kind(a) && kind(a) < 2
}

/// `input` with each run of whitespace replaced by what `edit` gives for it (`None` keeps
/// it). `edit` sees the run, whether the line it starts on is a preprocessor line (`#`
/// first), and the bytes just before and just after it.
fn rewrite_whitespace(
    input: &[u8],
    mut edit: impl FnMut(&[u8], bool, Option<u8>, Option<u8>) -> Option<Vec<u8>>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut copied = 0;
    let (mut line_start, mut directive) = (true, false);
    for lexeme in lexemes(input) {
        let text = &input[lexeme.start..lexeme.end];
        if lexeme.class != Class::Space {
            if line_start {
                directive = text[0] == b'#';
            }
            // A line comment ends with its newline.
            line_start = text.ends_with(b"\n");
            continue;
        }
        let around = (
            input[..lexeme.start].last().copied(),
            input.get(lexeme.end).copied(),
        );
        let replacement = edit(text, directive, around.0, around.1);
        line_start |= text.contains(&b'\n');
        if let Some(replacement) = replacement {
            out.extend_from_slice(&input[copied..lexeme.start]);
            out.extend_from_slice(&replacement);
            copied = lexeme.end;
        }
    }
    out.extend_from_slice(&input[copied..]);
    out
}

/// `input` with every run of spaces and tabs deleted where the bytes on its two sides cannot
/// join into one token: one of them is a bracket, `;` or `,`, or one is a word character and
/// the other an operator. Runs at a line's start or end go too; newlines stay, and so does
/// every space of a preprocessor line (`#define F (x)` is not `#define F(x)`).
pub fn drop_spaces(input: &[u8]) -> Vec<u8> {
    rewrite_whitespace(input, |run, directive, before, after| {
        let newlines = run.iter().filter(|&&b| b == b'\n').count();
        let keep = if newlines > 0 {
            newlines == run.len()
        } else {
            directive || matches!((before, after), (Some(b), Some(a)) if could_join(b, a))
        };
        (!keep).then(|| vec![b'\n'; newlines])
    })
}

/// `input` with every line break deleted that no preprocessor line and no line comment needs:
/// a run of whitespace holding a newline becomes nothing, or one space where the bytes on its
/// two sides could join into one token. The newline that ends a `#` line, and the one before
/// a `#` line, stay; a line comment holds its own newline.
pub fn join_lines(input: &[u8]) -> Vec<u8> {
    rewrite_whitespace(input, |run, directive, before, after| {
        if !run.contains(&b'\n') || directive || after == Some(b'#') {
            return None;
        }
        Some(match (before, after) {
            (Some(b), Some(a)) if could_join(b, a) => b" ".to_vec(),
            _ => Vec::new(),
        })
    })
}

/// Tests `edit(best)` if it is shorter than the best: the one candidate of these passes.
fn try_shorter(cx: &mut Cx, edit: fn(&[u8]) -> Vec<u8>) -> Result<(), Stop> {
    let best = cx.best();
    let mut candidate = Some(edit(best)).filter(|c| c.len() < best.len());
    cx.try_candidates(&mut || candidate.take().map(|c| (c, ())))
        .map(drop)
}

/// Proposes the input without the spaces that keep no two tokens apart, in one test.
#[derive(Clone, Debug, Default)]
pub struct SqueezeSpaces;

impl Pass for SqueezeSpaces {
    fn name(&self) -> String {
        "squeeze/spaces".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        try_shorter(cx, drop_spaces)
    }
}

/// Proposes the input with its lines joined ([`join_lines`]), in one test.
#[derive(Clone, Debug, Default)]
pub struct SqueezeLines;

impl Pass for SqueezeLines {
    fn name(&self) -> String {
        "squeeze/lines".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        try_shorter(cx, join_lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_go_where_no_two_tokens_can_join() {
        assert_eq!(drop_spaces(b"a b"), b"a b");
        assert_eq!(drop_spaces(b"a  =  b ;"), b"a=b;");
        assert_eq!(drop_spaces(b"x - -y + +z"), b"x- -y+ +z");
        assert_eq!(drop_spaces(b"p / *q"), b"p/ *q");
        assert_eq!(drop_spaces(b"  f ( ) { }  \n  g ( ) ;\n"), b"f(){}\ng();\n");
        assert_eq!(
            drop_spaces(b"#define F (x)\nint y ;"),
            b"#define F (x)\nint y;"
        );
        assert_eq!(drop_spaces(b"a; \n  b ;"), b"a;\nb;");
        assert_eq!(drop_spaces(b"'a' 'b' \"c\" d"), b"'a' 'b' \"c\" d");
    }

    #[test]
    fn lines_join_unless_a_directive_or_a_line_comment_needs_the_break() {
        assert_eq!(join_lines(b"a;\nb;\n"), b"a;b;");
        assert_eq!(join_lines(b"int\n  x;"), b"int x;");
        assert_eq!(join_lines(b"x-\n-y"), b"x- -y");
        assert_eq!(
            join_lines(b"#define F 1\nint x;\n#if A\ny;\n#endif\n"),
            b"#define F 1\nint x;\n#if A\ny;\n#endif\n"
        );
        assert_eq!(join_lines(b"a; // c\nb;\n"), b"a; // c\nb;");
        assert_eq!(join_lines(b"s = \"a\\nb\";\nt;"), b"s = \"a\\nb\";t;");
    }
}
