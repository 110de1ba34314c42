#!/bin/bash
# Size at checkpoints for one reduction of a large corpus case with a waiting test:
#   jobs-curve.sh CASE JOBS SECONDS WAIT [CHECKPOINTS] [MYHILL]
# runs `myhill reduce -j JOBS` on examples/corpus/CASE/input behind waiting.sh (the case's
# verdict, cached by content, then `sleep WAIT`) for SECONDS, and prints the smallest size
# reached by each checkpoint (default 30,60,120) with the tests started by then, then the
# run's tests, oracle runs, speculative tests started and wasted (from --stats-json).
set -e
case_name="$1" jobs="$2" secs="$3" wait="$4" at="${5:-30,60,120}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
myhill="${6:-$here/../../target/release/myhill}"
out=$(mktemp -d /tmp/jobs-curve.XXXXXX)
cp "$here/$case_name/input" "$out/input"
start=$(date +%s.%N)
ORACLE_LOG="$out/oracle.log" timeout -s INT "$secs" "$myhill" reduce -q -j "$jobs" --no-run-dir \
    --stats-json "$out/stats.json" -o "$out/output" \
    "$here/waiting.sh $here/$case_name $wait" "$out/input" >/dev/null 2>&1 || true
python3 - "$out" "$start" "$at" "$case_name" "$jobs" <<'PY'
import json, os, sys
out, start, at, name, jobs = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
size0 = os.path.getsize(os.path.join(out, "input"))
curve = []
if os.path.exists(out + "/oracle.log.curve"):
    curve = [tuple(map(float, l.split())) for l in open(out + "/oracle.log.curve") if l.strip()]
starts = [float(l.split()[2]) for l in open(out + "/oracle.log") if l.strip()]
cells = []
for t in map(float, at.split(",")):
    best = min([int(b) for (e, b) in curve if e - start <= t] + [size0])
    n = sum(1 for s in starts if s - start <= t)
    cells.append("%gs %s (%d)" % (t, format(best, ","), n))
s = {}
try:
    s = json.load(open(out + "/stats.json"))
except Exception:
    pass
ev = s.get("eval", s)
def g(k):
    return ev.get(k, s.get(k, "?"))
print("%s -j %s: %s | tests %s, runs %s, spec started %s, wasted %s" % (
    name, jobs, " | ".join(cells), g("tests_run"), g("oracle_runs"),
    g("speculative_started"), g("speculative_wasted")))
PY
echo "run dir: $out"
