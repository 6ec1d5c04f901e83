#!/usr/bin/env bash
# `make test-distributed`: renders examples/distributed/spec.json once in one pass (--lossless), then
# in N chunks (default 4) on each engine of examples/distributed, and checks every result has exactly
# the single render's frames (ffmpeg -f framemd5: every frame's hash and timestamps) and sound (the
# decoded samples' MD5):
#
#   slurm     a single-node Slurm cluster started in a temporary folder (scripts/slurm-cluster.sh):
#             slurm/submit.sh's job array of N chunks and the assembly job depending on it
#   parallel  parallel/render.sh (GNU parallel)
#   k8s       the manifests: the fields the chunking relies on (grep), and scripts/validate-k8s.sh
#             (kubernetes-validate from PyPI, skipped when it cannot be installed); no cluster is run
#
# Needs root (or sudo) for the packages and the Slurm daemons. Always stops the cluster, and fails
# if any of its processes is left. Environment: N (chunks, default 4), KEEP_WORK=1 (keep the
# temporary folder), SWIFT (default swift). Prints PASS/FAIL per check and exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="$PATH:/opt/swift/usr/bin"
SWIFT="${SWIFT:-swift}"
N="${N:-4}"
SPEC="$ROOT/examples/distributed/spec.json"
DIST="$ROOT/examples/distributed"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/moviemaker-distributed.XXXXXX")
CLUSTER="$WORK/cluster"
cluster_started=0
results=()
failed=0

say() { echo "test-distributed: $*"; }
pass() { results+=("PASS  $1"); say "PASS $1"; }
fail() { results+=("FAIL  $1"); say "FAIL $1"; failed=1; }

# The Slurm and munge daemons running now, by pid (any left after the test besides these are ours).
daemons() { local d; for d in slurmctld slurmd slurmstepd munged; do pgrep -x "$d" || true; done | sort -n | tr '\n' ' '; }
daemons_before=$(daemons)

finish() {
  local rc=$?
  set +e
  if [ $cluster_started = 1 ]; then
    bash scripts/slurm-cluster.sh stop "$CLUSTER"
    sleep 1
    local ours others
    ours=$(pgrep -a -f -- "$CLUSTER")
    others=$(daemons)
    if [ -n "$ours" ] || [ "$others" != "$daemons_before" ]; then
      fail "cluster stopped: processes left: ${ours:-} (daemons now: ${others:-none}; before: ${daemons_before:-none})"
    else
      pass "cluster stopped: no slurmctld, slurmd, slurmstepd or munged left"
    fi
  fi
  [ $rc -ne 0 ] && [ $failed = 0 ] && fail "the script stopped early (exit $rc)"
  echo
  echo "== test-distributed summary (N=$N chunks) =="
  printf '  %s\n' "${results[@]}"
  if [ $failed = 0 ]; then
    echo "== PASS =="
    if [ "${KEEP_WORK:-0}" = 1 ]; then echo "files kept in $WORK"; else rm -rf "$WORK"; fi
    exit 0
  fi
  echo "== FAIL == (files kept in $WORK)"
  exit 1
}
trap finish EXIT

# --- packages and build ---------------------------------------------------------------------------
bash scripts/install-deps.sh
bash scripts/slurm-cluster.sh install
command -v ffmpeg >/dev/null && command -v parallel >/dev/null && command -v sbatch >/dev/null
say "swift build -c release --product moviemaker"
"$SWIFT" build -c release --product moviemaker
BIN="$("$SWIFT" build -c release --show-bin-path)/moviemaker"
"$BIN" assemble --help >/dev/null 2>&1 || { fail "this moviemaker has no assemble command (render --chunk, assemble)"; exit 1; }

