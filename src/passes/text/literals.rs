//! Literals: shorten string literals from inside, a few characters' worth at a time.
//!
//! Main type: [`ShortenLiterals`], a [`crate::passes::Pass`]. A test that needs a string to exist
//! rarely needs all of it. For every double-quoted literal with two or more characters inside,
//! the candidates keep its first character, its first half, and its second half, in one sweep
//! (`patch.rs`), the one that removes the most first (emptying it is [`crate::passes::Hollow`]'s).
//! Escapes are kept whole: a cut never splits `\n` or `\"`.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, ShortenLiterals}};
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"puts(\"E"));
//! let mut driver = Cx::new(b"puts(\"Error: file not found\");".to_vec(), &oracle, EvalOptions::default());
//! ShortenLiterals.run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"puts(\"E\");");
//! ```
//!
//! Cost: at most 3 tests per literal per run; the fixpoint shortens further.

use crate::cx::Cx;
use crate::lex::{Class, lex};
use crate::passes::patch::{Patch, SweepPass};

/// Shortens string literals; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct ShortenLiterals;

/// The character boundaries inside a literal's quotes, escapes kept whole.
fn boundaries(inside: &[u8], offset: usize) -> Vec<usize> {
    let mut out = vec![offset];
    let mut i = 0;
    while i < inside.len() {
        i += if inside[i] == b'\\' { 2 } else { 1 };
        // Continuation bytes of a UTF-8 character belong to it.
        while i < inside.len() && inside[i] & 0xc0 == 0x80 {
            i += 1;
        }
        out.push(offset + i.min(inside.len()));
    }
    out
}

fn candidates(input: &[u8]) -> Vec<Patch> {
    let mut out = Vec::new();
    for l in lex(input) {
        if l.class != Class::Literal || input[l.start] != b'"' {
            continue;
        }
        let b = boundaries(&input[l.start + 1..l.end - 1], l.start + 1);
        let chars = b.len() - 1;
        if chars < 2 {
            continue;
        }
        let (first, half, last) = (b[1], b[chars / 2], b[chars]);
        out.push(Patch::delete(first, last));
        out.push(Patch::delete(half, last));
        out.push(Patch::delete(b[0], half));
    }
    out.retain(|p| p.removed() > 0);
    out.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    out.dedup();
    out
}

impl SweepPass for ShortenLiterals {
    const NAME: &'static str = "literals";

    fn patches(driver: &Cx) -> Vec<Patch> {
        candidates(driver.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn cuts_stay_inside_quotes_and_keep_escapes_whole(
            inside in proptest::collection::vec(prop_oneof![Just("a"), Just("\\n"), Just("\\\""), Just("é"), Just(" ")], 0..12),
        ) {
            let input = format!("x(\"{}\");", inside.concat()).into_bytes();
            for p in candidates(&input) {
                let c = &p.cuts()[0];
                prop_assert!(c.start > 2 && c.end < input.len() - 2);
                let mut out = input.clone();
                out.drain(c.start..c.end);
                // Still one whole literal, still UTF-8.
                let lexemes = lex(&out);
                prop_assert!(lexemes.iter().any(|l| l.class == Class::Literal), "{:?}", String::from_utf8_lossy(&out));
                prop_assert!(std::str::from_utf8(&out).is_ok());
            }
        }
    }
}
