//! The one model of an input's nesting, built once per input and read by every pass that needs it.
//!
//! Main type: [`Nesting`], built from one lexing of the input ([`crate::text::lex`]) and one pairing
//! of its brackets. It offers two views of the same lexemes and pairs:
//!
//! - *groups and sequences*, which the sweeps over structure read (hollow, hoist, sibling runs,
//!   expressions) and which decide whether an input has nesting at all (the `Groups` gate). A
//!   *group* is a pair of matching delimiters with what lies between them: brackets (`(..)`,
//!   `[..]`, `{..}`) or a markup element (`<item id="x">..</item>`, start and end tag paired by
//!   name). An *element* is a group, a lone tag (`<br/>`, `<!-- .. -->`, `<?xml ..?>`), or any
//!   other lexeme but whitespace; a *sequence* is the elements directly inside one group (or at
//!   the top level). A bracket group's *term* is the group with the word right before it
//!   (`f(x)`, `a[i]`), the unit a call or an index is kept or dropped as.
//! - the *inferred tree* ([`Nesting::inferred`], built on first use from the same lexemes and
//!   bracket pairs, see [`super::infer`]), which the tree policies read: lines nested by
//!   indentation, items cut by separators, bracket groups.
//!
//! Every position is a byte offset of the input. A [`crate::driver::Driver`] keeps the nesting of its
//! best and hands the same one to every pass until the best changes, so a round builds it once
//! per distinct best however many passes and gates read it.
//!
//! ```
//! use myhill::tree::Nesting;
//! let n = Nesting::new(b"<a><b>(x)</b></a>");
//! assert_eq!(n.groups().len(), 3);
//! assert!(n.is_structured());
//! // The tree knows no tags: every lexeme is a unit of its own, `(x)` its one group.
//! assert_eq!(n.inferred().unwrap().units.len(), 17);
//! ```
//!
//! Limits: the two views differ on markup. The groups read tags by shape (`<` then a name,
//! `</`, `<!`, `<?`, up to the next `>` outside quotes), so a comparison `a<b` followed later by
//! a `>` (`if (a<b) { x = c>d; }`) passes for a tag, and brackets inside a tag, or crossing an
//! element (`<a>(</a>)`), are not groups. The tree knows no tags: every bracket pair is a group
//! of the tree, and markup elements are not. On every text input of the corpus the two views
//! hold the same bracket groups (notes/trees.md); making them one reading would change what
//! the tree passes or the sweeps propose, so it is left to a measured change.

use super::{Inferred, infer};
use crate::lex::{Class, Lexeme, lex, pair_brackets};
use std::sync::{Arc, OnceLock};

/// What delimits a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Delim {
    /// A bracket pair, by its opening bracket: `(`, `[` or `{`.
    Bracket(u8),
    /// A start tag and its end tag.
    Tag,
}

/// One group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The opening delimiter's bytes, `start..end`.
    pub open: (usize, usize),
    /// The closing delimiter's bytes, `start..end`.
    pub close: (usize, usize),
    /// Brackets or tags.
    pub delim: Delim,
    /// The enclosing group, if any.
    pub parent: Option<usize>,
    /// Where the group's term starts: the word right before an opening bracket, if there is
    /// one, else the opening delimiter itself.
    pub term_start: usize,
}

impl Group {
    /// Where the group starts.
    pub fn start(&self) -> usize {
        self.open.0
    }

    /// Where the group ends.
    pub fn end(&self) -> usize {
        self.close.1
    }

    /// What lies between the delimiters.
    pub fn inside(&self) -> (usize, usize) {
        (self.open.1, self.close.0)
    }
}

/// The nesting of one input: its lexemes, bracket pairs, groups and sequences, and the tree
/// inferred from them (see the module doc).
#[derive(Debug)]
pub struct Nesting {
    input: Arc<Vec<u8>>,
    /// Every lexeme, whitespace included.
    lexemes: Vec<Lexeme>,
    /// Per lexeme, the bracket it pairs with.
    partner: Vec<Option<usize>>,
    /// Built on first use.
    inferred: OnceLock<Option<Inferred>>,
    groups: Vec<Group>,
    /// How many markup tags stand alone (self-closing, comments, declarations).
    lone_tags: usize,
    /// Per sequence (index 0: the top level; `g + 1`: inside group `g`), its elements' byte
    /// ranges in order.
    sequences: Vec<Vec<(usize, usize)>>,
}

