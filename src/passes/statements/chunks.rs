//! Deleting large contiguous runs of top-level units, from halves down: the bulk of a large input goes first.
//!
//! Main type: [`TopChunks`], a pass that runs only on inputs of at least its `min_bytes`. It
//! cuts the best into *forms* (the units a reader sees at the top: declarations ending in `;`
//! or in a `{..}` block at the end of a line, `,`-separated items, lines, markup elements;
//! fixed blocks of bytes on binary input) and deletes runs of `k` consecutive forms, from the
//! end of the input toward its start, `k` starting at the number of forms and halving after a
//! sweep, down to single forms. A form that holds a large share of the input (a namespace
//! wrapping most of a preprocessed C++ file, the one object of a JSON document) is opened: its
//! largest group's contents become forms in its place, so the wrapper does not hide the bulk;
//! so are namespace and linkage blocks (`namespace a {..}`, `extern "C" {..}`) of any size;
//! before the runs, each form opened for its size is tried whole, the largest first. A
//! run may cross from one group's contents into the next: each stretch inside one group is
//! deleted, the brackets and heads between stay, so brackets stay balanced.
//!
//! [`TopChunks::bodies`] runs the same sweep over the insides of function bodies (a `{..}`
//! right after `)` or a `->` return type): a run of bodies is emptied at once (`) {..}`
//! becomes `) {}`), which is how a large C or C++ file loses most of its bytes while every
//! declaration stays (the function-body replacement of C-Reduce and C-Vise, by shape instead
//! of a compiler front end).
//!
//! This is the line-deletion pass of C-Reduce and C-Vise after flattening to one top-level form
//! per line (back to front, chunk halved when a sweep ends), over forms found from the
//! bracket structure instead of a reformatted file. Going back to front pays on code: later
//! declarations use earlier ones, so a run at the end can go before what it needed.
//!
//! The forms are cut once per run of the pass; after each deletion they are shifted, not cut
//! again, so the pass's own work is linear in the input per accepted candidate, and one render
//! per candidate. With several jobs, the candidates of one sweep are independent runs tested
//! in order, so the jobs test different chunks and the first success in sweep order wins, as
//! with one job.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, TopChunks}};
//! let input: Vec<u8> = (0..200).flat_map(|i| format!("int v{i} = {i};\n").into_bytes()).collect();
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(8).any(|w| w == b"v17 = 17"));
//! let mut cx = Cx::new(input, &oracle, EvalOptions::default());
//! let mut pass = TopChunks::new(0);
//! pass.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"int v17 = 17;\n");
//! ```
//!
//! Limits: forms are found by shape, not by a grammar: a declaration split over lines with no
//! `;` is glued to the next one, and a comma-separated item list inside `;` code is one form.
//! On an input below `min_bytes` the pass does nothing; the finer passes take over there.

use super::declarations::class_members;
use crate::cx::Cx;
use crate::kind::is_text;
use crate::lex::{Class, bracket_pairs};
use crate::passes::patch::without_ranges;
use crate::report::Stop;
use crate::schedule::Pass;
use crate::tree::{Form, forms, forms_and_wrappers, spans};
use std::collections::HashSet;

/// Deletes each form that holds a group opened for its size, whole, the largest first, again
/// after each success (what is large changes with the best): the runs of the sweep cut
/// inside such a form and never take it whole. On a 150 KB Rust file of two `static`
/// tables, one needed, the unneeded one goes in one test, where runs of its elements fail
/// for the length its type states.
fn delete_wrappers(cx: &mut Cx) -> Result<(), Stop> {
    loop {
        let best = cx.best_shared();
        let (_, mut wrappers) = forms_and_wrappers(&best, best.len() / OPEN_SHARE);
        wrappers.sort_by_key(|&(s, e)| (std::cmp::Reverse(e - s), s));
        let mut each = wrappers.into_iter();
        let mut next = || {
            each.next().map(|(s, e)| {
                // The whitespace after it goes too, as after a run of forms.
                let e = e as usize;
                let e = e + best[e..]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                let range = [(s as usize, e)];
                (without_ranges(&best, &range), ())
            })
        };
        if cx.try_candidates(&mut next)?.is_none() {
            return Ok(());
        }
    }
}

