//! `myhill reduce`: where the result goes, the reduction's events on screen and on disk, the summary.

use super::ReduceArgs;
use super::exit::{Ended, Exit, Fail};
use super::files::{
    keep_original, mode_of, parent_dir, protect_output, remove_stale_temps, resolve_output,
};
use super::input_lock::InputLock;
use super::out;
use super::plan;
use super::session::{Extras, Session};
use super::stats::{self, Record};
use super::tree_io::{self, Target};
use super::ui::{Setup, Ui, UiMode, summary};
use clap::ArgMatches;
use clap::parser::ValueSource;
use myhill::{
    Event, ReduceOptions, Reduction, Stop,
    runs::{Recorded, RunDir, RunInfo, RunStatus},
};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Writes every new best to the output, and remembers the first write error.
struct Keeper {
    /// Unknown until the first check passed and the original is safe.
    path: Option<PathBuf>,
    target: Target,
    error: Option<String>,
    /// Whether the last write failed, so a failure is said once and a recovery too.
    failing: bool,
    /// Where the best is also kept, for the warning.
    run_best: Option<PathBuf>,
    /// The content key of what is at `path`, as myhill last wrote it (or found it): anything
    /// else there was put by someone else, and is not written over.
    last: Option<u128>,
    /// Where the output was before someone else changed it: myhill writes there no more.
    left: Option<PathBuf>,
}

impl Keeper {
    /// Starts writing to `path`, which holds what myhill put or found there.
    fn start(&mut self, path: PathBuf) {
        self.last = read_as_run_does(&path).map(|b| myhill::eval::content_key(&b));
        self.path = Some(path);
    }

    /// Where the result is: the output, or where it went after someone else changed the output.
    fn result_path(&self, out: &Path) -> PathBuf {
        match (&self.left, &self.path, &self.run_best) {
            (None, _, _) => out.to_path_buf(),
            (Some(_), Some(path), _) => path.clone(),
            (Some(_), None, Some(best)) => best.clone(),
            (Some(_), None, None) => out.to_path_buf(),
        }
    }

    /// Whether the output still holds what myhill last wrote there. If not (the user edited
    /// INPUT during an in-place run, or added a file to the tree), myhill stops writing
    /// there and leaves it as it is: the best goes on in the run directory, or, without one,
    /// in a new file beside it. Returns the line that says so.
    fn still_ours(&mut self) -> Result<(), String> {
        let (Some(path), Some(last)) = (self.path.clone(), self.last) else {
            return Ok(());
        };
        let now = read_as_run_does(&path).map(|b| myhill::eval::content_key(&b));
        if now == Some(last) || now.is_none() {
            return Ok(());
        }
        let elsewhere = match &self.run_best {
            Some(best) => {
                self.path = None;
                best.clone()
            }
            None => {
                let alt = free_sibling(&path, "myhill-best");
                self.path = Some(alt.clone());
                self.last = None;
                alt
            }
        };
        self.left = Some(path.clone());
        Err(format!(
            "myhill: warning: {} changed since myhill wrote it (edited, or a file added): myhill \
             no longer writes there and leaves it as it is; the best result goes on in {}",
            path.display(),
            elsewhere.display()
        ))
    }

    /// Writes `bytes`; returns a line to say at once when writing starts or stops failing,
    /// or stops because someone else changed the output.
    fn keep(&mut self, bytes: &[u8]) -> Option<String> {
        if let Err(line) = self.still_ours() {
            if self.path.is_some() {
                let _ = self.write(bytes);
            }
            return Some(line);
        }
        self.write(bytes)
    }

    fn write(&mut self, bytes: &[u8]) -> Option<String> {
        let path = self.path.as_ref()?;
        let written = self.target.write(path, bytes);
        if written.is_ok() {
            // A tree is read back: what is on disk is what the next write compares with.
            self.last = if self.target.tree {
                read_as_run_does(path).map(|b| myhill::eval::content_key(&b))
            } else {
                Some(myhill::eval::content_key(bytes))
            };
        }
        match written {
            Ok(()) if self.failing => {
                self.failing = false;
                Some(format!(
                    "myhill: the best result is saved again in {}",
                    path.display()
                ))
            }
            Ok(()) => None,
            Err(e) => {
                let first = !self.failing;
                self.failing = true;
                let error = format!("cannot write {}: {e}", path.display());
                self.error.get_or_insert(error.clone());
                first.then(|| {
                    let also = match &self.run_best {
                        Some(b) => format!(" (the run directory keeps it in {})", b.display()),
                        None => String::new(),
                    };
                    format!(
                        "myhill: warning: {error}: the best result is not saved there{also}; \
                         myhill tries again at every improvement (free some space, or fix the \
                         permissions)"
                    )
                })
            }
        }
    }
}

