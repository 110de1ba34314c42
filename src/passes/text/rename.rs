//! The renaming pass: shorter names for identifiers, one identifier per candidate.
//!
//! Main items: [`ShortenIdentifiers`] (a [`Pass`]) and [`Renaming`] (one round's candidates, in
//! order). Deletion never shortens a name that is still needed, and in code the names are
//! often most of the bytes left (`capitalise_first` used three times is 48 bytes), so this pass
//! proposes, for each identifier, the input with every occurrence renamed to the shortest name
//! the input does not use. Identifiers are tried by the bytes they would save, most first; an
//! identifier whose renaming fails is not tried again by the same pass.
//!
//! ```
//! use myhill::passes::Renaming;
//! let round = Renaming::new(b"int value = value + other;", &Default::default());
//! assert_eq!(round.order, [b"value".to_vec(), b"other".to_vec()]);
//! assert_eq!(round.to, b"a");
//! assert_eq!(round.render(b"value"), b"int a = a + other;");
//! ```
//!
//! Limits: identifiers are the words of [`crate::text::lex`]; names inside literals and comments are
//! left alone, and so are words on `#include` lines and the keywords of C and C++ (renaming them is a wasted test in every C-family input). A rename
//! that is correct only together with another (two overloads, say) is not found.

use crate::cx::Cx;
use crate::lex::{Class, Lexeme, lex};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;
use std::collections::{BTreeMap, BTreeSet};

/// Names that are never renamed: C and C++ keywords, preprocessor directives, `main` and
/// `std`. Renaming one of them fails in any C-family program, so proposing it wastes a test.
const RESERVED: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "const_cast",
    "constexpr",
    "continue",
    "decltype",
    "default",
    "define",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "elif",
    "else",
    "endif",
    "enum",
    "explicit",
    "extern",
    "false",
    "final",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "ifdef",
    "ifndef",
    "include",
    "inline",
    "int",
    "long",
    "main",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "nullptr",
    "operator",
    "or",
    "override",
    "pragma",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "std",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "undef",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

pub(crate) fn is_reserved(name: &[u8]) -> bool {
    RESERVED
        .binary_search_by(|r| r.as_bytes().cmp(name))
        .is_ok()
}

/// Which lexemes may be renamed: words outside `#include` lines (literals and comments are
/// whole lexemes of their own, so names inside them are never touched).
fn renamable(input: &[u8], lexemes: &[Lexeme]) -> Vec<bool> {
    let mut out = Vec::with_capacity(lexemes.len());
    // Per line: nothing but blanks so far; a `#` came first; it is an `#include` line.
    let (mut line_start, mut after_hash, mut include_line) = (true, false, false);
    for l in lexemes {
        let text = &input[l.start..l.end];
        out.push(l.class == Class::Word && !include_line);
        if after_hash && text == b"include" {
            include_line = true;
        }
        let blank = l.class == Class::Space;
        after_hash = (line_start && l.class == Class::Punct(b'#')) || (after_hash && blank);
        line_start &= blank;
        if text.ends_with(b"\n") || (blank && text.contains(&b'\n')) {
            (line_start, after_hash, include_line) = (true, false, false);
        }
    }
    out
}

/// The `k`-th name in shortlex order over `a-z`: `a`, ..., `z`, `aa`, `ab`, ...
fn nth_name(mut k: usize) -> Vec<u8> {
    let mut len = 1;
    let mut count = 26;
    while k >= count {
        k -= count;
        len += 1;
        count *= 26;
    }
    let mut name = vec![b'a'; len];
    for slot in name.iter_mut().rev() {
        *slot = b'a' + (k % 26) as u8;
        k /= 26;
    }
    name
}

/// One round of candidates for an input: which identifiers to rename, in order, and to what.
/// Candidates are rendered one at a time, when tested, so a round costs O(n) plus O(n) per
/// candidate actually tried.
#[derive(Clone, Debug)]
pub struct Renaming {
    input: Vec<u8>,
    lexemes: Vec<Lexeme>,
    renamable: Vec<bool>,
    /// The shortest name the input does not use as an identifier.
    pub to: Vec<u8>,
    /// The identifiers to rename, most bytes saved first (then by name).
    pub order: Vec<Vec<u8>>,
}

impl Renaming {
    /// Every renamable identifier of `input` except those in `tried` whose renaming to the
    /// shortest free name would shorten the input.
    pub fn new(input: &[u8], tried: &BTreeSet<Vec<u8>>) -> Renaming {
        let lexemes = lex(input);
        let ok = renamable(input, &lexemes);
        let mut present: BTreeSet<&[u8]> = BTreeSet::new();
        let mut counts: BTreeMap<&[u8], usize> = BTreeMap::new();
        for (l, &ok) in lexemes.iter().zip(&ok) {
            if l.class == Class::Word {
                let word = &input[l.start..l.end];
                present.insert(word);
                if ok {
                    *counts.entry(word).or_default() += 1;
                }
            }
        }
        let to = (0..)
            .map(nth_name)
            .find(|n| !present.contains(n.as_slice()) && !is_reserved(n))
            .expect("names are unbounded");
        let mut scored: Vec<(usize, &[u8])> = counts
            .into_iter()
            .filter(|(name, _)| {
                name.len() > to.len() && !is_reserved(name) && !tried.contains(*name)
            })
            .map(|(name, count)| ((name.len() - to.len()) * count, name))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let order = scored.into_iter().map(|(_, name)| name.to_vec()).collect();
        Renaming {
            input: input.to_vec(),
            lexemes,
            renamable: ok,
            to,
            order,
        }
    }

