//! The architecture, enforced on the structure of the code: a module of the library never
//! imports a module of a higher layer, and the passes never reach the evaluator, the oracle,
//! files or processes.
//!
//! The layers are those of notes/architecture.md, bottom first. Each file is read by a real
//! tokenizer (proc-macro2), so comments and strings never count, and a path is a path however it
//! is spelled: a receiver of any kind (`driver.evaluator()`, `Driver::evaluator(d)`,
//! `<dyn Oracle>::test(..)`), a `use` group (`use std::{fs, process}`) or an alias
//! (`use std::fs as disk;` then `disk::write`). Test code (`tests.rs` files and every item marked
//! `#[cfg(test)]`) may reach up; the code that ships may not.

use std::collections::BTreeMap;
use std::path::Path;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Each top-level module of `src/` and its layer; a module may use only lower layers.
const LAYERS: &[(&str, u32)] = &[
    ("idset", 0),
    ("lex", 0),
    ("units", 1),
    ("kind", 1),
    ("archive", 1),
    ("oracle", 2),
    ("capture", 2),
    ("command", 3),
    ("error", 4),
    ("test_command", 5),
    ("report", 6),
    ("eval", 7),
    ("tree", 8),
    ("dfa", 8),
    ("policy", 9),
    ("sweeps", 9),
    ("driver", 10),
    ("certify", 8),
    ("bisect", 10),
    ("ledger", 11),
    ("cx", 12),
    ("schedule", 13),
    ("rounds", 14),
    ("passes", 15),
    ("strategy", 16),
    ("reduction", 17),
    ("run_dir", 18),
];

/// The folders whose code only proposes and learns: no evaluator, no oracle, no files, no
/// processes.
const PROPOSERS: &[&str] = &["src/passes", "src/policy", "src/tree", "src/dfa"];

/// The crate's modules that start processes or touch files; a proposer imports none of them.
const EFFECTFUL: &[&str] = &["command", "capture", "test_command", "run_dir"];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// One token of shipped code, with its line.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    /// `::`, one token here (two joint `:` to the tokenizer).
    PathSep,
    Punct(char),
    Open(Delimiter),
    Close(Delimiter),
    Literal,
}

#[derive(Clone, Debug)]
struct Tok {
    token: Token,
    line: usize,
}

/// The tokens of the code of `text` that ships: comments are gone, and each item marked
/// `#[cfg(test)]` (up to its body or its `;`) and each file marked `#![cfg(test)]` is left out.
fn shipped(text: &str) -> Vec<Tok> {
    let stream: TokenStream = text
        .parse()
        .unwrap_or_else(|e| panic!("not Rust the tokenizer reads: {e:?}"));
    let mut out = Vec::new();
    flatten(stream, &mut out);
    out
}

/// Whether the attribute `body` (inside `#[..]`) is `cfg(test)` or `cfg(all(test, ..))`.
fn is_cfg_test(body: &TokenStream) -> bool {
    let trees: Vec<TokenTree> = body.clone().into_iter().collect();
    let [TokenTree::Ident(cfg), TokenTree::Group(args)] = trees.as_slice() else {
        return false;
    };
    if cfg != "cfg" {
        return false;
    }
    let args: Vec<TokenTree> = args.stream().into_iter().collect();
    match args.as_slice() {
        [TokenTree::Ident(t)] => t == "test",
        [TokenTree::Ident(all), TokenTree::Group(inner)] if all == "all" => inner
            .stream()
            .into_iter()
            .any(|t| matches!(t, TokenTree::Ident(i) if i == "test")),
        _ => false,
    }
}

