//! The tree pages' figures, the tree model's bridges, and the tree policies' behaviour.

mod support;

use myhill::{
    FnOracle,
    eval::EvalOptions,
    passes::Cx,
    policy::{DDMin, Hdd, Perses, Policy, PolicyFactory, ProbDD, TPdd},
    text::{IdSet, Units},
    tree::{NodeId, NodeKind, Tree, TreeBuilder},
};
use std::sync::Arc;
use support::demos::{DemoRow, tree_rows};
use support::seeds::{buggy_fn_tree, scattered_bug_tree, unit_labels};

fn row<'r>(rows: &'r [DemoRow], demo: &str, strategy: &str) -> &'r DemoRow {
    rows.iter()
        .find(|r| r.demo == demo && r.strategy == strategy)
        .unwrap_or_else(|| panic!("no row {demo} {strategy}"))
}

const BUGGY_FN_RESULT: &str = "program { fn bar { if guard { crash() } } }";
const DELETION_WALL: &str =
    "int main ( ) { setup ( ) ; if ( c1 ) { corrupt ( ) ; if ( c2 ) { crash ( ) ; } } }";
const PERSES_RESULT: &str = "int main ( ) { setup ( ) ; { corrupt ( ) ; crash ( ) ; } }";

#[test]
fn hdd_page_rows_match_the_page() {
    let rows = tree_rows();
    for (strategy, calls) in [("hdd", 11), ("hdd-probdd", 15)] {
        let r = row(&rows, "buggy-fn", strategy);
        assert_eq!(
            (r.calls, r.result.as_str()),
            (calls, BUGGY_FN_RESULT),
            "{strategy}"
        );
    }
}

#[test]
fn flat_baseline_rows_match_the_page() {
    let rows = tree_rows();
    for (strategy, calls, errors) in [("ddmin", 253, 249), ("probdd", 80, 68)] {
        let r = row(&rows, "buggy-fn-flat", strategy);
        assert_eq!(r.calls, calls, "{strategy}");
        assert_eq!(
            r.extra,
            vec![("parse_errors".to_string(), errors)],
            "{strategy}"
        );
        // Both keep the crash call whole, and neither reaches the flat optimum.
        assert!(r.result.contains("crash ( ) ;"));
        assert_ne!(r.result, "fn bar { crash ( ) ; }");
    }
    assert_eq!(
        row(&rows, "buggy-fn-flat", "ddmin").to_string(),
        "buggy-fn-flat ddmin calls=253 parse_errors=249 \
         result=fn bar { b1 ; if guard { crash ( ) ; } b2 ; } fn f3 { s ; }"
    );
}

#[test]
fn tpdd_page_rows_match_the_page() {
    let rows = tree_rows();
    for (strategy, calls, result) in [
        ("hdd", 12, DELETION_WALL),
        ("hdd-probdd", 13, DELETION_WALL),
        ("perses", 64, PERSES_RESULT),
        ("perses-probdd", 63, PERSES_RESULT),
        ("tpdd", 8, DELETION_WALL),
    ] {
        let r = row(&rows, "scattered-bug", strategy);
        assert_eq!((r.calls, r.result.as_str()), (calls, result), "{strategy}");
    }
}

#[test]
fn seed_tables_include_the_tree_rows() {
    let all = support::demos::seed_rows();
    assert!(
        all.iter()
            .any(|r| r.demo == "scattered-bug" && r.strategy == "tpdd")
    );
    assert_eq!(
        all.iter()
            .filter(|r| r.demo.starts_with("buggy-fn"))
            .count(),
        4
    );
}

#[test]
fn bridges_translate_between_nodes_and_units() {
    let tree = buggy_fn_tree();
    let first_six = IdSet::range(0, 6);
    assert_eq!(
        tree.leaves_under(NodeId(2), &first_six).to_vec(),
        vec![4, 5]
    );
    assert_eq!(tree.alive_level_nodes(1, &first_six).to_vec(), vec![1, 2]);
    let without_f2 = first_six.difference(&IdSet::from_sorted(&[4, 5]));
    assert_eq!(tree.alive_level_nodes(1, &without_f2).to_vec(), vec![1]);
    // Units of several subtrees at once, nested ones counted once.
    let all = IdSet::range(0, 14);
    let nodes = IdSet::from_sorted(&[1, 6, 8]);
    assert_eq!(
        tree.units_under(&nodes, &all).to_vec(),
        vec![0, 1, 2, 3, 12, 13]
    );
    // crash() is unit 2 at depth 3; its level-1 ancestor is fn bar.
    let crash = tree.leaf_of(2);
    assert_eq!((tree.label(crash), tree.depth(crash)), ("crash()", 3));
    assert_eq!(tree.ancestor_at(crash, 1), NodeId(1));
    assert_eq!(tree.unit_of(crash), Some(2));
    assert_eq!(tree.span(NodeId(1)), (0, 4));
    assert_eq!(tree.level(1).len(), 6);
    assert_eq!(tree.max_depth(), 3);
}

