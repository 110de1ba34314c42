#!/usr/bin/env bash
# Signal and resume trials: stop `myhill reduce` at random moments, with SIGINT (Ctrl-C),
# SIGTERM or SIGKILL, then `--resume` the run, and check that nothing was lost:
#   - the resume exits 0 and the result is where the user asked (in place or -o), and the
#     test still says it is interesting;
#   - the original is intact (INPUT.orig in place, INPUT itself with -o);
#   - no process of a test is left, and (after SIGINT or SIGTERM) nothing in TMPDIR.
# About a quarter of the stops fall in the first check (counted from the run's meta.json);
# a stop before the run directory exists leaves nothing to resume: then the input must be
# untouched and the same command is run again instead.
#
# Usage: examples/signal-trials.sh [MYHILL] [INT] [TERM] [KILL]
#   (defaults: target/release/myhill 40 10 10). Prints one line per trial, then a summary;
#   exits 1 if any trial was not clean. Results: notes/long-runs.md.
set -u
MYHILL=$(realpath "${1:-target/release/myhill}")
N_INT=${2:-40}
N_TERM=${3:-10}
N_KILL=${4:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
declare -A clean total first early

# A random delay in seconds: in the first check (two runs of a 0.05 s test) or after it.
delay() {
    if (( $1 % 4 == 0 )); then
        awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.04 + (r % 200) / 1000 }'
    else
        awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.15 + (r % 1500) / 1000 }'
    fi
}

trial() {
    local sig=$1 k=$2
    local d="$work/$sig-$k"
    mkdir -p "$d/tmp" "$d/state"
    cd "$d" || return 1
    seq -f 'line %g' 200 > in.txt
    cp in.txt expected
    local marker="signal-trial-$$-$sig-$k"
    printf '#!/bin/sh\n# %s\nsleep 0.05\ngrep -q "^line 37$" "$1"\n' "$marker" > t.sh
    chmod +x t.sh
    local out=in.txt oarg=()
    if (( k % 2 )); then out=out.txt; oarg=(-o out.txt); fi
    local wait_for
    wait_for=$(delay "$k")
    TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" "$MYHILL" reduce -j2 --run-dir "$d/run" \
        "${oarg[@]}" ./t.sh in.txt 2> first.log &
    local pid=$!
    sleep "$wait_for"
    kill "-$sig" "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    local rc1=$?
    local in_check=no
    if grep -q '"first_check": \[\]' run/meta.json 2> /dev/null; then in_check=yes; fi
    sleep 0.3
    local rc2
    if [ -e run ]; then
        TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" "$MYHILL" reduce --resume "$d/run" 2> resume.log
        rc2=$?
    else
        # Stopped before the run directory was made: nothing was written, so nothing can
        # be resumed; the input must be untouched, and the same command starts afresh.
        in_check=before
        early[$sig]=$(( ${early[$sig]:-0} + 1 ))
        cmp -s in.txt expected || echo "    the input changed before the run directory existed"
        TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" "$MYHILL" reduce -j2 --run-dir "$d/run" \
            "${oarg[@]}" ./t.sh in.txt 2> resume.log
        rc2=$?
    fi
    sleep 0.2
    local why=""
    (( rc2 == 0 )) || why+=" resume-exit-$rc2"
    [ -f "$out" ] && ./t.sh "$out" || why+=" result-not-interesting"
    [ "$(tr -d '\n' < "$out" 2> /dev/null)" = "line 37" ] || why+=" result-not-minimal"
    if (( k % 2 )); then
        cmp -s in.txt expected || why+=" input-changed"
    else
        cmp -s in.txt.orig expected || why+=" original-lost"
    fi
    local left
    left=$(pgrep -f "$marker" | wc -l)
    (( left == 0 )) || why+=" $left-processes-left"
    if [ "$sig" != KILL ] && [ -n "$(ls -A "$d/tmp")" ]; then why+=" tmpdir-not-empty"; fi
    if ls -A | grep -q '^\.myhill'; then why+=" half-made-files-left"; fi
    total[$sig]=$(( ${total[$sig]:-0} + 1 ))
    [ "$in_check" = yes ] && first[$sig]=$(( ${first[$sig]:-0} + 1 ))
    if [ -z "$why" ]; then
        clean[$sig]=$(( ${clean[$sig]:-0} + 1 ))
        echo "$sig #$k after ${wait_for}s (first check: $in_check, exit $rc1, ${oarg[*]:-in place}): clean"
    else
        bad=1
        echo "$sig #$k after ${wait_for}s (first check: $in_check, exit $rc1, ${oarg[*]:-in place}): NOT CLEAN:$why"
        sed 's/^/    first: /' first.log | tail -5
        sed 's/^/    resume: /' resume.log | tail -5
    fi
    cd "$work" || return 1
}

for sig in INT TERM KILL; do
    case $sig in INT) n=$N_INT ;; TERM) n=$N_TERM ;; KILL) n=$N_KILL ;; esac
    for ((k = 0; k < n; k++)); do trial "$sig" "$k"; done
done
echo
for sig in INT TERM KILL; do
    echo "SIG$sig then --resume: ${clean[$sig]:-0}/${total[$sig]:-0} clean (${first[$sig]:-0} stopped in the first check, ${early[$sig]:-0} before the run directory existed)"
done
exit $bad
