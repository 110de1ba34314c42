//! Bisection over an ordered list of versions: which one first shows the failure.
//!
//! Main types: [`Status`] (good, bad, untestable), [`Bisection`] (the result) and
//! [`first_bad`]. The first item must be good and the last bad; between them the search
//! probes the untested item nearest the middle of the open range, so it needs about
//! `log2(n)` probes. An untestable item is skipped and its nearest untested neighbour is
//! probed instead; when only untestable items remain between the last good and the first bad
//! one, the answer is the range of candidates, as `git bisect` reports it.
//!
//! ```
//! use myhill::check::{first_bad, Bisection, Status};
//! let result = first_bad(64, |i| Ok::<_, ()>(if i >= 37 { Status::Bad } else { Status::Good })).unwrap();
//! assert_eq!(result, Bisection::Found { first_bad: 37, last_good: 36, probes: 8 });
//! ```
//!
//! Limits: the probe must be monotone (good before the change, bad after); a flaky probe is
//! the caller's to detect (the command line runs each item `--repeat` times).

/// What one probe of an item says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The item does not show the failure.
    Good,
    /// The item shows the failure.
    Bad,
    /// The item cannot be tested (it does not build, say); skip it.
    Untestable,
}

/// The answer of a bisection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bisection {
    /// `first_bad` is the first bad item and `last_good` the item before it.
    Found {
        /// The first bad item.
        first_bad: usize,
        /// The item before it, which is good.
        last_good: usize,
        /// Items probed.
        probes: usize,
    },
    /// Untestable items hide the change: the first bad item is one of `candidates`
    /// (the untestable items after `last_good`, and the first known bad item).
    Ambiguous {
        /// The last known good item.
        last_good: usize,
        /// Where the first bad item may be.
        candidates: Vec<usize>,
        /// Items probed.
        probes: usize,
    },
    /// The end checks failed: the first item is not good, or the last one is not bad.
    BadEnds {
        /// What the first item gave.
        first: Status,
        /// What the last item gave.
        last: Status,
    },
}

/// Finds the first bad item among `n` (at least two) with `probe(index)`.
pub fn first_bad<E>(
    n: usize,
    mut probe: impl FnMut(usize) -> Result<Status, E>,
) -> Result<Bisection, E> {
    assert!(n >= 2, "bisection needs at least two items");
    let first = probe(0)?;
    let last = probe(n - 1)?;
    let mut probes = 2;
    if first != Status::Good || last != Status::Bad {
        return Ok(Bisection::BadEnds { first, last });
    }
    let (mut good, mut bad) = (0usize, n - 1);
    let mut untestable = vec![false; n];
    loop {
        if bad == good + 1 {
            return Ok(Bisection::Found {
                first_bad: bad,
                last_good: good,
                probes,
            });
        }
        let mid = good + (bad - good) / 2;
        // The untested item nearest the middle, lower one first on ties.
        let pick = (0..bad - good)
            .flat_map(|d| [mid.checked_sub(d), Some(mid + d)])
            .flatten()
            .find(|&i| i > good && i < bad && !untestable[i]);
        let Some(i) = pick else {
            let mut candidates: Vec<usize> = (good + 1..bad).collect();
            candidates.push(bad);
            return Ok(Bisection::Ambiguous {
                last_good: good,
                candidates,
                probes,
            });
        };
        probes += 1;
        match probe(i)? {
            Status::Good => good = i,
            Status::Bad => bad = i,
            Status::Untestable => untestable[i] = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(n: usize, first_bad_at: usize, skip: &[usize]) -> (Bisection, Vec<usize>) {
        let mut seen = Vec::new();
        let result = first_bad(n, |i| {
            seen.push(i);
            Ok::<_, ()>(if skip.contains(&i) {
                Status::Untestable
            } else if i >= first_bad_at {
                Status::Bad
            } else {
                Status::Good
            })
        })
        .unwrap();
        (result, seen)
    }

    #[test]
    fn sixty_four_items_take_at_most_six_probes_after_the_ends() {
        for target in 1..64 {
            let (result, seen) = run(64, target, &[]);
            assert!(seen.len() <= 2 + 6, "target {target}: {seen:?}");
            assert_eq!(
                result,
                Bisection::Found {
                    first_bad: target,
                    last_good: target - 1,
                    probes: seen.len()
                }
            );
        }
    }

    #[test]
    fn untestable_items_are_skipped() {
        let (result, _) = run(64, 37, &[31, 32, 33, 40]);
        assert!(matches!(
            result,
            Bisection::Found {
                first_bad: 37,
                last_good: 36,
                ..
            }
        ));
    }

    #[test]
    fn a_run_of_untestable_items_leaves_a_range() {
        let (result, _) = run(64, 37, &[35, 36, 37, 38]);
        match result {
            Bisection::Ambiguous {
                last_good,
                candidates,
                ..
            } => {
                assert_eq!(last_good, 34);
                assert_eq!(candidates, vec![35, 36, 37, 38, 39]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_ends_are_reported() {
        let (result, _) = run(10, 0, &[]);
        assert_eq!(
            result,
            Bisection::BadEnds {
                first: Status::Bad,
                last: Status::Bad
            }
        );
    }
}
