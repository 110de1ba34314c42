//! Runs myhill over the benchmark corpus in `examples/corpus/` and prints one row per case.
//!
//!     cargo build --release
//!     cargo run --release --example corpus -- [--jobs N] [--timeout SECS] [--myhill PATH]
//!                                              [--extra "ARGS"] [--keep] [--large]
//!                                              [--at SECS,SECS...] [CASE...]
//!
//! Each case is a folder with `input`, an executable `interesting.sh` (exit 0 iff the file
//! given as `$1` is interesting; it appends one line to `$ORACLE_LOG` per call), `meta`
//! (`ext=` suffix of the working copy, `kind=` c | text | binary) and a `README`. CASE is a
//! folder name under `examples/corpus/` or the path of any folder with that layout (such as
//! the shared harness's cases); with no CASE every folder under `examples/corpus/` is run,
//! except the large ones (`size=large` in `meta`), which `--large` adds.
//!
//! A large case keeps a generator instead of its megabytes: when its `input` is missing, the
//! runner first runs the case's `generate.sh`, which writes `input` beside it (git-ignored).
//! The large cases' tests also append "EPOCH BYTES" to `$ORACLE_LOG.curve` on every
//! interesting verdict; `--at 60,300` adds a column with the smallest interesting size seen
//! by each of those seconds after the start (the curve itself: `examples/corpus/curves.py`).
//!
//! For every case the runner copies `input` to `input.EXT` in a fresh temporary directory,
//! points `ORACLE_LOG` at a fresh file there (so tests are counted the way the shared
//! harness counts them, parallel workers included) and runs
//! `myhill reduce --jobs N [ARGS] CASE/interesting.sh input.EXT` in its own process group.
//! After `--timeout` seconds (default 300) the group gets SIGTERM, and SIGKILL 10 s later.
//! The result is then checked with `interesting.sh` once more (not counted), and the row
//! shows: case, initial bytes, tests (oracle calls), final bytes, wall seconds, whether the
//! result is still interesting, and myhill's exit status. The myhill binary defaults to
//! `$MYHILL`, else `target/release/myhill` of this checkout. `--keep` keeps the temporary
//! directories (with myhill's log) and prints where they are. The program exits 1 if any
//! run failed or left an uninteresting result.
//!
//! Only the standard library is used; signals go through the `kill` command.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Grace period between SIGTERM and SIGKILL once the time limit is hit.
const KILL_GRACE: Duration = Duration::from_secs(10);

struct Options {
    jobs: usize,
    timeout: Duration,
    myhill: PathBuf,
    extra: Vec<String>,
    keep: bool,
    large: bool,
    checkpoints: Vec<u64>,
    cases: Vec<PathBuf>,
}

struct Row {
    case: String,
    initial: u64,
    tests: usize,
    final_bytes: u64,
    wall: f64,
    interesting: bool,
    status: String,
    ok: bool,
    /// The smallest interesting size by each of `Options::checkpoints`, when the test logs a curve.
    by_checkpoint: Vec<u64>,
}

const USAGE: &str = "usage: cargo run --release --example corpus -- [--jobs N] [--timeout SECS] \
[--myhill PATH] [--extra \"ARGS\"] [--keep] [--large] [--at SECS,SECS...] [CASE...]";

