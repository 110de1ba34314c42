//! Generated families of words for the DFA pass, each case with an in-process test and its known
//! minimum.
//!
//! Main types: [`Case`] (an input, its test, its minimum), [`generate`] (the fixed-seed set) and
//! [`generate_held_out`] (bracket and counted families built apart, for checking figures on
//! families nothing was tuned on).
//! Four kinds, each with a keep-condition:
//! - brackets: 1 to 4 bracket kinds, 0 to 20 filler letters, nesting depth 2 to 30; the test
//!   wants the brackets balanced, plus a marker, a doubled letter, a depth, or a marker at a
//!   depth;
//! - counted: a count of one letter modulo `k`, plus a marker;
//! - periodic: a base word repeated an odd number of times (fillers anywhere), or a marker at
//!   a position modulo `p`;
//! - random small automata (2 to 6 states over 2 to 6 letters), plus a marker or a count.
//!
//! Minimum: every test but the brackets' is a regular language, and the shortest subsequence
//! of the input it accepts is found exactly by a walk over the input keeping, per automaton
//! state, the shortest subsequence reaching it. The bracket tests are not regular; their
//! minimum follows from the construction (a lower bound the test forces, reached by a
//! subsequence the generator planted), and `brute_minimum` checks both on small inputs.
//!
//! ```text
//! let cases = generate(220, 0x5EED, Scale::FAMILIES);   // same seed, same cases
//! assert!(cases.iter().all(|c| (c.test)(&c.input)));
//! ```
//!
//! Limits: sizes are 100 bytes to 5 KB; the regular walk is `O(n·states)`.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

pub type Test = Arc<dyn Fn(&[u8]) -> bool + Send + Sync>;

/// One generated input with its test and what the best reduction can reach.
pub struct Case {
    pub name: String,
    /// The family: brackets, counted, periodic, position or automaton.
    pub family: &'static str,
    pub input: Vec<u8>,
    pub test: Test,
    /// The length of the shortest interesting subsequence of the input.
    pub minimum: usize,
}

/// The sizes of one generated set.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub min_bytes: usize,
    pub max_bytes: usize,
    /// Bracket words nest 2 to this deep.
    pub max_depth: usize,
}

impl Scale {
    /// The families' sizes: 100 bytes to 5 KB, depths 2 to 30.
    pub const FAMILIES: Scale = Scale {
        min_bytes: 100,
        max_bytes: 5000,
        max_depth: 30,
    };
}

/// A small deterministic generator (xorshift64*), so the cases never depend on a crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    pub fn chance(&mut self, per_thousand: u64) -> bool {
        self.next() % 1000 < per_thousand
    }

    /// Log-uniform in `lo..=hi`: as many small inputs as large ones.
    pub fn size(&mut self, lo: usize, hi: usize) -> usize {
        let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((a + u * (b - a)).exp() as usize).clamp(lo, hi)
    }
}

const OPENS: &[u8] = b"([{<";
const CLOSES: &[u8] = b")]}>";
const LETTERS: &[u8] = b"abcdefghijklmnopqrstu";
const MARKER: u8 = b'X';

/// Balanced over the first `kinds` bracket pairs, other bytes ignored; with the deepest
/// nesting, or `None` if unbalanced.
fn bracket_depth(b: &[u8], kinds: usize) -> Option<usize> {
    let mut stack = Vec::new();
    let mut deepest = 0;
    for &c in b {
        if let Some(k) = OPENS[..kinds].iter().position(|&o| o == c) {
            stack.push(k);
            deepest = deepest.max(stack.len());
        } else if let Some(k) = CLOSES[..kinds].iter().position(|&o| o == c)
            && stack.pop() != Some(k)
        {
            return None;
        }
    }
    stack.is_empty().then_some(deepest)
}

/// The depth at which the first `X` stands, if the word is balanced.
fn marker_depth(b: &[u8], kinds: usize) -> Option<usize> {
    bracket_depth(b, kinds)?;
    let at = b.iter().position(|&c| c == MARKER)?;
    let mut depth = 0usize;
    for &c in &b[..at] {
        if OPENS[..kinds].contains(&c) {
            depth += 1;
        } else if CLOSES[..kinds].contains(&c) {
            depth -= 1;
        }
    }
    Some(depth)
}