/// What watches the reduction: its directory, the output and the screen. One value, shared
/// by the reduction's event handler and the code around the run.
struct Onlookers {
    run_dir: Option<RunDir>,
    keeper: Keeper,
    ui: Ui,
    quiet: bool,
    /// Steps of the earlier run replayed and not yet said.
    replayed: usize,
}

impl Onlookers {
    /// Onlookers of a run kept in `run_dir` (if any), writing the best as `target` and drawing
    /// `setup`; says where the run directory is.
    fn new(run_dir: Option<RunDir>, target: Target, setup: Setup) -> Onlookers {
        let quiet = setup.quiet;
        let run_best = run_dir.as_ref().map(|r| r.path().join("best"));
        let watch = Onlookers {
            run_dir,
            keeper: Keeper {
                path: None,
                target,
                error: None,
                failing: false,
                run_best,
                last: None,
                left: None,
            },
            ui: Ui::new(setup),
            quiet,
            replayed: 0,
        };
        if let Some(run) = &watch.run_dir {
            watch.say(format!(
                "myhill: run directory {} (resume with: myhill reduce --resume {0})",
                run.path().display()
            ));
        }
        watch
    }

    /// Prints a line above the status, unless `-q`.
    fn say(&self, line: impl AsRef<str>) {
        if !self.quiet {
            self.ui.say(line);
        }
    }

    /// Takes one event: into the run directory, the output and the screen. A resumed run
    /// replays the steps its directory holds: the output already has something at least as
    /// good, so only new steps are written, and shown.
    fn event(&mut self, event: &Event) {
        let recorded = self
            .run_dir
            .as_mut()
            .map_or(Recorded::New, |r| r.record(event));
        if recorded == Recorded::Replayed {
            self.replayed += 1;
            return;
        }
        if self.replayed > 0
            && (recorded == Recorded::New || matches!(event, Event::Finished { .. }))
        {
            self.say(format!(
                "myhill: replayed the earlier run's {} improvement(s) from its verdicts",
                self.replayed
            ));
            self.replayed = 0;
        }
        let said = match event {
            Event::Reduced { bytes, .. } | Event::RolledBack { bytes } => self.keeper.keep(bytes),
            Event::Finished { best, .. } => self.keeper.keep(best),
            _ => None,
        };
        self.ui.event(event);
        if let Some(line) = said {
            // A warning: said even with -q.
            self.ui.say(line);
        }
    }
}

/// A run taken up again from its directory.
struct Resumed {
    run: RunDir,
    /// The directory the run began in, where its relative paths were given.
    cwd: PathBuf,
}

pub fn run(args: ReduceArgs, given: &ArgMatches) -> Result<Ended, Fail> {
    let mut record = Record::default();
    let (args, result) = match resume(args.clone(), given) {
        Ok((merged, resumed)) => {
            if let Some(path) = &merged.stats_json {
                stats::check_path(path)?;
            }
            let result = reduce(&merged, resumed, &mut record);
            (merged, result)
        }
        Err(fail) => (args, Err(fail)),
    };
    let Some(path) = &args.stats_json else {
        return result;
    };
    // Written whatever happened, so a script learns why a run ended as well as how far it got.
    let written = stats::write(path, &stats::to_json(&record, &args, &result));
    match (result, written) {
        (Err(fail), Err(also)) => {
            out::err(format!("myhill: warning: {}", also.message));
            Err(fail)
        }
        (result, written) => written.and(result),
    }
}

/// With `--resume DIR`: opens (and locks) the run directory, and returns the arguments the
/// run began with, their relative paths taken from where it began, with the options given
/// now in place of the stored ones. Without it, the arguments as they are.
fn resume(args: ReduceArgs, given: &ArgMatches) -> Result<(ReduceArgs, Option<Resumed>), Fail> {
    let Some(dir) = &args.resume else {
        return Ok((args, None));
    };
    let dir = absolute(dir);
    let (run, info) = RunDir::open(&dir)?;
    let words = ["myhill", "reduce"]
        .into_iter()
        .map(String::from)
        .chain(info.args.iter().cloned());
    let damaged = |why: String| {
        Fail::usage(format!(
            "the arguments kept in {} do not parse ({why}): start a new run from its best: \
             myhill reduce TEST {}",
            dir.join("meta.json").display(),
            dir.join("best").display()
        ))
    };
    let mut stored = match <super::Cli as clap::Parser>::try_parse_from(words) {
        Ok(super::Cli {
            command: Some(super::Command::Reduce(stored)),
            ..
        }) => stored,
        Ok(_) => return Err(damaged("not a reduce command".into())),
        Err(e) => return Err(damaged(e.kind().to_string())),
    };
    let cwd = info.cwd.clone();
    let at = |p: &PathBuf| cwd.join(p);
    stored.t.input = cwd.join(&stored.t.input);
    stored.output = stored.output.as_ref().map(at);
    stored.stats_json = stored.stats_json.as_ref().map(at);
    stored.t.work_dir = stored.t.work_dir.as_ref().map(at);
    stored.t.launcher = stored.t.launcher.map(|l| launcher_in(&l, &cwd));
    overlay(&mut stored, &args, given);
    stored.resume = Some(dir);
    stored.run_dir = None;
    stored.no_run_dir = false;
    Ok((stored, Some(Resumed { run, cwd })))
}