# --- the Kubernetes manifests ---------------------------------------------------------------------
# need FILE REGEX WHAT: FILE has a line matching REGEX.
need() { grep -Eq -- "$2" "$1" || { say "$1: no $3 (/$2/)"; return 1; }; }
check_manifests() {
  local k="$DIST/kubernetes" job="$DIST/kubernetes/render-job.yaml" n_completions n_chunks
  need "$job" '^kind: Job$' "kind: Job" &&
  need "$job" '^  completionMode: Indexed$' "completionMode: Indexed" &&
  need "$job" '^  completions: [0-9]+$' "completions" &&
  need "$job" '^  parallelism: [0-9]+$' "parallelism" &&
  need "$job" 'JOB_COMPLETION_INDEX' "JOB_COMPLETION_INDEX" &&
  need "$job" '^ +- \$\(JOB_COMPLETION_INDEX\)/\$\(CHUNKS\)$' "--chunk \$(JOB_COMPLETION_INDEX)/\$(CHUNKS) argument" &&
  need "$job" '^ +- --chunk$' "--chunk" &&
  need "$job" '^ +- /work/chunks$' "chunk dir /work/chunks" &&
  need "$job" '^ +mountPath: /work$' "volume mounted at /work" &&
  need "$job" '^ +claimName: moviemaker-work$' "persistentVolumeClaim moviemaker-work" &&
  need "$k/pvc.yaml" '^kind: PersistentVolumeClaim$' "PersistentVolumeClaim" &&
  need "$k/pvc.yaml" '^  name: moviemaker-work$' "claim moviemaker-work" &&
  need "$k/pvc.yaml" '^ +- ReadWriteMany$' "ReadWriteMany" &&
  need "$k/assemble-job.yaml" 'moviemaker assemble .*--chunk-dir /work/chunks' "assemble from /work/chunks" &&
  need "$k/assemble-job.yaml" '^ +claimName: moviemaker-work$' "persistentVolumeClaim moviemaker-work" || return 1
  # The chunk count is written twice (completions, CHUNKS) and in assemble's --chunks: all alike.
  n_completions=$(sed -n 's/^  completions: //p' "$job")
  n_chunks=$(grep -A1 -- '- name: CHUNKS' "$job" | sed -n 's/.*value: "\([0-9]*\)"/\1/p')
  [ "$n_completions" = "$n_chunks" ] || { say "render-job.yaml: completions $n_completions but CHUNKS $n_chunks"; return 1; }
  need "$k/assemble-job.yaml" "--chunks $n_chunks " "--chunks $n_chunks" || return 1
}
if check_manifests; then pass "k8s: render-job.yaml is an Indexed Job (\$(JOB_COMPLETION_INDEX)/\$(CHUNKS), the ReadWriteMany claim at /work), assemble-job.yaml follows"; else fail "k8s: the manifests lack a field (above)"; fi
k8s_log="$WORK/validate-k8s.log"
if bash scripts/validate-k8s.sh >"$k8s_log" 2>&1; then
  if grep -q SKIPPED "$k8s_log"; then pass "k8s: schema validation skipped: $(grep SKIPPED "$k8s_log" | sed 's/.*SKIPPED: //')"
  else pass "k8s: $(grep -c 'valid against' "$k8s_log") schema validations (kubernetes-validate --strict): $(grep 'valid against' "$k8s_log" | sed 's/.*against //' | tr '\n' ' ')"; fi
else
  cat "$k8s_log"; fail "k8s: kubernetes-validate rejected a manifest"
fi

# --- the reference: one pass ----------------------------------------------------------------------
bash "$DIST/make-media.sh"
say "single render (--lossless)"
started=$SECONDS
"$BIN" render "$SPEC" --lossless -q -o "$WORK/single.mp4"
single_seconds=$(( SECONDS - started ))

# signature MOVIE: its frames' hashes and timestamps, then its decoded sound's MD5.
video_sig() { ffmpeg -nostdin -loglevel error -i "$1" -map 0:v:0 -f framemd5 - ; }
audio_sig() { ffmpeg -nostdin -loglevel error -i "$1" -map 0:a:0 -c:a pcm_s16le -f md5 - ; }
video_sig "$WORK/single.mp4" >"$WORK/single.framemd5"
audio_sig "$WORK/single.mp4" >"$WORK/single.audio.md5"
frames=$(grep -vc '^#' "$WORK/single.framemd5")
if [ "$frames" -eq 0 ] || [ ! -s "$WORK/single.audio.md5" ]; then fail "single render: no frames or no sound"; exit 1; fi
pass "single render: $frames frames and sound in ${single_seconds} s"

