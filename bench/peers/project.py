#!/usr/bin/env python3
"""Projects a bench-peers run on a small machine to 8 and 16 cores (issue 20, item 7).

    python3 bench/peers/project.py .build/peers-work/bench-peers.json        # a run's summary
    python3 bench/peers/project.py .build/peers-work/runs.jsonl              # every run logged

It is arithmetic on measured CPU seconds, not a measurement. For each workload and preset:

- x264's work is the CPU of "x264 alone" on our frames (C_x). It spreads over the cores with an
  efficiency e(N): e(2) is measured (x264 alone's cores ÷ 2); e(8) and e(16) are assumptions
  (--e8, --e16: 1080p x264 runs about 1.5 frame threads per core and flattens past ~8-12 threads).
- Each system's own work is its CPU minus C_x (D): drawing, decoding, converting, piping.
- How much of D can run at once: ours draws in lanes, one per core up to 4 by default
  (`drawingThreads`; `addFrames` without `independent:` draws on one thread); the pycairo pipe,
  MoviePy, Manim and movis draw in one Python thread (Manim encodes on a second one); the ffmpeg
  CLI's zoompan/drawtext filters run on one thread.
- wall(N) = max((C_x / e(N) + D) / N,  D / lanes(N)): the cores are shared, and the drawing
  cannot go faster than its lanes. At N = 2 this reproduces the measured wall within ~10 %; the
  script prints both so the model can be judged where it can be checked.

What would confirm it on a bigger machine: `BENCH_PEERS_CORES=8 make bench-peers` and
`BENCH_PEERS_CORES=16 …` on a quiet 16-core box (the script pins every system with taskset), plus
`make bench BENCH_ARGS="--cores 8"` for x264 alone's own scaling, which is the assumption that matters most.
"""
import argparse, json, statistics, sys

LANES_MAX = 4


def load(path):
    """[(workload, preset, frames, system, wall, cpu)] from a bench-peers.json or a runs.jsonl."""
    rows = []
    with open(path) as f:
        text = f.read()
    try:
        data = json.loads(text)
        for r in data["runs"]:
            for w, c in zip(r["walls"], r["cpus"]):
                rows.append((r["workload"], r["preset"], r["frames"], r["system"], w, c))
    except (json.JSONDecodeError, KeyError, TypeError):
        for line in text.splitlines():
            r = json.loads(line)
            if r.get("status", 0) == 0:
                rows.append((r["workload"], r["preset"], r["frames"], r["system"], r["wall"], r["cpu"]))
    return rows


def serial(system):
    """Whether a system's own work runs on one thread."""
    return system != "ours independent" and not system.startswith("ours clip") and not system.startswith("ours Slideshow")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--cores", type=int, default=2, help="cores the run had (default 2)")
    ap.add_argument("--e8", type=float, default=0.80, help="x264's parallel efficiency on 8 cores (assumed)")
    ap.add_argument("--e16", type=float, default=0.60, help="x264's parallel efficiency on 16 cores (assumed)")
    a = ap.parse_args()
    rows = load(a.path)
    groups = {}
    for wl, preset, frames, system, wall, cpu in rows:
        groups.setdefault((wl, preset), {}).setdefault(frames, {}).setdefault(system, []).append((wall, cpu))
    print("Projection from %s (measured on %d cores; x264 efficiency assumed %.2f at 8 and %.2f at 16 cores)"
          % (a.path, a.cores, a.e8, a.e16))
    print("wall seconds: measured | model at %d | model at 8 | model at 16;  ratio = peer ÷ ours at 8 and 16" % a.cores)
    for (wl, preset) in sorted(groups):
        by_frames = groups[(wl, preset)]
        frames = max(by_frames)
        systems = {s: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for s, v in by_frames[frames].items()}
        if "x264 alone" not in systems:
            continue
        x_wall, cx = systems["x264 alone"]
        e_n = min(1.0, cx / x_wall / a.cores)
        eff = {a.cores: e_n, 8: a.e8, 16: a.e16}
        print("\n%s at %s, %d frames (x264 alone: %.1f CPU s, efficiency %.2f on %d cores)" % (wl, preset, frames, cx, e_n, a.cores))
        model = {}
        for s, (wall, cpu) in systems.items():
            if s == "x264 alone":
                model[s] = {n: cx / (n * eff[n]) for n in eff}
                continue
            d = max(0.0, cpu - cx)
            lanes = (lambda n: 1) if serial(s) else (lambda n: min(n, LANES_MAX))
            model[s] = {n: max((cx / eff[n] + d) / n, d / lanes(n)) for n in eff}
        ours = [s for s in systems if s.startswith("ours")]
        for s, (wall, cpu) in systems.items():
            m = model[s]
            line = "  %-18s %7.1f | %7.1f | %6.1f | %6.1f" % (s, wall, m[a.cores], m[8], m[16])
            if not s.startswith("ours") and ours:
                best = min(ours, key=lambda o: model[o][8])
                line += "   ÷ %s: %.2f× at 8, %.2f× at 16" % (best, m[8] / model[best][8], m[16] / model[best][16])
            print(line)


if __name__ == "__main__":
    sys.exit(main())
