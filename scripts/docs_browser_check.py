#!/usr/bin/env python3
"""make docs: the DocC site's index page renders in headless Chromium.

Serves the site folder on a free loopback port (DocC's pages are JavaScript that fetches JSON, so
file:// does not work), asks Chromium for the rendered DOM and a screenshot of
/documentation/moviemaker/, and checks that the page shows the landing page's title and topics and
that the screenshot is not one flat colour. A test oracle: Python's standard library only.
usage: docs_browser_check.py SITE_FOLDER CHROMIUM SCREENSHOT.png
"""
import os, subprocess, sys, tempfile, zlib, struct

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import serve  # noqa: E402

site, chromium, screenshot = sys.argv[1], sys.argv[2], sys.argv[3]
server = serve(site)
url = f"http://127.0.0.1:{server.server_address[1]}/documentation/moviemaker/"
profile = tempfile.mkdtemp(prefix="docs-chromium-")
flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={profile}",
         "--virtual-time-budget=15000", "--window-size=1280,1600"]

dom = subprocess.run([chromium, *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
expected = ["MovieMaker", "Essentials", "Drawing", "Composition", "Description files", "Exact time", "The clip tree"]
missing = [word for word in expected if word not in dom]
if missing:
    sys.exit(f"docs: {url} rendered without {missing} (DOM: {len(dom)} characters)")

subprocess.run([chromium, *flags, f"--screenshot={os.path.abspath(screenshot)}", url],
               capture_output=True, text=True, timeout=120)
if not os.path.exists(screenshot):
    sys.exit(f"docs: Chromium wrote no screenshot of {url}")

def distinct_rows(path):
    """How many distinct pixel rows the PNG has (a blank page has one)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4, 0: 1, 4: 2}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels + 1
    # Rows differ in their filtered bytes too; strip the filter byte and compare the rest.
    return len({raw[r * stride + 1:(r + 1) * stride] for r in range(height)})

rows = distinct_rows(screenshot)
if rows < 20:
    sys.exit(f"docs: the screenshot of {url} is nearly blank ({rows} distinct rows)")
print(f"docs: {url} renders in headless Chromium: title and topics shown, screenshot {screenshot} ({rows} distinct rows)")
server.shutdown()
