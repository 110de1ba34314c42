#!/bin/bash
# python-package oracle: interesting iff `python3 app.py`, run in the tree ($1, also the working
# directory; no site, no environment, stdin from /dev/null, 5 s timeout), ends with a
# ZeroDivisionError raised inside inventory/pricing.py (the traceback's last frame).
d="${1:-.}"
cd "$d" || exit 2
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ python-package" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
PY=${BENCH_PYTHON:-/usr/bin/python3}
err=$(mktemp "${TMPDIR:-/tmp}/oracle-pypkg.XXXXXX") || exit 2
trap 'rm -f "$err"' EXIT
timeout -k 1 5 "$PY" -E -s -S -B app.py </dev/null >/dev/null 2>"$err"
rc=$?
{ [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && exit 1
grep 'File "' "$err" | tail -n 1 | grep -q '/inventory/pricing\.py"' || exit 1
tail -n 1 "$err" | grep -q '^ZeroDivisionError'
