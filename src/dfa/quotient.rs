//! The quotient automaton of a consistent colouring, as a petgraph graph, and its shortest word.
//!
//! Main type: [`Quotient`]: states are colours, an edge `c(i) -> c(i+1)` is labelled with the
//! symbol of unit `i`, the start is `c(0)` and the only accepting state is `c(n)`. The word
//! itself is a path from start to accept, so the automaton accepts it; its shortest accepted
//! string (by bytes) has fewer units than there are states, hence fewer than the word whenever
//! some colour is shared. petgraph stays inside this module.

use super::colouring::Colouring;
use super::word::Word;
use petgraph::algo::astar;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;

/// A deterministic automaton over symbols built from a colouring of a word.
pub(crate) struct Quotient {
    graph: DiGraph<(), u32>,
    start: NodeIndex,
    accept: NodeIndex,
    next: HashMap<(u32, u32), u32>,
}

impl Quotient {
    /// The quotient of `word` by `colouring`, which must be consistent with it.
    pub(crate) fn new(word: &Word, colouring: &Colouring) -> Quotient {
        let mut graph = DiGraph::with_capacity(colouring.colours(), word.len());
        for _ in 0..colouring.colours() {
            graph.add_node(());
        }
        let mut next = HashMap::new();
        for i in 0..word.len() {
            let (from, to) = (colouring.colour(i), colouring.colour(i + 1));
            let previous = next.insert((from, word.symbol(i)), to);
            debug_assert!(
                previous.is_none_or(|p| p == to),
                "the colouring is inconsistent"
            );
            if previous.is_none() {
                graph.add_edge(
                    NodeIndex::new(from as usize),
                    NodeIndex::new(to as usize),
                    word.symbol(i),
                );
            }
        }
        Quotient {
            graph,
            start: NodeIndex::new(colouring.colour(0) as usize),
            accept: NodeIndex::new(colouring.colour(word.len()) as usize),
            next,
        }
    }

    /// Runs the automaton; a missing transition rejects.
    pub(crate) fn accepts<'a>(&self, symbols: impl IntoIterator<Item = &'a u32>) -> bool {
        let mut state = self.start.index() as u32;
        for &s in symbols {
            match self.next.get(&(state, s)) {
                Some(&to) => state = to,
                None => return false,
            }
        }
        state == self.accept.index() as u32
    }

    /// The accepted string with the fewest bytes (ties broken by the lowest symbol id on each
    /// edge, so the answer is reproducible).
    pub(crate) fn shortest_accepted(&self, word: &Word) -> Vec<u32> {
        let weight = |s: u32| word.spelling(s).len();
        let (_, path) = astar(
            &self.graph,
            self.start,
            |n| n == self.accept,
            |e| weight(*e.weight()),
            |_| 0,
        )
        .expect("the word itself is an accepted path");
        path.windows(2)
            .map(|hop| {
                self.graph
                    .edges_connecting(hop[0], hop[1])
                    .map(|e| *e.weight())
                    .min_by_key(|&s| (weight(s), s))
                    .expect("consecutive path nodes are joined by an edge")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_is_cut_out_of_the_shortest_word() {
        // "xababy": putting 1, 3 and 5 together makes "ab" a loop; the shortest word skips it.
        let w = Word::from_symbols(b"xababy");
        let c = Colouring::from_colours(&[0, 1, 2, 1, 2, 1, 3]);
        assert_eq!(c.transition_conflict(&w), None);
        let q = Quotient::new(&w, &c);
        assert!(q.accepts(w.symbols()));
        let short = q.shortest_accepted(&w);
        assert_eq!(w.spell(&short), b"xy");
        assert!(q.accepts(&short));
    }
}
