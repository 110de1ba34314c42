//! Size curves as SVG pictures: `myhill runs plot` and `myhill compare --plot` draw with it.
//!
//! Main types: [`Figure`] (a title, the bytes' range, a legend and one [`Panel`] per x axis:
//! tests run, seconds), [`Panel`] and [`Stroke`] (a polyline in data units); [`svg`] draws a
//! figure, [`run_figure`] makes one from a run directory, each step coloured by its pass.
//!
//! ```text
//! let figure = run_figure(Path::new("run"))?;
//! std::fs::write("curve.svg", svg(&figure))?;
//! ```
//!
//! Limits: the bytes axis is logarithmic or linear for the whole figure; zero bytes is drawn
//! as one on a log axis; at most [`COLOURS`] passes get a colour of their own (then they
//! repeat).

use serde_json::Value;
use std::path::Path;

/// The colours of curves and passes, in order.
pub const COLOURS: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];

/// A polyline in data units: (x, bytes).
pub struct Stroke {
    pub points: Vec<(f64, f64)>,
    pub colour: &'static str,
    /// An SVG dash pattern; empty for a solid line.
    pub dash: &'static str,
    /// A dot where it ends.
    pub end_dot: bool,
}

/// One plot area: its x axis and what is drawn on it.
pub struct Panel {
    pub x_label: String,
    pub x_max: f64,
    /// Whether x is in seconds (ticks read 30s, 2m), else a count.
    pub seconds: bool,
    pub strokes: Vec<Stroke>,
}

/// A line of the legend.
pub struct Entry {
    pub colour: &'static str,
    pub dash: &'static str,
    pub text: String,
}

/// A whole picture: panels side by side sharing the bytes axis, the legend at the right.
pub struct Figure {
    pub title: String,
    pub subtitle: String,
    /// The smallest and largest bytes to show.
    pub bytes: (usize, usize),
    pub log: bool,
    pub panels: Vec<Panel>,
    pub legend_title: String,
    pub legend: Vec<Entry>,
    pub note: Option<String>,
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

/// A tick label on a time axis: 45s, 2.5m, 3h.
fn seconds(v: f64) -> String {
    let trim = |x: f64| {
        let s = format!("{x:.1}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match v {
        v if v >= 7200.0 => format!("{}h", trim(v / 3600.0)),
        v if v >= 120.0 => format!("{}m", trim(v / 60.0)),
        v => format!("{}s", trim(v)),
    }
}

/// Whether sizes from `low` to `high` want a log axis: over a factor of ten.
pub fn wants_log(low: usize, high: usize) -> bool {
    high as f64 > 10.0 * (low.max(1) as f64)
}

/// The figure as an SVG document.
pub fn svg(f: &Figure) -> String {
    let (panel_width, gap) = (620.0, 80.0);
    let (top, bottom) = (70.0, 470.0);
    let n = f.panels.len().max(1) as f64;
    let legend_x = 80.0 + n * panel_width + (n - 1.0) * gap + 25.0;
    let width = legend_x + 260.0;
    let height = 540.0;
    let (lo, hi) = byte_range(f);
    let y = |b: f64| {
        if f.log {
            let b = b.max(1.0);
            bottom - (bottom - top) * (b.log10() - lo.log10()) / (hi.log10() - lo.log10())
        } else {
            bottom - (bottom - top) * (b - lo) / (hi - lo)
        }
    };
    let centre = (80.0 + legend_x - 25.0) / 2.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{centre}\" y=\"30\" text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{centre}\" y=\"52\" text-anchor=\"middle\" fill=\"#444\">{}</text>\n",
        escape(&f.title),
        escape(&f.subtitle),
    );
    let y_ticks = if f.log {
        log_ticks(lo, hi)
    } else {
        let step = nice_step(hi - lo);
        (0..)
            .map(|k| k as f64 * step)
            .take_while(|&v| v <= hi)
            .collect()
    };
    for (k, panel) in f.panels.iter().enumerate() {
        let left = 80.0 + k as f64 * (panel_width + gap);
        let right = left + panel_width;
        let x_max = panel.x_max.max(1e-9);
        let x = |t: f64| left + (right - left) * t / x_max;
        // Grid lines and ticks first, so the curves lie over them.
        let step = nice_step(x_max);
        let mut t = 0.0;
        while t <= x_max + 1e-9 {
            let px = x(t);
            let label = if panel.seconds { seconds(t) } else { short(t) };
            out.push_str(&format!(
                "<line x1=\"{px:.1}\" y1=\"{top}\" x2=\"{px:.1}\" y2=\"{bottom}\" stroke=\"#e4e4e4\"/>\n\
                 <line x1=\"{px:.1}\" y1=\"{bottom}\" x2=\"{px:.1}\" y2=\"{}\" stroke=\"black\"/>\n\
                 <text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{label}</text>\n",
                bottom + 5.0,
                bottom + 20.0,
            ));
            t += step;
        }
        for &v in &y_ticks {
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
        let scale = if f.log {
            "bytes left (log scale)"
        } else {
            "bytes left"
        };
        out.push_str(&format!(
            "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n\
             <text x=\"{}\" y=\"{}\" transform=\"rotate(-90 {} {})\" text-anchor=\"middle\">{scale}</text>\n",
            right - left,
            bottom - top,
            (left + right) / 2.0,
            bottom + 45.0,
            escape(&panel.x_label),
            left - 60.0,
            (top + bottom) / 2.0,
            left - 60.0,
            (top + bottom) / 2.0
        ));
        out.push_str(&strokes(panel, &x, &y));
    }
    out.push_str(&legend(f, legend_x, top));
    out.push_str("</svg>\n");
    out
}

/// The bytes axis of `f`: from below its smallest size to above its largest, with a little
/// room either side (in log space on a log scale).
fn byte_range(f: &Figure) -> (f64, f64) {
    let (smallest, largest) = (f.bytes.0 as f64, f.bytes.1.max(1) as f64);
    if f.log {
        let smallest = smallest.max(1.0);
        let largest = largest.max(smallest * 1.5);
        // A little room above and below the curves, in log space.
        let pad = ((largest / smallest).log10() * 0.04).max(0.02);
        (
            10f64.powf(smallest.log10() - pad),
            10f64.powf(largest.log10() + pad),
        )
    } else {
        (0.0, largest * 1.04)
    }
}

/// The curves of one panel, `x` and `y` placing a point.
fn strokes(panel: &Panel, x: &dyn Fn(f64) -> f64, y: &dyn Fn(f64) -> f64) -> String {
    let mut out = String::new();
    for stroke in &panel.strokes {
        let points: Vec<String> = (stroke.points.iter())
            .map(|&(t, b)| format!("{:.1},{:.1}", x(t), y(b)))
            .collect();
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"{}\" points=\"{}\"/>\n",
            stroke.colour,
            stroke.dash,
            points.join(" ")
        ));
        if let (true, Some(&(t, b))) = (stroke.end_dot, stroke.points.last()) {
            out.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{}\"/>\n",
                x(t),
                y(b),
                stroke.colour
            ));
        }
    }
    out
}

