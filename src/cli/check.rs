//! `myhill check`: certifies 1-minimality or interval-minimality of a file.

use super::CheckArgs;
use super::exit::{Ended, Fail};
use super::files::write_atomic;
use super::out;
use super::session::Session;
use myhill::{
    Reduction,
    check::{Certificate, Minimality},
    text::Units,
};

pub fn run(args: CheckArgs) -> Result<Ended, Fail> {
    // Anything that keeps the check from ending is exit 2 ("could not check"), not 1.
    let could_not = |f: Fail| Fail {
        ended: Ended::SetupError,
        message: format!("{}\nmyhill: could not check", f.message),
    };
    if let Some(o) = &args.output {
        if args.t.input.is_dir() {
            super::tree_io::check_output(o, &args.t.input).map_err(could_not)?;
        } else {
            super::files::check_output(o, &args.t.input).map_err(could_not)?;
        }
    }
    let session = Session::open(&args.t).map_err(could_not)?;
    let options = session.options(&args.t, None);
    let mut reduction = Reduction::new(session.original.clone(), &session.oracle, options);
    if let Err(e) = reduction.check_original() {
        return Err(could_not(session.explain(e)));
    }
    let property = if args.interval {
        Minimality::IntervalMinimal
    } else {
        Minimality::OneMinimal
    };
    let what = if args.interval {
        "interval-minimal"
    } else {
        "1-minimal"
    };
    if session.tree {
        return check_tree(&args, &session, &mut reduction, property, what).map_err(could_not);
    }
    let units = Units::cut(&session.original, args.units);
    let cert = reduction
        .certify(args.units, property)
        .map_err(|e| could_not(e.into()))?;
    let input = session.input_path.display();
    match cert {
        Certificate::Minimal {
            tests,
            distinct,
            saved,
        } => {
            out::out(format!(
                "{input} is {what} at {} units ({} units): {tests} tests of {distinct} distinct deletions; {saved} identical deletions not retested",
                args.units,
                units.len()
            ));
            Ok(Ended::Done)
        }
        Certificate::NotMinimal {
            deleted,
            smaller,
            tests,
            distinct,
            saved,
        } => {
            let (a, b) = (
                units.offset(deleted.0 as u32),
                units.offset(deleted.1 as u32),
            );
            let shown = String::from_utf8_lossy(&session.original[a..b]);
            let shown: String = shown.chars().take(60).collect();
            out::out(format!(
                "{input} is not {what} at {} units: deleting units {}..{} (bytes {a}..{b}: {shown:?}) keeps it interesting, {} -> {} bytes; {tests} tests of {distinct} distinct deletions, {saved} identical deletions not retested",
                args.units,
                deleted.0,
                deleted.1,
                session.original.len(),
                smaller.len()
            ));
            if let Some(path) = &args.output {
                write_atomic(path, &smaller, None)
                    .map_err(|e| Fail::usage(format!("cannot write {}: {e}", path.display())))?;
                out::out(format!("smaller file written to {}", path.display()));
            }
            Ok(Ended::NotMinimal)
        }
    }
}

/// `check DIR`: each file of the tree, inside the whole tree; the first file that is not
/// minimal is named (and with `-o` the smaller tree written), as for one file.
fn check_tree(
    args: &CheckArgs,
    session: &Session,
    reduction: &mut Reduction,
    property: Minimality,
    what: &str,
) -> Result<Ended, Fail> {
    let tree = myhill::archive::Archive::decode(&session.original)
        .map_err(|e| Fail::usage(format!("cannot read the tree: {e}")))?;
    let input = session.input_path.display();
    let mut tests = 0;
    for (i, entry) in tree.entries().iter().enumerate() {
        let myhill::archive::EntryKind::File(content) = &entry.kind else {
            continue;
        };
        let name = entry.path().display();
        let units = Units::cut(content, args.units);
        match reduction.certify_file(i, args.units, property)? {
            Certificate::Minimal { tests: t, .. } => {
                tests += t;
                out::out(format!(
                    "{input}/{name} is {what} at {} units ({} units): {t} tests",
                    args.units,
                    units.len()
                ));
            }
            Certificate::NotMinimal {
                deleted, smaller, ..
            } => {
                let (a, b) = (
                    units.offset(deleted.0 as u32),
                    units.offset(deleted.1 as u32),
                );
                let shown: String = String::from_utf8_lossy(&content[a..b])
                    .chars()
                    .take(60)
                    .collect();
                out::out(format!(
                    "{input}/{name} is not {what} at {} units: deleting units {}..{} (bytes {a}..{b}: {shown:?}) keeps the tree interesting",
                    args.units, deleted.0, deleted.1
                ));
                if let Some(path) = &args.output {
                    super::tree_io::write_tree(path, &smaller).map_err(|e| {
                        Fail::usage(format!("cannot write {}: {e}", path.display()))
                    })?;
                    out::out(format!("smaller tree written to {}", path.display()));
                }
                return Ok(Ended::NotMinimal);
            }
        }
    }
    out::out(format!(
        "{input}: every file is {what} at {} units inside the tree ({tests} tests)",
        args.units
    ));
    Ok(Ended::Done)
}
