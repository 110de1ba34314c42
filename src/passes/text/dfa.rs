//! The DFA pass as a [`Pass`]: an [`Induction`] per word, tested through the driver in order.
//!
//! Learning follows the order of proposals, never the order of completion: a round's
//! candidates are fixed before testing, and only those before the winner (or all of them, if
//! none won) are learned as failures, after `try_candidates` returns. Candidates whose failure
//! the content cache already knows are learned at their place without a test. So the accepted
//! reductions are the same for every `--jobs`, as long as no solve hits its wall-clock
//! deadline (the proof-byte budget, which is reproducible, normally trips first).

use crate::certify::{Certificate, Minimality};
use crate::cx::Cx;
use crate::dfa::{Beliefs, Candidate, DfaOptions, Finish, Induction, InductionStats, Origin, Word};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;
use crate::units::{Granularity, Units};

/// What the search on a word hands to the search on the smaller word after a reduction.
struct Restart {
    /// Failing deletions of the old word that are failing deletions of the new one.
    carried: Vec<(usize, usize)>,
    /// Pairs of positions of the new word that differed in the old one (with
    /// [`DfaOptions::carry_hints`]).
    hints: Vec<(usize, usize)>,
    /// Where the accepted deletion began: the search resumes in the window there.
    near: usize,
    /// Probe the new word first: the probe made this reduction (or none was made yet).
    probe: bool,
}

impl Default for Restart {
    fn default() -> Restart {
        Restart {
            carried: Vec::new(),
            hints: Vec::new(),
            near: 0,
            probe: true,
        }
    }
}

/// How often the candidates of each origin were interesting, over the whole run: with
/// [`DfaOptions::learn_order`] the pass tests the origins that paid first, and with
/// [`DfaOptions::chunk_kinds_by_payoff`] ddmin's chunks kept alone or deleted first. One
/// Beta(1, 1) belief per kind, as ProbDD keeps one per element; it carries across bests
/// because what kind of deletion pays is a property of the input's language, not of one word.
#[derive(Clone, Debug, Default)]
struct Outcomes {
    /// (interesting, tested) per origin.
    counts: [(u64, u64); 6],
    /// (interesting, tested) of ddmin's chunks by class (halves, kept alone, deleted) and by
    /// the probe's quotient's verdict (accepts, rejects, none: the probe did not colour the
    /// word).
    chunks: [[(u64, u64); 3]; 3],
}

/// The mean of the Beta(1, 1) posterior of a chance after `good` successes in `all` trials.
fn posterior_mean((good, all): (u64, u64)) -> f64 {
    (good as f64 + 1.0) / (all as f64 + 2.0)
}

/// The (interesting, tested) counts of `cells` together.
fn pooled(cells: &[(u64, u64)]) -> (u64, u64) {
    cells
        .iter()
        .fold((0, 0), |(good, all), &(g, a)| (good + g, all + a))
}

impl Outcomes {
    fn slot(origin: Origin) -> usize {
        match origin {
            Origin::Span => 0,
            Origin::ShortestPath => 1,
            Origin::Pair => 2,
            Origin::ClassInterval => 3,
            Origin::Fallback => 4,
            Origin::Chunk => 5,
        }
    }

    /// The posterior mean chance that a candidate of `origin` is interesting.
    fn rate(&self, origin: Origin) -> f64 {
        posterior_mean(self.counts[Self::slot(origin)])
    }

    /// The posterior mean chance that a colouring's candidate (path, pair or class interval)
    /// is interesting.
    fn colouring_rate(&self) -> f64 {
        posterior_mean(pooled(
            &[Origin::ShortestPath, Origin::Pair, Origin::ClassInterval]
                .map(|o| self.counts[Self::slot(o)]),
        ))
    }

    fn record(&mut self, candidate: &Candidate, interesting: bool) {
        let count = |c: &mut (u64, u64)| {
            c.0 += u64::from(interesting);
            c.1 += 1;
        };
        count(&mut self.counts[Self::slot(candidate.origin)]);
        if let Some(chunk) = candidate.chunk {
            let verdict = match chunk.predicted {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            };
            count(&mut self.chunks[chunk.class()][verdict]);
        }
    }

