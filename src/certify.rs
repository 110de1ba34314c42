//! Minimality certificates: is no single unit, or no contiguous run of units, deletable?
//!
//! Main types: [`Minimality`] (1-minimal or interval-minimal), [`Certificate`] and
//! [`certify`]. Every deletion is tried through the one evaluation path, narrowest first (a
//! result that is not minimal usually has a short deletable run, found after about n tests),
//! until one keeps the input interesting. Deletions that leave the same bytes are tested once: each
//! candidate is keyed by a pair of polynomial hashes of its bytes, computed in O(1) from prefix
//! and suffix hashes, so duplicates cost neither a test nor a rendering.
//!
//! ```
//! use myhill::check::{certify, Certificate, Minimality};
//! use myhill::{FnOracle, eval::{EvalOptions, Evaluator}, text::{Granularity, Units}};
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"ab"));
//! let mut eval = Evaluator::new(&oracle, EvalOptions::default());
//! let units = Units::cut(b"abb", Granularity::Bytes);
//! match certify(&mut eval, &units, Minimality::OneMinimal).unwrap() {
//!     Certificate::NotMinimal { deleted, .. } => assert_eq!(deleted, (1, 2)),
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! Limits: interval-minimality needs up to n(n+1)/2 tests for n units; the caller decides
//! when that is affordable.

use crate::eval::Evaluator;
use crate::report::Stop;
use crate::units::Units;
use std::collections::HashSet;

/// Which property to certify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimality {
    /// No single unit can be deleted.
    OneMinimal,
    /// No contiguous run of units can be deleted.
    IntervalMinimal,
}

/// The outcome of a certification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// Every deletion was tried and none stayed interesting.
    Minimal {
        /// Tests run.
        tests: u64,
        /// Distinct deletions tried.
        distinct: u64,
        /// Deletions not tested because they gave bytes already tried.
        saved: u64,
    },
    /// Deleting units `deleted.0 .. deleted.1` keeps the input interesting.
    NotMinimal {
        /// The deleted units, `start..end`.
        deleted: (usize, usize),
        /// The input without them.
        smaller: Vec<u8>,
        /// Tests run.
        tests: u64,
        /// Distinct deletions tried.
        distinct: u64,
        /// Deletions not tested because they gave bytes already tried.
        saved: u64,
    },
}

impl Certificate {
    /// The same certificate with a deletion's `smaller` input passed through `f` (for a check
    /// made in a wider input, handed back in the caller's terms).
    pub fn map_smaller(self, f: impl FnOnce(Vec<u8>) -> Vec<u8>) -> Certificate {
        match self {
            Certificate::NotMinimal {
                deleted,
                smaller,
                tests,
                distinct,
                saved,
            } => Certificate::NotMinimal {
                deleted,
                smaller: f(smaller),
                tests,
                distinct,
                saved,
            },
            minimal => minimal,
        }
    }
}

const MOD: u64 = (1 << 61) - 1;

fn mul(a: u64, b: u64) -> u64 {
    let p = a as u128 * b as u128;
    let folded = (p & MOD as u128) + (p >> 61);
    let r = folded as u64;
    if r >= MOD { r - MOD } else { r }
}

fn add(a: u64, b: u64) -> u64 {
    let s = a + b;
    if s >= MOD { s - MOD } else { s }
}

/// Prefix hashes and powers of one base over the bytes.
struct Rolling {
    prefix: Vec<u64>,
    power: Vec<u64>,
}

impl Rolling {
    fn new(bytes: &[u8], base: u64) -> Rolling {
        let mut prefix = vec![0u64; bytes.len() + 1];
        let mut power = vec![1u64; bytes.len() + 1];
        for (i, &b) in bytes.iter().enumerate() {
            prefix[i + 1] = add(mul(prefix[i], base), b as u64 + 1);
            power[i + 1] = mul(power[i], base);
        }
        Rolling { prefix, power }
    }

    /// Hash of `bytes[a..b]`.
    fn range(&self, a: usize, b: usize) -> u64 {
        add(self.prefix[b], MOD - mul(self.prefix[a], self.power[b - a]))
    }

    /// Hash of `bytes[..a] ++ bytes[b..]`.
    fn without(&self, a: usize, b: usize) -> u64 {
        let n = self.prefix.len() - 1;
        add(mul(self.prefix[a], self.power[n - b]), self.range(b, n))
    }
}

/// Tries every deletion of `property`'s kind on `units` (the whole input) and reports the
/// first, narrowest, that keeps it interesting.
pub fn certify(
    eval: &mut Evaluator,
    units: &Units,
    property: Minimality,
) -> Result<Certificate, Stop> {
    certify_in(eval, units, property, None)
}

