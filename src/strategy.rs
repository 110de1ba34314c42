//! Named strategies: how `--strategy NAME` and `--units` become a schedule of passes.
//!
//! Main items: [`Strategy`] (a name and optional units; [`Strategy::schedule`] builds its
//! passes), [`STRATEGIES`] (every name with a one-line description), [`passes`] (every pass
//! that can be named, with what it does) and [`schedule_of`] (a schedule of named passes). A single policy given
//! without units runs over lines, then tokens, then bytes, repeated to a fixpoint, as
//! line-then-character reducers do; with units it runs over those units once (the policy's own
//! fixpoint).
//!
//! ```
//! use myhill::{Granularity, Strategy};
//! assert_eq!(Strategy::named("default").unwrap().schedule().passes.len(), 16);
//! let ddmin = Strategy::named("ddmin").unwrap().with_units(Some(Granularity::Bytes));
//! assert_eq!(ddmin.schedule().passes[0].name(), "ddmin/bytes");
//! assert!(Strategy::named("nope").is_err());
//! let mine = myhill::schedule_of(&["hollow".into(), "split/tokens".into()]).unwrap();
//! assert_eq!(mine.passes[1].name(), "split/tokens");
//! ```
//!
//! Limits: every strategy here is deterministic; the same input and test give the same output.

use crate::dfa::DfaOptions;
use crate::error::Error;
use crate::passes::{
    DfaPass, Expressions, FilesDelete, FilesEach, Gated, Hoist, Hollow, IndentBlocks, Integers,
    LengthAware, LowerBytes, Needs, ShortIntervals, ShortenIdentifiers, ShortenLiterals,
    SiblingRuns, SqueezeWhitespace, TreePass, TreeStrategy, UnitPass,
};
use crate::policy::{BinarySplit, ComplementDDMin, DDMin, PolicyFactory, ProbDD};
use crate::schedule::{Pass, Schedule};
use crate::units::Granularity;
use std::sync::Arc;

/// Every strategy name, with what it does.
pub const STRATEGIES: &[(&str, &str)] = &[
    (
        "default",
        "on binary input length-aware deletion of records first; on bracketed text T-PDD over the inferred tree, hollowing and hoisting groups first; binary splitting over lines; a whitespace squeeze; runs of siblings; shorter identifiers; tokens; short runs of tokens; expressions, integers and string literals made smaller; bytes deleted and lowered on binary input; to a fixpoint, each round only the passes that paid",
    ),
    (
        "classic",
        "ProbDD over lines, then tokens, then DDMin over bytes, to a fixpoint",
    ),
    (
        "ddmin",
        "DDMin (subsets, then complements, granularity doubling)",
    ),
    (
        "probdd",
        "ProbDD (a belief per unit, best expected-gain removal)",
    ),
    (
        "split",
        "adaptive binary splitting: groups sized to the estimated density of needed units",
    ),
    (
        "ddmin-complement",
        "ddmin that removes one chunk at a time and keeps its granularity",
    ),
    (
        "hdd",
        "HDD over inferred structure (brackets, lines, separators), DDMin per level",
    ),
    (
        "hdd-probdd",
        "HDD over inferred structure, ProbDD per level",
    ),
    (
        "perses",
        "Perses over inferred structure: node replacement, one List at a time",
    ),
    ("perses-probdd", "Perses with ProbDD as the List minimizer"),
    (
        "tpdd",
        "T-PDD: one belief per node of the inferred tree for the whole run",
    ),
    (
        "dfa",
        "the DFA pass's whole-word probe, DDMin, then the interval check on the shared cache, over the same units (lines unless --units), to a fixpoint; ends interval-minimal",
    ),
    (
        "dfa-pass",
        "the DFA induction pass alone, without its DDMin companion; ends interval-minimal",
    ),
];

