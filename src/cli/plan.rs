//! Which schedule `myhill reduce` runs, from its arguments: the strategy or the named passes,
//! less `--skip-pass`, and for a directory the tree passes around a one-file schedule.

use super::ReduceArgs;
use super::exit::Fail;
use myhill::{Schedule, Strategy};

/// The passes to run: `--passes`, else the strategy, without those `--skip-pass` names.
pub fn schedule(args: &ReduceArgs) -> Result<Schedule, Fail> {
    let mut schedule = match &args.passes {
        Some(names) => myhill::schedule_of(names)?,
        None => Strategy::named(&args.strategy)?
            .with_units(args.units)
            .schedule(),
    };
    for name in &args.skip_pass {
        if is_tree_pass(name) && args.t.input.is_dir() {
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

/// Whether `name` is one of the passes over a whole tree.
pub fn is_tree_pass(name: &str) -> bool {
    name.starts_with("files/")
}

/// The schedule for a directory: [`myhill::directory_schedule`] around the one-file schedule the
/// arguments ask for (a fresh one per file), without the tree passes `--skip-pass` names.
pub fn tree_schedule(args: &ReduceArgs) -> Result<Schedule, Fail> {
    let per_file = args.clone();
    // Checked here, so the fresh copies cannot fail.
    schedule(&per_file)?;
    let mut schedule =
        myhill::directory_schedule(move || schedule(&per_file).expect("a schedule checked once"));
    for name in args.skip_pass.iter().filter(|n| is_tree_pass(n)) {
        if !schedule.skip(name) {
            return Err(Fail::usage(format!(
                "--skip-pass {name}: no such pass; a directory has files/delete and files/each"
            )));
        }
    }
    Ok(schedule)
}
