#!/usr/bin/env python3
"""Runs myhill over the generated corpus and prints its curve beside the best peer's.

    cargo build --release
    examples/generated/generate.py --out DIR
    examples/generated/run.py --cases DIR [--lanes 2] [--cpus 0,1] [--timeout 300] [--jobs 1]
                              [--myhill PATH] [--extra "ARGS"] [--only CASE,...] [--results FILE]
    examples/generated/run.py --cases DIR --table-only --results FILE   # print a kept run again

Each lane is one process pinned to one CPU (`taskset -c`), taking the next case when it is free.
For every case the runner copies `input` to `input.EXT` in a fresh directory, points ORACLE_LOG
at a file there, and runs `myhill reduce --jobs N --run-dir RUN [ARGS] interesting.sh input.EXT`
in its own process group; after --timeout seconds the group gets SIGTERM, and SIGKILL 10 s
later. The sizes at 60 and 300 s come from the run directory's tests.jsonl (the smallest
interesting candidate whose test had finished by then); "end" is the final size and the second
myhill stopped by itself, or "-" when the time limit stopped it. The result is checked with the
case's test once more. One JSON record per case goes to --results (default
$TMPDIR/myhill-generated/results.jsonl).

The peers' figures come from peers.jsonl (examples/generated/peers.py): for each column the
smallest size any peer had then. The ratio is myhill's size at 300 s over the best peer's. The
last lines count the cases where myhill is no larger than the best peer at 60 and 300 s.
"""

import argparse
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KILL_GRACE = 10
CHECKPOINTS = (60, 300)


def read_meta(case):
    meta = {}
    for line in (case / "meta").read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            meta[k.strip()] = v.strip()
    return meta


def curve_from_tests(tests_jsonl, initial):
    """[(seconds, bytes)] of the interesting candidates, in order."""
    points = []
    if tests_jsonl.exists():
        for line in tests_jsonl.read_text().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("verdict") == "interesting" and "t" in rec and "size" in rec:
                points.append((float(rec["t"]), int(rec["size"])))
    return points


def size_at(points, initial, at):
    return min([initial] + [b for t, b in points if t <= at])


def interesting(case, path):
    env = {k: v for k, v in os.environ.items() if k != "ORACLE_LOG"}
    return subprocess.run([str(case / "interesting.sh"), str(path)], env=env, capture_output=True).returncode == 0


def run_case(args, case, cpu):
    meta = read_meta(case)
    work = Path(tempfile.mkdtemp(prefix=f"myhill-gen-{case.name}-"))
    target = work / f"input.{meta.get('ext', 'txt')}"
    shutil.copy(case / "input", target)
    initial = target.stat().st_size
    oracle_log = work / "oracle.log"
    oracle_log.touch()
    env = dict(os.environ, ORACLE_LOG=str(oracle_log))
    cmd = ["taskset", "-c", cpu, str(args.myhill), "reduce", "--jobs", str(args.jobs), "--run-dir", str(work / "run")]
    cmd += shlex.split(args.extra) + [str(case / "interesting.sh"), target.name]
    start = time.monotonic()
    with open(work / "myhill.log", "wb") as log:
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=log, start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=KILL_GRACE)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    wall = time.monotonic() - start
    points = curve_from_tests(work / "run" / "tests.jsonl", initial)
    final = target.stat().st_size
    still = interesting(case, target)
    ended = not timed_out and proc.returncode == 0
    sizes = [size_at(points, initial, at) for at in CHECKPOINTS]
    if ended and still:
        sizes = [min(s, final) for s in sizes]
    # A checkpoint past the time limit is unknown, unless the run had ended by itself.
    sizes = [s if ended or at <= args.timeout else None for s, at in zip(sizes, CHECKPOINTS)]
    record = {
        "case": case.name,
        "family": meta.get("family", meta.get("kind")),
        "initial_bytes": initial,
        "size_at_60": sizes[0],
        "size_at_300": sizes[1],
        "final_bytes": final if still else None,
        "end_s": round(wall, 2) if ended else None,
        "wall_s": round(wall, 2),
        "tests": len(oracle_log.read_text().splitlines()),
        "exit_status": proc.returncode,
        "still_interesting": still,
        "timeout_s": args.timeout,
        "cpu": cpu,
        "extra": args.extra,
        "work": str(work) if args.keep else None,
    }
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return record


def best_peers(peers_file):
    """case -> {size_at_60, size_at_300, end: (bytes, seconds, peer) or None, peers: [...]}."""
    best = {}
    if not peers_file.exists():
        return best
    for line in peers_file.read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        b = best.setdefault(r["case"], {"size_at_60": None, "size_at_300": None, "end": None, "peers": []})
        b["peers"].append(r["peer"])
        for key in ("size_at_60", "size_at_300"):
            if r.get(key) is not None and (b[key] is None or r[key] < b[key]):
                b[key] = r[key]
        if r.get("end_s") is not None and r.get("final_bytes") is not None:
            end = (r["final_bytes"], r["end_s"], r["peer"])
            if b["end"] is None or end[:2] < b["end"][:2]:
                b["end"] = end
    return best


def cell(size):
    return "-" if size is None else str(size)