/// A form opens into its largest group's contents when it holds more than this fraction of
/// the input (1/16): a wrapper that large would make the first sweeps all-or-nothing.
pub(super) const OPEN_SHARE: usize = 16;

/// Deletes runs of top-level forms, halving the run length, on inputs of at least `min_bytes`.
#[derive(Clone, Debug)]
pub struct TopChunks {
    min_bytes: usize,
    units: ChunkUnits,
    /// Members the test needed (deleting one alone failed), by [`member_key`]: later runs
    /// leave them out of their classes' lists, so the runs around them can go at once.
    needed: HashSet<u128>,
}

/// What a [`TopChunks`] deletes runs of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChunkUnits {
    /// Top-level forms, and the forms inside namespace blocks and very large groups.
    Forms,
    /// The insides of function bodies (`) {..}` becomes `) {}`).
    Bodies,
    /// The members of classes, one class at a time, the largest first.
    Members,
}

impl TopChunks {
    /// The size from which the default schedule runs the pass first (notes/schedule.md,
    /// "Large inputs").
    pub const LARGE: usize = 64 * 1024;

    /// The pass, run on inputs of at least `min_bytes` bytes.
    pub fn new(min_bytes: usize) -> TopChunks {
        TopChunks {
            min_bytes,
            units: ChunkUnits::Forms,
            needed: HashSet::new(),
        }
    }

    /// The pass over function bodies: runs of bodies emptied, on inputs of at least
    /// `min_bytes` bytes.
    pub fn bodies(min_bytes: usize) -> TopChunks {
        TopChunks {
            min_bytes,
            units: ChunkUnits::Bodies,
            needed: HashSet::new(),
        }
    }

    /// The pass over class members: runs of the members of one class, struct or union
    /// definition deleted, the largest class first, on inputs of at least `min_bytes` bytes.
    pub fn members(min_bytes: usize) -> TopChunks {
        TopChunks {
            min_bytes,
            units: ChunkUnits::Members,
            needed: HashSet::new(),
        }
    }
}

/// The bodies of functions in `input`, each as the inside of its braces (a form of a sequence
/// of its own, so runs of bodies delete each inside and keep everything between): a `{..}`
/// group right after a `)` (qualifier words such as `const` or `noexcept` between), or after a
/// `->` return type, that is not inside another body. Bodies whose declaration holds
/// `constexpr`, `consteval` or `auto` are left out: their result is computed from the body (a
/// constant, a deduced type), so emptying them fails wherever they are used. Namespace heads
/// (`namespace a __attribute__((..)) {`) and initializers after `=` are not bodies.
fn bodies(input: &[u8]) -> Vec<Form> {
    let pairs = bracket_pairs(input);
    let mut out = Vec::new();
    let mut next_pair = 0usize;
    // Skipping a group up to where its closing bracket starts.
    let mut skip_to: Option<usize> = None;
    let mut reading = Reading::default();
    let mut last_punct: Option<u8> = None;
    for l in crate::lex::lexemes(input) {
        if matches!(l.class, Class::Space | Class::Comment) {
            continue;
        }
        if let Some(close) = skip_to {
            if l.start < close {
                continue;
            }
            skip_to = None;
            // The group's closing bracket.
            if input[l.start] == b'}' {
                reading = Reading::default();
            } else {
                reading.after_paren = input[l.start] == b')';
            }
            last_punct = Some(input[l.start]);
            continue;
        }
        let pair = (next_pair < pairs.len() && pairs[next_pair].0 as usize == l.start)
            .then(|| pairs[next_pair].1 as usize);
        if let Some(close) = pair {
            next_pair += 1;
            let brace = input[l.start] == b'{';
            // A lambda assigned: `= [..](..) {..}`.
            reading.excluded |= input[l.start] == b'[' && last_punct == Some(b'=');
            let body = brace && reading.body_follows();
            let inside = (l.end, close);
            if body
                && reading.emptied()
                && input[inside.0..inside.1]
                    .iter()
                    .any(|&b| !crate::lex::is_space(b))
            {
                out.push(Form {
                    start: inside.0 as u32,
                    end: inside.1 as u32,
                    seq: out.len() as u32,
                });
            }
            if brace && !body {
                // A class, namespace or initializer: its contents are read as a level of
                // their own (bodies of member functions are inside).
                reading = Reading::default();
                last_punct = Some(b'{');
                continue;
            }
            // A body (kept or not) or a `(..)` / `[..]` group: skipped whole.
            next_pair += pairs[next_pair..].partition_point(|p| (p.0 as usize) < close);
            skip_to = Some(close);
            continue;
        }
        reading.lexeme(l.class, &input[l.start..l.end], last_punct);
        last_punct = match l.class {
            Class::Punct(b) => Some(b),
            _ => None,
        };
    }
    out
}

