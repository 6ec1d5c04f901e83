"""Peer: movis 0.7.1, a Python video composition library with its own compositing (layers warped with
OpenCV's warpAffine, alpha-composited in NumPy), written as its documentation suggests. W2: an Image
layer per photo in a Composition, its scale and (from the second photo on) its opacity keyframed
with Motions (linear); W3: a Rectangle for the background and two Text layers (movis draws text with
Qt), the title's position and opacity keyframed with movis's `ease_out3` (1 − (1 − t)³), the
subtitle's opacity linear from 1.0 to 1.5 s. No W1: movis has no Bézier paths (its drawing layers
are rectangles, ellipses and lines). Encoded by `Composition.write_video` through imageio-ffmpeg's
ffmpeg binary (the same one MoviePy uses, its own x264), libx264 at the preset, CRF 20, yuv420p.

    python movis_peer.py W2|W3 --preset medium --out out.mp4 [--frames N] [--photos DIR]

What is not as the other peers have it:
- movis keeps every composed frame and every layer image it draws in a diskcache (1 GiB, in a new
  folder under the temporary directory, never removed by movis); that is its normal way of working
  and is timed. The peer removes the folder at the end, so runs do not fill the disk.
- movis 0.7.1 (the newest on PyPI) calls float() on one-element arrays in its drawing layers
  (Text, Rectangle), which NumPy 2.4 rejects ("only 0-dimensional arrays can be converted to Python
  scalars"). The peer gives `movis.layer.drawing` a float() that takes the element, as NumPy < 2.4
  did, so the venv's NumPy is the one the other peers use.
- Qt draws the text (hinted by Qt, not Cairo): the title and subtitle are placed by Qt's own metrics
  so their baselines and centres are where the other peers put them, within a pixel.
- RGBA frames are piped to imageio-ffmpeg's ffmpeg (9.0), which converts them to yuv420p with the
  BT.709 matrix because the output is tagged BT.709 (as MoviePy's is). W2's photos are warped with
  bilinear interpolation straight from the 2560x1440 JPEG (not resized once beforehand).
"""
import argparse
import builtins
import os
import shutil

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")     # movis's Text makes a QApplication; no display here

import numpy as np
import movis as mv
import movis.layer.drawing
from PIL import Image

import workloads as W


def _float(x):
    return builtins.float(x.reshape(-1)[0]) if isinstance(x, np.ndarray) else builtins.float(x)


movis.layer.drawing.float = _float      # see the module's docstring: movis 0.7.1 and NumPy 2.4

OUTPUT_PARAMS = ["-crf", str(W.CRF), "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]


def write(comp, a):
    try:
        comp.write_video(a.out, codec="libx264", pixelformat="yuv420p", fps=W.FPS, audio=False,
                         output_params=["-preset", a.preset] + OUTPUT_PARAMS)
    finally:
        cache = comp._cache          # movis's per-composition diskcache (see above)
        cache.close()
        shutil.rmtree(cache.directory, ignore_errors=True)


def w2(a):
    count = W.W2_PHOTOS if not a.frames else max(2, -(-a.frames // int(W.W2_SECONDS * W.FPS)))
    frames = a.frames or W.w2_frames(count)
    comp = mv.layer.Composition(size=(W.WIDTH, W.HEIGHT), duration=frames / W.FPS)
    for i, path in enumerate(W.w2_photo_paths(a.photos, count)):
        start, length = W.w2_on_screen(i, count)
        with Image.open(path) as im:
            cover = max(W.WIDTH / im.width, W.HEIGHT / im.height)
        item = comp.add_layer(mv.layer.Image(path, duration=length), name="photo-%02d" % (i + 1),
                              offset=start, position=(W.WIDTH / 2, W.HEIGHT / 2))
        item.scale.enable_motion().extend(keyframes=[0, length], values=[cover, cover * (1 + W.W2_ZOOM)],
                                          easings=["linear"])
        if i > 0:
            item.opacity.enable_motion().extend(keyframes=[0, W.W2_FADE], values=[0, 1], easings=["linear"])
    write(comp, a)


def text_layer(text, size, bold, duration):
    """The Text layer and its ink box relative to the pen's origin on the baseline (Qt's metrics):
    movis crops a Text layer's image to the ink."""
    from PySide6.QtGui import QFontMetrics
    layer = mv.layer.Text(text, font_size=size * 72 / 96, font_family="DejaVu Sans",     # points at Qt's 96 dpi
                          font_style="Bold" if bold else "Book", color="#ffffff", duration=duration)
    metrics = QFontMetrics(layer._get_qfont(0))
    return layer, metrics.tightBoundingRect(text), metrics.horizontalAdvance(text)


def w3(a):
    frames = a.frames or W.W3_FRAMES
    d = frames / W.FPS
    comp = mv.layer.Composition(size=(W.WIDTH, W.HEIGHT), duration=d)
    comp.add_layer(mv.layer.Rectangle(size=(W.WIDTH, W.HEIGHT), color=tuple(round(c * 255) for c in W.W3_BACKGROUND),
                                      duration=d), name="background")
    title, ink, advance = text_layer(W.W3_TITLE, W.W3_TITLE_SIZE, True, d)
    left, top = (W.WIDTH - advance) / 2 + ink.x(), W.W3_TITLE_Y + ink.y()
    item = comp.add_layer(title, name="title", position=(left, top + W.W3_RISE), origin_point=mv.Direction.TOP_LEFT)
    item.position.enable_motion().extend(keyframes=[0, 1], values=[(left, top + W.W3_RISE), (left, top)], easings=["ease_out3"])
    item.opacity.enable_motion().extend(keyframes=[0, 1], values=[0, 1], easings=["ease_out3"])
    sub, ink, advance = text_layer(W.W3_SUBTITLE, W.W3_SUBTITLE_SIZE, False, d)
    item = comp.add_layer(sub, name="subtitle", position=((W.WIDTH - advance) / 2 + ink.x(), W.W3_SUBTITLE_Y + ink.y()),
                          origin_point=mv.Direction.TOP_LEFT)
    item.opacity.enable_motion().extend(keyframes=[0, 1.0, 1.5], values=[0, 0, 1], easings=["linear", "linear"])
    write(comp, a)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["W2", "W3"])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int)
    ap.add_argument("--photos")
    a = ap.parse_args()
    {"W2": w2, "W3": w3}[a.workload](a)


if __name__ == "__main__":
    main()
