#!/bin/bash
# json-orders oracle: interesting iff check.py (beside this script) accepts $1: valid JSON
# with a refund of a negative amount among the "lines" of an element of an "orders" array.
# Each call appends "PID CASE EPOCH" to $ORACLE_LOG (calls are counted by lines) and, when the
# answer is yes, "EPOCH BYTES" to $ORACLE_LOG.curve (size against time, for plots).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ json-orders $(date +%s.%N)" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 2
timeout 30 python3 "$here/check.py" "$f" </dev/null >/dev/null 2>&1 || exit 1
[ -n "$ORACLE_LOG" ] && echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"
exit 0
