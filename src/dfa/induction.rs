//! The search on one word: colourings in, candidates out, failures learned, until interval-minimal.
//!
//! Main types: [`Induction`], [`RoundCandidates`], [`Candidate`]. Each round is one of:
//! 1. the whole-word deletion, once (unless [`DfaOptions::whole_word_given`]), so that
//!    `(0, n)` is a learned fact rather than a guess, and likewise a window's whole span
//!    before it is first coloured;
//! 2. the probe: a colouring of the whole word with at most [`DfaOptions::probe_colours`]
//!    colours (a few), for up to [`DfaOptions::probe_rounds`] rounds on a word, and only
//!    while it pays: global structure (balance, a period) shows in a coarse colouring of the
//!    whole word and in no window of it. The probe deals in bulk: a class interval deleting
//!    less than [`DfaOptions::probe_bulk`]'s share of the word is not proposed;
//! 3. ddmin's order (each chunk kept alone, then each deleted, at granularity 2, 4, 8, ...,
//!    [`CHUNKS_PER_ROUND`] at a time) once the word's window colourings have failed
//!    [`DfaOptions::colouring_failures_per_word`] times, or straight after the probe on a word
//!    longer than a window: on small words ddmin's first tests are cheap wins the colourings
//!    spend many failures to find; when that order finds nothing, the colourings go on without
//!    a budget (or, with [`DfaOptions::walk_after_chunks`], only the walk of step 5). On a
//!    word the probe coloured, each round of that order goes by the bits each chunk is
//!    expected to gain given the probe's quotient's verdict on it
//!    ([`DfaOptions::order_chunks`], [`Beliefs::expected_bits`]); above halves, the chunks deleted come
//!    before the chunks kept alone where the run measured them paying more bits per test
//!    ([`DfaOptions::chunk_kinds_by_payoff`], [`Beliefs`]);
//! 4. a SAT colouring with the fewest colours found by an upward search from a lower bound
//!    (the larger of the learned clique and the last bound proved impossible), growing by half
//!    each step, with no optimality proof;
//! 5. when the solver gave up, was capped out, or is switched off: the next untested
//!    canonical intervals, widest first, each of which is a valid single-merge colouring.
//!
//! A colouring proposes the quotient's shortest word, each colour class's interval deletion
//! (widest first), then up to [`DfaOptions::pair_batch`] deletions of two disjoint loops at
//! once (`c(i1) = c(j1)`, `c(i2) = c(j2)`, `j1 < i2`, most units first): a bracket and its
//! partner go only together, and no single interval reaches that.
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
//! the live solvers at once. A failed shortest path or pair of loops is learned as a
//! combination: the merges it needed (a path is walked through the colouring, and each jump
//! to another position of the same colour is a merge) may not all hold in one colouring. A
//! colouring whose quotient accepts any failed candidate of the word is refuted the same way
//! (the merges along that candidate's run) and the solver asked again, up to
//! [`DfaOptions::refutations_per_word`] times a word: each check runs every failure through the
//! quotient, `O(failures · n)` a colouring, and a word gets few colourings once its budget
//! sends it to ddmin's order. The search ends exactly when every canonical interval is known
//! to fail. With
//! [`DfaOptions::carry_hints`], every pair a word's colourings separated is mapped through the
//! accepted deletion and separated again on the next word, as a hint, never as a fact. Nothing
//! here runs a
//! test: the pass hands candidates to the driver and reports back.
//!
//! ```text
//! word "((x))", probe at 2 colours: 0 0 0 1 1 1 -> shortest word "x" (one test, accepted)
//! ```

use super::colouring::Colouring;
use super::encoding::{Answer, ColouringSolver, GiveUp, Segment, SolveBudget};
use super::known::Known;
use super::quotient::Quotient;
use super::word::Word;
use crate::dfa::{DfaOptions, Finish};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Where a candidate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The whole word, or the whole span of a window, tested before colouring it so that
    /// its two ends are a learned pair rather than an assumption.
    Span,
    ShortestPath,
    /// Two loops of the quotient deleted at once.
    Pair,
    ClassInterval,
    Fallback,
    /// A chunk kept alone or deleted, in ddmin's order, once the colourings of a word have
    /// failed [`DfaOptions::colouring_failures_per_word`] times.
    Chunk,
}

impl Origin {
    /// Proposed by a colouring (and so, outside the probe, charged to the word's failure
    /// budget).
    fn is_colouring(self) -> bool {
        matches!(
            self,
            Origin::ShortestPath | Origin::Pair | Origin::ClassInterval
        )
    }
}

/// A string to test, with the interval it deletes when it is one.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub(crate) symbols: Vec<u32>,
    pub(crate) bytes: Vec<u8>,
    /// The canonical interval whose deletion gives this candidate, if any.
    pub(crate) interval: Option<(usize, usize)>,
    /// Otherwise, the merges of positions that made the quotient accept it: its failure
    /// forbids them together.
    pub(crate) merges: Vec<(u32, u32)>,
    pub(crate) origin: Origin,
    /// Proposed by the whole-word probe.
    pub(crate) probe: bool,
    /// For a chunk of ddmin's order: how it was cut and whether it is kept alone.
    pub(crate) chunk: Option<ChunkKind>,
}

