#!/usr/bin/env python3
"""Writes `input` beside this script: a 6 MB JSON export of a shop's customers and orders.

    python3 generate.py          # deterministic (fixed seed); about 6.3 MB, indent 1

Exactly one order line is a refund with a negative amount (the record check.py looks for);
it sits in the middle of the document, three containers deep below "customers". Decoys
that check.py must not accept: negative refunds under "adjustments" (not "lines"),
refunds in lines with positive amounts, refund amounts written as strings, negative
"sale" lines, and a negative refund in "lines" of a "quote" (under "quotes", not "orders").
"""
import json
import os
import random

rng = random.Random(0x4A534F4E)  # "JSON"

FIRST = ["ada", "bela", "cyrus", "dana", "emil", "farah", "gus", "hana", "ivo", "june",
         "kofi", "lena", "milo", "nora", "omar", "pia", "quin", "rosa", "sami", "tove"]
LAST = ["okafor", "lindqvist", "moreau", "tanaka", "novak", "silva", "haddad", "kowalski",
        "oconnor", "mendes", "fischer", "rossi", "nakamura", "petrov", "yilmaz"]
CITIES = ["lyon", "porto", "gdansk", "osaka", "quito", "tartu", "accra", "perth", "cork"]
SKUS = ["tea-%03d" % i for i in range(40)] + ["cup-%03d" % i for i in range(25)]
TARGET_BYTES = 6_000_000


def money(lo, hi):
    return round(rng.uniform(lo, hi), 2)


def line(kind=None):
    kind = kind or rng.choice(["sale"] * 12 + ["refund", "discount"])
    if kind == "sale":
        amount = money(1, 90)
    elif kind == "refund":
        # Refunds in order lines are recorded as positive credits (decoys), sometimes
        # as strings; only the needle is a negative number.
        amount = money(1, 40) if rng.random() < 0.7 else "-%.2f" % money(1, 40)
    else:
        amount = -money(0.5, 10) if rng.random() < 0.5 else money(0.5, 10)
        kind = "discount"
    return {"sku": rng.choice(SKUS), "qty": rng.randint(1, 6), "kind": kind, "amount": amount}


def order(oid):
    return {
        "id": "o-%07d" % oid,
        "placed": "2026-%02d-%02dT%02d:%02d:00Z" % (rng.randint(1, 12), rng.randint(1, 28),
                                                  rng.randint(0, 23), rng.randint(0, 59)),
        "status": rng.choice(["paid", "shipped", "delivered", "cancelled"]),
        "lines": [line() for _ in range(rng.randint(1, 7))],
        "adjustments": [{"kind": "refund", "amount": -money(1, 30), "reason": "late"}
                        for _ in range(rng.random() < 0.15)],
    }


def customer(cid, next_order):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    orders = [order(next_order + i) for i in range(rng.randint(0, 6))]
    cust = {
        "id": cid,
        "name": "%s %s" % (first.title(), last.title()),
        "email": "%s.%s%d@example.org" % (first, last, cid),
        "address": {"city": rng.choice(CITIES), "zip": "%05d" % rng.randint(0, 99999)},
        "tags": rng.sample(["vip", "wholesale", "new", "newsletter", "b2b"], rng.randint(0, 3)),
        "orders": orders,
    }
    if rng.random() < 0.05:
        cust["quotes"] = [{"id": "q-%d" % cid,
                           "lines": [{"sku": rng.choice(SKUS), "qty": 1, "kind": "refund",
                                      "amount": -money(1, 20)}]}]
    return cust, len(orders)


def main():
    customers = []
    size = 0
    next_order = 1
    cid = 1
    while size < TARGET_BYTES:
        cust, n = customer(cid, next_order)
        next_order += n
        cid += 1
        customers.append(cust)
        size += len(json.dumps(cust, indent=1)) + 2
    # The needle: the third line of the second order of a customer in the middle.
    for cust in customers[len(customers) * 3 // 5:]:
        if len(cust["orders"]) >= 2 and len(cust["orders"][1]["lines"]) >= 3:
            cust["orders"][1]["lines"][2] = {"sku": "tea-017", "qty": 2, "kind": "refund",
                                             "amount": -12.75}
            break
    doc = {"export": {"shop": "leaf and cup", "generated": "2026-12-01T00:00:00Z", "version": 3,
                      "currency": "EUR"},
           "customers": customers}
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = os.path.join(here, ".input.tmp")
    with open(tmp, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, os.path.join(here, "input"))


if __name__ == "__main__":
    main()
