#!/bin/bash
# c-warning oracle: interesting iff $1 compiles as C with `gcc -c -Wall -Wextra`
# (exit status 0, so no error) and gcc's output contains the -Wsign-compare warning
# "comparison of integer expressions of different signedness".
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ c-warning" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
d=$(mktemp -d "${TMPDIR:-/tmp}/oracle-cwarn.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
cp "$f" "$d/t.c" || exit 1
(cd "$d" && LC_ALL=C TMPDIR="$d" timeout 20 gcc -c -Wall -Wextra -fdiagnostics-color=never \
    -x c t.c -o /dev/null) </dev/null >"$d/out" 2>&1 || exit 1
grep -q 'comparison of integer expressions of different signedness' "$d/out"
