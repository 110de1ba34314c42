//! Binary splitting as a pass: sequential binary splitting, or, when the run batches, partition.
//!
//! Main type: [`Partition`] (a granularity). Without batches it runs [`BinarySplit`] over the
//! units, whose every group depends on the verdict of the last. With batches
//! ([`crate::ReduceOptions::batch`]) it partitions instead, whose candidates do not depend on
//! one another's verdicts: the units are cut into as many equal chunks as a batch holds, every
//! chunk's deletion is tested in one batch and the successes merged; then the chunks are cut
//! again from what is left, halved after a level that removed nothing, down to single units.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Partition, Pass}, text::Granularity};
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"z\n"));
//! let options = EvalOptions { batch: 4, ..EvalOptions::default() };
//! let mut cx = Cx::new(b"w\nx\ny\nz\n".to_vec(), &oracle, options);
//! let mut pass = Partition::new(Granularity::Lines);
//! pass.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"z\n");
//! assert_eq!(pass.name(), "split/lines");
//! ```
//!
//! [`Partition::words`] splits over lexemes that carry the spaces after them: on statement
//! code a run of spaces is never a unit of its own (a line break is), because the spacing pass
//! ([`crate::passes::SqueezeSpaces`]) deletes every space that can go in one test, and a space it keeps
//! (`int x`) keeps two words apart; the token units spent a test on each.
//!
//! Limits: the cut is taken afresh each time the pass runs; a merge of successes that fails
//! costs the batch that tested it. Over words, a run of spaces goes only with the lexeme
//! before it.

use crate::cx::{Cx, Judge};
use crate::driver::Witness;
use crate::idset::IdSet;
use crate::kind::Kind;
use crate::lex::{Class, lexemes};
use crate::passes::patch::without_ranges;
use crate::policy::{BinarySplit, Policy};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;
use crate::units::{Granularity, Units};

/// Splitting in batches: levels of equal chunks of the units, every chunk's deletion tested
/// in one batch. The first success is accepted; the merge of all of them is not tested on its
/// own but taken as the base of the next level, whose batch tests it first (one wave less
/// per level when it holds; when it fails, that batch is dropped and the level starts again
/// from the accepted best). Chunks shrink with what is left and halve after a level that
/// removed nothing, until single units remove nothing.
fn partition(cx: &mut Cx, granularity: Cut) -> Result<(), Stop> {
    let batch = cx.batch().max(2);
    let mut largest = usize::MAX;
    // The merge of the last level's successes, not yet tested.
    let mut pending: Option<Vec<u8>> = None;
    'level: loop {
        let base = pending
            .clone()
            .map(std::sync::Arc::new)
            .unwrap_or_else(|| cx.best_shared());
        let slots = batch - usize::from(pending.is_some());
        let (size, chunks) = chunks(&base, granularity, slots, largest);
        let without = |(s, e): (usize, usize)| [&base[..s], &base[e..]].concat();
        // The chunks whose deletion from the base was interesting, with the driver's witness.
        let mut wins: Vec<((usize, usize), Witness)> = Vec::new();
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
            let mut verdicts = cx.test_batch(&candidates)?;
            if checks_pending {
                pending = None;
                let Some(merged) = verdicts[0].take() else {
                    // The merge did not hold: what this batch learned stands on it.
                    cx.count(Counter::PartitionMergesFailed, 1);
                    continue 'level;
                };
                cx.accept(merged);
            }
            let offset = usize::from(checks_pending);
            wins.extend(
                group
                    .iter()
                    .zip(verdicts.drain(offset..))
                    .filter_map(|(c, witness)| Some((*c, witness?))),
            );
            first = false;
            if rest.is_empty() {
                break;
            }
        }
        if wins.is_empty() {
            if size == 1 {
                return Ok(());
            }
            largest = size / 2;
            continue;
        }
        largest = size;
        let ranges: Vec<(usize, usize)> = wins.iter().map(|(c, _)| *c).collect();
        // The first success was tested on the base, which is now the best.
        let (_, first) = wins.swap_remove(0);
        cx.accept(first);
        if ranges.len() > 1 {
            pending = Some(without_ranges(&base, &ranges));
        }
    }
}

