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
            .args(["-y", "30", command])
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
        "-j 1 --passes ddmin/lines,ddmin/bytes --max-tests 300",
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
    let (command, size) = slow_case(&case, "-j 2 --passes ddmin/lines");
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
    let (command, _) = slow_case_at(&case, "-j 2 --passes ddmin/lines", "1.5");
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
