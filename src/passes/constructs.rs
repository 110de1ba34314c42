//! Constructs: statement code edited a construct at a time, not a token at a time.
//!
//! Main type: [`Constructs`], a [`crate::Pass`]. In each sequence of elements of the bracket
//! structure (the [`crate::Nesting`]) it finds
//! - control statements: `if`, `for`, `while` or `switch`, its parenthesized head, and its
//!   body (a `{..}` block, or the elements up to the next `;`), with an `else` and its body
//!   after an `if`. Candidates: the statement deleted whole; replaced by its body (the head
//!   deleted, and the `else` part); by the body's contents (the braces gone too); an `if`
//!   replaced by its `else` body;
//! - constructor initializer lists: a `(..)` group, a single `:`, then the elements up to a
//!   `{..}` block (`C(int x) : a(x), b() {`). Candidate: the list deleted from the `:`.
//!
//! Each is an edit no deletion of one token or of one run of siblings makes, and that a
//! reduction of a compile-and-run test keeps needing: a loop that runs once, a condition that
//! always holds, members that need no initializer. C-Vise's clang_delta passes
//! (`simplify-if`, `remove-ctor-initializer`) make such edits on the parsed program; these are
//! found lexically, a few candidates per construct, and tested in one sweep (`patch.rs`), the
//! one that removes the most first.
//!
//! ```
//! use myhill::{Constructs, Driver, EvalOptions, FnOracle, Pass};
//! // Interesting while `g();` survives and the braces pair.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     let s = String::from_utf8_lossy(b);
//!     s.contains("g();") && s.matches('{').count() == s.matches('}').count()
//! });
//! let input = b"void f(){for(int i=0;i<n;++i){g();}}";
//! let mut driver = Driver::new(input.to_vec(), &oracle, EvalOptions::default());
//! Constructs.run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"void f(){g();}");
//! ```
//!
//! Limits: lexical only: a `while` of a `do .. while (..);` is taken for a loop with an empty
//! body, a `case x: {` after a parenthesized label for an initializer list; the test rejects
//! such candidates, at one test each. Inputs of more than [`Constructs::MAX_ELEMENTS`]
//! elements are left to the other passes.

use super::patch::{Cut, Patch, SweepPass, largest_first};
use crate::driver::Driver;
use crate::tree::Nesting;

/// Edits control statements and initializer lists; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct Constructs;

impl Constructs {
    /// Inputs with more elements than this are left to other passes.
    pub const MAX_ELEMENTS: usize = 20_000;
}

/// Whether `text` is a group opened by `open` (and closed: a lone bracket is one byte).
fn is_group(text: &[u8], open: u8) -> bool {
    text.len() >= 2 && text[0] == open
}

/// The end (exclusive, an index into `seq`) of the statement that starts at element `k`: a
/// `{..}` block, or the elements up to and including the next `;`. `None` if there is none.
fn statement_end(input: &[u8], seq: &[(usize, usize)], k: usize) -> Option<usize> {
    let text = |i: usize| &input[seq[i].0..seq[i].1];
    if k >= seq.len() {
        return None;
    }
    if is_group(text(k), b'{') {
        return Some(k + 1);
    }
    (k..seq.len()).find(|&i| text(i) == b";").map(|i| i + 1)
}

fn delete(from: usize, to: usize) -> Option<Patch> {
    Patch::of(vec![Cut::delete(from, to)])
}

/// The candidates of one control statement whose keyword is element `k` of `seq`.
fn control(input: &[u8], seq: &[(usize, usize)], k: usize, out: &mut Vec<Patch>) {
    let text = |i: usize| &input[seq[i].0..seq[i].1];
    if k + 1 >= seq.len() || !is_group(text(k + 1), b'(') {
        return;
    }
    let Some(body_end) = statement_end(input, seq, k + 2) else {
        return;
    };
    let start = seq[k].0;
    let (body_start, body_stop) = (seq[k + 2].0, seq[body_end - 1].1);
    // The `else` part of an `if`: its keyword and its body.
    let otherwise = (text(k) == b"if" && body_end < seq.len() && text(body_end) == b"else")
        .then(|| statement_end(input, seq, body_end + 1).map(|e| (body_end, e)))
        .flatten();
    let end = otherwise.map_or(body_stop, |(_, e)| seq[e - 1].1);
    out.extend(delete(start, end));
    // The body alone: the head and the `else` part gone.
    out.extend(Patch::of(vec![
        Cut::delete(start, body_start),
        Cut::delete(body_stop, end),
    ]));
    if body_end == k + 3 && is_group(text(k + 2), b'{') {
        // The body's contents: its braces gone too.
        out.extend(Patch::of(vec![
            Cut::delete(start, body_start + 1),
            Cut::delete(body_stop - 1, end),
        ]));
    }
    if let Some((else_at, else_end)) = otherwise
        && else_at + 1 < else_end
    {
        out.extend(delete(start, seq[else_at + 1].0));
    }
}