# compare NAME MOVIE: the same frames and sound as single.mp4.
compare() {
  local name="$1" movie="$2"
  [ -s "$movie" ] || { fail "$name: $movie was not written"; return; }
  video_sig "$movie" >"$WORK/$name.framemd5" || true
  audio_sig "$movie" >"$WORK/$name.audio.md5" || true
  local got; got=$(grep -vc '^#' "$WORK/$name.framemd5" || true)
  if ! cmp -s "$WORK/single.framemd5" "$WORK/$name.framemd5"; then
    diff "$WORK/single.framemd5" "$WORK/$name.framemd5" | head -8
    fail "$name: frames differ from the single render ($got frames against $frames)"
  elif ! cmp -s "$WORK/single.audio.md5" "$WORK/$name.audio.md5"; then
    fail "$name: sound differs ($(cat "$WORK/$name.audio.md5") against $(cat "$WORK/single.audio.md5"))"
  else
    pass "$name: all $frames frames (framemd5) and the sound (pcm md5 $(sed 's/MD5=//' "$WORK/single.audio.md5" | cut -c1-12)…) identical to the single render"
  fi
}

# --- Slurm: a job array of N chunks, then the assembly job (afterok) -------------------------------
run_slurm() {
  mkdir -p "$WORK/slurm"
  local env ids render_job assemble_job started=$SECONDS
  cluster_started=1
  env=$(bash scripts/slurm-cluster.sh start "$CLUSTER") || return 1
  eval "$env"
  # The jobs run in the submitting folder (their logs go there). One CPU each: the single node has
  # $(nproc) of them, so that many chunks run at once.
  ids=$(cd "$WORK/slurm" && SPEC="$SPEC" CHUNK_DIR="$WORK/slurm/chunks" OUTPUT="$WORK/slurm.mp4" MOVIEMAKER="$BIN" LOSSLESS=1 \
        bash "$DIST/slurm/submit.sh" "$N" --cpus-per-task=1) || return 1
  render_job=$(sed -n 's/^RENDER_JOB=//p' <<<"$ids")
  assemble_job=$(sed -n 's/^ASSEMBLE_JOB=//p' <<<"$ids")
  say "slurm: render array job $render_job (0-$((N - 1))), assembly job $assemble_job (afterok)"
  squeue || true
  if ! bash scripts/slurm-cluster.sh wait "$CLUSTER" "$render_job" 1800; then
    tail -n 20 "$WORK"/slurm/moviemaker-render-*.log || true
    scancel "$assemble_job" 2>/dev/null || true
    return 1
  fi
  if ! bash scripts/slurm-cluster.sh wait "$CLUSTER" "$assemble_job" 900; then
    tail -n 20 "$WORK"/slurm/moviemaker-assemble-*.log || true
    return 1
  fi
  local tasks; tasks=$(scontrol -o show job "$render_job" | grep -c 'JobState=COMPLETED')
  say "slurm: $tasks render tasks and the assembly completed in $(( SECONDS - started )) s"
  [ "$tasks" = "$N" ] || { say "slurm: expected $N render tasks, $tasks completed"; return 1; }
  cat "$WORK"/slurm/moviemaker-render-*.log "$WORK"/slurm/moviemaker-assemble-*.log | grep -v '^render:\|^chunk:\|^assemble:' || true
}
if run_slurm; then
  compare slurm "$WORK/slurm.mp4"
  if grep -q "sound track: copied from" "$WORK"/slurm/moviemaker-assemble-*.log; then pass "slurm: the assembly copied the sound track chunk 0's task rendered"
  else fail "slurm: the assembly did not copy chunk 0's sound track: $(grep 'sound track' "$WORK"/slurm/moviemaker-assemble-*.log)"; fi
else fail "slurm: the jobs did not all complete (logs in $WORK/slurm, cluster logs in $CLUSTER/log)"; fi
if [ $cluster_started = 1 ]; then bash scripts/slurm-cluster.sh stop "$CLUSTER"; fi

# --- GNU parallel ---------------------------------------------------------------------------------
started=$SECONDS
if JOBS="$(nproc)" CHUNK_DIR="$WORK/parallel-chunks" MOVIEMAKER="$BIN" \
     bash "$DIST/parallel/render.sh" "$SPEC" "$WORK/parallel.mp4" "$N" --lossless -q >"$WORK/parallel.log" 2>&1; then
  say "parallel: $N chunks and the assembly in $(( SECONDS - started )) s"
  compare parallel "$WORK/parallel.mp4"
  if grep -q "sound track: copied from" "$WORK/parallel.log"; then pass "parallel: the assembly copied the sound track chunk 0's task rendered"
  else fail "parallel: the assembly did not copy chunk 0's sound track (log: $WORK/parallel.log)"; fi
else
  cat "$WORK/parallel.log"; fail "parallel: render.sh failed"
fi