/// A launcher command line whose program is a relative path, with the path taken from `cwd`.
fn launcher_in(line: &str, cwd: &Path) -> String {
    let Some(mut words) = shlex::split(line) else {
        return line.to_string();
    };
    match words.first_mut() {
        Some(program) if program.contains('/') && !program.starts_with('/') => {
            let joined: PathBuf = cwd.join(&*program).components().collect();
            *program = joined.to_string_lossy().into_owned();
        }
        _ => return line.to_string(),
    }
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| line.to_string())
}

/// Defines [`overlay`] and the list of the options it takes from the command line.
macro_rules! overlaid {
    ($($id:literal => $($field:ident).+;)*) => {
        /// The options a resumed run may be given anew (by clap id).
        #[cfg(test)]
        const OVERLAID: &[&str] = &[$($id),*];

        /// Puts each option given on this command line (not a default) in place of the
        /// stored one.
        fn overlay(stored: &mut ReduceArgs, now: &ReduceArgs, given: &ArgMatches) {
            $(
                if given.value_source($id) == Some(ValueSource::CommandLine) {
                    stored.$($field).+ = now.$($field).+.clone();
                }
            )*
        }
    };
}

overlaid! {
    "jobs" => t.jobs;
    "timeout" => t.timeout;
    "timeout_is_interesting" => t.timeout_is_interesting;
    "input_mode" => t.input_mode;
    "expect_exit" => t.signature.expect_exit;
    "stdout_regex" => t.signature.stdout_regex;
    "stderr_regex" => t.signature.stderr_regex;
    "same_output" => t.same_output;
    "shared_tmpdir" => t.shared_tmpdir;
    "allow_flaky" => t.allow_flaky;
    "first_runs" => t.first_runs;
    "quiet" => t.quiet;
    "launcher" => t.launcher;
    "work_dir" => t.work_dir;
    "output" => output;
    "kind" => kind;
    "strategy" => strategy;
    "units" => units;
    "passes" => passes;
    "skip_pass" => skip_pass;
    "max_tests" => max_tests;
    "no_cache" => no_cache;
    "batch" => batch;
    "stats_json" => stats_json;
    "allow_trivial" => allow_trivial;
    "also_interesting" => also_interesting;
    "verbose" => verbose;
    "ui" => ui;
}

/// The schedule the run follows (a directory's own for a tree) and the run opened: its session,
/// run directory path and output, with stale temporaries of a killed run removed.
fn prepare(
    args: &ReduceArgs,
    resumed: Option<&Resumed>,
    record: &mut Record,
) -> Result<(myhill::passes::Schedule, Session, Option<PathBuf>, PathBuf), Fail> {
    let mut schedule = plan::schedule(args)?;
    record.strategy = args.passes.is_none().then(|| args.strategy.clone());
    record.schedule = schedule.names();
    let (session, run_path, out_path) = open(args, resumed)?;
    // A run killed by SIGKILL left the directories of the tests it was running.
    if let Some(pid) = resumed.and_then(|r| r.run.previous_process()) {
        let removed = session.oracle.remove_test_dirs_of(pid);
        if removed > 0 && !args.t.quiet {
            out::err(format!(
                "myhill: removed {removed} test director{} the killed run left",
                if removed == 1 { "y" } else { "ies" }
            ));
        }
    }
    // A run killed mid-write (SIGKILL) leaves its temporary beside the output or the backup.
    for path in [&out_path, &session.input_path] {
        remove_stale_temps(parent_dir(path));
    }
    if session.tree {
        schedule = plan::tree_schedule(args)?;
        record.schedule = schedule.names();
    }
    Ok((schedule, session, run_path, out_path))
}

