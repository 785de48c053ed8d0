"""The tables and plots of demos/bench/compare's report, from its list of results (the dicts
compare collects, one per run; see compare for their fields). Kept apart from compare so each file
holds one concern: compare runs things, this turns results into Markdown and PNGs."""
import os

def fmt(x, digits=3):
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:.{min(digits, 1)}f}"
    return f"{x:.{digits}f}"


def is_peer(config):
    return not config.startswith("rigid2d")


def scene_tables(results):
    lines = []
    by_scene = {}
    for r in results:
        if r["kind"] == "scene":
            by_scene.setdefault(r["scene"], []).append(r)
    headline = []
    for scene, rows in by_scene.items():
        ok = [r for r in rows if "report" in r]
        peers = [r for r in ok if is_peer(r["config"])]
        best_peer = min(peers, key=lambda r: r["report"]["ms_per_step"]["mean"]) if peers else None
        bodies = ok[0]["report"]["bodies"] if ok else None
        steps = ok[0]["report"]["steps"] if ok else None
        lines += [f"### {scene}", "",
                  f"{bodies} bodies, {steps} steps. Fastest peer (by mean): "
                  f"{best_peer['config'] if best_peer else 'none'}. "
                  "Speed-up = fastest peer's ms/step ÷ this row's (mean; > 1 is faster than the peer).", "",
                  "| engine | broad phase | threads | median ms/step | p95 | mean | speed-up (mean) "
                  "| speed-up (median) | escaped | max overlap m | max displacement m | joint error max m "
                  "| kinetic energy J | awake at end | peak RSS MB |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            engine = "rigid2d" if not is_peer(r["config"]) else r["config"].split("-")[0]
            if "report" not in r:
                lines.append(f"| {engine} | {r['config']} | | failed: {r['error']} "
                             "| | | | | | | | | | | |")
                continue
            rep, m = r["report"], r.get("metrics", {})
            ms = rep["ms_per_step"]
            bp = rep.get("broadphase", "")
            if is_peer(r["config"]):
                bp = f"{bp} ({r['config']})"
            up_mean = up_median = None
            if best_peer:
                up_mean = best_peer["report"]["ms_per_step"]["mean"] / max(ms["mean"], 1e-9)
                up_median = best_peer["report"]["ms_per_step"]["median"] / max(ms["median"], 1e-9)
            rss = r.get("peak_rss_kb")
            lines.append(
                f"| {engine} | {bp} | {rep.get('threads', 1)} | {fmt(ms['median'])} | {fmt(ms['p95'])} | {fmt(ms['mean'])} "
                f"| {fmt(up_mean, 2)}× | {fmt(up_median, 2)}× | {m.get('escaped', '—')} "
                f"| {fmt(m.get('max_overlap'), 4)} | {fmt(m.get('max_displacement'), 2)} "
                f"| {joint_error(m)} | {fmt(m.get('kinetic_energy'), 2)} | {rep.get('awake_dynamic_bodies', '—')} "
                f"| {fmt(rss / 1024 if rss else None, 1)} |")
            if not is_peer(r["config"]) and best_peer:
                headline.append({"scene": scene, "config": r["config"], "speedup": up_mean,
                                 "mean": ms["mean"], "metrics": m, "peer": best_peer["config"],
                                 "peer_mean": best_peer["report"]["ms_per_step"]["mean"],
                                 "peer_metrics": best_peer.get("metrics", {})})
        stage_rows = [r for r in ok if not is_peer(r["config"]) and "stage_ms_mean" in r["report"]]
        if stage_rows:
            stages = list(stage_rows[0]["report"]["stage_ms_mean"])
            lines += ["", "rigid2d per-stage mean ms/step (World::stats):", "",
                      "| broad phase | " + " | ".join(stages) + " |",
                      "|---|" + "---:|" * len(stages)]
            for r in stage_rows:
                lines.append(f"| {r['report']['broadphase']} | " +
                             " | ".join(fmt(r["report"]["stage_ms_mean"][s]) for s in stages) + " |")
        for d in results:
            if d["kind"] == "determinism" and d["scene"] == scene and d["groups"]:
                if len(d["groups"]) == 1:
                    lines += ["", f"Final states byte-identical across the {len(d['groups'][0])} "
                              "rigid2d broad phases that ran."]
                else:
                    lines += ["", "**Final states differ between rigid2d broad phases**; identical groups: " +
                              "; ".join(", ".join(g) for g in d["groups"])]
        lines.append("")
    return lines, headline


def memory_table(results, baseline):
    lines = ["| scene | configuration | bodies | peak RSS MB | process bytes per body (over the "
             "configuration's newtons_cradle run) | rigid2d world: RSS growth kB | bytes per body |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        if r["kind"] not in ("scene", "scaling") or "report" not in r or not r.get("peak_rss_kb"):
            continue
        bodies = r["report"]["bodies"]
        base = baseline.get(r["config"])
        per_body = (r["peak_rss_kb"] - base) * 1024 / bodies if base and bodies > 100 else None
        name = r["scene"] if r["kind"] == "scene" else f"circle_rain_{r['n']} (scaling)"
        world_kb = r["report"].get("world_rss_kb")
        world_per_body = world_kb * 1024 / bodies if world_kb is not None and bodies > 100 else None
        lines.append(f"| {name} | {r['config']} | {bodies} | {fmt(r['peak_rss_kb'] / 1024, 1)} "
                     f"| {fmt(per_body, 0)} | {fmt(world_kb, 0)} | {fmt(world_per_body, 0)} |")
    return lines


def churn_table(results):
    """Mean ms per frame (total / frames: what the targets are set on), then each rigid2d broad
    phase's p95 ÷ median (steadiness), then the speed targets at 10k, 100k and 1M."""
    rows = [r for r in results if r["kind"] == "churn"]
    sizes = sorted({r["n"] for r in rows})
    configs = list(dict.fromkeys(r["config"] for r in rows))
    cell = {(r["config"], r["n"]): r for r in rows}

    def table(title, value):
        out = [title, "", "| configuration | " + " | ".join(f"N = {n:,}" for n in sizes) + " |",
               "|---|" + "---:|" * len(sizes)]
        for c in configs:
            parts = []
            for n in sizes:
                r = cell.get((c, n))
                if r is None:
                    parts.append("—")
                elif "report" not in r:
                    parts.append("failed" if "timed out" not in r["error"] else "timed out")
                else:
                    text = value(r["report"])
                    if r["report"].get("truncated"):
                        text += " (truncated)"
                    parts.append(text)
            out.append(f"| {c} | " + " | ".join(parts) + " |")
        return out

    lines = table("Mean ms per frame (total / frames; frames: 100 up to N = 100k, 10 at 1M; the "
                  "median over the repetitions).", lambda rep: fmt(rep["ms_per_frame"]["mean"]))
    lines += [""] + table("Steadiness: p95 frame ÷ median frame (target: at most 2).",
                          lambda rep: fmt(rep["ms_per_frame"]["p95"] / max(rep["ms_per_frame"]["median"], 1e-9), 2))
    lines += ["", "Targets: the fastest rigid2d broad phase's mean against the fastest peer's "
              "(the median over the rounds, and the median over the rounds on each CPU).", "",
              "| N | fastest rigid2d | mean ms | fastest peer | mean ms | ratio | target |",
              "|---:|---|---:|---|---:|---:|---:|"]
    cpus = sorted({c for r in rows for c in r.get("mean_by_cpu", {})}, key=int)
    for n, target in ((10000, 5), (100000, 10), (1000000, 10)):
        ours = [r for r in rows if r["n"] == n and "report" in r and not is_peer(r["config"])]
        peers = [r for r in rows if r["n"] == n and "report" in r and is_peer(r["config"])
                 and not r["report"].get("truncated")]
        if not ours or not peers:
            continue
        a = min(ours, key=lambda r: r["report"]["ms_per_frame"]["mean"])
        b = min(peers, key=lambda r: r["report"]["ms_per_frame"]["mean"])
        ma, mb = a["report"]["ms_per_frame"]["mean"], b["report"]["ms_per_frame"]["mean"]
        lines.append(f"| {n:,} | {a['config']} | {fmt(ma)} | {b['config']} | {fmt(mb)} "
                     f"| **{mb / max(ma, 1e-9):.1f}×** | ≥ {target}× |")
        for c in cpus:
            on = [(r, r["mean_by_cpu"][c]) for r in ours if c in r.get("mean_by_cpu", {})]
            peer_on = [(r, r["mean_by_cpu"][c]) for r in peers if c in r.get("mean_by_cpu", {})]
            if not on or not peer_on:
                continue
            (ra, ca), (rb, cb) = min(on, key=lambda x: x[1]), min(peer_on, key=lambda x: x[1])
            lines.append(f"| {n:,}, CPU {c} | {ra['config']} | {fmt(ca)} | {rb['config']} | "
                         f"{fmt(cb)} | {cb / max(ca, 1e-9):.1f}× | ≥ {target}× |")
    # The exact overlap count must agree across engines: say so when it does not.
    for n in sizes:
        counts = {r["config"]: r["report"].get("overlaps") for r in rows
                  if r["n"] == n and "report" in r and not r["report"].get("truncated")}
        if len(set(counts.values())) > 1:
            lines += ["", f"**N = {n}: overlap counts differ**: " +
                      ", ".join(f"{c} {v}" for c, v in counts.items())]
        elif counts:
            lines += ["", f"N = {n:,}: every engine counted {next(iter(counts.values())):,} overlaps."]
    return lines


def scaling_table(results):
    rows = [r for r in results if r["kind"] == "scaling"]
    lines = ["| configuration | bodies | steps | mean ms/step | median ms/step | µs/step per body "
             "| awake at end |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if "report" not in r:
            lines.append(f"| {r['config']} | {r['n']} | failed: {r['error']} | | | | |")
            continue
        rep = r["report"]
        ms = rep["ms_per_step"]
        lines.append(f"| {r['config']} | {rep['bodies']} | {rep['steps']} | {fmt(ms['mean'])} "
                     f"| {fmt(ms['median'])} | {fmt(ms['mean'] * 1000 / rep['bodies'], 3)} "
                     f"| {rep.get('awake_dynamic_bodies', '—')} |")
    return lines


def threads_table(results):
    """The threaded step: each scene's mean and median ms/step per worker count, the speed-up over
    one worker and where the time went (World::stats stages)."""
    rows = [r for r in results if r["kind"] == "threads"]
    stages = ["pairs", "contacts", "gather", "solve", "refit", "sleep"]
    lines = ["| scene | bodies | threads | mean ms/step | median ms/step | speed-up (mean) | load "
             "| " + " | ".join(f"{s} ms" for s in stages) + " |",
             "|---|---:|---:|---:|---:|---:|---:|" + "---:|" * len(stages)]
    one = {r["scene"]: r["report"]["ms_per_step"]["mean"] for r in rows
           if r["threads"] == 1 and "report" in r}
    for r in rows:
        if "report" not in r:
            lines.append(f"| {r['scene']} | | {r['threads']} | failed: {r['error']} |" + " |" * (3 + len(stages)))
            continue
        rep = r["report"]
        ms = rep["ms_per_step"]
        base = one.get(r["scene"])
        speedup = f"{base / max(ms['mean'], 1e-9):.2f}×" if base else "—"
        stage = rep.get("stage_ms_mean", {})
        lines.append(f"| {r['scene']} | {rep['bodies']} | {r['threads']} | {fmt(ms['mean'])} "
                     f"| {fmt(ms['median'])} | {speedup} | {r.get('load', 0):.1f} | "
                     + " | ".join(fmt(stage.get(s)) for s in stages) + " |")
    return lines


def threads_plot(results, out_dir, plt):
    """Speed-up over one worker against the worker count, per scene, beside the ideal."""
    rows = [r for r in results if r["kind"] == "threads" and "report" in r]
    one = {r["scene"]: r["report"]["ms_per_step"]["mean"] for r in rows if r["threads"] == 1}
    if not rows or not one:
        return None
    fig, ax = plt.subplots(figsize=(6, 4.5))
    counts = sorted({r["threads"] for r in rows})
    ax.plot(counts, counts, ":", color="gray", label="ideal")
    for scene in dict.fromkeys(r["scene"] for r in rows):
        if scene not in one:
            continue
        pts = sorted((r["threads"], one[scene] / max(r["report"]["ms_per_step"]["mean"], 1e-9))
                     for r in rows if r["scene"] == scene)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o", label=scene)
    ax.set_xticks(counts)
    ax.set_xlabel("workers (--threads)")
    ax.set_ylabel("speed-up over 1 worker (mean ms/step)")
    ax.set_title("the threaded step")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "threads.png"), dpi=90)
    plt.close(fig)
    return "threads.png"


def plots(results, out_dir):
    """Returns the plot file names written (relative to out_dir's parent), or a note."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "matplotlib is not installed: no plots"
    os.makedirs(out_dir, exist_ok=True)
    written = []
    scenes = list(dict.fromkeys(r["scene"] for r in results if r["kind"] == "scene"))
    for scene in scenes:
        rows = [r for r in results if r["kind"] == "scene" and r["scene"] == scene and "report" in r]
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.5))
        names = [r["config"] for r in rows]
        med = [r["report"]["ms_per_step"]["median"] for r in rows]
        p95 = [r["report"]["ms_per_step"]["p95"] for r in rows]
        colors = ["tab:blue" if not is_peer(n) else "tab:gray" for n in names]
        ax.barh(names, med, color=colors, xerr=[[0] * len(med), [max(p - m, 0) for p, m in zip(p95, med)]])
        ax.invert_yaxis()
        ax.set_xlabel("ms per step (bar: median, whisker: p95)")
        ax.set_title(f"{scene}: rigid2d (blue) vs peers (grey)")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        name = f"scene_{scene}.png"
        fig.savefig(os.path.join(out_dir, name), dpi=90)
        plt.close(fig)
        written.append(name)

    churn = [r for r in results if r["kind"] == "churn" and "report" in r]
    if churn:
        fig, ax = plt.subplots(figsize=(8, 5.5))
        for config in dict.fromkeys(r["config"] for r in churn):
            pts = sorted((r["n"], r["report"]["ms_per_frame"]["mean"]) for r in churn
                         if r["config"] == config and not r["report"].get("truncated"))
            if not pts:
                continue
            style = "-o" if not is_peer(config) else "--s"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=config, markersize=4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("boxes N")
        ax.set_ylabel("ms per frame (mean)")
        ax.set_title("churn: rigid2d broad phases (solid) vs peer indexes (dashed)")
        ax.grid(which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "churn.png"), dpi=90)
        plt.close(fig)
        written.append("churn.png")

    scaling = [r for r in results if r["kind"] == "scaling" and "report" in r]
    if scaling:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.5))
        for config in dict.fromkeys(r["config"] for r in scaling):
            pts = sorted((r["report"]["bodies"], r["report"]["ms_per_step"]["mean"]) for r in scaling
                         if r["config"] == config)
            style = "-o" if not is_peer(config) else "--s"
            a1.plot([p[0] for p in pts], [p[1] for p in pts], style, label=config)
            a2.plot([p[0] for p in pts], [1000 * p[1] / p[0] for p in pts], style, label=config)
        for ax, label in ((a1, "mean ms per step"), (a2, "µs per step per body")):
            ax.set_xscale("log")
            ax.set_xlabel("bodies")
            ax.set_ylabel(label)
            ax.grid(which="both", alpha=0.3)
        a1.set_yscale("log")
        a1.legend(fontsize=8)
        fig.suptitle("circle_rain scaling")
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "scaling.png"), dpi=90)
        plt.close(fig)
        written.append("scaling.png")
    threads = threads_plot(results, out_dir, plt)
    if threads:
        written.append(threads)
    return written, None


def joint_error(m):
    """The largest joint error of a final state (scenes with joints), '—' without joints."""
    j = m.get("joint_error") if m else None
    if not j:
        return "—"
    text = fmt(j.get("max"), 4)
    return text + (f" ({j['nonfinite']} non-finite)" if j.get("nonfinite") else "")


def headline_table(headline):
    if not headline:
        return ["No rigid2d/peer pair completed."]
    lines = ["Fastest rigid2d broad phase per scene against the fastest peer configuration, by mean "
             "ms/step (total / steps), with the quality figures of both (escaped bodies, max overlap m, "
             "max displacement m; with joints, the largest joint error m).", "",
             "| scene | rigid2d broad phase | mean ms/step | fastest peer | its mean ms/step "
             "| speed-up | rigid2d escaped / overlap / displacement | peer escaped / overlap / displacement |",
             "|---|---|---:|---|---:|---:|---|---|"]

    def quality(m):
        if not m or "error" in m:
            return "—"
        text = f"{m['escaped']} / {m['max_overlap']:.4f} / {m['max_displacement']:.2f}"
        return text + (f" / joints {joint_error(m)}" if m.get("joint_error") else "")

    for scene in dict.fromkeys(h["scene"] for h in headline):
        best = max((h for h in headline if h["scene"] == scene), key=lambda h: h["speedup"])
        lines.append(f"| {scene} | {best['config'][len('rigid2d-'):]} | {fmt(best['mean'])} "
                     f"| {best['peer']} | {fmt(best['peer_mean'])} | **{best['speedup']:.2f}×** "
                     f"| {quality(best['metrics'])} | {quality(best['peer_metrics'])} |")
    return lines
