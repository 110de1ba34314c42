//! What a reduction tells the world: the event stream, and the figures of a run.
//!
//! Main types: [`Event`] (the one stream the terminal display, `--stats-json` and library users
//! all read), [`Stop`] (why a run ended early), [`EvalStats`], [`PassStats`], [`Counter`] (every
//! pass-specific figure, each named once), [`Figure`] and [`Report`].
//!
//! ```
//! use myhill::{Event, FnOracle, Reduction, ReduceOptions, Strategy};
//! let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
//! let mut sizes = Vec::new();
//! let mut reduction = Reduction::new(b"abxcd".to_vec(), &oracle, ReduceOptions::default());
//! reduction.on_event(|e| if let Event::Reduced { bytes, .. } = e { sizes.push(bytes.len()) });
//! reduction.run(&mut Strategy::named("ddmin").unwrap().schedule()).unwrap();
//! drop(reduction);
//! assert_eq!(sizes.last(), Some(&1));
//! ```
//!
//! Limits: events borrow the reduction's data; a listener that keeps them must copy.

use crate::oracle::Verdict;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

/// The one event stream of a run. A [`crate::Reduction`] owns it and lends a handle to its
/// evaluator (tests, progress) and driver (passes, reductions); every [`Event`] goes to the one
/// listener.
#[derive(Clone, Default)]
pub(crate) struct Events<'a>(Rc<RefCell<Option<Listener<'a>>>>);

type Listener<'a> = Box<dyn FnMut(&Event) + 'a>;

impl<'a> Events<'a> {
    /// Sends every event from now on to `f`.
    pub(crate) fn listen(&self, f: impl FnMut(&Event) + 'a) {
        *self.0.borrow_mut() = Some(Box::new(f));
    }

    /// Hands `event` to the listener, if there is one.
    pub(crate) fn emit(&self, event: &Event) {
        if let Some(listener) = self.0.borrow_mut().as_mut() {
            listener(event);
        }
    }
}

/// Why evaluation stopped before a pass ran out of candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The user stopped the run ([`crate::process::Control::stop`]: Ctrl-C, SIGTERM, `q`).
    Interrupted,
    /// The test budget is used up.
    Budget,
    /// The running pass was skipped ([`crate::process::Control::skip_pass`]); the run goes on.
    SkipPass,
    /// The running pass handed its tests over to passes expected to pay more a test (its
    /// recent yield fell below theirs); the run goes on.
    HandOver,
    /// The oracle could not run a test at all.
    Oracle(String),
}

impl Stop {
    /// A stable name for machine-readable output: `interrupted`, `budget`, `skip_pass`,
    /// `hand_over`, `test_error`.
    pub fn name(&self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::Budget => "budget",
            Stop::SkipPass => "skip_pass",
            Stop::HandOver => "hand_over",
            Stop::Oracle(_) => "test_error",
        }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Interrupted => f.write_str("interrupted"),
            Stop::Budget => f.write_str("test budget used up"),
            Stop::SkipPass => f.write_str("pass skipped"),
            Stop::HandOver => f.write_str("pass handed over"),
            Stop::Oracle(msg) => write!(f, "the test could not be run: {msg}"),
        }
    }
}

/// Counters of the evaluation path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalStats {
    /// Tests as a one-job run counts them: each candidate whose verdict was needed and not
    /// already known (a confirmed success counts its confirming runs). Budgets count these, so
    /// a budget gives the same result for every `--jobs`.
    pub tests_run: u64,
    /// Candidates whose verdict was already known.
    pub cache_hits: u64,
    /// Tests among `tests_run` whose verdict came from a verdict store (a resumed run's cache)
    /// instead of a run of the test.
    pub recalled: u64,
    /// Tests among `tests_run` that timed out.
    pub timeouts: u64,
    /// Tests among `tests_run` that were interesting.
    pub interesting: u64,
    /// Every time the test ran: speculative, confirming, re-run and cancelled runs included
    /// (a verdict recalled from a store is not a run).
    pub oracle_runs: u64,
    /// Tests started while an earlier candidate was still undecided, or ahead of their pass
    /// (the lookahead).
    pub speculative_started: u64,
    /// Those among `speculative_started` whose verdict no candidate needed: cancelled, or
    /// never charged by the end of the run. At most `speculative_started`.
    pub speculative_wasted: u64,
    /// Tests running right now.
    pub running: usize,
    /// Total time tests were running, summed over workers.
    pub busy: Duration,
    /// Wall time spent evaluating.
    pub wall: Duration,
}

