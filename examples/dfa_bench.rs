//! Measures the DFA pass in-process against ddmin and ProbDD: oracle calls, final size, SAT
//! time, and whether the result is interval-minimal (checked by brute force afterwards, with
//! calls not counted).
//!
//!     cargo run --release --example dfa_bench              # every case
//!     cargo run --release --example dfa_bench random-2k    # cases whose name contains this
//!     cargo run --release --example dfa_bench --only=dfa-pass,ddmin random
//!     cargo run --release --example dfa_bench --window=512 --solve-ms=250 --proof-kib=512
//!     cargo run --release --example dfa_bench --max-clauses=250000 --max-colours=32
//!     cargo run --release --example dfa_bench --probe-colours=4 --probe-rounds=8 --pairs=0
//!     cargo run --release --example dfa_bench --conflicts=20000     (with --features cadical)
//!
//! Strategies: `ddmin` and `probdd` (one run of the policy), `dfa` (the `dfa` schedule: ddmin,
//! then the DFA pass, to a fixpoint), `dfa-pass` (the DFA pass alone) and `intervals` (the DFA
//! pass with SAT switched off: canonical intervals widest first, the baseline SAT must beat),
//! `ddmin+check` (ddmin, then a brute-force interval check through `certify` on the shared
//! cache, to a fixpoint: the other way to end interval-minimal) and `default` (the default
//! schedule, units ignored).

use myhill::{
    FnOracle, ReduceOptions, Reduction, Stop, Strategy,
    check::{Certificate, Minimality},
    passes::{Cx, DfaOptions, DfaPass, Finish, Pass, Schedule, UnitPass},
    policy::{DDMin, Policy, ProbDD},
    report::{Counter, Figure},
    text::{Granularity, Units},
};
use std::sync::Arc;
use std::time::Instant;

type Test = Arc<dyn Fn(&[u8]) -> bool + Send + Sync>;