/// The legend at `legend_x`, from `top` down, and the figure's note under it.
fn legend(f: &Figure, legend_x: f64, top: f64) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "<text x=\"{legend_x}\" y=\"{}\" font-weight=\"bold\">{}</text>\n",
        top + 4.0,
        escape(&f.legend_title)
    ));
    for (k, e) in f.legend.iter().enumerate() {
        let ly = top + 26.0 + 22.0 * k as f64;
        out.push_str(&format!(
            "<line x1=\"{legend_x}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"{}\" \
             stroke-width=\"3\" stroke-dasharray=\"{}\"/>\n\
             <text x=\"{}\" y=\"{ly:.1}\">{}</text>\n",
            ly - 4.5,
            legend_x + 28.0,
            ly - 4.5,
            e.colour,
            e.dash,
            legend_x + 36.0,
            escape(&e.text),
        ));
    }
    if let Some(note) = &f.note {
        out.push_str(&format!(
            "<text x=\"{legend_x}\" y=\"{:.1}\" fill=\"#444\">{}</text>\n",
            top + 26.0 + 22.0 * f.legend.len() as f64 + 8.0,
            escape(note)
        ));
    }
    out
}

/// A step of a run: seconds since its start (if known), tests run, bytes after it, its pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub seconds: Option<f64>,
    pub tests: u64,
    pub bytes: usize,
    pub pass: String,
}

/// The steps a run directory records, and its size at the start and its tests and seconds
/// so far (from `tests.jsonl`).
pub fn run_steps(dir: &Path) -> std::io::Result<(usize, Vec<Step>, u64, f64)> {
    let initial = std::fs::metadata(dir.join("original"))?.len() as usize;
    let steps_text = std::fs::read_to_string(dir.join("steps.jsonl")).unwrap_or_default();
    let steps = steps_text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            Some(Step {
                seconds: v.get("t").and_then(Value::as_f64),
                tests: v.get("tests").and_then(Value::as_u64).unwrap_or(0),
                bytes: v.get("size")?.as_u64()? as usize,
                pass: v.get("pass")?.as_str()?.to_string(),
            })
        })
        .collect::<Vec<_>>();
    let tests_text = std::fs::read_to_string(dir.join("tests.jsonl")).unwrap_or_default();
    let mut tests = 0;
    let mut secs: f64 = 0.0;
    for v in tests_text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        if let Some(t) = v.get("t").and_then(Value::as_f64) {
            tests += 1;
            secs = secs.max(t);
        }
    }
    let tests = tests.max(steps.iter().map(|s| s.tests).max().unwrap_or(0));
    Ok((initial, steps, tests, secs))
}

