//! Runs the generated families (`families.rs`) in-process through the DFA pass alone, ddmin,
//! ProbDD and the default schedule with and without its DFA probe: tests to the end and final
//! size against each case's known minimum, per case and per family, and a plot.
//!
//!     cargo run --release --example dfa_families                       # 220 cases, every strategy
//!     cargo run --release --example dfa_families -- --count=40 --only=dfa-pass,ddmin
//!     cargo run --release --example dfa_families -- --csv=rows.csv --svg=notes/dfa-families.svg
//!     cargo run --release --example dfa_families -- --only=default,probe:5120:8,probe:1024:32
//!     cargo run --release --example dfa_families -- --max-tests=20000 br0   (names containing br0)
//!     cargo run --release --example dfa_families -- --merge=a.csv,b.csv --svg=plot.svg   (no runs)
//!     cargo run --release --example dfa_families -- --skip=40    (from the 41st case on)
//!     cargo run --release --example dfa_families -- --set=held-out   (families::generate_held_out)
//!
//! Strategies: `dfa-pass` (`--strategy dfa-pass --units bytes`), `ddmin` and `probdd` (one run
//! of the policy over bytes), `default` (the default schedule), `no-probe` (the default
//! schedule without its DFA probe) and `probe:BYTES:SYMBOLS` (the default schedule with the
//! probe's bounds set so), and `dfa-pass:OPTION:...` (the pass with `bN`, a failure budget of
//! N colouring candidates per word before ddmin's order, `long` (words over a window go to
//! ddmin's order after the probe; `nolong`: not), `nowalk`, `pN` (the probe stops on a word after N failures),
//! `learn` (the budget scaled by the run's beliefs), `walk` (no colourings once ddmin's order
//! is exhausted), `u0` (no pairs of units), `nobudget`, `hints` or `nohints`, `noorder` (ddmin's chunks in
//! their own order, not the probe's quotient's first), `ddminkinds` (above halves, chunks kept
//! alone always before chunks deleted, not as the run's payoff orders them), `rN` (N probe
//! rounds a word), `cN` (at most N colours in the probe) or `fN` (at most N colourings a word
//! refuted by known failures and solved again; `f0`: failures refute nothing) or `bulkN` (the
//! probe's class intervals and its going on to the next word need deletions of at least 1/N
//! of the word; `bulk0`: any)).
//! `given` takes the whole-word deletion as failing without a test. With `--choice=STRATEGY`
//! (and `dfa-pass`, `ddmin` among the strategies) the summary gives the most a per-case
//! choice between the pass and STRATEGY could reach, free and at one test's cost (a tie ranks
//! before the minimum).
//! Tests exclude the first run of the original. Beside tests to the end, each row records the
//! tests to the strategy's first reaching of its final size (`tests_to_final`), which leaves
//! out whatever the strategy spends proving that size; `--merge` reads rows without it.

mod families;

use families::{Case, Scale, generate, generate_held_out};
use myhill::{
    FnOracle, ReduceOptions, Reduction, Strategy,
    passes::{DfaOptions, DfaPass, Pass, Schedule, UnitPass},
    policy::{DDMin, Policy, ProbDD},
    text::Granularity,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Clone)]
struct Outcome {
    tests: u64,
    final_bytes: usize,
    seconds: f64,
    /// Stopped by `--max-tests` before the strategy's end.
    budget: bool,
    /// Tests until the best first had its final size (`None`: a merged row from before).
    tests_to_final: Option<u64>,
    /// The DFA pass's figures, `name=value` (`--counters`).
    counters: String,
}

