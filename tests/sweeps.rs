//! The sweeps' memory of what failed: a candidate is not tested again while nothing around it
//! changed, and the complete round at the end of a reduction still tests everything.

use myhill::{
    FnOracle, ReduceOptions, Reduction,
    eval::EvalOptions,
    passes::{Cx, Pass, Schedule, ShortIntervals, ShortenIdentifiers, SiblingRuns, SweepMode},
    report::Counter,
    strategy::schedule_of,
};
use std::sync::Mutex;

/// Runs `pass` on the driver as a reduction would, and returns the candidates it tested.
fn run_logged(driver: &mut Cx, pass: &mut dyn Pass, log: &Mutex<Vec<Vec<u8>>>) -> Vec<Vec<u8>> {
    let before = log.lock().unwrap().len();
    driver.begin_pass(&pass.name());
    pass.run(driver).unwrap();
    driver.end_pass(false);
    log.lock().unwrap()[before..].to_vec()
}

#[test]
fn a_failed_candidate_is_not_tested_again_while_nothing_around_it_changed() {
    let (a, b) = ("a".repeat(40), "b".repeat(40));
    let input = format!("{a} {b} x12345");
    let log = Mutex::new(Vec::new());
    // The two long words must stay, and an `x` word with digits after it.
    let oracle = FnOracle::new(|c: &[u8]| {
        log.lock().unwrap().push(c.to_vec());
        let s = String::from_utf8_lossy(c);
        s.contains(&a) && s.contains(&b) && s.contains(" x") && !s.ends_with('x')
    });
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
    driver.set_sweep_mode(SweepMode {
        remember: true,
        patience: None,
    });
    // Three words: 3 + 2 + 1 deletions, all failing.
    let first = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert_eq!(first.len(), 6);
    // Something else changes the end of the input, far from the first word.
    let shorter = format!("{a} {b} x0").into_bytes();
    let mut once = Some((shorter.clone(), ()));
    driver.try_candidates(&mut || once.take()).unwrap();
    assert_eq!(driver.best(), shorter);
    // Deleting the first word failed with the same 32 bytes around it: not tested again.
    // The deletions that reach the changed end are (those that take it away leave bytes
    // tested before, which the cache answers).
    let without_a = format!("{b} x0").into_bytes();
    let again = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert_eq!(again, vec![b"x0".to_vec(), format!("{a} x0").into_bytes()]);
    // The complete sweep tests it; the rest were tested on these very bytes already.
    driver.set_sweep_mode(SweepMode::default());
    let complete = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert_eq!(complete, vec![without_a]);
}

#[test]
fn a_candidate_another_sweep_saw_fail_in_the_same_context_is_not_tested_again() {
    // Sibling runs and token runs often delete the very same bytes: the memory of what failed
    // is one for every sweep, keyed by the edit and its context, not by the pass.
    let (a, b, c) = ("a".repeat(40), "b".repeat(40), "c".repeat(40));
    let input = format!("{a} {b} {c} x12345");
    let log = Mutex::new(Vec::new());
    // Every long word must stay, and an `x` word with digits after it.
    let oracle = FnOracle::new(|t: &[u8]| {
        log.lock().unwrap().push(t.to_vec());
        let s = String::from_utf8_lossy(t);
        s.contains(&a) && s.contains(&b) && s.contains(&c) && s.contains(" x") && !s.ends_with('x')
    });
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
    driver.set_sweep_mode(SweepMode {
        remember: true,
        patience: None,
    });
    let siblings = run_logged(&mut driver, &mut SiblingRuns, &log);
    let without_ab = format!("{c} x12345").into_bytes();
    assert!(siblings.contains(&without_ab), "{siblings:?}");
    // Something else changes the end of the input, far from the first two words.
    let shorter = format!("{a} {b} {c} x0").into_bytes();
    let mut once = Some((shorter.clone(), ()));
    driver.try_candidates(&mut || once.take()).unwrap();
    // Deleting the first two words failed, as a sibling run, with the same 32 bytes around
    // it: the token runs do not test it again. Deleting the first word alone, which no
    // sibling run tried, they do.
    let tokens = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert!(
        !tokens.contains(&format!("{c} x0").into_bytes()),
        "{tokens:?}"
    );
    assert!(
        tokens.contains(&format!("{b} {c} x0").into_bytes()),
        "{tokens:?}"
    );
}