/// The keep-conditions of the bracket family.
#[derive(Clone, Copy)]
enum BracketKeep {
    Marker,
    Doubled,
    Depth,
    MarkerDeep,
}

/// A random balanced word over `kinds` pairs of about `size` bytes that reaches `depth`, with
/// fillers from the first `fillers` letters; and where its deepest point is.
fn bracket_word(
    rng: &mut Rng,
    size: usize,
    kinds: usize,
    fillers: usize,
    depth: usize,
) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut deepest_at = None;
    // Dive once to full depth at a random moment, wander otherwise.
    let dive = rng.range(0, size.saturating_sub(2 * depth + 2));
    while out.len() < size.saturating_sub(stack.len()) || !stack.is_empty() {
        let room = out.len() + stack.len() < size;
        if deepest_at.is_none() && out.len() >= dive && room {
            while stack.len() < depth {
                let k = rng.range(0, kinds - 1);
                out.push(OPENS[k]);
                stack.push(k);
            }
            deepest_at = Some(out.len());
            continue;
        }
        if fillers > 0 && room && rng.chance(300) {
            out.push(LETTERS[rng.range(0, fillers - 1)]);
            continue;
        }
        let open = room && stack.len() + 1 < depth && (stack.is_empty() || rng.chance(500));
        if open {
            let k = rng.range(0, kinds - 1);
            out.push(OPENS[k]);
            stack.push(k);
        } else if let Some(k) = stack.pop() {
            out.push(CLOSES[k]);
        } else if deepest_at.is_some() {
            break;
        } else {
            let k = rng.range(0, kinds - 1);
            out.push(OPENS[k]);
            stack.push(k);
        }
    }
    let at = deepest_at.unwrap_or_else(|| {
        // Too small to dive at the chosen moment: wrap the whole word.
        let k = rng.range(0, kinds - 1);
        let mut wrapped = vec![OPENS[k]; depth];
        let at = depth;
        wrapped.extend_from_slice(&out);
        wrapped.extend(std::iter::repeat_n(CLOSES[k], depth));
        out = wrapped;
        at
    });
    (out, at)
}

fn brackets_case(rng: &mut Rng, index: usize, scale: Scale) -> Case {
    let kinds = rng.range(1, 4);
    let fillers = if rng.chance(200) { 0 } else { rng.range(1, 20) };
    let depth = rng.range(2, scale.max_depth.max(2));
    let size = rng
        .size(scale.min_bytes, scale.max_bytes)
        .max(2 * depth + 8);
    let keep = [
        BracketKeep::Marker,
        BracketKeep::Doubled,
        BracketKeep::Depth,
        BracketKeep::MarkerDeep,
    ][index % 4];
    let (mut input, deepest) = bracket_word(rng, size, kinds, fillers, depth);
    let (test, minimum, what): (Test, usize, String) = match keep {
        BracketKeep::Marker => {
            let at = rng.range(0, input.len());
            input.insert(at, MARKER);
            (
                Arc::new(move |b: &[u8]| bracket_depth(b, kinds).is_some() && b.contains(&MARKER)),
                1,
                "x".into(),
            )
        }
        BracketKeep::Doubled => {
            // A letter that also stands elsewhere as filler (the hard case: nothing marks it).
            let letter = if fillers > 0 {
                LETTERS[rng.range(0, fillers - 1)]
            } else {
                b'Y'
            };
            let at = rng.range(0, input.len());
            input.splice(at..at, [letter, letter]);
            let pair = [letter, letter];
            (
                Arc::new(move |b: &[u8]| {
                    bracket_depth(b, kinds).is_some() && b.windows(2).any(|w| w == pair)
                }),
                2,
                format!("{}{}", letter as char, letter as char),
            )
        }
        BracketKeep::Depth => {
            let want = rng.range(2, depth);
            (
                Arc::new(move |b: &[u8]| bracket_depth(b, kinds).is_some_and(|d| d >= want)),
                2 * want,
                format!("d{want}"),
            )
        }
        BracketKeep::MarkerDeep => {
            let want = rng.range(1, depth);
            input.insert(deepest, MARKER);
            (
                Arc::new(move |b: &[u8]| marker_depth(b, kinds).is_some_and(|d| d >= want)),
                2 * want + 1,
                format!("xd{want}"),
            )
        }
    };
    Case {
        name: format!("br{index:03}-k{kinds}f{fillers}d{depth}-{what}"),
        family: "brackets",
        input,
        test,
        minimum,
    }
}

