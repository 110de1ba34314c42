//! The forms of an input: the units a reader sees at its top, which the chunk passes delete
//! runs of and the declaration index reads.
//!
//! Main items: [`forms`], which cuts an input into [`Form`]s (declarations ending in `;` or in
//! a `{..}` block at the end of a line, `,`-separated items, lines, markup elements; fixed
//! blocks of bytes on binary input), opening the groups larger than a bound and namespace and
//! linkage blocks (`namespace a {..}`, `extern "C" {..}`) so their contents are forms in their
//! place; and [`spans`], the bytes deleted with a run of forms.
//!
//! The cut reads the one lexer and its bracket pairs ([`crate::lex::bracket_pairs`]), streamed:
//! the chunk passes run on inputs far above [`super::Nesting::MAX_BYTES`], which the nesting
//! reads as flat, so the forms keep 12 bytes per form and 8 per bracket pair, not the lexemes.
//!
//! ```text
//! #pragma once            one form: a directive is a line of its own
//! struct S { int x; };    one form: ends at `;`
//! int f() { return 1; }   one form: a block at the end of a line ends it
//! ```
//!
//! Limits: forms are found by shape, not by a grammar: a declaration split over lines with no
//! `;` is glued to the next one, and a comma-separated item list inside `;` code is one form.

use crate::kind::is_text;
use crate::lex::{Class, Lexeme, bracket_pairs, lexemes};

/// On binary input the forms are blocks of bytes: at most this many of them.
const MAX_BLOCKS: usize = 4096;

/// One deletable unit: `start..end` of the best, and which sequence it belongs to (a run of
/// deletion never mixes two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) seq: u32,
}

/// What an element of a sequence is, as far as cutting forms goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Semicolon,
    Comma,
    /// `#` at the start of a line: a preprocessor directive, a line of its own.
    Directive,
    /// A `{..}` group: a block that ends a declaration when a line ends after it.
    Block,
    Other,
}

/// One element of a sequence: a lexeme, or a whole bracket group.
#[derive(Clone, Copy, Debug)]
struct Element {
    start: usize,
    end: usize,
    kind: Kind,
}

/// How far the declaration being read is a block that only wraps declarations: after the
/// word `namespace` (up to its `{`), after `extern`, after `extern "C"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrapper {
    None,
    Namespace,
    Extern,
    ExternLiteral,
}

/// What the walk over an input reports, in input order.
enum Step {
    /// An element directly inside sequence `seq`.
    Element(u32, Element),
    /// A group that is opened starts at `at`; its contents are sequence `child`. When it
    /// ends, a [`Step::Close`] comes, then the whole group as an element of the sequence
    /// around it.
    /// A namespace or linkage block's contents are declarations: cut at `;` and blocks, never
    /// at a `,` (a block of function definitions alone has no `;` of its own).
    Open {
        child: u32,
        at: usize,
        declarations: bool,
    },
    /// The innermost open sequence ends (its group's closing bracket is next, or the input
    /// ends).
    Close,
}

/// Walks `input`, reporting the elements of the top level and of every group longer than
/// `open_above` bytes or wrapping declarations (a namespace or linkage block) whose
/// enclosing sequence is reported too; other groups are single elements. `pairs` holds every
/// bracket pair (opening start, closing start), sorted.
fn walk(input: &[u8], pairs: &[(u32, u32)], open_above: usize, step: &mut dyn FnMut(Step)) {
    let mut w = Walk {
        input,
        pairs,
        open_above,
        open: vec![(0, usize::MAX, 0)],
        wrapper: Wrapper::None,
        next_id: 1,
        next_pair: 0,
        whole: None,
    };
    for l in lexemes(input) {
        if l.class == Class::Space {
            continue;
        }
        if let Some((start, close)) = w.whole {
            if l.start >= close {
                w.whole = None;
                w.group_taken_whole(start, l.end, step);
            }
            continue;
        }
        let (_, close, start) = *w.open.last().expect("the top level stays open");
        if l.start == close {
            w.close(start, l.end, step);
        } else if w.next_pair < pairs.len() && pairs[w.next_pair].0 as usize == l.start {
            w.group(l.start, step);
        } else {
            w.lexeme(l, step);
        }
    }
    step(Step::Close);
}

/// The state of [`walk`].
struct Walk<'a> {
    input: &'a [u8],
    pairs: &'a [(u32, u32)],
    open_above: usize,
    /// The open sequences: (its id, where its closing bracket starts, where its group starts).
    open: Vec<(u32, usize, usize)>,
    /// Whether the declaration being read in the innermost open sequence is a namespace or
    /// linkage block so far (`namespace a {`, `extern "C" {`), and the state of `extern`.
    wrapper: Wrapper,
    next_id: u32,
    next_pair: usize,
    /// A group taken whole: where it started, and where its closing bracket starts.
    whole: Option<(usize, usize)>,
}

