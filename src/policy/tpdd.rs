//! T-PDD as the seed pages define it: one belief per node for the whole run, and always the single deletion with the highest expected gain.
//!
//! Main type: [`TPdd`], a [`Policy`] over unit ids. Every node but the root holds `p[n]`, the
//! belief that `n` survives given that its parent does. The prior comes from the tree's shape:
//! `sigma` for a list element, 1 (certain) for everything else. For a candidate `d`:
//!
//! - `q(n)`, the chance that `n`'s subtree ends up contributing nothing, is `1 - p[n]` for a
//!   leaf and `(1 - p[n]) + p[n] * prod q(c)` over `n`'s live children otherwise;
//! - `pass(d)` folds `q(d)` up through `d`'s ancestors below the root,
//!   `P <- (1 - p[a]) + p[a] * P`, adding the chance that an ancestor goes instead;
//! - `gain(d) = surviving units under d * pass(d)`.
//!
//! [`TPdd::weighted`] measures "how much would go" in a weight per unit instead of one per unit
//! (the tree pass uses bytes): with the page's count, a single unit never beats the threshold,
//! so a one-unit subtree (a comment line, an `#include` on an inferred tree) is never tried.
//!
//! Each proposal is the live non-root node with `p < 1` and the highest gain (ties by node id),
//! provided the gain exceeds 1; its delta is every surviving unit under it. When that removal
//! fails, `p[d] <- min(1, p[d] / (1 - pass(d)))`. A success needs no update: the node is gone.
//! The run ends after a round without success.
//!
//! ```
//! use std::sync::Arc;
//! use myhill::{IdSet, Policy};
//! use myhill::{TPdd, TreeBuilder};
//! let mut b = TreeBuilder::new();
//! let pair = b.rule("pair", true);
//! let (a, c) = (b.token("a"), b.token("c"));
//! let big = b.node(pair, "", &[a, c]);
//! let small = b.token("b");
//! let root = b.list(&[big, small]);
//! let mut tpdd = TPdd::new(Arc::new(b.build(root).unwrap()), 0.5);
//! let config = IdSet::range(0, 3);
//! // `big` holds two units at pass 0.5 (gain 1); `small` one (gain 0.5): neither beats 1.
//! assert!(tpdd.propose(&config).next().is_none());
//! ```
//!
//! Limits: candidates are whole subtrees, never a combination of them, and T-PDD only deletes.
//! A proposal costs one pass over the nodes plus, per candidate, a walk over its ancestors
//! whose belief is still below 1 (ancestors at 1 leave `pass` unchanged and are skipped).

use super::{Policy, Proposals};
use crate::idset::IdSet;
use crate::tree::{Liveness, NodeId, Tree};
use std::sync::Arc;

/// Below this expected gain T-PDD stops proposing (the paper's threshold).
pub const MIN_GAIN: f64 = 1.0;

/// Tree-based probabilistic delta debugging.
#[derive(Clone)]
pub struct TPdd {
    tree: Arc<Tree>,
    sigma: f64,
    /// What a unit is worth in the gain; `None` counts units, as the page does.
    unit_weight: Option<Arc<[f64]>>,
    /// `belief[n]`: P(n survives | its parent survives); NaN for the root, which has none.
    belief: Vec<f64>,
}

impl TPdd {
    /// `sigma` is the prior of a list element (the pages use 0.5).
    pub fn new(tree: Arc<Tree>, sigma: f64) -> TPdd {
        assert!(
            sigma > 0.0 && sigma < 1.0,
            "sigma must lie strictly between 0 and 1"
        );
        let belief = (0..tree.len() as u32)
            .map(NodeId)
            .map(|n| {
                if n == tree.root() {
                    f64::NAN
                } else if tree.deletable(n) {
                    sigma
                } else {
                    1.0
                }
            })
            .collect();
        TPdd {
            tree,
            sigma,
            unit_weight: None,
            belief,
        }
    }

    /// T-PDD whose gain weighs unit `u` by `unit_weight[u]` (for example its length in bytes).
    pub fn weighted(tree: Arc<Tree>, sigma: f64, unit_weight: Arc<[f64]>) -> TPdd {
        assert_eq!(unit_weight.len(), tree.unit_count(), "one weight per unit");
        TPdd {
            unit_weight: Some(unit_weight),
            ..TPdd::new(tree, sigma)
        }
    }

