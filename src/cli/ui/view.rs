//! The full-screen view of a reduction: figures, a size graph, the current best, the test's output and the passes, with keys to steer.
//!
//! Main types: [`Board`], what the view shows (fed the reduction's events by [`super::Ui`], or
//! a run directory's files by `myhill runs show`), and [`Screen`], the terminal in raw mode
//! on the alternate screen, given back as it was when dropped. [`draw`] lays the panels out for
//! any size: side by side from 100 columns, stacked below; both graphs (against time and
//! against tests) from 160. Every draw clears what the last one left (ratatui's diff), so a
//! resize leaves no stale rows.
//!
//! The view only reads the reduction's figures and steers it through [`myhill::process::Control`]; it
//! never changes what is tested. Limits: the best is shown as text (bytes that are not UTF-8
//! as replacement characters), and its line starts are recomputed only when it changes.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Cell, Chart, Clear, Dataset, GraphType, Paragraph, Row, Table, Wrap,
};
use std::time::{Duration, Instant};

/// A pass as the table shows it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PassRow {
    pub(crate) name: String,
    /// Figures of its finished runs.
    pub(crate) tests: u64,
    pub(crate) successes: u64,
    pub(crate) removed: u64,
    pub(crate) time: Duration,
    pub(crate) disabled: bool,
    pub(crate) skipped: bool,
}

/// One point of the size curve: seconds since the start, tests run, bytes.
#[derive(Clone, Debug)]
pub(crate) struct Point {
    pub(crate) secs: f64,
    pub(crate) tests: u64,
    pub(crate) bytes: usize,
}

/// Which panel the arrows move in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Focus {
    Passes,
    Best,
    Output,
}

/// What the view shows, beside the status figures.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    pub(crate) passes: Vec<PassRow>,
    /// The running pass (an index in `passes`), when it started, and the tests then.
    pub(crate) running: Option<(usize, Instant, u64)>,
    pub(crate) curve: Vec<Point>,
    pub(crate) best: Vec<u8>,
    /// Where each line of the best starts.
    line_starts: Vec<usize>,
    /// The last change of the best: the bytes `[from, to)` of the new best that replaced what
    /// was there (`from == to` for a pure cut).
    pub(crate) change: Option<(usize, usize)>,
    /// The pass and test number of the last change.
    pub(crate) change_by: Option<(String, u64)>,
    /// The tails of what the last interesting test printed.
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    pub(crate) output_test: Option<u64>,
    pub(crate) selected: usize,
    /// The selection follows the running pass until the arrows move it.
    pub(crate) follow_running: bool,
    pub(crate) focus: Focus,
    /// A line of the best chosen with the arrows; `None` follows the last change.
    pub(crate) best_top: Option<usize>,
    /// Lines scrolled back from the end of the output.
    pub(crate) output_back: usize,
    pub(crate) help: bool,
    pub(crate) paused: bool,
    /// Lines said during the run, shown last first.
    pub(crate) said: Vec<String>,
    /// Read-only: following or replaying a run directory, not steering one.
    pub(crate) read_only: Option<String>,
    /// Why the output panel is empty, when it cannot be otherwise.
    pub(crate) output_note: Option<String>,
    /// The step the history explorer shows (0 is the first step), when it is open.
    pub(crate) history: Option<usize>,
}

impl Board {
    /// A board for a run of `passes` on `best`.
    pub(crate) fn new(passes: &[String], best: Vec<u8>) -> Board {
        let mut board = Board {
            passes: passes
                .iter()
                .map(|name| PassRow {
                    name: name.clone(),
                    ..PassRow::default()
                })
                .collect(),
            running: None,
            curve: Vec::new(),
            best: Vec::new(),
            line_starts: Vec::new(),
            change: None,
            change_by: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            output_test: None,
            selected: 0,
            follow_running: true,
            focus: Focus::Passes,
            best_top: None,
            output_back: 0,
            help: false,
            paused: false,
            said: Vec::new(),
            read_only: None,
            output_note: None,
            history: None,
        };
        board.set_best(best);
        board
    }

