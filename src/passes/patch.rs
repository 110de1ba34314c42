//! Edits of one snapshot, and the sweep that tests them in order, keeping what succeeds.
//!
//! Main items: [`Cut`] (a byte range replaced by some bytes, or a number stored there changed
//! by some amount), [`Patch`] (one candidate: cuts that do not overlap) and [`sweep`]. A pass that knows all its candidates up front (hollow
//! every group, hoist a group, delete a run of siblings) states them as patches of the input
//! as it was when the pass began. The sweep tries them in the pass's order, each together with
//! every patch accepted before it, so the whole list costs at most one test per candidate,
//! however many succeed: after a success the sweep goes on with the next candidate instead of
//! starting over. A candidate whose cuts lie inside a region an accepted patch already
//! replaced costs nothing; one that partly overlaps such a region is skipped. Changes of the
//! same stored number add up, so two deletions inside one length-prefixed record each shorten
//! its length field, and both do.
//!
//! ```ignore
//! // Internal: the passes in this folder use it.
//! let candidates = vec![Patch::delete(0, 2), Patch::delete(3, 4)];
//! sweep(driver, &candidates)?; // tests "cd" (if "abcd"), then the rest with what passed
//! ```
//!
//! Limits: each candidate is rendered in full (O(n) bytes), so a sweep costs O(n) per
//! candidate; patches never insert at a position without replacing something.

use crate::cx::{Cx, Judge};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;

/// A byte range of the snapshot, `start..end`, replaced by `with`, or, when `adjust` is set,
/// holding an unsigned integer to which `adjust` is added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// First byte replaced.
    pub start: usize,
    /// Past the last byte replaced.
    pub end: usize,
    /// What replaces the range (empty: a deletion).
    pub with: Vec<u8>,
    /// Instead of `with`: the range is an integer (big-endian if the flag is set) to change
    /// by the amount.
    pub adjust: Option<(bool, i64)>,
}

impl Cut {
    /// Deleting `start..end`.
    pub fn delete(start: usize, end: usize) -> Cut {
        Cut {
            start,
            end,
            with: Vec::new(),
            adjust: None,
        }
    }

    /// Bytes it leaves in place of its range.
    fn len_after(&self) -> usize {
        match self.adjust {
            Some(_) => self.end - self.start,
            None => self.with.len(),
        }
    }
}

/// The integer stored in `bytes` (at most 8 of them) changed by `delta`, in as many bytes;
/// `None` if it would not fit or go below zero.
pub fn adjusted(bytes: &[u8], big_endian: bool, delta: i64) -> Option<Vec<u8>> {
    let mut value: u64 = 0;
    for k in 0..bytes.len() {
        let b = if big_endian {
            bytes[k]
        } else {
            bytes[bytes.len() - 1 - k]
        };
        value = (value << 8) | b as u64;
    }
    let new = i128::from(value) + i128::from(delta);
    let limit = 1i128 << (8 * bytes.len() as u32);
    if new < 0 || new >= limit {
        return None;
    }
    let mut out: Vec<u8> = (0..bytes.len()).map(|k| (new >> (8 * k)) as u8).collect();
    if big_endian {
        out.reverse();
    }
    Some(out)
}

/// One candidate edit: cuts in order, none overlapping another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    cuts: Vec<Cut>,
}

impl Patch {
    /// Deleting `start..end`.
    pub fn delete(start: usize, end: usize) -> Patch {
        Patch::replace(start, end, Vec::new())
    }

    /// Replacing `start..end` by `with`.
    pub fn replace(start: usize, end: usize, with: Vec<u8>) -> Patch {
        Patch {
            cuts: vec![Cut {
                start,
                end,
                with,
                adjust: None,
            }],
        }
    }

    /// Several cuts at once; `None` if two of them overlap. Empty deletions are dropped.
    pub fn of(mut cuts: Vec<Cut>) -> Option<Patch> {
        cuts.retain(|c| c.start < c.end || !c.with.is_empty());
        cuts.retain(|c| c.adjust.is_none_or(|(_, d)| d != 0));
        cuts.sort_by_key(|c| (c.start, c.end));
        cuts.windows(2)
            .all(|w| w[0].end <= w[1].start)
            .then_some(Patch { cuts })
    }

    /// The cuts, in order.
    pub fn cuts(&self) -> &[Cut] {
        &self.cuts
    }