/// Every deletion of 1 to 8 tokens of `input` (space-separated words), in order.
fn token_deletions(input: &str) -> Vec<String> {
    let words: Vec<&str> = input.split_whitespace().collect();
    let mut out = Vec::new();
    for width in 1..=8.min(words.len()) {
        for first in 0..=words.len() - width {
            let mut kept = words.clone();
            kept.drain(first..first + width);
            out.push(kept.join(" "));
        }
    }
    out
}

#[test]
fn the_complete_round_finds_what_a_change_far_away_made_possible() {
    // `def` can go only once `use`, far from it, is gone: a patient round remembers that
    // deleting `def` failed with the same bytes around it and skips it; the complete round at
    // the end tries it again and succeeds.
    let words: Vec<String> = (0..12).map(|i| format!("word{i:02}")).collect();
    let input = format!("def {} use", words.join(" "));
    let interesting = |s: &str| {
        words.iter().all(|w| s.contains(w.as_str())) && (!s.contains("use") || s.contains("def"))
    };
    let oracle = FnOracle::new(|c: &[u8]| interesting(&String::from_utf8_lossy(c)));
    let mut schedule: Schedule = schedule_of(&["intervals/tokens".to_string()]).unwrap();
    let mut reduction = Reduction::new(input.into_bytes(), &oracle, ReduceOptions::default());
    let finished = reduction.run(&mut schedule).unwrap();
    let best = String::from_utf8(finished.best).unwrap();
    assert_eq!(best.trim_end(), words.join(" "));
    // The guarantee of the fixpoint holds: no deletion of 1 to 8 tokens is interesting.
    assert!(token_deletions(&best).iter().all(|c| !interesting(c)));
    let count = |counter| match finished.report.counters.get(&counter) {
        Some(myhill::report::Figure::Count(n)) => *n,
        _ => 0,
    };
    assert!(count(Counter::SweepRemembered) > 0);
    assert!(count(Counter::CompleteRounds) >= 1);
}

/// Replaces `Y1` by `Z`, once: a small change that no expected yield would rerun a sweep for.
struct Shorten;

impl Pass for Shorten {
    fn name(&self) -> String {
        "shorten".into()
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), myhill::Stop> {
        let best = String::from_utf8_lossy(driver.best()).into_owned();
        let mut candidate = best
            .contains("Y1")
            .then(|| (best.replacen("Y1", "Z", 1).into_bytes(), ()));
        driver.try_candidates(&mut || candidate.take()).map(drop)
    }
}

#[test]
fn a_remembering_round_finds_what_a_change_nearby_made_possible_before_the_complete_round() {
    // `X` can go only once `Y1` next to it became `Z`. The sweep fails on `X` first; the
    // change comes from another pass and removes a byte, too little to expect the sweep to
    // pay again. A remembering round before the complete round retries only the deletions
    // whose 32 bytes of context changed, finds `X`, and the complete round finds nothing:
    // one complete round for the whole run.
    // Few tokens, so that no sweep runs out of patience; long ones, so that the first lie
    // more than 32 bytes from the change.
    let words: Vec<String> = (0..5).map(|i| format!("a_long_word_{i:02}")).collect();
    let input = format!("{} X Y1", words.join(" "));
    let interesting = |s: &str| {
        words.iter().all(|w| s.contains(w.as_str()))
            && (s.contains("Y1") || s.contains('Z'))
            && (!s.contains("Y1") || s.contains('X'))
    };
    let oracle = FnOracle::new(|c: &[u8]| interesting(&String::from_utf8_lossy(c)));
    let mut schedule = Schedule {
        passes: vec![Box::new(ShortIntervals), Box::new(Shorten)],
        to_fixpoint: true,
    };
    let mut reduction = Reduction::new(input.into_bytes(), &oracle, ReduceOptions::default());
    let finished = reduction.run(&mut schedule).unwrap();
    let best = String::from_utf8(finished.best).unwrap();
    assert_eq!(best.trim_end(), format!("{} Z", words.join(" ")));
    let count = |counter| match finished.report.counters.get(&counter) {
        Some(myhill::report::Figure::Count(n)) => *n,
        _ => 0,
    };
    // The remembering round skipped the deletions far from the change.
    assert!(count(Counter::SweepRemembered) > 0);
    // The complete round still ran, once, and found nothing.
    assert_eq!(count(Counter::CompleteRounds), 1);
}

