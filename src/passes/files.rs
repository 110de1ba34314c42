//! Passes over a directory tree (an [`crate::Archive`]): whole files and subdirectories
//! deleted, then each remaining file reduced with the whole tree around it.
//!
//! Main types: [`FilesDelete`] (binary splitting over the tree's entries, largest first; a
//! directory goes with everything under it), [`FilesHoist`] (a file takes another's content,
//! the other goes) and [`FilesEach`] (a one-file schedule run on
//! each regular file, largest first, through a driver focused on that file: its passes see
//! the file alone, every candidate is tested as the whole tree). On an input that is not a
//! tree both do nothing.
//!
//! ```
//! use myhill::{Archive, Driver, EvalOptions, Entry, FilesDelete, FnOracle, Pass};
//! let tree = Archive::new(vec![
//!     Entry::file("README", 0o644, b"a long text nobody needs\n"),
//!     Entry::file("src/main.c", 0o644, b"int main(void) { return 1/0; }\n"),
//!     Entry::file("src/util.c", 0o644, b"int util;\n"),
//! ]).unwrap();
//! // Interesting while src/main.c is there.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     Archive::decode(b).is_ok_and(|t| t.entries().iter().any(|e| e.path == b"src/main.c"))
//! });
//! let mut driver = Driver::new(tree.encode(), &oracle, EvalOptions::bare());
//! FilesDelete.run(&mut driver).unwrap();
//! let left = Archive::decode(driver.best()).unwrap();
//! assert_eq!(left.files(), 1);
//! ```
//!
//! Cost: [`FilesDelete`] costs what binary splitting costs over the entries (about
//! `d * log2(n / d)` tests for `d` needed among `n`); [`FilesEach`] a one-file schedule per
//! file, each to its own fixpoint, and after each file that changed a [`FilesDelete`] (so a
//! file the edit left unused is deleted before a schedule is spent on it). Limits: a file is reduced with every other file fixed, so
//! an edit that needs two files changed at once (a name renamed in both) is not found; the
//! rounds of the reduction (deletion again after the files shrank) find what a file's edit
//! made deletable. The passes of the inner schedule must test through the driver (a pass
//! that certifies through the evaluator would see one file as the whole tree).

use crate::archive::{Archive, EntryKind};
use crate::driver::Driver;
use crate::idset::IdSet;
use crate::policy::{BinarySplit, Policy};
use crate::report::{Counter, Stop};
use crate::schedule::{Pass, Schedule};

/// Deletes whole entries of a tree: files, symbolic links and directories with what they hold,
/// the largest first, by binary splitting over the list.
#[derive(Clone, Copy, Debug, Default)]
pub struct FilesDelete;

impl Pass for FilesDelete {
    fn name(&self) -> String {
        "files/delete".into()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        let Ok(tree) = Archive::decode(driver.best()) else {
            return Ok(());
        };
        let entries = tree.entries();
        if entries.is_empty() {
            return Ok(());
        }
        let records = tree.records();
        // The nearest directory above each entry (entries are in path order: parents first).
        let parent: Vec<Option<usize>> = (0..entries.len())
            .map(|i| (0..i).rev().find(|&d| entries[i].is_under(&entries[d])))
            .collect();
        // A directory weighs what it holds.
        let mut weight: Vec<usize> = records.iter().map(Vec::len).collect();
        for i in (0..entries.len()).rev() {
            if let Some(p) = parent[i] {
                weight[p] += weight[i];
            }
        }
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(weight[i]), i));
        let mut rank = vec![0u32; entries.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as u32;
        }
        let render = |kept: &IdSet| {
            let mut keep = vec![false; entries.len()];
            for i in 0..entries.len() {
                keep[i] = kept.contains(rank[i]) && parent[i].is_none_or(|p| keep[p]);
            }
            Archive::encode_kept(&records, |i| keep[i])
        };
        let mut policy: Box<dyn Policy> = Box::new(BinarySplit::default());
        driver.run_policy_over(entries.len(), &render, &mut policy)?;
        Ok(())
    }
}

/// Moves a file's content into another file's place: for two regular files X and Y, X takes
/// Y's content and Y is deleted (an entry script that only imports a module becomes that
/// module, a wrapper header becomes what it includes: the file-level counterpart of hoisting a
/// group). Every ordered pair is a candidate, the smallest resulting tree first, accepted one
/// at a time; trees of more than [`FilesHoist::MAX_FILES`] files are left alone (the pairs
/// grow with the square of the files).
#[derive(Clone, Copy, Debug, Default)]
pub struct FilesHoist;

