//! Builtin types: a type name the input never declares replaced by `int`, `unsigned`, `long` or
//! `char`, at every use at once; a simple typedef inlined at every use.
//!
//! Main type: [`BuiltinTypes`] (`types/builtin`), a [`crate::passes::Pass`]. A type that comes from a
//! header (`size_t`, `std::size_t`, `uint64_t`, `FILE`) is a name no deletion shortens and no
//! renaming may touch, and it keeps its `#include` alive: a result can need a header for one
//! type name alone (`#include <stdio.h>` for the `size_t` of `size_t i;`). So for each name in
//! a type's place (before a declared name, or before `*` or `&` and one) that the input does
//! not declare itself, the pass proposes the input with every use of it replaced by a builtin
//! type; when the builtin is not shorter (`unsigned` for `size_t`), together with one
//! `#include` line deleted, each in turn, since without the header the name is what the
//! header was kept for. A typedef of words alone (`typedef unsigned long u;`) is proposed
//! deleted with every other use of its name spelled as its type, so that a chain of typedefs
//! unwinds a link a test. C-Vise's clang passes change types this way (`replace-simple-typedef`,
//! `reduce-class-template-param`); this is the lexical form of the move, one test a candidate.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{BuiltinTypes, Cx, Pass}};
//! // Interesting while `i` is declared unsigned, whatever spells it.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     let s = String::from_utf8_lossy(b);
//!     s.contains("unsigned i;") || (s.contains("#include <stdio.h>") && s.contains("size_t i;"))
//! });
//! let input = b"#include <stdio.h>\nvoid f(){size_t i;i<g();}\n".to_vec();
//! let mut cx = Cx::new(input, &oracle, EvalOptions::default());
//! BuiltinTypes::default().run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"void f(){unsigned i;i<g();}\n");
//! ```
//!
//! Limits: lexical, not a parser: a type's place and a declaration are told by the words
//! around a name (`struct`, `class`, `union`, `enum`, `typename`, `namespace`, `using N =`,
//! `typedef ... N;`, `#define N`), so an expression `a * b` reads as a declaration (the
//! candidate then costs a test only if it makes the input smaller). A candidate that failed is
//! not proposed again by the same pass.

use crate::cx::Cx;
use crate::lex::{Class, Lexeme, Pairing, lex};
use crate::passes::text::rename::is_reserved;
use crate::report::Stop;
use crate::schedule::Pass;
use std::collections::{BTreeMap, BTreeSet};

/// The builtin types tried, in order.
const BUILTINS: &[&[u8]] = &[b"int", b"unsigned", b"long", b"char"];

/// Words after which a name is being declared (or is a tag, which a builtin cannot replace).
const DECLARING: &[&[u8]] = &[
    b"class",
    b"concept",
    b"define",
    b"enum",
    b"namespace",
    b"struct",
    b"typename",
    b"union",
];

/// Replaces type names by builtin types; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct BuiltinTypes {
    /// The candidates that failed, by what they do; kept across the schedule's rounds.
    failed: BTreeSet<Vec<u8>>,
}

/// One candidate: what it does (its identity for the failure memory) and its edits of the
/// input, in order: byte ranges and what replaces them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Candidate {
    what: Vec<u8>,
    edits: Vec<(usize, usize, Vec<u8>)>,
    saved: isize,
}

impl Candidate {
    fn render(&self, input: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len());
        let mut at = 0;
        for (start, end, with) in &self.edits {
            out.extend_from_slice(&input[at..*start]);
            out.extend_from_slice(with);
            at = *end;
        }
        out.extend_from_slice(&input[at..]);
        out
    }
}

/// A name as the lexemes spell it: `::`-joined words, a leading `::` kept.
struct Name {
    text: Vec<u8>,
    start: usize,
    end: usize,
    /// Index in the significant lexemes of the first lexeme after it.
    next: usize,
}

