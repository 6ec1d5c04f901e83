"""Peer: Manim Community Edition 0.22.0 with its Cairo renderer (it draws with Cairo, as we do), each
workload written as a Manim scene. W1: a ValueTracker runs the scene's clock linearly through one
`play`; an updater rebuilds the background and the 50 shapes from it each frame as VMobjects (Manim's
paths are cubic Béziers), filled with 3-stop linear gradients and stroked with round joins; the frame
number is a `Text` made again each frame (`always_redraw`). W3: the title comes in with
`FadeIn(shift=UP·60 px, rate_func=ease_out_cubic)` over 1 s, the subtitle with a linear `FadeIn` over
0.5 s, then `wait()` holds the card (Manim draws a still frame once and writes it repeatedly). Text is
Manim's `Text` (Pango outlines drawn by Cairo), DejaVu Sans Bold 120 px and DejaVu Sans 56 px. No W2
(photos are not what Manim is for).

    python manim_peer.py W1|W3 --preset medium --out out.mp4 [--frames N]

Manim writes each `play`/`wait` to its own H.264 segment through PyAV (PyAV's wheel has its own
FFmpeg 8 and x264 core 165) and joins the segments without re-encoding. The x264 preset and CRF 20
are set with Manim's `video_encoder_options` (the CLI's `--encoder-option preset=… --encoder-option
crf=20`), 1920x1080, 30 fps, yuv420p. Caching is off, and each run has a fresh media folder (removed
at the end), so every run draws, makes its Text outlines and encodes everything.

What cannot be matched:
- PyAV converts Manim's RGBA frames to yuv420p with the BT.601 matrix whatever the stream is tagged,
  and Manim has no setting for it; the output is left untagged, as Manim writes it (the others are
  BT.709 and tagged so). PSNR against the pycairo pipe is lowered by that matrix difference too.
- PyAV opens x264 with slice threads (`sliced_threads=1`), not the frame threads ffmpeg's command
  line uses; Manim has no setting for that either (`x264-params=sliced-threads=0` would change it).
- Each `play`/`wait` is a separate x264 run (W3: three segments, each starting with an IDR frame).
- A shape's gradient runs between the workload's points: Manim's own gradients run across the
  bounding box along a sheen direction, which cannot say them, so the shapes are a VMobject subclass
  whose `get_gradient_start_and_end_points` returns them.
- Manim closes a path only when it ends where it began, so each shape's last anchor is joined to its
  first by a straight cubic (cairo's close_path in the others).
- Text is placed by its ink box, computed from cairo's extents of the same string at the same size.
"""
import argparse
import math
import os
import shutil
import tempfile

import cairo
import numpy as np
from manim import (DL, UL, UP, BOLD, NORMAL, FadeIn, LineJointType, ManimColor, Scene, Text, ValueTracker, VGroup,
                   VMobject, always_redraw, config, linear, rate_functions, tempconfig)

import workloads as W

PPU = W.HEIGHT / 8.0            # pixels per Manim unit: the frame is 8 units high (14.22 wide) at 16:9
FONT_SIZE_PER_PX = 8 / 15       # Manim's font_size is 1/72 unit per point: 120 px is font_size 64
STROKE_WIDTH = 4 / (0.01 * PPU)  # the Cairo camera strokes stroke_width × 0.01 units


def point(x, y):
    """Manim's coordinates (y up, origin at the centre) of pixel (x, y)."""
    return np.array([(x - W.WIDTH / 2) / PPU, (W.HEIGHT / 2 - y) / PPU, 0.0])


def color(rgb):
    return ManimColor(tuple(float(c) for c in rgb))


def run_time(frames):
    """A play's run time writing exactly `frames` frames: Manim renders np.arange(0, run_time, 1/fps)."""
    r = frames / W.FPS
    return r if len(np.arange(0, r, 1 / W.FPS)) == frames else (frames - 0.5) / W.FPS


class Shape(VMobject):
    """A VMobject whose linear gradient runs between two given points (see the module's docstring)."""

    def __init__(self, **kwargs):
        super().__init__(joint_type=LineJointType.ROUND, **kwargs)
        self.gradient_points = (point(0, 0), point(W.WIDTH, W.HEIGHT))

    def get_gradient_start_and_end_points(self):
        return self.gradient_points


def ink_box(text, size, bold, x, baseline):
    """(left, top) in pixels of the ink of `text` drawn at pen position (x, baseline), by cairo's extents;
    x=None centres the text's advance in the frame, as the other peers do."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1)
    cr = cairo.Context(surface)
    cr.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
    cr.set_font_size(size)
    e = cr.text_extents(text)
    if x is None:
        x = (W.WIDTH - e.x_advance) / 2
    return x + e.x_bearing, baseline + e.y_bearing


def text(string, size, bold, x, baseline):
    """Manim's Text of `string`, `size` px, its ink where cairo puts it with the pen at (x, baseline)."""
    mob = Text(string, font="DejaVu Sans", weight=BOLD if bold else NORMAL, font_size=size * FONT_SIZE_PER_PX)
    return mob.move_to(point(*ink_box(string, size, bold, x, baseline)), aligned_edge=UL)


