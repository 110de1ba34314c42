//! What the forms of statement code declare and mention: the index that `chunks/dead` and
//! `chunks/roots` read to find forms nobody needs, and the class members `chunks/members`
//! deletes runs of.
//!
//! Main items: [`Index`] (built by [`Index::of`]): the top-level [`Form`]s of an input (cut by
//! [`crate::tree::forms`]) and, inside every class, struct or union definition down to
//! [`MEMBER_DEPTH`], its members, each with the names its head declares ([`Declared`]);
//! [`each_word`], every word with the form it stands in, read in a second lexing pass;
//! [`class_members`], the members of each class; and [`nameless_forms`], the forms that
//! declare no name.
//!
//! ```text
//! struct A { int x; };     declares A; its member `int x;` declares x
//! int f(A a) {}            declares f, mentions A
//! template<..> bool operator==(..) {..}   declares nothing (an operator)
//! ```
//!
//! Limits: names are read by shape from a declaration's head, not by a grammar, and matched
//! by spelling whatever their scope; operator definitions and heads this cannot read declare
//! nothing.

use crate::eval::content_key;
use crate::lex::{Class, Pairing, is_space, lexemes, pair_classes};
use crate::tree::{Form, forms};

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
pub(super) struct Declared<'a> {
    pub(super) names: Vec<&'a [u8]>,
    pub(super) owner: Option<&'a [u8]>,
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
/// `name<..>` are left out). Stops at an argument list that does not close. `partner` pairs
/// the brackets of `toks` ([`pair_classes`]).
fn top(toks: &[Tok], partner: &[Option<usize>]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.class {
            Class::Punct(b'(' | b'[' | b'{') => {
                out.push(i);
                i = close_of(partner, i);
            }
            Class::Punct(b'<')
                if out.last().is_some_and(|&p| {
                    toks[p].class == Class::Word && toks[p].text != b"operator"
                }) =>
            {
                match angles_end(toks, partner, i) {
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

/// The index after the group opened at `open`: past its closing bracket, or the end when it
/// does not close.
fn close_of(partner: &[Option<usize>], open: usize) -> usize {
    partner[open].map_or(partner.len(), |p| p + 1)
}

/// The index after the `>` closing the argument list opened at `open`, if it closes before
/// any `;` and before the closing bracket of a group around it.
fn angles_end(toks: &[Tok], partner: &[Option<usize>], open: usize) -> Option<usize> {
    let mut angles = 0usize;
    let mut j = open;
    while j < toks.len() {
        match toks[j].class {
            Class::Punct(b'(' | b'[' | b'{') => {
                let end = close_of(partner, j);
                if toks[j..end].iter().any(|t| is_punct(t, b';')) {
                    return None;
                }
                j = end;
                continue;
            }
            Class::Punct(b')' | b']' | b'}' | b';') => return None,
            Class::Punct(b'<') => angles += 1,
            Class::Punct(b'>') => {
                angles -= 1;
                if angles == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
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
    let partner = pair_classes(toks.iter().map(|t| t.class));
    let z = top(toks, &partner);
    if z.iter().any(|&i| is_word(&toks[i], b"operator")) {
        return out;
    }
    let z = &z[leading_end(toks, &z)..];
    let Some(&first) = z.first() else { return out };
    let first = toks[first];
    if first.class != Class::Word {
        return out;
    }
    let head = Head {
        toks,
        partner: &partner,
        z,
    };
    let brace = head.find(b'{');
    let paren = head.find(b'(');
    match first.text {
        b"typedef" => out.names.extend(head.typedef_name(paren)),
        b"using" => out.names.extend(head.using_name()),
        b"class" | b"struct" | b"union" | b"enum" if brace.is_some() || paren.is_none() => {
            out.names.extend(head.tag_name());
            match brace {
                Some(b) if first.text == b"enum" => out.names.extend(head.enumerators(b)),
                Some(b) => out.body = head.body(b),
                None => {}
            }
        }
        _ => {
            if let Some(k) = head.declarator(paren.is_some())
                && let Some(name) = name_word(&toks[z[k]])
            {
                out.names.push(name);
                out.owner = owner_at(toks, z, k);
            }
        }
    }
    out
}

/// Where a head's top starts after its leading specifiers, template heads, linkage and
/// attributes.
fn leading_end(toks: &[Tok], z: &[usize]) -> usize {
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
    s
}

/// A declaration's head past its leading specifiers: its tokens, and the indices of its top
/// ([`top`]), the first one the word that says what it declares.
struct Head<'t, 'a> {
    toks: &'t [Tok<'a>],
    partner: &'t [Option<usize>],
    z: &'t [usize],
}

impl<'a> Head<'_, 'a> {
    /// The position in the top of the first `b`.
    fn find(&self, b: u8) -> Option<usize> {
        self.z.iter().position(|&i| is_punct(&self.toks[i], b))
    }

    /// The last word before the last of the top, or before its `;`.
    fn last_name(&self, end: usize) -> Option<&'a [u8]> {
        self.z[..end]
            .iter()
            .rev()
            .find_map(|&i| name_word(&self.toks[i]))
    }

    /// The name a `typedef` declares: its last word, or in `typedef int (*name)(int);` the
    /// word inside the first group.
    fn typedef_name(&self, paren: Option<usize>) -> Option<&'a [u8]> {
        let (toks, z) = (self.toks, self.z);
        let end = self.find(b';').unwrap_or(z.len());
        let last = self.last_name(end);
        let inner = paren.and_then(|p| {
            let p = z[p];
            (toks.get(p + 1).is_some_and(|t| is_punct(t, b'*')))
                .then(|| toks.get(p + 2).and_then(name_word))
                .flatten()
        });
        let z_last = z[..end].last().map(|&i| toks[i]);
        if z_last.is_some_and(|t| is_punct(&t, b'(')) {
            inner
        } else {
            last.or(inner)
        }
    }

    /// The name a `using` declares: the alias of `using a = ..;`, the last word of
    /// `using std::swap;`, none for `using namespace`.
    fn using_name(&self) -> Option<&'a [u8]> {
        let (toks, z) = (self.toks, self.z);
        if z.get(1).is_some_and(|&i| is_word(&toks[i], b"namespace")) {
            return None;
        }
        if z.get(2).is_some_and(|&i| is_punct(&toks[i], b'=')) {
            name_word(&toks[z[1]])
        } else {
            self.find(b';').and_then(|end| self.last_name(end))
        }
    }

    /// The name after a class, struct, union or enum key (and `class` of `enum class`),
    /// attributes skipped; the last of a qualified chain.
    fn tag_name(&self) -> Option<&'a [u8]> {
        let (toks, z) = (self.toks, self.z);
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
        name
    }

    /// Where the braces of a class, struct or union body whose `{` is the top's `b` start,
    /// when the body closes.
    fn body(&self, b: usize) -> Option<(usize, usize)> {
        let toks = self.toks;
        let close = close_of(self.partner, self.z[b]) - 1;
        is_punct(&toks[close], b'}').then(|| (toks[self.z[b]].at, toks[close].at))
    }

    /// The enumerators of an enum whose `{` is the top's `b`: words followed by `=`, `,` or
    /// the closing brace.
    fn enumerators(&self, b: usize) -> Vec<&'a [u8]> {
        let toks = self.toks;
        let open = self.z[b];
        let close = close_of(self.partner, open) - 1;
        let mut names = Vec::new();
        let mut j = open + 1;
        while j < close {
            match toks[j].class {
                Class::Punct(b'(' | b'[' | b'{') => {
                    j = close_of(self.partner, j);
                    continue;
                }
                Class::Word => {
                    let next = &toks[j + 1];
                    if j + 1 == close || is_punct(next, b'=') || is_punct(next, b',') {
                        names.extend(name_word(&toks[j]));
                    }
                }
                _ => {}
            }
            j += 1;
        }
        names
    }

    /// The position in the top of the name a function or variable declares: the word before
    /// the first `(` that is not an attribute or operand of `decltype`, `sizeof` and the like;
    /// else, with no `(` on top, the word before the first `=`, `;`, `[`, `{` or `,`.
    fn declarator(&self, has_paren: bool) -> Option<usize> {
        let (toks, z) = (self.toks, self.z);
        let call = z.iter().enumerate().position(|(k, &i)| {
            is_punct(&toks[i], b'(')
                && k >= 1
                && toks[z[k - 1]].class == Class::Word
                && !NOT_FUNCTIONS.contains(&toks[z[k - 1]].text)
        });
        match call {
            Some(k) => Some(k - 1),
            None if !has_paren => z
                .iter()
                .position(|&i| {
                    matches!(
                        toks[i].class,
                        Class::Punct(b'=' | b';' | b'[' | b'{' | b',')
                    )
                })
                .and_then(|k| k.checked_sub(1)),
            None => None,
        }
    }
}

