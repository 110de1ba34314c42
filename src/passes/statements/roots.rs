//! Deleting the roots of the mention graph first: the forms of C-family code that no other
//! form can mention (operators, explicit instantiations, assertions), in runs, then the
//! declarations their deletion leaves unmentioned.
//!
//! Main type: [`RootForms`], a pass that runs only on text inputs of at least its
//! `min_bytes`. It reads the forms as `chunks/dead` does (top-level forms, namespace and
//! linkage blocks opened, class members) and lists those that declare no name: nobody can
//! mention them by a word, so the words never show whether one is used, and `chunks/dead`
//! never deletes them. Yet each of them mentions the classes and functions it takes or
//! returns, and keeps them alive in the dead-name index: a preprocessed C++ header's
//! comparison and stream operators hold up most of the library classes a program does not
//! use. The pass deletes runs of this list, the whole list first, then halves, back to front
//! (the list read again after each accepted deletion, once per best), until its yield falls;
//! then it runs `chunks/dead`, which now finds the declarations only those forms mentioned,
//! and starts again while a round removes a good share of the input.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, Pass, RootForms}};
//! let input = "struct A { int x; };\nbool operator==(A, A) { return true; }\nint f(int y) { return y; }\nint main() { return f(1); }\n";
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(4).any(|w| w == b"f(1)"));
//! let mut cx = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
//! RootForms::new(0).run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"\nint f(int y) { return y; }\nint main() { return f(1); }\n");
//! ```
//!
//! Limits: which forms declare no name is read by shape (see `chunks/dead`); an operator the
//! test needs is found by halving, a failed test per halving, and then remembered (by its
//! text) and left out of later lists. Inside the roots it deletes whole forms only: the
//! lines of the program's own code are left to the line passes.

use super::dead::{DeadDeclarations, Rate, cut};
use super::declarations::nameless_forms;
use crate::cx::Cx;
use crate::eval::content_key;
use crate::kind::is_text;
use crate::passes::patch::without_ranges;
use crate::report::Stop;
use crate::schedule::Pass;
use std::collections::HashSet;

/// Deletes the forms nobody can mention (and then the declarations they alone kept alive),
/// on text inputs of at least `min_bytes`.
#[derive(Clone, Debug)]
pub struct RootForms {
    min_bytes: usize,
    /// The content keys of listed forms the test needed: deleting one alone failed.
    needed: HashSet<u128>,
    /// The dead declarations' pass, run after each round: its memory of needed forms lasts.
    dead: DeadDeclarations,
}

impl RootForms {
    /// The pass, run on inputs of at least `min_bytes` bytes.
    pub fn new(min_bytes: usize) -> RootForms {
        RootForms {
            min_bytes,
            needed: HashSet::new(),
            dead: DeadDeclarations::new(min_bytes),
        }
    }

    /// The listed forms of `input` the test has not been found to need.
    fn roots(&self, input: &[u8]) -> (Vec<crate::tree::Form>, Vec<usize>) {
        let (forms, mut list) = nameless_forms(input);
        if !self.needed.is_empty() {
            list.retain(|&i| {
                let f = forms[i];
                !self
                    .needed
                    .contains(&content_key(&input[f.start as usize..f.end as usize]))
            });
        }
        (forms, list)
    }
}

/// A new round starts when the last one removed at least this fraction of the input (1/32).
const ROUND_SHARE: usize = 32;

impl Pass for RootForms {
    fn name(&self) -> String {
        "chunks/roots".to_string()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        loop {
            let len = cx.best().len();
            // Offsets are u32, as in the chunk passes.
            if len < self.min_bytes || len >= u32::MAX as usize || !is_text(cx.best()) {
                return Ok(());
            }
            self.sweep(cx)?;
            self.dead.run(cx)?;
            if cx.best().len() > len - len / ROUND_SHARE {
                return Ok(());
            }
        }
    }
}

