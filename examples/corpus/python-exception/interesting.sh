#!/bin/bash
# python-exception oracle: interesting iff running $1 with python3 (isolated mode,
# no site, stdin from /dev/null, 3 s timeout) writes "ZeroDivisionError" to stderr.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ python-exception" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
PY=${BENCH_PYTHON:-/usr/bin/python3}
d=$(mktemp -d "${TMPDIR:-/tmp}/oracle-pyexc.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
cp "$f" "$d/script.py" || exit 1
(cd "$d" && timeout -k 1 3 "$PY" -I -S script.py) </dev/null >/dev/null 2>"$d/err"
rc=$?
{ [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && exit 1
grep -q 'ZeroDivisionError' "$d/err"
