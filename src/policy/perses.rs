//! Perses as the seed pages define it: replace a node by a compatible descendant, and minimize one active list at a time.
//!
//! Main type: [`Perses`], a [`Policy`] over unit ids. Each round it looks at the live inner
//! nodes, largest surviving subtree first (ties by node id), and proposes:
//!
//! 1. *Replacements*, node by node in that order: node `n` replaced by each live descendant `d`
//!    that may fill `n`'s grammar slot, smallest `d` first (ties by id). `d` may fill the slot
//!    if the slot is a list element and `d` is a statement rule, or otherwise if `d` has the
//!    kind of the node whose slot it is. That node, the *anchor*, is `n` itself, or, when an
//!    earlier replacement left `n` standing inside dead structure, the highest dead ancestor
//!    of `n` whose own parent is live (or is the root).
//! 2. Then *deletions* from the active list: its surviving elements, handed to a persisted inner
//!    policy (DDMin, ProbDD, ...) in node space, mapped down to units.
//!
//! The active list is sticky: it stays until its inner policy declares it minimal (it is then
//! marked done) or it dies; then the largest live list not done takes over with a fresh inner
//! policy. Any reduction reopens every list. The run ends when a round with no active list
//! finds nothing.
//!
//! Replacement in unit space. Replacing `n` by its descendant `d` keeps `d`'s units where they
//! are and drops the rest of `n`'s, because `d`'s units already sit inside `n`'s span in source
//! order. So on a tree whose leaves are the input's units, a replacement is exactly the
//! deletion `leaves_under(n) - leaves_under(d)`, a subset of the configuration, and goes
//! through the same reduce loop, cache and oracle as any deletion. The pages model it this
//! way; the cost is that structure between `n` and `d` is left dead in the tree rather than
//! rebuilt, which is why liveness and anchors are recovered from the configuration.
//!
//! ```
//! use std::sync::Arc;
//! use myhill::{policy::{DDMin, Policy, PolicyFactory}, text::IdSet};
//! use myhill::{policy::Perses, tree::TreeBuilder};
//! // wrap := "(" stmt ")" where stmt is a statement rule around one token.
//! let mut b = TreeBuilder::new();
//! let stmt = b.rule("stmt", true);
//! let wrap = b.rule("wrap", true);
//! let x = b.token("x");
//! let inner = b.node(stmt, "", &[x]);
//! let parts = [b.token("("), inner, b.token(")")];
//! let outer = b.node(wrap, "", &parts);
//! let body = b.list(&[outer]);
//! let tree = Arc::new(b.build(body).unwrap());
//! let ddmin: PolicyFactory = Arc::new(|| Box::new(DDMin));
//! let mut perses = Perses::new(tree, ddmin);
//! let config = IdSet::range(0, 3);
//! // First proposal: replace the wrapper by the statement inside it (drop the parentheses).
//! assert_eq!(perses.propose(&config).next().unwrap().to_vec(), vec![0, 2]);
//! ```
//!
//! Limits: every round re-derives the replacement list and, having no memory, re-proposes
//! candidates that failed before (a content cache answers those without a test). A round costs
//! one pass over the nodes plus, as far as it is pulled, a walk of each node's surviving
//! subtree.

use super::{Policy, PolicyFactory, Proposals};
use crate::idset::IdSet;
use crate::tree::{Liveness, NodeId, NodeKind, Tree, clip};
use std::sync::Arc;

/// Perses over a tree, with any inner list policy for the active list's deletions.
pub struct Perses {
    tree: Arc<Tree>,
    make_inner: PolicyFactory,
    inner_name: String,
    /// The list being minimized by deletion.
    active: Option<NodeId>,
    /// The active list's inner policy, rebuilt when the active list changes.
    inner: Option<Box<dyn Policy>>,
    /// The active list's surviving elements, kept here so the proposals can borrow them.
    active_elements: IdSet,
    /// Lists found minimal since the last reduction, by node id.
    done: Vec<bool>,
}

impl Perses {
    /// Perses over `tree`, minimizing lists with policies from `make_inner`.
    pub fn new(tree: Arc<Tree>, make_inner: PolicyFactory) -> Perses {
        let inner_name = make_inner().name();
        let done = vec![false; tree.len()];
        Perses {
            tree,
            make_inner,
            inner_name,
            active: None,
            inner: None,
            active_elements: IdSet::new(),
            done,
        }
    }

    /// The list currently minimized by deletion.
    pub fn active(&self) -> Option<NodeId> {
        self.active
    }

