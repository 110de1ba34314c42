//! DDMin as the seed pages define it: granularity doubling, subsets first, then complements.
//!
//! At granularity `n` (2, 4, 8, ... capped at the configuration's size) the configuration is cut
//! in source order into chunks of `ceil(len / n)` ids. DDMin first tries keeping only each chunk,
//! then removing each chunk, and after any success starts again at `n = 2`. It keeps no state
//! between rounds, so its result is 1-minimal: the last round tried every single-id removal.

use super::{Policy, Proposals};
use crate::idset::IdSet;
use crate::idset::RankIndex;

/// Zeller and Hildebrandt's ddmin in the seeds' stateless form.
#[derive(Clone, Copy, Debug, Default)]
pub struct DDMin;

impl Policy for DDMin {
    fn name(&self) -> String {
        "ddmin".into()
    }

    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        let len = config.len();
        let ranks = RankIndex::new(config);
        let mut n = 2usize;
        let mut chunk = 0usize;
        let mut keep_only = true;
        Box::new(std::iter::from_fn(move || {
            if len == 0 {
                return None;
            }
            loop {
                let size = len.div_ceil(n);
                let chunks = len.div_ceil(size);
                if chunk == chunks {
                    if keep_only {
                        keep_only = false;
                    } else {
                        if n >= len {
                            return None;
                        }
                        n = (2 * n).min(len);
                        keep_only = true;
                    }
                    chunk = 0;
                    continue;
                }
                let (a, b) = (chunk * size, ((chunk + 1) * size).min(len));
                chunk += 1;
                let delta = if keep_only {
                    ranks.slice(0, a).union(&ranks.slice(b, len))
                } else {
                    ranks.slice(a, b)
                };
                if !delta.is_empty() {
                    return Some(delta);
                }
            }
        }))
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(*self)
    }
}
