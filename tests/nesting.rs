//! The nesting of the best is one model, built once per distinct best and shared by every pass
//! and gate that reads it.

use myhill::{
    FnOracle, ReduceOptions, Reduction, Strategy,
    eval::EvalOptions,
    passes::Cx,
    report::{Counter, Figure},
    strategy::pass_named,
    tree::Nesting,
};

const PROGRAM: &str = "\
int helper(int a, int b) { return a * (b + 1); }
int main(void) {
    int xs[3] = {1, 2, 3};
    if (helper(xs[0], 2) > 0) { crash(); }
    return 0;
}
";

fn builds(driver: &Cx) -> u64 {
    match driver.report().counters.get(&Counter::NestingBuilds) {
        Some(Figure::Count(n)) => *n,
        _ => 0,
    }
}

#[test]
fn a_round_on_one_best_builds_its_nesting_once() {
    // Nothing is interesting: every pass reads the same best. Six read the nesting (before,
    // each built its own); intervals and integers lex for themselves.
    let oracle = FnOracle::new(|_: &[u8]| false);
    let mut driver = Cx::new(PROGRAM.into(), &oracle, EvalOptions::default());
    let readers = [
        "tpdd/tree",
        "hollow",
        "hoist",
        "siblings",
        "intervals/tokens",
        "expressions",
        "integers",
        "perses/tree",
    ];
    for name in readers {
        let mut pass = pass_named(name).unwrap();
        driver.begin_pass(&pass.name());
        pass.run(&mut driver).unwrap();
        driver.end_pass(false);
    }
    assert_eq!(driver.best(), PROGRAM.as_bytes());
    assert_eq!(builds(&driver), 1);
}

#[test]
fn a_reduction_builds_the_nesting_at_most_once_per_best() {
    let oracle = FnOracle::new(|b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        s.contains("crash()") && s.matches('{').count() == s.matches('}').count()
    });
    let mut reduction = Reduction::new(PROGRAM.into(), &oracle, ReduceOptions::default());
    let mut schedule = Strategy::named("default").unwrap().schedule();
    reduction.run(&mut schedule).unwrap();
    let report = reduction.report();
    let built = match report.counters.get(&Counter::NestingBuilds) {
        Some(Figure::Count(n)) => *n,
        _ => 0,
    };
    // Every best is the input or an accepted candidate (a trace entry), or a rollback.
    let bests = report.trace.len() as u64 + report.rollbacks;
    assert!(built >= 1, "the structure passes read the nesting");
    assert!(built <= bests, "{built} builds for {bests} bests");
}

#[test]
fn the_tree_and_the_groups_read_one_pairing_of_brackets() {
    let input = b"f(a, [b]) { g(); }";
    let nesting = Nesting::new(input);
    let inferred = nesting.inferred().unwrap();
    assert_eq!(inferred.tree.unit_count(), inferred.units.len());
    // The same three groups in both views: the tree's group rules and the bracket groups.
    let group_rules = (0..inferred.tree.len() as u32)
        .filter(|&n| {
            inferred
                .tree
                .rule_name(inferred.tree.kind(myhill::tree::NodeId(n)))
                == Some("group")
        })
        .count();
    assert_eq!(group_rules, nesting.groups().len());
    assert_eq!(nesting.groups().len(), 4);
    // The convenience function builds the same tree.
    let alone = myhill::tree::infer(input).unwrap();
    assert_eq!(alone.units.len(), inferred.units.len());
    assert_eq!(alone.tree.len(), inferred.tree.len());
}
