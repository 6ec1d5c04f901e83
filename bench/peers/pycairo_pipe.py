"""Peer: pycairo draws each frame into an ARGB32 surface and pipes the raw BGRA bytes into the ffmpeg
command line, which converts them to yuv420p (BT.709, limited range, as MovieMaker does) and encodes
them with libx264. One drawing thread, as such scripts are written.

    python pycairo_pipe.py W1|W2|W3 --preset medium --out out.mp4 [--frames N] [--photos DIR]
"""
import argparse
import subprocess
import sys

import cairo

import workloads as W


def ffmpeg_command(preset, out):
    return ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "%dx%d" % (W.WIDTH, W.HEIGHT),
            "-r", str(W.FPS), "-i", "-",
            "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int",
            "-c:v", "libx264", "-preset", preset, "-crf", str(W.CRF), "-pix_fmt", "yuv420p",
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", out]


def load_photo(path, size):
    """The photo cover-fitted at `size` (decoded once, resized once with a good filter), as a cairo surface."""
    from PIL import Image
    im = Image.open(path).convert("RGB")
    s = max(size[0] / im.width, size[1] / im.height)
    im = im.resize((round(im.width * s), round(im.height * s)), Image.BILINEAR, reducing_gap=2.0).convert("RGBA")
    r, g, b, a = im.split()
    bgra = Image.merge("RGBA", (b, g, r, a)).tobytes()
    surface = cairo.ImageSurface.create_for_data(bytearray(bgra), cairo.FORMAT_ARGB32, im.width, im.height)
    return surface


def draw_photo(cr, surface, zoom):
    """The photo cover-fitted to the frame, magnified `zoom` times about the frame's centre."""
    w, h = surface.get_width(), surface.get_height()
    s = max(W.WIDTH / w, W.HEIGHT / h) * zoom
    cr.save()
    cr.translate(W.WIDTH / 2, W.HEIGHT / 2)
    cr.scale(s, s)
    cr.translate(-w / 2, -h / 2)
    cr.set_source_surface(surface, 0, 0)
    cr.get_source().set_filter(cairo.FILTER_GOOD)
    cr.paint()
    cr.restore()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["W1", "W2", "W3"])
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int)
    ap.add_argument("--photos")
    a = ap.parse_args()
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, W.WIDTH, W.HEIGHT)
    cr = cairo.Context(surface)
    ff = subprocess.Popen(ffmpeg_command(a.preset, a.out), stdin=subprocess.PIPE)
    if a.workload == "W1":
        frames = a.frames or W.W1_FRAMES
        for i in range(frames):
            W.draw_w1(cr, i, cairo)
            surface.flush()
            ff.stdin.write(surface.get_data())
    elif a.workload == "W2":
        photos = W.w2_photo_paths(a.photos, W.W2_PHOTOS)
        count = W.W2_PHOTOS if not a.frames else max(2, -(-a.frames // int(W.W2_SECONDS * W.FPS)))
        frames = a.frames or W.w2_frames(count)
        # Decoded once at the closest zoom's size, like MovieMaker's photo store.
        size = (round(W.WIDTH * (1 + W.W2_ZOOM)), round(W.HEIGHT * (1 + W.W2_ZOOM)))
        loaded = {}
        scratch = cairo.ImageSurface(cairo.FORMAT_ARGB32, W.WIDTH, W.HEIGHT)
        sc = cairo.Context(scratch)
        for i in range(frames):
            layers = W.w2_layers(i, count)
            for p, _, _ in layers:
                if p not in loaded:
                    loaded[p] = load_photo(photos[p], size)
            for p in list(loaded):
                if p not in [l[0] for l in layers]:
                    del loaded[p]
            cr.set_source_rgb(0, 0, 0)
            cr.paint()
            (pa, za, _) = layers[0]
            draw_photo(cr, loaded[pa], za)
            if len(layers) == 2:
                (pb, zb, wb) = layers[1]
                sc.set_source_rgb(0, 0, 0)
                sc.paint()
                draw_photo(sc, loaded[pb], zb)
                cr.set_source_surface(scratch, 0, 0)
                cr.paint_with_alpha(wb)
            surface.flush()
            ff.stdin.write(surface.get_data())
    else:
        frames = a.frames or W.W3_FRAMES
        for i in range(frames):
            t = i / W.FPS
            cr.set_source_rgb(*W.W3_BACKGROUND)
            cr.paint()
            opacity, offset = W.w3_title(t)
            for text, size, y, alpha, bold in ((W.W3_TITLE, W.W3_TITLE_SIZE, W.W3_TITLE_Y + offset, opacity, True),
                                               (W.W3_SUBTITLE, W.W3_SUBTITLE_SIZE, W.W3_SUBTITLE_Y, W.w3_subtitle(t), False)):
                if alpha <= 0:
                    continue
                cr.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
                cr.set_font_size(size)
                ext = cr.text_extents(text)
                cr.move_to((W.WIDTH - ext.x_advance) / 2, y)
                cr.set_source_rgba(1, 1, 1, alpha)
                cr.show_text(text)
            surface.flush()
            ff.stdin.write(surface.get_data())
    ff.stdin.close()
    sys.exit(ff.wait())


if __name__ == "__main__":
    main()
