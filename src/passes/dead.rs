//! Deleting declarations nobody mentions: the top-level forms and class members of C-family
//! code whose declared names appear in no other form, all at once, then in halves.
//!
//! Main type: [`DeadDeclarations`], a pass that runs only on text inputs of at least its
//! `min_bytes`. It cuts the best into forms as `chunks/forms` does (namespace and linkage
//! blocks opened), and the body of every class, struct or union definition into its members
//! (access labels apart), reads from each form's head the names it declares (a class, struct, union
//! or enum and its enumerators; a function, a variable, a `typedef` or `using` alias), and
//! builds a lexical index: which forms declare each name, and whether any other form mentions
//! it. A form is *dead* when it declares at least one name and none of its names is mentioned
//! outside the forms that declare the same name (overloads, specializations and forward
//! declarations do not keep each other alive; a class does not keep itself or the out-of-line
//! definitions of its own members alive); a member of a dead class goes with it. The dead forms are deleted in runs of the dead list,
//! the whole list first, then halves, back to front, as the chunk passes do; after every
//! accepted deletion the index is built again (once per best, linear in the input), and a new
//! round starts while a round paid, since a deletion makes more names unmentioned.
//!
//! After the bodies of a large file's functions are emptied (`chunks/bodies`), most of a
//! preprocessed header's declarations are mentioned by nobody; a run of the forms pass fails
//! when any of its hundreds of forms is used, where the dead list holds only forms whose
//! deletion leaves no name dangling. This is the "remove unused function" and "remove unused
//! declaration" work of C-Reduce's and C-Vise's clang passes, done on words instead of a
//! compiler's symbol table.
//!
//! ```
//! use myhill::{DeadDeclarations, Driver, EvalOptions, FnOracle, Pass};
//! let input = "struct A { int x; };\nstruct B { A a; };\nint f(B b) {}\nint g(int) {}\nint main() { return g(1); }\n";
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(4).any(|w| w == b"g(1)"));
//! let mut driver = Driver::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
//! DeadDeclarations::new(0).run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"int g(int) {}\nint main() { return g(1); }\n");
//! ```
//!
//! Limits: names are read by shape, not by a grammar, and matched by spelling, whatever their
//! scope: a name declared in two scopes is alive if either is mentioned, and a use the words do
//! not show (an operator, a function found by argument-dependent lookup, the entry point that
//! holds the behaviour) is found by the test, one failed halving at a time. Operator
//! definitions and forms whose head it cannot read are never deleted here: `chunks/forms` and
//! the finer passes take them.

use super::chunks::{Form, forms, spans};
use super::without_ranges;
use crate::driver::Driver;
use crate::eval::content_key;
use crate::kind::is_text;
use crate::lex::Class;
use crate::report::Stop;
use crate::schedule::Pass;
use std::collections::{HashMap, HashSet};

/// Deletes top-level declarations whose names nobody mentions, on text inputs of at least
/// `min_bytes`.
#[derive(Clone, Debug)]
pub struct DeadDeclarations {
    min_bytes: usize,
    /// The content keys of forms the test needed: deleting one alone failed. They stay out of
    /// the dead list (the entry point holding the behaviour is mentioned by nobody, yet
    /// needed), so later rounds do not find them again by halving.
    needed: HashSet<u128>,
}

impl DeadDeclarations {
    /// The pass, run on inputs of at least `min_bytes` bytes.
    pub fn new(min_bytes: usize) -> DeadDeclarations {
        DeadDeclarations {
            min_bytes,
            needed: HashSet::new(),
        }
    }
}

/// A new round of the pass starts when the last one removed at least this fraction of the
/// input (1/32).
const ROUND_SHARE: usize = 32;

/// The pass hands over when its last [`RATE_WINDOW`] judged candidates removed less than
/// 1/`RATE_SHARE` of the input per test (1/1024): past the bulk, its single declarations cost
/// a test each, which the next passes spend better.
const RATE_SHARE: usize = 1024;

/// How many of the last judged candidates the yield is measured over.
const RATE_WINDOW: usize = 16;

/// The bytes the last candidates removed, one entry per judged candidate.
#[derive(Default)]
pub(super) struct Rate {
    gains: std::collections::VecDeque<usize>,
}

impl Rate {
    /// Records `judged` candidates that removed `removed` bytes in all, the best now `len`
    /// bytes; whether the window is full and its yield below the bar.
    pub(super) fn judged(&mut self, judged: usize, removed: usize, len: usize) -> bool {
        for i in 0..judged {
            self.gains
                .push_back(if i + 1 == judged { removed } else { 0 });
            if self.gains.len() > RATE_WINDOW {
                self.gains.pop_front();
            }
        }
        self.gains.len() == RATE_WINDOW
            && self.gains.iter().sum::<usize>() < RATE_WINDOW * (len / RATE_SHARE)
    }
}

/// A lexeme of a form's head that is not space or a comment.
#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    class: Class,
    text: &'a [u8],
    /// Where it starts in the input.
    at: usize,
}

/// What a form declares: its names, for an out-of-line member (`A<T>::f(..)`) the class it
/// belongs to, and for a class, struct or union definition where its body's braces start.
#[derive(Debug, Default, PartialEq, Eq)]
struct Declared<'a> {
    names: Vec<&'a [u8]>,
    owner: Option<&'a [u8]>,
    body: Option<(usize, usize)>,
}