    fn set_best(&mut self, best: Vec<u8>) {
        self.line_starts = std::iter::once(0)
            .chain(
                best.iter()
                    .enumerate()
                    .filter(|&(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .filter(|&i| i < best.len() || i == 0)
            .collect();
        self.best = best;
    }

    /// The row of `name`, added at the end if the schedule did not list it.
    pub(crate) fn row(&mut self, name: &str) -> usize {
        match self.passes.iter().position(|p| p.name == name) {
            Some(i) => i,
            None => {
                self.passes.push(PassRow {
                    name: name.to_string(),
                    ..PassRow::default()
                });
                self.passes.len() - 1
            }
        }
    }

    /// A new best from `pass` after `tests` tests, `secs` into the run: the curve, the marked
    /// change, and the live figures of the pass.
    pub(crate) fn improved(&mut self, pass: &str, bytes: &[u8], tests: u64, secs: f64) {
        let old = &self.best;
        let prefix = old.iter().zip(bytes).take_while(|(a, b)| a == b).count();
        let room = old.len().min(bytes.len()) - prefix;
        let suffix = (old.iter().rev().zip(bytes.iter().rev()))
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        let removed = old.len().saturating_sub(bytes.len()) as u64;
        self.change = Some((prefix, bytes.len() - suffix));
        self.change_by = Some((pass.to_string(), tests));
        self.best_top = None;
        self.set_best(bytes.to_vec());
        self.curve.push(Point {
            secs,
            tests,
            bytes: bytes.len(),
        });
        if let Some((i, ..)) = self.running
            && self.passes[i].name == pass
        {
            self.passes[i].successes += 1;
            self.passes[i].removed += removed;
        }
    }

    /// The best went back to `bytes` (a re-run failed).
    pub(crate) fn rolled_back(&mut self, bytes: &[u8], tests: u64, secs: f64) {
        self.change = None;
        self.change_by = Some(("rollback".to_string(), tests));
        self.set_best(bytes.to_vec());
        self.curve.push(Point {
            secs,
            tests,
            bytes: bytes.len(),
        });
    }

    /// The line of the best that holds byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s <= at)
            .saturating_sub(1)
    }

    /// A key the view handles itself (moving and help); `false` if it is not one.
    pub(crate) fn navigate(&mut self, key: Nav, page: usize) -> bool {
        let page = page.max(1);
        if self.focus == Focus::Passes
            && matches!(
                key,
                Nav::Up | Nav::Down | Nav::PageUp | Nav::PageDown | Nav::Follow
            )
        {
            self.selected = self.shown_selection();
            self.follow_running = key == Nav::Follow;
        }
        match (key, self.focus) {
            (Nav::Help, _) => self.help = !self.help,
            (Nav::NextPanel, f) => {
                self.focus = match f {
                    Focus::Passes => Focus::Best,
                    Focus::Best => Focus::Output,
                    Focus::Output => Focus::Passes,
                }
            }
            (Nav::Up, Focus::Passes) => self.selected = self.selected.saturating_sub(1),
            (Nav::Down, Focus::Passes) => {
                self.selected = (self.selected + 1).min(self.passes.len().saturating_sub(1))
            }
            (Nav::PageUp, Focus::Passes) => self.selected = self.selected.saturating_sub(page),
            (Nav::PageDown, Focus::Passes) => {
                self.selected = (self.selected + page).min(self.passes.len().saturating_sub(1))
            }
            (Nav::Up | Nav::PageUp | Nav::Down | Nav::PageDown, Focus::Best) => {
                let step = if matches!(key, Nav::Up | Nav::Down) {
                    1
                } else {
                    page
                };
                let top = self.best_top.unwrap_or_else(|| self.follow_top(page));
                let last = self.line_starts.len().saturating_sub(1);
                self.best_top = Some(if matches!(key, Nav::Up | Nav::PageUp) {
                    top.saturating_sub(step)
                } else {
                    (top + step).min(last)
                });
            }
            (Nav::Up | Nav::PageUp, Focus::Output) => {
                let step = if key == Nav::Up { 1 } else { page };
                self.output_back += step;
            }
            (Nav::Down | Nav::PageDown, Focus::Output) => {
                let step = if key == Nav::Down { 1 } else { page };
                self.output_back = self.output_back.saturating_sub(step);
            }
            (Nav::Follow, _) => {
                self.best_top = None;
                self.output_back = 0;
            }
            (Nav::Prev | Nav::Next, _) => {}
        }
        true
    }

    /// The row the selection is on: the running pass while it follows it.
    pub(crate) fn shown_selection(&self) -> usize {
        match self.running {
            Some((i, ..)) if self.follow_running => i,
            _ => self.selected,
        }
    }

    /// The first line shown when following the last change in `rows` rows: the change a
    /// third of the way down.
    fn follow_top(&self, rows: usize) -> usize {
        match self.change {
            Some((from, _)) => self.line_of(from).saturating_sub(rows / 3),
            None => 0,
        }
    }
}

/// The keys that move in the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Nav {
    Up,
    Down,
    PageUp,
    PageDown,
    NextPanel,
    Follow,
    Help,
    /// The step before, in the history.
    Prev,
    /// The step after, in the history.
    Next,
}

/// A step of a run directory: its pass, the tests run and the seconds since the start then.
pub(crate) type StepInfo = (String, u64, f64);

/// A run directory's original, the best after each step, and the steps.
pub(crate) type History<'a> = (&'a [u8], &'a [Vec<u8>], &'a [StepInfo]);