fn reduce(args: &ReduceArgs, resumed: Option<Resumed>, record: &mut Record) -> Result<Ended, Fail> {
    let (mut schedule, mut session, run_path, out_path) = prepare(args, resumed.as_ref(), record)?;
    // Held until the run ends: a second run in place on the same input is refused.
    let mut input_lock = match args.output {
        None => Some(InputLock::take(&session.input_path).map_err(Fail::usage)?),
        Some(_) => None,
    };
    let identity = session.oracle.spec().identity();
    record.jobs = Some(session.jobs);
    let mode = mode_of(&session.input_path).or_else(|| mode_of(&out_path));
    let target = Target {
        tree: session.tree,
        mode,
    };
    let options = ReduceOptions {
        cache: !args.no_cache,
        batch: usize::from(args.batch),
        ..session.options(&args.t, args.max_tests)
    };
    // The reduction owns the only copy of the input; until it accepts something, its best is
    // the original, which is what the backup and `-o` start from.
    let original = std::mem::take(&mut session.original);
    let initial_len = original.len();
    // A tree is counted in files and the bytes they hold.
    let initial_tree = tree_io::sizes(&original).filter(|_| session.tree);
    let input_key = myhill::eval::content_key(&original);
    let kind = decided_kind(args, &session, &original);
    let mut reduction = Reduction::new(original, &session.oracle, options);
    reduction.set_kind(kind);

    // The run directory: made (or reopened) before any test, so every verdict is kept.
    let run_dir = match resumed {
        Some(r) => Some(r.run),
        None => match &run_path {
            Some(path) => create_run_dir(path, args, identity, &out_path, reduction.best())?,
            None => None,
        },
    };
    if let Some(run) = &run_dir {
        attach_run_dir(run, &mut reduction, input_lock.as_mut(), record)?;
    }
    let stored_check = run_dir
        .as_ref()
        .map(|r| r.info().first_check.clone())
        .filter(|c| !c.is_empty());
    let setup = Setup {
        quiet: args.t.quiet,
        initial: initial_tree.map_or(initial_len, |(_, bytes)| bytes),
        files: initial_tree.map(|(files, _)| files),
        jobs: session.jobs,
        max_tests: args.max_tests,
        first_runs: args.t.first_runs,
        control: session.control.clone(),
        mode: UiMode::named(&args.ui),
        passes: schedule.names(),
        best: reduction.best().to_vec(),
    };
    let watch = Rc::new(RefCell::new(Onlookers::new(run_dir, target, setup)));
    {
        let watch = watch.clone();
        reduction.on_event(move |event| watch.borrow_mut().event(event));
    }
    let outcomes = first_check(&mut reduction, stored_check, &watch, record, &session)?;
    watch
        .borrow()
        .say(session.interesting_line(reduction.best(), &outcomes));

    // Never lose work: keep the original, and put the best so far where the result goes.
    record.report = Some(reduction.report());
    let place = Placing {
        args,
        input: &session.input_path,
        out: &out_path,
        target,
        input_key,
    };
    record.backup = place.keep(&mut watch.borrow_mut(), reduction.best(), &outcomes)?;
    watch.borrow_mut().keeper.start(out_path.clone());
    // As the user named it (the stats file's readers compare it with what they gave).
    record.output = Some(args.output.clone().unwrap_or(session.input_path.clone()));
    let finished = reduction.run(&mut schedule);
    if finished.is_err() {
        record.report = Some(reduction.report());
    }
    let finished = finished?;
    drop(reduction);
    let Ok(watch) = Rc::try_unwrap(watch).map(RefCell::into_inner) else {
        unreachable!("the reduction, which held the other handle, is gone")
    };
    let Onlookers {
        run_dir,
        keeper,
        mut ui,
        ..
    } = watch;
    ui.finish();
    record.disabled = session.control.disabled();
    record.report = Some(finished.report.clone());
    if let Some(run) = &run_dir {
        say_how_the_run_dir_served(run, args, &finished.report, &out_path);
    }
    if session.tree {
        record.files = initial_tree.zip(tree_io::sizes(&finished.best));
    }
    finish(args, record, &finished, &out_path, &keeper, target)
}

/// The input's kind: the one `--kind` names, or decided once from the input's name and
/// content (a tree's files are decided one by one as they are reduced).
fn decided_kind(args: &ReduceArgs, session: &Session, original: &[u8]) -> myhill::text::Decided {
    match args.kind {
        Some(kind) => myhill::text::Decided::chosen(kind),
        None => myhill::text::Decided::of(
            Some(session.input_path.to_string_lossy().as_ref()).filter(|_| !session.tree),
            original,
        ),
    }
}

/// Every verdict of the reduction is kept in the run directory `run`, which the input's lock
/// and the stats record name.
fn attach_run_dir(
    run: &RunDir,
    reduction: &mut Reduction,
    input_lock: Option<&mut InputLock>,
    record: &mut Record,
) -> Result<(), Fail> {
    if let Some(lock) = input_lock {
        lock.note_run(Some(run.path()));
    }
    reduction.set_store(run.verdicts()?);
    record.run_dir = Some(run.path().to_path_buf());
    Ok(())
}

