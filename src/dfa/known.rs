//! What the pass knows about which positions are distinct states: learned pairs and the stop check.
//!
//! Main type: [`Known`]. A learned pair `(i, j)` says that deleting `[i, j)` from the current
//! word is not interesting, so positions `i` and `j` cannot share a state of any automaton
//! whose accepted strings are all interesting. Learning a pair learns its whole shift class
//! for free (see [`super::word`]); the pass is interval-minimal exactly when every canonical
//! interval is known, an O(1) check against a count kept as pairs arrive.
//!
//! Limits: the pairs live in a triangular bitset of `n (n + 1) / 2` bits for `n` units (6 MB
//! at 10,000 units), which is why the pass has a unit cap.

use super::word::Word;

/// Learned distinct pairs of positions `0 <= i < j <= n`, with a greedy clique of them.
#[derive(Clone, Debug)]
pub(crate) struct Known {
    n: usize,
    bits: Vec<u64>,
    canonical_known: u64,
    canonical_total: u64,
    /// Every known pair, shift-class members included, in the order they were learned.
    pairs: Vec<(u32, u32)>,
    /// The canonical pairs learned, in order.
    canonical: Vec<(u32, u32)>,
    /// Pairwise-distinct positions: a lower bound on the colours any consistent colouring needs.
    clique: Vec<u32>,
    /// The widest-first scan over canonical intervals: (width, start) of the next one to look at.
    cursor: (usize, usize),
}

fn index(i: usize, j: usize) -> usize {
    debug_assert!(i < j);
    j * (j - 1) / 2 + i
}

impl Known {
    pub(crate) fn new(word: &Word) -> Known {
        let n = word.len();
        let bits = n * (n + 1) / 2;
        Known {
            n,
            bits: vec![0; bits.div_ceil(64)],
            canonical_known: 0,
            canonical_total: word.canonical_count(),
            pairs: Vec::new(),
            canonical: Vec::new(),
            clique: Vec::new(),
            cursor: (n, 0),
        }
    }

    pub(crate) fn contains(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let k = index(a.min(b), a.max(b));
        self.bits[k / 64] >> (k % 64) & 1 == 1
    }

    fn insert(&mut self, i: usize, j: usize) -> bool {
        let k = index(i, j);
        let fresh = self.bits[k / 64] >> (k % 64) & 1 == 0;
        self.bits[k / 64] |= 1 << (k % 64);
        fresh
    }

    /// Learns that deleting `[i, j)` fails; returns the newly known pairs (its shift class).
    pub(crate) fn learn(&mut self, word: &Word, i: usize, j: usize) -> Vec<(u32, u32)> {
        debug_assert!(i < j && j <= self.n);
        let (mut ci, mut cj) = word.canonical(i, j);
        if self.contains(ci, cj) {
            return Vec::new();
        }
        self.canonical_known += 1;
        self.canonical.push((ci as u32, cj as u32));
        let mut fresh = Vec::new();
        loop {
            if self.insert(ci, cj) {
                fresh.push((ci as u32, cj as u32));
                self.grow_clique(ci as u32, cj as u32);
            }
            if ci == 0 || word.symbol(ci - 1) != word.symbol(cj - 1) {
                break;
            }
            ci -= 1;
            cj -= 1;
        }
        self.pairs.extend_from_slice(&fresh);
        fresh
    }

    fn grow_clique(&mut self, a: u32, b: u32) {
        if self.clique.is_empty() {
            self.clique = vec![a, b];
            return;
        }
        for (inside, outside) in [(a, b), (b, a)] {
            if self.clique.contains(&inside)
                && !self.clique.contains(&outside)
                && self
                    .clique
                    .iter()
                    .all(|&c| self.contains(c as usize, outside as usize))
            {
                self.clique.push(outside);
            }
        }
    }

    /// Pairwise-known positions: any colouring that separates the known pairs needs at
    /// least this many colours on them.
    pub(crate) fn clique(&self) -> &[u32] {
        &self.clique
    }

    /// Every known pair, in learning order.
    pub(crate) fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Canonical pairs learned so far.
    #[cfg(test)]
    pub(crate) fn canonical_learned(&self) -> &[(u32, u32)] {
        &self.canonical
    }

    pub(crate) fn canonical_known(&self) -> u64 {
        self.canonical_known
    }

    /// Every canonical interval deletion is known to fail: no contiguous run can be deleted.
    pub(crate) fn is_interval_minimal(&self) -> bool {
        self.canonical_known == self.canonical_total
    }

    /// Up to `limit` canonical intervals not yet known, widest first, then leftmost first.
    /// The scan resumes where the last one stopped, so the whole walk costs O(n^2) per word.
    pub(crate) fn untested(&mut self, word: &Word, limit: usize) -> Vec<(usize, usize)> {
        let fresh = |k: &Known, (d, i): (usize, usize)| {
            word.is_canonical(i, i + d) && !k.contains(i, i + d)
        };
        let step = |(d, i): (usize, usize), n: usize| {
            if i + d < n { (d, i + 1) } else { (d - 1, 0) }
        };
        while self.cursor.0 > 0 && !fresh(self, self.cursor) {
            self.cursor = step(self.cursor, self.n);
        }
        let mut out = Vec::new();
        let mut at = self.cursor;
        while at.0 > 0 && out.len() < limit {
            if fresh(self, at) {
                out.push((at.1, at.1 + at.0));
            }
            at = step(at, self.n);
        }
        out
    }