fn flatten(stream: TokenStream, out: &mut Vec<Tok>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        // `#[cfg(test)] item` or `#![cfg(test)]` (the rest of this stream).
        if let TokenTree::Punct(hash) = &trees[i]
            && hash.as_char() == '#'
        {
            let inner = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            let at = i + 1 + usize::from(inner);
            if let Some(TokenTree::Group(attr)) = trees.get(at)
                && attr.delimiter() == Delimiter::Bracket
                && is_cfg_test(&attr.stream())
            {
                if inner {
                    return;
                }
                i = skip_item(&trees, at + 1);
                continue;
            }
        }
        let line = trees[i].span().start().line;
        match &trees[i] {
            TokenTree::Group(g) => {
                if g.delimiter() != Delimiter::None {
                    out.push(Tok {
                        token: Token::Open(g.delimiter()),
                        line,
                    });
                }
                flatten(g.stream(), out);
                if g.delimiter() != Delimiter::None {
                    out.push(Tok {
                        token: Token::Close(g.delimiter()),
                        line: g.span_close().start().line,
                    });
                }
            }
            TokenTree::Ident(id) => out.push(Tok {
                token: Token::Ident(id.to_string().trim_start_matches("r#").to_string()),
                line,
            }),
            TokenTree::Punct(p) => {
                let sep = p.as_char() == ':'
                    && p.spacing() == Spacing::Joint
                    && matches!(trees.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == ':');
                if sep {
                    out.push(Tok {
                        token: Token::PathSep,
                        line,
                    });
                    i += 1;
                } else {
                    out.push(Tok {
                        token: Token::Punct(p.as_char()),
                        line,
                    });
                }
            }
            TokenTree::Literal(_) => out.push(Tok {
                token: Token::Literal,
                line,
            }),
        }
        i += 1;
    }
}

/// The index after the item that starts at `from`: a `use` ends at its `;`, any other item at
/// its first `;` or `{..}` body.
fn skip_item(trees: &[TokenTree], from: usize) -> usize {
    let is_use = trees[from..]
        .iter()
        .find(|t| {
            !matches!(t, TokenTree::Ident(i) if i == "pub") && !is_group(t, Delimiter::Parenthesis)
        })
        .is_some_and(|t| matches!(t, TokenTree::Ident(i) if i == "use"));
    let mut i = from;
    while i < trees.len() {
        let t = &trees[i];
        i += 1;
        if matches!(t, TokenTree::Punct(p) if p.as_char() == ';')
            || (!is_use && is_group(t, Delimiter::Brace))
        {
            break;
        }
    }
    i
}

fn is_group(t: &TokenTree, delimiter: Delimiter) -> bool {
    matches!(t, TokenTree::Group(g) if g.delimiter() == delimiter)
}

/// A path the code names, with the line it starts on.
#[derive(Clone, Debug)]
struct PathUse {
    segments: Vec<String>,
    line: usize,
}

/// What a file's `use` items bind: each name to the path it stands for (`*` for a glob).
#[derive(Default, Debug)]
struct Code {
    tokens: Vec<Tok>,
    /// Every path of the `use` items, in full (`use std::{fs::write as w}` gives `std::fs::write`).
    imported: Vec<PathUse>,
    /// Each name a `use` binds, and its path.
    aliases: BTreeMap<String, Vec<String>>,
    /// Every other path, as spelled (`$crate` is `crate`).
    spelled: Vec<PathUse>,
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.token) {
        Some(Token::Ident(s)) => Some(s),
        _ => None,
    }
}

fn is(t: Option<&Tok>, token: &Token) -> bool {
    t.is_some_and(|t| t.token == *token)
}

impl Code {
    fn read(text: &str) -> Code {
        let mut code = Code {
            tokens: shipped(text),
            ..Code::default()
        };
        let mut i = 0;
        while i < code.tokens.len() {
            let before = i.checked_sub(1).map(|b| &code.tokens[b]);
            if ident(code.tokens.get(i)) == Some("use")
                && !is(before, &Token::Punct('.'))
                && !is(before, &Token::PathSep)
            {
                i = code.use_tree(i + 1, Vec::new());
                continue;
            }
            i = code.path(i);
        }
        code
    }

