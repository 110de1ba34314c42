//! `myhill compare`: every strategy from the same input, each with its own fresh cache.

use super::CompareArgs;
use super::exit::{Ended, Fail};
use super::out;
use super::plot;
use super::session::Session;
use myhill::{
    Reduction, Stop, Strategy,
    check::{Certificate, Minimality, certify},
    eval::{EvalOptions, Evaluator},
    text::Units,
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

pub fn run(args: CompareArgs) -> Result<Ended, Fail> {
    let names: Vec<String> = match &args.strategies {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => myhill::strategy::STRATEGIES
            .iter()
            .map(|s| s.name.to_string())
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
    // A tree is measured by the bytes of its files.
    let size = |bytes: &[u8]| match super::tree_io::sizes(bytes).filter(|_| session.tree) {
        Some((_, content)) => content,
        None => bytes.len(),
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
        let mut schedule = if session.tree {
            let per_file = strategy.clone();
            myhill::strategy::directory_schedule(move || per_file.schedule(), &[])
        } else {
            strategy.schedule()
        };
        let finished = reduction.run(&mut schedule)?;
        let wall = started.elapsed().as_secs_f64();
        drop(reduction);
        let report = &finished.report;
        if report.stopped == Some(Stop::Interrupted) {
            interrupted = true;
        }
        let budget_hit = report.stopped == Some(Stop::Budget);
        let best = &finished.best;
        let units = Units::cut(best, args.check_units);
        // A tree's certificates are per file: `myhill check DIR`.
        let checkable = !interrupted && !session.tree;
        let (one_minimal, interval_minimal) = if checkable {
            minimality(&session, &units, &args)
        } else {
            (None, None)
        };
        rows.push(Row {
            strategy: strategy.name().to_string(),
            tests: report.eval.tests_run,
            cache_hits: report.eval.cache_hits,
            final_bytes: size(best),
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
    print_rows(&rows, &args, size(&session.original));
    if let Some(path) = &args.plot {
        std::fs::write(path, svg(&rows, session.original.len()))
            .map_err(|e| Fail::usage(format!("cannot write the plot {}: {e}", path.display())))?;
    }
    Ok(if interrupted {
        Ended::Interrupted
    } else {
        Ended::Done
    })
}

/// Whether `units` of a result are 1-minimal and interval-minimal, each within its limit
/// (`None`: not checked, or the check could not finish).
fn minimality(
    session: &Session,
    units: &Units,
    args: &CompareArgs,
) -> (Option<bool>, Option<bool>) {
    let check = |property| -> Option<bool> {
        let options = EvalOptions {
            jobs: session.jobs,
            control: session.control.clone(),
            ..EvalOptions::default()
        };
        let mut eval = Evaluator::new(&session.oracle, options);
        match certify(&mut eval, units, property) {
            Ok(Certificate::Minimal { .. }) => Some(true),
            Ok(Certificate::NotMinimal { .. }) => Some(false),
            Err(_) => None,
        }
    };
    let one_minimal = (units.len() <= args.check_limit)
        .then(|| check(Minimality::OneMinimal))
        .flatten();
    let interval_minimal = match one_minimal {
        Some(false) => Some(false),
        _ if units.len() <= args.interval_limit => check(Minimality::IntervalMinimal),
        _ => None,
    };
    (one_minimal, interval_minimal)
}

/// Prints the rows: a JSON array with `--json`, else a table and its legend.
fn print_rows(rows: &[Row], args: &CompareArgs, initial: usize) {
    if args.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "strategy": r.strategy,
                    "tests_run": r.tests,
                    "cache_hits": r.cache_hits,
                    "initial_bytes": initial,
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
        for r in rows {
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
            initial, args.check_units, args.check_limit, args.interval_limit
        ));
    }
}

/// Bytes left (log scale) against tests run, one step line per strategy, drawn as
/// [`plot::svg`] draws every size curve.
fn svg(rows: &[Row], initial: usize) -> String {
    let colours = plot::COLOURS;
    // Dashes differ between neighbours too, so a curve on top of another leaves it visible.
    let dashes = ["", "9 5", "3 4"];
    let max_tests = rows
        .iter()
        .map(|r| r.trace.last().map_or(r.tests, |t| t.0.max(r.tests)))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let smallest = rows
        .iter()
        .flat_map(|r| r.trace.iter().map(|t| t.1).chain([r.final_bytes]))
        .min()
        .unwrap_or(initial);
    let mut strokes = Vec::new();
    let mut legend = Vec::new();
    for (k, r) in rows.iter().enumerate() {
        let (colour, dash) = (colours[k % colours.len()], dashes[k % dashes.len()]);
        let mut points = Vec::new();
        let mut last = initial as f64;
        for &(t, b) in &r.trace {
            points.push((t as f64, last));
            points.push((t as f64, b as f64));
            last = b as f64;
        }
        points.push((r.tests as f64, last));
        strokes.push(plot::Stroke {
            points,
            colour,
            dash,
            end_dot: true,
        });
        legend.push(plot::Entry {
            colour,
            dash,
            text: format!(
                "{}: {} ({}{})",
                r.strategy,
                r.final_bytes,
                r.tests,
                if r.budget_hit { "*" } else { "" }
            ),
        });
    }
    let note = rows
        .iter()
        .any(|r| r.budget_hit)
        .then(|| "* stopped by --max-tests".to_string());
    plot::svg(&plot::Figure {
        title: "Bytes left against tests run".into(),
        subtitle: format!("from {initial} bytes; lower is better; log scale"),
        bytes: (smallest, initial),
        log: true,
        panels: vec![plot::Panel {
            x_label: "tests run".into(),
            x_max: max_tests,
            seconds: false,
            strokes,
        }],
        legend_title: "strategy: final bytes (tests)".into(),
        legend,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, trace: Vec<(u64, usize)>, tests: u64) -> Row {
        Row {
            strategy: name.into(),
            tests,
            cache_hits: 0,
            final_bytes: trace.last().unwrap().1,
            one_minimal: None,
            interval_minimal: None,
            wall: 1.0,
            budget_hit: true,
            trace,
            stopped: None,
        }
    }

    #[test]
    fn the_plot_has_a_title_ticks_and_a_legend_beside_the_curves() {
        let rows = vec![
            row("default", vec![(0, 4735), (40, 3000), (300, 2960)], 398),
            row("ddmin", vec![(0, 4735), (200, 4257)], 398),
        ];
        let svg = svg(&rows, 4735);
        assert!(svg.contains("Bytes left against tests run"));
        assert!(svg.contains("log scale"));
        assert!(svg.contains(">default: 2960 (398*)</text>"), "{svg}");
        // Tick labels on both axes.
        assert!(
            svg.contains(">100</text>") && svg.contains(">3k</text>"),
            "{svg}"
        );
        // Every legend entry starts right of the plot area.
        for line in svg.lines().filter(|l| l.contains("(398*)")) {
            let x: f64 = line
                .split("x=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(x > 700.0, "{line}");
        }
    }
}