/// The candidate of a constructor initializer list whose `:` is element `k` of `seq`.
fn initializers(input: &[u8], seq: &[(usize, usize)], k: usize, out: &mut Vec<Patch>) {
    let text = |i: usize| &input[seq[i].0..seq[i].1];
    let single_colon = text(k) == b":"
        && (k + 1 >= seq.len() || text(k + 1) != b":")
        && k > 0
        && is_group(text(k - 1), b'(');
    if !single_colon {
        return;
    }
    let block = (k + 1..seq.len()).find(|&i| {
        let t = text(i);
        t == b";" || is_group(t, b'{')
    });
    if let Some(b) = block
        && b > k + 1
        && is_group(text(b), b'{')
    {
        out.extend(delete(seq[k].0, seq[b - 1].1));
    }
}

/// The candidates on `s`'s input, the one that removes the most first.
fn candidates(s: &Nesting) -> Vec<Patch> {
    let input = s.input();
    let total: usize = s.sequences().iter().map(Vec::len).sum();
    if total > Constructs::MAX_ELEMENTS {
        return Vec::new();
    }
    let mut out = Vec::new();
    for seq in s.sequences() {
        for k in 0..seq.len() {
            match &input[seq[k].0..seq[k].1] {
                b"if" | b"for" | b"while" | b"switch" => control(input, seq, k, &mut out),
                b":" => initializers(input, seq, k, &mut out),
                _ => {}
            }
        }
    }
    largest_first(out)
}

impl SweepPass for Constructs {
    const NAME: &'static str = "constructs";

    fn patches(driver: &Driver) -> Vec<Patch> {
        candidates(&driver.nesting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(input: &str) -> Vec<String> {
        candidates(&Nesting::new(input.as_bytes()))
            .iter()
            .map(|p| String::from_utf8(p.apply(input.as_bytes()).unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn a_loop_is_deleted_or_replaced_by_its_body_or_its_contents() {
        let r = results("f(){for(i=0;i<n;++i){g();h();}x;}");
        for want in ["f(){x;}", "f(){{g();h();}x;}", "f(){g();h();x;}"] {
            assert!(r.contains(&want.to_string()), "{want} in {r:?}");
        }
    }

    #[test]
    fn an_if_goes_with_its_else_or_gives_way_to_either_branch() {
        let r = results("f(){if(c)a();else{b();}x;}");
        for want in ["f(){x;}", "f(){a();x;}", "f(){{b();}x;}"] {
            assert!(r.contains(&want.to_string()), "{want} in {r:?}");
        }
        // A statement body without braces has no contents candidate of its own.
        assert!(!r.iter().any(|c| c.contains("if") && !c.contains("else")));
    }

    #[test]
    fn an_initializer_list_is_deleted_but_not_a_scope_or_a_label() {
        let r = results("struct C{C(int x):a(x),b(){}int a,b;public:};");
        assert!(
            r.contains(&"struct C{C(int x){}int a,b;public:};".to_string()),
            "{r:?}"
        );
        let r = results("int f(){return std::g(1);}");
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn every_candidate_shrinks_and_keeps_the_brackets_paired() {
        let input = "void f(){while(x){if(a){b();}else if(c)d();for(;;);}C():m(1){}}";
        for out in results(input) {
            assert!(out.len() < input.len());
            for (open, close) in [('(', ')'), ('{', '}')] {
                assert_eq!(
                    out.matches(open).count(),
                    out.matches(close).count(),
                    "{out}"
                );
            }
        }
    }
}
