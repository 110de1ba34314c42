//! The comment pass: one candidate with every comment of the input deleted.
//!
//! Main type: [`StripComments`], a [`Pass`]; [`strip_comments`] computes its candidate.
//! Comments are often a third of a source file (headers, doc comments above every
//! declaration), no compiler reads them, and the line and token passes delete them one line
//! or one lexeme per success, at a test or more each. This pass proposes, in one test, the
//! input with every comment of [`crate::text::lex`] gone (C-Vise and C-Reduce begin with the same
//! whole-file step); if the test rejects that and the input has both kinds, the line comments
//! alone, then the block comments alone.
//!
//! ```
//! use myhill::passes::strip_comments;
//! let code = b"int x; // the x\n/* y */int/**/y;\n";
//! assert_eq!(strip_comments(code, |_| true), b"int x; \nint y;\n");
//! ```
//!
//! Limits: what a comment is comes from the lexer (`//`, `/* */`, and `#` at a line start
//! when no letter follows), so in a language where `//` is an operator the candidate fails
//! and costs its one test; text the test needs inside a comment makes it fail too, and the
//! finer passes then delete the comments one by one.

use crate::cx::Cx;
use crate::lex::{Class, Lexeme, is_space, lexemes};
use crate::report::Stop;
use crate::schedule::Pass;

/// `input` without the comments `which` selects: a line comment keeps its newline, and a block
/// comment between two bytes that could join into one lexeme (`int/**/x`) becomes a space.
pub fn strip_comments(input: &[u8], which: impl Fn(&Lexeme) -> bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut copied = 0;
    for lexeme in lexemes(input) {
        if lexeme.class != Class::Comment || !which(&lexeme) {
            continue;
        }
        out.extend_from_slice(&input[copied..lexeme.start]);
        copied = lexeme.end;
        let text = &input[lexeme.start..lexeme.end];
        if text.ends_with(b"\n") {
            out.push(b'\n');
        } else {
            let before = out.last().copied();
            let after = input.get(lexeme.end).copied();
            if let (Some(b), Some(a)) = (before, after)
                && !is_space(b)
                && !is_space(a)
            {
                out.push(b' ');
            }
        }
    }
    out.extend_from_slice(&input[copied..]);
    out
}

/// Whether a comment lexeme is a line comment (it ends the line, or the input).
fn is_line_comment(input: &[u8], lexeme: &Lexeme) -> bool {
    !input[lexeme.start..].starts_with(b"/*")
}

/// Proposes the input without its comments: all of them, then (if that fails and there are
/// both kinds) the line comments alone, then the block comments alone.
#[derive(Clone, Debug, Default)]
pub struct StripComments;

impl Pass for StripComments {
    fn name(&self) -> String {
        "strip/comments".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let best = cx.best().to_vec();
        let all = strip_comments(&best, |_| true);
        if all.len() >= best.len() {
            return Ok(());
        }
        let lines = strip_comments(&best, |l| is_line_comment(&best, l));
        let blocks = strip_comments(&best, |l| !is_line_comment(&best, l));
        let mut candidates = if lines.len() < best.len() && blocks.len() < best.len() {
            vec![all, lines, blocks]
        } else {
            vec![all]
        }
        .into_iter()
        .map(|c| (c, ()));
        cx.try_candidates(&mut || candidates.next()).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_comment_goes_and_the_tokens_around_stay_apart() {
        let all = |s: &[u8]| strip_comments(s, |_| true);
        assert_eq!(all(b"a // x\nb"), b"a \nb");
        assert_eq!(all(b"a/* x */b"), b"a b");
        assert_eq!(all(b"a /* x */ b"), b"a  b");
        assert_eq!(all(b"/* x */b"), b"b");
        assert_eq!(all(b"# note\n#include <x>\n"), b"\n#include <x>\n");
        assert_eq!(
            all(b"s = \"// not a comment\";"),
            b"s = \"// not a comment\";"
        );
        assert_eq!(all(b"tail // no newline"), b"tail ");
    }

    #[test]
    fn the_kinds_can_be_stripped_apart() {
        let input = b"a; // l\n/* b */c;\n";
        assert_eq!(
            strip_comments(input, |l| is_line_comment(input, l)),
            b"a; \n/* b */c;\n"
        );
        assert_eq!(
            strip_comments(input, |l| !is_line_comment(input, l)),
            b"a; // l\nc;\n"
        );
    }
}
