//! The default schedule on statement code: comments, whitespace, spaces and lines come before
//! the tree passes, and the token pass spends no test on spaces alone; every other input
//! keeps the structure-first order.

use myhill::{
    FnOracle, ReduceOptions, Reduction, Strategy,
    passes::{drop_spaces, squeeze, strip_comments},
};
use std::sync::Mutex;

/// The candidates a default reduction of `input` tests, each once (the first check and the
/// re-runs of a new best left out), with a test that keeps every string of `needed`, and
/// whether each was interesting.
fn verdicts(input: &str, needed: &'static [&'static str]) -> Vec<(String, bool)> {
    let log = Mutex::new(Vec::new());
    let oracle = FnOracle::new(|c: &[u8]| {
        let text = String::from_utf8_lossy(c).into_owned();
        let keep = needed.iter().all(|n| text.contains(n));
        log.lock().unwrap().push((text, keep));
        keep
    });
    let mut schedule = Strategy::named("default").unwrap().schedule();
    let mut reduction = Reduction::new(input.into(), &oracle, ReduceOptions::default());
    reduction.run(&mut schedule).unwrap();
    drop(reduction);
    let log = std::mem::take(&mut *log.lock().unwrap());
    let mut seen = std::collections::HashSet::new();
    log.into_iter()
        .filter(|(c, _)| c != input && seen.insert(c.clone()))
        .collect()
}

/// The candidates of [`verdicts`], without the verdicts.
fn tested(input: &str, needed: &'static [&'static str]) -> Vec<String> {
    verdicts(input, needed)
        .into_iter()
        .map(|(c, _)| c)
        .collect()
}

const PROGRAM: &str = "// greeter: prints a greeting.\n#include <cstdio>\n\n/* Config. */\nstruct Config {\n    static constexpr int repeat = 1; // once\n    static constexpr int width = 80;\n};\n\nstatic int helper(int x) {\n    return x + 1;\n}\n\nint main() {\n    for (int i = 0; i < Config::repeat; ++i) {\n        std::puts(\"Hello\");\n    }\n    return 0;\n}\n";

#[test]
fn statement_code_loses_its_comments_then_its_indentation_then_its_spaces_then_lines_first() {
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
    let spaced = String::from_utf8(drop_spaces(tested[1].as_bytes())).unwrap();
    assert_eq!(
        tested[2], spaced,
        "then every space that keeps no two tokens apart, in one test"
    );
    // Then binary splitting over the lines: whole lines go, nothing else changes.
    let lines: Vec<&str> = tested[2].lines().collect();
    let fourth: Vec<&str> = tested[3].lines().collect();
    assert!(fourth.len() < lines.len());
    let mut rest = lines.iter();
    assert!(
        fourth.iter().all(|l| rest.any(|k| k == l)),
        "not a deletion of lines: {:?}",
        tested[3]
    );
}

/// The candidates that differ from the best of their moment in spaces alone (the same
/// tokens, the same lines).
fn spaces_only(input: &str, verdicts: &[(String, bool)]) -> Vec<String> {
    let bare = |s: &str| s.split_ascii_whitespace().collect::<String>();
    let lines = |s: &str| s.matches('\n').count();
    let mut best = input.to_string();
    let mut found = Vec::new();
    for (candidate, interesting) in verdicts {
        if bare(candidate) == bare(&best) && lines(candidate) == lines(&best) {
            found.push(candidate.clone());
        }
        if *interesting {
            best = candidate.clone();
        }
    }
    found
}

/// `text`'s tokens as a compiler reads them, one space apart: words and numbers, and every
/// other byte alone (`int main(){` is `int main ( ) {`, `intmain` one word).
fn tokens(text: &str) -> String {
    let mut out = String::new();
    let mut word = false;
    for c in text.chars() {
        let is_word = c.is_ascii_alphanumeric() || c == '_';
        if c.is_ascii_whitespace() {
            word = false;
            continue;
        }
        let joined = is_word && word;
        if !out.is_empty() && !joined {
            out.push(' ');
        }
        out.push(c);
        word = is_word;
    }
    out
}

