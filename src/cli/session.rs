//! What reduce, check and compare share: reading the input, resolving the test, the first check.

use super::setup::{read_input, resolve_test, shell_line};
use super::{EXIT_FLAKY, EXIT_INTERRUPTED, EXIT_NOT_INTERESTING, Fail, TestArgs};
use myhill::command::{CommandOracle, CommandSpec, InputMode, dynamic_timeout};
use myhill::{Cancel, Oracle, OracleError, Outcome, Verdict};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The input, the oracle's spec and what the first check learned.
pub struct Prepared {
    pub input_path: PathBuf,
    pub original: Vec<u8>,
    /// The spec for the reduction proper (with `--same-output` filled in).
    pub spec: CommandSpec,
    /// The runs of the first check that judged the original (their verdicts count as tests).
    pub judged: Vec<Outcome>,
    /// Every run of the first check, including the one that recorded `--same-output`.
    pub first_check_runs: u64,
    pub timeout: Duration,
    pub interrupt: Arc<AtomicBool>,
    pub jobs: usize,
}

impl Prepared {
    /// The command oracle for the reduction proper.
    pub fn oracle(&self) -> CommandOracle {
        let oracle = CommandOracle::new(self.spec.clone());
        oracle.set_timeout(self.timeout);
        oracle
    }
}

fn tail(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let all: Vec<&str> = text.lines().collect();
    if all.is_empty() {
        return "    (nothing)\n".to_string();
    }
    all[all.len().saturating_sub(lines)..]
        .iter()
        .map(|l| format!("    {l}\n"))
        .collect()
}

pub fn describe(outcome: &Outcome) -> String {
    match (outcome.verdict, outcome.exit_code) {
        (Verdict::TimedOut, _) => format!("timed out after {:.1}s", outcome.duration.as_secs_f64()),
        (_, Some(code)) => format!("exit status {code}"),
        (_, None) => "killed by a signal".to_string(),
    }
}

/// Installs the Ctrl-C and SIGTERM handlers: each sets the flag; a second Ctrl-C exits at
/// once. A second SIGTERM does not, because `timeout` sends one to the process and one to its
/// group, and the clean stop (tests killed, summary printed) should win.
fn interrupt_flag() -> Result<Arc<AtomicBool>, Fail> {
    let flag = Arc::new(AtomicBool::new(false));
    let setup = |e: std::io::Error| Fail::setup(format!("cannot install the signal handler: {e}"));
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        EXIT_INTERRUPTED,
        flag.clone(),
    )
    .map_err(setup)?;
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, flag.clone()).map_err(setup)?;
    }
    Ok(flag)
}

/// Checks the arguments, then runs the original through the test until its verdict is known.
pub fn prepare(t: &TestArgs) -> Result<Prepared, Fail> {
    let input_path = t.input.clone();
    let original = read_input(&input_path)?;
    let argv = resolve_test(&t.test)?;
    if t.jobs == Some(0) {
        return Err(Fail::setup("--jobs must be at least 1"));
    }
    if let Some(secs) = t.timeout
        && !(secs > 0.0 && secs.is_finite())
    {
        return Err(Fail::setup(
            "--timeout must be a positive number of seconds",
        ));
    }
    let file_name = input_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".to_string());
    let mut spec = CommandSpec::new(argv.clone(), &file_name);
    spec.input_mode = t.input_mode;
    spec.timeout_is_interesting = t.timeout_is_interesting;
    spec.signature = t.signature.compile()?;
    let interrupt = interrupt_flag()?;

    // The first check keeps the output, so a failure can be explained.
    let mut checker = CommandOracle::new(CommandSpec {
        capture_output: true,
        ..spec.clone()
    });
    if let Some(secs) = t.timeout {
        checker.set_timeout(Duration::from_secs_f64(secs));
    }
    let cancel = Cancel::child_of(Some(interrupt.clone()));
    let run_original = |oracle: &CommandOracle| -> Result<Outcome, Fail> {
        oracle.test(&original, &cancel).map_err(|e| match e {
            OracleError::Cancelled => Fail {
                code: EXIT_INTERRUPTED,
                message: "interrupted during the first check; nothing was changed".into(),
            },
            OracleError::Setup(msg) => Fail::setup(msg),
        })
    };
    let mut first_check_runs = 0u64;
    let mut slowest = Duration::ZERO;
    if t.same_output {
        let reference = run_original(&checker)?;
        first_check_runs += 1;
        slowest = slowest.max(reference.duration);
        if reference.verdict == Verdict::TimedOut {
            return Err(hangs(&reference, t));
        }
        let same = (reference.exit_code, reference.stdout, reference.stderr);
        checker.set_same_as(same.0, same.1.clone(), same.2.clone());
        spec.signature.same_as = Some(same);
    }
    let mut judged = Vec::new();
    for _ in 0..t.first_runs.max(1) {
        let outcome = run_original(&checker)?;
        first_check_runs += 1;
        slowest = slowest.max(outcome.duration);
        judged.push(outcome);
    }
    let verdicts: Vec<Verdict> = judged.iter().map(|o| o.verdict).collect();
    if verdicts.windows(2).any(|w| w[0] != w[1]) && !t.allow_flaky {
        let list: Vec<String> = judged.iter().map(describe).collect();
        return Err(Fail {
            code: EXIT_FLAKY,
            message: format!(
                "the test is flaky: on the unchanged original it gave different verdicts ({}).\n\
                 Make it deterministic (fixed seeds, no timing, no shared state), or pass \
                 --allow-flaky to re-confirm every reduction.",
                list.join(", ")
            ),
        });
    }
    if !verdicts.contains(&Verdict::Interesting) {
        let last = judged.last().unwrap();
        if last.verdict == Verdict::TimedOut {
            return Err(hangs(last, t));
        }
        let passes_path = matches!(t.input_mode, InputMode::Arg | InputMode::All);
        return Err(not_interesting(
            last,
            &input_path,
            &spec,
            &argv,
            passes_path,
        ));
    }
    let timeout = match t.timeout {
        Some(secs) => Duration::from_secs_f64(secs),
        None => dynamic_timeout(slowest),
    };
    let jobs = t.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if !t.quiet {
        eprintln!(
            "myhill: the original is interesting ({} bytes, test took {:.2}s; timeout {:.1}s)",
            original.len(),
            slowest.as_secs_f64(),
            timeout.as_secs_f64()
        );
    }
    Ok(Prepared {
        input_path,
        original,
        spec,
        judged,
        first_check_runs,
        timeout,
        interrupt,
        jobs,
    })
}