/// The figures above the panels, and the line of keys below them.
pub(crate) struct Frame0<'a> {
    pub(crate) status: Vec<String>,
    pub(crate) board: &'a Board,
    pub(crate) now: Instant,
    pub(crate) started: Instant,
    /// Tests run now (for the running pass's live figures).
    pub(crate) tests: u64,
    pub(crate) initial: usize,
    /// A run directory's original, bests and steps (pass, tests, seconds), for the history.
    pub(crate) steps: Option<History<'a>>,
}

const KEYS: &str =
    "s skip  d disable/enable  p pause  q stop  ? help  tab panel  arrows/PgUp/PgDn move";

const READ_ONLY_KEYS: &str =
    "h history  left/right step  q quit  ? help  tab panel  arrows/PgUp/PgDn move";

const HELP: &[(&str, &str)] = &[
    (
        "s",
        "skip the running pass (it runs again in a later round)",
    ),
    (
        "d",
        "disable the selected pass for the rest of the run, or enable it again",
    ),
    (
        "p",
        "pause: no test starts until p again (running ones finish)",
    ),
    ("q", "stop as Ctrl-C does: the best so far is kept"),
    ("?", "this help (any key closes it)"),
    ("tab", "move between the passes, the best and the output"),
    ("up/down", "select a pass, or scroll the best or the output"),
    ("PgUp/PgDn", "the same by a page"),
    (
        "home",
        "follow the running pass, the last change and the end of the output again",
    ),
    (
        "h",
        "runs show: the history of steps, each a diff against the one before",
    ),
    (
        "left/right",
        "runs show: the step before or after in the history",
    ),
];

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

fn block(title: &str, focused: bool) -> Block<'_> {
    let style = if focused {
        Style::default().fg(Color::Yellow)
    } else {
        Style::default()
    };
    Block::bordered().title(title).border_style(style)
}

/// Draws everything on `frame`.
pub(crate) fn draw(frame: &mut Frame, f: &Frame0) {
    let area = frame.area();
    let b = f.board;
    let mut stats: Vec<Line> = f.status.iter().map(|l| Line::from(l.as_str())).collect();
    if let Some(why) = &b.read_only {
        let line = b.said.last().unwrap_or(why);
        stats.push(Line::styled(line.clone(), Style::default().fg(Color::Cyan)));
    } else if b.paused {
        stats.push(Line::styled(
            "PAUSED: no test starts (p resumes)",
            bold().fg(Color::Red),
        ));
    } else if let Some(said) = b.said.last() {
        stats.push(Line::from(said.as_str()));
    }
    let stats_rows = stats.len() as u16 + 2;
    let [top, middle, keys] = Layout::vertical([
        Constraint::Length(stats_rows),
        Constraint::Min(4),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(stats).block(block("myhill", false)), top);
    let footer = if b.read_only.is_some() {
        READ_ONLY_KEYS
    } else {
        KEYS
    };
    frame.render_widget(
        Paragraph::new(footer).style(Style::default().add_modifier(Modifier::DIM)),
        keys,
    );
    if area.width >= 100 {
        let [upper, lower] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(middle);
        let [graph, passes] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(upper);
        let [best, output] =
            Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
                .areas(lower);
        if area.width >= 160 {
            let [by_time, by_tests] =
                Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(graph);
            draw_graph(frame, f, by_time, true);
            draw_graph(frame, f, by_tests, false);
        } else {
            draw_graph(frame, f, graph, false);
        }
        draw_passes(frame, f, passes);
        draw_best_or_history(frame, f, best);
        draw_output(frame, b, output);
    } else {
        let rows = (b.passes.len() as u16 + 3).min(middle.height / 3).max(4);
        let [passes, graph, best, output] = Layout::vertical([
            Constraint::Length(rows),
            Constraint::Percentage(30),
            Constraint::Min(3),
            Constraint::Length(5),
        ])
        .areas(middle);
        draw_passes(frame, f, passes);
        draw_graph(frame, f, graph, false);
        draw_best_or_history(frame, f, best);
        draw_output(frame, b, output);
    }
    if b.help {
        draw_help(frame, area);
    }
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let width = area.width.min(78);
    let height = (HELP.len() as u16 + 2).min(area.height);
    let at = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let lines: Vec<Line> = HELP
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!("{k:>10}  "), bold()),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, at);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block("keys", true)),
        at,
    );
}

