//! The tree model the tree policies work over: a static tree whose leaves are the units of an input.
//!
//! Main types: [`Tree`], built by a [`TreeBuilder`] (by hand, as the seed demos do) or by
//! [`infer::infer`] (from plain bytes); [`NodeId`], [`NodeKind`] and [`Liveness`]. Two spaces meet
//! here. Configurations and deltas are sets of *unit* ids, exactly as for the flat policies;
//! nodes only name regions of the input. The leaves, taken left to right, are units 0, 1, 2, ...,
//! so every subtree covers one contiguous range of units. The tree never changes during a
//! reduction: what still exists is recovered from the configuration each time it is asked.
//!
//! - Node space to unit space: [`Tree::leaves_under`] and [`Tree::units_under`] give the
//!   surviving units of one or several subtrees (the delta that drops them).
//! - Unit space to node space: [`Tree::alive_level_nodes`] gives the removable subtrees of one
//!   level that still hold a surviving unit, and [`Tree::elements`] the surviving elements of a
//!   `List`.
//!
//! Node kinds follow the seeds: a [`NodeKind::Token`] is a leaf; a [`NodeKind::List`] is a Kleene list
//! whose children are optional ("deletable"); any other node is a [`NodeKind::Rule`] whose children
//! are all mandatory. A rule declared as a *statement* may fill a list element's slot, which is
//! what Perses' node replacement checks.
//!
//! ```
//! use myhill::text::IdSet;
//! use myhill::tree::{NodeId, TreeBuilder};
//! // call := name "(" ")" ";"   and a body that is a list of calls
//! let mut b = TreeBuilder::new();
//! let call = b.rule("call", true);
//! let mut calls = Vec::new();
//! for name in ["a", "b"] {
//!     let parts = [b.token(name), b.token("("), b.token(")"), b.token(";")];
//!     calls.push(b.node(call, "", &parts));
//! }
//! let body = b.list(&calls);
//! let tree = b.build(body).unwrap();
//! assert_eq!(tree.unit_count(), 8);
//! let all = IdSet::range(0, 8);
//! assert_eq!(tree.leaves_under(calls[1], &all).to_vec(), vec![4, 5, 6, 7]);
//! // Drop the second call: level 1 then holds only the first one.
//! let kept = all.difference(&tree.leaves_under(calls[1], &all));
//! assert_eq!(tree.alive_level_nodes(1, &kept).to_vec(), vec![calls[0].0]);
//! assert!(tree.liveness(&kept).live(calls[0]) && !tree.liveness(&kept).live(calls[1]));
//! ```
//!
//! Beside the tree: [`Nesting`] (`nesting.rs`), the one model of an input's nesting the sweeps
//! and the tree inference read, and the top-level forms (`forms.rs`) the chunk passes cut by a
//! streaming walk on inputs too large for it.
//!
//! Limits: node and unit ids are `u32`; every node but a token has at least one child, so every
//! leaf is a unit. Per configuration, [`Tree::liveness`] costs one pass over the nodes and the
//! bridges cost a binary search over the configuration's runs per node they touch.

mod forms;
mod infer;
mod nesting;

pub(crate) use forms::{Form, forms, forms_and_wrappers, spans};
pub use infer::{Inferred, infer};
pub use nesting::{Delim, Group, Nesting};

use crate::idset::IdSet;
use std::fmt;

/// Identifies a node of a [`Tree`]. Not a unit: only a leaf corresponds to one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The id as an index into per-node vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Names a rule of a tree's grammar (see [`TreeBuilder::rule`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RuleId(u16);

/// What a node is in the grammar.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NodeKind {
    /// A leaf: exactly one unit of the input.
    Token,
    /// A Kleene list: each child may be removed on its own.
    List,
    /// Any other non-terminal: its children are mandatory.
    Rule(RuleId),
}

#[derive(Clone, Debug)]
struct RuleInfo {
    name: Box<str>,
    statement: bool,
}

/// Builds a [`Tree`] node by node. Ids are handed out in creation order; children may name ids
/// not created yet, so a tree can be written root first or leaves first.
#[derive(Clone, Debug, Default)]
pub struct TreeBuilder {
    kinds: Vec<NodeKind>,
    /// Labels by node id, up to the last node given a non-empty one (inferred trees have none).
    labels: Vec<Box<str>>,
    /// Node `i`'s children are `child_list[child_start[i]..child_start[i + 1]]` (the last
    /// node's run ends at the end of `child_list`): one flat list, no vector per node.
    child_start: Vec<u32>,
    child_list: Vec<NodeId>,
    rules: Vec<RuleInfo>,
}