    /// The learned pairs that still hold after the interval `[a, b)` was deleted: every failing
    /// deletion that contains `[a, b)` is the same string as a deletion from the new word.
    pub(crate) fn carried_over(&self, word: &Word, a: usize, b: usize) -> Vec<(usize, usize)> {
        let removed = b - a;
        let mut out = Vec::new();
        for &(ci, cj) in &self.canonical {
            let (mut i, mut j) = (ci as usize, cj as usize);
            // Walk the shift class leftwards until a member contains [a, b), if any does.
            loop {
                if i <= a && b <= j {
                    if (i, j) != (a, b) {
                        out.push((i, j - removed));
                    }
                    break;
                }
                if i == 0 || j <= b || word.symbol(i - 1) != word.symbol(j - 1) {
                    break;
                }
                i -= 1;
                j -= 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn learning_a_pair_learns_its_shift_class() {
        // In "aaab", deleting [0, 2) and [1, 3) both leave "ab"; (1, 3) is the canonical one.
        let w = Word::from_symbols(b"aaab");
        let mut k = Known::new(&w);
        let fresh = k.learn(&w, 0, 2);
        assert_eq!(fresh, vec![(1, 3), (0, 2)]);
        assert!(k.contains(0, 2) && k.contains(1, 3));
        assert_eq!(k.canonical_known(), 1);
        assert!(
            k.learn(&w, 1, 3).is_empty(),
            "the same class twice teaches nothing"
        );
    }

    #[test]
    fn untested_walks_canonical_intervals_widest_first() {
        let w = Word::from_symbols(b"abc");
        let mut k = Known::new(&w);
        assert_eq!(k.untested(&w, 3), vec![(0, 3), (0, 2), (1, 3)]);
        k.learn(&w, 0, 3);
        k.learn(&w, 0, 2);
        assert_eq!(k.untested(&w, 2), vec![(1, 3), (0, 1)]);
    }

    proptest! {
        /// Learning every untested canonical interval ends interval-minimal, and the count of
        /// canonical pairs learned is exactly the number of distinct deletions.
        #[test]
        fn walking_every_untested_interval_reaches_the_stop(s in proptest::collection::vec(0u8..3, 1..25)) {
            let w = Word::from_symbols(&s);
            let mut k = Known::new(&w);
            let mut rounds = 0;
            while !k.is_interval_minimal() {
                let batch = k.untested(&w, 5);
                prop_assert!(!batch.is_empty());
                for (i, j) in batch {
                    k.learn(&w, i, j);
                }
                rounds += 1;
                prop_assert!(rounds < 1000);
            }
            prop_assert!(k.untested(&w, 1).is_empty());
            for j in 0..=w.len() {
                for i in 0..j {
                    prop_assert!(k.contains(i, j), "every pair is known at the stop");
                }
            }
        }

        /// The backward closure of issue 4: every pair learned for free deletes to the same
        /// string as a canonical pair that was actually learned, so it is known to fail.
        #[test]
        fn free_pairs_delete_to_learned_strings(s in proptest::collection::vec(0u8..2, 2..24),
                                                learn in proptest::collection::vec((0usize..25, 0usize..25), 1..20)) {
            let w = Word::from_symbols(&s);
            let n = w.len();
            let mut k = Known::new(&w);
            for (a, b) in learn {
                let (i, j) = (a.min(b) % (n + 1), a.max(b) % (n + 1));
                if i < j {
                    k.learn(&w, i, j);
                }
            }
            let learned: std::collections::HashSet<Vec<u32>> = k
                .canonical_learned()
                .iter()
                .map(|&(i, j)| w.delete(i as usize, j as usize))
                .collect();
            for &(i, j) in k.pairs() {
                prop_assert!(learned.contains(&w.delete(i as usize, j as usize)));
            }
            prop_assert_eq!(k.canonical_known() as usize, learned.len());
        }

        #[test]
        fn the_clique_is_pairwise_known(s in proptest::collection::vec(0u8..3, 2..20),
                                        learn in proptest::collection::vec((0usize..20, 0usize..20), 0..40)) {
            let w = Word::from_symbols(&s);
            let mut k = Known::new(&w);
            for (a, b) in learn {
                let (i, j) = (a.min(b) % (w.len() + 1), a.max(b) % (w.len() + 1));
                if i < j {
                    k.learn(&w, i, j);
                }
            }
            let c = k.clique();
            for x in 0..c.len() {
                for y in x + 1..c.len() {
                    prop_assert!(k.contains(c[x] as usize, c[y] as usize));
                }
            }
        }

        /// A failing deletion containing the accepted one fails on the smaller word too.
        #[test]
        fn carried_over_pairs_delete_to_the_same_strings(
            s in proptest::collection::vec(0u8..3, 3..20), a in 0usize..20, b in 0usize..20,
            learn in proptest::collection::vec((0usize..21, 0usize..21), 1..30),
        ) {
            let w = Word::from_symbols(&s);
            let n = w.len();
            let (a, b) = (a.min(b) % n, (a.max(b) % n).max(a.min(b) % n + 1));
            let mut k = Known::new(&w);
            for (x, y) in learn {
                let (i, j) = (x.min(y) % (n + 1), x.max(y) % (n + 1));
                if i < j && (i, j) != w.canonical(a, b) {
                    k.learn(&w, i, j);
                }
            }
            let smaller = Word::from_symbols(&w.spell(&w.delete(a, b)));
            let known_strings: std::collections::HashSet<Vec<u8>> = k
                .canonical_learned()
                .iter()
                .map(|&(i, j)| w.spell(&w.delete(i as usize, j as usize)))
                .collect();
            for (i, j) in k.carried_over(&w, a, b) {
                prop_assert!(i < j && j <= smaller.len());
                prop_assert!(known_strings.contains(&smaller.spell(&smaller.delete(i, j))));
            }
        }
    }
}
