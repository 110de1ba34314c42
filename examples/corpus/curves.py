#!/usr/bin/env python3
"""Size against time for reductions of the large corpus cases: checkpoint tables and plots.

    curves.py --initial BYTES [--at 60,300,900] [--plot OUT.png [--x seconds|tests]]
              [--title T] LABEL=RUNLOG ...

Each RUNLOG is the log that ../shared/bench/run.sh writes for one run
($BENCH_OUT/logs/PEER-CASE-jJOBS.log), for a run made with BENCH_KEEP=1 so that its run
directory (named in the log) still holds `oracle.log` and `oracle.log.curve`. The large
cases' tests append "EPOCH BYTES" to `$ORACLE_LOG.curve` on every interesting verdict, so
the curve is measured the same way for every reducer: the smallest interesting size
seen up to each moment, from the run's start (the log's first line, to the second).

For every run the table gives the smallest size seen by each checkpoint (the initial
size before the first interesting verdict) and the number of tests started by then
(lines of `oracle.log`, each stamped with its start time by the same tests). `--plot`
draws size (log scale) against time, or against tests started (`--x tests`, which a loaded
machine distorts less), for all runs, with matplotlib if it is installed.
Only the standard library is needed for the table.
"""
import argparse
import datetime
import os
import re
import sys


def read_run(log_path):
    with open(log_path) as fh:
        head = [fh.readline() for _ in range(2)]
    m = re.match(r"# (\S+) peer=(\S+) .*case=(\S+) jobs=(\d+) timeout=(\d+)", head[0])
    if not m:
        sys.exit("%s: not a run.sh log" % log_path)
    start = datetime.datetime.fromisoformat(m.group(1)).timestamp()
    run_dir = head[1].split("run dir:", 1)[1].strip()
    curve = []
    curve_path = os.path.join(run_dir, "oracle.log.curve")
    if os.path.exists(curve_path):
        with open(curve_path) as fh:
            for line in fh:
                parts = line.split()
                if len(parts) == 2:
                    curve.append((float(parts[0]) - start, int(parts[1])))
    curve.sort()
    calls = []
    with open(os.path.join(run_dir, "oracle.log")) as fh:
        for line in fh:
            parts = line.split()
            if len(parts) >= 3:
                calls.append(float(parts[2]) - start)
    return {"peer": m.group(2), "case": m.group(3), "jobs": int(m.group(4)),
            "timeout": int(m.group(5)), "curve": curve, "calls": sorted(calls)}


def best_by(curve, t, initial):
    best = initial
    for at, size in curve:
        if at > t:
            break
        best = min(best, size)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--at", default="60,300,900")
    ap.add_argument("--initial", type=int, required=True, help="the input's size in bytes")
    ap.add_argument("--plot")
    ap.add_argument("--x", choices=["seconds", "tests"], default="seconds")
    ap.add_argument("--title", default="")
    ap.add_argument("runs", nargs="+", metavar="LABEL=RUNLOG")
    args = ap.parse_args()
    marks = [int(x) for x in args.at.split(",")]
    runs = []
    for spec in args.runs:
        label, _, path = spec.partition("=")
        run = read_run(path)
        runs.append((label, run))
    print("| run | " + " | ".join("%d s" % t for t in marks) + " |")
    print("| --- |" + " ---: |" * len(marks))
    for label, run in runs:
        cells = []
        for t in marks:
            if t > run["timeout"]:
                cells.append("")
                continue
            tests = sum(1 for c in run["calls"] if c <= t)
            cells.append("{:,} ({:,} tests)".format(best_by(run["curve"], t, args.initial), tests))
        print("| %s | %s |" % (label, " | ".join(cells)))
    if args.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.exit("--plot needs matplotlib (pip install matplotlib)")
        fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
        styles = ["-", "--", "-.", ":"]
        for n, (label, run) in enumerate(runs):
            def x_of(t):
                if args.x == "seconds":
                    return t
                return sum(1 for c in run["calls"] if c <= t)
            xs, ys, best = [0.0], [args.initial], args.initial
            for at, size in run["curve"]:
                if size < best:
                    xs += [x_of(at), x_of(at)]
                    ys += [best, size]
                    best = size
            xs.append(x_of(run["timeout"]))
            ys.append(best)
            ax.plot(xs, ys, label=label, linewidth=1.5, linestyle=styles[n % len(styles)])
        if args.x == "seconds":
            for t in marks:
                ax.axvline(t, color="0.85", linewidth=0.8, zorder=0)
        ax.set_yscale("log")
        ax.set_xlabel(args.x)
        ax.set_ylabel("bytes (smallest interesting so far)")
        ax.set_title(args.title)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot)


if __name__ == "__main__":
    main()