#[test]
fn liveness_follows_the_grammar() {
    let tree = scattered_bug_tree();
    let labels = unit_labels(&tree);
    let all = tree_units(&tree);
    let if1 = find_rule(&tree, "if", 1);
    // Drop the `if ( c1 )` header: the if is dead, the block under it still stands.
    let (lo, _) = tree.span(if1);
    let header = IdSet::range(lo, lo + 4);
    assert_eq!(joined(&labels, &header), "if ( c1 )");
    let config = all.difference(&header);
    let live = tree.liveness(&config);
    let block = *tree.children(if1).last().unwrap();
    assert!(!live.live(if1) && live.present(if1));
    assert!(live.live(block));
    assert_eq!(live.surviving(if1), live.surviving(block));
    // A list lives while its parent does, even with no surviving element.
    let list = tree.children(block)[1];
    assert_eq!(tree.kind(list), NodeKind::List);
    assert!(live.live(list));
    let inside = tree.leaves_under(list, &config);
    let emptied = config.difference(&inside);
    let live = tree.liveness(&emptied);
    assert!(live.live(list) && !live.present(list));
}

#[test]
fn builder_rejects_malformed_trees() {
    let mut b = TreeBuilder::new();
    let a = b.token("a");
    b.list(&[a]);
    b.list(&[a]);
    assert!(b.build(NodeId(1)).unwrap_err().0.contains("two parents"));

    let mut b = TreeBuilder::new();
    let a = b.token("a");
    b.list(&[a]);
    b.token("stray");
    assert!(b.build(NodeId(1)).unwrap_err().0.contains("not reachable"));

    let mut b = TreeBuilder::new();
    b.list(&[]);
    assert!(b.build(NodeId(0)).unwrap_err().0.contains("no children"));

    let mut b = TreeBuilder::new();
    let a = b.token("a");
    b.node(NodeKind::Token, "t", &[a]);
    assert!(b.build(NodeId(1)).unwrap_err().0.contains("has children"));

    let mut b = TreeBuilder::new();
    b.list(&[NodeId(7)]);
    assert!(b.build(NodeId(0)).unwrap_err().0.contains("missing child"));
}

#[test]
fn tpdd_pins_a_failed_subtree() {
    let tree = Arc::new(scattered_bug_tree());
    let if1 = find_rule(&tree, "if", 1);
    let mut tpdd = TPdd::new(tree.clone(), 0.5);
    assert_eq!(tpdd.belief(if1), Some(0.5));
    assert_eq!(tpdd.belief(tree.root()), None);
    let config = tree_units(&tree);
    {
        let mut proposals = tpdd.propose(&config);
        // The largest optional subtree goes first.
        assert_eq!(proposals.next().unwrap(), tree.leaves_under(if1, &config));
        proposals.next().unwrap();
    }
    assert_eq!(tpdd.belief(if1), Some(1.0));
}

#[test]
fn every_tree_policy_proposes_nonempty_subsets() {
    let tree = Arc::new(scattered_bug_tree());
    let config = tree_units(&tree);
    for mut policy in tree_policies(&tree) {
        let name = policy.name();
        // Every round fails, so each policy walks through all it would ever try here.
        let mut proposed = 0;
        for _ in 0..50 {
            for d in policy.propose(&config).take(500) {
                assert!(!d.is_empty() && d.is_subset(&config), "{name}: {d:?}");
                proposed += 1;
            }
            if !policy.on_reduced(None) {
                break;
            }
        }
        assert!(proposed > 0, "{name}");
    }
}