/// The chunks of one partition level of `base`: as many equal runs of units as `slots`, each at
/// most `largest` units; returns their size in units and their byte ranges.
fn chunks(
    base: &std::sync::Arc<Vec<u8>>,
    granularity: Cut,
    slots: usize,
    largest: usize,
) -> (usize, Vec<(usize, usize)>) {
    let units = granularity.cut(base.clone());
    let n = units.len();
    let size = n.div_ceil(slots).min(largest).max(1);
    let at = |i: usize| units.offset(i.min(n) as u32);
    let ranges = (0..n)
        .step_by(size)
        .map(|i| (at(i), at(i + size)))
        .collect();
    (size, ranges)
}

/// Bytes on each side of a unit that make the context its needed verdict is remembered in.
const CONTEXT_BYTES: usize = crate::passes::patch::CONTEXT_BYTES;

/// The key of deleting `start..end` alone from `best`: the bytes deleted and
/// [`CONTEXT_BYTES`] on each side. Computed from the range, not from the candidate, so that
/// every unit of a cut gets its key in O(1) before anything is tested.
fn unit_key(best: &[u8], start: usize, end: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    best[start.saturating_sub(CONTEXT_BYTES)..start].hash(&mut h);
    best[start..end].hash(&mut h);
    best[end..(end + CONTEXT_BYTES).min(best.len())].hash(&mut h);
    h.finish()
}

/// The byte range of each kept unit of `units` in `units.render(kept)`, by unit id.
fn kept_ranges(units: &Units, kept: &IdSet) -> Vec<Option<(usize, usize)>> {
    let mut ranges = vec![None; units.len()];
    let mut at = 0;
    for i in kept.iter() {
        let len = units.unit(i).len();
        ranges[i as usize] = Some((at, at + len));
        at += len;
    }
    ranges
}

/// Binary splitting over `units` (a cut of the best) as a sweep: it remembers, under the
/// pass's name, every unit whose deletion alone failed, keyed by the unit and the bytes
/// around it, and follows the driver's [`crate::passes::SweepMode`]: with `remember`, a unit whose
/// key is remembered is taken as needed without a test; with `patience`, the pass stops after
/// that many tests in a row without a success; with a [`Cx::yield_floor`], it hands its
/// tests over to the other passes once its last [`YIELD_WINDOW`] tests removed less than that
/// per test. A pass stopped early remembers the units it found needed too, so its next run
/// goes on where this one stopped. At a density where nearly every unit is needed (words of
/// statement code late in a reduction) splitting tests one unit a time, so a later run would
/// test again every unit the earlier one found needed, though only a few places changed since.
fn split_remembering(cx: &mut Cx, units: &Units) -> Result<(), Stop> {
    let (mut driver, sweeps) = cx.split();
    let result = split_with(&mut driver, units, sweeps);
    let name = driver.ledger.current_name();
    sweeps.swept(&name);
    match result? {
        SplitEnd::Done => {}
        SplitEnd::OutOfPatience => {
            driver.count(Counter::SweepPatienceStops, 1);
            sweeps.note_cut_short();
        }
        SplitEnd::HandedOver => {
            driver.count(Counter::SplitHandOvers, 1);
            sweeps.note_cut_short();
        }
    }
    Ok(())
}

/// Tests over which the word split measures its recent yield against the
/// [`Cx::yield_floor`]: the sweeps' patience, so that a split finding nothing stops after
/// as many tests whichever rule stops it.
pub const YIELD_WINDOW: usize = crate::schedule::SWEEP_PATIENCE;

/// How [`split_with`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitEnd {
    /// Every unit left is needed.
    Done,
    /// Patience ran out.
    OutOfPatience,
    /// Its recent yield fell below the floor.
    HandedOver,
}

