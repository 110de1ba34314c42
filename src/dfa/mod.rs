//! SAT-backed DFA induction: the search behind the pass that deletes whole loops of an inferred automaton.
//!
//! Main types: [`DfaOptions`] (the bounds of [`crate::passes::DfaPass`], the pass that runs this
//! search through the driver) and, inside, `Induction` (the rounds on one word).
//!
//! The current input is a word `S` over unit contents. A colouring of its positions `0..=n`
//! is a guess at which prefixes reach the same state of an automaton whose accepted strings
//! are all interesting; a consistent one (equal colour and equal symbol lead to equal colour)
//! that separates every learned pair is found by varisat with the fewest colours it can
//! afford. The pass tests the quotient automaton's shortest accepted string, then each colour
//! class's widest interval deletion; a failed deletion `[i, j)` is learned as "`i` and `j`
//! differ". It stops exactly when every canonical interval deletion is known to fail, so its
//! result is interval-minimal: no contiguous run of units can be deleted.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::{DfaOptions, DfaPass, Cx, Pass};
//! use myhill::text::Granularity;
//! // Interesting iff an 'x' comes before a 'y'.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     b.iter().position(|&c| c == b'x').is_some_and(|i| b[i..].contains(&b'y'))
//! });
//! let mut cx = Cx::new(b"abxabcabyab".to_vec(), &oracle, EvalOptions::default());
//! let mut pass = DfaPass::new(Granularity::Bytes, DfaOptions::default());
//! pass.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"xy");
//! assert_eq!(cx.report().counters[&myhill::report::Counter::DfaIntervalMinimal], myhill::report::Figure::Count(1));
//! ```
//!
//! Limits: interval-minimality costs one test per canonical interval of the final word that
//! the cache does not already know, which is quadratic in its length; the learned pairs take
//! `n²/2` bits, so words over [`DfaOptions::max_units`] are left alone (ddmin shrinks them
//! first in the `dfa` strategy). A solve is bounded by colours, clauses, proof bytes and time
//! (see `encoding`); when it gives up, the pass falls back to untested canonical intervals.
//! The design and measurements are in `notes/dfa-induction.md`; the measurements on generated
//! families of inputs, against ddmin, in `notes/dfa-families.md`.

mod colouring;
mod encoding;
mod induction;
mod known;
mod quotient;
mod word;

#[cfg(test)]
mod tests;

pub(crate) use induction::{Beliefs, Candidate, Induction, InductionStats, Origin};
pub(crate) use word::Word;

use std::time::Duration;

/// What the DFA pass does once its whole-word probe stops paying.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The windowed SAT search, to interval-minimal: the algorithm, for a word nothing else
    /// has reduced.
    Windows,
    /// The brute-force interval check through [`crate::check::certify`] on the shared cache, narrowest
    /// first, accepting what it finds, to interval-minimal: after other passes have reduced
    /// the word it costs the same proof without the SAT rounds' extra candidates.
    Certify,
    /// Nothing more: the pass is the probe alone, a cheap first look before other passes.
    ProbeOnly,
}

