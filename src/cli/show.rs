//! `myhill runs show`: the full view on a run directory, followed live or replayed, and its history of accepted steps as diffs.
//!
//! Main items: [`run`], the command; [`Follow`], what has been read of the directory so far
//! (read again as it grows, never written: the directory stays the running process's); and
//! [`super::hunk`], one step as a line diff against the step before. On a terminal the view is the
//! one `reduce --ui full` draws, read-only (keys that would steer the run are refused with
//! the reason); `h` turns the best panel into the history explorer. Piped, or with
//! `--history`, the history is printed as unified diff hunks, each against the step before,
//! so that applied in order to `original` they give `best`.
//!
//! Limits: a run directory does not keep what the tests printed, so the output panel says
//! so; a step whose edit was not kept (`steps.jsonl` full) ends the history there.

use super::exit::{Ended, Fail};
use super::hunk::{hunk, hunk_lines};
use super::out;
use super::ui::view::{self, Board, Key, Nav};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What has been read of a run directory.
pub struct Follow {
    dir: PathBuf,
    pub original: Vec<u8>,
    /// The best after each step, and the step's pass, tests and seconds.
    pub bests: Vec<Vec<u8>>,
    pub steps: Vec<(String, u64, f64)>,
    /// Tests logged, per pass: tests and seconds.
    pub tests: u64,
    pub interesting: u64,
    pub last_test: f64,
    pub per_pass: Vec<(String, u64, f64)>,
    tests_read: u64,
    steps_read: u64,
    pub status: String,
}

impl Follow {
    pub fn open(dir: &Path) -> Result<Follow, Fail> {
        let original = std::fs::read(dir.join("original")).map_err(|e| {
            Fail::usage(format!(
                "cannot read {}: {e}",
                dir.join("original").display()
            ))
        })?;
        let mut follow = Follow {
            dir: dir.to_path_buf(),
            original,
            bests: Vec::new(),
            steps: Vec::new(),
            tests: 0,
            interesting: 0,
            last_test: 0.0,
            per_pass: Vec::new(),
            tests_read: 0,
            steps_read: 0,
            status: String::new(),
        };
        follow.read();
        Ok(follow)
    }

    /// The complete lines added to `name` since `offset` bytes, and the new offset.
    fn new_lines(&self, name: &str, offset: u64) -> (Vec<Value>, u64) {
        use std::io::{Read, Seek, SeekFrom};
        let Ok(mut file) = std::fs::File::open(self.dir.join(name)) else {
            return (Vec::new(), offset);
        };
        let mut text = Vec::new();
        if file.seek(SeekFrom::Start(offset)).is_err() || file.read_to_end(&mut text).is_err() {
            return (Vec::new(), offset);
        }
        // A line still being written waits for the next read.
        let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let values = text[..complete]
            .split(|&b| b == b'\n')
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect();
        (values, offset + complete as u64)
    }