/// What the passes that can be named do, for `--list-passes` and errors: every pass of every
/// strategy, by the name it has in the summary table.
pub fn passes() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |name: &str, what: &str| out.push((name.to_string(), what.to_string()));
    add(
        "length-aware",
        "binary input: infer a record layout from the bytes, delete records and cut values, fixing every enclosing length field",
    );
    for tree in TreeStrategy::ALL {
        let what = match tree {
            TreeStrategy::TPdd => "T-PDD over a tree inferred from brackets, lines and separators",
            TreeStrategy::Hdd => "HDD over the inferred tree, DDMin per level",
            TreeStrategy::HddProbDD => "HDD over the inferred tree, ProbDD per level",
            TreeStrategy::Perses => "Perses over the inferred tree",
            TreeStrategy::PersesProbDD => "Perses over the inferred tree, ProbDD per list",
        };
        add(&format!("{tree}/tree"), what);
    }
    add(
        "hollow",
        "empty bracket groups, markup elements and string literals ({...} becomes {})",
    );
    add(
        "hoist",
        "replace a group by a group inside it or by its contents (f(g(x)) becomes g(x))",
    );
    for (policy, what) in [
        ("split", "adaptive binary splitting"),
        ("ddmin", "DDMin"),
        ("probdd", "ProbDD"),
        ("ddmin-complement", "ddmin removing one chunk at a time"),
    ] {
        for g in [Granularity::Lines, Granularity::Tokens, Granularity::Bytes] {
            add(&format!("{policy}/{g}"), &format!("{what} over {g}"));
        }
    }
    add(
        "squeeze/whitespace",
        "shorten every whitespace run and trim the ends, in one test",
    );
    add(
        "siblings",
        "delete runs of 2 to 8 elements of one sequence (name(){}, \"key\": value,)",
    );
    add(
        "rename/identifiers",
        "rename each identifier to the shortest unused name",
    );
    add(
        "intervals/tokens",
        "delete every run of 1 to 8 tokens at every position (inputs of at most 1,000 tokens)",
    );
    add(
        "expressions",
        "replace a OP b by a or b, and names and calls by 0",
    );
    add(
        "integers",
        "integer literals to 0, 1, or the smallest value that passes",
    );
    add("literals", "shorten string literals from inside");
    add("lower/bytes", "lower bytes toward zero");
    add(
        "indent/blocks",
        "delete an indented block (a line and the deeper lines under it), or replace it by its body, dedented",
    );
    add(
        "files/delete",
        "a directory: delete whole files and subdirectories, the largest first, by binary splitting",
    );
    add(
        "files/each",
        "a directory: the default schedule on each file, the largest first, inside the whole tree",
    );
    for g in [Granularity::Lines, Granularity::Tokens, Granularity::Bytes] {
        add(
            &format!("dfa/{g}"),
            &format!(
                "SAT-backed DFA induction over {g}: the whole-word probe, then windows; ends interval-minimal"
            ),
        );
        add(
            &format!("dfa-probe/{g}"),
            &format!(
                "the DFA pass's whole-word probe alone over {g} (at most 3 colours, while it pays)"
            ),
        );
        add(
            &format!("dfa-check/{g}"),
            &format!(
                "the interval check over {g} on the shared cache, accepting what it finds; ends interval-minimal"
            ),
        );
    }
    out
}