/// [`split_remembering`]'s loop.
fn split_with(
    driver: &mut Judge,
    units: &Units,
    sweeps: &mut crate::sweeps::Sweeps,
) -> Result<SplitEnd, Stop> {
    let (mode, floor) = (sweeps.mode, sweeps.yield_floor);
    let failed = &mut sweeps.failures;
    let renames = &sweeps.renames;
    let n = units.len() as u32;
    // Keys are taken on the input as the memory reads it, with the old names of renamed
    // identifiers (see `Renames`).
    let key_in = |best: &[u8], ranges: &mut dyn Iterator<Item = (usize, usize)>| -> Vec<u64> {
        if renames.is_empty() {
            return ranges.map(|(s, e)| unit_key(best, s, e)).collect();
        }
        let (form, at) = renames.form_with_offsets(best);
        ranges.map(|(s, e)| unit_key(&form, at[s], at[e])).collect()
    };
    let known: Vec<u32> = if mode.remember {
        let keys = key_in(
            units.data(),
            &mut (0..n).map(|i| (units.offset(i), units.offset(i + 1))),
        );
        (0..n)
            .filter(|&i| failed.contains(&keys[i as usize]))
            .collect()
    } else {
        Vec::new()
    };
    driver.count(Counter::SweepRemembered, known.len() as u64);
    let mut policy = BinarySplit::knowing(IdSet::from_sorted(&known));
    let patience = mode.patience.unwrap_or(usize::MAX);
    let meter = driver.meter();
    let mut config = IdSet::range(0, n);
    // Tests so far in sequential order, and (test, bytes removed) of each success.
    let mut tests = 0usize;
    let mut wins: Vec<(usize, usize)> = Vec::new();
    loop {
        let best = driver.best_shared();
        let ranges = kept_ranges(units, &config);
        let snapshot = (driver.jobs() > 1).then(|| policy.clone());
        let mut pulled: Vec<IdSet> = Vec::new();
        let mut ended = SplitEnd::Done;
        let winner = {
            let mut proposals = policy.propose(&config);
            let config = &config;
            let wins = &wins;
            let mut next = || {
                if pulled.len() >= patience {
                    ended = SplitEnd::OutOfPatience;
                    return None;
                }
                // Judged as if every candidate pulled so far failed: a success ends the
                // pull, so the stop falls where it would with one job.
                if let Some(floor) = floor
                    && below_floor(wins, tests + pulled.len(), floor)
                {
                    ended = SplitEnd::HandedOver;
                    return None;
                }
                let delta = proposals.next()?;
                meter.set(u64::from(delta.first().unwrap_or(0)), u64::from(n));
                pulled.push(delta.clone());
                let candidate = config.difference(&delta);
                Some((units.render(&candidate), (pulled.len(), candidate)))
            };
            driver.try_candidates(&mut next)?
        };
        // Every delta pulled before the winner failed (all of them, without one).
        let failures = winner.as_ref().map_or(pulled.len(), |(k, _)| k - 1);
        let singles = pulled[..failures]
            .iter()
            .filter(|d| d.len() == 1)
            .map(|delta| ranges[delta.first().expect("one unit") as usize].expect("a kept unit"));
        failed.extend(key_in(&best, &mut singles.into_iter()));
        match winner {
            Some((k, candidate)) => {
                if let Some(snapshot) = snapshot
                    && pulled.len() > k
                {
                    // Speculation pulled past the winner: replay the sequential history.
                    policy = snapshot;
                    policy.propose(&config).take(k).for_each(drop);
                }
                tests += k;
                wins.push((tests, best.len() - driver.best().len()));
                config = candidate;
                if !policy.on_reduced(Some(&config)) {
                    return Ok(SplitEnd::Done);
                }
            }
            None => {
                // Splitting ended: every unit left is needed in the best as it is; stopped
                // early, the units found needed so far are, and the next run skips them.
                let ranges = kept_ranges(units, &config);
                let needed: Vec<(usize, usize)> = match ended {
                    SplitEnd::Done => ranges.into_iter().flatten().collect(),
                    _ => policy
                        .needed()
                        .iter()
                        .filter_map(|i| ranges[i as usize])
                        .collect(),
                };
                failed.extend(key_in(driver.best(), &mut needed.into_iter()));
                return Ok(ended);
            }
        }
    }
}

/// Whether the successes `wins` ((test, bytes removed), in order) removed less than `floor`
/// bytes per test over the last [`YIELD_WINDOW`] of `tests` tests; never before that many.
fn below_floor(wins: &[(usize, usize)], tests: usize, floor: f64) -> bool {
    if tests < YIELD_WINDOW {
        return false;
    }
    let since = tests - YIELD_WINDOW;
    let recent: usize = wins
        .iter()
        .rev()
        .take_while(|&&(at, _)| at > since)
        .map(|&(_, bytes)| bytes)
        .sum();
    (recent as f64) < floor * YIELD_WINDOW as f64
}

/// What the pass splits over: units of a granularity, or words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    Units(Granularity),
    /// Lexemes, each with the whitespace that follows it.
    Words,
}

impl Cut {
    fn cut(self, input: std::sync::Arc<Vec<u8>>) -> Units {
        match self {
            Cut::Units(g) => Units::cut_shared(input, g),
            Cut::Words => {
                let bounds = word_bounds(&input);
                Units::tiling(input, bounds)
            }
        }
    }
}

