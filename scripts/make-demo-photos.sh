#!/usr/bin/env bash
# Writes a few sample "photos" for `make demo`'s slideshow into the folder given (default
# output/photos), with FFmpeg's test sources: mixed sizes and formats (JPEG, PNG, WebP), one portrait.
# Existing files are kept, so running it again costs nothing.
set -euo pipefail
folder="${1:-output/photos}"
mkdir -p "$folder"
make_photo() {   # name, lavfi source, extra ffmpeg arguments…
    local name="$1" source="$2"; shift 2
    [ -s "$folder/$name" ] && return 0
    ffmpeg -loglevel error -nostdin -y -f lavfi -i "$source" "$@" -frames:v 1 "$folder/$name.tmp.${name##*.}"
    mv "$folder/$name.tmp.${name##*.}" "$folder/$name"
}
make_photo "01 Mandelbrot.jpg" "mandelbrot=size=2400x1600:end_pts=30" -ss 2
make_photo "02 Portrait.jpg" "gradients=size=1200x1600:speed=0.02:seed=7:c0=#264653:c1=#e9c46a"
make_photo "03 Life.png" "life=size=400x300:mold=10:ratio=0.3:death_color=#203040:life_color=#f0c040:seed=3" -ss 3 -vf scale=1600:1200:flags=neighbor
make_photo "04 Dusk.webp" "gradients=size=1920x1080:speed=0.01:seed=42:c0=#1a2a6c:c1=#b21f1f:c2=#fdbb2d"
make_photo "10 Test card.jpg" "testsrc2=size=1280x960"
echo "$folder: $(ls "$folder" | wc -l) photos"
