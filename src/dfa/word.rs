//! The current input as a word over interned unit contents, and the interval facts the pass rests on.
//!
//! Main type: [`Word`]. Symbol ids are assigned in first-occurrence order, so equal units get
//! equal ids whatever their granularity. Positions run `0..=len()`: position `i` is the state
//! before unit `i`, and deleting the interval `[i, j)` removes units `i..j`.
//!
//! The shift fact: when `symbol(i) == symbol(j)`, deleting `[i, j)` and `[i + 1, j + 1)` give
//! the same string. So every interval has one *canonical* representative, shifted right as far
//! as it goes (`j == len()` or `symbol(i) != symbol(j)`), and knowing that one fails is knowing
//! that its whole shift class fails.

use crate::units::Units;
use std::collections::HashMap;

/// An input cut into units, with each unit replaced by a symbol id.
#[derive(Clone, Debug)]
pub(crate) struct Word {
    symbols: Vec<u32>,
    /// The bytes of each symbol.
    spelling: Vec<Vec<u8>>,
    /// How often each symbol occurs.
    occurrences: Vec<u32>,
}

impl Word {
    pub(crate) fn new(units: &Units) -> Word {
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut spelling = Vec::new();
        let mut occurrences = Vec::new();
        let mut symbols = Vec::with_capacity(units.len());
        for i in 0..units.len() as u32 {
            let bytes = units.unit(i);
            let id = *ids.entry(bytes).or_insert_with(|| {
                spelling.push(bytes.to_vec());
                occurrences.push(0);
                spelling.len() as u32 - 1
            });
            occurrences[id as usize] += 1;
            symbols.push(id);
        }
        Word {
            symbols,
            spelling,
            occurrences,
        }
    }

    /// A word from symbol ids directly; symbol `a` is spelled as the single byte `a`.
    #[cfg(test)]
    pub(crate) fn from_symbols(symbols: &[u8]) -> Word {
        Word::new(&Units::cut(symbols, crate::text::Granularity::Bytes))
    }

    /// Number of units; positions run `0..=len()`.
    pub(crate) fn len(&self) -> usize {
        self.symbols.len()
    }

    pub(crate) fn symbols(&self) -> &[u32] {
        &self.symbols
    }

    pub(crate) fn symbol(&self, i: usize) -> u32 {
        self.symbols[i]
    }

    pub(crate) fn alphabet_len(&self) -> usize {
        self.spelling.len()
    }

    pub(crate) fn spelling(&self, symbol: u32) -> &[u8] {
        &self.spelling[symbol as usize]
    }

    /// The bytes of a symbol sequence.
    pub(crate) fn spell(&self, symbols: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for &s in symbols {
            out.extend_from_slice(self.spelling(s));
        }
        out
    }

    /// The symbols left after deleting `[i, j)`.
    pub(crate) fn delete(&self, i: usize, j: usize) -> Vec<u32> {
        let mut out = self.symbols[..i].to_vec();
        out.extend_from_slice(&self.symbols[j..]);
        out
    }

    /// Whether `[i, j)` is the rightmost interval of its shift class.
    pub(crate) fn is_canonical(&self, i: usize, j: usize) -> bool {
        j == self.len() || self.symbols[i] != self.symbols[j]
    }

    /// The canonical interval that deletes to the same string as `[i, j)`.
    pub(crate) fn canonical(&self, mut i: usize, mut j: usize) -> (usize, usize) {
        while !self.is_canonical(i, j) {
            i += 1;
            j += 1;
        }
        (i, j)
    }

    /// Number of canonical intervals `0 <= i < j <= len()`: all pairs minus those that shift,
    /// and a pair `i < j < len()` shifts exactly when its two symbols are equal.
    pub(crate) fn canonical_count(&self) -> u64 {
        let n = self.len() as u64;
        let equal_pairs: u64 = self
            .occurrences
            .iter()
            .map(|&c| c as u64 * (c as u64).saturating_sub(1) / 2)
            .sum();
        n * (n + 1) / 2 - equal_pairs
    }

    /// If `candidate` is this word with one interval deleted, that interval (canonical).
    pub(crate) fn as_interval(&self, candidate: &[u32]) -> Option<(usize, usize)> {
        let (n, m) = (self.len(), candidate.len());
        if m >= n {
            return None;
        }
        let prefix = self
            .symbols
            .iter()
            .zip(candidate)
            .take_while(|(a, b)| a == b)
            .count();
        let suffix = self
            .symbols
            .iter()
            .rev()
            .zip(candidate.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        (prefix + suffix >= m).then(|| {
            let i = prefix.min(m);
            self.canonical(i, i + (n - m))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn interning_gives_equal_units_equal_symbols() {
        let units = Units::cut(b"ab ab cd", crate::text::Granularity::Tokens);
        let word = Word::new(&units);
        assert_eq!(word.symbols(), &[0, 1, 0, 1, 2]);
        assert_eq!(word.spelling(0), b"ab");
        // Deleting units 1..3 (" ab") leaves "ab" + " cd".
        assert_eq!(word.spell(&word.delete(1, 3)), b"ab cd");
    }

    proptest! {
        /// The shift fact: equal symbols at `i` and `j` make `[i, j)` and `[i+1, j+1)` the same deletion.
        #[test]
        fn shifting_across_equal_symbols_deletes_the_same_string(
            s in proptest::collection::vec(0u8..3, 2..40), a in 0usize..40, b in 0usize..40,
        ) {
            let w = Word::from_symbols(&s);
            let (i, j) = (a.min(b) % w.len(), (a.max(b) % w.len()).max(a.min(b) % w.len() + 1));
            prop_assume!(i < j && j < w.len());
            if w.symbol(i) == w.symbol(j) {
                prop_assert_eq!(w.delete(i, j), w.delete(i + 1, j + 1));
            }
            let (ci, cj) = w.canonical(i, j);
            prop_assert!(w.is_canonical(ci, cj));
            prop_assert_eq!(w.delete(i, j), w.delete(ci, cj));
        }

        #[test]
        fn canonical_count_matches_enumeration(s in proptest::collection::vec(0u8..4, 0..30)) {
            let w = Word::from_symbols(&s);
            let n = w.len();
            let brute = (0..=n).flat_map(|j| (0..j).map(move |i| (i, j)))
                .filter(|&(i, j)| w.is_canonical(i, j)).count() as u64;
            prop_assert_eq!(w.canonical_count(), brute);
            // Distinct canonical intervals delete to distinct strings.
            let mut seen = std::collections::HashSet::new();
            for j in 0..=n {
                for i in 0..j {
                    if w.is_canonical(i, j) {
                        prop_assert!(seen.insert(w.delete(i, j)));
                    }
                }
            }
        }

        #[test]
        fn as_interval_recognises_exactly_single_deletions(
            s in proptest::collection::vec(0u8..3, 1..30), a in 0usize..30, b in 0usize..30,
        ) {
            let w = Word::from_symbols(&s);
            let (i, j) = (a.min(b) % w.len(), a.max(b) % w.len() + 1);
            prop_assume!(i < j);
            let cand = w.delete(i, j);
            let found = w.as_interval(&cand).expect("a deletion is an interval");
            prop_assert_eq!(w.delete(found.0, found.1), cand);
            prop_assert!(w.is_canonical(found.0, found.1));
        }
    }
}
