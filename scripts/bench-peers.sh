#!/usr/bin/env bash
# make bench-peers: installs the peers (idempotent) and runs bench/peers/run.py.
#   Debian packages: ffmpeg, libcairo2-dev, pkg-config, python3-venv; for Manim's ManimPango (built from source:
#   no wheel for Linux x86-64 here) libpango1.0-dev, build-essential, python3-dev; for movis's Qt and OpenCV
#   libegl1, libgl1, libxkbcommon0, libfontconfig1 (only those missing; sudo when not root)
#   .build/peers-venv: moviepy==2.2.1, pycairo, numpy, Pillow, manim==0.22.0 (Manim Community, Cairo renderer),
#   movis==0.7.1 from PyPI (only when missing)
#   the release moviemaker-bench (our side, `moviemaker-bench --peer …`), W2's ten photos in .build/peers-work/photos
# The table ends with the targets (issue 20's, and ours over Manim and movis), met or missed by how much.
# Environment: BENCH_PEERS_QUICK=1 (fewer frames, one pair: minutes), BENCH_PEERS_PRESETS=medium,veryfast,
# BENCH_PEERS_WORKLOADS=W1,W2,W3, BENCH_PEERS_PAIRS=N, BENCH_PEERS_CORES=N (every system under taskset on
# N CPUs: the scaling from 1 to N cores), SWIFT=swift. The table also goes to
# .build/peers-work/bench-peers.txt, the figures to .build/peers-work/bench-peers.json, every run as it ends to
# .build/peers-work/runs.jsonl (kept when a run is interrupted).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in ffmpeg libcairo2-dev pkg-config python3-venv libpango1.0-dev build-essential python3-dev \
         libegl1 libgl1 libxkbcommon0 libfontconfig1; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-peers: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

VENV=.build/peers-venv
if [ ! -x "$VENV/bin/python" ]; then
  echo "bench-peers: creating $VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m, cairo, numpy, PIL
assert m.version("moviepy") == "2.2.1"
PY
then
  echo "bench-peers: pip install moviepy==2.2.1 pycairo numpy Pillow into $VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check moviepy==2.2.1 pycairo numpy Pillow
fi
if ! "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m
assert m.version("manim") == "0.22.0" and m.version("movis") == "0.7.1"
PY
then
  echo "bench-peers: pip install manim==0.22.0 movis==0.7.1 into $VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check manim==0.22.0 movis==0.7.1
fi

echo "bench-peers: release build of moviemaker-bench"
$SWIFT build -c release --product moviemaker-bench 2>&1 | grep -E "error|warning: unre|Build comp|Compiling MovieMaker" || true
BIN="$($SWIFT build -c release --show-bin-path)/moviemaker-bench"
[ -x "$BIN" ] || { echo "bench-peers: $BIN was not built"; exit 1; }

WORK=.build/peers-work
mkdir -p "$WORK"
(cd bench/peers && "../../$VENV/bin/python" make_photos.py "../../$WORK/photos")

args=(--bin "$BIN" --work "$WORK" --json "$WORK/bench-peers.json"
      --presets "${BENCH_PEERS_PRESETS:-medium,veryfast}" --workloads "${BENCH_PEERS_WORKLOADS:-W1,W2,W3}")
[ "${BENCH_PEERS_QUICK:-0}" = "1" ] && args+=(--quick)
[ -n "${BENCH_PEERS_PAIRS:-}" ] && args+=(--pairs "$BENCH_PEERS_PAIRS")
[ -n "${BENCH_PEERS_CORES:-}" ] && args+=(--cores "$BENCH_PEERS_CORES")
"$VENV/bin/python" bench/peers/run.py "${args[@]}" | tee "$WORK/bench-peers.txt"
