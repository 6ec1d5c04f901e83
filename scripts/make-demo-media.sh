#!/usr/bin/env bash
# Writes every default media file the example templates in examples/specs/ name (travel.json,
# promo.json, birthday.json, editing.json) into OUT_FOLDER, with FFmpeg's test sources, so each template renders as
# its own preview:
#
#   scripts/make-demo-media.sh OUT_FOLDER [WIDTHxHEIGHT] [SECONDS_SCALE]
#
#   OUT_FOLDER     where the files go, e.g. examples/specs/media (created if missing)
#   WIDTHxHEIGHT   the landscape clips' size (default 1280x720; both even). Photos and the portrait
#                  clip are sized from the width: a 9:16 clip 1080x1920 at the default width, a
#                  320x240 run (the tests') makes a 270x480 one.
#   SECONDS_SCALE  a factor for every clip's and music's length (default 1): 0.5 halves them. The
#                  templates' slot fits are written for the lengths at 1.
#
# The clips last 3, 5, 6 (portrait) and 8 s, so the templates' slot fits (cutTail, center, cutHead,
# freezeLast, speedToFit, loop) each have something to do; each has a soft tone as its sound, so the
# music ducks under it. The music is two chord progressions made with aevalsrc.
#
# Files already there are kept (delete one to make it again), so running it again costs nothing.
# Each file is written to a temporary name and renamed when complete.
set -euo pipefail

