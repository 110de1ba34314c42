#!/bin/bash
# json-small oracle: interesting iff $1 is valid JSON (UTF-8, as Python's json module
# reads it) whose top-level object maps "config" to an object that maps "needle" to the
# integer 42 (not 42.0, not "42", not true).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ json-small" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import json, sys
try:
    with open(sys.argv[1], "rb") as fh:
        doc = json.loads(fh.read().decode("utf-8"))
except Exception:
    sys.exit(1)
c = doc.get("config") if isinstance(doc, dict) else None
v = c.get("needle") if isinstance(c, dict) else None
sys.exit(0 if type(v) is int and v == 42 else 1)
' "$f" </dev/null 2>/dev/null
