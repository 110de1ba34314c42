//! Gates: run a pass only on inputs where it has a chance to pay.
//!
//! Main types: [`Needs`] (what a pass needs of the input) and [`Gated`] (a pass behind a
//! gate; it keeps the inner pass's name). A pass built for brackets costs tests and finds
//! nothing on a flat list of lines; a pass over words costs a test per byte of a binary file.
//! What a language is ([`Needs::Statements`], [`Needs::LineRecords`], [`Needs::PlainText`])
//! is the run's [`Kind`], decided once from the original; what the best is now (text or bytes,
//! bracketed or flat) is read from the best each time the pass would run, so a binary input
//! that shrinks to text gets the text passes from then on. The bracket test reads the driver's [`crate::tree::Nesting`]
//! of the best, the one the passes behind it read too.
//!
//! ```
//! use myhill::{passes::Needs, text::Kind};
//! assert!(Needs::Groups.met_by(b"f(x) { y; }", Kind::Text));
//! assert!(Needs::Groups.met_by(b"<item id=\"x\"/>", Kind::Xml));
//! assert!(!Needs::Groups.met_by(b"step 1\nstep 2\n", Kind::Text));
//! assert!(!Needs::Text.met_by(b"\x00\xde\xad", Kind::C));
//! // Plain text is cut down to bytes; a language stops at its tokens.
//! assert!(Needs::PlainText.met_by(b"abcabxcab", Kind::Text));
//! assert!(!Needs::PlainText.met_by(b"{\"a\": 1}", Kind::Json));
//! // A C file whose bodies were emptied is still statement code: the kind says so.
//! assert!(Needs::Statements.met_by(b"static char\nh(){}\n", Kind::C));
//! assert!(!Needs::Statements.met_by(b"{\"a\": [1, 2]}", Kind::Json));
//! ```
//!
//! Limits: text is told from bytes (valid UTF-8 without NUL) and brackets from the nesting,
//! not parsed.

use crate::cx::Cx;
use crate::kind::{Kind, is_text};
use crate::report::Stop;
use crate::schedule::{Checks, Pass};

/// What a pass needs of the input to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Text: valid UTF-8 without NUL bytes.
    Text,
    /// Text with at least one group (matching brackets, a markup element) or markup tag.
    Groups,
    /// Binary input (not text).
    Binary,
    /// Text of no known language or format ([`Kind::Text`]): its tokens are only runs of
    /// letters or digits, so a byte is its finest unit that means anything, where a
    /// language's tokens are its words.
    PlainText,
    /// Text of a statement-code kind ([`Kind::is_statement_code`]: C, C++, Java, JavaScript,
    /// CSS...).
    Statements,
    /// Text with groups of a one-record-a-line kind ([`Kind::is_line_records`]: a log with
    /// `[thread]` or `(id)` on each line, a CSV of bracketed fields).
    LineRecords,
}

impl Needs {
    /// Whether `input`, of kind `kind`, meets the need.
    pub fn met_by(self, input: &[u8], kind: Kind) -> bool {
        self.met(is_text(input), kind, || {
            crate::tree::Nesting::new(input).is_structured()
        })
    }

    /// Whether the driver's best meets the need, read from its shared nesting and its kind.
    fn met_in(self, cx: &Cx) -> bool {
        self.met(is_text(cx.best()), cx.kind(), || {
            cx.nesting().is_structured()
        })
    }

    fn met(self, text: bool, kind: Kind, structured: impl FnOnce() -> bool) -> bool {
        match self {
            Needs::Text => text,
            Needs::Binary => !text,
            Needs::PlainText => text && kind == Kind::Text,
            Needs::Groups => text && structured(),
            Needs::Statements => text && kind.is_statement_code(),
            Needs::LineRecords => text && kind.is_line_records() && structured(),
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

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        if self.needs.met_in(cx) == self.met {
            self.inner.run(cx)
        } else {
            Ok(())
        }
    }

    fn run_checked<'o>(
        &mut self,
        cx: &mut Cx<'o>,
        checks: &mut Checks<'_, 'o>,
    ) -> Result<(), Stop> {
        if self.needs.met_in(cx) == self.met {
            self.inner.run_checked(cx, checks)
        } else {
            Ok(())
        }
    }

    fn preview(&self, best: &[u8], kind: Kind, batch: usize) -> Vec<Vec<u8>> {
        // The inner preview is cheap and usually empty: look at the input only if it is not.
        let preview = self.inner.preview(best, kind, batch);
        if preview.is_empty() || self.needs.met_by(best, kind) == self.met {
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
    fn the_language_gates_read_the_kind_and_the_others_the_best() {
        let emptied = b"static char\nh()\n{\n}\n\n\n\n\n\n\n\n\n";
        assert!(Needs::Statements.met_by(emptied, Kind::C));
        assert!(!Needs::Statements.met_by(emptied, Kind::Python));
        assert!(!Needs::Statements.met_by(b"\x00{;}", Kind::C));
        assert!(Needs::LineRecords.met_by(b"a [x]\nb [y]\n", Kind::Records));
        assert!(!Needs::LineRecords.met_by(b"a x\nb y\n", Kind::Records));
        assert!(!Needs::LineRecords.met_by(b"a [x]\nb [y]\n", Kind::C));
        assert!(Needs::Binary.met_by(b"\xff\xfe", Kind::C));
    }
}
