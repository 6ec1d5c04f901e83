"""`make bench-peers`: MovieMaker against its peers on W1, W2 and W3 (see workloads.py), paired runs.

For every workload and x264 preset, each peer runs paired with our version, alternated (ours, peer,
ours, peer …). Each run is one process tree, measured from outside: wall time, CPU (user + system of
the process and the children it waited for, from wait4), peak RSS (the sum over the process tree,
sampled every 50 ms: a pipe's two processes are both counted), frames written (ffprobe). During each
pair the CPU the rest of the machine took is /proc/stat's busy time less our runs' own CPU; a pair in
which other processes took more than BUSY cores on average is flagged.

    python run.py --bin .build/release/moviemaker-bench --work .build/peers-work [--quick]
                  [--presets medium,veryfast] [--workloads W1,W2,W3] [--pairs 2] [--cores N] [--json out.json]

--cores N runs every system (ours, each peer, x264 alone, and the decode of our frames) under
`taskset -c` on the first N CPUs this script may use, so each system's scaling from 1 to N cores is
measured the same way (MovieMaker sizes its drawing lanes by the affinity mask, as x264 does).
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time

import workloads as W

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
BUSY = 0.2          # cores taken by other processes above which a pair is flagged
HZ = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def machine_busy_seconds():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return (sum(v[:8]) - idle) / HZ


def tree_rss(root):
    """Resident bytes of `root` and all its descendants."""
    children = {}
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(pid))
        except (OSError, IndexError):
            pass
    stack = [root]
    while stack:
        pid = stack.pop()
        try:
            with open("/proc/%d/statm" % pid) as f:
                total += int(f.read().split()[1]) * PAGE
        except OSError:
            pass
        stack += children.get(pid, [])
    return total


PINNED = []         # ["taskset", "-c", "0,1"] with --cores


def measure(cmd, log):
    """Runs `cmd` (under `taskset` with --cores); returns wall, cpu, peak RSS (bytes), exit status."""
    cmd = PINNED + cmd
    start = time.monotonic()
    with open(log, "w") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=HERE)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(p.pid))
            done.wait(0.05)
    t = threading.Thread(target=sample)
    t.start()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    done.set()
    t.join()
    p.returncode = status
    return dict(wall=wall, cpu=ru.ru_utime + ru.ru_stime, rss=peak[0], status=os.waitstatus_to_exitcode(status))


def frame_count(path):
    r = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                        "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
    try:
        return int(r.stdout.strip().split(",")[0])
    except ValueError:
        return -1


def psnr(a, b):
    r = subprocess.run(["ffmpeg", "-hide_banner", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"],
                       capture_output=True, text=True)
    m = re.search(r"average:([0-9.inf]+)", r.stderr)
    return float(m.group(1)) if m else float("nan")


MANIM, MOVIS = "Manim 0.22.0", "movis 0.7.1"     # the versions bench-peers.sh installs


def commands(a, workload, preset, frames, work):
    """{system: (kind, function(out) -> command)}: ours first, then the peers this workload has."""
    f = ["--frames", str(frames)]
    photos = ["--photos", os.path.join(work, "photos")] if workload == "W2" else []
    ours = {"W1": [("ours addFrames", "W1"), ("ours independent", "W1-independent")],
            "W2": [("ours Slideshow", "W2")], "W3": [("ours clip", "W3"), ("ours held", "W3-held")]}[workload]
    systems = {}
    for name, peer in ours:
        systems[name] = ("ours", lambda out, peer=peer: [a.bin, "--peer", peer, "--preset", preset, "--out", out] + f + photos)
    systems["pycairo pipe"] = ("peer", lambda out: [PY, "pycairo_pipe.py", workload, "--preset", preset, "--out", out] + f + photos)
    if workload != "W1":
        systems["ffmpeg CLI"] = ("peer", lambda out: [PY, "ffmpeg_cli.py", workload, "--preset", preset, "--out", out] + f + photos)
    systems["MoviePy 2.2.1"] = ("peer", lambda out: [PY, "moviepy_peer.py", workload, "--preset", preset, "--out", out] + f + photos)
    if workload in ("W1", "W3"):
        systems[MANIM] = ("peer", lambda out: [PY, "manim_peer.py", workload, "--preset", preset, "--out", out] + f)
    if workload in ("W2", "W3"):
        systems[MOVIS] = ("peer", lambda out: [PY, "movis_peer.py", workload, "--preset", preset, "--out", out] + f + photos)
    raw = os.path.join(work, "%s-%s-ours.yuv" % (workload, preset))
    systems["x264 alone"] = ("peer", lambda out: ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                                  "-s", "%dx%d" % (W.WIDTH, W.HEIGHT), "-r", str(W.FPS), "-i", raw,
                                                  "-c:v", "libx264", "-preset", preset, "-crf", str(W.CRF), out])
    return systems, raw


# Issue 20's targets, ours ÷ peer in speed from the pairs, per (workload, preset, peer); for W1 the better
# of our two forms counts (the README shows `independent: true` as the way to write independent frames).
TARGETS = {("W1", "medium", "pycairo pipe"): 1.10, ("W1", "medium", "MoviePy 2.2.1"): 1.15,
           ("W1", "veryfast", "pycairo pipe"): 1.3, ("W1", "veryfast", "MoviePy 2.2.1"): 1.6}
for _preset in ("medium", "veryfast"):
    TARGETS.update({("W2", _preset, "pycairo pipe"): 1.5, ("W2", _preset, "ffmpeg CLI"): 1.3, ("W2", _preset, "MoviePy 2.2.1"): 4.0,
                    ("W3", _preset, "pycairo pipe"): 1.5, ("W3", _preset, "ffmpeg CLI"): 1.0})
    # Manim Community (W1, W3) and movis (W2, W3).
    TARGETS.update({("W1", _preset, MANIM): 1.2, ("W3", _preset, MANIM): 1.5,
                    ("W2", _preset, MOVIS): 2.0, ("W3", _preset, MOVIS): 2.0})


def target_summary(pair_results):
    """Lines saying, per target, the best median ratio of ours and whether it is met or by how much it is missed."""
    lines = []
    for (workload, preset, peer), goal in TARGETS.items():
        rows = [p for p in pair_results if (p["workload"], p["preset"], p["peer"]) == (workload, preset, peer) and p["ratios"]]
        if not rows:
            continue
        best = max(rows, key=lambda p: statistics.median(p["ratios"]))
        med = statistics.median(best["ratios"])
        verdict = "met" if med >= goal else "MISSED by %.1f %%" % (100 * (1 - med / goal))
        lines.append("  %-3s %-9s ÷ %-14s target ≥ %.2f×  measured %.2f× (%s)  %s" % (workload, preset, peer, goal, med, best["ours"], verdict))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("--work")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--presets", default="medium,veryfast")
    ap.add_argument("--workloads", default="W1,W2,W3")
    ap.add_argument("--pairs", type=int)
    ap.add_argument("--cores", type=int)
    ap.add_argument("--json")
    ap.add_argument("--summarize", metavar="JSON", help="print the targets of an earlier run's JSON and stop")
    a = ap.parse_args()
    if a.summarize:
        with open(a.summarize) as f:
            print("Issue 20's targets (ours ÷ peer in speed, median of the pairs):")
            print("\n".join(target_summary(json.load(f).get("pair_results", []))))
        return
    if not a.bin or not a.work:
        ap.error("--bin and --work are needed to run the benchmark")
    if a.cores:
        allowed = sorted(os.sched_getaffinity(0))
        if not 1 <= a.cores <= len(allowed):
            sys.exit("--cores %d: this script may use %d CPUs (%s)" % (a.cores, len(allowed), ",".join(map(str, allowed))))
        PINNED[:] = ["taskset", "-c", ",".join(str(c) for c in allowed[:a.cores])]
    a.bin = os.path.abspath(a.bin)
    work = os.path.abspath(a.work)
    os.makedirs(os.path.join(work, "runs"), exist_ok=True)
    pairs = a.pairs or (1 if a.quick else 2)
    frames_of = {"W1": 60 if a.quick else W.W1_FRAMES, "W2": 180 if a.quick else W.w2_frames(),
                 "W3": 60 if a.quick else W.W3_FRAMES}
    cores = a.cores or len(os.sched_getaffinity(0))
    results = dict(date=datetime.datetime.now().isoformat(timespec="seconds"), machine=dict(
        cpu=next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine()),
        cores=cores, kernel=platform.release()), quick=a.quick, pairs=pairs, runs=[])
    print("make bench-peers — %s, %d cores%s (%s), %s%s" % (results["machine"]["cpu"], cores,
                                                       " [--cores: %s]" % " ".join(PINNED) if PINNED else "", results["machine"]["kernel"],
                                                       results["date"], "  [QUICK: fewer frames, one pair]" if a.quick else ""))
    print("1920x1080 30 fps, CRF 20; ratios are ours ÷ peer in speed (peer wall ÷ our wall), one per pair; "
          "'others' = cores other processes took during the pair (! above %.1f: busy machine)." % BUSY)
    for workload in a.workloads.split(","):
        frames = frames_of[workload]
        for preset in a.presets.split(","):
            systems, raw = commands(a, workload, preset, frames, work)
            ours = [n for n, (k, _) in systems.items() if k == "ours"]
            peers = [n for n, (k, _) in systems.items() if k == "peer"]
            runs = {n: [] for n in systems}
            pair_rows = []

            def run(name):
                slug = re.sub(r"[^a-z0-9]+", "-", name.lower())
                out = os.path.join(work, "runs", "%s-%s-%s.mp4" % (workload, preset, slug))
                r = measure(systems[name][1](out), out + ".log")
                r.update(system=name, out=out)
                if r["status"] != 0:
                    print("  %s failed (status %d): see %s.log" % (name, r["status"], out), file=sys.stderr)
                runs[name].append(r)
                # Every run as it finishes, so an interrupted benchmark keeps what it measured.
                with open(os.path.join(work, "runs.jsonl"), "a") as log:
                    log.write(json.dumps(dict(r, workload=workload, preset=preset, frames=frames)) + "\n")
                return r

            sys.stderr.write("… %s %s: first run of ours, and our frames decoded for x264 alone\n" % (workload, preset))
            first = run(ours[0])
            subprocess.run(PINNED + ["ffmpeg", "-v", "error", "-y", "-i", first["out"], "-f", "rawvideo", "-pix_fmt", "yuv420p", raw], check=True)
            runs[ours[0]].clear()      # a warm-up: the pairs below are what count
            for peer in peers:
                for mine in ours:
                    for k in range(pairs):
                        sys.stderr.write("… %s %s: %s / %s, pair %d\n" % (workload, preset, mine, peer, k + 1))
                        before = machine_busy_seconds()
                        x = run(mine)
                        y = run(peer)
                        busy = machine_busy_seconds() - before
                        others = max(0.0, (busy - x["cpu"] - y["cpu"]) / (x["wall"] + y["wall"]))
                        pair_rows.append(dict(ours=mine, peer=peer, ratio=y["wall"] / x["wall"], others=others))
                        sys.stderr.write("    %.2f s / %.2f s: %.2f× (others %.2f cores)\n" % (x["wall"], y["wall"], y["wall"] / x["wall"], others))
            # Same work: frames, and PSNR against the pycairo pipe's output (W1, W2).
            reference = runs["pycairo pipe"][-1]["out"]
            print("\n%s at %s, %d frames" % (workload, preset, frames))
            print("  %-18s %7s %8s %8s %6s %9s %7s %8s" % ("system", "fps", "wall s", "CPU s", "cores", "peak MiB", "frames", "PSNR dB"))
            for name in systems:
                rs = [r for r in runs[name] if r["status"] == 0]
                if not rs:
                    print("  %-18s failed" % name)
                    continue
                wall = statistics.median(r["wall"] for r in rs)
                cpu = statistics.median(r["cpu"] for r in rs)
                rss = max(r["rss"] for r in rs) / 2 ** 20
                n = frame_count(rs[-1]["out"])
                q = psnr(rs[-1]["out"], reference) if workload in ("W1", "W2") and name != "pycairo pipe" else None
                check = ""
                if n != frames:
                    check += "  FRAMES≠%d" % frames
                if q is not None and systems[name][0] == "ours" and not q >= 40:
                    check += "  PSNR<40"
                print("  %-18s %7.1f %8.2f %8.2f %6.2f %9.0f %7d %8s%s" % (name, frames / wall, wall, cpu, cpu / wall, rss, n,
                                                                          "—" if q is None else "%.1f" % q, check))
                results["runs"].append(dict(workload=workload, preset=preset, frames=frames, system=name, kind=systems[name][0],
                                            walls=[r["wall"] for r in rs], cpus=[r["cpu"] for r in rs], peak_mib=rss,
                                            frames_written=n, psnr=q))
            print("  pairs (ours ÷ peer, others' cores):")
            for mine in ours:
                for peer in peers:
                    rows = [p for p in pair_rows if p["ours"] == mine and p["peer"] == peer]
                    text = "  ".join("%.2f× (others %.2f%s)" % (p["ratio"], p["others"], "!" if p["others"] > BUSY else "") for p in rows)
                    med = statistics.median(p["ratio"] for p in rows)
                    print("    %-18s ÷ %-14s median %.2f×   %s" % (mine, peer, med, text))
                    results.setdefault("pair_results", []).append(dict(workload=workload, preset=preset, ours=mine, peer=peer,
                                                               ratios=[p["ratio"] for p in rows], others=[p["others"] for p in rows]))
            os.remove(raw)
            sys.stdout.flush()
    summary = target_summary(results.get("pair_results", []))
    if summary:
        print("\nIssue 20's targets (ours ÷ peer in speed, median of the pairs):")
        print("\n".join(summary))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
        print("\nJSON written to %s" % a.json)


if __name__ == "__main__":
    main()
