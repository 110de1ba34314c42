//! The colouring problem as SAT: one live solver per segment, answering every colour bound.
//!
//! Main types: [`Segment`] (the units an encoding covers: the whole word, or a window of it)
//! and [`ColouringSolver`]. Variables, for `P = n + 1` positions of a segment of `n` units, a
//! colour cap `K` and the symbols that occur there at least twice (`Σ₂`):
//! - `x[i][k]`: position `i` may take colour `k` (`P·K`); decoding takes the smallest true one;
//! - `t[a][p][q]`: colour `p` reading `a` goes to `q` (`|Σ₂|·K²`), at most one `q` per `(a, p)`;
//! - `used[i][k]`: colour `k` occurs at some position `<= i` (`P·K`), for symmetry breaking;
//! - `y[i][j]`, made only for merges named by a learned combination: `x[i][k] ∧ x[j][k] →
//!   y[i][j]` for every `k`, so `y` is true whenever `i` and `j` share a colour.
//!
//! Clauses: each position has exactly one colour (`P·(1 + 3K)`); `x[i][p] ∧ x[i+1][q] →
//! t[S[i]][p][q]` and, redundant but measured to help, `x[i][p] ∧ t[S[i]][p][q] → x[i+1][q]`
//! for every position whose symbol repeats (at most `2·n·K²`, the bulk); at most one target
//! per `(a, p)`; at-most-one is Sinz's sequential counter (`3K` clauses, pairwise below 7
//! colours); position 0 takes colour 0 and
//! colour `k > 0` appears only after colour `k - 1` (`4·P·K`); each learned pair `(i, j)`
//! gives `¬x[i][k] ∨ ¬x[j][k]` for all `k` (`K` binary clauses, added to the live solver);
//! each learned combination of merges (a failed shortest path or pair of loops) gives
//! `¬y[i1][j1] ∨ ¬y[i2][j2] ∨ ...` (plus `K` clauses per new `y`).
//! The size is `O(n·K²)`: a symbol that occurs once constrains nothing and gets no variables.
//!
//! Because colours appear in first-use order, "at most `k` colours" is the single assumption
//! `¬used[n][k]`, so one solver answers every bound and keeps what it learned between them.
//!
//! ```text
//! "ab" with the learned pair (0, 2): one colour is impossible; two give 0 0 1 or 0 1 1
//! (colour 0 reading a stays, or colour 1 reading b stays); the combination {(0, 1), (1, 2)}
//! forbids neither alone, only a colouring with both merges (one colour for all three).
//! ```
//!
//! The solver behind it is varisat, or CaDiCaL with the `cadical` feature (`Backend`, the only
//! code that names either). Limits: varisat has no interrupt or conflict limit. A solve is
//! bounded by asking varisat to write its proof (its own format: DRAT cannot express
//! assumptions or clauses added between solves) into a [`Write`] that fails once a proof-byte
//! budget (reproducible: it tracks conflicts) or a deadline (a safety net against a loaded
//! machine) is spent; the failure aborts the solve and leaves the solver unusable, so it is
//! rebuilt. The writer sits behind varisat's 8 KiB buffer, which sets the granularity of both
//! checks. CaDiCaL takes a conflict limit per solve and a terminate callback for the deadline,
//! and stays usable after either stops it.

use super::colouring::Colouring;
use std::collections::HashMap;
use std::time::Duration;

/// Why a solve stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GiveUp {
    /// The reproducible budget ran out: proof bytes (varisat) or conflicts (CaDiCaL).
    Budget,
    /// The deadline passed (depends on the machine's speed and load).
    Deadline,
}

/// The answer to "is there a consistent colouring with at most `k` colours?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Found(Colouring),
    /// Proved impossible within `k` colours.
    NoneWithin,
    GaveUp(GiveUp),
}