    /// Reads what the directory gained since the last read; whether anything changed.
    pub fn read(&mut self) -> bool {
        let (tests, at) = self.new_lines("tests.jsonl", self.tests_read);
        self.tests_read = at;
        let changed = !tests.is_empty();
        for t in tests {
            let Some(secs) = t.get("t").and_then(Value::as_f64) else {
                continue;
            };
            self.tests += 1;
            self.last_test = self.last_test.max(secs);
            if t.get("verdict").and_then(Value::as_str) == Some("interesting") {
                self.interesting += 1;
            }
            let pass = t
                .get("pass")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let ms = t.get("ms").and_then(Value::as_f64).unwrap_or(0.0) / 1000.0;
            match self.per_pass.iter_mut().find(|p| p.0 == pass) {
                Some(p) => {
                    p.1 += 1;
                    p.2 += ms;
                }
                None => self.per_pass.push((pass, 1, ms)),
            }
        }
        let (steps, at) = self.new_lines("steps.jsonl", self.steps_read);
        self.steps_read = at;
        let stepped = !steps.is_empty();
        for s in steps {
            let (Some(cut), Some(insert)) = (s.get("cut"), s.get("insert").and_then(Value::as_str))
            else {
                continue;
            };
            let prev = self.bests.last().unwrap_or(&self.original);
            let from = cut.get(0).and_then(Value::as_u64).unwrap_or(0) as usize;
            let to = cut.get(1).and_then(Value::as_u64).unwrap_or(0) as usize;
            let bytes: Option<Vec<u8>> = (0..insert.len() / 2)
                .map(|i| u8::from_str_radix(insert.get(2 * i..2 * i + 2)?, 16).ok())
                .collect();
            let (Some(bytes), true) = (bytes, from <= to && to <= prev.len()) else {
                continue;
            };
            let mut next = prev.clone();
            next.splice(from..to, bytes);
            self.bests.push(next);
            self.steps.push((
                s.get("pass")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                s.get("tests").and_then(Value::as_u64).unwrap_or(0),
                s.get("t").and_then(Value::as_f64).unwrap_or(0.0),
            ));
        }
        let status = status_of(&self.dir);
        let moved = status != self.status;
        self.status = status;
        changed || stepped || moved
    }

    pub fn best(&self) -> &[u8] {
        self.bests.last().unwrap_or(&self.original)
    }

    /// The board as the directory tells it.
    fn board(&self, into: &mut Board) {
        let names: Vec<String> = self.per_pass.iter().map(|p| p.0.clone()).collect();
        let mut fresh = Board::new(&names, self.original.clone());
        let mut before = &self.original;
        for (best, (pass, tests, secs)) in self.bests.iter().zip(&self.steps) {
            fresh.improved(pass, best, *tests, *secs);
            let i = fresh.row(pass);
            fresh.passes[i].successes += 1;
            fresh.passes[i].removed += before.len().saturating_sub(best.len()) as u64;
            before = best;
        }
        for (name, tests, secs) in &self.per_pass {
            let i = fresh.row(name);
            fresh.passes[i].tests = *tests;
            fresh.passes[i].time = Duration::from_secs_f64(*secs);
        }
        fresh.output_note = Some("a run directory does not keep what the tests printed".into());
        // What the person moved or chose stays as it was.
        fresh.selected = into.selected.min(fresh.passes.len().saturating_sub(1));
        fresh.follow_running = false;
        fresh.focus = into.focus;
        fresh.best_top = into.best_top;
        fresh.help = into.help;
        fresh.history = into.history;
        fresh.read_only = into.read_only.clone();
        fresh.said = std::mem::take(&mut into.said);
        *into = fresh;
    }

    /// The figures line, as the status of a live run shows them.
    fn status_lines(&self, following: bool) -> Vec<String> {
        let initial = self.original.len();
        let best = self.best().len();
        let gain = if best < initial {
            format!(
                " (-{:.1}%)",
                100.0 * (initial - best) as f64 / initial as f64
            )
        } else {
            String::new()
        };
        let how = if following {
            "following the live run".to_string()
        } else {
            format!("replaying a {} run", self.status)
        };
        vec![
            format!(
                "{initial} -> {best} bytes{gain} | {} tests | {} interesting | {} steps",
                self.tests,
                self.interesting,
                self.steps.len()
            ),
            format!(
                "{how} | {} run | {}s logged | {}",
                self.status,
                self.last_test.round(),
                self.dir.display()
            ),
        ]
    }
}

/// The run's status as `meta.json` says it, or "in use" when a process holds it.
fn status_of(dir: &Path) -> String {
    if myhill::runs::run_in_use(dir) {
        return "live".to_string();
    }
    let meta: Option<Value> = std::fs::read(dir.join("meta.json"))
        .ok()
        .and_then(|t| serde_json::from_slice(&t).ok());
    match meta
        .as_ref()
        .and_then(|m| m.get("status"))
        .and_then(Value::as_str)
    {
        Some("running") => "killed".to_string(),
        Some(s) => s.to_string(),
        None => "unknown".to_string(),
    }
}