fn schedule(strategy: &str) -> Schedule {
    let g = Granularity::Bytes;
    let one = |pass: Box<dyn Pass>| Schedule {
        passes: vec![pass],
        to_fixpoint: false,
    };
    let unit = |make: fn() -> Box<dyn Policy>| Box::new(UnitPass::new(g, Arc::new(make)));
    let default = || {
        Strategy::named("default")
            .expect("the default strategy")
            .schedule()
    };
    match strategy {
        "ddmin" => one(unit(|| Box::new(DDMin))),
        "probdd" => one(unit(|| Box::new(ProbDD::default()))),
        "dfa-pass" => one(Box::new(DfaPass::new(g, DfaOptions::default()))),
        "default" => default(),
        variant if variant.starts_with("dfa-pass:") => {
            // `dfa-pass:b4:hints`: the pass with a failure budget of 4 per word, carrying hints.
            let mut options = DfaOptions::default();
            for part in variant.split(':').skip(1) {
                match part {
                    "hints" => options.carry_hints = true,
                    "noorder" => options.order_chunks = false,
                    "ddminkinds" => options.chunk_kinds_by_payoff = false,
                    "long" => options.chunks_before_windows = true,
                    "nolong" => options.chunks_before_windows = false,
                    "nowalk" => options.walk_after_chunks = false,
                    "learn" => options.learn_budget = true,
                    "walk" => options.walk_after_chunks = true,
                    "u0" => options.pair_stage_units = 0,
                    "nohints" => options.carry_hints = false,
                    "nobudget" => options.colouring_failures_per_word = usize::MAX,
                    "given" => options.whole_word_given = true,
                    _ if part.starts_with("bulk") => {
                        options.probe_bulk = part[4..].parse().expect("bulkN: the probe's bulk")
                    }
                    _ if part.starts_with('r') => {
                        options.probe_rounds = part[1..].parse().expect("rN: probe rounds")
                    }
                    _ if part.starts_with('c') => {
                        options.probe_colours = part[1..].parse().expect("cN: probe colours")
                    }
                    _ if part.starts_with('f') => {
                        options.refutations_per_word =
                            part[1..].parse().expect("fN: refutations a word")
                    }
                    _ if part.starts_with('p') => {
                        options.probe_failures_per_word =
                            part[1..].parse().expect("pN: a probe failure budget")
                    }
                    _ => {
                        options.colouring_failures_per_word = part
                            .strip_prefix('b')
                            .and_then(|v| v.parse().ok())
                            .unwrap_or_else(|| panic!("unknown option {part} of {variant}"))
                    }
                }
            }
            one(Box::new(DfaPass::new(g, options)))
        }
        "no-probe" => {
            let mut s = default();
            s.passes.retain(|p| !p.name().starts_with("dfa-probe"));
            s
        }
        other => {
            let bounds: Vec<usize> = other
                .strip_prefix("probe:")
                .unwrap_or_else(|| panic!("unknown strategy {other}"))
                .split(':')
                .map(|v| v.parse().expect("probe:BYTES:SYMBOLS"))
                .collect();
            let mut s = default();
            let at = s
                .passes
                .iter()
                .position(|p| p.name().starts_with("dfa-probe"))
                .expect("the default schedule probes");
            s.passes[at] = Box::new(DfaPass::probe(g, bounds[0]).with_max_alphabet(bounds[1]));
            s
        }
    }
}