/// Limits of one solve. Each backend reads the reproducible bound it can enforce.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolveBudget {
    pub(crate) time: Duration,
    /// varisat: proof bytes written before the solve is abandoned.
    #[cfg_attr(feature = "cadical", allow(dead_code))]
    pub(crate) proof_bytes: u64,
    /// CaDiCaL: conflicts before the solve is abandoned.
    #[cfg_attr(not(feature = "cadical"), allow(dead_code))]
    pub(crate) conflicts: u64,
}

/// The name of the SAT solver this build uses.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const BACKEND: &str = backend::NAME;

#[cfg(not(feature = "cadical"))]
mod backend {
    //! varisat, bounded through its proof output.
    use super::{GiveUp, SolveBudget};
    use std::cell::Cell;
    use std::io::{self, Write};
    use std::rc::Rc;
    use std::time::Instant;
    use varisat::{ExtendFormula, Lit, ProofFormat, Solver};

    pub(super) const NAME: &str = "varisat";

    #[derive(Default)]
    struct Guard {
        armed: Cell<bool>,
        deadline: Cell<Option<Instant>>,
        bytes_left: Cell<u64>,
        tripped: Cell<Option<GiveUp>>,
    }

    /// The proof sink: swallows proof steps and fails when the armed budget is spent.
    struct GuardWriter(Rc<Guard>);

    impl Write for GuardWriter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let g = &self.0;
            if g.armed.get() {
                let left = g.bytes_left.get();
                let trip = if left < buf.len() as u64 {
                    Some(GiveUp::Budget)
                } else if g.deadline.get().is_some_and(|d| Instant::now() >= d) {
                    Some(GiveUp::Deadline)
                } else {
                    None
                };
                if let Some(why) = trip {
                    g.tripped.set(Some(why));
                    return Err(io::Error::other("colouring solve budget spent"));
                }
                g.bytes_left.set(left - buf.len() as u64);
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    pub(super) struct Backend {
        solver: Solver<'static>,
        guard: Rc<Guard>,
        vars: i32,
        truth: Vec<bool>,
        dead: bool,
    }

    fn lit(l: i32) -> Lit {
        Lit::from_dimacs(l as isize)
    }

    impl Backend {
        pub(super) fn new() -> Backend {
            let guard = Rc::new(Guard::default());
            let mut solver = Solver::new();
            solver.write_proof(GuardWriter(guard.clone()), ProofFormat::Varisat);
            Backend {
                solver,
                guard,
                vars: 0,
                truth: Vec::new(),
                dead: false,
            }
        }

        pub(super) fn new_var(&mut self) -> i32 {
            self.vars += 1;
            self.vars
        }

        pub(super) fn add_clause(&mut self, lits: &[i32]) {
            let lits: Vec<Lit> = lits.iter().map(|&l| lit(l)).collect();
            self.solver.add_clause(&lits);
        }

        /// Whether a budget left the solver unusable (varisat refuses further use).
        pub(super) fn is_dead(&self) -> bool {
            self.dead
        }

        pub(super) fn solve(
            &mut self,
            assumptions: &[i32],
            budget: SolveBudget,
        ) -> Result<bool, GiveUp> {
            let assumed: Vec<Lit> = assumptions.iter().map(|&l| lit(l)).collect();
            self.solver.assume(&assumed);
            let g = &self.guard;
            g.tripped.set(None);
            g.bytes_left.set(budget.proof_bytes);
            g.deadline.set(Some(Instant::now() + budget.time));
            g.armed.set(true);
            let result = self.solver.solve();
            g.armed.set(false);
            match result {
                Ok(sat) => {
                    if sat {
                        let model = self
                            .solver
                            .model()
                            .expect("a satisfiable solve has a model");
                        self.truth = vec![false; self.vars as usize + 1];
                        for l in model {
                            let v = l.to_dimacs();
                            if v > 0 && (v as usize) < self.truth.len() {
                                self.truth[v as usize] = true;
                            }
                        }
                    }
                    Ok(sat)
                }
                Err(_) => {
                    self.dead = true;
                    Err(g.tripped.get().unwrap_or(GiveUp::Deadline))
                }
            }
        }

        /// The value of variable `var` in the last model.
        pub(super) fn value(&self, var: i32) -> bool {
            self.truth[var as usize]
        }
    }
}

#[cfg(feature = "cadical")]
mod backend {
    //! CaDiCaL, bounded by a conflict limit and a terminate callback.
    use super::{GiveUp, SolveBudget};
    use std::time::Instant;