class W1Scene(Scene):
    frames = W.W1_FRAMES

    def construct(self):
        clock = ValueTracker(0)
        background = Shape(stroke_width=0)
        background.set_points_as_corners([point(0, 0), point(W.WIDTH, 0), point(W.WIDTH, W.HEIGHT), point(0, W.HEIGHT), point(0, 0)])
        shapes = [Shape(stroke_width=STROKE_WIDTH) for _ in range(W.W1_SHAPES)]
        picture = VGroup(background, *shapes)

        def update(_):
            t = clock.get_value()
            w, h = W.WIDTH, W.HEIGHT
            swing = 0.5 + 0.5 * math.sin(t * 0.7)
            background.gradient_points = (point(0, 0), point(w, h * swing))
            background.set_fill([color(W.hsv(0.62 + 0.05 * swing, 0.6, 0.18)), color(W.hsv(0.75, 0.5, 0.35))], opacity=1)
            n = W.SEGMENTS
            for k, shape in enumerate(shapes):
                p = W.PARAMS[k]
                cx, cy, radius, corners, handles = W.w1_shape(k, t, w, h)
                anchors = [point(*c) for c in corners]
                points = []
                for j in range(n):
                    points += [anchors[j], point(*handles[j][0]), point(*handles[j][1]), anchors[j + 1]]
                first, last = anchors[0], anchors[n]            # close_path: a straight cubic back to the start
                points += [last, last + (first - last) / 3, last + 2 * (first - last) / 3, first]
                shape.set_points(np.array(points))
                hue = math.fmod(p["hue"] + 0.03 * t, 1)
                light, dark = color(W.hsv(hue, 0.55, 1.0)), color(W.hsv(hue + 0.08, 0.9, 0.55))
                shape.gradient_points = (point(cx - radius, cy - radius), point(cx + radius, cy + radius))
                shape.set_fill([light, dark, light], opacity=0.85)
                shape.set_stroke(color(W.hsv(hue + 0.5, 0.4, 1.0)), width=STROKE_WIDTH, opacity=0.9)

        update(picture)
        picture.add_updater(update)
        label = always_redraw(lambda: text("frame %05d" % round(clock.get_value() * W.FPS), 24, False, 40, W.HEIGHT - 40))
        self.add(picture, label)
        duration = run_time(self.frames)
        # The clock reads k / fps at frame k: alpha = t / run_time, times run_time.
        self.play(clock.animate.set_value(duration), run_time=duration, rate_func=linear)


class W3Scene(Scene):
    frames = W.W3_FRAMES

    def construct(self):
        title = text(W.W3_TITLE, W.W3_TITLE_SIZE, True, None, W.W3_TITLE_Y)
        subtitle = text(W.W3_SUBTITLE, W.W3_SUBTITLE_SIZE, False, None, W.W3_SUBTITLE_Y)
        fps = W.FPS
        self.play(FadeIn(title, shift=UP * W.W3_RISE / PPU), run_time=run_time(fps), rate_func=rate_functions.ease_out_cubic)
        self.play(FadeIn(subtitle), run_time=run_time(fps // 2), rate_func=linear)
        held = self.frames - fps - fps // 2
        if held > 0:
            # A still frame written int(duration · fps) times: a quarter frame more keeps int() off the edge.
            self.wait((held + 0.25) / fps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["W1", "W3"])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int)
    ap.add_argument("--photos")          # accepted like the other peers' (no W2 here)
    a = ap.parse_args()
    scene = {"W1": W1Scene, "W3": W3Scene}[a.workload]
    frames = a.frames or scene.frames
    if a.workload == "W3" and frames < W.FPS * 3 // 2:
        ap.error("W3 needs at least %d frames (its two entrances)" % (W.FPS * 3 // 2))
    out = os.path.abspath(a.out)
    media = tempfile.mkdtemp(prefix=".manim-media-", dir=os.path.dirname(out))
    settings = {
        "renderer": "cairo", "pixel_width": W.WIDTH, "pixel_height": W.HEIGHT, "frame_rate": W.FPS,
        "format": "mp4", "write_to_movie": True, "disable_caching": True, "media_dir": media, "output_file": out,
        "video_encoder_options": {"preset": a.preset, "crf": str(W.CRF)},
        "verbosity": "WARNING", "progress_bar": "none",
    }
    if a.workload == "W3":
        settings["background_color"] = color(W.W3_BACKGROUND)
    try:
        with tempconfig(settings):
            scene.frames = frames
            scene().render()
    finally:
        shutil.rmtree(media, ignore_errors=True)


if __name__ == "__main__":
    main()