/// The byte ranges of a sequence's elements, in order.
type Sequence = Vec<(usize, usize)>;

/// An opening and a closing delimiter's bytes, and what they are.
type Pair = ((usize, usize), (usize, usize), Delim);

/// A markup tag: its bytes and, for a start or end tag, its name.
#[derive(Clone, Debug)]
struct Tag {
    span: (usize, usize),
    kind: TagKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum TagKind {
    Start(Vec<u8>),
    End(Vec<u8>),
    /// Self-closing, comment, declaration, processing instruction: one element on its own.
    Lone,
}

/// The tags among `lexemes`: `<` then a name, `/`, `!` or `?`, up to the next `>` that is
/// not inside a literal (a comment runs to `-->`).
fn tags(input: &[u8], lexemes: &[Lexeme]) -> Vec<Tag> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lexemes.len() {
        let l = lexemes[i];
        let next = lexemes.get(i + 1).filter(|n| n.start == l.end);
        let opener = l.class == Class::Punct(b'<')
            && next.is_some_and(|n| {
                n.class == Class::Word || matches!(n.class, Class::Punct(b'/' | b'!' | b'?'))
            });
        if !opener {
            i += 1;
            continue;
        }
        let comment = input[l.start..].starts_with(b"<!--");
        let close = if comment {
            input[l.start + 4..]
                .windows(3)
                .position(|w| w == b"-->")
                .map(|k| l.start + 4 + k + 3)
                .and_then(|end| lexemes.iter().position(|m| m.end == end).map(|j| (j, end)))
        } else {
            lexemes[i + 1..]
                .iter()
                .position(|m| matches!(m.class, Class::Punct(b'>' | b'<')))
                .map(|k| i + 1 + k)
                .filter(|&j| lexemes[j].class == Class::Punct(b'>'))
                .map(|j| (j, lexemes[j].end))
        };
        let Some((j, end)) = close else {
            i += 1;
            continue;
        };
        let body = &input[l.start + 1..end - 1];
        let name = |from: &[u8]| -> Vec<u8> {
            from.iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.'))
                .copied()
                .collect()
        };
        let kind = match body.first() {
            Some(b'/') => TagKind::End(name(&body[1..])),
            Some(b'!' | b'?') => TagKind::Lone,
            _ if body.ends_with(b"/") => TagKind::Lone,
            _ => TagKind::Start(name(body)),
        };
        out.push(Tag {
            span: (l.start, end),
            kind,
        });
        i = j + 1;
    }
    out
}

impl Nesting {
    /// The nesting of `input` (a copy of it is kept for the tree).
    pub fn new(input: &[u8]) -> Nesting {
        Nesting::of(Arc::new(input.to_vec()))
    }

    /// The largest input whose nesting is read (2 MiB). A larger one is read as flat: no
    /// lexemes, no groups, no tree, so the passes over structure wait until the chunk passes
    /// and the line splits bring the best below it. Lexemes, pairs, groups, the tree and
    /// T-PDD's beliefs cost about 50 bytes of memory per input byte (notes/benchmarks.md): a
    /// 2 MiB best takes about 100 MB, so an input of 9 MB and more stays within the bound of
    /// four times the input plus 64 MB (a 50 MB one within its 264 MB); inputs of 1 to 9 MB
    /// may pass it by a few tens of MB while their tree lives.
    pub const MAX_BYTES: usize = 2 << 20;

    /// The nesting of `input`, shared rather than copied.
    pub fn of(input: Arc<Vec<u8>>) -> Nesting {
        if input.len() > Self::MAX_BYTES {
            let (groups, lone_tags, sequences) = groups_and_sequences(&input, &[], &[]);
            return Nesting {
                input,
                lexemes: Vec::new(),
                partner: Vec::new(),
                inferred: OnceLock::from(None),
                groups,
                lone_tags,
                sequences,
            };
        }
        let lexemes: Vec<Lexeme> = lex(&input);
        let partner = pair_brackets(&lexemes);
        let (groups, lone_tags, sequences) = groups_and_sequences(&input, &lexemes, &partner);
        Nesting {
            input,
            lexemes,
            partner,
            inferred: OnceLock::new(),
            groups,
            lone_tags,
            sequences,
        }
    }

