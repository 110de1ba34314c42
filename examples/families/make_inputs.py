#!/usr/bin/env python3
"""Writes the inputs of the DFA families (examples/families/*/input), deterministically.

    python3 examples/families/make_inputs.py

parens-N: a random balanced parenthesis term with one `x` two thirds in (N bytes in all; the
generator of examples/dfa_bench.rs's brackets-300, seed 42);
nested-bb: a random term over () and [] with `bb` inside; abc-x: `abc` 133 times with an `X`
between two blocks; json-small is written by hand (it is not generated).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def xorshift(seed):
    x = seed | 1
    while True:
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        yield x


def balanced(pairs_of, opens, closes, total, seed):
    """A random well-nested term of exactly `total` bracket bytes (total even)."""
    rnd = xorshift(seed)
    out, stack = [], []
    while len(out) < total:
        left = total - len(out)
        if stack and (left == len(stack) or next(rnd) % 2 == 0):
            out.append(closes[stack.pop()])
        else:
            kind = next(rnd) % len(opens)
            out.append(opens[kind])
            stack.append(kind)
    return "".join(out)


def with_inside(term, needle, seed):
    """`needle` inserted at a position two thirds in that lies inside at least one group."""
    at = len(term) * 2 // 3
    while term[at - 1] not in "([":
        at += 1
    return term[:at] + needle + term[at:]


def write(name, data):
    os.makedirs(os.path.join(HERE, name), exist_ok=True)
    with open(os.path.join(HERE, name, "input"), "w") as f:
        f.write(data)


def parens(length, seed):
    """Opens while shorter than `length` (at depth 0 always, else on a coin), then closes."""
    rnd = xorshift(seed)
    out, depth = [], 0
    while len(out) < length or depth > 0:
        if len(out) < length and (depth == 0 or next(rnd) % 2 == 0):
            out.append("(")
            depth += 1
        else:
            out.append(")")
            depth -= 1
    at = len(out) * 2 // 3
    return "".join(out[:at]) + "x" + "".join(out[at:])


for length, size in ((206, 215), (354, 397), (546, 597), (753, 797), (953, 1003)):
    text = parens(length, 42)
    assert len(text) == size, (length, size, len(text))
    write(f"parens-{size}", text)

write("nested-bb", with_inside(balanced(None, "([", ")]", 148, 7), "bb", 7))
blocks = 133
write("abc-x", "abc" * 44 + "X" + "abc" * (blocks - 44))