impl FilesHoist {
    /// The most files a tree may have for the pass to run.
    pub const MAX_FILES: usize = 16;
}

impl Pass for FilesHoist {
    fn name(&self) -> String {
        "files/hoist".into()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        loop {
            let Ok(tree) = Archive::decode(driver.best()) else {
                return Ok(());
            };
            let files: Vec<usize> = (0..tree.entries().len())
                .filter(|&i| tree.entries()[i].is_file())
                .collect();
            if files.len() < 2 || files.len() > Self::MAX_FILES {
                return Ok(());
            }
            let mut candidates: Vec<Vec<u8>> = Vec::new();
            for &x in &files {
                for &y in &files {
                    if x == y {
                        continue;
                    }
                    let EntryKind::File(content) = &tree.entries()[y].kind else {
                        continue;
                    };
                    let Some(splice) = tree.splice(x) else {
                        continue;
                    };
                    let lifted = splice.lift(content);
                    // The same tree, less Y's record (records stand alone; X's own length
                    // changed only inside X's record, which comes before or after Y's).
                    let Ok(moved) = Archive::decode(&lifted) else {
                        continue;
                    };
                    candidates.push(Archive::encode_kept(&moved.records(), |i| i != y));
                }
            }
            candidates.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
            candidates.dedup();
            let mut it = candidates.into_iter();
            if driver
                .try_candidates(&mut || it.next().map(|c| (c, ())))?
                .is_none()
            {
                return Ok(());
            }
        }
    }
}

/// Runs a one-file schedule on each regular file of a tree, the largest first, with the rest
/// of the tree as it is around it. Each file's schedule runs to its fixpoint (after a round
/// that changed the file, only the passes that paid; a full round that changes nothing ends).
pub struct FilesEach {
    schedule: Box<dyn Fn() -> Schedule>,
}

impl FilesEach {
    /// Reduces each file with a fresh schedule from `schedule`.
    pub fn new(schedule: impl Fn() -> Schedule + 'static) -> FilesEach {
        FilesEach {
            schedule: Box::new(schedule),
        }
    }
}

impl Pass for FilesEach {
    fn name(&self) -> String {
        "files/each".into()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        let Ok(tree) = Archive::decode(driver.best()) else {
            return Ok(());
        };
        let mut files: Vec<(usize, Vec<u8>)> = tree
            .entries()
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::File(c) if !c.is_empty() => Some((c.len(), e.path.clone())),
                _ => None,
            })
            .collect();
        files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (done, (_, path)) in files.iter().enumerate() {
            driver.progress(done as u64, files.len() as u64);
            let tree = Archive::decode(driver.best()).expect("the passes keep a tree a tree");
            // A file deleted since the pass began is skipped.
            let Some(i) = tree.entries().iter().position(|e| &e.path == path) else {
                continue;
            };
            let splice = tree.splice(i).expect("a regular file");
            let before = driver.best_shared();
            driver.focus(splice);
            driver.count(Counter::FilesEachFiles, 1);
            let result = run_to_fixpoint(&mut (self.schedule)(), driver);
            driver.unfocus();
            result?;
            if driver.best() != before.as_slice() {
                // What this file no longer uses may go now, before a schedule is spent on it.
                FilesDelete.run(driver)?;
            }
        }
        Ok(())
    }
}