/// The size curve of the run directory `dir` against tests and (when its steps carry their
/// times) against time, each step coloured by the pass that made it.
pub fn run_figure(dir: &Path) -> std::io::Result<Figure> {
    let (initial, steps, tests, secs) = run_steps(dir)?;
    let smallest = steps.iter().map(|s| s.bytes).min().unwrap_or(initial);
    let mut passes: Vec<&str> = Vec::new();
    for s in &steps {
        if !passes.contains(&s.pass.as_str()) {
            passes.push(&s.pass);
        }
    }
    let colour = |pass: &str| {
        let k = passes.iter().position(|p| *p == pass).unwrap_or(0);
        COLOURS[k % COLOURS.len()]
    };
    let timed = !steps.is_empty() && steps.iter().all(|s| s.seconds.is_some());
    let panel = |by_time: bool| {
        let at = |s: &Step| {
            if by_time {
                s.seconds.unwrap_or(0.0)
            } else {
                s.tests as f64
            }
        };
        let x_end = if by_time {
            secs.max(steps.last().map_or(0.0, at))
        } else {
            (tests as f64).max(steps.last().map_or(0.0, at))
        };
        let mut strokes = Vec::new();
        let mut last = initial as f64;
        let mut from = 0.0;
        for s in &steps {
            // The plateau before the step is grey; the drop takes its pass's colour.
            strokes.push(Stroke {
                points: vec![(from, last), (at(s), last)],
                colour: "#999999",
                dash: "",
                end_dot: false,
            });
            strokes.push(Stroke {
                points: vec![(at(s), last), (at(s), s.bytes as f64)],
                colour: colour(&s.pass),
                dash: "",
                end_dot: false,
            });
            last = s.bytes as f64;
            from = at(s);
        }
        strokes.push(Stroke {
            points: vec![(from, last), (x_end.max(from), last)],
            colour: "#999999",
            dash: "",
            end_dot: true,
        });
        Panel {
            x_label: if by_time { "time" } else { "tests run" }.to_string(),
            x_max: x_end.max(1.0),
            seconds: by_time,
            strokes,
        }
    };
    let mut panels = Vec::new();
    if timed {
        panels.push(panel(true));
    }
    panels.push(panel(false));
    let log = wants_log(smallest, initial);
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Figure {
        title: format!("Bytes left in the run {name}"),
        subtitle: format!(
            "from {initial} to {} bytes in {tests} tests; each drop coloured by its pass{}",
            steps.last().map_or(initial, |s| s.bytes),
            if log { "; log scale" } else { "" }
        ),
        bytes: (smallest, initial),
        log,
        panels,
        legend_title: "pass: steps, bytes removed".to_string(),
        legend: passes
            .iter()
            .map(|&p| {
                let mut before = initial;
                let (mut n, mut removed) = (0, 0);
                for s in &steps {
                    if s.pass == p {
                        n += 1;
                        removed += before.saturating_sub(s.bytes);
                    }
                    before = s.bytes;
                }
                Entry {
                    colour: colour(p),
                    dash: "",
                    text: format!("{p}: {n}, {removed}"),
                }
            })
            .collect(),
        note: (!timed && !steps.is_empty()).then(|| "(no times in this run's steps)".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(seconds(30.0), "30s");
        assert_eq!(seconds(150.0), "2.5m");
    }

    #[test]
    fn a_run_is_drawn_against_time_and_tests_with_its_passes_coloured() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("original"), vec![b'x'; 5000]).unwrap();
        std::fs::write(
            dir.path().join("steps.jsonl"),
            "{\"pass\":\"split/lines\",\"size\":900,\"tests\":4,\"t\":1.5}\n\
             {\"pass\":\"split/tokens\",\"size\":40,\"tests\":30,\"t\":9.0}\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("tests.jsonl"), "{\"t\":12.0}\n".repeat(35)).unwrap();
        let figure = run_figure(dir.path()).unwrap();
        assert!(figure.log);
        assert_eq!(figure.panels.len(), 2);
        assert_eq!(figure.panels[1].x_max, 35.0);
        assert_eq!(figure.panels[0].x_max, 12.0);
        let drawn = svg(&figure);
        assert!(drawn.contains(">split/lines: 1, 4100</text>"), "{drawn}");
        assert!(drawn.contains(">split/tokens: 1, 860</text>"), "{drawn}");
        assert!(drawn.contains("log scale"));
        assert!(drawn.contains(&format!("stroke=\"{}\"", COLOURS[1])));
        assert!(drawn.contains(">time</text>") && drawn.contains(">tests run</text>"));
    }
}