def end_cell(final, end_s):
    return f"{final} @{end_s:.0f}s" if end_s is not None and final is not None else "-"


def print_table(records, peers, out=sys.stdout):
    head = (
        f"{'case':<22} {'family':<7} {'bytes':>7} | {'myhill@60':>9} {'@300':>7} {'end':>12} | "
        f"{'peer@60':>8} {'@300':>7} {'end':>22} | {'ratio300':>8}"
    )
    print(head, file=out)
    wins = {60: [0, 0], 300: [0, 0]}
    worst = None
    for r in sorted(records, key=lambda r: r["case"]):
        p = peers.get(r["case"])
        p60 = p["size_at_60"] if p else None
        p300 = p["size_at_300"] if p else None
        pend = f"{p['end'][0]} @{p['end'][1]:.0f}s {p['end'][2]}" if p and p["end"] else ("-" if p else "no peer run")
        ratio = f"{r['size_at_300'] / p300:.2f}" if p300 and r["size_at_300"] is not None else "-"
        for at, mine, theirs in ((60, r["size_at_60"], p60), (300, r["size_at_300"], p300)):
            if theirs is not None and mine is not None:
                wins[at][1] += 1
                wins[at][0] += mine <= theirs
        if p300 and r["size_at_300"] is not None:
            worst = max(worst or 0, r["size_at_300"] / p300)
        print(
            f"{r['case']:<22} {r['family']:<7} {r['initial_bytes']:>7} | {cell(r['size_at_60']):>9} {cell(r['size_at_300']):>7} "
            f"{end_cell(r['final_bytes'], r['end_s']):>12} | {cell(p60):>8} "
            f"{cell(p300):>7} {pend:>22} | {ratio:>8}"
            + ("" if r["still_interesting"] else "  RESULT NOT INTERESTING"),
            file=out,
        )
    for at in (60, 300):
        n_ok, n = wins[at]
        print(f"# at {at} s: myhill no larger than the best peer on {n_ok} of {n} cases with peer figures", file=out)
    if worst is not None:
        print(f"# largest ratio to the best peer at 300 s: {worst:.2f}", file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=Path, required=True, help="the directory generate.py wrote")
    ap.add_argument("--lanes", type=int, default=2)
    ap.add_argument("--cpus", default=None, help="one CPU per lane, comma-separated (default 0,1,...)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--myhill", type=Path, default=Path(os.environ.get("MYHILL", ROOT / "target" / "release" / "myhill")))
    ap.add_argument("--extra", default="", help="more arguments for myhill reduce")
    ap.add_argument("--only", help="comma-separated case names or prefixes")
    ap.add_argument("--peers", type=Path, default=HERE / "peers.jsonl")
    ap.add_argument("--results", type=Path, default=Path(tempfile.gettempdir()) / "myhill-generated" / "results.jsonl")
    ap.add_argument("--keep", action="store_true", help="keep each case's directory (myhill's log, run directory)")
    ap.add_argument("--table-only", action="store_true", help="print the table of --results and stop")
    args = ap.parse_args()
    peers = best_peers(args.peers)
    if args.table_only:
        records = [json.loads(ln) for ln in args.results.read_text().splitlines() if ln.strip()]
        latest = {r["case"]: r for r in records}
        print_table(latest.values(), peers)
        return
    if not args.myhill.is_file():
        sys.exit(f"run: no myhill binary at {args.myhill} (cargo build --release, or --myhill PATH)")
    cpus = args.cpus.split(",") if args.cpus else [str(i) for i in range(args.lanes)]
    if len(cpus) < args.lanes:
        sys.exit("run: --cpus needs one CPU per lane")
    only = tuple(args.only.split(",")) if args.only else None
    cases = sorted(
        p for p in args.cases.iterdir() if (p / "interesting.sh").exists() and (not only or p.name.startswith(only))
    )
    if not cases:
        sys.exit(f"run: no case under {args.cases}")
    args.results.parent.mkdir(parents=True, exist_ok=True)
    print(
        f"# {args.myhill} reduce --jobs {args.jobs} {args.extra} TEST FILE; timeout {args.timeout:.0f} s; "
        f"{args.lanes} lanes on CPUs {','.join(cpus[: args.lanes])}; {len(cases)} cases; results {args.results}",
        flush=True,
    )
    todo = queue.Queue()
    for case in cases:
        todo.put(case)
    records, lock = [], threading.Lock()

    def lane(cpu):
        while True:
            try:
                case = todo.get_nowait()
            except queue.Empty:
                return
            rec = run_case(args, case, cpu)
            with lock:
                records.append(rec)
                with open(args.results, "a") as fh:
                    fh.write(json.dumps(rec) + "\n")
                print(
                    f"# {rec['case']}: {rec['initial_bytes']} -> {cell(rec['size_at_60'])} at 60 s, {cell(rec['size_at_300'])} at 300 s, "
                    f"end {end_cell(rec['final_bytes'], rec['end_s'])}, {rec['tests']} tests",
                    flush=True,
                )

    threads = [threading.Thread(target=lane, args=(cpu,)) for cpu in cpus[: args.lanes]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print_table(records, peers)
    if not all(r["still_interesting"] for r in records):
        sys.exit(1)


if __name__ == "__main__":
    main()
