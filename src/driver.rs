//! The driver: the current best input, and the only place a candidate is accepted.
//!
//! Main types: [`Driver`] and [`View`]. The driver holds the best, the evaluation path that
//! tests candidates, the best's shared nesting and the kind of input it is; its [`View`] says
//! whether the best is the whole input or one file of a tree (every candidate is then lifted
//! into the whole tree before it is tested). Passes never hold a driver: they get a
//! [`crate::passes::Cx`], which records what the driver accepts in the run's ledger and
//! keeps the sweeps' memory beside it.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::Cx;
//! use myhill::policy::{DDMin, Policy};
//! use myhill::text::{Granularity, Units};
//! let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
//! let mut cx = Cx::new(b"abxcd".to_vec(), &oracle, EvalOptions::default());
//! let units = Units::cut(cx.best(), Granularity::Bytes);
//! let mut ddmin: Box<dyn Policy> = Box::new(DDMin);
//! cx.run_policy(&units, &mut ddmin).unwrap();
//! assert_eq!(cx.best(), b"x");
//! ```
//!
//! Invariant: a candidate is accepted only if it is interesting and shortlex-smaller than the
//! current best, so the best never grows and every schedule terminates. The only other change
//! of the best is a rollback by the reduction to a result that passed before.

use crate::archive::{Archive, Splice};
use crate::certify::{Certificate, Minimality, certify_in};
use crate::eval::{EvalOptions, Evaluator, Meter};
use crate::kind::{Decided, Kind};
use crate::oracle::{Oracle, Verdict};
use crate::report::Stop;
use crate::tree::Nesting;
use crate::units::Units;
use std::cell::{Cell, OnceCell};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Holds the best input and accepts candidates.
pub struct Driver<'o> {
    eval: Evaluator<'o>,
    /// Shared with the reduction's last confirmed result and with unit cuts, not copied.
    /// Changed only through [`Driver::set_best`].
    best: Arc<Vec<u8>>,
    nesting: NestingMemo,
    view: View,
    /// The kind of the best, decided once from the original (see [`crate::text::Kind`]); while
    /// focused on one file of a tree, that file's.
    kind: Decided,
    /// The kind of each file of a tree, decided when it was first focused on, by path.
    file_kinds: BTreeMap<String, Decided>,
}

/// What the best is: the whole input, or one file of a tree.
#[derive(Clone, Debug, Default)]
pub enum View {
    /// The whole input.
    #[default]
    Whole,
    /// One file of a tree: the best is its content, tested in its place in the tree.
    File {
        /// The file's path in the tree.
        path: String,
        /// The tree around the file.
        splice: Splice,
        /// The tree's kind, put back when the focus ends.
        outer: Decided,
    },
}

impl View {
    /// `content` (a best of this view) as the whole input.
    fn lift(&self, content: &[u8]) -> Vec<u8> {
        match self {
            View::File { splice, .. } => splice.lift(content),
            View::Whole => content.to_vec(),
        }
    }

    /// The file's path, when focused on one.
    pub fn path(&self) -> Option<&str> {
        match self {
            View::File { path, .. } => Some(path),
            View::Whole => None,
        }
    }
}

/// The best's nesting, once a pass asked for it (emptied whenever the best changes), and how
/// many times one was built.
#[derive(Default)]
struct NestingMemo {
    built: OnceCell<Arc<Nesting>>,
    builds: Cell<u64>,
}

/// Bytes the driver tested and found interesting (in a batch): only the driver makes one, so a
/// pass can accept a candidate only through [`crate::passes::Cx::accept`], never bytes it judged itself.
#[derive(Debug)]
pub struct Witness {
    bytes: Vec<u8>,
}