/// A complete automaton over bytes: `next[state][byte]`, with a dead state for bytes outside
/// its alphabet.
#[derive(Clone)]
pub struct Automaton {
    next: Vec<[u16; 256]>,
    accepting: Vec<bool>,
}

impl Automaton {
    fn run(&self, b: &[u8]) -> bool {
        let mut s = 0usize;
        for &c in b {
            s = self.next[s][c as usize] as usize;
        }
        self.accepting[s]
    }

    /// The length of the shortest subsequence of `input` it accepts, if any.
    pub fn shortest_subsequence(&self, input: &[u8]) -> Option<usize> {
        let mut best: Vec<Option<usize>> = vec![None; self.next.len()];
        best[0] = Some(0);
        for &c in input {
            let before = best.clone();
            for (s, len) in before.iter().enumerate() {
                if let Some(len) = len {
                    let t = self.next[s][c as usize] as usize;
                    if best[t].is_none_or(|l| l > len + 1) {
                        best[t] = Some(len + 1);
                    }
                }
            }
        }
        (0..self.next.len())
            .filter(|&s| self.accepting[s])
            .filter_map(|s| best[s])
            .min()
    }

    /// Built from `states` and `step(state, byte) -> state` (`None`: dead).
    fn build<S: Clone + Eq + std::hash::Hash>(
        start: S,
        alphabet: &[u8],
        step: impl Fn(&S, u8) -> Option<S>,
        accept: impl Fn(&S) -> bool,
    ) -> Automaton {
        let mut index: HashMap<S, usize> = HashMap::new();
        let mut states = vec![start.clone()];
        index.insert(start, 0);
        // State 1 is dead.
        let mut next = vec![[1u16; 256], [1u16; 256]];
        let mut accepting = vec![false, false];
        let mut at = 0;
        while at < states.len() {
            let s = states[at].clone();
            let row = if at == 0 { 0 } else { at + 1 };
            accepting[row] = accept(&s);
            for &c in alphabet {
                if let Some(t) = step(&s, c) {
                    let id = *index.entry(t.clone()).or_insert_with(|| {
                        states.push(t);
                        next.push([1u16; 256]);
                        accepting.push(false);
                        states.len() - 1
                    });
                    next[row][c as usize] = if id == 0 { 0 } else { id as u16 + 1 };
                }
            }
            at += 1;
        }
        Automaton { next, accepting }
    }
}

fn regular_case(
    name: String,
    family: &'static str,
    input: Vec<u8>,
    automaton: Automaton,
) -> Option<Case> {
    if !automaton.run(&input) {
        return None;
    }
    let minimum = automaton.shortest_subsequence(&input)?;
    Some(Case {
        name,
        family,
        input,
        minimum,
        test: Arc::new(move |b: &[u8]| automaton.run(b)),
    })
}

fn alphabet(rng: &mut Rng, lo: usize, hi: usize) -> Vec<u8> {
    LETTERS[..rng.range(lo, hi)].to_vec()
}

/// Count of `a` modulo `k` equal to the input's, and a marker.
fn counted_case(rng: &mut Rng, index: usize, scale: Scale) -> Option<Case> {
    let letters = alphabet(rng, 2, 6);
    let k = rng.range(2, 7);
    let size = rng.size(scale.min_bytes, scale.max_bytes);
    let mut input: Vec<u8> = (0..size)
        .map(|_| letters[rng.range(0, letters.len() - 1)])
        .collect();
    let at = rng.range(0, input.len());
    input.insert(at, MARKER);
    let residue = input.iter().filter(|&&c| c == b'a').count() % k;
    let mut sigma = letters.clone();
    sigma.push(MARKER);
    let automaton = Automaton::build(
        (0usize, false),
        &sigma,
        |&(count, seen), c| {
            Some(match c {
                b'a' => ((count + 1) % k, seen),
                MARKER => (count, true),
                _ => (count, seen),
            })
        },
        |&(count, seen)| seen && count == residue,
    );
    let name = format!("cnt{index:03}-s{}k{k}r{residue}", letters.len());
    regular_case(name, "counted", input, automaton)
}