/// The first check of the input, or the one a resumed run's directory holds; a failure is
/// recorded and explained.
fn first_check(
    reduction: &mut Reduction,
    stored_check: Option<Vec<myhill::process::Outcome>>,
    watch: &RefCell<Onlookers>,
    record: &mut Record,
    session: &Session,
) -> Result<Vec<myhill::process::Outcome>, Fail> {
    let checked = match stored_check {
        Some(check) => reduction.reuse_first_check(&check).map(|()| check),
        None => reduction.check_original().map(<[_]>::to_vec),
    };
    checked.map_err(|e| {
        watch.borrow_mut().ui.finish();
        // Not killed: stopped (Ctrl-C in the first check) or refused, and `runs list` says so.
        if let Some(run) = watch.borrow_mut().run_dir.as_mut() {
            let _ = run.update(|i| i.status = RunStatus::Stopped);
        }
        let mut report = reduction.report();
        // A failed check is not kept by the reduction, but every test so far was part of it.
        report.first_check_runs = report.eval.tests_run;
        record.report = Some(report);
        record.ended = Some(Ended::of_error(&e));
        session.explain(e)
    })
}

/// After the run: what the run directory did for it (verdicts recalled, a replay cut short)
/// and whether it is complete.
fn say_how_the_run_dir_served(
    run: &RunDir,
    args: &ReduceArgs,
    report: &myhill::Report,
    out_path: &Path,
) {
    if let Some(e) = run.error() {
        out::err(format!(
            "myhill: warning: the run directory is incomplete: {e}"
        ));
    }
    let recalled = report.eval.recalled;
    if recalled > 0 && !args.t.quiet {
        out::err(format!(
            "myhill: {recalled} verdict(s) were taken from the run directory instead of \
             running the test again"
        ));
    }
    if run.replaying() {
        out::err(format!(
            "myhill: stopped while replaying the earlier run: {} keeps its best, as does {}",
            out_path.display(),
            run.path().join("best").display()
        ));
    }
}

/// Where the original is kept and the result goes, once the first check passed.
struct Placing<'a> {
    args: &'a ReduceArgs,
    input: &'a Path,
    out: &'a Path,
    target: Target,
    input_key: u128,
}

impl Placing<'_> {
    /// Keeps the original (in place: a backup, made once), puts the best so far where the
    /// result goes, and notes both and the first check in the run directory. Returns the
    /// backup.
    fn keep(
        &self,
        watch: &mut Onlookers,
        best: &[u8],
        outcomes: &[myhill::process::Outcome],
    ) -> Result<Option<PathBuf>, Fail> {
        let in_place = self.args.output.is_none();
        let mut backup = None;
        if in_place {
            let kept = watch
                .run_dir
                .as_ref()
                .and_then(|r| r.info().backup.clone())
                .filter(|b| b.is_file() || (self.target.tree && b.is_dir()));
            let b = match kept {
                Some(b) => b,
                None => {
                    let b = if self.target.tree {
                        tree_io::keep_original(self.input, best)?
                    } else {
                        keep_original(self.input, best, self.input_key, self.target.mode)?
                    };
                    watch.say(format!("myhill: the original is kept as {}", b.display()));
                    b
                }
            };
            if let Some(run) = watch.run_dir.as_mut() {
                run.update(|i| i.backup = Some(absolute(&b)))?;
            }
            backup = Some(b);
        }
        let start_with = match &watch.run_dir {
            // A resumed run's output should hold the best its directory holds (its replayed
            // steps are not written again); it does not when the run was killed before
            // writing it there, or when -o is new.
            Some(run) if self.args.resume.is_some() => std::fs::read(run.path().join("best"))
                .ok()
                .filter(|b| std::fs::read(self.out).ok().as_ref() != Some(b)),
            _ if in_place => None,
            _ => Some(best.to_vec()),
        };
        if let Some(bytes) = start_with {
            self.target
                .write(self.out, &bytes)
                .map_err(|e| Fail::usage(format!("cannot write {}: {e}", self.out.display())))?;
        }
        if let Some(run) = watch.run_dir.as_mut() {
            run.update(|i| {
                i.first_check = outcomes.to_vec();
                i.output = self.out.to_path_buf();
                i.status = RunStatus::Running;
            })?;
        }
        Ok(backup)
    }
}

