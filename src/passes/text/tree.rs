//! The tree strategies as a schedule pass: infer a tree from the current best and reduce over it.
//!
//! Main types: [`TreeStrategy`] (`hdd`, `hdd-probdd`, `perses`, `perses-probdd`, `tpdd`) and
//! [`TreePass`], a [`Pass`] that, each time it runs, takes the tree inferred from the best (its
//! [`Cx::nesting`], see [`crate::tree::infer`]) and drives the chosen policy through
//! [`Cx::run_policy`], so candidates take the same path (cache, pool, oracle) as every other
//! pass.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, TreePass}};
//! // Interesting iff the call to crash survives and the braces still balance.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     let text = String::from_utf8_lossy(b);
//!     text.contains("crash();") && text.matches('{').count() == text.matches('}').count()
//! });
//! let input = b"int main() {\n    setup();\n    if (x) {\n        crash();\n    }\n}\n";
//! let mut cx = Cx::new(input.to_vec(), &oracle, EvalOptions::default());
//! let mut pass = TreePass::new("tpdd".parse().unwrap());
//! pass.run(&mut cx).unwrap();
//! assert!(cx.best().len() < input.len());
//! assert!(String::from_utf8_lossy(cx.best()).contains("crash();"));
//! ```
//!
//! Knobs are the pages' own: HDD starts at level 0, ProbDD's prior is 0.1, T-PDD's sigma 0.5;
//! T-PDD's gain counts bytes rather than units (see [`TreeStrategy::policy`]).
//! Limits: the tree is that of the best when the pass starts; it is not rebuilt as the pass
//! shrinks the best (the policy tracks what survives in the units).

use crate::cx::Cx;
use crate::error::Error;
use crate::policy::{DDMin, Hdd, Perses, Policy, PolicyFactory, ProbDD, TPdd};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;
use crate::tree::Tree;
use crate::units::Units;
use std::str::FromStr;
use std::sync::Arc;

/// A tree policy and its inner list policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeStrategy {
    /// HDD with DDMin per level.
    Hdd,
    /// HDD with ProbDD per level.
    HddProbDD,
    /// Perses with DDMin as the list minimizer.
    Perses,
    /// Perses with ProbDD as the list minimizer.
    PersesProbDD,
    /// T-PDD: one belief per node for the whole run.
    TPdd,
}

impl TreeStrategy {
    /// Every tree strategy.
    pub const ALL: [TreeStrategy; 5] = [
        TreeStrategy::Hdd,
        TreeStrategy::HddProbDD,
        TreeStrategy::Perses,
        TreeStrategy::PersesProbDD,
        TreeStrategy::TPdd,
    ];

    /// The T-PDD prior of a list element.
    pub const SIGMA: f64 = 0.5;
    /// ProbDD's prior when it is the inner list policy.
    pub const PROBDD_PRIOR: f64 = 0.1;

    /// Its name, as `--strategy` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TreeStrategy::Hdd => "hdd",
            TreeStrategy::HddProbDD => "hdd-probdd",
            TreeStrategy::Perses => "perses",
            TreeStrategy::PersesProbDD => "perses-probdd",
            TreeStrategy::TPdd => "tpdd",
        }
    }

    /// The policy over `tree`, whose leaves are `units`. T-PDD weighs each unit by its length
    /// in bytes: lexemes differ in size, and with a plain count a one-unit subtree (a comment
    /// line, an `#include`) could never reach T-PDD's gain threshold.
    pub fn policy(self, tree: Arc<Tree>, units: &Units) -> Box<dyn Policy> {
        let ddmin: PolicyFactory = Arc::new(|| Box::new(DDMin));
        let probdd: PolicyFactory = Arc::new(|| Box::new(ProbDD::new(Self::PROBDD_PRIOR)));
        match self {
            TreeStrategy::Hdd => Box::new(Hdd::new(tree, 0, ddmin)),
            TreeStrategy::HddProbDD => Box::new(Hdd::new(tree, 0, probdd)),
            TreeStrategy::Perses => Box::new(Perses::new(tree, ddmin)),
            TreeStrategy::PersesProbDD => Box::new(Perses::new(tree, probdd)),
            TreeStrategy::TPdd => {
                let bytes: Arc<[f64]> = (0..units.len() as u32)
                    .map(|u| units.unit(u).len() as f64)
                    .collect();
                Box::new(TPdd::weighted(tree, Self::SIGMA, bytes))
            }
        }
    }
}

impl std::fmt::Display for TreeStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TreeStrategy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        TreeStrategy::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = TreeStrategy::ALL.iter().map(|t| t.name()).collect();
                Error::UnknownStrategy {
                    name: s.to_string(),
                    known: names.join(", "),
                }
            })
    }
}

/// Reduces the current best over a tree inferred from it.
#[derive(Clone, Debug)]
pub struct TreePass {
    /// The tree policy it runs.
    pub strategy: TreeStrategy,
}

impl TreePass {
    /// The pass running `strategy`.
    pub fn new(strategy: TreeStrategy) -> TreePass {
        TreePass { strategy }
    }
}

impl Pass for TreePass {
    fn name(&self) -> String {
        format!("{}/tree", self.strategy)
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let nesting = cx.nesting();
        let Some(inferred) = nesting.inferred() else {
            return Ok(());
        };
        cx.count(Counter::TreeNodes, inferred.tree.len() as u64);
        cx.count(Counter::TreeDepth, inferred.tree.max_depth() as u64);
        let mut policy = self.strategy.policy(inferred.tree.clone(), &inferred.units);
        cx.run_policy(&inferred.units, &mut policy).map(drop)
    }
}
