#!/bin/bash
# cpp-ledger oracle: interesting iff $1 compiles as C++17 with `g++ -fsyntax-only -Wall
# -Wextra` (exit 0, so no errors) and g++ reports the -Wpessimizing-move warning
# "moving a local object in a return statement prevents copy elision".
# Each call appends "PID CASE EPOCH" to $ORACLE_LOG (calls are counted by lines) and, when the
# answer is yes, "EPOCH BYTES" to $ORACLE_LOG.curve (size against time, for plots).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ cpp-ledger $(date +%s.%N)" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
out=$(LC_ALL=C timeout 30 g++ -std=c++17 -fsyntax-only -Wall -Wextra -x c++ "$f" 2>&1) || exit 1
case "$out" in
*"moving a local object in a return statement prevents copy elision"*) ;;
*) exit 1 ;;
esac
[ -n "$ORACLE_LOG" ] && echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"
exit 0