/// Puts a part of the input back into the whole.
pub(crate) type Lift<'a> = dyn Fn(&[u8]) -> Vec<u8> + 'a;

/// [`certify`] of a part of the input: each deletion of `units` is tested as `lift` of it
/// (one file's content put back into its tree), and `smaller` is the lifted input.
pub(crate) fn certify_in(
    eval: &mut Evaluator,
    units: &Units,
    property: Minimality,
    lift: Option<&Lift>,
) -> Result<Certificate, Stop> {
    let n = units.len();
    let data = units.data();
    let hashes = [
        Rolling::new(data, 0x1000_0000_01b3),
        Rolling::new(data, 0x9e37_79b9_7f4a_7c15 % MOD),
    ];
    let before = eval.stats();
    let mut seen: HashSet<(usize, u64, u64)> = HashSet::new();
    let (mut distinct, mut saved) = (0u64, 0u64);
    // Narrowest first; for one width, left to right.
    let widths: Vec<usize> = match property {
        Minimality::OneMinimal => vec![1],
        Minimality::IntervalMinimal => (1..=n).collect(),
    };
    let mut width_at = 0usize;
    let mut start = 0usize;
    let mut next = || {
        loop {
            let &w = widths.get(width_at)?;
            if start + w > n {
                width_at += 1;
                start = 0;
                continue;
            }
            let (i, j) = (start, start + w);
            start += 1;
            let (a, b) = (units.offset(i as u32), units.offset(j as u32));
            let key = (
                data.len() - (b - a),
                hashes[0].without(a, b),
                hashes[1].without(a, b),
            );
            if !seen.insert(key) {
                saved += 1;
                continue;
            }
            distinct += 1;
            let mut bytes = Vec::with_capacity(key.0);
            bytes.extend_from_slice(&data[..a]);
            bytes.extend_from_slice(&data[b..]);
            let bytes = match lift {
                Some(f) => f(&bytes),
                None => bytes,
            };
            return Some((bytes, (i, j)));
        }
    };
    let found = eval.first_interesting(&mut next)?;
    let tests = eval.stats().tests_run - before.tests_run;
    Ok(match found {
        None => Certificate::Minimal {
            tests,
            distinct,
            saved,
        },
        Some((smaller, deleted)) => Certificate::NotMinimal {
            deleted,
            smaller,
            tests,
            distinct,
            saved,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FnOracle, eval::EvalOptions, text::Granularity};
    use proptest::prelude::*;

    fn brute(input: &[u8], property: Minimality, f: &dyn Fn(&[u8]) -> bool) -> bool {
        let n = input.len();
        for i in 0..n {
            for j in i + 1..=n {
                if property == Minimality::OneMinimal && j != i + 1 {
                    continue;
                }
                let mut c = input[..i].to_vec();
                c.extend_from_slice(&input[j..]);
                if f(&c) {
                    return false;
                }
            }
        }
        true
    }

    proptest! {
        #[test]
        fn agrees_with_brute_force(
            input in proptest::collection::vec(0u8..3, 0..14),
            needle in proptest::collection::vec(0u8..3, 1..3),
            interval in any::<bool>(),
        ) {
            let f = |c: &[u8]| {
                let mut it = c.iter();
                needle.iter().all(|x| it.any(|y| y == x))
            };
            let property = if interval { Minimality::IntervalMinimal } else { Minimality::OneMinimal };
            let oracle = FnOracle::new(f);
            let mut eval = Evaluator::new(&oracle, EvalOptions::bare());
            let units = Units::cut(&input, Granularity::Bytes);
            let cert = certify(&mut eval, &units, property).unwrap();
            let minimal = brute(&input, property, &f);
            match cert {
                Certificate::Minimal { tests, distinct, .. } => {
                    prop_assert!(minimal);
                    prop_assert_eq!(tests, distinct);
                }
                Certificate::NotMinimal { smaller, .. } => {
                    prop_assert!(!minimal);
                    prop_assert!(f(&smaller));
                }
            }
        }
    }

    #[test]
    fn identical_deletions_are_tested_once() {
        let oracle = FnOracle::new(|_: &[u8]| false);
        let mut eval = Evaluator::new(&oracle, EvalOptions::bare());
        let units = Units::cut(b"aaab", Granularity::Bytes);
        let cert = certify(&mut eval, &units, Minimality::OneMinimal).unwrap();
        // Deleting any of the three a's gives "aab": one test for them, one for the b.
        assert_eq!(
            cert,
            Certificate::Minimal {
                tests: 2,
                distinct: 2,
                saved: 2
            }
        );
    }
}
