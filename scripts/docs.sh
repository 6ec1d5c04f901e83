#!/usr/bin/env bash
# make docs: builds the DocC site (Sources/MovieMaker/MovieMaker.docc, the MovieMaker and
# MovieMakerCore modules combined) into .build/docs with swift-docc-plugin, warnings as errors (an
# unresolved symbol link fails the build). Then, unless DOCS_BROWSER=0, checks that the site's index
# page renders in headless Chromium (Debian's chromium, installed when missing): the landing page's
# title and topics are in the rendered page, and a screenshot of it (.build/docs-index.png) is not blank.
# usage: scripts/docs.sh [swift]
set -euo pipefail
swift=${1:-swift}
out=.build/docs
rm -rf "$out"
"$swift" package --disable-sandbox generate-documentation \
    --target MovieMaker --target MovieMakerCore --enable-experimental-combined-documentation \
    --warnings-as-errors --transform-for-static-hosting --output-path "$out" 2>&1 \
    | grep -v "warning: prohibited flag(s): -pthread" || { echo "docs: the DocC build failed (see above)" >&2; exit 1; }
[[ -f "$out/documentation/moviemaker/index.html" ]] || { echo "docs: no $out/documentation/moviemaker/index.html" >&2; exit 1; }
echo "docs: the site is in $out (open $out/documentation/moviemaker/ through a web server)"
[[ "${DOCS_BROWSER:-1}" == 0 ]] && exit 0

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
    echo "docs: installing ${missing[*]} (apt)"
    sudo=""
    [[ $(id -u) == 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-dejavu-core >/dev/null
fi
exec python3 "$(dirname "$0")/docs_browser_check.py" "$out" "$(command -v chromium)" .build/docs-index.png