    fn beliefs(&self) -> Beliefs {
        Beliefs {
            colouring: self.colouring_rate(),
            chunk: self.rate(Origin::Chunk),
            // At halves, keeping one chunk alone is deleting the other: no kind to learn.
            kept_alone: posterior_mean(pooled(&self.chunks[1])),
            deleted: posterior_mean(pooled(&self.chunks[2])),
            // Each verdict's chance, drawn toward its class's chance over both verdicts
            // while it has few outcomes of its own.
            predicted: std::array::from_fn(|class| {
                let [accepted, rejected, _] = self.chunks[class];
                let both = posterior_mean(pooled(&[accepted, rejected]));
                [accepted, rejected]
                    .map(|(good, all)| (good as f64 + 2.0 * both) / (all as f64 + 2.0))
            }),
        }
    }
}

/// SAT-backed DFA induction over the units of one granularity.
pub struct DfaPass {
    outcomes: Outcomes,
    granularity: Granularity,
    options: DfaOptions,
    /// The last input this pass proved interval-minimal, so a fixpoint round is free.
    proven_minimal: Option<Vec<u8>>,
    /// The last input a probe-only pass looked at without reducing it.
    probed: Option<Vec<u8>>,
    /// A probe-only pass that once looked without paying stays quiet: what other passes
    /// leave behind is not where a coarse colouring of the whole word pays.
    retired: bool,
}

impl DfaPass {
    /// The pass over units of `granularity`, within `options`' bounds.
    pub fn new(granularity: Granularity, options: DfaOptions) -> DfaPass {
        DfaPass {
            outcomes: Outcomes::default(),
            granularity,
            options,
            proven_minimal: None,
            probed: None,
            retired: false,
        }
    }

    /// The whole-word probe alone (`dfa-probe/UNITS`), on words of at most `max_units`, for as
    /// many rounds a word as the pass's own probe; once a run of it reduces nothing, later
    /// runs do nothing.
    pub fn probe(granularity: Granularity, max_units: usize) -> DfaPass {
        DfaPass::new(
            granularity,
            DfaOptions {
                max_units,
                finish: Finish::ProbeOnly,
                // Measured: in the default schedule, solving again after a refutation costs
                // tests and minima on the families (notes/negative-results.md).
                refutations_per_word: 0,
                ..DfaOptions::default()
            },
        )
    }

    /// The same pass, skipping words over more than `max_alphabet` distinct units.
    pub fn with_max_alphabet(mut self, max_alphabet: usize) -> DfaPass {
        self.options.max_alphabet = max_alphabet;
        self
    }

    /// The interval stage for a word other passes have reduced (`dfa-check/UNITS`): no probe,
    /// the brute-force check on the shared cache, on words of at most `max_units`.
    pub fn check(granularity: Granularity, max_units: usize) -> DfaPass {
        DfaPass::new(
            granularity,
            DfaOptions {
                max_units,
                probe_colours: 0,
                finish: Finish::Certify,
                ..DfaOptions::default()
            },
        )
    }
}

fn report(cx: &mut Cx, stats: &InductionStats, learned: u64) {
    cx.count(Counter::DfaSolves, stats.solves);
    cx.time(Counter::DfaSatSeconds, stats.sat_time);
    cx.time(Counter::DfaBuildSeconds, stats.build_time);
    cx.count(Counter::DfaGaveUp, stats.gave_up);
    cx.count(Counter::DfaGaveUpDeadline, stats.gave_up_deadline);
    cx.count(Counter::DfaBuilds, stats.builds);
    cx.count(Counter::DfaSolverRounds, stats.solver_rounds);
    cx.count(Counter::DfaFallbackRounds, stats.fallback_rounds);
    cx.count(Counter::DfaCarriedPairs, stats.carried_pairs);
    cx.count(Counter::DfaWindowsExhausted, stats.windows_exhausted);
    cx.count(Counter::DfaProbeRounds, stats.probe_rounds);
    cx.count(Counter::DfaLearnedCombinations, stats.combinations);
    cx.count(Counter::DfaRefutations, stats.refutations);
    cx.count(Counter::DfaLearnedPairs, learned);
    cx.count(Counter::DfaMaxColours, stats.max_colours as u64);
    cx.count(Counter::DfaMaxClauses, stats.max_clauses as u64);
    cx.time(Counter::DfaLongestSolveSeconds, stats.longest_solve);
}

