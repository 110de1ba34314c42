//! What kind of input a run reduces: decided once, from the original, and kept for the whole run.
//!
//! Main types: [`Kind`] (a language or a family of data: C, Python, JSON, one record a line,
//! binary...) and [`Decided`] (a kind with what decided it: the file name's extension, the
//! content, or the user's `--kind`). The schedule's gates ask the kind whether a pass fits
//! ([`Kind::is_statement_code`], [`Kind::is_line_records`]); they never measure how dense a
//! token is in the current best, which changes as the best shrinks: a C file whose bodies have
//! all been emptied is still C.
//!
//! ```
//! use myhill::text::{Decided, DecidedBy, Kind};
//! let c = Decided::of(Some("bug.c"), b"static char\nh(){}\n");
//! assert_eq!((c.kind, c.by), (Kind::C, DecidedBy::Extension));
//! assert!(c.kind.is_statement_code());
//! let unnamed = Decided::of(None, b"int main() {\n  f();\n  return 0;\n}\n");
//! assert_eq!((unnamed.kind, unnamed.by), (Kind::Statements, DecidedBy::Content));
//! assert_eq!(Kind::named("c++"), Some(Kind::Cpp));
//! ```
//!
//! Limits: the extension list holds the common languages and formats only; the content rules
//! are heuristics on bytes (statement code is told by its `;` and `{}`, not parsed).

use crate::lex::{Bracket, Class, bracket_scan, lexemes};

macro_rules! kinds {
    ($($(#[$attr:meta])* $variant:ident = $name:literal, $what:literal, [$($ext:literal),*];)*) => {
        /// A kind of input; see the module doc.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum Kind {
            $(#[doc = $what] $(#[$attr])* $variant,)*
        }

        impl Kind {
            /// Every kind, in the order `--kind` lists them.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The kind's name, as `--kind` takes it and the summary shows it.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$variant => $name,)* }
            }

            /// What the kind is, in a few words.
            pub fn describe(self) -> &'static str {
                match self { $(Kind::$variant => $what,)* }
            }

            /// The kind a file name's extension (without the dot, any case) names.
            pub fn of_extension(ext: &str) -> Option<Kind> {
                let ext = ext.to_ascii_lowercase();
                let ext = ext.as_str();
                $(if [$($ext),*].contains(&ext) {
                    return Some(Kind::$variant);
                })*
                None
            }
        }
    };
}

kinds! {
    C = "c", "C source", ["c", "h", "i"];
    Cpp = "c++", "C++ source", ["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "ii", "ipp", "tcc"];
    Java = "java", "Java source", ["java"];
    CSharp = "c#", "C# source", ["cs"];
    JavaScript = "javascript", "JavaScript source", ["js", "mjs", "cjs", "jsx"];
    TypeScript = "typescript", "TypeScript source", ["ts", "tsx", "mts", "cts"];
    Rust = "rust", "Rust source", ["rs"];
    Go = "go", "Go source", ["go"];
    Swift = "swift", "Swift source", ["swift"];
    Kotlin = "kotlin", "Kotlin source", ["kt", "kts"];
    Scala = "scala", "Scala source", ["scala"];
    ObjectiveC = "objective-c", "Objective-C source", ["m", "mm"];
    Css = "css", "CSS style sheet", ["css", "scss", "less"];
    Python = "python", "Python source", ["py", "pyi", "pyw"];
    Ruby = "ruby", "Ruby source", ["rb"];
    Shell = "shell", "shell script", ["sh", "bash", "zsh"];
    Lisp = "lisp", "S-expressions", ["lisp", "el", "scm", "clj", "cljs", "edn", "sexp", "rkt", "smt2"];
    Json = "json", "JSON data", ["json", "jsonl", "geojson"];
    Xml = "xml", "XML markup", ["xml", "svg", "xsd", "xsl", "xhtml", "plist"];
    Html = "html", "HTML markup", ["html", "htm"];
    Yaml = "yaml", "YAML data", ["yaml", "yml", "toml", "ini"];
    Statements = "statements", "statement code of no known language (`;` and `{}`)", [];
    Records = "records", "one record a line (a log, a table)", ["log", "csv", "tsv"];
    #[default]
    Text = "text", "text", ["txt", "md", "rst"];
    Binary = "binary", "binary data", ["bin", "dat", "o", "so", "a", "gz", "zip", "png", "jpg", "pdf", "wasm", "elf"];
}

/// What decided a [`Kind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DecidedBy {
    /// The file name's extension.
    Extension,
    /// The original's content (no known extension, or no name).
    #[default]
    Content,
    /// The user's `--kind`.
    Option,
}

