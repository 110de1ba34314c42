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
//! use myhill::{policy::Policy, text::IdSet};
//! use myhill::{policy::TPdd, tree::TreeBuilder};
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
//! Cost: a configuration (a new best) costs one pass over the nodes plus, per candidate, a walk
//! over its ancestors whose belief is still below 1 (ancestors at 1 leave `pass` unchanged and
//! are skipped). A failure then changes one belief, so only the `q` of the failed node's
//! ancestors and the gains of its ancestors and its surviving descendants are recomputed, and a
//! tournament over the gains finds the next best in O(log n) per changed gain: a failed test
//! costs the failed subtree, not the tree.

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

    /// `q(id)` from the beliefs and the `q` of `id`'s live children (see the module doc).
    fn q_of(&self, id: NodeId, liveness: &Liveness, q: &[f64]) -> f64 {
        let tree = &*self.tree;
        let pn = self.belief[id.index()];
        if tree.is_leaf(id) {
            1.0 - pn
        } else {
            let mut product = 1.0f64;
            for &c in tree.children(id) {
                if liveness.live(c) {
                    product *= q[c.index()];
                }
            }
            (1.0 - pn) + pn * product
        }
    }

    /// The search of one configuration: every node's `q`, gain and the best of them, built
    /// once; after a failure only the failed node's ancestors and descendants change.
    fn search(&self, liveness: &Liveness, mass: Option<Vec<f64>>) -> Search {
        let tree = &*self.tree;
        let p = &self.belief;
        let n = tree.len();
        // q bottom-up: children are visited before their parents.
        let mut q = vec![0.0f64; n];
        for &id in tree.breadth_first().iter().rev() {
            if id != tree.root() {
                q[id.index()] = self.q_of(id, liveness, &q);
            }
        }
        // The nearest ancestor below the root whose belief is still uncertain: an ancestor at
        // p = 1 maps P to 0 + 1 * P, exactly P, so the fold may skip it. A belief that reaches
        // 1 later in the round stays on the chain, where it changes nothing.
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
        let mut search = Search {
            q,
            uncertain_up,
            mass,
            gain: Vec::new(),
            best: Vec::new(),
            leaves: n.next_power_of_two(),
            first: (NodeId(0), f64::NEG_INFINITY),
        };
        for i in 0..n {
            let gain = self.gain(NodeId(i as u32), liveness, &search);
            // Ids ascend, so only a strictly higher gain displaces the best so far.
            if gain > search.first.1 {
                search.first = (NodeId(i as u32), gain);
            }
        }
        search
    }

    /// `d`'s expected gain, or minus infinity when `d` is no candidate (the root, a certain
    /// node, a dead one).
    fn gain(&self, d: NodeId, liveness: &Liveness, search: &Search) -> f64 {
        let i = d.index();
        let p = &self.belief;
        if d == self.tree.root() || p[i] >= 1.0 || !liveness.live(d) {
            return f64::NEG_INFINITY;
        }
        let size = search
            .mass
            .as_ref()
            .map_or(liveness.surviving(d) as f64, |m| m[i]);
        size * search.pass(d, p)
    }

    /// The removal of `d` failed: its belief rises, so the `q` of `d` and its ancestors and
    /// the gains of `d`, its ancestors and its descendants change; nothing else does.
    fn refresh(&self, d: NodeId, liveness: &Liveness, search: &mut Search) {
        let tree = &*self.tree;
        let mut up = Some(d);
        while let Some(a) = up.filter(|&a| a != tree.root()) {
            // Above the last uncertain node a `q` feeds no gain (such as the top-level list's,
            // whose product runs over every top-level element): the walk stops there.
            if self.belief[a.index()] >= 1.0 && search.uncertain_up[a.index()] == u32::MAX {
                break;
            }
            search.q[a.index()] = self.q_of(a, liveness, &search.q);
            up = tree.parent(a);
        }
        if search.best.is_empty() {
            // The configuration's first failure: every gain, and the tournament over them.
            let gains = (0..tree.len() as u32)
                .map(|i| self.gain(NodeId(i), liveness, search))
                .collect();
            search.gain = gains;
            search.build();
            return;
        }
        let mut up = Some(d);
        while let Some(a) = up.filter(|&a| a != tree.root()) {
            let gain = self.gain(a, liveness, search);
            search.set(a, gain);
            up = tree.parent(a);
        }
        // Below d every fold passes through d's belief; a subtree with nothing left is dead.
        let mut stack: Vec<NodeId> = tree.children(d).to_vec();
        while let Some(y) = stack.pop() {
            if !liveness.present(y) {
                continue;
            }
            let gain = self.gain(y, liveness, search);
            search.set(y, gain);
            stack.extend_from_slice(tree.children(y));
        }
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
        let mut search: Option<Search> = None;
        let mut last: Option<(NodeId, f64)> = None;
        Box::new(std::iter::from_fn(move || {
            let search = search.get_or_insert_with(|| {
                let mass = self.masses(config);
                self.search(&liveness, mass)
            });
            // Pulling again means the last candidate failed.
            if let Some((d, pass)) = last.take() {
                self.update(d, pass);
                self.refresh(d, &liveness, search);
            }
            let (d, gain) = search.top()?;
            if gain <= MIN_GAIN {
                return None;
            }
            last = Some((d, search.pass(d, &self.belief)));
            Some(self.tree.leaves_under(d, config))
        }))
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

/// The state of T-PDD's search over one configuration (see [`TPdd::search`]).
struct Search {
    /// Per node, the chance its subtree ends up contributing nothing.
    q: Vec<f64>,
    /// Per node, its nearest ancestor below the root that was uncertain when the search began.
    uncertain_up: Vec<u32>,
    /// The surviving weight under every node (`None` when units simply count).
    mass: Option<Vec<f64>>,
    /// Per node, its gain; minus infinity for a node that is no candidate. Filled at the
    /// configuration's first failure, with `best`.
    gain: Vec<f64>,
    /// A tournament over the gains: `best[k]` is the winner of its two children `2k` and
    /// `2k + 1`, the leaves `leaves + i` being the nodes; the highest gain wins, ties going to
    /// the lower id, as a scan in id order would pick.
    best: Vec<u32>,
    leaves: usize,
    /// The winner of the scan that began the search, and its gain: all a configuration whose
    /// first candidate succeeds needs.
    first: (NodeId, f64),
}

impl Search {
    /// `pass(d)`: `q(d)` folded up through `d`'s uncertain ancestors.
    fn pass(&self, d: NodeId, p: &[f64]) -> f64 {
        let mut pass = self.q[d.index()];
        let mut a = self.uncertain_up[d.index()];
        while a != u32::MAX {
            let pa = p[a as usize];
            pass = (1.0 - pa) + pa * pass;
            a = self.uncertain_up[a as usize];
        }
        pass
    }

    fn winner(&self, a: u32, b: u32) -> u32 {
        let gain = |x: u32| {
            self.gain
                .get(x as usize)
                .copied()
                .unwrap_or(f64::NEG_INFINITY)
        };
        let (ga, gb) = (gain(a), gain(b));
        if gb > ga || (gb == ga && b < a) { b } else { a }
    }

    fn build(&mut self) {
        let leaves = self.leaves;
        self.best = vec![0; 2 * leaves];
        for i in 0..leaves {
            self.best[leaves + i] = i as u32;
        }
        for k in (1..leaves).rev() {
            self.best[k] = self.winner(self.best[2 * k], self.best[2 * k + 1]);
        }
    }

    fn set(&mut self, d: NodeId, gain: f64) {
        self.gain[d.index()] = gain;
        let mut k = (self.leaves + d.index()) / 2;
        while k >= 1 {
            self.best[k] = self.winner(self.best[2 * k], self.best[2 * k + 1]);
            k /= 2;
        }
    }

    /// The candidate with the highest gain, and that gain.
    fn top(&self) -> Option<(NodeId, f64)> {
        let (d, gain) = match self.best.get(1) {
            Some(&d) => (NodeId(d), self.gain[d as usize]),
            None => self.first,
        };
        (gain > f64::NEG_INFINITY).then_some((d, gain))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::TreeBuilder;

    /// T-PDD's choice by the definition: every node's `q`, then every candidate's fold and
    /// gain, recomputed from scratch.
    fn by_definition(t: &TPdd, config: &IdSet) -> Option<(NodeId, f64)> {
        let tree = &*t.tree;
        let liveness = tree.liveness(config);
        let mass = t.masses(config);
        let p = &t.belief;
        let mut q = vec![0.0f64; tree.len()];
        for &id in tree.breadth_first().iter().rev() {
            if id != tree.root() {
                q[id.index()] = t.q_of(id, &liveness, &q);
            }
        }
        let mut best: Option<(NodeId, f64, f64)> = None;
        for i in 0..tree.len() {
            let d = NodeId(i as u32);
            if d == tree.root() || p[i] >= 1.0 || !liveness.live(d) {
                continue;
            }
            let mut pass = q[i];
            let mut a = tree.parent(d);
            while let Some(x) = a.filter(|&x| x != tree.root()) {
                if p[x.index()] < 1.0 {
                    pass = (1.0 - p[x.index()]) + p[x.index()] * pass;
                }
                a = tree.parent(x);
            }
            let size = mass.as_ref().map_or(liveness.surviving(d) as f64, |m| m[i]);
            let gain = size * pass;
            if best.is_none_or(|(_, g, _)| gain > g) {
                best = Some((d, gain, pass));
            }
        }
        best.filter(|&(_, g, _)| g > MIN_GAIN)
            .map(|(d, _, pass)| (d, pass))
    }

    fn random_tree(next: &mut impl FnMut() -> u64, nodes: usize) -> Tree {
        let mut b = TreeBuilder::new();
        let rule = b.rule("r", true);
        // Grow from the leaves: a pool of finished subtrees, merged under lists and rules.
        let mut pool: Vec<NodeId> = (0..nodes / 2).map(|_| b.token("")).collect();
        while pool.len() > 1 {
            let take = (2 + next() % 4) as usize;
            let at = (next() as usize) % pool.len();
            let kids: Vec<NodeId> = pool.drain(at..(at + take).min(pool.len())).collect();
            let node = if next().is_multiple_of(3) {
                b.node(rule, "", &kids)
            } else {
                b.list(&kids)
            };
            pool.insert(at, node);
        }
        let root = b.list(&pool);
        b.build(root).unwrap()
    }

    /// The incremental search proposes exactly what the definition does, failure after
    /// failure and across accepted removals, to the last bit of every belief.
    #[test]
    fn incremental_search_matches_the_definition() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..40 {
            let tree = Arc::new(random_tree(&mut next, 20 + round * 15));
            let weights: Arc<[f64]> = (0..tree.unit_count())
                .map(|_| (1 + next() % 9) as f64)
                .collect();
            let mut fast = if round % 2 == 0 {
                TPdd::new(tree.clone(), 0.5)
            } else {
                TPdd::weighted(tree.clone(), 0.5, weights)
            };
            let mut slow = fast.clone();
            let mut config = IdSet::range(0, tree.unit_count() as u32);
            let mut proposals = 0;
            'rounds: loop {
                let mut accepted = None;
                {
                    let mut it = fast.propose(&config);
                    loop {
                        let expected = by_definition(&slow, &config);
                        let got = it.next();
                        assert_eq!(
                            got,
                            expected.map(|(d, _)| tree.leaves_under(d, &config)),
                            "tree {round}, proposal {proposals}"
                        );
                        let Some(delta) = got else { break };
                        proposals += 1;
                        if next().is_multiple_of(4) {
                            accepted = Some(config.difference(&delta));
                            break;
                        }
                        let (d, pass) = expected.unwrap();
                        slow.update(d, pass);
                    }
                }
                let ids: Vec<u64> = fast.belief.iter().map(|b| b.to_bits()).collect();
                let want: Vec<u64> = slow.belief.iter().map(|b| b.to_bits()).collect();
                assert_eq!(ids, want, "tree {round}");
                match accepted {
                    Some(c) if !c.is_empty() => config = c,
                    _ => break 'rounds,
                }
            }
            assert!(proposals > 0);
        }
    }
}
