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
            myhill::directory_schedule(move || per_file.schedule(), &[])
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
        // A tree's certificates are per file: `myhill check DIR`.
        let checkable = !interrupted && !session.tree;
        let one_minimal = (checkable && units.len() <= args.check_limit)
            .then(|| check(Minimality::OneMinimal))
            .flatten();
        let interval_minimal = match one_minimal {
            Some(false) => Some(false),
            _ if checkable && units.len() <= args.interval_limit => {
                check(Minimality::IntervalMinimal)
            }
            _ => None,
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
    if args.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "strategy": r.strategy,
                    "tests_run": r.tests,
                    "cache_hits": r.cache_hits,
                    "initial_bytes": size(&session.original),
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
            size(&session.original),
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

/// A round step near `span / 6` for a linear axis: 1, 2 or 5 times a power of ten.
fn nice_step(span: f64) -> f64 {
    let raw = (span / 6.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= raw)
        .unwrap_or(10.0 * power)
}

/// Ticks for a log axis over `lo..=hi`: powers of ten, then 1-2-5, then every digit, whichever
/// first gives at least four; on a range too narrow for that, round linear steps.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let first = lo.log10().floor() as i32;
    let last = hi.log10().ceil() as i32;
    for mantissas in [
        &[1.0][..],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ] {
        let ticks: Vec<f64> = (first..=last)
            .flat_map(|k| mantissas.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|&v| v >= lo && v <= hi)
            .collect();
        if ticks.len() >= 4 {
            return ticks;
        }
    }
    let step = nice_step(hi - lo);
    let mut v = (lo / step).ceil() * step;
    let mut ticks = Vec::new();
    while v <= hi {
        ticks.push(v);
        v += step;
    }
    ticks
}

