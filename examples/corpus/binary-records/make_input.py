#!/usr/bin/env python3
"""Generate `input` for the binary-records case (deterministic: fixed seed).

    python3 make_input.py > input

The format is described in parser.c: "MHR1", then records
[type][u16 little-endian length][value]; type 0x10 is a list of records.
The file holds about 6 KB of valid records, lists nested up to 4 deep, and
exactly one crashing record (tag 0x07 whose value starts with 0xEE) at depth 2,
in the middle of the file.  Decoys that do not crash: 0xEE tags at depth 0
and 1, a 0xEE blob (type 0x06) at depth 2, and tags starting 0xED / 0xEF deep
down.
"""
import random
import sys

rng = random.Random(0x4D485231)  # "MHR1"

LIST = 0x10
TAG = 0x07


def rec(kind, value):
    assert len(value) < 0x10000
    return bytes([kind]) + len(value).to_bytes(2, "little") + value


def text(n):
    words = [b"pump", b"valve", b"temp", b"north", b"relay", b"ok", b"fault", b"id", b"zone"]
    out = b""
    while len(out) < n:
        out += rng.choice(words) + b" "
    return out[:n].rstrip() or b"x"


def leaf():
    kind = rng.choice([0x01, 0x02, 0x03, 0x04, 0x05, 0x05, 0x06, 0x07, 0x07, 0x08,
                       0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f])
    if kind in (0x01, 0x02, 0x03, 0x04):
        return rec(kind, rng.randbytes({0x01: 1, 0x02: 2, 0x03: 4, 0x04: 8}[kind]))
    if kind == 0x05:
        return rec(kind, text(rng.randint(3, 24)))
    if kind == TAG:
        first = rng.choice([0x00, 0x01, 0x42, 0x7f, 0xa0, 0xed, 0xef, 0xfe])
        return rec(kind, bytes([first]) + rng.randbytes(rng.randint(0, 6)))
    if kind == 0x08:
        return rec(kind, bytes([rng.randint(0, 1)]))
    return rec(kind, rng.randbytes(rng.randint(0, 20)))


def lst(depth, max_depth, width):
    items = []
    for _ in range(rng.randint(*width)):
        if depth + 1 < max_depth and rng.random() < 0.35:
            items.append(lst(depth + 1, max_depth, (2, 5)))
        else:
            items.append(leaf())
    return rec(LIST, b"".join(items))


def main():
    # The one crashing record, at depth 2: inside list B inside top-level list A.
    crash = rec(TAG, bytes([0xEE, 0x03, 0x19]))
    inner_b = rec(LIST, leaf() + leaf() + rec(0x06, bytes([0xEE, 0x00])) + lst(2, 4, (2, 3))
                  + crash + leaf() + rec(TAG, bytes([0xEF, 0x01])))
    outer_a = rec(LIST, leaf() + rec(TAG, bytes([0xEE, 0x05])) + lst(1, 3, (2, 4)) + inner_b
                  + leaf() + lst(1, 3, (2, 4)))

    before, after = [], []
    while sum(map(len, before)) < 2800:
        before.append(lst(0, 4, (2, 6)) if rng.random() < 0.5 else leaf())
    before.insert(3, rec(TAG, bytes([0xEE, 0x01, 0x02])))   # depth-0 decoy
    while sum(map(len, after)) < 2800:
        after.append(lst(0, 4, (2, 6)) if rng.random() < 0.5 else leaf())
    data = b"MHR1" + b"".join(before) + outer_a + b"".join(after)
    sys.stdout.buffer.write(data)
    print("size %d, crash record at offset %d, enclosing top-level record %d bytes at offset %d"
          % (len(data), data.index(crash), len(outer_a), data.index(outer_a)), file=sys.stderr)


if __name__ == "__main__":
    main()
