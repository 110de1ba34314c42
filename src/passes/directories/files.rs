//! Passes over a directory tree (an [`crate::archive::Archive`]): whole files and subdirectories
//! deleted, then each remaining file reduced with the whole tree around it.
//!
//! Main types: [`FilesDelete`] (binary splitting over the tree's entries, largest first; a
//! directory goes with everything under it), [`FilesHoist`] (a file takes another's content,
//! the other goes), [`FilesBypass`] (a file's reference to another is replaced by one that
//! other makes: an import chain skips its middle) and [`FilesEach`] (a one-file schedule run on
//! each regular file, largest first, through a driver focused on that file: its passes see
//! the file alone, every candidate is tested as the whole tree). On an input that is not a
//! tree both do nothing.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::archive::{Archive, Entry};
//! use myhill::eval::EvalOptions;
//! use myhill::passes::{Cx, FilesDelete, Pass};
//! let tree = Archive::new(vec![
//!     Entry::file("README", 0o644, b"a long text nobody needs\n"),
//!     Entry::file("src/main.c", 0o644, b"int main(void) { return 1/0; }\n"),
//!     Entry::file("src/util.c", 0o644, b"int util;\n"),
//! ]).unwrap();
//! // Interesting while src/main.c is there.
//! let oracle = FnOracle::new(|b: &[u8]| {
//!     Archive::decode(b).is_ok_and(|t| t.entries().iter().any(|e| e.path == b"src/main.c"))
//! });
//! let mut cx = Cx::new(tree.encode(), &oracle, EvalOptions::bare());
//! FilesDelete.run(&mut cx).unwrap();
//! let left = Archive::decode(cx.best()).unwrap();
//! assert_eq!(left.files(), 1);
//! ```
//!
//! Cost: [`FilesDelete`] costs what binary splitting costs over the entries (about
//! `d * log2(n / d)` tests for `d` needed among `n`); [`FilesEach`] a one-file schedule per
//! file, each to its own fixpoint through the round engine, and after each file that changed a [`FilesDelete`] (so a
//! file the edit left unused is deleted before a schedule is spent on it). Limits: a file is reduced with every other file fixed, so
//! an edit that needs two files changed at once (a name renamed in both) is not found; the
//! rounds of the reduction (deletion again after the files shrank) find what a file's edit
//! made deletable. The passes of the inner schedule must test through the driver (a pass
//! that certifies through the evaluator would see one file as the whole tree).

use crate::archive::{Archive, EntryKind};
use crate::cx::Cx;
use crate::idset::IdSet;
use crate::policy::{BinarySplit, Policy};
use crate::report::{Counter, Stop};
use crate::rounds::NoCheckpoints;
use crate::schedule::{Checks, Pass, Schedule};

/// Deletes whole entries of a tree: files, symbolic links and directories with what they hold,
/// the largest first, by binary splitting over the list.
#[derive(Clone, Copy, Debug, Default)]
pub struct FilesDelete;

