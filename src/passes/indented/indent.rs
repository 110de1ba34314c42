//! Indented blocks: delete a block whole, or replace it by its body, dedented.
//!
//! Main type: [`IndentBlocks`], a [`crate::passes::Pass`] (a sweep of `patch.rs`). A block is a line
//! and the lines after it that are indented deeper (blank lines among them included): a
//! Python `def`, `class`, `if` or `for` with its body, a YAML key with what it holds, a make
//! rule with its recipe. Line-wise deletion rarely removes such a block cleanly (the header
//! alone leaves an orphaned body, an "unexpected indent"; the body alone leaves a header with
//! nothing under it), and no bracket marks it for the tree passes. Its candidates, largest
//! first: each block deleted, then each block replaced by its body moved out to the header's
//! indentation (`def f():\n    return 1/0\n` becomes `return 1/0\n`), the indentation-based
//! counterpart of hoisting a group; and each block written on one line, `HEADER: BODY`
//! (`def f(x): return 1/0`, `if a: b`, as line joining leaves them), replaced by its body.
//! One sweep: at most one test per candidate.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, IndentBlocks, Pass}};
//! // Interesting while "1/0" is at the start of a line.
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"1/0") || b.windows(4).any(|w| w == b"\n1/0"));
//! let input = b"import sys\ndef f(x):\n    y = 2\n    1/0\n\nprint(1)\n".to_vec();
//! let mut cx = Cx::new(input, &oracle, EvalOptions::default());
//! IndentBlocks.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"import sys\ny = 2\n1/0\n\nprint(1)\n");
//! ```
//!
//! Limits: spaces and tabs count one column each; a tab-indented body dedented under a
//! space-indented header may mix them. Lines continued inside brackets are not told apart
//! from a deeper block.

use crate::cx::Cx;
use crate::lex::{Class, IndentedLine, indented_lines, lex, pair_brackets};
use crate::passes::patch::{Cut, Patch, SweepPass};

/// Deletes and dedents indented blocks; see the module doc.
#[derive(Clone, Copy, Debug, Default)]
pub struct IndentBlocks;

/// The candidates on `input`: deletions of blocks, then dedents, each kind largest first.
fn candidates(input: &[u8]) -> Vec<Patch> {
    let lines = indented_lines(input);
    let mut deletions = Vec::new();
    let mut dedents = Vec::new();
    for (h, header) in lines.iter().enumerate() {
        if header.blank {
            continue;
        }
        // The body: the deeper lines after the header, up to the last non-blank one.
        let mut last = h;
        let mut body_indent = usize::MAX;
        for (k, line) in lines.iter().enumerate().skip(h + 1) {
            if line.blank {
                continue;
            }
            if line.indent <= header.indent {
                break;
            }
            body_indent = body_indent.min(line.indent);
            last = k;
        }
        if last == h {
            continue;
        }
        let end = lines[last].end;
        deletions.push(Patch::delete(header.start, end));
        // Dedent: the header goes, each body line loses what it has beyond the header's
        // indentation, up to the body's own (deeper lines keep their relative depth).
        let shift = body_indent - header.indent;
        let mut cuts = vec![Cut::delete(header.start, header.end)];
        for line in &lines[h + 1..=last] {
            if !line.blank {
                let at = line.start + header.indent;
                cuts.push(Cut::delete(at, at + shift));
            }
        }
        if let Some(p) = Patch::of(cuts) {
            dedents.push(p);
        }
    }
    dedents.extend(inline_headers(input, &lines));
    deletions.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    dedents.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    deletions.extend(dedents);
    deletions
}

