//! `myhill bisect`: reads or builds the list of items, runs the test per item, reports the change.

use super::BisectArgs;
use super::exit::{Ended, Fail};
use super::out;
use myhill::{
    TestSpec,
    check::{Bisection, Status, first_bad},
    process::{Cancel, Process, ProcessEnd, parse_timeout},
};
use std::path::Path;

fn items_from_file(path: &Path) -> Result<Vec<String>, Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Fail::usage(format!(
            "cannot read the items file {}: {e} (give a file listing versions oldest first, one per line)",
            path.display()
        ))
    })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

/// Runs `argv` (through the one process primitive) and returns its exit and stdout.
fn output_of(argv: &[String]) -> Result<(ProcessEnd, String), Fail> {
    let dir = tempfile::tempdir()
        .map_err(|e| Fail::usage(format!("cannot make a temporary directory: {e}")))?;
    let mut p = Process::new(argv.iter().cloned());
    p.stdout = Some(dir.path().join("out"));
    p.stderr = Some(dir.path().join("err"));
    let r = myhill::process::run(&p, &Cancel::never())
        .map_err(|e| Fail::usage(format!("cannot run {}: {e} (is it installed?)", argv[0])))?;
    let read = |name| std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
    match r.ended {
        ProcessEnd::Exited(0) => Ok((r.ended, read("out"))),
        _ => Ok((r.ended, read("err"))),
    }
}

fn items_from_git(good: &str, bad: &str) -> Result<Vec<String>, Fail> {
    let git = |args: &[&str]| {
        let mut argv = vec!["git".to_string()];
        argv.extend(args.iter().map(|a| a.to_string()));
        output_of(&argv)
    };
    let range = format!("{good}..{bad}");
    let (ended, text) = git(&["rev-list", "--reverse", "--first-parent", &range])?;
    if ended != ProcessEnd::Exited(0) {
        return Err(Fail::usage(format!(
            "git rev-list {range} failed: {} (run it inside the repository, with revisions that exist)",
            text.trim()
        )));
    }
    let commit = format!("{good}^{{commit}}");
    let (ended, first) = git(&["rev-parse", "--verify", &commit])?;
    if ended != ProcessEnd::Exited(0) {
        return Err(Fail::usage(format!(
            "{good} is not a commit of this repository"
        )));
    }
    let mut items = vec![first.trim().to_string()];
    items.extend(text.lines().map(String::from));
    Ok(items)
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Good => "good",
        Status::Bad => "bad",
        Status::Untestable => "untestable",
    }
}

/// The items to bisect and the test, from the arguments.
fn items_and_test(args: &BisectArgs) -> Result<(Vec<String>, String), Fail> {
    let (items, test) = match (&args.git, args.args.as_slice()) {
        (Some(range), [test]) => (items_from_git(&range[0], &range[1])?, test.clone()),
        (None, [items, test]) => (items_from_file(Path::new(items))?, test.clone()),
        (Some(_), _) => {
            return Err(Fail::usage(
                "with --git give only TEST, e.g. myhill bisect --git v1 HEAD ./test.sh",
            ));
        }
        (None, _) => {
            return Err(Fail::usage(
                "give ITEMS and TEST, e.g. myhill bisect versions.txt ./test.sh",
            ));
        }
    };
    if items.len() < 2 {
        return Err(Fail::usage(format!(
            "bisection needs at least two items (a good one first, a bad one last); got {}",
            items.len()
        )));
    }
    Ok((items, test))
}

