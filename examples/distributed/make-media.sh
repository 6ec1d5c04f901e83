#!/usr/bin/env bash
# Writes the two sounds spec.json names into media/ next to this script (kept when already there):
# music.wav, a 4-s chord progression the spec loops to the end, and blip.wav, a short rising tone.
set -euo pipefail
cd "$(dirname "$0")"
command -v ffmpeg >/dev/null 2>&1 || { echo "$0: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 1; }
mkdir -p media
if [ ! -s media/music.wav ]; then
  ffmpeg -loglevel error -nostdin -y -f lavfi \
    -i "aevalsrc='0.12*(sin(2*PI*(220+110*gte(mod(t,4),2))*t)+sin(2*PI*(277.18+92.82*gte(mod(t,4),2))*t)+sin(2*PI*329.63*t))*(0.6+0.4*sin(PI*t))|0.12*(sin(2*PI*(220+110*gte(mod(t,4),2))*t)+sin(2*PI*(277.18+92.82*gte(mod(t,4),2))*t)+sin(2*PI*329.63*t))*(0.6+0.4*cos(PI*t))':s=48000:d=4" \
    -c:a pcm_s16le media/music.wav.partial.wav
  mv media/music.wav.partial.wav media/music.wav
fi
if [ ! -s media/blip.wav ]; then
  ffmpeg -loglevel error -nostdin -y -f lavfi \
    -i "aevalsrc='0.4*sin(2*PI*(660+880*t)*t)*exp(-4*t)':s=48000:d=0.6" \
    -ac 2 -c:a pcm_s16le media/blip.wav.partial.wav
  mv media/blip.wav.partial.wav media/blip.wav
fi
echo "media: $(pwd)/media/music.wav, $(pwd)/media/blip.wav"