impl Witness {
    /// The bytes found interesting.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Whether `a` comes before `b` in shortlex order: shorter first, then bytewise.
pub fn shortlex_less(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

impl<'o> Driver<'o> {
    /// A driver whose best is `input`, testing through a fresh evaluator.
    pub fn new(input: Vec<u8>, oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        let kind = Decided::of(None, &input);
        Driver {
            eval: Evaluator::new(oracle, options),
            best: Arc::new(input),
            nesting: NestingMemo::default(),
            view: View::Whole,
            kind,
            file_kinds: BTreeMap::new(),
        }
    }

    /// The kind of the best: the input's, decided once (by default from the original's
    /// content; a reduction sets the one its input's name gives), or the focused file's.
    pub fn kind(&self) -> Kind {
        self.kind.kind
    }

    /// The best's kind and what decided it (see [`Driver::kind`]).
    pub fn decided_kind(&self) -> Decided {
        self.kind
    }

    /// The whole input's kind, and each file's that was focused on, by path.
    pub(crate) fn kinds(&self) -> (Decided, &BTreeMap<String, Decided>) {
        let whole = match &self.view {
            View::File { outer, .. } => *outer,
            View::Whole => self.kind,
        };
        (whole, &self.file_kinds)
    }

    /// Sets the input's kind for the whole run (the file name's, or the user's choice).
    pub fn set_kind(&mut self, kind: Decided) {
        self.kind = kind;
    }

    /// The smallest interesting input so far (in the view: one file's content while focused).
    pub fn best(&self) -> &[u8] {
        &self.best
    }

    /// The best, shared rather than copied (for a cut of it, or to keep it).
    pub fn best_shared(&self) -> Arc<Vec<u8>> {
        self.best.clone()
    }

    /// The best as the whole input (the tree around it while focused on one file).
    pub(crate) fn whole(&self) -> Arc<Vec<u8>> {
        match &self.view {
            View::Whole => self.best.clone(),
            view => Arc::new(view.lift(&self.best)),
        }
    }

    /// What the best is now: the whole input or one file of a tree.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// The nesting of the best: built on the first call after the best changed, then the same
    /// one for every pass that asks until the best changes again.
    pub fn nesting(&self) -> Arc<Nesting> {
        self.nesting
            .built
            .get_or_init(|| {
                self.nesting.builds.set(self.nesting.builds.get() + 1);
                Arc::new(Nesting::of(self.best.clone()))
            })
            .clone()
    }

    /// How many times a nesting was built.
    pub(crate) fn nesting_builds(&self) -> u64 {
        self.nesting.builds.get()
    }

    /// The one way the best changes: its nesting goes with it.
    fn set_best(&mut self, best: Arc<Vec<u8>>) {
        self.eval.best_changed(best.len());
        self.best = best;
        self.nesting.built = OnceCell::new();
    }

    /// The evaluation path, for the [`crate::Reduction`] that owns this driver (its first
    /// check, re-runs, store and events) and the ledger (its counts and events). Passes never
    /// see it.
    pub(crate) fn evaluator(&mut self) -> &mut Evaluator<'o> {
        &mut self.eval
    }

    /// The evaluation path, to read.
    pub(crate) fn eval(&self) -> &Evaluator<'o> {
        &self.eval
    }

    /// Tests run at once.
    pub fn jobs(&self) -> usize {
        self.eval.jobs()
    }

    /// Candidates a batching pass tests together (1: it does not batch).
    pub fn batch(&self) -> usize {
        self.eval.options().batch.max(1)
    }

