#!/bin/bash
# plain-line oracle: interesting iff the file keeps an "x" and holds a number of "a"
# that is 2 modulo 3.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ plain-line" >&9 ) 9>>"$ORACLE_LOG"; fi
grep -q x "$f" || exit 1
n=$(LC_ALL=C tr -cd a < "$f" | wc -c)
[ $((n % 3)) -eq 2 ]