    /// The surviving weight under every node (`None` when units simply count).
    fn masses(&self, config: &IdSet) -> Option<Vec<f64>> {
        let weights = self.unit_weight.as_ref()?;
        let tree = &*self.tree;
        let mut mass = vec![0.0f64; tree.len()];
        for u in config.iter() {
            mass[tree.leaf_of(u).index()] = weights[u as usize];
        }
        for &id in tree.breadth_first().iter().rev() {
            if let Some(p) = tree.parent(id) {
                mass[p.index()] += mass[id.index()];
            }
        }
        Some(mass)
    }

    /// The current belief that `n` survives given its parent (`None` for the root).
    pub fn belief(&self, n: NodeId) -> Option<f64> {
        Some(self.belief[n.index()]).filter(|p| !p.is_nan())
    }

    /// The best candidate under the current beliefs, with its `pass` probability.
    fn best_candidate(&self, liveness: &Liveness, mass: Option<&[f64]>) -> Option<(NodeId, f64)> {
        let tree = &*self.tree;
        let p = &self.belief;
        let n = tree.len();
        // q bottom-up: children are visited before their parents.
        let mut q = vec![0.0f64; n];
        for &id in tree.breadth_first().iter().rev() {
            if id == tree.root() {
                continue;
            }
            let pn = p[id.index()];
            q[id.index()] = if tree.is_leaf(id) {
                1.0 - pn
            } else {
                let mut product = 1.0f64;
                for &c in tree.children(id) {
                    if liveness.live(c) {
                        product *= q[c.index()];
                    }
                }
                (1.0 - pn) + pn * product
            };
        }
        // The nearest ancestor below the root whose belief is still uncertain: an ancestor at
        // p = 1 maps P to 0 + 1 * P, exactly P, so the fold may skip it.
        let mut uncertain_up = vec![u32::MAX; n];
        for &id in tree.breadth_first() {
            if let Some(parent) = tree.parent(id)
                && parent != tree.root()
            {
                uncertain_up[id.index()] = if p[parent.index()] < 1.0 {
                    parent.0
                } else {
                    uncertain_up[parent.index()]
                };
            }
        }
        let mut best: Option<(NodeId, f64, f64)> = None;
        for i in 0..n {
            let d = NodeId(i as u32);
            if d == tree.root() || p[i] >= 1.0 || !liveness.live(d) {
                continue;
            }
            let mut pass = q[i];
            let mut a = uncertain_up[i];
            while a != u32::MAX {
                let pa = p[a as usize];
                pass = (1.0 - pa) + pa * pass;
                a = uncertain_up[a as usize];
            }
            let size = mass.map_or(liveness.surviving(d) as f64, |m| m[i]);
            let gain = size * pass;
            // Ids ascend, so only a strictly higher gain displaces the best so far.
            if best.is_none_or(|(_, g, _)| gain > g) {
                best = Some((d, gain, pass));
            }
        }
        best.filter(|&(_, gain, _)| gain > MIN_GAIN)
            .map(|(d, _, pass)| (d, pass))
    }

    /// The removal of `d` failed: Bayes' rule with the failure certain if `d` is needed.
    fn update(&mut self, d: NodeId, pass: f64) {
        let denom = 1.0 - pass;
        if denom > 0.0 {
            let pd = &mut self.belief[d.index()];
            *pd = (*pd / denom).min(1.0);
        }
    }
}

impl Policy for TPdd {
    fn name(&self) -> String {
        "tpdd".into()
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        let liveness = self.tree.liveness(config);
        let mass = self.masses(config);
        let mut last: Option<(NodeId, f64)> = None;
        Box::new(std::iter::from_fn(move || {
            // Pulling again means the last candidate failed.
            if let Some((d, pass)) = last.take() {
                self.update(d, pass);
            }
            let (d, pass) = self.best_candidate(&liveness, mass.as_deref())?;
            last = Some((d, pass));
            Some(self.tree.leaves_under(d, config))
        }))
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

impl std::fmt::Debug for TPdd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TPdd")
            .field("sigma", &self.sigma)
            .field("weighted", &self.unit_weight.is_some())
            .field("tree", &self.tree)
            .finish()
    }
}
