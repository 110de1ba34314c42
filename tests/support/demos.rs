//! The conformance demos: small in-process problems whose oracle-call counts are fixed targets.
//!
//! Main types: [`DemoRow`] and [`seed_rows`]. Each row runs one policy on one demo through the
//! ordinary [`Cx`] with the bare loop (one job, no cache), counting oracle calls exactly as
//! the demos' own programs do. `examples/seed_tables.rs` prints the rows and the test suite
//! asserts them.
//!
//! For example, the `keep-2-and-7` row of `probdd` has 12 calls and the result `[2, 7]`.
//!
//! Limits: the demos encode ids as text lines so that candidates go through the same
//! byte-rendering path as real inputs.

use myhill::{
    FnOracle,
    eval::EvalOptions,
    passes::Cx,
    policy::{BinarySplit, ComplementDDMin, DDMin, Policy, ProbDD},
    text::Units,
};
use std::sync::atomic::{AtomicU64, Ordering};

/// One line of the seed tables: `DEMO STRATEGY calls=N result=R`.
#[derive(Clone, Debug, PartialEq)]
pub struct DemoRow {
    pub demo: String,
    pub strategy: String,
    pub calls: u64,
    /// Further counts printed after `calls`, such as `parse_errors`.
    pub extra: Vec<(String, u64)>,
    pub result: String,
}

impl std::fmt::Display for DemoRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} calls={}", self.demo, self.strategy, self.calls)?;
        for (name, count) in &self.extra {
            write!(f, " {name}={count}")?;
        }
        write!(f, " result={}", self.result)
    }
}

/// The values `values[i]` as units, one line each, reduced by `policy` under `keep`, which
/// sees the surviving values. Returns the oracle calls and the surviving values.
pub fn reduce_values(
    values: &[u32],
    keep: impl Fn(&[u32]) -> bool + Send + Sync,
    policy: Box<dyn Policy>,
) -> (u64, Vec<u32>) {
    let calls = AtomicU64::new(0);
    let parse = |bytes: &[u8]| -> Vec<u32> {
        bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| std::str::from_utf8(l).unwrap().parse().unwrap())
            .collect()
    };
    let oracle = FnOracle::new(|bytes: &[u8]| {
        calls.fetch_add(1, Ordering::Relaxed);
        keep(&parse(bytes))
    });
    let units = Units::from_pieces(values.iter().map(|v| format!("{v}\n")));
    let mut driver = Cx::new(units.data().to_vec(), &oracle, EvalOptions::bare());
    let mut policy = policy;
    driver
        .run_policy(&units, &mut policy)
        .expect("in-process demos cannot fail to run");
    (calls.load(Ordering::Relaxed), parse(driver.best()))
}

fn row(demo: &str, strategy: &str, calls: u64, result: &[u32]) -> DemoRow {
    DemoRow {
        demo: demo.into(),
        strategy: strategy.into(),
        calls,
        extra: Vec::new(),
        result: format!("{result:?}"),
    }
}

/// The ProbDD page's demo: 1..=8, interesting iff 2 and 7 survive.
pub fn keep_2_and_7_rows() -> Vec<DemoRow> {
    let values: Vec<u32> = (1..=8).collect();
    let keep = |v: &[u32]| v.contains(&2) && v.contains(&7);
    let mut rows = Vec::new();
    let (calls, result) = reduce_values(&values, keep, Box::new(DDMin));
    rows.push(row("keep-2-and-7", "ddmin", calls, &result));
    let (calls, result) = reduce_values(&values, keep, Box::new(ProbDD::new(0.1)));
    rows.push(row("keep-2-and-7", "probdd", calls, &result));
    rows
}

/// The bisection page's 200-step failing test that needs steps 37, 118 and 161. The page
/// counts its first run of the full test too, so these rows do as well.
pub fn steps_200_rows() -> Vec<DemoRow> {
    let values: Vec<u32> = (0..200).collect();
    let keep = |v: &[u32]| [37, 118, 161].iter().all(|s| v.contains(s));
    let mut rows = Vec::new();
    let policies: Vec<(&str, Box<dyn Policy>)> = vec![
        ("ddmin", Box::new(DDMin)),
        ("probdd", Box::new(ProbDD::new(0.1))),
        ("ddmin-complement", Box::new(ComplementDDMin::default())),
        ("split", Box::new(BinarySplit::default())),
    ];
    for (name, policy) in policies {
        let (calls, result) = reduce_values(&values, keep, policy);
        rows.push(row("steps-200", name, calls + 1, &result));
    }
    rows
}

/// The tree pages' rows: HDD, Perses and T-PDD on their hand-built trees, and the flat
/// baseline (see `seeds.rs`).
pub fn tree_rows() -> Vec<DemoRow> {
    super::seeds::rows()
}

/// Every row of the seed tables.
pub fn seed_rows() -> Vec<DemoRow> {
    let mut rows = keep_2_and_7_rows();
    rows.extend(steps_200_rows());
    rows.extend(tree_rows());
    rows
}
