#!/usr/bin/env bash
# `make bench-title-batch`: `moviemaker title --batch` against the same titles rendered by separate
# `moviemaker title` runs, one after the other, as a CI job without --batch would.
#
# A CSV of ROWS names (Latin, Arabic and Japanese, with a role each) becomes ROWS lower thirds at
# SIZE, DURATION seconds each. Runs are paired and alternated (batch, separate, batch, separate … for
# PAIRS pairs); each line gives wall time, the CPU our processes took, and the CPU other processes
# took meanwhile (from /proc/stat), flagged when the machine was busy. The batch's movies are then
# checked with the independent checker (../shared/tools/mp4check/check_mp4.sh) when it is there.
#
# Environment: MOVIEMAKER (default: the release build's moviemaker), ROWS (20), SIZE (1920x1080),
# DURATION (3), PAIRS (2), JOBS (empty: one per core), MP4CHECK (path of check_mp4.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-20}; SIZE=${SIZE:-1920x1080}; DURATION=${DURATION:-3}; PAIRS=${PAIRS:-2}; JOBS=${JOBS:-}
BIN=${MOVIEMAKER:-$(swift build -c release --show-bin-path 2>/dev/null)/moviemaker}
[ -x "$BIN" ] || { echo "bench-title-batch: $BIN is not built: run make build (or set MOVIEMAKER)" >&2; exit 1; }
MP4CHECK=${MP4CHECK:-../shared/tools/mp4check/check_mp4.sh}
WORK=$(mktemp -d /tmp/moviemaker-title-batch.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

names=("Ana Souza" "Jean-Luc Moreau" "Zoë Østergaard" "سارة أحمد" "محمد علي" "ليلى حسن" "山田太郎" "佐藤花子" "鈴木一郎" "Ngozi Okafor")
roles=("Director" "Camera" "Sound" "مخرجة" "مصور" "مونتاج" "監督" "撮影" "音響" "Producer")
{
  echo "name,role"
  for ((i = 0; i < ROWS; i++)); do echo "\"${names[i % 10]} $((i + 1))\",${roles[i % 10]}"; done
} > "$WORK/rows.csv"
common=(--layout lower-third --size "$SIZE" --duration "$DURATION" --style slide)

# Busy jiffies (user+nice+system+irq+softirq+steal) of the whole machine, and the clock tick.
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
HZ=$(getconf CLK_TCK)

# Runs "$@" under /usr/bin/time; prints "wall cpu other": seconds, our CPU seconds, other processes' CPU seconds.
measure() {
  local before after
  before=$(busy)
  /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$@" > /dev/null 2> "$WORK/stderr" || { cat "$WORK/stderr" >&2; return 1; }
  after=$(busy)
  read -r wall user sys < "$WORK/time"
  awk -v w="$wall" -v u="$user" -v s="$sys" -v b="$before" -v a="$after" -v hz="$HZ" \
      'BEGIN { ours = u + s; other = (a - b) / hz - ours; if (other < 0) other = 0; printf "%.2f %.2f %.2f\n", w, ours, other }'
}

# The separate runs: one process per row, as a job without --batch runs them (values as arguments).
{
  echo "set -e"
  for ((i = 0; i < ROWS; i++)); do
    name="${names[i % 10]} $((i + 1))"; role=${roles[i % 10]}
    printf '%q ' "$BIN" title "$name" --subtitle "$role" "${common[@]}" -q -o "$WORK/separate/$name.mp4"; echo
  done
} > "$WORK/separate.sh"

echo "title --batch against $ROWS separate runs: $ROWS lower thirds, $SIZE, $DURATION s each, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-10s %9s %9s %11s %s\n' run wall "our CPU" "others' CPU" note
ratios=()
for ((p = 1; p <= PAIRS; p++)); do
  rm -rf "$WORK/batch" "$WORK/separate"; mkdir -p "$WORK/batch" "$WORK/separate"
  read -r bw bc bo < <(measure "$BIN" title --batch "$WORK/rows.csv" --subtitle "{role}" "${common[@]}" ${JOBS:+--jobs "$JOBS"} \
                         -q --output-pattern "$WORK/batch/{name}.mp4")
  read -r sw sc so < <(measure bash "$WORK/separate.sh")
  for row in "batch $bw $bc $bo" "separate $sw $sc $so"; do
    set -- $row
    note=""; awk -v o="$4" -v w="$2" 'BEGIN { exit !(o > 0.1 * w) }' && note="busy: others took $4 s of CPU"
    printf '%-10s %8.2fs %8.2fs %10.2fs %s\n' "$1" "$2" "$3" "$4" "$note"
  done
  ratios+=("$(awk -v s="$sw" -v b="$bw" 'BEGIN { printf "%.2f", s / b }')")
  echo "pair $p: batch is ${ratios[-1]}× as fast as separate runs (wall)"
done
count=$(ls "$WORK/batch" | wc -l)
echo "batch wrote $count movies; separate runs wrote $(ls "$WORK/separate" | wc -l)"
[ "$count" = "$ROWS" ] || { echo "bench-title-batch: expected $ROWS movies from the batch" >&2; exit 1; }
if [ -x "$MP4CHECK" ] || [ -f "$MP4CHECK" ]; then
  fps=30; frames=$(awk -v d="$DURATION" -v f="$fps" 'BEGIN { printf "%d", d * f }')
  w=${SIZE%x*}; h=${SIZE#*x}; failed=0
  for f in "$WORK"/batch/*.mp4; do
    if NO_GST=${NO_GST:-1} bash "$MP4CHECK" "$f" "$frames" "$w" "$h" "$fps" > "$WORK/check.log" 2>&1; then :; else
      failed=$((failed + 1)); echo "independent check failed: $(basename "$f")"; grep FAIL "$WORK/check.log" | sed 's/^/  /'
    fi
  done
  echo "independent checks (check_mp4.sh): $((count - failed)) of $count movies passed"
  [ "$failed" = 0 ] || exit 1
else
  echo "independent checks skipped: $MP4CHECK not found (set MP4CHECK)"
fi