fn main() {
    let opts = match parse_args(std::env::args().skip(1).collect()) {
        Ok(opts) => opts,
        Err(msg) => {
            eprintln!("corpus: {msg}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if !opts.myhill.is_file() {
        eprintln!(
            "corpus: no myhill binary at {} (run `cargo build --release`, or pass --myhill PATH)",
            opts.myhill.display()
        );
        std::process::exit(2);
    }
    println!(
        "# {} reduce --jobs {}{}{} TEST FILE; timeout {} s",
        opts.myhill.display(),
        opts.jobs,
        if opts.extra.is_empty() { "" } else { " " },
        opts.extra.join(" "),
        opts.timeout.as_secs()
    );
    let at_header: String = opts
        .checkpoints
        .iter()
        .map(|t| format!(" {:>9}", format!("at_{t}s")))
        .collect();
    println!(
        "{:<18} {:>8} {:>7} {:>8} {:>8}{at_header}  {:<11} status",
        "case", "initial", "tests", "final", "wall_s", "interesting"
    );
    let mut all_ok = true;
    for case in &opts.cases {
        let row = match run_case(&opts, case) {
            Ok(row) => row,
            Err(msg) => Row {
                case: case_name(case),
                initial: 0,
                tests: 0,
                final_bytes: 0,
                wall: 0.0,
                interesting: false,
                status: format!("error: {msg}"),
                ok: false,
                by_checkpoint: Vec::new(),
            },
        };
        all_ok &= row.ok;
        let at_cells: String = row
            .by_checkpoint
            .iter()
            .map(|bytes| format!(" {bytes:>9}"))
            .collect();
        println!(
            "{:<18} {:>8} {:>7} {:>8} {:>8.2}{at_cells}  {:<11} {}",
            row.case,
            row.initial,
            row.tests,
            row.final_bytes,
            row.wall,
            if row.interesting { "yes" } else { "no" },
            row.status
        );
        let _ = std::io::stdout().flush();
    }
    if !all_ok {
        std::process::exit(1);
    }
}

fn parse_args(args: Vec<String>) -> Result<Options, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("examples").join("corpus");
    let mut opts = Options {
        jobs: 1,
        timeout: Duration::from_secs(300),
        myhill: std::env::var_os("MYHILL")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target").join("release").join("myhill")),
        extra: Vec::new(),
        keep: false,
        large: false,
        checkpoints: Vec::new(),
        cases: Vec::new(),
    };
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "-j" | "--jobs" => {
                opts.jobs = value("--jobs")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--jobs wants a positive integer")?;
            }
            "--timeout" => {
                let secs: f64 = value("--timeout")?
                    .parse()
                    .ok()
                    .filter(|&s: &f64| s > 0.0 && s.is_finite())
                    .ok_or("--timeout wants a positive number of seconds")?;
                opts.timeout = Duration::from_secs_f64(secs);
            }
            "--myhill" => opts.myhill = PathBuf::from(value("--myhill")?),
            "--extra" => opts.extra.extend(split_words(&value("--extra")?)?),
            "--keep" => opts.keep = true,
            "--large" => opts.large = true,
            "--at" => {
                opts.checkpoints = value("--at")?
                    .split(',')
                    .map(|t| t.trim().parse::<u64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| "--at wants seconds separated by commas, such as 60,300")?;
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
            _ => {
                let path = Path::new(&arg);
                let dir = if arg.contains('/') {
                    path.to_path_buf()
                } else {
                    corpus.join(&arg)
                };
                if !dir.join("interesting.sh").is_file() {
                    return Err(format!("no case folder at {}", dir.display()));
                }
                opts.cases.push(dir);
            }
        }
    }
    if opts.cases.is_empty() {
        let entries =
            fs::read_dir(&corpus).map_err(|e| format!("cannot list {}: {e}", corpus.display()))?;
        for entry in entries.flatten() {
            let dir = entry.path();
            let has_input = dir.join("input").is_file() || dir.join("generate.sh").is_file();
            if dir.join("interesting.sh").is_file() && has_input && (opts.large || !is_large(&dir))
            {
                opts.cases.push(dir);
            }
        }
        opts.cases.sort();
    }
    Ok(opts)
}

/// Splits `--extra` like a shell would for plain words, 'single' and "double" quotes.
fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in --extra {s:?}"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn case_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string())
}

/// The value of `key=` in the case's `meta` file, if set and not empty.
fn meta_value(dir: &Path, key: &str) -> Option<String> {
    let meta = fs::read_to_string(dir.join("meta")).ok()?;
    meta.lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
                .map(|v| v.trim().to_string())
        })
        .filter(|v| !v.is_empty())
}

/// The `ext=` of the case's `meta` file (default `txt`, as in the shared harness).
fn case_ext(dir: &Path) -> String {
    meta_value(dir, "ext").unwrap_or_else(|| "txt".to_string())
}

/// Whether the case is one of the large ones (`size=large`), left out unless `--large`.
fn is_large(dir: &Path) -> bool {
    meta_value(dir, "size").as_deref() == Some("large")
}

/// Runs the case's `generate.sh` when its `input` is missing (large cases keep a generator).
fn ensure_input(dir: &Path) -> Result<(), String> {
    let generator = dir.join("generate.sh");
    if dir.join("input").is_file() || !generator.is_file() {
        return Ok(());
    }
    let status = Command::new(&generator)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", generator.display()))?;
    if !status.success() {
        return Err(format!(
            "{} failed ({})",
            generator.display(),
            describe(status)
        ));
    }
    Ok(())
}