pub fn run(args: BisectArgs) -> Result<Ended, Fail> {
    let (items, test) = items_and_test(&args)?;
    if args.repeat == 0 {
        return Err(Fail::usage("--repeat must be at least 1"));
    }
    let argv = TestSpec::parse(&test, "unused")?.argv;
    let signature = args.signature.compile(false)?;
    let capture = tempfile::tempdir()
        .map_err(|e| Fail::usage(format!("cannot make a temporary directory: {e}")))?;
    let timeout = parse_timeout(args.timeout.unwrap_or(300.0))?;
    let signature_set = signature.is_set();

    let probe_once = |index: usize| -> Result<(Status, String), Fail> {
        let mut process = Process::new(argv.iter().cloned());
        process.argv.push(items[index].clone().into());
        let (out_path, err_path) = (capture.path().join("out"), capture.path().join("err"));
        process.stdout = Some(out_path.clone());
        process.stderr = Some(err_path.clone());
        process.timeout = Some(timeout);
        let r = myhill::process::run(&process, &Cancel::never())
            .map_err(|e| Fail::usage(format!("cannot run the test: {e}")))?;
        let code = match r.ended {
            ProcessEnd::Exited(c) => Some(c),
            ProcessEnd::Signalled(s) => Some(128 + s),
            ProcessEnd::TimedOut => None,
        };
        let signature_holds = signature
            .holds_for_files(code, &out_path, &err_path)
            .map_err(|e| Fail::usage(format!("cannot read what the test printed: {e}")))?;
        let status = match code {
            None | Some(125) => Status::Untestable,
            _ if signature_set => {
                if signature_holds {
                    Status::Bad
                } else {
                    Status::Good
                }
            }
            Some(0) => Status::Good,
            _ => Status::Bad,
        };
        let how = match r.ended {
            ProcessEnd::TimedOut => format!("timed out after {:.1}s", r.duration.as_secs_f64()),
            ProcessEnd::Exited(c) => format!("exit {c}, {:.2}s", r.duration.as_secs_f64()),
            ProcessEnd::Signalled(s) => format!("killed by signal {s}"),
        };
        Ok((status, how))
    };
    let mut runs = 0usize;
    let mut probe = |index: usize| -> Result<Status, Fail> {
        let mut verdicts = Vec::new();
        for _ in 0..args.repeat {
            let (status, how) = probe_once(index)?;
            runs += 1;
            let line = format!(
                "run {runs}: item {} ({} of {}) -> {} ({how})",
                items[index],
                index + 1,
                items.len(),
                status_name(status)
            );
            if !args.quiet {
                out::err(format!("myhill: {line}"));
            }
            verdicts.push(status);
        }
        if verdicts.windows(2).any(|w| w[0] != w[1]) {
            if !args.allow_flaky {
                return Err(Fail {
                    ended: Ended::Flaky,
                    message: format!(
                        "the test is flaky on item {}: its {} runs disagreed. Make it deterministic, or pass --allow-flaky to take the majority.",
                        items[index], args.repeat
                    ),
                });
            }
            let bad = verdicts.iter().filter(|&&v| v == Status::Bad).count();
            let good = verdicts.iter().filter(|&&v| v == Status::Good).count();
            return Ok(if bad > good {
                Status::Bad
            } else if good > bad {
                Status::Good
            } else {
                Status::Untestable
            });
        }
        Ok(verdicts[0])
    };
    let result = first_bad(items.len(), &mut probe)?;
    answer(result, &items, runs)
}

/// Says what the bisection found (`runs` runs of the test), or why it could not.
fn answer(result: Bisection, items: &[String], runs: usize) -> Result<Ended, Fail> {
    match result {
        Bisection::Found {
            first_bad,
            last_good,
            probes,
        } => {
            out::out(format!("first bad: {}", items[first_bad]));
            out::out(format!("last good: {}", items[last_good]));
            out::out(format!("items probed: {probes}, test runs: {runs}"));
            Ok(Ended::Done)
        }
        Bisection::Ambiguous {
            last_good,
            candidates,
            probes,
        } => {
            out::out(format!("last good: {}", items[last_good]));
            out::out(format!(
                "first bad: one of {} (untestable items hide the change)",
                candidates
                    .iter()
                    .map(|&i| items[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            out::out(format!("items probed: {probes}, test runs: {runs}"));
            Ok(Ended::Done)
        }
        Bisection::BadEnds { first, last } => Err(Fail {
            ended: Ended::NotInteresting,
            message: format!(
                "the first item {} must be good and the last item {} bad, but they are {} and {}. \
                 Check the order of ITEMS (oldest first) and the test.",
                items[0],
                items[items.len() - 1],
                status_name(first),
                status_name(last)
            ),
        }),
    }
}