    /// The input.
    pub fn input(&self) -> &[u8] {
        &self.input
    }

    /// Every lexeme of the input, whitespace included, in order.
    pub fn lexemes(&self) -> &[Lexeme] {
        &self.lexemes
    }

    /// The tree inferred from the input (built on the first call); `None` for an empty input.
    pub fn inferred(&self) -> Option<&Inferred> {
        self.inferred
            .get_or_init(|| infer::from_lexemes(&self.input, &self.lexemes, &self.partner))
            .as_ref()
    }

    /// Whether the input has any nesting at all: a group, or a markup tag.
    pub fn is_structured(&self) -> bool {
        !self.groups.is_empty() || self.lone_tags > 0
    }

    /// Every group, outer ones before the groups inside them.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every sequence of elements: the top level first, then the inside of each group.
    pub fn sequences(&self) -> &[Vec<(usize, usize)>] {
        &self.sequences
    }

    /// The groups inside `g` with the same delimiter that no other such group between them
    /// encloses (the nearest ones on each path down), in order.
    pub fn nearest_alike(&self, g: usize) -> Vec<usize> {
        let delim = self.groups[g].delim;
        (g + 1..self.groups.len())
            .take_while(|&d| self.groups[d].start() < self.groups[g].end())
            .filter(|&d| self.groups[d].delim == delim)
            .filter(|&d| {
                let mut at = self.groups[d].parent;
                while let Some(p) = at {
                    if p == g {
                        return true;
                    }
                    if self.groups[p].delim == delim {
                        return false;
                    }
                    at = self.groups[p].parent;
                }
                false
            })
            .collect()
    }
}

/// The groups (outer first), how many lone tags, and the sequences of `input`, whose
/// `lexemes` pair as `partner` says.
fn groups_and_sequences(
    input: &[u8],
    lexemes: &[Lexeme],
    partner: &[Option<usize>],
) -> (Vec<Group>, usize, Vec<Sequence>) {
    let tags = tags(input, lexemes);
    // Pairs of delimiters, not yet checked for crossing.
    let mut pairs = bracket_pairs_outside_tags(lexemes, partner, &tags);
    let mut lone = tag_pairs(&tags, &mut pairs);
    let kept = uncrossed(pairs);
    lone.sort();
    let (groups, sequences) = walk(input, lexemes, &kept, &lone);
    (groups, lone.len(), sequences)
}

/// The bracket pairs of `lexemes` neither of whose brackets stands inside a tag.
fn bracket_pairs_outside_tags(
    lexemes: &[Lexeme],
    partner: &[Option<usize>],
    tags: &[Tag],
) -> Vec<Pair> {
    let mut in_tag = vec![false; lexemes.len()];
    let mut t = 0;
    for (k, l) in lexemes.iter().enumerate() {
        while t < tags.len() && tags[t].span.1 <= l.start {
            t += 1;
        }
        in_tag[k] = t < tags.len() && tags[t].span.0 <= l.start;
    }
    let mut pairs = Vec::new();
    for (k, l) in lexemes.iter().enumerate() {
        if let (Class::Punct(b), Some(p)) = (l.class, partner[k])
            && p > k
            && !in_tag[k]
            && !in_tag[p]
        {
            pairs.push((
                (l.start, l.end),
                (lexemes[p].start, lexemes[p].end),
                Delim::Bracket(b),
            ));
        }
    }
    pairs
}

/// Pairs each end tag with the nearest open start tag of its name (into `pairs`); the lone
/// tags: self-closing and the like, end tags that close nothing, start tags never closed or
/// left open inside an element.
fn tag_pairs(tags: &[Tag], pairs: &mut Vec<Pair>) -> Vec<(usize, usize)> {
    let mut open_tags: Vec<&Tag> = Vec::new();
    let mut lone: Vec<(usize, usize)> = Vec::new();
    for tag in tags {
        match &tag.kind {
            TagKind::Start(_) => open_tags.push(tag),
            TagKind::End(name) => {
                match open_tags
                    .iter()
                    .rposition(|t| t.kind == TagKind::Start(name.clone()))
                {
                    Some(at) => {
                        // Start tags left open inside this element are lone tags.
                        for t in open_tags.drain(at + 1..) {
                            lone.push(t.span);
                        }
                        let start = open_tags.pop().expect("found above");
                        pairs.push((start.span, tag.span, Delim::Tag));
                    }
                    None => lone.push(tag.span),
                }
            }
            TagKind::Lone => lone.push(tag.span),
        }
    }
    lone.extend(open_tags.iter().map(|t| t.span));
    lone
}

