//! Named strategies: how `--strategy NAME` and `--units` become a schedule of passes.
//!
//! The one registry of names: [`STRATEGIES`] has a line per strategy (its name, what it does,
//! how its schedule is made) and a private table has a line per pass that can be named (how to
//! make it and what it does; the name is the pass's own). Main items: [`Strategy`] (a name and
//! optional units; [`Strategy::schedule`] builds its passes), [`pass_descriptions`] (every pass that can
//! be named, with what it does) and [`schedule_of`] (a schedule of named passes). A single policy given
//! without units runs over lines, then tokens, then bytes, repeated to a fixpoint, as
//! line-then-character reducers do; with units it runs over those units once (the policy's own
//! fixpoint).
//!
//! ```
//! use myhill::{Strategy, text::Granularity};
//! assert_eq!(Strategy::named("default").unwrap().schedule().passes.len(), 34);
//! let ddmin = Strategy::named("ddmin").unwrap().with_units(Some(Granularity::Bytes));
//! assert_eq!(ddmin.schedule().passes[0].name(), "ddmin/bytes");
//! assert!(Strategy::named("nope").is_err());
//! let mine = myhill::strategy::schedule_of(&["hollow".into(), "split/tokens".into()]).unwrap();
//! assert_eq!(mine.passes[1].name(), "split/tokens");
//! ```
//!
//! Limits: every strategy here is deterministic; the same input and test give the same output.

use crate::dfa::DfaOptions;
use crate::error::Error;
use crate::passes::{
    BuiltinTypes, Constructs, DeadDeclarations, DfaPass, Expressions, FilesBypass, FilesDelete,
    FilesEach, FilesHoist, Gated, Hoist, Hollow, IndentBlocks, Integers, LengthAware, LowerBytes,
    Needs, Partition, RootForms, ShortIntervals, ShortenIdentifiers, ShortenLiterals, SiblingRuns,
    SqueezeLines, SqueezeSpaces, SqueezeWhitespace, StripComments, TopChunks, TreePass,
    TreeStrategy, UnitPass,
};
use crate::policy::{ComplementDDMin, DDMin, Policy, ProbDD};
use crate::schedule::{Pass, Schedule};
use crate::units::Granularity;
use std::sync::Arc;

/// A named strategy: its name (written only here), what it does, and how its schedule is made
/// from the units the user chose, if any.
#[derive(Clone, Copy)]
pub struct StrategyInfo {
    /// Its name, for `--strategy`.
    pub name: &'static str,
    /// What it does, for `--list-passes`.
    pub what: &'static str,
    schedule: fn(Option<Granularity>) -> Schedule,
}

