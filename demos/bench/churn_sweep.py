#!/usr/bin/python3
"""Runs the broad-phase workload `churn` (shared/bench/BROADPHASE.md) for every rigid2d broad
phase, and optionally the peers, at N = 1k, 10k, 100k, 1M; writes a Markdown table, the raw JSON
lines and a log-log plot of mean ms/frame against N.

    python3 demos/bench/churn_sweep.py --bench build/release/demos/bench/rigid2d-bench \
        --peers /tmp/peers-build/peer_churn --out-dir demos/bench

Frames: 100 up to N = 100k, fewer at 1M (--frames-1m, default 20). Each point is the run with
the median mean of --repeat runs (default 3; 1 at 1M). brute_force runs only up to N = 20000.
Peers at 1M run with a time limit (their report then says "truncated").
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

BROAD_PHASES = ["brute_force", "grid", "spatial_hash", "sap", "tree", "hierarchical_hash"]
PEERS = [  # (label, arguments of peer_churn)
    ("chipmunk bbtree", ["--engine", "chipmunk", "--index", "bbtree"]),
    ("chipmunk spatial_hash", ["--engine", "chipmunk", "--index", "spatial_hash"]),
    ("chipmunk sweep1d", ["--engine", "chipmunk", "--index", "sweep1d"]),
    ("box2d dynamic_tree", ["--engine", "box2d"]),
]
EXPECTED_OVERLAPS = {(10000, 100): 341445, (100000, 100): 3457250}


def run_json(command):
    """Runs a program that prints one JSON line; returns the parsed line or None if it refused."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(f"  skipped ({done.returncode}): {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}\n")
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_run(reports):
    """The report whose mean ms/frame is the median of the runs (the lower middle for an even count)."""
    ordered = sorted(reports, key=lambda r: r["ms_per_frame"]["mean"])
    return ordered[(len(ordered) - 1) // 2]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=os.path.join(here, "../../build/release/demos/bench/rigid2d-bench"))
    parser.add_argument("--peers", default="/tmp/peers-build/peer_churn", help="peer_churn, or '' for none")
    parser.add_argument("--out-dir", default=here)
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--frames-1m", type=int, default=20)
    parser.add_argument("--peer-time-limit-1m", type=float, default=60.0)
    args = parser.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []  # (label, family, n, report)
    started = time.time()
    for n in sizes:
        frames = args.frames if n < 1000000 else args.frames_1m
        repeat = args.repeat if n < 1000000 else 1
        for name in BROAD_PHASES:
            if name == "brute_force" and n > 20000:
                continue
            sys.stderr.write(f"rigid2d {name} n={n} frames={frames} x{repeat}\n")
            report = run_json([args.bench, "churn", "--broadphase", name, "--n", str(n),
                               "--frames", str(frames), "--repeat", str(repeat)])
            if report:
                rows.append((f"rigid2d {name}", "rigid2d", n, report))
        if not args.peers:
            continue
        for label, peer_args in PEERS:
            extra = ["--time-limit", str(args.peer_time_limit_1m)] if n >= 1000000 else []
            sys.stderr.write(f"{label} n={n} frames={frames} x{repeat}\n")
            reports = [run_json([args.peers, *peer_args, "--n", str(n), "--frames", str(frames), *extra])
                       for _ in range(repeat)]
            reports = [r for r in reports if r]
            if reports:
                rows.append((label, "peer", n, median_run(reports)))

    for label, _, n, report in rows:
        expected = EXPECTED_OVERLAPS.get((n, report["frames"]))
        if expected is not None and report["overlaps"] != expected:
            sys.stderr.write(f"WARNING: {label} n={n}: overlaps {report['overlaps']} != {expected}\n")

    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "churn_sweep.jsonl"), "w") as f:
        for label, _, n, report in rows:
            f.write(json.dumps({"label": label, **report}) + "\n")
    write_table(rows, sizes, args, os.path.join(args.out_dir, "churn_sweep.md"), time.time() - started)
    write_plot(rows, os.path.join(args.out_dir, "churn_sweep.svg"))


def write_table(rows, sizes, args, path, seconds):
    labels = list(dict.fromkeys(label for label, _, _, _ in rows))
    lines = [
        "# Broad-phase churn sweep",
        "",
        "Workload `churn` of shared/bench/BROADPHASE.md (N moving boxes, every overlapping pair each "
        "frame). Each cell: mean / median / p95 ms per frame; rigid2d points are the run with the median "
        f"mean of {args.repeat} runs ({args.frames} frames; N = 1M: {args.frames_1m} frames, 1 run). "
        "Peers at 1M stop after the frame that passes "
        f"{args.peer_time_limit_1m:.0f} s (marked *). Overlap totals are checked against the peers'.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average at the end "
        f"{os.getloadavg()[0]:.1f}; sweep took {seconds / 60:.1f} min.",
        "",
        "Command: `python3 demos/bench/churn_sweep.py " + " ".join(sys.argv[1:]) + "`",
        "",
        "| broad phase | " + " | ".join(f"N = {n:,}" for n in sizes) + " |",
        "|---|" + "---|" * len(sizes),
    ]
    for label in labels:
        cells = []
        for n in sizes:
            match = [r for l, _, rn, r in rows if l == label and rn == n]
            if not match:
                cells.append("—")
                continue
            m = match[0]["ms_per_frame"]
            mark = "*" if match[0].get("truncated") else ""
            cells.append(f"{m['mean']:.2f} / {m['median']:.2f} / {m['p95']:.2f}{mark}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Overlaps (sum over frames): " + "; ".join(
        f"N = {n:,}: {sorted({r['overlaps'] for _, _, rn, r in rows if rn == n and not r.get('truncated')})}"
        for n in sizes))
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def write_plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    labels = list(dict.fromkeys(label for label, _, _, _ in rows))
    for label in labels:
        points = sorted((n, r["ms_per_frame"]["mean"]) for l, _, n, r in rows if l == label)
        family = next(f for l, f, _, _ in rows if l == label)
        style = "-o" if family == "rigid2d" else "--s"
        ax.plot([p[0] for p in points], [p[1] for p in points], style, label=label, markersize=4)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("N boxes")
    ax.set_ylabel("mean ms per frame")
    ax.set_title("churn: broad-phase update + all pairs per frame (lower is better)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    main()
