//! The complement-only ddmin of the bisection example: remove one chunk at a time, keep the granularity.
//!
//! At granularity `n` the configuration is cut into chunks of `floor(len / n)` ids and each
//! chunk's removal is tried in order. A success lowers `n` by one (at least 2) instead of
//! restarting; a round without success doubles `n` (capped at the size), and the search stops
//! when single ids have been tried. Cheaper than [`super::DDMin`] on inputs with few needed
//! units, because it never re-splits from `n = 2`, and still 1-minimal at the end.

use super::{Policy, Proposals};
use crate::idset::IdSet;
use crate::idset::RankIndex;

/// ddmin that tests complements only and carries its granularity across rounds.
#[derive(Clone, Debug)]
pub struct ComplementDDMin {
    n: usize,
    last_len: usize,
}

impl Default for ComplementDDMin {
    fn default() -> Self {
        ComplementDDMin { n: 2, last_len: 0 }
    }
}

impl Policy for ComplementDDMin {
    fn name(&self) -> String {
        "ddmin-complement".into()
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        let len = config.len();
        self.last_len = len;
        if len < 2 {
            return Box::new(std::iter::empty());
        }
        self.n = self.n.min(len);
        let size = len / self.n;
        let ranks = RankIndex::new(config);
        Box::new(
            (0..len)
                .step_by(size)
                .map(move |a| ranks.slice(a, (a + size).min(len))),
        )
    }

    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        match reduced {
            Some(config) => {
                self.n = self.n.saturating_sub(1).max(2);
                config.len() >= 2
            }
            None => {
                if self.n >= self.last_len {
                    return false;
                }
                self.n = (2 * self.n).min(self.last_len);
                true
            }
        }
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
