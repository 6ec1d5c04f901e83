#!/usr/bin/env bash
# Fingerprints make demo's outputs, to show a change left them alone: runs scripts/demo.sh with the
# build in BIN_FOLDER into OUTPUT, then prints one line per file: the MD5 of FFmpeg's framemd5 for
# movies (every decoded video frame and audio packet, not the container's bytes), the file's MD5
# otherwise. Run it before and after a change (same OUTPUT, since some files name their paths) and diff.
# usage: scripts/demo-framemd5.sh BIN_FOLDER OUTPUT > fingerprints.txt
set -euo pipefail
bin=${1:?usage: demo-framemd5.sh BIN_FOLDER OUTPUT}
out=${2:?usage: demo-framemd5.sh BIN_FOLDER OUTPUT}
rm -rf "$out"
bash "$(dirname "$0")/demo.sh" "$bin" "$out" >&2
cd "$out"
find . -type f ! -path './photos/*' | LC_ALL=C sort | while read -r file; do
    case "$file" in
        *.mp4|*.mov|*.mkv|*.webm)
            echo "$(ffmpeg -v error -nostdin -i "$file" -map 0 -f framemd5 - | grep -v '^#' | md5sum | cut -c1-32)  $file (framemd5)" ;;
        *) echo "$(md5sum < "$file" | cut -c1-32)  $file" ;;
    esac
done