impl TreeBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a rule. A `statement` rule may replace a list element (Perses' check).
    pub fn rule(&mut self, name: &str, statement: bool) -> NodeKind {
        assert!(self.rules.len() < u16::MAX as usize, "too many rules");
        self.rules.push(RuleInfo {
            name: name.into(),
            statement,
        });
        NodeKind::Rule(RuleId(self.rules.len() as u16 - 1))
    }

    /// Adds a node and returns its id (the number of nodes added before it).
    pub fn node(&mut self, kind: NodeKind, label: &str, children: &[NodeId]) -> NodeId {
        let id = NodeId(self.kinds.len() as u32);
        assert!(
            self.child_list.len() + children.len() < u32::MAX as usize,
            "trees are limited to 2^32 nodes"
        );
        self.kinds.push(kind);
        if !label.is_empty() {
            self.labels.resize(id.index(), Box::default());
            self.labels.push(label.into());
        }
        self.child_start.push(self.child_list.len() as u32);
        self.child_list.extend_from_slice(children);
        id
    }

    /// Adds a leaf.
    pub fn token(&mut self, label: &str) -> NodeId {
        self.node(NodeKind::Token, label, &[])
    }

    /// Adds a list node.
    pub fn list(&mut self, children: &[NodeId]) -> NodeId {
        self.node(NodeKind::List, "", children)
    }

    /// Number of nodes added so far.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether no node was added.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Checks the shape (every node reachable from `root` exactly once, tokens childless, other
    /// nodes not) and numbers the leaves left to right as units.
    pub fn build(mut self, root: NodeId) -> Result<Tree, MalformedTree> {
        let n = self.kinds.len();
        if root.index() >= n {
            return Err(MalformedTree(format!("root {} does not exist", root.0)));
        }
        self.child_start.push(self.child_list.len() as u32);
        let (child_start, child_list) = (self.child_start, self.child_list);
        let children = Children {
            start: &child_start,
            list: &child_list,
        };
        let parent = parents(&self.kinds, children, root)?;
        let (depth, bfs) = breadth_first(children, root, n)?;
        let max_depth = depth.iter().copied().max().unwrap_or(0) as usize;
        let (level_start, by_level) = levels(&depth, &bfs, max_depth);
        let (leaf_unit, unit_leaf) = leaves(children, root, n);
        let span = unit_spans(children, &bfs, &leaf_unit);
        Ok(Tree {
            kinds: self.kinds,
            labels: self.labels,
            child_start,
            child_list,
            parent,
            depth,
            bfs,
            level_start,
            by_level,
            max_depth,
            root,
            leaf_unit,
            unit_leaf,
            span,
            rules: self.rules,
        })
    }
}

/// The children of each node of a tree being built: node `i`'s are
/// `list[start[i]..start[i + 1]]`.
#[derive(Clone, Copy)]
struct Children<'a> {
    start: &'a [u32],
    list: &'a [NodeId],
}