/// With speculative tests the policies are restored and replayed; the result must not change.
#[test]
fn speculation_leaves_every_tree_policy_unchanged() {
    let tree = Arc::new(scattered_bug_tree());
    let labels = unit_labels(&tree);
    let needed = ["setup", "corrupt", "crash", "if", "{"];
    let oracle = FnOracle::new(|bytes: &[u8]| {
        let text = std::str::from_utf8(bytes).unwrap();
        let words: Vec<&str> = text.split_whitespace().collect();
        needed.iter().all(|n| words.contains(n)) && balanced(&words)
    });
    let units = Units::from_pieces(labels.iter().map(|l| format!("{l} ")));
    let run = |policy: Box<dyn Policy>, jobs: usize| {
        let options = EvalOptions {
            jobs,
            ..EvalOptions::bare()
        };
        let mut driver = Cx::new(units.data().to_vec(), &oracle, options);
        let mut policy = policy;
        driver.run_policy(&units, &mut policy).unwrap()
    };
    for (sequential, parallel) in tree_policies(&tree).into_iter().zip(tree_policies(&tree)) {
        let name = sequential.name();
        assert_eq!(run(sequential, 1), run(parallel, 3), "{name}");
    }
}

#[test]
fn policy_names_follow_the_strategies() {
    let tree = Arc::new(scattered_bug_tree());
    let names: Vec<String> = tree_policies(&tree).iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        ["hdd", "hdd-probdd", "perses", "perses-probdd", "tpdd"]
    );
}

fn tree_policies(tree: &Arc<Tree>) -> Vec<Box<dyn Policy>> {
    let ddmin: PolicyFactory = Arc::new(|| Box::new(DDMin));
    let probdd: PolicyFactory = Arc::new(|| Box::new(ProbDD::new(0.1)));
    vec![
        Box::new(Hdd::new(tree.clone(), 0, ddmin.clone())),
        Box::new(Hdd::new(tree.clone(), 0, probdd.clone())),
        Box::new(Perses::new(tree.clone(), ddmin)),
        Box::new(Perses::new(tree.clone(), probdd)),
        Box::new(TPdd::new(tree.clone(), 0.5)),
    ]
}

fn balanced(words: &[&str]) -> bool {
    let mut depth = 0i32;
    for w in words {
        match *w {
            "{" | "(" => depth += 1,
            "}" | ")" => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

fn tree_units(tree: &Tree) -> IdSet {
    IdSet::range(0, tree.unit_count() as u32)
}

fn joined(labels: &[&str], config: &IdSet) -> String {
    config
        .iter()
        .map(|u| labels[u as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `nth` node (in id order) of the rule called `name`.
fn find_rule(tree: &Tree, name: &str, nth: usize) -> NodeId {
    (0..tree.len() as u32)
        .map(NodeId)
        .filter(|&n| tree.rule_name(tree.kind(n)) == Some(name))
        .nth(nth)
        .unwrap()
}

#[test]
fn tpdd_with_unit_weights_of_one_is_the_page_policy() {
    let tree = Arc::new(scattered_bug_tree());
    let ones: Arc<[f64]> = vec![1.0; tree.unit_count()].into();
    let config = tree_units(&tree);
    let mut page = TPdd::new(tree.clone(), 0.5);
    let mut weighted = TPdd::weighted(tree.clone(), 0.5, ones);
    let a: Vec<IdSet> = page.propose(&config).collect();
    let b: Vec<IdSet> = weighted.propose(&config).collect();
    assert_eq!(a, b);
    assert!(a.len() > 5);
}

#[test]
fn tpdd_weights_let_a_heavy_single_unit_be_tried() {
    // A list of one heavy unit and one light one: by count neither passes the threshold.
    let mut b = TreeBuilder::new();
    let (heavy, light) = (b.token("heavy"), b.token("light"));
    let root = b.list(&[heavy, light]);
    let tree = Arc::new(b.build(root).unwrap());
    let config = tree_units(&tree);
    assert!(
        TPdd::new(tree.clone(), 0.5)
            .propose(&config)
            .next()
            .is_none()
    );
    let bytes: Arc<[f64]> = vec![40.0, 1.0].into();
    let mut weighted = TPdd::weighted(tree, 0.5, bytes);
    let proposed: Vec<IdSet> = weighted.propose(&config).collect();
    assert_eq!(proposed, vec![IdSet::from_sorted(&[0])]);
}
