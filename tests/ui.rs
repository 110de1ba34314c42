//! What a person or a script reads: the stats file against its schema on every exit, piped
//! progress lines, help, completions and the man page.

mod common;

use common::{Case, json};
use serde_json::Value;

/// The checks of JSON Schema that notes/stats-schema.json uses; every failure, by path.
fn validate(schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let fail = |errors: &mut Vec<String>, what: String| errors.push(format!("{at}: {what}"));
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type in the schema at {at}"),
        };
        let is = |t: &str| match t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            "integer" => value.is_u64() || value.is_i64(),
            "number" => value.is_number(),
            _ => panic!("type {t} unknown to this validator"),
        };
        if !types.iter().any(|t| is(t)) {
            fail(errors, format!("{value} is not {types:?}"));
            return;
        }
    }
    if let Some(c) = schema.get("const")
        && c != value
    {
        fail(errors, format!("{value} is not {c}"));
    }
    if let Some(Value::Array(options)) = schema.get("enum")
        && !options.contains(value)
    {
        fail(errors, format!("{value} is not one of {options:?}"));
    }
    if let (Some(min), Some(v)) = (
        schema.get("minimum").and_then(Value::as_f64),
        value.as_f64(),
    ) && v < min
    {
        fail(errors, format!("{v} < {min}"));
    }
    if let (Some(max), Some(v)) = (
        schema.get("maximum").and_then(Value::as_f64),
        value.as_f64(),
    ) && v > max
    {
        fail(errors, format!("{v} > {max}"));
    }
    if let Value::Object(object) = value {
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap();
            if !object.contains_key(name) {
                fail(errors, format!("lacks {name}"));
            }
        }
        for (name, v) in object {
            let path = format!("{at}.{name}");
            match (
                properties.and_then(|p| p.get(name)),
                schema.get("additionalProperties"),
            ) {
                (Some(s), _) => validate(s, v, &path, errors),
                (None, Some(Value::Bool(false))) => fail(errors, format!("unexpected {name}")),
                (None, Some(s)) if s.is_object() => validate(s, v, &path, errors),
                _ => {}
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items")) {
        for (k, item) in items.iter().enumerate() {
            validate(s, item, &format!("{at}[{k}]"), errors);
        }
    }
}