#[test]
fn the_token_pass_spends_no_test_on_spaces_alone_in_statement_code() {
    // A test that reads tokens, as a compiler does: a space between two words matters, no
    // other does. What it needs keeps the result statement code.
    let needed = [
        "static int helper(int x) {",
        "return x + 1;",
        "int main() {",
        "std::puts(\"Hello\");",
    ]
    .map(tokens);
    let log = Mutex::new(Vec::new());
    let oracle = FnOracle::new(|c: &[u8]| {
        let text = String::from_utf8_lossy(c).into_owned();
        let read = tokens(&text);
        let keep = needed.iter().all(|n| read.contains(n.as_str()));
        log.lock().unwrap().push((text, keep));
        keep
    });
    let mut schedule = Strategy::named("default").unwrap().schedule();
    let mut reduction = Reduction::new(PROGRAM.into(), &oracle, ReduceOptions::default());
    let result = reduction.run(&mut schedule).unwrap();
    drop(reduction);
    let mut seen = std::collections::HashSet::new();
    let verdicts: Vec<(String, bool)> = std::mem::take(&mut *log.lock().unwrap())
        .into_iter()
        .filter(|(c, _)| c != PROGRAM && seen.insert(c.clone()))
        .collect();
    let spacing = spaces_only(PROGRAM, &verdicts);
    // The whitespace squeeze and the spacing pass: a test each, not one per space (joining
    // two lines is a deletion of its own).
    assert!(
        spacing.len() <= 3,
        "{} tests of spaces alone: {spacing:#?}",
        spacing.len()
    );
    assert!(tokens(&String::from_utf8_lossy(&result.best)).len() < tokens(PROGRAM).len());
}

#[test]
fn other_text_keeps_its_comments_for_the_finer_passes() {
    // Python: no `;` per line, so no comment pass; the tree passes go first.
    let script = "# setup\ndef f(x):\n    # the value\n    return {x: 1}\n\nprint(f(2))\n";
    let tested = tested(script, &["print(f(2))", "def f"]);
    let stripped = String::from_utf8(strip_comments(script.as_bytes(), |_| true)).unwrap();
    assert!(!tested.contains(&stripped));
}

#[test]
fn a_header_kept_for_one_type_name_goes_with_it() {
    // The test wants an unsigned `i` compared with a call; `size_t` says unsigned only while
    // the header declares it. Deleting the #include alone fails, and so does `int i`.
    const C: &str =
        "#include <stdio.h>\nint l();\nvoid a() {\n    size_t i = 0;\n    if (i < l()) {}\n}\n";
    let oracle = FnOracle::new(|c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        let t = s.replace(' ', "");
        let unsigned =
            s.contains("unsigned i") || (t.contains("#include<stdio.h>") && s.contains("size_t i"));
        unsigned && t.contains("i<l()")
    });
    let mut schedule = Strategy::named("default").unwrap().schedule();
    let mut reduction = Reduction::new(C.into(), &oracle, ReduceOptions::default());
    reduction.run(&mut schedule).unwrap();
    let result = String::from_utf8_lossy(reduction.best()).into_owned();
    assert!(!result.contains("#include"), "{result:?}");
    assert!(result.contains("unsigned i"), "{result:?}");
}

#[test]
fn the_word_split_tests_again_only_the_words_near_a_change_until_the_complete_sweep() {
    use myhill::{
        eval::EvalOptions,
        passes::{Cx, Partition, Pass, SweepMode},
    };
    use std::sync::atomic::{AtomicBool, Ordering};
    // Thirty needed words, then a tail the test needs until `allow` is set.
    let words: Vec<String> = (0..30).map(|i| format!("w{i:03}")).collect();
    let input = format!("{} {}TAIL", words.join(" "), "x ".repeat(5));
    let allow = AtomicBool::new(false);
    let oracle = FnOracle::new(|c: &[u8]| {
        let t = String::from_utf8_lossy(c);
        words.iter().all(|w| t.contains(w.as_str()))
            && (allow.load(Ordering::Relaxed) || t.ends_with("TAIL"))
    });
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::bare());
    let tests = |d: &Cx| d.report().eval.tests_run;
    driver.set_sweep_mode(SweepMode {
        remember: true,
        patience: None,
    });
    Partition::words().run(&mut driver).unwrap();
    assert!(driver.best().ends_with(b"w029 TAIL"));
    // A change at the end: only the words within reach of it are tested again.
    allow.store(true, Ordering::Relaxed);
    let without_tail = driver.best()[..driver.best().len() - 4].to_vec();
    let mut once = Some((without_tail, ()));
    driver.try_candidates(&mut || once.take()).unwrap();
    let before = tests(&driver);
    Partition::words().run(&mut driver).unwrap();
    let remembering = tests(&driver) - before;
    assert!(
        remembering <= 12,
        "{remembering} tests for 30 words, 7 within reach of the change"
    );
    // The complete sweep tests every word again on the final input.
    driver.set_sweep_mode(SweepMode::default());
    let before = tests(&driver);
    Partition::words().run(&mut driver).unwrap();
    assert!(remembering + tests(&driver) - before >= 30);
}

