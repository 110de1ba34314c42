//! Hoisting: replace a group by one of its descendants, or by what is inside it.
//!
//! Main type: [`Hoist`], a [`crate::passes::Pass`]. For every bracket group it proposes:
//! - the group replaced by each nearest group inside it with the same delimiters, at any
//!   depth (`{"a":{"b":X}}` becomes `{"b":X}`, `<a><b>x</b></a>` becomes `<b>x</b>`), and by
//!   each group directly inside it of another kind (`{"k":[1]}` becomes `[1]`);
//! - the group's term (the group with the word before it) replaced by the term of each of
//!   those (`f(g(x))` becomes `g(x)`);
//! - the group replaced by its contents, with or without the word before it (`f(g(x))`
//!   becomes `fg(x)` or `g(x)`; `[X]` becomes `X`).
//!
//! This is Perses' node replacement, picireny's hoisting and Shrink Ray's `lift_braces` and
//! `debracket`, on the groups the lexer pairs instead of a grammar's nodes. Candidates are
//! tested in one sweep (`patch.rs`), the one that removes the most first, so the smallest
//! replacement of a group that works is the one kept; a pass costs at most one test per
//! candidate: a few per group.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Hoist, Pass}};
//! // Interesting while the needle object survives.
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(15).any(|w| w == br#"{"needle":[42]}"#));
//! let input = br#"{"a":[{"b":{"needle":[42]}},{}]}"#;
//! let mut cx = Cx::new(input.to_vec(), &oracle, EvalOptions::default());
//! Hoist.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), br#"{"needle":[42]}"#);
//! ```
//!
//! Limits: the groups of the [`crate::tree::Nesting`] (brackets and markup elements, not indentation); a
//! group's nearest alike descendants are the first of its kind on each path down, so a deeper
//! one needs one more success.

use crate::cx::Cx;
use crate::passes::patch::{Cut, Patch, SweepPass, largest_first};
use crate::tree::Nesting;

/// Replaces groups by descendants or contents; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct Hoist;

fn keep(from: usize, to: usize, inner: (usize, usize)) -> Option<Patch> {
    Patch::of(vec![Cut::delete(from, inner.0), Cut::delete(inner.1, to)])
}

/// The candidates on `input`, the one that removes the most first.
fn candidates(s: &Nesting) -> Vec<Patch> {
    let input = s.input();
    let groups = s.groups();
    let mut out: Vec<Patch> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let inside = group.inside();
        if input[inside.0..inside.1]
            .iter()
            .all(|b| b.is_ascii_whitespace())
        {
            continue;
        }
        let mut replacements = s.nearest_alike(g);
        replacements.extend(
            (g + 1..groups.len())
                .take_while(|&d| groups[d].start() < group.end())
                .filter(|&d| groups[d].parent == Some(g) && groups[d].delim != group.delim),
        );
        for d in replacements {
            let by = groups[d];
            out.extend(keep(group.start(), group.end(), (by.start(), by.end())));
            if group.term_start < group.start() && by.term_start < by.start() {
                out.extend(keep(
                    group.term_start,
                    group.end(),
                    (by.term_start, by.end()),
                ));
            }
        }
        out.extend(keep(group.start(), group.end(), inside));
        if group.term_start < group.start() {
            out.extend(keep(group.term_start, group.end(), inside));
        }
    }
    largest_first(out)
}

impl SweepPass for Hoist {
    const NAME: &'static str = "hoist";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(&cx.nesting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn results(input: &[u8]) -> Vec<String> {
        candidates(&Nesting::new(input))
            .iter()
            .map(|p| String::from_utf8(p.apply(input).unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn calls_hoist_to_inner_calls_and_arguments() {
        let r = results(b"f(g(x))");
        for want in ["g(x)", "f(x)", "fg(x)"] {
            assert!(r.contains(&want.to_string()), "{want} in {r:?}");
        }
    }

    #[test]
    fn objects_hoist_to_nested_objects_and_arrays() {
        let r = results(br#"{"a":{"b":[1]}}"#);
        for want in [r#"{"b":[1]}"#, r#"{"a":[1]}"#, r#"{"a":{"b":1}}"#] {
            assert!(r.contains(&want.to_string()), "{want} in {r:?}");
        }
    }

    proptest! {
        #[test]
        fn candidates_shrink_and_keep_brackets_balanced(
            parts in proptest::collection::vec(prop_oneof![
                Just("{"), Just("}"), Just("("), Just(")"), Just("["), Just("]"),
                Just("a"), Just(" "), Just("f"), Just(","),
            ], 0..30),
        ) {
            let input = parts.concat().into_bytes();
            let lexemes = crate::lex::lex(&input);
            let paired = crate::lex::pair_brackets(&lexemes);
            let balanced_in = paired.iter().zip(&lexemes).all(|(p, l)| {
                !matches!(l.class, crate::lex::Class::Punct(b'(' | b')' | b'[' | b']' | b'{' | b'}')) || p.is_some()
            });
            for out in results(&input) {
                prop_assert!(out.len() < input.len());
                if balanced_in {
                    let lexemes = crate::lex::lex(out.as_bytes());
                    let paired = crate::lex::pair_brackets(&lexemes);
                    prop_assert!(paired.iter().zip(&lexemes).all(|(p, l)| {
                        !matches!(l.class, crate::lex::Class::Punct(b'(' | b')' | b'[' | b']' | b'{' | b'}')) || p.is_some()
                    }), "{}", out);
                }
            }
        }
    }
}
