#!/bin/bash
# nested oracle: interesting iff the brackets () and [] of $1 are well nested (each
# closer matches the last open bracket, none is left open) and it contains bb.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ nested" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import sys
d = open(sys.argv[1], "rb").read()
stack = []
for c in d.decode("latin-1"):
    if c in "([":
        stack.append(c)
    elif c in ")]":
        if not stack or stack.pop() != "([" [")]".index(c)]:
            sys.exit(1)
sys.exit(0 if not stack and b"bb" in d else 1)
' "$f" 2>/dev/null
