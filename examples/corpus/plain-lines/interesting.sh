#!/bin/bash
# plain-lines oracle: interesting iff every line of `needed` (beside this script) is a whole
# line of the file.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ plain-lines" >&9 ) 9>>"$ORACLE_LOG"; fi
needed="$(dirname "$0")/needed"
# A needed line that matches no line of the file is printed, and then the file fails.
! LC_ALL=C grep -qvxF -f "$f" "$needed"