/// How a [`Counter`] folds the values it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Counts added up.
    Sum,
    /// The largest count seen.
    Max,
    /// Times added up.
    SumSeconds,
    /// The longest time seen.
    MaxSeconds,
}

macro_rules! counters {
    ($($(#[doc = $doc:expr])* $variant:ident = $name:literal, $fold:ident;)*) => {
        /// A figure a pass or the reduction keeps beside the evaluator's counters, named once
        /// here: its name in the summary and the stats file is [`Counter::name`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Counter {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Counter {
            /// Every counter, in order.
            pub const ALL: &'static [Counter] = &[$(Counter::$variant),*];

            /// Its name in reports: `owner.what`, in snake case.
            pub fn name(self) -> &'static str {
                match self {
                    $(Counter::$variant => $name,)*
                }
            }

            /// How the values it is given add up.
            pub fn fold(self) -> Fold {
                match self {
                    $(Counter::$variant => Fold::$fold,)*
                }
            }
        }
    };
}

counters! {
    /// Rounds that ran only the passes that paid in the round before.
    RestrictedRounds = "reduction.restricted_rounds", Sum;
    /// Rollbacks after a re-run of the best failed.
    FlakyRollbacks = "reduction.flaky_rollbacks", Sum;
    /// Complete rounds: every candidate of every sweep tested.
    CompleteRounds = "reduction.complete_rounds", Sum;
    /// Sweep candidates skipped for having failed in the same context.
    SweepRemembered = "sweep.remembered", Sum;
    /// Sweeps stopped after too many failures in a row.
    SweepPatienceStops = "sweep.patience_stops", Sum;
    /// Pass runs that handed their tests over to passes expected to pay more a test (their
    /// last tests' yield fell below the most another pass is expected to pay).
    HandOvers = "reduction.hand_overs", Sum;
    /// Runs of binary splitting over words that handed their tests over to passes expected
    /// to pay more per test.
    SplitHandOvers = "split.hand_overs", Sum;
    /// Partition levels whose merge of successes did not hold.
    PartitionMergesFailed = "partition.merges_failed", Sum;
    /// Nestings built: once per distinct best that a pass or a gate read the nesting of.
    NestingBuilds = "nesting.builds", Sum;
    /// The most nodes of an inferred tree.
    TreeNodes = "tree.nodes", Max;
    /// The deepest inferred tree.
    TreeDepth = "tree.depth", Max;
    /// Record layouts the length-aware pass inferred.
    LengthAwareLayoutsFound = "length_aware.layouts_found", Sum;
    /// Renamings accepted.
    RenameAccepted = "rename.accepted", Sum;
    /// Files of a tree that `files/each` ran a one-file schedule on.
    FilesEachFiles = "files.each_files", Sum;
    /// Re-runs of a tree between the passes of one file's schedule (`files/each`).
    FilesEachReruns = "files.each_reruns", Sum;
    /// Rollbacks of a tree between the passes of one file's schedule (`files/each`).
    FilesEachRollbacks = "files.each_rollbacks", Sum;
    /// SAT solves of the DFA pass.
    DfaSolves = "dfa.solves", Sum;
    /// Time in the SAT solver.
    DfaSatSeconds = "dfa.sat_seconds", SumSeconds;
    /// Time building encodings.
    DfaBuildSeconds = "dfa.build_seconds", SumSeconds;
    /// Solves given up at the conflict limit.
    DfaGaveUp = "dfa.gave_up", Sum;
    /// Solves given up at the deadline.
    DfaGaveUpDeadline = "dfa.gave_up_deadline", Sum;
    /// Encodings built.
    DfaBuilds = "dfa.builds", Sum;
    /// Rounds whose candidates came from a solve.
    DfaSolverRounds = "dfa.solver_rounds", Sum;
    /// Rounds that fell back to intervals without a solve.
    DfaFallbackRounds = "dfa.fallback_rounds", Sum;
    /// Known pairs carried over to the word after a deletion.
    DfaCarriedPairs = "dfa.carried_pairs", Sum;
    /// Windows searched to the end.
    DfaWindowsExhausted = "dfa.windows_exhausted", Sum;
    /// Rounds of the whole-word probe.
    DfaProbeRounds = "dfa.probe_rounds", Sum;
    /// Combinations learned from failures.
    DfaLearnedCombinations = "dfa.learned_combinations", Sum;
    /// Canonical pairs learned.
    DfaLearnedPairs = "dfa.learned_pairs", Sum;
    /// The most colours of a solve.
    DfaMaxColours = "dfa.max_colours", Max;
    /// The most clauses of an encoding.
    DfaMaxClauses = "dfa.max_clauses", Max;
    /// The longest solve.
    DfaLongestSolveSeconds = "dfa.longest_solve_seconds", MaxSeconds;
    /// Words proven interval-minimal.
    DfaIntervalMinimal = "dfa.interval_minimal", Sum;
    /// Words skipped for having too many units.
    DfaSkippedTooLarge = "dfa.skipped_too_large", Sum;
    /// Words skipped for having too many distinct units.
    DfaSkippedAlphabet = "dfa.skipped_alphabet", Sum;
    /// Deletions the interval check found and accepted.
    DfaAcceptedCertify = "dfa.accepted_certify", Sum;
    /// Candidate pairs known to fail from the cache, not tested.
    DfaCacheSeededPairs = "dfa.cache_seeded_pairs", Sum;
    /// Accepted candidates that were shortest paths of the quotient.
    DfaAcceptedShortestPath = "dfa.accepted_shortest_path", Sum;
    /// Accepted candidates that were pairs of loops.
    DfaAcceptedPair = "dfa.accepted_pair", Sum;
    /// Accepted candidates that were intervals of one class.
    DfaAcceptedInterval = "dfa.accepted_interval", Sum;
    /// Accepted candidates of the fallback.
    DfaAcceptedFallback = "dfa.accepted_fallback", Sum;
    /// Accepted candidates of the ddmin-order chunks.
    DfaAcceptedChunk = "dfa.accepted_chunk", Sum;
    /// Accepted candidates that were spans.
    DfaAcceptedSpan = "dfa.accepted_span", Sum;
    /// Accepted candidates of the probe.
    DfaAcceptedProbe = "dfa.accepted_probe", Sum;
    /// Accepted deletions of two units apart on an interval-minimal word.
    DfaAcceptedUnitPair = "dfa.accepted_unit_pair", Sum;
    /// Candidates of colourings (probe and windows) handed to the driver.
    DfaSubmittedColouring = "dfa.submitted_colouring", Sum;
    /// Candidates of the fallback walk handed to the driver.
    DfaSubmittedFallback = "dfa.submitted_fallback", Sum;
    /// Chunks in ddmin's order (after the colouring candidates' failure budget) handed to the driver.
    DfaSubmittedChunk = "dfa.submitted_chunk", Sum;
    /// Spans (whole word or window) handed to the driver.
    DfaSubmittedSpan = "dfa.submitted_span", Sum;
    /// Candidates not tested because a failure earlier in their round refutes them.
    DfaRefuted = "dfa.refuted", Sum;
    /// Colourings solved again because their automaton accepted a word the test rejected.
    DfaRefutations = "dfa.refutations", Sum;
}

