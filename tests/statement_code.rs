//! The default schedule on statement code: comments, whitespace and lines come before the
//! tree passes; every other input keeps the structure-first order.

use myhill::{FnOracle, ReduceOptions, Reduction, Strategy, squeeze, strip_comments};
use std::sync::Mutex;

/// The candidates a default reduction of `input` tests, each once (the first check and the
/// re-runs of a new best left out), with a test that keeps every string of `needed`.
fn tested(input: &str, needed: &'static [&'static str]) -> Vec<String> {
    let log = Mutex::new(Vec::new());
    let oracle = FnOracle::new(|c: &[u8]| {
        let text = String::from_utf8_lossy(c).into_owned();
        let keep = needed.iter().all(|n| text.contains(n));
        log.lock().unwrap().push(text);
        keep
    });
    let mut schedule = Strategy::named("default").unwrap().schedule();
    let mut reduction = Reduction::new(input.into(), &oracle, ReduceOptions::default());
    reduction.run(&mut schedule).unwrap();
    drop(reduction);
    let log = std::mem::take(&mut *log.lock().unwrap());
    let mut seen = std::collections::HashSet::new();
    log.into_iter()
        .filter(|c| c != input && seen.insert(c.clone()))
        .collect()
}

const PROGRAM: &str = "// greeter: prints a greeting.\n#include <cstdio>\n\n/* Config. */\nstruct Config {\n    static constexpr int repeat = 1; // once\n    static constexpr int width = 80;\n};\n\nstatic int helper(int x) {\n    return x + 1;\n}\n\nint main() {\n    for (int i = 0; i < Config::repeat; ++i) {\n        std::puts(\"Hello\");\n    }\n    return 0;\n}\n";

#[test]
fn statement_code_loses_its_comments_then_its_indentation_then_lines_first() {
    let tested = tested(PROGRAM, &["main", "puts(\"Hello\")"]);
    let stripped = strip_comments(PROGRAM.as_bytes(), |_| true);
    assert_eq!(
        tested[0].as_bytes(),
        stripped,
        "the comments go first, in one test"
    );
    let squeezed = String::from_utf8(squeeze(&stripped, true)).unwrap();
    assert_eq!(
        tested[1],
        squeezed.trim(),
        "then the whitespace, in one test"
    );
    // Then binary splitting over the squeezed lines: whole lines go, nothing else changes.
    let lines: Vec<&str> = tested[1].lines().collect();
    let third: Vec<&str> = tested[2].lines().collect();
    assert!(third.len() < lines.len());
    let mut rest = lines.iter();
    assert!(
        third.iter().all(|l| rest.any(|k| k == l)),
        "not a deletion of lines: {:?}",
        tested[2]
    );
}

#[test]
fn other_text_keeps_its_comments_for_the_finer_passes() {
    // Python: no `;` per line, so no comment pass; the tree passes go first.
    let script = "# setup\ndef f(x):\n    # the value\n    return {x: 1}\n\nprint(f(2))\n";
    let tested = tested(script, &["print(f(2))", "def f"]);
    let stripped = String::from_utf8(strip_comments(script.as_bytes(), |_| true)).unwrap();
    assert!(!tested.contains(&stripped));
}