/// A base word of length `p` (one marker in it) repeated an odd number of times, with filler
/// letters (not in the base) sprinkled anywhere.
fn periodic_case(rng: &mut Rng, index: usize, scale: Scale) -> Option<Case> {
    let p = rng.range(2, 8);
    let base_letters = alphabet(rng, 2, 4);
    let mut base: Vec<u8> = (0..p)
        .map(|_| base_letters[rng.range(0, base_letters.len() - 1)])
        .collect();
    base[rng.range(0, p - 1)] = MARKER;
    let fillers: Vec<u8> = if rng.chance(500) {
        Vec::new()
    } else {
        LETTERS[10..10 + rng.range(1, 6)].to_vec()
    };
    let size = rng.size(scale.min_bytes, scale.max_bytes);
    let mut reps = size.div_ceil(p).max(1);
    if reps.is_multiple_of(2) {
        reps += 1;
    }
    let mut input = Vec::new();
    for _ in 0..reps {
        for &c in &base {
            if !fillers.is_empty() && rng.chance(150) {
                input.push(fillers[rng.range(0, fillers.len() - 1)]);
            }
            input.push(c);
        }
    }
    let mut sigma = base_letters.clone();
    sigma.push(MARKER);
    sigma.extend_from_slice(&fillers);
    let base_in = base.clone();
    let fillers_in = fillers.clone();
    let automaton = Automaton::build(
        (0usize, false),
        &sigma,
        move |&(at, odd), c| {
            if fillers_in.contains(&c) {
                Some((at, odd))
            } else if base_in[at] == c {
                let at = (at + 1) % base_in.len();
                Some((at, if at == 0 { !odd } else { odd }))
            } else {
                None
            }
        },
        |&(at, odd)| at == 0 && odd,
    );
    let name = format!("per{index:03}-p{p}f{}", fillers.len());
    regular_case(name, "periodic", input, automaton)
}

/// One marker at an index congruent to the input's modulo `p`.
fn position_case(rng: &mut Rng, index: usize, scale: Scale) -> Option<Case> {
    let letters = alphabet(rng, 1, 5);
    let p = rng.range(2, 9);
    let size = rng.size(scale.min_bytes, scale.max_bytes);
    let mut input: Vec<u8> = (0..size)
        .map(|_| letters[rng.range(0, letters.len() - 1)])
        .collect();
    let at = rng.range(0, input.len());
    input.insert(at, MARKER);
    let residue = at % p;
    let mut sigma = letters.clone();
    sigma.push(MARKER);
    let automaton = Automaton::build(
        (0usize, false),
        &sigma,
        move |&(len, seen), c| match (c, seen) {
            (MARKER, true) => None,
            (MARKER, false) => (len == residue).then_some((len, true)),
            (_, true) => Some((len, true)),
            (_, false) => Some(((len + 1) % p, false)),
        },
        |&(_, seen)| seen,
    );
    let name = format!("pos{index:03}-s{}p{p}r{residue}", letters.len());
    regular_case(name, "position", input, automaton)
}

/// A random complete automaton on 2 to 6 states over 2 to 6 letters (start not accepting);
/// the input is an accepted random walk; the test adds a marker or a count of `a`.
fn automaton_case(rng: &mut Rng, index: usize, scale: Scale) -> Option<Case> {
    let states = rng.range(2, 6);
    let letters = alphabet(rng, 2, 6);
    let table: Vec<Vec<usize>> = (0..states)
        .map(|_| letters.iter().map(|_| rng.range(0, states - 1)).collect())
        .collect();
    let mut accepting: Vec<bool> = (0..states).map(|_| rng.chance(400)).collect();
    accepting[0] = false;
    let target = rng.range(1, states - 1);
    accepting[target] = true;
    let size = rng.size(scale.min_bytes, scale.max_bytes);
    // A random walk, then the shortest way to an accepting state.
    let mut input = Vec::new();
    let mut s = 0;
    for _ in 0..size {
        let i = rng.range(0, letters.len() - 1);
        input.push(letters[i]);
        s = table[s][i];
    }
    let mut from: Vec<Option<(usize, usize)>> = vec![None; states];
    let mut queue = std::collections::VecDeque::from([s]);
    let mut seen = vec![false; states];
    seen[s] = true;
    let mut end = None;
    while let Some(q) = queue.pop_front() {
        if accepting[q] {
            end = Some(q);
            break;
        }
        for (i, &t) in table[q].iter().enumerate() {
            if !seen[t] {
                seen[t] = true;
                from[t] = Some((q, i));
                queue.push_back(t);
            }
        }
    }
    let mut q = end?;
    let mut tail = Vec::new();
    while q != s {
        let (p, i) = from[q].expect("reached from s");
        tail.push(letters[i]);
        q = p;
    }
    tail.reverse();
    input.extend(tail);
    let count_keep = index.is_multiple_of(2);
    let want = rng.range(2, 4);
    let (sigma, what) = if count_keep {
        (letters.clone(), format!("a{want}"))
    } else {
        let at = rng.range(0, input.len());
        input.insert(at, MARKER);
        let mut sigma = letters.clone();
        sigma.push(MARKER);
        (sigma, "x".to_string())
    };
    let position = |c: u8| letters.iter().position(|&l| l == c);
    let automaton = Automaton::build(
        (0usize, 0usize),
        &sigma,
        |&(s, kept), c| {
            if c == MARKER {
                return Some((s, 1));
            }
            let t = table[s][position(c)?];
            Some((
                t,
                if count_keep && c == b'a' {
                    (kept + 1).min(want)
                } else {
                    kept
                },
            ))
        },
        |&(s, kept)| accepting[s] && kept >= if count_keep { want } else { 1 },
    );
    let name = format!("dfa{index:03}-q{states}s{}-{what}", letters.len());
    regular_case(name, "automaton", input, automaton)
}

