#!/bin/bash
# c-project oracle: interesting iff compiling and linking every .c file of the tree ($1, also
# the working directory) with gcc -flto prints the -Wlto-type-mismatch warning.
d="${1:-.}"
cd "$d" || exit 2
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ c-project" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
files=$(find . -name '*.c' | sort)
[ -n "$files" ] || exit 1
out=$(mktemp -d "${TMPDIR:-/tmp}/oracle-cproj.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086
timeout -k 1 20 gcc -O1 -flto -Iinclude -o "$out/prog" $files >"$out/log" 2>&1
grep -q 'Wlto-type-mismatch' "$out/log"
