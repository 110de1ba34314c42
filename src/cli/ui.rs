//! What the user sees of a reduction: the live status on a terminal, a line per improvement otherwise, the summary.
//!
//! On a terminal the status is one line, or two when that is too narrow, cut to the
//! terminal's width and redrawn five times a second by a thread of its own from the state the
//! events leave, so it moves while a slow test runs. Keys: `s` skips the running pass, `q`
//! stops as Ctrl-C does. Piped, each improvement is one line, stamped with the time since the
//! start.

pub(super) mod view;

use super::out;
use super::terminal::{self, Keys};
use myhill::{Event, Report, Verdict, process::Control, report::PassStats};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use view::{Board, Key};

/// How often the live status is redrawn.
const REDRAW: Duration = Duration::from_millis(200);

/// What the run is doing now.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    /// Running the test on the unchanged original: `done` of `runs` runs are over.
    FirstCheck { done: u32, runs: u32 },
    /// Reducing.
    Reducing,
}

/// Everything the status shows, as the events left it.
#[derive(Clone, Debug)]
struct Status {
    phase: Phase,
    started: Instant,
    /// When the test that runs now (as far as the events tell) started.
    test_started: Instant,
    initial: usize,
    current: usize,
    /// For a directory: files at the start and now (the bytes are then the files' bytes).
    files: Option<(usize, usize)>,
    tests: u64,
    max_tests: Option<u64>,
    interesting: u64,
    wasted: u64,
    jobs: usize,
    busy: Duration,
    pass: String,
    progress: Option<(u64, u64)>,
    last_improvement: Option<Instant>,
    /// What a key did, shown until the next pass starts.
    note: Option<String>,
    keys: bool,
    /// The length in characters of each line of the status as drawn (empty: not drawn).
    drawn: Vec<usize>,
    /// What the full-screen view shows beside these figures, when it is on.
    board: Option<Board>,
}

/// A part of a status line and how readily it is left out when the line is too long (higher
/// first).
type Field = (String, u8);

fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{:.1}s", d.as_secs_f64()),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s / 60) % 60),
    }
}

