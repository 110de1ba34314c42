#!/bin/bash
# abc oracle: interesting iff $1 is blocks "abc", one "X", blocks "abc" (nothing else,
# no newline) with an odd number of blocks in all.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ abc" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import re, sys
d = open(sys.argv[1], "rb").read()
sys.exit(0 if re.fullmatch(rb"(?:abc)*X(?:abc)*", d) and d.count(b"abc") % 2 == 1 else 1)
' "$f" 2>/dev/null