/// What the declaration read so far at one level of [`bodies`] holds.
#[derive(Default)]
struct Reading {
    /// Right after a `)` (qualifier words and `&` between).
    after_paren: bool,
    /// After a `->` return type.
    arrow: bool,
    /// After `constexpr` or `consteval`, or an assigned lambda's `[`.
    excluded: bool,
    /// After `auto`.
    deduced: bool,
    /// After `namespace`.
    namespace: bool,
}

impl Reading {
    /// Qualifier words that may stand between a `)` and a body.
    const QUALIFIERS: &[&[u8]] = &[
        b"const",
        b"volatile",
        b"noexcept",
        b"override",
        b"final",
        b"mutable",
        b"throw",
    ];

    /// Words after which a body is not emptied (`auto` only without a `->` return type).
    const COMPUTED: &[&[u8]] = &[b"constexpr", b"consteval", b"auto"];

    /// Whether a `{` here opens a function body.
    fn body_follows(&self) -> bool {
        (self.after_paren || self.arrow) && !self.namespace
    }

    /// Whether the body that opens here may be emptied.
    fn emptied(&self) -> bool {
        !self.excluded && (self.arrow || !self.deduced)
    }

    /// Reads one lexeme that opens no group, `word` its text; `last_punct` the punctuation
    /// right before it, if any.
    fn lexeme(&mut self, class: Class, word: &[u8], last_punct: Option<u8>) {
        match class {
            Class::Punct(b';') | Class::Punct(b'}') | Class::Punct(b'{') => {
                *self = Reading::default();
            }
            Class::Punct(b'>') if last_punct == Some(b'-') => self.arrow = true,
            Class::Punct(b'&') if self.after_paren => {}
            Class::Word if self.after_paren && Self::QUALIFIERS.contains(&word) => {}
            Class::Word if word == b"namespace" || Self::COMPUTED.contains(&word) => {
                match word {
                    b"auto" => self.deduced = true,
                    b"namespace" => self.namespace = true,
                    _ => self.excluded = true,
                }
                self.after_paren = false;
            }
            _ => self.after_paren = false,
        }
    }
}

/// The start of the chunk of at most `k` forms that ends at `end` (exclusive). Costs O(1).
fn chunk_start(end: usize, k: usize) -> usize {
    end.saturating_sub(k)
}