impl DecidedBy {
    /// How the summary and the stats file name it.
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Extension => "extension",
            DecidedBy::Content => "content",
            DecidedBy::Option => "--kind",
        }
    }
}

/// A [`Kind`] and what decided it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Decided {
    /// The kind.
    pub kind: Kind,
    /// What decided it.
    pub by: DecidedBy,
}

impl Decided {
    /// The kind of an input named `name` (a path or a file name; `None` for an input without
    /// one) whose original content is `original`: the extension's kind if the name has a
    /// known one, else the content's.
    pub fn of(name: Option<&str>, original: &[u8]) -> Decided {
        let ext = name
            .and_then(|n| n.rsplit('/').next())
            .and_then(|file| file.rsplit_once('.'))
            .map(|(_, ext)| ext)
            .and_then(Kind::of_extension);
        match ext {
            Some(kind) => Decided {
                kind,
                by: DecidedBy::Extension,
            },
            None => Decided {
                kind: Kind::of_content(original),
                by: DecidedBy::Content,
            },
        }
    }

    /// The kind the user named with `--kind`.
    pub fn chosen(kind: Kind) -> Decided {
        Decided {
            kind,
            by: DecidedBy::Option,
        }
    }

    /// How the summary says it, e.g. `c (from the extension)`.
    pub fn describe(self) -> String {
        format!("{} (from the {})", self.kind.name(), self.by.name())
    }
}

impl Kind {
    /// The kind called `name` (as [`Kind::name`] gives it, any case; a few common other
    /// spellings too: `cpp`, `js`, `ts`, `py`, `sh`).
    pub fn named(name: &str) -> Option<Kind> {
        let name = name.to_ascii_lowercase();
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .or_else(|| match name.as_str() {
                "cpp" | "cxx" => Some(Kind::Cpp),
                "csharp" => Some(Kind::CSharp),
                "log" | "csv" => Some(Kind::Records),
                _ => Kind::of_extension(&name),
            })
    }

    /// The kind of a content without a name: binary, then statement code, one record a line,
    /// JSON, markup, S-expressions, and plain text for the rest.
    pub fn of_content(input: &[u8]) -> Kind {
        if !is_text(input) {
            return Kind::Binary;
        }
        if is_statement_code(input) {
            return Kind::Statements;
        }
        let shape = BracketShape::of(input);
        let lines = input.iter().filter(|&&b| b == b'\n').count() + 1;
        if shape.groups > 0 && !shape.across_lines && lines >= LINE_RECORDS_MIN_LINES {
            return Kind::Records;
        }
        let first = input.iter().copied().find(|b| !b.is_ascii_whitespace());
        let tagged = input.windows(2).any(|w| w == b"</" || w == b"/>");
        match first {
            Some(b'{' | b'[') if shape.groups > 0 => Kind::Json,
            Some(b'<') if tagged => Kind::Xml,
            Some(b'(' | b';') if shape.groups > 0 => Kind::Lisp,
            _ => Kind::Text,
        }
    }

    /// Whether the kind is statement code: a language of `;`-ended statements and `{}` blocks,
    /// where a line is a statement or a declaration and comments, spaces and dead declarations
    /// go first (the statement-code passes of the default schedule).
    pub fn is_statement_code(self) -> bool {
        matches!(
            self,
            Kind::C
                | Kind::Cpp
                | Kind::Java
                | Kind::CSharp
                | Kind::JavaScript
                | Kind::TypeScript
                | Kind::Rust
                | Kind::Go
                | Kind::Swift
                | Kind::Kotlin
                | Kind::Scala
                | Kind::ObjectiveC
                | Kind::Css
                | Kind::Statements
        )
    }

    /// Whether the kind's functions state their result type before their name and may return
    /// `void` (the C family; statement code of no known language is taken for it): a
    /// function's type can become `void` with its `return` statements.
    pub fn has_void_functions(self) -> bool {
        matches!(
            self,
            Kind::C | Kind::Cpp | Kind::Java | Kind::CSharp | Kind::ObjectiveC | Kind::Statements
        )
    }

    /// Whether the kind is one record a line: runs of lines go by binary splitting before the
    /// tree, which would spend a test a line.
    pub fn is_line_records(self) -> bool {
        self == Kind::Records
    }
}

/// Whether `input` is text: valid UTF-8 without NUL bytes.
pub fn is_text(input: &[u8]) -> bool {
    !input.contains(&0) && std::str::from_utf8(input).is_ok()
}

