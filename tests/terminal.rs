//! The live status in a real terminal: tmux runs myhill, send-keys types, capture-pane reads.
//!
//! Skipped with a message when tmux is missing. Nothing here depends on how fast the machine
//! is: each step waits (up to a generous deadline) for what the screen must come to show.

mod common;

use common::{Case, bin};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of the test's own, killed when the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A session `columns` wide running `command`, or `None` when tmux is missing.
    fn start(name: &str, columns: u16, command: &str) -> Option<Tmux> {
        Tmux::start_sized(name, columns, 30, command)
    }

    /// A session of `columns` by `rows` running `command`, or `None` when tmux is missing.
    fn start_sized(name: &str, columns: u16, rows: u16, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("skipping: tmux is not installed (apt-get install tmux)");
            return None;
        }
        let tmux = Tmux {
            socket: format!("myhill-{name}-{}", std::process::id()),
        };
        let status = tmux
            .cmd()
            .args(["new-session", "-d", "-s", "t", "-x", &columns.to_string()])
            .args(["-y", &rows.to_string(), command])
            .status()
            .unwrap();
        assert!(status.success());
        Some(tmux)
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket, "-f", "/dev/null"]);
        c
    }

    fn screen(&self) -> Vec<String> {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "t"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect()
    }

    fn keys(&self, keys: &str) {
        self.cmd()
            .args(["send-keys", "-t", "t", keys])
            .status()
            .unwrap();
    }

    fn resize(&self, columns: u16, rows: u16) {
        self.cmd()
            .args(["resize-window", "-t", "t", "-x", &columns.to_string()])
            .args(["-y", &rows.to_string()])
            .status()
            .unwrap();
    }

    /// Waits until `done` holds for the screen and returns it; fails after a minute.
    fn wait(&self, what: &str, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {what}:\n{}",
                screen.join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

/// A case with 61 lines to reduce and a test that is slow on the original (1 s) and quick
/// enough on smaller inputs (0.4 s, so a pass lasts seconds); the command line that runs
/// myhill on it in the pane, and the input's size.
fn slow_case(case: &Case, options: &str) -> (String, usize) {
    slow_case_at(case, options, "0.4")
}

/// `slow_case` with the smaller inputs' test lasting `quick` seconds.
fn slow_case_at(case: &Case, options: &str, quick: &str) -> (String, usize) {
    let mut input = String::new();
    for i in 0..60 {
        input.push_str(&format!("int v{i} = {i};\n"));
        if i == 30 {
            input.push_str("BUG();\n");
        }
    }
    case.file("in.c", input.as_bytes());
    case.script(
        "slow.sh",
        &format!(
            "if [ $(wc -l < \"$1\") -gt 50 ]; then sleep 1; else sleep {quick}; fi\ngrep -q BUG \"$1\""
        ),
    );
    let command = format!(
        "cd {} && TMPDIR={} XDG_STATE_HOME={} {} reduce {options} ./slow.sh in.c; echo \"exit=$?\"; sleep 600",
        case.dir.path().display(),
        case.path("tmp").display(),
        case.state.path().display(),
        bin()
    );
    (command, input.len())
}

fn rows_with<'a>(screen: &'a [String], text: &str) -> Vec<&'a String> {
    screen.iter().filter(|r| r.contains(text)).collect()
}

