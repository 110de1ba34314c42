//! The colouring problem as SAT on varisat: one live solver per segment, answering every colour bound.
//!
//! Main types: [`Segment`] (the units an encoding covers: the whole word, or a window of it)
//! and [`ColouringSolver`]. Variables, for `P = n + 1` positions of a segment of `n` units, a
//! colour cap `K` and the symbols that occur there at least twice (`Σ₂`):
//! - `x[i][k]`: position `i` may take colour `k` (`P·K`); decoding takes the smallest true one;
//! - `t[a][p][q]`: colour `p` reading `a` goes to `q` (`|Σ₂|·K²`), at most one `q` per `(a, p)`;
//! - `used[i][k]`: colour `k` occurs at some position `<= i` (`P·K`), for symmetry breaking.
//!
//! Clauses: each position has exactly one colour (`P·(1 + 3K)`); `x[i][p] ∧ x[i+1][q] →
//! t[S[i]][p][q]` and, redundant but measured to help, `x[i][p] ∧ t[S[i]][p][q] → x[i+1][q]`
//! for every position whose symbol repeats (at most `2·n·K²`, the bulk); at most one target
//! per `(a, p)`; at-most-one is Sinz's sequential counter (`3K` clauses, pairwise below 7
//! colours); position 0 takes colour 0 and
//! colour `k > 0` appears only after colour `k - 1` (`4·P·K`); each learned pair `(i, j)`
//! gives `¬x[i][k] ∨ ¬x[j][k]` for all `k` (`K` binary clauses, added to the live solver).
//! The size is `O(n·K²)`: a symbol that occurs once constrains nothing and gets no variables.
//!
//! Because colours appear in first-use order, "at most `k` colours" is the single assumption
//! `¬used[n][k]`, so one solver answers every bound and keeps what it learned between them.
//!
//! Limits: varisat has no interrupt or conflict limit. A solve is bounded by asking varisat
//! to write its proof (its own format: DRAT cannot express assumptions or clauses added
//! between solves) into a [`Write`] that fails once a proof-byte budget (reproducible: it
//! tracks conflicts) or a deadline (a safety net against a loaded machine) is spent; the
//! failure aborts the solve and leaves the solver unusable, so it is rebuilt. The writer sits
//! behind varisat's 8 KiB buffer, which sets the granularity of both checks.

use super::colouring::Colouring;
use std::cell::Cell;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::{Duration, Instant};
use varisat::{ExtendFormula, Lit, ProofFormat, Solver, Var};

/// Why a solve stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GiveUp {
    /// The proof-byte budget ran out (reproducible).
    ProofBudget,
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

/// Limits of one solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolveBudget {
    pub(crate) time: Duration,
    pub(crate) proof_bytes: u64,
}

#[derive(Default)]
struct Guard {
    armed: Cell<bool>,
    deadline: Cell<Option<Instant>>,
    bytes_left: Cell<u64>,
    tripped: Cell<Option<GiveUp>>,
}

/// The proof sink: swallows DRAT lines and fails when the armed budget is spent.
struct GuardWriter(Rc<Guard>);

