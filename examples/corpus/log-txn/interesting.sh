#!/bin/bash
# log-txn oracle: interesting iff check.awk (beside this script) finds in $1 a transaction
# that opens, gets a lock-timeout logged at WARN, and then commits, in that order.
# Each call appends "PID CASE EPOCH" to $ORACLE_LOG (calls are counted by lines) and, when the
# answer is yes, "EPOCH BYTES" to $ORACLE_LOG.curve (size against time, for plots).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ log-txn $(date +%s.%N)" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 2
LC_ALL=C timeout 30 awk -f "$here/check.awk" "$f" </dev/null >/dev/null 2>&1 || exit 1
[ -n "$ORACLE_LOG" ] && echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"
exit 0