impl std::fmt::Debug for StrategyInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StrategyInfo")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Every strategy, one line each: the one place a strategy is named.
pub const STRATEGIES: &[StrategyInfo] = &[
    StrategyInfo {
        name: "default",
        what: "on a large input runs of function bodies emptied, declarations nobody mentions deleted, runs of top-level forms and then of class members deleted first, from halves down; on binary input length-aware deletion of records first; on statement code (C, C++, Java, CSS) every comment deleted in one test, then the whitespace squeeze, the spaces that keep no two tokens apart, binary splitting over lines, shorter identifiers and the declarations nobody mentions next, control statements and initializer lists edited whole after the group passes, the line breaks joined in one test, and words (each with the spaces after it) instead of tokens, handed over to the passes expected to pay more per test; on bracketed text T-PDD over the inferred tree, hollowing and hoisting groups first (in statement code the bodies are hollowed before the tree); binary splitting over lines; a whitespace squeeze; runs of siblings; shorter identifiers; tokens; short runs of tokens; expressions, integers and string literals made smaller; bytes deleted on binary input and plain text, and lowered on binary input; to a fixpoint, each round only the passes that paid",
        schedule: |units| match units {
            None => fixpoint(default_passes()),
            Some(g) => fixpoint(vec![Box::new(Partition::new(g))]),
        },
    },
    StrategyInfo {
        name: "classic",
        what: "ProbDD over lines, then tokens, then DDMin over bytes, to a fixpoint",
        schedule: |units| {
            use Granularity::*;
            fixpoint(match units {
                None => vec![
                    unit_pass(Lines, probdd),
                    unit_pass(Tokens, probdd),
                    unit_pass(Bytes, ddmin),
                ],
                Some(g) => vec![unit_pass(g, probdd), unit_pass(g, ddmin)],
            })
        },
    },
    StrategyInfo {
        name: "ddmin",
        what: "DDMin (subsets, then complements, granularity doubling)",
        schedule: |units| over(units, |g| unit_pass(g, ddmin)),
    },
    StrategyInfo {
        name: "probdd",
        what: "ProbDD (a belief per unit, best expected-gain removal)",
        schedule: |units| over(units, |g| unit_pass(g, probdd)),
    },
    StrategyInfo {
        name: "split",
        what: "adaptive binary splitting: groups sized to the estimated density of needed units",
        schedule: |units| over(units, |g| Box::new(Partition::new(g))),
    },
    StrategyInfo {
        name: "ddmin-complement",
        what: "ddmin that removes one chunk at a time and keeps its granularity",
        schedule: |units| over(units, |g| unit_pass(g, complement)),
    },
    StrategyInfo {
        name: "hdd",
        what: "HDD over inferred structure (brackets, lines, separators), DDMin per level",
        schedule: |_| tree_schedule(TreeStrategy::Hdd),
    },
    StrategyInfo {
        name: "hdd-probdd",
        what: "HDD over inferred structure, ProbDD per level",
        schedule: |_| tree_schedule(TreeStrategy::HddProbDD),
    },
    StrategyInfo {
        name: "perses",
        what: "Perses over inferred structure: node replacement, one List at a time",
        schedule: |_| tree_schedule(TreeStrategy::Perses),
    },
    StrategyInfo {
        name: "perses-probdd",
        what: "Perses with ProbDD as the List minimizer",
        schedule: |_| tree_schedule(TreeStrategy::PersesProbDD),
    },
    StrategyInfo {
        name: "tpdd",
        what: "T-PDD: one belief per node of the inferred tree for the whole run",
        schedule: |_| tree_schedule(TreeStrategy::TPdd),
    },
    // Lines by default: proving interval-minimality costs a test per canonical interval,
    // quadratic in the result's units, which only the coarsest units keep affordable. The
    // probe first, where it wins; after ddmin the check on the shared cache, which costs what
    // the windowed search would without its extra candidates (notes/dfa-induction.md).
    StrategyInfo {
        name: "dfa",
        what: "the DFA pass's whole-word probe, DDMin, then the interval check on the shared cache, over the same units (lines unless --units), to a fixpoint; ends interval-minimal",
        schedule: |units| {
            let g = units.unwrap_or(Granularity::Lines);
            let max_units = DfaOptions::default().max_units;
            fixpoint(vec![
                Box::new(DfaPass::probe(g, max_units)),
                unit_pass(g, ddmin),
                Box::new(DfaPass::check(g, max_units)),
            ])
        },
    },
    StrategyInfo {
        name: "dfa-pass",
        what: "the DFA induction pass alone, without its DDMin companion; ends interval-minimal",
        schedule: |units| Schedule {
            passes: vec![Box::new(DfaPass::new(
                units.unwrap_or(Granularity::Lines),
                DfaOptions::default(),
            ))],
            to_fixpoint: false,
        },
    },
];

/// How a line of [`PASSES`] makes its pass.
enum Make {
    /// One pass.
    Fixed(fn() -> Box<dyn Pass>),
    /// One pass per granularity (lines, tokens, bytes); `{units}` in the description names it.
    Units(fn(Granularity) -> Box<dyn Pass>),
}

