#!/bin/bash
# chunks-bin oracle: interesting iff the strict MHCK parser (parser.c beside this script)
# dies by SIGABRT (shell status 134) on $1: a valid container with an out-of-range INDX
# entry inside a "trak" list that is itself inside a list.
# The parser is built once per version of parser.c into
# $MYHILL_CORPUS_CACHE/chunks-parser-HASH (default ${XDG_CACHE_HOME:-$HOME/.cache}/myhill-corpus),
# under flock and moved into place atomically. Not under $TMPDIR: reducers may give
# every test a private TMPDIR (myhill does), which would rebuild the parser per test.
# Each call appends "PID CASE EPOCH" to $ORACLE_LOG (calls are counted by lines) and, when the
# answer is yes, "EPOCH BYTES" to $ORACLE_LOG.curve (size against time, for plots).
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ chunks-bin $(date +%s.%N)" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 2
src=$here/parser.c
hash=$(sha256sum "$src" | cut -c1-16) || exit 2
root=${MYHILL_CORPUS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/myhill-corpus}
cache=$root/chunks-parser-$hash
bin=$cache/parser
if [ ! -x "$bin" ]; then
    mkdir -p "$cache" || exit 2
    (
        flock 9
        [ -x "$bin" ] && exit 0
        gcc -O2 -std=c99 -o "$bin.tmp.$$" "$src" >/dev/null 2>&1 &&
            mv -f "$bin.tmp.$$" "$bin" && exit 0
        rm -f "$bin.tmp.$$"
        exit 2
    ) 9>"$cache.lock" || exit 2
fi
exec 2>/dev/null    # keeps bash's "Aborted" notice quiet
timeout 5 "$bin" "$f" </dev/null >/dev/null
[ $? -eq 134 ] || exit 1
[ -n "$ORACLE_LOG" ] && echo "$(date +%s.%N) $(stat -c %s "$f")" >>"$ORACLE_LOG.curve"
exit 0
