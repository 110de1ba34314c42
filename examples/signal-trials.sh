#!/usr/bin/env bash
# Signal and resume trials: stop `myhill reduce` at random moments, with SIGINT (Ctrl-C: to
# myhill's process group, as a terminal sends it), SIGTERM or SIGKILL, then `--resume` the
# run, and check that nothing was lost:
#   - one second after the stop: no process of a test is left, and (after SIGINT or SIGTERM)
#     nothing in TMPDIR; after SIGKILL the resume must clean TMPDIR up;
#   - the resume exits 0 and the result is where the user asked (in place or -o), and the
#     test still says it is interesting; with the sleep test it is the minimal one, with the
#     compile test it is compared with an uninterrupted run's;
#   - the original is intact (INPUT.orig in place, INPUT itself with -o);
#   - no half-made file or run directory (`.myhill*`) is left beside them.
# Two tests take turns: a sleep test (`sleep 0.05` and a grep, 200 lines) and a compile test
# (g++ on a small C++ file, interesting while one error is reported).
# About a quarter of the stops fall in the first check (counted from the run's meta.json);
# a stop before the run directory exists leaves nothing to resume: then the input must be
# untouched and the same command is run again instead.
#
# Usage: examples/signal-trials.sh [MYHILL] [INT] [TERM] [KILL]
#   (defaults: target/release/myhill 40 10 10). Prints one line per trial, then a summary;
#   exits 1 if any trial was not clean. Results: notes/benchmarks.md.
set -u
MYHILL=$(realpath "${1:-target/release/myhill}")
N_INT=${2:-40}
N_TERM=${3:-10}
N_KILL=${4:-10}
command -v g++ > /dev/null || { echo "g++ is needed for the compile test"; exit 2; }
command -v setsid > /dev/null || { echo "setsid is needed (util-linux)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
declare -A clean total first early same

write_cpp() {
    cat > "$1" << 'EOF'
struct Point { int x; int y; };
struct Size { int w; int h; };
struct Rect { Point at; Size size; };
static int area(const Rect &r) { return r.size.w * r.size.h; }
static int perimeter(const Rect &r) { return 2 * (r.size.w + r.size.h); }
template <typename T> T biggest(T a, T b) { return a < b ? b : a; }
namespace geo {
int dot(const Point &a, const Point &b) { return a.x * b.x + a.y * b.y; }
int cross(const Point &a, const Point &b) { return a.x * b.y - a.y * b.x; }
Point add(Point a, Point b) { return Point{a.x + b.x, a.y + b.y}; }
}
class Canvas {
public:
    explicit Canvas(int n) : count(n) {}
    int used() const { return count; }
    void grow(int by) { count += by; }
private:
    int count;
};
int scale(int v, int k) { int s = 0; for (int i = 0; i < k; ++i) s += v; return s; }
int main() {
    Rect r{{1, 2}, {3, 4}};
    Canvas c(area(r));
    c.grow(perimeter(r));
    Point p = geo::add(r.at, Point{5, 6});
    int d = geo::dot(p, r.at) + geo::cross(p, r.at);
    int z = biggest(d, scale(c.used(), 3));
    return p.z + z;
}
EOF
}

# The test of a trial: TEST_KIND is sleep or cxx; MARKER makes its processes findable.
write_test() {
    local kind=$1 marker=$2
    if [ "$kind" = sleep ]; then
        printf '#!/bin/sh\n# %s\nsleep 0.05\ngrep -q "^line 37$" "$1"\n' "$marker" > t.sh
    else
        printf '#!/bin/sh\n# %s\ng++ -fsyntax-only -x c++ "$1" 2>&1 | grep -q "has no member named .z."\n' \
            "$marker" > t.sh
    fi
    chmod +x t.sh
}

write_input() {
    if [ "$1" = sleep ]; then seq -f 'line %g' 200 > in.txt; else write_cpp in.txt; fi
}

# The uninterrupted result of the compile test, to compare the resumed ones with.
mkdir -p "$work/reference/tmp" && cd "$work/reference" || exit 2
write_input cxx
write_test cxx "signal-trial-$$-reference"
TMPDIR="$PWD/tmp" "$MYHILL" reduce -j2 --no-run-dir -o expected-cxx ./t.sh in.txt 2> /dev/null \
    || { echo "the compile test's uninterrupted run failed"; exit 2; }

# A random delay in seconds: in the first check (two runs of the test) or after it.
delay() {
    if (( $1 % 3 == 0 )); then
        awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.01 + (r % 100) / 1000 }'
    else
        awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.15 + (r % 1500) / 1000 }'
    fi
}

