//! What the user sees: a live status line on a terminal, a line per improvement otherwise, the summary.

use super::out;
use myhill::{EvalStats, Event, Report};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Renders the reduction's events.
pub struct Ui {
    quiet: bool,
    live: bool,
    started: Instant,
    last_improvement: Instant,
    last_draw: Option<Instant>,
    initial: usize,
    current: usize,
    pass: String,
    tests: u64,
    drawn: bool,
}

impl Ui {
    pub fn new(quiet: bool, initial: usize) -> Ui {
        let now = Instant::now();
        Ui {
            quiet,
            live: !quiet && std::io::stderr().is_terminal(),
            started: now,
            last_improvement: now,
            last_draw: None,
            initial,
            current: initial,
            pass: String::new(),
            tests: 0,
            drawn: false,
        }
    }

    fn percent_removed(&self) -> f64 {
        if self.initial == 0 {
            0.0
        } else {
            100.0 * (self.initial - self.current) as f64 / self.initial as f64
        }
    }

    /// Takes one event of the reduction.
    pub fn event(&mut self, event: &Event) {
        match event {
            Event::PassStarted { pass } => {
                self.pass = pass.to_string();
                self.draw(true);
            }
            Event::Tested { stats, .. } => self.tested(stats),
            Event::Reduced { bytes, tests, .. } => {
                self.tests = *tests;
                self.reduced(bytes.len());
            }
            Event::RolledBack { bytes } => {
                self.current = bytes.len();
                self.finish_line();
                if !self.quiet {
                    out::err(format!(
                        "myhill: warning: the best so far was not interesting when run again: \
                         the test is flaky on reduced inputs. Going back to the last result that \
                         passed twice ({} bytes); every success is re-confirmed from now on.",
                        bytes.len()
                    ));
                }
            }
            _ => {}
        }
    }

    fn tested(&mut self, stats: &EvalStats) {
        self.tests = stats.tests_run;
        self.draw(false);
    }

    fn reduced(&mut self, size: usize) {
        self.current = size;
        self.last_improvement = Instant::now();
        if self.quiet {
            return;
        }
        if self.live {
            self.draw(true);
        } else {
            out::err(format!(
                "myhill: {} -> {} bytes ({:.1}% removed) after {} tests, pass {}",
                self.initial,
                self.current,
                self.percent_removed(),
                self.tests,
                self.pass
            ));
        }
    }

    fn draw(&mut self, force: bool) {
        if !self.live {
            return;
        }
        let now = Instant::now();
        if !force
            && self
                .last_draw
                .is_some_and(|t| now - t < Duration::from_millis(100))
        {
            return;
        }
        self.last_draw = Some(now);
        let elapsed = self.started.elapsed().as_secs_f64().max(1e-9);
        let line = format!(
            "{} -> {} bytes ({:.1}% removed) | {} tests, {:.1}/s | {} | last improvement {:.0}s ago",
            self.initial,
            self.current,
            self.percent_removed(),
            self.tests,
            self.tests as f64 / elapsed,
            self.pass,
            self.last_improvement.elapsed().as_secs_f64()
        );
        out::err_raw(format!("\r\x1b[K{line}"));
        self.drawn = true;
    }

    /// Ends the status line so later output starts on a clean line.
    pub fn finish_line(&mut self) {
        if self.drawn {
            out::err_raw("\r\x1b[K");
            self.drawn = false;
        }
    }
}

/// The end-of-run summary, for people.
pub fn summary(report: &Report) -> String {
    let mut s = String::new();
    let removed = report.initial_bytes.saturating_sub(report.final_bytes);
    let pct = if report.initial_bytes == 0 {
        0.0
    } else {
        100.0 * removed as f64 / report.initial_bytes as f64
    };
    s.push_str(&format!(
        "myhill: {} -> {} bytes ({pct:.1}% removed)\n",
        report.initial_bytes, report.final_bytes
    ));
    let e = &report.eval;
    s.push_str(&format!(
        "  tests run {} (first check {}, re-runs {}), cache hits {}, timeouts {}, wall {:.2}s\n",
        e.tests_run,
        report.first_check_runs,
        report.verify_runs,
        e.cache_hits,
        e.timeouts,
        report.wall.as_secs_f64()
    ));
    if e.speculative_started > 0 {
        s.push_str(&format!(
            "  speculative tests {}, wasted {}, workers busy {:.0}%\n",
            e.speculative_started,
            e.speculative_wasted,
            100.0 * busy_share(report)
        ));
    }
    if !report.passes.is_empty() {
        s.push_str(&format!(
            "  {:<24} {:>8} {:>10} {:>14} {:>9}\n",
            "pass", "tests", "successes", "bytes removed", "time"
        ));
        for p in &report.passes {
            s.push_str(&format!(
                "  {:<24} {:>8} {:>10} {:>14} {:>8.2}s{}\n",
                p.name,
                p.tests,
                p.successes,
                p.bytes_removed,
                p.time.as_secs_f64(),
                if p.skipped > 0 { " (skipped)" } else { "" }
            ));
        }
    }
    for (name, value) in &report.counters {
        s.push_str(&format!("  {name}: {value}\n"));
    }
    s
}

/// The share of worker time spent running tests.
pub fn busy_share(report: &Report) -> f64 {
    let wall = report.eval.wall.as_secs_f64();
    if wall <= 0.0 {
        return 0.0;
    }
    let jobs = report.jobs.max(1) as f64;
    (report.eval.busy.as_secs_f64() / (wall * jobs)).min(1.0)
}

/// The run's figures as JSON.
pub fn stats_json(report: &Report, strategy: &str, code: i32) -> serde_json::Value {
    let passes: Vec<serde_json::Value> = report
        .passes
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.name,
                "runs": p.runs,
                "skipped": p.skipped,
                "tests": p.tests,
                "cache_hits": p.cache_hits,
                "successes": p.successes,
                "bytes_removed": p.bytes_removed,
                "seconds": p.time.as_secs_f64(),
            })
        })
        .collect();
    let counters: serde_json::Map<String, serde_json::Value> = report
        .counters
        .iter()
        .map(|(k, v)| {
            let value = match v {
                myhill::Figure::Count(n) => serde_json::json!(n),
                myhill::Figure::Seconds(s) => serde_json::json!(s),
            };
            (k.clone(), value)
        })
        .collect();
    let e = &report.eval;
    serde_json::json!({
        "strategy": strategy,
        "jobs": report.jobs,
        "exit_code": code,
        "stopped": report.stopped.as_ref().map(|s| s.name()),
        "tests_run": e.tests_run,
        "oracle_runs": e.oracle_runs,
        "first_check_runs": report.first_check_runs,
        "verify_runs": report.verify_runs,
        "rollbacks": report.rollbacks,
        "confirmed": report.confirmed,
        "cache_hits": e.cache_hits,
        "timeouts": e.timeouts,
        "initial_bytes": report.initial_bytes,
        "final_bytes": report.final_bytes,
        "wall_seconds": report.wall.as_secs_f64(),
        "speculative_started": e.speculative_started,
        "speculative_wasted": e.speculative_wasted,
        "busy_share": busy_share(report),
        "trace": report.trace,
        "passes": passes,
        "counters": counters,
    })
}
