//! Colourings of positions: which states of a small automaton the prefixes of the word may share.
//!
//! Main type: [`Colouring`], colours `0..colours()` per position `0..=n`, numbered in
//! first-use order. It is *consistent* with a word when equal colours on equal symbols lead to
//! equal colours (`c(i) = c(j)` and `S[i] = S[j]` imply `c(i+1) = c(j+1)`), which is exactly
//! what makes the quotient automaton deterministic; it *separates* a learned pair when the
//! two positions differ in colour.
//!
//! The single-merge fact: the colouring that gives every position its own colour except that
//! `i` and `j` share one is consistent whenever `[i, j)` is canonical, because the only pair
//! it merges has unequal symbols or no successor. So a fallback colouring always exists while
//! some canonical interval is untested.

use super::word::Word;
use std::collections::HashMap;

/// A colour per position, in first-use order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Colouring {
    colour: Vec<u32>,
    colours: usize,
}

/// Why a colouring is not usable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Violation {
    /// `c(i) = c(j)` and `S[i] = S[j]` but `c(i+1) != c(j+1)`.
    Transition(usize, usize),
    /// A learned pair shares a colour.
    Merged(usize, usize),
}

impl Colouring {
    /// Renumbers any colour assignment in first-use order.
    pub(crate) fn from_colours(raw: &[u32]) -> Colouring {
        let mut renumber: HashMap<u32, u32> = HashMap::new();
        let colour: Vec<u32> = raw
            .iter()
            .map(|&c| {
                let next = renumber.len() as u32;
                *renumber.entry(c).or_insert(next)
            })
            .collect();
        Colouring {
            colour,
            colours: renumber.len(),
        }
    }

    /// Every position on its own except `i` and `j`, which share a colour.
    #[cfg(test)]
    pub(crate) fn single_merge(n: usize, i: usize, j: usize) -> Colouring {
        let raw: Vec<u32> = (0..=n as u32)
            .map(|p| if p as usize == j { i as u32 } else { p })
            .collect();
        Colouring::from_colours(&raw)
    }

    pub(crate) fn colour(&self, position: usize) -> u32 {
        self.colour[position]
    }

    pub(crate) fn colours(&self) -> usize {
        self.colours
    }

    /// Number of positions (`n + 1`).
    pub(crate) fn positions(&self) -> usize {
        self.colour.len()
    }

    /// The first transition conflict, if any: linear, through a map from (colour, symbol).
    pub(crate) fn transition_conflict(&self, word: &Word) -> Option<Violation> {
        debug_assert_eq!(self.positions(), word.len() + 1);
        let mut first: HashMap<(u32, u32), usize> = HashMap::new();
        for i in 0..word.len() {
            let key = (self.colour[i], word.symbol(i));
            match first.get(&key) {
                Some(&j) if self.colour[j + 1] != self.colour[i + 1] => {
                    return Some(Violation::Transition(j, i));
                }
                Some(_) => {}
                None => {
                    first.insert(key, i);
                }
            }
        }
        None
    }

    /// The first violated constraint among transitions and `pairs`, if any.
    pub(crate) fn violation(&self, word: &Word, pairs: &[(u32, u32)]) -> Option<Violation> {
        self.transition_conflict(word).or_else(|| {
            pairs
                .iter()
                .find(|&&(i, j)| self.colour[i as usize] == self.colour[j as usize])
                .map(|&(i, j)| Violation::Merged(i as usize, j as usize))
        })
    }

    /// For each colour shared by two or more positions, its smallest and largest position,
    /// widest first (ties: leftmost first). They need not be canonical: equal symbols after
    /// `i` and `j` only force `i + 1` and `j + 1` into some other shared class.
    pub(crate) fn class_intervals(&self) -> Vec<(usize, usize)> {
        let mut span: Vec<Option<(usize, usize)>> = vec![None; self.colours];
        for (p, &c) in self.colour.iter().enumerate() {
            let s = &mut span[c as usize];
            *s = Some(match *s {
                None => (p, p),
                Some((lo, _)) => (lo, p),
            });
        }
        let mut out: Vec<(usize, usize)> =
            span.into_iter().flatten().filter(|(i, j)| i < j).collect();
        out.sort_by_key(|&(i, j)| (std::cmp::Reverse(j - i), i));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn class_intervals_are_widest_first() {
        let c = Colouring::from_colours(&[5, 7, 5, 9, 7, 7]);
        assert_eq!(c.colours(), 3);
        assert_eq!(c.colour(0), 0);
        assert_eq!(c.class_intervals(), vec![(1, 5), (0, 2)]);
    }

    #[test]
    fn a_merge_of_equal_symbols_needs_equal_successors() {
        let w = Word::from_symbols(b"aab");
        // 0 and 1 share a colour and both read 'a', so 1 and 2 must share one too.
        let c = Colouring::from_colours(&[0, 0, 1, 2]);
        assert_eq!(c.transition_conflict(&w), Some(Violation::Transition(0, 1)));
        assert_eq!(
            Colouring::from_colours(&[0, 0, 0, 1]).transition_conflict(&w),
            None
        );
    }

    proptest! {
        /// The single-merge fact of issue 4: merging one canonical pair is always consistent,
        /// and it separates every learned pair except that one.
        #[test]
        fn merging_one_canonical_pair_is_consistent(
            s in proptest::collection::vec(0u8..3, 1..30),
            learned in proptest::collection::vec((0usize..31, 0usize..31), 0..30),
            a in 0usize..31, b in 0usize..31,
        ) {
            let w = Word::from_symbols(&s);
            let n = w.len();
            let (i, j) = (a.min(b) % (n + 1), a.max(b) % (n + 1));
            prop_assume!(i < j && w.is_canonical(i, j));
            let pairs: Vec<(u32, u32)> = learned.iter()
                .map(|&(x, y)| ((x.min(y) % (n + 1)) as u32, (x.max(y) % (n + 1)) as u32))
                .filter(|&(x, y)| x < y && (x as usize, y as usize) != (i, j))
                .collect();
            let c = Colouring::single_merge(n, i, j);
            prop_assert_eq!(c.colours(), n);
            prop_assert_eq!(c.violation(&w, &pairs), None);
            prop_assert_eq!(c.class_intervals(), vec![(i, j)]);
            let mut with_it = pairs.clone();
            with_it.push((i as u32, j as u32));
            prop_assert_eq!(c.violation(&w, &with_it), Some(Violation::Merged(i, j)));
        }
    }
}