/// Elapsed time as a log stamp: hours, minutes and seconds.
fn stamp(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

fn percent(part: f64, whole: f64) -> f64 {
    if whole <= 0.0 {
        0.0
    } else {
        100.0 * part / whole
    }
}

/// `fields` joined, leaving out the most expendable ones until the line fits `width`, and cut
/// to it if even the essential ones do not.
fn fit(fields: &[Field], width: usize) -> String {
    let mut kept: Vec<&Field> = fields.iter().collect();
    loop {
        let line = kept
            .iter()
            .map(|f| f.0.as_str())
            .collect::<Vec<_>>()
            .join(" | ");
        if line.chars().count() <= width {
            return line;
        }
        let most = kept.iter().map(|f| f.1).max().unwrap_or(0);
        if most == 0 {
            return line.chars().take(width).collect();
        }
        let drop = kept.iter().rposition(|f| f.1 == most).unwrap_or(0);
        kept.remove(drop);
    }
}

impl Status {
    /// "9 -> 2 files, " for a directory; nothing for a file.
    fn files_shown(&self) -> String {
        self.files
            .map(|(a, b)| format!("{a} -> {}, ", files_word(b)))
            .unwrap_or_default()
    }

    /// Takes the size of a new best: its length, or for a directory its files and their bytes.
    fn measure(&mut self, bytes: &[u8]) {
        match (self.files, myhill::archive::Archive::decode(bytes)) {
            (Some((initial, _)), Ok(tree)) => {
                self.files = Some((initial, tree.files()));
                self.current = tree.content_bytes();
            }
            _ => self.current = bytes.len(),
        }
    }

    fn sizes(&self, now: Instant) -> Vec<Field> {
        let elapsed = now.saturating_duration_since(self.started).as_secs_f64();
        let tests = match self.max_tests {
            Some(max) => format!("{}/{max} tests", self.tests),
            None => format!("{} tests", self.tests),
        };
        if let Phase::FirstCheck { .. } = self.phase {
            // Nothing has been tried yet: no gain, no rate, no share of workers to show.
            let jobs = if self.jobs == 1 { "job" } else { "jobs" };
            return vec![
                (format!("{} bytes", self.initial), 0),
                (tests, 0),
                (format!("{} {jobs}", self.jobs), 3),
            ];
        }
        let gain = if self.current < self.initial {
            format!(
                " (-{:.1}%)",
                percent((self.initial - self.current) as f64, self.initial as f64)
            )
        } else {
            String::new()
        };
        let mut fields = vec![
            (
                format!(
                    "{}{} -> {} bytes{gain}",
                    self.files_shown(),
                    self.initial,
                    self.current
                ),
                0,
            ),
            (tests, 0),
            (
                format!(
                    "{:.1}/s",
                    if elapsed > 0.0 {
                        self.tests as f64 / elapsed
                    } else {
                        0.0
                    }
                ),
                1,
            ),
            (
                format!(
                    "{:.0}% interesting",
                    percent(self.interesting as f64, self.tests as f64)
                ),
                2,
            ),
        ];
        if self.jobs > 1 {
            fields.push((format!("{} wasted", self.wasted), 3));
        }
        let busy = percent(self.busy.as_secs_f64(), elapsed * self.jobs as f64).min(100.0);
        let jobs = if self.jobs == 1 { "job" } else { "jobs" };
        fields.push((format!("{} {jobs} {busy:.0}% busy", self.jobs), 3));
        fields
    }

    fn doing(&self, now: Instant) -> Vec<Field> {
        let mut fields = Vec::new();
        match self.phase {
            Phase::FirstCheck { done, runs } if self.jobs > 1 && runs > 1 => fields.push((
                format!(
                    "first check of the original: {done} of {runs} runs done, {} running",
                    (runs - done.min(runs)).min(self.jobs as u32),
                ),
                0,
            )),
            Phase::FirstCheck { done, runs } => fields.push((
                format!(
                    "first check of the original: run {} of {runs}, {}",
                    (done + 1).min(runs),
                    duration(now.saturating_duration_since(self.test_started))
                ),
                0,
            )),
            Phase::Reducing => {
                let at = match self.progress {
                    Some((done, total)) if total > 0 => {
                        format!(" {:.0}%", percent(done as f64, total as f64).min(100.0))
                    }
                    _ => String::new(),
                };
                let pass = if self.pass.is_empty() {
                    "re-running the best".to_string()
                } else {
                    format!("pass {}{at}", self.pass)
                };
                fields.push((pass, 0));
            }
        }
        if let Some(note) = &self.note {
            fields.push((note.clone(), 0));
        }
        fields.push((
            format!(
                "{} elapsed",
                duration(now.saturating_duration_since(self.started))
            ),
            0,
        ));
        if self.phase == Phase::Reducing {
            let since = match self.last_improvement {
                Some(t) => format!(
                    "last gain {} ago",
                    duration(now.saturating_duration_since(t))
                ),
                None => "no gain yet".to_string(),
            };
            fields.push((since, 1));
        }
        if self.keys {
            fields.push(("s: skip pass, q: stop".to_string(), 4));
        }
        fields
    }

    /// The status as lines of at most `width` characters: one if everything fits, else two.
    fn render(&self, now: Instant, width: usize) -> Vec<String> {
        let (sizes, doing) = (self.sizes(now), self.doing(now));
        let all: Vec<Field> = sizes.iter().chain(&doing).cloned().collect();
        let one = fit(&all, usize::MAX);
        if one.chars().count() <= width {
            return vec![one];
        }
        vec![fit(&sizes, width), fit(&doing, width)]
    }

    /// Erases the rows the status took, from the last one up, and leaves the cursor at the
    /// start of the first, on a terminal `columns` wide now. Each row is erased on its own
    /// (`ESC[2K`): tmux takes a clear-to-the-end (`ESC[J`) at the top row for a clear-screen
    /// and scrolls the whole pane into its history, so the status would scroll forever in a
    /// low pane or after resizes.
    fn clear_at(&mut self, columns: usize) -> String {
        // A terminal made narrower since the status was drawn reflows each of its lines
        // over as many rows as the new width needs.
        let rows: usize = (self.drawn.iter())
            .map(|&len| len.div_ceil(columns.max(1)).max(1))
            .sum();
        self.drawn.clear();
        if rows == 0 {
            return String::new();
        }
        let mut text = String::from("\r\x1b[2K");
        for _ in 1..rows {
            text.push_str("\x1b[1A\x1b[2K");
        }
        text
    }

    /// [`Status::clear_at`] the terminal's width now.
    fn clear(&mut self) -> String {
        self.clear_at(terminal::width().unwrap_or(80))
    }

    fn draw(&mut self) {
        let columns = terminal::width().unwrap_or(80);
        // One column is left free: writing the last one makes some terminals wrap.
        let width = columns.saturating_sub(1).max(10);
        let lines = self.render(Instant::now(), width);
        let mut text = self.clear_at(columns);
        text.push_str(&lines.join("\r\n"));
        self.drawn = lines.iter().map(|l| l.chars().count()).collect();
        out::err_raw(text);
    }
}

/// The live display: the thread that redraws it, and the keys.
struct Live {
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
    keys: Option<Keys>,
}

/// How a terminal shows the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UiMode {
    /// `full` if the terminal has at least 100x30 cells, else `line`.
    Auto,
    /// The full-screen view.
    Full,
    /// The status line.
    Line,
}

