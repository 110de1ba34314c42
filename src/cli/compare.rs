//! `myhill compare`: every strategy from the same input, each with its own fresh cache.

use super::CompareArgs;
use super::exit::{Exit, Fail};
use super::out;
use super::session::Session;
use myhill::{
    Certificate, EvalOptions, Evaluator, Minimality, Reduction, Stop, Strategy, Units, certify,
};
use std::time::Instant;

struct Row {
    strategy: String,
    tests: u64,
    cache_hits: u64,
    final_bytes: usize,
    one_minimal: Option<bool>,
    interval_minimal: Option<bool>,
    wall: f64,
    /// Whether the test budget stopped it.
    budget_hit: bool,
    /// (tests run, bytes) after the first check and at every improvement.
    trace: Vec<(u64, usize)>,
    stopped: Option<String>,
}

fn yes_no(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

pub fn run(args: CompareArgs) -> Result<Exit, Fail> {
    let names: Vec<String> = match &args.strategies {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => myhill::STRATEGIES
            .iter()
            .map(|(n, _)| n.to_string())
            .collect(),
    };
    let strategies = names
        .iter()
        .map(|n| Strategy::named(n))
        .collect::<Result<Vec<_>, _>>()?;
    let session = Session::open(&args.t)?;
    let options = session.options(&args.t, args.max_tests);
    // One first check for every strategy: each counts its runs as its own tests.
    let first = {
        let mut check = Reduction::new(session.original.clone(), &session.oracle, options.clone());
        match check.check_original() {
            Ok(o) => o.to_vec(),
            Err(e) => return Err(session.explain(e)),
        }
    };
    let mut rows = Vec::new();
    let mut interrupted = false;
    for strategy in &strategies {
        if !args.t.quiet {
            out::err(format!("myhill: running {}", strategy.name()));
        }
        let mut reduction =
            Reduction::new(session.original.clone(), &session.oracle, options.clone());
        reduction.reuse_first_check(&first)?;
        let started = Instant::now();
        let finished = reduction.run(&mut strategy.schedule())?;
        let wall = started.elapsed().as_secs_f64();
        drop(reduction);
        let report = &finished.report;
        if report.stopped == Some(Stop::Interrupted) {
            interrupted = true;
        }
        let budget_hit = report.stopped == Some(Stop::Budget);
        let best = &finished.best;
        let units = Units::cut(best, args.check_units);
        let check = |property| -> Option<bool> {
            let options = EvalOptions {
                jobs: session.jobs,
                control: session.control.clone(),
                ..EvalOptions::default()
            };
            let mut eval = Evaluator::new(&session.oracle, options);
            match certify(&mut eval, &units, property) {
                Ok(Certificate::Minimal { .. }) => Some(true),
                Ok(Certificate::NotMinimal { .. }) => Some(false),
                Err(_) => None,
            }
        };
        let one_minimal = (!interrupted && units.len() <= args.check_limit)
            .then(|| check(Minimality::OneMinimal))
            .flatten();
        let interval_minimal = match one_minimal {
            Some(false) => Some(false),
            _ if !interrupted && units.len() <= args.interval_limit => {
                check(Minimality::IntervalMinimal)
            }
            _ => None,
        };
        rows.push(Row {
            strategy: strategy.name().to_string(),
            tests: report.eval.tests_run,
            cache_hits: report.eval.cache_hits,
            final_bytes: best.len(),
            one_minimal,
            interval_minimal,
            wall,
            budget_hit,
            trace: report.trace.clone(),
            stopped: report.stopped.as_ref().map(|s| s.name().to_string()),
        });
        if interrupted {
            break;
        }
    }
    if args.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "strategy": r.strategy,
                    "tests_run": r.tests,
                    "cache_hits": r.cache_hits,
                    "initial_bytes": session.original.len(),
                    "final_bytes": r.final_bytes,
                    "one_minimal": r.one_minimal,
                    "interval_minimal": r.interval_minimal,
                    "check_units": args.check_units.name(),
                    "wall_seconds": r.wall,
                    "budget_hit": r.budget_hit,
                    "stopped": r.stopped,
                    "trace": r.trace,
                })
            })
            .collect();
        out::out(serde_json::to_string_pretty(&json).unwrap_or_default());
    } else {
        out::out(format!(
            "{:<18} {:>8} {:>10} {:>11} {:>10} {:>16} {:>9}",
            "strategy",
            "tests",
            "cache hits",
            "final bytes",
            "1-minimal",
            "interval-minimal",
            "wall"
        ));
        for r in &rows {
            out::out(format!(
                "{:<18} {:>8} {:>10} {:>11} {:>10} {:>16} {:>8.1}s",
                r.strategy,
                format!("{}{}", r.tests, if r.budget_hit { "*" } else { "" }),
                r.cache_hits,
                r.final_bytes,
                yes_no(r.one_minimal),
                yes_no(r.interval_minimal),
                r.wall
            ));
        }
        out::out(format!(
            "(from {} bytes; minimality at {} units, checked up to {} / {} units; \"-\" = not checked; * = stopped by --max-tests)",
            session.original.len(),
            args.check_units,
            args.check_limit,
            args.interval_limit
        ));
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, svg(&rows, session.original.len()))
            .map_err(|e| Fail::usage(format!("cannot write the plot {}: {e}", path.display())))?;
    }
    Ok(if interrupted {
        Exit::Interrupted
    } else {
        Exit::Ok
    })
}

/// Bytes left against tests run, one step line per strategy.
fn svg(rows: &[Row], initial: usize) -> String {
    let (w, h, m) = (720.0, 420.0, 60.0);
    let max_tests = rows
        .iter()
        .flat_map(|r| r.trace.last().map(|t| t.0.max(r.tests)))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let max_bytes = initial.max(1) as f64;
    let x = |t: f64| m + (w - 2.0 * m) * t / max_tests;
    let y = |b: f64| h - m - (h - 2.0 * m) * b / max_bytes;
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
        "#7f7f7f", "#bcbd22",
    ];
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <line x1=\"{m}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n\
         <line x1=\"{m}\" y1=\"{m}\" x2=\"{m}\" y2=\"{}\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">tests run (0 .. {max_tests})</text>\n\
         <text x=\"15\" y=\"{}\" transform=\"rotate(-90 15 {})\" text-anchor=\"middle\">bytes left (0 .. {initial})</text>\n",
        h - m,
        w - m,
        h - m,
        h - m,
        w / 2.0,
        h - 20.0,
        h / 2.0,
        h / 2.0
    );
    for (k, r) in rows.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let mut points = Vec::new();
        let mut last_bytes = initial as f64;
        for &(t, b) in &r.trace {
            points.push(format!("{:.1},{:.1}", x(t as f64), y(last_bytes)));
            points.push(format!("{:.1},{:.1}", x(t as f64), y(b as f64)));
            last_bytes = b as f64;
        }
        points.push(format!("{:.1},{:.1}", x(r.tests as f64), y(last_bytes)));
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\">{} ({} tests, {} bytes)</text>\n",
            points.join(" "),
            w - m - 220.0,
            m + 16.0 * k as f64,
            r.strategy,
            r.tests,
            r.final_bytes
        ));
    }
    out.push_str("</svg>\n");
    out
}