/// `pairs` outer first, a pair crossing an earlier one dropped.
fn uncrossed(mut pairs: Vec<Pair>) -> Vec<Pair> {
    pairs.sort_by_key(|&(open, close, _)| (open.0, std::cmp::Reverse(close.1)));
    let mut kept: Vec<Pair> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for pair in pairs {
        while stack.last().is_some_and(|&s| kept[s].1.1 <= pair.0.0) {
            stack.pop();
        }
        if stack.last().is_some_and(|&s| pair.1.1 > kept[s].1.0) {
            continue;
        }
        stack.push(kept.len());
        kept.push(pair);
    }
    kept
}

/// The walk over the input in order that makes the groups and sequences: group boundaries,
/// lone tags, and the other lexemes.
struct Walk<'a> {
    input: &'a [u8],
    lexemes: &'a [Lexeme],
    groups: Vec<Group>,
    sequences: Vec<Sequence>,
    /// The groups open around the lexeme at hand.
    open: Vec<usize>,
    /// The lexeme at hand.
    k: usize,
    /// The word right before it, if the lexeme before it (whitespace aside) is one.
    last_word: Option<(usize, usize)>,
}

/// The groups and sequences of `input`, whose uncrossed pairs are `kept` (outer first) and
/// whose lone tags are `lone` (sorted).
fn walk(
    input: &[u8],
    lexemes: &[Lexeme],
    kept: &[Pair],
    lone: &[(usize, usize)],
) -> (Vec<Group>, Vec<Sequence>) {
    let mut w = Walk {
        input,
        lexemes,
        groups: Vec::new(),
        sequences: vec![Vec::new()],
        open: Vec::new(),
        k: 0,
        last_word: None,
    };
    let mut next_pair = 0;
    let mut next_lone = 0;
    while w.k < lexemes.len() {
        let l = lexemes[w.k];
        if let Some(&g) = w.open.last()
            && l.start == w.groups[g].close.0
        {
            w.close_group(g);
            continue;
        }
        while next_pair < kept.len() && kept[next_pair].0.0 < l.start {
            next_pair += 1; // inside something already taken whole: not a group
        }
        if next_pair < kept.len() && l.start == kept[next_pair].0.0 {
            w.open_group(kept[next_pair]);
            next_pair += 1;
            continue;
        }
        if next_lone < lone.len() && l.start == lone[next_lone].0 {
            w.element_to(lone[next_lone]);
            next_lone += 1;
            continue;
        }
        if l.class != Class::Space {
            let here = w.here();
            w.sequences[here].push((l.start, l.end));
            w.last_word = (l.class == Class::Word).then_some((l.start, l.end));
        }
        w.k += 1;
    }
    (w.groups, w.sequences)
}

