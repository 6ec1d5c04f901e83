#!/usr/bin/env python3
"""Headless Chromium plays what MovieMaker writes for the web (make test-playback): a VP9 WebM, an AV1
WebM, an AV1 MP4, an H.264 MP4, an HEVC MP4 when this Chromium decodes HEVC, an animated GIF and
WebP, and an HLS stream where the browser plays HLS natively. Each is rendered by the given moviemaker
(320x240, 1.5 s), put in a page as <video> (or <img>), and must play to its end: `ended` fires, the
current time reaches the duration, and the picture has the movie's size. Media is served over HTTP from
127.0.0.1, as a web page would load it.

usage: playback_browser_test.py MOVIEMAKER CHROMIUM
"""
import os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import serve, start_chromium  # noqa: E402

MOVIEMAKER, CHROMIUM = sys.argv[1], sys.argv[2]
SPEC = """{"version": 1, "output": {"size": "320x240", "fps": 30, "encoder": {"preset": "veryfast"}},
 "tracks": [{"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "1.5s", "params": {"rotation": 90}}]},
            {"kind": "overlay", "items": [{"type": "title", "text": "Plays", "duration": "1.5s"}]}]}"""
passed, failed = 0, 0


def check(condition, what):
    global passed, failed
    passed += bool(condition)
    failed += not condition
    print(f"  {'ok  ' if condition else 'FAIL'} {what}")


def render(work, name, *options):
    r = subprocess.run([MOVIEMAKER, "render", os.path.join(work, "spec.json"), "-q", *options], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"moviemaker render {' '.join(options)}: {r.stderr}")
    return name


def main():
    work = tempfile.mkdtemp(prefix="moviemaker-playback-")
    with open(os.path.join(work, "spec.json"), "w") as f:
        f.write(SPEC)
    videos = {
        "vp9.webm": render(work, "vp9.webm", "-o", os.path.join(work, "vp9.webm")),
        "av1.webm": render(work, "av1.webm", "--codec", "av1", "-o", os.path.join(work, "av1.webm")),
        "av1.mp4": render(work, "av1.mp4", "--codec", "av1", "-o", os.path.join(work, "av1.mp4")),
        "h264.mp4": render(work, "h264.mp4", "-o", os.path.join(work, "h264.mp4")),
        "hevc.mp4": render(work, "hevc.mp4", "--codec", "hevc", "-o", os.path.join(work, "hevc.mp4")),
    }
    images = {"anim.gif": render(work, "anim.gif", "-o", os.path.join(work, "anim.gif")),
              "anim.webp": render(work, "anim.webp", "-o", os.path.join(work, "anim.webp"))}
    render(work, "hls", "--hls", os.path.join(work, "hls"), "--segment", "0.5s")

    server = serve(work)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    chrome, tools = start_chromium(CHROMIUM, os.path.join(work, "profile"), 800, 600)
    try:
        tools.navigate(base + "/spec.json")
        print(f"Chromium {tools.js('navigator.userAgent').split('Chrome/')[-1].split(' ')[0]} plays MovieMaker's files:")
        for name in videos:
            mime = {"webm": "video/webm", "mp4": "video/mp4"}[name.split(".")[-1]]
            codec = {"vp9.webm": "vp09.00.10.08", "av1.webm": "av01.0.04M.08", "av1.mp4": "av01.0.04M.08",
                     "h264.mp4": "avc1.640015", "hevc.mp4": "hvc1.1.6.L63.90"}[name]
            support = tools.js(f"document.createElement('video').canPlayType('{mime}; codecs=\"{codec}\"')")
            if name == "hevc.mp4" and not support:
                print(f"  skip {name}: this Chromium does not decode HEVC (canPlayType is empty)")
                continue
            ended = tools.js(f"""new Promise(resolve => {{
                const v = document.createElement('video');
                v.muted = true; v.src = '{base}/{name}';
                v.addEventListener('ended', () => resolve({{ended: true, time: v.currentTime, duration: v.duration, w: v.videoWidth, h: v.videoHeight}}));
                v.addEventListener('error', () => resolve({{ended: false, error: v.error && v.error.message}}));
                document.body.appendChild(v);
                v.play().catch(e => resolve({{ended: false, error: String(e)}}));
                setTimeout(() => resolve({{ended: false, error: 'timed out at ' + v.currentTime}}), 15000);
            }})""")
            ok = ended and ended.get("ended") and abs(ended["time"] - ended["duration"]) < 0.05 and abs(ended["duration"] - 1.5) < 0.05 \
                and ended["w"] == 320 and ended["h"] == 240
            check(ok, f"{name} ({support or 'no canPlayType'}) plays to its end: {ended}")
        for name in images:
            size = tools.js(f"""new Promise(resolve => {{
                const i = new Image(); i.onload = () => resolve([i.naturalWidth, i.naturalHeight]); i.onerror = () => resolve(null);
                i.src = '{base}/{name}';
            }})""")
            check(size == [320, 240], f"{name} decodes at 320x240: {size}")
        hls = tools.js("document.createElement('video').canPlayType('application/vnd.apple.mpegurl')")
        if hls:
            ended = tools.js(f"""new Promise(resolve => {{
                const v = document.createElement('video'); v.muted = true; v.src = '{base}/hls/playlist.m3u8';
                v.addEventListener('ended', () => resolve(true)); v.addEventListener('error', () => resolve(false));
                v.play().catch(() => resolve(false)); setTimeout(() => resolve(false), 15000);
            }})""")
            check(ended, "hls/playlist.m3u8 plays to its end (native HLS)")
        else:
            print("  skip hls/playlist.m3u8: this Chromium has no native HLS (players use hls.js there)")
    finally:
        chrome.kill()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