impl UiMode {
    /// The mode `--ui` names.
    pub fn named(name: &str) -> UiMode {
        match name {
            "full" => UiMode::Full,
            "line" => UiMode::Line,
            _ => UiMode::Auto,
        }
    }

    /// Whether the full view is to be drawn on this terminal.
    fn full(self) -> bool {
        let size = || crossterm::terminal::size().ok();
        match self {
            UiMode::Line => false,
            UiMode::Full => true,
            UiMode::Auto => size().is_some_and(|(w, h)| w >= 100 && h >= 30),
        }
    }
}

/// What the display needs to know before the first event.
pub struct Setup {
    pub quiet: bool,
    pub initial: usize,
    /// For a directory, its files (and `initial` counts their bytes).
    pub files: Option<usize>,
    pub jobs: usize,
    pub max_tests: Option<u64>,
    pub first_runs: u32,
    pub control: Control,
    pub mode: UiMode,
    /// The passes of the schedule, for the full view's table.
    pub passes: Vec<String>,
    /// The input, for the full view.
    pub best: Vec<u8>,
}

/// Renders the reduction's events.
pub struct Ui {
    quiet: bool,
    status: Arc<Mutex<Status>>,
    live: Option<Live>,
}

impl Ui {
    /// Starts the display: on a terminal (unless quiet) the live status and its keys.
    pub fn new(setup: Setup) -> Ui {
        let now = Instant::now();
        let status = Arc::new(Mutex::new(Status {
            phase: Phase::FirstCheck {
                done: 0,
                runs: setup.first_runs.max(1),
            },
            started: now,
            test_started: now,
            initial: setup.initial,
            current: setup.initial,
            files: setup.files.map(|f| (f, f)),
            tests: 0,
            max_tests: setup.max_tests,
            interesting: 0,
            wasted: 0,
            jobs: setup.jobs,
            busy: Duration::ZERO,
            pass: String::new(),
            progress: None,
            last_improvement: None,
            note: None,
            keys: false,
            drawn: Vec::new(),
            board: None,
        }));
        let terminal = !setup.quiet && std::io::stderr().is_terminal();
        let full = terminal
            && std::io::stdin().is_terminal()
            && setup.mode.full()
            && terminal::in_foreground();
        let live = if full {
            Self::start_full(&status, setup.control.clone(), &setup)
        } else {
            None
        };
        let live = live.or_else(|| terminal.then(|| Self::start_live(&status, setup.control)));
        Ui {
            quiet: setup.quiet,
            status,
            live,
        }
    }