impl Write for GuardWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let g = &self.0;
        if g.armed.get() {
            let left = g.bytes_left.get();
            let trip = if left < buf.len() as u64 {
                Some(GiveUp::ProofBudget)
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

fn at_most_one_clauses(k: usize) -> usize {
    if k < 7 {
        k * k.saturating_sub(1) / 2
    } else {
        3 * k - 4
    }
}

/// At most one of `lits`: pairwise below 7, else Sinz's sequential counter, where `seen[q]`
/// says some literal up to `q` is true.
fn at_most_one(solver: &mut Solver, lits: &[Lit], add: &mut impl FnMut(&mut Solver, &[Lit])) {
    let k = lits.len();
    if k < 7 {
        for a in 0..k {
            for b in a + 1..k {
                add(solver, &[!lits[a], !lits[b]]);
            }
        }
        return;
    }
    let seen: Vec<Lit> = (0..k - 1).map(|_| solver.new_var().positive()).collect();
    add(solver, &[!lits[0], seen[0]]);
    for q in 1..k - 1 {
        add(solver, &[!lits[q], seen[q]]);
        add(solver, &[!seen[q - 1], seen[q]]);
        add(solver, &[!lits[q], !seen[q - 1]]);
    }
    add(solver, &[!lits[k - 1], !seen[k - 2]]);
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

/// A varisat solver holding the colouring encoding of one segment.
pub(crate) struct ColouringSolver {
    solver: Solver<'static>,
    guard: Rc<Guard>,
    positions: usize,
    cap: usize,
    colour_vars: Vec<Var>,
    used_vars: Vec<Var>,
    clauses: usize,
    /// A budget tripped mid-solve; varisat refuses further use.
    dead: bool,
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

    /// Encodes `segment` with `cap` colours and the given learned pairs (segment positions).
    pub(crate) fn new(segment: &Segment, cap: usize, pairs: &[(u32, u32)]) -> ColouringSolver {
        assert!(
            cap >= 2,
            "a colouring needs at least two colours to separate 0 from n"
        );
        let guard = Rc::new(Guard::default());
        let mut solver = Solver::new();
        solver.write_proof(GuardWriter(guard.clone()), ProofFormat::Varisat);
        let positions = segment.len() + 1;
        let k = cap;
        let colour_vars: Vec<Var> = (0..positions * k).map(|_| solver.new_var()).collect();
        let used_vars: Vec<Var> = (0..positions * k).map(|_| solver.new_var()).collect();
        let x = |i: usize, c: usize| colour_vars[i * k + c].positive();
        let used = |i: usize, c: usize| used_vars[i * k + c].positive();
        let mut clauses = 0usize;
        let mut add = |solver: &mut Solver, lits: &[Lit]| {
            solver.add_clause(lits);
            clauses += 1;
        };

        for i in 0..positions {
            let colours: Vec<Lit> = (0..k).map(|c| x(i, c)).collect();
            add(&mut solver, &colours);
            // Not needed for soundness (decoding takes the smallest colour), but measured to
            // save tests and solver time: see notes/dfa-induction.md.
            at_most_one(&mut solver, &colours, &mut add);
        }
        // Symmetry breaking: colours in first-use order, starting with colour 0 at position 0.
        add(&mut solver, &[x(0, 0)]);
        for c in 0..k {
            if c > 0 {
                add(&mut solver, &[!x(0, c)]);
            }
            add(&mut solver, &[!x(0, c), used(0, c)]);
            add(&mut solver, &[!used(0, c), x(0, c)]);
        }
        for i in 1..positions {
            for c in 0..k {
                add(&mut solver, &[!x(i, c), used(i, c)]);
                add(&mut solver, &[!used(i - 1, c), used(i, c)]);
                add(&mut solver, &[!used(i, c), used(i - 1, c), x(i, c)]);
                if c > 0 {
                    add(&mut solver, &[!x(i, c), used(i - 1, c - 1)]);
                }
            }
        }
        // Transitions, only for symbols that occur twice or more.
        let mut transition_vars: Vec<Var> = Vec::new();
        let transition_base: Vec<Option<usize>> = (0..segment.occurrences.len() as u32)
            .map(|s| {
                segment.repeats(s).then(|| {
                    let base = transition_vars.len();
                    transition_vars.extend((0..k * k).map(|_| solver.new_var()));
                    base
                })
            })
            .collect();
        let t = |base: usize, p: usize, q: usize| transition_vars[base + p * k + q].positive();
        for (i, &symbol) in segment.symbols.iter().enumerate() {
            let Some(base) = transition_base[symbol as usize] else {
                continue;
            };
            for p in 0..k {
                for q in 0..k {
                    add(&mut solver, &[!x(i, p), !x(i + 1, q), t(base, p, q)]);
                    // Implied by the rest, but lets a chosen transition propagate forwards.
                    add(&mut solver, &[!x(i, p), !t(base, p, q), x(i + 1, q)]);
                }
            }
        }
        for base in transition_base.iter().flatten() {
            for p in 0..k {
                let targets: Vec<Lit> = (0..k).map(|q| t(*base, p, q)).collect();
                at_most_one(&mut solver, &targets, &mut add);
            }
        }
        let mut this = ColouringSolver {
            solver,
            guard,
            positions,
            cap,
            colour_vars,
            used_vars,
            clauses,
            dead: false,
        };
        for &(i, j) in pairs {
            this.add_pair(i as usize, j as usize);
        }
        this
    }

    /// The most colours this solver can offer.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    /// Clauses loaded so far, learned pairs included.
    pub(crate) fn clauses(&self) -> usize {
        self.clauses
    }

    /// Whether a budget aborted a solve; the solver must then be rebuilt.
    pub(crate) fn is_dead(&self) -> bool {
        self.dead
    }

    /// Positions `i` and `j` must take different colours.
    pub(crate) fn add_pair(&mut self, i: usize, j: usize) {
        let k = self.cap;
        for c in 0..k {
            let a = self.colour_vars[i * k + c].positive();
            let b = self.colour_vars[j * k + c].positive();
            self.solver.add_clause(&[!a, !b]);
        }
        self.clauses += k;
    }

    /// Looks for a consistent colouring with at most `k <= cap()` colours within `budget`.
    pub(crate) fn solve_within(&mut self, k: usize, budget: SolveBudget) -> Answer {
        assert!(!self.dead, "a solver whose budget tripped must be rebuilt");
        assert!((1..=self.cap).contains(&k));
        let bound: Vec<Lit> = if k < self.cap {
            vec![!self.used_vars[(self.positions - 1) * self.cap + k].positive()]
        } else {
            Vec::new()
        };
        self.solver.assume(&bound);
        let g = &self.guard;
        g.tripped.set(None);
        g.bytes_left.set(budget.proof_bytes);
        g.deadline.set(Some(Instant::now() + budget.time));
        g.armed.set(true);
        let result = self.solver.solve();
        g.armed.set(false);
        match result {
            Ok(true) => Answer::Found(self.decode()),
            Ok(false) => Answer::NoneWithin,
            Err(_) => {
                self.dead = true;
                Answer::GaveUp(g.tripped.get().unwrap_or(GiveUp::Deadline))
            }
        }
    }

    fn decode(&self) -> Colouring {
        let model = self
            .solver
            .model()
            .expect("a satisfiable solve has a model");
        let mut truth = vec![false; self.solver_var_bound(&model)];
        for lit in &model {
            if lit.is_positive() {
                truth[lit.index()] = true;
            }
        }
        let k = self.cap;
        let raw: Vec<u32> = (0..self.positions)
            .map(|i| {
                (0..k)
                    .find(|&c| truth[self.colour_vars[i * k + c].index()])
                    .expect("every position has a colour") as u32
            })
            .collect();
        Colouring::from_colours(&raw)
    }

    fn solver_var_bound(&self, model: &[Lit]) -> usize {
        model.iter().map(|l| l.index() + 1).max().unwrap_or(0)
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
    };

    #[test]
    fn one_solver_answers_every_bound() {
        // A triangle of learned pairs needs three colours; the same solver then answers
        // a looser bound after one more pair.
        let w = Word::from_symbols(b"abab");
        let mut pairs = vec![(0, 4), (0, 1), (1, 2), (0, 2)];
        let mut s = ColouringSolver::new(&whole(&w), 4, &pairs);
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
    fn a_spent_proof_budget_aborts_the_solve() {
        // Random bytes with many learned pairs at a tight bound: hard enough to need conflicts.
        let mut x = 12345u64;
        let bytes: Vec<u8> = (0..300)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 4) as u8
            })
            .collect();
        let w = Word::from_symbols(&bytes);
        let pairs: Vec<(u32, u32)> = (0..150).map(|i| (i, 300 - i)).collect();
        let mut s = ColouringSolver::new(&whole(&w), 8, &pairs);
        let tight = SolveBudget {
            time: Duration::from_secs(30),
            proof_bytes: 1,
        };
        assert_eq!(
            s.solve_within(3, tight),
            Answer::GaveUp(GiveUp::ProofBudget)
        );
        assert!(s.is_dead());
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
        let s = ColouringSolver::new(&seg, cap, &pairs);
        assert!(s.clauses() <= ColouringSolver::estimated_clauses(&seg, cap, pairs.len()));
    }
}
