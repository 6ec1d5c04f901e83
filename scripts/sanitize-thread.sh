#!/usr/bin/env bash
# make sanitize-thread: the tests that draw, decode photos and videos and encode on several threads at once, built
# and run under ThreadSanitizer in their own build folder (.build/tsan), then a 20-photo slideshow
# through the TSan-built moviemaker (two drawing threads sharing the photo store, a read-ahead thread,
# the encoder thread). Any ThreadSanitizer report fails the run.
#
# TSAN_FILTER replaces the default test selection (a `swift test --filter` pattern).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# die_after_fork=0: narration forks a child per text (CMovieMakerSpeech), in which eSpeak NG starts a
# thread; TSan would otherwise end such a child of a threaded process.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:report_signal_unsafe=0:die_after_fork=0}
filter=${TSAN_FILTER:-"TransitionTests|RenderLifecycleTests|TimeModelTests|SlideshowTests|TransparentOutputTests|MusicBedTests|TitleCardTests|DistributedRenderTests|VideoClipTests|VideoPassThroughTests|VideoDecoderPoolTests|VideoBackwardWindowTests|VideoForwardSeekTests|PictureEditingTests"}
echo "== building the package and its tests with ThreadSanitizer (.build/tsan)"
"$SWIFT" build --build-path .build/tsan --build-tests --sanitize=thread
log=.build/tsan/sanitize-thread.log
: > "$log"
echo "== running the multi-threaded tests under ThreadSanitizer ($filter)"
set +e
"$SWIFT" test --build-path .build/tsan --skip-build --sanitize=thread --disable-xctest --filter "$filter" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
set -e
echo "== a 20-photo slideshow (fill and blur fits) through the ThreadSanitizer moviemaker"
photos=$(mktemp -d /tmp/moviemaker-tsan.XXXXXX)
trap 'rm -rf "$photos"' EXIT
bin=$("$SWIFT" build --build-path .build/tsan --sanitize=thread --show-bin-path)
for i in $(seq 1 20); do
    # Landscape and portrait photos of different sizes: decoded at different scales, some read ahead.
    if (( i % 2 )); then size=1600x1200; else size=1200x1600; fi
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=$size:rate=1,hue=h=$((i * 17))" -frames:v 1 "$photos/p$i.jpg"
done
for fit in fill blur; do
    "$bin/moviemaker" slideshow "$photos" --fit "$fit" --size 640x360 --duration 1 --transition-duration 0.5 -q \
        -o "$photos/show-$fit.mp4" 2>&1 | tee -a "$log" || status=1
done
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "make sanitize-thread: FAILED, $(grep -c 'WARNING: ThreadSanitizer' "$log") ThreadSanitizer report(s) in $log"
    exit 1
fi
if [ "$status" -ne 0 ]; then echo "make sanitize-thread: a test or the slideshow failed under ThreadSanitizer ($log)"; exit "$status"; fi
echo "make sanitize-thread: no ThreadSanitizer report"