/// The history as a unified diff: one hunk per step, with its pass, tests and seconds.
pub fn history(follow: &Follow) -> String {
    let mut out = String::from("--- original\n+++ best\n");
    let mut before: &[u8] = &follow.original;
    for (k, (best, (pass, tests, secs))) in follow.bests.iter().zip(&follow.steps).enumerate() {
        let h = hunk(before, best);
        let start = |n: usize| if n == 0 { h.at } else { h.at + 1 };
        // Earlier hunks already moved the lines: the new text's numbering is the old one's
        // for the next hunk, as `patch` reads hunks in order on the text it has.
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@ step {} of {}: {pass}, test {tests}, {secs:.1}s, {} -> {} bytes\n",
            start(h.removed.len()),
            h.removed.len(),
            start(h.added.len()),
            h.added.len(),
            k + 1,
            follow.steps.len(),
            before.len(),
            best.len()
        ));
        for line in hunk_lines(&h) {
            out.push_str(&line);
            out.push('\n');
        }
        before = best;
    }
    out
}

pub fn run(dir: &Path, print_history: bool) -> Result<Ended, Fail> {
    let mut follow = Follow::open(dir)?;
    if print_history || !std::io::stdout().is_terminal() || !std::io::stderr().is_terminal() {
        out::out_raw(history(&follow).as_bytes());
        return Ok(Ended::Done);
    }
    let mut screen = view::Screen::start()
        .map_err(|e| Fail::usage(format!("cannot take over the terminal: {e}")))?;
    let mut board = Board::new(&[], follow.original.clone());
    board.read_only = Some(
        "read-only: keys that steer the run work in its own terminal; h history, q quit".into(),
    );
    follow.board(&mut board);
    let mut page = 10;
    let mut last_read = Instant::now();
    loop {
        if last_read.elapsed() >= Duration::from_millis(500) {
            last_read = Instant::now();
            if follow.read() {
                follow.board(&mut board);
            }
        }
        let following = follow.status == "live";
        let status = follow.status_lines(following);
        let now = Instant::now();
        let frame = view::Frame0 {
            status,
            board: &board,
            now,
            started: now - Duration::from_secs_f64(follow.last_test),
            tests: follow.tests,
            initial: follow.original.len(),
            steps: Some((&follow.original, &follow.bests, &follow.steps)),
        };
        let _ = screen.terminal.draw(|f| {
            page = usize::from(f.area().height / 3);
            view::draw(f, &frame)
        });
        let Some(key) = view::next_key(Duration::from_millis(200)) else {
            continue;
        };
        if board.help {
            board.help = false;
            continue;
        }
        let refused = "read-only: this view only reads the run directory; steer the run in \
                       its own terminal";
        match key {
            Key::Stop | Key::Interrupt => break,
            Key::Skip | Key::Disable | Key::Pause => board.said.push(refused.to_string()),
            Key::History => {
                board.history = match board.history {
                    Some(_) => None,
                    None => Some(follow.steps.len().saturating_sub(1)),
                }
            }
            Key::Move(nav) => {
                board.navigate(nav, page);
                if let Some(at) = board.history.as_mut() {
                    match nav {
                        Nav::Prev => *at = at.saturating_sub(1),
                        Nav::Next => *at = (*at + 1).min(follow.steps.len().saturating_sub(1)),
                        _ => {}
                    }
                }
            }
            Key::Other => {}
        }
    }
    drop(screen);
    Ok(Ended::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hunk_is_the_lines_between_the_common_ones() {
        let h = hunk(b"a\nb\nc\nd\n", b"a\nd\n");
        assert_eq!(h.at, 1);
        assert_eq!(h.removed, [b"b\n".as_slice(), b"c\n"]);
        assert!(h.added.is_empty());
        let h = hunk(b"a\nb", b"a\n");
        assert_eq!(hunk_lines(&h), ["-b", "\\ No newline at end of file"]);
    }
}