impl Walk<'_> {
    /// The innermost open sequence.
    fn seq(&self) -> u32 {
        self.open.last().expect("the top level stays open").0
    }

    /// A group taken whole ends at `end`: an element of the sequence around it.
    fn group_taken_whole(&mut self, start: usize, end: usize, step: &mut dyn FnMut(Step)) {
        let kind = if self.input[start] == b'{' {
            self.wrapper = Wrapper::None;
            Kind::Block
        } else {
            Kind::Other
        };
        step(Step::Element(self.seq(), Element { start, end, kind }));
    }

    /// The closing bracket of the opened group that started at `start` ends at `end`: the
    /// sequence inside closes, and the group is an element of the one around it.
    fn close(&mut self, start: usize, end: usize, step: &mut dyn FnMut(Step)) {
        step(Step::Close);
        self.open.pop();
        self.wrapper = Wrapper::None;
        let kind = if self.input[start] == b'{' {
            Kind::Block
        } else {
            Kind::Other
        };
        step(Step::Element(self.seq(), Element { start, end, kind }));
    }

    /// A group opens at `at`: opened when it is long or wraps declarations, else taken whole.
    fn group(&mut self, at: usize, step: &mut dyn FnMut(Step)) {
        let close = self.pairs[self.next_pair].1 as usize;
        self.next_pair += 1;
        let opens_wrapper = self.input[at] == b'{'
            && matches!(self.wrapper, Wrapper::Namespace | Wrapper::ExternLiteral);
        if close + 1 - at > self.open_above || opens_wrapper {
            step(Step::Open {
                child: self.next_id,
                at,
                declarations: opens_wrapper,
            });
            self.open.push((self.next_id, close, at));
            self.next_id += 1;
            self.wrapper = Wrapper::None;
        } else {
            self.whole = Some((at, close));
            self.next_pair +=
                self.pairs[self.next_pair..].partition_point(|p| (p.0 as usize) < close);
        }
    }

    /// Any other lexeme: an element of the innermost open sequence.
    fn lexeme(&mut self, l: Lexeme, step: &mut dyn FnMut(Step)) {
        let input = self.input;
        self.wrapper = match (l.class, self.wrapper) {
            (Class::Word, _) if &input[l.start..l.end] == b"namespace" => Wrapper::Namespace,
            (Class::Word, _) if &input[l.start..l.end] == b"extern" => Wrapper::Extern,
            (Class::Literal, Wrapper::Extern) => Wrapper::ExternLiteral,
            (Class::Punct(b';'), _) => Wrapper::None,
            (_, Wrapper::Namespace) => Wrapper::Namespace,
            _ => Wrapper::None,
        };
        let kind = match l.class {
            Class::Punct(b';') => Kind::Semicolon,
            Class::Punct(b',') => Kind::Comma,
            Class::Punct(b'#') if line_start(input, l.start) => Kind::Directive,
            _ => Kind::Other,
        };
        let e = Element {
            start: l.start,
            end: l.end,
            kind,
        };
        step(Step::Element(self.seq(), e));
    }
}

/// Whether only spaces and tabs stand between the line's start and `at`.
fn line_start(input: &[u8], at: usize) -> bool {
    matches!(
        input[..at]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t')),
        None | Some(b'\n')
    )
}

/// Cutting one sequence into forms, one element behind (whether a form ends after an element
/// can depend on what follows it).
struct Cutter {
    /// How forms end: after `;` (and a block at a line's end), after `,`, or at each line.
    mode: Kind,
    /// The open form's start, and whether it holds an opened group (then it is not a form of
    /// its own: its group's contents are).
    form: Option<(usize, bool)>,
    /// Whether the open form holds a group opened for its size (not a namespace's).
    large: bool,
    directive: bool,
    pending: Option<Element>,
    /// The run the next form belongs to; a new one after each opened group.
    run: u32,
}

impl Cutter {
    fn new(mode: Kind, run: u32) -> Cutter {
        Cutter {
            mode,
            form: None,
            large: false,
            directive: false,
            pending: None,
            run,
        }
    }