impl RootForms {
    /// Runs of the list, the whole list first, then halves, back to front, until the list is
    /// swept at length one or the yield falls.
    fn sweep(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let mut rate = Rate::default();
        let (mut forms, mut list) = self.roots(cx.best());
        let mut k = list.len();
        while k >= 1 {
            let mut end = list.len();
            while end > 0 {
                cx.progress((list.len() - end) as u64, list.len() as u64);
                let best = cx.best_shared();
                let mut at = end;
                let (forms_now, list_now) = (&forms, &list);
                let mut singles: Vec<usize> = Vec::new();
                let mut proposed = 0usize;
                let mut next = || {
                    if at == 0 {
                        return None;
                    }
                    let a = at.saturating_sub(k);
                    if at - a == 1 {
                        singles.push(list_now[a]);
                    }
                    let cut = cut(&best, forms_now, &list_now[a..at]);
                    at = a;
                    proposed += 1;
                    Some((without_ranges(&best, &cut), (cut[0].0, proposed)))
                };
                let before = cx.best().len();
                let accepted = cx.try_candidates(&mut next)?;
                let failed = match accepted {
                    Some(_) => singles.len().saturating_sub(1),
                    None => singles.len(),
                };
                // Judged in order up to the accepted one, whatever the jobs.
                let judged = accepted.map_or(proposed, |(_, at)| at);
                let slow = rate.judged(judged, before - cx.best().len(), cx.best().len());
                for &i in &singles[..failed] {
                    let f = forms[i];
                    self.needed
                        .insert(content_key(&best[f.start as usize..f.end as usize]));
                }
                match accepted {
                    Some((first_cut, _)) => {
                        (forms, list) = self.roots(cx.best());
                        end = list.partition_point(|&i| (forms[i].start as usize) < first_cut);
                    }
                    None => end = 0,
                }
                if slow {
                    return Ok(());
                }
            }
            if k == 1 || list.is_empty() {
                return Ok(());
            }
            k = k.div_ceil(2).min(list.len());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;

    #[test]
    fn an_operator_nobody_needs_goes_and_the_class_only_it_kept_follows() {
        // `Big` is mentioned only by the operator: the dead-name index alone keeps it.
        let input = "struct Big { int a; int b; int c; };\nbool operator<(const Big&, const Big&) { return false; }\nstruct Small { int v; };\nint main() { Small s; return s.v; }\n";
        let oracle = FnOracle::new(|b: &[u8]| {
            let t = String::from_utf8_lossy(b);
            t.contains("int main() { Small s; return s.v; }") && t.contains("struct Small")
        });
        let mut alone = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut alone).unwrap();
        assert!(String::from_utf8_lossy(alone.best()).contains("struct Big"));
        let mut cx = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
        RootForms::new(0).run(&mut cx).unwrap();
        assert_eq!(
            String::from_utf8_lossy(cx.best()),
            "\nstruct Small { int v; };\nint main() { Small s; return s.v; }\n"
        );
    }

    #[test]
    fn a_needed_operator_stays_and_is_not_tried_again() {
        let mut input = String::new();
        for i in 0..40 {
            input.push_str(&format!(
                "struct T{i} {{ int x; }};\nbool operator==(T{i}, T{i}) {{ return true; }}\n"
            ));
        }
        input.push_str("int main() { return T7{} == T7{}; }\n");
        let oracle = FnOracle::new(|b: &[u8]| {
            let t = String::from_utf8_lossy(b);
            t.contains("bool operator==(T7, T7)") && t.contains("return T7{} == T7{}; }")
        });
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        let mut pass = RootForms::new(0);
        pass.run(&mut cx).unwrap();
        let best = String::from_utf8_lossy(cx.best()).into_owned();
        assert!(!best.contains("T8"), "{best}");
        assert!(best.contains("bool operator==(T7, T7)"), "{best}");
        let tests = cx.report().eval.tests_run;
        assert!(tests <= 40, "{tests}");
        // Run again: the needed operator is remembered, nothing left to try.
        pass.run(&mut cx).unwrap();
        assert_eq!(cx.report().eval.tests_run, tests);
    }

    #[test]
    fn small_and_binary_inputs_are_left_alone() {
        let oracle = FnOracle::new(|_: &[u8]| true);
        let mut cx = Cx::new(
            b"bool operator<(A, A);\n".to_vec(),
            &oracle,
            EvalOptions::default(),
        );
        RootForms::new(1000).run(&mut cx).unwrap();
        assert_eq!(cx.report().eval.tests_run, 0);
    }
}