impl Children<'_> {
    fn of(&self, i: usize) -> &[NodeId] {
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Each node's parent (`NONE` for the root), once the shape is checked: tokens childless,
/// other nodes not, every child existing and no node with two parents.
fn parents(
    kinds: &[NodeKind],
    children: Children,
    root: NodeId,
) -> Result<Vec<u32>, MalformedTree> {
    let n = kinds.len();
    let mut parent = vec![NONE; n];
    for (p, kind) in kinds.iter().enumerate() {
        let kids = children.of(p);
        let is_token = *kind == NodeKind::Token;
        if is_token && !kids.is_empty() {
            return Err(MalformedTree(format!("token {p} has children")));
        }
        if !is_token && kids.is_empty() {
            return Err(MalformedTree(format!(
                "node {p} is not a token but has no children"
            )));
        }
        for &c in kids {
            if c.index() >= n {
                return Err(MalformedTree(format!(
                    "node {p} names a missing child {}",
                    c.0
                )));
            }
            if c == root || parent[c.index()] != NONE {
                return Err(MalformedTree(format!("node {} has two parents", c.0)));
            }
            parent[c.index()] = p as u32;
        }
    }
    Ok(parent)
}

/// Breadth first from the root: each node's depth, and the order that puts parents before
/// children; an error if some of the `n` nodes are not reached.
fn breadth_first(
    children: Children,
    root: NodeId,
    n: usize,
) -> Result<(Vec<u32>, Vec<NodeId>), MalformedTree> {
    let mut depth = vec![0u32; n];
    let mut bfs = Vec::with_capacity(n);
    bfs.push(root);
    let mut next = 0;
    while next < bfs.len() {
        let id = bfs[next];
        next += 1;
        for &c in children.of(id.index()) {
            depth[c.index()] = depth[id.index()] + 1;
            bfs.push(c);
        }
    }
    if bfs.len() != n {
        return Err(MalformedTree(format!(
            "{} nodes are not reachable from the root",
            n - bfs.len()
        )));
    }
    Ok((depth, bfs))
}

/// The nodes grouped by depth, each group in breadth-first order: where each level starts,
/// and the nodes.
fn levels(depth: &[u32], bfs: &[NodeId], max_depth: usize) -> (Vec<u32>, Vec<NodeId>) {
    let mut level_start = vec![0u32; max_depth + 2];
    for &d in depth {
        level_start[d as usize + 1] += 1;
    }
    for i in 1..level_start.len() {
        level_start[i] += level_start[i - 1];
    }
    let mut by_level = vec![NodeId(0); depth.len()];
    let mut fill = level_start.clone();
    for &id in bfs {
        let d = depth[id.index()] as usize;
        by_level[fill[d] as usize] = id;
        fill[d] += 1;
    }
    (level_start, by_level)
}

/// Depth first in child order, the k-th leaf from the left is unit k: each node's unit
/// (`NONE` but for leaves), and each unit's leaf.
fn leaves(children: Children, root: NodeId, n: usize) -> (Vec<u32>, Vec<NodeId>) {
    let mut leaf_unit = vec![NONE; n];
    let mut unit_leaf = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let kids = children.of(id.index());
        if kids.is_empty() {
            leaf_unit[id.index()] = unit_leaf.len() as u32;
            unit_leaf.push(id);
        } else {
            stack.extend(kids.iter().rev().copied());
        }
    }
    (leaf_unit, unit_leaf)
}

/// Each node's units, `start..end`, children before their parents (`bfs` read backwards).
fn unit_spans(children: Children, bfs: &[NodeId], leaf_unit: &[u32]) -> Vec<(u32, u32)> {
    let mut span = vec![(0u32, 0u32); bfs.len()];
    for &id in bfs.iter().rev() {
        let i = id.index();
        span[i] = match (children.of(i).first(), children.of(i).last()) {
            (Some(first), Some(last)) => (span[first.index()].0, span[last.index()].1),
            _ => (leaf_unit[i], leaf_unit[i] + 1),
        };
    }
    span
}

/// Why [`TreeBuilder::build`] refused a tree: what is wrong with its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedTree(pub String);

impl fmt::Display for MalformedTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed tree: {}", self.0)
    }
}

impl std::error::Error for MalformedTree {}

const NONE: u32 = u32::MAX;

/// A static tree over the units of one input. All per-node data lives in vectors indexed by
/// node id.
#[derive(Clone)]
pub struct Tree {
    kinds: Vec<NodeKind>,
    /// Labels by node id, up to the last non-empty one (see [`Tree::label`]).
    labels: Vec<Box<str>>,
    child_start: Vec<u32>,
    child_list: Vec<NodeId>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    /// Breadth-first order from the root: every parent before its children.
    bfs: Vec<NodeId>,
    level_start: Vec<u32>,
    by_level: Vec<NodeId>,
    max_depth: usize,
    root: NodeId,
    leaf_unit: Vec<u32>,
    unit_leaf: Vec<NodeId>,
    /// The half-open range of units under each node.
    span: Vec<(u32, u32)>,
    rules: Vec<RuleInfo>,
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("nodes", &self.len())
            .field("units", &self.unit_count())
            .field("max_depth", &self.max_depth)
            .finish()
    }
}

