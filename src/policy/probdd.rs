//! ProbDD as the seed pages define it: a belief per unit, the best expected-gain prefix, Bayes on failure.
//!
//! Every unit starts at the prior `p0` (the belief that it is essential). Each proposal sorts
//! units by belief (ties by id) and removes the prefix maximising `k * prod(1 - p)`; a failure
//! divides each removed unit's belief by `1 - prod(1 - p)` (capped at 1). The round ends when
//! every belief is 1. Beliefs persist across rounds; units that were removed are forgotten.
//!
//! The beliefs live in a `BTreeSet` ordered by (belief, id), so a proposal costs
//! O(k log n) for a prefix of k units instead of sorting all n units as the seed does; the
//! scan stops as soon as no longer prefix can beat the best gain, which gives the same prefix.

use super::{Policy, Proposals};
use crate::idset::IdSet;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// A belief, ordered totally so it can key a `BTreeSet`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Belief(f64);

impl Eq for Belief {}
impl PartialOrd for Belief {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Belief {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Probabilistic delta debugging (Wang et al.) with the seeds' tie-breaking.
#[derive(Clone, Debug)]
pub struct ProbDD {
    p0: f64,
    /// `belief[id]`, NaN for ids not in the model.
    belief: Vec<f64>,
    /// The model's ids ordered by (belief, id).
    order: BTreeSet<(Belief, u32)>,
    /// Fingerprint of the configuration the model is aligned with.
    synced_with: Option<u64>,
    /// The last delta proposed in the current round.
    last: Option<Vec<u32>>,
}

impl ProbDD {
    /// A model with prior `p0` for unseen units (the seeds use 0.1).
    pub fn new(p0: f64) -> ProbDD {
        assert!(
            p0 > 0.0 && p0 < 1.0,
            "the prior must lie strictly between 0 and 1"
        );
        ProbDD {
            p0,
            belief: Vec::new(),
            order: BTreeSet::new(),
            synced_with: None,
            last: None,
        }
    }

    /// The current belief that `id` is essential, if it is in the model.
    pub fn belief(&self, id: u32) -> Option<f64> {
        self.belief
            .get(id as usize)
            .copied()
            .filter(|p| !p.is_nan())
    }

    fn set(&mut self, id: u32, p: f64) {
        let i = id as usize;
        if i >= self.belief.len() {
            self.belief.resize(i + 1, f64::NAN);
        }
        let old = self.belief[i];
        if !old.is_nan() {
            self.order.remove(&(Belief(old), id));
        }
        self.belief[i] = p;
        self.order.insert((Belief(p), id));
    }

    fn forget(&mut self, id: u32) {
        if let Some(p) = self.belief(id) {
            self.order.remove(&(Belief(p), id));
            self.belief[id as usize] = f64::NAN;
        }
    }

    /// Realigns the model with `config`: forget removed units, add new ones at `p0`.
    fn sync(&mut self, config: &IdSet) {
        let fp = config.fingerprint();
        if self.synced_with == Some(fp) && self.order.len() == config.len() {
            return;
        }
        let stale: Vec<u32> = self
            .order
            .iter()
            .map(|&(_, id)| id)
            .filter(|&id| !config.contains(id))
            .collect();
        for id in stale {
            self.forget(id);
        }
        for id in config.iter() {
            if self.belief(id).is_none() {
                self.set(id, self.p0);
            }
        }
        self.synced_with = Some(fp);
    }

    /// The prefix (in belief order) with the highest expected gain `k * prod(1 - p)`.
    fn best_prefix(&self) -> Vec<u32> {
        let n = self.order.len() as f64;
        let mut survive = 1.0f64;
        let (mut best_k, mut best_gain) = (0usize, 0.0f64);
        let mut prefix = Vec::new();
        for (i, &(Belief(p), id)) in self.order.iter().enumerate() {
            survive *= 1.0 - p;
            let gain = (i + 1) as f64 * survive;
            prefix.push(id);
            if gain > best_gain {
                (best_k, best_gain) = (i + 1, gain);
            }
            // Every longer prefix has gain at most n * survive: it cannot win any more.
            if n * survive <= best_gain {
                break;
            }
        }
        prefix.truncate(best_k);
        prefix
    }

    /// The removal of `pre` failed: raise each of its beliefs by Bayes' rule.
    fn bayes_update(&mut self, pre: &[u32]) {
        let survive: f64 = pre
            .iter()
            .map(|&id| 1.0 - self.belief(id).expect("proposed ids are in the model"))
            .product();
        let denom = 1.0 - survive;
        if denom <= 0.0 {
            return;
        }
        for &id in pre {
            let p = self.belief(id).unwrap();
            self.set(id, (p / denom).min(1.0));
        }
    }

    fn all_essential(&self) -> bool {
        self.order.first().is_none_or(|&(Belief(p), _)| p >= 1.0)
    }
}

impl Default for ProbDD {
    fn default() -> Self {
        ProbDD::new(0.1)
    }
}

impl Policy for ProbDD {
    fn name(&self) -> String {
        "probdd".into()
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        self.sync(config);
        self.last = None;
        Box::new(std::iter::from_fn(move || {
            if let Some(pre) = self.last.take() {
                self.bayes_update(&pre);
            }
            if self.all_essential() {
                return None;
            }
            let pre = self.best_prefix();
            if pre.is_empty() {
                return None;
            }
            let delta = IdSet::from_unsorted(pre.clone());
            self.last = Some(pre);
            Some(delta)
        }))
    }

    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        if let (Some(config), Some(winner)) = (reduced, self.last.take()) {
            // The accepted delta is exactly the last one proposed: forget it without a full sync.
            if self.order.len() == config.len() + winner.len() {
                for id in winner {
                    self.forget(id);
                }
                self.synced_with = Some(config.fingerprint());
            }
        }
        self.last = None;
        reduced.is_some()
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