/// A tick label: 950, 2k, 1.5k, 12k, 3M.
fn short(v: f64) -> String {
    let trim = |x: f64| {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match v {
        v if v >= 1e6 => format!("{}M", trim(v / 1e6)),
        v if v >= 1e3 => format!("{}k", trim(v / 1e3)),
        v => format!("{}", v.round() as u64),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Bytes left (log scale) against tests run, one step line per strategy, the legend beside
/// the plot so it never covers a curve.
fn svg(rows: &[Row], initial: usize) -> String {
    let (width, height) = (960.0, 540.0);
    // The plot area; the legend goes right of it.
    let (left, right, top, bottom) = (80.0, 700.0, 70.0, 470.0);
    let max_tests = rows
        .iter()
        .map(|r| r.trace.last().map_or(r.tests, |t| t.0.max(r.tests)))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    // Zero bytes has no logarithm: it is drawn as one byte.
    let smallest = rows
        .iter()
        .flat_map(|r| r.trace.iter().map(|t| t.1).chain([r.final_bytes]))
        .min()
        .unwrap_or(initial)
        .max(1) as f64;
    let largest = (initial.max(1) as f64).max(smallest * 1.5);
    // A little room above and below the curves, in log space.
    let pad = ((largest / smallest).log10() * 0.04).max(0.02);
    let (lo, hi) = (
        10f64.powf(smallest.log10() - pad),
        10f64.powf(largest.log10() + pad),
    );
    let x = |t: f64| left + (right - left) * t / max_tests;
    let y = |b: f64| {
        let b = b.max(1.0);
        bottom - (bottom - top) * (b.log10() - lo.log10()) / (hi.log10() - lo.log10())
    };
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
        "#7f7f7f", "#bcbd22",
    ];
    // Dashes differ between neighbours too, so a curve on top of another leaves it visible.
    let dashes = ["", "9 5", "3 4"];
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"30\" text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\">\
         Bytes left against tests run</text>\n\
         <text x=\"{}\" y=\"52\" text-anchor=\"middle\" fill=\"#444\">from {initial} bytes; \
         lower is better; log scale</text>\n",
        (left + right) / 2.0,
        (left + right) / 2.0,
    );
    // Grid lines and ticks first, so the curves lie over them.
    let mut t = 0.0;
    let step = nice_step(max_tests);
    while t <= max_tests + 1e-9 {
        let px = x(t);
        out.push_str(&format!(
            "<line x1=\"{px:.1}\" y1=\"{top}\" x2=\"{px:.1}\" y2=\"{bottom}\" stroke=\"#e4e4e4\"/>\n\
             <line x1=\"{px:.1}\" y1=\"{bottom}\" x2=\"{px:.1}\" y2=\"{}\" stroke=\"black\"/>\n\
             <text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            bottom + 5.0,
            bottom + 20.0,
            short(t)
        ));
        t += step;
    }
    for v in log_ticks(lo, hi) {
        let py = y(v);
        out.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{right}\" y2=\"{py:.1}\" stroke=\"#e4e4e4\"/>\n\
             <line x1=\"{}\" y1=\"{py:.1}\" x2=\"{left}\" y2=\"{py:.1}\" stroke=\"black\"/>\n\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            left - 5.0,
            left - 8.0,
            py + 4.5,
            short(v)
        ));
    }
    out.push_str(&format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">tests run</text>\n\
         <text x=\"20\" y=\"{}\" transform=\"rotate(-90 20 {})\" text-anchor=\"middle\">\
         bytes left (log scale)</text>\n",
        right - left,
        bottom - top,
        (left + right) / 2.0,
        bottom + 45.0,
        (top + bottom) / 2.0,
        (top + bottom) / 2.0
    ));
    let legend_x = right + 25.0;
    out.push_str(&format!(
        "<text x=\"{legend_x}\" y=\"{}\" font-weight=\"bold\">strategy: final bytes (tests)</text>\n",
        top + 4.0
    ));
    for (k, r) in rows.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let dash = dashes[k % dashes.len()];
        let mut points = Vec::new();
        let mut last_bytes = initial as f64;
        for &(t, b) in &r.trace {
            points.push(format!("{:.1},{:.1}", x(t as f64), y(last_bytes)));
            points.push(format!("{:.1},{:.1}", x(t as f64), y(b as f64)));
            last_bytes = b as f64;
        }
        let (end_x, end_y) = (x(r.tests as f64), y(last_bytes));
        points.push(format!("{end_x:.1},{end_y:.1}"));
        let ly = top + 26.0 + 22.0 * k as f64;
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" \
             stroke-dasharray=\"{dash}\" points=\"{}\"/>\n\
             <circle cx=\"{end_x:.1}\" cy=\"{end_y:.1}\" r=\"3.5\" fill=\"{colour}\"/>\n\
             <line x1=\"{legend_x}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"{colour}\" \
             stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>\n\
             <text x=\"{}\" y=\"{ly:.1}\">{}: {} ({}{})</text>\n",
            points.join(" "),
            ly - 4.5,
            legend_x + 28.0,
            ly - 4.5,
            legend_x + 36.0,
            escape(&r.strategy),
            r.final_bytes,
            r.tests,
            if r.budget_hit { "*" } else { "" }
        ));
    }
    if rows.iter().any(|r| r.budget_hit) {
        out.push_str(&format!(
            "<text x=\"{legend_x}\" y=\"{:.1}\" fill=\"#444\">* stopped by --max-tests</text>\n",
            top + 26.0 + 22.0 * rows.len() as f64 + 8.0
        ));
    }
    out.push_str("</svg>\n");
    out
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
    fn log_ticks_are_round_and_inside_the_range() {
        assert_eq!(
            log_ticks(3.0, 5000.0),
            [
                5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0
            ]
        );
        let wide = log_ticks(3.0, 5000.0);
        assert!(wide.len() >= 4 && wide.iter().all(|&v| (3.0..=5000.0).contains(&v)));
        // A budget-limited run spans a fraction of a decade: ticks still fill it.
        let narrow = log_ticks(2900.0, 4800.0);
        assert!(narrow.len() >= 2, "{narrow:?}");
        assert!(narrow.iter().all(|&v| (2900.0..=4800.0).contains(&v)));
        assert_eq!(short(2000.0), "2k");
        assert_eq!(short(1500.0), "1.5k");
        assert_eq!(short(4705.0), "4.705k");
        assert_eq!(short(12000.0), "12k");
        assert_eq!(short(50.0), "50");
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
