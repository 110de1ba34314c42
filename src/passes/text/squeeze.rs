//! The whitespace pass: one candidate that shrinks every run of whitespace at once.
//!
//! Main type: [`SqueezeWhitespace`], a [`Pass`]. Deleting whitespace token by token costs a
//! test per run, and most runs in code are indentation that any parser ignores. This pass
//! proposes, in one test, the input with every run of whitespace that holds a newline cut to
//! that newline, every other run cut to one space, and the whitespace at both ends gone; if
//! the test rejects it, the same with the ends kept; then (a language that cares about
//! indentation) only runs without a newline shortened; then only the ends trimmed.
//!
//! ```
//! use myhill::passes::squeeze;
//! assert_eq!(squeeze(b"int  x;\n    y;\n\n", true), b"int x;\ny;\n");
//! assert_eq!(squeeze(b"int  x;\n    y;\n", false), b"int x;\n y;\n");
//! ```
//!
//! Limits: it never deletes a run entirely (that is the token passes' job), so it cannot join
//! two words.

use crate::cx::Cx;
use crate::report::Stop;
use crate::schedule::Pass;

/// Shrinks whitespace runs. A run without a newline becomes its first byte. A run with a
/// newline becomes one `\n` when `lines` is set; otherwise it keeps its newlines and what
/// follows the last one becomes a single space, so indentation shrinks but does not vanish.
pub fn squeeze(input: &[u8], lines: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        if !input[i].is_ascii_whitespace() {
            out.push(input[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < input.len() && input[i].is_ascii_whitespace() {
            i += 1;
        }
        let run = &input[start..i];
        match run.iter().rposition(|&b| b == b'\n') {
            Some(_) if lines => out.push(b'\n'),
            Some(last) => {
                out.extend_from_slice(&run[..=last]);
                if last + 1 < run.len() {
                    out.push(b' ');
                }
            }
            None => out.push(run[0]),
        }
    }
    out
}

/// The input without whitespace at either end.
fn trim(input: &[u8]) -> Vec<u8> {
    let start = input.iter().position(|b| !b.is_ascii_whitespace());
    let end = input.iter().rposition(|b| !b.is_ascii_whitespace());
    match (start, end) {
        (Some(s), Some(e)) => input[s..=e].to_vec(),
        _ => Vec::new(),
    }
}

/// Proposes the squeezed input (trimmed, lines too, spaces only, only trimmed) as at most
/// four candidates.
#[derive(Clone, Debug, Default)]
pub struct SqueezeWhitespace;

impl Pass for SqueezeWhitespace {
    fn name(&self) -> String {
        "squeeze/whitespace".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let best = cx.best().to_vec();
        let lines = squeeze(&best, true);
        let mut candidates = [trim(&lines), lines, squeeze(&best, false), trim(&best)]
            .into_iter()
            .filter(|c| c.len() < best.len())
            .map(|c| (c, ()));
        cx.try_candidates(&mut || candidates.next()).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn squeezing_keeps_every_other_byte_and_never_grows(input in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'\n'), Just(b'\t'), Just(b'a'), Just(b'b')], 0..60), lines in any::<bool>()) {
            let out = squeeze(&input, lines);
            prop_assert!(out.len() <= input.len());
            let words = |v: &[u8]| v.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()).map(|w| w.to_vec()).collect::<Vec<_>>();
            prop_assert_eq!(words(&out), words(&input));
            prop_assert_eq!(squeeze(&out, lines), out.clone());
        }
    }
}
