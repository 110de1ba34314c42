//! What is known of candidates: the verdicts committed to the cache, the spare ones (run but
//! not yet charged) and the store kept outside the process.
//!
//! Main items: [`VerdictStore`], [`content_key`], and the evaluator's private `Verdicts`. A
//! committed verdict is free to read; a spare one, or one the store recalls, costs what a
//! one-job run paid for it when it is taken, so counts do not depend on `--jobs` or on resuming.
//!
//! Limits: the cache holds one verdict per content key for the whole run.

use crate::oracle::Verdict;
use std::collections::HashMap;

/// Verdicts kept outside the process (a run directory's cache), consulted before a test runs
/// and told every verdict a test gave. A verdict recalled from it counts as a test, as it did
/// in the run that made it, so a resumed run counts, and decides, exactly as the first did.
pub trait VerdictStore: Send {
    /// The verdict of the candidate whose content key is `key`, if one was kept.
    fn recall(&self, key: u128) -> Option<Verdict>;
    /// Keeps the verdict a test gave.
    fn remember(&mut self, key: u128, verdict: Verdict);
    /// The verdict of the `nth` re-run of `key` (re-runs go past the cache), if one was kept.
    fn recall_rerun(&self, key: u128, nth: u32) -> Option<Verdict>;
    /// Keeps the verdict of the `nth` re-run of `key`.
    fn remember_rerun(&mut self, key: u128, nth: u32, verdict: Verdict);
}

/// The content key of a candidate: a 128-bit hash of its bytes.
pub fn content_key(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// A verdict not yet committed, with the tests a one-job run pays for it (0: a cache hit).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    pub(crate) verdict: Verdict,
    pub(crate) cost: u64,
    /// It came from the store, not from a run of the test.
    pub(crate) recalled: bool,
    /// Its run started while an earlier candidate was undecided (or ahead of its pass).
    pub(crate) speculative: bool,
}

impl Known {
    /// A verdict the test gave in `runs` runs.
    pub(crate) fn ran(verdict: Verdict, runs: u64, speculative: bool) -> Known {
        Known {
            verdict,
            cost: runs,
            recalled: false,
            speculative,
        }
    }
}

/// The committed cache, the spare verdicts, the store and the re-runs made per key.
pub(crate) struct Verdicts<'o> {
    cache: bool,
    committed: HashMap<u128, Verdict>,
    spare: HashMap<u128, Known>,
    store: Option<Box<dyn VerdictStore + 'o>>,
    reruns: HashMap<u128, u32>,
}

impl<'o> Verdicts<'o> {
    /// Nothing known; with `cache` off, nothing is ever kept.
    pub(crate) fn new(cache: bool) -> Self {
        Verdicts {
            cache,
            committed: HashMap::new(),
            spare: HashMap::new(),
            store: None,
            reruns: HashMap::new(),
        }
    }

    /// Whether verdicts are kept at all.
    pub(crate) fn caching(&self) -> bool {
        self.cache
    }

    pub(crate) fn set_store(&mut self, store: Box<dyn VerdictStore + 'o>) {
        self.store = Some(store);
    }

    /// The committed verdict of `key`.
    pub(crate) fn committed(&self, key: u128) -> Option<Verdict> {
        self.committed.get(&key).copied()
    }

    /// What is known of `key`, taken: a committed verdict (free), a spare one, or one the
    /// store kept (both charged, as tests a one-job run would have made; `confirm` extra runs
    /// for a recalled success).
    pub(crate) fn take(&mut self, key: u128, confirm: u32) -> Option<Known> {
        self.take_in_process(key)
            .or_else(|| self.recall(key, confirm))
    }

    /// What this process knows of `key`, taken: a committed verdict (free) or a spare one.
    pub(crate) fn take_in_process(&mut self, key: u128) -> Option<Known> {
        if !self.cache {
            return None;
        }
        if let Some(&verdict) = self.committed.get(&key) {
            return Some(Known {
                verdict,
                cost: 0,
                recalled: false,
                speculative: false,
            });
        }
        self.spare.remove(&key)
    }

    /// The verdict the store kept for `key`, charged as the test it was.
    pub(crate) fn recall(&self, key: u128, confirm: u32) -> Option<Known> {
        if !self.cache {
            return None;
        }
        let verdict = self.store.as_ref()?.recall(key)?;
        Some(Known {
            verdict,
            cost: 1 + u64::from(verdict.is_interesting()) * u64::from(confirm),
            recalled: true,
            speculative: false,
        })
    }

    /// Whether anything is known of `key` (for the lookahead, which must not test it again).
    pub(crate) fn knows(&self, key: u128) -> bool {
        self.committed.contains_key(&key)
            || self.spare.contains_key(&key)
            || self.store.as_ref().is_some_and(|s| s.recall(key).is_some())
    }

    /// Commits `verdict` for `key` to the cache.
    pub(crate) fn commit(&mut self, key: u128, verdict: Verdict) {
        if self.cache {
            self.committed.insert(key, verdict);
        }
    }

    /// Keeps a verdict that was not needed yet apart from the cache; whether it was kept (an
    /// uncached run keeps nothing, and a committed key needs nothing more).
    pub(crate) fn keep_spare(&mut self, key: u128, known: Known) -> bool {
        if !self.cache || self.committed.contains_key(&key) {
            return false;
        }
        self.spare.insert(key, known);
        true
    }

    /// Tells the store the verdict a test gave.
    pub(crate) fn remember(&mut self, key: u128, verdict: Verdict) {
        if let Some(store) = self.store.as_mut() {
            store.remember(key, verdict);
        }
    }

    /// Numbers the next re-run of `key` and returns its verdict if the store kept one.
    pub(crate) fn next_rerun(&mut self, key: u128) -> (u32, Option<Verdict>) {
        let n = self.reruns.entry(key).or_insert(0);
        *n += 1;
        let nth = *n;
        (
            nth,
            self.store.as_ref().and_then(|s| s.recall_rerun(key, nth)),
        )
    }

    /// The verdict the store kept for the next re-run of `key`, without numbering it.
    pub(crate) fn peek_rerun(&self, key: u128) -> Option<Verdict> {
        let nth = self.reruns.get(&key).copied().unwrap_or(0) + 1;
        self.store.as_ref()?.recall_rerun(key, nth)
    }

    /// Tells the store the verdict of the `nth` re-run of `key`.
    pub(crate) fn remember_rerun(&mut self, key: u128, nth: u32, verdict: Verdict) {
        if let Some(store) = self.store.as_mut() {
            store.remember_rerun(key, nth, verdict);
        }
    }

    /// Forgets what is known of `key` (a re-run's verdict replaces it); how many speculative
    /// verdicts that dropped unused.
    pub(crate) fn forget(&mut self, key: u128) -> u64 {
        self.committed.remove(&key);
        self.spare
            .remove(&key)
            .map_or(0, |k| u64::from(k.speculative))
    }

    /// Forgets every success (any may have been luck); how many speculative verdicts that
    /// dropped unused.
    pub(crate) fn distrust(&mut self) -> u64 {
        self.committed.retain(|_, v| !v.is_interesting());
        let before = self.unused_speculative();
        self.spare.retain(|_, k| !k.verdict.is_interesting());
        before - self.unused_speculative()
    }

    /// Speculative verdicts kept and not yet charged.
    pub(crate) fn unused_speculative(&self) -> u64 {
        self.spare.values().filter(|k| k.speculative).count() as u64
    }
}