impl TopChunks {
    /// Sweeps the members of each class, the largest class first: runs of its members back to
    /// front, halving the run from all of them down to one. A run never leaves its class.
    fn sweep_members(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let needed = &self.needed;
        let classes = class_members(cx.best(), &|head, text| {
            !needed.is_empty() && needed.contains(&member_key(head, text))
        });
        // All members in input order; each class is the range `ranges[g]` of them.
        let mut ranges: Vec<(usize, usize)> = Vec::with_capacity(classes.len());
        let mut heads: Vec<u128> = Vec::with_capacity(classes.len());
        let mut forms: Vec<Form> = Vec::new();
        for class in classes {
            ranges.push((forms.len(), forms.len() + class.members.len()));
            heads.push(class.head);
            forms.extend_from_slice(&class.members);
        }
        let bytes = |r: (usize, usize)| forms[r.1 - 1].end - forms[r.0].start;
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&g| (std::cmp::Reverse(bytes(ranges[g])), std::cmp::Reverse(g)));
        for (done, &g) in order.iter().enumerate() {
            cx.progress(done as u64, order.len() as u64);
            let whole = ranges[g].1 - ranges[g].0;
            let mut k = whole;
            while k >= 1 {
                if cx.best().len() < self.min_bytes {
                    return Ok(());
                }
                let (lo, mut end) = ranges[g];
                while end > lo {
                    let best = cx.best_shared();
                    let mut at = end;
                    let forms_now = &forms;
                    let first = k == whole;
                    let hi = ranges[g].1;
                    // The single members proposed, in order: those before the accepted one
                    // failed.
                    let mut singles: Vec<usize> = Vec::new();
                    let mut next = || {
                        loop {
                            if at == lo {
                                return None;
                            }
                            let (a, b) = (at.saturating_sub(k).max(lo), at);
                            at = a;
                            if !first && a == lo && b == hi {
                                continue;
                            }
                            if b - a == 1 {
                                singles.push(a);
                            }
                            let cut = spans(&best, forms_now, a, b);
                            let bytes = without_ranges(&best, &cut);
                            return Some((bytes, (a, b, cut)));
                        }
                    };
                    let accepted = cx.try_candidates(&mut next)?;
                    let failed = match accepted {
                        Some(_) => singles.len().saturating_sub(1),
                        None => singles.len(),
                    };
                    for &i in &singles[..failed] {
                        let text = &best[forms[i].start as usize..forms[i].end as usize];
                        self.needed.insert(member_key(heads[g], text));
                    }
                    match accepted {
                        Some((a, b, cut)) => {
                            let removed: usize = cut.iter().map(|(s, e)| e - s).sum();
                            forms.drain(a..b);
                            for f in &mut forms[a..] {
                                f.start -= removed as u32;
                                f.end -= removed as u32;
                            }
                            let s = cut[0].0;
                            if a > lo && forms[a - 1].end as usize > s {
                                forms[a - 1].end = s as u32;
                            }
                            for r in &mut ranges {
                                if r.0 >= b {
                                    *r = (r.0 - (b - a), r.1 - (b - a));
                                }
                            }
                            ranges[g].1 -= b - a;
                            end = a;
                        }
                        None => end = lo,
                    }
                }
                let left = ranges[g].1 - ranges[g].0;
                if k == 1 || left == 0 {
                    break;
                }
                k = k.div_ceil(2).min(left);
            }
        }
        Ok(())
    }
}

/// A member's key in [`TopChunks`]'s memory of needed members: its class's head key and its
/// text (the same declaration in another class is another member).
fn member_key(head: u128, text: &[u8]) -> u128 {
    let mut bytes = head.to_le_bytes().to_vec();
    bytes.extend_from_slice(text);
    crate::eval::content_key(&bytes)
}

