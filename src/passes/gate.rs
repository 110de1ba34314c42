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
        self.met(
            is_text(input),
            || Nesting::new(input).is_structured(),
            || is_statement_code(input),
        )
    }

    /// Whether the driver's best meets the need, read from its shared nesting.
    fn met_in(self, driver: &Driver) -> bool {
        self.met(
            is_text(driver.best()),
            || driver.nesting().is_structured(),
            || is_statement_code(driver.best()),
        )
    }

    fn met(
        self,
        text: bool,
        structured: impl FnOnce() -> bool,
        statements: impl FnOnce() -> bool,
    ) -> bool {
        match self {
            Needs::Text => text,
            Needs::Binary => !text,
            Needs::Groups => text && structured(),
            Needs::Statements => text && statements(),
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
}