/// The smallest size in `curve` (lines "EPOCH BYTES") seen by each checkpoint after `start`,
/// `initial` where none was seen yet.
fn sizes_by_checkpoint(curve: &str, start: f64, initial: u64, checkpoints: &[u64]) -> Vec<u64> {
    let points: Vec<(f64, u64)> = curve
        .lines()
        .filter_map(|line| {
            let (at, bytes) = line.split_once(' ')?;
            Some((at.parse::<f64>().ok()? - start, bytes.trim().parse().ok()?))
        })
        .collect();
    checkpoints
        .iter()
        .map(|&t| {
            points
                .iter()
                .filter(|(at, _)| *at <= t as f64)
                .map(|&(_, bytes)| bytes)
                .fold(initial, u64::min)
        })
        .collect()
}

fn fresh_dir(case: &str) -> Result<PathBuf, String> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    for attempt in 0..100u32 {
        let dir = std::env::temp_dir().join(format!(
            "myhill-corpus-{case}-{}-{nanos}-{attempt}",
            std::process::id()
        ));
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err("cannot create a temporary directory".into())
}

fn run_case(opts: &Options, dir: &Path) -> Result<Row, String> {
    let case = case_name(dir);
    let dir = fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let test = dir.join("interesting.sh");
    ensure_input(&dir)?;
    let work = fresh_dir(&case)?;
    let file = work.join(format!("input.{}", case_ext(&dir)));
    fs::copy(dir.join("input"), &file).map_err(|e| format!("cannot copy the input: {e}"))?;
    let oracle_log = work.join("oracle.log");
    fs::write(&oracle_log, b"").map_err(|e| format!("cannot create the oracle log: {e}"))?;
    let log_path = work.join("myhill.log");
    let log = fs::File::create(&log_path).map_err(|e| format!("cannot create the log: {e}"))?;
    let log_err = log.try_clone().map_err(|e| e.to_string())?;
    let initial = file_size(&file);

    let started = Instant::now();
    let started_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    let mut child = {
        use std::os::unix::process::CommandExt;
        Command::new(&opts.myhill)
            .arg("reduce")
            .arg("--jobs")
            .arg(opts.jobs.to_string())
            .args(&opts.extra)
            .arg(&test)
            .arg(&file)
            .current_dir(&work)
            .env("ORACLE_LOG", &oracle_log)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", opts.myhill.display()))?
    };
    let (status, timed_out) = wait_with_deadline(&mut child, opts.timeout)?;
    let wall = started.elapsed().as_secs_f64();

    let tests = fs::read_to_string(&oracle_log)
        .map(|s| s.lines().count())
        .unwrap_or(0);
    let interesting = Command::new(&test)
        .arg(&file)
        .current_dir(&work)
        .env_remove("ORACLE_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    let final_bytes = file_size(&file);
    let curve = fs::read_to_string(work.join("oracle.log.curve")).unwrap_or_default();
    let by_checkpoint = if opts.checkpoints.is_empty() {
        Vec::new()
    } else {
        sizes_by_checkpoint(&curve, started_epoch, initial, &opts.checkpoints)
    };

    let mut status_text = describe(status);
    if timed_out {
        status_text = format!("timeout ({status_text})");
    }
    if opts.keep {
        status_text = format!("{status_text}; kept {}", work.display());
    } else {
        let _ = fs::remove_dir_all(&work);
    }
    Ok(Row {
        case,
        initial,
        tests,
        final_bytes,
        wall,
        interesting,
        ok: interesting && status.success() && !timed_out,
        status: status_text,
        by_checkpoint,
    })
}

fn file_size(path: &Path) -> u64 {
    fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Waits for `child`; at the deadline sends SIGTERM to its process group, then SIGKILL after
/// `KILL_GRACE`. Returns the exit status and whether the deadline was hit.
fn wait_with_deadline(child: &mut Child, limit: Duration) -> Result<(ExitStatus, bool), String> {
    let started = Instant::now();
    let group = child.id();
    let mut termed_at: Option<Instant> = None;
    let mut killed = false;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if termed_at.is_some() && !killed {
                // The leader is gone; sweep anything it left in its group.
                signal_group(group, "KILL");
            }
            return Ok((status, termed_at.is_some()));
        }
        match termed_at {
            None if started.elapsed() >= limit => {
                signal_group(group, "TERM");
                termed_at = Some(Instant::now());
            }
            Some(t) if !killed && t.elapsed() >= KILL_GRACE => {
                signal_group(group, "KILL");
                killed = true;
            }
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal_group(group: u32, signal: &str) {
    let _ = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg("--")
        .arg(format!("-{group}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(sig)) => format!("signal {sig}"),
        _ => status.to_string(),
    }
}
