//! Passes over a flat cut of the input: a [`Policy`] deleting units of one granularity.
//!
//! Main type: [`UnitPass`] (a granularity and a policy factory).
//!
//! ```
//! use myhill::{DDMin, Driver, EvalOptions, FnOracle, Granularity, Pass, Policy, UnitPass};
//! use std::sync::Arc;
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"z\n"));
//! let mut driver = Driver::new(b"x\ny\nz\n".to_vec(), &oracle, EvalOptions::default());
//! let mut pass = UnitPass::new(Granularity::Lines, Arc::new(|| Box::new(DDMin) as Box<dyn Policy>));
//! pass.run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"z\n");
//! assert_eq!(pass.name(), "ddmin/lines");
//! ```
//!
//! With batches ([`crate::ReduceOptions::batch`]), splitting is done by partition instead, whose
//! candidates do not depend on one another's verdicts: the units are cut into as many equal
//! chunks as a batch holds, every chunk's deletion is tested in one batch and the successes
//! merged ([`sweep`]); then the chunks are cut again from what is left, halved after a level
//! that removed nothing, down to single units. Binary splitting is sequential by nature: each
//! group it tries depends on the verdict of the last.
//!
//! Limits: the cut is taken afresh each time the pass runs; what the policy learned is dropped.

use crate::driver::Driver;
use crate::policy::PolicyFactory;
use crate::report::Stop;
use crate::schedule::Pass;
use crate::units::{Granularity, Units};

/// Splitting in batches: levels of equal chunks of the units, every chunk's deletion tested
/// in one batch. The first success is accepted; the merge of all of them is not tested on its
/// own but taken as the base of the next level, whose batch tests it first (one wave less
/// per level when it holds; when it fails, that batch is dropped and the level starts again
/// from the accepted best). Chunks shrink with what is left and halve after a level that
/// removed nothing, until single units remove nothing.
fn partition(driver: &mut Driver, granularity: Granularity) -> Result<(), Stop> {
    let batch = driver.batch().max(2);
    let mut largest = usize::MAX;
    // The merge of the last level's successes, not yet tested.
    let mut pending: Option<Vec<u8>> = None;
    'level: loop {
        let base = pending
            .clone()
            .map(std::sync::Arc::new)
            .unwrap_or_else(|| driver.best_shared());
        let slots = batch - usize::from(pending.is_some());
        let (size, chunks) = chunks(&base, granularity, slots, largest);
        let without = |(s, e): (usize, usize)| [&base[..s], &base[e..]].concat();
        let mut wins: Vec<(usize, usize)> = Vec::new();
        let mut first = true;
        let mut rest = &chunks[..];
        loop {
            let mut candidates: Vec<Vec<u8>> = Vec::new();
            let checks_pending = first && pending.is_some();
            if checks_pending {
                candidates.push(base.to_vec());
            }
            let take = rest.len().min(batch - candidates.len());
            let group = &rest[..take];
            rest = &rest[take..];
            candidates.extend(group.iter().map(|&c| without(c)));
            if candidates.is_empty() {
                break;
            }
            let verdicts = driver.test_batch(&candidates)?;
            if checks_pending {
                pending = None;
                if !verdicts[0] {
                    // The merge did not hold: what this batch learned stands on it.
                    driver.count("partition_merges_failed", 1);
                    continue 'level;
                }
                if crate::driver::shortlex_less(&base, driver.best()) {
                    driver.accept_tested(base.to_vec());
                }
            }
            let offset = usize::from(checks_pending);
            wins.extend(
                group
                    .iter()
                    .zip(&verdicts[offset..])
                    .filter(|(_, ok)| **ok)
                    .map(|(c, _)| *c),
            );
            first = false;
            if rest.is_empty() {
                break;
            }
        }
        let Some(&win) = wins.first() else {
            if size == 1 {
                return Ok(());
            }
            largest = size / 2;
            continue;
        };
        largest = size;
        // The first success was tested on the base, which is now the best.
        driver.accept_tested(without(win));
        if wins.len() > 1 {
            let mut merged = Vec::with_capacity(base.len());
            let mut from = 0;
            for &(s, e) in &wins {
                merged.extend_from_slice(&base[from..s]);
                from = e;
            }
            merged.extend_from_slice(&base[from..]);
            pending = Some(merged);
        }
    }
}

/// The chunks of one partition level of `base`: as many equal runs of units as `slots`, each at
/// most `largest` units; returns their size in units and their byte ranges.
fn chunks(
    base: &std::sync::Arc<Vec<u8>>,
    granularity: Granularity,
    slots: usize,
    largest: usize,
) -> (usize, Vec<(usize, usize)>) {
    let units = Units::cut_shared(base.clone(), granularity);
    let n = units.len();
    let size = n.div_ceil(slots).min(largest).max(1);
    let at = |i: usize| units.offset(i.min(n) as u32);
    let ranges = (0..n)
        .step_by(size)
        .map(|i| (at(i), at(i + size)))
        .collect();
    (size, ranges)
}

/// A policy over the current best cut at one granularity.
pub struct UnitPass {
    granularity: Granularity,
    policy_name: String,
    make: PolicyFactory,
}

impl UnitPass {
    /// The pass running `make()`'s policy over units of `granularity`.
    pub fn new(granularity: Granularity, make: PolicyFactory) -> UnitPass {
        let policy_name = make().name();
        UnitPass {
            granularity,
            policy_name,
            make,
        }
    }
}

impl Pass for UnitPass {
    fn name(&self) -> String {
        format!("{}/{}", self.policy_name, self.granularity)
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        if driver.batch() > 1 && self.policy_name == "split" {
            return partition(driver, self.granularity);
        }
        let units = Units::cut_shared(driver.best_shared(), self.granularity);
        let mut policy = (self.make)();
        driver.run_policy(&units, &mut policy).map(drop)
    }

    /// Partition's first batch: every chunk of the first level deleted.
    fn preview(&self, best: &[u8], batch: usize) -> Vec<Vec<u8>> {
        if batch <= 1 || self.policy_name != "split" {
            return Vec::new();
        }
        let base = std::sync::Arc::new(best.to_vec());
        let (_, ranges) = chunks(&base, self.granularity, batch.max(2), usize::MAX);
        ranges
            .into_iter()
            .take(batch.max(2))
            .map(|(s, e)| [&best[..s], &best[e..]].concat())
            .collect()
    }
}
