//! The search on one word: colourings in, candidates out, failures learned, until interval-minimal.
//!
//! Main types: [`Induction`], [`Round`], [`Candidate`]. Each round is one of:
//! 1. the whole-word deletion, once, so that `(0, n)` is a learned fact rather than a guess
//!    (and likewise a window's whole span before it is first coloured);
//! 2. a SAT colouring with the fewest colours found by an upward search from a lower bound
//!    (the larger of the learned clique and the last bound proved impossible), growing by half
//!    each step, with no optimality proof: the quotient's shortest word, then each colour
//!    class's interval deletion, widest first;
//! 3. when the solver gave up, was capped out, or is switched off: the next untested
//!    canonical intervals, widest first, each of which is a valid single-merge colouring.
//!
//! A word longer than [`DfaOptions::window`] units is coloured one window at a time: the
//! positions of the window are encoded, every other position keeps a colour of its own, and
//! the window's last position may not share a colour with a position reading the same
//! symbol (their successors would have to merge outside the window). Windows overlap by
//! half, a search stays in one for a few rounds and restarts, after a reduction, in the
//! window where the deletion began. A window is exhausted when the colours it needs no
//! longer fit its clause cap; when all are, only the fallback walk is left.
//!
//! Every failed interval deletion becomes a learned pair (with its shift class) and goes into
//! the live solver at once; a failed shortest path that deletes several intervals teaches no
//! pair. The search ends exactly when every canonical interval is known to
//! fail. Nothing here runs a test: the pass hands candidates to the driver and reports back.

use super::colouring::Colouring;
use super::encoding::{Answer, ColouringSolver, GiveUp, Segment, SolveBudget};
use super::known::Known;
use super::quotient::Quotient;
use super::word::Word;
use crate::dfa::DfaOptions;
use std::time::{Duration, Instant};

/// Where a candidate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The whole word, or the whole span of a window, tested before colouring it so that
    /// its two ends are a learned pair rather than an assumption.
    Span,
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
    pub(crate) windows_exhausted: u64,
}

/// Positions `start..=end` of the word that one encoding covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Window {
    /// Whether both positions of the pair `i <= j` lie inside.
    fn holds(&self, i: usize, j: usize) -> bool {
        self.start <= i && j <= self.end
    }

    fn covers(&self, p: usize) -> bool {
        self.holds(p, p)
    }
}

/// The live solver of the current window.
struct WindowSolver {
    solver: ColouringSolver,
    /// The most colours an encoding of this window may offer within the clause limit.
    cap_limit: usize,
}

/// What the solver has to offer this round.
enum Colour {
    Found(Colouring),
    /// Test the deletion of the window's span before colouring it.
    SpanFirst(usize, usize),
    Nothing,
}

/// Why a window gave no colouring.
enum NoColouring {
    GaveUp,
    Exhausted,
}

/// The state of the search on one word.
pub(crate) struct Induction {
    word: Word,
    known: Known,
    options: DfaOptions,
    windows: Vec<Window>,
    exhausted: Vec<bool>,
    /// Where each window's next colour search starts: bounds below were proved impossible
    /// or gave up.
    start_colours: Vec<usize>,
    current: usize,
    rounds_here: usize,
    live: Option<WindowSolver>,
    pub(crate) stats: InductionStats,
}

fn grow(k: usize) -> usize {
    k + (k / 2).max(1)
}

/// Windows of `width` units overlapping by half and covering positions `0..=n`.
fn cover(n: usize, width: usize) -> Vec<Window> {
    if n <= width {
        return vec![Window { start: 0, end: n }];
    }
    let stride = (width / 2).max(1);
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        let end = (start + width).min(n);
        out.push(Window { start, end });
        if end == n {
            return out;
        }
        start += stride;
    }
}

