//! Hierarchical delta debugging as the seed pages define it: level by level, an inner list policy picks subtrees to drop.
//!
//! Main type: [`Hdd`]. Toward the reduce loop it is an ordinary [`Policy`] over unit ids. For
//! the current level it names the removable subtrees that still survive
//! ([`Tree::alive_level_nodes`]), lets an inner policy built by a [`PolicyFactory`] (DDMin,
//! ProbDD, ...) choose which of those *node ids* to drop, and maps each choice to the units
//! under it. Pass outcomes are forwarded to the inner policy in its own space; when it declares
//! itself done, HDD descends one level and builds a fresh inner policy, stopping below the
//! deepest level. Within a level the inner policy persists, so ProbDD keeps what it learned
//! across that level's rounds, and forgets it at the next level.
//!
//! ```
//! use std::sync::Arc;
//! use myhill::{policy::{DDMin, Policy, PolicyFactory}, text::IdSet};
//! use myhill::{policy::Hdd, tree::TreeBuilder};
//! let mut b = TreeBuilder::new();
//! let leaves: Vec<_> = ["a", "b", "c", "d"].iter().map(|l| b.token(l)).collect();
//! let root = b.list(&leaves);
//! let tree = Arc::new(b.build(root).unwrap());
//! let ddmin: PolicyFactory = Arc::new(|| Box::new(DDMin));
//! let mut hdd = Hdd::new(tree, 1, ddmin);
//! let config = IdSet::range(0, 4);
//! // DDMin's first move at level 1: keep only the first half of the leaves.
//! assert_eq!(hdd.propose(&config).next().unwrap().to_vec(), vec![2, 3]);
//! ```
//!
//! Limits: HDD only removes whole subtrees and never revisits a level, so its result is only
//! minimal subtree by subtree given the levels above (1-tree-minimal). Only deletable nodes
//! (children of lists) are offered to the inner policy; a tree whose inner nodes are all lists
//! makes every node but the root removable, as on the HDD page.

use super::{Policy, PolicyFactory, Proposals};
use crate::idset::IdSet;
use crate::tree::Tree;
use std::sync::Arc;

/// HDD over a tree, with any inner list policy.
pub struct Hdd {
    tree: Arc<Tree>,
    make_inner: PolicyFactory,
    inner_name: String,
    /// The shallowest level not yet known to be minimal.
    level: usize,
    inner: Option<Box<dyn Policy>>,
    /// The current round's subtrees, kept here so the proposals can borrow them.
    level_nodes: IdSet,
}

impl Hdd {
    /// HDD starting at `level` (the HDD page starts at 1: the root alone is never removable).
    pub fn new(tree: Arc<Tree>, level: usize, make_inner: PolicyFactory) -> Hdd {
        let inner_name = make_inner().name();
        Hdd {
            tree,
            make_inner,
            inner_name,
            level,
            inner: None,
            level_nodes: IdSet::new(),
        }
    }

    /// The level being minimized.
    pub fn level(&self) -> usize {
        self.level
    }
}

impl Policy for Hdd {
    fn name(&self) -> String {
        match self.inner_name.as_str() {
            "ddmin" => "hdd".into(),
            other => format!("hdd-{other}"),
        }
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        if self.inner.is_none() {
            self.inner = Some((self.make_inner)());
        }
        self.level_nodes = self.tree.alive_level_nodes(self.level, config);
        let tree = &*self.tree;
        let inner = self.inner.as_mut().expect("built above");
        // Lazily: the inner policy must advance only over failures that really happened.
        Box::new(
            inner
                .propose(&self.level_nodes)
                .map(move |drop| tree.units_under(&drop, config)),
        )
    }

    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        let nodes = reduced.map(|c| self.tree.alive_level_nodes(self.level, c));
        let inner = self.inner.as_mut().expect("on_reduced follows a propose");
        if inner.on_reduced(nodes.as_ref()) {
            return true;
        }
        self.level += 1;
        self.inner = None;
        self.level <= self.tree.max_depth()
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(Hdd {
            tree: self.tree.clone(),
            make_inner: self.make_inner.clone(),
            inner_name: self.inner_name.clone(),
            level: self.level,
            inner: self.inner.as_ref().map(|p| p.clone_box()),
            level_nodes: self.level_nodes.clone(),
        })
    }
}
