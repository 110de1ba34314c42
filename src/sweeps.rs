//! What the sweeps remember across the passes of a run: the failure memory and how a round
//! lets them spend their tests.
//!
//! Main types: [`Sweeps`], [`SweepMode`] and `Renames`. The reduction's round engine sets the
//! mode and the yield floor for each pass; a sweep reads them, skips what failed before in the
//! same context, and adds its own failures; a rollback forgets them all (they were judged by a
//! test that proved flaky). A pass reaches them only through its [`crate::passes::Cx`].
//!
//! Limits: the memory grows by one key per failed candidate over the whole run (8 bytes each).

use std::collections::HashSet;

/// The failure memory of the sweeps, with the settings a round gives them.
#[derive(Debug, Default)]
pub(crate) struct Sweeps {
    pub(crate) mode: SweepMode,
    /// The keys of the sweep candidates that failed, whichever pass proposed them (see
    /// [`SweepMode::remember`]): a key names the edit and its context, not the pass.
    pub(crate) failures: HashSet<u64>,
    /// The passes that ran a sweep since the last rollback.
    sweeping_passes: HashSet<String>,
    /// Whether a sweep stopped for lack of patience since this was last taken.
    cut_short: bool,
    /// Failures whose context a later find of the same sweep changed, since this was last taken.
    stale_failures: u64,
    /// The renamings since the failures were first remembered: the memory reads every input
    /// with the old names (see [`Renames`]).
    pub(crate) renames: Renames,
    /// Bytes per test below which a splitting pass hands its tests over (see
    /// [`crate::passes::Cx::yield_floor`]).
    pub(crate) yield_floor: Option<f64>,
    /// Bytes per test below which any pass hands its tests over to the passes waiting in its
    /// round (see [`crate::passes::Cx::begin_pass`]).
    pub(crate) hand_over_floor: Option<f64>,
}

impl Sweeps {
    /// Notes that the pass `name` ran a sweep: its failures are in the memory.
    pub(crate) fn swept(&mut self, name: &str) {
        if !self.sweeping_passes.contains(name) {
            self.sweeping_passes.insert(name.to_string());
        }
    }

    /// Whether the pass called `name` ran a sweep since the last rollback: its failures are
    /// remembered, so a run of it in a remembering round costs only what changed around.
    pub(crate) fn remembers(&self, name: &str) -> bool {
        self.sweeping_passes.contains(name)
    }

    /// Notes that a sweep stopped for lack of patience.
    pub(crate) fn note_cut_short(&mut self) {
        self.cut_short = true;
    }

    /// Whether a sweep stopped for lack of patience since the last call.
    pub(crate) fn take_cut_short(&mut self) -> bool {
        std::mem::take(&mut self.cut_short)
    }

    /// Notes `n` failures of a sweep whose context a later find of the same sweep changed: a
    /// rerun would test them again.
    pub(crate) fn note_stale_failures(&mut self, n: u64) {
        self.stale_failures += n;
    }

    /// The failures noted by [`Sweeps::note_stale_failures`] since the last call.
    pub(crate) fn take_stale_failures(&mut self) -> u64 {
        std::mem::take(&mut self.stale_failures)
    }

    /// Forgets every failure: they were judged by a test that proved flaky.
    pub(crate) fn forget(&mut self) {
        self.failures.clear();
        self.sweeping_passes.clear();
        self.renames = Renames::default();
    }
}

/// How the sweeps of patches (the passes that try every candidate of a list) spend their tests
/// in a round; the round engine sets it for each round, and the default is a plain sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepMode {
    /// Skip a candidate that already failed in the same context: the same edit with the same
    /// bytes around it (it may have failed on another input, whose other parts differ).
    pub remember: bool,
    /// End a sweep after this many tests in a row that found nothing.
    pub patience: Option<usize>,
}

/// The names the renaming pass gave identifiers since the sweeps began to remember failures:
/// each current name and the name the memory knows it by. A consistent renaming changes no
/// candidate's meaning, so the failure memory reads every input with the old names back
/// ([`Renames::form`]): a deletion that failed before a renaming is still known to fail after
/// it, where the bytes around it changed only by the new names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Renames {
    known_as: std::collections::HashMap<Vec<u8>, Vec<u8>>,
}

impl Renames {
    /// Notes that every occurrence of the identifier `from` became `to`, a name the input did
    /// not use.
    pub(crate) fn renamed(&mut self, from: &[u8], to: &[u8]) {
        let known = self.known_as.remove(from).unwrap_or_else(|| from.to_vec());
        self.known_as.insert(to.to_vec(), known);
    }

    /// Whether nothing was renamed.
    pub(crate) fn is_empty(&self) -> bool {
        self.known_as.is_empty()
    }

    /// `bytes` with every renamed identifier given back the name the memory knows it by (the
    /// bytes themselves while nothing was renamed).
    pub(crate) fn form<'a>(&self, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        if self.is_empty() {
            return std::borrow::Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        self.each_lexeme(bytes, |_, known| out.extend_from_slice(known));
        std::borrow::Cow::Owned(out)
    }

    /// [`Renames::form`], with the offset in it of every offset of `bytes` (an offset inside
    /// a renamed identifier maps to the start of its old name), one past the end included.
    pub(crate) fn form_with_offsets(&self, bytes: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = Vec::with_capacity(bytes.len() + 1);
        self.each_lexeme(bytes, |lexeme, known| {
            if lexeme == known {
                at.extend(out.len()..out.len() + lexeme.len());
            } else {
                at.extend(std::iter::repeat_n(out.len(), lexeme.len()));
            }
            out.extend_from_slice(known);
        });
        at.push(out.len());
        (out, at)
    }

    /// Calls `f` with each lexeme of `bytes` and the bytes the memory knows it by: its old
    /// name for a renamed identifier, else the lexeme itself.
    fn each_lexeme<'a>(&'a self, bytes: &'a [u8], mut f: impl FnMut(&'a [u8], &'a [u8])) {
        for l in crate::lex::lexemes(bytes) {
            let lexeme = &bytes[l.start..l.end];
            match self.known_as.get(lexeme) {
                Some(old) if l.class == crate::lex::Class::Word => f(lexeme, old),
                _ => f(lexeme, lexeme),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_reads_renamed_names_as_they_were_first_known() {
        let mut renames = Renames::default();
        assert_eq!(renames.form(b"count x"), &b"count x"[..]);
        renames.renamed(b"count", b"a");
        // A second renaming of the same identifier, then the freed name given to another.
        renames.renamed(b"a", b"b");
        renames.renamed(b"total", b"a");
        assert_eq!(renames.form(b"b=a+ab;\"b\""), &b"count=total+ab;\"b\""[..]);
        let (form, at) = renames.form_with_offsets(b"b a");
        assert_eq!(form, b"count total");
        assert_eq!(at, [0, 5, 6, 11]);
    }
}