impl Pass for FilesDelete {
    fn name(&self) -> String {
        "files/delete".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let Ok(tree) = Archive::decode(cx.best()) else {
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
        cx.run_policy_over(entries.len(), &render, &mut policy)?;
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

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        loop {
            let Ok(tree) = Archive::decode(cx.best()) else {
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
            if cx
                .try_candidates(&mut || it.next().map(|c| (c, ())))?
                .is_none()
            {
                return Ok(());
            }
        }
    }
}

/// Lets a file name directly what the file it names names: in file A, a reference to file B
/// (B's path or module name as A writes it: `stats.render`, `"util.h"`, `./lib`) is replaced
/// by a name of a file C that B refers to, once with B deleted and once with B kept. An entry
/// script that imports a module only for what that module imports in turn then imports the
/// latter itself, and the middle file can go; relative references (`.moments`,
/// `../include/x.h`) are rewritten to the style A uses. Candidates are few (references times
/// references); the smallest resulting tree is tried first, one accepted at a time.
///
/// A reference is any occurrence, between characters that cannot continue a name, of a
/// trailing part of a file's path (the last one to all components), `/`- or `.`-separated,
/// with or without the file's extension; a directory's index file (`__init__.py`,
/// `index.js`, `mod.rs`) is also named by its directory. Text that only looks like a name
/// gives candidates that fail, at one test each.
#[derive(Clone, Copy, Debug, Default)]
pub struct FilesBypass;

impl FilesBypass {
    /// The most candidates one round tries (the smallest trees first).
    pub const MAX_CANDIDATES: usize = 256;
}

/// One way a file can be named: the text, its separator (`None` for one component) and
/// whether it ends with the file's extension.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NameForm {
    text: Vec<u8>,
    sep: Option<u8>,
    ext: bool,
}

/// A file's names: every trailing run of its path's components, joined by `/` or `.`, with
/// and without the extension, and its directory's if it is that directory's index file.
fn name_forms(path: &[u8]) -> Vec<NameForm> {
    let comps: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    let last = comps[comps.len() - 1];
    let stem_len = match last.iter().rposition(|&b| b == b'.') {
        Some(dot) if dot > 0 => dot,
        _ => last.len(),
    };
    let stem = &last[..stem_len];
    let mut forms = Vec::new();
    let mut push = |parts: &[&[u8]], ext: bool| {
        for sep in [b'.', b'/'] {
            let text = parts.join(&sep);
            let sep = (parts.len() > 1).then_some(sep);
            let form = NameForm { text, sep, ext };
            if !form.text.is_empty() && !forms.contains(&form) {
                forms.push(form);
            }
        }
    };
    for k in 1..=comps.len() {
        let mut parts = comps[comps.len() - k..].to_vec();
        push(&parts, stem_len < last.len());
        *parts.last_mut().expect("k >= 1") = stem;
        push(&parts, false);
    }
    let index = [&b"__init__"[..], b"index", b"mod"].contains(&stem);
    if index && comps.len() > 1 {
        let dir = &comps[..comps.len() - 1];
        for k in 1..=dir.len() {
            push(&dir[dir.len() - k..], false);
        }
    }
    forms
}

/// A reference in a file's text: where it is, which file it names and how.
#[derive(Clone, Debug)]
struct Reference {
    span: std::ops::Range<usize>,
    to: usize,
    form: NameForm,
}

fn continues_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The references `text` makes to the files `files` (pairs of entry index and name forms),
/// none inside another (the longest name wins: `stats.render` rather than `render`).
fn references(text: &[u8], files: &[(usize, Vec<NameForm>)], own: usize) -> Vec<Reference> {
    let mut found: Vec<Reference> = Vec::new();
    for (to, forms) in files {
        if *to == own {
            continue;
        }
        for form in forms {
            let n = form.text.len();
            let mut at = 0;
            while let Some(i) = find(&text[at..], &form.text) {
                let start = at + i;
                let end = start + n;
                let free_before = start == 0 || !continues_name(text[start - 1]);
                let free_after = end == text.len() || !continues_name(text[end]);
                if free_before && free_after {
                    found.push(Reference {
                        span: start..end,
                        to: *to,
                        form: form.clone(),
                    });
                }
                at = start + 1;
            }
        }
    }
    let inside = |a: &Reference, b: &Reference| {
        b.span.start <= a.span.start && a.span.end <= b.span.end && a.span != b.span
    };
    let kept: Vec<Reference> = found
        .iter()
        .filter(|a| !found.iter().any(|b| inside(a, b)))
        .cloned()
        .collect();
    kept
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl Pass for FilesBypass {
    fn name(&self) -> String {
        "files/bypass".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        loop {
            let Ok(tree) = Archive::decode(cx.best()) else {
                return Ok(());
            };
            let entries = tree.entries();
            let files: Vec<(usize, Vec<NameForm>)> = (0..entries.len())
                .filter(|&i| entries[i].is_file())
                .map(|i| (i, name_forms(&entries[i].path)))
                .collect();
            if files.len() < 3 {
                return Ok(());
            }
            let content = |i: usize| match &entries[i].kind {
                EntryKind::File(c) => c.as_slice(),
                _ => &[],
            };
            let made: Vec<Vec<Reference>> = files
                .iter()
                .map(|(i, _)| references(content(*i), &files, *i))
                .collect();
            let forms_of = |i: usize| &files.iter().find(|(j, _)| *j == i).expect("a file").1;
            let mut candidates: Vec<Vec<u8>> = Vec::new();
            for (a, (ia, _)) in files.iter().enumerate() {
                let text = content(*ia);
                let splice = tree.splice(*ia).expect("a regular file");
                for via in &made[a] {
                    let b = files
                        .iter()
                        .position(|(j, _)| *j == via.to)
                        .expect("a file");
                    for onward in &made[b] {
                        let c = onward.to;
                        if c == *ia {
                            continue;
                        }
                        // C's names in the style A names B, and B's own text for C (with a
                        // relative prefix such as `../` or `.`).
                        let mut names: Vec<Vec<u8>> = forms_of(c)
                            .iter()
                            .filter(|f| {
                                f.ext == via.form.ext
                                    && (via.form.sep.is_none()
                                        || f.sep.is_none()
                                        || f.sep == via.form.sep)
                            })
                            .map(|f| f.text.clone())
                            .collect();
                        let b_text = content(via.to);
                        let mut start = onward.span.start;
                        while start > 0 && matches!(b_text[start - 1], b'.' | b'/') {
                            start -= 1;
                        }
                        names.push(b_text[start..onward.span.end].to_vec());
                        for name in names {
                            let mut new = text[..via.span.start].to_vec();
                            new.extend_from_slice(&name);
                            new.extend_from_slice(&text[via.span.end..]);
                            let Ok(moved) = Archive::decode(&splice.lift(&new)) else {
                                continue;
                            };
                            let moved = moved.records();
                            candidates.push(Archive::encode_kept(&moved, |i| i != via.to));
                            candidates.push(Archive::encode_kept(&moved, |_| true));
                        }
                    }
                }
            }
            candidates.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
            candidates.dedup();
            candidates.truncate(Self::MAX_CANDIDATES);
            let mut it = candidates.into_iter();
            if cx
                .try_candidates(&mut || it.next().map(|c| (c, ())))?
                .is_none()
            {
                return Ok(());
            }
        }
    }
}

/// Runs a one-file schedule on each regular file of a tree with the rest of the tree as it is
/// around it. Each file's schedule runs through the round engine (rounds.rs): planned
/// rounds to its fixpoint, each pass in a row of its own named `pass @ path`, and between
/// its passes the checkpoints of the run (see [`Pass::run_checked`]: in a reduction, the
/// whole tree re-run after a pass that changed the file, rolled back if that fails).
///
/// The files go in the order of the references they make to each other (see
/// [`FilesBypass`]): a file that names no other file first, then the files naming only those,
/// and so on; the smaller first among equals. The file where the behaviour ends (the module
/// that raises, the header that declares) is reduced before the files that only lead to it,
/// so those are often deleted before a schedule is spent on them. With [`FilesEach::refresh`],
/// after a file changed, each root of the references (a file that names another and that no
/// file names: the entry script) gets that cheap schedule first, so what the entry no longer
/// reaches is deleted right away.
pub struct FilesEach {
    name: String,
    schedule: Box<dyn Fn() -> Schedule>,
    refresh: Option<Box<dyn Fn() -> Schedule>>,
}

impl FilesEach {
    /// Reduces each file with a fresh schedule from `schedule`, as the pass `files/each`.
    pub fn new(schedule: impl Fn() -> Schedule + 'static) -> FilesEach {
        FilesEach::named("files/each", schedule)
    }

    /// The same under another name (a tree's schedule runs a cheap schedule over every file
    /// before the full one).
    pub fn named(name: &str, schedule: impl Fn() -> Schedule + 'static) -> FilesEach {
        FilesEach {
            name: name.to_string(),
            schedule: Box::new(schedule),
            refresh: None,
        }
    }

    /// After each file that changed, runs `schedule` (a cheap one) on the roots of the
    /// references before deleting what is no longer needed.
    pub fn refresh(mut self, schedule: impl Fn() -> Schedule + 'static) -> FilesEach {
        self.refresh = Some(Box::new(schedule));
        self
    }

    /// Runs `schedule` on file `path` of the best tree through the round engine (its rows
    /// named `pass @ path`, `checks` between its passes), if the file is still there; whether
    /// the tree changed.
    fn reduce_file<'o>(
        cx: &mut Cx<'o>,
        path: &[u8],
        schedule: &mut Schedule,
        checks: &mut Checks<'_, 'o>,
    ) -> Result<bool, Stop> {
        let tree = Archive::decode(cx.best()).expect("the passes keep a tree a tree");
        let Some(i) = tree.entries().iter().position(|e| e.path == path) else {
            return Ok(false);
        };
        let splice = tree.splice(i).expect("a regular file");
        let before = cx.best_shared();
        cx.focus(&String::from_utf8_lossy(path), splice);
        cx.count(Counter::FilesEachFiles, 1);
        let result = crate::rounds::run_within(cx, schedule, checks);
        cx.unfocus();
        result?;
        Ok(cx.best() != before.as_slice())
    }
}

/// The reference graph of a tree's regular files: for each file (by entry index), its depth
/// (0 for a file that names no other, else one more than the deepest it names) and whether it
/// is a root (it names another file and no file names it).
fn reference_depths(tree: &Archive) -> Vec<(usize, usize, bool)> {
    let entries = tree.entries();
    let files: Vec<(usize, Vec<NameForm>)> = (0..entries.len())
        .filter(|&i| entries[i].is_file())
        .map(|i| (i, name_forms(&entries[i].path)))
        .collect();
    let slot = |entry: usize| files.iter().position(|(j, _)| *j == entry).expect("a file");
    let names: Vec<Vec<usize>> = files
        .iter()
        .map(|(i, _)| {
            let EntryKind::File(text) = &entries[*i].kind else {
                return Vec::new();
            };
            let mut to: Vec<usize> = references(text, &files, *i)
                .iter()
                .map(|r| slot(r.to))
                .collect();
            to.sort_unstable();
            to.dedup();
            to
        })
        .collect();
    // Longest path to a file that names nothing; a cycle stops growing after n rounds.
    let n = files.len();
    let mut depth = vec![0usize; n];
    for _ in 0..n {
        let next: Vec<usize> = (0..n)
            .map(|f| names[f].iter().map(|&t| depth[t] + 1).max().unwrap_or(0))
            .collect();
        if next == depth {
            break;
        }
        depth = next;
    }
    let named: Vec<bool> = (0..n)
        .map(|f| names.iter().any(|to| to.contains(&f)))
        .collect();
    (0..n)
        .map(|f| {
            (
                files[f].0,
                depth[f].min(n),
                !names[f].is_empty() && !named[f],
            )
        })
        .collect()
}

impl Pass for FilesEach {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        self.run_checked(cx, &mut Checks::new(&mut NoCheckpoints))
    }