    /// The input with every renamable occurrence of `from` renamed to [`Renaming::to`].
    pub fn render(&self, from: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.input.len());
        for (l, &ok) in self.lexemes.iter().zip(&self.renamable) {
            let word = &self.input[l.start..l.end];
            if ok && word == from {
                bytes.extend_from_slice(&self.to);
            } else {
                bytes.extend_from_slice(word);
            }
        }
        bytes
    }
}

/// Renames identifiers to the shortest free names, one test per identifier.
#[derive(Clone, Debug, Default)]
pub struct ShortenIdentifiers {
    /// Identifiers whose renaming failed; kept across the schedule's rounds so a fixpoint
    /// round does not pay for them again.
    failed: BTreeSet<Vec<u8>>,
}

impl Pass for ShortenIdentifiers {
    fn name(&self) -> String {
        "rename/identifiers".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        loop {
            let round = Renaming::new(cx.best(), &self.failed);
            if round.order.is_empty() {
                return Ok(());
            }
            let mut candidates = round
                .order
                .iter()
                .enumerate()
                .map(|(k, from)| (round.render(from), k));
            let winner = cx.try_candidates(&mut || candidates.next())?;
            // Learn only what came before the winner: the same for every --jobs.
            let tried = winner.unwrap_or(round.order.len());
            for from in &round.order[..tried] {
                self.failed.insert(from.clone());
            }
            match winner {
                Some(k) => {
                    cx.count(Counter::RenameAccepted, 1);
                    cx.note_rename(&round.order[k], &round.to);
                }
                None => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_are_sorted_for_the_binary_search() {
        assert!(RESERVED.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn names_go_in_shortlex_order() {
        let names: Vec<Vec<u8>> = [0, 1, 25, 26, 27, 701, 702].map(nth_name).to_vec();
        let want: [&[u8]; 7] = [b"a", b"b", b"z", b"aa", b"ab", b"zz", b"aaa"];
        assert_eq!(names, want);
    }

    #[test]
    fn strings_includes_and_keywords_are_left_alone() {
        let input = b"#include <cstdio>\nint hello() { puts(\"hello\"); return 0; }\n";
        let round = Renaming::new(input, &BTreeSet::new());
        assert_eq!(round.order, [b"hello".to_vec(), b"puts".to_vec()]);
        assert_eq!(
            round.render(b"hello"),
            b"#include <cstdio>\nint a() { puts(\"hello\"); return 0; }\n"
        );
    }

    #[test]
    fn the_fresh_name_avoids_names_in_use() {
        let round = Renaming::new(b"a b counter counter", &BTreeSet::new());
        assert_eq!(round.order, [b"counter".to_vec()]);
        assert_eq!(round.to, b"c");
        assert_eq!(round.render(b"counter"), b"a b c c");
    }

    proptest::proptest! {
        #[test]
        fn a_rename_changes_only_the_renamed_tokens(
            words in proptest::collection::vec(proptest::sample::select(vec!["ab", "b", "cde", "int", "\"", " ", "\n", "(", "x1"]), 0..40),
        ) {
            let input = words.concat().into_bytes();
            let round = Renaming::new(&input, &BTreeSet::new());
            use crate::units::{Granularity, Units};
            let before = Units::cut(&input, Granularity::Tokens);
            proptest::prop_assert!(!(0..before.len() as u32).any(|i| before.unit(i) == round.to.as_slice()));
            for from in &round.order {
                let after = Units::cut(&round.render(from), Granularity::Tokens);
                proptest::prop_assert_eq!(after.len(), before.len());
                for i in 0..before.len() as u32 {
                    let (b, a) = (before.unit(i), after.unit(i));
                    proptest::prop_assert!(a == b || (b == from.as_slice() && a == round.to.as_slice()));
                }
                proptest::prop_assert!(after.data().len() < input.len());
            }
        }
    }

    #[test]
    fn the_pass_renames_what_the_test_allows() {
        use crate::{FnOracle, eval::EvalOptions, passes::Cx};
        // Interesting while `keep_me` is there and the two uses of the other name agree.
        let oracle = FnOracle::new(|c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let words: Vec<&str> = s.split(' ').collect();
            words.len() == 3 && words[0] == words[2] && words[1] == "keep_me"
        });
        let mut cx = Cx::new(
            b"long_name keep_me long_name".to_vec(),
            &oracle,
            EvalOptions::default(),
        );
        let mut pass = ShortenIdentifiers::default();
        pass.run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"a keep_me a");
        assert_eq!(cx.report().eval.tests_run, 2);
        assert!(pass.failed.contains(b"keep_me".as_slice()));
    }
}