impl Walk<'_> {
    /// The sequence the lexeme at hand is in.
    fn here(&self) -> usize {
        self.open.last().map_or(0, |&p| p + 1)
    }

    /// Skips the lexemes before `end`.
    fn skip_to(&mut self, end: usize) {
        while self.k < self.lexemes.len() && self.lexemes[self.k].start < end {
            self.k += 1;
        }
    }

    /// At group `g`'s closing delimiter: skips its lexemes, the group becomes an element.
    fn close_group(&mut self, g: usize) {
        let group = self.groups[g];
        self.open.pop();
        let parent = self.here();
        self.sequences[parent].push((group.start(), group.end()));
        self.skip_to(group.close.1);
        self.last_word = None;
    }

    /// At an opening delimiter: a new group, its term starting at the word right before an
    /// opening bracket (only spaces or tabs between).
    fn open_group(&mut self, (o, c, delim): Pair) {
        let term_start = match (delim, self.last_word) {
            (Delim::Bracket(_), Some((ws, we)))
                if self.input[we..o.0]
                    .iter()
                    .all(|b| *b == b' ' || *b == b'\t') =>
            {
                ws
            }
            _ => o.0,
        };
        self.groups.push(Group {
            open: o,
            close: c,
            delim,
            parent: self.open.last().copied(),
            term_start,
        });
        self.open.push(self.groups.len() - 1);
        self.sequences.push(Vec::new());
        self.skip_to(o.1);
        self.last_word = None;
    }

    /// At a lone tag: one element of the sequence at hand.
    fn element_to(&mut self, span: (usize, usize)) {
        let here = self.here();
        self.sequences[here].push(span);
        self.skip_to(span.1);
        self.last_word = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(input: &[u8], span: (usize, usize)) -> String {
        String::from_utf8_lossy(&input[span.0..span.1]).into_owned()
    }

    #[test]
    fn groups_terms_and_sequences() {
        let input = b"f(g (x), [1]) y";
        let s = Nesting::new(input);
        let spans: Vec<String> = s
            .groups()
            .iter()
            .map(|g| text(input, (g.term_start, g.end())))
            .collect();
        assert_eq!(spans, ["f(g (x), [1])", "g (x)", "[1]"]);
        let top: Vec<String> = s.sequences()[0].iter().map(|&e| text(input, e)).collect();
        assert_eq!(top, ["f", "(g (x), [1])", "y"]);
        let inside_f: Vec<String> = s.sequences()[1].iter().map(|&e| text(input, e)).collect();
        assert_eq!(inside_f, ["g", "(x)", ",", "[1]"]);
        assert_eq!(s.groups()[1].parent, Some(0));
    }

    #[test]
    fn the_nearest_alike_groups_stop_at_the_first_on_each_path() {
        let input = b"{a:{b:{c:1}}, d:[{e:2}]}";
        let s = Nesting::new(input);
        let near: Vec<String> = s
            .nearest_alike(0)
            .iter()
            .map(|&d| text(input, (s.groups()[d].start(), s.groups()[d].end())))
            .collect();
        assert_eq!(near, ["{b:{c:1}}", "{e:2}"]);
    }

    #[test]
    fn markup_elements_are_groups_and_lone_tags_are_elements() {
        let input = br#"<?xml v="1"?><a x="<">t (1)<b/><!-- c > --><c>u</c></a>"#;
        let s = Nesting::new(input);
        let groups: Vec<(String, Delim)> = s
            .groups()
            .iter()
            .map(|g| (text(input, (g.start(), g.end())), g.delim))
            .collect();
        assert_eq!(
            groups,
            [
                (
                    r#"<a x="<">t (1)<b/><!-- c > --><c>u</c></a>"#.to_string(),
                    Delim::Tag
                ),
                ("(1)".to_string(), Delim::Bracket(b'(')),
                ("<c>u</c>".to_string(), Delim::Tag),
            ]
        );
        let inside_a: Vec<String> = s.sequences()[1].iter().map(|&e| text(input, e)).collect();
        assert_eq!(inside_a, ["t", "(1)", "<b/>", "<!-- c > -->", "<c>u</c>"]);
        let top: Vec<String> = s.sequences()[0].iter().map(|&e| text(input, e)).collect();
        assert_eq!(top[0], r#"<?xml v="1"?>"#);
    }

    #[test]
    fn a_comparison_read_as_a_tag_hides_brackets_from_the_groups_not_from_the_tree() {
        let n = Nesting::new(b"if (a<b) { x = c>d; }");
        assert_eq!(n.groups().len(), 0);
        let tree = &n.inferred().unwrap().tree;
        let groups = (0..tree.len() as u32)
            .filter(|&i| tree.rule_name(tree.kind(crate::tree::NodeId(i))) == Some("group"))
            .count();
        assert_eq!(groups, 2);
    }

    #[test]
    fn crossing_pairs_are_not_groups() {
        let s = Nesting::new(b"<a>(</a>)");
        assert_eq!(s.groups().len(), 1);
    }

    #[test]
    fn an_input_above_the_limit_is_read_as_flat() {
        let line = b"int f(int x) { return g(x); }\n";
        let mut input = line.repeat(Nesting::MAX_BYTES / line.len());
        let below = Nesting::new(&input);
        assert!(below.is_structured() && below.inferred().is_some());
        input.extend_from_slice(line);
        let above = Nesting::new(&input);
        assert!(!above.is_structured());
        assert!(above.lexemes().is_empty() && above.groups().is_empty());
        assert!(above.inferred().is_none());
        assert_eq!(above.sequences().len(), 1);
    }
}