impl Pass for DfaPass {
    fn name(&self) -> String {
        let kind = match self.options.finish {
            Finish::Windows => "dfa",
            Finish::ProbeOnly => "dfa-probe",
            Finish::Certify => "dfa-check",
        };
        format!("{kind}/{}", self.granularity)
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        if self.retired
            || self.proven_minimal.as_deref() == Some(cx.best())
            || self.probed.as_deref() == Some(cx.best())
        {
            return Ok(());
        }
        let started_from = cx.best().len();
        let mut restart = Restart::default();
        loop {
            if self.granularity == Granularity::Bytes && cx.best().len() > self.options.max_units {
                // Too many units, known without the cut (which holds 5 bytes per byte).
                cx.count(Counter::DfaSkippedTooLarge, 1);
                self.retired =
                    self.options.finish == Finish::ProbeOnly && cx.best().len() == started_from;
                return Ok(());
            }
            let units = Units::cut(cx.best(), self.granularity);
            if units.is_empty() {
                cx.count(Counter::DfaIntervalMinimal, 1);
                return Ok(());
            }
            let too_large = units.len() > self.options.max_units;
            let word = (!too_large).then(|| Word::new(&units));
            let skip = match &word {
                None => Some(Counter::DfaSkippedTooLarge),
                Some(w) if w.alphabet_len() > self.options.max_alphabet => {
                    Some(Counter::DfaSkippedAlphabet)
                }
                Some(_) => None,
            };
            if let Some(why) = skip {
                cx.count(why, 1);
                self.retired =
                    self.options.finish == Finish::ProbeOnly && cx.best().len() == started_from;
                return Ok(());
            }
            let certify_now = !restart.probe && self.options.finish == Finish::Certify;
            if !certify_now && let Some(word) = word {
                let mut induction = Induction::new(
                    word,
                    &self.options,
                    &restart.carried,
                    restart.near,
                    restart.probe,
                );
                induction.add_hints(&restart.hints);
                let learned_before = induction.known().canonical_known();
                let outcome = self.search(cx, &mut induction);
                let learned = induction.known().canonical_known() - learned_before;
                report(cx, &induction.stats, learned);
                if let Some(next) = outcome? {
                    restart = next;
                    continue;
                }
                if induction.is_interval_minimal() {
                    cx.count(Counter::DfaIntervalMinimal, 1);
                    if self.options.finish == Finish::Windows
                        && induction.word().len() <= self.options.pair_stage_units
                        && self.delete_a_pair(cx, induction.word())?
                    {
                        restart = Restart::default();
                        continue;
                    }
                    self.proven_minimal = Some(cx.best().to_vec());
                    return Ok(());
                }
            }
            match self.options.finish {
                Finish::Windows => unreachable!("the windowed search ends interval-minimal"),
                Finish::ProbeOnly => {
                    self.retired = cx.best().len() == started_from;
                    self.probed = Some(cx.best().to_vec());
                    return Ok(());
                }
                Finish::Certify => {
                    let units = Units::cut(cx.best(), self.granularity);
                    match cx.certify(&units, Minimality::IntervalMinimal)? {
                        Certificate::Minimal { .. } => {
                            cx.count(Counter::DfaIntervalMinimal, 1);
                            self.proven_minimal = Some(cx.best().to_vec());
                            return Ok(());
                        }
                        Certificate::NotMinimal { smaller, .. } => {
                            // Tested interesting a moment ago: the cache answers, no test.
                            let mut once = Some((smaller, ()));
                            if cx.try_candidates(&mut || once.take())?.is_some() {
                                cx.count(Counter::DfaAcceptedCertify, 1);
                            }
                            restart = Restart {
                                probe: false,
                                ..Restart::default()
                            };
                        }
                    }
                }
            }
        }
    }
}

