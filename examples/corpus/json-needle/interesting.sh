#!/bin/bash
# json-needle oracle: interesting iff $1 is valid JSON (UTF-8, as Python's json
# module reads it) and some object anywhere has the key "needle" whose value is a
# list containing the integer 42 (not 42.0, not "42", not true).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ json-needle" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import json, sys
try:
    with open(sys.argv[1], "rb") as fh:
        doc = json.loads(fh.read().decode("utf-8"))
except Exception:
    sys.exit(1)
stack = [doc]
while stack:
    o = stack.pop()
    if isinstance(o, dict):
        v = o.get("needle")
        if isinstance(v, list) and any(type(x) is int and x == 42 for x in v):
            sys.exit(0)
        stack.extend(o.values())
    elif isinstance(o, list):
        stack.extend(o)
sys.exit(1)
' "$f" </dev/null 2>/dev/null