/// The bounds of `input`'s words: a lexeme and the spaces after it are one unit; whitespace
/// that holds a newline is a unit of its own, so that joining two lines stays one deletion
/// (whitespace at the very start is a unit of its own too).
fn word_bounds(input: &[u8]) -> Vec<u32> {
    let mut bounds = vec![0u32];
    let starts_unit =
        |l: &crate::lex::Lexeme| l.class != Class::Space || input[l.start..l.end].contains(&b'\n');
    bounds.extend(
        lexemes(input)
            .filter(|l| l.start > 0 && starts_unit(l))
            .map(|l| l.start as u32),
    );
    if !input.is_empty() {
        bounds.push(input.len() as u32);
    }
    bounds
}

/// Binary splitting over one granularity, by partition when the run batches.
pub struct Partition {
    granularity: Cut,
    /// Whether the split keeps a failure memory and hands over (see [`Partition::remembering`]).
    remembering: bool,
}

impl Partition {
    /// Splitting over units of `granularity`.
    pub fn new(granularity: Granularity) -> Partition {
        Partition {
            granularity: Cut::Units(granularity),
            remembering: false,
        }
    }

    /// The same split as a sweep of the default schedule: it remembers the units it found
    /// needed, follows the round's patience, and hands its tests over when its recent yield
    /// falls below what the other passes are expected to pay (see `split_remembering`). The
    /// word split always is one; the strategies that study binary splitting alone keep the
    /// plain one.
    pub fn remembering(mut self) -> Partition {
        self.remembering = true;
        self
    }

    /// Splitting over words: lexemes, each with the whitespace after it, so that no test
    /// deletes whitespace alone (`split/words`).
    pub fn words() -> Partition {
        Partition {
            granularity: Cut::Words,
            remembering: true,
        }
    }
}

impl Pass for Partition {
    fn name(&self) -> String {
        let units = match self.granularity {
            Cut::Units(g) => g.name(),
            Cut::Words => "words",
        };
        format!("{}/{units}", BinarySplit::default().name())
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        if cx.batch() > 1 {
            return partition(cx, self.granularity);
        }
        let units = self.granularity.cut(cx.best_shared());
        if self.remembering {
            return split_remembering(cx, &units);
        }
        let mut policy: Box<dyn Policy> = Box::new(BinarySplit::default());
        cx.run_policy(&units, &mut policy).map(drop)
    }

    /// Partition's first batch: every chunk of the first level deleted.
    fn preview(&self, best: &[u8], _kind: Kind, batch: usize) -> Vec<Vec<u8>> {
        if batch <= 1 {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(input: &[u8]) -> Vec<&[u8]> {
        let bounds = word_bounds(input);
        bounds
            .windows(2)
            .map(|w| &input[w[0] as usize..w[1] as usize])
            .collect()
    }

    #[test]
    fn a_word_carries_the_whitespace_after_it() {
        let want: Vec<&[u8]> = vec![b"int  ", b"x ", b"= ", b"f", b"(", b"a", b")", b";", b"\n"];
        assert_eq!(words(b"int  x = f(a);\n"), want);
        let want: Vec<&[u8]> = vec![b"\n ", b"y", b"; ", b"\"a b\"", b" \n", b"z"];
        assert_eq!(words(b"\n y; \"a b\" \nz"), want);
        assert!(words(b"").is_empty());
        assert_eq!(words(b"  "), vec![b"  "]);
    }

    #[test]
    fn splitting_over_words_never_tests_whitespace_alone() {
        use crate::{FnOracle, eval::EvalOptions};
        let tested = std::sync::Mutex::new(Vec::new());
        let oracle = FnOracle::new(|c: &[u8]| {
            tested.lock().unwrap().push(c.to_vec());
            c.windows(4).any(|w| w == b"f(a)")
        });
        let input = b"int x = f(a);\nint y;\n".to_vec();
        let mut cx = crate::passes::Cx::new(input.clone(), &oracle, EvalOptions::bare());
        let mut pass = Partition::words();
        pass.run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"f(a)");
        assert_eq!(pass.name(), "split/words");
        drop(cx);
        for candidate in tested.into_inner().unwrap() {
            // Every candidate is the input less whole words: never a word without its space.
            let text = String::from_utf8(candidate).unwrap();
            assert!(!text.contains("intx") && !text.contains("xy"), "{text:?}");
        }
    }
}
