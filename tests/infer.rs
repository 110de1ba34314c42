//! Inferred trees: every candidate the tree strategies propose keeps brackets balanced, and the
//! tree pass reduces real-looking inputs through the driver.

use myhill::{
    FnOracle, Stop,
    eval::EvalOptions,
    passes::{Cx, Pass, TreePass, TreeStrategy},
    policy::{DDMin, Policy},
    text::{Granularity, Units},
    tree::infer,
};
use proptest::prelude::*;
use std::sync::Mutex;

/// Whether brackets balance outside string literals, character literals and `//` comments,
/// the only places the generated inputs put stray brackets.
fn balanced(bytes: &[u8]) -> bool {
    let mut stack = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match bytes[i + 1..].iter().position(|&b| b == b'"') {
                Some(k) => i += k + 1,
                None => return false,
            },
            b'\'' => i += 2,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(bytes.len() - i);
            }
            b @ (b'(' | b'[' | b'{') => stack.push(b),
            b @ (b')' | b']' | b'}') => {
                let opener = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(opener) {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    stack.is_empty()
}

fn fragment() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-z]{1,3}",
        Just(";".to_string()),
        Just(", ".to_string()),
        Just(" ".to_string()),
        "\n {0,6}",
        "\"[a-z(){}\\[\\] ]{0,4}\"",
        Just("'('".to_string()),
        Just("'}'".to_string()),
        "// [a-z(\\]]{0,3}\n",
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        (prop::collection::vec(inner, 0..6), 0usize..3).prop_map(|(parts, kind)| {
            let (open, close) = [("(", ")"), ("[", "]"), ("{", "}")][kind];
            format!("{open}{}{close}", parts.concat())
        })
    })
}

fn balanced_input() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 1..8).prop_map(|parts| parts.concat())
}

/// Runs `strategy` on `input` with an oracle that accepts candidates pseudo-randomly (by a hash
/// of their bytes, and only while they keep a third of the input, so that runs go deep) and
/// records the first unbalanced candidate.
fn first_unbalanced(input: &[u8], strategy: TreeStrategy, salt: u64) -> Option<Vec<u8>> {
    let bad = Mutex::new(None);
    let oracle = FnOracle::new(|c: &[u8]| {
        if !balanced(c) {
            bad.lock().unwrap().get_or_insert_with(|| c.to_vec());
        }
        c.len() * 3 >= input.len()
            && xxhash_rust::xxh3::xxh3_64_with_seed(c, salt).is_multiple_of(3)
    });
    let options = EvalOptions {
        max_tests: Some(400),
        ..EvalOptions::bare()
    };
    let mut driver = Cx::new(input.to_vec(), &oracle, options);
    match TreePass::new(strategy).run(&mut driver) {
        Ok(()) | Err(Stop::Budget) => {}
        Err(other) => panic!("{other}"),
    }
    drop(driver);
    bad.into_inner().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tree_candidates_keep_brackets_balanced(input in balanced_input(), salt in any::<u64>()) {
        prop_assume!(balanced(input.as_bytes()));
        for strategy in TreeStrategy::ALL {
            let bad = first_unbalanced(input.as_bytes(), strategy, salt);
            prop_assert!(bad.is_none(), "{strategy} proposed {:?} from {input:?}",
                String::from_utf8_lossy(&bad.unwrap_or_default()));
        }
    }

    #[test]
    fn inferred_units_tile_any_input(input in prop::collection::vec(any::<u8>(), 1..400)) {
        let inferred = infer(&input).unwrap();
        prop_assert_eq!(inferred.units.render(&inferred.units.all()), input);
        prop_assert_eq!(inferred.tree.unit_count(), inferred.units.len());
        for u in 0..inferred.units.len() as u32 {
            prop_assert!(!inferred.units.unit(u).is_empty());
            prop_assert_eq!(inferred.tree.unit_of(inferred.tree.leaf_of(u)), Some(u));
        }
    }
}