    /// Reads the use tree at `i` under `prefix`; returns the index after it.
    fn use_tree(&mut self, mut i: usize, mut prefix: Vec<String>) -> usize {
        let line = self.tokens.get(i).map_or(0, |t| t.line);
        if is(self.tokens.get(i), &Token::PathSep) {
            i += 1;
        }
        loop {
            let t = self.tokens.get(i).map(|t| t.token.clone());
            match t {
                Some(Token::Punct('$')) => i += 1,
                Some(Token::Ident(name)) if name == "as" => {
                    let alias = ident(self.tokens.get(i + 1)).unwrap_or("_").to_string();
                    self.bind(alias, prefix, line);
                    return i + 2;
                }
                Some(Token::Ident(name)) => {
                    if name == "self" && !prefix.is_empty() {
                        i += 1;
                        continue;
                    }
                    prefix.push(name);
                    i += 1;
                    if is(self.tokens.get(i), &Token::PathSep) {
                        i += 1;
                        continue;
                    }
                    if ident(self.tokens.get(i)) == Some("as") {
                        continue;
                    }
                    let name = prefix.last().cloned().unwrap_or_default();
                    self.bind(name, prefix, line);
                    return i;
                }
                Some(Token::Punct('*')) => {
                    prefix.push("*".to_string());
                    self.bind("*".to_string(), prefix, line);
                    return i + 1;
                }
                Some(Token::Open(Delimiter::Brace)) => {
                    i += 1;
                    while !is(self.tokens.get(i), &Token::Close(Delimiter::Brace)) {
                        if i >= self.tokens.len() {
                            return i;
                        }
                        if is(self.tokens.get(i), &Token::Punct(',')) {
                            i += 1;
                            continue;
                        }
                        i = self.use_tree(i, prefix.clone());
                    }
                    return i + 1;
                }
                _ => return i,
            }
        }
    }

    fn bind(&mut self, name: String, segments: Vec<String>, line: usize) {
        if name != "*" && name != "_" {
            self.aliases.insert(name, segments.clone());
        }
        self.imported.push(PathUse { segments, line });
    }

    /// Reads the path that starts at `i`, if one does; returns the index after it.
    fn path(&mut self, i: usize) -> usize {
        let before = i.checked_sub(1).map(|b| &self.tokens[b].token);
        let starts = match (&self.tokens[i].token, before) {
            // A method or field, or a segment after a qualified `<T as Trait>::`.
            (Token::Ident(_), Some(Token::Punct('.') | Token::PathSep)) => false,
            (Token::Ident(_), _) => true,
            (Token::PathSep, Some(Token::Ident(_) | Token::Punct('>'))) => false,
            (Token::PathSep, _) => true,
            _ => false,
        };
        if !starts {
            return i + 1;
        }
        let line = self.tokens[i].line;
        let mut segments = Vec::new();
        let mut j = i;
        if is(self.tokens.get(j), &Token::PathSep) {
            j += 1;
        }
        while let Some(name) = ident(self.tokens.get(j)) {
            segments.push(name.to_string());
            j += 1;
            if !is(self.tokens.get(j), &Token::PathSep) {
                break;
            }
            j += 1;
            // A turbofish: skip `<..>` and go on if a segment follows.
            if is(self.tokens.get(j), &Token::Punct('<')) {
                j = self.after_angles(j);
                if is(self.tokens.get(j), &Token::PathSep) {
                    j += 1;
                }
            }
        }
        if segments.is_empty() {
            return j.max(i + 1);
        }
        if i > 0 && is(self.tokens.get(i - 1), &Token::Punct('$')) && segments[0] == "crate" {
            // `$crate::x` is `crate::x`.
        }
        self.spelled.push(PathUse { segments, line });
        j
    }

    fn after_angles(&self, mut j: usize) -> usize {
        let mut depth = 0i32;
        while let Some(t) = self.tokens.get(j) {
            match t.token {
                Token::Punct('<') => depth += 1,
                Token::Punct('>') => depth -= 1,
                _ => {}
            }
            j += 1;
            if depth <= 0 {
                break;
            }
        }
        j
    }

    /// Every path the code names, its first segment resolved through the file's `use` items.
    fn resolved(&self) -> Vec<PathUse> {
        let mut all = self.imported.clone();
        for p in &self.spelled {
            let mut segments = p.segments.clone();
            // An alias may stand for another alias (`use std as s; use s::fs;`), a few deep.
            for _ in 0..4 {
                match self.aliases.get(&segments[0]) {
                    Some(full) if full != &segments[..1] => {
                        let mut next = full.clone();
                        next.extend(segments.drain(1..));
                        segments = next;
                    }
                    _ => break,
                }
            }
            all.push(PathUse {
                segments,
                line: p.line,
            });
        }
        all
    }

