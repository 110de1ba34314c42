//! Structure inferred from plain bytes, with no grammar: brackets, literals, lines, indentation and separators.
//!
//! Main function: [`infer`], which cuts an input into units (lexemes, each with the whitespace
//! before it) and builds a [`Tree`] over them. A reduction does not call it: it reads the tree
//! of its best's [`super::Nesting`], which builds it with the same code from the lexemes and
//! bracket pairs it already has. The shape, from the top:
//!
//! - the root (`file`) holds one list: the top-level sequence;
//! - a sequence spanning several lines is a list of lines, nested by indentation: a line
//!   followed by more indented lines becomes a `block` rule of the line and a list of those lines;
//! - a line with `;` or `,` separators is a list of items, each ending with its separator;
//! - an item of several elements is a list of them;
//! - an element is a lexeme or a bracket `group` rule `( list )`, `[ list ]` or `{ list }` whose
//!   brackets are mandatory and whose contents are a sequence again.
//!
//! Lexemes are those of [`crate::text::lex`] (words, numbers, whole literals and comments, single
//! punctuation bytes), each leaf taking the whitespace before it. A bracket is a group's only
//! when it pairs with a matching one at the same nesting; others are plain.
//!
//! Why brackets stay balanced: a bracket of a group is a mandatory child of it, never a list
//! element. Every deletion the tree policies make is a whole subtree of a list element
//! (HDD, Perses' list deletions, T-PDD, which only doubts list elements), or a node minus one of
//! its descendants (Perses' replacement); either way a group is kept or dropped with both of
//! its brackets.
//!
//! ```
//! use myhill::text::IdSet;
//! use myhill::tree::infer;
//! let inferred = infer(b"f(a, b);\ng(\"(\");\n").unwrap();
//! assert_eq!(inferred.units.render(&inferred.units.all()), b"f(a, b);\ng(\"(\");\n");
//! let units: Vec<&[u8]> = (0..inferred.units.len() as u32).map(|u| inferred.units.unit(u)).collect();
//! assert_eq!(units[..6], [&b"f"[..], b"(", b"a", b",", b" b", b")"]);
//! assert!(units.contains(&&b"\"(\""[..])); // the literal is one unit
//! assert_eq!(inferred.tree.unit_count(), inferred.units.len());
//! ```
//!
//! Limits: a heuristic, not a parser. Single-quoted strings longer than one character (Python)
//! are not literals, so brackets inside them count; `/` next to `/` after a deletion can start
//! a comment the input did not have. Indentation compares raw whitespace byte counts.

use super::{NodeId, NodeKind, Tree, TreeBuilder};
use crate::lex::{Class, Lexeme, closer_of, lex, pair_brackets};
use crate::units::Units;
use std::sync::Arc;

/// An input's units and the tree inferred over them; unit `i` is leaf `i` of the tree.
#[derive(Clone, Debug)]
pub struct Inferred {
    /// The units: one per lexeme, with the whitespace before it.
    pub units: Units,
    /// The tree; its leaf `i` is unit `i`. Shared, so a policy can hold it.
    pub tree: Arc<Tree>,
}

/// Infers a tree over `input`; `None` for an empty input, which has no units.
pub fn infer(input: &[u8]) -> Option<Inferred> {
    let lexemes = lex(input);
    let partner = pair_brackets(&lexemes);
    from_lexemes(&Arc::new(input.to_vec()), &lexemes, &partner)
}

