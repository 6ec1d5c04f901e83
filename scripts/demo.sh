#!/usr/bin/env bash
# make demo's renders: the example movies, the moviemaker tool's commands and the description-file
# templates, written into OUTPUT. The Makefile runs it with the release build; scripts/demo-framemd5.sh
# runs it with any build to compare movies before and after a change.
# usage: scripts/demo.sh BIN_FOLDER OUTPUT [PREFIX]
set -euo pipefail
bin=${1:?usage: demo.sh BIN_FOLDER OUTPUT [PREFIX]}
out=${2:?usage: demo.sh BIN_FOLDER OUTPUT [PREFIX]}
prefix=${3:-/usr/local}
mkdir -p "$out"
$bin/moviemaker-examples $out
echo "moviemaker run examples/wave.swift -- $out/wave.mp4"
$bin/moviemaker run examples/wave.swift -- $out/wave.mp4
echo "moviemaker title …"
$bin/moviemaker title "MovieMaker" --subtitle "made by make demo" --style letters --duration 3 --size 1280x720 -o $out/title.mp4
$bin/moviemaker title "Jane Doe" --subtitle "Director" --layout lower-third --style slide --from left --duration 3 --size 1280x720 --transparent -o $out/lower-third.mov
$bin/moviemaker title "Release 2.4" --subtitle "What's new" --still 2 --size 1280x720 -o $out/title-still.png
bash scripts/make-demo-photos.sh $out/photos
echo "moviemaker slideshow $out/photos …"
$bin/moviemaker slideshow $out/photos --captions filename --duration 2.5 --size 1280x720 --music $out/music.wav --normalize -o $out/slideshow.mp4
echo "moviemaker stitch $out/clip1.mp4 $out/clip2.mp4 $out/clip3.mp4 …"
$bin/moviemaker title "One" --subtitle "three clips" --duration 2 --size 1280x720 --preset veryfast --background '#1d3557' -q -o $out/clip1.mp4
$bin/moviemaker title "Two" --subtitle "stitched" --style pop --duration 2 --size 1280x720 --preset veryfast --background '#7a2e1f' -q -o $out/clip2.mp4
$bin/moviemaker title "Three" --subtitle "with music" --style slide --duration 2 --size 1280x720 --preset veryfast --background '#2d6a4f' -q -o $out/clip3.mp4
$bin/moviemaker stitch $out/clip1.mp4 $out/clip2.mp4 $out/clip3.mp4 --transition fade --transition-duration 0.5 \
    --music $out/music.wav --preset veryfast -o $out/stitched.mp4
$bin/moviemaker contact-sheet $out/stitched.mp4 -o $out/contact-sheet.png
$bin/moviemaker still $out/stitched.mp4 -o $out/stitched-thumbnail.png
echo "Stitched clips: $out/stitched.mp4 (contact sheet $out/contact-sheet.png, thumbnail $out/stitched-thumbnail.png)."
started=$(date +%s)
echo "Description files: the templates in examples/specs, their default media made into examples/specs/media …"
bash scripts/make-demo-media.sh examples/specs/media
for name in travel promo birthday editing explainer; do
    echo "moviemaker render examples/specs/$name.json --preset veryfast -o $out/$name.mp4"
    $bin/moviemaker render examples/specs/$name.json --preset veryfast -o $out/$name.mp4
done
echo "moviemaker audiogram $out/explainer.mp4 --title … --image … --size 1080x1920 --to 8 …"
$bin/moviemaker audiogram $out/explainer.mp4 --title "A day at the harbour" --image examples/specs/media/photo-harbour.jpg \
    --size 1080x1920 --to 8 --preset veryfast -o $out/audiogram.mp4
echo "moviemaker render examples/specs/birthday.json --slot name=Ana --media <three demo photos> …"
$bin/moviemaker render examples/specs/birthday.json --slot name="Ana" \
    --media "$out/photos/01 Mandelbrot.jpg" "$out/photos/02 Portrait.jpg" "$out/photos/04 Dusk.webp" \
    --preset veryfast --save-spec $out/birthday-ana.json -o $out/birthday-ana.mp4
$bin/moviemaker otio export examples/specs/travel.json -o $out/travel.otio
echo "moviemaker render examples/specs/speaker.json --batch examples/specs/speakers.csv --output-pattern '$out/speakers/{row}-{name}.mp4'"
$bin/moviemaker render examples/specs/speaker.json --batch examples/specs/speakers.csv --preset veryfast \
    --output-pattern "$out/speakers/{row}-{name}.mp4"
