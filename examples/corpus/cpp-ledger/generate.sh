#!/bin/bash
# Writes `input` beside this script: ledger.cpp preprocessed with `g++ -std=c++17 -E -P`
# (its libstdc++ headers inlined, no line markers), about 1.3 MB with g++ 12.2.
# The bytes depend on the installed libstdc++; the README gives the size and hash
# measured with g++ 12.2.0 (Debian 12.2.0-14). Safe to run twice.
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$here/input
tmp=$(mktemp "$here/.input.XXXXXX")
trap 'rm -f "$tmp"' EXIT
LC_ALL=C g++ -std=c++17 -E -P -x c++ "$here/ledger.cpp" >"$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
echo "$out: $(stat -c %s "$out") bytes, sha256 $(sha256sum "$out" | cut -c1-16), $(g++ --version | head -n1)"
