//! Which schedule `myhill reduce` runs, from its arguments: the strategy or the named passes,
//! less `--skip-pass`, and for a directory the tree passes around a one-file schedule.

use super::ReduceArgs;
use super::exit::Fail;
use myhill::{Strategy, passes::Schedule};

/// The passes to run: `--passes`, else the strategy, without those `--skip-pass` names.
pub fn schedule(args: &ReduceArgs) -> Result<Schedule, Fail> {
    let mut schedule = match &args.passes {
        Some(names) => myhill::strategy::schedule_of(names)?,
        None => Strategy::named(&args.strategy)?
            .with_units(args.units)
            .schedule(),
    };
    for name in &args.skip_pass {
        if is_tree_pass(name) && args.t.input.is_dir() {
            // Checked against the directory's schedule (tree_schedule).
            schedule.skip(name);
            continue;
        }
        if !schedule.skip(name) {
            return Err(Fail::usage(format!(
                "--skip-pass {name}: no such pass in this schedule; it has {}",
                schedule.names().join(", ")
            )));
        }
    }
    Ok(schedule)
}

/// Whether `name` is one of the passes a directory's schedule adds: those over the whole
/// tree, and `indent/blocks` in each file's.
pub fn is_tree_pass(name: &str) -> bool {
    name.starts_with("files/") || name == "indent/blocks"
}

/// The schedule for a directory: [`myhill::strategy::directory_schedule`] around the one-file schedule the
/// arguments ask for (a fresh one per file), without the passes `--skip-pass` names.
pub fn tree_schedule(args: &ReduceArgs) -> Result<Schedule, Fail> {
    let per_file = args.clone();
    // Checked here, so the fresh copies cannot fail.
    schedule(&per_file)?;
    let mut schedule = myhill::strategy::directory_schedule(
        move || schedule(&per_file).expect("a schedule checked once"),
        &args.skip_pass,
    );
    for name in args.skip_pass.iter().filter(|n| n.starts_with("files/")) {
        if !schedule.skip(name) {
            return Err(Fail::usage(format!(
                "--skip-pass {name}: no such pass; a directory has {}",
                schedule.names().join(", ")
            )));
        }
    }
    Ok(schedule)
}