/// The name that starts at significant lexeme `i` (a word, or `::` and a word), if any.
fn name_at(input: &[u8], sig: &[Lexeme], i: usize) -> Option<Name> {
    let text = |l: &Lexeme| &input[l.start..l.end];
    let colons = |k: usize| {
        k + 1 < sig.len()
            && sig[k].class == Class::Punct(b':')
            && sig[k + 1].class == Class::Punct(b':')
            && sig[k].end == sig[k + 1].start
    };
    let mut k = i;
    let mut out = Vec::new();
    if colons(k) {
        out.extend_from_slice(b"::");
        k += 2;
    }
    loop {
        let word = sig.get(k).filter(|l| l.class == Class::Word)?;
        out.extend_from_slice(text(word));
        k += 1;
        if colons(k) && sig.get(k + 2).is_some_and(|l| l.class == Class::Word) {
            out.extend_from_slice(b"::");
            k += 2;
        } else {
            break;
        }
    }
    Some(Name {
        text: out,
        start: sig[i].start,
        end: sig[k - 1].end,
        next: k,
    })
}

/// Whether significant lexeme `k` follows `.`, `->` or `::`: a member or a qualified name,
/// not a type of the input's own.
fn after_member(sig: &[Lexeme], k: usize) -> bool {
    let punct = |j: usize, c: u8| j < k && sig.get(j).is_some_and(|l| l.class == Class::Punct(c));
    punct(k.wrapping_sub(1), b'.')
        || (punct(k.wrapping_sub(1), b'>') && punct(k.wrapping_sub(2), b'-'))
        || (punct(k.wrapping_sub(1), b':') && punct(k.wrapping_sub(2), b':'))
}

/// The last word of a name (`size_t` of `std::size_t`).
fn last_word(name: &[u8]) -> &[u8] {
    let from = name
        .windows(2)
        .rposition(|w| w == b"::")
        .map_or(0, |p| p + 2);
    &name[from..]
}

/// The candidates on `input`, most bytes saved first.
fn candidates(input: &[u8]) -> Vec<Candidate> {
    let sig: Vec<Lexeme> = lex(input)
        .into_iter()
        .filter(|l| !matches!(l.class, Class::Space | Class::Comment))
        .collect();
    let code = Code { input, sig: &sig };
    let (includes, on_include) = code.include_lines();
    let (declared, typedefs) = code.declarations();
    let (uses, typed) = code.foreign_types(&declared, &on_include);
    let mut out = typedefs_inlined(input, &sig, &typedefs, &on_include);
    for name in &typed {
        out.extend(builtins_for(input, name, &uses[name], &includes));
    }
    // Most bytes saved first; ties in the order made (by name, then builtin).
    out.sort_by_key(|c| std::cmp::Reverse(c.saved));
    out
}

/// Every use of each name: its bytes, in order.
type Uses = BTreeMap<Vec<u8>, Vec<(usize, usize)>>;

/// An input and its significant lexemes (no space, no comment).
struct Code<'a> {
    input: &'a [u8],
    sig: &'a [Lexeme],
}

