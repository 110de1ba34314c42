//! Expressions: replace `a OP b` by `a` or by `b`, and a name, a call or a chain by `0`.
//!
//! Main type: [`Expressions`], a [`crate::passes::Pass`]. In each sequence of elements of the bracket
//! structure (the [`crate::tree::Nesting`]), a run of operator characters (`+ - * / % & | ^ < > = ! ~`)
//! between two operands is a binary expression; an operand is what lies between operators and
//! separators (`,` `;`), a call `f(x)` included. Candidates: the expression replaced by its
//! left operand, by its right operand; every name, and every call, replaced by `0`; every
//! postfix chain (a name followed by attribute accesses `.b`, `->b`, `::b`, calls and indexes:
//! `item.per_pack`, `a.b(c)[i].d`, `p->next`) replaced by `0` whole, one candidate per
//! maximal chain, since no part of it can become `0` alone (`0.per_pack` and `item.0` do not
//! parse). They are
//! tested in one sweep (`patch.rs`), the one that removes the most first. This is C-Reduce's
//! `peep` rewrites and Shrink Ray's expression and constant passes, without a grammar: a
//! division `a / b` whose divisor cannot go can still become `0 / 0`.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Expressions, Pass}};
//! // Interesting while it still divides by zero.
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"/0"));
//! let mut cx = Cx::new(b"x = total(a, b) * scale/0".to_vec(), &oracle, EvalOptions::default());
//! Expressions.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"0/0");
//! ```
//!
//! Cost: 2 tests per binary operator and 1 per name, call or chain; inputs of more than
//! [`Expressions::MAX_ELEMENTS`] elements are left to other passes.

use crate::cx::Cx;
use crate::lex::Class;
use crate::passes::patch::{Patch, SweepPass};
use crate::tree::Nesting;
use std::collections::HashSet;

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
    let words: HashSet<usize> = s
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
        out.extend(chains(input, seq, &words));
    }
    // A one-letter name becoming `0` removes nothing but is still smaller ('0' < 'a').
    out.retain(|p| p.removed() >= 0);
    out.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    out.dedup();
    out
}

/// How many elements from `k` on make an accessor (`.`, `->`, `::`, the two bytes adjacent),
/// if one starts there.
fn accessor_at(input: &[u8], seq: &[(usize, usize)], k: usize) -> Option<usize> {
    let text = |k: usize| seq.get(k).map(|&(s, e)| &input[s..e]);
    let pair = |a: &[u8], b: &[u8]| {
        text(k) == Some(a) && text(k + 1) == Some(b) && seq[k].1 == seq[k + 1].0
    };
    if text(k) == Some(b".") {
        Some(1)
    } else if pair(b"-", b">") || pair(b":", b":") {
        Some(2)
    } else {
        None
    }
}

/// Each postfix chain of `seq` replaced by `0`: a name followed by a run of attribute
/// accesses (`.name`, `->name`, `::name`), calls `(..)` and indexes `[..]`, at least one
/// access or two links (a lone name or call is already a candidate). One candidate per
/// maximal chain (`a.b(c).d`, not `a.b`): its arguments are sequences of their own, whose
/// chains are candidates there, so the outermost chain is the largest and comes first.
fn chains(input: &[u8], seq: &[(usize, usize)], words: &HashSet<usize>) -> Vec<Patch> {
    let is_word = |k: usize| seq.get(k).is_some_and(|&(s, _)| words.contains(&s));
    let is_bracket = |k: usize| {
        seq.get(k).is_some_and(|&(s, e)| {
            e - s >= 2 && matches!((input[s], input[e - 1]), (b'(', b')') | (b'[', b']'))
        })
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < seq.len() {
        // A chain starts at a name that does not follow an accessor (`x.y` in `(a).x.y`).
        let follows_accessor = (k >= 1 && accessor_at(input, seq, k - 1) == Some(1))
            || (k >= 2 && accessor_at(input, seq, k - 2) == Some(2));
        if !is_word(k) || follows_accessor {
            k += 1;
            continue;
        }
        let (mut last, mut links, mut accesses) = (k, 0, 0);
        loop {
            if let Some(len) = accessor_at(input, seq, last + 1) {
                if is_word(last + 1 + len) {
                    last += 1 + len;
                    links += 1;
                    accesses += 1;
                    continue;
                }
                break;
            }
            // A call or index: only spaces before its bracket (a newline may start a statement).
            if is_bracket(last + 1)
                && input[seq[last].1..seq[last + 1].0]
                    .iter()
                    .all(|&c| c == b' ')
            {
                last += 1;
                links += 1;
                continue;
            }
            break;
        }
        if accesses > 0 || links >= 2 {
            out.push(Patch::replace(seq[k].0, seq[last].1, b"0".to_vec()));
        }
        k = last + 1;
    }
    out
}

impl SweepPass for Expressions {
    const NAME: &'static str = "expressions";

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

    #[test]
    fn a_postfix_chain_becomes_zero_whole() {
        // The divisor is reachable only through an attribute: `0/0` needs the chain to go.
        let r = results(b"def f(item):0/item.per_pack");
        assert!(r.contains(&"def f(item):0/0".to_string()), "{r:?}");
        // Calls, indexes and accesses in one chain: one candidate for the whole chain, none
        // for its prefixes (`0(c).d` would not parse either).
        let r = results(b"x = a.b(c)[i].d + 1");
        assert!(r.contains(&"x = 0 + 1".to_string()), "{r:?}");
        assert!(!r.iter().any(|c| c.contains("0(c)")), "{r:?}");
        // Two calls or indexes make a chain too; the arguments' own chains are candidates.
        let r = results(b"g(x)[0] / h(y.z)");
        assert!(r.contains(&"0 / h(y.z)".to_string()), "{r:?}");
        assert!(r.contains(&"g(x)[0] / h(0)".to_string()), "{r:?}");
        // C's `->` and C++'s or Rust's `::`.
        let r = results(b"v = p->next->val; w = std::mem::take(&mut q);");
        assert!(
            r.contains(&"v = 0; w = std::mem::take(&mut q);".to_string()),
            "{r:?}"
        );
        assert!(r.contains(&"v = p->next->val; w = 0;".to_string()), "{r:?}");
    }

    #[test]
    fn a_chain_starts_at_its_head_only() {
        // `.join(x)` after a literal is not a chain of its own: `"s".0` would not parse.
        let chain_candidates = |input: &[u8]| {
            let s = Nesting::new(input);
            let words = s
                .lexemes()
                .iter()
                .filter(|l| l.class == Class::Word)
                .map(|l| l.start)
                .collect();
            chains(input, &s.sequences()[0], &words).len()
        };
        assert_eq!(chain_candidates(b"\"s\".join(x).strip()"), 0);
        assert_eq!(chain_candidates(b"a.b.c"), 1);
        // A lone name or call is left to the name candidates.
        assert_eq!(chain_candidates(b"f(x) + y"), 0);
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
