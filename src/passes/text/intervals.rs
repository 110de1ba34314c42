//! Short intervals: delete every run of 1 to 8 tokens at every position, the longest first.
//!
//! Main type: [`ShortIntervals`], a [`crate::passes::Pass`]. Late in a reduction, on a small input,
//! what is left often goes only two or three tokens at a time across group boundaries
//! (`,7` in `[42,7]`, `x +` in `x + y`) at offsets no chunking of the deletion passes lines
//! up with. This pass tries them all, in one sweep (`patch.rs`): widths from
//! [`ShortIntervals::MAX_RUN`] down to 1, each at every token, a deletion taking the
//! whitespace after it unless that holds a newline. On input whose brackets (`()`, `[]`,
//! `{}`) all pair, a run of two or more tokens is tried only if it leaves every bracket with
//! its partner: a run that takes half of a pair is almost never interesting there, and the
//! rule halves the candidates on C++ (5,598 to 2,269 on 1,192 bytes of squeezed C++); each
//! bracket alone is still tried. Deletions that leave the same bytes are
//! tested once (the evaluator's cache), the identical-string rule of `myhill check`. It is
//! C-Reduce's `rm-toks-N` and Shrink Ray's short deletions.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, ShortIntervals}};
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"[42") && b.ends_with(b"]"));
//! let mut cx = Cx::new(b"[42,7]".to_vec(), &oracle, EvalOptions::default());
//! ShortIntervals::default().run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"[42]");
//! ```
//!
//! Cost: up to 8 tests per token, so the pass skips inputs of more than
//! [`ShortIntervals::MAX_TOKENS`] tokens.

use crate::cx::Cx;
use crate::lex::{Class, lex, pair_brackets};
use crate::passes::patch::{Patch, SweepPass};

/// Deletes short runs of tokens; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct ShortIntervals;

impl ShortIntervals {
    /// The longest run tried.
    pub const MAX_RUN: usize = 8;
    /// Inputs with more tokens than this are left to other passes.
    pub const MAX_TOKENS: usize = 1000;
}

/// The candidates on `input`, longest runs first.
fn candidates(input: &[u8]) -> Vec<Patch> {
    let lexemes: Vec<_> = lex(input)
        .into_iter()
        .filter(|l| l.class != Class::Space)
        .collect();
    if lexemes.len() > ShortIntervals::MAX_TOKENS {
        return Vec::new();
    }
    let tokens: Vec<(usize, usize)> = lexemes.iter().map(|l| (l.start, l.end)).collect();
    let partner = pair_brackets(&lexemes);
    // On input whose brackets all pair, a run of two or more tokens that leaves a bracket
    // without its partner is not tried: the single tokens still are, each alone.
    let whole_runs_only = lexemes.iter().zip(&partner).all(|(l, p)| {
        p.is_some()
            || !matches!(
                l.class,
                Class::Punct(b'(' | b')' | b'[' | b']' | b'{' | b'}')
            )
    });
    let keeps_pairs = |run: std::ops::Range<usize>| {
        run.clone()
            .all(|i| partner[i].is_none_or(|p| run.contains(&p)))
    };
    let end_of = |last: usize| {
        let end = tokens[last].1;
        match tokens.get(last + 1) {
            Some(&(next, _)) if !input[end..next].contains(&b'\n') => next,
            _ => end,
        }
    };
    let mut out = Vec::new();
    for width in (1..=ShortIntervals::MAX_RUN).rev() {
        for (first, &(start, _)) in tokens.iter().enumerate() {
            if first + width <= tokens.len()
                && (width == 1 || !whole_runs_only || keeps_pairs(first..first + width))
            {
                out.push(Patch::delete(start, end_of(first + width - 1)));
            }
        }
    }
    out
}

impl SweepPass for ShortIntervals {
    const NAME: &'static str = "intervals/tokens";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(cx.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The deleted text of each candidate on `input`.
    fn deletions(input: &[u8]) -> Vec<String> {
        candidates(input)
            .iter()
            .map(|p| {
                let c = &p.cuts()[0];
                String::from_utf8_lossy(&input[c.start..c.end]).into_owned()
            })
            .collect()
    }

    #[test]
    fn on_paired_brackets_a_run_leaves_no_bracket_without_its_partner() {
        let runs = deletions(b"f(a,b);g();");
        assert!(runs.contains(&"(a,b)".to_string()), "{runs:?}");
        assert!(runs.contains(&"g();".to_string()), "{runs:?}");
        // A single bracket is still tried alone, never in a longer run.
        assert!(runs.contains(&"(".to_string()), "{runs:?}");
        assert!(
            !runs
                .iter()
                .any(|r| r.len() > 1 && r.contains('(') != r.contains(')'))
        );
        // Where the brackets do not pair, every run is tried: one may be what pairs them.
        assert!(deletions(b"f(a,b;g();").contains(&"(a".to_string()));
    }

    proptest! {
        #[test]
        fn candidates_are_whole_tokens_and_shrink(
            input in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b' '), Just(b','), Just(b'1'), Just(b'\n')], 0..40),
        ) {
            let starts: Vec<usize> = lex(&input).iter().map(|l| l.start).collect();
            let c = candidates(&input);
            let tokens = lex(&input).iter().filter(|l| l.class != Class::Space).count();
            prop_assert_eq!(c.len(), (1..=ShortIntervals::MAX_RUN).map(|w| tokens.saturating_sub(w - 1)).sum::<usize>());
            for patch in c {
                prop_assert!(patch.removed() > 0);
                prop_assert!(starts.contains(&patch.cuts()[0].start));
            }
        }
    }
}