    pub(super) const NAME: &str = "cadical";

    /// Stops a solve at its deadline.
    struct Deadline {
        at: Instant,
        hit: bool,
    }

    impl cadical::Callbacks for Deadline {
        fn terminate(&mut self) -> bool {
            self.hit = self.hit || Instant::now() >= self.at;
            self.hit
        }
    }

    pub(super) struct Backend {
        solver: cadical::Solver<Deadline>,
        vars: i32,
    }

    impl Backend {
        pub(super) fn new() -> Backend {
            Backend {
                solver: cadical::Solver::new(),
                vars: 0,
            }
        }

        pub(super) fn new_var(&mut self) -> i32 {
            self.vars += 1;
            self.vars
        }

        pub(super) fn add_clause(&mut self, lits: &[i32]) {
            self.solver.add_clause(lits.iter().copied());
        }

        /// CaDiCaL stays usable after a limit stops it.
        pub(super) fn is_dead(&self) -> bool {
            false
        }

        pub(super) fn solve(
            &mut self,
            assumptions: &[i32],
            budget: SolveBudget,
        ) -> Result<bool, GiveUp> {
            let conflicts = budget.conflicts.min(i32::MAX as u64) as i32;
            self.solver
                .set_limit("conflicts", conflicts)
                .expect("CaDiCaL knows the conflicts limit");
            self.solver.set_callbacks(Some(Deadline {
                at: Instant::now() + budget.time,
                hit: false,
            }));
            let result = self.solver.solve_with(assumptions.iter().copied());
            let hit = self.solver.get_callbacks().is_some_and(|d| d.hit);
            self.solver.set_callbacks(None);
            match result {
                Some(sat) => Ok(sat),
                None if hit => Err(GiveUp::Deadline),
                None => Err(GiveUp::Budget),
            }
        }

        /// The value of variable `var` in the last model.
        pub(super) fn value(&self, var: i32) -> bool {
            self.solver.value(var) == Some(true)
        }
    }
}

use backend::Backend;

fn at_most_one_clauses(k: usize) -> usize {
    if k < 7 {
        k * k.saturating_sub(1) / 2
    } else {
        3 * k - 4
    }
}

/// A solver with the clause count kept beside it.
struct Formula {
    backend: Backend,
    clauses: usize,
}

impl Formula {
    fn var(&mut self) -> i32 {
        self.backend.new_var()
    }

    fn add(&mut self, lits: &[i32]) {
        self.backend.add_clause(lits);
        self.clauses += 1;
    }

    /// At most one of `lits`: pairwise below 7, else Sinz's sequential counter, where `seen[q]`
    /// says some literal up to `q` is true.
    fn at_most_one(&mut self, lits: &[i32]) {
        let k = lits.len();
        if k < 7 {
            for a in 0..k {
                for b in a + 1..k {
                    self.add(&[-lits[a], -lits[b]]);
                }
            }
            return;
        }
        let seen: Vec<i32> = (0..k - 1).map(|_| self.var()).collect();
        self.add(&[-lits[0], seen[0]]);
        for q in 1..k - 1 {
            self.add(&[-lits[q], seen[q]]);
            self.add(&[-seen[q - 1], seen[q]]);
            self.add(&[-lits[q], -seen[q - 1]]);
        }
        self.add(&[-lits[k - 1], -seen[k - 2]]);
    }
}

/// The units one encoding covers, with how often each symbol occurs among them.
pub(crate) struct Segment<'w> {
    symbols: &'w [u32],
    occurrences: Vec<u32>,
}