/// Reads the input (a resumed run's original from its directory) and resolves the test, the
/// run directory's path and where the result goes; refuses, before any test, what would lose
/// work or could not be resumed.
fn open(
    args: &ReduceArgs,
    resumed: Option<&Resumed>,
) -> Result<(Session, Option<PathBuf>, PathBuf), Fail> {
    let run_path = match &resumed {
        Some(r) => Some(r.run.path().to_path_buf()),
        None => new_run_path(args)?,
    };
    if args.also_interesting.is_some() && run_path.is_none() {
        return Err(Fail::usage(
            "--also-interesting keeps candidates in the run directory: leave out --no-run-dir, \
             or give --run-dir DIR",
        ));
    }
    let extras = Extras {
        original: match &resumed {
            Some(r) => Some(r.run.original()?),
            None => None,
        },
        also_interesting: args
            .also_interesting
            .zip(run_path.as_ref().map(|p| p.join("also-interesting"))),
        test_dir: resumed.map(|r| r.cwd.clone()),
    };
    let session = Session::open_with(&args.t, extras)?;
    let identity = session.oracle.spec().identity();
    if let Some(r) = &resumed
        && r.run.info().test != identity
    {
        let run = &r.run;
        return Err(Fail::usage(format!(
            "the test changed since the run in {} began (its command, its script, a file it \
             names or a signature option): the verdicts kept there would not hold. Start a new \
             run from its best, under the input's own name: cp {} {} && myhill reduce TEST {2}",
            run.path().display(),
            run.path().join("best").display(),
            best_copy_name(&args.t.input).display()
        )));
    }
    let out_path = if session.tree {
        tree_io::output_path(args, &session.input_path)?
    } else {
        output_path(args, &session, run_path.as_deref())?
    };
    if let Some(r) = &resumed {
        check_untouched(&r.run, args, &out_path)?;
    }
    Ok((session, run_path, out_path))
}

/// Where the result goes, through any symbolic link: `-o`, else INPUT itself. Refused before
/// any test: a path that is not a regular file, and one that would replace INPUT (with -o),
/// the test's own files, the launcher or a file of the run directory.
fn output_path(
    args: &ReduceArgs,
    session: &Session,
    run_path: Option<&Path>,
) -> Result<PathBuf, Fail> {
    let Some(given) = &args.output else {
        return resolve_output(&session.input_path, "INPUT");
    };
    let out = resolve_output(given, "-o")?;
    let spec = session.oracle.spec();
    let mut kept: Vec<(PathBuf, &str)> = Vec::new();
    for (k, word) in spec.argv.iter().enumerate() {
        let what = if k == 0 {
            "the test"
        } else {
            "a file the test names"
        };
        kept.push((PathBuf::from(word), what));
        if k > 0 {
            kept.extend(
                words_within(word)
                    .into_iter()
                    .map(|w| (PathBuf::from(w), "a file the test's shell command names")),
            );
        }
    }
    if let Some(program) = spec.launcher.first() {
        kept.push((PathBuf::from(program), "the launcher"));
    }
    protect_output(&out, given, &session.input_path, &kept)?;
    if let Some(run) = run_path.map(absolute)
        && out.starts_with(&run)
    {
        return Err(Fail::usage(format!(
            "-o {} is inside the run directory {}: name a file elsewhere",
            given.display(),
            run.display()
        )));
    }
    Ok(out)
}

/// The words a shell command in one argument (`sh -c '/abs/t.sh "$1" > log'`) may name files
/// by: split as a shell would, redirections and separators trimmed, and what follows `=` in
/// an option. Paths relative to where myhill runs, as the test's own words are.
fn words_within(argument: &str) -> Vec<String> {
    let Some(split) = shlex::split(argument) else {
        return Vec::new();
    };
    let mut words = Vec::new();
    for word in split {
        for part in word.split([';', '|', '&', '<', '>', '(', ')', '`']) {
            let part = part.trim_matches(['\'', '"']);
            if part.is_empty() {
                continue;
            }
            if let Some((_, value)) = part.split_once('=') {
                words.push(value.to_string());
            }
            words.push(part.to_string());
        }
    }
    words
}

/// Refuses to resume over someone else's edits, or to ignore them silently: INPUT must hold
/// something the run had (its original, or a best it wrote there in place), and so must an
/// output the run wrote.
fn check_untouched(run: &RunDir, args: &ReduceArgs, out: &Path) -> Result<(), Fail> {
    let dir = run.path().display();
    let input = &args.t.input;
    let fix = format!(
        "To reduce the edited file, start a new run on it (myhill reduce TEST {}); this run's \
         best so far is in {dir}/best",
        input.display()
    );
    if let Some(bytes) = read_as_run_does(input)
        && !run.knows(&bytes)
    {
        let what = if args.output.is_none() && out == run.info().output {
            "resuming would overwrite your edits"
        } else {
            "the run reduces the original it kept, not your edit"
        };
        return Err(Fail::usage(format!(
            "{} changed since the run in {dir} began: {what}. {fix}",
            input.display()
        )));
    }
    let written = !run.info().first_check.is_empty() && run.info().output == out;
    if written
        && let Some(bytes) = read_as_run_does(out)
        && !run.knows(&bytes)
    {
        return Err(Fail::usage(format!(
            "{} changed since the run in {dir} wrote it: resuming would overwrite the edits. \
             Move it away, or send the result elsewhere: myhill reduce --resume {dir} -o OTHER",
            out.display()
        )));
    }
    Ok(())
}

