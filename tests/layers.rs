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
    ("driver", 10),
    ("certify", 8),
    ("bisect", 10),
    ("schedule", 11),
    ("passes", 12),
    ("strategy", 13),
    ("reduction", 14),
    ("run_dir", 15),
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

/// The top-level modules `code` names through `crate::`.
fn imports(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push(name);
            }
        } else {
            found.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    found
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
        for used in imports(&code) {
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
}