/// A chunk of ddmin's order: the granularity it was cut at, and whether the candidate keeps
/// it alone or deletes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChunkKind {
    pub(crate) granularity: usize,
    pub(crate) kept_alone: bool,
    /// Whether the quotient of the probe's last colouring of the word accepts the candidate
    /// (`None`: the probe did not colour this word).
    pub(crate) predicted: Option<bool>,
}

impl ChunkKind {
    /// Halves (0: at granularity 2 keeping one half alone is deleting the other), a chunk
    /// kept alone (1) or a chunk deleted (2).
    pub(crate) fn class(&self) -> usize {
        match (self.granularity <= 2, self.kept_alone) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 2,
        }
    }

    /// The bits a success gains: `log2` of the word's length over the candidate's.
    fn bits(&self) -> f64 {
        bits_gained(self.granularity, self.kept_alone)
    }
}

/// The bits a chunk's success gains at granularity `g`, `log2` of the word's length over the
/// candidate's: `log2 g` kept alone (or at halves, where the two kinds are one), `log2 g/(g-1)`
/// deleted.
fn bits_gained(g: usize, kept_alone: bool) -> f64 {
    let g = g.max(2) as f64;
    if kept_alone || g <= 2.0 {
        g.log2()
    } else {
        (g / (g - 1.0)).log2()
    }
}

/// What the run so far says of each kind of candidate: the chance (a posterior mean) that it
/// is interesting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Beliefs {
    /// A colouring's candidate (path, class interval, pair of loops).
    pub(crate) colouring: f64,
    /// A chunk of ddmin's order.
    pub(crate) chunk: f64,
    /// A chunk kept alone, at a granularity above halves.
    pub(crate) kept_alone: f64,
    /// A chunk deleted, at a granularity above halves.
    pub(crate) deleted: f64,
    /// A chunk of each [`ChunkKind::class`] that the probe's quotient accepts (0) or rejects
    /// (1).
    pub(crate) predicted: [[f64; 2]; 3],
}

impl Default for Beliefs {
    fn default() -> Beliefs {
        Beliefs {
            colouring: 0.5,
            chunk: 0.5,
            kept_alone: 0.5,
            deleted: 0.5,
            predicted: [[0.5; 2]; 3],
        }
    }
}

impl Beliefs {
    /// Whether, at granularity `g`, deleting chunks pays more than keeping them alone: the
    /// chance of each times the bits a success gains (`log2 g` kept alone, `log2 g/(g-1)`
    /// deleted), so a deletion goes first only where it is that much likelier to pass.
    pub(crate) fn deletions_pay_more(&self, g: usize) -> bool {
        g > 2 && self.deleted * bits_gained(g, false) > self.kept_alone * bits_gained(g, true)
    }

    /// The bits a chunk the probe's quotient judged is expected to gain: its chance given the
    /// verdict times the bits a success gains.
    pub(crate) fn expected_bits(&self, kind: &ChunkKind) -> f64 {
        let verdict = usize::from(kind.predicted == Some(false));
        self.predicted[kind.class()][verdict] * kind.bits()
    }
}

/// One round's proposals, in the order they must be tested.
#[derive(Clone, Debug)]
pub(crate) struct RoundCandidates {
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
    pub(crate) probe_rounds: u64,
    pub(crate) combinations: u64,
    /// Colourings whose quotient accepted a known failure, solved again.
    pub(crate) refutations: u64,
}

/// Positions `start..=end` of the word that one encoding covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EncodedRange {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl EncodedRange {
    /// Whether both positions of the pair `i <= j` lie inside.
    fn holds(&self, i: usize, j: usize) -> bool {
        self.start <= i && j <= self.end
    }

    fn covers(&self, p: usize) -> bool {
        self.holds(p, p)
    }
}

/// The live solver of the current window.
struct RangeSolver {
    solver: ColouringSolver,
    /// The most colours an encoding of this window may offer within the clause limit.
    cap_limit: usize,
}

/// The whole-word probe on the current word.
struct Probe {
    solver: Option<ColouringSolver>,
    /// The next colour bound to ask for: bounds below were proved impossible.
    colours: usize,
    rounds_left: usize,
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
    windows: Vec<EncodedRange>,
    exhausted: Vec<bool>,
    /// Where each window's next colour search starts: bounds below were proved impossible
    /// or gave up.
    start_colours: Vec<usize>,
    current: usize,
    rounds_here: usize,
    live: Option<RangeSolver>,
    probe: Option<Probe>,
    /// Learned combinations of merges (word positions), each sorted.
    combinations: Vec<Vec<(u32, u32)>>,
    /// Pairs of positions that differed in earlier words, carried through the accepted
    /// deletions: constraints on colourings, never facts for the stop.
    hints: Vec<(u32, u32)>,
    /// Colouring candidates of this word's windows that failed.
    colouring_failures: usize,
    /// The probe's candidates on this word that failed.
    probe_failures: usize,
    /// The probe found no colouring of this word before it proposed anything: its encoding
    /// was over [`DfaOptions::max_clauses`] or its first solve ran out of budget. It was left
    /// off for the word's size, not for anything it learned.
    probe_too_large: bool,
    /// The granularity of the ddmin-order chunks and the next of its slots (each chunk kept
    /// alone, then each chunk deleted), while that order is not exhausted.
    chunk_state: Option<(usize, usize)>,
    /// The run's chances that each kind of candidate is interesting.
    beliefs: Beliefs,
    /// ddmin's order ran down to single units on this word and found nothing.
    chunks_exhausted: bool,
    /// The quotient of the probe's last colouring of this word: with
    /// [`DfaOptions::order_chunks`], its verdict on each chunk weighs the chunk's expected
    /// bits.
    probed_quotient: Option<Quotient>,
    /// This word's failed candidates, in the order they were learned. Failures of earlier
    /// words are not carried in: they refute the coarse colourings whose class intervals pay
    /// on periodic words (notes/negative-results.md).
    failures: Vec<Failure>,
    /// Colourings of this word refuted by a known failure.
    refutations: usize,
    pub(crate) stats: InductionStats,
}

