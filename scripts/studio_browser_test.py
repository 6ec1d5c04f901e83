#!/usr/bin/env python3
"""Browser tests of `moviemaker studio` (make test-studio), in headless Chromium driven through the
DevTools protocol with the Python standard library only: HTTP /json to find the page, and a minimal
WebSocket client (RFC 6455, client side) written on the socket module.

Checks: the page loads; seeking to frame N shows an image equal to frame N (the frame endpoint, pixel
for pixel, and close to frame N decoded from the rendered movie); one timeline block per item with
widths proportional to duration; editing the spec updates the frame within 2 s; a broken spec shows its
JSON path and highlights the item; a Swift script with a syntax error shows the compiler's line, and once
fixed on disk shows its frames, each equal to the script's own render's frame, pixel for pixel. Prints
the scrub-to-frame latency for a 1080p title card, and writes a screenshot to docs/studio.png.

usage: studio_browser_test.py MOVIEMAKER CHROMIUM SCREENSHOT.png
"""
import base64, hashlib, json, os, re, shutil, signal, socket, struct, subprocess, sys, tempfile, time, urllib.request, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import DevTools, start_chromium  # noqa: E402

MOVIEMAKER, CHROMIUM, SCREENSHOT = sys.argv[1], sys.argv[2], sys.argv[3]
passed, failed = 0, 0
# The studio page is ready once its script has set window.studio.
STUDIO_READY = "document.readyState === 'complete' && !!window.studio"


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
        print(f"  ok   {what}")
    else:
        failed += 1
        print(f"  FAIL {what}")


# ---- PNG decoding (8-bit RGB/RGBA, not interlaced: what Cairo writes) ----
def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    rgb = bytearray()
    for i in range(0, len(out), channels):
        rgb += out[i:i + 3]
    return width, height, bytes(rgb)


def psnr(a, b):
    mse = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
    return float("inf") if mse == 0 else 10 * __import__("math").log10(255 * 255 / mse)


