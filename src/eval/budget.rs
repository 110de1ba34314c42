//! The test budget: `--max-tests` less the tests held back for a final confirmation.
//!
//! Main type: the evaluator's private `Budget`. It counts tests as a one-job run makes them
//! ([`crate::report::EvalStats::tests_run`]), so a budget stops every `--jobs` at the same candidate.
//!
//! Limits: a budget never stops a test that is already running; it only keeps new ones from
//! starting and verdicts from being charged.

/// `--max-tests` and the tests held back from it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Budget {
    max_tests: Option<u64>,
    reserve: u64,
}

impl Budget {
    /// At most `max_tests` tests (none: no limit).
    pub(crate) fn new(max_tests: Option<u64>) -> Budget {
        Budget {
            max_tests,
            reserve: 0,
        }
    }

    /// Whether there is a limit at all.
    pub(crate) fn is_limited(&self) -> bool {
        self.max_tests.is_some()
    }

    /// Holds `tests` back until [`Budget::release`].
    pub(crate) fn hold_back(&mut self, tests: u64) {
        self.reserve = tests;
    }

    /// Makes the held-back tests available again.
    pub(crate) fn release(&mut self) {
        self.reserve = 0;
    }

    /// The most tests that may be counted now.
    pub(crate) fn limit(&self) -> Option<u64> {
        self.max_tests.map(|m| m.saturating_sub(self.reserve))
    }

    /// Whether `cost` more tests fit after `spent`.
    pub(crate) fn affords(&self, spent: u64, cost: u64) -> bool {
        self.limit().is_none_or(|max| spent + cost <= max)
    }
}

/// A running pass's yield, watched so that it hands its tests over once it plods: when its
/// last `window` tests removed less than `floor` bytes a test (the most another pass is
/// expected to pay now), the evaluator stops it with [`crate::report::Stop::HandOver`].
/// Tests are counted as the budget counts them, so the hand-over comes at the same candidate
/// whatever `--jobs` is.
#[derive(Clone, Debug)]
pub(crate) struct YieldWatch {
    floor: f64,
    window: u64,
    /// The tests run and the best's length when the pass began, then at each change of the
    /// best, in order.
    marks: Vec<(u64, usize)>,
}

impl YieldWatch {
    /// A watch from now (`tests` run, a best of `len` bytes).
    pub(crate) fn new(floor: f64, window: u64, tests: u64, len: usize) -> YieldWatch {
        YieldWatch {
            floor,
            window,
            marks: vec![(tests, len)],
        }
    }

    /// The best changed to `len` bytes after `tests` tests.
    pub(crate) fn best_changed(&mut self, tests: u64, len: usize) {
        self.marks.push((tests, len));
    }

    /// Whether the last `window` tests, at `tests` run, removed less than the floor a test;
    /// never before the pass has run that many.
    pub(crate) fn plods(&self, tests: u64) -> bool {
        let began = self.marks[0].0;
        if tests < began + self.window {
            return false;
        }
        let since = tests - self.window;
        // The best's length `window` tests ago: the last mark at or before then.
        let then = self.marks.partition_point(|&(t, _)| t <= since).max(1) - 1;
        let now = self.marks[self.marks.len() - 1].1;
        let removed = self.marks[then].1.saturating_sub(now);
        (removed as f64) < self.floor * self.window as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserve_is_kept_until_released() {
        let mut budget = Budget::new(Some(10));
        budget.hold_back(1);
        assert!(budget.affords(8, 1));
        assert!(!budget.affords(9, 1));
        budget.release();
        assert!(budget.affords(9, 1));
        assert!(Budget::new(None).affords(u64::MAX - 1, 1));
    }

    #[test]
    fn a_pass_plods_when_its_last_window_removed_less_than_the_floor() {
        // A floor of one byte a test over 10 tests.
        let mut w = YieldWatch::new(1.0, 10, 100, 1_000);
        assert!(!w.plods(105), "not before a whole window");
        assert!(w.plods(110), "nothing removed in 10 tests");
        w.best_changed(112, 980);
        assert!(!w.plods(115), "20 bytes in the last 10 tests");
        assert!(!w.plods(121), "still 20 bytes since test 111");
        assert!(w.plods(122), "the find is more than 10 tests back");
    }
}