fn schema() -> Value {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("notes/stats-schema.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Checks the stats file against the schema and returns it.
fn valid_stats(case: &Case, name: &str) -> Value {
    let stats = json(&case.path(name));
    let mut errors = Vec::new();
    validate(&schema(), &stats, "$", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\nin {stats:#}");
    stats
}

#[test]
fn the_stats_file_matches_its_schema_on_every_exit() {
    let case = Case::new();
    case.file("in.txt", b"a\nb\nBUG\nc\nd\n");
    case.script("t.sh", "grep -q BUG \"$1\"");

    // Exit 0, with the size trace and the passes.
    let out = case.run(&["reduce", "--stats-json", "ok.json", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stats = valid_stats(&case, "ok.json");
    assert_eq!(stats["ended"], "done");
    assert_eq!(stats["exit_code"], 0);
    assert_eq!(stats["schema_version"], 1);
    assert_eq!(stats["strategy"], "default");
    assert_eq!(stats["output"], "in.txt");
    assert_eq!(stats["backup"], "in.txt.orig");
    assert_eq!(stats["trace"][0]["bytes"], 12);
    assert_eq!(
        stats["trace"].as_array().unwrap().last().unwrap()["bytes"],
        3
    );
    assert!(stats["command_line"][1] == "reduce");
    assert!(!stats["passes"].as_array().unwrap().is_empty());

    // Exit 3: the original is not interesting; the first check's runs are counted.
    case.file("clean.txt", b"nothing to see\n");
    let out = case.run(&["reduce", "--stats-json", "3.json", "./t.sh", "clean.txt"]);
    assert_eq!(out.status.code(), Some(3));
    let stats = valid_stats(&case, "3.json");
    assert_eq!(stats["ended"], "not_interesting");
    assert_eq!(stats["exit_code"], 3);
    assert_eq!(stats["tests_run"], 2);
    assert_eq!(stats["first_check_runs"], 2);
    assert_eq!(stats["initial_bytes"], 15);
    assert_eq!(stats["output"], Value::Null);
    assert!(
        stats["message"]
            .as_str()
            .unwrap()
            .contains("not interesting")
    );

    // Exit 4: a flaky test.
    case.script(
        "flaky.sh",
        "n=$(cat \"$0.count\" 2>/dev/null || echo 0); echo $((n+1)) > \"$0.count\"; [ $((n % 2)) = 0 ]",
    );
    let flaky = case.path("flaky.sh");
    // One job: the first check's runs, at once with more, would both read the same count.
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--stats-json",
        "4.json",
        flaky.to_str().unwrap(),
        "in.txt",
    ]);
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    assert_eq!(valid_stats(&case, "4.json")["ended"], "flaky");

    // Exit 2 after the input is read: the test cannot run.
    let out = case.run(&["reduce", "--stats-json", "2.json", "./missing.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let stats = valid_stats(&case, "2.json");
    assert_eq!(stats["ended"], "setup_error");
    assert_eq!(stats["initial_bytes"], Value::Null);

    // Exit 5: a test that accepts anything.
    case.file("any.txt", b"abc\n");
    let out = case.run(&["reduce", "--stats-json", "5.json", "true", "any.txt"]);
    assert_eq!(out.status.code(), Some(5));
    assert_eq!(valid_stats(&case, "5.json")["ended"], "trivial");

    // Exit 0 with the budget used up: counts stay integers.
    std::fs::copy(case.path("in.txt.orig"), case.path("again.txt")).unwrap();
    let out = case.run(&[
        "reduce",
        "--max-tests",
        "5",
        "--stats-json",
        "budget.json",
        "./t.sh",
        "again.txt",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stats = valid_stats(&case, "budget.json");
    assert_eq!(stats["ended"], "budget");
    assert_eq!(stats["max_tests"], 5);
}

#[test]
fn the_readme_documents_every_field_of_the_stats_file() {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let section = &readme[readme.find("## The stats file").expect("a README section")..];
    for name in schema()["properties"].as_object().unwrap().keys() {
        assert!(
            section.contains(&format!("`{name}`")),
            "the README's stats section lacks {name}"
        );
    }
}

#[test]
fn piped_progress_is_one_stamped_line_per_improvement() {
    let case = Case::new();
    case.file("in.txt", b"a\nb\nBUG\nc\nd\n");
    case.script("t.sh", "grep -q BUG \"$1\"");
    let out = case.run(&["reduce", "--passes", "ddmin/lines", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains(" -> ")).collect();
    assert!(!lines.is_empty(), "{err}");
    // A stamp (h:mm:ss) after the name, and no terminal control codes when piped.
    assert!(lines[0].starts_with("myhill: [0:00:0"), "{err}");
    assert!(lines[0].contains("pass ddmin/lines"), "{err}");
    assert!(!err.contains('\x1b'), "{err}");
}

fn help(args: &[&str]) -> String {
    let out = std::process::Command::new(common::bin())
        .args(args)
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn help_is_wrapped_grouped_and_worded_per_subcommand() {
    for sub in ["reduce", "check", "compare", "bisect", "completions", "man"] {
        for flag in ["-h", "--help"] {
            let text = help(&[sub, flag]);
            let long: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
            assert!(
                long.is_empty(),
                "{sub} {flag}: lines over 80 columns: {long:#?}"
            );
            // Words are separated by one space, not by runs of a source file's indentation.
            for line in text.lines() {
                let inner = line.trim_start();
                assert!(
                    !inner.contains("         ") || inner.starts_with('-'),
                    "{sub} {flag}: a run of spaces in {line:?}"
                );
            }
        }
    }
    let reduce = help(&["reduce", "--help"]);
    for heading in [
        "Running the test:",
        "What counts as interesting:",
        "Output:",
        "Choosing passes:",
        "Limits:",
    ] {
        assert!(reduce.contains(heading), "{heading} missing:\n{reduce}");
    }
    assert!(reduce.contains("The file or directory to reduce"));
    assert!(!reduce.contains("--seed"), "--seed did nothing and is gone");
    let check = help(&["check", "--help"]);
    assert!(check.contains("<FILE>") && check.contains("The file to certify"));
    assert!(!check.contains("to reduce (or check)"));
    assert!(help(&["compare", "--help"]).contains("The file every strategy starts from"));
}

#[test]
fn completions_and_the_manual_page_come_from_the_definitions() {
    let bash = help(&["completions", "bash"]);
    assert!(
        bash.contains("_myhill") && bash.contains("--stats-json"),
        "{bash}"
    );
    let zsh = help(&["completions", "zsh"]);
    assert!(zsh.contains("#compdef myhill"), "{zsh}");
    let man = help(&["man"]);
    assert!(
        man.starts_with(".ie") || man.contains(".TH myhill"),
        "{man}"
    );
    assert!(man.contains("myhill\\-reduce(1)"), "{man}");
    let reduce = help(&["man", "reduce"]);
    assert!(reduce.contains(".TH myhill-reduce"), "{reduce}");
    assert!(reduce.contains("stats\\-json"), "{reduce}");
}

/// Bash completion offers the names an option takes, `--list-passes` fits 80 columns even
/// piped, and bisect's wording ("bad") stays in bisect's help.
#[test]
fn completion_offers_names_the_pass_list_fits_80_columns_and_help_speaks_per_command() {
    let bash = help(&["completions", "bash"]);
    let offered = |option: &str| -> Vec<String> {
        let at = bash
            .find(&format!("{option})"))
            .unwrap_or_else(|| panic!("{option} has no case in the bash script"));
        let line = bash[at..].lines().nth(1).unwrap_or_default();
        assert!(line.contains("compgen -W"), "{option}: {line}");
        let words = line.split('"').nth(1).unwrap_or_default();
        words.split_whitespace().map(String::from).collect()
    };
    assert_eq!(offered("--units"), ["bytes", "lines", "tokens"]);
    assert_eq!(offered("--input-mode"), ["arg", "stdin", "file", "all"]);
    for name in ["default", "classic", "ddmin"] {
        assert!(offered("--strategy").iter().any(|n| n == name), "{name}");
    }
    for option in ["--passes", "--skip-pass"] {
        let names = offered(option);
        for pass in ["ddmin/lines", "split/tokens", "squeeze/whitespace"] {
            assert!(
                names.iter().any(|n| n == pass),
                "{option}: {pass} in {names:?}"
            );
        }
    }

    let list = help(&["--list-passes"]);
    let long: Vec<&str> = list.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(long.is_empty(), "lines over 80 columns: {long:#?}");
    assert!(
        list.lines().any(|l| l.starts_with("  ddmin/lines ")),
        "{list}"
    );

    for sub in ["reduce", "check", "compare"] {
        let text = help(&[sub, "--help"]);
        assert!(!text.contains("bisect"), "{sub}: {text}");
        assert!(!text.contains("as bad"), "{sub}: {text}");
        assert!(text.contains("counts as interesting"), "{sub}: {text}");
    }
    let bisect = help(&["bisect", "--help"]);
    assert!(bisect.contains("What counts as bad"), "{bisect}");
    assert!(!bisect.contains("counts as interesting"), "{bisect}");
}

/// The summary lists the passes that ran a test, says how many did not, and keeps the
/// passes' counters for -v.
#[test]
fn the_summary_shows_the_passes_that_ran_and_counters_only_with_verbose() {
    let case = Case::new();
    let input: String = (0..30).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", "grep -q '^line 7$' \"$1\"");
    let run = |extra: &[&str]| {
        let mut args = vec!["reduce", "-j", "1", "--no-run-dir", "-o", "out"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["./t.sh", "in.txt"]);
        let out = case.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
        common::stderr(&out)
    };
    let table = |text: &str| -> Vec<(String, u64)> {
        text.lines()
            .skip_while(|l| !l.trim_start().starts_with("pass "))
            .skip(1)
            .take_while(|l| {
                l.starts_with("  ")
                    && l.split_whitespace()
                        .nth(1)
                        .is_some_and(|t| t.parse::<u64>().is_ok())
            })
            .map(|l| {
                let mut words = l.split_whitespace();
                let name = words.next().unwrap().to_string();
                (name, words.next().unwrap().parse().unwrap())
            })
            .collect()
    };
    let plain = run(&[]);
    let rows = table(&plain);
    assert!(!rows.is_empty(), "{plain}");
    assert!(rows.iter().all(|(_, tests)| *tests > 0), "{plain}");
    assert!(plain.contains("ran no test; -v lists them"), "{plain}");
    // Counters are `name: value` lines under the table; none without -v.
    let counters = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("  "))
            .filter(|l| (l.trim().split_once(": ")).is_some_and(|(key, _)| !key.contains(' ')))
            .count()
    };
    assert_eq!(counters(&plain), 0, "{plain}");
    let verbose = run(&["-v"]);
    let all = table(&verbose);
    assert!(all.len() > rows.len(), "{verbose}");
    assert!(all.iter().any(|(_, tests)| *tests == 0), "{verbose}");
    assert!(counters(&verbose) > 0, "{verbose}");
}
