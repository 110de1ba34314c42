//! The architecture, enforced: a module of the library never imports a module of a higher layer.
//!
//! The layers are those of notes/architecture.md, bottom first. Test code (`tests.rs` files and
//! everything after `#[cfg(test)]` in a file) may reach up; the code that ships may not.

use std::collections::BTreeMap;
use std::path::Path;

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

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// The code of `text` that ships: comments dropped, and each item marked `#[cfg(test)]` left
/// out (up to the brace that closes it, or its `;`).
fn shipped(text: &str) -> String {
    let mut out = String::new();
    // Inside a test item: its brace depth, and whether its body has opened.
    let mut skipping: Option<(i64, bool)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            skipping = Some((0, false));
            continue;
        }
        if let Some((depth, opened)) = skipping.as_mut() {
            for c in line.chars() {
                match c {
                    '{' => {
                        *depth += 1;
                        *opened = true;
                    }
                    '}' => *depth -= 1,
                    _ => {}
                }
            }
            if (*opened && *depth <= 0) || (!*opened && trimmed.ends_with(';')) {
                skipping = None;
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The names one path list opens with: `x` of `x::..`, and each of `{a, b::c}`.
fn heads(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => {
            let end = group.find('}').unwrap_or(group.len());
            group[..end].split(',').map(ident).collect()
        }
        None => vec![ident(rest)],
    }
}

/// The top-level modules `code` names through `crate::`.
fn imports(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        found.extend(heads(rest));
    }
    found
}

/// The top-level modules `code`, the code of the module at `path` (`["passes", "patch"]` for
/// src/passes/patch.rs, `["eval"]` for src/eval.rs or src/eval/mod.rs), names through
/// `super::`: from a top-level module, `super::x` is the crate's `x`.
fn super_imports(code: &str, path: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("super::") {
        let before = &rest[..at];
        if before.ends_with("super::")
            || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            rest = &rest[at + "super::".len()..];
            continue;
        }
        rest = &rest[at..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            up += 1;
            rest = r;
        }
        let kept = path.len().saturating_sub(up);
        if kept == 0 {
            found.extend(heads(rest));
        } else {
            found.push(path[0].clone());
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

fn modules(dir: &Path, out: &mut BTreeMap<String, Vec<(String, String)>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(&path, out);
            continue;
        }
        let rel = path
            .strip_prefix("src")
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let top = rel
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("tests.rs") {
            continue;
        }
        let code = shipped(&std::fs::read_to_string(&path).unwrap());
        let path = module_path(&rel);
        for used in imports(&code)
            .into_iter()
            .chain(super_imports(&code, &path))
        {
            out.entry(top.clone())
                .or_default()
                .push((rel.clone(), used));
        }
    }
}

#[test]
fn no_module_imports_a_higher_layer() {
    let mut uses = BTreeMap::new();
    modules(Path::new("src"), &mut uses);
    let mut wrong = Vec::new();
    for (module, list) in &uses {
        if module == "cli" || module == "main" || module == "lib" {
            continue;
        }
        let Some(own) = layer(module) else {
            wrong.push(format!("src/{module}: not in the layer table"));
            continue;
        };
        for (file, used) in list {
            if used == module {
                continue;
            }
            match layer(used) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!(
                    "src/{file} (layer {own}) uses crate::{used} (layer {l})"
                )),
                None => wrong.push(format!(
                    "src/{file} uses crate::{used}, which is not a layered module (use its own path, not a re-export)"
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

#[test]
fn the_binary_uses_only_the_public_api() {
    fn check(dir: &Path) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                check(&path);
            } else {
                let code = shipped(&std::fs::read_to_string(&path).unwrap());
                assert!(
                    !code.contains("crate::") || imports(&code).iter().all(|m| m == "cli"),
                    "{} reaches into crate internals",
                    path.display()
                );
            }
        }
    }
    check(Path::new("src/cli"));
}

#[test]
fn the_checker_sees_what_it_must() {
    let code = "use crate::{eval::Evaluator, units::Units};\nuse crate::report::Stop;\n";
    assert_eq!(imports(code), ["eval", "units", "report"]);
    assert_eq!(
        shipped("a\n// crate::x\n#[cfg(test)]\nmod t {\ncrate::y\n}\nb"),
        "a\nb\n"
    );
    assert_eq!(shipped("#[cfg(test)]\nmod tests;\nc"), "c\n");
    let top = module_path("reduction.rs");
    assert_eq!(super_imports("use super::eval::Rerun;", &top), ["eval"]);
    let inner = module_path("passes/patch.rs");
    assert_eq!(
        super_imports("use super::structure::X;", &inner),
        ["passes"]
    );
    assert_eq!(
        super_imports("use super::super::{driver::D, units};", &inner),
        ["driver", "units"]
    );
    assert_eq!(module_path("eval/mod.rs"), ["eval"]);
    assert!(calls_oracle("let v = oracle.test(&b, &c);"));
    assert!(!calls_oracle("eval.tested(&b)"));
    assert!(reaches_past_the_driver("driver.evaluator().cached(b)"));
    assert!(reaches_past_the_driver("driver.accept_tested(b)"));
    assert!(!reaches_past_the_driver("driver.cached(b)"));
}

/// Whether `code` calls the oracle's test methods.
fn calls_oracle(code: &str) -> bool {
    [".test(", ".test_verbose(", "Oracle::test"]
        .iter()
        .any(|call| code.contains(call))
}

/// Whether `code` reaches the evaluator through the driver, or accepts bytes by itself.
fn reaches_past_the_driver(code: &str) -> bool {
    [".evaluator(", "accept_tested", "Evaluator"]
        .iter()
        .any(|call| code.contains(call))
}

/// Every `.rs` file under `dir`, with its shipped code.
fn shipped_files(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            shipped_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            let code = shipped(&std::fs::read_to_string(&path).unwrap());
            out.push((path.display().to_string(), code));
        }
    }
}

/// Invariant 2 of notes/architecture.md, by the text of the code: passes, policies, trees and
/// the DFA search see only the driver's narrow API (no evaluator, no oracle, no accepting
/// bytes they judged themselves).
#[test]
fn passes_see_only_the_driver() {
    let mut files = Vec::new();
    for dir in ["src/passes", "src/policy", "src/tree", "src/dfa"] {
        shipped_files(Path::new(dir), &mut files);
    }
    let wrong: Vec<&str> = files
        .iter()
        .filter(|(_, code)| reaches_past_the_driver(code) || calls_oracle(code))
        .map(|(file, _)| file.as_str())
        .collect();
    assert!(wrong.is_empty(), "reach past the driver: {wrong:?}");
}

/// Only the evaluator runs the test: no code outside src/eval/ calls `Oracle::test` (the
/// trait's own default in src/oracle.rs aside), the reduction's re-runs included.
#[test]
fn only_the_evaluator_calls_the_oracle() {
    let mut files = Vec::new();
    shipped_files(Path::new("src"), &mut files);
    let wrong: Vec<&str> = files
        .iter()
        .filter(|(file, _)| !file.starts_with("src/eval/") && file != "src/oracle.rs")
        .filter(|(_, code)| calls_oracle(code))
        .map(|(file, _)| file.as_str())
        .collect();
    assert!(wrong.is_empty(), "call the oracle: {wrong:?}");
}
