#!/bin/bash
# parens oracle: interesting iff the parentheses of $1 are balanced (every prefix has
# at least as many ( as ), and the whole as many) and it contains an x.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ parens" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import sys
d = open(sys.argv[1], "rb").read()
depth = 0
for c in d:
    depth += (c == 40) - (c == 41)
    if depth < 0:
        sys.exit(1)
sys.exit(0 if depth == 0 and b"x" in d else 1)
' "$f" 2>/dev/null