/// Words that open a declaration without being its name.
const LEADING: &[&[u8]] = &[
    b"template",
    b"extern",
    b"static",
    b"inline",
    b"__inline",
    b"__inline__",
    b"constexpr",
    b"consteval",
    b"constinit",
    b"__extension__",
    b"friend",
    b"virtual",
    b"explicit",
    b"thread_local",
    b"register",
    b"_Noreturn",
];

/// Words before a `(` that are not the name of a function.
const NOT_FUNCTIONS: &[&[u8]] = &[
    b"__attribute__",
    b"__attribute",
    b"alignas",
    b"_Alignas",
    b"decltype",
    b"__decltype",
    b"noexcept",
    b"throw",
    b"sizeof",
    b"alignof",
    b"__alignof__",
    b"typeof",
    b"__typeof__",
    b"__typeof",
    b"__asm__",
    b"__asm",
    b"asm",
    b"__declspec",
];

/// Keywords and built-in types: never a declared name.
const KEYWORDS: &[&[u8]] = &[
    b"void",
    b"bool",
    b"char",
    b"short",
    b"int",
    b"long",
    b"float",
    b"double",
    b"signed",
    b"unsigned",
    b"const",
    b"volatile",
    b"auto",
    b"wchar_t",
    b"char8_t",
    b"char16_t",
    b"char32_t",
    b"__int128",
    b"_Bool",
    b"typename",
    b"class",
    b"struct",
    b"union",
    b"enum",
    b"namespace",
    b"return",
    b"this",
    b"nullptr",
    b"true",
    b"false",
    b"override",
    b"final",
    b"noexcept",
    b"default",
    b"delete",
    b"new",
    b"__restrict",
    b"__restrict__",
    b"restrict",
];

fn is_word(t: &Tok, text: &[u8]) -> bool {
    t.class == Class::Word && t.text == text
}

fn is_punct(t: &Tok, b: u8) -> bool {
    t.class == Class::Punct(b)
}

/// A name a form may declare: a word that is no keyword.
fn name_word<'a>(t: &Tok<'a>) -> Option<&'a [u8]> {
    (t.class == Class::Word && !KEYWORDS.contains(&t.text)).then_some(t.text)
}

/// The top of a declaration: the indices of `toks` outside every bracket group and every
/// template argument list, each group standing as its opening bracket (the argument lists of
/// `name<..>` are left out). Stops at an argument list that does not close.
fn top(toks: &[Tok]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.class {
            Class::Punct(b'(' | b'[' | b'{') => {
                out.push(i);
                i = close_of(toks, i);
            }
            Class::Punct(b'<')
                if out.last().is_some_and(|&p| {
                    toks[p].class == Class::Word && toks[p].text != b"operator"
                }) =>
            {
                match angles_end(toks, i) {
                    Some(end) => i = end,
                    None => break,
                }
            }
            _ => {
                out.push(i);
                i += 1;
            }
        }
    }
    out
}

