//! Tree strategies against flat DDMin and ProbDD on a synthetic C-like program, in-process.
//!
//!     cargo run --release --example tree_strategies [FUNCTIONS]
//!
//! The program has FUNCTIONS (default 40) small functions; three of them hold the calls the
//! "bug" needs, at three nesting depths (the T-PDD page's scattered bug, scaled up). A candidate
//! is interesting iff its brackets balance (a stand-in for "it still parses") and all three
//! calls survive. Printed per strategy: oracle calls, final size, and the share of candidates
//! rejected, and of those the share rejected for unbalanced brackets.

use myhill::{
    FnOracle,
    eval::EvalOptions,
    passes::{Cx, Pass, TreePass, TreeStrategy, UnitPass},
    policy::{DDMin, PolicyFactory, ProbDD},
    text::{Granularity, Units},
    tree::infer,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

fn program(functions: usize) -> String {
    let mut out = String::from("#include <stdio.h>\n\n");
    for k in 0..functions {
        let special = if k == functions / 6 {
            "    setup();\n"
        } else if k == functions / 2 {
            "    if (x) {\n        corrupt();\n    }\n"
        } else if k == functions * 5 / 6 {
            "    if (x) {\n        if (b) {\n            crash();\n        }\n    }\n"
        } else {
            ""
        };
        out.push_str(&format!(
            "int f{k}(int a, int b) {{\n    int x = a + {k};\n{special}    if (x > b) {{\n        x = x * 2;\n    }}\n    return x;\n}}\n\n"
        ));
    }
    out.push_str("int main(void) {\n    return f0(1, 2);\n}\n");
    out
}

fn balanced(bytes: &[u8]) -> bool {
    let mut stack = Vec::new();
    for &b in bytes {
        match b {
            b'(' | b'[' | b'{' => stack.push(b),
            b')' | b']' | b'}' => {
                let want = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(want) {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty()
}

struct Figures {
    calls: u64,
    rejected: u64,
    unbalanced: u64,
    size: usize,
}

fn measure(input: &str, pass: &mut dyn Pass) -> Figures {
    let (calls, rejected, unbalanced) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let oracle = FnOracle::new(|c: &[u8]| {
        calls.fetch_add(1, Ordering::Relaxed);
        let text = String::from_utf8_lossy(c);
        let ok_brackets = balanced(c);
        let needed = ["setup();", "corrupt();", "crash();"]
            .iter()
            .all(|n| text.contains(n));
        if !ok_brackets {
            unbalanced.fetch_add(1, Ordering::Relaxed);
        }
        let interesting = ok_brackets && needed;
        if !interesting {
            rejected.fetch_add(1, Ordering::Relaxed);
        }
        interesting
    });
    let mut driver = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
    pass.run(&mut driver).expect("in-process runs cannot fail");
    let size = driver.best().len();
    drop(driver);
    Figures {
        calls: calls.into_inner(),
        rejected: rejected.into_inner(),
        unbalanced: unbalanced.into_inner(),
        size,
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn main() {
    let functions: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("FUNCTIONS is a number"))
        .unwrap_or(40);
    let input = program(functions);
    println!(
        "synthetic program: {functions} functions, {} bytes, {} tokens, {} inferred lexemes",
        input.len(),
        Units::cut(input.as_bytes(), Granularity::Tokens).len(),
        infer(input.as_bytes()).map_or(0, |i| i.units.len())
    );
    println!(
        "{:<22} {:>7} {:>7} {:>9} {:>11}",
        "strategy", "calls", "bytes", "rejected", "unbalanced"
    );
    let ddmin: PolicyFactory = Arc::new(|| Box::new(DDMin));
    let probdd: PolicyFactory = Arc::new(|| Box::new(ProbDD::new(0.1)));
    let mut passes: Vec<(String, Box<dyn Pass>)> = TreeStrategy::ALL
        .iter()
        .map(|&s| (s.to_string(), Box::new(TreePass::new(s)) as Box<dyn Pass>))
        .collect();
    for granularity in [Granularity::Lines, Granularity::Tokens] {
        for (name, make) in [("ddmin", &ddmin), ("probdd", &probdd)] {
            passes.push((
                format!("{name}/{granularity}"),
                Box::new(UnitPass::new(granularity, make.clone())),
            ));
        }
    }
    for (name, pass) in passes.iter_mut() {
        let f = measure(&input, pass.as_mut());
        println!(
            "{name:<22} {:>7} {:>7} {:>8.1}% {:>10.1}%",
            f.calls,
            f.size,
            percent(f.rejected, f.calls),
            percent(f.unbalanced, f.calls),
        );
    }
}
