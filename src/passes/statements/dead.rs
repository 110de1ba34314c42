//! Deleting declarations nobody mentions: the top-level forms and class members of C-family
//! code whose declared names appear in no other form, all at once, then in halves.
//!
//! Main type: [`DeadDeclarations`], a pass that runs only on text inputs of at least its
//! `min_bytes`. It cuts the best into forms as `chunks/forms` does (namespace and linkage
//! blocks opened), and the body of every class, struct or union definition into its members
//! (access labels apart), reads from each form's head the names it declares (a class, struct, union
//! or enum and its enumerators; a function, a variable, a `typedef` or `using` alias), and
//! builds a lexical index: which forms declare each name, and whether any other form mentions
//! it. A form is *dead* when it declares at least one name and none of its names is mentioned
//! outside the forms that declare the same name (overloads, specializations and forward
//! declarations do not keep each other alive; a class does not keep itself or the out-of-line
//! definitions of its own members alive); a member of a dead class goes with it. The dead forms are deleted in runs of the dead list,
//! the whole list first, then halves, back to front, as the chunk passes do; after every
//! accepted deletion the index is built again (once per best, linear in the input), and a new
//! round starts while a round paid, since a deletion makes more names unmentioned.
//!
//! After the bodies of a large file's functions are emptied (`chunks/bodies`), most of a
//! preprocessed header's declarations are mentioned by nobody; a run of the forms pass fails
//! when any of its hundreds of forms is used, where the dead list holds only forms whose
//! deletion leaves no name dangling. This is the "remove unused function" and "remove unused
//! declaration" work of C-Reduce's and C-Vise's clang passes, done on words instead of a
//! compiler's symbol table.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::{Cx, DeadDeclarations, Pass};
//! let input = "struct A { int x; };\nstruct B { A a; };\nint f(B b) {}\nint g(int) {}\nint main() { return g(1); }\n";
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(4).any(|w| w == b"g(1)"));
//! let mut cx = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
//! DeadDeclarations::new(0).run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"int g(int) {}\nint main() { return g(1); }\n");
//! ```
//!
//! Limits: names are read by shape, not by a grammar, and matched by spelling, whatever their
//! scope: a name declared in two scopes is alive if either is mentioned, and a use the words do
//! not show (an operator, a function found by argument-dependent lookup, the entry point that
//! holds the behaviour) is found by the test, one failed halving at a time. Operator
//! definitions and forms whose head it cannot read are never deleted here: `chunks/forms` and
//! the finer passes take them.

use super::declarations::{Index, each_word};
use crate::cx::Cx;
use crate::eval::content_key;
use crate::kind::is_text;
use crate::passes::patch::without_ranges;
use crate::report::Stop;
use crate::schedule::Pass;
use crate::tree::{Form, spans};
use std::collections::{HashMap, HashSet};

/// Deletes top-level declarations whose names nobody mentions, on text inputs of at least
/// `min_bytes`.
#[derive(Clone, Debug)]
pub struct DeadDeclarations {
    min_bytes: usize,
    /// The content keys of forms the test needed: deleting one alone failed. They stay out of
    /// the dead list (the entry point holding the behaviour is mentioned by nobody, yet
    /// needed), so later rounds do not find them again by halving.
    needed: HashSet<u128>,
}

impl DeadDeclarations {
    /// The pass, run on inputs of at least `min_bytes` bytes.
    pub fn new(min_bytes: usize) -> DeadDeclarations {
        DeadDeclarations {
            min_bytes,
            needed: HashSet::new(),
        }
    }
}

/// A new round of the pass starts when the last one removed at least this fraction of the
/// input (1/32).
const ROUND_SHARE: usize = 32;

/// The pass hands over when its last [`RATE_WINDOW`] judged candidates removed less than
/// 1/`RATE_SHARE` of the input per test (1/1024): past the bulk, its single declarations cost
/// a test each, which the next passes spend better.
const RATE_SHARE: usize = 1024;

/// How many of the last judged candidates the yield is measured over.
const RATE_WINDOW: usize = 16;

/// The bytes the last candidates removed, one entry per judged candidate.
#[derive(Default)]
pub(super) struct Rate {
    gains: std::collections::VecDeque<usize>,
}