usage() { echo "usage: $0 OUT_FOLDER [WIDTHxHEIGHT] [SECONDS_SCALE]" >&2; exit 64; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
folder="$1"
size="${2:-1280x720}"
scale="${3:-1}"
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "$0: size must be WIDTHxHEIGHT, e.g. 1280x720, got $size" >&2; exit 64; }
width="${BASH_REMATCH[1]}"; height="${BASH_REMATCH[2]}"
(( width >= 64 && height >= 64 && width % 2 == 0 && height % 2 == 0 )) || { echo "$0: $size: both sides must be even and at least 64" >&2; exit 64; }
[[ "$scale" =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v s="$scale" 'BEGIN { exit !(s > 0 && s <= 10) }' || { echo "$0: SECONDS_SCALE must be a number above 0 and at most 10, got $scale" >&2; exit 64; }
command -v ffmpeg >/dev/null 2>&1 || { echo "$0: ffmpeg is missing: run scripts/install-deps.sh" >&2; exit 1; }
mkdir -p "$folder"

even() { echo $(( ($1 / 2) * 2 )); }
seconds() { awk -v s="$1" -v k="$scale" 'BEGIN { printf "%.3f", s * k }'; }
# Photo and portrait sizes follow the width: 3:2 and 3:4 photos, a square one, a 9:16 clip.
photo_w=$(even $(( width * 3 / 2 ))); photo_h=$(even "$width")
tall_w=$(even $(( width * 3 / 4 ))); tall_h=$(even "$width")
square=$(even "$width")
portrait_w=$(even $(( width * 27 / 32 ))); portrait_h=$(even $(( width * 3 / 2 )))
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
made=0

# label TEXT: a drawtext filter writing TEXT in the corner, when the DejaVu font is installed
# (the pictures are fine without it).
label() {
    [ -f "$font" ] || { echo "null"; return; }
    echo "drawtext=fontfile=$font:text='$1':x=w/40:y=h/30:fontsize=h/18:fontcolor=white:box=1:boxcolor=black@0.45:boxborderw=8"
}

# clip NAME SECONDS WxH "lavfi video source" TONE_HZ "extra video filters": an H.264 + AAC clip at
# 30 fps with a soft tone (a sine peaking near −16 dBFS, with a slow tremolo) as its sound.
clip() {
    local name="$1" length; length=$(seconds "$2"); local dims="$3" source="$4" tone="$5" filters="$6"
    [ -s "$folder/$name" ] && return 0
    ffmpeg -loglevel error -nostdin -y -f lavfi -i "$source" \
        -f lavfi -i "sine=frequency=$tone:sample_rate=48000" \
        -filter_complex "[0:v]$filters,scale=$dims:flags=neighbor,setsar=1,$(label "$name  %{pts\\:hms}"),format=yuv420p[v];[1:a]volume=1.2,tremolo=f=0.5:d=0.6,aformat=channel_layouts=stereo[a]" \
        -map "[v]" -map "[a]" -t "$length" -r 30 -c:v libx264 -preset veryfast -crf 23 -c:a aac -b:a 128k -movflags +faststart \
        "$folder/.$name.tmp.mp4"
    mv "$folder/.$name.tmp.mp4" "$folder/$name"
    made=$((made + 1))
}

# photo NAME "lavfi source" "filters": one frame as a JPEG or PNG (by NAME's extension).
photo() {
    local name="$1" source="$2" filters="$3"
    [ -s "$folder/$name" ] && return 0
    local ext="${name##*.}"
    ffmpeg -loglevel error -nostdin -y -f lavfi -i "$source" -vf "$filters" -frames:v 1 -q:v 3 "$folder/.$name.tmp.$ext"
    mv "$folder/.$name.tmp.$ext" "$folder/$name"
    made=$((made + 1))
}

# music NAME SECONDS "aevalsrc expression" "filters": a stereo 44.1 kHz WAV.
music() {
    local name="$1" length; length=$(seconds "$2"); local expression="$3" filters="$4"
    [ -s "$folder/$name" ] && return 0
    ffmpeg -loglevel error -nostdin -y -f lavfi -i "aevalsrc=exprs='$expression':s=44100" \
        -af "$filters,afade=t=in:d=0.05,afade=t=out:st=$(awk -v l="$length" 'BEGIN { printf "%.3f", l - 0.3 }'):d=0.3" \
        -t "$length" -ac 2 -c:a pcm_s16le "$folder/.$name.tmp.wav"
    mv "$folder/.$name.tmp.wav" "$folder/$name"
    made=$((made + 1))
}

# --- Clips: lengths 3, 5, 6 and 8 s (at SECONDS_SCALE 1), so slot fits have something to do. -------
small="$(even $(( width / 4 )))x$(even $(( height / 4 )))"
clip "clip-3s.mp4" 3 "${width}x${height}" "life=size=$small:rate=30:mold=8:ratio=0.25:seed=5:life_color=#ffd166:death_color=#073b4c:mold_color=#118ab2" 330 "null"
clip "clip-5s.mp4" 5 "${width}x${height}" "cellauto=size=$small:rate=30:rule=110:seed=9:random_fill_ratio=0.5" 262 \
    "format=gray,lutrgb=r='if(gt(val,128),250,34)':g='if(gt(val,128),128,87)':b='if(gt(val,128),114,122)'"
clip "clip-8s.mp4" 8 "${width}x${height}" "testsrc2=size=${width}x${height}:rate=30" 196 "null"
clip "portrait-6s.mp4" 6 "${portrait_w}x${portrait_h}" "testsrc2=size=${portrait_w}x${portrait_h}:rate=30" 392 "hue=h=140:s=0.8"

# --- Photos: landscape, portrait and square, JPEG and PNG. ------------------------------------------
photo "photo-sunset.jpg" "gradients=size=${photo_w}x${photo_h}:nb_colors=4:c0=#1a2a6c:c1=#b21f1f:c2=#fdbb2d:c3=#f6d365:x0=0:y0=0:x1=0:y1=${photo_h}:seed=3" "$(label photo-sunset)"
photo "photo-harbour.jpg" "mandelbrot=size=${photo_w}x${photo_h}:maxiter=160:start_scale=2.2:start_x=-0.75:start_y=0.0" "hue=h=200:s=1.2,$(label photo-harbour)"
photo "party-1.jpg" "gradients=size=${photo_w}x${photo_h}:nb_colors=3:c0=#ff5d8f:c1=#ffd166:c2=#06d6a0:seed=11" "$(label party-1)"
photo "party-2.jpg" "life=size=$(even $(( tall_w / 8 )))x$(even $(( tall_h / 8 ))):mold=10:ratio=0.3:seed=3:life_color=#f15bb5:death_color=#2b2d42:mold_color=#9b5de5" "select=eq(n\,60),scale=${tall_w}x${tall_h}:flags=neighbor,$(label party-2)"
photo "party-3.png" "mandelbrot=size=${square}x${square}:maxiter=120:start_scale=1.2:start_x=-0.745:start_y=0.11" "hue=h=300:s=1.3,$(label party-3)"
photo "party-4.jpg" "gradients=size=${photo_w}x${photo_h}:nb_colors=4:c0=#3a0ca3:c1=#f72585:c2=#4cc9f0:c3=#ffbe0b:x0=0:y0=${photo_h}:x1=${photo_w}:y1=0:seed=4" "$(label party-4)"
# A product shot: a shaded sphere with a highlight and a soft shadow on a light backdrop.
photo "product.png" "color=c=#e9ecef:size=${photo_w}x${photo_h}" \
    "format=rgb24,geq=r='st(0,hypot(X-W/2,Y-H*0.46)/(H*0.3));st(1,hypot(X-W/2+H*0.09,Y-H*0.37)/(H*0.3));st(2,hypot((X-W/2)/2.2,Y-H*0.8)/(H*0.08));if(lt(ld(0),1),40+150*exp(-3*ld(1)),233-60*exp(-ld(2)*ld(2)))':g='st(0,hypot(X-W/2,Y-H*0.46)/(H*0.3));st(1,hypot(X-W/2+H*0.09,Y-H*0.37)/(H*0.3));st(2,hypot((X-W/2)/2.2,Y-H*0.8)/(H*0.08));if(lt(ld(0),1),70+160*exp(-3*ld(1)),236-60*exp(-ld(2)*ld(2)))':b='st(0,hypot(X-W/2,Y-H*0.46)/(H*0.3));st(1,hypot(X-W/2+H*0.09,Y-H*0.37)/(H*0.3));st(2,hypot((X-W/2)/2.2,Y-H*0.8)/(H*0.08));if(lt(ld(0),1),120+130*exp(-3*ld(1)),239-60*exp(-ld(2)*ld(2)))'"

# --- Music. ------------------------------------------------------------------------------------------
# Calm: C – G/B – Am – F, 2 s a chord: a pad swelling with each chord, its bass, and an arpeggio an
# octave up on eighth notes, with a little echo.
chord='st(0,mod(floor(t/2),4))'
n1='if(eq(ld(0),0),261.63,if(eq(ld(0),1),246.94,if(eq(ld(0),2),261.63,261.63)))'
n2='if(eq(ld(0),0),329.63,if(eq(ld(0),1),293.66,if(eq(ld(0),2),329.63,349.23)))'
n3='if(eq(ld(0),0),392.00,if(eq(ld(0),1),392.00,if(eq(ld(0),2),440.00,440.00)))'
bass='if(eq(ld(0),0),65.41,if(eq(ld(0),1),61.74,if(eq(ld(0),2),55.00,43.65)))'
arpeggio='if(eq(ld(6),0),ld(1),if(eq(ld(6),1),ld(2),if(eq(ld(6),2),ld(3),ld(2))))'
music "music-calm.wav" 16 "$chord;st(1,$n1);st(2,$n2);st(3,$n3);st(4,$bass);st(5,sin(PI*mod(t,2)/2));st(6,mod(floor(t*4),4));st(7,mod(t,0.25));\
0.2*ld(5)*(sin(2*PI*ld(1)*t)+sin(2*PI*ld(2)*t)+sin(2*PI*ld(3)*t))+0.4*ld(5)*sin(4*PI*ld(4)*t)\
+0.3*(1-exp(-200*ld(7)))*exp(-9*ld(7))*sin(4*PI*$arpeggio*t)" "aecho=0.8:0.6:180|330:0.25|0.15,lowpass=f=5000"

# Upbeat (120 bpm): Am – F – C – G, a bar a chord: a kick on every beat, a bass on the off-beats,
# plucked chords on the eighths.
chord='st(0,mod(floor(t/2),4))'
n1='if(eq(ld(0),0),220.00,if(eq(ld(0),1),220.00,if(eq(ld(0),2),261.63,246.94)))'
n2='if(eq(ld(0),0),261.63,if(eq(ld(0),1),261.63,if(eq(ld(0),2),329.63,293.66)))'
n3='if(eq(ld(0),0),329.63,if(eq(ld(0),1),349.23,if(eq(ld(0),2),392.00,392.00)))'
bass='if(eq(ld(0),0),110.00,if(eq(ld(0),1),87.31,if(eq(ld(0),2),130.81,98.00)))'
music "music-upbeat.wav" 16 "$chord;st(1,$n1);st(2,$n2);st(3,$n3);st(4,$bass);st(5,mod(t,0.5));st(6,mod(t+0.25,0.5));st(7,mod(t,0.25));\
0.6*exp(-18*ld(5))*sin(2*PI*(45*ld(5)+1.2*(1-exp(-30*ld(5)))))\
+0.3*(1-exp(-300*ld(6)))*exp(-7*ld(6))*sin(2*PI*ld(4)*t)\
+0.13*(1-exp(-300*ld(7)))*exp(-12*ld(7))*(sin(2*PI*ld(1)*t)+sin(2*PI*ld(2)*t)+sin(2*PI*ld(3)*t))" "aecho=0.8:0.5:250:0.2,lowpass=f=6000"

# --- Picture editing (editing.json): an animated sticker with transparency, a 3D LUT, subtitles, captions. ------
if [ ! -s "$folder/sticker-spin.gif" ]; then
    side=$(even $(( width / 8 ))); r=$(( side * 45 / 100 ))
    ffmpeg -loglevel error -nostdin -y -f lavfi -i "testsrc2=s=${side}x${side}:r=10:d=1.2" \
        -filter_complex "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(hypot(X-$side/2,Y-$side/2),$r),255,0)',split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse=alpha_threshold=128" \
        -loop 0 "$folder/.sticker-spin.tmp.gif"
    mv "$folder/.sticker-spin.tmp.gif" "$folder/sticker-spin.gif"
    made=$((made + 1))
fi
# A warm look as a 17-point Adobe/Resolve .cube: reds lifted, blues lowered, a gentle S-curve.
if [ ! -s "$folder/look-warm.cube" ]; then
    awk 'BEGIN {
        n = 17; print "TITLE \"make-demo-media warm\""; print "LUT_3D_SIZE " n
        for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
            R = r / (n - 1); G = g / (n - 1); B = b / (n - 1)
            R = R + 0.08 * R * (1 - R) * 4; B = B - 0.06 * B * (1 - B) * 4
            R = R * R * (3 - 2 * R) * 0.3 + R * 0.7; G = G * G * (3 - 2 * G) * 0.3 + G * 0.7; B = B * B * (3 - 2 * B) * 0.3 + B * 0.7
            printf "%.6f %.6f %.6f\n", (R > 1 ? 1 : R), (G > 1 ? 1 : G), (B < 0 ? 0 : B)
        } }' > "$folder/.look-warm.tmp.cube"
    mv "$folder/.look-warm.tmp.cube" "$folder/look-warm.cube"
    made=$((made + 1))