/// The most lines per `;` that statement code has: C and C++ sources have one `;` per two or
/// three lines; JSON, XML, Python and S-expressions have almost none (a few entities or
/// comment markers). Read once, on an original without a known extension.
pub const LINES_PER_STATEMENT: usize = 8;

/// Whether `input` (text) reads as statement code: a `{}` group and at least one `;` per
/// [`LINES_PER_STATEMENT`] lines, outside comments and literals.
fn is_statement_code(input: &[u8]) -> bool {
    let (mut semicolons, mut braces) = (0, 0);
    for lexeme in lexemes(input) {
        match lexeme.class {
            Class::Punct(b';') => semicolons += 1,
            Class::Punct(b'{') => braces += 1,
            _ => {}
        }
    }
    let lines = input.iter().filter(|&&b| b == b'\n').count() + 1;
    braces > 0 && semicolons > 0 && semicolons * LINES_PER_STATEMENT >= lines
}

/// The fewest lines of text whose bracket groups all close on the line they open for it to
/// be read as one record a line.
pub const LINE_RECORDS_MIN_LINES: usize = 8;

/// The brackets of a text, outside comments and literals, paired as the nesting pairs them
/// ([`bracket_scan`]), read once to tell its kind.
struct BracketShape {
    /// Top-level groups that closed.
    groups: usize,
    /// Whether a top-level group spans a line break.
    across_lines: bool,
}

impl BracketShape {
    fn of(input: &[u8]) -> BracketShape {
        let mut shape = BracketShape {
            groups: 0,
            across_lines: false,
        };
        for (lexeme, bracket, open) in bracket_scan(input) {
            match bracket {
                Bracket::Close(_) => shape.groups += usize::from(open == 0),
                Bracket::Other if open > 0 && input[lexeme.start..lexeme.end].contains(&b'\n') => {
                    shape.across_lines = true;
                }
                _ => {}
            }
        }
        shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_decides_before_the_content() {
        // An emptied C file has almost no `;` left: it is C all the same.
        let emptied = b"static char\nh()\n{\n}\n\nstatic int\ng()\n{\n}\n\n\n\n\n\n";
        assert_eq!(Kind::of_content(emptied), Kind::Text);
        let c = Decided::of(Some("dir/t.c"), emptied);
        assert_eq!((c.kind, c.by), (Kind::C, DecidedBy::Extension));
        assert!(c.kind.is_statement_code());
        assert_eq!(Decided::of(Some("a.PY"), b"x;y;{}").kind, Kind::Python);
        assert_eq!(Decided::of(Some("a.weird"), b"\0\x01").kind, Kind::Binary);
        assert_eq!(Decided::of(Some("Makefile"), b"all:\n").kind, Kind::Text);
        assert_eq!(
            Decided::of(Some("dir.d/x"), b"all:\n").by,
            DecidedBy::Content
        );
    }

    #[test]
    fn the_content_tells_code_data_markup_records_and_bytes() {
        let code: [&[u8]; 4] = [
            b"#include <cstdio>\nint main() {\n    std::puts(\"hi\");\n    return 0;\n}\n",
            b"static int f(int x)\n{\n\n\n    if (x)\n        return 1;\n\n\n    return 0;\n}\n",
            b"body { margin: 0; padding: 0 }\n",
            b"class A { int f() { return 1; } }",
        ];
        for input in code {
            assert_eq!(Kind::of_content(input), Kind::Statements);
        }
        let line = |k: usize| format!("12:00:{k:02} INFO [pool-{k}] txn={k} open (user=a)\n");
        let log: String = (0..20).map(line).collect();
        let others: [(&[u8], Kind); 6] = [
            (b"{\"a\": [1, 2], \"b\": {\"c\": null}}", Kind::Json),
            (b"<doc>&amp; &lt;</doc>", Kind::Xml),
            (b"def f(x):\n    return {x: 1}\n", Kind::Text),
            (b"(define (f x) ; a comment\n  (+ x 1))\n", Kind::Lisp),
            (log.as_bytes(), Kind::Records),
            (b"\x00\xde\xad", Kind::Binary),
        ];
        for (input, kind) in others {
            assert_eq!(Kind::of_content(input), kind, "{}", input.escape_ascii());
        }
    }

    #[test]
    fn every_kind_is_found_by_its_name() {
        for &kind in Kind::ALL {
            assert_eq!(Kind::named(kind.name()), Some(kind));
        }
        assert_eq!(Kind::named("CPP"), Some(Kind::Cpp));
        assert_eq!(Kind::named("js"), Some(Kind::JavaScript));
        assert_eq!(Kind::named("py"), Some(Kind::Python));
        assert_eq!(Kind::named("cobol"), None);
    }
}