    /// The snapshot with this patch applied; `None` if a changed number would not fit its
    /// bytes. (The passes render merged cuts; the passes' tests render one patch.)
    #[cfg(test)]
    pub fn apply(&self, snapshot: &[u8]) -> Option<Vec<u8>> {
        render(snapshot, &self.cuts)
    }

    /// How many bytes the patch removes from the snapshot (negative if it adds).
    pub fn removed(&self) -> isize {
        self.cuts
            .iter()
            .map(|c| (c.end - c.start) as isize - c.len_after() as isize)
            .sum()
    }
}

/// What adding a patch to the accepted ones gives.
#[derive(Debug, PartialEq, Eq)]
enum Merge {
    /// Every cut lies inside a region already replaced: nothing would change.
    Subsumed,
    /// A cut partly overlaps an accepted one.
    Conflict,
    /// The combined cuts, in order.
    Merged(Vec<Cut>),
}

/// Adds `patch` to `accepted` (cuts in order, not overlapping). A new cut that covers accepted
/// cuts replaces them (so does one on the same range with other bytes); one inside an accepted
/// cut is dropped, since that region is already replaced; changes of the same stored number
/// add up.
fn merge(accepted: &[Cut], patch: &Patch) -> Merge {
    let mut out: Vec<Cut> = accepted.to_vec();
    let mut changed = false;
    for cut in &patch.cuts {
        let same_range = |a: &Cut| (a.start, a.end) == (cut.start, cut.end);
        if let (Some((big, delta)), Some(a)) = (
            cut.adjust,
            out.iter_mut().find(|a| same_range(a) && a.adjust.is_some()),
        ) {
            let (a_big, a_delta) = a.adjust.expect("found with one");
            if a_big != big {
                return Merge::Conflict;
            }
            a.adjust = Some((big, a_delta + delta));
            changed = true;
            continue;
        }
        let inside = |a: &Cut| a.start <= cut.start && cut.end <= a.end;
        let covers = |a: &Cut| cut.start <= a.start && a.end <= cut.end;
        if out
            .iter()
            .any(|a| a == cut || (inside(a) && !same_range(a) && a.adjust.is_none()))
        {
            continue;
        }
        if out
            .iter()
            .any(|a| a.start < cut.end && cut.start < a.end && !covers(a))
        {
            return Merge::Conflict;
        }
        out.retain(|a| !covers(a));
        out.push(cut.clone());
        changed = true;
    }
    if !changed {
        return Merge::Subsumed;
    }
    out.sort_by_key(|c| (c.start, c.end));
    Merge::Merged(out)
}

/// The snapshot with `cuts` applied; `None` if a changed number would not fit its bytes.
fn render(snapshot: &[u8], cuts: &[Cut]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(snapshot.len());
    let mut at = 0;
    for c in cuts {
        out.extend_from_slice(&snapshot[at..c.start]);
        match c.adjust {
            Some((big, delta)) => out.extend(adjusted(&snapshot[c.start..c.end], big, delta)?),
            None => out.extend_from_slice(&c.with),
        }
        at = c.end;
    }
    out.extend_from_slice(&snapshot[at..]);
    Some(out)
}

/// `patches` without the ones that remove nothing and without repeats, the one that removes
/// the most first (then the one that starts first): the order the structure sweeps test in.
pub fn largest_first(mut patches: Vec<Patch>) -> Vec<Patch> {
    patches.retain(|p| p.removed() > 0);
    patches.sort_by_key(|p| (std::cmp::Reverse(p.removed()), p.cuts()[0].start));
    patches.dedup();
    patches
}

/// A pass that is one sweep: the patches it proposes on the best, tested by [`sweep`].
pub trait SweepPass {
    /// The pass's name.
    const NAME: &'static str;
    /// Its patches of the driver's best, in the order they are tried. A pass that reads the
    /// nesting reads the driver's shared [`crate::tree::Nesting`].
    fn patches(cx: &Cx) -> Vec<Patch>;
}

impl<T: SweepPass> Pass for T {
    fn name(&self) -> String {
        T::NAME.to_string()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let patches = T::patches(cx);
        sweep(cx, &patches).map(drop)
    }
}

/// Bytes on each side of an edit that make its context (see [`context_key`]).
pub const CONTEXT_BYTES: usize = 32;