/// The fixed set: about `count` cases, a quarter brackets, the rest split between the regular
/// kinds; the same `seed` gives the same cases.
pub fn generate(count: usize, seed: u64, scale: Scale) -> Vec<Case> {
    collect(count, Rng::new(seed), |rng, index, made| match made % 8 {
        0 | 4 => Some(brackets_case(rng, index, scale)),
        1 => counted_case(rng, index, scale),
        2 => periodic_case(rng, index, scale),
        3 => position_case(rng, index, scale),
        _ => automaton_case(rng, index, scale),
    })
}

/// The first `count` cases `make` gives, called with the generator, the attempt's index and
/// how many cases it made so far (`None`: no case from that attempt).
fn collect(
    count: usize,
    mut rng: Rng,
    mut make: impl FnMut(&mut Rng, usize, usize) -> Option<Case>,
) -> Vec<Case> {
    let mut out = Vec::new();
    let mut index = 0;
    while out.len() < count {
        let case = make(&mut rng, index, out.len());
        index += 1;
        if let Some(case) = case {
            debug_assert!((case.test)(&case.input), "{} fails its own test", case.name);
            out.push(case);
        }
    }
    out
}

/// The keep-conditions of the held-out bracket family.
#[derive(Clone, Copy)]
enum HeldOutKeep {
    /// At least `m` bracket pairs.
    Pairs,
    /// A pair of one kind inside a pair of another (of the same kind with one kind).
    Nested,
    /// Two different markers, the first before the second.
    Apart,
    /// A marker inside a pair of the last kind.
    Inside,
}

/// A balanced word over `kinds` pairs by a walk that opens with a probability falling with the
/// depth (unlike `bracket_word`, no planted deepest point), fillers from the first `fillers`
/// letters in runs of 1 to 3.
fn walk_word(rng: &mut Rng, size: usize, kinds: usize, fillers: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    while out.len() + stack.len() < size {
        if fillers > 0 && rng.chance(250) {
            for _ in 0..rng.range(1, 3) {
                out.push(LETTERS[rng.range(0, fillers - 1)]);
            }
        } else if stack.is_empty() || rng.chance(1000 / (stack.len() as u64 + 2)) {
            let k = rng.range(0, kinds - 1);
            out.push(OPENS[k]);
            stack.push(k);
        } else if let Some(k) = stack.pop() {
            out.push(CLOSES[k]);
        }
    }
    while let Some(k) = stack.pop() {
        out.push(CLOSES[k]);
    }
    out
}

/// The positions where a balanced word's top level may be cut: inserting a balanced piece
/// there keeps the word balanced, and nothing encloses it.
fn top_level_cuts(word: &[u8], kinds: usize) -> Vec<usize> {
    let mut depth = 0usize;
    let mut cuts = vec![0];
    for (i, &c) in word.iter().enumerate() {
        if OPENS[..kinds].contains(&c) {
            depth += 1;
        } else if CLOSES[..kinds].contains(&c) {
            depth -= 1;
        }
        if depth == 0 {
            cuts.push(i + 1);
        }
    }
    cuts
}

