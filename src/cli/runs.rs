//! `myhill runs`: listing, removing, restoring steps of, showing and plotting the kept run
//! directories.
//!
//! The directories live under [`myhill::runs::default_runs_root`]; a name there or a path
//! elsewhere is accepted. Nothing but a run directory ([`myhill::runs::is_run_dir`]: its marker and
//! a `meta.json` that reads as a run's) is removed, wherever it is, and no run in use
//! ([`myhill::runs::run_in_use`]).

use super::RunsAction;
use super::exit::{Ended, Fail};
use super::out;
use myhill::runs::{RunInfo, RunStatus};
use std::path::{Path, PathBuf};

pub fn run(action: RunsAction) -> Result<Ended, Fail> {
    let root = myhill::runs::default_runs_root();
    match action {
        RunsAction::List => {
            list(root.as_deref());
            Ok(Ended::Done)
        }
        RunsAction::Remove { runs, finished } => remove(root.as_deref(), &runs, finished),
        RunsAction::Restore { run, step, output } => restore(root.as_deref(), &run, step, &output),
        RunsAction::Show { run, history } => {
            super::show::run(&own_run(root.as_deref(), &run)?, history)
        }
        RunsAction::Plot { run, output } => {
            let dir = own_run(root.as_deref(), &run)?;
            let figure = super::plot::run_figure(&dir)
                .map_err(|e| Fail::usage(format!("cannot read the run {}: {e}", dir.display())))?;
            std::fs::write(&output, super::plot::svg(&figure)).map_err(|e| {
                Fail::usage(format!("cannot write the plot {}: {e}", output.display()))
            })?;
            out::err(format!("myhill: the size curve is in {}", output.display()));
            Ok(Ended::Done)
        }
    }
}

/// The run directory `run` names, refused unless it is a myhill run.
fn own_run(root: Option<&Path>, run: &Path) -> Result<PathBuf, Fail> {
    let dir = find_run(root, run)?;
    if !myhill::runs::is_run_dir(&dir) {
        return Err(Fail::usage(format!(
            "{} is not a run directory (it lacks {} or a meta.json that reads as a run's)",
            dir.display(),
            myhill::runs::MARKER
        )));
    }
    Ok(dir)
}

/// The run directory `run` names: a name under the runs directory, else a path.
fn find_run(root: Option<&Path>, run: &Path) -> Result<PathBuf, Fail> {
    let under_root = root
        .map(|r| r.join(run))
        .filter(|p| run.components().count() == 1 && p.is_dir());
    let dir = under_root.unwrap_or_else(|| run.to_path_buf());
    if !dir.is_dir() {
        return Err(Fail::usage(format!(
            "{}: no such run; `myhill runs list` names them",
            run.display()
        )));
    }
    Ok(dir)
}

/// Writes step `step` of the run `run` (0: its original) to the new path `output`.
fn restore(root: Option<&Path>, run: &Path, step: usize, output: &Path) -> Result<Ended, Fail> {
    let dir = find_run(root, run)?;
    if !myhill::runs::is_run_dir(&dir) {
        return Err(Fail::usage(format!(
            "{} is not a myhill run (it lacks {} or a meta.json that reads as a run's)",
            dir.display(),
            myhill::runs::MARKER
        )));
    }
    if std::fs::symlink_metadata(output).is_ok() {
        return Err(Fail::usage(format!(
            "{} exists: myhill restores a step only to a new path; name another with -o",
            output.display()
        )));
    }
    let bytes = if step == 0 {
        std::fs::read(dir.join("original"))
            .map_err(|e| Fail::usage(format!("cannot read {}/original: {e}", dir.display())))?
    } else {
        let mut steps = myhill::runs::replay_steps(&dir)?;
        let count = steps.len();
        if step > count {
            return Err(Fail::usage(format!(
                "{} has {count} step(s): give --step 0 (the original) to {count}",
                dir.display()
            )));
        }
        steps.swap_remove(step - 1)
    };
    // A directory input's steps are encoded trees: written back as directories.
    let tree = myhill::runs::run_info(&dir)
        .is_some_and(|info| info.input.is_dir() || info.backup.is_some_and(|b| b.is_dir()))
        && myhill::archive::Archive::decode(&bytes).is_ok();
    let target = super::tree_io::Target { tree, mode: None };
    target
        .write(output, &bytes)
        .map_err(|e| Fail::usage(format!("cannot write {}: {e}", output.display())))?;
    out::out(format!(
        "wrote step {step} of {} ({} bytes) to {}",
        dir.display(),
        bytes.len(),
        output.display()
    ));
    Ok(Ended::Done)
}