impl DfaPass {
    /// Runs rounds on one word until a reduction (returns the pairs that carry over to the
    /// new word, and where the deletion began) or interval-minimality (returns `None`).
    fn search(&mut self, cx: &mut Cx, induction: &mut Induction) -> Result<Option<Restart>, Stop> {
        loop {
            induction.set_beliefs(self.outcomes.beliefs());
            let Some(round) = induction.next_round() else {
                break;
            };
            let mut round = round;
            if self.options.learn_order {
                // Stable: within an origin the proposal order (widest, most units) stands.
                round.candidates.sort_by(|a, b| {
                    self.outcomes
                        .rate(b.origin)
                        .total_cmp(&self.outcomes.rate(a.origin))
                });
            }
            let refuted = induction.refuted_in_order(&round.candidates);
            let mut bytes: Vec<Option<Vec<u8>>> = Vec::with_capacity(round.candidates.len());
            for (c, &refuted) in round.candidates.iter().zip(&refuted) {
                let known_failure = c.interval.is_some()
                    && cx.cached(&c.bytes).is_some_and(|v| !v.is_interesting());
                if known_failure {
                    cx.count(Counter::DfaCacheSeededPairs, 1);
                }
                bytes.push((!known_failure && !refuted).then(|| c.bytes.clone()));
            }
            let mut position = 0;
            let mut next = || {
                while position < bytes.len() {
                    position += 1;
                    if let Some(b) = bytes[position - 1].take() {
                        return Some((b, position - 1));
                    }
                }
                None
            };
            let winner = cx.try_candidates(&mut next)?;
            let failed = winner.unwrap_or(round.candidates.len());
            let reached = winner.map_or(failed, |w| w + 1);
            for (i, (c, &refuted)) in round.candidates[..reached].iter().zip(&refuted).enumerate() {
                if !refuted {
                    self.outcomes.record(c, winner == Some(i));
                }
                let counter = match (refuted, c.origin) {
                    (true, _) => Counter::DfaRefuted,
                    (false, Origin::Span) => Counter::DfaSubmittedSpan,
                    (false, Origin::Fallback) => Counter::DfaSubmittedFallback,
                    (false, Origin::Chunk) => Counter::DfaSubmittedChunk,
                    (false, _) => Counter::DfaSubmittedColouring,
                };
                cx.count(counter, 1);
            }
            for c in &round.candidates[..failed] {
                induction.learn_failure(c);
            }
            if let Some(w) = winner {
                let won = &round.candidates[w];
                let counter = match won.origin {
                    Origin::ShortestPath => Counter::DfaAcceptedShortestPath,
                    Origin::Pair => Counter::DfaAcceptedPair,
                    Origin::ClassInterval => Counter::DfaAcceptedInterval,
                    Origin::Fallback => Counter::DfaAcceptedFallback,
                    Origin::Span => Counter::DfaAcceptedSpan,
                    Origin::Chunk => Counter::DfaAcceptedChunk,
                };
                cx.count(counter, 1);
                if won.probe {
                    cx.count(Counter::DfaAcceptedProbe, 1);
                }
                let (carried, hints) = if self.recuts_alike(cx, induction, &won.symbols) {
                    let hints = if self.options.carry_hints {
                        induction.hints_after(won)
                    } else {
                        Vec::new()
                    };
                    (induction.carried_over(won), hints)
                } else {
                    (Vec::new(), Vec::new())
                };
                let near = won.interval.map_or(0, |(i, _)| i);
                let pays =
                    won.probe && induction.is_bulk(induction.word().len() - won.symbols.len());
                return Ok(Some(Restart {
                    carried,
                    hints,
                    near,
                    // Paying means deleting in bulk: a probe that trims a few units per round
                    // costs more than the ddmin-style passes after it (seed-200 at lines). A
                    // probe left off for the word's size alone waits for a smaller word.
                    probe: pays || induction.probe_too_large(),
                }));
            }
        }
        Ok(None)
    }

    /// On an interval-minimal word, deletes two units apart at once if any such deletion is
    /// interesting: a bracket with its partner, which no quotient of a word that needs each
    /// alone can propose, or two equal units that keep a count's parity (`abab` to `aa`).
    /// Outermost pairs first; a result two pairs share is tested once (the cache). Returns
    /// whether one was accepted.
    fn delete_a_pair(&self, cx: &mut Cx, word: &Word) -> Result<bool, Stop> {
        let n = word.len();
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 2..n).map(move |j| (i, j)))
            .collect();
        pairs.sort_by_key(|&(i, j)| (std::cmp::Reverse(j - i), i));
        let mut candidates = pairs.into_iter().map(|(i, j)| {
            let kept: Vec<u32> = (0..n)
                .filter(|&p| p != i && p != j)
                .map(|p| word.symbol(p))
                .collect();
            (word.spell(&kept), ())
        });
        let tried = cx.try_candidates(&mut || candidates.next())?;
        if tried.is_some() {
            cx.count(Counter::DfaAcceptedUnitPair, 1);
        }
        Ok(tried.is_some())
    }

    /// Carried pairs are positions of the candidate's symbols; they apply only if cutting the
    /// accepted bytes again gives the same units (tokens can fuse across a deletion).
    fn recuts_alike(&self, cx: &Cx, induction: &Induction, symbols: &[u32]) -> bool {
        let units = Units::cut(cx.best(), self.granularity);
        let word = induction.word();
        units.len() == symbols.len()
            && symbols
                .iter()
                .enumerate()
                .all(|(i, &s)| units.unit(i as u32) == word.spelling(s))
    }
}