fn run_to_fixpoint(schedule: &mut Schedule, driver: &mut Driver) -> Result<(), Stop> {
    let n = schedule.passes.len();
    let mut chosen = vec![true; n];
    loop {
        let full = chosen.iter().all(|&c| c);
        let before = driver.best_shared();
        let mut paid = vec![false; n];
        for (i, pass) in schedule.passes.iter_mut().enumerate() {
            if !chosen[i] {
                continue;
            }
            let start = driver.best_shared();
            pass.run(driver)?;
            paid[i] = driver.best() != start.as_slice();
        }
        let changed = driver.best() != before.as_slice();
        if !schedule.to_fixpoint || (!changed && full) {
            return Ok(());
        }
        chosen = if changed { paid } else { vec![true; n] };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{Entry, EntryKind};
    use crate::eval::EvalOptions;
    use crate::oracle::FnOracle;
    use crate::reduction::{ReduceOptions, Reduction};

    fn project() -> Archive {
        Archive::new(vec![
            Entry::file(
                "README",
                0o644,
                b"Some words about the project.\n".repeat(20).as_slice(),
            ),
            Entry::file(
                "main.py",
                0o755,
                b"import sys\nimport pkg.calc\nprint('hi')\nX = 1\n",
            ),
            Entry::file("pkg/__init__.py", 0o644, b"# the package\n"),
            Entry::file(
                "pkg/calc.py",
                0o644,
                b"def f():\n    return 1\nY = 2\nZ = 3\n",
            ),
            Entry::dir("empty", 0o700),
            Entry::symlink("link", "main.py"),
        ])
        .unwrap()
    }

    /// The content of the file at `path` in `tree`, empty if there is none.
    fn content_of(tree: &Archive, path: &[u8]) -> Vec<u8> {
        tree.entries()
            .iter()
            .find_map(|e| match &e.kind {
                EntryKind::File(c) if e.path == path => Some(c.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Interesting while main.py imports pkg.calc and pkg/calc.py still says "Y".
    fn interesting(bytes: &[u8]) -> bool {
        let Ok(tree) = Archive::decode(bytes) else {
            return false;
        };
        let main = content_of(&tree, b"main.py");
        let calc = content_of(&tree, b"pkg/calc.py");
        main.windows(9).any(|w| w == b"pkg.calc\n") && calc.contains(&b'Y')
    }

    #[test]
    fn deletion_then_each_file_reduces_a_tree_the_same_at_any_jobs() {
        let mut results = Vec::new();
        for jobs in [1, 2] {
            let oracle = FnOracle::new(interesting);
            let options = ReduceOptions {
                jobs,
                ..ReduceOptions::default()
            };
            let mut reduction = Reduction::new(project().encode(), &oracle, options);
            let default = || {
                crate::strategy::Strategy::named("default")
                    .unwrap()
                    .schedule()
            };
            let finished = reduction
                .run(&mut crate::strategy::directory_schedule(default, &[]))
                .unwrap();
            results.push((finished.best, finished.report.eval.tests_run));
        }
        assert_eq!(results[0], results[1]);
        let tree = Archive::decode(&results[0].0).unwrap();
        let paths: Vec<&[u8]> = tree.entries().iter().map(|e| &e.path[..]).collect();
        assert_eq!(paths, [&b"main.py"[..], b"pkg", b"pkg/calc.py"]);
        let main = &tree.entries()[0];
        assert_eq!(main.kind, EntryKind::File(b"pkg.calc\n".to_vec()));
        assert_eq!(main.mode, 0o755, "a mode is kept");
        assert_eq!(tree.entries()[2].kind, EntryKind::File(b"Y".to_vec()));
    }

    #[test]
    fn a_file_takes_the_content_of_the_one_it_uses() {
        // Interesting while run.sh holds BUG, or uses lib.sh which does.
        let oracle = FnOracle::new(|b: &[u8]| {
            let Ok(tree) = Archive::decode(b) else {
                return false;
            };
            let run = content_of(&tree, b"run.sh");
            let lib = content_of(&tree, b"lib.sh");
            run == b"BUG" || (run == b". lib.sh" && lib == b"BUG")
        });
        let tree = Archive::new(vec![
            Entry::file("run.sh", 0o755, b". lib.sh"),
            Entry::file("lib.sh", 0o644, b"BUG"),
        ])
        .unwrap();
        let mut driver = Driver::new(tree.encode(), &oracle, EvalOptions::bare());
        FilesHoist.run(&mut driver).unwrap();
        let left = Archive::decode(driver.best()).unwrap();
        assert_eq!(left.entries(), [Entry::file("run.sh", 0o755, b"BUG")]);
    }

    #[test]
    fn the_passes_leave_a_single_file_alone() {
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
        let mut driver = Driver::new(b"abxcd".to_vec(), &oracle, EvalOptions::bare());
        FilesDelete.run(&mut driver).unwrap();
        FilesEach::new(|| {
            crate::strategy::Strategy::named("default")
                .unwrap()
                .schedule()
        })
        .run(&mut driver)
        .unwrap();
        assert_eq!(driver.best(), b"abxcd");
    }
}