    fn start_live(status: &Arc<Mutex<Status>>, control: Control) -> Live {
        let keys = {
            let status = status.clone();
            Keys::start(move |key| {
                let mut s = status.lock().unwrap_or_else(|e| e.into_inner());
                match key {
                    b's' | b'S' if s.phase == Phase::Reducing && !s.pass.is_empty() => {
                        control.skip_pass();
                        s.note = Some(format!("skipping {}", s.pass));
                    }
                    b'q' | b'Q' => {
                        control.stop();
                        s.note = Some("stopping: the best so far is kept".to_string());
                    }
                    _ => {}
                }
            })
        };
        lock(status).keys = keys.is_some();
        let done = Arc::new(AtomicBool::new(false));
        let drawer = {
            let (status, done) = (status.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    lock(&status).draw();
                    std::thread::park_timeout(REDRAW);
                }
            })
        };
        Live {
            done,
            drawer: Some(drawer),
            keys,
        }
    }

    /// The full view on its own thread, which draws it five times a second and takes the
    /// keys; `None` (with the reason said) if the terminal cannot show it.
    fn start_full(status: &Arc<Mutex<Status>>, control: Control, setup: &Setup) -> Option<Live> {
        let mut screen = match view::Screen::start() {
            Ok(screen) => screen,
            Err(e) => {
                out::err(format!(
                    "myhill: note: no full-screen view ({e}); showing the status line"
                ));
                return None;
            }
        };
        // Tests keep the tail of what they print, for the output panel; verdicts do not change.
        control.keep_output();
        {
            let mut s = lock(status);
            s.board = Some(Board::new(&setup.passes, setup.best.clone()));
        }
        let done = Arc::new(AtomicBool::new(false));
        let drawer = {
            let (status, done) = (status.clone(), done.clone());
            std::thread::spawn(move || {
                let mut interrupts = 0u32;
                let mut page = 10;
                while !done.load(Ordering::SeqCst) {
                    {
                        let mut s = lock(&status);
                        let now = Instant::now();
                        let width = screen.terminal.size().map_or(100, |r| r.width) as usize;
                        let lines = s.render(now, width.saturating_sub(2).max(10));
                        let s = &mut *s;
                        if let Some(board) = &s.board {
                            let frame = view::Frame0 {
                                status: lines,
                                board,
                                now,
                                started: s.started,
                                tests: s.tests,
                                initial: s.initial,
                                steps: None,
                            };
                            let _ = screen.terminal.draw(|f| {
                                page = usize::from(f.area().height / 3);
                                view::draw(f, &frame)
                            });
                        }
                    }
                    let Some(key) = view::next_key(REDRAW) else {
                        continue;
                    };
                    take_key(key, &mut lock(&status), &control, page, &mut interrupts);
                }
                drop(screen);
            })
        };
        Some(Live {
            done,
            drawer: Some(drawer),
            keys: None,
        })
    }

    /// Prints a line to stderr, above the live status if there is one (in the full view, on
    /// its figures, and again once it is closed).
    pub fn say(&self, line: impl AsRef<str>) {
        let mut s = lock(&self.status);
        if let Some(board) = s.board.as_mut() {
            board.said.push(line.as_ref().to_string());
            return;
        }
        let clear = s.clear();
        out::err_raw(clear);
        out::err(line);
    }

    /// Takes one event of the reduction.
    pub fn event(&mut self, event: &Event) {
        let mut s = lock(&self.status);
        match event {
            Event::Started { bytes, jobs } => {
                s.phase = Phase::Reducing;
                if s.files.is_none() {
                    s.initial = *bytes;
                    s.current = *bytes;
                }
                s.jobs = *jobs;
            }
            Event::Tested {
                stats,
                verdict,
                stdout,
                stderr,
                ..
            } => {
                if let Some(board) = s.board.as_mut()
                    && *verdict == Verdict::Interesting
                {
                    board.stdout = stdout.to_vec();
                    board.stderr = stderr.to_vec();
                    board.output_test = Some(stats.tests_run);
                }
                s.tests = stats.tests_run;
                s.interesting = stats.interesting;
                s.wasted = stats.speculative_wasted;
                s.busy = stats.busy;
                s.test_started = Instant::now();
                if let Phase::FirstCheck { done, .. } = &mut s.phase {
                    *done += 1;
                }
            }
            Event::PassStarted { pass } => {
                let tests = s.tests;
                if let Some(board) = s.board.as_mut() {
                    let i = board.row(pass);
                    board.running = Some((i, Instant::now(), tests));
                }
                s.pass = pass.to_string();
                s.progress = None;
                s.note = None;
            }
            Event::Progress { done, total } => s.progress = Some((*done, *total)),
            Event::PassDone { stats } => {
                if let Some(board) = s.board.as_mut() {
                    let i = board.row(&stats.name);
                    let row = &mut board.passes[i];
                    row.tests = stats.tests;
                    row.successes = stats.successes;
                    row.removed = stats.bytes_removed;
                    row.time = stats.time;
                    row.skipped = stats.skipped > 0;
                    board.running = None;
                }
                s.pass.clear();
                s.progress = None;
            }
            Event::Reduced { bytes, tests, pass } => self.reduced(&mut s, bytes, *tests, pass),
            Event::RolledBack { bytes } => self.rolled_back(&mut s, bytes),
            _ => {}
        }
    }

    /// A new best of `bytes` after `tests` tests, found by `pass`.
    fn reduced(&self, s: &mut Status, bytes: &[u8], tests: u64, pass: &str) {
        s.measure(bytes);
        s.tests = s.tests.max(tests);
        let now = Instant::now();
        s.last_improvement = Some(now);
        let secs = now.saturating_duration_since(s.started).as_secs_f64();
        if let Some(board) = s.board.as_mut() {
            board.improved(pass, bytes, tests, secs);
        }
        if !self.quiet && self.live.is_none() {
            out::err(format!(
                "myhill: [{}] {}{} -> {} bytes ({:.1}% removed) after {} tests, pass {pass}",
                stamp(now - s.started),
                s.files_shown(),
                s.initial,
                s.current,
                percent(s.initial.saturating_sub(s.current) as f64, s.initial as f64),
                tests,
            ));
        }
    }

    /// The best went back to `bytes`: a re-run did not confirm it.
    fn rolled_back(&self, s: &mut Status, bytes: &[u8]) {
        s.measure(bytes);
        let (tests, secs) = (s.tests, s.started.elapsed().as_secs_f64());
        if let Some(board) = s.board.as_mut() {
            board.rolled_back(bytes, tests, secs);
        }
        if !self.quiet {
            let clear = s.clear();
            out::err_raw(clear);
            let line = format!(
                "myhill: warning: the best so far was not interesting when run again: \
                 the test is flaky on reduced inputs. Going back to the last result that \
                 passed twice ({} bytes); every success is re-confirmed from now on.",
                bytes.len()
            );
            match s.board.as_mut() {
                Some(board) => board.said.push(line),
                None => out::err(line),
            }
        }
    }

    /// Stops the live status and its keys, clears it, and gives the terminal back as it was.
    pub fn finish(&mut self) {
        let Some(mut live) = self.live.take() else {
            return;
        };
        live.done.store(true, Ordering::SeqCst);
        if let Some(drawer) = live.drawer.take() {
            drawer.thread().unpark();
            let _ = drawer.join();
        }
        drop(live.keys.take());
        let mut s = lock(&self.status);
        if let Some(board) = s.board.take() {
            // What was said while the view covered the screen, now on the terminal for good.
            for line in &board.said {
                out::err(line);
            }
            return;
        }
        let clear = s.clear();
        out::err_raw(clear);
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Acts on a key of the full view: moves, skips, disables, pauses or stops (`page`: rows a
/// page key moves; `interrupts`: Ctrl-C pressed so far, the second hurries).
fn take_key(key: Key, s: &mut Status, control: &Control, page: usize, interrupts: &mut u32) {
    let Some(board) = s.board.as_mut() else {
        return;
    };
    if board.help && !matches!(key, Key::Interrupt) {
        board.help = false;
        return;
    }
    match key {
        Key::Move(nav) => {
            board.navigate(nav, page);
        }
        Key::Skip if s.phase == Phase::Reducing && !s.pass.is_empty() => {
            control.skip_pass();
            s.note = Some(format!("skipping {}", s.pass));
        }
        Key::Skip | Key::Other | Key::History => {}
        Key::Disable => {
            let at = board.shown_selection();
            let Some(row) = board.passes.get_mut(at) else {
                return;
            };
            row.disabled = !row.disabled;
            control.set_disabled(&row.name, row.disabled);
            let verb = if row.disabled { "disabled" } else { "enabled" };
            s.note = Some(format!("{verb} {}", row.name));
            if row.disabled && s.pass == row.name {
                control.skip_pass();
            }
        }
        Key::Pause => {
            board.paused = !board.paused;
            if board.paused {
                control.pause();
            } else {
                control.resume();
            }
        }
        Key::Stop => {
            // Stopped first, so no test held back by a pause starts.
            control.stop();
            control.resume();
            s.note = Some("stopping: the best so far is kept".to_string());
        }
        Key::Interrupt => {
            *interrupts += 1;
            if *interrupts == 1 {
                control.stop();
            } else {
                control.hurry();
            }
            control.resume();
            s.note = Some("stopping: the best so far is kept".to_string());
        }
    }
}

/// The status, even if a thread panicked while holding it: it is only ever shown.
fn lock(status: &Mutex<Status>) -> MutexGuard<'_, Status> {
    status.lock().unwrap_or_else(|e| e.into_inner())
}

/// The end-of-run summary, for people: the sizes, the tests, and the passes that ran a test
/// or were skipped; `verbose` adds the others and the passes' counters.
/// "1 file", "2 files".
fn files_word(n: usize) -> String {
    if n == 1 {
        "1 file".to_string()
    } else {
        format!("{n} files")
    }
}

/// For a directory, `files` gives its files and their bytes at the start and at the end.
pub fn summary(
    report: &Report,
    verbose: bool,
    files: Option<((usize, usize), (usize, usize))>,
    disabled: &[String],
) -> String {
    let mut s = String::new();
    let (initial, last) = match files {
        Some(((_, a), (_, b))) => (a, b),
        None => (report.initial_bytes, report.final_bytes),
    };
    let removed = initial.saturating_sub(last);
    let pct = if initial == 0 {
        0.0
    } else {
        100.0 * removed as f64 / initial as f64
    };
    let shown = files
        .map(|((a, _), (b, _))| format!("{a} -> {}, ", files_word(b)))
        .unwrap_or_default();
    s.push_str(&format!(
        "myhill: {shown}{initial} -> {last} bytes ({pct:.1}% removed)\n"
    ));
    let e = &report.eval;
    if files.is_none() {
        s.push_str(&format!("  input kind: {}\n", report.kind.describe()));
    } else if !report.file_kinds.is_empty() {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for decided in report.file_kinds.values() {
            *counts.entry(decided.kind.name()).or_default() += 1;
        }
        let counts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        s.push_str(&format!("  file kinds: {}\n", counts.join(", ")));
    }
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
    let reached: Vec<String> = [(0.9, "90%"), (0.99, "99%")]
        .iter()
        .filter_map(|&(share, label)| {
            let (tests, at) = report.reached(share)?;
            Some(format!(
                "{label} at {:.1}s after {tests} tests",
                at.as_secs_f64()
            ))
        })
        .collect();
    if !reached.is_empty() {
        s.push_str(&format!("  reduction reached: {}\n", reached.join(", ")));
    }
    s.push_str(&pass_rows(report, verbose, disabled));
    if verbose {
        for (name, value) in &report.counters {
            s.push_str(&format!("  {name}: {value}\n"));
        }
    }
    s
}

/// The summary's rows of passes (those that did something, or all with `verbose`), and which
/// passes were skipped or disabled.
fn pass_rows(report: &Report, verbose: bool, disabled: &[String]) -> String {
    let mut s = String::new();
    let shown: Vec<&PassStats> = report
        .passes
        .iter()
        .filter(|p| {
            verbose || p.tests > 0 || p.successes > 0 || p.skipped > 0 || disabled.contains(&p.name)
        })
        .collect();
    // A tree's per-file rows (`split/lines @ pkg/a.py`) widen the name column.
    let width = shown
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(23);
    if !shown.is_empty() {
        s.push_str(&format!(
            "  {:<width$} {:>7} {:>9} {:>13} {:>10} {:>8}\n",
            "pass", "tests", "successes", "bytes removed", "tests/byte", "time"
        ));
        for p in &shown {
            s.push_str(&format!(
                "  {:<width$} {:>7} {:>9} {:>13} {:>10} {:>7.2}s{}\n",
                p.name,
                p.tests,
                p.successes,
                p.bytes_removed,
                tests_per_byte(p.tests, p.bytes_removed),
                p.time.as_secs_f64(),
                match (disabled.contains(&p.name), p.skipped > 0) {
                    (true, _) => " (disabled)",
                    (false, true) => " (skipped)",
                    _ => "",
                }
            ));
        }
    }
    let idle = report.passes.len() - shown.len();
    if idle > 0 {
        s.push_str(&format!(
            "  ({idle} more pass{} ran no test; -v lists them and the passes' counters)\n",
            if idle == 1 { "" } else { "es" }
        ));
    }
    let skipped: Vec<&str> = report
        .passes
        .iter()
        .filter(|p| p.skipped > 0 && !disabled.contains(&p.name))
        .map(|p| p.name.as_str())
        .collect();
    if !skipped.is_empty() {
        s.push_str(&format!("  skipped by you (s): {}\n", skipped.join(", ")));
    }
    if !disabled.is_empty() {
        s.push_str(&format!(
            "  disabled by you (d), for the rest of the run: {}\n",
            disabled.join(", ")
        ));
    }
    s
}

/// Tests per byte removed, for the summary: `-` when nothing was removed and nothing tested,
/// `inf` when tests removed nothing.
fn tests_per_byte(tests: u64, bytes: u64) -> String {
    match (tests, bytes) {
        (0, 0) => "-".to_string(),
        (_, 0) => "inf".to_string(),
        (t, b) => format!("{:.1}", t as f64 / b as f64),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn status(now: Instant) -> Status {
        let started = now - Duration::from_secs(83);
        Status {
            phase: Phase::Reducing,
            started,
            test_started: started,
            initial: 4735,
            current: 2960,
            files: None,
            tests: 398,
            max_tests: Some(400),
            interesting: 180,
            wasted: 12,
            jobs: 2,
            busy: Duration::from_secs(150),
            pass: "split/tokens".into(),
            progress: Some((340, 1000)),
            last_improvement: Some(now - Duration::from_secs(12)),
            note: None,
            keys: true,
            drawn: Vec::new(),
            board: None,
        }
    }

    #[test]
    fn the_status_fits_the_width_on_one_line_or_two() {
        let now = Instant::now();
        let s = status(now);
        let wide = s.render(now, 199);
        assert_eq!(wide.len(), 1, "{wide:?}");
        for part in [
            "4735 -> 2960 bytes (-37.5%)",
            "398/400 tests",
            "4.8/s",
            "45% interesting",
            "12 wasted",
            "2 jobs 90% busy",
            "pass split/tokens 34%",
            "1m23s elapsed",
            "last gain 12.0s ago",
            "s: skip pass, q: stop",
        ] {
            assert!(wide[0].contains(part), "{part} missing from {wide:?}");
        }
        for width in [20, 40, 79, 100, 140] {
            let lines = s.render(now, width);
            assert!(lines.len() <= 2);
            for line in &lines {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
        let narrow = s.render(now, 79);
        assert!(narrow[0].starts_with("4735 -> 2960 bytes"), "{narrow:?}");
        assert!(narrow[1].starts_with("pass split/tokens 34%"), "{narrow:?}");
    }

    #[test]
    fn the_first_check_is_shown_while_it_runs() {
        let now = Instant::now();
        let mut s = status(now);
        s.jobs = 1;
        s.phase = Phase::FirstCheck { done: 1, runs: 2 };
        s.test_started = now - Duration::from_millis(2500);
        let lines = s.render(now, 199);
        assert!(
            lines[0].contains("first check of the original: run 2 of 2, 2.5s"),
            "{lines:?}"
        );
    }

    #[test]
    fn clearing_goes_back_over_every_row_drawn() {
        let mut s = status(Instant::now());
        assert_eq!(s.clear_at(80), "");
        s.drawn = vec![70, 60];
        assert_eq!(s.clear_at(80), "\r\x1b[2K\x1b[1A\x1b[2K");
        assert!(s.drawn.is_empty());
    }

    /// No clear-to-the-end anywhere: at the top row of a tmux pane it scrolls the pane.
    #[test]
    fn clearing_erases_row_by_row_and_never_to_the_end_of_the_screen() {
        let mut s = status(Instant::now());
        for drawn in [vec![10], vec![150], vec![79, 79, 79]] {
            s.drawn = drawn;
            let text = s.clear_at(40);
            assert!(!text.contains("\x1b[J"), "{text:?}");
            assert!(text.starts_with('\r'), "{text:?}");
        }
    }

    /// A terminal made narrower reflows the status drawn at the old width: a 150-character
    /// line takes 3 rows at 60 columns, and all of them are cleared.
    #[test]
    fn clearing_after_a_resize_counts_the_rows_the_lines_reflowed_into() {
        let mut s = status(Instant::now());
        s.drawn = vec![150];
        let rows = |n: usize| format!("\r\x1b[2K{}", "\x1b[1A\x1b[2K".repeat(n - 1));
        assert_eq!(s.clear_at(60), rows(3));
        s.drawn = vec![79, 40];
        assert_eq!(s.clear_at(40), rows(3));
        s.drawn = vec![79, 79];
        assert_eq!(s.clear_at(200), rows(2));
    }

    #[test]
    fn before_any_gain_or_test_the_status_claims_none() {
        let now = Instant::now();
        let mut s = status(now);
        s.current = s.initial;
        let line = s.render(now, 199).join("\n");
        assert!(line.contains("4735 -> 4735 bytes |"), "{line}");
        assert!(!line.contains("-0.0%"), "{line}");
        s.phase = Phase::FirstCheck { done: 0, runs: 2 };
        s.tests = 0;
        s.busy = Duration::ZERO;
        let line = s.render(now, 199).join("\n");
        assert!(!line.contains("busy"), "{line}");
        assert!(!line.contains("interesting |"), "{line}");
        assert!(
            line.contains("first check of the original: 0 of 2 runs done, 2 running"),
            "{line}"
        );
    }
}
