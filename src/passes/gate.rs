//! Gates: run a pass only on inputs where it has a chance to pay.
//!
//! Main types: [`Needs`] (what a pass needs of the input) and [`Gated`] (a pass behind a
//! gate; it keeps the inner pass's name). A pass built for brackets costs tests and finds
//! nothing on a flat list of lines; a pass over words costs a test per byte of a binary file.
//! The gate looks at the input each time the pass would run, so a binary input that shrinks to
//! text gets the text passes from then on; it reads the driver's [`crate::Nesting`] of the best,
//! the one the passes behind it read too.
//!
//! ```
//! use myhill::Needs;
//! assert!(Needs::Groups.met_by(b"f(x) { y; }"));
//! assert!(Needs::Groups.met_by(b"<a><b/></a>"));
//! assert!(Needs::Groups.met_by(b"<item id=\"x\"/>"));
//! assert!(!Needs::Groups.met_by(b"step 1\nstep 2\n"));
//! assert!(!Needs::Text.met_by(b"\x00\xde\xad"));
//! assert!(Needs::Statements.met_by(b"int main() {\n  f();\n  return 0;\n}\n"));
//! assert!(!Needs::Statements.met_by(b"{\"a\": [1, 2]}"));
//! ```
//!
//! Limits: the classification is a heuristic on bytes: valid UTF-8 without NUL is text, and
//! statement code is told by its `;` and `{}`, not parsed.

use crate::driver::Driver;
use crate::lex::{Class, lexemes};
use crate::report::Stop;
use crate::schedule::Pass;
use crate::tree::Nesting;

/// What a pass needs of the input to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Text: valid UTF-8 without NUL bytes.
    Text,
    /// Text with at least one group (matching brackets, a markup element) or markup tag.
    Groups,
    /// Binary input (not text).
    Binary,
    /// Statement code: text with a `{}` group and at least one `;` per
    /// [`LINES_PER_STATEMENT`] lines (C, C++, Java, JavaScript, CSS), outside comments and
    /// literals.
    Statements,
    /// One record a line: text with groups, none of them across a line break, at least
    /// [`LINE_RECORDS_MIN_LINES`] lines, not statement code (a log with `[thread]` or
    /// `(id)` on each line, a CSV of bracketed fields).
    LineRecords,
}

/// The fewest lines of text whose groups all close on the line they open for it to be read
/// as one record a line.
pub const LINE_RECORDS_MIN_LINES: usize = 8;

/// Whether every group of `nesting` closes on the line it opens, over at least
/// [`LINE_RECORDS_MIN_LINES`] lines.
fn groups_stay_on_their_lines(input: &[u8], nesting: &Nesting) -> bool {
    let lines = input.iter().filter(|&&b| b == b'\n').count() + 1;
    lines >= LINE_RECORDS_MIN_LINES
        && nesting
            .groups()
            .iter()
            .filter(|g| g.parent.is_none())
            .all(|g| !input[g.start()..g.end()].contains(&b'\n'))
}

/// The most lines per `;` that statement code has: C and C++ sources have one `;` per two or
/// three lines; JSON, XML, Python and S-expressions have almost none (a few entities or
/// comment markers).
pub const LINES_PER_STATEMENT: usize = 8;

/// Whether `input` (text) reads as statement code; see [`Needs::Statements`].
fn is_statement_code(input: &[u8]) -> bool {
    let (mut semicolons, mut braces) = (0, 0);
    for lexeme in lexemes(input) {
        match lexeme.class {
            Class::Punct(b';') => semicolons += 1,
            Class::Punct(b'{') => braces += 1,
            _ => {}
        }
    }
    let lines = input.iter().filter(|&&b| b == b'\n').count() + 1;
    braces > 0 && semicolons > 0 && semicolons * LINES_PER_STATEMENT >= lines
}

/// Whether `input` is text: valid UTF-8 without NUL bytes.
pub fn is_text(input: &[u8]) -> bool {
    !input.contains(&0) && std::str::from_utf8(input).is_ok()
}

impl Needs {
    /// Whether `input` meets the need.
    pub fn met_by(self, input: &[u8]) -> bool {
        let nesting = std::cell::OnceCell::new();
        let nesting = || nesting.get_or_init(|| Nesting::new(input));
        self.met(
            is_text(input),
            || nesting().is_structured(),
            || is_statement_code(input),
            || groups_stay_on_their_lines(input, nesting()),
        )
    }

