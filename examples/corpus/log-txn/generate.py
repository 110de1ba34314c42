#!/usr/bin/env python3
"""Writes `input` beside this script: 11 MB of a database proxy's log, one event a line.

    python3 generate.py          # deterministic (fixed seed); about 10.8 MB, 140,000 lines

Lines look like `2026-11-28T04:12:09.314Z WARN  [pool-3] txn=3fa2c1d0 lock-timeout ...`,
interleaved with request, cache and GC lines. Transactions open, run queries and commit or
roll back. Exactly one transaction opens, then gets a lock-timeout logged at WARN, and
still commits (what check.awk looks for); its three lines are spread over the middle
fifth of the file. Decoys: lock-timeouts followed by a rollback, lock-timeouts logged at
INFO (retried) before a commit, and, in the first lines, a WARN lock-timeout and a commit
of a transaction whose open happened before the log starts.
"""
import os
import random

rng = random.Random(0x4C4F4754)  # "LOGT"
TARGET_LINES = 140_000
NEEDLE = "5eed0c0a"
USERS = ["svc-billing", "svc-cart", "svc-search", "batch-nightly", "admin", "svc-mail"]
TABLES = ["orders", "carts", "stock", "invoices", "sessions", "audit"]
PATHS = ["/api/v2/cart", "/api/v2/items", "/api/v2/checkout", "/health", "/api/v2/users/me",
         "/api/v2/search", "/static/app.js"]

ms = 0


def stamp():
    global ms
    ms += rng.randint(0, 40)
    s, milli = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return "2026-11-28T%02d:%02d:%02d.%03dZ" % (4 + h, m, s, milli)


def emit(out, level, comp, msg):
    out.append("%s %-5s [%s] %s" % (stamp(), level, comp, msg))


def noise(out):
    r = rng.random()
    if r < 0.55:
        emit(out, "INFO", "http-%d" % rng.randint(1, 8), "%s %s %d %dms req=%08x" % (
            rng.choice(["GET", "GET", "POST", "PUT"]), rng.choice(PATHS),
            rng.choice([200, 200, 200, 204, 304, 404, 500]), rng.randint(1, 900),
            rng.getrandbits(32)))
    elif r < 0.75:
        emit(out, "DEBUG", "cache", "hit ratio %.3f entries=%d evicted=%d" % (
            rng.random(), rng.randint(1000, 90000), rng.randint(0, 300)))
    elif r < 0.9:
        emit(out, "INFO", "gc", "pause %dms heap %dM/%dM" % (
            rng.randint(1, 80), rng.randint(200, 900), 1024))
    else:
        emit(out, rng.choice(["WARN", "ERROR"]), "http-%d" % rng.randint(1, 8),
             "upstream %s slow: %dms" % (rng.choice(PATHS), rng.randint(1000, 9000)))


def txn_line(out, level, tid, event, extra=""):
    emit(out, level, "pool-%d" % (int(tid, 16) % 6), "txn=%s %s%s" % (tid, event, extra))


def main():
    out = []
    used = {NEEDLE}
    # A transaction that opened before the log starts: WARN lock-timeout, then commit.
    txn_line(out, "WARN", "0ddba11a", "lock-timeout", " waited=5000ms table=stock")
    noise(out)
    txn_line(out, "INFO", "0ddba11a", "commit", " rows=3")
    active = []  # [id, remaining steps, plan]
    needle_at = {int(TARGET_LINES * f): ev for f, ev in
                 ((0.42, "open"), (0.51, "lock-timeout"), (0.60, "commit"))}
    while len(out) < TARGET_LINES:
        ev = needle_at.pop(len(out), None) if needle_at and min(needle_at) <= len(out) else None
        if ev is not None:
            level = "WARN" if ev == "lock-timeout" else "INFO"
            extra = {"open": " user=svc-billing table=invoices", "lock-timeout":
                     " waited=5000ms table=invoices", "commit": " rows=1"}[ev]
            txn_line(out, level, NEEDLE, ev, extra)
            continue
        r = rng.random()
        if r < 0.12 and len(active) < 12:
            tid = "%08x" % rng.getrandbits(32)
            while tid in used:
                tid = "%08x" % rng.getrandbits(32)
            used.add(tid)
            plan = rng.choices(["plain", "timeout-rollback", "info-timeout-commit",
                                "late-timeout"], [80, 8, 8, 4])[0]
            active.append([tid, rng.randint(1, 6), plan])
            txn_line(out, "INFO", tid, "open", " user=%s table=%s" % (
                rng.choice(USERS), rng.choice(TABLES)))
        elif r < 0.35 and active:
            t = rng.choice(active)
            tid, left, plan = t
            if left > 0:
                t[1] -= 1
                if plan == "timeout-rollback" and left == 1:
                    txn_line(out, "WARN", tid, "lock-timeout", " waited=5000ms")
                elif plan == "info-timeout-commit" and left == 1:
                    txn_line(out, "INFO", tid, "lock-timeout", " waited=800ms retrying")
                else:
                    txn_line(out, "DEBUG", tid, "query", " %s rows=%d" % (
                        rng.choice(["select", "update", "insert"]), rng.randint(0, 500)))
            else:
                active.remove(t)
                if plan == "timeout-rollback":
                    txn_line(out, "INFO", tid, "rollback", " reason=lock")
                else:
                    txn_line(out, "INFO", tid, "commit", " rows=%d" % rng.randint(0, 500))
                    if plan == "late-timeout":
                        txn_line(out, "WARN", tid, "lock-timeout", " waited=5000ms (after commit)")
        else:
            noise(out)
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = os.path.join(here, ".input.tmp")
    with open(tmp, "w") as fh:
        fh.write("\n".join(out))
        fh.write("\n")
    os.replace(tmp, os.path.join(here, "input"))


if __name__ == "__main__":
    main()