impl Tree {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether the tree has no node.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Number of leaves, which is the number of units.
    pub fn unit_count(&self) -> usize {
        self.unit_leaf.len()
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// A node's kind.
    pub fn kind(&self, id: NodeId) -> NodeKind {
        self.kinds[id.index()]
    }

    /// A node's label (empty for inferred trees).
    pub fn label(&self, id: NodeId) -> &str {
        self.labels.get(id.index()).map_or("", |l| l)
    }

    /// The name a rule was declared with (`None` for tokens and lists).
    pub fn rule_name(&self, kind: NodeKind) -> Option<&str> {
        match kind {
            NodeKind::Rule(RuleId(r)) => Some(&self.rules[r as usize].name),
            _ => None,
        }
    }

    /// Whether a node of this kind may stand where a list element stood (a statement rule).
    pub fn fills_list_slot(&self, kind: NodeKind) -> bool {
        match kind {
            NodeKind::Rule(RuleId(r)) => self.rules[r as usize].statement,
            _ => false,
        }
    }

    /// A node's children, in order.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        let i = id.index();
        &self.child_list[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// Whether the node is a token.
    pub fn is_leaf(&self, id: NodeId) -> bool {
        self.kinds[id.index()] == NodeKind::Token
    }

    /// A node's parent (`None` for the root).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.parent[id.index()];
        (p != NONE).then_some(NodeId(p))
    }

    /// Distance from the root (the root is at level 0).
    pub fn depth(&self, id: NodeId) -> usize {
        self.depth[id.index()] as usize
    }

    /// The depth of the deepest node.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Every node, parents before children (breadth first, children in order).
    pub fn breadth_first(&self) -> &[NodeId] {
        &self.bfs
    }

    /// The nodes at `level`, in breadth-first order.
    pub fn level(&self, level: usize) -> &[NodeId] {
        if level > self.max_depth {
            return &[];
        }
        &self.by_level[self.level_start[level] as usize..self.level_start[level + 1] as usize]
    }

    /// The unit of a leaf.
    pub fn unit_of(&self, leaf: NodeId) -> Option<u32> {
        let u = self.leaf_unit[leaf.index()];
        (u != NONE).then_some(u)
    }

    /// The leaf of a unit.
    pub fn leaf_of(&self, unit: u32) -> NodeId {
        self.unit_leaf[unit as usize]
    }

    /// The half-open range of units under `id`.
    pub fn span(&self, id: NodeId) -> (u32, u32) {
        self.span[id.index()]
    }

    /// Whether `id` may be removed on its own: its parent is a list.
    pub fn deletable(&self, id: NodeId) -> bool {
        self.parent(id)
            .is_some_and(|p| self.kinds[p.index()] == NodeKind::List)
    }

    /// Walks up from `id` to its ancestor at `level` (itself if it is not deeper).
    pub fn ancestor_at(&self, mut id: NodeId, level: usize) -> NodeId {
        while self.depth(id) > level {
            id = self.parent(id).expect("only the root has no parent");
        }
        id
    }

    /// Node space to unit space: the surviving units under `id`.
    pub fn leaves_under(&self, id: NodeId, config: &IdSet) -> IdSet {
        let (lo, hi) = self.span(id);
        clip(config, lo, hi)
    }

    /// The surviving units under any of `nodes` (the delta that drops them all).
    pub fn units_under(&self, nodes: &IdSet, config: &IdSet) -> IdSet {
        let mut spans: Vec<(u32, u32)> = nodes.iter().map(|n| self.span[n as usize]).collect();
        spans.sort_unstable();
        let mut out = IdSet::new();
        let mut covered = 0u32;
        for (lo, hi) in spans {
            // A node nested in one already taken adds nothing.
            let lo = lo.max(covered);
            if lo < hi {
                for &(s, e) in clip(config, lo, hi).runs() {
                    out.push_run(s, e);
                }
                covered = hi;
            }
        }
        out
    }

    /// Whether any unit under `id` survives.
    pub fn present(&self, id: NodeId, config: &IdSet) -> bool {
        let (lo, hi) = self.span(id);
        intersects(config, lo, hi)
    }

    /// Unit space to node space: the deletable nodes at `level` that still hold a surviving
    /// unit, as a set of node ids.
    pub fn alive_level_nodes(&self, level: usize, config: &IdSet) -> IdSet {
        let ids: Vec<u32> = self
            .level(level)
            .iter()
            .copied()
            .filter(|&n| self.deletable(n) && self.present(n, config))
            .map(|n| n.0)
            .collect();
        IdSet::from_unsorted(ids)
    }

    /// The surviving elements (children) of a list node, as a set of node ids.
    pub fn elements(&self, list: NodeId, config: &IdSet) -> IdSet {
        debug_assert_eq!(self.kind(list), NodeKind::List);
        let ids: Vec<u32> = self
            .children(list)
            .iter()
            .copied()
            .filter(|&c| self.present(c, config))
            .map(|c| c.0)
            .collect();
        IdSet::from_unsorted(ids)
    }

    /// Which nodes survive in `config`, computed once for all nodes.
    pub fn liveness(&self, config: &IdSet) -> Liveness {
        let n = self.len();
        let mut surviving = vec![0u32; n];
        for u in config.iter() {
            if let Some(&leaf) = self.unit_leaf.get(u as usize) {
                surviving[leaf.index()] = 1;
            }
        }
        let mut live = vec![false; n];
        // Children before parents: counts add up, and a rule lives iff its mandatory
        // (non-list) children do. A list's liveness comes from its parent, so it waits.
        for &id in self.bfs.iter().rev() {
            let i = id.index();
            match self.kinds[i] {
                NodeKind::Token => live[i] = surviving[i] > 0,
                NodeKind::List => {}
                NodeKind::Rule(_) => {
                    live[i] = self
                        .children(id)
                        .iter()
                        .filter(|c| self.kinds[c.index()] != NodeKind::List)
                        .all(|c| live[c.index()]);
                }
            }
            if let Some(p) = self.parent(id) {
                surviving[p.index()] += surviving[i];
            }
        }
        // Parents before children: a list lives iff its parent does. The seeds never put a
        // list at the root; here a root list (the start symbol) is always live.
        for &id in &self.bfs {
            let i = id.index();
            if self.kinds[i] == NodeKind::List {
                live[i] = self.parent(id).is_none_or(|p| live[p.index()]);
            }
        }
        Liveness { surviving, live }
    }

    /// A readable outline of what survives: a node's label, then its present children in
    /// braces separated by `; `. Meant for hand-built trees whose inner nodes carry labels.
    pub fn outline(&self, config: &IdSet) -> String {
        let mut out = String::new();
        if self.present(self.root, config) {
            self.outline_into(self.root, config, &mut out);
        }
        out
    }

    fn outline_into(&self, id: NodeId, config: &IdSet, out: &mut String) {
        out.push_str(self.label(id));
        let kids: Vec<NodeId> = self
            .children(id)
            .iter()
            .copied()
            .filter(|&c| self.present(c, config))
            .collect();
        if kids.is_empty() {
            return;
        }
        out.push_str(" { ");
        for (i, &c) in kids.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            self.outline_into(c, config, out);
        }
        out.push_str(" }");
    }
}

