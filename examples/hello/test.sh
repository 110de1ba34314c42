#!/bin/sh
# Interesting iff the candidate compiles as C++17 and the program prints exactly
# "Hello, world!" (with or without one trailing newline). Exit status is not checked.
f="$1"
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
g++ -std=c++17 -O0 -w -x c++ "$f" -o "$d/a.out" >/dev/null 2>&1 || exit 1
out=$(cd "$d" && timeout 2 ./a.out </dev/null 2>/dev/null)
[ "$out" = "Hello, world!" ]
