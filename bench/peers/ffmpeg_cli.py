"""Peer: the ffmpeg command line alone, as its users write these jobs. W2: each photo through
zoompan (linear zoom 1.00 → 1.10 about the centre over its time on screen) chained with xfade=fade;
W3: drawtext on a colour source, alpha and y as expressions. (No W1: ffmpeg has no Bézier drawing.)
Prints the command and runs it.

    python ffmpeg_cli.py W2|W3 --preset medium --out out.mp4 [--frames N] [--photos DIR]
"""
import argparse
import os
import subprocess
import sys

import workloads as W

ENCODE = ["-c:v", "libx264", "-crf", str(W.CRF), "-pix_fmt", "yuv420p",
          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]


def w2(a):
    count = W.W2_PHOTOS if not a.frames else max(2, -(-a.frames // int(W.W2_SECONDS * W.FPS)))
    inputs, chains = [], []
    for i, path in enumerate(W.w2_photo_paths(a.photos, count)):
        _, length = W.w2_on_screen(i, count)
        d = int(round(length * W.FPS))
        inputs += ["-i", path]
        chains.append("[%d:v]zoompan=z='1+%g*on/%d':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=%d:s=%dx%d:fps=%d,"
                      "format=yuv420p,setsar=1[z%d]" % (i, W.W2_ZOOM, d, d, W.WIDTH, W.HEIGHT, W.FPS, i))
    last = "z0"
    for i in range(1, count):
        out = "x%d" % i
        chains.append("[%s][z%d]xfade=transition=fade:duration=%g:offset=%g[%s]" % (last, i, W.W2_FADE, i * W.W2_SECONDS, out))
        last = out
    return inputs + ["-filter_complex", ";".join(chains), "-map", "[%s]" % last]


def w3(a):
    frames = a.frames or W.W3_FRAMES
    bg = "0x%02x%02x%02x" % tuple(round(c * 255) for c in W.W3_BACKGROUND)
    bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    regular = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    # drawtext's y is the top of the text box; ascent puts the baseline where the other peers put it.
    title = ("drawtext=fontfile=%s:text='%s':fontsize=%d:fontcolor=white:x=(w-text_w)/2:"
             "y=%d-ascent+%d*pow(1-min(t\\,1)\\,3):alpha='1-pow(1-min(t\\,1)\\,3)'"
             % (bold, W.W3_TITLE, W.W3_TITLE_SIZE, W.W3_TITLE_Y, W.W3_RISE))
    sub = ("drawtext=fontfile=%s:text='%s':fontsize=%d:fontcolor=white:x=(w-text_w)/2:y=%d-ascent:"
           "alpha='clip((t-1)/0.5\\,0\\,1)'" % (regular, W.W3_SUBTITLE, W.W3_SUBTITLE_SIZE, W.W3_SUBTITLE_Y))
    return ["-f", "lavfi", "-i", "color=c=%s:s=%dx%d:r=%d:d=%g" % (bg, W.WIDTH, W.HEIGHT, W.FPS, frames / W.FPS),
            "-vf", title + "," + sub]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["W2", "W3"])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int)
    ap.add_argument("--photos")
    a = ap.parse_args()
    body = w2(a) if a.workload == "W2" else w3(a)
    cmd = ["ffmpeg", "-v", "error", "-y"] + body + ["-preset", a.preset] + ENCODE + [a.out]
    os.execvp("ffmpeg", cmd)


if __name__ == "__main__":
    main()
