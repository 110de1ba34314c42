//! Expressions: replace `a OP b` by `a` or by `b`, and a name or a call by `0`.
//!
//! Main type: [`Expressions`], a [`crate::Pass`]. In each sequence of elements of the bracket
//! structure (the [`crate::Nesting`]), a run of operator characters (`+ - * / % & | ^ < > = ! ~`)
//! between two operands is a binary expression; an operand is what lies between operators and
//! separators (`,` `;`), a call `f(x)` included. Candidates: the expression replaced by its
//! left operand, by its right operand; every name, and every call, replaced by `0`. They are
//! tested in one sweep (`patch.rs`), the one that removes the most first. This is C-Reduce's
//! `peep` rewrites and Shrink Ray's expression and constant passes, without a grammar: a
//! division `a / b` whose divisor cannot go can still become `0 / 0`.
//!
//! ```
//! use myhill::{Driver, EvalOptions, Expressions, FnOracle, Pass};
//! // Interesting while it still divides by zero.
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"/0"));
//! let mut driver = Driver::new(b"x = total(a, b) * scale/0".to_vec(), &oracle, EvalOptions::default());
//! Expressions.run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"0/0");
//! ```
//!
//! Cost: 2 tests per binary operator and 1 per name or call; inputs of more than
//! [`Expressions::MAX_ELEMENTS`] elements are left to other passes.

use super::patch::{Patch, SweepPass};
use crate::driver::Driver;
use crate::lex::Class;
use crate::tree::Nesting;

/// Rewrites expressions; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct Expressions;

impl Expressions {
    /// Inputs with more elements than this are left to other passes.
    pub const MAX_ELEMENTS: usize = 1000;
}

fn is_operator(text: &[u8]) -> bool {
    text.len() == 1 && b"+-*/%&|^<>=!~".contains(&text[0])
}

fn is_separator(text: &[u8]) -> bool {
    text == b"," || text == b";"
}

fn candidates(s: &Nesting) -> Vec<Patch> {
    let input = s.input();
    let total: usize = s.sequences().iter().map(Vec::len).sum();
    if total > Expressions::MAX_ELEMENTS {
        return Vec::new();
    }
    let words: std::collections::HashSet<usize> = s
        .lexemes()
        .iter()
        .filter(|l| l.class == Class::Word)
        .map(|l| l.start)
        .collect();
    let mut out = Vec::new();
    for seq in s.sequences() {
        let text = |k: usize| &input[seq[k].0..seq[k].1];
        // Runs of elements: operands, operators (maximal), separators.
        let mut runs: Vec<(usize, usize, bool)> = Vec::new(); // (first, last, is_operator)
        let mut k = 0;
        while k < seq.len() {
            if is_separator(text(k)) {
                k += 1;
                continue;
            }
            let op = is_operator(text(k));
            let first = k;
            while k + 1 < seq.len()
                && !is_separator(text(k + 1))
                && is_operator(text(k + 1)) == op
                && (op || seq[k].1 == seq[k + 1].0 || !is_operator(text(k + 1)))
            {
                k += 1;
            }
            runs.push((first, k, op));
            k += 1;
        }
        for w in runs.windows(3) {
            let [(a0, a1, false), (_, _, true), (b0, b1, false)] = *w else {
                continue;
            };
            // Adjacent in the sequence: no separator between them.
            let (a_start, a_end) = (seq[a0].0, seq[a1].1);
            let (b_start, b_end) = (seq[b0].0, seq[b1].1);
            if !input[a_end..b_start]
                .iter()
                .all(|&c| c.is_ascii_whitespace() || is_operator(&[c]))
            {
                continue;
            }
            out.push(Patch::delete(a_end, b_end));
            out.push(Patch::delete(a_start, b_start));
        }
        // Names and calls to `0`.
        for (k, &(start, end)) in seq.iter().enumerate() {
            if !words.contains(&start) {
                continue;
            }
            let call_end = seq
                .get(k + 1)
                .filter(|&&(next, _)| input[end..next].iter().all(|c| *c == b' '))
                .filter(|&&(next, _)| matches!(input[next], b'(' | b'['))
                .map(|&(_, e)| e);
            out.push(Patch::replace(
                start,
                call_end.unwrap_or(end),
                b"0".to_vec(),
            ));
        }
    }
    // A one-letter name becoming `0` removes nothing but is still smaller ('0' < 'a').
    out.retain(|p| p.removed() >= 0);
    out.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    out.dedup();
    out
}

impl SweepPass for Expressions {
    const NAME: &'static str = "expressions";

    fn patches(driver: &Driver) -> Vec<Patch> {
        candidates(&driver.nesting())
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
    fn operands_replace_expressions_and_names_become_zero() {
        let r = results(b"f(a + g(b), c)");
        for want in [
            "f(a, c)",
            "f(g(b), c)",
            "f(a + 0, c)",
            "0",
            "f(0 + g(b), c)",
        ] {
            assert!(r.contains(&want.to_string()), "{want} in {r:?}");
        }
        let r = results(b"x == y");
        assert!(
            r.contains(&"x".to_string()) && r.contains(&"y".to_string()),
            "{r:?}"
        );
    }

    proptest! {
        #[test]
        fn candidates_shrink(parts in proptest::collection::vec(prop_oneof![
            Just("a"), Just(" "), Just("+"), Just("f("), Just(")"), Just(","), Just("=="), Just("1"),
        ], 0..20)) {
            let input = parts.concat().into_bytes();
            for p in candidates(&Nesting::new(&input)) {
                prop_assert!(p.removed() >= 0);
            }
        }
    }
}
