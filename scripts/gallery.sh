#!/usr/bin/env bash
# Renders every script in examples/gallery/ at full size (1280x720) with `moviemaker run`, into OUT_DIR,
# then saves a poster frame of each movie, 640 pixels wide, as docs/gallery/NAME.png (the pictures
# docs/gallery.md shows). Each poster is taken at a time that shows what the example does.
# usage: scripts/gallery.sh BIN OUT_DIR
#   BIN: the folder holding moviemaker (`make gallery` gives the release build's: swift build -c release --show-bin-path)
#   OUT_DIR: where the movies go (created), e.g. output/gallery
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: scripts/gallery.sh BIN OUT_DIR" >&2; exit 2; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(cd "$1" && pwd)"
mkdir -p "$2" "$root/docs/gallery"
out="$(cd "$2" && pwd)"
moviemaker="$bin/moviemaker"
[ -x "$moviemaker" ] || { echo "scripts/gallery.sh: no moviemaker in $bin (build it first)" >&2; exit 1; }

# The poster frame's time in seconds, per example.
poster_time() {
    case "$1" in
        bouncing-ball) echo 1.9 ;;
        bar-chart) echo 4.8 ;;
        countdown) echo 1.3 ;;
        data-plot) echo 3.2 ;;
        logo-reveal) echo 3.9 ;;
        lower-thirds) echo 1.3 ;;
        lyric) echo 4.1 ;;
        particles) echo 2.5 ;;
        photo-montage) echo 2.4 ;;
        split-screen) echo 2.0 ;;
        typewriter-quote) echo 3.6 ;;
        visualiser) echo 2.1 ;;
        *) echo 2 ;;
    esac
}

count=0
for script in "$root"/examples/gallery/*.swift; do
    name="$(basename "$script" .swift)"
    echo "== $name"
    # From the checkout, as the scripts' headers show (lower-thirds writes its sample CSV beside the movie).
    (cd "$root" && "$moviemaker" run "$script" -- "$out/$name.mp4")
    "$moviemaker" still "$out/$name.mp4" --at "$(poster_time "$name")" --size 640x360 --quiet -o "$root/docs/gallery/$name.png"
    count=$((count + 1))
done
echo "scripts/gallery.sh: $count movies in $out, their posters in $root/docs/gallery"