/// A candidate of this word that the test rejected: a deletion of one interval (kept as its
/// bounds, so that the walk's many failures cost no copies of the word), or any other word.
enum Failure {
    Deleted(usize, usize),
    Word(Vec<u32>),
}

/// The most chunks one round proposes.
const CHUNKS_PER_ROUND: usize = 16;

fn grow(k: usize) -> usize {
    k + (k / 2).max(1)
}

/// `merges` in the coordinates of `window`, if every position lies inside it (outside, every
/// position has a colour of its own, so a combination reaching out is satisfied anyway).
fn in_window(window: EncodedRange, merges: &[(u32, u32)]) -> Option<Vec<(u32, u32)>> {
    merges
        .iter()
        .map(|&(a, b)| {
            window
                .holds(a as usize, b as usize)
                .then(|| (a - window.start as u32, b - window.start as u32))
        })
        .collect()
}

/// The merges that make `colouring`'s quotient accept `path`: walk the path from position 0,
/// following the word where it reads the same symbol and otherwise jumping to the nearest
/// position of the same colour that does (the nearest after, else the last before); each jump,
/// and the final one to `n`, is a merge. Any colouring with all of them accepts `path`.
fn path_merges(word: &Word, colouring: &Colouring, path: &[u32]) -> Vec<(u32, u32)> {
    let n = word.len();
    let mut reading: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for i in 0..n {
        reading
            .entry((colouring.colour(i), word.symbol(i)))
            .or_default()
            .push(i);
    }
    let mut merges = Vec::new();
    let mut merge = |a: usize, b: usize| merges.push((a.min(b) as u32, a.max(b) as u32));
    let mut at = 0;
    for &symbol in path {
        if at < n && word.symbol(at) == symbol {
            at += 1;
            continue;
        }
        let starts = &reading[&(colouring.colour(at), symbol)];
        let after = starts.partition_point(|&q| q <= at);
        let q = starts
            .get(after)
            .copied()
            .unwrap_or(starts[starts.len() - 1]);
        merge(at, q);
        at = q + 1;
    }
    if at != n {
        merge(at, n);
    }
    merges.sort_unstable();
    merges.dedup();
    merges
}

/// Up to `limit` pairs of disjoint loops `[i1, j1)`, `[i2, j2)` (`j1 < i2`), each between
/// consecutive positions of one colour, most units deleted first (then leftmost). Only the
/// 64 longest loops are paired, which bounds the work on long words.
fn loop_pairs(colouring: &Colouring, limit: usize) -> Vec<((usize, usize), (usize, usize))> {
    if limit == 0 {
        return Vec::new();
    }
    let mut last: Vec<Option<usize>> = vec![None; colouring.colours()];
    let mut loops = Vec::new();
    for p in 0..colouring.positions() {
        let c = colouring.colour(p) as usize;
        if let Some(q) = last[c] {
            loops.push((q, p));
        }
        last[c] = Some(p);
    }
    loops.sort_by_key(|&(i, j)| (std::cmp::Reverse(j - i), i));
    loops.truncate(64);
    let mut pairs = Vec::new();
    for &a in &loops {
        for &b in &loops {
            if a.1 < b.0 {
                pairs.push((a, b));
            }
        }
    }
    pairs.sort_by_key(|&((i1, j1), (i2, j2))| (std::cmp::Reverse(j1 - i1 + j2 - i2), i1, i2));
    pairs.truncate(limit);
    pairs
}

/// Windows of `width` units overlapping by half and covering positions `0..=n`.
fn cover(n: usize, width: usize) -> Vec<EncodedRange> {
    if n <= width {
        return vec![EncodedRange { start: 0, end: n }];
    }
    let stride = (width / 2).max(1);
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        let end = (start + width).min(n);
        out.push(EncodedRange { start, end });
        if end == n {
            return out;
        }
        start += stride;
    }
}