#[test]
fn at_80_columns_the_status_fits_moves_with_a_slow_test_and_s_skips_a_pass() {
    let case = Case::new();
    let (command, size) = slow_case(
        &case,
        "--ui line -j 1 --passes ddmin/lines,ddmin/bytes --max-tests 300",
    );
    let Some(tmux) = Tmux::start("narrow", 80, &command) else {
        return;
    };
    // The first check shows as it runs, and the clock moves while its test does.
    let first = tmux.wait("the first check", |s| {
        !rows_with(s, "first check of the original").is_empty()
    });
    let row = rows_with(&first, "first check of the original")[0].clone();
    tmux.wait("the first check's clock moving", |s| {
        let rows = rows_with(s, "first check of the original");
        rows.len() == 1 && *rows[0] != row || rows.is_empty()
    });
    let screen = tmux.wait("the first pass", |s| {
        !rows_with(s, "pass ddmin/lines").is_empty()
    });
    // One copy of the status, each of its lines on one row, none wider than the pane.
    let sizes = rows_with(&screen, " tests");
    assert_eq!(sizes.len(), 1, "{}", screen.join("\n"));
    assert!(
        sizes[0].starts_with(&format!("{size} -> ")),
        "{}",
        screen.join("\n")
    );
    let doing = rows_with(&screen, "pass ddmin/lines");
    assert_eq!(doing.len(), 1, "{}", screen.join("\n"));
    assert!(doing[0].starts_with("pass ddmin/lines"));
    assert!(doing[0].contains("elapsed"), "{}", screen.join("\n"));
    assert!(screen.iter().all(|r| r.chars().count() <= 80));

    tmux.keys("s");
    tmux.wait("the next pass", |s| {
        !rows_with(s, "pass ddmin/bytes").is_empty()
    });
    tmux.keys("q");
    let end = tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
    let text = end.join("\n");
    assert!(text.contains("exit=130"), "{text}");
    assert!(text.contains("skipped by you (s): ddmin/lines"), "{text}");
    assert!(text.contains("myhill: interrupted"), "{text}");
    // The status is gone, and the terminal echoes again: its mode was put back.
    assert!(rows_with(&end, "elapsed").is_empty(), "{text}");
    tmux.keys("typed-after-the-end");
    tmux.wait("typing echoed", |s| {
        !rows_with(s, "typed-after-the-end").is_empty()
    });
    assert!(case.read("in.c").windows(3).any(|w| w == b"BUG"));
}

#[test]
fn at_200_columns_the_status_is_one_line_and_ctrl_c_gives_the_terminal_back() {
    let case = Case::new();
    let (command, size) = slow_case(&case, "--ui line -j 2 --passes ddmin/lines");
    let Some(tmux) = Tmux::start("wide", 200, &command) else {
        return;
    };
    let screen = tmux.wait("the pass", |s| !rows_with(s, "pass ddmin/lines").is_empty());
    let line = rows_with(&screen, "pass ddmin/lines");
    assert_eq!(line.len(), 1, "{}", screen.join("\n"));
    assert!(line[0].starts_with(&format!("{size} -> ")), "{}", line[0]);
    for part in [
        " tests",
        "% interesting",
        "wasted",
        "2 jobs",
        "elapsed",
        "s: skip pass, q: stop",
    ] {
        assert!(line[0].contains(part), "{part} missing: {}", line[0]);
    }
    // Ctrl-C still reaches the signal handler with keys on, and the terminal comes back.
    tmux.keys("C-c");
    let end = tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
    assert!(end.join("\n").contains("exit=130"), "{}", end.join("\n"));
    tmux.keys("typed-after-the-end");
    tmux.wait("typing echoed", |s| {
        !rows_with(s, "typed-after-the-end").is_empty()
    });
}

/// Resizing the terminal leaves one status, however its rows were reflowed, and the status
/// claims no gain and no idle workers before there are any.
#[test]
fn a_resized_terminal_keeps_one_status_and_the_first_check_claims_nothing() {
    let case = Case::new();
    // The five resizes take about 4 s: a test of 1.5 s keeps the pass running through them.
    let (command, _) = slow_case_at(&case, "--ui line -j 2 --passes ddmin/lines", "1.5");
    let Some(tmux) = Tmux::start("resize", 200, &command) else {
        return;
    };
    let first = tmux.wait("the first check", |s| {
        !rows_with(s, "first check of the original").is_empty()
    });
    let text = first.join("\n");
    assert!(!text.contains("-0.0%"), "a gain before any: {text}");
    assert!(
        !text.contains("% busy"),
        "a busy share before any test ended: {text}"
    );
    tmux.wait("the pass", |s| !rows_with(s, "pass ddmin/lines").is_empty());
    for columns in [90, 60, 45, 120, 70] {
        tmux.cmd()
            .args(["resize-window", "-t", "t", "-x", &columns.to_string()])
            .status()
            .unwrap();
        // A few redraws at the new width.
        std::thread::sleep(std::time::Duration::from_millis(700));
        let screen = tmux.wait("the status redrawn", |s| {
            s.iter().any(|r| r.contains("elapsed"))
                && s.iter().all(|r| r.chars().count() <= columns)
        });
        let text = screen.join("\n");
        assert_eq!(
            rows_with(&screen, " -> ").len(),
            1,
            "{columns} columns:\n{text}"
        );
        assert_eq!(
            rows_with(&screen, "elapsed").len(),
            1,
            "{columns} columns:\n{text}"
        );
    }
    tmux.keys("q");
    tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
}