impl std::fmt::Display for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A named figure of a run: a count, or a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// Something counted.
    Count(u64),
    /// A duration in seconds.
    Seconds(f64),
}

impl Figure {
    /// The figure as a number (a count, or seconds).
    pub fn value(self) -> f64 {
        match self {
            Figure::Count(n) => n as f64,
            Figure::Seconds(s) => s,
        }
    }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Figure::Count(n) => write!(f, "{n}"),
            Figure::Seconds(s) => write!(f, "{s:.3}s"),
        }
    }
}

/// Figures of one pass (summed over every time the schedule ran it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassStats {
    /// The pass's name.
    pub name: String,
    /// How many times it ran.
    pub runs: u64,
    /// How many of those runs were skipped by the user.
    pub skipped: u64,
    /// Tests it caused.
    pub tests: u64,
    /// Its candidates answered from the cache.
    pub cache_hits: u64,
    /// Candidates of it that were accepted.
    pub successes: u64,
    /// Bytes those acceptances removed.
    pub bytes_removed: u64,
    /// Time spent in it.
    pub time: Duration,
}

/// The figures of a whole run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The input's size.
    pub initial_bytes: usize,
    /// The result's size.
    pub final_bytes: usize,
    /// The evaluation path's counters.
    pub eval: EvalStats,
    /// Per pass, in the order they first ran.
    pub passes: Vec<PassStats>,
    /// Wall time of the run.
    pub wall: Duration,
    /// Tests run at once.
    pub jobs: usize,
    /// Runs of the unchanged original before reducing.
    pub first_check_runs: u64,
    /// Re-runs of the best between passes and at the end.
    pub verify_runs: u64,
    /// Times the best went back to an earlier result because a re-run failed.
    pub rollbacks: u64,
    /// Whether the result passed a re-run (or is the original, which the first check ran).
    pub confirmed: bool,
    /// (tests run, bytes) at the start and after every change of the best.
    pub trace: Vec<(u64, usize)>,
    /// When each entry of `trace` happened, since the run began.
    pub trace_times: Vec<Duration>,
    /// Pass-specific figures (for example the DFA pass's solves).
    pub counters: BTreeMap<Counter, Figure>,
    /// Why the run ended early, if it did.
    pub stopped: Option<Stop>,
    /// The input's kind and what decided it.
    pub kind: crate::kind::Decided,
    /// The kind of each file of a tree that the per-file passes reduced, by path.
    pub file_kinds: BTreeMap<String, crate::kind::Decided>,
}