/// Every pass that can be named, one line each: how to make it and what it does. A pass's name
/// is its own ([`Pass::name`], written in its file), so adding a pass is its file and one line
/// here (and a place in a strategy's schedule, if it is to run by default).
const PASSES: &[(Make, &str)] = &[
    (
        Make::Fixed(|| Box::new(TopChunks::new(0))),
        "delete runs of top-level forms (declarations, items, lines; blocks of bytes on binary input), back to front, halving the run from the whole input down to one form",
    ),
    (
        Make::Fixed(|| Box::new(TopChunks::bodies(0))),
        "empty runs of function bodies (`) {..}` becomes `) {}`), back to front, halving the run from all bodies down to one",
    ),
    (
        Make::Fixed(|| Box::new(TopChunks::members(0))),
        "delete runs of the members of each class, struct or union definition, the largest class first, back to front, halving the run from all its members down to one",
    ),
    (
        Make::Fixed(|| Box::new(DeadDeclarations::new(0))),
        "delete the top-level declarations whose names no other form mentions (a lexical index, built again after each deletion), all at once, then halves",
    ),
    (
        Make::Fixed(|| Box::new(RootForms::new(0))),
        "delete the forms that declare no name (operators, instantiations), in runs from the whole list down, then the declarations only they mentioned",
    ),
    (
        Make::Fixed(|| Box::new(LengthAware::default())),
        "binary input: infer a record layout from the bytes, delete records and cut values, fixing every enclosing length field",
    ),
    (
        Make::Fixed(|| Box::new(TreePass::new(TreeStrategy::TPdd))),
        "T-PDD over a tree inferred from brackets, lines and separators",
    ),
    (
        Make::Fixed(|| Box::new(TreePass::new(TreeStrategy::Hdd))),
        "HDD over the inferred tree, DDMin per level",
    ),
    (
        Make::Fixed(|| Box::new(TreePass::new(TreeStrategy::HddProbDD))),
        "HDD over the inferred tree, ProbDD per level",
    ),
    (
        Make::Fixed(|| Box::new(TreePass::new(TreeStrategy::Perses))),
        "Perses over the inferred tree",
    ),
    (
        Make::Fixed(|| Box::new(TreePass::new(TreeStrategy::PersesProbDD))),
        "Perses over the inferred tree, ProbDD per list",
    ),
    (
        Make::Fixed(|| Box::new(Hollow)),
        "empty bracket groups, markup elements and string literals ({...} becomes {})",
    ),
    (
        Make::Fixed(|| Box::new(Hoist)),
        "replace a group by a group inside it or by its contents (f(g(x)) becomes g(x))",
    ),
    (
        Make::Units(|g| Box::new(Partition::new(g))),
        "adaptive binary splitting over {units} (partition with --batch)",
    ),
    (
        Make::Fixed(|| Box::new(Partition::words())),
        "adaptive binary splitting over words: lexemes, each with the spaces after it (a line break is a unit of its own)",
    ),
    (Make::Units(|g| unit_pass(g, ddmin)), "DDMin over {units}"),
    (Make::Units(|g| unit_pass(g, probdd)), "ProbDD over {units}"),
    (
        Make::Units(|g| unit_pass(g, complement)),
        "ddmin removing one chunk at a time over {units}",
    ),
    (
        Make::Fixed(|| Box::new(SqueezeWhitespace)),
        "shorten every whitespace run and trim the ends, in one test",
    ),
    (
        Make::Fixed(|| Box::new(StripComments)),
        "delete every comment, in one test (then the line comments alone, then the block comments)",
    ),
    (
        Make::Fixed(|| Box::new(SqueezeSpaces)),
        "delete every space that keeps no two tokens apart (x = f (a) ; becomes x=f(a);), in one test",
    ),
    (
        Make::Fixed(|| Box::new(SqueezeLines)),
        "delete every line break no preprocessor line or line comment needs, in one test",
    ),
    (
        Make::Fixed(|| Box::new(SiblingRuns)),
        "delete runs of 2 to 8 elements of one sequence (name(){}, \"key\": value,)",
    ),
    (
        Make::Fixed(|| Box::new(ShortenIdentifiers::default())),
        "rename each identifier to the shortest unused name",
    ),
    (
        Make::Fixed(|| Box::new(BuiltinTypes::default())),
        "replace a type name the input does not declare by int, unsigned, long or char at every use (with an #include line deleted, when the builtin is not shorter)",
    ),
    (
        Make::Fixed(|| Box::new(Constructs)),
        "statement code: delete a control statement or replace it by its body (or an if by its else), delete a constructor's initializer list",
    ),
    (
        Make::Fixed(|| Box::new(ShortIntervals)),
        "delete every run of 1 to 8 tokens at every position (inputs of at most 1,000 tokens)",
    ),
    (
        Make::Fixed(|| Box::new(Expressions)),
        "replace a OP b by a or b, and names, calls and postfix chains (a.b(c)[i]) by 0",
    ),
    (
        Make::Fixed(|| Box::new(Integers)),
        "integer literals to 0, 1, or the smallest value that passes",
    ),
    (
        Make::Fixed(|| Box::new(ShortenLiterals)),
        "shorten string literals from inside",
    ),
    (
        Make::Fixed(|| Box::new(LowerBytes)),
        "lower bytes toward zero",
    ),
    (
        Make::Fixed(|| Box::new(IndentBlocks)),
        "delete an indented block (a line and the deeper lines under it), or replace it by its body, dedented (a one-line block `HEADER: BODY` by its body)",
    ),
    (
        Make::Fixed(|| Box::new(FilesDelete)),
        "a directory: delete whole files and subdirectories, the largest first, by binary splitting",
    ),
    (
        Make::Fixed(|| Box::new(FilesHoist)),
        "a directory: a file takes another file's content and the other is deleted (an entry script becomes the module it imports)",
    ),
    (
        Make::Fixed(|| Box::new(FilesBypass)),
        "a directory: a file's reference to another file is replaced by a reference that file makes (an import chain skips its middle)",
    ),
    (
        Make::Fixed(|| {
            Box::new(FilesEach::new(|| {
                Strategy::named("default")
                    .expect("the default strategy")
                    .schedule()
            }))
        }),
        "a directory: the default schedule on each file, the largest first, inside the whole tree",
    ),
    (
        Make::Units(|g| Box::new(DfaPass::new(g, DfaOptions::default()))),
        "SAT-backed DFA induction over {units}: the whole-word probe, then windows; ends interval-minimal",
    ),
    (
        Make::Units(|g| Box::new(DfaPass::probe(g, DfaOptions::default().max_units))),
        "the DFA pass's whole-word probe alone over {units} (at most 3 colours, while it pays)",
    ),
    (
        Make::Units(|g| Box::new(DfaPass::check(g, DfaOptions::default().max_units))),
        "the interval check over {units} on the shared cache, accepting what it finds; ends interval-minimal",
    ),
];