/// A size as the axes show it: 12, 3.4k, 5.6M.
fn short(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{:.1}M", v / 1e6),
        v if v >= 1e4 => format!("{:.0}k", v / 1e3),
        v if v >= 1e3 => format!("{:.1}k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

/// Whether sizes from `low` to `high` want a log axis: over a factor of ten.
pub(crate) fn wants_log(low: usize, high: usize) -> bool {
    high as f64 > 10.0 * (low.max(1) as f64)
}

fn draw_graph(frame: &mut Frame, f: &Frame0, area: Rect, by_time: bool) {
    let b = f.board;
    let elapsed = f.now.saturating_duration_since(f.started).as_secs_f64();
    let current = b.curve.last().map_or(f.initial, |p| p.bytes);
    let low = b
        .curve
        .iter()
        .map(|p| p.bytes)
        .min()
        .unwrap_or(f.initial)
        .min(current);
    let log = wants_log(low, f.initial);
    let y = |bytes: usize| {
        if log {
            (bytes.max(1) as f64).log10()
        } else {
            bytes as f64
        }
    };
    let x_end = if by_time {
        elapsed.max(b.curve.last().map_or(0.0, |p| p.secs)).max(1.0)
    } else {
        (f.tests.max(b.curve.last().map_or(0, |p| p.tests)) as f64).max(1.0)
    };
    // A step line: each size holds until the next one.
    let mut points = vec![(0.0, y(f.initial))];
    let mut last = f.initial;
    for p in &b.curve {
        let x = if by_time { p.secs } else { p.tests as f64 };
        points.push((x, y(last)));
        points.push((x, y(p.bytes)));
        last = p.bytes;
    }
    points.push((x_end, y(last)));
    let (y_low, y_high) = if log {
        (y(low.max(1)) - 0.05, y(f.initial) + 0.05)
    } else {
        (0.0, f.initial.max(1) as f64)
    };
    let shown = |v: f64| if log { 10f64.powf(v) } else { v };
    let y_labels = vec![
        short(shown(y_low).max(0.0).round()),
        short(shown((y_low + y_high) / 2.0).round()),
        short(shown(y_high).round()),
    ];
    let x_labels = if by_time {
        vec![
            "0s".to_string(),
            super::duration(Duration::from_secs_f64(x_end / 2.0)),
            super::duration(Duration::from_secs_f64(x_end)),
        ]
    } else {
        vec!["0".to_string(), short(x_end / 2.0), short(x_end)]
    };
    let title = format!(
        "size against {}{}",
        if by_time { "time" } else { "tests" },
        if log { " (log)" } else { "" }
    );
    let chart = Chart::new(vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(Color::Green))
            .data(&points),
    ])
    .block(block(&title, false))
    .x_axis(Axis::default().bounds([0.0, x_end]).labels(x_labels))
    .y_axis(Axis::default().bounds([y_low, y_high]).labels(y_labels));
    frame.render_widget(chart, area);
}