/// The pass called `name` (as [`passes`] lists it), with no gate: a pass named by the user
/// runs on whatever input it gets.
pub fn pass_named(name: &str) -> Result<Box<dyn Pass>, Error> {
    let unknown = || Error::UnknownPass {
        name: name.to_string(),
        known: passes()
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let fixed: Option<Box<dyn Pass>> = match name {
        "length-aware" => Some(Box::new(LengthAware::default())),
        "hollow" => Some(Box::new(Hollow)),
        "hoist" => Some(Box::new(Hoist)),
        "squeeze/whitespace" => Some(Box::new(SqueezeWhitespace)),
        "siblings" => Some(Box::new(SiblingRuns)),
        "rename/identifiers" => Some(Box::new(ShortenIdentifiers::default())),
        "intervals/tokens" => Some(Box::new(ShortIntervals)),
        "expressions" => Some(Box::new(Expressions)),
        "integers" => Some(Box::new(Integers)),
        "literals" => Some(Box::new(ShortenLiterals)),
        "lower/bytes" => Some(Box::new(LowerBytes)),
        "files/delete" => Some(Box::new(FilesDelete)),
        "indent/blocks" => Some(Box::new(IndentBlocks)),
        "files/each" => Some(Box::new(FilesEach::new(|| {
            Strategy::named("default")
                .expect("the default strategy")
                .schedule()
        }))),
        _ => None,
    };
    if let Some(pass) = fixed {
        return Ok(pass);
    }
    let (head, tail) = name.split_once('/').ok_or_else(unknown)?;
    if tail == "tree" {
        let tree: TreeStrategy = head.parse().map_err(|_| unknown())?;
        return Ok(Box::new(TreePass::new(tree)));
    }
    let g: Granularity = tail.parse().map_err(|_| unknown())?;
    let max_units = DfaOptions::default().max_units;
    match head {
        "dfa" => return Ok(Box::new(DfaPass::new(g, DfaOptions::default()))),
        "dfa-probe" => return Ok(Box::new(DfaPass::probe(g, max_units))),
        "dfa-check" => return Ok(Box::new(DfaPass::check(g, max_units))),
        _ => {}
    }
    let factory = policy(head).ok_or_else(unknown)?;
    Ok(Box::new(UnitPass::new(g, factory)))
}

/// A schedule of the passes called `names`, in that order, repeated to a fixpoint.
pub fn schedule_of(names: &[String]) -> Result<Schedule, Error> {
    Ok(Schedule {
        passes: names
            .iter()
            .map(|n| pass_named(n))
            .collect::<Result<_, _>>()?,
        to_fixpoint: true,
    })
}

/// The schedule for a directory tree: whole files and subdirectories deleted
/// ([`FilesDelete`]), then each file reduced by a fresh schedule from `per_file`
/// ([`FilesEach`]), to a fixpoint (deleting again what the files' edits made deletable).
/// Each file's schedule starts with [`IndentBlocks`] on text: the files of a project are
/// often indentation-structured source (Python, YAML, make), where line and token deletions
/// stall on orphaned bodies (notes/dirs.md).
pub fn tree_schedule(per_file: impl Fn() -> Schedule + 'static) -> Schedule {
    let per_file = move || {
        let mut schedule = per_file();
        if !schedule.names().iter().any(|n| n == "indent/blocks") {
            schedule.passes.insert(0, gated(IndentBlocks, Needs::Text));
        }
        schedule
    };
    Schedule {
        passes: vec![Box::new(FilesDelete), Box::new(FilesEach::new(per_file))],
        to_fixpoint: true,
    }
}

/// The names, comma-separated, for messages.
pub fn names() -> String {
    STRATEGIES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn policy(name: &str) -> Option<PolicyFactory> {
    let factory: PolicyFactory = match name {
        "ddmin" => Arc::new(|| Box::new(DDMin)),
        "probdd" => Arc::new(|| Box::new(ProbDD::new(0.1))),
        "ddmin-complement" => Arc::new(|| Box::new(ComplementDDMin::default())),
        "split" => Arc::new(|| Box::new(BinarySplit::default())),
        _ => return None,
    };
    Some(factory)
}

fn unit_pass(g: Granularity, policy_name: &str) -> Box<dyn Pass> {
    Box::new(UnitPass::new(
        g,
        policy(policy_name).expect("a known policy"),
    ))
}

fn gated(pass: impl Pass + 'static, needs: Needs) -> Box<dyn Pass> {
    Box::new(Gated::new(Box::new(pass), needs))
}

/// The largest input the default schedule's DFA probe looks at: it paid on the families of
/// examples/families up to 1,003 bytes and on no corpus case (1,690 bytes and up)
/// (notes/dfa-induction.md).
pub const PROBE_BYTES: usize = 1024;

/// The most distinct bytes of an input the default schedule's DFA probe looks at: it paid
/// only on words over 3 or 4 symbols, and cost 7 to 10 tests for nothing on small JSON,
/// lines of text and random bytes (16 to 227 symbols) (notes/dfa-induction.md).
pub const PROBE_ALPHABET: usize = 8;

/// The default schedule. On bracket-structured text the tree and group passes come first,
/// while the structure is whole (before lines are split and whitespace squeezed); coupled
/// deletions (sibling runs, short intervals) come after the plain ones have shrunk the input;
/// bytes are for binary input only, where no word or bracket passes run. notes/schedule.md
/// says why, with figures.
fn default_passes() -> Vec<Box<dyn Pass>> {
    use Granularity::*;
    vec![
        Box::new(DfaPass::probe(Bytes, PROBE_BYTES).with_max_alphabet(PROBE_ALPHABET)),
        gated(LengthAware::default(), Needs::Binary),
        gated(TreePass::new(TreeStrategy::TPdd), Needs::Groups),
        gated(Hollow, Needs::Groups),
        gated(Hoist, Needs::Groups),
        unit_pass(Lines, "split"),
        gated(SqueezeWhitespace, Needs::Text),
        gated(SiblingRuns, Needs::Groups),
        gated(ShortenIdentifiers::default(), Needs::Text),
        gated(UnitPass::new(Tokens, policy("split").unwrap()), Needs::Text),
        gated(ShortIntervals, Needs::Groups),
        gated(Expressions, Needs::Groups),
        gated(Integers, Needs::Groups),
        gated(ShortenLiterals, Needs::Text),
        gated(
            UnitPass::new(Bytes, policy("split").unwrap()),
            Needs::Binary,
        ),
        gated(LowerBytes, Needs::Binary),
    ]
}

/// A strategy: a name from [`STRATEGIES`], and the units it works over if not its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    name: String,
    units: Option<Granularity>,
}

impl Strategy {
    /// The strategy called `name`.
    pub fn named(name: &str) -> Result<Strategy, Error> {
        if !STRATEGIES.iter().any(|(n, _)| *n == name) {
            return Err(Error::UnknownStrategy {
                name: name.to_string(),
                known: names(),
            });
        }
        Ok(Strategy {
            name: name.to_string(),
            units: None,
        })
    }

    /// The same strategy over `units` (`None`: its own choice).
    pub fn with_units(self, units: Option<Granularity>) -> Strategy {
        Strategy { units, ..self }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A fresh schedule of its passes.
    pub fn schedule(&self) -> Schedule {
        use Granularity::*;
        let units = self.units;
        let fixpoint = |passes| Schedule {
            passes,
            to_fixpoint: true,
        };
        let once = |passes| Schedule {
            passes,
            to_fixpoint: false,
        };
        match self.name.as_str() {
            "default" => fixpoint(match units {
                None => default_passes(),
                Some(g) => vec![unit_pass(g, "split")],
            }),
            "classic" => fixpoint(match units {
                None => vec![
                    unit_pass(Lines, "probdd"),
                    unit_pass(Tokens, "probdd"),
                    unit_pass(Bytes, "ddmin"),
                ],
                Some(g) => vec![unit_pass(g, "probdd"), unit_pass(g, "ddmin")],
            }),
            // Lines by default: proving interval-minimality costs a test per canonical
            // interval, quadratic in the result's units, which only the coarsest units keep
            // affordable. The probe first, where it wins; after ddmin the check on the shared
            // cache, which costs what the windowed search would without its extra candidates
            // (notes/dfa-induction.md).
            "dfa" => {
                let g = units.unwrap_or(Lines);
                let max_units = DfaOptions::default().max_units;
                fixpoint(vec![
                    Box::new(DfaPass::probe(g, max_units)),
                    unit_pass(g, "ddmin"),
                    Box::new(DfaPass::check(g, max_units)),
                ])
            }
            "dfa-pass" => once(vec![Box::new(DfaPass::new(
                units.unwrap_or(Lines),
                DfaOptions::default(),
            ))]),
            name => {
                if let Ok(tree) = name.parse::<TreeStrategy>() {
                    return fixpoint(vec![Box::new(TreePass::new(tree))]);
                }
                match units {
                    Some(g) => once(vec![unit_pass(g, name)]),
                    None => fixpoint(
                        [Lines, Tokens, Bytes]
                            .into_iter()
                            .map(|g| unit_pass(g, name))
                            .collect(),
                    ),
                }
            }
        }
    }
}
