//! `myhill check`: certifies 1-minimality or interval-minimality of a file.

use super::session::prepare;
use super::setup::write_atomic;
use super::{CheckArgs, Fail};
use myhill::certify::{Certificate, Minimality, certify};
use myhill::{EvalOptions, Evaluator, Stop, Units};

pub const EXIT_MINIMAL: i32 = 0;
pub const EXIT_NOT_MINIMAL: i32 = 1;
pub const EXIT_COULD_NOT_CHECK: i32 = 2;

pub fn run(args: CheckArgs) -> Result<i32, Fail> {
    let prepared = prepare(&args.t).map_err(|f| Fail {
        code: EXIT_COULD_NOT_CHECK,
        message: format!("{}\nmyhill: could not check", f.message),
    })?;
    let oracle = prepared.oracle();
    let options = EvalOptions {
        jobs: prepared.jobs,
        interrupt: Some(prepared.interrupt.clone()),
        ..EvalOptions::default()
    };
    let mut eval = Evaluator::new(&oracle, options);
    let units = Units::cut(&prepared.original, args.units);
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
    let cert = certify(&mut eval, &units, property).map_err(|stop| Fail {
        code: EXIT_COULD_NOT_CHECK,
        message: match stop {
            Stop::Interrupted => "interrupted: could not check".to_string(),
            other => format!("{other}: could not check"),
        },
    })?;
    match cert {
        Certificate::Minimal {
            tests,
            distinct,
            saved,
        } => {
            println!(
                "{} is {what} at {} units ({} units): {tests} tests of {distinct} distinct deletions; {saved} identical deletions not retested",
                prepared.input_path.display(),
                args.units,
                units.len()
            );
            Ok(EXIT_MINIMAL)
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
            let shown = String::from_utf8_lossy(&prepared.original[a..b]);
            let shown: String = shown.chars().take(60).collect();
            println!(
                "{} is not {what} at {} units: deleting units {}..{} (bytes {a}..{b}: {shown:?}) keeps it interesting, {} -> {} bytes; {tests} tests of {distinct} distinct deletions, {saved} identical deletions not retested",
                prepared.input_path.display(),
                args.units,
                deleted.0,
                deleted.1,
                prepared.original.len(),
                smaller.len()
            );
            if let Some(out) = &args.output {
                write_atomic(out, &smaller, None)
                    .map_err(|e| Fail::setup(format!("cannot write {}: {e}", out.display())))?;
                println!("smaller file written to {}", out.display());
            }
            Ok(EXIT_NOT_MINIMAL)
        }
    }
}