/// What is at `path` as a run keeps it: a file's bytes, a directory's encoded tree.
fn read_as_run_does(path: &Path) -> Option<Vec<u8>> {
    if path.is_dir() {
        myhill::archive::Archive::from_dir(path)
            .ok()
            .map(|t| t.encode())
    } else {
        std::fs::read(path).ok()
    }
}

/// The end of a run that got past its first check: the exit status, the summary and the
/// warnings, and one more write of the result if an earlier one failed.
fn finish(
    args: &ReduceArgs,
    record: &mut Record,
    finished: &myhill::Finished,
    out_path: &Path,
    keeper: &Keeper,
    target: Target,
) -> Result<Ended, Fail> {
    let report = &finished.report;
    let mut ended = Ended::of_stop(report.stopped.as_ref());
    let trivial = finished.is_trivial() && !args.allow_trivial && ended.exit() == Exit::Ok;
    if trivial {
        ended = Ended::Trivial;
    }
    let result_path = keeper.result_path(out_path);
    if !args.t.quiet {
        out::err_raw(summary(
            report,
            args.verbose,
            record.files,
            &record.disabled,
        ));
        out::err(format!(
            "myhill: result written to {}",
            result_path.display()
        ));
    }
    if let Some(left) = &keeper.left {
        out::err(format!(
            "myhill: {} was changed by someone else during the run and is left as it is; the \
             result is in {}",
            left.display(),
            result_path.display()
        ));
    }

    if report.rollbacks > 0 || !report.confirmed {
        out::err(flaky_note(report));
    }
    match &report.stopped {
        Some(Stop::Interrupted) => out::err("myhill: interrupted: the best result so far is saved"),
        Some(Stop::Budget) if !args.t.quiet => out::err(format!(
            "myhill: stopped after --max-tests {} tests{}",
            args.max_tests.unwrap_or(0),
            match &args.resume {
                Some(dir) => format!(
                    " (the earlier run's tests count too: to go on, give a larger budget: \
                     myhill reduce --resume {} --max-tests N)",
                    dir.display()
                ),
                None => String::new(),
            }
        )),
        Some(Stop::Oracle(msg)) => out::err(format!("myhill: stopped: {msg}")),
        _ => {}
    }
    if trivial {
        out::err(format!(
            "myhill: error: the result has {} byte(s): the test probably accepts almost anything. \
             Make it stricter (check for the actual failure, e.g. with --stderr-regex), or pass \
             --allow-trivial if this is what you want. The result is in {}.",
            finished.best.len(),
            out_path.display()
        ));
    }
    if keeper.failing && keeper.left.is_none() {
        // The last write failed (said at the time): one more try, and say whether the result
        // is safe.
        target.write(out_path, &finished.best).map_err(|e| {
            Fail::usage(format!(
                "cannot write the result to {}: {e}; the best result could not be saved",
                out_path.display()
            ))
        })?;
    }
    record.ended = Some(ended);
    Ok(ended)
}

/// Where a new run's directory goes: `--run-dir`, none with `--no-run-dir`, else a fresh one
/// under the state directory (none, with a note, when there is no state directory).
fn new_run_path(args: &ReduceArgs) -> Result<Option<PathBuf>, Fail> {
    if args.no_run_dir {
        return Ok(None);
    }
    if let Some(dir) = &args.run_dir {
        return Ok(Some(absolute(dir)));
    }
    let name = args
        .t
        .input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match myhill::runs::default_runs_root() {
        Some(root) => Ok(Some(myhill::runs::fresh_run_path(&root, &name))),
        None => {
            if !args.t.quiet {
                out::err(
                    "myhill: note: neither XDG_STATE_HOME nor HOME is set, so no run directory is \
                     kept (give --run-dir DIR to keep one)",
                );
            }
            Ok(None)
        }
    }
}