echo "Other destinations: moviemaker render examples/specs/promo.json --preview --max-size 2MB -o $out/promo.gif; --codec av1 -o $out/promo-av1.webm; --hls $out/promo-hls"
$bin/moviemaker render examples/specs/promo.json --preview --max-size 2MB -o $out/promo.gif
$bin/moviemaker render examples/specs/promo.json --codec av1 --preset veryfast -o $out/promo-av1.webm
$bin/moviemaker render examples/specs/promo.json --preset veryfast --hls $out/promo-hls --segment 4s
echo "Motion graphics: moviemaker render examples/motion/lottie-title.json, examples/motion/bar-race.json; a slideshow cut on the beat"
$bin/moviemaker render examples/motion/lottie-title.json --preset veryfast -o $out/lottie-title.mp4
$bin/moviemaker render examples/motion/bar-race.json --preset veryfast -o $out/bar-race.mp4
# 16 s at 120 BPM: a kick on every beat, a hat between, a soft chord under them.
ffmpeg -nostdin -v error -y -f lavfi -i "aevalsrc='0.8*exp(-mod(t,0.5)*25)*sin(2*PI*55*t*(1+exp(-mod(t,0.5)*40)))+0.12*exp(-mod(t+0.25,0.5)*120)*sin(2*PI*7000*t)+0.05*sin(2*PI*220*t)+0.04*sin(2*PI*277*t):s=48000:d=16'" \
    -ac 2 $out/beat.wav
$bin/moviemaker beats $out/beat.wav | head -1
$bin/moviemaker slideshow $out/photos --music $out/beat.wav --cut-on beats --every 2 --transition none --size 1280x720 --preset veryfast \
    -o $out/slideshow-on-the-beat.mp4
echo "moviemaker stitch walk1.mp4 walk2.mp4 --reframe 9:16: two landscape shots made vertical, the window following what moves"
# Two 1280x720 shots (ffmpeg's lavfi): a square crossing the frame, then another drifting back.
ffmpeg -nostdin -v error -y -f lavfi -i "color=c=0x2b4162:s=1280x720:r=30:d=5[bg];color=c=0xf4a259:s=180x180:r=30:d=5[box];[bg][box]overlay=x='120+150*t':y=270:shortest=1" \
    -c:v libx264 -preset veryfast -pix_fmt yuv420p $out/walk1.mp4
ffmpeg -nostdin -v error -y -f lavfi -i "color=c=0x5b8e7d:s=1280x720:r=30:d=3[bg];color=c=0xf2f3ae:s=140x140:r=30:d=3[box];[bg][box]overlay=x='1000-120*t':y='200+40*t':shortest=1" \
    -c:v libx264 -preset veryfast -pix_fmt yuv420p $out/walk2.mp4
$bin/moviemaker stitch $out/walk1.mp4 $out/walk2.mp4 --reframe 9:16 --preset veryfast -o $out/reframed-vertical.mp4
echo "Templates rendered as their own previews: $out/travel.mp4, $out/promo.mp4, $out/birthday.mp4, $out/editing.mp4 (filters, split screens, stickers, subtitles),"
echo "  $out/explainer.mp4 (a voice-over spoken by eSpeak NG: pictures cut on its bookmarks, its waveform, captions at its word times);"
echo "  $out/audiogram.mp4 (moviemaker audiogram of the explainer's sound: a vertical podcast clip)."
echo "Motion graphics: $out/lottie-title.mp4 (a Lottie over a title), $out/bar-race.mp4 (a bar race from examples/motion/cities.csv),"
echo "  $out/slideshow-on-the-beat.mp4 (the photos cut on every second beat of $out/beat.wav),"
echo "  $out/reframed-vertical.mp4 (two landscape shots reframed to 9:16: the window follows faces, here what moves, and starts afresh at the cut)."
echo "Filled template: $out/birthday-ana.mp4 (its description, itself a template: $out/birthday-ana.json)."
echo "A template batch: $out/speakers/ (five speaker cards, one per row of examples/specs/speakers.csv, in one process; run again, it skips them)."
echo "Other destinations: $out/promo.gif (an animated GIF fitted into 2 MB), $out/promo-av1.webm (AV1),"
echo "  $out/promo-hls/playlist.m3u8 (an HLS stream of 4-second fMP4 segments)."
echo "OpenTimelineIO: $out/travel.otio. The description-file steps took $(( $(date +%s) - started )) s."
echo "The moviemaker tool (release build) is $bin/moviemaker (make install links it into $prefix/bin)."