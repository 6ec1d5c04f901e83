"""Generates W2's ten photos (2560x1440 JPEG, 16:9 so cover-fitting crops nothing): smooth gradients
with soft discs and a few sharp shapes, deterministic from the photo's number. Skips existing files.

    python make_photos.py DIR
"""
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

import workloads as W


def photo(k):
    w, h = W.PHOTO_SIZE
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r0, g0, b0 = W.hsv(k * 0.137, 0.6, 0.9)
    r1, g1, b1 = W.hsv(k * 0.137 + 0.4, 0.7, 0.35)
    u = (x / w * math.cos(k) + y / h * math.sin(k) + 1) / 3
    img = np.stack([(r0 + (r1 - r0) * u), (g0 + (g1 - g0) * u), (b0 + (b1 - b0) * u)], axis=-1) * 255
    im = Image.fromarray(img.clip(0, 255).astype(np.uint8))
    layer = Image.new("RGB", (w, h))
    d = ImageDraw.Draw(layer)
    for j in range(12):
        cx, cy = (0.5 + 0.45 * math.sin(k * 3.1 + j * 1.7)) * w, (0.5 + 0.45 * math.cos(k * 1.3 + j * 2.3)) * h
        rad = 80 + 60 * (j % 5)
        d.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=tuple(int(c * 255) for c in W.hsv(j * 0.09 + k * 0.3, 0.5, 1)))
    layer = layer.filter(ImageFilter.GaussianBlur(6))
    mask = layer.convert("L").point(lambda v: 160 if v > 0 else 0)
    im.paste(layer, (0, 0), mask)
    d = ImageDraw.Draw(im)
    for j in range(6):
        x0, y0 = (j * 397 + k * 211) % (w - 300), (j * 263 + k * 97) % (h - 200)
        d.rectangle([x0, y0, x0 + 220, y0 + 120], outline=(255, 255, 255), width=6)
    return im


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for k, path in enumerate(W.w2_photo_paths(folder)):
        if not os.path.exists(path):
            photo(k).save(path + ".part.jpg", quality=92)
            os.replace(path + ".part.jpg", path)


if __name__ == "__main__":
    main()