fn draw_passes(frame: &mut Frame, f: &Frame0, area: Rect) {
    let b = f.board;
    let header = Row::new(["", "pass", "tests", "succ", "removed", "B/test", "time"]).style(bold());
    let selected = b.shown_selection();
    let rows: Vec<Row> = (b.passes.iter().enumerate())
        .map(|(i, p)| {
            let (mut tests, mut time) = (p.tests, p.time);
            let running = matches!(b.running, Some((r, ..)) if r == i);
            if let Some((_, since, at)) = b.running.filter(|_| running) {
                tests += f.tests.saturating_sub(at);
                time += f.now.saturating_duration_since(since);
            }
            let mark = match (p.disabled, running) {
                (true, _) => "off",
                (false, true) => "  >",
                _ => "",
            };
            let name = p.name.clone();
            let rate = if tests == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", p.removed as f64 / tests as f64)
            };
            let mut style = Style::default();
            if running {
                style = style.add_modifier(Modifier::BOLD).fg(Color::Green);
            }
            if p.disabled {
                style = style.add_modifier(Modifier::DIM | Modifier::CROSSED_OUT);
            }
            if i == selected {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Row::new([
                Cell::from(mark),
                Cell::from(name),
                Cell::from(tests.to_string()),
                Cell::from(p.successes.to_string()),
                Cell::from(p.removed.to_string()),
                Cell::from(rate),
                Cell::from(format!("{:.1}s", time.as_secs_f64())),
            ])
            .style(style)
        })
        .collect();
    // Keep the selected row in sight.
    let inner = area.height.saturating_sub(3) as usize;
    let skip = (selected + 1).saturating_sub(inner.max(1));
    let rows: Vec<Row> = rows.into_iter().skip(skip).collect();
    let table = Table::new(
        rows,
        [
            Constraint::Length(3),
            Constraint::Fill(1),
            Constraint::Length(6),
            Constraint::Length(4),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Length(7),
        ],
    )
    .header(header)
    .column_spacing(1)
    .block(block(
        "passes (> running, off: disabled)",
        b.focus == Focus::Passes,
    ));
    frame.render_widget(table, area);
}

fn draw_best_or_history(frame: &mut Frame, f: &Frame0, area: Rect) {
    match (f.board.history, f.steps) {
        (Some(at), Some((original, bests, steps))) if !steps.is_empty() => {
            let at = at.min(steps.len() - 1);
            let before: &[u8] = if at == 0 { original } else { &bests[at - 1] };
            draw_step(
                frame,
                f.board,
                before,
                &bests[at],
                (at, steps.len()),
                &steps[at],
                area,
            )
        }
        _ => draw_best(frame, f.board, area),
    }
}

/// One step of the history: its diff against the step before, with a little context.
fn draw_step(
    frame: &mut Frame,
    b: &Board,
    before: &[u8],
    after: &[u8],
    (at, of): (usize, usize),
    (pass, tests, secs): &StepInfo,
    area: Rect,
) {
    let h = crate::cli::hunk::hunk(before, after);
    let old: Vec<&[u8]> = before.split_inclusive(|&c| c == b'\n').collect();
    let text = |l: &[u8]| {
        String::from_utf8_lossy(l)
            .trim_end_matches('\n')
            .replace('\t', "    ")
    };
    let mut lines: Vec<Line> = Vec::new();
    for l in &old[h.at.saturating_sub(3)..h.at] {
        lines.push(Line::from(format!("  {}", text(l))));
    }
    for l in &h.removed {
        lines.push(Line::styled(
            format!("- {}", text(l)),
            Style::default().fg(Color::Red),
        ));
    }
    for l in &h.added {
        lines.push(Line::styled(
            format!("+ {}", text(l)),
            Style::default().fg(Color::Green),
        ));
    }
    let after_at = h.at + h.removed.len();
    for l in old.iter().skip(after_at).take(3) {
        lines.push(Line::from(format!("  {}", text(l))));
    }
    let title = format!(
        "step {}/{of} {pass}, test {tests}, {secs:.1}s, {}->{} B",
        at + 1,
        before.len(),
        after.len()
    );
    let panel = block(&title, b.focus == Focus::Best)
        .title_bottom("left/right: step before/after, h: close");
    frame.render_widget(Paragraph::new(lines).block(panel), area);
}

