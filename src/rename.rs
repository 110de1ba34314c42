//! The renaming pass: shorter names for identifiers, one identifier per candidate.
//!
//! Main items: [`ShortenIdentifiers`] (a [`Pass`]) and [`renamings`] (one round's candidates,
//! in order). Deletion never shortens a name that is still needed, and in code the names are
//! often most of the bytes left (`capitalise_first` used three times is 48 bytes), so this pass
//! proposes, for each identifier, the input with every occurrence renamed to the shortest name
//! the input does not use. Identifiers are tried by the bytes they would save, most first; an
//! identifier whose renaming fails is not tried again by the same pass.
//!
//! ```
//! use myhill::rename::renamings;
//! let r = renamings(b"int value = value + other;", &Default::default());
//! assert_eq!(r[0].from, b"value");
//! assert_eq!(r[0].to, b"a");
//! assert_eq!(r[0].bytes, b"int a = a + other;");
//! ```
//!
//! Limits: identifiers are the token units' (`[A-Za-z_][A-Za-z0-9_]*`); occurrences inside
//! double-quoted strings are left alone, and so are identifiers on `#include` lines and the
//! keywords of C and C++ (renaming them is a wasted test in every C-family input). A rename
//! that is correct only together with another (two overloads, say) is not found.

use crate::driver::{Driver, Pass};
use crate::eval::Stop;
use crate::units::{Granularity, Units};
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

fn is_reserved(name: &[u8]) -> bool {
    RESERVED
        .binary_search_by(|r| r.as_bytes().cmp(name))
        .is_ok()
}

fn is_identifier(unit: &[u8]) -> bool {
    unit.first()
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
}

/// One candidate: `from` renamed to `to` everywhere it is renamable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renaming {
    pub from: Vec<u8>,
    pub to: Vec<u8>,
    /// The whole input with the rename applied.
    pub bytes: Vec<u8>,
}

/// Which token units may be renamed: identifiers outside double-quoted strings and not on a
/// `#include` line.
fn renamable(units: &Units) -> Vec<bool> {
    let mut out = Vec::with_capacity(units.len());
    let (mut in_string, mut escaped) = (false, false);
    // Per line: nothing but blanks so far; a `#` came first; it is an `#include` line.
    let (mut line_start, mut after_hash, mut include_line) = (true, false, false);
    for i in 0..units.len() as u32 {
        let unit = units.unit(i);
        out.push(!in_string && !include_line && is_identifier(unit));
        let blank = unit.iter().all(u8::is_ascii_whitespace);
        if after_hash && unit == b"include" {
            include_line = true;
        }
        after_hash = (line_start && unit == b"#") || (after_hash && blank);
        line_start &= blank;
        for &b in unit {
            match b {
                b'\n' => {
                    (in_string, escaped) = (false, false);
                    (line_start, after_hash, include_line) = (true, false, false);
                }
                b'\\' if in_string => escaped = !escaped,
                b'"' if !escaped => in_string = !in_string,
                _ => escaped = false,
            }
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

/// This round's candidates for `input`: every renamable identifier except those in `tried`,
/// most bytes saved first (then by name), each renamed to the shortest name `input` does
/// not contain as an identifier. Only renames that shorten the input are proposed.
pub fn renamings(input: &[u8], tried: &BTreeSet<Vec<u8>>) -> Vec<Renaming> {
    let units = Units::cut(input, Granularity::Tokens);
    let ok = renamable(&units);
    let mut present: BTreeSet<&[u8]> = BTreeSet::new();
    let mut counts: BTreeMap<&[u8], usize> = BTreeMap::new();
    for i in 0..units.len() as u32 {
        let unit = units.unit(i);
        if is_identifier(unit) {
            present.insert(unit);
            if ok[i as usize] {
                *counts.entry(unit).or_default() += 1;
            }
        }
    }
    let fresh = (0..)
        .map(nth_name)
        .find(|n| !present.contains(n.as_slice()) && !is_reserved(n))
        .expect("names are unbounded");
    let mut order: Vec<(usize, &[u8])> = counts
        .into_iter()
        .filter(|(name, _)| {
            name.len() > fresh.len() && !is_reserved(name) && !tried.contains(*name)
        })
        .map(|(name, count)| ((name.len() - fresh.len()) * count, name))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    order
        .into_iter()
        .map(|(_, from)| {
            let mut bytes = Vec::with_capacity(input.len());
            for i in 0..units.len() as u32 {
                let unit = units.unit(i);
                if ok[i as usize] && unit == from {
                    bytes.extend_from_slice(&fresh);
                } else {
                    bytes.extend_from_slice(unit);
                }
            }
            Renaming {
                from: from.to_vec(),
                to: fresh.clone(),
                bytes,
            }
        })
        .collect()
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

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        loop {
            let round = renamings(driver.best(), &self.failed);
            if round.is_empty() {
                return Ok(());
            }
            let mut candidates = round.iter().enumerate().map(|(k, r)| (r.bytes.clone(), k));
            let winner = driver.try_candidates(&mut || candidates.next())?;
            // Learn only what came before the winner: the same for every --jobs.
            let tried = winner.unwrap_or(round.len());
            for r in &round[..tried] {
                self.failed.insert(r.from.clone());
            }
            match winner {
                Some(_) => driver.count("rename.accepted", 1.0),
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
        let r = renamings(input, &BTreeSet::new());
        let from: Vec<&[u8]> = r.iter().map(|r| r.from.as_slice()).collect();
        assert_eq!(from, [b"hello".as_slice(), b"puts".as_slice()]);
        assert_eq!(
            r[0].bytes,
            b"#include <cstdio>\nint a() { puts(\"hello\"); return 0; }\n"
        );
    }

    #[test]
    fn the_fresh_name_avoids_names_in_use() {
        let r = renamings(b"a b counter counter", &BTreeSet::new());
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].to, b"c");
        assert_eq!(r[0].bytes, b"a b c c");
    }

    #[test]
    fn the_pass_renames_what_the_test_allows() {
        use crate::{Driver, EvalOptions, FnOracle};
        // Interesting while `keep_me` is there and the two uses of the other name agree.
        let oracle = FnOracle::new(|c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let words: Vec<&str> = s.split(' ').collect();
            words.len() == 3 && words[0] == words[2] && words[1] == "keep_me"
        });
        let mut driver = Driver::new(
            b"long_name keep_me long_name".to_vec(),
            &oracle,
            EvalOptions::default(),
        );
        let mut pass = ShortenIdentifiers::default();
        pass.run(&mut driver).unwrap();
        assert_eq!(driver.best(), b"a keep_me a");
        assert_eq!(driver.report().eval.tests_run, 2);
        assert!(pass.failed.contains(b"keep_me".as_slice()));
    }
}