    /// A verdict already committed for exactly these bytes, if the cache holds one (free: no
    /// test, no count).
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        match &self.view {
            View::Whole => self.eval.cached(bytes),
            view => self.eval.cached(&view.lift(bytes)),
        }
    }

    /// Certifies the current best cut into `units` (see [`crate::check::certify()`]); nothing is accepted,
    /// a deletion found is handed back for [`Driver::try_candidates`].
    pub fn certify(&mut self, units: &Units, property: Minimality) -> Result<Certificate, Stop> {
        match &self.view {
            View::File { splice, .. } => {
                let lift = |content: &[u8]| splice.lift(content);
                let found = certify_in(&mut self.eval, units, property, Some(&lift))?;
                // A deletion found is handed back as the file's content, like the best.
                Ok(found.map_smaller(|smaller| splice.unlift(&smaller).to_vec()))
            }
            View::Whole => certify_in(&mut self.eval, units, property, None),
        }
    }

    /// The running pass's progress meter, for proposals to set while they are pulled.
    pub(crate) fn meter(&self) -> Meter {
        self.eval.meter()
    }

    /// Tests a batch of candidates, all of them (see [`Evaluator::test_all`]), and returns a
    /// [`Witness`] for each interesting one; nothing is accepted.
    pub fn test_batch(&mut self, candidates: &[Vec<u8>]) -> Result<Vec<Option<Witness>>, Stop> {
        let verdicts = match &self.view {
            View::Whole => self.eval.test_all(candidates)?,
            view => {
                let lifted: Vec<Vec<u8>> = candidates.iter().map(|c| view.lift(c)).collect();
                self.eval.test_all(&lifted)?
            }
        };
        Ok(candidates
            .iter()
            .zip(verdicts)
            .map(|(c, v)| v.is_interesting().then(|| Witness { bytes: c.clone() }))
            .collect())
    }

    /// Accepts what `witness` vouches for if it is shortlex-smaller than the best; whether it
    /// was.
    pub fn accept(&mut self, witness: Witness) -> bool {
        if !shortlex_less(&witness.bytes, &self.best) {
            return false;
        }
        self.set_best(Arc::new(witness.bytes));
        true
    }

    /// Tests candidates from `next` in order and accepts the first interesting one that is
    /// shortlex-smaller than the best; returns its payload. Candidates that are not smaller
    /// count as failures without a test.
    pub fn try_candidates<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<T>, Stop> {
        let best = self.best.clone();
        let view = &self.view;
        let mut filtered = || {
            loop {
                let (bytes, payload) = next()?;
                if shortlex_less(&bytes, &best) {
                    return Some(match view {
                        View::Whole => (bytes, payload),
                        view => (view.lift(&bytes), payload),
                    });
                }
            }
        };
        match self.eval.first_interesting(&mut filtered)? {
            Some((bytes, payload)) => {
                let bytes = match &self.view {
                    View::File { splice, .. } => splice.unlift(&bytes).to_vec(),
                    View::Whole => bytes,
                };
                debug_assert!(shortlex_less(&bytes, &self.best));
                self.set_best(Arc::new(bytes));
                Ok(Some(payload))
            }
            None => Ok(None),
        }
    }

    /// Narrows the best to one file of a tree: until [`Driver::unfocus`], the best is that
    /// file's content (`splice` taken from the current best) and passes work on it alone,
    /// while every candidate is tested as the whole tree with it in that file's place.
    /// The file's kind is decided the first time it is focused on, from its path and content,
    /// and kept for the rest of the run.
    pub(crate) fn focus(&mut self, path: &str, splice: Splice) {
        assert!(
            matches!(self.view, View::Whole),
            "a driver focuses on one file at a time"
        );
        let content = splice.content(&self.best).to_vec();
        let file_kind = *self
            .file_kinds
            .entry(path.to_string())
            .or_insert_with(|| Decided::of(Some(path), &content));
        let outer = std::mem::replace(&mut self.kind, file_kind);
        self.set_best(Arc::new(content));
        self.view = View::File {
            path: path.to_string(),
            splice,
            outer,
        };
    }

    /// Widens the best back to the whole tree after [`Driver::focus`].
    pub(crate) fn unfocus(&mut self) {
        if let View::File { outer, .. } = &self.view {
            self.kind = *outer;
            let whole = self.view.lift(&self.best);
            self.view = View::Whole;
            self.set_best(Arc::new(whole));
        }
    }

    /// Puts back an earlier result, a whole input, as the best (a rollback after a failed
    /// re-run). While focused on one file of a tree, the focus moves to that file in the tree
    /// put back (unfocus, roll back, focus again); if that tree has no such file, the focus
    /// ends and the best is the whole tree.
    pub(crate) fn roll_back_to(&mut self, whole: Arc<Vec<u8>>) {
        let View::File { path, outer, .. } = &self.view else {
            self.set_best(whole);
            return;
        };
        let (path, outer) = (path.clone(), *outer);
        let splice = Archive::decode(&whole).ok().and_then(|tree| {
            let i = tree
                .entries()
                .iter()
                .position(|e| e.path == path.as_bytes())?;
            tree.splice(i)
        });
        match splice {
            Some(splice) => {
                self.set_best(Arc::new(splice.content(&whole).to_vec()));
                self.view = View::File {
                    path,
                    splice,
                    outer,
                };
            }
            None => {
                self.kind = outer;
                self.view = View::Whole;
                self.set_best(whole);
            }
        }
    }
}
