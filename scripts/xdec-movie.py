#!/usr/bin/env python3
"""Usage: xdec-movie.py [--below DB] MOVIE.mp4

Decodes MOVIE with FFmpeg and with GStreamer + openh264 (as cross_decode.py does) and lists every
frame where the two differ by more than the B-frame noise (luma PSNR < --below, default 45 dB):
display index, picture type, PSNR against FFmpeg's same frame, and which FFmpeg frame within
+-8 positions openh264's picture is identical to (luma), if any; plus the frames before the next IDR
in decoding order. "== ffmpeg frame i+5" means openh264 handed out another picture's buffer.
"""
import collections
import importlib.util
import json
import math
import os
import subprocess
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('yp', os.path.join(here, 'yuv-psnr.py'))
yp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(yp)


def main():
    argv = sys.argv[1:]
    below = 45.0
    if '--below' in argv:
        i = argv.index('--below')
        below = float(argv[i + 1])
        del argv[i:i + 2]
    path = argv[0]
    st = json.loads(subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries',
                                    'stream=width,height', '-of', 'json', path], capture_output=True, text=True).stdout)['streams'][0]
    w, h = st['width'], st['height']
    types = [l.split(',')[0] for l in subprocess.run(
        ['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pict_type', '-of', 'csv=p=0', path],
        capture_output=True, text=True).stdout.split('\n') if l.strip()]
    # decoding order, as display indices (packets sorted by pts give the display index)
    pk = [l.split(',') for l in subprocess.run(
        ['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts,flags', '-of', 'csv=p=0', path],
        capture_output=True, text=True).stdout.split('\n') if l.strip()]
    pts_sorted = sorted(int(p[0]) for p in pk)
    rank = {p: i for i, p in enumerate(pts_sorted)}
    decode_order = [rank[int(p[0])] for p in pk]
    ff = yp.Source('ffmpeg', 'ff:' + path, w, h)
    gs = yp.Source('openh264', 'gst:' + path, w, h)
    win = 8
    ahead = collections.deque()  # (index, luma) of ffmpeg frames i-win .. i+win
    behind = collections.deque()
    nxt = 0
    i = 0
    rows = []

    def luma(f):
        return np.frombuffer(f[:w * h], np.uint8)

    while True:
        while nxt <= i + win:
            f = ff.next()
            if f is None:
                break
            ahead.append((nxt, luma(f)))
            nxt += 1
        g = gs.next()
        if g is None:
            break
        gl = luma(g)
        while ahead and ahead[0][0] < i:
            behind.append(ahead.popleft())
            if len(behind) > win:
                behind.popleft()
        if not ahead or ahead[0][0] != i:
            break
        same = ahead[0][1]
        d = gl.astype(np.int32) - same.astype(np.int32)
        mse = float((d * d).mean())
        p = 99.0 if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)
        if p < below:
            match = [j for j, y in list(behind) + list(ahead) if j != i and np.array_equal(y, gl)]
            pos = decode_order.index(i)
            ctx = ' '.join('%d%s' % (k, types[k] if k < len(types) else '?') for k in decode_order[max(0, pos - 1):pos + 6])
            rows.append(i)
            print('frame %5d type %s: %.2f dB vs ffmpeg frame %d; openh264 picture == ffmpeg frame %s; decoding order from it: %s' % (
                i, types[i] if i < len(types) else '?', p, i, ','.join(map(str, match)) or 'none', ctx))
        i += 1
    ff.close()
    gs.close()
    print('%d frames compared, %d below %.1f dB' % (i, len(rows), below))


if __name__ == '__main__':
    main()
