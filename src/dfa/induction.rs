//! The search on one word: colourings in, candidates out, failures learned, until interval-minimal.
//!
//! Main types: [`Induction`], [`Round`], [`Candidate`]. Each round is one of:
//! 1. the whole-word deletion, once, so that `(0, n)` is a learned fact rather than a guess;
//! 2. a SAT colouring with the fewest colours found by an upward search from a lower bound
//!    (the larger of the learned clique and the last bound proved impossible), growing by half
//!    each step, with no optimality proof: the quotient's shortest word, then each colour
//!    class's interval deletion, widest first;
//! 3. when the solver gave up, was capped out, or is switched off: the next untested
//!    canonical intervals, widest first, each of which is a valid single-merge colouring.
//!
//! Every failed interval deletion becomes a learned pair (with its shift class) and goes into
//! the live solver at once. The search ends exactly when every canonical interval is known to
//! fail. Nothing here runs a test: the pass hands candidates to the driver and reports back.

use super::colouring::Colouring;
use super::encoding::{Answer, ColouringSolver, GiveUp, SolveBudget};
use super::known::Known;
use super::quotient::Quotient;
use super::word::Word;
use crate::dfa::DfaOptions;
use std::time::{Duration, Instant};

/// Where a candidate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    Whole,
    ShortestPath,
    ClassInterval,
    Fallback,
}

/// A string to test, with the interval it deletes when it is one.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub(crate) symbols: Vec<u32>,
    pub(crate) bytes: Vec<u8>,
    /// The canonical interval whose deletion gives this candidate, if any.
    pub(crate) interval: Option<(usize, usize)>,
    pub(crate) origin: Origin,
}

/// One round's proposals, in the order they must be tested.
#[derive(Clone, Debug)]
pub(crate) struct Round {
    /// The SAT colouring behind the candidates, if they came from one (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) colouring: Option<Colouring>,
    pub(crate) candidates: Vec<Candidate>,
}

/// Figures of the search on one word.
#[derive(Clone, Debug, Default)]
pub(crate) struct InductionStats {
    pub(crate) solves: u64,
    pub(crate) sat_time: Duration,
    pub(crate) build_time: Duration,
    pub(crate) longest_solve: Duration,
    pub(crate) max_colours: usize,
    pub(crate) max_clauses: usize,
    pub(crate) gave_up: u64,
    pub(crate) gave_up_deadline: u64,
    pub(crate) builds: u64,
    pub(crate) solver_rounds: u64,
    pub(crate) fallback_rounds: u64,
    pub(crate) carried_pairs: u64,
}

/// The state of the search on one word.
pub(crate) struct Induction {
    word: Word,
    known: Known,
    options: DfaOptions,
    /// The most colours an encoding of this word may offer within the clause limit.
    cap: usize,
    solver: Option<ColouringSolver>,
    /// The solver is of no more use on this word (capped out or switched off).
    retired: bool,
    /// Where the next colour search starts: bounds below it were proved impossible or gave up.
    start_colours: usize,
    pub(crate) stats: InductionStats,
}

fn grow(k: usize) -> usize {
    k + (k / 2).max(1)
}

impl Induction {
    /// Starts on `word`, already knowing that the deletions `carried` fail.
    pub(crate) fn new(word: Word, options: &DfaOptions, carried: &[(usize, usize)]) -> Induction {
        let mut known = Known::new(&word);
        let mut stats = InductionStats::default();
        for &(i, j) in carried {
            if !known.learn(&word, i, j).is_empty() {
                stats.carried_pairs += 1;
            }
        }
        let cap = if options.use_solver {
            ColouringSolver::colour_cap(&word, options.max_colours, options.max_clauses)
        } else {
            0
        };
        Induction {
            word,
            known,
            options: options.clone(),
            cap,
            solver: None,
            retired: cap < 2,
            start_colours: 2,
            stats,
        }
    }

    pub(crate) fn word(&self) -> &Word {
        &self.word
    }

    pub(crate) fn known(&self) -> &Known {
        &self.known
    }

    pub(crate) fn is_interval_minimal(&self) -> bool {
        self.known.is_interval_minimal()
    }

    /// The next proposals, or `None` once the word is interval-minimal.
    pub(crate) fn next_round(&mut self) -> Option<Round> {
        let n = self.word.len();
        if n > 0 && !self.known.contains(0, n) {
            return Some(Round {
                colouring: None,
                candidates: vec![self.interval_candidate(0, n, Origin::Whole)],
            });
        }
        if self.is_interval_minimal() {
            return None;
        }
        if let Some(colouring) = self.colour() {
            let candidates = self.candidates_from(&colouring);
            if !candidates.is_empty() {
                self.stats.solver_rounds += 1;
                return Some(Round {
                    colouring: Some(colouring),
                    candidates,
                });
            }
        }
        self.stats.fallback_rounds += 1;
        let batch = self
            .known
            .untested(&self.word, self.options.fallback_batch.max(1));
        debug_assert!(
            !batch.is_empty(),
            "not interval-minimal, so some interval is untested"
        );
        Some(Round {
            colouring: None,
            candidates: batch
                .into_iter()
                .map(|(i, j)| self.interval_candidate(i, j, Origin::Fallback))
                .collect(),
        })
    }

