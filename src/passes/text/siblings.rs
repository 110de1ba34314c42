//! Sibling runs: delete 2 to 8 consecutive elements of one sequence at once.
//!
//! Main type: [`SiblingRuns`], a [`crate::passes::Pass`]. A sequence is the elements directly inside
//! one bracket group, or at the top level (see the [`crate::tree::Nesting`]): words, numbers, literals,
//! punctuation and whole groups. Many deletions need several of them to go together: a
//! definition `name ( ) { }` is three, a `"key": value,` pair four, an argument with its comma
//! two. Binary splitting only tries power-of-two chunks at aligned offsets; this pass tries
//! every run of 2 to [`SiblingRuns::MAX_RUN`] elements at every offset, the longest first, in
//! one sweep (`patch.rs`): at most one test per run, identical results tested once.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, SiblingRuns}};
//! // Interesting while `b(){}` survives and every definition is whole.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     let s = String::from_utf8_lossy(b);
//!     s.contains("b(){}") && s.matches("(){}").count() == s.matches("(").count()
//! });
//! let mut cx = Cx::new(b"a(){}b(){}c(){}".to_vec(), &oracle, EvalOptions::default());
//! SiblingRuns::default().run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"b(){}");
//! ```
//!
//! Cost: about 7 candidates per element, so the pass skips inputs of more than
//! [`SiblingRuns::MAX_ELEMENTS`] elements (the deletion passes shrink them first).

use crate::cx::Cx;
use crate::passes::patch::{Patch, SweepPass};
use crate::tree::Nesting;

/// Deletes runs of sibling elements; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct SiblingRuns;

impl SiblingRuns {
    /// The longest run tried.
    pub const MAX_RUN: usize = 8;
    /// Inputs with more elements than this are left to other passes.
    pub const MAX_ELEMENTS: usize = 3000;
}

/// The end of a deletion that ends with the element at `last`: the whitespace after it goes
/// too, unless it holds a newline (lines stay lines). Constructs ends its deletions the same
/// way, so the bytes match those of the sweeps' deletion of the same elements.
pub(crate) fn run_end(input: &[u8], elements: &[(usize, usize)], last: usize) -> usize {
    let end = elements[last].1;
    match elements.get(last + 1) {
        Some(&(next, _)) if !input[end..next].contains(&b'\n') => next,
        _ => end,
    }
}

/// The candidates on `input`: every run of 2..=MAX_RUN elements, longest first.
fn candidates(s: &Nesting) -> Vec<Patch> {
    let input = s.input();
    let total: usize = s.sequences().iter().map(Vec::len).sum();
    if total > SiblingRuns::MAX_ELEMENTS {
        return Vec::new();
    }
    let mut out = Vec::new();
    for width in (2..=SiblingRuns::MAX_RUN).rev() {
        for elements in s.sequences() {
            for first in 0..elements.len().saturating_sub(width - 1) {
                let last = first + width - 1;
                out.push(Patch::delete(
                    elements[first].0,
                    run_end(input, elements, last),
                ));
            }
        }
    }
    out
}

impl SweepPass for SiblingRuns {
    const NAME: &'static str = "siblings";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(&cx.nesting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_definition_and_a_pair_are_runs() {
        let input = br#"{"a": 1, "b": 2}"#;
        let runs: Vec<String> = candidates(&Nesting::new(input))
            .iter()
            .map(|p| {
                String::from_utf8_lossy(&input[p.cuts()[0].start..p.cuts()[0].end]).into_owned()
            })
            .collect();
        assert!(runs.contains(&r#", "b": 2"#.to_string()), "{runs:?}");
        assert!(runs.contains(&r#""a": 1, "#.to_string()), "{runs:?}");
    }

    /// Cases proptest once found: nothing at all, and brackets that never close.
    #[test]
    fn empty_and_unclosed_inputs_give_only_shrinking_candidates() {
        for input in [&b""[..], b"{(", b"{ ( a, b"] {
            assert!(
                candidates(&Nesting::new(input))
                    .iter()
                    .all(|p| p.removed() > 0),
                "{input:?}"
            );
        }
    }

    /// Text whose brackets all pair.
    fn balanced() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![Just("a"), Just(" "), Just(","), Just("\n"), Just("f")]
            .prop_map(String::from);
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(|v| v.concat()),
                inner.clone().prop_map(|s| format!("{{{s}}}")),
                inner.prop_map(|s| format!("({s})")),
            ]
        })
    }

    proptest! {
        #[test]
        fn candidates_shrink_and_keep_brackets_balanced(input in balanced()) {
            let input = input.into_bytes();
            let count = |b: &[u8], c: u8| b.iter().filter(|&&x| x == c).count();
            for patch in candidates(&Nesting::new(&input)) {
                prop_assert!(patch.removed() > 0);
                let c = &patch.cuts()[0];
                let gone = &input[c.start..c.end];
                // A run of whole elements takes whole groups: as many openers as closers.
                prop_assert_eq!(count(gone, b'{'), count(gone, b'}'));
                prop_assert_eq!(count(gone, b'('), count(gone, b')'));
            }
        }
    }
}