#[test]
fn the_word_split_hands_its_tests_over_below_the_floor_and_goes_on_where_it_stopped() {
    use myhill::{
        eval::EvalOptions,
        passes::{Cx, Partition, Pass, SweepMode},
        report::Counter,
    };
    // Sixty needed words, each followed by one the test does not need: a success about every
    // other test, two bytes each, about one byte a test.
    let words: Vec<String> = (0..60).map(|i| format!("w{i:03}")).collect();
    let input: String = words.iter().map(|w| format!("{w} x ")).collect();
    let oracle = FnOracle::new(|c: &[u8]| {
        let t = String::from_utf8_lossy(c);
        words.iter().all(|w| t.contains(w.as_str()))
    });
    let patient = SweepMode {
        remember: true,
        patience: Some(50),
    };
    let split = |floor: Option<f64>, driver: &mut Cx| {
        driver.set_sweep_mode(patient);
        driver.set_yield_floor(floor);
        let before = driver.report().eval.tests_run;
        Partition::words().run(driver).unwrap();
        driver.report().eval.tests_run - before
    };
    // Uninterrupted, for comparison.
    let mut whole = Cx::new(input.clone().into_bytes(), &oracle, EvalOptions::bare());
    let alone = split(None, &mut whole);
    assert!(!String::from_utf8_lossy(whole.best()).contains('x'));
    // The other passes are expected to pay 5 bytes a test: the split stops after its first
    // 50 tests, with words left to delete.
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::bare());
    let first = split(Some(5.0), &mut driver);
    assert_eq!(first, 50);
    assert_eq!(driver.counted(Counter::SplitHandOvers), 1);
    assert!(String::from_utf8_lossy(driver.best()).contains('x'));
    // Its next run goes on where it stopped: the needed words it found are not tested again.
    let second = split(None, &mut driver);
    assert_eq!(driver.best(), whole.best());
    assert!(
        first + second <= alone + 10,
        "{first} + {second} tests, {alone} uninterrupted"
    );
}

/// The passes that ran at least one test in a default reduction of `input`, of kind `kind`,
/// keeping every function whose name is in `needed`.
fn passes_that_tested(
    input: &str,
    kind: myhill::text::Decided,
    needed: &'static [&str],
) -> Vec<String> {
    let oracle = FnOracle::new(|c: &[u8]| {
        let text = String::from_utf8_lossy(c);
        needed.iter().all(|n| text.contains(n))
    });
    let mut schedule = Strategy::named("default").unwrap().schedule();
    let mut reduction = Reduction::new(input.into(), &oracle, ReduceOptions::default());
    reduction.set_kind(kind);
    let finished = reduction.run(&mut schedule).unwrap();
    assert_eq!(
        finished.report.kind, kind,
        "the report says which kind was used"
    );
    finished
        .report
        .passes
        .iter()
        .filter(|p| p.tests > 0)
        .map(|p| p.name.clone())
        .collect()
}

#[test]
fn a_c_file_whose_bodies_were_emptied_still_gets_the_statement_code_passes() {
    // GNU style, bodies emptied: 3 `;` in 40 lines, far below any density of statements.
    let mut input = String::from("/* emptied */\nint x;\nint y;\nint z;\n");
    for name in ["a", "b", "c", "d", "e", "f", "g", "h", "k"] {
        input.push_str(&format!("static char\n{name} ()\n{{\n}}\n\n"));
    }
    let as_c = passes_that_tested(
        &input,
        myhill::text::Decided::of(Some("t.c"), input.as_bytes()),
        &["h ()"],
    );
    let as_content = passes_that_tested(
        &input,
        myhill::text::Decided::of(None, input.as_bytes()),
        &["h ()"],
    );
    assert_eq!(
        myhill::text::Decided::of(None, input.as_bytes()).kind,
        myhill::text::Kind::Text
    );
    for statement_pass in ["strip/comments", "squeeze/lines"] {
        assert!(
            as_c.contains(&statement_pass.to_string()),
            "{statement_pass} ran on C: {as_c:?}"
        );
        assert!(
            !as_content.contains(&statement_pass.to_string()),
            "{statement_pass} ran on text: {as_content:?}"
        );
    }
}