/// After resize cycles, and in a pane two rows high, the status is redrawn in place: the
/// pane's scrollback does not grow while the run goes on (an erase to the end of the screen
/// at the top row scrolled it ten lines a second in tmux, pushing the run's first lines out).
#[test]
fn resize_cycles_and_a_two_row_pane_leave_the_scrollback_alone() {
    let case = Case::new();
    let (command, _) = slow_case_at(&case, "--ui line -j 2 --passes ddmin/lines", "1.5");
    let Some(tmux) = Tmux::start("scrollback", 100, &command) else {
        return;
    };
    tmux.wait("the pass", |s| !rows_with(s, "pass ddmin/lines").is_empty());
    let history = || -> usize {
        let out = tmux
            .cmd()
            .args(["display-message", "-p", "-t", "t", "#{history_size}"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    for (columns, rows) in [(60, 30), (100, 30), (60, 30), (100, 30), (100, 2)] {
        tmux.cmd()
            .args(["resize-window", "-t", "t", "-x", &columns.to_string()])
            .args(["-y", &rows.to_string()])
            .status()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
    }
    // Redraws at about 10 a second: three seconds are thirty of them. An improvement's line
    // may scroll one row each (a test takes 1.5 s, two at a time).
    let before = history();
    std::thread::sleep(Duration::from_secs(3));
    let after = history();
    assert!(
        after <= before + 5,
        "the scrollback grew from {before} to {after} lines in 3 s"
    );
    tmux.resize(100, 30);
    tmux.keys("q");
    tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
}

/// A test whose output holds terminal controls (clear the screen, home the cursor, set the
/// pane's title) cannot take the diagnosis of a failed first check off the screen: each
/// non-printing byte is shown escaped, and the pane keeps its title.
#[test]
fn a_test_printing_terminal_controls_leaves_the_diagnosis_on_screen() {
    let case = Case::new();
    case.file("in.txt", b"some input\n");
    case.script(
        "t.sh",
        "printf 'noise\\033[2J\\033[H\\033]2;hijacked\\007\\033khijacked\\033\\\\\\n'; exit 1",
    );
    let command = format!(
        "cd {} && TMPDIR={} XDG_STATE_HOME={} {} reduce ./t.sh in.txt; echo \"exit=$?\"; sleep 600",
        case.dir.path().display(),
        case.path("tmp").display(),
        case.state.path().display(),
        bin()
    );
    let Some(tmux) = Tmux::start("controls", 120, &command) else {
        return;
    };
    let screen = tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
    let text = screen.join("\n");
    assert!(text.contains("not interesting"), "{text}");
    assert!(rows_with(&screen, "exit=3").len() == 1, "{text}");
    // What the test printed is there, its controls escaped.
    assert!(text.contains("noise"), "{text}");
    let out = tmux
        .cmd()
        .args([
            "display-message",
            "-p",
            "-t",
            "t",
            "#{pane_title}|#{window_name}",
        ])
        .output()
        .unwrap();
    let titles = String::from_utf8_lossy(&out.stdout);
    assert!(!titles.contains("hijacked"), "{titles}");
}

/// The lines of a run directory's `tests.jsonl`.
fn tests_logged(run: &std::path::Path) -> usize {
    std::fs::read_to_string(run.join("tests.jsonl")).map_or(0, |t| t.lines().count())
}

/// The full view at 100x30, 80x24 and 200x50: every panel with the run's figures; `d`
/// disables the running pass for the rest of the run, `p` holds back every test until
/// pressed again, `q` stops; the terminal comes back as it was.
#[test]
fn the_full_view_shows_its_panels_at_every_size_and_d_p_q_steer_the_run() {
    let case = Case::new();
    let (command, size) = slow_case(
        &case,
        "--ui full -j 1 --passes split/lines,ddmin/bytes --run-dir run --stats-json stats.json",
    );
    let Some(tmux) = Tmux::start_sized("full", 100, 30, &command) else {
        return;
    };
    let all = |s: &[String]| s.join("\n");
    let screen = tmux.wait("the panels with a gain", |s| {
        let t = all(s);
        t.contains("split/lines")
            && t.contains("size against tests")
            && t.contains("> last change: ")
            && t.contains("output of the last interesting test")
            && t.contains("stdout:")
    });
    let text = all(&screen);
    assert!(text.contains(&format!("{size} -> ")), "{text}");
    assert!(text.contains("passes (> running, off: disabled)"), "{text}");
    assert!(
        text.contains("s skip  d disable/enable  p pause  q stop"),
        "{text}"
    );
    // The line changed last is marked in the best.
    assert!(screen.iter().any(|r| r.contains("│> ")), "{text}");
    assert!(screen.iter().all(|r| r.chars().count() <= 100), "{text}");

    // `d` on split/lines (the first row, however far the run got): it stops if it runs, and
    // never runs again.
    for _ in 0..4 {
        tmux.keys("Up");
    }
    tmux.keys("d");
    tmux.wait("split/lines disabled", |s| {
        all(s).contains("off split/lines")
    });

    // `p`: no test starts while paused (the one running may end).
    tmux.keys("p");
    tmux.wait("the pause shown", |s| all(s).contains("PAUSED"));
    let run = case.path("run");
    let at_pause = tests_logged(&run);
    // Paused, the run cannot end: the view is there for every size.
    tmux.resize(80, 24);
    let screen = tmux.wait("the view at 80x24", |s| {
        s.len() <= 24
            && s.iter().all(|r| r.chars().count() <= 80)
            && [
                "passes",
                "size against tests",
                "best:",
                "output of",
                "PAUSED",
            ]
            .iter()
            .all(|p| all(s).contains(p))
    });
    assert!(
        all(&screen).contains(&format!("{size} -> ")),
        "{}",
        all(&screen)
    );
    tmux.resize(200, 50);
    tmux.wait("both graphs at 200x50", |s| {
        let t = all(s);
        t.contains("size against time") && t.contains("size against tests") && s.len() >= 40
    });
    tmux.resize(100, 30);
    tmux.wait("the view at 100x30 again", |s| {
        !all(s).contains("size against time") && s.iter().all(|r| r.chars().count() <= 100)
    });
    tmux.keys("?");
    tmux.wait("the help", |s| all(s).contains("pause: no test starts"));
    tmux.keys("x");
    tmux.wait("the help closed", |s| {
        !all(s).contains("pause: no test starts")
    });
    std::thread::sleep(Duration::from_secs(3));
    let later = tests_logged(&run);
    assert!(
        later <= at_pause + 1,
        "{at_pause} tests when paused, {later} later"
    );

    // `p` again: tests run again. Paused once more, `q` stops the run (it cannot end first).
    tmux.keys("p");
    let deadline = Instant::now() + Duration::from_secs(60);
    while tests_logged(&run) <= later + 1 {
        assert!(Instant::now() < deadline, "no test after the pause ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    tmux.keys("p");
    tmux.wait("paused again", |s| all(s).contains("PAUSED"));
    tmux.keys("q");
    let end = tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
    let text = all(&end);
    assert!(text.contains("exit=130"), "{text}");
    assert!(
        text.contains("disabled by you (d), for the rest of the run: split/lines"),
        "{text}"
    );
    assert!(text.contains("myhill: interrupted"), "{text}");
    let stats = common::json(&case.path("stats.json"));
    assert_eq!(stats["disabled_passes"], serde_json::json!(["split/lines"]));
    let lines = stats["passes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "split/lines")
        .unwrap();
    assert_eq!(lines["disabled"], true);
    assert_eq!(lines["runs"], 1, "{stats}");
    // The terminal echoes again: raw mode and the alternate screen are gone.
    tmux.keys("typed-after-the-end");
    tmux.wait("typing echoed", |s| {
        !rows_with(s, "typed-after-the-end").is_empty()
    });
    assert!(case.read("in.c").windows(3).any(|w| w == b"BUG"));
}

/// The view changes nothing that is tested: a run under it ends with the result and the test
/// counts of a run with the status line.
#[test]
fn a_run_under_the_full_view_tests_what_a_line_run_tests() {
    let case = Case::new();
    let mut input = String::new();
    for i in 0..40 {
        input.push_str(&format!("int v{i} = {i}; /* {} */\n", i * 7));
        if i == 20 {
            input.push_str("BUG();\n");
        }
    }
    case.file("full.c", input.as_bytes());
    case.file("line.c", input.as_bytes());
    case.script(
        "t.sh",
        "sleep 0.05\necho \"looking at $1\"\necho found >&2\ngrep -q BUG \"$1\"",
    );
    let command = format!(
        "cd {} && TMPDIR={} XDG_STATE_HOME={} {} reduce --ui full -j 2 --stats-json full.json ./t.sh full.c; echo \"exit=$?\"; sleep 600",
        case.dir.path().display(),
        case.path("tmp").display(),
        case.state.path().display(),
        bin()
    );
    let Some(tmux) = Tmux::start_sized("same", 100, 30, &command) else {
        return;
    };
    let end = tmux.wait("the end", |s| !rows_with(s, "exit=").is_empty());
    assert!(end.join("\n").contains("exit=0"), "{}", end.join("\n"));
    let line = case.run(&[
        "reduce",
        "--ui",
        "line",
        "-j",
        "2",
        "--stats-json",
        "line.json",
        "./t.sh",
        "line.c",
    ]);
    assert!(line.status.success(), "{}", common::stderr(&line));
    assert_eq!(case.read("full.c"), case.read("line.c"));
    let (full, line) = (
        common::json(&case.path("full.json")),
        common::json(&case.path("line.json")),
    );
    for figure in ["tests_run", "interesting", "cache_hits", "verify_runs"] {
        assert_eq!(full[figure], line[figure], "{figure}");
    }
}

/// Applies the hunks `runs show --history` prints, in order, to `original`.
fn apply_history(original: &[u8], history: &str) -> Vec<u8> {
    let mut text: Vec<Vec<u8>> = original
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let lines: Vec<&str> = history.split('\n').collect();
    let mut k = 0;
    while k < lines.len() {
        let Some(header) = lines[k].strip_prefix("@@ -") else {
            k += 1;
            continue;
        };
        let old = header.split(' ').next().unwrap();
        let (start, count) = old.split_once(',').unwrap();
        let (start, count): (usize, usize) = (start.parse().unwrap(), count.parse().unwrap());
        let at = if count == 0 { start } else { start - 1 };
        k += 1;
        let mut added: Vec<Vec<u8>> = Vec::new();
        let mut removed = 0;
        while k < lines.len() && !lines[k].starts_with("@@") && !lines[k].is_empty() {
            let line = lines[k];
            let no_newline = lines.get(k + 1) == Some(&"\\ No newline at end of file");
            if let Some(t) = line.strip_prefix('+') {
                let mut l = t.as_bytes().to_vec();
                if !no_newline {
                    l.push(b'\n');
                }
                added.push(l);
            } else if line.starts_with('-') {
                removed += 1;
            }
            k += if no_newline { 2 } else { 1 };
        }
        text.splice(at..at + removed, added);
    }
    text.concat()
}

/// `runs show` follows a run another process makes: at its end the view shows the figures of
/// that run's stats file; the history's diffs, applied in order to `original`, give `best`.
#[test]
fn runs_show_follows_a_run_made_elsewhere_and_its_history_rebuilds_the_best() {
    let case = Case::new();
    let (_, _) = slow_case_at(&case, "", "0.3");
    let mut reduce = case
        .command(&[
            "reduce",
            "-j",
            "1",
            "--run-dir",
            "run",
            "--stats-json",
            "stats.json",
            "./slow.sh",
            "in.c",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let run = case.path("run");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !run.join("tests.jsonl").exists() {
        assert!(Instant::now() < deadline, "the run never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    let command = format!(
        "cd {} && XDG_STATE_HOME={} {} runs show run; echo \"exit=$?\"; sleep 600",
        case.dir.path().display(),
        case.state.path().display(),
        bin()
    );
    let Some(tmux) = Tmux::start_sized("show", 100, 30, &command) else {
        let _ = reduce.kill();
        let _ = reduce.wait();
        return;
    };
    let all = |s: &[String]| s.join("\n");
    tmux.wait("the live run followed", |s| {
        all(s).contains("following the live run")
    });
    // Keys that would steer the run are refused, with the reason.
    tmux.keys("p");
    tmux.wait("p refused", |s| {
        all(s).contains("read-only: this view only reads")
    });
    assert!(reduce.wait().unwrap().success());
    let stats = common::json(&case.path("stats.json"));
    let figures = format!(
        "{} -> {} bytes",
        stats["initial_bytes"], stats["final_bytes"]
    );
    let tests = format!("| {} tests |", stats["tests_run"]);
    tmux.wait("the figures of the stats file", |s| {
        let t = all(s);
        t.contains(&figures) && t.contains(&tests) && t.contains("replaying a finished run")
    });
    tmux.keys("h");
    tmux.wait("the history", |s| {
        all(s).contains("left/right: step before/after")
    });
    tmux.keys("q");
    tmux.wait("the viewer closed", |s| all(s).contains("exit=0"));

    let out = case.run(&["runs", "show", "run"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let history = String::from_utf8(out.stdout).unwrap();
    assert!(history.contains("@@ step 1 of "), "{history}");
    let original = std::fs::read(run.join("original")).unwrap();
    assert_eq!(apply_history(&original, &history), case.read("run/best"));
    assert_eq!(case.read("run/best"), case.read("in.c"));
}