/// Every pass of [`PASSES`], made, with what it does.
fn registered() -> impl Iterator<Item = (Box<dyn Pass>, String)> {
    use Granularity::*;
    PASSES.iter().flat_map(|(make, what)| {
        let made: Vec<(Box<dyn Pass>, String)> = match make {
            Make::Fixed(make) => vec![(make(), what.to_string())],
            Make::Units(make) => [Lines, Tokens, Bytes]
                .into_iter()
                .map(|g| (make(g), what.replace("{units}", &g.to_string())))
                .collect(),
        };
        made
    })
}

/// Every pass that can be named, by the name it has in the summary table, with what it does
/// (for `--list-passes` and errors): the passes of every strategy.
pub fn pass_descriptions() -> Vec<(String, String)> {
    registered().map(|(p, what)| (p.name(), what)).collect()
}

/// The pass called `name` (as [`pass_descriptions`] lists it), with no gate: a pass named by the user
/// runs on whatever input it gets.
pub fn pass_named(name: &str) -> Result<Box<dyn Pass>, Error> {
    registered()
        .map(|(p, _)| p)
        .find(|p| p.name() == name)
        .ok_or_else(|| Error::UnknownPass {
            name: name.to_string(),
            known: pass_descriptions()
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The schedule for a directory tree: whole files and subdirectories deleted
/// ([`FilesDelete`]), then each file reduced by a fresh schedule from `per_file`
/// ([`FilesEach`]), then references rerouted past a file ([`FilesBypass`]) and files moved
/// into another's place ([`FilesHoist`]), to a fixpoint
/// (deleting again what the files' edits made deletable).
/// Each file's schedule starts with [`IndentBlocks`] on text: the files of a project are
/// often indentation-structured source (Python, YAML, make), where line and token deletions
/// stall on orphaned bodies (notes/dirs.md); unless `skip` names it (the user's
/// `--skip-pass`: the other names there are for the caller to skip).
pub fn directory_schedule(per_file: impl Fn() -> Schedule + 'static, skip: &[String]) -> Schedule {
    let indent = !skip.iter().any(|n| n == "indent/blocks");
    let per_file = move || {
        let mut schedule = per_file();
        if indent && !schedule.names().iter().any(|n| n == "indent/blocks") {
            schedule
                .passes
                .insert(0, Box::new(Gated::new(Box::new(IndentBlocks), Needs::Text)));
        }
        schedule
    };
    let lines = move || {
        let mut passes: Vec<Box<dyn Pass>> = Vec::new();
        if indent {
            passes.push(Box::new(Gated::new(Box::new(IndentBlocks), Needs::Text)));
        }
        passes.push(pass_named("split/lines").expect("a registered pass"));
        Schedule {
            passes,
            to_fixpoint: true,
        }
    };
    Schedule {
        passes: vec![
            Box::new(FilesDelete),
            Box::new(FilesEach::named("files/lines", lines)),
            Box::new(FilesBypass),
            Box::new(FilesHoist),
            Box::new(FilesEach::new(per_file).refresh(lines)),
            Box::new(FilesBypass),
            Box::new(FilesHoist),
        ],
        to_fixpoint: true,
    }
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

/// The names, comma-separated, for messages.
fn names() -> String {
    STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn ddmin() -> Box<dyn Policy> {
    Box::new(DDMin)
}

fn probdd() -> Box<dyn Policy> {
    Box::new(ProbDD::new(0.1))
}

fn complement() -> Box<dyn Policy> {
    Box::new(ComplementDDMin::default())
}

fn unit_pass(g: Granularity, policy: fn() -> Box<dyn Policy>) -> Box<dyn Pass> {
    Box::new(UnitPass::new(g, Arc::new(policy)))
}

fn fixpoint(passes: Vec<Box<dyn Pass>>) -> Schedule {
    Schedule {
        passes,
        to_fixpoint: true,
    }
}

/// A single kind of pass: over `units` once (the policy's own fixpoint), or over lines, then
/// tokens, then bytes, to a fixpoint, as line-then-character reducers do.
fn over(units: Option<Granularity>, pass: fn(Granularity) -> Box<dyn Pass>) -> Schedule {
    use Granularity::*;
    match units {
        Some(g) => Schedule {
            passes: vec![pass(g)],
            to_fixpoint: false,
        },
        None => fixpoint([Lines, Tokens, Bytes].into_iter().map(pass).collect()),
    }
}

/// A tree strategy's schedule: its tree pass, to a fixpoint (the tree's leaves are tokens,
/// whatever the units).
fn tree_schedule(tree: TreeStrategy) -> Schedule {
    fixpoint(vec![Box::new(TreePass::new(tree))])
}

fn gated(pass: impl Pass + 'static, needs: Needs) -> Box<dyn Pass> {
    Box::new(Gated::new(Box::new(pass), needs))
}

/// `pass` at its place for every input but statement code, where the schedule runs it earlier.
fn unless_statements(pass: Box<dyn Pass>) -> Box<dyn Pass> {
    Box::new(Gated::unless(pass, Needs::Statements))
}

/// The largest input the default schedule's DFA probe looks at: on the generated families
/// (examples/dfa_families), with the probe's 3 rounds then, 5,120 bytes left a smaller result
/// than no probe on 100 of 220 cases and cost at most 9 tests for the same result on 56, where
/// 1,024 won on 61; no corpus case has 8 or fewer distinct bytes, so none is probed
/// (notes/dfa-families.md).
const PROBE_BYTES: usize = 5120;

/// The most distinct bytes of an input the default schedule's DFA probe looks at: it paid
/// only on words over 3 or 4 symbols, and cost 7 to 10 tests for nothing on small JSON,
/// lines of text and random bytes (16 to 227 symbols) (notes/dfa-induction.md).
const PROBE_ALPHABET: usize = 8;

/// The default schedule. On bracket-structured text the tree and group passes come first,
/// while the structure is whole (before lines are split and whitespace squeezed); coupled
/// deletions (sibling runs, short intervals) come after the plain ones have shrunk the input;
/// bytes are for binary input and plain text, whose tokens mean nothing. notes/schedule.md
/// says why, with figures.
fn default_passes() -> Vec<Box<dyn Pass>> {
    use Granularity::*;
    vec![
        Box::new(DfaPass::probe(Bytes, PROBE_BYTES).with_max_alphabet(PROBE_ALPHABET)),
        // Binary records that say how long they are: whole records and runs of them go
        // before the chunk passes' blocks of bytes, which do not line up with them.
        gated(LengthAware::default(), Needs::Binary),
        Box::new(TopChunks::bodies(TopChunks::LARGE)),
        Box::new(DeadDeclarations::new(TopChunks::LARGE)),
        Box::new(TopChunks::new(TopChunks::LARGE)),
        // Members of the classes the forms kept, then the declarations only they mentioned.
        Box::new(TopChunks::members(TopChunks::LARGE)),
        Box::new(DeadDeclarations::new(TopChunks::LARGE)),
        // Statement code (C, C++, Java, CSS): comments and the spaces no token needs go in one
        // test each, and a line is a statement or a declaration, so lines and names pay more
        // per test than the tree there, and go first (notes/schedule.md, statement code).
        gated(StripComments, Needs::Statements),
        gated(SqueezeWhitespace, Needs::Statements),
        gated(SqueezeSpaces, Needs::Statements),
        gated(Partition::new(Lines), Needs::Statements),
        gated(ShortenIdentifiers::default(), Needs::Statements),
        // Once lines have taken the unneeded uses, whole declarations are mentioned by
        // nobody: they go by halves of their list, tens of bytes a test.
        gated(DeadDeclarations::new(0), Needs::Statements),
        // A type from a header keeps its #include: a builtin in its place lets both go.
        gated(BuiltinTypes::default(), Needs::Statements),
        // One record a line (a log): runs of lines by binary splitting before the tree,
        // which would spend a test a line (notes/benchmarks.md, log-txn).
        gated(Partition::new(Lines).remembering(), Needs::LineRecords),
        // In statement code bodies are emptied before the tree deletes definitions: one that
        // other bodies use goes only once those bodies are empty (notes/schedule.md, "Why
        // this order?"). Elsewhere a block is not a bracket group (Python) or there are no
        // definitions (JSON), and emptying groups first cost tests.
        gated(Hollow, Needs::Statements),
        gated(TreePass::new(TreeStrategy::TPdd), Needs::Groups),
        unless_statements(gated(Hollow, Needs::Groups)),
        gated(Hoist, Needs::Groups),
        // A loop that runs once, a condition that holds, an initializer nobody needs: edits
        // no deletion of a token or of a run of siblings makes (notes/schedule.md).
        gated(Constructs, Needs::Statements),
        unless_statements(Box::new(Partition::new(Lines).remembering())),
        unless_statements(gated(SqueezeWhitespace, Needs::Text)),
        gated(SiblingRuns, Needs::Groups),
        unless_statements(gated(ShortenIdentifiers::default(), Needs::Text)),
        // The lines have had their turn: the breaks left would cost the word split a test each.
        gated(SqueezeLines, Needs::Statements),
        gated(Partition::words(), Needs::Statements),
        unless_statements(gated(Partition::new(Tokens).remembering(), Needs::Text)),
        gated(ShortIntervals, Needs::Groups),
        gated(Expressions, Needs::Groups),
        gated(Integers, Needs::Groups),
        gated(ShortenLiterals, Needs::Text),
        gated(Partition::new(Bytes).remembering(), Needs::Binary),
        // Plain text: DDMin, whose chunks kept alone reach what deletions alone do not (a
        // count of letters, a marker far inside); notes/schedule.md, "Bytes".
        gated(UnitPass::new(Bytes, Arc::new(ddmin)), Needs::PlainText),
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
        if !STRATEGIES.iter().any(|s| s.name == name) {
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
        let info = STRATEGIES
            .iter()
            .find(|s| s.name == self.name)
            .expect("checked by Strategy::named");
        (info.schedule)(self.units)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_of_every_strategy_is_registered_under_its_own_name() {
        let known: Vec<String> = pass_descriptions().into_iter().map(|(n, _)| n).collect();
        let mut unique = known.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), known.len(), "a name is registered twice");
        for info in STRATEGIES {
            for units in [None, Some(Granularity::Tokens)] {
                let schedule = Strategy::named(info.name)
                    .unwrap()
                    .with_units(units)
                    .schedule();
                for name in schedule.names() {
                    assert!(
                        known.contains(&name),
                        "{} runs {name}, not registered",
                        info.name
                    );
                    assert_eq!(pass_named(&name).unwrap().name(), name);
                }
            }
        }
    }

    /// A regression: plain text of one long word (one line, one token) got no pass that
    /// could shorten it, and the default schedule removed nothing.
    #[test]
    fn plain_text_of_one_long_word_is_cut_down_to_its_bytes() {
        use crate::{FnOracle, ReduceOptions, Reduction};
        // Ten letters, so that the DFA probe (at most 8 symbols) does not look at it.
        let mut input: Vec<u8> = (0..900)
            .map(|i| b"abcdefghij"[(i * 7 + i / 11) % 10])
            .collect();
        input.insert(450, b'x');
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
        let mut reduction = Reduction::new(input, &oracle, ReduceOptions::default());
        let mut schedule = Strategy::named("default").unwrap().schedule();
        let done = reduction.run(&mut schedule).unwrap();
        assert!(done.best == b"x", "{} bytes left", done.best.len());
    }
}
