//! Integers: make each decimal or hex literal as small as the test allows.
//!
//! Main type: [`Integers`], a [`crate::passes::Pass`]. First, for each value written more than once,
//! every copy at once becomes `0`, then `1` (one test each: constants and array sizes often
//! must agree). Then each literal alone: `0`, then `1`, then a binary search for the smallest
//! value that still passes, between the largest value known to fail and the smallest known
//! to pass. A literal is written back in decimal, so `0x40` may become `17`. Larger values
//! first, since they save the most. Shrink Ray's `reduce_integer_literals` and C-Reduce's
//! `ints` do the same for one literal at a time.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Integers, Pass}};
//! // Interesting while the buffer is longer than the copy.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     let s = String::from_utf8_lossy(b);
//!     let n: Vec<u64> = s.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
//!     n.len() == 2 && n[0] > n[1]
//! });
//! let mut cx = Cx::new(b"buf[4096]; copy(1000);".to_vec(), &oracle, EvalOptions::default());
//! Integers.run(&mut cx).unwrap();
//! // The larger first: 4096 goes down to 1001, above the copy; then the copy goes to 0.
//! assert_eq!(cx.best(), b"buf[1001]; copy(0);");
//! Integers.run(&mut cx).unwrap(); // as the schedule's next round would
//! assert_eq!(cx.best(), b"buf[1]; copy(0);");
//! ```
//!
//! Cost: up to 2 tests per repeated value, and 2 plus about log2(value) per literal.
//! Limits: only plain decimal digits and `0x` hex; signs, suffixes (`10u`) and floats are
//! left alone.

use crate::cx::Cx;
use crate::lex::{Class, lex};
use crate::report::Stop;
use crate::schedule::Pass;

/// Makes integer literals smaller; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct Integers;

/// The value of a number lexeme, if it is a plain decimal or hex integer.
fn value(text: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(text).ok()?;
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() => u64::from_str_radix(hex, 16).ok(),
        _ if s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        _ => None,
    }
}

/// The integer literals of `input`: (start, end, value), in order.
fn literals(input: &[u8]) -> Vec<(usize, usize, u64)> {
    lex(input)
        .into_iter()
        .filter(|l| l.class == Class::Number)
        .filter_map(|l| value(&input[l.start..l.end]).map(|v| (l.start, l.end, v)))
        .collect()
}

/// `input` with the literals at `which` (indices into `literals(input)`) written as `to`.
fn rewrite(input: &[u8], which: &[usize], to: u64) -> Vec<u8> {
    let lits = literals(input);
    let mut out = Vec::with_capacity(input.len());
    let mut at = 0;
    for &k in which {
        let (s, e, _) = lits[k];
        out.extend_from_slice(&input[at..s]);
        out.extend_from_slice(to.to_string().as_bytes());
        at = e;
    }
    out.extend_from_slice(&input[at..]);
    out
}

/// Tests one candidate; whether it was accepted.
fn try_one(cx: &mut Cx, candidate: Vec<u8>) -> Result<bool, Stop> {
    let mut once = Some((candidate, ()));
    Ok(cx.try_candidates(&mut || once.take())?.is_some())
}

impl Pass for Integers {
    fn name(&self) -> String {
        "integers".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        // Every copy of a repeated value at once, largest values first.
        let lits = literals(cx.best());
        let mut values: Vec<u64> = lits.iter().map(|l| l.2).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        for v in values {
            let copies: Vec<usize> = literals(cx.best())
                .iter()
                .enumerate()
                .filter(|(_, l)| l.2 == v)
                .map(|(k, _)| k)
                .collect();
            if copies.len() < 2 || v <= 1 {
                continue;
            }
            for to in [0, 1] {
                if try_one(cx, rewrite(cx.best(), &copies, to))? {
                    break;
                }
            }
        }
        // Each literal alone, the largest first. Literals keep their order, so an index
        // names the same literal before and after another one is rewritten.
        let mut order: Vec<usize> = (0..literals(cx.best()).len()).collect();
        let lits = literals(cx.best());
        order.sort_by_key(|&k| std::cmp::Reverse(lits[k].2));
        for k in order {
            let v = literals(cx.best())[k].2;
            if v == 0 {
                continue;
            }
            // `fails` is the largest value known to fail, `passes` the smallest known to pass.
            let (mut fails, mut passes) = (None::<u64>, v);
            for to in [0, 1] {
                if to >= passes {
                    break;
                }
                if try_one(cx, rewrite(cx.best(), &[k], to))? {
                    passes = to;
                    break;
                }
                fails = Some(to);
            }
            while let Some(f) = fails {
                if passes - f <= 1 {
                    break;
                }
                let mid = f + (passes - f) / 2;
                if try_one(cx, rewrite(cx.best(), &[k], mid))? {
                    passes = mid;
                } else {
                    fails = Some(mid);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_decimal_and_hex_only() {
        let lits: Vec<u64> = literals(b"a = 0x1F + 10 + 2.5 + 7u + 08;")
            .iter()
            .map(|l| l.2)
            .collect();
        assert_eq!(lits, [31, 10, 8]);
        assert_eq!(rewrite(b"x 10 y 0x20", &[1], 5), b"x 10 y 5");
    }
}
