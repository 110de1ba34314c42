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
}