/// [`infer`] from the input's `lexemes` (every one, whitespace included) and their bracket
/// pairs `partner`. The units share `input`'s bytes.
pub(super) fn from_lexemes(
    input: &Arc<Vec<u8>>,
    lexemes: &[Lexeme],
    partner: &[Option<usize>],
) -> Option<Inferred> {
    if input.is_empty() {
        return None;
    }
    assert!(
        input.len() < u32::MAX as usize,
        "inputs are limited to 4 GiB"
    );
    // Whitespace goes with the lexeme after it: the tree is built over the others. Only
    // whether a bracket pairs matters to the tree, not with which.
    let solid: Vec<Lexeme> = lexemes
        .iter()
        .filter(|l| l.class != Class::Space)
        .copied()
        .collect();
    let paired: Vec<bool> = lexemes
        .iter()
        .zip(partner)
        .filter(|(l, _)| l.class != Class::Space)
        .map(|(_, p)| p.is_some())
        .collect();
    let lexemes = solid;
    let layout = Layout::new(input, &lexemes, paired);
    let mut builder = Builder::new(&lexemes, &layout);
    let root = builder.build();
    let tree = builder
        .tree
        .build(root)
        .expect("inferred trees are well formed");
    let units = Units::tiling(input.clone(), layout.bounds);
    Some(Inferred {
        units,
        tree: Arc::new(tree),
    })
}

/// Where each lexeme sits: where its leaf starts (`bounds`, with the input's end last), whether
/// it starts a line, its indentation, and whether it is a bracket that pairs.
struct Layout {
    bounds: Vec<u32>,
    starts_line: Vec<bool>,
    indent: Vec<u32>,
    paired: Vec<bool>,
}

impl Layout {
    fn new(input: &[u8], lexemes: &[Lexeme], paired: Vec<bool>) -> Layout {
        let n = lexemes.len();
        let mut bounds = Vec::with_capacity(n + 1);
        let mut starts_line = Vec::with_capacity(n);
        let mut indent = Vec::with_capacity(n);
        let mut prev_end = 0;
        for (i, lx) in lexemes.iter().enumerate() {
            // Whitespace belongs to the lexeme after it, so a line takes its indentation along.
            let gap = &input[prev_end..lx.start];
            let after_newline = prev_end > 0 && input[prev_end - 1] == b'\n';
            match gap.iter().rposition(|&b| b == b'\n') {
                Some(k) => {
                    starts_line.push(true);
                    indent.push((gap.len() - k - 1) as u32);
                }
                None => {
                    starts_line.push(i == 0 || after_newline);
                    indent.push(gap.len() as u32);
                }
            }
            bounds.push(prev_end as u32);
            prev_end = lx.end;
        }
        // Trailing whitespace goes with the last lexeme; no lexeme: one leaf of it all.
        if bounds.is_empty() {
            bounds.push(0);
        }
        bounds.push(input.len() as u32);
        Layout {
            bounds,
            starts_line,
            indent,
            paired,
        }
    }
}

/// One element of a sequence: a lexeme's leaf or a whole group.
#[derive(Clone, Copy, Debug)]
struct Element {
    node: NodeId,
    /// The lexeme it starts with (for its line and indentation).
    first: usize,
    separator: bool,
}

struct Builder<'a> {
    lexemes: &'a [Lexeme],
    layout: &'a Layout,
    tree: TreeBuilder,
    file: NodeKind,
    group: NodeKind,
    block: NodeKind,
}

impl<'a> Builder<'a> {
    fn new(lexemes: &'a [Lexeme], layout: &'a Layout) -> Self {
        let mut tree = TreeBuilder::new();
        let file = tree.rule("file", false);
        let group = tree.rule("group", true);
        let block = tree.rule("block", true);
        Builder {
            lexemes,
            layout,
            tree,
            file,
            group,
            block,
        }
    }

