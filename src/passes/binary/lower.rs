//! Byte lowering: make the bytes of a binary input as small as the test allows.
//!
//! Main type: [`LowerBytes`], a [`crate::passes::Pass`]. Lowering never shortens an input, but it
//! makes it simpler to read (zeros where the value does not matter) and shortlex-smaller, so
//! it is accepted like any reduction. Candidates, in one sweep (`patch.rs`): every byte `0` at
//! once; then, for each byte value that occurs more than once, all its copies `0` at once, the
//! most frequent first; then, on inputs of at least [`LowerBytes::MIN_SINGLE`] bytes, each
//! byte alone. Shrink Ray's `lower_bytes` and afl-tmin's alphabet stage work the same way.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, LowerBytes, Pass}};
//! // Only the magic at the start matters.
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"\x7fELF"));
//! let input = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x09";
//! let mut cx = Cx::new(input.to_vec(), &oracle, EvalOptions::default());
//! LowerBytes.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"\x7fELF\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00");
//! ```
//!
//! Cost: 1 test, plus 1 per repeated byte value, plus 1 per byte on inputs of at least 16
//! bytes (a tiny input's few bytes are usually all meaningful).

use crate::cx::Cx;
use crate::passes::patch::{Cut, Patch, SweepPass};

/// Lowers bytes toward zero; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct LowerBytes;

impl LowerBytes {
    /// Inputs shorter than this get no single-byte candidates.
    pub const MIN_SINGLE: usize = 16;
}

fn zero(at: usize) -> Cut {
    Cut {
        start: at,
        end: at + 1,
        with: vec![0],
        adjust: None,
    }
}

fn candidates(input: &[u8]) -> Vec<Patch> {
    let nonzero: Vec<usize> = (0..input.len()).filter(|&i| input[i] != 0).collect();
    if nonzero.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Patch> = Patch::of(nonzero.iter().map(|&i| zero(i)).collect())
        .into_iter()
        .collect();
    let mut counts = [0usize; 256];
    for &b in input {
        counts[b as usize] += 1;
    }
    let mut values: Vec<u8> = (1..=255u8).filter(|&v| counts[v as usize] >= 2).collect();
    values.sort_by_key(|&v| (std::cmp::Reverse(counts[v as usize]), v));
    for v in values {
        let at = (0..input.len())
            .filter(|&i| input[i] == v)
            .map(zero)
            .collect();
        out.extend(Patch::of(at));
    }
    if input.len() >= LowerBytes::MIN_SINGLE {
        out.extend(
            nonzero
                .iter()
                .map(|&i| Patch::of(vec![zero(i)]).expect("one cut")),
        );
    }
    out
}

impl SweepPass for LowerBytes {
    const NAME: &'static str = "lower/bytes";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(cx.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn candidates_keep_the_length_and_only_lower(input in proptest::collection::vec(any::<u8>(), 0..40)) {
            for p in candidates(&input) {
                prop_assert_eq!(p.removed(), 0);
                for c in p.cuts() {
                    prop_assert!(input[c.start] > 0 && c.with == [0]);
                }
            }
        }
    }
}