    /// Records that `candidate` was tested (or known from the cache) and is not interesting.
    pub(crate) fn learn_failure(&mut self, candidate: &Candidate) {
        let Some((i, j)) = candidate.interval else {
            return;
        };
        let fresh = self.known.learn(&self.word, i, j);
        if let Some(solver) = self.solver.as_mut().filter(|s| !s.is_dead()) {
            for (a, b) in fresh {
                solver.add_pair(a as usize, b as usize);
            }
            self.stats.max_clauses = self.stats.max_clauses.max(solver.clauses());
        }
    }

    /// Failing deletions of this word that are still failing deletions after `winner`.
    pub(crate) fn carried_over(&self, winner: &Candidate) -> Vec<(usize, usize)> {
        match winner.interval {
            Some((a, b)) => self.known.carried_over(&self.word, a, b),
            None => Vec::new(),
        }
    }

    fn interval_candidate(&self, i: usize, j: usize, origin: Origin) -> Candidate {
        let symbols = self.word.delete(i, j);
        Candidate {
            bytes: self.word.spell(&symbols),
            symbols,
            interval: Some(self.word.canonical(i, j)),
            origin,
        }
    }

    fn candidates_from(&self, colouring: &Colouring) -> Vec<Candidate> {
        let mut out = Vec::new();
        let quotient = Quotient::new(&self.word, colouring);
        let path = quotient.shortest_accepted(&self.word);
        debug_assert!(quotient.accepts(&path));
        let path_interval = self.word.as_interval(&path);
        let known = |iv: Option<(usize, usize)>| iv.is_some_and(|(i, j)| self.known.contains(i, j));
        if path.len() < self.word.len() && !known(path_interval) {
            out.push(Candidate {
                bytes: self.word.spell(&path),
                symbols: path,
                interval: path_interval,
                origin: Origin::ShortestPath,
            });
        }
        let mut proposed: Vec<(usize, usize)> = path_interval.into_iter().collect();
        for (i, j) in colouring.class_intervals() {
            let canonical = self.word.canonical(i, j);
            if !self.known.contains(i, j) && !proposed.contains(&canonical) {
                proposed.push(canonical);
                out.push(self.interval_candidate(i, j, Origin::ClassInterval));
            }
        }
        out
    }

    fn budget(&self) -> SolveBudget {
        SolveBudget {
            time: self.options.solve_time,
            proof_bytes: self.options.solve_proof_bytes,
        }
    }

    /// A consistent colouring separating every learned pair, or `None` if the solver cannot
    /// give one within its bounds.
    fn colour(&mut self) -> Option<Colouring> {
        if self.retired {
            return None;
        }
        let mut k = self.start_colours.max(self.known.clique_bound()).max(2);
        loop {
            if k > self.cap {
                self.retired = true;
                self.solver = None;
                return None;
            }
            if self
                .solver
                .as_ref()
                .is_none_or(|s| s.is_dead() || s.cap() < k)
            {
                // Room for a few growth steps, but no more: every colour offered costs
                // O(n·K) clauses and slows even the easy solves.
                let cap = (2 * k).max(8).min(self.cap);
                let started = Instant::now();
                let solver = ColouringSolver::new(&self.word, cap, self.known.pairs());
                let spent = started.elapsed();
                self.stats.build_time += spent;
                self.stats.sat_time += spent;
                self.stats.builds += 1;
                self.stats.max_clauses = self.stats.max_clauses.max(solver.clauses());
                self.solver = Some(solver);
            }
            let budget = self.budget();
            let solver = self.solver.as_mut().expect("built above");
            let started = Instant::now();
            let answer = solver.solve_within(k, budget);
            let spent = started.elapsed();
            self.stats.solves += 1;
            self.stats.sat_time += spent;
            self.stats.longest_solve = self.stats.longest_solve.max(spent);
            match answer {
                Answer::Found(colouring) => {
                    debug_assert_eq!(colouring.violation(&self.word, self.known.pairs()), None);
                    self.stats.max_colours = self.stats.max_colours.max(colouring.colours());
                    return Some(colouring);
                }
                Answer::NoneWithin => {
                    self.start_colours = k + 1;
                    k = if k == self.cap {
                        k + 1
                    } else {
                        grow(k).min(self.cap)
                    };
                }
                Answer::GaveUp(why) => {
                    self.stats.gave_up += 1;
                    if why == GiveUp::Deadline {
                        self.stats.gave_up_deadline += 1;
                    }
                    self.solver = None;
                    // Not a proof, only a hint: a bound this hard is not worth retrying.
                    self.start_colours = if k == self.cap {
                        k + 1
                    } else {
                        grow(k).min(self.cap)
                    };
                    if self.start_colours > self.cap {
                        self.retired = true;
                    }
                    return None;
                }
            }
        }
    }
}