impl<'w> Segment<'w> {
    pub(crate) fn new(symbols: &'w [u32], alphabet_len: usize) -> Segment<'w> {
        let mut occurrences = vec![0u32; alphabet_len];
        for &s in symbols {
            occurrences[s as usize] += 1;
        }
        Segment {
            symbols,
            occurrences,
        }
    }

    fn len(&self) -> usize {
        self.symbols.len()
    }

    fn repeats(&self, symbol: u32) -> bool {
        self.occurrences[symbol as usize] > 1
    }
}

/// A SAT solver holding the colouring encoding of one segment.
pub(crate) struct ColouringSolver {
    formula: Formula,
    positions: usize,
    cap: usize,
    /// `x[i][k]` is `first_colour_var + i·cap + k`; `used[i][k]` follows the same layout.
    first_colour_var: i32,
    first_used_var: i32,
    /// The `y` variable of each merge named by a learned combination.
    merge_vars: HashMap<(u32, u32), i32>,
}

impl ColouringSolver {
    /// Clauses of the encoding at `k` colours with `pairs` learned pairs.
    pub(crate) fn estimated_clauses(segment: &Segment, k: usize, pairs: usize) -> usize {
        let p = segment.len() + 1;
        let repeated_positions = segment
            .symbols
            .iter()
            .filter(|&&s| segment.repeats(s))
            .count();
        let repeated_symbols = segment.occurrences.iter().filter(|&&c| c > 1).count();
        p * (1 + at_most_one_clauses(k))
            + 4 * p * k
            + 2 * repeated_positions * k * k
            + repeated_symbols * k * at_most_one_clauses(k)
            + pairs * k
    }

    /// The most colours, at most `max_colours` and at most `n`, whose encoding with `pairs`
    /// learned pairs fits in `max_clauses`; 0 when not even 2 fit.
    pub(crate) fn colour_cap(
        segment: &Segment,
        pairs: usize,
        max_colours: usize,
        max_clauses: usize,
    ) -> usize {
        let mut k = max_colours.min(segment.len());
        while k >= 2 && Self::estimated_clauses(segment, k, pairs) > max_clauses {
            k -= 1;
        }
        if k < 2 { 0 } else { k }
    }

    /// Encodes `segment` with `cap` colours, the given learned pairs and combinations of
    /// merges (segment positions).
    pub(crate) fn new(
        segment: &Segment,
        cap: usize,
        pairs: &[(u32, u32)],
        combinations: &[Vec<(u32, u32)>],
    ) -> ColouringSolver {
        assert!(
            cap >= 2,
            "a colouring needs at least two colours to separate 0 from n"
        );
        let mut f = Formula {
            backend: Backend::new(),
            clauses: 0,
        };
        let positions = segment.len() + 1;
        let k = cap;
        let first_colour_var = f.var();
        for _ in 1..positions * k {
            f.var();
        }
        let first_used_var = f.var();
        for _ in 1..positions * k {
            f.var();
        }
        let x = |i: usize, c: usize| first_colour_var + (i * k + c) as i32;
        let used = |i: usize, c: usize| first_used_var + (i * k + c) as i32;

        for i in 0..positions {
            let colours: Vec<i32> = (0..k).map(|c| x(i, c)).collect();
            f.add(&colours);
            // Not needed for soundness (decoding takes the smallest colour), but measured to
            // save tests and solver time: see notes/dfa-induction.md.
            f.at_most_one(&colours);
        }
        // Symmetry breaking: colours in first-use order, starting with colour 0 at position 0.
        f.add(&[x(0, 0)]);
        for c in 0..k {
            if c > 0 {
                f.add(&[-x(0, c)]);
            }
            f.add(&[-x(0, c), used(0, c)]);
            f.add(&[-used(0, c), x(0, c)]);
        }
        for i in 1..positions {
            for c in 0..k {
                f.add(&[-x(i, c), used(i, c)]);
                f.add(&[-used(i - 1, c), used(i, c)]);
                f.add(&[-used(i, c), used(i - 1, c), x(i, c)]);
                if c > 0 {
                    f.add(&[-x(i, c), used(i - 1, c - 1)]);
                }
            }
        }
        // Transitions, only for symbols that occur twice or more.
        let transition_base: Vec<Option<i32>> = (0..segment.occurrences.len() as u32)
            .map(|s| {
                segment.repeats(s).then(|| {
                    let base = f.var();
                    for _ in 1..k * k {
                        f.var();
                    }
                    base
                })
            })
            .collect();
        let t = |base: i32, p: usize, q: usize| base + (p * k + q) as i32;
        for (i, &symbol) in segment.symbols.iter().enumerate() {
            let Some(base) = transition_base[symbol as usize] else {
                continue;
            };
            for p in 0..k {
                for q in 0..k {
                    f.add(&[-x(i, p), -x(i + 1, q), t(base, p, q)]);
                    // Implied by the rest, but lets a chosen transition propagate forwards.
                    f.add(&[-x(i, p), -t(base, p, q), x(i + 1, q)]);
                }
            }
        }
        for base in transition_base.iter().flatten() {
            for p in 0..k {
                let targets: Vec<i32> = (0..k).map(|q| t(*base, p, q)).collect();
                f.at_most_one(&targets);
            }
        }
        let mut this = ColouringSolver {
            formula: f,
            positions,
            cap,
            first_colour_var,
            first_used_var,
            merge_vars: HashMap::new(),
        };
        for &(i, j) in pairs {
            this.add_pair(i as usize, j as usize);
        }
        for merges in combinations {
            this.forbid(merges);
        }
        this
    }