#[test]
fn a_renaming_does_not_make_the_sweeps_test_again_what_failed_with_the_old_names() {
    // A consistent renaming changes the bytes around every use of a name but no candidate's
    // meaning: the memory reads inputs with the old names, so a remembering sweep after it
    // tests nothing that failed before it, and the complete sweep still tests everything.
    let input = "longname x longname y".to_string();
    let log = Mutex::new(Vec::new());
    // Four words, the first two the same name, then `x` and `y`: any name will do.
    let oracle = FnOracle::new(|c: &[u8]| {
        log.lock().unwrap().push(c.to_vec());
        let s = String::from_utf8_lossy(c);
        let t: Vec<&str> = s.split_whitespace().collect();
        t.len() == 4 && t[0] == t[2] && t[1] == "x" && t[3] == "y"
    });
    let mut driver = Cx::new(input.into_bytes(), &oracle, EvalOptions::default());
    driver.set_sweep_mode(SweepMode {
        remember: true,
        patience: None,
    });
    let first = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert!(first.len() >= 9, "{first:?}");
    run_logged(&mut driver, &mut ShortenIdentifiers::default(), &log);
    assert_eq!(driver.best(), b"a x a y");
    let again = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert_eq!(again, Vec::<Vec<u8>>::new());
    driver.set_sweep_mode(SweepMode::default());
    // Every deletion again, on the new bytes (those that leave the same bytes, once).
    let complete = run_logged(&mut driver, &mut ShortIntervals, &log);
    assert_eq!(complete.len(), 7, "{complete:?}");
}