#[test]
fn a_token_split_removing_less_than_a_tenth_of_a_byte_a_test_hands_over() {
    use myhill::{
        eval::EvalOptions,
        passes::{Cx, Partition, Pass, SweepMode},
        report::Counter,
        text::Granularity,
    };
    // 300 needed tokens and 3 the test does not need, one byte each: whatever order the split
    // takes, it removes less than a tenth of a byte a test.
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(&format!("n{i:03} "));
        if i % 100 == 50 {
            input.push_str("; ");
        }
    }
    // Interesting: the needed tokens, in order, one space apart, once the `;` are gone.
    let needed: Vec<String> = (0..300).map(|i| format!("n{i:03}")).collect();
    let needed = needed.join(" ");
    let oracle = FnOracle::new(|c: &[u8]| {
        let t = String::from_utf8_lossy(c).replace(';', "");
        t.split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            == needed
    });
    // Remembering, with no patience: only the yield can stop it.
    let remembering = SweepMode {
        remember: true,
        patience: None,
    };
    let split = |floor: Option<f64>, driver: &mut Cx| {
        driver.set_sweep_mode(remembering);
        driver.set_yield_floor(floor);
        let before = driver.report().eval.tests_run;
        Partition::new(Granularity::Tokens)
            .remembering()
            .run(driver)
            .unwrap();
        driver.report().eval.tests_run - before
    };
    let mut alone = Cx::new(input.clone().into_bytes(), &oracle, EvalOptions::bare());
    let uninterrupted = split(None, &mut alone);
    assert!(uninterrupted > 100, "{uninterrupted} tests");
    // A waiting pass is expected to pay a byte a test: the split hands its tests over.
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::bare());
    let first = split(Some(1.0), &mut driver);
    assert_eq!(first, 50);
    assert_eq!(driver.counted(Counter::SplitHandOvers), 1);
    // Its next run goes on where it stopped, to the same result.
    let second = split(None, &mut driver);
    assert_eq!(driver.best(), alone.best());
    assert!(
        first + second <= uninterrupted + 10,
        "{first} + {second} tests, {uninterrupted} uninterrupted"
    );
}

#[test]
fn any_pass_removing_less_than_a_tenth_of_a_byte_a_test_hands_over_below_the_floor() {
    use myhill::{
        Stop,
        eval::EvalOptions,
        passes::{Cx, SweepMode},
        strategy::pass_named,
    };
    // 300 needed tokens and 3 the test does not need: whatever order a pass takes, it
    // removes less than a tenth of a byte a test.
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(&format!("n{i:03} "));
        if i % 100 == 50 {
            input.push_str("; ");
        }
    }
    let oracle = FnOracle::new(|c: &[u8]| {
        let t = String::from_utf8_lossy(c);
        (0..300).all(|i| t.contains(&format!("n{i:03}")))
    });
    // Without patience only the yield can stop a sweep early.
    let run = |name: &str, floor: Option<f64>| {
        let mut cx = Cx::new(input.clone().into_bytes(), &oracle, EvalOptions::bare());
        cx.set_sweep_mode(SweepMode {
            remember: true,
            patience: None,
        });
        cx.set_hand_over_floor(floor);
        cx.begin_pass(name);
        let ended = pass_named(name).unwrap().run(&mut cx);
        cx.end_pass(false);
        (ended, cx.report().eval.tests_run)
    };
    for name in ["intervals/tokens", "tpdd/tree", "siblings"] {
        let (ended, tests) = run(name, None);
        assert_eq!(ended, Ok(()), "{name}");
        assert!(tests > 100, "{name}: {tests} tests to its end");
        // A waiting pass is expected to pay a byte a test: this one hands over after 50.
        let (ended, tests) = run(name, Some(1.0));
        assert_eq!((ended, tests), (Err(Stop::HandOver), 50), "{name}");
    }
}
