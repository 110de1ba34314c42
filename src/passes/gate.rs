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
//! ```
//!
//! Limits: the classification is a heuristic on bytes: valid UTF-8 without NUL is text.

use crate::driver::Driver;
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
}

/// Whether `input` is text: valid UTF-8 without NUL bytes.
pub fn is_text(input: &[u8]) -> bool {
    !input.contains(&0) && std::str::from_utf8(input).is_ok()
}

impl Needs {
    /// Whether `input` meets the need.
    pub fn met_by(self, input: &[u8]) -> bool {
        self.met(is_text(input), || Nesting::new(input).is_structured())
    }

    /// Whether the driver's best meets the need, read from its shared nesting.
    fn met_in(self, driver: &Driver) -> bool {
        self.met(is_text(driver.best()), || driver.nesting().is_structured())
    }

    fn met(self, text: bool, structured: impl FnOnce() -> bool) -> bool {
        match self {
            Needs::Text => text,
            Needs::Binary => !text,
            Needs::Groups => text && structured(),
        }
    }
}

/// A pass that runs only when the input meets its need; otherwise it costs nothing.
pub struct Gated {
    inner: Box<dyn Pass>,
    needs: Needs,
}

impl Gated {
    /// `inner`, run only on inputs that meet `needs`.
    pub fn new(inner: Box<dyn Pass>, needs: Needs) -> Gated {
        Gated { inner, needs }
    }
}

impl Pass for Gated {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        if self.needs.met_in(driver) {
            self.inner.run(driver)
        } else {
            Ok(())
        }
    }

    fn preview(&self, best: &[u8], batch: usize) -> Vec<Vec<u8>> {
        // The inner preview is cheap and usually empty: look at the input only if it is not.
        let preview = self.inner.preview(best, batch);
        if preview.is_empty() || self.needs.met_by(best) {
            preview
        } else {
            Vec::new()
        }
    }
}
