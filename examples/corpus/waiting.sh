#!/bin/bash
# A test whose cost is waiting, for measuring --jobs on a loaded machine:
#   waiting.sh CASE_DIR SECONDS FILE
# gives CASE_DIR/interesting.sh's verdict on FILE, then sleeps SECONDS. Verdicts are kept by
# content (md5) in $WAITING_CACHE (default /tmp/myhill-waiting-CASE), so a second run over the
# same candidates costs only the sleep; warm the cache with one run before comparing job counts.
# Each interesting answer appends "EPOCH BYTES" to $ORACLE_LOG.curve after the sleep, and every
# call appends a line to $ORACLE_LOG (as the corpus oracles do), so curves.py reads the run.
case_dir="$1" wait="$2" f="$3"
[ -n "$f" ] || { echo "usage: $0 CASE_DIR SECONDS FILE" >&2; exit 2; }
[ -n "$ORACLE_LOG" ] && echo "$$ waiting $(date +%s.%N)" >>"$ORACLE_LOG"
cache="${WAITING_CACHE:-/tmp/myhill-waiting-$(basename "$case_dir")}"
mkdir -p "$cache" || exit 2
key=$(md5sum <"$f") key=${key%% *}
if [ -e "$cache/$key.yes" ]; then verdict=0
elif [ -e "$cache/$key.no" ]; then verdict=1
else
    ORACLE_LOG= "$case_dir/interesting.sh" "$f" </dev/null >/dev/null 2>&1
    verdict=$?
    if [ "$verdict" = 0 ]; then : >"$cache/$key.yes"; else verdict=1; : >"$cache/$key.no"; fi
fi
sleep "$wait"
[ "$verdict" = 0 ] && [ -n "$ORACLE_LOG" ] && echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"
exit "$verdict"