    /// Whether the driver's best meets the need, read from its shared nesting.
    fn met_in(self, driver: &Driver) -> bool {
        self.met(
            is_text(driver.best()),
            || driver.nesting().is_structured(),
            || is_statement_code(driver.best()),
            || groups_stay_on_their_lines(driver.best(), &driver.nesting()),
        )
    }

    fn met(
        self,
        text: bool,
        structured: impl FnOnce() -> bool,
        statements: impl FnOnce() -> bool,
        on_their_lines: impl FnOnce() -> bool,
    ) -> bool {
        match self {
            Needs::Text => text,
            Needs::Binary => !text,
            Needs::Groups => text && structured(),
            Needs::Statements => text && statements(),
            Needs::LineRecords => text && structured() && !statements() && on_their_lines(),
        }
    }
}

/// A pass that runs only when the input meets its need (or, made by [`Gated::unless`], only
/// when it does not); otherwise it costs nothing.
pub struct Gated {
    inner: Box<dyn Pass>,
    needs: Needs,
    met: bool,
}

impl Gated {
    /// `inner`, run only on inputs that meet `needs`.
    pub fn new(inner: Box<dyn Pass>, needs: Needs) -> Gated {
        Gated {
            inner,
            needs,
            met: true,
        }
    }

    /// `inner`, run only on inputs that do not meet `needs`: the same pass placed elsewhere in
    /// a schedule for the inputs that do.
    pub fn unless(inner: Box<dyn Pass>, needs: Needs) -> Gated {
        Gated {
            inner,
            needs,
            met: false,
        }
    }
}

impl Pass for Gated {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        if self.needs.met_in(driver) == self.met {
            self.inner.run(driver)
        } else {
            Ok(())
        }
    }

    fn preview(&self, best: &[u8], batch: usize) -> Vec<Vec<u8>> {
        // The inner preview is cheap and usually empty: look at the input only if it is not.
        let preview = self.inner.preview(best, batch);
        if preview.is_empty() || self.needs.met_by(best) == self.met {
            preview
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_code_is_told_from_data_markup_and_indented_code() {
        let code: [&[u8]; 4] = [
            b"#include <cstdio>\nint main() {\n    std::puts(\"hi\");\n    return 0;\n}\n",
            b"static int f(int x)\n{\n\n\n    if (x)\n        return 1;\n\n\n    return 0;\n}\n",
            b"body { margin: 0; padding: 0 }\n",
            b"class A { int f() { return 1; } }",
        ];
        for input in code {
            assert!(Needs::Statements.met_by(input), "{}", input.escape_ascii());
        }
        let other: [&[u8]; 6] = [
            b"{\"a\": [1, 2], \"b\": {\"c\": null}}",
            b"<doc>&amp; &lt;</doc>",
            b"def f(x):\n    return {x: 1}\n",
            b"(define (f x) ; a comment\n  (+ x 1))\n",
            b"{\n// only a comment; here\n}\n",
            b"a;\nb\nc\nd\ne\nf\ng\nh\ni\n{}",
        ];
        for input in other {
            assert!(!Needs::Statements.met_by(input), "{}", input.escape_ascii());
        }
    }

    #[test]
    fn a_log_is_one_record_a_line_and_nested_text_is_not() {
        let line = |k: usize| format!("12:00:{k:02} INFO [pool-{k}] txn={k} open (user=a)\n");
        let log: String = (0..20).map(line).collect();
        assert!(Needs::LineRecords.met_by(log.as_bytes()));
        // A group across lines, too few lines, no groups, statement code: not line records.
        let spanning = format!("{log}note [a\nb]\n");
        let others: [&[u8]; 5] = [
            spanning.as_bytes(),
            b"a [x]\nb [y]\n",
            b"step 1\nstep 2\nstep 3\nstep 4\nstep 5\nstep 6\nstep 7\nstep 8\nstep 9\n",
            b"{\n  \"a\": [1, 2],\n  \"b\": 3\n}\n\n\n\n\n\n\n",
            b"int f() { return 1; }\nint g() { return 2; }\nint h();\nint i();\nint j();\nint k();\nint l();\nint m();\n",
        ];
        for input in others {
            assert!(
                !Needs::LineRecords.met_by(input),
                "{}",
                input.escape_ascii()
            );
        }
    }
}