impl Pass for TopChunks {
    fn name(&self) -> String {
        match self.units {
            ChunkUnits::Forms => "chunks/forms",
            ChunkUnits::Bodies => "chunks/bodies",
            ChunkUnits::Members => "chunks/members",
        }
        .to_string()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        // Offsets are u32, as in the inferred tree.
        if cx.best().len() < self.min_bytes || cx.best().len() >= u32::MAX as usize {
            return Ok(());
        }
        let mut forms = match self.units {
            ChunkUnits::Forms => {
                delete_wrappers(cx)?;
                forms(cx.best(), cx.best().len() / OPEN_SHARE)
            }
            ChunkUnits::Bodies => {
                if !is_text(cx.best()) {
                    return Ok(());
                }
                bodies(cx.best())
            }
            ChunkUnits::Members => {
                if !is_text(cx.best()) {
                    return Ok(());
                }
                return self.sweep_members(cx);
            }
        };
        let n = forms.len();
        if n == 0 || (n < 2 && self.units == ChunkUnits::Forms) {
            return Ok(());
        }
        let mut k = n;
        while k >= 1 {
            if cx.best().len() < self.min_bytes {
                return Ok(());
            }
            // One sweep at run length k, back to front. The whole list is tried at the
            // first length only.
            let mut end = forms.len();
            while end > 0 {
                cx.progress((forms.len() - end) as u64, forms.len() as u64);
                let best = cx.best_shared();
                let mut at = end;
                let forms_now = &forms;
                let first = k == n;
                let mut next = || {
                    loop {
                        if at == 0 {
                            return None;
                        }
                        let (a, b) = (chunk_start(at, k), at);
                        at = a;
                        if !first && a == 0 && b == forms_now.len() {
                            continue;
                        }
                        let cut = spans(&best, forms_now, a, b);
                        let bytes = without_ranges(&best, &cut);
                        return Some((bytes, (a, b, cut)));
                    }
                };
                match cx.try_candidates(&mut next)? {
                    Some((a, b, cut)) => {
                        let removed: usize = cut.iter().map(|(s, e)| e - s).sum();
                        forms.drain(a..b);
                        for f in &mut forms[a..] {
                            f.start -= removed as u32;
                            f.end -= removed as u32;
                        }
                        // The comma before a run that ended its sequence went with it.
                        let s = cut[0].0;
                        if a > 0 && forms[a - 1].end as usize > s {
                            forms[a - 1].end = s as u32;
                        }
                        end = a;
                    }
                    None => end = 0,
                }
            }
            if k == 1 || forms.is_empty() {
                break;
            }
            k = k.div_ceil(2);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;

    fn texts(input: &[u8]) -> Vec<String> {
        texts_opening(input, input.len() / OPEN_SHARE)
    }

    /// The forms' texts, groups of more than `open` bytes opened.
    fn texts_opening(input: &[u8], open: usize) -> Vec<String> {
        forms(input, open)
            .iter()
            .map(|f| String::from_utf8_lossy(&input[f.start as usize..f.end as usize]).into_owned())
            .collect()
    }

    #[test]
    fn a_wrapper_holding_most_of_the_input_is_opened() {
        let body: String = (0..40).map(|i| format!("  int v{i};\n")).collect();
        let input = format!("int a;\nnamespace std {{\n{body}}}\nint b;\n");
        let got = texts(input.as_bytes());
        assert_eq!(got.len(), 42);
        assert_eq!(got[0], "int a;");
        assert_eq!(got[1], "int v0;");
        assert_eq!(got[41], "int b;");
        // A run may cross from the wrapper's contents to the forms after it: the wrapper's
        // brackets stay.
        let f = forms(input.as_bytes(), input.len() / OPEN_SHARE);
        let cut = spans(input.as_bytes(), &f, 40, 42);
        let kept = String::from_utf8(without_ranges(input.as_bytes(), &cut)).unwrap();
        assert!(kept.ends_with("  int v38;\n}\n\n"), "{kept}");
    }

    fn body_texts(input: &str) -> Vec<String> {
        bodies(input.as_bytes())
            .iter()
            .map(|f| input[f.start as usize..f.end as usize].trim().to_string())
            .collect()
    }

    #[test]
    fn function_bodies_are_found_by_shape() {
        let input = r#"
namespace std __attribute__ ((__visibility__ ("default"))) {
template<typename T> struct V : B<(1)> {
  V() : n(0) { init(); }
  int size() const noexcept { return n; }
  bool operator==(const V& o) const { if (n) { return true; } return o.n == n; }
  V& operator=(const V&) & { copy(); return *this; }
  constexpr int cap() const { return 8; }
  auto deduced() { return n; }
  auto trailing() -> int { return n; }
  int n = 0;
  int empty() { }
};
auto lambda = [](int x) { return x; };
int table[] = { 1, 2 };
}
int main(int argc, char **argv)
{
  return argc;
}
"#;
        assert_eq!(
            body_texts(input),
            [
                "init();",
                "return n;",
                "if (n) { return true; } return o.n == n;",
                "copy(); return *this;",
                "return n;",
                "return argc;",
            ]
        );
    }

    #[test]
    fn bodies_are_emptied_in_runs_down_to_the_one_that_matters() {
        let input: String = (0..256)
            .map(|i| format!("int f{i}(int a) {{\n  return a + {i};\n}}\n"))
            .collect();
        let oracle = FnOracle::new(|b: &[u8]| b.windows(10).any(|w| w == b"a + 200;\n}"));
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        TopChunks::bodies(0).run(&mut cx).unwrap();
        let expect: String = (0..256)
            .map(|i| match i {
                200 => "int f200(int a) {\n  return a + 200;\n}\n".to_string(),
                _ => format!("int f{i}(int a) {{}}\n"),
            })
            .collect();
        assert_eq!(String::from_utf8_lossy(cx.best()), expect);
        // One needed body among 256: about two tests per halving.
        assert!(
            cx.report().eval.tests_run <= 2 * 9 + 1,
            "{}",
            cx.report().eval.tests_run
        );
    }

    #[test]
    fn class_members_are_forms_with_their_heads_and_initializers() {
        let input = "namespace n {\ntemplate<typename T>\nclass V : public B<T> {\n  typedef T value_type;\npublic:\n  V() : b(0), e(0)\n  { }\n  template<typename U>\n    void assign(U u) {}\n  struct Impl {\n    int x;\n  };\n  [[nodiscard]] int size() const;\nprivate:\n  int b, e;\n};\n}\nstruct P { int x; };\nint main() {}\n";
        let groups: Vec<Vec<&str>> = class_members(input.as_bytes(), &|_, _| false)
            .iter()
            .map(|g| {
                g.members
                    .iter()
                    .map(|f| &input[f.start as usize..f.end as usize])
                    .collect()
            })
            .collect();
        assert_eq!(
            groups,
            [
                vec![
                    "typedef T value_type;",
                    "V() : b(0), e(0)\n  { }",
                    "template<typename U>\n    void assign(U u) {}",
                    "struct Impl {\n    int x;\n  };",
                    "[[nodiscard]] int size() const;",
                    "int b, e;"
                ],
                vec!["int x;"]
            ]
        );
    }

    #[test]
    fn members_go_in_runs_and_labels_stay() {
        // 64 members, two needed: one at the start of the public part, one at the end.
        let mut input = String::from("struct Big {\n");
        for i in 0..32 {
            input.push_str(&format!("  int m{i}(int a) {{}}\n"));
        }
        input.push_str("public:\n");
        for i in 32..64 {
            input.push_str(&format!("  typedef int t{i};\n"));
        }
        input.push_str("};\nstruct Small {\n  int a;\n  int b;\n};\n");
        let oracle = FnOracle::new(|b: &[u8]| {
            let text = String::from_utf8_lossy(b);
            let public = text.find("public:");
            text.contains("m3(int a)")
                && text
                    .find("t63;")
                    .is_some_and(|at| public.is_some_and(|p| p < at))
        });
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        TopChunks::members(0).run(&mut cx).unwrap();
        assert_eq!(
            String::from_utf8_lossy(cx.best()),
            "struct Big {\n  int m3(int a) {}\npublic:\n  typedef int t63;\n};\nstruct Small {\n  \n};\n"
        );
        // Halving finds two needed members among 64 in a few tests per halving.
        let tests = cx.report().eval.tests_run;
        assert!(tests <= 40, "{tests}");
    }

    #[test]
    fn members_the_test_needed_are_not_tried_again() {
        let input = "struct S {\n  int a;\n  int b;\n  int c;\n};\n";
        let needs = |b: &[u8]| {
            let text = String::from_utf8_lossy(b);
            text.contains("int a;") && text.contains("int c;")
        };
        let oracle = FnOracle::new(needs);
        let mut pass = TopChunks::members(0);
        let mut cx = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
        pass.run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"struct S {\n  int a;\n  int c;\n};\n");
        // The same class after a change elsewhere: both members are known needed.
        let changed = format!("{}int x;\n", String::from_utf8_lossy(cx.best()));
        let mut cx = Cx::new(
            changed.clone().into_bytes(),
            &oracle,
            EvalOptions::default(),
        );
        pass.run(&mut cx).unwrap();
        assert_eq!(cx.best(), changed.as_bytes());
        assert_eq!(cx.report().eval.tests_run, 0);
        // A fresh pass tries them again.
        let mut cx = Cx::new(changed.into_bytes(), &oracle, EvalOptions::default());
        TopChunks::members(0).run(&mut cx).unwrap();
        assert!(cx.report().eval.tests_run >= 2);
    }

    #[test]
    fn a_large_table_nothing_needs_goes_whole_though_its_elements_cannot() {
        // Two tables whose types state their lengths: no run of elements can go, one table
        // is needed, the other goes whole in the first test.
        let table = |name: &str| {
            let items: Vec<String> = (0..300).map(|i| format!("({i}.5, -{i}.25)")).collect();
            format!(
                "pub static {name}: [(f64, f64); 300] = [\n{}\n];\n",
                items.join(",\n")
            )
        };
        let input = format!("{}{}", table("HIGH"), table("LOW"));
        let oracle = FnOracle::new(|b: &[u8]| {
            let t = String::from_utf8_lossy(b);
            t.contains("static LOW")
                && t.split("static")
                    .skip(1)
                    .all(|d| d.matches('(').count() == 301)
        });
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        delete_wrappers(&mut cx).unwrap();
        assert_eq!(String::from_utf8_lossy(cx.best()), table("LOW"));
        assert_eq!(cx.report().eval.tests_run, 2);
    }

    #[test]
    fn a_json_document_opens_down_to_its_records() {
        let records: Vec<String> = (0..50).map(|i| format!("{{\"id\": {i}}}")).collect();
        let input = format!("{{\"items\": [{}]}}", records.join(", "));
        let got = texts(input.as_bytes());
        assert_eq!(got.len(), 50);
        assert_eq!(got[0], "{\"id\": 0},");
        assert_eq!(got[49], "{\"id\": 49}");
    }

    #[test]
    fn deleting_the_last_items_takes_the_comma_before_them() {
        let records: Vec<String> = (0..64).map(|i| format!("{{\"id\": {i}}}")).collect();
        let input = format!("[{}]", records.join(", "));
        let valid = |b: &[u8]| !b.windows(2).any(|w| w == b",]") && !b.starts_with(b"[,");
        let oracle = FnOracle::new(|b: &[u8]| valid(b) && b.windows(8).any(|w| w == b"\"id\": 5}"));
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        TopChunks::new(0).run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"[{\"id\": 5}]");
    }

