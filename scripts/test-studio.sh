#!/usr/bin/env bash
# make test-studio: the studio's browser tests in headless Chromium (scripts/studio_browser_test.py).
# Installs Debian's chromium and ffmpeg when missing (idempotent; root or sudo), then runs the tests
# against the given moviemaker and writes the screenshot the README shows.
# With --playback first, runs scripts/playback_browser_test.py instead (make test-playback): Chromium
# plays the VP9, AV1 and H.264 movies, GIF, WebP and HLS stream MovieMaker writes, each to its end.
# usage: scripts/test-studio.sh [--playback] path/to/moviemaker [screenshot.png]
set -euo pipefail
playback=0
if [[ ${1:-} == --playback ]]; then playback=1; shift; fi
moviemaker=${1:?usage: test-studio.sh [--playback] path/to/moviemaker [screenshot.png]}
screenshot=${2:-docs/studio.png}

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
    echo "test-studio: installing ${missing[*]} (apt)"
    sudo=""
    [[ $(id -u) == 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-dejavu-core >/dev/null
fi
if ((playback)); then
    exec python3 "$(dirname "$0")/playback_browser_test.py" "$moviemaker" "$(command -v chromium)"
fi
exec python3 "$(dirname "$0")/studio_browser_test.py" "$moviemaker" "$(command -v chromium)" "$screenshot"
