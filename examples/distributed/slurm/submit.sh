#!/usr/bin/env bash
# Submits a MovieMaker render as a Slurm job array of N chunks plus an assembly job that starts
# only when every chunk succeeded (afterok); a failed chunk cancels the assembly.
#
#   SPEC=movie.json CHUNK_DIR=/shared/chunks OUTPUT=movie.mp4 examples/distributed/slurm/submit.sh [N] [sbatch options…]
#
# N defaults to 4. The sbatch options (e.g. --partition=render --cpus-per-task=8) go to both jobs.
# The environment (SPEC, CHUNK_DIR, OUTPUT, MOVIEMAKER, LOSSLESS, MOVIEMAKER_ARGS) is passed on to the
# jobs; see render.sbatch. Prints the two job ids as RENDER_JOB=… and ASSEMBLE_JOB=….
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
N="${1:-4}"
[ $# -gt 0 ] && shift
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "$0: N must be a positive number, got $N" >&2; exit 64; }
: "${SPEC:?set SPEC to the description file, e.g. SPEC=movie.json $0 4}"
export SPEC CHUNK_DIR="${CHUNK_DIR:-chunks}" OUTPUT="${OUTPUT:-movie.mp4}" CHUNKS="$N"

RENDER_JOB=$(sbatch --parsable --array="0-$((N - 1))" "$@" "$here/render.sbatch")
RENDER_JOB="${RENDER_JOB%%;*}"   # --parsable prints "id" or "id;cluster"
ASSEMBLE_JOB=$(sbatch --parsable --dependency="afterok:$RENDER_JOB" --kill-on-invalid-dep=yes "$@" "$here/assemble.sbatch")
ASSEMBLE_JOB="${ASSEMBLE_JOB%%;*}"
echo "RENDER_JOB=$RENDER_JOB"
echo "ASSEMBLE_JOB=$ASSEMBLE_JOB"
