#!/usr/bin/env python3
"""Measures the peers on the generated corpus, once, and appends one record per run to peers.jsonl.

    ../shared/bench/setup-peers.sh                       # once: Shrink Ray, C-Vise, ...
    examples/generated/peers.py --cases DIR [--cpu 1] [--timeout 300] [--only CASE,...] [--dry-run]

Shrink Ray runs on every case, C-Vise on the C cases, each through the shared harness's run.sh
(`-j 1`, pinned to one CPU with BENCH_CPUS, BENCH_TIMEOUT seconds). The runs go in order of
priority: first one case for each family and size (the first property of each C program), small
sizes first and the families interleaved, then the rest. A (case, peer) pair already in the
results file is skipped, so the lane can be stopped and started again.

The curve: every generated test appends "EPOCH BYTES" to $ORACLE_LOG.curve on each interesting
verdict (run.sh's tracker runs it on every candidate), so the smallest interesting size known by
60 and 300 s after the start is read from there. A record: case, family, peer, peer_version,
initial_bytes, size_at_60, size_at_300, final_bytes, end_s (seconds until the peer stopped by
itself; null when the time limit stopped it), wall_s, tests (oracle calls), status,
still_interesting, timeout_s, cpus, when.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DEFAULT_BENCH = ROOT.parent / "shared" / "bench"


def read_meta(case):
    meta = {}
    for line in (case / "meta").read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            meta[k.strip()] = v.strip()
    return meta


def size_label(name):
    m = re.search(r"(\d+)k\b", name)
    return m.group(0) if m else ""


def plan(cases_dir):
    """(case dir, peer) in order of priority."""
    cases = sorted(p for p in cases_dir.iterdir() if (p / "interesting.sh").exists())
    first, rest = [], []
    seen = set()
    for case in cases:
        meta = read_meta(case)
        family = meta.get("family", meta.get("kind", "text"))
        key = (family, size_label(case.name))
        runs = [(case, "shrinkray")] + ([(case, "cvise")] if meta.get("kind") == "c" else [])
        (rest if key in seen else first).extend([(key, r) for r in runs])
        seen.add(key)
    families = ["c-gnu", "c-line", "rust", "python", "js", "json"]

    def order(item):
        (family, size), (case, peer) = item
        rank = families.index(family) if family in families else len(families)
        return (int(size[:-1] or 0), rank, case.name, peer)

    return [r for _, r in sorted(first, key=order)] + [r for _, r in sorted(rest, key=order)]


def curve_sizes(curve_file, start, initial, checkpoints):
    points = []
    if curve_file.exists():
        for line in curve_file.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2:
                points.append((float(parts[0]) - start, int(parts[1])))
    return [min([initial] + [b for t, b in points if t <= at]) for at in checkpoints]


def print_table(results):
    print("| case | family | bytes | peer | at 60 s | at 300 s | end | tests |")
    print("| --- | --- | ---: | --- | ---: | ---: | --- | ---: |")
    for line in results.read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        end = f"{r['final_bytes']:,} B in {r['end_s']:.0f} s" if r["end_s"] is not None else "time limit"
        if not r["still_interesting"]:
            end += " (result not interesting)"
        print(
            f"| {r['case']} | {r['family']} | {r['initial_bytes']:,} | {r['peer']} | {r['size_at_60']:,} | "
            f"{r['size_at_300']:,} | {end} | {r['tests']:,} |"
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=Path, required=True, help="the directory generate.py wrote")
    ap.add_argument("--results", type=Path, default=HERE / "peers.jsonl")
    ap.add_argument("--bench", type=Path, default=DEFAULT_BENCH, help="the shared harness")
    ap.add_argument("--cpu", default="1", help="the CPU list every run is pinned to")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--peers", default="shrinkray,cvise")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and stop")
    ap.add_argument("--table", action="store_true", help="print the results as a Markdown table and stop")
    args = ap.parse_args()
    if args.table:
        print_table(args.results)
        return
    run_sh = args.bench / "run.sh"
    if not run_sh.exists():
        sys.exit(f"peers: no {run_sh} (pass --bench DIR)")
    wanted_peers = set(args.peers.split(","))
    only = set(args.only.split(",")) if args.only else None
    while True:
        done = set()
        if args.results.exists():
            for line in args.results.read_text().splitlines():
                if line.strip():
                    r = json.loads(line)
                    done.add((r["case"], r["peer"]))
        todo = [
            (case, peer)
            for case, peer in plan(args.cases)
            if (case.name, peer) not in done and peer in wanted_peers and (not only or case.name in only)
        ]
        if args.dry_run:
            for case, peer in todo:
                print(case.name, peer)
            return
        if not todo:
            print("peers: nothing left to run", flush=True)
            return
        case, peer = todo[0]
        record = run_one(args, run_sh, case, peer)
        with open(args.results, "a") as fh:
            fh.write(json.dumps(record) + "\n")
        print(json.dumps(record), flush=True)


def run_one(args, run_sh, case, peer):
    meta = read_meta(case)
    out = Path(tempfile.mkdtemp(prefix="myhill-peers-"))
    env = dict(
        os.environ,
        BENCH_TIMEOUT=str(args.timeout),
        BENCH_CPUS=args.cpu,
        BENCH_KEEP="1",
        BENCH_OUT=str(out),
        BENCH_RESULTS=str(out / "results.jsonl"),
    )
    env.pop("ORACLE_LOG", None)
    start = time.time()
    subprocess.run([str(run_sh), peer, str(case), "1"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    lines = (out / "results.jsonl").read_text().splitlines() if (out / "results.jsonl").exists() else []
    if not lines:
        sys.exit(f"peers: run.sh {peer} {case} wrote no result (see {out}/logs)")
    res = json.loads(lines[-1])
    log = (out / res["log"]).read_text()
    run_dir = next(ln.split(": ", 1)[1] for ln in log.splitlines() if ln.startswith("# run dir: "))
    at60, at300 = curve_sizes(Path(run_dir) / "oracle.log.curve", start, res["initial_bytes"], (60, 300))
    final = res["final_bytes"] if res["still_interesting"] else None
    end_s = res["wall_s"] if res["status"] in ("ok", "error-but-reduced") else None
    if end_s is not None and final is not None:
        at300 = min(at300, final)
    record = {
        "case": case.name,
        "family": meta.get("family", meta.get("kind")),
        "peer": peer,
        "peer_version": res["peer_version"],
        "initial_bytes": res["initial_bytes"],
        "size_at_60": at60,
        "size_at_300": at300,
        "final_bytes": final,
        "end_s": end_s,
        "wall_s": res["wall_s"],
        "tests": res["oracle_calls"],
        "status": res["status"],
        "still_interesting": res["still_interesting"],
        "timeout_s": args.timeout,
        "cpus": args.cpu,
        "when": res["when"],
    }
    shutil.rmtree(run_dir, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return record


if __name__ == "__main__":
    main()
