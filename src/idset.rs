//! Sets of unit ids, stored as sorted disjoint runs, used for configurations and deltas.
//!
//! Main type: [`IdSet`]. A configuration (the units kept) and a delta (the units to remove)
//! are both `IdSet`s. Runs make the common shapes cheap: a whole input is one run, a DDMin
//! chunk is one or two runs, and rendering a configuration copies one byte range per run.
//!
//! ```
//! use myhill::text::IdSet;
//! let all = IdSet::range(0, 10);
//! let delta = IdSet::from_sorted(&[2, 3, 7]);
//! let kept = all.difference(&delta);
//! assert_eq!(kept.to_vec(), vec![0, 1, 4, 5, 6, 8, 9]);
//! assert_eq!(kept.runs().len(), 3);
//! ```
//!
//! Limits: ids are `u32`; every operation is linear in the number of runs, so a set that is
//! scattered id by id costs as much as a plain sorted vector.

use std::fmt;

/// A set of `u32` ids as sorted, disjoint, non-adjacent half-open runs.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct IdSet {
    runs: Vec<(u32, u32)>,
    len: usize,
}

impl IdSet {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every id in `start..end`.
    pub fn range(start: u32, end: u32) -> Self {
        let mut set = Self::new();
        set.push_run(start, end);
        set
    }

    /// Builds a set from ids in strictly increasing order.
    pub fn from_sorted(ids: &[u32]) -> Self {
        let mut set = Self::new();
        for &id in ids {
            set.push_run(id, id + 1);
        }
        set
    }

    /// Builds a set from ids in any order, duplicates allowed.
    pub fn from_unsorted(mut ids: Vec<u32>) -> Self {
        ids.sort_unstable();
        ids.dedup();
        Self::from_sorted(&ids)
    }

    /// Appends the run `start..end`, which must not start before the last run ends.
    pub fn push_run(&mut self, start: u32, end: u32) {
        if start >= end {
            return;
        }
        if let Some(last) = self.runs.last_mut() {
            debug_assert!(start >= last.1, "runs must be pushed in order");
            if start == last.1 {
                last.1 = end;
                self.len += (end - start) as usize;
                return;
            }
        }
        self.runs.push((start, end));
        self.len += (end - start) as usize;
    }

    /// Appends one id, which must be greater than every id already in the set.
    pub fn push(&mut self, id: u32) {
        self.push_run(id, id + 1);
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set has no id.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The runs, sorted, as half-open `(start, end)` pairs.
    pub fn runs(&self) -> &[(u32, u32)] {
        &self.runs
    }

    /// Whether `id` is in the set (binary search over runs).
    pub fn contains(&self, id: u32) -> bool {
        let i = self.runs.partition_point(|&(_, end)| end <= id);
        self.runs.get(i).is_some_and(|&(start, _)| start <= id)
    }

    /// The ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.runs.iter().flat_map(|&(s, e)| s..e)
    }

    /// The ids in order.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The smallest id.
    pub fn first(&self) -> Option<u32> {
        self.runs.first().map(|r| r.0)
    }

    /// `self - other`, linear in the runs of both.
    pub fn difference(&self, other: &IdSet) -> IdSet {
        let mut out = IdSet::new();
        let mut j = 0;
        for &(start, end) in &self.runs {
            let mut s = start;
            while j < other.runs.len() && other.runs[j].1 <= s {
                j += 1;
            }
            while s < end {
                match other.runs.get(j) {
                    Some(&(os, oe)) if os < end => {
                        if os > s {
                            out.push_run(s, os);
                        }
                        s = s.max(oe);
                        if oe > end {
                            break; // this run of `other` may cover the next run too
                        }
                        j += 1;
                    }
                    _ => {
                        out.push_run(s, end);
                        break;
                    }
                }
            }
        }
        out
    }

    /// `self ∪ other`, linear in the runs of both.
    pub fn union(&self, other: &IdSet) -> IdSet {
        let mut all: Vec<(u32, u32)> = Vec::with_capacity(self.runs.len() + other.runs.len());
        let (mut i, mut j) = (0, 0);
        while i < self.runs.len() || j < other.runs.len() {
            let take_self = match (self.runs.get(i), other.runs.get(j)) {
                (Some(a), Some(b)) => a.0 <= b.0,
                (Some(_), None) => true,
                _ => false,
            };
            if take_self {
                all.push(self.runs[i]);
                i += 1;
            } else {
                all.push(other.runs[j]);
                j += 1;
            }
        }
        let mut out = IdSet::new();
        let mut cur: Option<(u32, u32)> = None;
        for (s, e) in all {
            cur = match cur {
                Some((cs, ce)) if s <= ce => Some((cs, ce.max(e))),
                Some((cs, ce)) => {
                    out.push_run(cs, ce);
                    Some((s, e))
                }
                None => Some((s, e)),
            };
        }
        if let Some((cs, ce)) = cur {
            out.push_run(cs, ce);
        }
        out
    }