fi
if [ ! -s "$folder/talk.srt" ]; then
    cat > "$folder/.talk.tmp.srt" <<'SRT'
1
00:00:00,500 --> 00:00:02,500
Two clips, <i>side by side</i>

2
00:00:03,200 --> 00:00:05,500
<b>Picture-in-picture</b>, rounded corners

3
00:00:06,000 --> 00:00:07,400
مرحبا — こんにちは — hello
SRT
    mv "$folder/.talk.tmp.srt" "$folder/talk.srt"
    made=$((made + 1))
fi

if [ ! -s "$folder/talk.words.json" ]; then
    # Word times as whisper writes them (--word_timestamps True): the captions item of editing.json.
    cat > "$folder/.talk.words.tmp.json" <<'JSON'
{"text": " Filters, split screens, stickers and captions, word by word.", "language": "en",
 "segments": [{"id": 0, "start": 0.4, "end": 4.2, "text": " Filters, split screens, stickers and captions, word by word.",
   "words": [{"word": " Filters,", "start": 0.4, "end": 0.9, "probability": 0.98},
             {"word": " split", "start": 1.0, "end": 1.3, "probability": 0.97},
             {"word": " screens,", "start": 1.3, "end": 1.8, "probability": 0.99},
             {"word": " stickers", "start": 1.9, "end": 2.4, "probability": 0.96},
             {"word": " and", "start": 2.5, "end": 2.7, "probability": 0.99},
             {"word": " captions,", "start": 2.7, "end": 3.2, "probability": 0.95},
             {"word": " word", "start": 3.3, "end": 3.6, "probability": 0.99},
             {"word": " by", "start": 3.6, "end": 3.8, "probability": 0.99},
             {"word": " word.", "start": 3.8, "end": 4.2, "probability": 0.98}]}]}
JSON
    mv "$folder/.talk.words.tmp.json" "$folder/talk.words.json"
    made=$((made + 1))
fi

echo "$folder: $(find "$folder" -maxdepth 1 -type f ! -name '.*' | wc -l) media files ($made made now)"
