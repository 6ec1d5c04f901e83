#!/usr/bin/env bash
# A MovieMaker render split into N chunks run by GNU parallel, JOBS at a time, then assembled:
#
#   examples/distributed/parallel/render.sh SPEC OUT.mp4 [N] [moviemaker options…]
#
#   N        chunks (default 4)
#   options  given to every render and to assemble alike (--lossless, --preset fast, --slot …)
#
# Environment: JOBS (chunks at once, default: nproc), CHUNK_DIR (default: OUT.mp4's name + .chunks),
# MOVIEMAKER (default: moviemaker on PATH). With a folder every host sees, add PARALLEL_HOSTS
# (e.g. "8/host1,8/host2") to spread the chunks over machines with ssh (parallel -S).
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,11p' "$0" >&2; exit 64; }
SPEC="$1"; OUT="$2"; shift 2
N=4
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then N="$1"; shift; fi
JOBS="${JOBS:-$(nproc)}"
CHUNK_DIR="${CHUNK_DIR:-$OUT.chunks}"
MOVIEMAKER="${MOVIEMAKER:-moviemaker}"
hosts=()
[ -n "${PARALLEL_HOSTS:-}" ] && hosts=(-S "$PARALLEL_HOSTS" --workdir .)

# -q quotes the command, so paths with spaces survive; --halt stops the others at the first failure.
parallel --will-cite -q --halt now,fail=1 -j "$JOBS" "${hosts[@]}" \
  "$MOVIEMAKER" render "$SPEC" --chunk "{}/$N" --chunk-dir "$CHUNK_DIR" "$@" ::: $(seq 0 $((N - 1)))
"$MOVIEMAKER" assemble "$SPEC" --chunk-dir "$CHUNK_DIR" --chunks "$N" -o "$OUT" "$@"