    /// Whether every id of `self` is in `other`.
    pub fn is_subset(&self, other: &IdSet) -> bool {
        self.difference(other).is_empty()
    }

    /// A cheap fingerprint of the set's contents (linear in the runs).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.len as u64;
        for &(s, e) in &self.runs {
            h = (h ^ s as u64).wrapping_mul(0x0100_0000_01b3);
            h = (h ^ e as u64).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

impl fmt::Debug for IdSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, &(s, e)) in self.runs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if e == s + 1 {
                write!(f, "{s}")?;
            } else {
                write!(f, "{s}..{e}")?;
            }
        }
        f.write_str("}")
    }
}

impl FromIterator<u32> for IdSet {
    fn from_iter<T: IntoIterator<Item = u32>>(iter: T) -> Self {
        IdSet::from_unsorted(iter.into_iter().collect())
    }
}

/// Selects ids of a set by rank (position in increasing order) in logarithmic time.
///
/// Built once per set; `slice(a, b)` returns the ids whose ranks are in `a..b`.
pub struct RankIndex<'a> {
    set: &'a IdSet,
    /// `before[i]`: how many ids precede run `i`.
    before: Vec<usize>,
}

impl<'a> RankIndex<'a> {
    /// An index over `set` for selecting ids by rank.
    pub fn new(set: &'a IdSet) -> Self {
        let mut before = Vec::with_capacity(set.runs.len());
        let mut acc = 0;
        for &(s, e) in &set.runs {
            before.push(acc);
            acc += (e - s) as usize;
        }
        RankIndex { set, before }
    }

    /// The id of rank `r`.
    pub fn select(&self, r: usize) -> u32 {
        let i = self.before.partition_point(|&b| b <= r) - 1;
        self.set.runs[i].0 + (r - self.before[i]) as u32
    }

    /// The ids whose ranks lie in `a..b`.
    pub fn slice(&self, a: usize, b: usize) -> IdSet {
        let mut out = IdSet::new();
        if a >= b {
            return out;
        }
        let mut i = self.before.partition_point(|&x| x <= a) - 1;
        let mut rank = a;
        while rank < b && i < self.set.runs.len() {
            let (s, e) = self.set.runs[i];
            let from = s + (rank - self.before[i]) as u32;
            let avail = (e - from) as usize;
            let take = avail.min(b - rank);
            out.push_run(from, from + take as u32);
            rank += take;
            i += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn set_strategy() -> impl Strategy<Value = BTreeSet<u32>> {
        proptest::collection::btree_set(0u32..64, 0..40)
    }

    proptest! {
        #[test]
        fn difference_and_union_match_btreeset(a in set_strategy(), b in set_strategy()) {
            let sa: IdSet = a.iter().copied().collect();
            let sb: IdSet = b.iter().copied().collect();
            let diff: Vec<u32> = a.difference(&b).copied().collect();
            let uni: Vec<u32> = a.union(&b).copied().collect();
            prop_assert_eq!(sa.difference(&sb).to_vec(), diff);
            prop_assert_eq!(sa.union(&sb).to_vec(), uni);
            prop_assert_eq!(sa.len(), a.len());
            for x in 0..64 {
                prop_assert_eq!(sa.contains(x), a.contains(&x));
            }
        }

        #[test]
        fn rank_slices_match_vector_slices(a in set_strategy(), x in 0usize..50, y in 0usize..50) {
            let sa: IdSet = a.iter().copied().collect();
            let v: Vec<u32> = a.iter().copied().collect();
            let (lo, hi) = (x.min(y).min(v.len()), x.max(y).min(v.len()));
            let idx = RankIndex::new(&sa);
            prop_assert_eq!(idx.slice(lo, hi).to_vec(), v[lo..hi].to_vec());
            if lo < v.len() {
                prop_assert_eq!(idx.select(lo), v[lo]);
            }
        }
    }
}
