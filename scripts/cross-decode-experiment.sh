#!/usr/bin/env bash
# Which decoder is wrong when FFmpeg and GStreamer+openh264 disagree on a MovieMaker movie?
# (issue 17, item 11; write-up in docs/CROSS-DECODE.md)
#
# usage: scripts/cross-decode-experiment.sh [WORKDIR] [MOVIE.mp4 [FIRST_FRAME]]
#
# Part A (always): x264 alone. 300 source frames (MOVIE's frames FIRST_FRAME.. scaled to 1280x720,
# or FFmpeg's testsrc2 pattern without MOVIE) are encoded by the x264 CLI (preset medium, CRF 18,
# High) with --dump-yuv: x264's own reconstruction, which a conformant decoder must reproduce
# bit for bit. Each stream is decoded by FFmpeg and by GStreamer+openh264 and compared with it:
#   forced   x264 defaults; --qpfile forces "P then 3 B-frames" before the IDR at 100 and
#            "P then 2 B-frames" (control) before the IDR at 200
#   k49      x264 defaults with --keyint 49 (x264 chooses every frame type itself)
#   noweight forced + --weightp 0 --no-weightb (weighted prediction off)
#   nob      --bframes 0
# and k49 once more through the ffmpeg CLI's libx264 into an MP4, checked by cross_decode.py.
# Part B (with MOVIE): every frame of MOVIE where openh264 differs from FFmpeg by > 45 dB noise,
# with the FFmpeg frame openh264's picture really is (scripts/xdec-movie.py).
# Needs: ffmpeg, ffprobe, x264, gst-launch-1.0 + openh264dec, python3 + numpy (optional: g++ and
# libopenh264-dev, to also call libopenh264 directly). ~3 min at 720p.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/cross-decode-experiment}
movie=${2:-}
first=${3:-2100}
checker=${CROSS_DECODE:-/work/shared/tools/mp4check/cross_decode.py}
mkdir -p "$work"
cd "$work"
n="nice -n 10"

echo "== versions"
x264 --version 2>/dev/null | head -1
ffmpeg -version | head -1
gst-inspect-1.0 openh264dec 2>/dev/null | grep -m1 -i '^  version' || true
dpkg-query -W -f '${Package} ${Version}\n' 'libopenh264-*' 2>/dev/null || true

echo "== source: 300 frames 1280x720"
if [ -n "$movie" ]; then
    $n ffmpeg -nostdin -v error -y -i "$movie" \
        -vf "select=between(n\,$first\,$((first + 299))),scale=1280:720:flags=bicubic,setpts=N/30/TB" \
        -vsync 0 -frames:v 300 -pix_fmt yuv420p src.y4m
else
    $n ffmpeg -nostdin -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 300 -pix_fmt yuv420p src.y4m
fi

printf '0 I -1\n95 P -1\n96 b -1\n97 B -1\n98 b -1\n99 P -1\n100 I -1\n196 P -1\n197 b -1\n198 b -1\n199 P -1\n200 I -1\n' > forced.qp
encode() { # name, x264 options...
    local name=$1; shift
    $n x264 --preset medium --crf 18 --profile high "$@" --dump-yuv "$name.recon.yuv" -o "$name.264" src.y4m > "$name.x264.log" 2>&1
    $n python3 "$here/yuv-psnr.py" 1280 720 recon=yuv:"$name.recon.yuv" ffmpeg=ff:"$name.264" openh264=gst264:"$name.264" \
        > "$name.csv" 2> "$name.sum"
    echo "-- $name (x264 $*)"
    cat "$name.sum"
    # frames where openh264 is far (< 45 dB) from x264's reconstruction
    awk -F, 'NR > 1 && $3 + 0 < 45 { printf "   openh264 frame %d: %s dB vs reconstruction (ffmpeg: %s)\n", $1, $3, $2 }' "$name.csv"
}
echo "== part A: x264 alone, each decoder against x264's reconstruction (99.00 = bit-identical)"
encode forced --qpfile forced.qp
encode k49 --keyint 49
encode noweight --qpfile forced.qp --weightp 0 --no-weightb
encode nob --bframes 0
if command -v g++ > /dev/null && [ -f /usr/include/wels/codec_api.h ]; then
    echo "-- libopenh264 called directly (no GStreamer; each picture copied out as soon as it is returned), k49"
    g++ -O2 -o openh264-decode "$here/openh264-decode.cpp" -lopenh264
    ./openh264-decode k49.264 > k49.lib.yuv
    $n python3 "$here/yuv-psnr.py" 1280 720 recon=yuv:k49.recon.yuv libopenh264=yuv:k49.lib.yuv gst=gst264:k49.264 \
        2>&1 > k49.lib.csv | tail -3
fi
echo "-- which picture openh264 returned at the bad frames (k49 settings, ffmpeg CLI + libx264 -> MP4)"
$n ffmpeg -nostdin -v error -y -i src.y4m -c:v libx264 -preset medium -crf 18 -profile:v high -x264-params keyint=49 k49ff.mp4
$n python3 "$here/xdec-movie.py" k49ff.mp4
echo "-- the independent checker on the same x264-alone stream (ffmpeg CLI + libx264 -> MP4)"
$n python3 "$checker" k49ff.mp4 || true

if [ -n "$movie" ]; then
    echo "== part B: $movie, openh264 against FFmpeg"
    $n python3 "$here/xdec-movie.py" "$movie"
fi