impl Report {
    /// When `share` (0 to 1) of the final reduction was first reached: the tests run and the
    /// time since the start, from the trace. `None` if nothing was removed.
    pub fn reached(&self, share: f64) -> Option<(u64, Duration)> {
        let initial = self.initial_bytes as f64;
        let removed = initial - self.final_bytes as f64;
        if removed <= 0.0 {
            return None;
        }
        let target = initial - share * removed;
        let k = self
            .trace
            .iter()
            .position(|&(_, bytes)| bytes as f64 <= target + 1e-9)?;
        Some((
            self.trace[k].0,
            self.trace_times.get(k).copied().unwrap_or_default(),
        ))
    }
}

/// What a reduction tells its listener, in order.
#[derive(Debug)]
pub enum Event<'a> {
    /// The first check is over and reducing starts.
    Started {
        /// The input's size.
        bytes: usize,
        /// Tests run at once.
        jobs: usize,
    },
    /// A test ended (speculative ones included).
    Tested {
        /// Its verdict.
        verdict: Verdict,
        /// The candidate's content key (a 128-bit hash of its bytes).
        candidate: u128,
        /// The candidate's size in bytes.
        size: usize,
        /// How long the test ran.
        duration: Duration,
        /// The last bytes it printed on stdout (empty unless kept: [`crate::process::Control::keep_output`]).
        stdout: &'a [u8],
        /// The last bytes it printed on stderr (empty unless kept).
        stderr: &'a [u8],
        /// The counters after it.
        stats: &'a EvalStats,
    },
    /// A pass begins.
    PassStarted {
        /// Its name.
        pass: &'a str,
    },
    /// How far the running pass has got: `done` of `total` steps (candidates of a sweep, or the
    /// unit where a policy's latest candidate starts). Sent when it moves, while candidates
    /// are pulled; a pass that sweeps its input several times starts over.
    Progress {
        /// Steps done.
        done: u64,
        /// Steps in all.
        total: u64,
    },
    /// A smaller interesting input was accepted; `bytes` is the new best.
    Reduced {
        /// The pass that found it.
        pass: &'a str,
        /// The new best.
        bytes: &'a [u8],
        /// Tests run so far.
        tests: u64,
    },
    /// A pass ended.
    PassDone {
        /// Its figures so far.
        stats: &'a PassStats,
    },
    /// The best did not pass a re-run and went back to `bytes`, the last result that did.
    RolledBack {
        /// The best now.
        bytes: &'a [u8],
    },
    /// The run is over; `best` is the result.
    Finished {
        /// The result.
        best: &'a [u8],
        /// The figures.
        report: &'a Report,
    },
}
