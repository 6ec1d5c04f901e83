"""Peer: MoviePy 2.2.1, written as its documentation suggests. W1: a VideoClip whose frame function
draws with pycairo (MoviePy has no vector drawing of its own); W2: ImageClips resized per frame,
positioned in a CompositeVideoClip, CrossFadeIn; W3: TextClips whose position and mask follow the
animation. Encoded by MoviePy's ffmpeg writer (imageio-ffmpeg's ffmpeg binary, its own x264).

    python moviepy_peer.py W1|W2|W3 --preset medium --out out.mp4 [--frames N] [--photos DIR]
"""
import argparse

import numpy as np
from moviepy import ColorClip, CompositeVideoClip, ImageClip, TextClip, VideoClip, vfx
from PIL import Image

import workloads as W

FFMPEG_PARAMS = ["-crf", str(W.CRF), "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]


def write(clip, a, frames):
    clip = clip.with_duration(frames / W.FPS)
    clip.write_videofile(a.out, fps=W.FPS, codec="libx264", preset=a.preset, audio=False, logger=None,
                         ffmpeg_params=FFMPEG_PARAMS, pixel_format="yuv420p")


def w1(a):
    import cairo
    frames = a.frames or W.W1_FRAMES
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, W.WIDTH, W.HEIGHT)
    cr = cairo.Context(surface)

    def frame(t):
        W.draw_w1(cr, int(round(t * W.FPS)), cairo)
        surface.flush()
        bgra = np.ndarray((W.HEIGHT, W.WIDTH, 4), np.uint8, surface.get_data())
        return bgra[:, :, 2::-1].copy()     # RGB

    write(VideoClip(frame_function=frame, duration=frames / W.FPS), a, frames)


def w2(a):
    count = W.W2_PHOTOS if not a.frames else max(2, -(-a.frames // int(W.W2_SECONDS * W.FPS)))
    frames = a.frames or W.w2_frames(count)
    big = (round(W.WIDTH * (1 + W.W2_ZOOM)), round(W.HEIGHT * (1 + W.W2_ZOOM)))
    clips = []
    for i, path in enumerate(W.w2_photo_paths(a.photos, count)):
        start, length = W.w2_on_screen(i, count)
        im = Image.open(path).convert("RGB")
        s = max(big[0] / im.width, big[1] / im.height)
        im = im.resize((round(im.width * s), round(im.height * s)), Image.BILINEAR)
        c = ImageClip(np.asarray(im)).with_duration(length).with_start(start)
        c = c.resized(lambda t, length=length: (1 + W.W2_ZOOM * t / length) / (1 + W.W2_ZOOM)).with_position("center")
        if i > 0:
            c = c.with_effects([vfx.CrossFadeIn(W.W2_FADE)])
        clips.append(c)
    write(CompositeVideoClip(clips, size=(W.WIDTH, W.HEIGHT), bg_color=(0, 0, 0)), a, frames)


def faded(clip, opacity):
    """The clip with its mask multiplied by opacity(t)."""
    mask = clip.mask.transform(lambda get, t: get(t) * opacity(t))
    return clip.with_mask(mask)


def w3(a):
    frames = a.frames or W.W3_FRAMES
    d = frames / W.FPS
    bg = ColorClip((W.WIDTH, W.HEIGHT), color=tuple(round(c * 255) for c in W.W3_BACKGROUND)).with_duration(d)
    bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    regular = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    title = TextClip(font=bold, text=W.W3_TITLE, font_size=W.W3_TITLE_SIZE, color="white", margin=(0, 30)).with_duration(d)
    sub = TextClip(font=regular, text=W.W3_SUBTITLE, font_size=W.W3_SUBTITLE_SIZE, color="white", margin=(0, 30)).with_duration(d)
    title_top = W.W3_TITLE_Y - W.W3_TITLE_SIZE - 30   # the margin keeps descenders whole
    title = faded(title, lambda t: W.w3_title(t)[0]).with_position(lambda t: ("center", title_top + W.w3_title(t)[1]))
    sub = faded(sub, W.w3_subtitle).with_position(("center", W.W3_SUBTITLE_Y - W.W3_SUBTITLE_SIZE - 30))
    write(CompositeVideoClip([bg, title, sub], size=(W.WIDTH, W.HEIGHT)), a, frames)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["W1", "W2", "W3"])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int)
    ap.add_argument("--photos")
    a = ap.parse_args()
    {"W1": w1, "W2": w2, "W3": w3}[a.workload](a)


if __name__ == "__main__":
    main()
