#!/usr/bin/env python3
"""Writes `input` beside this script: a 1.3 MB "MHCK" chunk container (format in parser.c).

    python3 generate.py          # deterministic (fixed seed)

About 500 top-level chunks, most of them LISTs nested up to 4 deep ("movi", "trak", "mdia",
"meta", ...), holding text, names, integers, blobs and sample indices. Exactly one INDX chunk
has an index past the decoder's table (>= 4096) inside a "trak" list that is itself inside
a list, which makes the parser abort: it is in a 5 KB top-level "movi" list a little past
the middle of the file. Decoys that do not crash: out-of-range INDX chunks in top-level
"trak" lists (depth 1) and in nested "mdia" lists, and many in-range INDX chunks in nested
"trak" lists.
"""
import os
import random
import struct

rng = random.Random(0x4D48434B)  # "MHCK"
TARGET_BYTES = 1_300_000
FORMS = ["movi", "mdia", "meta", "hdlr", "strl", "info", "trak"]
WORDS = ["clip", "frame", "audio", "left", "right", "stereo", "take", "scene", "night", "cam"]


def chunk(cid, payload):
    return cid + struct.pack("<I", len(payload)) + payload


def lst(form, children):
    return chunk(b"LIST", form.encode() + b"".join(children))


def text(n):
    words = []
    while len(" ".join(words)) < n:
        words.append(rng.choice(WORDS))
    return " ".join(words)[:n].rstrip().encode() or b"x"


def indx(out_of_range=False):
    values = [rng.randrange(4096) for _ in range(rng.randint(1, 24))]
    if out_of_range:
        values[rng.randrange(len(values))] = rng.randint(4096, 1 << 20)
    return chunk(b"INDX", struct.pack("<%dI" % len(values), *values))


def leaf():
    kind = rng.choice(["TEXT", "NAME", "INTS", "BLOB", "BLOB", "INDX"])
    if kind == "TEXT":
        return chunk(b"TEXT", text(rng.randint(5, 120)))
    if kind == "NAME":
        return chunk(b"NAME", text(rng.randint(3, 30)))
    if kind == "INTS":
        return chunk(b"INTS", rng.randbytes(4 * rng.randint(0, 30)))
    if kind == "BLOB":
        return chunk(b"BLOB", rng.randbytes(rng.randint(0, 300)))
    return indx()


def tree(depth, form=None):
    """A list at `depth` (0 = top level) with leaves and sub-lists."""
    form = form or rng.choice(FORMS)
    children = []
    for _ in range(rng.randint(2, 10)):
        if depth < 3 and rng.random() < 0.3:
            sub = rng.choice(FORMS)
            # Decoys: out-of-range indices where the decoder does not look them up.
            if sub == "mdia" and rng.random() < 0.3:
                children.append(lst("mdia", [leaf(), indx(out_of_range=True)]))
                continue
            children.append(tree(depth + 1, sub))
        else:
            children.append(leaf())
    if form == "trak" and depth == 0 and rng.random() < 0.5:
        children.append(indx(out_of_range=True))  # top-level trak: depth 1, not decoded
    return lst(form, children)


def needle_list():
    """A ~5 KB top-level "movi" list with the crashing index in a nested "trak"."""
    while True:
        before = [tree(1) for _ in range(rng.randint(2, 4))]
        after = [tree(1) for _ in range(rng.randint(2, 4))]
        trak = lst("trak", [chunk(b"NAME", b"camera two"), indx(), indx(out_of_range=True),
                            chunk(b"TEXT", text(40))])
        whole = lst("movi", before + [trak] + after)
        if 3000 <= len(whole) <= 8000:
            return whole


def main():
    top = []
    size = 4
    while size < TARGET_BYTES:
        c = tree(0) if rng.random() < 0.8 else leaf()
        top.append(c)
        size += len(c)
    top.insert(len(top) * 11 // 20, needle_list())
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = os.path.join(here, ".input.tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"MHCK" + b"".join(top))
    os.replace(tmp, os.path.join(here, "input"))


if __name__ == "__main__":
    main()