/// The key of the edit that turns `best` into `candidate` in its context: the bytes that
/// differ, what replaces them, and [`CONTEXT_BYTES`] on each side. Two candidates on two
/// inputs get the same key when they make the same edit with the same bytes around it, so a
/// sweep's failure on one input predicts its failure on a later input that changed elsewhere.
pub fn context_key(best: &[u8], candidate: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let prefix = best
        .iter()
        .zip(candidate)
        .take_while(|(a, b)| a == b)
        .count();
    let room = best.len().min(candidate.len()) - prefix;
    let suffix = best
        .iter()
        .rev()
        .zip(candidate.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let (gone_end, with_end) = (best.len() - suffix, candidate.len() - suffix);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    best[prefix.saturating_sub(CONTEXT_BYTES)..prefix].hash(&mut h);
    best[prefix..gone_end].hash(&mut h);
    candidate[prefix..with_end].hash(&mut h);
    best[gone_end..(gone_end + CONTEXT_BYTES).min(best.len())].hash(&mut h);
    h.finish()
}

/// What the sweeps learned, borrowed from the run's memory for one sweep: the keys of the
/// candidates that failed (in any sweep pass: a sibling run and a token run that delete the
/// same bytes in the same context are one edit), and how many this sweep skipped for having
/// failed before.
struct Memory<'s> {
    sweeps: &'s mut crate::sweeps::Sweeps,
    skipped: u64,
    stale: StaleFailures,
}

/// The failures of one sweep that a later find of the same sweep made stale: those with a
/// boundary within [`CONTEXT_BYTES`] of the find, so that their context changed and a rerun
/// of the pass would test them again. Positions are the snapshot's.
#[derive(Default)]
struct StaleFailures {
    /// Each boundary of a failure not yet stale, with the failures that have it there.
    bounds: std::collections::BTreeMap<usize, Vec<usize>>,
    /// The boundaries of each failure.
    failures: Vec<(usize, usize)>,
    stale: u64,
}

impl StaleFailures {
    fn failed(&mut self, patch: &Patch) {
        let cuts = patch.cuts();
        let (start, end) = (cuts[0].start, cuts[cuts.len() - 1].end);
        let id = self.failures.len();
        self.failures.push((start, end));
        self.bounds.entry(start).or_default().push(id);
        self.bounds.entry(end).or_default().push(id);
    }

    fn found(&mut self, patch: &Patch) {
        let cuts = patch.cuts();
        let from = cuts[0].start.saturating_sub(CONTEXT_BYTES);
        let to = cuts[cuts.len() - 1].end + CONTEXT_BYTES;
        let hit: Vec<usize> = self
            .bounds
            .range(from..=to)
            .flat_map(|(_, ids)| ids.iter().copied())
            .collect();
        for id in hit {
            let (start, end) = self.failures[id];
            let mut gone = false;
            for at in [start, end] {
                if let Some(ids) = self.bounds.get_mut(&at) {
                    let before = ids.len();
                    ids.retain(|&i| i != id);
                    gone |= ids.len() < before;
                    if ids.is_empty() {
                        self.bounds.remove(&at);
                    }
                }
            }
            self.stale += u64::from(gone);
        }
    }
}

impl Memory<'_> {
    /// The key of the edit from `best` (as [`Memory::form`] gave it) to `candidate`.
    fn key(&self, best_form: &[u8], candidate: &[u8]) -> u64 {
        context_key(best_form, &self.sweeps.renames.form(candidate))
    }

    /// `best` as the memory reads it (see [`crate::sweeps::Renames`]).
    fn form<'a>(&self, best: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        self.sweeps.renames.form(best)
    }

    /// Whether a candidate with this key is to be skipped.
    fn skips(&mut self, key: u64) -> bool {
        let skip = self.sweeps.mode.remember && self.sweeps.failures.contains(&key);
        self.skipped += u64::from(skip);
        skip
    }

    /// Remembers that the candidate with this key, `patch`, failed.
    fn failed(&mut self, key: u64, patch: &Patch) {
        self.sweeps.failures.insert(key);
        self.stale.failed(patch);
    }

    /// Counts what the sweep skipped and made stale, and whether patience ended it.
    fn close(self, driver: &mut Judge, stopped_early: bool) {
        driver.count(Counter::SweepRemembered, self.skipped);
        self.sweeps.note_stale_failures(self.stale.stale);
        if stopped_early {
            driver.count(Counter::SweepPatienceStops, 1);
            self.sweeps.note_cut_short();
        }
        let name = driver.ledger.current_name();
        self.sweeps.swept(&name);
    }
}