/// Survival of every node under one configuration (see [`Tree::liveness`]).
#[derive(Clone, Debug)]
pub struct Liveness {
    surviving: Vec<u32>,
    live: Vec<bool>,
}

impl Liveness {
    /// How many units under `id` survive.
    pub fn surviving(&self, id: NodeId) -> u32 {
        self.surviving[id.index()]
    }

    /// Whether any unit under `id` survives.
    pub fn present(&self, id: NodeId) -> bool {
        self.surviving[id.index()] > 0
    }

    /// Whether `id` still stands in the grammar: a token survives; a rule's mandatory
    /// children are all live; a list's parent is live.
    pub fn live(&self, id: NodeId) -> bool {
        self.live[id.index()]
    }
}

/// The ids of `set` in `lo..hi`.
pub(crate) fn clip(set: &IdSet, lo: u32, hi: u32) -> IdSet {
    let runs = set.runs();
    let mut out = IdSet::new();
    let start = runs.partition_point(|&(_, e)| e <= lo);
    for &(s, e) in &runs[start..] {
        if s >= hi {
            break;
        }
        out.push_run(s.max(lo), e.min(hi));
    }
    out
}

fn intersects(set: &IdSet, lo: u32, hi: u32) -> bool {
    let runs = set.runs();
    let i = runs.partition_point(|&(_, e)| e <= lo);
    runs.get(i).is_some_and(|&(s, _)| s < hi)
}
