#!/usr/bin/env bash
# make test-studio: the studio's browser tests in headless Chromium (scripts/studio_browser_test.py).
# Installs Debian's chromium and ffmpeg when missing (idempotent; root or sudo), then runs the tests
# against the given moviemaker and writes the screenshot the README shows.
# usage: scripts/test-studio.sh path/to/moviemaker [screenshot.png]
set -euo pipefail
moviemaker=${1:?usage: test-studio.sh path/to/moviemaker [screenshot.png]}
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
exec python3 "$(dirname "$0")/studio_browser_test.py" "$moviemaker" "$(command -v chromium)" "$screenshot"