# ---- Processes ----
def start_studio(path, *extra):
    process = subprocess.Popen([MOVIEMAKER, "studio", path, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("http://"):
        raise RuntimeError(f"moviemaker studio printed no URL: {line!r} {process.stderr.read()[:500]}")
    return process, line


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return process.returncode


def spec_small(color="#2a9d8f", title_duration="1s"):
    return {"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [
        {"kind": "video", "name": "Main", "items": [
            {"type": "title", "label": "Opening", "text": "Studio", "subtitle": "browser", "duration": title_duration, "background": "#14213d",
             "transition": {"name": "fade", "duration": "10f"}},
            {"type": "color", "label": "Colour", "color": color, "duration": "1s"}]},
        {"kind": "overlay", "name": "Titles", "items": [
            {"type": "title", "label": "Lower third", "at": "0.5s", "duration": "1s", "text": "Over", "layout": "lowerThird"}]}]}


def script_fixed(default_folder):
    """A script drawing 30 frames at 320x240 into a folder of PNG files (the first argument, else `default_folder`)."""
    return f"""import Foundation
import MovieMaker

let folder = CommandLine.arguments.dropFirst().first ?? "{default_folder}"
let movie = try MovieMaker(pngSequenceIn: URL(fileURLWithPath: folder), width: 320, height: 240, fps: 30)
try movie.addFrames(count: 30) {{ ctx, frame in
    ctx.setFill(Color(red: frame.progress, green: 0.4, blue: 0.6)); ctx.fillRect(ctx.bounds)
    ctx.setFill(.white); ctx.fillEllipse(in: Rect(x: 10 + Double(frame.index) * 9, y: 100, width: 30, height: 30))
}}
try movie.finish()
"""


def spec_1080p():
    return {"version": 1, "output": {"size": "1920x1080", "fps": 30}, "tracks": [
        {"kind": "video", "name": "Main", "items": [
            {"type": "title", "label": "Title card", "text": "MovieMaker Studio", "subtitle": "scrub, edit, see it", "style": "letters",
             "duration": "3s", "background": "#14213d", "transition": {"name": "fade", "duration": "0.5s"}},
            {"type": "color", "label": "Teal", "color": "#2a9d8f", "duration": "1.5s"},
            {"type": "title", "label": "Closing", "text": "The end", "style": "pop", "duration": "2s", "background": "#7a2e1f"}]},
        {"kind": "overlay", "name": "Titles", "items": [
            {"type": "title", "label": "Lower third", "at": "1s", "duration": "2.5s", "text": "Jane Doe", "subtitle": "Director", "layout": "lowerThird", "style": "slide"}]}]}


def write(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=2) if not isinstance(value, str) else f.write(value)
    os.replace(tmp, path)


def main():
    work = tempfile.mkdtemp(prefix="moviemaker-studio-browser-")
    profile = os.path.join(work, "profile")
    chrome, tools = start_chromium(CHROMIUM, profile)
    studios = []
    try:

        # -- The small spec: load, seek, pixels, timeline, edits, errors.
        print("moviemaker studio (320x240 spec):")
        spec = os.path.join(work, "spec.json")
        write(spec, spec_small())
        studio, url = start_studio(spec)
        studios.append(studio)
        check(url.startswith("http://127.0.0.1:"), f"serves on 127.0.0.1 ({url})")
        check(tools.navigate(url + "?scale=1", STUDIO_READY), "the page loads")
        check(tools.wait("document.body.dataset.shownFrame !== undefined", 20), "a frame is shown")
        n = 24
        tools.js(f"studio.seek({n})")
        check(tools.wait(f"document.body.dataset.shownFrame === '{n}'", 10), f"seeking to frame {n} shows frame {n}")
        label = tools.js("document.getElementById('position').textContent")
        check(label == f"frame {n} · 0.800 s", f"the counter reads {label!r}")
        pixels_js = """(() => { const img = document.getElementById('frame'); const c = document.createElement('canvas');
            c.width = img.naturalWidth; c.height = img.naturalHeight; const g = c.getContext('2d'); g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data; let s = '';
            for (let i = 0; i < d.length; i += 4) s += String.fromCharCode(d[i], d[i + 1], d[i + 2]);
            return [c.width, c.height, btoa(s)]; })()"""
        width, height, shown64 = tools.js(pixels_js)
        shown = base64.b64decode(shown64)
        w, h, served = decode_png(urllib.request.urlopen(f"{url}api/frame/{n}").read())
        check((width, height) == (320, 240) and shown == served, f"the page's image is the frame endpoint's frame {n}, pixel for pixel")
        movie = os.path.join(work, "movie.mp4")
        subprocess.run([MOVIEMAKER, "render", spec, "--lossless", "--preset", "ultrafast", "-q", "-o", movie], check=True)
        decoded = subprocess.run(["ffmpeg", "-v", "error", "-i", movie, "-vf", f"select=eq(n\\,{n})", "-frames:v", "1", "-f", "rawvideo",
                                  "-pix_fmt", "rgb24", "-"], check=True, capture_output=True).stdout
        quality = psnr(shown, decoded)
        check(len(decoded) == len(shown) and quality >= 30,
              f"it is frame {n} of the rendered movie (lossless H.264, 4:2:0 chroma): PSNR {quality:.1f} dB")

        # Timeline: one block per item, widths proportional to duration.
        blocks = tools.js("""(() => { const pps = document.getElementById('tracks').clientWidth / studio.state.movie.duration;
            return {pps, blocks: [...document.querySelectorAll('.block')].map(b => ({path: b.dataset.path, width: b.getBoundingClientRect().width,
            duration: Number(b.dataset.duration)}))}; })()""")
        check(len(blocks["blocks"]) == 3, f"one block per item ({len(blocks['blocks'])} of 3)")
        worst = max(abs(b["width"] - b["duration"] * blocks["pps"]) for b in blocks["blocks"])
        check(worst <= 1.0, f"block widths are proportional to duration (worst {worst:.2f} px off at {blocks['pps']:.1f} px/s)")
        tools.js("document.querySelector('.block[data-path=\"tracks[0].items[1]\"]').click()")
        check(tools.wait("document.body.dataset.shownFrame === '20'", 10), "clicking a block seeks to its first frame (20)")
        tools.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        check(tools.wait("studio.state.frame === 21 && document.body.dataset.shownFrame === '21'", 10), "the right arrow key steps one frame")

        # Editing the spec on disk updates the frame within 2 s, keeping the position.
        key = tools.js("document.body.dataset.shownKey")
        started = time.monotonic()
        write(spec, spec_small(color="#e76f51"))
        updated = tools.wait(f"document.body.dataset.shownKey !== '{key}' && document.body.dataset.shownFrame === '21'", 5, 0.01)
        elapsed = time.monotonic() - started
        check(updated and elapsed < 2, f"editing the spec updates the frame in {elapsed * 1000:.0f} ms (within 2 s), still at frame 21")

        # A broken spec shows its JSON path and highlights the item.
        write(spec, spec_small(title_duration="-1s"))
        path = tools.wait("!document.getElementById('error').hidden && document.getElementById('error-path').textContent", 5)
        check(path == "tracks[0].items[0].duration", f"a broken spec shows its JSON path ({path!r})")
        check(tools.js("document.querySelector('.block[data-path=\"tracks[0].items[0]\"]').classList.contains('error')"),
              "the item at fault is highlighted in the timeline")
        write(spec, spec_small())
        check(tools.wait("document.getElementById('error').hidden", 5), "fixing it clears the error")

        # Overlapping overlay items each get a lane; ?frame=N opens the page at frame N.
        overlapping = spec_small()
        overlapping["tracks"][1]["items"].append({"type": "title", "label": "Second", "at": "1s", "duration": "0.8s", "text": "Also", "layout": "lowerThird"})
        write(spec, overlapping)
        check(tools.wait("document.querySelectorAll('.block').length === 4", 5), "the added overlay item shows")
        check(tools.navigate(url + "?scale=1&frame=12", STUDIO_READY), "the page loads with ?frame=12")
        check(tools.wait("document.body.dataset.shownFrame === '12'", 20), "?frame=12 opens at frame 12")
        rects = tools.js("""[...document.querySelectorAll('.track[data-track="1"] .block')].map(b => {
            const r = b.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })""")
        apart = len(rects) == 2 and (rects[0][3] <= rects[1][2] or rects[1][3] <= rects[0][2])
        check(apart, f"overlapping overlay items sit in rows of their own, not on top of each other ({rects})")
        stop(studio)

        # -- Sound: the waveform under the timeline, and play keeps the picture with the sound.
        print("moviemaker studio (sound and play):")
        loud = os.path.join(work, "sound.json")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", os.path.join(work, "tone.wav")], check=True)
        write(loud, {"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [
            {"kind": "video", "items": [{"type": "title", "text": "Play", "duration": "3s", "background": "#14213d"}]},
            {"kind": "audio", "name": "Music", "items": [{"type": "music", "label": "Tone", "source": {"file": "tone.wav"}}]}]})
        studio, url = start_studio(loud)
        studios.append(studio)
        tools.navigate(url, STUDIO_READY)
        tools.wait("document.body.dataset.shownFrame !== undefined", 20)
        drawn = tools.wait("""(() => { const c = document.getElementById('waveform'); if (c.hidden || !c.width) return false;
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n > 100; })()""", 10)
        check(bool(drawn), "the sound track's waveform is drawn under the timeline")
        tools.js("studio.seek(0); studio.play()")
        time.sleep(1.5)
        sync = tools.js("""(() => { const a = document.getElementById('audio'), m = studio.state.movie;
            return {paused: a.paused, audio: a.currentTime, frame: studio.state.frame, clock: studio.state.audioClock,
                    frameTime: studio.state.frame * m.fps.denominator / m.fps.numerator}; })()""")
        tools.js("studio.pause()")
        check(sync["frame"] >= 25, f"playing advances the frame counter at the frame rate (frame {sync['frame']} after 1.5 s)")
        check(not sync["paused"] and sync["clock"] and abs(sync["audio"] - sync["frameTime"]) < 0.1,
              f"the sound plays with the picture (sound at {sync['audio']:.3f} s, frame {sync['frame']} at {sync['frameTime']:.3f} s)")
        stop(studio)

        # -- A platform preset: its safe area drawn over the frame, and switched off.
        print("moviemaker studio (tiktok's safe area):")
        vertical = os.path.join(work, "tiktok.json")
        write(vertical, {"version": 1, "output": {"preset": "tiktok", "encoder": {"preset": "ultrafast"}},
                         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#2a9d8f", "duration": "1s"}]}]})
        studio, url = start_studio(vertical)
        studios.append(studio)
        tools.navigate(url, STUDIO_READY)
        tools.wait("document.body.dataset.shownFrame !== undefined", 30)
        area = tools.wait("""(() => { const f = document.getElementById('frame').getBoundingClientRect(),
            b = document.getElementById('safe-area'), s = b.getBoundingClientRect();
            if (b.hidden || !f.width) return null;
            return [(s.left - f.left) / f.width, (s.top - f.top) / f.height, s.width / f.width, s.height / f.height]; })()""", 10)
        check(area is not None and abs(area[0] - 0.06) < 0.01 and abs(area[1] - 0.12) < 0.01
              and abs(area[2] - 0.79) < 0.01 and abs(area[3] - 0.62) < 0.01,
              f"the safe area is drawn over the frame at TikTok's insets: {area}")
        tools.js("document.getElementById('show-safe').click()")
        check(tools.js("document.getElementById('safe-area').hidden"), "its switch hides it")
        stop(studio)

        # -- A Swift script with a syntax error shows the compiler's line.
        print("moviemaker studio (Swift script):")
        script = os.path.join(work, "broken.swift")
        write(script, "import MovieMaker\n\nlet x = (1 +\nprint(x)\n")
        studio, url = start_studio(script)
        studios.append(studio)
        tools.navigate(url, STUDIO_READY)
        where = tools.wait("!document.getElementById('error').hidden && document.getElementById('error-path').textContent", 120)
        check(bool(where) and re.search(r"broken\.swift:\d+$", where or ""), f"a script's syntax error shows the compiler's file and line ({where!r})")
        # Fixed on disk: the page reloads and shows the script's frames, each the frame its own render makes.
        write(script, script_fixed(os.path.join(work, "script-frames")))
        check(tools.wait("document.getElementById('error').hidden && !!studio.state.movie && studio.state.movie.frameCount === 30", 120),
              "fixing the script reloads the page with its 30 frames")
        check(tools.navigate(url + "?scale=1", STUDIO_READY) and tools.wait("document.body.dataset.shownFrame !== undefined", 60),
              "the page loads again and shows a frame of the script")
        tools.js("studio.seek(12)")
        check(tools.wait("document.body.dataset.shownFrame === '12'", 60), "seeking in a script shows its frame 12")
        width, height, shown64 = tools.js(pixels_js)
        reference = os.path.join(work, "script-reference")
        subprocess.run([MOVIEMAKER, "run", script, "--", reference], check=True, capture_output=True)
        rw, rh, rendered = decode_png(open(os.path.join(reference, "frame-00013.png"), "rb").read())
        check((width, height) == (320, 240) and base64.b64decode(shown64) == rendered,
              "the page's frame 12 of the script is the script's own render's frame 12, pixel for pixel")
        check(not os.path.exists(os.path.join(work, "script-frames")), "previewing the script wrote nothing at its destination")
        stop(studio)

        # -- 1080p: scrub latency, and the screenshot.
        print("moviemaker studio (1080p title card):")
        big = os.path.join(work, "title.json")
        write(big, spec_1080p())
        studio, url = start_studio(big)
        studios.append(studio)
        tools.navigate(url, STUDIO_READY)
        tools.wait("document.body.dataset.shownFrame !== undefined", 30)
        scale = tools.js("document.body.dataset.shownScale")
        latencies = []
        for frame in [17, 41, 66, 80, 12, 58, 29, 73]:
            started = time.monotonic()
            tools.js(f"studio.seek({frame})")
            ok = tools.wait(f"document.body.dataset.shownFrame === '{frame}'", 10, 0.005)
            latencies.append((time.monotonic() - started) * 1000 if ok else float("inf"))
        latencies.sort()
        print(f"  scrub-to-frame latency, 1080p title card, uncached, page scale {scale} (1280x900 window): "
              f"median {latencies[len(latencies) // 2]:.0f} ms, worst {latencies[-1]:.0f} ms, best {latencies[0]:.0f} ms")
        full = []
        for frame in [21, 45]:
            tools.navigate(url + "?scale=1", STUDIO_READY)
            tools.wait("document.body.dataset.shownFrame !== undefined", 30)
            started = time.monotonic()
            tools.js(f"studio.seek({frame})")
            tools.wait(f"document.body.dataset.shownFrame === '{frame}'", 10, 0.005)
            full.append((time.monotonic() - started) * 1000)
        print(f"  at full 1920x1080 (scale=1): {', '.join(f'{t:.0f} ms' for t in full)}")
        check(all(t < 10000 for t in latencies), "every scrub showed its frame")
        tools.navigate(url, STUDIO_READY)
        tools.wait("document.body.dataset.shownFrame !== undefined", 30)
        tools.js("studio.seek(36)")
        tools.wait("document.body.dataset.shownFrame === '36'", 10)
        time.sleep(0.3)
        shot = tools.call("Page.captureScreenshot", format="png")
        os.makedirs(os.path.dirname(os.path.abspath(SCREENSHOT)), exist_ok=True)
        with open(SCREENSHOT, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        print(f"  wrote {SCREENSHOT}")
        code = stop(studio)
        check(code == 0, f"Ctrl-C stops the studio (exit {code})")
    finally:
        for s in studios:
            if s.poll() is None:
                s.kill()
                s.wait()
        chrome.terminate()
        try:
            chrome.wait(timeout=10)
        except subprocess.TimeoutExpired:
            chrome.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"studio: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