/// How deep class bodies are opened to the index: the members of a top-level class, of a
/// class inside it, and of one more level. Each level lexes its bodies once more, so the
/// index costs at most this many passes over the input more.
pub(super) const MEMBER_DEPTH: usize = 3;

/// The forms of one best and what they declare and mention: the top-level forms and, inside
/// every class, struct or union definition, its members, in input order (a class before its
/// members).
#[derive(Default)]
pub(super) struct Index<'a> {
    pub(super) forms: Vec<Form>,
    /// The class each form is a member of.
    pub(super) parent: Vec<Option<u32>>,
    /// What each form declares.
    pub(super) heads: Vec<Declared<'a>>,
    /// The first sequence id not used yet.
    next_seq: u32,
}

impl<'a> Index<'a> {
    /// The index of `input`: its top-level forms, the members of its classes down to
    /// [`MEMBER_DEPTH`] and what each declares (its words: [`each_word`]).
    pub(super) fn of(input: &'a [u8]) -> Index<'a> {
        let mut ix = Index::default();
        scan(input, 0, input.len(), None, 0, &mut ix);
        ix
    }
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
    while at < text.len() && is_space(text[at]) {
        at += 1;
    }
    if text.get(at) != Some(&b':') || text.get(at + 1) == Some(&b':') {
        return None;
    }
    at += 1;
    while at < text.len() && is_space(text[at]) {
        at += 1;
    }
    Some(start + at)
}

/// Adds to `ix` the forms of `input[lo..hi]` (the top level, or the inside of class `parent`'s
/// braces at nesting `depth`) and their heads; opens class bodies down to
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
    // ends: only one form's tokens are held at a time, not the input's (40 bytes a token),
    // and of those only the ones its head is read from (see [`HeadTokens`]).
    let mut toks = HeadTokens::default();
    let mut f = 0usize;
    for l in lexemes(&input[lo..hi]) {
        if matches!(l.class, Class::Space | Class::Comment) {
            continue;
        }
        let at = lo + l.start;
        while f < local.len() && at >= local[f].end as usize {
            toks.finish();
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
        toks.finish();
        index_form(input, local[f], &toks.toks, parent, depth, ix);
        toks.clear();
        f += 1;
    }
}

/// The tokens of one form that [`declared`] reads: those outside every bracket group and
/// those directly inside one (an enum's enumerators, `typedef int (*name)(..)`), each group
/// kept as its brackets, and the form's last token (the end it is told a declaration by).
/// What is deeper (the statements of a body's inner blocks) stands as its first `;` alone,
/// which is all [`angles_end`] looks for there. Depth is counted by the pairing rule of
/// [`pair_classes`], so the brackets kept pair as they do among all the tokens: [`declared`]
/// reads the same from these as from all the form's tokens, and a large form holds a
/// fraction of them.
#[derive(Default)]
struct HeadTokens<'a> {
    toks: Vec<Tok<'a>>,
    pairing: Pairing,
    /// Whether the stretch being left out (deeper than one bracket) kept its first `;`.
    semicolon: bool,
    /// The last token fed, when it was left out.
    dropped_last: Option<Tok<'a>>,
}