#[test]
fn the_balance_checker_sees_literals_and_comments() {
    assert!(balanced(b"f(\"(\", '}') // )\n[x]"));
    assert!(!balanced(b"f(\"(\""));
    assert!(!balanced(b"(]"));
}

const PROGRAM: &str = "\
#include <stdio.h>

static int unused(int a, int b) {
    return a + b;
}

int main(void) {
    int x = 1;
    int y = 2;
    if (x < y) {
        printf(\"%d\\n\", unused(x, y));
        puts(\"boom\");
    }
    return 0;
}
";

/// Interesting iff `puts("boom")` survives inside braces that still balance.
fn boom(c: &[u8]) -> bool {
    let text = String::from_utf8_lossy(c);
    text.contains("puts(\"boom\");") && balanced(c) && text.contains('{')
}

fn reduce_with(strategy: TreeStrategy) -> (Vec<u8>, u64) {
    let oracle = FnOracle::new(boom);
    let mut driver = Cx::new(PROGRAM.as_bytes().to_vec(), &oracle, EvalOptions::default());
    TreePass::new(strategy).run(&mut driver).unwrap();
    let tests = driver.report().eval.tests_run;
    (driver.best().to_vec(), tests)
}

#[test]
fn every_tree_strategy_reduces_a_c_program() {
    for strategy in TreeStrategy::ALL {
        let (best, _) = reduce_with(strategy);
        assert!(boom(&best), "{strategy}");
        assert!(
            best.len() * 3 < PROGRAM.len(),
            "{strategy}: {}",
            String::from_utf8_lossy(&best)
        );
    }
    // Perses can strip the `if` wrapper, which no deletion of whole subtrees can.
    let (perses, _) = reduce_with(TreeStrategy::Perses);
    assert!(!String::from_utf8_lossy(&perses).contains("if"));
}

#[test]
fn tree_strategies_never_test_an_unbalanced_candidate_where_flat_ddmin_does() {
    let unbalanced = std::sync::atomic::AtomicU64::new(0);
    let oracle = FnOracle::new(|c: &[u8]| {
        if !balanced(c) {
            unbalanced.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        boom(c)
    });
    let mut driver = Cx::new(PROGRAM.as_bytes().to_vec(), &oracle, EvalOptions::default());
    let units = Units::cut(driver.best(), Granularity::Tokens);
    let mut ddmin: Box<dyn Policy> = Box::new(DDMin);
    driver.run_policy(&units, &mut ddmin).unwrap();
    assert!(unbalanced.load(std::sync::atomic::Ordering::Relaxed) > 0);
    for strategy in TreeStrategy::ALL {
        unbalanced.store(0, std::sync::atomic::Ordering::Relaxed);
        let mut driver = Cx::new(PROGRAM.as_bytes().to_vec(), &oracle, EvalOptions::default());
        TreePass::new(strategy).run(&mut driver).unwrap();
        assert_eq!(
            unbalanced.load(std::sync::atomic::Ordering::Relaxed),
            0,
            "{strategy}"
        );
    }
}

#[test]
fn strategies_parse_by_name() {
    for name in ["hdd", "hdd-probdd", "perses", "perses-probdd", "tpdd"] {
        let pass = TreePass::new(name.parse().unwrap());
        assert_eq!(pass.name(), format!("{name}/tree"));
    }
    let err = "hdd+".parse::<TreeStrategy>().unwrap_err();
    assert!(err.to_string().contains("perses-probdd"), "{err}");
}

#[test]
fn parallel_tree_passes_find_the_sequential_result() {
    for strategy in TreeStrategy::ALL {
        let (sequential, _) = reduce_with(strategy);
        let oracle = FnOracle::new(boom);
        let options = EvalOptions {
            jobs: 3,
            ..EvalOptions::default()
        };
        let mut driver = Cx::new(PROGRAM.as_bytes().to_vec(), &oracle, options);
        TreePass::new(strategy).run(&mut driver).unwrap();
        assert_eq!(driver.best(), &sequential[..], "{strategy}");
    }
}