/// Tests `candidates` (patches of the driver's best as it is now) in order, each with every
/// candidate accepted before it; returns how many were accepted. The order of acceptance, and
/// so the result, is the same for every `--jobs`.
///
/// The driver's [`crate::passes::SweepMode`] says what the sweep may leave out: with `remember`, a
/// candidate that failed before in the same context ([`context_key`]); with `patience`, every
/// candidate after that many tests in a row without a success. Every failure is remembered.
pub fn sweep(cx: &mut Cx, candidates: &[Patch]) -> Result<usize, Stop> {
    let (mut driver, sweeps) = cx.split();
    let mut memory = Memory {
        sweeps,
        skipped: 0,
        stale: StaleFailures::default(),
    };
    let result = if driver.batch() > 1 {
        sweep_batched(&mut driver, candidates, &mut memory)
    } else {
        sweep_one_by_one(&mut driver, candidates, &mut memory)
    };
    let (successes, stopped_early) = match result {
        Ok(r) => r,
        Err(stop) => {
            memory.close(&mut driver, false);
            return Err(stop);
        }
    };
    memory.close(&mut driver, stopped_early);
    Ok(successes)
}

/// [`sweep`] one candidate after another; also says whether patience ended it.
fn sweep_one_by_one(
    driver: &mut Judge,
    candidates: &[Patch],
    memory: &mut Memory<'_>,
) -> Result<(usize, bool), Stop> {
    let snapshot = driver.best_shared();
    let meter = driver.meter();
    let total = candidates.len() as u64;
    let patience = memory.sweeps.mode.patience.unwrap_or(usize::MAX);
    let mut accepted: Vec<Cut> = Vec::new();
    let mut next = 0;
    let mut successes = 0;
    loop {
        let mut k = next;
        let base = &accepted;
        let best = driver.best_shared();
        let best_form = memory.form(&best).into_owned();
        // The keys of what was proposed, in order: all before the winner failed.
        let mut proposed: Vec<(usize, u64)> = Vec::new();
        let mut out_of_patience = false;
        let mut proposals = || {
            while k < candidates.len() {
                let index = k;
                k += 1;
                meter.set(k as u64, total);
                if let Merge::Merged(cuts) = merge(base, &candidates[index])
                    && let Some(bytes) = render(&snapshot, &cuts)
                {
                    let key = memory.key(&best_form, &bytes);
                    if memory.skips(key) {
                        continue;
                    }
                    if proposed.len() >= patience {
                        out_of_patience = true;
                        return None;
                    }
                    proposed.push((index, key));
                    return Some((bytes, (index, cuts)));
                }
            }
            None
        };
        let winner = driver.try_candidates(&mut proposals)?;
        let failed_before = winner.as_ref().map_or(usize::MAX, |(index, _)| *index);
        for &(index, key) in proposed.iter().filter(|&&(index, _)| index < failed_before) {
            memory.failed(key, &candidates[index]);
        }
        match winner {
            Some((index, cuts)) => {
                memory.stale.found(&candidates[index]);
                accepted = cuts;
                next = index + 1;
                successes += 1;
            }
            None => return Ok((successes, out_of_patience)),
        }
    }
}

