//! Literals: shorten string literals from inside, a few characters' worth at a time, and give
//! an empty value the shortest one.
//!
//! Main type: [`ShortenLiterals`], a [`crate::passes::Pass`]. A test that needs a string to exist
//! rarely needs all of it. For every double-quoted literal with two or more characters inside,
//! the candidates keep its first character, its first half, and its second half, in one sweep
//! (`patch.rs`), the one that removes the most first (emptying it is [`crate::passes::Hollow`]'s).
//! Escapes are kept whole: a cut never splits `\n` or `\"`. An empty value, a `""` literal
//! or an empty `{}` or `[]` after a `:` or `=`, becomes `0` (`{"status":""}` to
//! `{"status":0}`, `class C:{}` to `class C:0`): a test that needs a value there rarely needs
//! its type, and every language this reads has `0`. Not in statement code, whose types make
//! `0` fail where a string or a brace list was declared (on hello-cpp, 2,619 bytes after
//! 1,000 tests instead of 2,303).
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, ShortenLiterals}};
//! let oracle = FnOracle::new(|b: &[u8]| b.starts_with(b"puts(\"E"));
//! let mut cx = Cx::new(b"puts(\"Error: file not found\");".to_vec(), &oracle, EvalOptions::default());
//! ShortenLiterals.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"puts(\"E\");");
//! ```
//!
//! Cost: at most 3 tests per literal per run; the fixpoint shortens further.

use crate::cx::Cx;
use crate::kind::Kind;
use crate::lex::{Class, Lexeme, lex};
use crate::passes::patch::{Cut, Patch, SweepPass};

/// Shortens string literals; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct ShortenLiterals;

/// The character boundaries inside a literal's quotes, escapes kept whole.
fn boundaries(inside: &[u8], offset: usize) -> Vec<usize> {
    let mut out = vec![offset];
    let mut i = 0;
    while i < inside.len() {
        i += if inside[i] == b'\\' { 2 } else { 1 };
        // Continuation bytes of a UTF-8 character belong to it.
        while i < inside.len() && inside[i] & 0xc0 == 0x80 {
            i += 1;
        }
        out.push(offset + i.min(inside.len()));
    }
    out
}

fn candidates(input: &[u8], kind: Kind) -> Vec<Patch> {
    let lexemes = lex(input);
    let mut out = Vec::new();
    for l in &lexemes {
        if l.class != Class::Literal || input[l.start] != b'"' {
            continue;
        }
        let b = boundaries(&input[l.start + 1..l.end - 1], l.start + 1);
        let chars = b.len() - 1;
        if chars < 2 {
            continue;
        }
        let (first, half, last) = (b[1], b[chars / 2], b[chars]);
        out.push(Patch::delete(first, last));
        out.push(Patch::delete(half, last));
        out.push(Patch::delete(b[0], half));
    }
    if !kind.is_statement_code() {
        out.extend(empty_values(input, &lexemes));
    }
    out.retain(|p| p.removed() > 0);
    out.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    out.dedup();
    out
}

/// Each empty value replaced by `0`: a `""` literal, or an empty `{}` or `[]` right
/// after a `:` or `=` (spaces between allowed). A `{}` elsewhere is mostly a body, which `0`
/// never replaces.
fn empty_values(input: &[u8], lexemes: &[Lexeme]) -> Vec<Patch> {
    let solid: Vec<&Lexeme> = (lexemes.iter())
        .filter(|l| !matches!(l.class, Class::Space | Class::Comment))
        .collect();
    let zero = |start: usize, end: usize| {
        Patch::of(vec![Cut {
            start,
            end,
            with: b"0".to_vec(),
            adjust: None,
        }])
    };
    let mut out = Vec::new();
    for (i, l) in solid.iter().enumerate() {
        let text = &input[l.start..l.end];
        if l.class == Class::Literal && text == b"\"\"" {
            out.extend(zero(l.start, l.end));
            continue;
        }
        let after_value_sign =
            i > 0 && matches!(&input[solid[i - 1].start..solid[i - 1].end], b":" | b"=");
        let closes = |open: &[u8], close: &[u8]| {
            text == open
                && solid
                    .get(i + 1)
                    .is_some_and(|n| &input[n.start..n.end] == close)
        };
        if after_value_sign && (closes(b"{", b"}") || closes(b"[", b"]")) {
            out.extend(zero(l.start, solid[i + 1].end));
        }
    }
    out
}

impl SweepPass for ShortenLiterals {
    const NAME: &'static str = "literals";

    fn patches(cx: &Cx) -> Vec<Patch> {
        candidates(cx.best(), cx.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_empty_value_becomes_zero_but_not_a_body() {
        let results = |input: &str| -> Vec<String> {
            candidates(input.as_bytes(), Kind::Text)
                .iter()
                .map(|p| String::from_utf8(p.apply(input.as_bytes()).unwrap()).unwrap())
                .collect()
        };
        assert!(results(r#"{"status":""}"#).contains(&r#"{"status":0}"#.to_string()));
        assert_eq!(results("class C:{}"), ["class C:0"]);
        assert_eq!(results("x = [ ]"), ["x = 0"]);
        assert!(results("int f(){}").is_empty());
        // Not in statement code: `char *s = "";` and `T x = {};` need their types.
        let in_c = candidates(br#"char*s="";int a[]={};"#, Kind::C);
        assert!(in_c.iter().all(|p| p.cuts()[0].with.is_empty()));
        assert_eq!(results("def f():\"\""), ["def f():0"]);
    }

    proptest! {
        #[test]
        fn cuts_stay_inside_quotes_and_keep_escapes_whole(
            inside in proptest::collection::vec(prop_oneof![Just("a"), Just("\\n"), Just("\\\""), Just("é"), Just(" ")], 0..12),
        ) {
            let input = format!("x(\"{}\");", inside.concat()).into_bytes();
            // The shortenings (an empty literal's `0` replaces the quotes too).
            for p in candidates(&input, Kind::Text).iter().filter(|p| p.cuts()[0].with.is_empty()) {
                let c = &p.cuts()[0];
                prop_assert!(c.start > 2 && c.end < input.len() - 2);
                let mut out = input.clone();
                out.drain(c.start..c.end);
                // Still one whole literal, still UTF-8.
                let lexemes = lex(&out);
                prop_assert!(lexemes.iter().any(|l| l.class == Class::Literal), "{:?}", String::from_utf8_lossy(&out));
                prop_assert!(std::str::from_utf8(&out).is_ok());
            }
        }
    }
}