    fn build(&mut self) -> NodeId {
        if self.lexemes.is_empty() {
            let only = self.tree.token("");
            let body = self.tree.list(&[only]);
            return self.tree.node(self.file, "", &[body]);
        }
        // Groups close innermost first, so a stack of open sequences builds the tree without
        // recursion, however deep the nesting.
        let mut open: Vec<(NodeId, usize, Vec<Element>)> = Vec::new();
        let mut top: Vec<Element> = Vec::new();
        for (i, lx) in self.lexemes.iter().enumerate() {
            let leaf = self.tree.token("");
            match (lx.class, self.layout.paired[i]) {
                (Class::Punct(b), true) if closer_of(b).is_some() => {
                    open.push((leaf, i, Vec::new()));
                }
                (Class::Punct(_), true) => {
                    let (open_leaf, first, inside) = open.pop().expect("paired brackets nest");
                    let mut children = vec![open_leaf];
                    if !inside.is_empty() {
                        let content = self.sequence(&inside);
                        children.push(self.tree.list(&content));
                    }
                    children.push(leaf);
                    let node = self.tree.node(self.group, "", &children);
                    let element = Element {
                        node,
                        first,
                        separator: false,
                    };
                    open.last_mut().map_or(&mut top, |o| &mut o.2).push(element);
                }
                (class, _) => {
                    let element = Element {
                        node: leaf,
                        first: i,
                        separator: matches!(class, Class::Punct(b';' | b',')),
                    };
                    open.last_mut().map_or(&mut top, |o| &mut o.2).push(element);
                }
            }
        }
        debug_assert!(open.is_empty(), "unpaired openers are plain lexemes");
        let content = self.sequence(&top);
        let body = self.tree.list(&content);
        self.tree.node(self.file, "", &[body])
    }

    /// The children of the list holding a sequence: its lines (nested by indentation) if it
    /// spans several, else its items, else its elements.
    fn sequence(&mut self, elements: &[Element]) -> Vec<NodeId> {
        let mut lines: Vec<&[Element]> = Vec::new();
        let mut start = 0;
        for k in 1..elements.len() {
            if self.layout.starts_line[elements[k].first] {
                lines.push(&elements[start..k]);
                start = k;
            }
        }
        lines.push(&elements[start..]);
        if lines.len() == 1 {
            return self.line_children(lines[0]);
        }
        self.forest(&lines)
    }

    /// Lines nested by indentation: a line owns the following lines indented deeper than it.
    fn forest(&mut self, lines: &[&[Element]]) -> Vec<NodeId> {
        struct Open {
            indent: u32,
            header: usize,
            body: Vec<NodeId>,
        }
        let mut out = Vec::new();
        let mut stack: Vec<Open> = Vec::new();
        for (k, line) in lines.iter().enumerate() {
            let first = line[0].first;
            if !self.layout.starts_line[first] {
                // The rest of the opener's line: it has no indentation of its own to own others.
                let node = self.line_node(line);
                out.push(node);
                continue;
            }
            let indent = self.layout.indent[first];
            while stack.last().is_some_and(|o| o.indent >= indent) {
                let done = stack.pop().unwrap();
                let node = self.close_block(lines[done.header], done.body);
                stack
                    .last_mut()
                    .map_or(&mut out, |o| &mut o.body)
                    .push(node);
            }
            stack.push(Open {
                indent,
                header: k,
                body: Vec::new(),
            });
        }
        while let Some(done) = stack.pop() {
            let node = self.close_block(lines[done.header], done.body);
            stack
                .last_mut()
                .map_or(&mut out, |o| &mut o.body)
                .push(node);
        }
        out
    }

    fn close_block(&mut self, header: &[Element], body: Vec<NodeId>) -> NodeId {
        let header = self.line_node(header);
        if body.is_empty() {
            return header;
        }
        let body = self.tree.list(&body);
        self.tree.node(self.block, "", &[header, body])
    }

    fn line_node(&mut self, line: &[Element]) -> NodeId {
        let children = self.line_children(line);
        self.one_or_list(children)
    }

    /// A line's items if separators cut it in several, else its elements.
    fn line_children(&mut self, line: &[Element]) -> Vec<NodeId> {
        let mut items: Vec<&[Element]> = Vec::new();
        let mut start = 0;
        for (k, e) in line.iter().enumerate() {
            if e.separator {
                items.push(&line[start..=k]);
                start = k + 1;
            }
        }
        if start < line.len() {
            items.push(&line[start..]);
        }
        if items.len() <= 1 {
            return line.iter().map(|e| e.node).collect();
        }
        items
            .into_iter()
            .map(|item| {
                let nodes = item.iter().map(|e| e.node).collect();
                self.one_or_list(nodes)
            })
            .collect()
    }

