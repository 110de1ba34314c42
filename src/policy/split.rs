//! Adaptive binary splitting: remove groups sized to the estimated density of needed units.
//!
//! Main type: [`BinarySplit`]. Units not yet known to be needed are taken in source order. The
//! next group is the first `2^a` of them, with `a` from Hwang's generalized binary splitting for
//! the estimated number `d` of needed units left (`a = floor(log2((u - d + 1) / d))`). If the
//! group's removal succeeds it is gone for good; if it fails, the group holds a needed unit,
//! found by halving: remove the left half; on success the unit is in the right half, on
//! failure in the left. A range of one is needed, without a further test. `d` is estimated
//! from the density of needed units among the units decided so far, starting from "one in the
//! whole input", so the first group is about half the input.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::Cx;
//! use myhill::policy::{BinarySplit, Policy};
//! use myhill::text::{Granularity, Units};
//! use std::sync::atomic::{AtomicU64, Ordering};
//! // 200 lines "0".."199"; interesting iff lines 37, 118 and 161 survive.
//! let input: String = (0..200).map(|i| format!("{i}\n")).collect();
//! let calls = AtomicU64::new(0);
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     calls.fetch_add(1, Ordering::Relaxed);
//!     let text = String::from_utf8_lossy(b);
//!     ["37", "118", "161"].iter().all(|s| text.lines().any(|l| l == *s))
//! });
//! let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::bare());
//! let units = Units::cut(cx.best(), Granularity::Lines);
//! let mut split: Box<dyn Policy> = Box::new(BinarySplit::default());
//! cx.run_policy(&units, &mut split).unwrap();
//! assert_eq!(cx.best(), b"37\n118\n161\n");
//! assert!(calls.load(Ordering::Relaxed) <= 30);
//! ```
//!
//! Cost: about `d * (log2(n / d) + 1)` tests for `d` needed units among `n`, within a few tests
//! of the information bound `log2 C(n, d)`; `n + O(log n)` when every unit is needed.
//! Limits: the "a range of one is needed" inference assumes a monotone test; on other tests
//! the result may not be 1-minimal, so schedules end with a pass that checks single units.

use super::{Policy, Proposals};
use crate::idset::IdSet;
use crate::idset::RankIndex;

#[derive(Clone, Debug)]
enum Tried {
    Group(IdSet),
    Half(IdSet),
}

/// Generalized binary splitting with an adaptive estimate of the needed units.
#[derive(Clone, Debug, Default)]
pub struct BinarySplit {
    needed: IdSet,
    /// A range known to hold a needed unit, being halved.
    search: Option<IdSet>,
    /// Units decided so far (removed or found needed) and how many were needed.
    decided: usize,
    found: usize,
    /// Size of the configuration when the pass started, for the first estimate.
    initial: usize,
    last: Option<Tried>,
    /// A needed unit was just found: try the unit after it alone next.
    probe_next: bool,
    /// Groups removed in a row since the last needed unit: each doubles the next group.
    streak: u32,
}

impl BinarySplit {
    /// The size of the next group among `undecided` units.
    fn group_size(&self, undecided: usize) -> usize {
        let u = undecided as f64;
        let density = if self.decided == 0 {
            1.0 / self.initial.max(1) as f64
        } else {
            (self.found + 1) as f64 / (self.decided + 1) as f64
        };
        let d = (density * u).max(1.0);
        if u <= 2.0 * d - 2.0 {
            return 1;
        }
        let a = ((u - d + 1.0) / d).log2().floor().max(0.0);
        (1usize << (a as u32).min(62)).min(undecided).max(1)
    }

    fn mark_needed(&mut self, range: &IdSet) {
        self.needed = self.needed.union(range);
        self.found += range.len();
        self.decided += range.len();
    }

    /// Narrows the search to `range`; a single unit is needed without a test.
    fn search_in(&mut self, range: IdSet) {
        if range.len() <= 1 {
            self.mark_needed(&range);
            self.search = None;
            self.probe_next = true;
        } else {
            self.search = Some(range);
        }
    }

    /// The units known to be needed.
    pub fn needed(&self) -> &IdSet {
        &self.needed
    }

    /// Splitting that takes the units of `needed` as known to be needed from the start: they
    /// are never proposed, and do not count in the density estimate.
    pub fn knowing(needed: IdSet) -> BinarySplit {
        BinarySplit {
            needed,
            ..BinarySplit::default()
        }
    }
}

impl Policy for BinarySplit {
    fn name(&self) -> String {
        "split".into()
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        if self.initial == 0 {
            self.initial = config.difference(&self.needed).len();
        }
        self.last = None;
        Box::new(std::iter::from_fn(move || {
            match self.last.take() {
                Some(Tried::Group(g)) => {
                    self.streak = 0;
                    self.search_in(g)
                }
                Some(Tried::Half(h)) => self.search_in(h),
                None => {}
            }
            if let Some(range) = &self.search {
                let half = RankIndex::new(range).slice(0, range.len() / 2);
                self.last = Some(Tried::Half(half.clone()));
                return Some(half);
            }
            let undecided = config.difference(&self.needed);
            if undecided.is_empty() {
                return None;
            }
            // Needed units cluster (the bytes of a magic number, the tokens of a call): the
            // neighbour of one just found is tried alone, for one test instead of a search.
            // After removals in a row the estimate lags behind: the next group doubles.
            let g = if std::mem::take(&mut self.probe_next) {
                1
            } else {
                let doubled = self.group_size(undecided.len()) << self.streak.min(30);
                doubled.min(undecided.len())
            };
            let group = RankIndex::new(&undecided).slice(0, g);
            self.last = Some(Tried::Group(group.clone()));
            Some(group)
        }))
    }

    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        match (self.last.take(), reduced) {
            (Some(Tried::Group(g)), Some(_)) => {
                self.decided += g.len();
                self.streak += 1;
            }
            (Some(Tried::Half(h)), Some(_)) => {
                self.decided += h.len();
                let rest = self.search.take().unwrap_or_default().difference(&h);
                self.search_in(rest);
            }
            _ => {}
        }
        reduced.is_some()
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
