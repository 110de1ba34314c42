#!/bin/sh
# Interesting iff the candidate compiles as C++17 and the program prints exactly
# "Hello, world!" (trailing newlines are ignored), three runs out of three. A reduced
# program with undefined behaviour may print the greeting only by luck and must not win:
# uninitialised locals are filled with a fixed pattern so such a program behaves the same on
# every run, and the three runs catch what still varies (addresses, heap contents).
f="$1"
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
g++ -std=c++17 -O0 -w -ftrivial-auto-var-init=pattern -x c++ "$f" -o "$d/a.out" >/dev/null 2>&1 || exit 1
for run in 1 2 3; do
    out=$(cd "$d" && timeout 2 ./a.out </dev/null 2>/dev/null)
    [ "$out" = "Hello, world!" ] || exit 1
done