/// One line of [`Logged`]'s log: the pass, its round's sweep mode, the best it saw.
type RunLog = std::sync::Arc<Mutex<Vec<(&'static str, SweepMode, Vec<u8>)>>>;

/// The sweep mode of a remembering round.
const REMEMBERING: SweepMode = SweepMode {
    remember: true,
    patience: None,
};

/// A pass that logs every run; with `finds`, it deletes a trailing `!` only in a round of
/// that sweep mode (a deletion a far change made possible, which the memory skipped until
/// then); without, it tests three deletions that fail.
struct Logged {
    name: &'static str,
    finds: Option<SweepMode>,
    log: RunLog,
}

impl Pass for Logged {
    fn name(&self) -> String {
        self.name.into()
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), myhill::Stop> {
        let mode = driver.sweep_mode();
        let best = driver.best().to_vec();
        self.log
            .lock()
            .unwrap()
            .push((self.name, mode, best.clone()));
        let finding = self.finds == Some(mode);
        if self.finds.is_some() && !finding && best.ends_with(b"!") {
            // Skipped as failed in the same context, as a remembering sweep would.
            driver.count(Counter::SweepRemembered, 1);
        }
        let mut candidates: Vec<Vec<u8>> = if self.finds.is_some() {
            (finding && best.ends_with(b"!"))
                .then(|| best[..best.len() - 1].to_vec())
                .into_iter()
                .collect()
        } else {
            (0..3)
                .map(|i| [&best[..i], &best[i + 1..]].concat())
                .collect()
        };
        driver
            .try_candidates(&mut || candidates.pop().map(|c| (c, ())))
            .map(drop)
    }
}

#[test]
fn a_find_ends_the_complete_round_and_the_passes_after_it_wait_for_the_next() {
    let log = RunLog::default();
    let oracle = FnOracle::new(|c: &[u8]| c.starts_with(b"keep"));
    let mut schedule = Schedule {
        passes: vec![
            Box::new(Logged {
                name: "probe",
                finds: None,
                log: log.clone(),
            }),
            Box::new(Logged {
                name: "finder",
                finds: Some(SweepMode::default()),
                log: log.clone(),
            }),
        ],
        to_fixpoint: true,
    };
    let mut reduction = Reduction::new(b"keep!".to_vec(), &oracle, ReduceOptions::default());
    let finished = reduction.run(&mut schedule).unwrap();
    assert_eq!(finished.best, b"keep");
    let log = log.lock().unwrap();
    // The complete round runs the cheaper pass first: the finder, which tested nothing yet.
    let find = log
        .iter()
        .position(|(name, mode, best)| {
            *name == "finder" && *mode == SweepMode::default() && best == b"keep!"
        })
        .expect("the finder ran in a complete round");
    assert_ne!(log[find + 1].0, "probe", "{log:?}");
    assert_ne!(
        log[find + 1].1,
        SweepMode::default(),
        "the next round is not complete: {log:?}"
    );
    // The run still ends with a round of both passes on the final best that finds nothing
    // and skips nothing: every candidate tested on the result.
    let last: Vec<_> = log[log.len() - 2..]
        .iter()
        .map(|(name, _, best)| (*name, best.clone()))
        .collect();
    assert_eq!(
        last,
        [("finder", b"keep".to_vec()), ("probe", b"keep".to_vec())]
    );
}

/// A pass that replaces a trailing `?` by `!` in a remembering round only (elsewhere the
/// memory skips it), logging every run.
struct RememberingFinder(RunLog);

impl Pass for RememberingFinder {
    fn name(&self) -> String {
        "finder".into()
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), myhill::Stop> {
        let (mode, best) = (driver.sweep_mode(), driver.best().to_vec());
        self.0.lock().unwrap().push(("finder", mode, best.clone()));
        let Some(stem) = best.strip_suffix(b"?") else {
            return Ok(());
        };
        if mode != REMEMBERING {
            driver.count(Counter::SweepRemembered, 1);
            return Ok(());
        }
        let mut candidate = Some(([stem, b"!"].concat(), ()));
        driver.try_candidates(&mut || candidate.take()).map(drop)
    }
}

/// A pass that tests nothing, so it runs first in every round: its log lines mark the rounds.
struct RoundMarker(RunLog);

impl Pass for RoundMarker {
    fn name(&self) -> String {
        "round".into()
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), myhill::Stop> {
        let (mode, best) = (driver.sweep_mode(), driver.best().to_vec());
        self.0.lock().unwrap().push(("round", mode, best));
        Ok(())
    }
}

/// A sweep that finds nothing (so it remembers its failures), logging every run.
struct SweepProbe(RunLog);

impl Pass for SweepProbe {
    fn name(&self) -> String {
        "probe".into()
    }

    fn run(&mut self, driver: &mut Cx) -> Result<(), myhill::Stop> {
        let (mode, best) = (driver.sweep_mode(), driver.best().to_vec());
        self.0.lock().unwrap().push(("probe", mode, best));
        ShortIntervals.run(driver)
    }
}

#[test]
fn a_find_ends_a_remembering_round_too_and_the_costlier_passes_wait() {
    let log = RunLog::default();
    let oracle = FnOracle::new(|c: &[u8]| c == b"keep?" || c == b"keep!");
    let mut schedule = Schedule {
        passes: vec![
            Box::new(RoundMarker(log.clone())),
            Box::new(SweepProbe(log.clone())),
            Box::new(RememberingFinder(log.clone())),
        ],
        to_fixpoint: true,
    };
    let mut reduction = Reduction::new(b"keep?".to_vec(), &oracle, ReduceOptions::default());
    assert_eq!(reduction.run(&mut schedule).unwrap().best, b"keep!");
    let log = log.lock().unwrap();
    // The remembering round runs the cheaper pass first (the finder tested nothing yet); its
    // find ends the round: the probe sweeps the new best only in a later round.
    let find = log
        .iter()
        .position(|(name, mode, best)| {
            *name == "finder" && *mode == REMEMBERING && best == b"keep?"
        })
        .expect("the finder ran in a remembering round");
    assert_eq!(log[find + 1].0, "round", "{log:?}");
    // The run still ends with a complete round of both passes on the final best.
    let last_round = log.iter().rposition(|line| line.0 == "round").unwrap();
    let mut last: Vec<_> = log[last_round + 1..].to_vec();
    last.sort_by_key(|line| line.0);
    assert_eq!(
        last,
        [
            ("finder", SweepMode::default(), b"keep!".to_vec()),
            ("probe", SweepMode::default(), b"keep!".to_vec())
        ],
        "{log:?}"
    );
}