impl Rate {
    /// Records `judged` candidates that removed `removed` bytes in all, the best now `len`
    /// bytes; whether the window is full and its yield below the bar.
    pub(super) fn judged(&mut self, judged: usize, removed: usize, len: usize) -> bool {
        for i in 0..judged {
            self.gains
                .push_back(if i + 1 == judged { removed } else { 0 });
            if self.gains.len() > RATE_WINDOW {
                self.gains.pop_front();
            }
        }
        self.gains.len() == RATE_WINDOW
            && self.gains.iter().sum::<usize>() < RATE_WINDOW * (len / RATE_SHARE)
    }
}

/// The forms of `input` (top-level forms and class members, in input order) and, in order, the
/// indices of the dead ones. Linear in the input for each level of [`MEMBER_DEPTH`] (one
/// lexing pass, one index of the declared names).
fn dead_forms(input: &[u8], needed: &HashSet<u128>) -> (Vec<Form>, Vec<usize>) {
    let Index {
        forms,
        parent,
        heads,
        ..
    } = Index::of(input);
    // Per name: the forms that declare it (ascending), the classes owning an out-of-line
    // member of that name, and whether another form mentions it.
    let mut by_name: HashMap<&[u8], Name> = HashMap::new();
    for (i, d) in heads.iter().enumerate() {
        for &n in &d.names {
            let entry = by_name.entry(n).or_default();
            if entry.declared_by.last() != Some(&(i as u32)) {
                entry.declared_by.push(i as u32);
            }
            if let Some(o) = d.owner
                && !entry.owners.contains(&o)
            {
                entry.owners.push(o);
            }
        }
    }
    let declares = |by_name: &HashMap<&[u8], Name>, form: u32, name: &[u8]| {
        by_name
            .get(name)
            .is_some_and(|e| e.declared_by.binary_search(&form).is_ok())
    };
    each_word(input, &forms, |form, word| {
        let Some(entry) = by_name.get(word) else {
            return;
        };
        if entry.mentioned {
            return;
        }
        // A mention counts unless the form or a class around it declares the word (a class
        // naming itself in its members), or the form declares a class that owns an
        // out-of-line member of that name.
        let counts = form.is_none_or(|form| {
            let mut around = Some(form);
            while let Some(f) = around {
                if declares(&by_name, f, word) {
                    return false;
                }
                around = parent[f as usize];
            }
            !entry.owners.iter().any(|o| declares(&by_name, form, o))
        });
        if counts && let Some(e) = by_name.get_mut(word) {
            e.mentioned = true;
        }
    });
    // A member of a dead class goes with it: it is not listed on its own.
    let mut covered = vec![false; forms.len()];
    let mut dead = Vec::new();
    for (i, d) in heads.iter().enumerate() {
        let inside_dead = parent[i].is_some_and(|p| covered[p as usize]);
        let is_dead = !inside_dead
            && !d.names.is_empty()
            && (needed.is_empty()
                || !needed.contains(&content_key(
                    &input[forms[i].start as usize..forms[i].end as usize],
                )))
            && d.names
                .iter()
                .all(|n| !by_name.get(n).is_some_and(|e| e.mentioned));
        covered[i] = inside_dead || is_dead;
        if is_dead {
            dead.push(i);
        }
    }
    (forms, dead)
}

/// What the index knows of one declared name.
#[derive(Default)]
struct Name<'a> {
    declared_by: Vec<u32>,
    owners: Vec<&'a [u8]>,
    mentioned: bool,
}

/// The bytes deleted with the dead forms `dead[a..b]`, in order: a [`spans`] per run of
/// consecutive forms.
pub(super) fn cut(input: &[u8], forms: &[Form], dead: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = 0;
    while s < dead.len() {
        let mut e = s + 1;
        while e < dead.len() && dead[e] == dead[e - 1] + 1 {
            e += 1;
        }
        out.extend(spans(input, forms, dead[s], dead[e - 1] + 1));
        s = e;
    }
    out
}