    fn x(&self, i: usize, c: usize) -> i32 {
        self.first_colour_var + (i * self.cap + c) as i32
    }

    /// The most colours this solver can offer.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    /// Clauses loaded so far, learned pairs and combinations included.
    pub(crate) fn clauses(&self) -> usize {
        self.formula.clauses
    }

    /// Whether a budget left the solver unusable; it must then be rebuilt.
    pub(crate) fn is_dead(&self) -> bool {
        self.formula.backend.is_dead()
    }

    /// Positions `i` and `j` must take different colours.
    pub(crate) fn add_pair(&mut self, i: usize, j: usize) {
        for c in 0..self.cap {
            let (a, b) = (self.x(i, c), self.x(j, c));
            self.formula.add(&[-a, -b]);
        }
    }

    /// Not all of these pairs of positions may share a colour at once.
    pub(crate) fn forbid(&mut self, merges: &[(u32, u32)]) {
        if let [(i, j)] = merges {
            self.add_pair(*i as usize, *j as usize);
            return;
        }
        let mut clause = Vec::with_capacity(merges.len());
        for &(i, j) in merges {
            let y = match self.merge_vars.get(&(i, j)) {
                Some(&y) => y,
                None => {
                    let y = self.formula.var();
                    for c in 0..self.cap {
                        let (a, b) = (self.x(i as usize, c), self.x(j as usize, c));
                        self.formula.add(&[-a, -b, y]);
                    }
                    self.merge_vars.insert((i, j), y);
                    y
                }
            };
            clause.push(-y);
        }
        self.formula.add(&clause);
    }

    /// Looks for a consistent colouring with at most `k <= cap()` colours within `budget`.
    pub(crate) fn solve_within(&mut self, k: usize, budget: SolveBudget) -> Answer {
        assert!(
            !self.is_dead(),
            "a solver whose budget tripped must be rebuilt"
        );
        assert!((1..=self.cap).contains(&k));
        let bound: Vec<i32> = if k < self.cap {
            vec![-(self.first_used_var + ((self.positions - 1) * self.cap + k) as i32)]
        } else {
            Vec::new()
        };
        match self.formula.backend.solve(&bound, budget) {
            Ok(true) => Answer::Found(self.decode()),
            Ok(false) => Answer::NoneWithin,
            Err(why) => Answer::GaveUp(why),
        }
    }

