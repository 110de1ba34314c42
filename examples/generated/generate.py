#!/usr/bin/env python3
"""Makes the generated corpus: Csmith programs and real source files, each with its test.

    examples/generated/generate.py --out DIR            # make every case, check against manifest.tsv
    examples/generated/generate.py --out DIR --only c020k-gnu-keyword,py-012k
    examples/generated/generate.py --out DIR --write-manifest   # after a deliberate change
    examples/generated/generate.py --search-seeds       # find Csmith seeds for the C programs

Each case is a folder in DIR with `input`, `interesting.sh` (exit 0 iff the file given as $1 is
interesting; one line to $ORACLE_LOG per call, and "EPOCH BYTES" to $ORACLE_LOG.curve on each
interesting verdict), `meta` (ext=, kind=, family=, bytes=) and `README`: the layout of the shared
harness's cases, so `../shared/bench/run.sh PEER DIR/CASE 1` and examples/generated/run.py take it.

The cases:
- C: four Csmith programs (csmith 2.3.0, pinned seeds) at about 5, 20, 60 and 200 KB once
  preprocessed with `gcc -E -P -I/usr/include/csmith`. The three small ones use prelude.h instead
  of csmith.h (whose expansion alone is about 80 KB) and Csmith's --no-safe-math --no-checksum;
  the 200 KB one keeps csmith.h and its safe-math wrappers. Each program comes in two layouts: GNU
  style (`clang-format -style=GNU`) and one line, and with two properties, so 16 cases. The test
  is in the manner of C-Reduce's: gcc and clang both compile the file, neither says anything that
  signals undefined behaviour (uninitialized values, missing returns, implicit int or
  declarations, pointer/integer mix-ups, division by zero, out-of-bounds, unsequenced updates,
  bad format strings ...), and the property holds: an operator, a keyword, a constant or a
  compiler warning is still there.
- Rust from ~/.cargo/registry/src (the project's dependencies, after `cargo build`), Python from
  the `pip` package in site-packages, JavaScript from `npm pack npm@11.19.1` (npm's cache),
  JSON from the `botocore` package's data: about 3, 12, 40, 130 and 400 KB (JSON: 5, 40, 300 KB),
  the file closest to each size whose test passes. The test: it still compiles or parses
  (`rustc --crate-type lib --emit=metadata`, Python's compile(), `node --check`, json.loads) and
  the last item it defines (a function, constant, class, key) is still defined.

The generator is deterministic: the same tools and caches give the same bytes. manifest.tsv
keeps each case's size, SHA-256 and source, and every run compares against it.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.tsv"
CSMITH_INCLUDE = "/usr/include/csmith"

# --- C -----------------------------------------------------------------------------------------

# For csmith.h's expansion by clang (see csmith_program): glibc's typedefs of gcc's _FloatN keywords.
GCC_FLOATN = " ".join(f"-D_Float{n}=csmith_float{n}" for n in ("32", "64", "32x", "64x", "128"))

# Warnings that signal undefined behaviour or a program no compiler should accept, as errors.
# No caret lines: on a one-line file each would repeat the whole file.
GCC_FLAGS = (
    "-std=gnu11 -c -O1 -fno-diagnostics-show-caret -Wall -Wextra -Werror=uninitialized -Werror=maybe-uninitialized "
    "-Werror=return-type -Werror=implicit-int -Werror=implicit-function-declaration "
    "-Werror=int-conversion -Werror=incompatible-pointer-types -Werror=div-by-zero "
    "-Werror=format -Werror=main -Werror=array-bounds -Werror=int-to-pointer-cast "
    "-Werror=pointer-to-int-cast -Werror=shift-count-overflow -Werror=shift-count-negative "
    "-Werror=sequence-point -Werror=builtin-declaration-mismatch"
)
CLANG_FLAGS = (
    "-std=gnu11 -c -O0 -fno-caret-diagnostics -Wall -Wextra -Werror=uninitialized -Werror=sometimes-uninitialized "
    "-Werror=return-type -Werror=implicit-int -Werror=implicit-function-declaration "
    "-Werror=int-conversion -Werror=incompatible-pointer-types -Werror=division-by-zero "
    "-Werror=format -Werror=main-return-type -Werror=array-bounds -Werror=pointer-integer-compare "
    "-Werror=shift-count-overflow -Werror=shift-count-negative -Werror=unsequenced "
    "-Werror=incompatible-library-redeclaration -Werror=excess-initializers "
    "-Werror=missing-declarations -Werror=extra-tokens"
)
# Messages without a warning flag of their own that still mean the program is broken.
REJECTED_MESSAGES = (
    "declaration does not declare anything|excess elements in|no semicolon at end|"
    "useless type name in empty declaration|assumed to have one element|"
    "comparison between pointer and integer|ordered comparison of pointer with integer|"
    "type defaults to|return with no value|return with a value|incompatible redeclaration|"
    "too few arguments|too many arguments|will always overflow|is uninitialized"
)

# Csmith options per profile; "full" keeps csmith.h (and with it the safe-math wrappers).
CSMITH_PROFILES = {
    "tiny": "--no-safe-math --no-checksum --no-argc --no-packed-struct "
    "--max-funcs 2 --max-block-size 2 --max-block-depth 2",
    "small": "--no-safe-math --no-checksum --no-argc --no-packed-struct "
    "--max-funcs 4 --max-block-size 3",
    "medium": "--no-safe-math --no-checksum --no-argc --no-packed-struct --max-funcs 8",
    "full": "--no-argc --no-packed-struct",
}

# (label, target bytes, profile, seed, properties). The seeds were found by --search-seeds: the
# first seed from `first` on whose program both layouts pass the test within 20% of the target.
C_PROGRAMS = [
    ("005k", 5_000, "tiny", 1006, ("operator", "keyword")),
    ("020k", 20_000, "small", 2000, ("keyword", "constant")),
    ("060k", 60_000, "medium", 3002, ("constant", "warning")),
    ("200k", 200_000, "full", 4000, ("warning", "operator")),
]
SEARCH_FROM = {"005k": 1000, "020k": 2000, "060k": 3000, "200k": 4000}

OPERATORS = ("<<", ">>", "^", "%")
KEYWORDS = ("goto", "continue", "break", "volatile")
# Warnings that say nothing about undefined behaviour, rarest first: (compiler, flag).
WARNINGS = (
    ("clang", "tautological-constant-out-of-range-compare"),
    ("clang", "constant-logical-operand"),
    ("gcc", "bool-compare"),
    ("clang", "parentheses-equality"),
    ("gcc", "address"),
    ("gcc", "type-limits"),
    ("clang", "compare-distinct-pointer-types"),
    ("gcc", "tautological-compare"),
    ("gcc", "sign-compare"),
    ("gcc", "overflow"),
    ("gcc", "unused-value"),
)

ORACLE_HEAD = """#!/bin/bash
# {name}: {what}
f=$1
[ -n "$f" ] || {{ echo "usage: $0 FILE" >&2; exit 2; }}
case $f in /*) ;; *) f=$PWD/$f ;; esac
if [ -n "${{ORACLE_LOG:-}}" ]; then ( flock 9; echo "$$ {name}" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
d=$(mktemp -d "${{TMPDIR:-/tmp}}/oracle-gen.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
"""
ORACLE_TAIL = """if [ -n "${ORACLE_LOG:-}" ]; then echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"; fi
exit 0
"""


def gcc_flags(profile):
    return GCC_FLAGS + (" " + GCC_FLOATN if profile == "full" else "")


def c_oracle(name, profile, prop_check, what):
    body = f"""cp "$f" "$d/t.c" && cd "$d" || exit 2
timeout 30 gcc {gcc_flags(profile)} t.c -o g.o >gcc.txt 2>&1 || exit 1
timeout 30 clang {CLANG_FLAGS} t.c -o c.o >clang.txt 2>&1 || exit 1
grep -q -E '{REJECTED_MESSAGES}' gcc.txt clang.txt && exit 1
{prop_check} || exit 1
"""
    return ORACLE_HEAD.format(name=name, what=what) + body + ORACLE_TAIL


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def csmith_program(profile, seed, workdir):
    """The preprocessed program (raw layout) for one seed."""
    # Csmith writes platform.info into its working directory.
    src = run(["csmith", "--seed", str(seed), *CSMITH_PROFILES[profile].split()], cwd=workdir).stdout
    if profile != "full":
        src = src.replace(b'#include "csmith.h"', b'#include "prelude.h"')
    path = Path(workdir) / f"p{seed}.c"
    path.write_bytes(src)
    # gcc's expansion of glibc's headers names _Float128 and takes attributes clang 14 rejects;
    # clang's expansion only typedefs names gcc keeps as keywords, which GCC_FLOATN renames.
    # The small profiles include only stdint.h, the same either way.
    cpp = "clang" if profile == "full" else "gcc"
    return run([cpp, "-E", "-P", f"-I{HERE}", f"-I{CSMITH_INCLUDE}", str(path)]).stdout


def gnu_layout(text):
    return run(["clang-format", "-style=GNU"], input=text).stdout


def one_line(text):
    # gcc -E -P leaves no directive, and Csmith puts no string or comment across lines.
    lines = [ln.strip() for ln in text.decode().splitlines()]
    return (" ".join(ln for ln in lines if ln) + "\n").encode()


def compiler_outputs(text, profile, workdir):
    t = Path(workdir) / "t.c"
    t.write_bytes(text)
    gcc = subprocess.run(
        ["gcc", *gcc_flags(profile).split(), str(t), "-o", "/dev/null"], capture_output=True
    )
    clang = subprocess.run(
        ["clang", *CLANG_FLAGS.split(), str(t), "-o", "/dev/null"], capture_output=True
    )
    return gcc, clang


def compiles_clean(text, profile, workdir):
    gcc, clang = compiler_outputs(text, profile, workdir)
    if gcc.returncode or clang.returncode:
        return None
    out = gcc.stderr.decode(errors="replace"), clang.stderr.decode(errors="replace")
    if any(re.search(REJECTED_MESSAGES, o) for o in out):
        return None
    return {"gcc": out[0], "clang": out[1]}


def choose_property(kind, text, outputs):
    """(check command, description) for one property of this program, or None."""
    s = text.decode()
    if kind == "operator":
        for op in OPERATORS:
            if op in s:
                return f"grep -q -F -e {shlex.quote(op)} t.c", f"the operator `{op}` is still there"
    if kind == "keyword":
        for kw in KEYWORDS:
            if re.search(rf"\b{kw}\b", s):
                return f"grep -q -w {kw} t.c", f"the keyword `{kw}` is still there"
    if kind == "constant":
        lits = re.findall(r"(?<![\w.])(0x[0-9A-Fa-f]{4,}[UuLl]*|[1-9][0-9]{4,}[UuLl]*)(?![\w.])", s)
        once = [lit for lit in lits if lits.count(lit) == 1]
        if once:
            lit = once[len(once) // 2]
            return f"grep -q -w -F -e {lit} t.c", f"the constant `{lit}` is still there"
    if kind == "warning" and outputs:
        for compiler, flag in WARNINGS:
            if f"[-W{flag}]" in outputs[compiler]:
                return (
                    f"grep -q -F -e '[-W{flag}]' {compiler}.txt",
                    f"{compiler} still warns [-W{flag}]",
                )
    return None


def c_cases(label, target, profile, seed, props, workdir):
    raw = csmith_program(profile, seed, workdir)
    # The size is the preprocessed program's in Csmith's own layout; GNU style is about twice
    # as large (indentation), one line about 10% smaller.
    if not 0.8 * target <= len(raw) <= 1.25 * target:
        return None
    layouts = {"gnu": gnu_layout(raw), "line": one_line(raw)}
    cases = []
    for layout, text in layouts.items():
        outputs = compiles_clean(text, profile, workdir)
        if outputs is None:
            return None
        for prop in props:
            chosen = choose_property(prop, text, outputs)
            if chosen is None:
                return None
            check, desc = chosen
            name = f"c{label}-{layout}-{prop}"
            what = (
                "interesting iff gcc and clang compile it without a warning that signals "
                f"undefined behaviour, and {desc}."
            )
            readme = (
                f"{name}: Csmith 2.3.0 --seed {seed} {CSMITH_PROFILES[profile]}, preprocessed "
                f"({'clang' if profile == 'full' else 'gcc'} -E -P -I{CSMITH_INCLUDE}"
                + (", prelude.h for csmith.h" if profile != "full" else "")
                + "), "
                + ("GNU style (clang-format -style=GNU)" if layout == "gnu" else "on one line")
                + f". Interesting iff `gcc {gcc_flags(profile)}` and `clang {CLANG_FLAGS}` both compile it,"
                " neither prints a message that signals undefined behaviour or a broken program,"
                f" and {desc}.\n"
            )
            cases.append(
                {
                    "name": name,
                    "input": text,
                    "oracle": c_oracle(name, profile, check, what),
                    "meta": {"ext": "c", "kind": "c", "family": f"c-{layout}"},
                    "readme": readme,
                    "source": f"csmith:{seed}:{profile}",
                }
            )
    return cases


# --- real files ---------------------------------------------------------------------------------

SIZE_TARGETS = (3_000, 12_000, 40_000, 130_000, 400_000)
JSON_TARGETS = (5_000, 40_000, 300_000)
MIN_BYTES, MAX_BYTES = 2_048, 500_000

ITEM_PATTERNS = {
    "rust": r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+fn|unsafe\s+fn|fn|const|static|struct|enum|trait|type)\s+([A-Za-z_][A-Za-z0-9_]*)",
    "python": r"^\s*(?:def|class)\s+([A-Za-z_][A-Za-z0-9_]*)|^([A-Za-z_][A-Za-z0-9_]*)\s*=",
    "js": r"\bfunction\s*\*?\s*([A-Za-z_$][A-Za-z0-9_$]*)|\b(?:const|let|var|class)\s+([A-Za-z_$][A-Za-z0-9_$]*)",
}
DEFINITION = {
    "rust": r"\b(fn|const|static|struct|enum|trait|type) +{name}\b",
    "python": r"(\b(def|class) +{name}\b|^{name} *=)",
    "js": r"(\bfunction *\*? *{name}\b|\b(const|let|var|class) +{name}\b)",
}


def last_item(family, text):
    """The name of the last definition in the file whose name is defined there once."""
    names = []
    for m in re.finditer(ITEM_PATTERNS[family], text, re.M):
        names.append(next(g for g in m.groups() if g))
    for name in reversed(names):
        if names.count(name) == 1 and "$" not in name:
            return name
    return None


def text_oracle(name, family, check_cmd, item, what):
    pattern = DEFINITION[family].format(name=item)
    body = f"""cp "$f" "$d/{check_cmd[0]}" && cd "$d" || exit 2
{check_cmd[1]} >/dev/null 2>&1 || exit 1
grep -q -E -e {shlex.quote(pattern)} {check_cmd[0]} || exit 1
"""
    return ORACLE_HEAD.format(name=name, what=what) + body + ORACLE_TAIL


def rust_check(edition):
    return (
        "t.rs",
        f"timeout 120 rustc --edition {edition} --crate-type lib --emit=metadata -A warnings "
        "-o t.rmeta t.rs",
    )


PY_CHECK = (
    "t.py",
    "timeout 60 python3 -c 'import sys; compile(open(sys.argv[1], \"rb\").read(), sys.argv[1], \"exec\")' t.py",
)


def js_check(module):
    f = "t.mjs" if module else "t.js"
    return (f, f"timeout 60 node --check {f}")


def passes(check_cmd, text, workdir):
    d = Path(tempfile.mkdtemp(dir=workdir))
    (d / check_cmd[0]).write_bytes(text)
    r = subprocess.run(["bash", "-c", check_cmd[1]], cwd=d, capture_output=True)
    shutil.rmtree(d)
    return r.returncode == 0


def candidates(family, workdir):
    """(path label, file) for every candidate file of a family, sorted by label."""
    if family == "rust":
        root = Path.home() / ".cargo" / "registry" / "src"
        files = sorted(root.glob("*/*/**/*.rs"))
        return [(str(p.relative_to(root)).split("/", 1)[1], p) for p in files]
    if family == "python":
        import pip  # the pip package itself: on every machine with Python

        root = Path(pip.__file__).resolve().parent
        return [("pip/" + str(p.relative_to(root)), p) for p in sorted(root.glob("**/*.py"))]
    if family == "js" or family == "json-npm":
        return [(label, p) for label, p in npm_files(workdir) if p.suffix in (".js", ".mjs", ".cjs")]
    if family == "json":
        import botocore

        root = Path(botocore.__file__).resolve().parent / "data"
        return [("botocore/data/" + str(p.relative_to(root)), p) for p in sorted(root.glob("**/*.json"))]
    raise ValueError(family)