fn hangs(outcome: &Outcome, t: &TestArgs) -> Fail {
    Fail {
        code: EXIT_NOT_INTERESTING,
        message: format!(
            "the test hangs on the original: it was killed after {:.1}s.\n\
             Give it more time with --timeout SECS{}, or, if the hang is the bug, pass --timeout-is-interesting.",
            outcome.duration.as_secs_f64(),
            if t.timeout.is_some() {
                " (a larger one)"
            } else {
                ""
            }
        ),
    }
}

fn not_interesting(
    outcome: &Outcome,
    input: &Path,
    spec: &CommandSpec,
    argv: &[String],
    passes_path: bool,
) -> Fail {
    let mut msg = format!(
        "the original is not interesting: the test gave {} on the unchanged input.\n",
        describe(outcome)
    );
    msg.push_str(&format!(
        "  stdout (last lines):\n{}",
        tail(&outcome.stdout, 10)
    ));
    msg.push_str(&format!(
        "  stderr (last lines):\n{}",
        tail(&outcome.stderr, 10)
    ));
    let abs = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
    let dir = abs.parent().unwrap_or(Path::new(".")).to_path_buf();
    // Does it behave differently in the input's own directory?
    let in_place = tempfile::tempdir().ok().and_then(|capture| {
        let oracle = CommandOracle::new(CommandSpec {
            capture_output: true,
            ..spec.clone()
        });
        oracle.set_timeout(Duration::from_secs(30));
        oracle
            .run_at(&abs, &dir, capture.path(), &Cancel::never())
            .ok()
    });
    match in_place {
        Some(o) if o.verdict == Verdict::Interesting => msg.push_str(&format!(
            "  In {} itself the test says interesting, so it depends on its working directory or \
             on files beside the input: use absolute paths in the test, or copy what it needs.\n",
            dir.display()
        )),
        Some(o) => msg.push_str(&format!(
            "  In the input's own directory it behaves the same ({}).\n",
            describe(&o)
        )),
        None => {}
    }
    let mut words = argv.to_vec();
    if passes_path {
        words.push(abs.to_string_lossy().into_owned());
    }
    msg.push_str(&format!(
        "  Reproduce it with:\n    cd {} && {} < {}; echo \"exit status $?\"\n",
        shell_line(&[dir.to_string_lossy().into_owned()]),
        shell_line(&words),
        shell_line(&[abs.to_string_lossy().into_owned()])
    ));
    msg.push_str(
        "  Fix the test (it must exit 0 on this input) or the signature options, then run myhill again.",
    );
    Fail {
        code: EXIT_NOT_INTERESTING,
        message: msg,
    }
}
