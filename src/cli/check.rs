//! `myhill check`: certifies 1-minimality or interval-minimality of a file.

use super::CheckArgs;
use super::exit::{Exit, Fail};
use super::files::write_atomic;
use super::out;
use super::session::Session;
use myhill::{Certificate, Minimality, Reduction, Units};

pub fn run(args: CheckArgs) -> Result<Exit, Fail> {
    // Anything that keeps the check from ending is exit 2 ("could not check"), not 1.
    let could_not = |f: Fail| Fail {
        exit: Exit::Usage,
        message: format!("{}\nmyhill: could not check", f.message),
    };
    if let Some(o) = &args.output {
        super::files::check_output(o, &args.t.input).map_err(could_not)?;
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
            Ok(Exit::Ok)
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
            Ok(Exit::NotMinimal)
        }
    }
}