struct Case {
    name: &'static str,
    what: &'static str,
    input: Vec<u8>,
    granularity: Granularity,
    test: Test,
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// `len` pseudo-random bytes with DE AD planted at a third and BE EF at three quarters, and
/// both bytes DE and BE scrubbed everywhere else.
fn planted_random(len: usize, seed: u64) -> Vec<u8> {
    let mut next = xorshift(seed);
    let mut bytes: Vec<u8> = (0..len)
        .map(|_| match (next() >> 24) as u8 {
            0xDE | 0xBE => 0,
            b => b,
        })
        .collect();
    bytes[len / 3..len / 3 + 2].copy_from_slice(&[0xDE, 0xAD]);
    bytes[len * 3 / 4..len * 3 / 4 + 2].copy_from_slice(&[0xBE, 0xEF]);
    bytes
}

fn dead_beef(b: &[u8]) -> bool {
    b.windows(2)
        .position(|w| w == [0xDE, 0xAD])
        .is_some_and(|i| b[i + 2..].windows(2).any(|w| w == [0xBE, 0xEF]))
}

/// A random balanced bracket term of about `len` bytes with one `x` inside.
fn brackets(len: usize, seed: u64) -> Vec<u8> {
    let mut next = xorshift(seed);
    let mut out = Vec::new();
    let mut depth = 0usize;
    while out.len() < len || depth > 0 {
        let open = out.len() < len && (depth == 0 || next().is_multiple_of(2));
        if open {
            out.push(b'(');
            depth += 1;
        } else {
            out.push(b')');
            depth -= 1;
        }
    }
    let at = out.len() * 2 / 3;
    out.insert(at, b'x');
    out
}

fn balanced_with_x(b: &[u8]) -> bool {
    let mut depth = 0i64;
    for &c in b {
        depth += match c {
            b'(' => 1,
            b')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && b.contains(&b'x')
}

fn nested_with_bb(b: &[u8]) -> bool {
    let mut stack = Vec::new();
    for &c in b {
        match c {
            b'(' | b'[' => stack.push(c),
            b')' if stack.pop() != Some(b'(') => return false,
            b']' if stack.pop() != Some(b'[') => return false,
            _ => {}
        }
    }
    stack.is_empty() && b.windows(2).any(|w| w == b"bb")
}

fn odd_abc_with_x(b: &[u8]) -> bool {
    let Some(x) = b.iter().position(|&c| c == b'X') else {
        return false;
    };
    let blocks = |s: &[u8]| {
        (s.len().is_multiple_of(3) && s.chunks(3).all(|c| c == b"abc")).then_some(s.len() / 3)
    };
    match (blocks(&b[..x]), blocks(&b[x + 1..])) {
        (Some(l), Some(r)) => !(l + r).is_multiple_of(2),
        _ => false,
    }
}

fn json_config_needle(b: &[u8]) -> bool {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(b) else {
        return false;
    };
    doc.get("config")
        .and_then(|c| c.get("needle"))
        .is_some_and(|v| v.as_u64() == Some(42) && !v.is_f64())
}

/// The families of examples/families/ (the same inputs and, in Rust, the same tests as their
/// interesting.sh).
fn families() -> Vec<Case> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/families");
    let read = |name: &str| {
        std::fs::read(format!("{dir}/{name}/input"))
            .unwrap_or_else(|e| panic!("reading {dir}/{name}/input: {e}"))
    };
    let mut out = Vec::new();
    for (name, what) in [
        (
            "parens-215",
            "balanced parentheses keeping an x, 215 bytes (bytes)",
        ),
        ("parens-397", "the same at 397 bytes (bytes)"),
        ("parens-597", "the same at 597 bytes (bytes)"),
        ("parens-797", "the same at 797 bytes (bytes)"),
        ("parens-1003", "the same at 1,003 bytes (bytes)"),
    ] {
        out.push(Case {
            name,
            what,
            input: read(name),
            granularity: Granularity::Bytes,
            test: Arc::new(balanced_with_x),
        });
    }
    out.push(Case {
        name: "nested-bb",
        what: "nested () and [] keeping bb, 150 bytes (bytes)",
        input: read("nested-bb"),
        granularity: Granularity::Bytes,
        test: Arc::new(nested_with_bb),
    });
    out.push(Case {
        name: "abc-x",
        what: "abc 133 times with an X; an odd number of blocks (bytes)",
        input: read("abc-x"),
        granularity: Granularity::Bytes,
        test: Arc::new(odd_abc_with_x),
    });
    out.push(Case {
        name: "json-small",
        what: "206 bytes of JSON needing config.needle = 42 (bytes)",
        input: read("json-small"),
        granularity: Granularity::Bytes,
        test: Arc::new(json_config_needle),
    });
    out
}

fn cases() -> Vec<Case> {
    let seed_200: Vec<u8> = (0..200)
        .flat_map(|i| format!("step {i}\n").into_bytes())
        .collect();
    let steps = |b: &[u8]| {
        let want: [&[u8]; 3] = [b"step 37", b"step 118", b"step 161"];
        let mut k = 0;
        for line in b.split(|&c| c == b'\n') {
            if k < 3 && line == want[k] {
                k += 1;
            }
        }
        k == 3
    };
    vec![
        Case {
            name: "seed-200",
            what: "200 lines `step i`, needs steps 37, 118, 161 in order (lines)",
            input: seed_200,
            granularity: Granularity::Lines,
            test: Arc::new(steps),
        },
        Case {
            name: "random-2k",
            what: "2048 random bytes needing DE AD then BE EF (bytes)",
            input: planted_random(2048, 0xC0FFEE),
            granularity: Granularity::Bytes,
            test: Arc::new(dead_beef),
        },
        Case {
            name: "random-512",
            what: "the same at 512 bytes (bytes)",
            input: planted_random(512, 0xC0FFEE),
            granularity: Granularity::Bytes,
            test: Arc::new(dead_beef),
        },
        Case {
            name: "brackets-300",
            what: "a random balanced bracket term with one x; must stay balanced (bytes)",
            input: brackets(300, 42),
            granularity: Granularity::Bytes,
            test: Arc::new(balanced_with_x),
        },
    ]
    .into_iter()
    .chain(families())
    .collect()
}

/// The brute-force interval check on the shared cache: certify, and on a deletable interval
/// accept the smaller input (a cache hit) and certify again.
struct Check(Granularity);

impl Pass for Check {
    fn name(&self) -> String {
        format!("check/{}", self.0)
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), Stop> {
        loop {
            let units = Units::cut(driver.best(), self.0);
            match driver.certify(&units, Minimality::IntervalMinimal)? {
                Certificate::Minimal { .. } => return Ok(()),
                Certificate::NotMinimal { smaller, .. } => {
                    let mut once = Some((smaller, ()));
                    driver.try_candidates(&mut || once.take())?;
                }
            }
        }
    }
}

struct Row {
    tests: u64,
    final_bytes: usize,
    interval_minimal: bool,
    wall: f64,
    counters: std::collections::BTreeMap<Counter, Figure>,
}

fn interval_minimal(bytes: &[u8], g: Granularity, test: &Test) -> bool {
    let units = Units::cut(bytes, g);
    let n = units.len() as u32;
    (0..=n).all(|j| {
        (0..j).all(|i| {
            let mut cand = bytes[..units.offset(i)].to_vec();
            cand.extend_from_slice(&bytes[units.offset(j)..]);
            !test(&cand)
        })
    })
}

fn run(case: &Case, strategy: &str, dfa: &DfaOptions) -> Row {
    let test = case.test.clone();
    let oracle = FnOracle::new(move |b: &[u8]| test(b));
    // One run of the original (not counted below), no re-runs: the bare passes.
    let options = ReduceOptions {
        first_runs: 1,
        verify: false,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(case.input.clone(), &oracle, options);
    let g = case.granularity;
    let one = |pass: Box<dyn Pass>, to_fixpoint| Schedule {
        passes: vec![pass],
        to_fixpoint,
    };
    let unit = |make: fn() -> Box<dyn Policy>| Box::new(UnitPass::new(g, Arc::new(make)));
    let mut schedule = match strategy {
        "ddmin" => one(unit(|| Box::new(DDMin)), false),
        "probdd" => one(unit(|| Box::new(ProbDD::default())), false),
        "dfa" => Schedule {
            passes: vec![
                Box::new(DfaPass::new(
                    g,
                    DfaOptions {
                        finish: Finish::ProbeOnly,
                        ..dfa.clone()
                    },
                )),
                unit(|| Box::new(DDMin)),
                Box::new(DfaPass::new(
                    g,
                    DfaOptions {
                        probe_colours: 0,
                        finish: Finish::Certify,
                        ..dfa.clone()
                    },
                )),
            ],
            to_fixpoint: true,
        },
        "ddmin+pass" => Schedule {
            passes: vec![
                unit(|| Box::new(DDMin)),
                Box::new(DfaPass::new(g, dfa.clone())),
            ],
            to_fixpoint: true,
        },
        "dfa-pass" => one(Box::new(DfaPass::new(g, dfa.clone())), false),
        "ddmin+check" => Schedule {
            passes: vec![unit(|| Box::new(DDMin)), Box::new(Check(g))],
            to_fixpoint: true,
        },
        "default" => Strategy::named("default").unwrap().schedule(),
        "intervals" => {
            let options = DfaOptions {
                use_solver: false,
                ..dfa.clone()
            };
            one(Box::new(DfaPass::new(g, options)), false)
        }
        other => panic!("unknown strategy {other}"),
    };
    let started = Instant::now();
    let finished = reduction
        .run(&mut schedule)
        .expect("in-process runs cannot fail");
    let wall = started.elapsed().as_secs_f64();
    let report = finished.report;
    Row {
        tests: report.eval.tests_run - report.first_check_runs,
        final_bytes: report.final_bytes,
        interval_minimal: interval_minimal(&finished.best, g, &case.test),
        wall,
        counters: report.counters,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (flags, filter): (Vec<String>, Vec<String>) =
        args.into_iter().partition(|a| a.starts_with("--"));
    let flag = |name: &str| {
        flags
            .iter()
            .find_map(|f| f.strip_prefix(&format!("--{name}=")).map(String::from))
    };
    let number = |name: &str| flag(name).map(|v| v.parse::<u64>().expect("a number"));
    let mut dfa = DfaOptions::default();
    if let Some(w) = number("window") {
        dfa.window = w as usize;
    }
    if let Some(ms) = number("solve-ms") {
        dfa.solve_time = std::time::Duration::from_millis(ms);
    }
    if let Some(kib) = number("proof-kib") {
        dfa.solve_proof_bytes = kib << 10;
    }
    if let Some(c) = number("max-clauses") {
        dfa.max_clauses = c as usize;
    }
    if let Some(k) = number("max-colours") {
        dfa.max_colours = k as usize;
    }
    if let Some(k) = number("probe-colours") {
        dfa.probe_colours = k as usize;
    }
    if let Some(r) = number("probe-rounds") {
        dfa.probe_rounds = r as usize;
    }
    if let Some(p) = number("pairs") {
        dfa.pair_batch = p as usize;
    }
    if let Some(c) = number("conflicts") {
        dfa.solve_conflicts = c;
    }
    let only: Vec<String> = flag("only").into_iter().collect();
    let strategies: Vec<String> = match only.first() {
        Some(o) => o.split(',').map(String::from).collect(),
        None => [
            "ddmin",
            "probdd",
            "dfa",
            "dfa-pass",
            "intervals",
            "ddmin+check",
        ]
        .map(String::from)
        .to_vec(),
    };
    println!(
        "| case | strategy | oracle calls | final bytes | interval-minimal | wall s | SAT s | solves | max K | longest solve s | gave up (deadline) | accepted path / pair / interval / fallback (probe) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for case in cases() {
        if !filter.is_empty() && !filter.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        eprintln!("{}: {} ({} bytes)", case.name, case.what, case.input.len());
        for strategy in &strategies {
            let row = run(&case, strategy, &dfa);
            let c = |k: Counter| row.counters.get(&k).map_or(0.0, |f| f.value());
            println!(
                "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {:.3} | {} ({}) | {} / {} / {} / {} ({}) |",
                case.name,
                strategy,
                row.tests,
                row.final_bytes,
                if row.interval_minimal { "yes" } else { "no" },
                row.wall,
                c(Counter::DfaSatSeconds),
                c(Counter::DfaSolves),
                c(Counter::DfaMaxColours),
                c(Counter::DfaLongestSolveSeconds),
                c(Counter::DfaGaveUp),
                c(Counter::DfaGaveUpDeadline),
                c(Counter::DfaAcceptedShortestPath),
                c(Counter::DfaAcceptedPair),
                c(Counter::DfaAcceptedInterval),
                c(Counter::DfaAcceptedFallback),
                c(Counter::DfaAcceptedProbe),
            );
        }
    }
}