trial() {
    local sig=$1 k=$2 kind=$3
    local d="$work/$sig-$k"
    mkdir -p "$d/tmp" "$d/state"
    cd "$d" || return 1
    write_input "$kind"
    cp in.txt expected-input
    local marker="signal-trial-$$-$sig-$k"
    write_test "$kind" "$marker"
    local out=in.txt oarg=()
    if (( k % 2 )); then out=out.txt; oarg=(-o out.txt); fi
    local wait_for
    wait_for=$(delay "$k")
    # Its own process group (setsid), as a job of an interactive shell has.
    TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" setsid "$MYHILL" reduce -j2 --run-dir "$d/run" \
        "${oarg[@]}" ./t.sh in.txt 2> first.log &
    local pid=$!
    sleep "$wait_for"
    if [ "$sig" = INT ]; then
        kill -INT -- "-$pid" 2> /dev/null
    else
        kill "-$sig" "$pid" 2> /dev/null
    fi
    wait "$pid" 2> /dev/null
    local rc1=$?
    local in_check=no
    if grep -q '"first_check": \[\]' run/meta.json 2> /dev/null; then in_check=yes; fi
    sleep 1
    local why=""
    local left
    left=$(pgrep -f "$marker" | wc -l)
    (( left == 0 )) || why+=" $left-processes-left-after-the-stop"
    if [ "$sig" != KILL ] && [ -n "$(ls -A "$d/tmp")" ]; then why+=" tmpdir-not-empty-after-the-stop"; fi
    local rc2
    if [ -e run ]; then
        TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" "$MYHILL" reduce --resume "$d/run" 2> resume.log
        rc2=$?
    else
        # Stopped before the run directory was made: nothing was written, so nothing can
        # be resumed; the input must be untouched, and the same command starts afresh.
        in_check=before
        early[$sig]=$(( ${early[$sig]:-0} + 1 ))
        cmp -s in.txt expected-input || why+=" input-changed-before-the-run-directory"
        TMPDIR="$d/tmp" XDG_STATE_HOME="$d/state" "$MYHILL" reduce -j2 --run-dir "$d/run" \
            "${oarg[@]}" ./t.sh in.txt 2> resume.log
        rc2=$?
    fi
    sleep 1
    (( rc2 == 0 )) || why+=" resume-exit-$rc2"
    [ -f "$out" ] && ./t.sh "$out" || why+=" result-not-interesting"
    if [ "$kind" = sleep ]; then
        [ "$(tr -d '\n' < "$out" 2> /dev/null)" = "line 37" ] || why+=" result-not-minimal"
        same[$kind]=$(( ${same[$kind]:-0} + 1 ))
    elif cmp -s "$out" "$work/reference/expected-cxx"; then
        same[$kind]=$(( ${same[$kind]:-0} + 1 ))
    fi
    if (( k % 2 )); then
        cmp -s in.txt expected-input || why+=" input-changed"
    else
        cmp -s in.txt.orig expected-input || why+=" original-lost"
    fi
    left=$(pgrep -f "$marker" | wc -l)
    (( left == 0 )) || why+=" $left-processes-left"
    [ -z "$(ls -A "$d/tmp")" ] || why+=" tmpdir-not-empty"
    if ls -A | grep -q '^\.myhill\|myhill-lock'; then why+=" half-made-files-left"; fi
    total[$sig]=$(( ${total[$sig]:-0} + 1 ))
    total[$kind]=$(( ${total[$kind]:-0} + 1 ))
    [ "$in_check" = yes ] && first[$sig]=$(( ${first[$sig]:-0} + 1 ))
    local what="$sig #$k $kind after ${wait_for}s (first check: $in_check, exit $rc1, ${oarg[*]:-in place})"
    if [ -z "$why" ]; then
        clean[$sig]=$(( ${clean[$sig]:-0} + 1 ))
        echo "$what: clean"
    else
        bad=1
        echo "$what: NOT CLEAN:$why"
        sed 's/^/    first: /' first.log | tail -5
        sed 's/^/    resume: /' resume.log | tail -5
    fi
    cd "$work" || return 1
}

for sig in INT TERM KILL; do
    case $sig in INT) n=$N_INT ;; TERM) n=$N_TERM ;; KILL) n=$N_KILL ;; esac
    for ((k = 0; k < n; k++)); do
        if (( (k / 2) % 2 )); then kind=cxx; else kind=sleep; fi
        trial "$sig" "$k" "$kind"
    done
done
echo
for sig in INT TERM KILL; do
    echo "SIG$sig then --resume: ${clean[$sig]:-0}/${total[$sig]:-0} clean (${first[$sig]:-0} stopped in the first check, ${early[$sig]:-0} before the run directory existed)"
done
echo "sleep test: ${total[sleep]:-0} trials, ${same[sleep]:-0} with the minimal result"
echo "compile test: ${total[cxx]:-0} trials, ${same[cxx]:-0} with the uninterrupted run's result"
exit $bad