    /// Keeps the active list while it is live and not done; otherwise takes the first list in
    /// `nodes` (largest first) that is not done.
    fn pick_active(&mut self, nodes: &[NodeId], liveness: &Liveness) {
        if let Some(a) = self.active
            && !self.done[a.index()]
            && liveness.live(a)
        {
            return;
        }
        let tree = &*self.tree;
        let active = nodes
            .iter()
            .copied()
            .find(|&id| tree.kind(id) == NodeKind::List && !self.done[id.index()]);
        if active != self.active {
            self.active = active;
            self.inner = None;
        }
    }
}

/// The node whose grammar slot `n` fills: climb while the parent is dead and not the root.
fn anchor_of(tree: &Tree, liveness: &Liveness, n: NodeId) -> NodeId {
    let mut anchor = n;
    while let Some(p) = tree.parent(anchor) {
        if p == tree.root() || liveness.live(p) {
            break;
        }
        anchor = p;
    }
    anchor
}

/// The live descendants of `n` that may stand in its slot, smallest surviving subtree first
/// (ties by id). The slot is a list element's when the anchor's parent is a list: then any
/// statement rule fits; otherwise only the anchor's own kind does. The root fills no slot.
fn replacers(tree: &Tree, liveness: &Liveness, n: NodeId) -> Vec<NodeId> {
    let anchor = anchor_of(tree, liveness, n);
    let Some(slot_parent) = tree.parent(anchor) else {
        return Vec::new();
    };
    let in_list = tree.kind(slot_parent) == NodeKind::List;
    let fits = |d: NodeId| {
        if in_list {
            tree.fills_list_slot(tree.kind(d))
        } else {
            tree.kind(d) == tree.kind(anchor)
        }
    };
    let mut out = Vec::new();
    let mut stack: Vec<NodeId> = tree.children(n).to_vec();
    while let Some(d) = stack.pop() {
        // Nothing under a node without surviving units survives either.
        if !liveness.present(d) {
            continue;
        }
        if liveness.live(d) && fits(d) {
            out.push(d);
        }
        stack.extend_from_slice(tree.children(d));
    }
    out.sort_by_key(|&d| (liveness.surviving(d), d));
    out
}

impl Policy for Perses {
    fn name(&self) -> String {
        match self.inner_name.as_str() {
            "ddmin" => "perses".into(),
            other => format!("perses-{other}"),
        }
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        let liveness = self.tree.liveness(config);
        let mut nodes: Vec<NodeId> = self
            .tree
            .breadth_first()
            .iter()
            .copied()
            .filter(|&id| !self.tree.is_leaf(id) && liveness.live(id))
            .collect();
        nodes.sort_by_key(|&id| (std::cmp::Reverse(liveness.surviving(id)), id));
        self.pick_active(&nodes, &liveness);

        let tree = &*self.tree;
        let replacements = nodes.into_iter().flat_map(move |n| {
            let (lo, hi) = tree.span(n);
            replacers(tree, &liveness, n)
                .into_iter()
                .map(move |d| {
                    let (dlo, dhi) = tree.span(d);
                    clip(config, lo, dlo).union(&clip(config, dhi, hi))
                })
                .filter(|delta| !delta.is_empty())
                .collect::<Vec<_>>()
        });

        self.active_elements = match self.active {
            Some(a) => tree.elements(a, config),
            None => IdSet::new(),
        };
        if self.inner.is_none() {
            self.inner = Some((self.make_inner)());
        }
        let inner = self.inner.as_mut().expect("built above");
        let deletions = inner
            .propose(&self.active_elements)
            .map(move |drop| tree.units_under(&drop, config));
        Box::new(replacements.chain(deletions))
    }

    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        let Some(a) = self.active else {
            return reduced.is_some();
        };
        let elements = reduced.map(|c| self.tree.elements(a, c));
        let inner = self.inner.as_mut().expect("on_reduced follows a propose");
        let inner_goes_on = inner.on_reduced(elements.as_ref());
        if reduced.is_some() {
            self.done.fill(false);
        } else if !inner_goes_on {
            self.done[a.index()] = true;
        }
        true
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(Perses {
            tree: self.tree.clone(),
            make_inner: self.make_inner.clone(),
            inner_name: self.inner_name.clone(),
            active: self.active,
            inner: self.inner.as_ref().map(|p| p.clone_box()),
            active_elements: self.active_elements.clone(),
            done: self.done.clone(),
        })
    }
}