impl Pass for DeadDeclarations {
    fn name(&self) -> String {
        "chunks/dead".to_string()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let mut rate = Rate::default();
        loop {
            let len = cx.best().len();
            // Offsets are u32, as in the chunk passes.
            if len < self.min_bytes || len >= u32::MAX as usize || !is_text(cx.best()) {
                return Ok(());
            }
            let (mut forms, mut dead) = dead_forms(cx.best(), &self.needed);
            let mut k = dead.len();
            while k >= 1 {
                // One sweep at run length k over the dead list, back to front.
                let mut end = dead.len();
                while end > 0 {
                    cx.progress((dead.len() - end) as u64, dead.len() as u64);
                    let best = cx.best_shared();
                    let mut at = end;
                    let (forms_now, dead_now) = (&forms, &dead);
                    // The single forms proposed, with their numbers in proposal order: those
                    // before the accepted one failed. With several jobs candidates are pulled
                    // past the one accepted; those were not judged.
                    let mut singles: Vec<(usize, usize)> = Vec::new();
                    let mut proposed = 0usize;
                    let mut next = || {
                        if at == 0 {
                            return None;
                        }
                        let a = at.saturating_sub(k);
                        if at - a == 1 {
                            singles.push((proposed + 1, dead_now[a]));
                        }
                        let cut = cut(&best, forms_now, &dead_now[a..at]);
                        at = a;
                        let bytes = without_ranges(&best, &cut);
                        proposed += 1;
                        Some((bytes, (cut[0].0, proposed)))
                    };
                    let before = cx.best().len();
                    let accepted = cx.try_candidates(&mut next)?;
                    // Judged in order up to the accepted one, whatever the jobs.
                    let judged = accepted.map_or(proposed, |(_, at)| at);
                    let slow = rate.judged(judged, before - cx.best().len(), cx.best().len());
                    // The candidates judged failing: all those judged, less the one accepted.
                    let failed = judged - usize::from(accepted.is_some());
                    for &(_, i) in singles.iter().filter(|&&(n, _)| n <= failed) {
                        let f = forms[i];
                        self.needed
                            .insert(content_key(&best[f.start as usize..f.end as usize]));
                    }
                    match accepted {
                        Some((first_cut, _)) => {
                            // Forms before the first deleted byte keep their offsets: the
                            // sweep goes on before them, over the new index's dead list.
                            (forms, dead) = dead_forms(cx.best(), &self.needed);
                            end = dead.partition_point(|&i| (forms[i].start as usize) < first_cut);
                        }
                        None => end = 0,
                    }
                    if slow {
                        return Ok(());
                    }
                }
                if k == 1 || dead.is_empty() {
                    break;
                }
                k = k.div_ceil(2).min(dead.len());
            }
            // Another round while a round removes a good share: late rounds find chains of
            // a few small declarations, which the forms and finer passes take more cheaply.
            // A round that removed nothing ends the pass, however small the input.
            let removed = len - cx.best().len();
            if removed == 0 || removed < len / ROUND_SHARE {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;

    fn dead_texts(input: &str) -> Vec<String> {
        let (forms, dead) = dead_forms(input.as_bytes(), &HashSet::new());
        dead.iter()
            .map(|&i| input[forms[i].start as usize..forms[i].end as usize].to_string())
            .collect()
    }

    #[test]
    fn a_form_is_dead_when_no_other_form_mentions_its_names() {
        let input = "struct A;\nstruct A { int x; };\nstruct B { A a; };\nstruct C { int y; };\nint f(int);\nint f(int, int) {}\nint g() {}\nint h() { return g(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "int x;",
                "struct B { A a; };",
                "struct C { int y; };",
                "int f(int);",
                "int f(int, int) {}",
                "int h() { return g(); }"
            ]
        );
    }

    #[test]
    fn a_class_does_not_keep_its_out_of_line_members_alive() {
        let input = "template<typename T> struct S { void used(); void unused(); };\ntemplate<typename T> void S<T>::used() {}\ntemplate<typename T> void S<T>::unused() {}\nint main() { S<int> s; s.used(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "void unused();",
                "template<typename T> void S<T>::unused() {}",
                "int main() { S<int> s; s.used(); }"
            ]
        );
    }

    #[test]
    fn chains_of_unused_declarations_go_and_what_the_test_needs_stays() {
        // 300 declarations in chains of three (each mentioned by the next), one chain used by
        // the entry point, which nobody mentions but the test needs.
        let mut input = String::new();
        for i in 0..100 {
            input.push_str(&format!(
                "struct a{i} {{ int x; }};\nstruct b{i} {{ a{i} y; }};\nint c{i}(b{i} z) {{}}\n"
            ));
        }
        input.push_str("int main() { return c42(0); }\n");
        let oracle = FnOracle::new(|b: &[u8]| b.windows(9).any(|w| w == b"c42(0); }"));
        let mut cx = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut cx).unwrap();
        assert_eq!(
            String::from_utf8_lossy(cx.best()),
            "struct b42 {  };\nint c42(b42 z) {}\nint main() { return c42(0); }\n"
        );
        // The entry point is found needed once, by halving, then stays out of the list;
        // the chains go a third at a time: far fewer tests than declarations.
        let tests = cx.report().eval.tests_run;
        assert!(tests <= 60, "{tests}");
    }

    #[test]
    fn members_of_classes_are_forms_of_their_own() {
        let input = "template<typename T>\nstruct S {\n  typedef T value_type;\n  S() {}\n  ~S() {}\n  void used();\n  template<typename U> void convert(U u);\nprivate:\n  int count;\n  struct Node {\n    Node* next;\n    int spare;\n  };\npublic:\n  value_type get() const;\n};\nint main() { S<int> s; s.used(); }\n";
        assert_eq!(
            dead_texts(input),
            [
                "template<typename U> void convert(U u);",
                "int count;",
                "struct Node {\n    Node* next;\n    int spare;\n  };",
                "value_type get() const;",
                "int main() { S<int> s; s.used(); }"
            ]
        );
        // A class mentioned from outside keeps its members' own liveness: a member named by
        // another member stays.
        let input = "struct A {\n  int kept;\n  int gone;\n  int read() { return kept; }\n};\nint main() { A a; return a.read(); }\n";
        assert_eq!(
            dead_texts(input),
            ["int gone;", "int main() { A a; return a.read(); }"]
        );
    }

    #[test]
    fn unused_members_go_and_access_labels_stay() {
        let input = "class Box {\npublic:\n  int size;\n  int weight;\nprivate:\n  int colour;\n  int shade;\npublic:\n  int open();\n};\nint main() { Box b; return b.open(); }\n";
        // The test needs `open` public and the entry point.
        let oracle = FnOracle::new(|b: &[u8]| {
            let text = String::from_utf8_lossy(b);
            text.contains("return b.open(); }")
                && text
                    .find("int open();")
                    .is_some_and(|at| text[..at].trim_end().ends_with("public:"))
        });
        let mut cx = Cx::new(input.as_bytes().to_vec(), &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut cx).unwrap();
        assert_eq!(
            String::from_utf8_lossy(cx.best()),
            "class Box {\npublic:\n  private:\n  public:\n  int open();\n};\nint main() { Box b; return b.open(); }\n"
        );
    }

    #[test]
    fn small_and_binary_inputs_are_left_alone() {
        let oracle = FnOracle::new(|_: &[u8]| true);
        let mut cx = Cx::new(b"int f() {}\n".to_vec(), &oracle, EvalOptions::default());
        DeadDeclarations::new(1000).run(&mut cx).unwrap();
        assert_eq!(cx.report().eval.tests_run, 0);
        let binary: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let mut cx = Cx::new(binary, &oracle, EvalOptions::default());
        DeadDeclarations::new(0).run(&mut cx).unwrap();
        assert_eq!(cx.report().eval.tests_run, 0);
    }

    #[test]
    fn a_round_that_removes_nothing_ends_the_pass_on_a_tiny_input() {
        // Below ROUND_SHARE bytes a share of the input is 0 bytes: the pass must still stop.
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let oracle = FnOracle::new(|b: &[u8]| {
                b.windows(4).any(|w| w == b"a5 =") && b.windows(4).any(|w| w == b"a7 =")
            });
            let input: Vec<u8> = (0..10)
                .flat_map(|i| format!("int a{i} = 1;\n").into_bytes())
                .collect();
            let mut cx = Cx::new(input, &oracle, EvalOptions::default());
            DeadDeclarations::new(0).run(&mut cx).unwrap();
            let _ = done.send(cx.best().to_vec());
        });
        let best = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the pass ends");
        assert_eq!(best, b"int a5 = 1;\nint a7 = 1;\n");
    }

    proptest::proptest! {
        #[test]
        fn any_text_gives_dead_forms_in_order(input in proptest::collection::vec(
            proptest::sample::select(b"ab ;,{}()<>[]=:*~#\n\"".to_vec()), 0..300)) {
            let (forms, dead) = dead_forms(&input, &HashSet::new());
            for w in dead.windows(2) {
                proptest::prop_assert!(w[0] < w[1]);
            }
            proptest::prop_assert!(dead.last().is_none_or(|&i| i < forms.len()));
        }
    }
}