    /// Each file's schedule takes `checks` between its passes, and so does the deletion
    /// after a file changed: the tree is re-run after each step that changed it, and rolled
    /// back if that fails, as between the passes of the whole input.
    fn run_checked<'o>(
        &mut self,
        cx: &mut Cx<'o>,
        checks: &mut Checks<'_, 'o>,
    ) -> Result<(), Stop> {
        let Ok(tree) = Archive::decode(cx.best()) else {
            return Ok(());
        };
        let graph = reference_depths(&tree);
        let mut files: Vec<(usize, usize, Vec<u8>)> = graph
            .iter()
            .filter_map(|&(i, depth, _)| match &tree.entries()[i].kind {
                EntryKind::File(c) if !c.is_empty() => {
                    Some((depth, c.len(), tree.entries()[i].path.clone()))
                }
                _ => None,
            })
            .collect();
        files.sort();
        for (done, (_, _, path)) in files.iter().enumerate() {
            cx.progress(done as u64, files.len() as u64);
            // A file deleted since the pass began is skipped.
            if !Self::reduce_file(cx, path, &mut (self.schedule)(), checks)? {
                continue;
            }
            if let Some(refresh) = &self.refresh {
                let tree = Archive::decode(cx.best()).expect("the passes keep a tree a tree");
                let roots: Vec<Vec<u8>> = reference_depths(&tree)
                    .into_iter()
                    .filter(|&(i, _, root)| root && tree.entries()[i].path != *path)
                    .map(|(i, _, _)| tree.entries()[i].path.clone())
                    .collect();
                for root in roots {
                    Self::reduce_file(cx, &root, &mut refresh(), checks)?;
                }
            }
            // What this file no longer uses may go now, before a schedule is spent on it.
            let before = cx.best_shared();
            FilesDelete.run(cx)?;
            let paid = cx.best() != before.as_slice();
            checks.inner.after_pass(cx, paid)?;
        }
        Ok(())
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

    /// Each file's passes run through the round engine in rows of their own, named after the
    /// file; a row counts only its own tests, so the rows add up to no more than the run's.
    #[test]
    fn each_file_s_passes_have_rows_named_after_the_file() {
        let oracle = FnOracle::new(interesting);
        let mut reduction = Reduction::new(project().encode(), &oracle, ReduceOptions::default());
        let default = || {
            crate::strategy::Strategy::named("default")
                .unwrap()
                .schedule()
        };
        let finished = reduction
            .run(&mut crate::strategy::directory_schedule(default, &[]))
            .unwrap();
        let report = &finished.report;
        let names: Vec<&str> = report.passes.iter().map(|p| p.name.as_str()).collect();
        assert!(
            report
                .passes
                .iter()
                .any(|p| p.name.ends_with(" @ pkg/calc.py") && p.tests > 0),
            "{names:?}"
        );
        let rows: u64 = report.passes.iter().map(|p| p.tests).sum();
        assert!(rows <= report.eval.tests_run, "{rows} {names:?}");
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
        let mut cx = Cx::new(tree.encode(), &oracle, EvalOptions::bare());
        FilesHoist.run(&mut cx).unwrap();
        let left = Archive::decode(cx.best()).unwrap();
        assert_eq!(left.entries(), [Entry::file("run.sh", 0o755, b"BUG")]);
    }

    /// Interesting while the chain of imports from main.py reaches pkg/c.py holding "X":
    /// `import a.b` names a/b.py from the root, `from .b import f` names b.py beside the file.
    fn raises_in_pkg_c(bytes: &[u8]) -> bool {
        let Ok(tree) = Archive::decode(bytes) else {
            return false;
        };
        let mut at = b"main.py".to_vec();
        for _ in 0..8 {
            let text = content_of(&tree, &at);
            if text == b"X" {
                return at == b"pkg/c.py";
            }
            let dir = match at.iter().rposition(|&b| b == b'/') {
                Some(slash) => at[..=slash].to_vec(),
                None => Vec::new(),
            };
            let module = if let Some(m) = text.strip_prefix(b"import ".as_slice()) {
                m.iter()
                    .map(|&b| if b == b'.' { b'/' } else { b })
                    .collect()
            } else if let Some(m) = text.strip_prefix(b"from .".as_slice()) {
                let name = m.split(|&b| b == b' ').next().unwrap_or_default();
                [dir.as_slice(), name].concat()
            } else {
                return false;
            };
            at = [module.as_slice(), b".py"].concat();
        }
        false
    }

    #[test]
    fn a_reference_skips_the_file_between() {
        let tree = Archive::new(vec![
            Entry::file("main.py", 0o644, b"import pkg.b"),
            Entry::file("pkg/b.py", 0o644, b"from .c import f"),
            Entry::file("pkg/c.py", 0o644, b"X"),
        ])
        .unwrap();
        let oracle = FnOracle::new(raises_in_pkg_c);
        assert!(raises_in_pkg_c(&tree.encode()));
        // Moving b.py's content into main.py breaks the relative import.
        let mut cx = Cx::new(tree.encode(), &oracle, EvalOptions::bare());
        FilesHoist.run(&mut cx).unwrap();
        assert_eq!(Archive::decode(cx.best()).unwrap().files(), 3);
        FilesBypass.run(&mut cx).unwrap();
        let left = Archive::decode(cx.best()).unwrap();
        assert_eq!(
            left.entries(),
            [
                Entry::file("main.py", 0o644, b"import pkg.c"),
                Entry::dir("pkg", 0o755),
                Entry::file("pkg/c.py", 0o644, b"X"),
            ]
        );
    }

    #[test]
    fn names_of_a_file_and_of_its_package() {
        let texts = |path: &[u8]| -> Vec<String> {
            name_forms(path)
                .into_iter()
                .map(|f| String::from_utf8(f.text).unwrap())
                .collect()
        };
        assert_eq!(
            texts(b"stats/moments.py"),
            [
                "moments.py",
                "moments",
                "stats.moments.py",
                "stats/moments.py",
                "stats.moments",
                "stats/moments"
            ]
        );
        assert!(texts(b"school/__init__.py").contains(&"school".to_string()));
        let refs = references(
            b"from stats.moments import mean\nmoments_x = 1\n",
            &[(0, name_forms(b"stats/moments.py"))],
            1,
        );
        assert_eq!(refs.len(), 1, "the longest name, and not inside a word");
        assert_eq!(refs[0].span, 5..18);
    }

    #[test]
    fn the_passes_leave_a_single_file_alone() {
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
        let mut cx = Cx::new(b"abxcd".to_vec(), &oracle, EvalOptions::bare());
        FilesDelete.run(&mut cx).unwrap();
        FilesBypass.run(&mut cx).unwrap();
        FilesEach::new(|| {
            crate::strategy::Strategy::named("default")
                .unwrap()
                .schedule()
        })
        .run(&mut cx)
        .unwrap();
        assert_eq!(cx.best(), b"abxcd");
    }
}