fn run(case: &Case, strategy: &str, max_tests: Option<u64>) -> Outcome {
    let test = case.test.clone();
    // Every interesting call's length, in call order: the first run of the original included.
    let interesting = Arc::new(Mutex::new(Vec::new()));
    let seen = interesting.clone();
    let calls = AtomicU64::new(0);
    let oracle = FnOracle::new(move |b: &[u8]| {
        let call = calls.fetch_add(1, Ordering::SeqCst);
        let verdict = test(b);
        if verdict {
            seen.lock().expect("not poisoned").push((call, b.len()));
        }
        verdict
    });
    let options = ReduceOptions {
        first_runs: 1,
        verify: false,
        max_tests,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(case.input.clone(), &oracle, options);
    let mut schedule = schedule(strategy);
    let started = Instant::now();
    let finished = reduction
        .run(&mut schedule)
        .expect("in-process runs cannot fail");
    let seconds = started.elapsed().as_secs_f64();
    assert!((case.test)(&finished.best), "{strategy} on {}", case.name);
    let tests = finished.report.eval.tests_run - finished.report.first_check_runs;
    let counters = finished
        .report
        .counters
        .iter()
        .filter(|(k, v)| k.to_string().starts_with("dfa.") && v.value() != 0.0)
        .map(|(k, v)| format!("{k}={}", v.value()))
        .collect::<Vec<_>>()
        .join(" ");
    let first_call = interesting
        .lock()
        .expect("not poisoned")
        .iter()
        .find(|&&(_, len)| len == finished.best.len())
        .map_or(0, |&(call, _)| call);
    Outcome {
        counters,
        tests,
        final_bytes: finished.best.len(),
        seconds,
        budget: max_tests.is_some_and(|m| tests + 1 >= m),
        tests_to_final: Some((first_call + 1).saturating_sub(finished.report.first_check_runs)),
    }
}

/// One run in a family's figures: tests, bytes above the minimum, stopped by the budget.
type Tally = (u64, usize, bool);

const COLOURS: &[(&str, &str)] = &[
    ("brackets", "#1f77b4"),
    ("counted", "#d62728"),
    ("periodic", "#2ca02c"),
    ("position", "#9467bd"),
    ("automaton", "#ff7f0e"),
];

/// A log-log scatter of the pass's tests against ddmin's, one dot per case (hollow where the
/// pass ended above the minimum), with the lines `y = x` and `y = 2x`.
fn scatter(points: &[(&'static str, u64, u64, bool)]) -> String {
    let (w, h, m) = (640.0, 520.0, 60.0);
    let max = points
        .iter()
        .map(|p| p.1.max(p.2))
        .max()
        .unwrap_or(10)
        .max(10) as f64;
    let top = max.log10().ceil();
    let x = |v: u64| m + (v.max(1) as f64).log10() / top * (w - 2.0 * m);
    let y = |v: u64| h - m - (v.max(1) as f64).log10() / top * (h - 2.0 * m);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    for d in 0..=top as u32 {
        let v = 10u64.pow(d);
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/><text x="{0}" y="{3}" text-anchor="middle">{v}</text>"##,
            x(v),
            m,
            h - m,
            h - m + 16.0
        );
        let _ = writeln!(
            s,
            r##"<line x1="{1}" y1="{0}" x2="{2}" y2="{0}" stroke="#ddd"/><text x="{3}" y="{4}" text-anchor="end">{v}</text>"##,
            y(v),
            m,
            w - m,
            m - 6.0,
            y(v) + 4.0
        );
    }
    let end = 10f64.powf(top) as u64;
    let _ = writeln!(
        s,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444"/><text x="{}" y="{}">same tests</text>"##,
        x(1),
        y(1),
        x(end),
        y(end),
        x(end) - 70.0,
        y(end) + 14.0
    );
    let _ = writeln!(
        s,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444" stroke-dasharray="4 4"/><text x="{}" y="{}">twice ddmin</text>"##,
        x(1),
        y(2),
        x(end / 2),
        y(end),
        x(end / 2) - 90.0,
        y(end) + 14.0
    );
    for &(family, ddmin, pass, at_minimum) in points {
        let colour = COLOURS
            .iter()
            .find(|c| c.0 == family)
            .map_or("#000", |c| c.1);
        let fill = if at_minimum { colour } else { "none" };
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="{colour}" stroke-width="1.5"/>"#,
            x(ddmin),
            y(pass)
        );
    }
    for (i, (family, colour)) in COLOURS.iter().enumerate() {
        let ly = m + 10.0 + 16.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="{ly}" r="4" fill="{colour}"/><text x="{}" y="{}">{family}</text>"#,
            w - m - 100.0,
            w - m - 90.0,
            ly + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">ddmin tests (log)</text>"#,
        w / 2.0,
        h - 15.0
    );
    let _ = writeln!(
        s,
        r#"<text x="15" y="{}" transform="rotate(-90 15 {})" text-anchor="middle">dfa-pass tests (log); hollow: above the minimum</text>"#,
        h / 2.0,
        h / 2.0
    );
    s.push_str("</svg>\n");
    s
}

fn median(mut v: Vec<u64>) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
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
    let count: usize = flag("count").map_or(220, |v| v.parse().expect("--count=N"));
    let seed: u64 = flag("seed").map_or(0x5EED, |v| v.parse().expect("--seed=N"));
    let max_tests: Option<u64> = flag("max-tests").map(|v| v.parse().expect("--max-tests=N"));
    // Rows of earlier runs (`--merge=A.csv,B.csv`; a later file's row wins), instead of runs.
    let merged: Option<BTreeMap<(String, String), Outcome>> = flag("merge").map(|files| {
        let mut rows = BTreeMap::new();
        for file in files.split(',') {
            let text =
                std::fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {file}: {e}"));
            for line in text.lines().skip(1) {
                let f: Vec<&str> = line.split(',').collect();
                let outcome = Outcome {
                    tests: f[5].parse().expect("tests"),
                    final_bytes: f[6].parse().expect("final"),
                    seconds: f[7].parse().expect("seconds"),
                    budget: f[8] == "true",
                    tests_to_final: f.get(9).map(|v| v.parse().expect("tests_to_final")),
                    counters: String::new(),
                };
                rows.insert((f[0].to_string(), f[4].to_string()), outcome);
            }
        }
        rows
    });
    let strategies: Vec<String> = flag("only")
        .unwrap_or_else(|| "dfa-pass,ddmin,probdd,default,no-probe".into())
        .split(',')
        .map(String::from)
        .collect();
    let skip: usize = flag("skip").map_or(0, |v| v.parse().expect("--skip=N"));
    let generated = match flag("set").as_deref() {
        None | Some("families") => generate(count, seed, Scale::FAMILIES),
        Some("held-out") => generate_held_out(count, seed, Scale::FAMILIES),
        Some(other) => panic!("--set={other}: families or held-out"),
    };
    let cases: Vec<Case> = generated
        .into_iter()
        .skip(skip)
        .filter(|c| filter.is_empty() || filter.iter().any(|f| c.name.contains(f.as_str())))
        .filter(|c| {
            merged.as_ref().is_none_or(|m| {
                strategies
                    .iter()
                    .all(|s| m.contains_key(&(c.name.clone(), s.clone())))
            })
        })
        .collect();
    let mut csv = String::from(
        "case,family,bytes,minimum,strategy,tests,final,seconds,budget,tests_to_final\n",
    );
    // family -> strategy -> (tests, final - minimum, budget)
    let mut per_family: BTreeMap<&str, BTreeMap<String, Vec<Tally>>> = BTreeMap::new();
    let mut by_case: Vec<BTreeMap<String, Outcome>> = Vec::new();
    for case in &cases {
        let mut row = BTreeMap::new();
        let mut line = format!(
            "{} ({} B, min {}):",
            case.name,
            case.input.len(),
            case.minimum
        );
        for strategy in &strategies {
            let out = match &merged {
                Some(rows) => rows[&(case.name.clone(), strategy.clone())].clone(),
                None => run(case, strategy, max_tests),
            };
            assert!(
                out.final_bytes >= case.minimum,
                "{}: below the minimum",
                case.name
            );
            let _ = write!(line, " {strategy} {}/{}", out.tests, out.final_bytes);
            if flags.iter().any(|f| f == "--counters") && !out.counters.is_empty() {
                let _ = write!(line, " [{}]", out.counters);
            }
            let _ = writeln!(
                csv,
                "{},{},{},{},{strategy},{},{},{:.3},{},{}",
                case.name,
                case.family,
                case.input.len(),
                case.minimum,
                out.tests,
                out.final_bytes,
                out.seconds,
                out.budget,
                out.tests_to_final.map_or(String::new(), |t| t.to_string())
            );
            per_family
                .entry(case.family)
                .or_default()
                .entry(strategy.clone())
                .or_default()
                .push((out.tests, out.final_bytes - case.minimum, out.budget));
            row.insert(strategy.clone(), out);
        }
        eprintln!("{line}");
        by_case.push(row);
        // After every case, so that an interrupted run keeps what it measured.
        if let Some(path) = flag("csv") {
            std::fs::write(&path, &csv).unwrap_or_else(|e| panic!("writing {path}: {e}"));
        }
    }
    println!(
        "| family | cases | strategy | at minimum | median tests | total tests | median excess bytes | stopped by budget |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    for (family, strategies) in &per_family {
        for (strategy, rows) in strategies {
            let at_min = rows.iter().filter(|r| r.1 == 0).count();
            println!(
                "| {family} | {} | {strategy} | {at_min} | {} | {} | {} | {} |",
                rows.len(),
                median(rows.iter().map(|r| r.0).collect()),
                rows.iter().map(|r| r.0).sum::<u64>(),
                median(rows.iter().map(|r| r.1 as u64).collect()),
                rows.iter().filter(|r| r.2).count(),
            );
        }
    }
    let both =
        |a: &str, b: &str| strategies.iter().any(|s| s == a) && strategies.iter().any(|s| s == b);
    if strategies.iter().any(|s| s == "dfa-pass") {
        let n = cases.len();
        let at_min = cases
            .iter()
            .zip(&by_case)
            .filter(|(c, r)| r["dfa-pass"].final_bytes == c.minimum)
            .count();
        println!();
        println!(
            "dfa-pass at the minimum: {at_min} of {n} ({:.1} %)",
            100.0 * at_min as f64 / n.max(1) as f64
        );
        if both("dfa-pass", "ddmin") {
            let ratio = |r: &BTreeMap<String, Outcome>| {
                r["dfa-pass"].tests as f64 / r["ddmin"].tests.max(1) as f64
            };
            let no_more = by_case.iter().filter(|r| ratio(r) <= 1.0).count();
            let over_twice: Vec<&str> = cases
                .iter()
                .zip(&by_case)
                .filter(|(_, r)| ratio(r) > 2.0)
                .map(|(c, _)| c.name.as_str())
                .collect();
            let worst = by_case.iter().map(ratio).fold(0.0, f64::max);
            println!(
                "dfa-pass tests <= ddmin's: {no_more} of {n} ({:.1} %); over twice ddmin's: {} (worst ratio {worst:.2})",
                100.0 * no_more as f64 / n.max(1) as f64,
                over_twice.len()
            );
            if !over_twice.is_empty() {
                println!("over twice: {}", over_twice.join(", "));
            }
            let first = |r: &BTreeMap<String, Outcome>| {
                Some((r["dfa-pass"].tests_to_final?, r["ddmin"].tests_to_final?))
            };
            if let Some(pairs) = by_case.iter().map(first).collect::<Option<Vec<_>>>() {
                // Neither side pays for proving its end: the pass's interval-minimality and
                // ddmin's last sweep are left out alike.
                println!(
                    "to each one's first reaching of its final size: dfa-pass tests <= ddmin's {} of {n}, over twice {}",
                    pairs.iter().filter(|(p, d)| p <= d).count(),
                    pairs.iter().filter(|(p, d)| *p > 2 * *d).count(),
                );
            }
            if let Some(other) = flag("choice") {
                assert!(
                    strategies.contains(&other),
                    "--choice={other} needs {other} in --only"
                );
                // The most a rule choosing per case between the pass and `other` could reach:
                // the better of the two (a tie first, then the minimum, then fewer tests),
                // when the choice costs no test and when it costs one, whichever it picks.
                for (cost, costing) in [(0, "no test"), (1, "one test")] {
                    let (mut ties, mut minima, mut over) = (0, 0, 0);
                    for (c, r) in cases.iter().zip(&by_case) {
                        let ddmin = r["ddmin"].tests;
                        let grade = |tests: u64, bytes: usize| {
                            (tests <= ddmin, bytes == c.minimum, std::cmp::Reverse(tests))
                        };
                        let pass = grade(r["dfa-pass"].tests + cost, r["dfa-pass"].final_bytes);
                        let alt = grade(r[&other].tests + cost, r[&other].final_bytes);
                        let (tie, at_min, std::cmp::Reverse(tests)) = pass.max(alt);
                        ties += usize::from(tie);
                        minima += usize::from(at_min);
                        over += usize::from(tests > 2 * ddmin);
                    }
                    println!(
                        "the better of dfa-pass and {other} per case, the choice costing {costing}: tests <= ddmin's {ties} of {n} ({:.1} %), at the minimum {minima}, over twice {over}",
                        100.0 * ties as f64 / n.max(1) as f64
                    );
                }
            }
            for family in per_family.keys() {
                let rows: Vec<_> = cases
                    .iter()
                    .zip(&by_case)
                    .filter(|(c, _)| c.family == *family)
                    .collect();
                println!(
                    "{family}: dfa-pass at the minimum {} of {}, tests <= ddmin's {}, over twice {}",
                    rows.iter()
                        .filter(|(c, r)| r["dfa-pass"].final_bytes == c.minimum)
                        .count(),
                    rows.len(),
                    rows.iter().filter(|(_, r)| ratio(r) <= 1.0).count(),
                    rows.iter().filter(|(_, r)| ratio(r) > 2.0).count(),
                );
            }
            if let Some(path) = flag("svg") {
                let points: Vec<_> = cases
                    .iter()
                    .zip(&by_case)
                    .map(|(c, r)| {
                        (
                            c.family,
                            r["ddmin"].tests,
                            r["dfa-pass"].tests,
                            r["dfa-pass"].final_bytes == c.minimum,
                        )
                    })
                    .collect();
                std::fs::write(&path, scatter(&points))
                    .unwrap_or_else(|e| panic!("writing {path}: {e}"));
            }
        }
    }
    if both("default", "no-probe") {
        let worse: Vec<&str> = cases
            .iter()
            .zip(&by_case)
            .filter(|(_, r)| {
                (r["default"].final_bytes, r["default"].tests)
                    > (r["no-probe"].final_bytes, r["no-probe"].tests)
            })
            .map(|(c, _)| c.name.as_str())
            .collect();
        println!(
            "default worse than without the probe (size, then tests): {} of {}",
            worse.len(),
            cases.len()
        );
    }
}
