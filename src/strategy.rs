//! Named strategies: how `--strategy NAME` and `--units` become a schedule of passes.
//!
//! Main items: [`STRATEGIES`] (names with a one-line description) and [`schedule`]. A single
//! policy given without units runs over lines, then tokens, then bytes, repeated to a
//! fixpoint, as line-then-character reducers do; with units it runs over those units once
//! (the policy's own fixpoint).
//!
//! ```
//! let s = myhill::strategy::schedule("default", None).unwrap();
//! assert_eq!(s.passes.len(), 6);
//! assert!(myhill::strategy::schedule("nope", None).is_err());
//! ```
//!
//! Limits: every strategy here is deterministic; the same input and test give the same output.

use crate::driver::{Pass, Schedule, UnitPass};
use crate::policy::{BinarySplit, ComplementDDMin, DDMin, PolicyFactory, ProbDD};
use crate::squeeze::SqueezeWhitespace;
use crate::units::Granularity;
use std::sync::Arc;

/// Every strategy name, with what it does.
pub const STRATEGIES: &[(&str, &str)] = &[
    (
        "default",
        "binary splitting over lines, a whitespace squeeze, T-PDD over the inferred tree, shorter identifiers, tokens, and bytes when worth it, to a fixpoint",
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
        "DDMin, then SAT-backed DFA induction over the same units (lines unless --units), to a fixpoint; ends interval-minimal",
    ),
    (
        "dfa-pass",
        "the DFA induction pass alone, without its DDMin companion; ends interval-minimal",
    ),
];

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

/// The byte pass of the default schedule, run only where bytes inside tokens matter: on
/// binary inputs (not UTF-8, or holding NUL) and on text of at most 256 bytes. On larger text
/// the token pass has already tried every token, and deleting bytes inside identifiers and
/// numbers almost never keeps code interesting, yet costs about a test per byte.
pub struct BytesWhenWorthIt(pub UnitPass);

impl BytesWhenWorthIt {
    pub fn worth_it(input: &[u8]) -> bool {
        input.len() <= 256 || input.contains(&0) || std::str::from_utf8(input).is_err()
    }
}

impl Pass for BytesWhenWorthIt {
    fn name(&self) -> String {
        self.0.name()
    }

    fn run(&mut self, driver: &mut crate::Driver) -> Result<(), crate::Stop> {
        if Self::worth_it(driver.best()) {
            self.0.run(driver)
        } else {
            Ok(())
        }
    }
}

/// The schedule for strategy `name`, over `units` if given.
pub fn schedule(name: &str, units: Option<Granularity>) -> Result<Schedule, String> {
    use Granularity::*;
    if name == "default" {
        let passes = match units {
            None => vec![
                unit_pass(Lines, "split"),
                Box::new(SqueezeWhitespace),
                Box::new(crate::tree::TreePass::new(crate::tree::TreeStrategy::TPdd)),
                Box::new(crate::rename::ShortenIdentifiers::default()),
                unit_pass(Tokens, "split"),
                Box::new(BytesWhenWorthIt(UnitPass::new(
                    Bytes,
                    policy("split").unwrap(),
                ))),
            ],
            Some(g) => vec![unit_pass(g, "split")],
        };
        return Ok(Schedule {
            passes,
            to_fixpoint: true,
        });
    }
    if name == "classic" {
        let passes = match units {
            None => vec![
                unit_pass(Lines, "probdd"),
                unit_pass(Tokens, "probdd"),
                unit_pass(Bytes, "ddmin"),
            ],
            Some(g) => vec![unit_pass(g, "probdd"), unit_pass(g, "ddmin")],
        };
        return Ok(Schedule {
            passes,
            to_fixpoint: true,
        });
    }
    if name == "dfa" {
        // Lines by default: proving interval-minimality costs a test per canonical interval,
        // quadratic in the result's units, which only the coarsest units keep affordable.
        return Ok(crate::dfa::dfa_schedule(
            units.unwrap_or(Lines),
            crate::dfa::DfaOptions::default(),
        ));
    }
    if name == "dfa-pass" {
        return Ok(Schedule {
            passes: vec![Box::new(crate::dfa::DfaPass::new(
                units.unwrap_or(Lines),
                crate::dfa::DfaOptions::default(),
            ))],
            to_fixpoint: false,
        });
    }
    if let Ok(tree) = crate::tree::TreePass::by_name(name) {
        return Ok(Schedule {
            passes: vec![Box::new(tree)],
            to_fixpoint: true,
        });
    }
    if policy(name).is_none() {
        return Err(format!(
            "unknown strategy {name:?}; choose one of: {}",
            names()
        ));
    }
    Ok(match units {
        Some(g) => Schedule {
            passes: vec![unit_pass(g, name)],
            to_fixpoint: false,
        },
        None => Schedule {
            passes: [Lines, Tokens, Bytes]
                .into_iter()
                .map(|g| unit_pass(g, name))
                .collect(),
            to_fixpoint: true,
        },
    })
}