    /// Decides whether the form ends after the pending element, given where the next element
    /// starts and whether it is a directive (`None`: the sequence ends).
    fn settle(&mut self, input: &[u8], next: Option<(usize, bool)>, out: &mut Found) {
        let Some(e) = self.pending.take() else { return };
        let newline_after = next.is_none_or(|(at, _)| input[e.end..at].contains(&b'\n'));
        let next_directive = next.is_some_and(|(_, d)| d) && newline_after;
        let ends = match e.kind {
            Kind::Semicolon => true,
            Kind::Comma if self.mode == Kind::Comma => true,
            _ => {
                newline_after
                    && (self.mode == Kind::Other
                        || self.directive
                        || e.kind == Kind::Block
                        || next_directive)
            }
        } || next.is_none();
        if ends && let Some((start, opened)) = self.form.take() {
            if !opened {
                out.forms.push(Form {
                    start: start as u32,
                    end: e.end as u32,
                    seq: self.run,
                });
            } else if std::mem::take(&mut self.large) {
                out.wrappers.push((start as u32, e.end as u32));
            }
            self.directive = false;
        }
    }

    fn element(&mut self, input: &[u8], e: Element, out: &mut Found) {
        self.settle(input, Some((e.start, e.kind == Kind::Directive)), out);
        if self.form.is_none() {
            self.form = Some((e.start, false));
            self.directive = e.kind == Kind::Directive;
        }
        self.pending = Some(e);
    }

    /// An opened group starts at `at` (`declarations`: a namespace's or linkage block's):
    /// the form around it is not a form of its own.
    fn opened(&mut self, input: &[u8], at: usize, declarations: bool, out: &mut Found) {
        self.settle(input, Some((at, false)), out);
        let start = self.form.map_or(at, |(s, _)| s);
        self.form = Some((start, true));
        self.large |= !declarations;
    }
}

/// What [`forms_and_wrappers`] finds.
#[derive(Default)]
struct Found {
    forms: Vec<Form>,
    wrappers: Vec<(u32, u32)>,
}

/// The forms of `input`, in order; a group longer than `open_above` bytes is opened: its
/// contents are forms, and the form around it is not one.
pub(crate) fn forms(input: &[u8], open_above: usize) -> Vec<Form> {
    forms_and_wrappers(input, open_above).0
}

/// The [`forms`] of `input`, and the forms around the groups opened for their size (a
/// `static T x[] = {..};` holding most of the input), each whole (start, end), in order: the
/// runs of forms never hold one whole, yet where the test needs nothing of it, deleting it
/// whole is the one candidate that removes it.
pub(crate) fn forms_and_wrappers(input: &[u8], open_above: usize) -> (Vec<Form>, Vec<(u32, u32)>) {
    if input.is_empty() {
        return (Vec::new(), Vec::new());
    }
    if !is_text(input) {
        let size = input.len().div_ceil(MAX_BLOCKS).max(64);
        let blocks = (0..input.len())
            .step_by(size)
            .map(|s| Form {
                start: s as u32,
                end: (s + size).min(input.len()) as u32,
                seq: 0,
            })
            .collect();
        return (blocks, Vec::new());
    }
    let pairs = bracket_pairs(input);
    // First walk: how each reported sequence's forms end (by `;`, by `,`, or by lines).
    let mut counts: Vec<(bool, bool)> = vec![(false, false)];
    walk(input, &pairs, open_above, &mut |step| match step {
        Step::Element(seq, e) => {
            let c = &mut counts[seq as usize];
            c.0 |= e.kind == Kind::Semicolon;
            c.1 |= e.kind == Kind::Comma;
        }
        Step::Open { declarations, .. } => counts.push((declarations, false)),
        Step::Close => {}
    });
    let mode = |seq: u32| match counts[seq as usize] {
        (true, _) => Kind::Semicolon,
        (false, true) => Kind::Comma,
        _ => Kind::Other,
    };
    // Second walk: the forms. Runs get ids of their own; the cutters of open sequences
    // stack up as groups open.
    let mut out = Found::default();
    let mut cutters: Vec<Cutter> = vec![Cutter::new(mode(0), 0)];
    let mut next_run = 1u32;
    walk(input, &pairs, open_above, &mut |step| match step {
        Step::Element(_, e) => {
            let cutter = cutters.last_mut().expect("a cutter per open sequence");
            cutter.element(input, e, &mut out);
        }
        Step::Open {
            child,
            at,
            declarations,
        } => {
            let cutter = cutters.last_mut().expect("a cutter per open sequence");
            cutter.opened(input, at, declarations, &mut out);
            cutters.push(Cutter::new(mode(child), next_run));
            next_run += 1;
        }
        Step::Close => {
            let mut cutter = cutters.pop().expect("a cutter per open sequence");
            cutter.settle(input, None, &mut out);
            if let Some(parent) = cutters.last_mut() {
                parent.run = next_run;
                next_run += 1;
            }
        }
    });
    out.forms.shrink_to_fit();
    (out.forms, out.wrappers)
}

