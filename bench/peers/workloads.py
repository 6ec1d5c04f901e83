"""The three workloads of `make bench-peers` (issue 20), as the peers draw them.

W1  300 frames: a full-frame linear-gradient background, 50 closed shapes of 4 animated cubic Béziers
    each filled with a linear gradient and stroked, and the frame number as a line of text.
W2  10 photos, 3 s each (900 frames): each photo cover-fitted, zoomed linearly from 1.00 to 1.10 over
    its time on screen (3.5 s: its 3 s plus the 0.5-s crossfade into the next; the last photo 3 s),
    0.5-s crossfades.
W3  150 frames on a dark background (#101820): a title fading in while it slides up 60 px (cubic
    ease-out, 1 s), a subtitle fading in (linearly) from 1.0 to 1.5 s.

Every frame is a pure function of its index, so every peer (and MovieMaker, in
Sources/MovieMakerBench/PeerWorkloads.swift) draws the same pictures.
"""
import math
import os

WIDTH, HEIGHT, FPS, CRF = 1920, 1080, 30, 20

# W1 ------------------------------------------------------------------------------------------------
W1_FRAMES = 300
W1_SHAPES = 50
SEGMENTS = 4


def hsv(h, s, v):
    h = (h - math.floor(h)) * 6
    i = int(h) % 6
    f = h - math.floor(h)
    p, q, r = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    return [(v, r, p), (q, v, p), (p, v, r), (p, q, v), (r, p, v), (v, p, q)][i]


def blob_parameters(k):
    g = 0.618033988749895
    frac = lambda x: x - math.floor(x)
    u, v, w = frac(k * g), frac(k * g * g + 0.31), frac(k * 0.754877666 + 0.17)
    return dict(speed_x=0.25 + 0.6 * u, speed_y=0.20 + 0.5 * v, phase=2 * math.pi * w,
                spin=(-1 if k % 3 == 0 else 1) * (0.3 + 0.9 * v), radius=40 + 90 * w, hue=u)


PARAMS = [blob_parameters(k) for k in range(W1_SHAPES)]


def w1_shape(k, t, w, h):
    """W1's shape k at time t in a w×h frame, for every peer that draws W1: its centre, radius, the
    SEGMENTS + 1 anchors and each segment's two control points, as (x, y) tuples."""
    p = PARAMS[k]
    n = SEGMENTS
    cx = w * (0.5 + 0.42 * math.sin(t * p["speed_x"] + p["phase"]))
    cy = h * (0.5 + 0.40 * math.cos(t * p["speed_y"] + 2 * p["phase"]))
    radius = p["radius"] * (1 + 0.3 * math.sin(t * 2.1 + p["phase"]))
    spin = t * p["spin"]

    def anchor(j):
        a = spin + j * 2 * math.pi / n
        r = radius * (1 + 0.25 * math.sin(t * 3 + j + p["phase"]))
        return cx + r * math.cos(a), cy + r * math.sin(a)

    def control(j, side):
        a = spin + (j + side) * 2 * math.pi / n
        r = radius * (1.25 + 0.45 * math.sin(t * 1.7 + j * 1.3 + p["phase"] * side))
        return cx + r * math.cos(a), cy + r * math.sin(a)

    return cx, cy, radius, [anchor(j) for j in range(n + 1)], [(control(j, 0.33), control(j, 0.67)) for j in range(n)]