impl<'a> Code<'a> {
    fn text(&self, k: usize) -> &'a [u8] {
        &self.input[self.sig[k].start..self.sig[k].end]
    }

    fn punct(&self, k: usize, c: u8) -> bool {
        self.sig.get(k).is_some_and(|l| l.class == Class::Punct(c))
    }

    fn word(&self, k: usize) -> bool {
        self.sig.get(k).is_some_and(|l| l.class == Class::Word)
    }

    /// The `#include` lines (with their newline), and per significant lexeme whether it
    /// stands on one.
    fn include_lines(&self) -> (Vec<(usize, usize)>, Vec<bool>) {
        let (input, sig) = (self.input, self.sig);
        let mut includes: Vec<(usize, usize)> = Vec::new();
        let mut on_include = vec![false; sig.len()];
        for k in 0..sig.len() {
            let start = input[..sig[k].start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            if self.punct(k, b'#')
                && self.word(k + 1)
                && self.text(k + 1) == b"include"
                && input[start..sig[k].start]
                    .iter()
                    .all(|b| b.is_ascii_whitespace())
            {
                let end = input[sig[k].end..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(input.len(), |p| sig[k].end + p + 1);
                includes.push((start, end));
                for (j, flag) in on_include.iter_mut().enumerate().skip(k) {
                    if sig[j].start >= end {
                        break;
                    }
                    *flag = true;
                }
            }
        }
        (includes, on_include)
    }

    /// The words the input declares, and the simple typedefs (words only: `typedef unsigned
    /// long u;`) with the significant lexemes they span.
    fn declarations(&self) -> (BTreeSet<&'a [u8]>, Vec<(usize, usize)>) {
        let mut declared: BTreeSet<&[u8]> = BTreeSet::new();
        let mut typedefs: Vec<(usize, usize)> = Vec::new();
        let mut typedef_at: Option<usize> = None;
        let mut typedef_depth: Option<usize> = None;
        // The depth a `;` ends a typedef at, by the one bracket pairing (`lex::Pairing`).
        let mut pairing = Pairing::default();
        let word = |k: usize| self.word(k);
        for k in 0..self.sig.len() {
            pairing.feed(self.sig[k].class, k);
            let depth = pairing.depth();
            match self.sig[k].class {
                Class::Punct(b';') if typedef_depth == Some(depth) => {
                    if k > 0 && word(k - 1) {
                        declared.insert(self.text(k - 1));
                    }
                    if let Some(at) = typedef_at.filter(|&at| k >= at + 3 && (at + 1..k).all(word))
                    {
                        typedefs.push((at, k));
                    }
                    typedef_depth = None;
                    typedef_at = None;
                }
                Class::Word => {
                    let w = self.text(k);
                    if w == b"typedef" {
                        typedef_depth = Some(depth);
                        typedef_at = Some(k);
                    }
                    if k > 0 && word(k - 1) && DECLARING.contains(&self.text(k - 1)) {
                        declared.insert(w);
                    }
                    if k > 0
                        && word(k - 1)
                        && self.text(k - 1) == b"using"
                        && self.punct(k + 1, b'=')
                    {
                        declared.insert(w);
                    }
                }
                _ => {}
            }
        }
        (declared, typedefs)
    }

    /// Every use of every name the input does not declare (and no keyword), and the names
    /// seen in a type's place (before a word, or before `*` or `&` and a word or another
    /// `*` or `&`).
    fn foreign_types(
        &self,
        declared: &BTreeSet<&[u8]>,
        on_include: &[bool],
    ) -> (Uses, BTreeSet<Vec<u8>>) {
        let sig = self.sig;
        let mut uses = Uses::new();
        let mut typed: BTreeSet<Vec<u8>> = BTreeSet::new();
        let mut k = 0;
        while k < sig.len() {
            let Some(name) = (!on_include[k] && !after_member(sig, k))
                .then(|| name_at(self.input, sig, k))
                .flatten()
            else {
                k += 1;
                continue;
            };
            let last = last_word(&name.text);
            if !is_reserved(last) && !declared.contains(last) {
                let next = name.next;
                let pointer = self.punct(next, b'*') || self.punct(next, b'&');
                if self.word(next)
                    || (pointer
                        && (self.word(next + 1)
                            || self.punct(next + 1, b'*')
                            || self.punct(next + 1, b'&')))
                {
                    typed.insert(name.text.clone());
                }
                uses.entry(name.text.clone())
                    .or_default()
                    .push((name.start, name.end));
            }
            k = name.next;
        }
        (uses, typed)
    }
}

/// The candidates that spell the type `name`, used at `at`, as each builtin: alone when that
/// is shorter, else with one `#include` line of `includes` deleted too.
fn builtins_for(
    input: &[u8],
    name: &[u8],
    at: &[(usize, usize)],
    includes: &[(usize, usize)],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &builtin in BUILTINS {
        let per_use = name.len() as isize - builtin.len() as isize;
        let saved = per_use * at.len() as isize;
        let edits: Vec<(usize, usize, Vec<u8>)> =
            at.iter().map(|&(s, e)| (s, e, builtin.to_vec())).collect();
        let what = [name, b"\0", builtin].concat();
        if saved > 0 {
            out.push(Candidate { what, edits, saved });
            continue;
        }
        for &(start, end) in includes {
            let saved = saved + (end - start) as isize;
            if saved <= 0 {
                continue;
            }
            let mut edits = edits.clone();
            edits.push((start, end, Vec::new()));
            edits.sort_by_key(|&(s, _, _)| s);
            out.push(Candidate {
                what: [&what, b"\0".as_slice(), &input[start..end]].concat(),
                edits,
                saved,
            });
        }
    }
    out
}

/// For each simple typedef (significant lexemes `at` to `semicolon`: `typedef`, type words, the
/// name, `;`), the input with the typedef deleted and every other use of its name spelled as
/// its type: a chain `typedef int d; typedef d u; u y;` that no deletion shortens unwinds a
/// link a test.
fn typedefs_inlined(
    input: &[u8],
    sig: &[Lexeme],
    typedefs: &[(usize, usize)],
    on_include: &[bool],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &(at, semicolon) in typedefs {
        let name = &input[sig[semicolon - 1].start..sig[semicolon - 1].end];
        let spelled = input[sig[at + 1].start..sig[semicolon - 2].end].to_vec();
        let mut edits = vec![(sig[at].start, sig[semicolon].end, Vec::new())];
        for (k, l) in sig.iter().enumerate() {
            if l.class == Class::Word
                && !(at..=semicolon).contains(&k)
                && !on_include[k]
                && !after_member(sig, k)
                && &input[l.start..l.end] == name
            {
                edits.push((l.start, l.end, spelled.clone()));
            }
        }
        edits.sort_by_key(|&(s, _, _)| s);
        let uses = edits.len() as isize - 1;
        let saved = (sig[semicolon].end - sig[at].start) as isize
            + uses * (name.len() as isize - spelled.len() as isize);
        if saved > 0 {
            out.push(Candidate {
                what: [b"typedef\0".as_slice(), name].concat(),
                edits,
                saved,
            });
        }
    }
    out
}

impl Pass for BuiltinTypes {
    fn name(&self) -> String {
        "types/builtin".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        loop {
            let input = cx.best_shared();
            let order: Vec<Candidate> = candidates(&input)
                .into_iter()
                .filter(|c| !self.failed.contains(&c.what))
                .collect();
            if order.is_empty() {
                return Ok(());
            }
            let mut next = order.iter().enumerate().map(|(k, c)| (c.render(&input), k));
            let winner = cx.try_candidates(&mut || next.next())?;
            // Learn only what came before the winner: the same for every --jobs.
            let tried = winner.unwrap_or(order.len());
            for c in &order[..tried] {
                self.failed.insert(c.what.clone());
            }
            if winner.is_none() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(input: &[u8]) -> Vec<String> {
        candidates(input)
            .iter()
            .map(|c| String::from_utf8_lossy(&c.render(input)).into_owned())
            .collect()
    }

    #[test]
    fn a_type_from_a_header_becomes_a_builtin_everywhere() {
        let got = rendered(b"std::size_t n = f(std::size_t(2)); x.size_t = 1;");
        assert_eq!(got[0], "int n = f(int(2)); x.size_t = 1;");
        assert_eq!(got.len(), 4, "{got:?}"); // every builtin is shorter than std::size_t
        assert_eq!(rendered(b"size_t n;").len(), 3); // but unsigned is not shorter than size_t
    }

    #[test]
    fn a_longer_builtin_goes_with_an_include_line() {
        let input = b"#include <stdio.h>\n#include <x.h>\na(){size_t i;i<l();}\n";
        let got = rendered(input);
        assert!(got.contains(&"#include <x.h>\na(){unsigned i;i<l();}\n".to_string()));
        assert!(got.contains(&"#include <stdio.h>\na(){unsigned i;i<l();}\n".to_string()));
        assert!(
            got.contains(&"#include <stdio.h>\n#include <x.h>\na(){int i;i<l();}\n".to_string())
        );
    }

    #[test]
    fn a_typedef_chain_unwinds_a_link_a_candidate() {
        let input = b"typedef int d;typedef d u;volatile u y;s.u=1;";
        let got = rendered(input);
        assert!(
            got.contains(&"typedef int d;volatile d y;s.u=1;".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"typedef int u;volatile u y;s.u=1;".to_string()),
            "{got:?}"
        );
        let after = b"typedef int d;volatile d y;";
        assert_eq!(rendered(after), ["volatile int y;"]);
        // A typedef of a struct or a pointer is not words alone: left to the other passes.
        assert!(rendered(b"typedef struct s *p; p x;").is_empty());
    }

    #[test]
    fn declared_names_keywords_and_members_are_left_alone() {
        let input = b"struct node { node *next; }; typedef long cell; cell c; template <typename T> T *p; int x; y.value z; using alias = int; alias q;";
        let got = rendered(input);
        // Only the typedef goes, its name spelled as its type.
        assert_eq!(
            got,
            [
                "struct node { node *next; };  long c; template <typename T> T *p; int x; y.value z; using alias = int; alias q;"
            ],
            "{got:?}"
        );
        // Expressions that read as declarations are proposed, but only if shorter.
        assert!(rendered(b"a * b;").is_empty());
        assert_eq!(rendered(b"count * b;")[0], "int * b;");
    }
}