    fn decode(&self) -> Colouring {
        let raw: Vec<u32> = (0..self.positions)
            .map(|i| {
                (0..self.cap)
                    .find(|&c| self.formula.backend.value(self.x(i, c)))
                    .expect("every position has a colour") as u32
            })
            .collect();
        Colouring::from_colours(&raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::word::Word;

    fn whole(w: &Word) -> Segment<'_> {
        Segment::new(w.symbols(), w.alphabet_len())
    }

    const GENEROUS: SolveBudget = SolveBudget {
        time: Duration::from_secs(30),
        proof_bytes: u64::MAX,
        conflicts: u64::MAX,
    };

    #[test]
    fn one_solver_answers_every_bound() {
        // A triangle of learned pairs needs three colours; the same solver then answers
        // a looser bound after one more pair.
        let w = Word::from_symbols(b"abab");
        let mut pairs = vec![(0, 4), (0, 1), (1, 2), (0, 2)];
        let mut s = ColouringSolver::new(&whole(&w), 4, &pairs, &[]);
        assert_eq!(s.solve_within(2, GENEROUS), Answer::NoneWithin);
        let Answer::Found(c) = s.solve_within(3, GENEROUS) else {
            panic!("three colours suffice")
        };
        assert!(c.colours() <= 3);
        assert_eq!(c.violation(&w, &pairs), None);
        s.add_pair(2, 4);
        pairs.push((2, 4));
        let Answer::Found(c) = s.solve_within(4, GENEROUS) else {
            panic!("four colours suffice")
        };
        assert_eq!(c.violation(&w, &pairs), None);
    }

    #[test]
    fn a_combination_forbids_the_merges_together_not_apart() {
        let w = Word::from_symbols(b"ab");
        let mut s = ColouringSolver::new(&whole(&w), 2, &[], &[]);
        let Answer::Found(c) = s.solve_within(1, GENEROUS) else {
            panic!("one colour is consistent: the two symbols differ")
        };
        assert_eq!(c.colours(), 1);
        s.forbid(&[(0, 1), (1, 2)]);
        assert_eq!(s.solve_within(1, GENEROUS), Answer::NoneWithin);
        let Answer::Found(c) = s.solve_within(2, GENEROUS) else {
            panic!("two colours keep one of the merges")
        };
        let merged = |a: usize, b: usize| c.colour(a) == c.colour(b);
        assert!(!(merged(0, 1) && merged(1, 2)));
    }

    #[test]
    fn a_spent_budget_aborts_the_solve() {
        // Random bytes with many learned pairs at a tight bound: hard enough to need conflicts.
        let mut x = 12345u64;
        let bytes: Vec<u8> = (0..300)
            .map(|_| (crate::dfa::tests::xorshift(&mut x) % 4) as u8)
            .collect();
        let w = Word::from_symbols(&bytes);
        let pairs: Vec<(u32, u32)> = (0..150).map(|i| (i, 300 - i)).collect();
        let mut s = ColouringSolver::new(&whole(&w), 8, &pairs, &[]);
        let tight = SolveBudget {
            time: Duration::from_secs(30),
            proof_bytes: 1,
            conflicts: 0,
        };
        assert_eq!(s.solve_within(3, tight), Answer::GaveUp(GiveUp::Budget));
        // varisat refuses further use after an aborted solve; CaDiCaL does not.
        assert_eq!(s.is_dead(), BACKEND == "varisat");
    }

    #[test]
    fn the_cap_shrinks_to_fit_the_clause_limit() {
        let w = Word::from_symbols(&[b'a'; 100]);
        let seg = whole(&w);
        let pairs: Vec<(u32, u32)> = (0..50).map(|i| (i, i + 50)).collect();
        let cap = ColouringSolver::colour_cap(&seg, pairs.len(), 64, 50_000);
        assert!(cap >= 2 && ColouringSolver::estimated_clauses(&seg, cap, pairs.len()) <= 50_000);
        assert!(ColouringSolver::estimated_clauses(&seg, cap + 1, pairs.len()) > 50_000);
        assert_eq!(ColouringSolver::colour_cap(&seg, 0, 64, 10), 0);
        let s = ColouringSolver::new(&seg, cap, &pairs, &[]);
        assert!(s.clauses() <= ColouringSolver::estimated_clauses(&seg, cap, pairs.len()));
    }
}