/// Whether a balanced `b` has a pair of kind `inner` inside a pair of kind `outer`.
fn has_nested(b: &[u8], kinds: usize, outer: usize, inner: usize) -> bool {
    if bracket_depth(b, kinds).is_none() {
        return false;
    }
    let mut stack: Vec<usize> = Vec::new();
    for &c in b {
        if let Some(k) = OPENS[..kinds].iter().position(|&o| o == c) {
            if k == inner && stack.contains(&outer) {
                return true;
            }
            stack.push(k);
        } else if CLOSES[..kinds].contains(&c) {
            stack.pop();
        }
    }
    false
}

/// The number of bracket pairs of a balanced `b`.
fn bracket_pairs(b: &[u8], kinds: usize) -> Option<usize> {
    bracket_depth(b, kinds)?;
    Some(b.iter().filter(|c| OPENS[..kinds].contains(c)).count())
}

fn held_out_brackets_case(rng: &mut Rng, index: usize, scale: Scale) -> Case {
    let kinds = rng.range(1, 4);
    let fillers = if rng.chance(250) { 0 } else { rng.range(1, 12) };
    let size = rng.size(scale.min_bytes, scale.max_bytes).max(8);
    let keep = [
        HeldOutKeep::Pairs,
        HeldOutKeep::Nested,
        HeldOutKeep::Apart,
        HeldOutKeep::Inside,
    ][(index / 2) % 4];
    let mut input = walk_word(rng, size, kinds, fillers);
    let cuts = top_level_cuts(&input, kinds);
    let (test, minimum, what): (Test, usize, String) = match keep {
        HeldOutKeep::Pairs => {
            let have = bracket_pairs(&input, kinds).expect("balanced").max(1);
            // The scale's depth bounds the pairs asked for as it bounds the other family's
            // depths: the minimum stays within what the pass can prove.
            let want = rng.range(1, have.min(scale.max_depth.max(1)));
            if bracket_pairs(&input, kinds) == Some(0) {
                let at = cuts[rng.range(0, cuts.len() - 1)];
                input.splice(at..at, [OPENS[0], CLOSES[0]]);
            }
            (
                Arc::new(move |b: &[u8]| bracket_pairs(b, kinds).is_some_and(|p| p >= want)),
                2 * want,
                format!("p{want}"),
            )
        }
        HeldOutKeep::Nested => {
            let outer = rng.range(0, kinds - 1);
            let inner = if kinds > 1 {
                (outer + rng.range(1, kinds - 1)) % kinds
            } else {
                outer
            };
            let at = cuts[rng.range(0, cuts.len() - 1)];
            input.splice(
                at..at,
                [OPENS[outer], OPENS[inner], CLOSES[inner], CLOSES[outer]],
            );
            (
                Arc::new(move |b: &[u8]| has_nested(b, kinds, outer, inner)),
                4,
                format!("n{outer}{inner}"),
            )
        }
        HeldOutKeep::Apart => {
            let first = rng.range(0, input.len());
            input.insert(first, MARKER);
            let second = rng.range(first + 1, input.len());
            input.insert(second, b'Y');
            (
                Arc::new(move |b: &[u8]| {
                    bracket_depth(b, kinds).is_some()
                        && b.iter()
                            .position(|&c| c == MARKER)
                            .is_some_and(|i| b[i..].contains(&b'Y'))
                }),
                2,
                "xy".into(),
            )
        }
        HeldOutKeep::Inside => {
            let k = kinds - 1;
            let at = cuts[rng.range(0, cuts.len() - 1)];
            input.splice(at..at, [OPENS[k], MARKER, CLOSES[k]]);
            (
                Arc::new(move |b: &[u8]| {
                    bracket_depth(b, kinds).is_some()
                        && b.iter().position(|&c| c == MARKER).is_some_and(|at| {
                            let before = &b[..at];
                            let opened = before.iter().filter(|&&c| c == OPENS[k]).count();
                            let closed = before.iter().filter(|&&c| c == CLOSES[k]).count();
                            opened > closed
                        })
                }),
                3,
                "xin".into(),
            )
        }
    };
    Case {
        name: format!("hb{index:03}-k{kinds}f{fillers}-{what}"),
        family: "brackets-h",
        input,
        test,
        minimum,
    }
}