fn draw_best(frame: &mut Frame, b: &Board, area: Rect) {
    let rows = area.height.saturating_sub(2) as usize;
    let top = b.best_top.unwrap_or_else(|| b.follow_top(rows));
    let changed = b
        .change
        .map(|(from, to)| (b.line_of(from), b.line_of(to.saturating_sub(1).max(from))));
    let width = area.width.saturating_sub(2) as usize;
    let lines: Vec<Line> = (top..b.line_starts.len())
        .take(rows)
        .map(|n| {
            let start = b.line_starts[n];
            let end = b.line_starts.get(n + 1).copied().unwrap_or(b.best.len());
            let text = String::from_utf8_lossy(&b.best[start..end]);
            let text: String = text
                .trim_end_matches('\n')
                .replace('\t', "    ")
                .chars()
                .take(width.saturating_sub(2))
                .collect();
            let marked = changed.is_some_and(|(a, z)| (a..=z).contains(&n));
            if marked {
                Line::styled(format!("> {text}"), bold().fg(Color::Yellow))
            } else {
                Line::from(format!("  {text}"))
            }
        })
        .collect();
    let title = format!(
        "best: {} bytes, {} lines",
        b.best.len(),
        b.line_starts.len()
    );
    let mut panel = block(&title, b.focus == Focus::Best);
    if let Some((pass, tests)) = &b.change_by {
        panel = panel.title_bottom(format!("> last change: {pass}, test {tests}"));
    }
    frame.render_widget(Paragraph::new(lines).block(panel), area);
}

fn draw_output(frame: &mut Frame, b: &Board, area: Rect) {
    let rows = area.height.saturating_sub(2) as usize;
    let mut lines: Vec<Line> = Vec::new();
    for (name, tail) in [("stdout", &b.stdout), ("stderr", &b.stderr)] {
        let text = String::from_utf8_lossy(tail);
        let mut kept: Vec<&str> = text.lines().collect();
        if kept.is_empty() {
            lines.push(Line::styled(format!("{name}: (nothing)"), bold()));
            continue;
        }
        lines.push(Line::styled(format!("{name}:"), bold()));
        if kept.len() > 200 {
            kept.drain(..kept.len() - 200);
        }
        lines.extend(
            kept.into_iter()
                .map(|l| Line::from(l.replace('\t', "    "))),
        );
    }
    let end = lines.len().saturating_sub(b.output_back);
    let start = end.saturating_sub(rows);
    let title = match b.output_test {
        Some(n) => format!("output of the last interesting test (test {n})"),
        None => "output of the last interesting test".to_string(),
    };
    if let Some(note) = &b.output_note {
        frame.render_widget(
            Paragraph::new(note.as_str())
                .wrap(Wrap { trim: true })
                .block(block(&title, b.focus == Focus::Output)),
            area,
        );
        return;
    }
    let shown: Vec<Line> = lines[start..end].to_vec();
    frame.render_widget(
        Paragraph::new(shown).block(block(&title, b.focus == Focus::Output)),
        area,
    );
}

/// The terminal in raw mode on the alternate screen; given back as it was when dropped.
pub(crate) struct Screen {
    pub(crate) terminal: ratatui::Terminal<ratatui::backend::CrosstermBackend<std::io::Stderr>>,
}