impl<'a> HeadTokens<'a> {
    fn push(&mut self, t: Tok<'a>) {
        let before = self.pairing.depth();
        self.pairing.feed(t.class, t.at);
        // An opener stands at the depth around it, a closer at the depth it leaves.
        let stands_at = before.min(self.pairing.depth());
        self.dropped_last = None;
        if stands_at <= 1 {
            self.toks.push(t);
            self.semicolon = false;
        } else if is_punct(&t, b';') && !self.semicolon {
            self.toks.push(t);
            self.semicolon = true;
        } else {
            self.dropped_last = Some(t);
        }
    }

    /// Ends the form: keeps its last token if it was left out.
    fn finish(&mut self) {
        self.toks.extend(self.dropped_last.take());
    }

    /// Empties it for the next form, keeping the allocation.
    fn clear(&mut self) {
        self.toks.clear();
        self.pairing = Pairing::default();
        self.semicolon = false;
        self.dropped_last = None;
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
/// top-level forms). `forms` are an [`Index`]'s: in input order, each class's members right
/// after it and inside it, so the forms open at a point are a stack, and a word in a class's
/// body between its members is the class's. A second lexing pass instead of a list of every
/// word, which would take 24 bytes a word.
pub(super) fn each_word<'a>(
    input: &'a [u8],
    forms: &[Form],
    mut f: impl FnMut(Option<u32>, &'a [u8]),
) {
    let mut next = 0usize;
    let mut open: Vec<usize> = Vec::new();
    for l in lexemes(input) {
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
    let ix = Index::of(input);
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

/// The forms of `input` (as the dead list of `chunks/dead` cuts them) that declare no name, in order:
/// operators, explicit instantiations, assertions, heads this index cannot read. No form
/// can mention them, so they are roots of the mention graph with the dead forms. A member of
/// a listed class and an access label are not listed.
pub(super) fn nameless_forms(input: &[u8]) -> (Vec<Form>, Vec<usize>) {
    let ix = Index::of(input);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(src: &str) -> (Vec<String>, Option<String>) {
        let toks: Vec<Tok> = lexemes(src.as_bytes())
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

    fn all_tokens(input: &[u8]) -> Vec<Tok<'_>> {
        lexemes(input)
            .filter(|l| !matches!(l.class, Class::Space | Class::Comment))
            .map(|l| Tok {
                class: l.class,
                text: &input[l.start..l.end],
                at: l.start,
            })
            .collect()
    }

    fn kept_tokens<'a>(all: &[Tok<'a>]) -> Vec<Tok<'a>> {
        let mut kept = HeadTokens::default();
        for &t in all {
            kept.push(t);
        }
        kept.finish();
        kept.toks
    }

    #[test]
    fn a_head_is_read_from_a_fraction_of_a_large_form() {
        let body = "{ if (x) { y = 1; z = 2; } while (y) { w(); } }";
        let src = format!(
            "struct S {{ int f() {}; enum E {{ a = (1), b }} e; }};",
            body
        );
        let all = all_tokens(src.as_bytes());
        let kept = kept_tokens(&all);
        assert!(
            kept.len() < all.len() - 10,
            "{} of {}",
            kept.len(),
            all.len()
        );
        assert_eq!(declared(&kept), declared(&all));
        // The last token tells a declaration even where it is left out by depth: the `}` of
        // a form whose groups never close.
        let open = "enum E { a ( { }";
        let all = all_tokens(open.as_bytes());
        assert_eq!(declared(&all).names, [b"E"]);
        assert_eq!(declared(&kept_tokens(&all)), declared(&all));
    }

    proptest::proptest! {
        #[test]
        fn a_head_is_read_the_same_from_the_tokens_kept(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "enum", "typedef", "class", "A", "b", "x", "::", "<", ">", ";", "{", "}", "(",
                ")", "[", "]", ",", "*", "=", "int", " ",
            ]), 0..120),
            end in proptest::sample::select(vec![";", "}", ""]),
        ) {
            let input = (words.concat() + end).into_bytes();
            let all = all_tokens(&input);
            proptest::prop_assert_eq!(declared(&kept_tokens(&all)), declared(&all));
        }

        #[test]
        fn each_word_is_given_the_innermost_form_around_it(words in proptest::collection::vec(
            proptest::sample::select(vec![
                "class", "struct", "A", "b", "public", ":", ";", "{", "}", "(", ")", ",",
                "int", "=", "\n", " ",
            ]), 0..200)) {
            let input = words.concat().into_bytes();
            let ix = Index::of(&input);
            let mut seen = Vec::new();
            each_word(&input, &ix.forms, |form, word| seen.push((form, word.as_ptr())));
            let expected: Vec<_> = lexemes(&input)
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
