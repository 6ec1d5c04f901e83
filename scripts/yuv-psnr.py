#!/usr/bin/env python3
"""Usage: yuv-psnr.py W H NAME=SOURCE NAME=SOURCE [NAME=SOURCE ...] > per-frame.csv

Per-frame luma PSNR between every pair of picture sequences, streamed (constant memory).
A SOURCE is one of
  ff:FILE     the first video track decoded by FFmpeg (libavcodec h264, or any codec: FFV1, y4m ...)
  gst:FILE    the first video track of an MP4 decoded by GStreamer qtdemux + h264parse + openh264dec
  gst264:FILE a raw Annex-B H.264 file (x264 CLI output) decoded by GStreamer h264parse + openh264dec
  yuv:FILE    raw 8-bit yuv420p frames of W x H (e.g. x264 --dump-yuv, the encoder's reconstruction)
Writes CSV: frame, then one column per pair "A~B" (99.00 = bit-identical luma, and chroma too),
and a summary per pair on standard error: frames, identical, worst PSNR and where, mean PSNR.
"""
import itertools
import math
import subprocess
import sys

import numpy as np


def ru(x, n):
    return (x + n - 1) // n * n


def read_exact(f, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = f.read(n - len(buf))
        if not chunk:
            break
        buf += chunk
    return bytes(buf)


class Source:
    def __init__(self, name, spec, w, h):
        self.name, self.w, self.h = name, w, h
        kind, _, path = spec.partition(':')
        cw, ch = (w + 1) // 2, (h + 1) // 2
        self.size = w * h + 2 * cw * ch
        self.pad = None
        if kind == 'ff':
            cmd = ['ffmpeg', '-nostdin', '-v', 'error', '-i', path, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
            self.f = self.proc.stdout
        elif kind in ('gst', 'gst264'):
            demux = ['qtdemux', 'name=d', 'd.video_0', '!'] if kind == 'gst' else []
            cmd = ['gst-launch-1.0', '-q', 'filesrc', 'location=' + path, '!'] + demux + [
                   'h264parse', '!', 'openh264dec', '!', 'video/x-raw,format=I420', '!', 'fdsink', 'fd=1']
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
            self.f = self.proc.stdout
            ys, cs = ru(w, 4), ru(ru(w, 2) // 2, 4)
            if ys != w or cs != cw:
                self.pad = (ys, cs)
                self.read_size = ys * ru(h, 2) + 2 * cs * (ru(h, 2) // 2)
        elif kind == 'yuv':
            self.proc = None
            self.f = open(path, 'rb')
        else:
            raise SystemExit('unknown source kind %r (ff:, gst:, yuv:)' % kind)
        self.count = 0

    def next(self):
        n = self.read_size if self.pad else self.size
        b = read_exact(self.f, n)
        if len(b) < n:
            return None
        self.count += 1
        if self.pad:
            ys, cs = self.pad
            w, h = self.w, self.h
            cw, ch = (w + 1) // 2, (h + 1) // 2
            out = bytearray()
            for r in range(h):
                out += b[r * ys:r * ys + w]
            p = ys * ru(h, 2)
            for _ in range(2):
                for r in range(ch):
                    out += b[p + r * cs:p + r * cs + cw]
                p += cs * (ru(h, 2) // 2)
            b = bytes(out)
        return b

    def close(self):
        if self.proc:
            self.proc.stdout.close()
            self.proc.terminate()
            self.proc.wait()
        else:
            self.f.close()


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    w, h = int(sys.argv[1]), int(sys.argv[2])
    srcs = []
    for arg in sys.argv[3:]:
        name, _, spec = arg.partition('=')
        srcs.append(Source(name, spec, w, h))
    pairs = list(itertools.combinations(range(len(srcs)), 2))
    print(','.join(['frame'] + ['%s~%s' % (srcs[a].name, srcs[b].name) for a, b in pairs]))
    stats = {p: [0, 0, 99.0, -1, 0.0] for p in pairs}  # frames, identical, worst, worst frame, sum
    i = 0
    while True:
        frames = [s.next() for s in srcs]
        if any(f is None for f in frames):
            break
        ys = [np.frombuffer(f[:w * h], np.uint8).astype(np.int16) for f in frames]
        row = [str(i)]
        for p in pairs:
            a, b = p
            if frames[a] == frames[b]:
                v = 99.0
            else:
                d = (ys[a] - ys[b]).astype(np.int32)
                mse = float((d * d).mean())
                v = 98.0 if mse == 0 else min(98.0, 10 * math.log10(255.0 ** 2 / mse))  # 98: luma equal, chroma not
            st = stats[p]
            st[0] += 1
            st[1] += v == 99.0
            if v < st[2]:
                st[2], st[3] = v, i
            st[4] += v
            row.append('%.2f' % v)
        print(','.join(row))
        i += 1
    counts = {s.name: s.count for s in srcs}
    for s in srcs:  # count what is left
        while s.next() is not None:
            pass
        counts[s.name] = s.count
        s.close()
    sys.stderr.write('frames: %s\n' % ', '.join('%s=%d' % kv for kv in counts.items()))
    for (a, b), st in stats.items():
        sys.stderr.write('%s~%s: compared=%d identical=%d worst=%.2f dB at frame %d mean=%.2f dB\n' % (
            srcs[a].name, srcs[b].name, st[0], st[1], st[2], st[3], st[4] / max(1, st[0])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