/// Blocks on one line, `HEADER: BODY` (`def f(x): return 1/0`, `if a: b`): the header and
/// its colon deleted, the body left at the line's indentation. The colon is the line's first
/// one outside brackets (as the one lexer pairs them), alone (not `::`), with code after it on
/// the same line.
fn inline_headers(input: &[u8], lines: &[IndentedLine]) -> Vec<Patch> {
    let lexemes = lex(input);
    let partner = pair_brackets(&lexemes);
    let is_colon = |k: usize| {
        lexemes
            .get(k)
            .is_some_and(|l| l.class == Class::Punct(b':'))
    };
    let mut out = Vec::new();
    let mut k = 0;
    for line in lines.iter().filter(|l| !l.blank) {
        let from = line.start + line.indent;
        while k < lexemes.len() && lexemes[k].start < from {
            k += 1;
        }
        // A line that starts inside a literal or a comment is not a header.
        if lexemes.get(k).is_none_or(|l| l.start != from) {
            continue;
        }
        let mut j = k;
        while j < lexemes.len() && lexemes[j].start < line.end {
            match lexemes[j].class {
                // A group closing on this line is skipped whole; one that closes later (or
                // never), or a closer of a group opened on an earlier line, means the line is
                // inside brackets: no header.
                Class::Punct(b'(' | b'[' | b'{') => match partner[j] {
                    Some(p) if lexemes[p].start < line.end => j = p,
                    _ => break,
                },
                Class::Punct(b')' | b']' | b'}') => break,
                Class::Punct(b':') => {
                    let paired = (j > 0 && is_colon(j - 1)) || is_colon(j + 1);
                    if !paired {
                        let mut body = j + 1;
                        while lexemes.get(body).is_some_and(|l| l.class == Class::Space) {
                            body += 1;
                        }
                        if lexemes
                            .get(body)
                            .is_some_and(|l| l.start < line.end && l.class != Class::Comment)
                        {
                            out.push(Patch::delete(from, lexemes[body].start));
                        }
                    }
                    break;
                }
                _ => {}
            }
            j += 1;
        }
    }
    out
}

impl SweepPass for IndentBlocks {
    const NAME: &'static str = "indent/blocks";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(cx.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(input: &[u8], p: &Patch) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        for c in p.cuts() {
            out.extend_from_slice(&input[at..c.start]);
            out.extend_from_slice(&c.with);
            at = c.end;
        }
        out.extend_from_slice(&input[at..]);
        out
    }

    #[test]
    fn blocks_are_deleted_whole_or_dedented() {
        let input = b"class A:\n    def f(self):\n        return 1\n\n    x = 2\ny = 3\n";
        let all: Vec<Vec<u8>> = candidates(input)
            .iter()
            .map(|p| applied(input, p))
            .collect();
        // Deletions first: the class, then the method.
        assert_eq!(all[0], b"y = 3\n");
        assert_eq!(all[1], b"class A:\n\n    x = 2\ny = 3\n");
        // Then dedents: the class's body out one level, the method's body under the class.
        assert_eq!(all[2], b"def f(self):\n    return 1\n\nx = 2\ny = 3\n");
        assert_eq!(all[3], b"class A:\n    return 1\n\n    x = 2\ny = 3\n");
        assert_eq!(all.len(), 4);
    }

    #[test]
    fn a_block_on_one_line_loses_its_header() {
        let input = b"def f(x):1/x\nclass A: pass\n    if d[1:2]: y = {a: b}\nstd::x;\nz = 1\n";
        let all: Vec<Vec<u8>> = candidates(input)
            .iter()
            .map(|p| applied(input, p))
            .collect();
        for want in [
            &b"1/x\nclass A: pass\n    if d[1:2]: y = {a: b}\nstd::x;\nz = 1\n"[..],
            b"def f(x):1/x\npass\n    if d[1:2]: y = {a: b}\nstd::x;\nz = 1\n",
            b"def f(x):1/x\nclass A: pass\n    y = {a: b}\nstd::x;\nz = 1\n",
        ] {
            assert!(
                all.contains(&want.to_vec()),
                "{:?}",
                String::from_utf8_lossy(want)
            );
        }
        // No colon outside brackets with code after it: `::`, a header ending its line.
        assert_eq!(inline_headers(input, &indented_lines(input)).len(), 3);
        assert!(candidates(b"std::vec::Vec::new();\n").is_empty());
        assert_eq!(candidates(b"if a:\n    b\n").len(), 2);
    }

    #[test]
    fn a_line_inside_brackets_is_no_header() {
        // The second line closes the call the first opened, the third opens one that closes
        // on the next line: neither colon is outside brackets on its own line.
        let input = b"x = f(a,\n    b): 1\nd = {k: g(\n  2)}: 3\ne = [1]: 4\n";
        let heads: Vec<Vec<u8>> = inline_headers(input, &indented_lines(input))
            .iter()
            .map(|p| applied(input, p))
            .collect();
        assert_eq!(
            heads,
            [b"x = f(a,\n    b): 1\nd = {k: g(\n  2)}: 3\n4\n".to_vec()]
        );
    }

    #[test]
    fn flat_text_has_no_blocks() {
        assert!(candidates(b"a\nb\n\nc").is_empty());
        assert!(candidates(b"").is_empty());
    }
}