    fn one_or_list(&mut self, nodes: Vec<NodeId>) -> NodeId {
        if nodes.len() == 1 {
            nodes[0]
        } else {
            self.tree.list(&nodes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(input: &[u8]) -> Vec<String> {
        let inferred = infer(input).unwrap();
        (0..inferred.units.len() as u32)
            .map(|u| String::from_utf8_lossy(inferred.units.unit(u)).into_owned())
            .collect()
    }

    #[test]
    fn units_tile_the_input_with_whitespace_in_front() {
        let input = b"  int main() {\n    return 0; // done\n}\n";
        let inferred = infer(input).unwrap();
        assert_eq!(inferred.units.render(&inferred.units.all()), input);
        assert_eq!(
            pieces(input),
            [
                "  int",
                " main",
                "(",
                ")",
                " {",
                "\n    return",
                " 0",
                ";",
                " // done\n",
                "}\n"
            ]
        );
    }

    #[test]
    fn literals_and_comments_are_single_units() {
        let p = pieces(b"s = \"a(b\\\"c\" + 'x' + '\\n' + '(';\n/* { */ #x\n# hash (\nx");
        assert!(p.contains(&" \"a(b\\\"c\"".to_string()));
        assert!(p.contains(&" 'x'".to_string()) && p.contains(&" '\\n'".to_string()));
        assert!(p.contains(&" '('".to_string()));
        assert!(p.contains(&"\n/* { */".to_string()));
        // `#` opens a comment only at the start of a line.
        assert!(p.contains(&" #".to_string()));
        assert!(p.contains(&"\n# hash (\n".to_string()));
        // Prose apostrophes and unterminated quotes are plain punctuation.
        assert_eq!(pieces(b"don't \"x"), ["don", "'", "t", " \"", "x"]);
    }

    #[test]
    fn brackets_group_and_separators_make_items() {
        let inferred = infer(b"f(a, b)").unwrap();
        let tree = &inferred.tree;
        // file -> list -> [f, group]; group -> [ "(", list of items, ")" ]
        let body = tree.children(tree.root())[0];
        let line = tree.children(body);
        assert_eq!(line.len(), 2);
        let group = line[1];
        assert_eq!(tree.rule_name(tree.kind(group)), Some("group"));
        let parts = tree.children(group);
        assert_eq!(parts.len(), 3);
        assert_eq!(tree.kind(parts[1]), NodeKind::List);
        // Two items: "a ," and " b".
        assert_eq!(tree.children(parts[1]).len(), 2);
        assert!(!tree.deletable(parts[0]) && !tree.deletable(parts[2]));
    }

    #[test]
    fn indentation_nests_lines_into_blocks() {
        let input = b"def f():\n    a\n    if x:\n        b\n    c\nd\n";
        let inferred = infer(input).unwrap();
        let tree = &inferred.tree;
        let body = tree.children(tree.root())[0];
        let top = tree.children(body);
        assert_eq!(top.len(), 2, "the def block and d");
        assert_eq!(tree.rule_name(tree.kind(top[0])), Some("block"));
        let def_body = tree.children(top[0])[1];
        assert_eq!(tree.children(def_body).len(), 3, "a, the if block, c");
        // Dropping the if block drops exactly its two lines.
        let all = inferred.units.all();
        let if_block = tree.children(def_body)[1];
        let kept = all.difference(&tree.leaves_under(if_block, &all));
        assert_eq!(inferred.units.render(&kept), b"def f():\n    a\n    c\nd\n");
    }

    #[test]
    fn unpaired_brackets_are_plain_and_deletable() {
        let inferred = infer(b"a ) ( b").unwrap();
        let tree = &inferred.tree;
        for u in 0..inferred.units.len() as u32 {
            assert!(tree.deletable(tree.leaf_of(u)));
        }
        let nested = infer(b"((((((x))))))").unwrap();
        assert_eq!(nested.tree.unit_count(), 13);
        assert!(nested.tree.max_depth() >= 12);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(infer(b"").is_none());
        let ws = infer(b" \n\t").unwrap();
        assert_eq!(ws.units.len(), 1);
        assert_eq!(ws.tree.unit_count(), 1);
    }
}
