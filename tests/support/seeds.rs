//! The tree pages' demos, rebuilt by hand: their trees, their oracles, and the rows they print.
//!
//! Main functions: [`buggy_fn_tree`] (the HDD page: one buggy function among five noise
//! functions), [`buggy_fn_tokens`] (the same program as a raw token stream, for the flat
//! baseline), [`scattered_bug_tree`] (the T-PDD page: three cooperating calls at three depths)
//! and [`rows`], which runs every strategy the pages compare through the ordinary
//! [`Cx`] and reports the pages' figures.
//!
//! `buggy_fn_tree().outline(&IdSet::range(0, 14))` starts with
//! `program { fn bar { stmt b1; if guard`.
//!
//! Each unit is rendered as one line `ID LABEL`, so the in-process oracles recover exactly which
//! units survive from the bytes they are given, as the pages' oracles do from their sets.
//! Limits: the node ids are the pages' own, because their tie-breaking orders by node id.

use super::demos::DemoRow;
use myhill::{
    FnOracle,
    eval::EvalOptions,
    passes::Cx,
    policy::{DDMin, Hdd, Perses, Policy, PolicyFactory, ProbDD, TPdd},
    text::{IdSet, Units},
    tree::{NodeId, NodeKind, Tree, TreeBuilder},
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The HDD page's tree. Every inner node is a list: on that page any subtree but the root may
/// be dropped. Node ids are the page's.
pub fn buggy_fn_tree() -> Tree {
    let table: [(&str, &[u32]); 22] = [
        ("program", &[1, 2, 3, 4, 5, 6]),
        ("fn bar", &[7, 8, 9]),
        ("fn f2", &[10, 11]),
        ("fn f3", &[12, 13]),
        ("fn f4", &[14, 15]),
        ("fn f5", &[16, 17]),
        ("fn f6", &[18, 19]),
        ("stmt b1", &[]),
        ("if guard", &[20, 21]),
        ("stmt b2", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt", &[]),
        ("stmt g", &[]),
        ("crash()", &[]),
    ];
    let mut b = TreeBuilder::new();
    for (label, children) in table {
        let kind = if children.is_empty() {
            NodeKind::Token
        } else {
            NodeKind::List
        };
        let children: Vec<NodeId> = children.iter().map(|&c| NodeId(c)).collect();
        b.node(kind, label, &children);
    }
    b.build(NodeId(0)).expect("the page's tree is well formed")
}

/// The HDD page's program as the raw token stream a flat minimizer sees.
pub fn buggy_fn_tokens() -> Vec<&'static str> {
    let mut tokens: Vec<&'static str> = "fn bar { b1 ; if guard { g ; crash ( ) ; } b2 ; }"
        .split(' ')
        .collect();
    for name in ["f2", "f3", "f4", "f5", "f6"] {
        tokens.extend(["fn", name, "{", "s", ";", "s", ";", "}"]);
    }
    tokens
}

/// Whether `tokens` parse in the HDD page's language:
/// `program := fn*`, `fn := "fn" IDENT block`, `block := "{" stmt* "}"`,
/// `stmt := "if" IDENT block | IDENT "(" ")" ";" | IDENT ";"`.
pub fn parses_fn_program(tokens: &[&str]) -> bool {
    let mut p = TokenCursor { tokens, at: 0 };
    while p.at < tokens.len() {
        if !(p.eat("fn") && p.ident(FN_KEYWORDS) && p.fn_block()) {
            return false;
        }
    }
    true
}

const FN_KEYWORDS: &[&str] = &["fn", "if", "{", "}", "(", ")", ";"];
const MAIN_KEYWORDS: &[&str] = &["int", "main", "if", "(", ")", "{", "}", ";"];

struct TokenCursor<'t> {
    tokens: &'t [&'t str],
    at: usize,
}

impl TokenCursor<'_> {
    fn eat(&mut self, want: &str) -> bool {
        let hit = self.tokens.get(self.at) == Some(&want);
        self.at += hit as usize;
        hit
    }

    fn ident(&mut self, keywords: &[&str]) -> bool {
        let hit = self
            .tokens
            .get(self.at)
            .is_some_and(|t| !keywords.contains(t));
        self.at += hit as usize;
        hit
    }

    fn fn_block(&mut self) -> bool {
        if !self.eat("{") {
            return false;
        }
        while self.tokens.get(self.at) != Some(&"}") {
            if self.at >= self.tokens.len() || !self.fn_stmt() {
                return false;
            }
        }
        self.eat("}")
    }

    fn fn_stmt(&mut self) -> bool {
        if self.eat("if") {
            return self.ident(FN_KEYWORDS) && self.fn_block();
        }
        if !self.ident(FN_KEYWORDS) {
            return false;
        }
        // A call's "(" must be closed at once; a plain statement has none.
        if self.eat("(") && !self.eat(")") {
            return false;
        }
        self.eat(";")
    }

    fn main_block(&mut self) -> bool {
        if !self.eat("{") {
            return false;
        }
        while self.main_stmt() {}
        self.eat("}")
    }

    fn main_stmt(&mut self) -> bool {
        let start = self.at;
        if self.eat("if")
            && self.eat("(")
            && self.ident(MAIN_KEYWORDS)
            && self.eat(")")
            && self.main_block()
        {
            return true;
        }
        self.at = start;
        if self.main_block() {
            return true;
        }
        self.at = start;
        if self.ident(MAIN_KEYWORDS) && self.eat("(") && self.eat(")") && self.eat(";") {
            return true;
        }
        self.at = start;
        false
    }
}

