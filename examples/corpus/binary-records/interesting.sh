#!/bin/bash
# binary-records oracle: interesting iff the strict MHR1 parser (parser.c beside this
# script) dies by SIGABRT (shell status 134) on $1, i.e. $1 is a valid container
# holding a tag record 0x07 whose value starts with 0xEE at nesting depth >= 2.
# The parser is built once per version of parser.c into
# $MYHILL_CORPUS_CACHE/parser-HASH (default ${XDG_CACHE_HOME:-$HOME/.cache}/myhill-corpus),
# under flock and moved into place atomically. Not under $TMPDIR: reducers may give
# every test a private TMPDIR (myhill does), which would rebuild the parser per test.
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ binary-records" >&9 ) 9>>"$ORACLE_LOG"; fi
ulimit -c 0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 2
src=$here/parser.c
hash=$(sha256sum "$src" | cut -c1-16) || exit 2
root=${MYHILL_CORPUS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/myhill-corpus}
cache=$root/parser-$hash
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
[ $? -eq 134 ]