/// Bounds and switches of the DFA pass.
#[derive(Clone, Debug)]
pub struct DfaOptions {
    /// Words with more units are skipped (the learned-pair bitset is quadratic).
    pub max_units: usize,
    /// Words over more distinct units are skipped: with many symbols a colouring of at most a
    /// few colours is barely constrained, and its deletions are guesses (the default
    /// schedule's probe; `usize::MAX` elsewhere).
    pub max_alphabet: usize,
    /// The most colours any encoding offers.
    pub max_colours: usize,
    /// The most clauses of a base encoding; the colour cap shrinks until it fits.
    pub max_clauses: usize,
    /// Wall-clock bound of one solve: a safety net, since it depends on the machine.
    pub solve_time: Duration,
    /// Proof bytes one varisat solve may produce before it is abandoned (reproducible).
    pub solve_proof_bytes: u64,
    /// Conflicts one CaDiCaL solve may meet before it is abandoned (reproducible; read only
    /// with the `cadical` feature).
    pub solve_conflicts: u64,
    /// The most colours of the whole-word probe that runs before any window (below 2: no
    /// probe).
    pub probe_colours: usize,
    /// Probe rounds on one word before the windows take over.
    pub probe_rounds: usize,
    /// The probe deals in bulk: it proposes a colour class's interval only if that deletes at
    /// least `1/probe_bulk` of the word (smaller ones are left to ddmin's order and the walk),
    /// and it goes on to the next word only after a reduction of that much (0: any size, both).
    pub probe_bulk: usize,
    /// Deletions of two loops at once proposed per colouring (0: none).
    pub pair_batch: usize,
    /// Longer words are coloured one window of this many units at a time.
    pub window: usize,
    /// Rounds a search spends in one window before it moves to the next.
    pub window_rounds: usize,
    /// Untested canonical intervals proposed per round when the solver cannot help.
    pub fallback_batch: usize,
    /// Off: skip SAT and walk the canonical intervals widest first (for comparisons).
    pub use_solver: bool,
    /// What follows the probe.
    pub finish: Finish,
    /// Interval-minimal words of at most this many units then try deleting two units apart
    /// at once (0: never), with [`Finish::Windows`] only.
    pub pair_stage_units: usize,
    /// Test each round's candidates in the order of how often their origin paid so far in
    /// the run (off: in the order proposed).
    pub learn_order: bool,
    /// Failed colouring candidates of windows (paths, class intervals, pairs of loops; the
    /// probe's are free) a word may cost before its deletions come in ddmin's order (halves, quarters, ...: each chunk kept
    /// alone, then each chunk deleted) until that order finds nothing; then the colourings
    /// go on without a budget (`usize::MAX`: no chunks). With [`Finish::Windows`] only.
    pub colouring_failures_per_word: usize,
    /// With a failure budget: words longer than [`DfaOptions::window`] go straight to
    /// ddmin's order after the probe.
    pub chunks_before_windows: bool,
    /// Failed candidates of the whole-word probe a word may cost before the probe stops on it
    /// (`usize::MAX`: only [`DfaOptions::probe_rounds`] bounds it).
    pub probe_failures_per_word: usize,
    /// Scale the failure budget by how well colourings paid against chunks so far in the run
    /// (a belief per kind, as ProbDD keeps one per element).
    pub learn_budget: bool,
    /// Once ddmin's order finds nothing on a word, prove it interval-minimal by the walk over
    /// untested intervals alone, without colourings (whose paths and pairs prove nothing).
    pub walk_after_chunks: bool,
    /// Carry every learned inequality of a word through its accepted deletion as a hint for
    /// the next word's colourings (positions shift; pairs touching deleted units are dropped).
    /// A hint only constrains colourings: the interval-minimal stop still rests on tests.
    pub carry_hints: bool,
    /// In each round of ddmin's order on a word the probe coloured, test the chunks in the
    /// order of the bits each is expected to gain: the run's measured chance of a chunk of its
    /// kind given whether the quotient of the probe's last colouring accepts it, times the bits
    /// a success gains; the accepted first among equals (off: ddmin's order).
    pub order_chunks: bool,
    /// At granularities above halves, delete ddmin's chunks before keeping each alone when
    /// the run so far measured deletions paying more bits per test (the chance of success
    /// times the share of the word a success removes); off: always ddmin's order.
    pub chunk_kinds_by_payoff: bool,
    /// How many colourings of one word may be refuted by known failures and solved again
    /// (0: none are checked). A colouring whose quotient accepts a word the test rejected is
    /// a wrong automaton: its merges along that word are learned as a combination, and the
    /// solver looks again. A bound on solves, not on tests.
    pub refutations_per_word: usize,
    /// Take the whole-word deletion as failing without testing it, as the seed page's
    /// search starts from that pair; the end's interval-minimality then assumes it (off: it
    /// is tested once, so that the end rests on tests alone). For measurement: with the
    /// probe, colourings and pairs off too, the pass tests nothing outside ddmin's own order
    /// but the walk (notes/dfa-families.md, "Would choosing per case reach the targets?").
    pub whole_word_given: bool,
}

impl Default for DfaOptions {
    fn default() -> Self {
        DfaOptions {
            max_units: 16_384,
            max_alphabet: usize::MAX,
            max_colours: 64,
            max_clauses: 250_000,
            solve_time: Duration::from_secs(1),
            solve_proof_bytes: 256 << 10,
            solve_conflicts: 20_000,
            probe_colours: 3,
            probe_rounds: 6,
            probe_bulk: 8,
            pair_batch: 4,
            window: 128,
            window_rounds: 4,
            fallback_batch: 16,
            use_solver: true,
            finish: Finish::Windows,
            pair_stage_units: 32,
            learn_order: false,
            colouring_failures_per_word: 2,
            chunks_before_windows: true,
            probe_failures_per_word: usize::MAX,
            learn_budget: false,
            walk_after_chunks: true,
            carry_hints: false,
            order_chunks: true,
            chunk_kinds_by_payoff: true,
            refutations_per_word: 32,
            whole_word_given: false,
        }
    }
}