/// Whether `tokens` parse in the T-PDD page's language:
/// `func := "int" "main" "(" ")" block`, `block := "{" stmt* "}"`,
/// `stmt := "if" "(" IDENT ")" block | block | IDENT "(" ")" ";"`.
pub fn parses_main_program(tokens: &[&str]) -> bool {
    let mut p = TokenCursor { tokens, at: 0 };
    p.eat("int")
        && p.eat("main")
        && p.eat("(")
        && p.eat(")")
        && p.main_block()
        && p.at == tokens.len()
}

/// The T-PDD page's tree, built in the page's order so node ids match:
/// `int main() { setup(); if (c1) { corrupt(); if (c2) { crash(); noise(); } noise(); } noise(); }`.
pub fn scattered_bug_tree() -> Tree {
    let mut b = TreeBuilder::new();
    let expr = b.rule("expr", false);
    let func = b.rule("func", false);
    let if_stmt = b.rule("if", true);
    let block = b.rule("block", true);
    let call = b.rule("call", true);
    let add_call = |b: &mut TreeBuilder, name: &str| {
        let parts = [b.token(name), b.token("("), b.token(")"), b.token(";")];
        b.node(call, "", &parts)
    };
    let add_block = |b: &mut TreeBuilder, list: NodeId| {
        let (open, close) = (b.token("{"), b.token("}"));
        b.node(block, "", &[open, list, close])
    };
    let add_if = |b: &mut TreeBuilder, cond: &str, body: NodeId| {
        let (kw, open) = (b.token("if"), b.token("("));
        let name = b.token(cond);
        let cond = b.node(expr, "", &[name]);
        let close = b.token(")");
        b.node(if_stmt, "", &[kw, open, cond, close, body])
    };
    let crash = add_call(&mut b, "crash");
    let noise0 = add_call(&mut b, "noise");
    let list2 = b.list(&[crash, noise0]);
    let block2 = add_block(&mut b, list2);
    let if2 = add_if(&mut b, "c2", block2);
    let corrupt = add_call(&mut b, "corrupt");
    let noise1 = add_call(&mut b, "noise");
    let list1 = b.list(&[corrupt, if2, noise1]);
    let block1 = add_block(&mut b, list1);
    let if1 = add_if(&mut b, "c1", block1);
    let setup = add_call(&mut b, "setup");
    let noise2 = add_call(&mut b, "noise");
    let list0 = b.list(&[setup, if1, noise2]);
    let body = add_block(&mut b, list0);
    let parts = [
        b.token("int"),
        b.token("main"),
        b.token("("),
        b.token(")"),
        body,
    ];
    let root = b.node(func, "", &parts);
    b.build(root).expect("the page's tree is well formed")
}

/// The labels of a tree's leaves, in unit order.
pub fn unit_labels(tree: &Tree) -> Vec<&str> {
    (0..tree.unit_count() as u32)
        .map(|u| tree.label(tree.leaf_of(u)))
        .collect()
}

/// A demo run's figures: oracle calls, how many of them the oracle flagged (parse errors),
/// and the final configuration.
pub struct DemoRun {
    pub calls: u64,
    pub flagged: u64,
    pub result: IdSet,
}

/// Reduces units labelled `labels` with `policy` through the driver's bare loop. `judge` sees
/// the surviving `(unit, label)` pairs and answers `Some(verdict)`, or `None` for a candidate it
/// rejects as malformed (counted in [`DemoRun::flagged`]).
pub fn run_labeled(
    labels: &[&str],
    judge: impl Fn(&[(u32, &str)]) -> Option<bool> + Send + Sync,
    mut policy: Box<dyn Policy>,
) -> DemoRun {
    let calls = AtomicU64::new(0);
    let flagged = AtomicU64::new(0);
    let oracle = FnOracle::new(|bytes: &[u8]| {
        calls.fetch_add(1, Ordering::Relaxed);
        let text = std::str::from_utf8(bytes).expect("demo units are text");
        let kept: Vec<(u32, &str)> = text
            .lines()
            .map(|line| {
                let (id, label) = line.split_once(' ').expect("lines are `ID LABEL`");
                (id.parse().expect("ids are numbers"), label)
            })
            .collect();
        judge(&kept).unwrap_or_else(|| {
            flagged.fetch_add(1, Ordering::Relaxed);
            false
        })
    });
    let units = Units::from_pieces(
        labels
            .iter()
            .enumerate()
            .map(|(id, label)| format!("{id} {label}\n")),
    );
    let mut driver = Cx::new(units.data().to_vec(), &oracle, EvalOptions::bare());
    let result = driver
        .run_policy(&units, &mut policy)
        .expect("in-process demos cannot fail to run");
    DemoRun {
        calls: calls.load(Ordering::Relaxed),
        flagged: flagged.load(Ordering::Relaxed),
        result,
    }
}