impl Induction {
    /// Starts on `word`, already knowing that the deletions `carried` fail, searching first in
    /// the window that holds position `near`.
    pub(crate) fn new(
        word: Word,
        options: &DfaOptions,
        carried: &[(usize, usize)],
        near: usize,
    ) -> Induction {
        let mut known = Known::new(&word);
        let mut stats = InductionStats::default();
        for &(i, j) in carried {
            if !known.learn(&word, i, j).is_empty() {
                stats.carried_pairs += 1;
            }
        }
        let windows = cover(word.len(), options.window.max(2));
        let current = windows.iter().rposition(|w| w.start <= near).unwrap_or(0);
        Induction {
            exhausted: vec![!options.use_solver; windows.len()],
            start_colours: vec![2; windows.len()],
            windows,
            current,
            rounds_here: 0,
            word,
            known,
            options: options.clone(),
            live: None,
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
                candidates: vec![self.interval_candidate(0, n, Origin::Span)],
            });
        }
        if self.is_interval_minimal() {
            return None;
        }
        match self.colour() {
            Colour::Found(colouring) => {
                let candidates = self.candidates_from(&colouring);
                if !candidates.is_empty() {
                    self.stats.solver_rounds += 1;
                    return Some(Round {
                        colouring: Some(colouring),
                        candidates,
                    });
                }
            }
            Colour::SpanFirst(i, j) => {
                return Some(Round {
                    colouring: None,
                    candidates: vec![self.interval_candidate(i, j, Origin::Span)],
                });
            }
            Colour::Nothing => {}
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
        let window = self.windows[self.current];
        if let Some(live) = self.live.as_mut().filter(|l| !l.solver.is_dead()) {
            for (a, b) in fresh {
                let (a, b) = (a as usize, b as usize);
                if window.holds(a, b) {
                    live.solver.add_pair(a - window.start, b - window.start);
                }
            }
            self.stats.max_clauses = self.stats.max_clauses.max(live.solver.clauses());
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

    /// A consistent colouring separating every learned pair, or nothing if the solver cannot
    /// give one within its bounds in any window.
    fn colour(&mut self) -> Colour {
        for _ in 0..self.windows.len() {
            if (self.rounds_here >= self.options.window_rounds.max(1)
                || self.exhausted[self.current])
                && self.advance().is_none()
            {
                return Colour::Nothing;
            }
            let window = self.windows[self.current];
            if !self.known.contains(window.start, window.end) {
                return Colour::SpanFirst(window.start, window.end);
            }
            match self.colour_in_window() {
                Ok(colouring) => {
                    self.rounds_here += 1;
                    return Colour::Found(colouring);
                }
                Err(NoColouring::GaveUp) => return Colour::Nothing,
                Err(NoColouring::Exhausted) => {
                    self.stats.windows_exhausted += 1;
                    self.exhausted[self.current] = true;
                    self.live = None;
                }
            }
        }
        Colour::Nothing
    }

    /// Moves to the next window that is not exhausted, if any.
    fn advance(&mut self) -> Option<()> {
        let count = self.windows.len();
        let next = (1..=count)
            .map(|step| (self.current + step) % count)
            .find(|&w| !self.exhausted[w])?;
        if next != self.current {
            self.live = None;
        }
        self.current = next;
        self.rounds_here = 0;
        Some(())
    }

    /// The learned pairs inside `window`, in its coordinates, plus the pairs that keep its
    /// last position apart from positions reading the same symbol.
    fn window_pairs(&self, window: Window) -> Vec<(u32, u32)> {
        let at = |p: usize| (p - window.start) as u32;
        let mut pairs: Vec<(u32, u32)> = self
            .known
            .pairs()
            .iter()
            .filter(|&&(i, j)| window.holds(i as usize, j as usize))
            .map(|&(i, j)| (at(i as usize), at(j as usize)))
            .collect();
        if window.end < self.word.len() {
            let exit = self.word.symbol(window.end);
            for p in window.start..window.end {
                if self.word.symbol(p) == exit && !self.known.contains(p, window.end) {
                    pairs.push((at(p), at(window.end)));
                }
            }
        }
        pairs
    }

    fn colour_in_window(&mut self) -> Result<Colouring, NoColouring> {
        let window = self.windows[self.current];
        let clique_inside = self
            .known
            .clique()
            .iter()
            .filter(|&&p| window.covers(p as usize))
            .count();
        let mut k = self.start_colours[self.current].max(clique_inside).max(2);
        loop {
            if self
                .live
                .as_ref()
                .is_none_or(|l| l.solver.is_dead() || l.solver.cap() < k)
            {
                let started = Instant::now();
                let pairs = self.window_pairs(window);
                let segment = Segment::new(
                    &self.word.symbols()[window.start..window.end],
                    self.word.alphabet_len(),
                );
                let cap_limit = ColouringSolver::colour_cap(
                    &segment,
                    pairs.len(),
                    self.options.max_colours,
                    self.options.max_clauses,
                );
                if k > cap_limit {
                    return Err(NoColouring::Exhausted);
                }
                // Room for a few growth steps, but no more: every colour offered costs
                // O(n·K) clauses and slows even the easy solves.
                let cap = (2 * k).max(8).min(cap_limit);
                let solver = ColouringSolver::new(&segment, cap, &pairs);
                let spent = started.elapsed();
                self.stats.build_time += spent;
                self.stats.sat_time += spent;
                self.stats.builds += 1;
                self.stats.max_clauses = self.stats.max_clauses.max(solver.clauses());
                self.live = Some(WindowSolver { solver, cap_limit });
            }
            let budget = self.budget();
            let live = self.live.as_mut().expect("built above");
            let started = Instant::now();
            let answer = live.solver.solve_within(k, budget);
            let spent = started.elapsed();
            self.stats.solves += 1;
            self.stats.sat_time += spent;
            self.stats.longest_solve = self.stats.longest_solve.max(spent);
            let cap_limit = live.cap_limit;
            match answer {
                Answer::Found(inside) => {
                    let colouring = self.embed(window, &inside);
                    debug_assert_eq!(colouring.violation(&self.word, self.known.pairs()), None);
                    self.stats.max_colours = self.stats.max_colours.max(inside.colours());
                    return Ok(colouring);
                }
                Answer::NoneWithin => {
                    self.start_colours[self.current] = k + 1;
                    k = grow(k);
                    if k > cap_limit {
                        return Err(NoColouring::Exhausted);
                    }
                }
                Answer::GaveUp(why) => {
                    self.stats.gave_up += 1;
                    if why == GiveUp::Deadline {
                        self.stats.gave_up_deadline += 1;
                    }
                    self.live = None;
                    // Not a proof, only a hint: a bound this hard is not worth retrying.
                    let next = grow(k).min(cap_limit.max(k + 1));
                    self.start_colours[self.current] = next;
                    return Err(if next > cap_limit {
                        NoColouring::Exhausted
                    } else {
                        NoColouring::GaveUp
                    });
                }
            }
        }
    }

    /// The whole word's colouring: the window's colours inside it, a fresh one elsewhere.
    fn embed(&self, window: Window, inside: &Colouring) -> Colouring {
        let outside = inside.colours() as u32;
        let raw: Vec<u32> = (0..=self.word.len())
            .map(|p| {
                if window.covers(p) {
                    inside.colour(p - window.start)
                } else {
                    outside + p as u32
                }
            })
            .collect();
        Colouring::from_colours(&raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_overlap_by_half_and_cover_every_position() {
        assert_eq!(cover(5, 8), vec![Window { start: 0, end: 5 }]);
        let windows = cover(20, 8);
        assert_eq!(windows.first(), Some(&Window { start: 0, end: 8 }));
        assert_eq!(windows.last().map(|w| w.end), Some(20));
        for pair in windows.windows(2) {
            assert_eq!(pair[1].start, pair[0].start + 4);
        }
    }

    #[test]
    fn a_search_starts_with_the_whole_word_and_then_each_window_span() {
        let word = Word::from_symbols(b"abcabcabcabcabcabcab");
        let options = DfaOptions {
            window: 8,
            ..DfaOptions::default()
        };
        let mut search = Induction::new(word, &options, &[], 9);
        let first = search.next_round().unwrap();
        assert_eq!(first.candidates[0].interval, Some((0, 20)));
        search.learn_failure(&first.candidates[0]);
        // Position 9 lies in the windows starting at 4 and 8; the search begins in the later one.
        let second = search.next_round().unwrap();
        assert_eq!(second.candidates[0].origin, Origin::Span);
        assert_eq!(
            second.candidates[0].interval,
            Some(search.word().canonical(8, 16))
        );
    }
}