def draw_w1(cr, index, cairo):
    """Frame `index` of W1 into the pycairo context `cr` (module `cairo` passed in)."""
    t = index / FPS
    w, h = WIDTH, HEIGHT
    swing = 0.5 + 0.5 * math.sin(t * 0.7)
    g = cairo.LinearGradient(0, 0, w, h * swing)
    g.add_color_stop_rgba(0, *hsv(0.62 + 0.05 * swing, 0.6, 0.18), 1)
    g.add_color_stop_rgba(1, *hsv(0.75, 0.5, 0.35), 1)
    cr.set_source(g)
    cr.rectangle(0, 0, w, h)
    cr.fill()
    cr.set_line_width(4)
    cr.set_line_join(cairo.LINE_JOIN_ROUND)
    n = SEGMENTS
    for k in range(W1_SHAPES):
        p = PARAMS[k]
        cx, cy, radius, anchors, controls = w1_shape(k, t, w, h)
        cr.new_path()
        cr.move_to(*anchors[0])
        for j in range(n):
            cr.curve_to(*controls[j][0], *controls[j][1], *anchors[j + 1])
        cr.close_path()
        hue = math.fmod(p["hue"] + 0.03 * t, 1)
        light, dark = hsv(hue, 0.55, 1.0), hsv(hue + 0.08, 0.9, 0.55)
        grad = cairo.LinearGradient(cx - radius, cy - radius, cx + radius, cy + radius)
        grad.add_color_stop_rgba(0, *light, 0.85)
        grad.add_color_stop_rgba(0.5, *dark, 0.85)
        grad.add_color_stop_rgba(1, *light, 0.85)
        cr.set_source(grad)
        cr.fill_preserve()
        cr.set_source_rgba(*hsv(hue + 0.5, 0.4, 1.0), 0.9)
        cr.stroke()
    cr.set_source_rgb(1, 1, 1)
    cr.select_font_face("DejaVu Sans")
    cr.set_font_size(24)
    cr.move_to(40, h - 40)
    cr.show_text("frame %05d" % index)


# W2 ------------------------------------------------------------------------------------------------
W2_PHOTOS = 10
W2_SECONDS = 3.0
W2_FADE = 0.5
W2_ZOOM = 0.10
PHOTO_SIZE = (2560, 1440)


def w2_frames(photos=W2_PHOTOS):
    return int(round(photos * W2_SECONDS * FPS))


def w2_photo_paths(folder, photos=W2_PHOTOS):
    return [os.path.join(folder, "photo-%02d.jpg" % (i + 1)) for i in range(photos)]


def w2_on_screen(i, photos=W2_PHOTOS):
    """(start, length) in seconds of photo i: its 3 s plus the crossfade into the next (not the last)."""
    return i * W2_SECONDS, W2_SECONDS + (W2_FADE if i < photos - 1 else 0)


def w2_layers(index, photos=W2_PHOTOS):
    """What frame `index` shows: [(photo, zoom, weight)], weights summing to 1 (one or two photos).
    Zoom 1 + 0.1·(local time / time on screen); a crossfade's weight of the incoming photo is
    (t − its start) / 0.5, on the frame grid (0 at the first frame of the fade, as xfade does)."""
    frames_per_photo = int(round(W2_SECONDS * FPS))
    fade_frames = int(round(W2_FADE * FPS))
    layers = []
    for i in range(photos):
        start = i * frames_per_photo
        length = frames_per_photo + (fade_frames if i < photos - 1 else 0)
        if start <= index < start + length:
            layers.append((i, 1 + W2_ZOOM * (index - start) / length))
    if len(layers) == 1:
        return [(layers[0][0], layers[0][1], 1.0)]
    (a, za), (b, zb) = layers
    p = (index - b * frames_per_photo) / fade_frames
    return [(a, za, 1 - p), (b, zb, p)]


# W3 ------------------------------------------------------------------------------------------------
W3_FRAMES = 150
W3_BACKGROUND = (0x10 / 255, 0x18 / 255, 0x20 / 255)
W3_TITLE, W3_SUBTITLE = "MovieMaker", "faster than every peer"
W3_TITLE_SIZE, W3_SUBTITLE_SIZE = 120, 56
W3_TITLE_Y, W3_SUBTITLE_Y = 470, 610     # baselines at rest
W3_RISE = 60


def w3_title(t):
    """(opacity, downward offset in px) of the title at t: cubic ease-out over 1 s."""
    p = min(max(t / 1.0, 0), 1)
    e = 1 - (1 - p) ** 3
    return e, W3_RISE * (1 - e)


def w3_subtitle(t):
    """Opacity of the subtitle at t: linear from 1.0 to 1.5 s."""
    return min(max((t - 1.0) / 0.5, 0), 1)