/// A case of the held-out counted family (`None` when the empty word would do): a small
/// automaton over a random word, keeping two counts modulo, at least `m` `a`s with the
/// input's parity of `b`s, a difference of counts modulo, or the count of `ab` modulo.
fn held_out_counted_case(rng: &mut Rng, index: usize, scale: Scale) -> Option<Case> {
    let letters = alphabet(rng, 2, 6);
    let size = rng.size(scale.min_bytes, scale.max_bytes);
    let input: Vec<u8> = (0..size)
        .map(|_| letters[rng.range(0, letters.len() - 1)])
        .collect();
    let count = |c: u8| input.iter().filter(|&&x| x == c).count();
    let (a, b) = (count(b'a'), count(b'b'));
    let (automaton, what) = match (index / 2) % 4 {
        0 => {
            let (k1, k2) = (rng.range(2, 5), rng.range(2, 5));
            let (r1, r2) = (a % k1, b % k2);
            let automaton = Automaton::build(
                (0usize, 0usize),
                &letters,
                |&(x, y), c| {
                    Some(match c {
                        b'a' => ((x + 1) % k1, y),
                        b'b' => (x, (y + 1) % k2),
                        _ => (x, y),
                    })
                },
                move |&(x, y)| x == r1 && y == r2,
            );
            (automaton, format!("two{k1}{k2}"))
        }
        1 => {
            let want = rng.range(2, 12).min(a.max(1));
            let parity = b % 2;
            let automaton = Automaton::build(
                (0usize, 0usize),
                &letters,
                |&(x, y), c| {
                    Some(match c {
                        b'a' => ((x + 1).min(want), y),
                        b'b' => (x, (y + 1) % 2),
                        _ => (x, y),
                    })
                },
                move |&(x, y)| x >= want && y == parity,
            );
            (automaton, format!("least{want}"))
        }
        2 => {
            let k = rng.range(2, 6);
            let r = (a + k * size - b) % k;
            let automaton = Automaton::build(
                0usize,
                &letters,
                |&x, c| {
                    Some(match c {
                        b'a' => (x + 1) % k,
                        b'b' => (x + k - 1) % k,
                        _ => x,
                    })
                },
                move |&x| x == r,
            );
            (automaton, format!("diff{k}"))
        }
        _ => {
            let k = rng.range(2, 4);
            let r = input.windows(2).filter(|w| w == b"ab").count() % k;
            let automaton = Automaton::build(
                (0usize, false),
                &letters,
                |&(x, after_a), c| {
                    Some(match c {
                        b'a' => (x, true),
                        b'b' if after_a => ((x + 1) % k, false),
                        _ => (x, false),
                    })
                },
                move |&(x, _)| x == r,
            );
            (automaton, format!("ab{k}"))
        }
    };
    if automaton.run(b"") {
        // The empty word would do: no reduction to speak of.
        return None;
    }
    let name = format!("hc{index:03}-s{}-{what}", letters.len());
    regular_case(name, "counted-h", input, automaton)
}

/// The held-out set: bracket and counted families built apart from [`generate`]'s (another
/// word process, other keep-conditions), for checking figures on families the pass was not
/// tuned on. Cases alternate, and a counted case the empty word would satisfy is skipped, so
/// a little over half are brackets; the same `seed` gives the same cases.
pub fn generate_held_out(count: usize, seed: u64, scale: Scale) -> Vec<Case> {
    collect(count, Rng::new(seed ^ 0x4845_4C44), |rng, index, _| {
        if index % 2 == 0 {
            Some(held_out_brackets_case(rng, index, scale))
        } else {
            held_out_counted_case(rng, index, scale)
        }
    })
}

/// The shortest interesting subsequence by trying them all, shortest first (inputs of at
/// most 20 bytes).
pub fn brute_minimum(input: &[u8], test: &Test) -> Option<usize> {
    assert!(input.len() <= 20, "brute force is exponential");
    let n = input.len();
    let mut best: Option<usize> = None;
    for mask in 0u32..(1 << n) {
        let len = mask.count_ones() as usize;
        if best.is_some_and(|b| b <= len) {
            continue;
        }
        let sub: Vec<u8> = (0..n)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| input[i])
            .collect();
        if test(&sub) {
            best = Some(len);
        }
    }
    best
}
