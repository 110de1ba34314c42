//! Hollowing: empty a bracket group or a string literal in one test, largest first.
//!
//! Main type: [`Hollow`], a [`crate::passes::Pass`]. Its candidates are, for every group with
//! something inside, the group emptied (`{...}` becomes `{}`, `<a x="1">...</a>` becomes
//! `<a x="1"></a>`, or, closing itself, `<a x="1"/>`), and for every double-quoted literal,
//! the literal emptied (`"..."` becomes `""`). The first candidate empties every
//! outermost one at once; then each alone, the one that removes the most first. They are
//! tested in one sweep (`patch.rs`): a success is kept and the sweep goes on, so a pass costs
//! at most one test per group and literal, plus one. Shrink Ray's `hollow` and C-Reduce's
//! `balanced *-inside` are the same move.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Hollow, Pass}};
//! // Interesting while the braces and the call survive.
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"f(") && b.ends_with(b"{}"));
//! let mut cx = Cx::new(b"f(a, b) { x = 1; y = 2; }".to_vec(), &oracle, EvalOptions::default());
//! Hollow.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"f() {}");
//! ```
//!
//! Limits: only the groups of the [`crate::tree::Nesting`] and `"..."` literals; a group's delimiters are
//! never removed here (that is the hoist pass's job).

use crate::cx::Cx;
use crate::lex::Class;
use crate::passes::patch::{Patch, SweepPass};
use crate::tree::{Delim, Nesting};

/// Empties groups and string literals; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct Hollow;

/// The candidates on `input`: all at once first, then one by one, largest first.
fn candidates(nesting: &Nesting) -> Vec<Patch> {
    let input = nesting.input();
    let mut spans: Vec<(usize, usize)> = nesting
        .groups()
        .iter()
        .map(|g| g.inside())
        .filter(|&(s, e)| input[s..e].iter().any(|b| !b.is_ascii_whitespace()))
        .collect();
    spans.extend(
        nesting
            .lexemes()
            .iter()
            .filter(|l| l.class == Class::Literal && input[l.start] == b'"' && l.end - l.start > 2)
            .map(|l| (l.start + 1, l.end - 1)),
    );
    // A markup element with nothing left inside can close itself: `<a x="1"></a>` becomes
    // `<a x="1"/>`, its content, if any, going with the end tag.
    let self_closing: Vec<Patch> = nesting
        .groups()
        .iter()
        .filter(|g| g.delim == Delim::Tag && input[g.open.1 - 1] == b'>')
        .map(|g| Patch::replace(g.open.1 - 1, g.end(), b"/>".to_vec()))
        .collect();
    spans.sort_by_key(|&(s, e)| (std::cmp::Reverse(e - s), s));
    let mut out = Vec::with_capacity(spans.len() + self_closing.len() + 1);
    let mut outermost: Vec<(usize, usize)> = Vec::new();
    let mut by_start = spans.clone();
    by_start.sort();
    for (s, e) in by_start {
        if outermost.last().is_none_or(|&(_, end)| s >= end) {
            outermost.push((s, e));
        }
    }
    if outermost.len() > 1
        && let Some(all) = Patch::of(
            outermost
                .iter()
                .map(|&(s, e)| crate::passes::patch::Cut::delete(s, e))
                .collect(),
        )
    {
        out.push(all);
    }
    let mut singles: Vec<Patch> = spans
        .into_iter()
        .map(|(s, e)| Patch::delete(s, e))
        .collect();
    singles.extend(self_closing);
    singles.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    out.extend(singles);
    out
}

impl SweepPass for Hollow {
    const NAME: &'static str = "hollow";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(&cx.nesting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex::{lex, pair_brackets};
    use proptest::prelude::*;

    fn balanced(b: &[u8]) -> bool {
        let lexemes = lex(b);
        let partner = pair_brackets(&lexemes);
        lexemes.iter().zip(&partner).all(|(l, p)| {
            !matches!(
                l.class,
                Class::Punct(b'(' | b')' | b'[' | b']' | b'{' | b'}')
            ) || p.is_some()
        })
    }

    #[test]
    fn all_at_once_then_largest_first() {
        let c = candidates(&Nesting::new(br#"a { bb } [c] "dd""#));
        let cut: Vec<(usize, usize)> = c
            .iter()
            .map(|p| (p.cuts()[0].start, p.cuts().last().unwrap().end))
            .collect();
        assert_eq!(c[0].cuts().len(), 3);
        assert_eq!(cut[1..], [(3, 7), (14, 16), (10, 11)]);
    }

    /// Cases proptest once found: nothing to hollow, and brackets that never close.
    #[test]
    fn empty_and_unclosed_inputs_give_only_shrinking_candidates() {
        for input in [&b""[..], b"{(", b"{ ( a"] {
            assert!(
                candidates(&Nesting::new(input))
                    .iter()
                    .all(|p| p.removed() > 0),
                "{input:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn candidates_shrink_and_keep_brackets_balanced(
            parts in proptest::collection::vec(prop_oneof![
                Just("{"), Just("}"), Just("("), Just(")"), Just("["), Just("]"),
                Just("a"), Just(" "), Just("\"s\""), Just(","),
            ], 0..40),
        ) {
            let input = parts.concat().into_bytes();
            for patch in candidates(&Nesting::new(&input)) {
                prop_assert!(patch.removed() > 0);
                let out = patch.apply(&input).unwrap();
                prop_assert!(out.len() < input.len());
                if balanced(&input) {
                    prop_assert!(balanced(&out), "{:?}", String::from_utf8_lossy(&out));
                }
            }
        }
    }
}