    /// The top-level modules the code names through `crate::` (or `$crate::`), or through
    /// `super::` from the module at `path` (`["passes", "patch"]` for src/passes/patch.rs):
    /// from a top-level module, `super::x` is the crate's `x`.
    fn modules_used(&self, path: &[String]) -> Vec<(String, usize)> {
        let mut found = Vec::new();
        for p in self.imported.iter().chain(&self.spelled) {
            let s = &p.segments;
            if s[0] == "crate" && s.len() > 1 {
                found.push((s[1].clone(), p.line));
            } else if s[0] == "super" {
                let up = s.iter().take_while(|x| *x == "super").count();
                let kept = path.len().saturating_sub(up);
                if kept == 0 {
                    if let Some(m) = s.get(up) {
                        found.push((m.clone(), p.line));
                    }
                } else {
                    found.push((path[0].clone(), p.line));
                }
            }
        }
        found
    }

    /// The lines where a function named one of `names` is reached through a receiver, a type
    /// or a path: `x.name(..)` (a method call, not a field), and `T::name`, `<T>::name`,
    /// `<T as Tr>::name`, called or not.
    fn members_named(&self, names: &[&str]) -> Vec<(String, usize)> {
        let mut found = Vec::new();
        for (k, t) in self.tokens.iter().enumerate().skip(1) {
            let Token::Ident(name) = &t.token else {
                continue;
            };
            let before = &self.tokens[k - 1].token;
            let after = self.tokens.get(k + 1).map(|t| &t.token);
            let called = matches!(
                after,
                Some(Token::Open(Delimiter::Parenthesis) | Token::PathSep)
            );
            let member = match before {
                Token::PathSep => true,
                Token::Punct('.') => called,
                _ => false,
            };
            if names.contains(&name.as_str()) && member {
                found.push((name.clone(), t.line));
            }
        }
        found
    }

    /// The lines where one of `names` appears as a word of the code.
    fn words(&self, names: &[&str]) -> Vec<(String, usize)> {
        self.tokens
            .iter()
            .filter_map(|t| match &t.token {
                Token::Ident(n) if names.contains(&n.as_str()) => Some((n.clone(), t.line)),
                _ => None,
            })
            .collect()
    }
}

/// What `code` does that a proposer must not: each with its line.
fn reaches_past_the_driver(code: &Code) -> Vec<(String, usize)> {
    let mut found = code.members_named(&["evaluator"]);
    found.extend(code.words(&["accept_tested", "Evaluator"]));
    found.extend(calls_oracle(code));
    found
}

/// Where `code` calls the oracle's test methods, whatever the receiver.
fn calls_oracle(code: &Code) -> Vec<(String, usize)> {
    code.members_named(&["test", "test_verbose"])
}

/// Where `code` touches files or processes: `std::fs`, `std::process` (and the platform
/// extensions under `std::os`), a `Command`, a glob import of `std`, or a crate module that
/// does (`EFFECTFUL`).
fn touches_the_world(code: &Code) -> Vec<(String, usize)> {
    let mut found = code.words(&["Command"]);
    for p in code.resolved() {
        let s = &p.segments;
        let std = matches!(s[0].as_str(), "std" | "core" | "alloc");
        let effect = s
            .iter()
            .skip(1)
            .any(|x| x == "fs" || x == "process" || x == "*");
        let glob = s.len() == 2 && s[1] == "*";
        if std && (effect || glob) {
            found.push((s.join("::"), p.line));
        }
        if s[0] == "crate" && s.get(1).is_some_and(|m| EFFECTFUL.contains(&m.as_str())) {
            found.push((s.join("::"), p.line));
        }
    }
    found
}

/// The module path of a file under src/: `passes/patch.rs` is `["passes", "patch"]`, and a
/// `mod.rs` is its folder.
fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every `.rs` file under `dir` but `tests.rs` files: its path under src/ and its code.
fn shipped_files(dir: &Path, out: &mut Vec<(String, Code)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            shipped_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let rel = path
                .strip_prefix("src")
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, Code::read(&text)));
        }
    }
}

fn files_under(dirs: &[&str]) -> Vec<(String, Code)> {
    let mut files = Vec::new();
    for dir in dirs {
        shipped_files(Path::new(dir), &mut files);
    }
    files
}

/// One line per finding: `src/<file>:<line>: <what>`.
fn report(files: &[(String, Code)], check: impl Fn(&Code) -> Vec<(String, usize)>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, code) in files {
        for (what, line) in check(code) {
            wrong.push(format!("src/{file}:{line}: {what}"));
        }
    }
    wrong
}