impl Screen {
    /// Takes over the terminal stderr is on.
    pub(crate) fn start() -> std::io::Result<Screen> {
        crossterm::terminal::enable_raw_mode()?;
        ACTIVE.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut err = std::io::stderr();
        if let Err(e) = crossterm::execute!(
            err,
            crossterm::terminal::EnterAlternateScreen,
            crossterm::cursor::Hide
        ) {
            let _ = crossterm::terminal::disable_raw_mode();
            return Err(e);
        }
        let backend = ratatui::backend::CrosstermBackend::new(std::io::stderr());
        match ratatui::Terminal::new(backend) {
            Ok(terminal) => Ok(Screen { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

/// Whether a [`Screen`] holds the terminal now.
static ACTIVE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Gives the terminal back if a [`Screen`] holds it (for an exit that runs no destructor).
pub(crate) fn restore_if_active() {
    if ACTIVE.load(std::sync::atomic::Ordering::SeqCst) {
        restore();
    }
}

/// Leaves the alternate screen and raw mode; harmless when not in them.
pub(crate) fn restore() {
    ACTIVE.store(false, std::sync::atomic::Ordering::SeqCst);
    let _ = crossterm::execute!(
        std::io::stderr(),
        crossterm::terminal::LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = crossterm::terminal::disable_raw_mode();
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// What a key means to the view.
pub(crate) enum Key {
    Skip,
    Disable,
    Pause,
    Stop,
    /// Ctrl-C in raw mode, where it raises no signal.
    Interrupt,
    Move(Nav),
    /// Open or close the history of steps.
    History,
    /// Any other key (it closes the help).
    Other,
}

/// Waits up to `timeout` for a key; `None` on a timeout, a resize or any other event.
pub(crate) fn next_key(timeout: Duration) -> Option<Key> {
    use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    if !event::poll(timeout).ok()? {
        return None;
    }
    let Event::Key(k) = event::read().ok()? else {
        return None;
    };
    if k.kind != KeyEventKind::Press {
        return None;
    }
    Some(match k.code {
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => Key::Interrupt,
        KeyCode::Char('s' | 'S') => Key::Skip,
        KeyCode::Char('d' | 'D') => Key::Disable,
        KeyCode::Char('p' | 'P') => Key::Pause,
        KeyCode::Char('q' | 'Q') => Key::Stop,
        KeyCode::Char('?') => Key::Move(Nav::Help),
        KeyCode::Char('h' | 'H') => Key::History,
        KeyCode::Up | KeyCode::Char('k') => Key::Move(Nav::Up),
        KeyCode::Down | KeyCode::Char('j') => Key::Move(Nav::Down),
        KeyCode::PageUp => Key::Move(Nav::PageUp),
        KeyCode::PageDown => Key::Move(Nav::PageDown),
        KeyCode::Tab => Key::Move(Nav::NextPanel),
        KeyCode::Left => Key::Move(Nav::Prev),
        KeyCode::Right => Key::Move(Nav::Next),
        KeyCode::Home | KeyCode::End => Key::Move(Nav::Follow),
        KeyCode::Esc => Key::Move(Nav::Follow),
        _ => Key::Other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;

    fn board() -> Board {
        let names = ["split/lines", "split/tokens"].map(String::from);
        let mut b = Board::new(&names, b"one\ntwo\nthree\nfour\n".to_vec());
        b.running = Some((1, Instant::now(), 3));
        b.improved("split/tokens", b"one\nthree\nfour\n", 7, 1.5);
        b
    }

    fn text(width: u16, height: u16, b: &Board) -> String {
        let mut terminal = ratatui::Terminal::new(TestBackend::new(width, height)).unwrap();
        let now = Instant::now();
        terminal
            .draw(|frame| {
                draw(
                    frame,
                    &Frame0 {
                        status: vec!["19 -> 15 bytes | 9 tests".into()],
                        board: b,
                        now,
                        started: now - Duration::from_secs(3),
                        tests: 9,
                        initial: 19,
                        steps: None,
                    },
                )
            })
            .unwrap();
        let buffer = terminal.backend().buffer().clone();
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_change_is_found_and_marked_and_the_running_pass_counts_live() {
        let b = board();
        assert_eq!(b.change, Some((5, 5)));
        assert_eq!(b.curve.len(), 1);
        assert_eq!(b.passes[1].successes, 1);
        assert_eq!(b.passes[1].removed, 4);
        for (w, h) in [(80, 24), (100, 30), (200, 50)] {
            let screen = text(w, h, &b);
            for part in [
                "19 -> 15 bytes | 9 tests",
                "passes",
                "> split/tokens",
                "size against tests",
                "best: 15 bytes, 3 lines",
                "> last change: split/tokens, test 7",
                "> three",
                "output of the last interesting test",
            ] {
                assert!(screen.contains(part), "{w}x{h}: {part} missing:\n{screen}");
            }
            assert_eq!(screen.contains("size against time"), w >= 160, "{screen}");
        }
    }

    #[test]
    fn arrows_move_the_selection_and_scroll_and_help_toggles() {
        let mut b = board();
        b.navigate(Nav::Down, 10);
        assert_eq!(b.selected, 1);
        b.navigate(Nav::Down, 10);
        assert_eq!(b.selected, 1);
        b.navigate(Nav::NextPanel, 10);
        assert_eq!(b.focus, Focus::Best);
        b.navigate(Nav::Down, 10);
        assert_eq!(b.best_top, Some(1));
        b.navigate(Nav::Follow, 10);
        assert_eq!(b.best_top, None);
        b.navigate(Nav::Help, 10);
        assert!(text(100, 30, &b).contains("pause: no test starts"));
    }

    #[test]
    fn the_log_axis_is_for_ranges_over_ten_times() {
        assert!(!wants_log(100, 1000));
        assert!(wants_log(99, 1000));
        assert!(wants_log(0, 11));
    }
}