/// The index after the group opened at `open`, or the end.
fn close_of(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        match t.class {
            Class::Punct(b'(' | b'[' | b'{') => depth += 1,
            Class::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The index after the `>` closing the argument list opened at `open`, if it closes.
fn angles_end(toks: &[Tok], open: usize) -> Option<usize> {
    let (mut angles, mut depth) = (0usize, 0usize);
    for (j, t) in toks.iter().enumerate().skip(open) {
        match t.class {
            Class::Punct(b'(' | b'[' | b'{') => depth += 1,
            Class::Punct(b')' | b']' | b'}') => depth = depth.checked_sub(1)?,
            Class::Punct(b';') => return None,
            Class::Punct(b'<') if depth == 0 => angles += 1,
            Class::Punct(b'>') if depth == 0 => {
                angles -= 1;
                if angles == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The class a qualified name at `z[k]` belongs to: the word before its `::`.
fn owner_at<'a>(toks: &[Tok<'a>], z: &[usize], k: usize) -> Option<&'a [u8]> {
    let mut k = k;
    if k >= 1 && is_punct(&toks[z[k - 1]], b'~') {
        k -= 1;
    }
    (k >= 3 && is_punct(&toks[z[k - 1]], b':') && is_punct(&toks[z[k - 2]], b':'))
        .then(|| name_word(&toks[z[k - 3]]))
        .flatten()
}

/// The names the form `toks` declares, read from its head; none when the form does not end a
/// declaration (`;` or `}`) or declares an operator.
fn declared<'a>(toks: &[Tok<'a>]) -> Declared<'a> {
    let mut out = Declared::default();
    if !toks
        .last()
        .is_some_and(|t| is_punct(t, b';') || is_punct(t, b'}'))
    {
        return out;
    }
    let z = top(toks);
    if z.iter().any(|&i| is_word(&toks[i], b"operator")) {
        return out;
    }
    // Leading specifiers, template heads, linkage and attributes.
    let mut s = 0;
    while s < z.len() {
        let t = &toks[z[s]];
        let attribute = t.class == Class::Word
            && NOT_FUNCTIONS.contains(&t.text)
            && z.get(s + 1).is_some_and(|&n| is_punct(&toks[n], b'('));
        if attribute {
            s += 2;
        } else if (t.class == Class::Word && LEADING.contains(&t.text))
            || t.class == Class::Literal
            || is_punct(t, b'[')
        {
            s += 1;
        } else {
            break;
        }
    }
    let z = &z[s..];
    let Some(&first) = z.first() else { return out };
    let first = toks[first];
    let find = |pred: &dyn Fn(&Tok) -> bool| z.iter().position(|&i| pred(&toks[i]));
    let brace = find(&|t| is_punct(t, b'{'));
    let paren = find(&|t| is_punct(t, b'('));
    if first.class != Class::Word {
        return out;
    }
    match first.text {
        b"typedef" => {
            let end = find(&|t| is_punct(t, b';')).unwrap_or(z.len());
            // `typedef int (*name)(int);`: the name is inside the first group.
            let last = z[..end].iter().rev().find_map(|&i| name_word(&toks[i]));
            let inner = paren.and_then(|p| {
                let p = z[p];
                (toks.get(p + 1).is_some_and(|t| is_punct(t, b'*')))
                    .then(|| toks.get(p + 2).and_then(name_word))
                    .flatten()
            });
            let z_last = z[..end].last().map(|&i| toks[i]);
            let name = if z_last.is_some_and(|t| is_punct(&t, b'(')) {
                inner
            } else {
                last.or(inner)
            };
            out.names.extend(name);
        }
        b"using" => {
            if z.get(1).is_some_and(|&i| is_word(&toks[i], b"namespace")) {
                return out;
            }
            if z.get(2).is_some_and(|&i| is_punct(&toks[i], b'=')) {
                out.names.extend(name_word(&toks[z[1]]));
            } else if let Some(end) = find(&|t| is_punct(t, b';')) {
                out.names
                    .extend(z[..end].iter().rev().find_map(|&i| name_word(&toks[i])));
            }
        }
        b"class" | b"struct" | b"union" | b"enum" if brace.is_some() || paren.is_none() => {
            // The name after the key (and `class` of `enum class`), attributes skipped; the
            // last of a qualified chain.
            let mut k = 1;
            let mut name = None;
            while k < z.len() {
                let t = &toks[z[k]];
                if t.class == Class::Word
                    && NOT_FUNCTIONS.contains(&t.text)
                    && z.get(k + 1).is_some_and(|&n| is_punct(&toks[n], b'('))
                {
                    k += 2;
                } else if is_punct(t, b'[') || is_word(t, b"class") || is_word(t, b"struct") {
                    k += 1;
                } else if let Some(w) = name_word(t) {
                    name = Some(w);
                    if z.get(k + 2).is_some_and(|&n| is_punct(&toks[n], b':'))
                        && is_punct(&toks[z[k + 1]], b':')
                    {
                        k += 3;
                    } else {
                        break;
                    }
                } else {
                    break;
                }
            }
            out.names.extend(name);
            if first.text != b"enum"
                && let Some(b) = brace
            {
                let close = close_of(toks, z[b]) - 1;
                if is_punct(&toks[close], b'}') {
                    out.body = Some((toks[z[b]].at, toks[close].at));
                }
            }
            if first.text == b"enum"
                && let Some(b) = brace
            {
                // The enumerators: words followed by `=`, `,` or the closing brace.
                let open = z[b];
                let close = close_of(toks, open) - 1;
                let mut depth = 0usize;
                for j in open + 1..close {
                    match toks[j].class {
                        Class::Punct(b'(' | b'[' | b'{') => depth += 1,
                        Class::Punct(b')' | b']' | b'}') => depth = depth.saturating_sub(1),
                        Class::Word if depth == 0 => {
                            let next = &toks[j + 1];
                            if j + 1 == close || is_punct(next, b'=') || is_punct(next, b',') {
                                out.names.extend(name_word(&toks[j]));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        _ => {
            // A function: the word before the first `(` that is not an attribute or operand
            // of `decltype`, `sizeof` and the like. Else a variable: the word before the
            // first `=`, `;`, `[`, `{` or `,`.
            let call = z.iter().enumerate().position(|(k, &i)| {
                is_punct(&toks[i], b'(')
                    && k >= 1
                    && toks[z[k - 1]].class == Class::Word
                    && !NOT_FUNCTIONS.contains(&toks[z[k - 1]].text)
            });
            let at = match call {
                Some(k) => Some(k - 1),
                None if paren.is_none() => z
                    .iter()
                    .position(|&i| {
                        matches!(
                            toks[i].class,
                            Class::Punct(b'=' | b';' | b'[' | b'{' | b',')
                        )
                    })
                    .and_then(|k| k.checked_sub(1)),
                None => None,
            };
            if let Some(k) = at
                && let Some(name) = name_word(&toks[z[k]])
            {
                out.names.push(name);
                out.owner = owner_at(toks, z, k);
            }
        }
    }
    out
}

/// How deep class bodies are opened to the index: the members of a top-level class, of a
/// class inside it, and of one more level. Each level lexes its bodies once more, so the
/// index costs at most this many passes over the input more.
const MEMBER_DEPTH: usize = 3;

/// The forms of one best and what they declare and mention: the top-level forms and, inside
/// every class, struct or union definition, its members, in input order (a class before its
/// members).
#[derive(Default)]
struct Index<'a> {
    forms: Vec<Form>,
    /// The class each form is a member of.
    parent: Vec<Option<u32>>,
    heads: Vec<Declared<'a>>,
    /// The first sequence id not used yet.
    next_seq: u32,
}

/// The access label (`public:`, `protected:`, `private:`) a member form starts with: where the
/// rest of the form starts after it (its end if nothing follows).
fn access_label(input: &[u8], form: &Form) -> Option<usize> {
    let (start, end) = (form.start as usize, form.end as usize);
    let text = &input[start..end];
    let word = [&b"public"[..], b"protected", b"private"]
        .into_iter()
        .find(|w| text.starts_with(w))?;
    let mut at = word.len();
    while at < text.len() && crate::lex::is_space(text[at]) {
        at += 1;
    }
    if text.get(at) != Some(&b':') || text.get(at + 1) == Some(&b':') {
        return None;
    }
    at += 1;
    while at < text.len() && crate::lex::is_space(text[at]) {
        at += 1;
    }
    Some(start + at)
}

/// Adds to `ix` the forms of `input[lo..hi]` (the top level, or the inside of class `parent`'s
/// braces at nesting `depth`), and their heads; opens class bodies down to
/// [`MEMBER_DEPTH`]. An access label is a form of its own, declaring nothing, so deleting
/// the member after it keeps it.
fn scan<'a>(
    input: &'a [u8],
    lo: usize,
    hi: usize,
    parent: Option<u32>,
    depth: usize,
    ix: &mut Index<'a>,
) {
    let mut local: Vec<Form> = Vec::new();
    for f in forms(&input[lo..hi], usize::MAX) {
        let f = Form {
            start: f.start + lo as u32,
            end: f.end + lo as u32,
            seq: f.seq + ix.next_seq,
        };
        // Labels in a row (`public:\n  private:`) are left when a member between goes.
        let mut f = f;
        while depth > 0
            && f.start < f.end
            && let Some(rest) = access_label(input, &f)
        {
            let label_end = input[f.start as usize..rest]
                .iter()
                .rposition(|&b| b == b':')
                .map_or(rest, |p| f.start as usize + p + 1);
            local.push(Form {
                end: label_end as u32,
                ..f
            });
            f.start = rest as u32;
        }
        if f.start < f.end {
            local.push(f);
        }
    }
    ix.next_seq = local.iter().map(|f| f.seq + 1).max().unwrap_or(ix.next_seq);
    // Each form's tokens are gathered as the lexing passes over it and read as soon as it
    // ends: only one form's tokens are held at a time, not the input's (40 bytes a token).
    // And only those its head is read from (see [`HeadTokens`]).
    let mut toks = HeadTokens::default();
    let mut f = 0usize;
    for l in crate::lex::lexemes(&input[lo..hi]) {
        if matches!(l.class, Class::Space | Class::Comment) {
            continue;
        }
        let at = lo + l.start;
        while f < local.len() && at >= local[f].end as usize {
            index_form(input, local[f], &toks.toks, parent, depth, ix);
            toks.clear();
            f += 1;
        }
        if f < local.len() && at >= local[f].start as usize {
            toks.push(Tok {
                class: l.class,
                text: &input[at..lo + l.end],
                at,
            });
        }
    }
    while f < local.len() {
        index_form(input, local[f], &toks.toks, parent, depth, ix);
        toks.clear();
        f += 1;
    }
}

/// The tokens of one form that [`declared`] reads: those outside every bracket group and
/// those directly inside one (an enum's enumerators, `typedef int (*name)(..)`), each group
/// kept as its brackets. What is deeper (the statements of a body's inner blocks) stands as
/// its first `;` alone, which is all [`angles_end`] looks for there: [`declared`] reads the
/// same from these as from all the form's tokens, and a large form holds a fraction of them.
#[derive(Default)]
struct HeadTokens<'a> {
    toks: Vec<Tok<'a>>,
    /// Brackets open at the last token, counted as [`close_of`] counts them.
    depth: usize,
    /// Whether the group being left out (deeper than one bracket) kept its first `;`.
    semicolon: bool,
}

impl<'a> HeadTokens<'a> {
    fn push(&mut self, t: Tok<'a>) {
        let (opens, closes) = match t.class {
            Class::Punct(b'(' | b'[' | b'{') => (true, false),
            Class::Punct(b')' | b']' | b'}') => (false, true),
            _ => (false, false),
        };
        if closes {
            self.depth = self.depth.saturating_sub(1);
        }
        if self.depth <= 1 {
            self.toks.push(t);
            self.semicolon = false;
        } else if t.class == Class::Punct(b';') && !self.semicolon {
            self.toks.push(t);
            self.semicolon = true;
        }
        if opens {
            self.depth += 1;
        }
    }

    fn clear(&mut self) {
        *self = HeadTokens {
            toks: std::mem::take(&mut self.toks),
            ..HeadTokens::default()
        };
        self.toks.clear();
    }
}

/// Adds `form` (whose tokens are `toks`) to `ix` with its head, then the members of its body
/// if it is a class opened at this `depth`: the forms stay in input order, each class's
/// members right after it.
fn index_form<'a>(
    input: &'a [u8],
    form: Form,
    toks: &[Tok<'a>],
    parent: Option<u32>,
    depth: usize,
    ix: &mut Index<'a>,
) {
    let head = declared(toks);
    let body = head.body.filter(|_| depth < MEMBER_DEPTH);
    let g = ix.forms.len() as u32;
    ix.forms.push(form);
    ix.parent.push(parent);
    ix.heads.push(head);
    if let Some((open, close)) = body {
        scan(input, open + 1, close, Some(g), depth + 1, ix);
    }
}

/// Calls `f` with every word of `input` and the innermost of `forms` it is in (`None`: between
/// top-level forms). `forms` are in input order, each class's members right after it and
/// inside it, so the forms open at a point are a stack; a word in a class's body between its
/// members is the class's. A second lexing pass instead of a list of every word, which
/// would take 24 bytes a word.
fn each_word<'a>(input: &'a [u8], forms: &[Form], mut f: impl FnMut(Option<u32>, &'a [u8])) {
    let mut next = 0usize;
    let mut open: Vec<usize> = Vec::new();
    for l in crate::lex::lexemes(input) {
        if l.class != Class::Word {
            continue;
        }
        while next < forms.len() && forms[next].start as usize <= l.start {
            let start = forms[next].start;
            while open.last().is_some_and(|&o| forms[o].end <= start) {
                open.pop();
            }
            open.push(next);
            next += 1;
        }
        while open
            .last()
            .is_some_and(|&o| forms[o].end as usize <= l.start)
        {
            open.pop();
        }
        f(open.last().map(|&o| o as u32), &input[l.start..l.end]);
    }
}

/// The members of one class, struct or union definition (see [`class_members`]).
pub(super) struct ClassMembers {
    /// The content key of the class's head (its text up to the opening brace): it names the
    /// class whatever is deleted inside or before it.
    pub(super) head: u128,
    /// The members, in input order.
    pub(super) members: Vec<Form>,
}

/// The members of every class, struct or union definition that is not itself inside a class
/// body, one group per class in input order, each member a [`Form`] in input order: a
/// declaration with its `template<..>` head, attributes and a constructor's initializer list;
/// a nested class is one member. Access labels are not members, nor are the members `skip`
/// names (given the class's head key and the member's text): both stay when the members
/// around them go, so each ends a sequence. Linear in the input (two lexing passes at the
/// members' level).
pub(super) fn class_members(input: &[u8], skip: &dyn Fn(u128, &[u8]) -> bool) -> Vec<ClassMembers> {
    let mut ix = Index::default();
    scan(input, 0, input.len(), None, 0, &mut ix);
    let mut groups: Vec<(u32, ClassMembers)> = Vec::new();
    // The members between two labels (or skipped members) are a sequence of their own: a run
    // ending before a label takes the space before it, not the label after it.
    let mut seq = 0u32;
    for (i, form) in ix.forms.iter().enumerate() {
        let Some(p) = ix.parent[i] else { continue };
        if ix.parent[p as usize].is_some() {
            continue;
        }
        if groups.last().is_none_or(|(class, _)| *class != p) {
            let start = ix.forms[p as usize].start as usize;
            let open = ix.heads[p as usize].body.map_or(start, |(open, _)| open);
            let head = content_key(&input[start..open]);
            seq += 1;
            groups.push((
                p,
                ClassMembers {
                    head,
                    members: Vec::new(),
                },
            ));
        }
        let (_, class) = groups.last_mut().expect("pushed above");
        let text = &input[form.start as usize..form.end as usize];
        if access_label(input, form).is_some() || skip(class.head, text) {
            seq += 1;
            continue;
        }
        class.members.push(Form { seq, ..*form });
    }
    groups
        .into_iter()
        .map(|(_, class)| class)
        .filter(|class| !class.members.is_empty())
        .collect()
}

/// The forms of `input` (top-level forms and class members, in input order) and, in order, the
/// indices of the dead ones. Linear in the input for each level of [`MEMBER_DEPTH`] (one
/// lexing pass, one index of the declared names).
fn dead_forms(input: &[u8], needed: &HashSet<u128>) -> (Vec<Form>, Vec<usize>) {
    let mut ix = Index::default();
    scan(input, 0, input.len(), None, 0, &mut ix);
    let Index {
        forms,
        parent,
        heads,
        ..
    } = ix;
    // Per name: the forms that declare it (ascending), the classes owning an out-of-line
    // member of that name, and whether another form mentions it.
    let mut by_name: HashMap<&[u8], Name> = HashMap::new();
    for (i, d) in heads.iter().enumerate() {
        for &n in &d.names {
            let entry = by_name.entry(n).or_default();
            if entry.declared_by.last() != Some(&(i as u32)) {
                entry.declared_by.push(i as u32);
            }
            if let Some(o) = d.owner
                && !entry.owners.contains(&o)
            {
                entry.owners.push(o);
            }
        }
    }
    let declares = |by_name: &HashMap<&[u8], Name>, form: u32, name: &[u8]| {
        by_name
            .get(name)
            .is_some_and(|e| e.declared_by.binary_search(&form).is_ok())
    };
    each_word(input, &forms, |form, word| {
        let Some(entry) = by_name.get(word) else {
            return;
        };
        if entry.mentioned {
            return;
        }
        // A mention counts unless the form or a class around it declares the word (a class
        // naming itself in its members), or the form declares a class that owns an
        // out-of-line member of that name.
        let counts = form.is_none_or(|form| {
            let mut around = Some(form);
            while let Some(f) = around {
                if declares(&by_name, f, word) {
                    return false;
                }
                around = parent[f as usize];
            }
            !entry.owners.iter().any(|o| declares(&by_name, form, o))
        });
        if counts && let Some(e) = by_name.get_mut(word) {
            e.mentioned = true;
        }
    });
    // A member of a dead class goes with it: it is not listed on its own.
    let mut covered = vec![false; forms.len()];
    let mut dead = Vec::new();
    for (i, d) in heads.iter().enumerate() {
        let inside_dead = parent[i].is_some_and(|p| covered[p as usize]);
        let is_dead = !inside_dead
            && !d.names.is_empty()
            && (needed.is_empty()
                || !needed.contains(&content_key(
                    &input[forms[i].start as usize..forms[i].end as usize],
                )))
            && d.names
                .iter()
                .all(|n| !by_name.get(n).is_some_and(|e| e.mentioned));
        covered[i] = inside_dead || is_dead;
        if is_dead {
            dead.push(i);
        }
    }
    (forms, dead)
}

/// The forms of `input` (as [`dead_forms`] cuts them) that declare no name, in order:
/// operators, explicit instantiations, assertions, heads this index cannot read. No form
/// can mention them, so they are roots of the mention graph with the dead forms. A member of
/// a listed class and an access label are not listed.
pub(super) fn nameless_forms(input: &[u8]) -> (Vec<Form>, Vec<usize>) {
    let mut ix = Index::default();
    scan(input, 0, input.len(), None, 0, &mut ix);
    let mut listed = vec![false; ix.forms.len()];
    let mut out = Vec::new();
    for (i, d) in ix.heads.iter().enumerate() {
        let f = ix.forms[i];
        let label = access_label(input, &f).is_some_and(|rest| rest >= f.end as usize);
        listed[i] = ix.parent[i].is_some_and(|p| listed[p as usize])
            || (d.names.is_empty() && !label && f.start < f.end);
        if listed[i] && ix.parent[i].is_none_or(|p| !listed[p as usize]) {
            out.push(i);
        }
    }
    (ix.forms, out)
}

/// What the index knows of one declared name.
#[derive(Default)]
struct Name<'a> {
    declared_by: Vec<u32>,
    owners: Vec<&'a [u8]>,
    mentioned: bool,
}

/// The bytes deleted with the dead forms `dead[a..b]`, in order: a [`spans`] per run of
/// consecutive forms.
pub(super) fn cut(input: &[u8], forms: &[Form], dead: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = 0;
    while s < dead.len() {
        let mut e = s + 1;
        while e < dead.len() && dead[e] == dead[e - 1] + 1 {
            e += 1;
        }
        out.extend(spans(input, forms, dead[s], dead[e - 1] + 1));
        s = e;
    }
    out
}

impl Pass for DeadDeclarations {
    fn name(&self) -> String {
        "chunks/dead".to_string()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        let mut rate = Rate::default();
        loop {
            let len = driver.best().len();
            // Offsets are u32, as in the chunk passes.
            if len < self.min_bytes || len >= u32::MAX as usize || !is_text(driver.best()) {
                return Ok(());
            }
            let (mut forms, mut dead) = dead_forms(driver.best(), &self.needed);
            let mut k = dead.len();
            while k >= 1 {
                // One sweep at run length k over the dead list, back to front.
                let mut end = dead.len();
                while end > 0 {
                    driver.progress((dead.len() - end) as u64, dead.len() as u64);
                    let best = driver.best_shared();
                    let mut at = end;
                    let (forms_now, dead_now) = (&forms, &dead);
                    // The single forms proposed, with their numbers in proposal order: those
                    // before the accepted one failed. With several jobs candidates are pulled
                    // past the one accepted; those were not judged.
                    let mut singles: Vec<(usize, usize)> = Vec::new();
                    let mut proposed = 0usize;
                    let mut next = || {
                        if at == 0 {
                            return None;
                        }
                        let a = at.saturating_sub(k);
                        if at - a == 1 {
                            singles.push((proposed + 1, dead_now[a]));
                        }
                        let cut = cut(&best, forms_now, &dead_now[a..at]);
                        at = a;
                        let bytes = without_ranges(&best, &cut);
                        proposed += 1;
                        Some((bytes, (cut[0].0, proposed)))
                    };
                    let before = driver.best().len();
                    let accepted = driver.try_candidates(&mut next)?;
                    // Judged in order up to the accepted one, whatever the jobs.
                    let judged = accepted.map_or(proposed, |(_, at)| at);
                    let slow =
                        rate.judged(judged, before - driver.best().len(), driver.best().len());
                    // The candidates judged failing: all those judged, less the one accepted.
                    let failed = judged - usize::from(accepted.is_some());
                    for &(_, i) in singles.iter().filter(|&&(n, _)| n <= failed) {
                        let f = forms[i];
                        self.needed
                            .insert(content_key(&best[f.start as usize..f.end as usize]));
                    }
                    match accepted {
                        Some((first_cut, _)) => {
                            // Forms before the first deleted byte keep their offsets: the
                            // sweep goes on before them, over the new index's dead list.
                            (forms, dead) = dead_forms(driver.best(), &self.needed);
                            end = dead.partition_point(|&i| (forms[i].start as usize) < first_cut);
                        }
                        None => end = 0,
                    }
                    if slow {
                        return Ok(());
                    }
                }
                if k == 1 || dead.is_empty() {
                    break;
                }
                k = k.div_ceil(2).min(dead.len());
            }
            // Another round while a round removes a good share: late rounds find chains of
            // a few small declarations, which the forms and finer passes take more cheaply.
            // A round that removed nothing ends the pass, however small the input.
            let removed = len - driver.best().len();
            if removed == 0 || removed < len / ROUND_SHARE {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;

    fn names_of(src: &str) -> (Vec<String>, Option<String>) {
        let toks: Vec<Tok> = crate::lex::lexemes(src.as_bytes())
            .filter(|l| !matches!(l.class, Class::Space | Class::Comment))
            .map(|l| Tok {
                class: l.class,
                text: &src.as_bytes()[l.start..l.end],
                at: l.start,
            })
            .collect();
        let d = declared(&toks);
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (d.names.iter().map(|n| text(n)).collect(), d.owner.map(text))
    }

    fn names(src: &str) -> Vec<String> {
        names_of(src).0
    }

    #[test]
    fn the_declared_names_are_read_from_the_head() {
        assert_eq!(
            names("template<typename _Tp, typename = void> struct __is_x : public false_type { };"),
            ["__is_x"]
        );
        assert_eq!(
            names("template<> struct hash<int> : public __hash_base<size_t, int> { };"),
            ["hash"]
        );
        assert_eq!(
            names(
                "class __attribute__((__visibility__(\"default\"))) bad_cast : public exception { };"
            ),
            ["bad_cast"]
        );
        assert_eq!(names("enum class byte : unsigned char;"), ["byte"]);
        assert_eq!(
            names("enum _Ios_Fmtflags { _S_boolalpha = 1L << 0, _S_dec = 1L << 1, _S_end };"),
            ["_Ios_Fmtflags", "_S_boolalpha", "_S_dec", "_S_end"]
        );
        assert_eq!(names("typedef unsigned long size_t;"), ["size_t"]);
        assert_eq!(names("typedef struct { int quot; } div_t;"), ["div_t"]);
        assert_eq!(
            names("typedef void (*__sighandler_t) (int);"),
            ["__sighandler_t"]
        );
        assert_eq!(
            names("template<typename _Tp> using __remove_cv_t = typename remove_cv<_Tp>::type;"),
            ["__remove_cv_t"]
        );
        assert_eq!(names("using std::swap;"), ["swap"]);
        assert!(names("using namespace std;").is_empty());
        assert_eq!(
            names(
                "extern int printf (const char *__restrict __format, ...) __attribute__ ((__nonnull__ (1)));"
            ),
            ["printf"]
        );
        assert_eq!(
            names(
                "__attribute__((__nonnull__)) inline void __fill_bvector_n(_Bit_type* __p, size_t __n) {}"
            ),
            ["__fill_bvector_n"]
        );
        assert_eq!(
            names(
                "template<typename _Tp> constexpr typename enable_if<is_integral<_Tp>::value, int>::type __f(_Tp __x) { return 0; }"
            ),
            ["__f"]
        );
        assert_eq!(
            names("struct tm *localtime (const time_t *__timer) throw ();"),
            ["localtime"]
        );
        assert_eq!(
            names("extern \"C\" int atexit (void (*__func) (void)) noexcept (true);"),
            ["atexit"]
        );
        assert_eq!(
            names("static const int __max_digits = 10;"),
            ["__max_digits"]
        );
        assert_eq!(names("int main() {}"), ["main"]);
        assert_eq!(
            names_of(
                "template<typename _CharT> void basic_string<_CharT>::_M_mutate(size_type __pos) {}"
            ),
            (
                vec!["_M_mutate".to_string()],
                Some("basic_string".to_string())
            )
        );
        assert_eq!(
            names_of("template<typename _Tp> const int numeric_limits<_Tp>::digits;"),
            (
                vec!["digits".to_string()],
                Some("numeric_limits".to_string())
            )
        );
    }

    #[test]
    fn operators_and_unreadable_forms_declare_nothing() {
        assert!(names("template<typename _Tp> inline bool operator==(const allocator<_Tp>&, const allocator<_Tp>&) { return true; }").is_empty());
        assert!(names("static_assert(sizeof(int) == 4, \"int\")").is_empty());
        assert!(names("int (*pick(int))(int);").is_empty());
        assert!(names("int x, y").is_empty());
    }

    fn dead_texts(input: &str) -> Vec<String> {
        let (forms, dead) = dead_forms(input.as_bytes(), &HashSet::new());
        dead.iter()
            .map(|&i| input[forms[i].start as usize..forms[i].end as usize].to_string())
            .collect()
    }

    #[test]
    fn a_form_is_dead_when_no_other_form_mentions_its_names() {
        let input = "struct A;\nstruct A { int x; };\nstruct B { A a; };\nstruct C { int y; };\nint f(int);\nint f(int, int) {}\nint g() {}\nint h() { return g(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "int x;",
                "struct B { A a; };",
                "struct C { int y; };",
                "int f(int);",
                "int f(int, int) {}",
                "int h() { return g(); }"
            ]
        );
    }

    #[test]
    fn a_class_does_not_keep_its_out_of_line_members_alive() {
        let input = "template<typename T> struct S { void used(); void unused(); };\ntemplate<typename T> void S<T>::used() {}\ntemplate<typename T> void S<T>::unused() {}\nint main() { S<int> s; s.used(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "void unused();",
                "template<typename T> void S<T>::unused() {}",
                "int main() { S<int> s; s.used(); }"
            ]
        );
    }

    #[test]
    fn chains_of_unused_declarations_go_and_what_the_test_needs_stays() {
        // 300 declarations in chains of three (each mentioned by the next), one chain used by
        // the entry point, which nobody mentions but the test needs.
        let mut input = String::new();
        for i in 0..100 {
            input.push_str(&format!(
                "struct a{i} {{ int x; }};\nstruct b{i} {{ a{i} y; }};\nint c{i}(b{i} z) {{}}\n"
            ));
        }
        input.push_str("int main() { return c42(0); }\n");
        let oracle = FnOracle::new(|b: &[u8]| b.windows(9).any(|w| w == b"c42(0); }"));
        let mut driver = Driver::new(input.into_bytes(), &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut driver).unwrap();
        assert_eq!(
            String::from_utf8_lossy(driver.best()),
            "struct b42 {  };\nint c42(b42 z) {}\nint main() { return c42(0); }\n"
        );
        // The entry point is found needed once, by halving, then stays out of the list;
        // the chains go a third at a time: far fewer tests than declarations.
        let tests = driver.report().eval.tests_run;
        assert!(tests <= 60, "{tests}");
    }

    #[test]
    fn members_of_classes_are_forms_of_their_own() {
        let input = "template<typename T>\nstruct S {\n  typedef T value_type;\n  S() {}\n  ~S() {}\n  void used();\n  template<typename U> void convert(U u);\nprivate:\n  int count;\n  struct Node {\n    Node* next;\n    int spare;\n  };\npublic:\n  value_type get() const;\n};\nint main() { S<int> s; s.used(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "template<typename U> void convert(U u);",
                "int count;",
                "struct Node {\n    Node* next;\n    int spare;\n  };",
                "value_type get() const;",
                "int main() { S<int> s; s.used(); }"
            ]
        );
        // A class mentioned from outside keeps its members' own liveness: a member named by
        // another member stays.
        let input = "struct A {\n  int kept;\n  int gone;\n  int read() { return kept; }\n};\nint main() { A a; return a.read(); }\n";
        assert_eq!(
            dead_texts(input),
            ["int gone;", "int main() { A a; return a.read(); }"]
        );
    }

    #[test]
    fn unused_members_go_and_access_labels_stay() {
        let input = "class Box {\npublic:\n  int size;\n  int weight;\nprivate:\n  int colour;\n  int shade;\npublic:\n  int open();\n};\nint main() { Box b; return b.open(); }\n";
        // The test needs `open` public and the entry point.
        let oracle = FnOracle::new(|b: &[u8]| {
            let text = String::from_utf8_lossy(b);
            text.contains("return b.open(); }")
                && text
                    .find("int open();")
                    .is_some_and(|at| text[..at].trim_end().ends_with("public:"))
        });
        let mut driver = Driver::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut driver).unwrap();
        assert_eq!(
            String::from_utf8_lossy(driver.best()),
            "class Box {\npublic:\n  private:\n  public:\n  int open();\n};\nint main() { Box b; return b.open(); }\n"
        );
    }

    #[test]
    fn small_and_binary_inputs_are_left_alone() {
        let oracle = FnOracle::new(|_: &[u8]| true);
        let mut driver = Driver::new(b"int f() {}\n".to_vec(), &oracle, EvalOptions::default());
        DeadDeclarations::new(1000).run(&mut driver).unwrap();
        assert_eq!(driver.report().eval.tests_run, 0);
        let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let mut driver = Driver::new(binary, &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut driver).unwrap();
        assert_eq!(driver.report().eval.tests_run, 0);
    }

    #[test]
    fn a_round_that_removes_nothing_ends_the_pass_on_a_tiny_input() {
        // Below ROUND_SHARE bytes a share of the input is 0 bytes: the pass must still stop.
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let oracle = FnOracle::new(|b: &[u8]| {
                b.windows(4).any(|w| w == b"a5 =") && b.windows(4).any(|w| w == b"a7 =")
            });
            let input: Vec<u8> = (0..10)
                .flat_map(|i| format!("int a{i} = 1;\n").into_bytes())
                .collect();
            let mut driver = Driver::new(input, &oracle, EvalOptions::default());
            DeadDeclarations::new(0).run(&mut driver).unwrap();
            let _ = done.send(driver.best().to_vec());
        });
        let best = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the pass ends");
        assert_eq!(best, b"int a5 = 1;\nint a7 = 1;\n");
    }

    proptest::proptest! {
        #[test]
        fn any_text_gives_dead_forms_in_order(input in proptest::collection::vec(
            proptest::sample::select(b"ab ;,{}()<>[]=:*~#\n\"".to_vec()), 0..300)) {
            let (forms, dead) = dead_forms(&input, &HashSet::new());
            for w in dead.windows(2) {
                proptest::prop_assert!(w[0] < w[1]);
            }
            proptest::prop_assert!(dead.last().is_none_or(|&i| i < forms.len()));
        }

        #[test]
        fn a_head_is_read_the_same_from_the_tokens_kept(words in proptest::collection::vec(
            proptest::sample::select(vec![
                "enum", "typedef", "class", "A", "b", "x", "::", "<", ">", ";", "{", "}", "(",
                ")", "[", "]", ",", "*", "=", "int", " ",
            ]), 0..120)) {
            // Ended as a declaration, so that its head is read.
            let input = (words.concat() + ";").into_bytes();
            let all: Vec<Tok> = crate::lex::lexemes(&input)
                .filter(|l| !matches!(l.class, Class::Space | Class::Comment))
                .map(|l| Tok { class: l.class, text: &input[l.start..l.end], at: l.start })
                .collect();
            let mut kept = HeadTokens::default();
            for &t in &all {
                kept.push(t);
            }
            let (a, b) = (declared(&all), declared(&kept.toks));
            proptest::prop_assert_eq!(a.names, b.names);
            proptest::prop_assert_eq!(a.owner, b.owner);
            proptest::prop_assert_eq!(a.body, b.body);
        }

        #[test]
        fn each_word_is_given_the_innermost_form_around_it(words in proptest::collection::vec(
            proptest::sample::select(vec![
                "class", "struct", "A", "b", "public", ":", ";", "{", "}", "(", ")", ",",
                "int", "=", "\n", " ",
            ]), 0..200)) {
            let input = words.concat().into_bytes();
            let mut ix = Index::default();
            scan(&input, 0, input.len(), None, 0, &mut ix);
            let mut seen = Vec::new();
            each_word(&input, &ix.forms, |form, word| seen.push((form, word.as_ptr())));
            let expected: Vec<_> = crate::lex::lexemes(&input)
                .filter(|l| l.class == Class::Word)
                .map(|l| {
                    // Forms nest, so the innermost is the last one in order around the word.
                    let form = ix
                        .forms
                        .iter()
                        .rposition(|f| f.start as usize <= l.start && l.start < f.end as usize)
                        .map(|i| i as u32);
                    (form, input[l.start..].as_ptr())
                })
                .collect();
            proptest::prop_assert_eq!(seen, expected);
        }
    }
}