#[test]
fn no_module_imports_a_higher_layer() {
    let mut wrong = Vec::new();
    for (file, code) in files_under(&["src"]) {
        let path = module_path(&file);
        let module = path[0].as_str();
        if module == "cli" || module == "main" || module == "lib" {
            continue;
        }
        let Some(own) = layer(module) else {
            wrong.push(format!("src/{module}: not in the layer table"));
            continue;
        };
        for (used, line) in code.modules_used(&path) {
            if used == module {
                continue;
            }
            match layer(&used) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!(
                    "src/{file}:{line} (layer {own}) uses crate::{used} (layer {l})"
                )),
                None => wrong.push(format!(
                    "src/{file}:{line} uses crate::{used}, which is not a layered module (use its own path, not a re-export)"
                )),
            }
        }
    }
    wrong.dedup();
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

#[test]
fn the_binary_uses_only_the_public_api() {
    let wrong: Vec<String> = files_under(&["src/cli"])
        .iter()
        .flat_map(|(file, code)| {
            code.modules_used(&module_path(file))
                .into_iter()
                .filter(|(m, _)| m != "cli")
                .map(move |(m, line)| format!("src/{file}:{line}: crate::{m}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the binary reaches into crate internals:\n{}",
        wrong.join("\n")
    );
}

/// Invariant 1 of notes/architecture.md: passes, policies, trees and the DFA search see only
/// the driver's narrow API (no evaluator, no oracle, no accepting bytes they judged
/// themselves).
#[test]
fn passes_see_only_the_driver() {
    let wrong = report(&files_under(PROPOSERS), reaches_past_the_driver);
    assert!(
        wrong.is_empty(),
        "reach past the driver:\n{}",
        wrong.join("\n")
    );
}

/// Invariant 1 of notes/architecture.md: passes, policies, trees and the DFA search never
/// touch files or start processes.
#[test]
fn passes_touch_no_files_and_start_no_process() {
    let wrong = report(&files_under(PROPOSERS), touches_the_world);
    assert!(
        wrong.is_empty(),
        "touch files or processes:\n{}",
        wrong.join("\n")
    );
}

/// Only the evaluator runs the test: no code outside src/eval/ calls `Oracle::test` (the
/// trait's own default in src/oracle.rs aside), the reduction's re-runs and the binary
/// included.
#[test]
fn only_the_evaluator_calls_the_oracle() {
    let files: Vec<(String, Code)> = files_under(&["src"])
        .into_iter()
        .filter(|(file, _)| !file.starts_with("eval/") && file != "oracle.rs")
        .collect();
    let wrong = report(&files, calls_oracle);
    assert!(wrong.is_empty(), "call the oracle:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_what_it_must() {
    let names = |found: Vec<(String, usize)>| -> Vec<String> {
        found.into_iter().map(|(n, _)| n).collect()
    };
    let top = module_path("reduction.rs");
    let inner = module_path("passes/patch.rs");
    let used =
        |code: &str, path: &[String]| -> Vec<String> { names(Code::read(code).modules_used(path)) };
    assert_eq!(
        used(
            "use crate::{eval::Evaluator, units::Units};\nuse crate::report::Stop;\n",
            &top
        ),
        ["eval", "units", "report"]
    );
    assert_eq!(
        used("fn f() { crate::idset::IdSet::new(); }", &top),
        ["idset"]
    );
    assert_eq!(
        used("macro_rules! m { () => { $crate::lex::x() } }", &top),
        ["lex"]
    );
    assert_eq!(used("use super::eval::Rerun;", &top), ["eval"]);
    assert_eq!(used("use super::structure::X;", &inner), ["passes"]);
    assert_eq!(
        used("use super::super::{driver::D, units};", &inner),
        ["driver", "units"]
    );
    // Comments, doc comments, strings and test items do not count.
    assert!(
        used(
            "// crate::x\n/// [`crate::y`]\nfn f() { \"crate::z\"; }",
            &top
        )
        .is_empty()
    );
    assert!(used("#[cfg(test)]\nmod t {\nuse crate::y;\n}\n", &top).is_empty());
    assert!(used("#[cfg(test)]\nuse crate::{a, b};\nfn f() {}", &top).is_empty());
    assert!(used("#![cfg(test)]\nuse crate::y;\n", &top).is_empty());
    assert_eq!(used("#[cfg(not(test))]\nuse crate::y;\n", &top), ["y"]);
    assert_eq!(module_path("eval/mod.rs"), ["eval"]);

    let oracle = |code: &str| names(calls_oracle(&Code::read(code)));
    assert_eq!(oracle("let v = oracle.test(&b, &c);"), ["test"]);
    assert_eq!(oracle("let v = <dyn Oracle>::test(o, &b, &c);"), ["test"]);
    assert_eq!(
        oracle("let v = Oracle::test_verbose(o, &b, &c);"),
        ["test_verbose"]
    );
    assert_eq!(
        oracle("use crate::oracle::Oracle as O; O::test(o, &b, &c);"),
        ["test"]
    );
    assert_eq!(oracle("let v = o.test::<B>(&b, &c);"), ["test"]);
    assert!(oracle("eval.tested(&b); fn test() {} // o.test(x)").is_empty());
    assert!(oracle("let t = &args.test; f(args.test)").is_empty());

    let past = |code: &str| names(reaches_past_the_driver(&Code::read(code)));
    assert_eq!(past("driver.evaluator().cached(b)"), ["evaluator"]);
    assert_eq!(past("Driver::evaluator(d).cached(b)"), ["evaluator"]);
    assert_eq!(past("<Driver>::evaluator(&mut d)"), ["evaluator"]);
    assert_eq!(past("driver.accept_tested(b)"), ["accept_tested"]);
    assert!(past("driver.cached(b); let s = \"x.evaluator()\";").is_empty());

    let world = |code: &str| names(touches_the_world(&Code::read(code)));
    assert_eq!(world("std::fs::write(p, b)"), ["std::fs::write"]);
    assert_eq!(world("::std::process::exit(1)"), ["std::process::exit"]);
    assert_eq!(world("use std::fs;"), ["std::fs"]);
    assert_eq!(
        world("use std::{fs::write as put, io};\nfn f() { put(p, b); }"),
        ["std::fs::write", "std::fs::write"]
    );
    assert_eq!(
        world("use std as s;\nfn f() { s::fs::remove_file(p); }"),
        ["std", "std::fs::remove_file"][1..]
    );
    assert_eq!(
        world("use std::os::unix::fs::symlink;"),
        ["std::os::unix::fs::symlink"]
    );
    assert_eq!(world("use std::*;"), ["std::*"]);
    assert_eq!(world("let c = Command::new(\"sh\");"), ["Command"]);
    assert_eq!(world("use crate::command::run;"), ["crate::command::run"]);
    assert!(world("use std::collections::BTreeMap; let s = \"std::fs\";").is_empty());
}

/// Where `code` adds to or sets `oracle_runs` (`x.oracle_runs += n`, `.oracle_runs = n`).
fn counts_runs(code: &Code) -> Vec<(String, usize)> {
    let t = &code.tokens;
    (1..t.len().saturating_sub(1))
        .filter(|&k| {
            t[k].token == Token::Ident("oracle_runs".into())
                && t[k - 1].token == Token::Punct('.')
                && matches!(t[k + 1].token, Token::Punct('=' | '+' | '-' | '*' | '|'))
        })
        .map(|k| ("oracle_runs".to_string(), t[k].line))
        .collect()
}

/// The runs of the test are counted in one place, where a finished run arrives in the
/// evaluator's pool: nothing sets `oracle_runs` by hand, and in src/eval/ only the pool starts
/// a thread for a test.
#[test]
fn the_runs_of_the_test_are_counted_in_the_pool() {
    let everywhere = files_under(&["src"]);
    let mut wrong = report(&everywhere, counts_runs);
    let eval: Vec<(String, Code)> = files_under(&["src/eval"])
        .into_iter()
        .filter(|(file, _)| file != "eval/pool.rs")
        .collect();
    wrong.extend(report(&eval, |code| code.members_named(&["spawn"])));
    assert!(
        wrong.is_empty(),
        "runs of the test counted or started outside the pool:\n{}",
        wrong.join("\n")
    );
    let code =
        Code::read("self.stats.oracle_runs += runs; s.oracle_runs = 3; let r = s.oracle_runs;");
    assert_eq!(counts_runs(&code).len(), 2);
}
