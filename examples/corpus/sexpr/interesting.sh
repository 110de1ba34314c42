#!/bin/bash
# sexpr oracle: interesting iff $1 is a sequence of balanced s-expressions (SMT-LIB
# lexical rules: ; comments, "strings", |quoted symbols|; only lists at top level)
# and some top-level (assert ...) form contains, at any depth, a list whose first
# element is the symbol bvudiv and whose last element is the atom #x00.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ sexpr" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import sys

def parse(data):
    """Return the list of top-level forms, or None if the text is malformed."""
    stack = [[]]
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if c in " \t\r\n":
            i += 1
        elif c == ";":
            j = data.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "(":
            stack.append([])
            i += 1
        elif c == ")":
            if len(stack) == 1:
                return None
            done = stack.pop()
            stack[-1].append(done)
            i += 1
        elif c == "\"":
            j = i + 1
            while True:
                j = data.find("\"", j)
                if j < 0:
                    return None
                if data.startswith("\"\"", j):
                    j += 2
                    continue
                break
            stack[-1].append(data[i:j + 1])
            i = j + 1
        elif c == "|":
            j = data.find("|", i + 1)
            if j < 0:
                return None
            stack[-1].append(data[i:j + 1])
            i = j + 1
        else:
            j = i
            while j < n and data[j] not in " \t\r\n();\"|":
                j += 1
            stack[-1].append(data[i:j])
            i = j
    if len(stack) != 1:
        return None
    return stack[0]

def has_zero_udiv(form):
    todo = [form]
    while todo:
        x = todo.pop()
        if isinstance(x, list):
            if len(x) >= 2 and x[0] == "bvudiv" and x[-1] == "#x00":
                return True
            todo.extend(x)
    return False

with open(sys.argv[1], "rb") as fh:
    top = parse(fh.read().decode("latin-1"))
if top is None or not all(isinstance(x, list) for x in top):
    sys.exit(1)
ok = any(x and x[0] == "assert" and has_zero_udiv(x) for x in top)
sys.exit(0 if ok else 1)
' "$f" </dev/null 2>/dev/null