/// The bytes deleted with forms `a..b` of one sequence: from the first one's start to the next
/// form's start when one follows in the same sequence (the whitespace after the run goes with
/// it); else from the end of the form before, and its separating comma if it ends with one, to
/// the last one's end (the whitespace before goes, so no blank lines or dangling comma pile up
/// at the end).
fn span(input: &[u8], forms: &[Form], a: usize, b: usize) -> (usize, usize) {
    let seq = forms[a].seq;
    if b < forms.len() && forms[b].seq == seq {
        return (forms[a].start as usize, forms[b].start as usize);
    }
    let mut start = forms[a].start as usize;
    if a > 0 && forms[a - 1].seq == seq {
        start = forms[a - 1].end as usize;
        if input[start - 1] == b',' {
            start -= 1;
        }
    }
    (start, forms[b - 1].end as usize)
}

/// The byte ranges deleted with forms `a..b`, in order: one [`span`] per stretch of the run
/// inside one sequence (a run may cross from one group's contents into the next; the
/// brackets and heads between stay, so brackets stay balanced).
pub(crate) fn spans(input: &[u8], forms: &[Form], a: usize, b: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = a;
    while s < b {
        let mut e = s + 1;
        while e < b && forms[e].seq == forms[s].seq {
            e += 1;
        }
        out.push(span(input, forms, s, e));
        s = e;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The forms' texts, groups of more than `open` bytes opened.
    fn texts_opening(input: &[u8], open: usize) -> Vec<String> {
        forms(input, open)
            .iter()
            .map(|f| String::from_utf8_lossy(&input[f.start as usize..f.end as usize]).into_owned())
            .collect()
    }

    #[test]
    fn declarations_blocks_and_directives_are_forms() {
        let input = b"#pragma once\nstruct S {\n  int x;\n};\nint f(int a)\n{\n  return a;\n}\nint y = 1, z;\n";
        let got = texts_opening(input, usize::MAX);
        assert_eq!(
            got,
            [
                "#pragma once",
                "struct S {\n  int x;\n};",
                "int f(int a)\n{\n  return a;\n}",
                "int y = 1, z;"
            ]
        );
    }

    #[test]
    fn lines_and_comma_items_are_forms() {
        assert_eq!(
            texts_opening(b"a b\nc\n\nd e f\n", 0),
            ["a b", "c", "d e f"]
        );
        assert_eq!(texts_opening(b"1, 2,\n3", 0), ["1,", "2,", "3"]);
    }

    #[test]
    fn namespace_and_linkage_blocks_are_opened_whatever_their_size() {
        let input = b"namespace a __attribute__ ((__visibility__ (\"default\"))) {\nint v0;\nint v1;\n}\nextern \"C\" {\nint w;\n}\nextern \"C\" int f(int) { return 0; }\nstruct S { int x; };\n";
        let got = texts_opening(input, usize::MAX);
        assert_eq!(
            got,
            [
                "int v0;",
                "int v1;",
                "int w;",
                "extern \"C\" int f(int) { return 0; }",
                "struct S { int x; };"
            ]
        );
    }

    #[test]
    fn a_namespace_of_function_definitions_is_not_cut_at_commas() {
        // No `;` directly inside the block: its forms still end at the blocks, not at the
        // commas of template heads and argument lists.
        let input = b"int x;\nnamespace std __attribute__ ((__visibility__ (\"default\")))\n{\n  template<typename _Tp, typename _Alloc>\n    void\n    vector<_Tp, _Alloc>::\n    reserve(size_type __n)\n    {}\n  template<typename _Alloc>\n    bool\n    vector<bool, _Alloc>::\n    _M_shrink_to_fit()\n    {}\n}\n";
        let got = texts_opening(input, usize::MAX);
        assert_eq!(
            got,
            [
                "int x;",
                "template<typename _Tp, typename _Alloc>\n    void\n    vector<_Tp, _Alloc>::\n    reserve(size_type __n)\n    {}",
                "template<typename _Alloc>\n    bool\n    vector<bool, _Alloc>::\n    _M_shrink_to_fit()\n    {}"
            ]
        );
        // A JSON object's items are still cut at their commas.
        assert_eq!(
            texts_opening(b"{\"a\": [1, 2], \"b\": 2}", 12),
            ["\"a\": [1, 2],", "\"b\": 2"]
        );
    }

    #[test]
    fn binary_input_is_cut_into_blocks() {
        let input: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let f = forms(&input, usize::MAX);
        assert_eq!(f.len(), 157);
        assert!(f.iter().all(|x| x.end - x.start <= 64));
        assert_eq!(f.last().unwrap().end as usize, input.len());
    }
}