impl Induction {
    /// Starts on `word`, already knowing that the deletions `carried` fail, with the
    /// whole-word probe first if `probe`, then searching first in the window that holds
    /// position `near`.
    pub(crate) fn new(
        word: Word,
        options: &DfaOptions,
        carried: &[(usize, usize)],
        near: usize,
        probe: bool,
    ) -> Induction {
        let mut known = Known::new(&word);
        if options.whole_word_given && word.len() > 0 {
            known.learn(&word, 0, word.len());
        }
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
            probe: (probe && options.use_solver && options.probe_colours >= 2).then(|| Probe {
                solver: None,
                colours: 2,
                rounds_left: options.probe_rounds,
            }),
            combinations: Vec::new(),
            hints: Vec::new(),
            colouring_failures: 0,
            probe_failures: 0,
            probe_too_large: false,
            beliefs: Beliefs::default(),
            chunks_exhausted: false,
            probed_quotient: None,
            failures: Vec::new(),
            refutations: 0,
            chunk_state: (options.finish == Finish::Windows
                && options.colouring_failures_per_word != usize::MAX)
                .then_some((2, 0)),
            stats,
        }
    }

    /// Adds `hints`, pairs of positions that probably differ (see [`Induction::hints_after`]):
    /// colourings separate them, but nothing is concluded about the stop.
    pub(crate) fn add_hints(&mut self, hints: &[(usize, usize)]) {
        let n = self.word.len();
        let mut seen: HashSet<(u32, u32)> = self.hints.iter().copied().collect();
        for &(i, j) in hints {
            if i < j && j <= n && !self.known.contains(i, j) && seen.insert((i as u32, j as u32)) {
                self.hints.push((i as u32, j as u32));
            }
        }
    }

    /// Every pair this word's colourings separate (learned or hinted), mapped through the
    /// deletion that gives `winner`: a position before the deleted units keeps its index, one
    /// after moves left by their count, one strictly inside a deleted run is dropped. Under the
    /// automaton model, deleting loops keeps every other position's state, so positions that
    /// differed still differ. Empty when `winner` is not this word with runs deleted.
    pub(crate) fn hints_after(&self, winner: &Candidate) -> Vec<(usize, usize)> {
        const MOST_HINTS: usize = 1 << 18;
        let mut deleted: Vec<(usize, usize)> = match winner.interval {
            Some(iv) => vec![iv],
            None => winner
                .merges
                .iter()
                .map(|&(a, b)| (a as usize, b as usize))
                .collect(),
        };
        deleted.sort_unstable();
        let disjoint = deleted.windows(2).all(|w| w[0].1 <= w[1].0);
        if deleted.is_empty() || !disjoint || deleted.iter().any(|&(a, b)| a >= b) {
            return Vec::new();
        }
        let mut kept = Vec::with_capacity(winner.symbols.len());
        let mut from = 0;
        for &(a, b) in &deleted {
            kept.extend_from_slice(&self.word.symbols()[from..a]);
            from = b;
        }
        kept.extend_from_slice(&self.word.symbols()[from..]);
        if kept != winner.symbols {
            return Vec::new();
        }
        let map = |p: usize| -> Option<usize> {
            let mut shift = 0;
            for &(a, b) in &deleted {
                if a < p && p < b {
                    return None;
                }
                if b <= p {
                    shift += b - a;
                }
            }
            Some(p - shift)
        };
        let mut out = Vec::new();
        for &(i, j) in self.known.pairs().iter().chain(&self.hints) {
            if out.len() >= MOST_HINTS {
                break;
            }
            if let (Some(a), Some(b)) = (map(i as usize), map(j as usize))
                && a < b
            {
                out.push((a, b));
            }
        }
        out
    }

    /// The learned pairs and the hints not learned since, for a solver.
    fn separated_pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let hints = self
            .hints
            .iter()
            .filter(|&&(i, j)| !self.known.contains(i as usize, j as usize));
        self.known.pairs().iter().chain(hints).copied()
    }

    /// Whether the next candidates come in ddmin's order: the colourings spent their budget,
    /// or the word is longer than a window (after the probe), where each window's span would
    /// delete at most one window per test and ddmin's halves delete faster.
    fn chunks_now(&self) -> bool {
        self.chunk_state.is_some()
            && (self.colouring_failures >= self.colouring_budget()
                || (self.options.chunks_before_windows
                    && self.word.len() > self.options.window
                    && (!self.options.learn_budget
                        || self.beliefs.chunk >= self.beliefs.colouring)))
    }

    /// Keeps no more colouring candidates than the word's failure budget has left.
    fn within_budget(&self, mut candidates: Vec<Candidate>) -> Vec<Candidate> {
        if self.chunk_state.is_some() {
            let left = self
                .colouring_budget()
                .saturating_sub(self.colouring_failures);
            candidates.truncate(left);
        }
        candidates
    }

    /// The next chunks in ddmin's order (at each granularity, each chunk kept alone, then
    /// each deleted), at most [`CHUNKS_PER_ROUND`] at a time so that the colourings can take
    /// over between rounds, leaving out known failures; `None` once single units were tried.
    fn chunk_round(&mut self) -> Option<RoundCandidates> {
        let n = self.word.len();
        while let Some((g, offset)) = self.chunk_state {
            let g = g.min(n).max(1);
            let size = n.div_ceil(g);
            let chunks: Vec<(usize, usize)> = (0..n)
                .step_by(size)
                .map(|s| (s, (s + size).min(n)))
                .collect();
            let slots = 2 * chunks.len();
            let end = (offset + CHUNKS_PER_ROUND).min(slots);
            self.chunk_state = if end < slots {
                Some((g, end))
            } else if g < n {
                Some(((2 * g).min(n), 0))
            } else {
                // This round is the order's last: if it finds nothing, the order is over.
                // Known now, since `chunks_now` reads no further once the state is gone.
                self.chunks_exhausted = true;
                None
            };
            let mut seen: HashSet<Vec<u32>> = HashSet::new();
            let mut candidates = Vec::new();
            // ddmin keeps each chunk alone before it deletes any; where the run measured
            // deletions paying more bits per test, they go first.
            let deletions_first =
                self.options.chunk_kinds_by_payoff && self.beliefs.deletions_pay_more(g);
            for slot in offset..end {
                let keep_only = (slot < chunks.len()) != deletions_first;
                let (s, e) = chunks[slot % chunks.len()];
                let symbols = if keep_only {
                    self.word.symbols()[s..e].to_vec()
                } else {
                    self.word.delete(s, e)
                };
                if symbols.len() == n || !seen.insert(symbols.clone()) {
                    continue;
                }
                let interval = self.word.as_interval(&symbols);
                if interval.is_some_and(|(i, j)| self.known.contains(i, j)) {
                    continue;
                }
                candidates.push(Candidate {
                    bytes: self.word.spell(&symbols),
                    symbols,
                    interval,
                    merges: match interval {
                        Some(_) => Vec::new(),
                        None => vec![(0, s as u32), (e as u32, n as u32)],
                    },
                    origin: Origin::Chunk,
                    probe: false,
                    chunk: Some(ChunkKind {
                        granularity: g,
                        kept_alone: keep_only,
                        predicted: None,
                    }),
                });
            }
            if let Some(quotient) = &self.probed_quotient {
                // What the probe learned of the word's automaton: whether its quotient accepts
                // each chunk's result. The round goes in the order of the bits each chunk is
                // expected to gain, its measured chance given that verdict times the bits a
                // success gains, so an accepted deletion of a 64th does not go before a
                // chunk kept alone; among equals the accepted first, then ddmin's order.
                for c in &mut candidates {
                    if let Some(kind) = c.chunk.as_mut() {
                        kind.predicted = Some(quotient.accepts(&c.symbols));
                    }
                }
                let kind = |c: &Candidate| c.chunk.expect("ddmin's order proposes chunks");
                candidates.sort_by(|a, b| {
                    let (a, b) = (kind(a), kind(b));
                    let bits = |k: &ChunkKind| self.beliefs.expected_bits(k);
                    bits(&b)
                        .total_cmp(&bits(&a))
                        .then(b.predicted.cmp(&a.predicted))
                });
            }
            if !candidates.is_empty() {
                return Some(RoundCandidates {
                    colouring: None,
                    candidates,
                });
            }
        }
        self.chunks_exhausted = true;
        None
    }

    /// What the run so far says of each kind of candidate. With
    /// [`DfaOptions::learn_budget`] the failure budget grows with the colourings' chance
    /// against the chunks', and a long word goes to the chunks first only while they pay at
    /// least as well; with [`DfaOptions::chunk_kinds_by_payoff`] the chunks kept alone and
    /// deleted are ordered by what they paid.
    pub(crate) fn set_beliefs(&mut self, beliefs: Beliefs) {
        self.beliefs = beliefs;
    }

    /// The failure budget of this word's colourings.
    fn colouring_budget(&self) -> usize {
        let base = self.options.colouring_failures_per_word;
        if !self.options.learn_budget || base == usize::MAX {
            return base;
        }
        let Beliefs {
            colouring, chunk, ..
        } = self.beliefs;
        ((base as f64 * colouring / chunk).round() as usize).clamp(1, 16 * base.max(1))
    }

    /// Whether the probe was left off this word for its size alone (before any proposal).
    pub(crate) fn probe_too_large(&self) -> bool {
        self.probe_too_large
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

    /// Adds words the test rejected (as symbols of this word), which colourings must not
    /// accept.
    #[cfg(test)]
    pub(crate) fn add_failures(&mut self, failures: impl IntoIterator<Item = Vec<u32>>) {
        self.failures
            .extend(failures.into_iter().map(Failure::Word));
    }

    /// The merges by which `colouring`'s quotient accepts the first known failure it accepts,
    /// while this word's refutations last: a consistent colouring of the true automaton has
    /// not all of them.
    fn refutation(&self, colouring: &Colouring) -> Option<Vec<(u32, u32)>> {
        if self.refutations >= self.options.refutations_per_word {
            return None;
        }
        let quotient = Quotient::new(&self.word, colouring);
        let units = self.word.symbols();
        let failure = self.failures.iter().find_map(|f| match f {
            Failure::Deleted(i, j) => quotient
                .accepts(units[..*i].iter().chain(&units[*j..]))
                .then(|| self.word.delete(*i, *j)),
            Failure::Word(w) => quotient.accepts(w).then(|| w.clone()),
        })?;
        Some(path_merges(&self.word, colouring, &failure)).filter(|m| !m.is_empty())
    }

    /// The next proposals, or `None` once the word is interval-minimal (or, unless the
    /// options finish with windows, once the probe is over).
    pub(crate) fn next_round(&mut self) -> Option<RoundCandidates> {
        let n = self.word.len();
        if n > 0 && !self.known.contains(0, n) {
            return Some(RoundCandidates {
                colouring: None,
                candidates: vec![self.interval_candidate(0, n, Origin::Span)],
            });
        }
        if self.is_interval_minimal() {
            return None;
        }
        while let Some(colouring) = self.probe_colouring() {
            if let Some(merges) = self.refutation(&colouring) {
                // A refuted colouring is not one of the probe's rounds.
                self.refute(&merges);
                if let Some(probe) = self.probe.as_mut() {
                    probe.rounds_left += 1;
                }
                continue;
            }
            if self.options.order_chunks {
                self.probed_quotient = Some(Quotient::new(&self.word, &colouring));
            }
            let left = self
                .options
                .probe_failures_per_word
                .saturating_sub(self.probe_failures);
            if left == 0 {
                self.probe = None;
                break;
            }
            let mut candidates = self.candidates_from(&colouring, true);
            candidates.truncate(left);
            if !candidates.is_empty() {
                self.stats.probe_rounds += 1;
                return Some(RoundCandidates {
                    colouring: Some(colouring),
                    candidates,
                });
            }
        }
        if self.options.finish != Finish::Windows {
            return None;
        }
        if self.chunks_now()
            && let Some(round) = self.chunk_round()
        {
            return Some(round);
        }
        let mut colour = if self.chunks_exhausted && self.options.walk_after_chunks {
            Colour::Nothing
        } else {
            self.colour()
        };
        while let Colour::Found(colouring) = &colour
            && let Some(merges) = self.refutation(colouring)
            && in_window(self.windows[self.current], &merges).is_some()
        {
            // Not one of this window's rounds either.
            self.refute(&merges);
            self.rounds_here = self.rounds_here.saturating_sub(1);
            colour = self.colour();
        }
        match colour {
            Colour::Found(colouring) => {
                let candidates = self.within_budget(self.candidates_from(&colouring, false));
                if !candidates.is_empty() {
                    self.stats.solver_rounds += 1;
                    return Some(RoundCandidates {
                        colouring: Some(colouring),
                        candidates,
                    });
                }
            }
            Colour::SpanFirst(i, j) => {
                return Some(RoundCandidates {
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
        Some(RoundCandidates {
            colouring: None,
            candidates: batch
                .into_iter()
                .map(|(i, j)| self.interval_candidate(i, j, Origin::Fallback))
                .collect(),
        })
    }

    /// Whether deleting `units` of this word is a deletion in bulk, as the probe deals in
    /// ([`DfaOptions::probe_bulk`]).
    pub(crate) fn is_bulk(&self, units: usize) -> bool {
        self.options.probe_bulk == 0 || units * self.options.probe_bulk >= self.word.len()
    }

    /// Records that `candidate` was tested (or known from the cache) and is not interesting.
    pub(crate) fn learn_failure(&mut self, candidate: &Candidate) {
        if self.options.refutations_per_word > 0 {
            self.failures.push(match candidate.interval {
                Some((i, j)) => Failure::Deleted(i, j),
                None => Failure::Word(candidate.symbols.clone()),
            });
        }
        if candidate.origin.is_colouring() {
            if candidate.probe {
                self.probe_failures += 1;
            } else {
                self.colouring_failures += 1;
            }
        }
        let Some((i, j)) = candidate.interval else {
            self.learn_combination(&candidate.merges);
            return;
        };
        let fresh = self.known.learn(&self.word, i, j);
        if let Some(solver) = self.probe_solver() {
            for &(a, b) in &fresh {
                solver.add_pair(a as usize, b as usize);
            }
        }
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

    /// For each of `candidates`, in order: whether it need not be tested, because the
    /// candidates before it, had they all failed (the only way a test reaches it), refute it.
    /// A candidate that needs a merge of positions `a < b` needs the deletion of `[a, b)` to
    /// succeed in the same automaton; it is refuted once that deletion, or a combination of
    /// merges all of which it needs, is known to fail. Only candidates that are not single
    /// intervals are ever refuted, so the interval-minimal stop still rests on tests alone.
    pub(crate) fn refuted_in_order(&self, candidates: &[Candidate]) -> Vec<bool> {
        let mut failed_intervals: HashSet<(usize, usize)> = HashSet::new();
        let mut failed_merges: Vec<&[(u32, u32)]> = Vec::new();
        let mut out = Vec::with_capacity(candidates.len());
        for c in candidates {
            let refuted = c.interval.is_none()
                && c.origin != Origin::Chunk
                && !c.merges.is_empty()
                && (c.merges.iter().any(|&(a, b)| {
                    let (a, b) = (a as usize, b as usize);
                    a < b
                        && (self.known.contains(a, b)
                            || failed_intervals.contains(&self.word.canonical(a, b)))
                }) || failed_merges
                    .iter()
                    .any(|m| m.iter().all(|x| c.merges.contains(x))));
            out.push(refuted);
            match c.interval {
                Some(iv) => {
                    failed_intervals.insert(iv);
                }
                None => failed_merges.push(&c.merges),
            }
        }
        out
    }

    fn refute(&mut self, merges: &[(u32, u32)]) {
        self.refutations += 1;
        self.stats.refutations += 1;
        self.learn_combination(merges);
    }

    /// The merges in `merges` cannot all hold: a colouring with all of them accepts a string
    /// known not to be interesting.
    fn learn_combination(&mut self, merges: &[(u32, u32)]) {
        if merges.is_empty() {
            return;
        }
        self.stats.combinations += 1;
        self.combinations.push(merges.to_vec());
        if let Some(solver) = self.probe_solver() {
            solver.forbid(merges);
        }
        let window = self.windows[self.current];
        if let Some(live) = self.live.as_mut().filter(|l| !l.solver.is_dead())
            && let Some(inside) = in_window(window, merges)
        {
            live.solver.forbid(&inside);
        }
    }

    fn probe_solver(&mut self) -> Option<&mut ColouringSolver> {
        self.probe
            .as_mut()?
            .solver
            .as_mut()
            .filter(|s| !s.is_dead())
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
            merges: Vec::new(),
            origin,
            probe: false,
            chunk: None,
        }
    }

    fn candidates_from(&self, colouring: &Colouring, probe: bool) -> Vec<Candidate> {
        let mut out = Vec::new();
        let mut seen: HashSet<Vec<u32>> = HashSet::new();
        let quotient = Quotient::new(&self.word, colouring);
        let path = quotient.shortest_accepted(&self.word);
        debug_assert!(quotient.accepts(&path));
        let path_interval = self.word.as_interval(&path);
        let known = |iv: Option<(usize, usize)>| iv.is_some_and(|(i, j)| self.known.contains(i, j));
        if path.len() < self.word.len() && !known(path_interval) {
            seen.insert(path.clone());
            out.push(Candidate {
                bytes: self.word.spell(&path),
                merges: match path_interval {
                    Some(_) => Vec::new(),
                    None => path_merges(&self.word, colouring, &path),
                },
                symbols: path,
                interval: path_interval,
                origin: Origin::ShortestPath,
                probe,
                chunk: None,
            });
        }
        for (i, j) in colouring.class_intervals() {
            if probe && !self.is_bulk(j - i) {
                // A sliver is a poor bet for a test (39 % pass on first words, 0.01 bits a
                // test), and its success ends the word the probe has learned.
                continue;
            }
            if !self.known.contains(i, j) {
                let c = self.interval_candidate(i, j, Origin::ClassInterval);
                if seen.insert(c.symbols.clone()) {
                    out.push(Candidate { probe, ..c });
                }
            }
        }
        let batch = if probe { 0 } else { self.options.pair_batch };
        for ((i1, j1), (i2, j2)) in loop_pairs(colouring, batch) {
            let mut symbols = self.word.symbols()[..i1].to_vec();
            symbols.extend_from_slice(&self.word.symbols()[j1..i2]);
            symbols.extend_from_slice(&self.word.symbols()[j2..]);
            let interval = self.word.as_interval(&symbols);
            if known(interval) || !seen.insert(symbols.clone()) {
                continue;
            }
            out.push(Candidate {
                bytes: self.word.spell(&symbols),
                symbols,
                interval,
                merges: vec![(i1 as u32, j1 as u32), (i2 as u32, j2 as u32)],
                origin: Origin::Pair,
                probe,
                chunk: None,
            });
        }
        out
    }

    /// The probe's next colouring, or `None` once the probe is over on this word.
    fn probe_colouring(&mut self) -> Option<Colouring> {
        let mut probe = self.probe.take()?;
        let n = self.word.len();
        let cap = self.options.probe_colours.min(n + 1);
        while probe.rounds_left > 0 && probe.colours <= cap {
            if probe.solver.as_ref().is_none_or(|s| s.is_dead()) {
                let started = Instant::now();
                let segment = Segment::new(self.word.symbols(), self.word.alphabet_len());
                let pairs: Vec<(u32, u32)> = self.separated_pairs().collect();
                if cap < 2 {
                    return None;
                }
                if ColouringSolver::estimated_clauses(&segment, cap, pairs.len())
                    > self.options.max_clauses
                {
                    self.probe_too_large |= probe.rounds_left == self.options.probe_rounds;
                    return None;
                }
                let solver = ColouringSolver::new(&segment, cap, &pairs, &self.combinations);
                let spent = started.elapsed();
                self.stats.build_time += spent;
                self.stats.sat_time += spent;
                self.stats.builds += 1;
                self.stats.max_clauses = self.stats.max_clauses.max(solver.clauses());
                probe.solver = Some(solver);
            }
            let budget = self.budget();
            let solver = probe.solver.as_mut().expect("built above");
            let started = Instant::now();
            let answer = solver.solve_within(probe.colours, budget);
            self.note_solve(started.elapsed());
            match answer {
                Answer::Found(colouring) => {
                    debug_assert_eq!(colouring.violation(&self.word, self.known.pairs()), None);
                    self.stats.max_colours = self.stats.max_colours.max(colouring.colours());
                    probe.rounds_left -= 1;
                    self.probe = Some(probe);
                    return Some(colouring);
                }
                Answer::NoneWithin => probe.colours += 1,
                Answer::GaveUp(why) => {
                    self.note_give_up(why);
                    self.probe_too_large |= probe.rounds_left == self.options.probe_rounds;
                    return None;
                }
            }
        }
        None
    }

    fn note_solve(&mut self, spent: Duration) {
        self.stats.solves += 1;
        self.stats.sat_time += spent;
        self.stats.longest_solve = self.stats.longest_solve.max(spent);
    }

    fn note_give_up(&mut self, why: GiveUp) {
        self.stats.gave_up += 1;
        if why == GiveUp::Deadline {
            self.stats.gave_up_deadline += 1;
        }
    }

    fn budget(&self) -> SolveBudget {
        SolveBudget {
            time: self.options.solve_time,
            proof_bytes: self.options.solve_proof_bytes,
            conflicts: self.options.solve_conflicts,
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
    fn window_pairs(&self, window: EncodedRange) -> Vec<(u32, u32)> {
        let at = |p: usize| (p - window.start) as u32;
        let mut pairs: Vec<(u32, u32)> = self
            .separated_pairs()
            .filter(|&(i, j)| window.holds(i as usize, j as usize))
            .map(|(i, j)| (at(i as usize), at(j as usize)))
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
                let combinations: Vec<Vec<(u32, u32)>> = self
                    .combinations
                    .iter()
                    .filter_map(|m| in_window(window, m))
                    .collect();
                let solver = ColouringSolver::new(&segment, cap, &pairs, &combinations);
                let spent = started.elapsed();
                self.stats.build_time += spent;
                self.stats.sat_time += spent;
                self.stats.builds += 1;
                self.stats.max_clauses = self.stats.max_clauses.max(solver.clauses());
                self.live = Some(RangeSolver { solver, cap_limit });
            }
            let budget = self.budget();
            let live = self.live.as_mut().expect("built above");
            let started = Instant::now();
            let answer = live.solver.solve_within(k, budget);
            let cap_limit = live.cap_limit;
            self.note_solve(started.elapsed());
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
                    self.note_give_up(why);
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
    fn embed(&self, window: EncodedRange, inside: &Colouring) -> Colouring {
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
    fn a_failed_path_names_the_merges_it_needed() {
        // "xababy" coloured so that "ab" loops: 1, 3 and 5 share a colour, as do 2 and 4.
        let w = Word::from_symbols(b"xababy");
        let c = Colouring::from_colours(&[0, 1, 2, 1, 2, 1, 3]);
        let xy: Vec<u32> = w.delete(1, 5);
        assert_eq!(path_merges(&w, &c, &xy), vec![(1, 5)]);
        // "xaby" = x, then a from 1, b from 2, then the jump from 3 to 5 reading y.
        let xaby: Vec<u32> = w.delete(3, 5);
        assert_eq!(path_merges(&w, &c, &xaby), vec![(3, 5)]);
        // "xaybz" with a loop on x (0, 1) and one on b (3, 4): "ayz" needs both merges.
        let w = Word::from_symbols(b"xaybz");
        let c = Colouring::from_colours(&[0, 0, 1, 2, 2, 3]);
        assert_eq!(c.transition_conflict(&w), None);
        let ayz: Vec<u32> = [1, 2, 4].iter().map(|&i| w.symbol(i)).collect();
        assert_eq!(Quotient::new(&w, &c).shortest_accepted(&w), ayz);
        assert_eq!(path_merges(&w, &c, &ayz), vec![(0, 1), (3, 4)]);
    }

    #[test]
    fn loop_pairs_are_disjoint_loops_most_units_first() {
        let c = Colouring::from_colours(&[0, 0, 1, 2, 1, 3, 3]);
        assert_eq!(
            loop_pairs(&c, 8),
            vec![((0, 1), (2, 4)), ((2, 4), (5, 6)), ((0, 1), (5, 6))]
        );
        assert!(loop_pairs(&c, 0).is_empty());
    }

    #[test]
    fn windows_overlap_by_half_and_cover_every_position() {
        assert_eq!(cover(5, 8), vec![EncodedRange { start: 0, end: 5 }]);
        let windows = cover(20, 8);
        assert_eq!(windows.first(), Some(&EncodedRange { start: 0, end: 8 }));
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
            chunks_before_windows: false,
            ..DfaOptions::default()
        };
        let mut search = Induction::new(word, &options, &[], 9, false);
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

    #[test]
    fn expected_bits_weigh_a_verdicts_chance_by_what_a_success_removes() {
        let chunk = |granularity, kept_alone, accepted| ChunkKind {
            granularity,
            kept_alone,
            predicted: Some(accepted),
        };
        let mut beliefs = Beliefs::default();
        // Quarters: kept alone removes three quarters (2 bits), deleted one (0.415 bits).
        let kept = chunk(4, true, false);
        let deleted = chunk(4, false, true);
        assert!(beliefs.expected_bits(&kept) > beliefs.expected_bits(&deleted));
        // Measured: accepted deletions pass 9 times in 10, rejected chunks kept alone 1 in 10.
        beliefs.predicted[deleted.class()][0] = 0.9;
        beliefs.predicted[kept.class()][1] = 0.1;
        assert!(beliefs.expected_bits(&deleted) > beliefs.expected_bits(&kept));
        // Halves gain a bit either way, kept alone or deleted.
        assert_eq!(chunk(2, true, true).bits(), chunk(2, false, true).bits());
    }
}