fn status(info: &RunInfo, dir: &Path) -> &'static str {
    if myhill::runs::run_in_use(dir) {
        return "in use";
    }
    match info.status {
        RunStatus::Running => "killed",
        RunStatus::Stopped => "stopped",
        RunStatus::Finished => "finished",
    }
}

/// The bytes under `dir`, files only, not following links.
fn disk_use(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => disk_use(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

fn list(root: Option<&Path>) {
    let Some(root) = root else {
        out::err("myhill: neither XDG_STATE_HOME nor HOME is set: there is no directory of runs");
        return;
    };
    let runs = myhill::runs::list_runs(root, usize::MAX);
    if runs.is_empty() {
        out::err(format!("myhill: no runs in {}", root.display()));
        return;
    }
    out::out(format!("Runs in {} (newest first):", root.display()));
    let mut total = 0;
    for (dir, info) in &runs {
        let bytes = disk_use(dir);
        total += bytes;
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let best = info
            .best_size
            .map_or_else(|| "-".to_string(), |b| b.to_string());
        out::out(format!(
            "  {name}  {:<8}  best {best} bytes  {} on disk  {} -> {}",
            status(info, dir),
            human(bytes),
            info.input.display(),
            info.output.display()
        ));
    }
    out::out(format!(
        "{} run(s), {} in all. Remove one with: myhill runs remove NAME; every finished one: \
         myhill runs remove --finished. A new run removes those beyond the newest {} that have \
         not changed for {} days.",
        runs.len(),
        human(total),
        myhill::runs::KEEP_RUNS,
        myhill::runs::KEEP_RUNS_FOR.as_secs() / 86_400
    ));
}

fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 10 << 20 => format!("{} MB", b >> 20),
        b if b >= 10 << 10 => format!("{} kB", b >> 10),
        b => format!("{b} B"),
    }
}

fn remove(root: Option<&Path>, runs: &[PathBuf], finished: bool) -> Result<Ended, Fail> {
    let mut targets: Vec<PathBuf> = Vec::new();
    for run in runs {
        // A bare name is one under the root; anything else a path.
        let dir = find_run(root, run)?;
        if !myhill::runs::is_run_dir(&dir) {
            return Err(Fail::usage(format!(
                "{} is not a myhill run (a run directory holds both {} and a meta.json that \
                 reads as a run's): nothing was removed; myhill removes only its own run \
                 directories (`myhill runs list` names them)",
                dir.display(),
                myhill::runs::MARKER
            )));
        }
        targets.push(dir);
    }
    if finished && let Some(root) = root {
        targets.extend(
            myhill::runs::list_runs(root, usize::MAX)
                .into_iter()
                .filter(|(_, info)| info.status == RunStatus::Finished)
                .map(|(dir, _)| dir),
        );
    }
    let mut removed = 0;
    for dir in &targets {
        if myhill::runs::run_in_use(dir) {
            out::err(format!(
                "myhill: {} is in use by a running myhill: not removed",
                dir.display()
            ));
            continue;
        }
        std::fs::remove_dir_all(dir)
            .map_err(|e| Fail::usage(format!("cannot remove {}: {e}", dir.display())))?;
        out::out(format!("removed {}", dir.display()));
        removed += 1;
    }
    if removed == 0 && finished && runs.is_empty() {
        out::err("myhill: no finished run to remove");
    }
    Ok(Ended::Done)
}