fn ddmin() -> PolicyFactory {
    Arc::new(|| Box::new(DDMin))
}

fn probdd() -> PolicyFactory {
    Arc::new(|| Box::new(ProbDD::new(0.1)))
}

fn joined(labels: &[&str], config: &IdSet) -> String {
    config
        .iter()
        .map(|u| labels[u as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn demo_row(demo: &str, run: &DemoRun, strategy: &str, result: String) -> DemoRow {
    DemoRow {
        demo: demo.into(),
        strategy: strategy.into(),
        calls: run.calls,
        extra: Vec::new(),
        result,
    }
}

/// The HDD page: HDD with DDMin and with ProbDD from level 1, interesting iff `crash()`
/// survives.
pub fn buggy_fn_rows() -> Vec<DemoRow> {
    let tree = Arc::new(buggy_fn_tree());
    let labels = unit_labels(&tree);
    let crash = labels.iter().position(|&l| l == "crash()").unwrap() as u32;
    let judge = |kept: &[(u32, &str)]| Some(kept.iter().any(|&(u, _)| u == crash));
    [("hdd", ddmin()), ("hdd-probdd", probdd())]
        .into_iter()
        .map(|(name, inner)| {
            let run = run_labeled(&labels, judge, Box::new(Hdd::new(tree.clone(), 1, inner)));
            demo_row("buggy-fn", &run, name, tree.outline(&run.result))
        })
        .collect()
}

/// The HDD page's flat baseline: DDMin and ProbDD over the raw tokens, interesting iff the
/// candidate parses and the call `crash ( ) ;` survives whole. Parse errors are counted.
pub fn buggy_fn_flat_rows() -> Vec<DemoRow> {
    let tokens = buggy_fn_tokens();
    let crash = tokens.iter().position(|&t| t == "crash").unwrap() as u32;
    let judge = |kept: &[(u32, &str)]| {
        let words: Vec<&str> = kept.iter().map(|&(_, t)| t).collect();
        if !parses_fn_program(&words) {
            return None;
        }
        let ids: Vec<u32> = kept.iter().map(|&(u, _)| u).collect();
        Some((crash..crash + 4).all(|u| ids.contains(&u)))
    };
    let policies: [(&str, Box<dyn Policy>); 2] = [
        ("ddmin", Box::new(DDMin)),
        ("probdd", Box::new(ProbDD::new(0.1))),
    ];
    policies
        .into_iter()
        .map(|(name, policy)| {
            let run = run_labeled(&tokens, judge, policy);
            let mut row = demo_row("buggy-fn-flat", &run, name, joined(&tokens, &run.result));
            row.extra.push(("parse_errors".into(), run.flagged));
            row
        })
        .collect()
}

/// The T-PDD page: HDD, HDD+ProbDD (from level 0), Perses, Perses+ProbDD and T-PDD (sigma 0.5),
/// interesting iff `setup`, `corrupt` and `crash` survive and the program parses.
pub fn scattered_bug_rows() -> Vec<DemoRow> {
    let tree = Arc::new(scattered_bug_tree());
    let labels = unit_labels(&tree);
    let needed: Vec<u32> = ["setup", "corrupt", "crash"]
        .iter()
        .map(|want| labels.iter().position(|l| l == want).unwrap() as u32)
        .collect();
    let judge = |kept: &[(u32, &str)]| {
        let words: Vec<&str> = kept.iter().map(|&(_, t)| t).collect();
        let all_needed = needed.iter().all(|n| kept.iter().any(|&(u, _)| u == *n));
        Some(all_needed && parses_main_program(&words))
    };
    let strategies: [(&str, Box<dyn Policy>); 5] = [
        ("hdd", Box::new(Hdd::new(tree.clone(), 0, ddmin()))),
        ("hdd-probdd", Box::new(Hdd::new(tree.clone(), 0, probdd()))),
        ("perses", Box::new(Perses::new(tree.clone(), ddmin()))),
        (
            "perses-probdd",
            Box::new(Perses::new(tree.clone(), probdd())),
        ),
        ("tpdd", Box::new(TPdd::new(tree.clone(), 0.5))),
    ];
    strategies
        .into_iter()
        .map(|(name, policy)| {
            let run = run_labeled(&labels, judge, policy);
            demo_row("scattered-bug", &run, name, joined(&labels, &run.result))
        })
        .collect()
}

/// Every row of the tree pages.
pub fn rows() -> Vec<DemoRow> {
    let mut rows = buggy_fn_rows();
    rows.extend(buggy_fn_flat_rows());
    rows.extend(scattered_bug_rows());
    rows
}