/// Makes the run directory at `path`, with where the result goes, before any test (so a
/// run stopped during its first check resumes to the same place). One the user named must
/// work; the default one may fail (a read-only home), and then the run goes on without it,
/// with a warning. A default one also prunes the old ones beside it ([`myhill::runs::prune_runs`]).
fn create_run_dir(
    path: &Path,
    args: &ReduceArgs,
    identity: u128,
    output: &Path,
    original: &[u8],
) -> Result<Option<RunDir>, Fail> {
    let mut info = RunInfo::new(reduce_args(), identity);
    info.input = absolute(&args.t.input);
    info.output = output.to_path_buf();
    match RunDir::create(path, info, original) {
        Ok(run) => {
            if args.run_dir.is_none()
                && let Some(root) = path.parent()
            {
                let removed = myhill::runs::prune_runs(
                    root,
                    myhill::runs::KEEP_RUNS,
                    myhill::runs::KEEP_RUNS_FOR,
                );
                if !removed.is_empty() && !args.t.quiet {
                    out::err(format!(
                        "myhill: removed {} run director{} unchanged for {} days (the newest {} \
                         are always kept; see myhill runs list)",
                        removed.len(),
                        if removed.len() == 1 { "y" } else { "ies" },
                        myhill::runs::KEEP_RUNS_FOR.as_secs() / 86_400,
                        myhill::runs::KEEP_RUNS
                    ));
                }
                let removed = myhill::runs::prune_runs_to_size(root, myhill::runs::KEEP_RUNS_BYTES);
                if !removed.is_empty() && !args.t.quiet {
                    let bytes: u64 = removed.iter().map(|(_, b)| b).sum();
                    out::err(format!(
                        "myhill: removed the {} oldest run director{} ({} MB) to keep the runs \
                         in {} under {} GiB together (see myhill runs list)",
                        removed.len(),
                        if removed.len() == 1 { "y" } else { "ies" },
                        bytes.div_ceil(1_000_000),
                        root.display(),
                        myhill::runs::KEEP_RUNS_BYTES >> 30
                    ));
                }
            }
            Ok(Some(run))
        }
        Err(e) if args.run_dir.is_some() => Err(e.into()),
        Err(e) => {
            out::err(format!(
                "myhill: warning: no run directory ({e}); the run cannot be resumed"
            ));
            Ok(None)
        }
    }
}

/// The arguments after `reduce` on this process's command line, as given.
fn reduce_args() -> Vec<String> {
    let all: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let at = all
        .iter()
        .position(|a| a == "reduce")
        .map_or(all.len(), |i| i + 1);
    all[at..].to_vec()
}

/// `path` with `.tag` (then `.tag.1`, ...) appended: the first name that is free.
fn free_sibling(path: &Path, tag: &str) -> PathBuf {
    let base = format!("{}.{tag}", path.display());
    (0..)
        .map(|k| match k {
            0 => PathBuf::from(&base),
            k => PathBuf::from(format!("{base}.{k}")),
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| PathBuf::from(base))
}

/// A name for a copy of a run's best that keeps the input's extension (a compiler test
/// needs `.c`): `in.c` gives `in.best.c`.
fn best_copy_name(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("input".into(), |s| s.to_string_lossy());
    match input.extension() {
        Some(ext) => PathBuf::from(format!("{stem}.best.{}", ext.to_string_lossy())),
        None => PathBuf::from(format!("{stem}.best")),
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn flaky_note(report: &myhill::Report) -> String {
    if report.rollbacks > 0 {
        format!(
            "myhill: warning: a result was interesting once but not when run again ({} time(s)): \
             the test is flaky on reduced inputs (often undefined behaviour in a reduced \
             program; make the test stricter, e.g. compile with -fsanitize=address,undefined). \
             The result is the last one that passed twice.",
            report.rollbacks
        )
    } else {
        "myhill: note: the result was not re-run at the end (the run stopped early); it passed the test once."
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_option_of_reduce_can_be_given_anew_on_resume() {
        let cli = super::super::Cli::command();
        let reduce = cli.find_subcommand("reduce").unwrap();
        // Where the run is, and what it reduces, come from the run directory itself.
        let fixed = ["test", "input", "resume", "run_dir", "no_run_dir", "help"];
        let missing: Vec<String> = reduce
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .filter(|id| !fixed.contains(&id.as_str()) && !OVERLAID.contains(&id.as_str()))
            .collect();
        assert!(missing.is_empty(), "not taken on resume: {missing:?}");
    }

    #[test]
    fn a_relative_launcher_is_taken_from_where_the_run_began() {
        let dir = Path::new("/work/here");
        assert_eq!(launcher_in("./lok.sh --x", dir), "/work/here/lok.sh --x");
        assert_eq!(launcher_in("srun --quiet --", dir), "srun --quiet --");
        assert_eq!(launcher_in("/abs/l.sh", dir), "/abs/l.sh");
    }
}