NPM_PACKAGE = "npm@11.19.1"
_npm_root = None


def npm_files(workdir):
    global _npm_root
    if _npm_root is None:
        d = Path(tempfile.mkdtemp(dir=workdir, prefix="npm-"))
        r = subprocess.run(
            ["npm", "pack", NPM_PACKAGE, "--prefer-offline", "--pack-destination", str(d)],
            capture_output=True,
            cwd=d,
        )
        tgz = sorted(d.glob("*.tgz"))
        if r.returncode or not tgz:
            sys.exit(f"generate: `npm pack {NPM_PACKAGE}` failed: {r.stderr.decode()[-400:]}")
        with tarfile.open(tgz[0]) as tar:
            tar.extractall(d / "x", filter="data")
        _npm_root = d / "x"
    return [
        ("npm/" + str(p.relative_to(_npm_root)), p) for p in sorted(_npm_root.glob("**/*")) if p.is_file()
    ]


def json_key(text):
    """A key that occurs once in the document, two thirds of the way through its keys."""
    keys = []

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                keys.append(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.loads(text))
    once = [k for k in keys if keys.count(k) == 1 and k.isidentifier()]
    return once[2 * len(once) // 3] if once else None


def json_oracle(name, key, what):
    script = (
        "import json, sys\n"
        "def keys(v):\n"
        "    if isinstance(v, dict):\n"
        "        for k, x in v.items():\n"
        "            yield k\n"
        "            yield from keys(x)\n"
        "    elif isinstance(v, list):\n"
        "        for x in v:\n"
        "            yield from keys(x)\n"
        "doc = json.loads(open(sys.argv[1], 'rb').read())\n"
        f"sys.exit(0 if {key!r} in keys(doc) else 1)\n"
    )
    body = f"""timeout 60 python3 -c {shlex.quote(script)} "$f" >/dev/null 2>&1 || exit 1
"""
    return ORACLE_HEAD.format(name=name, what=what) + body + ORACLE_TAIL


def real_cases(family, workdir):
    prefix = {"rust": "rs", "python": "py", "js": "js", "json": "json"}[family]
    targets = JSON_TARGETS if family == "json" else SIZE_TARGETS
    pool = []
    for label, p in candidates(family, workdir):
        size = p.stat().st_size
        if MIN_BYTES <= size <= MAX_BYTES:
            pool.append((label, p, size))
    used = set()
    cases = []
    for target in targets:
        ranked = sorted(pool, key=lambda c: (abs(c[2] - target), c[0]))
        for label, p, size in ranked[:400]:
            if label in used:
                continue
            text = p.read_bytes()
            case = real_case(family, prefix, target, label, text, workdir)
            if case:
                used.add(label)
                cases.append(case)
                break
        else:
            sys.exit(f"generate: no {family} file near {target} bytes passes its test")
    return cases


STD_ROOTS = {"std", "core", "alloc"}


def rust_may_stand_alone(s):
    """False for a file that surely needs the rest of its crate or another crate (cheap, before rustc)."""
    if re.search(r"^\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*;|\b(crate|super)::|^\s*#!\[|\bextern\s+crate\b", s, re.M):
        return False
    roots = re.findall(r"^\s*(?:pub\s+)?use\s+:?:?(\w+)", s, re.M)
    return all(r in STD_ROOTS or r == "self" for r in roots)


def real_case(family, prefix, target, label, text, workdir):
    name = f"{prefix}-{round(len(text) / 1000):03d}k"
    try:
        s = text.decode()
    except UnicodeDecodeError:
        return None
    source = {"rust": "the cargo registry", "python": "site-packages", "js": f"`npm pack {NPM_PACKAGE}`", "json": "site-packages"}[family]
    if family == "json":
        try:
            key = json_key(s)
        except ValueError:
            return None
        if not key:
            return None
        what = f"interesting iff it is JSON and the key {key!r} is still in it."
        oracle = json_oracle(name, key, what)
        meta = {"ext": "json", "kind": "text", "family": "json"}
    else:
        item = last_item(family, s)
        if not item:
            return None
        if family == "rust":
            if not rust_may_stand_alone(s):
                return None
            for edition in ("2021", "2018", "2015"):
                if passes(rust_check(edition), text, workdir):
                    check = rust_check(edition)
                    how = f"`rustc --edition {edition} --crate-type lib --emit=metadata` accepts it"
                    break
            else:
                return None
            ext = "rs"
        elif family == "python":
            check, how, ext = PY_CHECK, "Python 3's compile() accepts it", "py"
        else:
            module = bool(re.search(r"^\s*(import|export)\b", s, re.M))
            check = js_check(module)
            if not passes(check, text, workdir):
                return None
            how, ext = f"`node --check` accepts it as {'an ES module' if module else 'a script'}", "js"
        if family == "python" and not passes(check, text, workdir):
            return None
        what = f"interesting iff {how} and `{item}` is still defined."
        oracle = text_oracle(name, family, check, item, what)
        meta = {"ext": ext, "kind": "text", "family": family}
    readme = f"{name}: {label} from {source}, {len(text)} bytes. {what[0].upper()}{what[1:]}\n"
    return {"name": name, "input": text, "oracle": oracle, "meta": meta, "readme": readme, "source": label}


# --- driver -------------------------------------------------------------------------------------


def write_case(out, case):
    d = out / case["name"]
    d.mkdir(parents=True, exist_ok=True)
    meta = dict(case["meta"], bytes=len(case["input"]))
    files = {
        "input": case["input"],
        "interesting.sh": case["oracle"].encode(),
        "meta": "".join(f"{k}={v}\n" for k, v in meta.items()).encode(),
        "README": case["readme"].encode(),
    }
    for name, data in files.items():
        # Replaced whole, never rewritten in place: a reducer may be running this very test.
        tmp = d / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.chmod(0o755 if name == "interesting.sh" else 0o644)
        tmp.replace(d / name)
    # The case's own test must hold on its input, or the case is worthless.
    env = {k: v for k, v in os.environ.items() if k != "ORACLE_LOG"}
    r = subprocess.run([str(d / "interesting.sh"), str(d / "input")], env=env, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"generate: {case['name']}: its test fails on its input")


def search_seeds(workdir, labels):
    for label, target, profile, _, props in C_PROGRAMS:
        if labels and label not in labels:
            continue
        seed = SEARCH_FROM[label]
        while True:
            if c_cases(label, target, profile, seed, props, workdir):
                print(f"{label}: seed {seed}")
                break
            seed += 1


def read_manifest():
    rows = {}
    if MANIFEST.exists():
        for line in MANIFEST.read_text().splitlines():
            if line and not line.startswith("#"):
                name, family, size, digest, source = line.split("\t")
                rows[name] = (family, int(size), digest, source)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="directory to write the cases into")
    ap.add_argument("--only", help="comma-separated case names or prefixes (default: all)")
    ap.add_argument("--write-manifest", action="store_true", help="rewrite manifest.tsv")
    ap.add_argument("--search-seeds", action="store_true", help="find the Csmith seeds")
    args = ap.parse_args()
    for tool in ("csmith", "gcc", "clang", "clang-format", "rustc", "node", "npm"):
        if not shutil.which(tool):
            sys.exit(f"generate: `{tool}` is missing (apt-get install csmith libcsmith-dev clang clang-format nodejs npm; rustup for rustc)")
    with tempfile.TemporaryDirectory(prefix="myhill-gen-") as workdir:
        if args.search_seeds:
            search_seeds(workdir, args.only.split(",") if args.only else None)
            return
        if not args.out:
            ap.error("--out DIR is required")
        only = tuple(args.only.split(",")) if args.only else None
        cases = []
        for label, target, profile, seed, props in C_PROGRAMS:
            if only and not any(f"c{label}-".startswith(o) or o.startswith(f"c{label}-") for o in only):
                continue
            if seed is None:
                sys.exit(f"generate: no seed pinned for c{label}; run --search-seeds")
            made = c_cases(label, target, profile, seed, props, workdir)
            if made is None:
                sys.exit(f"generate: c{label} (seed {seed}) no longer passes its test or size")
            cases += made
        for family in ("rust", "python", "js", "json"):
            prefix = {"rust": "rs-", "python": "py-", "js": "js-", "json": "json-"}[family]
            if only and not any(prefix.startswith(o) or o.startswith(prefix) for o in only):
                continue
            cases += real_cases(family, workdir)
        if only:
            cases = [c for c in cases if c["name"].startswith(only)]
        manifest = read_manifest()
        mismatches = 0
        args.out.mkdir(parents=True, exist_ok=True)
        for case in cases:
            write_case(args.out, case)
            digest = hashlib.sha256(case["input"]).hexdigest()
            row = (case["meta"]["family"], len(case["input"]), digest, case["source"])
            old = manifest.get(case["name"])
            if old != row:
                mismatches += 1
                print(f"{case['name']}: {'new' if old is None else 'differs from manifest.tsv'}: {row[1]} bytes {digest[:12]} {row[3]}")
            manifest[case["name"]] = row
            print(f"{case['name']:<22} {row[0]:<7} {row[1]:>7} {digest[:12]}")
        if args.write_manifest:
            lines = ["# case\tfamily\tbytes\tsha256\tsource"]
            lines += ["\t".join([n, f, str(s), h, src]) for n, (f, s, h, src) in sorted(manifest.items())]
            MANIFEST.write_text("\n".join(lines) + "\n")
        elif mismatches:
            sys.exit(f"generate: {mismatches} case(s) differ from manifest.tsv (tools or caches changed?)")


if __name__ == "__main__":
    main()