    #[test]
    fn the_first_sweeps_remove_the_bulk_in_a_few_tests() {
        // 1,024 lines, one needed near the start: the first deletions take halves and quarters.
        let input: Vec<u8> = (0..1024)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let oracle = FnOracle::new(|b: &[u8]| b.windows(8).any(|w| w == b"line 10\n"));
        let mut cx = Cx::new(input, &oracle, EvalOptions::default());
        TopChunks::new(0).run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"line 10\n");
        let trace = cx.report().trace;
        // Half the input is gone at the second test.
        assert!(trace[1].0 <= 2 && trace[1].1 < 5_000, "{trace:?}");
    }

    #[test]
    fn the_whole_list_is_tried_at_the_first_length_only() {
        // 61 forms, nothing can go: `b {..}`, opened for its size, whole costs 1 test, then
        // lengths 61, 31, 16, 8, 4, 2, 1 cost 1, 2, 4, 8, 16, 31 and 61 tests, less the chunks
        // the cache answers (the first form is left over alone at lengths 4, 2 and 1, and
        // tested once).
        let body: String = (0..60).map(|i| format!("int v{i};\n")).collect();
        let input = format!("a {{\nx;\ny;\n}}\nb {{\n{body}}}\n");
        let oracle = FnOracle::new(|b: &[u8]| b.len() == input.len());
        let mut cx = Cx::new(input.clone().into_bytes(), &oracle, EvalOptions::default());
        TopChunks::new(0).run(&mut cx).unwrap();
        assert_eq!(forms(input.as_bytes(), input.len() / OPEN_SHARE).len(), 61);
        assert_eq!(
            cx.report().eval.tests_run,
            1 + 1 + 2 + 4 + 8 + 16 + 31 + 61 - 2
        );
    }

    #[test]
    fn small_inputs_are_left_to_the_finer_passes() {
        let oracle = FnOracle::new(|_: &[u8]| true);
        let mut cx = Cx::new(b"a\nb\n".to_vec(), &oracle, EvalOptions::default());
        TopChunks::new(1000).run(&mut cx).unwrap();
        assert_eq!(cx.best(), b"a\nb\n");
        assert_eq!(cx.report().eval.tests_run, 0);
    }

    proptest::proptest! {
        #[test]
        fn forms_are_disjoint_and_in_order(input in proptest::collection::vec(
            proptest::sample::select(b"ab ;,{}()#\n\"/".to_vec()), 0..300)) {
            let f = forms(&input, input.len() / OPEN_SHARE);
            for w in f.windows(2) {
                proptest::prop_assert!(w[0].end <= w[1].start);
            }
            for x in &f {
                proptest::prop_assert!(x.start < x.end && x.end as usize <= input.len());
            }
        }
    }
}