/// [`sweep`] in batches of [`Cx::batch`] candidates: each batch (every candidate with
/// what was accepted before it) is tested whole, then its successes are merged, in order,
/// as far as they combine, and the merge is tested once. If it holds it is accepted and the
/// sweep goes on after the batch; if not, the batch's first success alone is accepted and the
/// sweep goes on after it (the others are tried again, with it). So a batch costs its size
/// plus one test, and `jobs` tests of a batch run at once without waste.
fn sweep_batched(
    driver: &mut Judge,
    candidates: &[Patch],
    memory: &mut Memory<'_>,
) -> Result<(usize, bool), Stop> {
    let snapshot = driver.best_shared();
    let size = driver.batch();
    let patience = memory.sweeps.mode.patience.unwrap_or(usize::MAX);
    let mut failures_in_a_row = 0;
    let mut accepted: Vec<Cut> = Vec::new();
    let mut next = 0;
    let mut successes = 0;
    loop {
        let best_form = memory.form(driver.best()).into_owned();
        // The batch: the next candidates that still change something and are smaller.
        let mut batch: Vec<(usize, Vec<Cut>)> = Vec::new();
        let mut bytes: Vec<Vec<u8>> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let mut out_of_patience = false;
        let mut k = next;
        while batch.len() < size && k < candidates.len() {
            if let Merge::Merged(cuts) = merge(&accepted, &candidates[k])
                && let Some(b) = render(&snapshot, &cuts)
                && crate::driver::shortlex_less(&b, driver.best())
            {
                let key = memory.key(&best_form, &b);
                if !memory.skips(key) {
                    if failures_in_a_row + batch.len() >= patience {
                        out_of_patience = true;
                        break;
                    }
                    batch.push((k, cuts));
                    bytes.push(b);
                    keys.push(key);
                }
            }
            k += 1;
        }
        if batch.is_empty() {
            return Ok((successes, out_of_patience));
        }
        let mut verdicts = driver.test_batch(&bytes)?;
        let wins: Vec<usize> = (0..batch.len())
            .filter(|&i| verdicts[i].is_some())
            .collect();
        for ((&key, _), (index, _)) in keys
            .iter()
            .zip(&verdicts)
            .zip(&batch)
            .filter(|((_, v), _)| v.is_none())
        {
            memory.failed(key, &candidates[*index]);
        }
        let Some(&first) = wins.first() else {
            failures_in_a_row += batch.len();
            next = k;
            continue;
        };
        failures_in_a_row = 0;
        // Merge the other successes into the first, as far as they combine.
        let mut merged = batch[first].1.clone();
        let mut included = 1;
        for &w in &wins[1..] {
            if let Merge::Merged(cuts) = merge(&merged, &candidates[batch[w].0]) {
                merged = cuts;
                included += 1;
            }
        }
        if included > 1
            && let Some(b) = render(&snapshot, &merged)
            && crate::driver::shortlex_less(&b, &bytes[first])
            && let Some(witness) = driver.test_batch(std::slice::from_ref(&b))?.pop().flatten()
        {
            driver.accept(witness);
            for &w in &wins {
                memory.stale.found(&candidates[batch[w].0]);
            }
            accepted = merged;
            successes += included;
            next = k;
            continue;
        }
        let first_index = batch[first].0;
        driver.accept(verdicts[first].take().expect("a success"));
        memory.stale.found(&candidates[first_index]);
        accepted = batch.swap_remove(first).1;
        successes += 1;
        // With other successes that did not merge, go on right after the first, so they are
        // tried again on top of it; else after the batch (its failures fail on a smaller base
        // too, for a monotone test).
        next = if wins.len() > 1 { first_index + 1 } else { k };
    }
}

