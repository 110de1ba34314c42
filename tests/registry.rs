//! The one registry of names, and the places that repeat them for readers: `--list-passes`,
//! the README and notes/schedule.md must list exactly the registry's passes and strategies.

use std::process::Command;

/// The backticked words of the first README paragraph that starts with `opening`.
fn backticked_after(text: &str, opening: &str) -> Vec<String> {
    let start = text
        .find(opening)
        .unwrap_or_else(|| panic!("no paragraph starting with {opening:?}"));
    let paragraph = text[start + opening.len()..]
        .split("\n\n")
        .next()
        .unwrap_or_default();
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn registry() -> Vec<String> {
    myhill::strategy::pass_descriptions()
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn list_passes_prints_every_registered_pass_and_strategy() {
    let out = Command::new(env!("CARGO_BIN_EXE_myhill"))
        .arg("--list-passes")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut sections = text.split("\n\n");
    let passes: Vec<String> = sections
        .next()
        .unwrap()
        .lines()
        .skip(1)
        // A wrapped entry goes on under its text's column: its name starts the first line.
        .filter(|l| !l.starts_with("   "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(passes, registry());
    let strategies: Vec<String> = sections
        .next()
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("   "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let names: Vec<&str> = myhill::strategy::STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(strategies, names);
}

#[test]
fn the_readme_lists_every_pass_and_strategy() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert_eq!(
        backticked_after(&readme, "Every pass, by the name "),
        ["--passes", "--skip-pass", "myhill --list-passes"]
            .into_iter()
            .map(String::from)
            .chain(registry())
            .collect::<Vec<_>>(),
        "README.md: the paragraph of pass names"
    );
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `--strategy NAME` |"))
        .expect("the --strategy row");
    let cell = row.split('|').nth(2).unwrap();
    let listed: Vec<&str> = cell
        .split(':')
        .next()
        .unwrap()
        .split('`')
        .skip(1)
        .step_by(2)
        .collect();
    let names: Vec<&str> = myhill::strategy::STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(listed, names, "README.md: the --strategy row");
}

#[test]
fn the_schedule_note_lists_the_default_schedule_in_order() {
    let note = std::fs::read_to_string("notes/schedule.md").unwrap();
    let table: Vec<String> = note
        .lines()
        .skip_while(|l| !l.starts_with("| # | pass |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(2).unwrap().trim().to_string())
        .collect();
    let schedule = myhill::Strategy::named("default").unwrap().schedule();
    assert_eq!(
        table,
        schedule.names(),
        "notes/schedule.md: the default schedule's table"
    );
    let known = registry();
    assert!(table.iter().all(|name| known.contains(name)));
}