/// `bytes` without the byte ranges `ranges` (in order, not overlapping): the candidate of a
/// pass that deletes several stretches at once.
pub(crate) fn without_ranges(bytes: &[u8], ranges: &[(usize, usize)]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for &(start, end) in ranges {
        kept.extend_from_slice(&bytes[from..start]);
        from = end;
    }
    kept.extend_from_slice(&bytes[from..]);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;
    use proptest::prelude::*;

    fn cut(start: usize, end: usize) -> Cut {
        Cut::delete(start, end)
    }

    #[test]
    fn changes_of_one_stored_number_add_up() {
        let adjust = |start, delta| Cut {
            start,
            end: start + 2,
            with: Vec::new(),
            adjust: Some((false, delta)),
        };
        // A little-endian u16 of 300 at 0..2, then 8 bytes of value.
        let snapshot = [44, 1, 1, 2, 3, 4, 5, 6, 7, 8];
        let first = Patch::of(vec![adjust(0, -2), cut(2, 4)]).unwrap();
        let Merge::Merged(one) = merge(&[], &first) else {
            panic!()
        };
        let second = Patch::of(vec![adjust(0, -3), cut(6, 9)]).unwrap();
        let Merge::Merged(both) = merge(&one, &second) else {
            panic!()
        };
        assert_eq!(render(&snapshot, &both).unwrap(), [39, 1, 3, 4, 8]);
        assert_eq!(adjusted(&[0, 1], true, -2), None);
        assert_eq!(adjusted(&[1, 0], true, -2).unwrap(), [0, 254]);
    }

    #[test]
    fn merging_subsumes_covers_and_refuses_overlaps() {
        let accepted = vec![cut(2, 4)];
        assert_eq!(merge(&accepted, &Patch::delete(2, 3)), Merge::Subsumed);
        assert_eq!(merge(&accepted, &Patch::delete(2, 4)), Merge::Subsumed);
        assert_eq!(merge(&accepted, &Patch::delete(3, 6)), Merge::Conflict);
        assert_eq!(
            merge(&accepted, &Patch::delete(1, 5)),
            Merge::Merged(vec![cut(1, 5)])
        );
        assert_eq!(
            merge(&accepted, &Patch::delete(4, 5)),
            Merge::Merged(vec![cut(2, 4), cut(4, 5)])
        );
        assert!(Patch::of(vec![cut(0, 2), cut(1, 3)]).is_none());
    }

    #[test]
    fn a_sweep_keeps_every_success_and_tests_each_candidate_once() {
        // Interesting while the x survives.
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
        let mut cx = Cx::new(b"ab x cd".to_vec(), &oracle, EvalOptions::default());
        let candidates = vec![
            Patch::delete(0, 2),
            Patch::delete(3, 4),
            Patch::delete(1, 2),
            Patch::delete(5, 7),
            Patch::delete(2, 3),
        ];
        assert_eq!(sweep(&mut cx, &candidates).unwrap(), 3);
        assert_eq!(cx.best(), b"x ");
        // Candidate 3 (inside the first success) cost nothing: 4 tests for 5 candidates.
        assert_eq!(cx.report().eval.tests_run, 4);
    }

    #[test]
    fn a_sweep_counts_the_failures_its_later_finds_made_stale() {
        // Interesting while k, m, x and q survive; the rest is dots.
        let oracle = FnOracle::new(|b: &[u8]| b"kmxq".iter().all(|c| b.contains(c)));
        let mut input = vec![b'.'; 120];
        for (at, c) in [(10, b'k'), (25, b'm'), (60, b'x'), (100, b'q')] {
            input[at] = c;
        }
        let candidates = vec![
            Patch::delete(10, 11),
            Patch::delete(100, 101),
            Patch::delete(20, 22),
            Patch::delete(25, 26),
        ];
        let stale = |batch| {
            let options = EvalOptions {
                batch,
                ..EvalOptions::default()
            };
            let mut cx = Cx::new(input.clone(), &oracle, options);
            assert_eq!(sweep(&mut cx, &candidates).unwrap(), 1);
            cx.sweeps.take_stale_failures()
        };
        // The find at 20..22 changed the context of the failure at 10..11, tested before it;
        // not that of the failure at 100, too far, nor of the one at 25, tested after it.
        assert_eq!(stale(1), 1);
        // In batches of two, the failure at 25 was tested beside the find, without it.
        assert_eq!(stale(2), 2);
    }

    #[test]
    fn a_sweep_reports_its_progress_through_every_candidate() {
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
        let mut cx = Cx::new(b"ab x cd".to_vec(), &oracle, EvalOptions::default());
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let sink = seen.clone();
        cx.evaluator().set_sink(move |e| {
            if let crate::report::Event::Progress { done, total } = e {
                sink.borrow_mut().push((*done, *total));
            }
        });
        let candidates = vec![
            Patch::delete(0, 2),
            Patch::delete(3, 4),
            Patch::delete(5, 7),
        ];
        sweep(&mut cx, &candidates).unwrap();
        assert_eq!(*seen.borrow(), vec![(1, 3), (2, 3), (3, 3)]);
    }

    proptest! {
        #[test]
        fn a_sweep_never_grows_the_input_and_ends_interesting(
            input in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'x'), Just(b' ')], 1..40),
            spans in proptest::collection::vec((0usize..40, 1usize..6), 0..20),
        ) {
            let mut it = input.iter();
            let needs_x = it.any(|&b| b == b'x');
            let oracle = FnOracle::new(|b: &[u8]| !needs_x || b.contains(&b'x'));
            let mut cx = Cx::new(input.clone(), &oracle, EvalOptions::default());
            let n = input.len();
            let candidates: Vec<Patch> = spans
                .iter()
                .map(|&(s, w)| Patch::delete(s.min(n), (s + w).min(n)))
                .collect();
            sweep(&mut cx, &candidates).unwrap();
            prop_assert!(cx.best().len() <= n);
            prop_assert!(!needs_x || cx.best().contains(&b'x'));
        }
    }
}
