#!/usr/bin/env python3
"""Drives `moviemaker mcp` with an independent client: the `mcp` Python SDK (PyPI), as an agent would.

Usage: mcp_client_test.py MOVIEMAKER ALLOWED_FOLDER OUTSIDE_FOLDER

Starts `MOVIEMAKER mcp --allow ALLOWED_FOLDER` over standard input/output and checks, in order:
list tools; `schema`; `validate` of a broken description (errors name the JSON path); `still` returns a
PNG (written to ALLOWED_FOLDER/still.png for the caller to compare with a render); `render` writes the
movie inside the allowed folder with progress notifications; an output or an input outside the allowed
folder is refused (nothing written there); cancelling a long render stops it and leaves no file.
Prints one line per check and exits 1 if any failed. Used by MCPServerTests (MovieMakerCLITests).
"""
import base64
import json
import os
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import ImageContent, TextContent

MOVIEMAKER, ALLOWED, OUTSIDE = sys.argv[1:4]
TOOLS = {"schema", "validate", "check", "still", "contact_sheet", "probe", "render", "templates"}

# A small description: a colour, a title over it (the still's frame), 2 s at 320x240.
STILL = {
    "version": 1,
    "output": {"size": "320x240", "fps": 30, "background": "#203040"},
    "tracks": [
        {"kind": "video", "items": [{"type": "color", "color": "#e4572e", "duration": "2s"}]},
        {"kind": "overlay", "items": [{"type": "title", "text": "Agent", "at": "0s", "duration": "2s", "style": "none"}]},
    ],
}
BROKEN = {
    "version": 1,
    "output": {"size": "320x240", "fps": 30},
    "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#e4572e", "duration": "-1s"}]}],
}
# Long enough (20 s at 640x360, medium) to be cancelled half way.
LONG = {
    "version": 1,
    "output": {"size": "640x360", "fps": 30, "encoder": {"preset": "medium"}},
    "tracks": [{"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "20s",
                                              "params": {"colors": ["#0b132b", "#3a506b"], "rotation": 40}}]}],
}

failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        failures.append(what)


def texts(result):
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def leftovers(folder, stem):
    return [name for name in os.listdir(folder) if stem in name]


async def main():
    params = StdioServerParameters(command=MOVIEMAKER, args=["mcp", "--allow", ALLOWED], cwd=ALLOWED)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            names = {tool.name for tool in (await session.list_tools()).tools}
            check(names == TOOLS, "list tools", f"{sorted(names)}")

            schema = await session.call_tool("schema", {})
            try:
                parsed = json.loads(texts(schema))
                check("tracks" in parsed.get("properties", {}), "schema is the description files' JSON Schema")
            except ValueError as error:
                check(False, "schema is JSON", str(error))

            broken = await session.call_tool("validate", {"description": BROKEN})
            check(broken.is_error and "tracks[0].items[0].duration" in texts(broken),
                  "validate names the broken key's JSON path", texts(broken))
            valid = await session.call_tool("validate", {"description": json.dumps(STILL)})
            check(not valid.is_error and texts(valid).startswith("valid"), "validate accepts a good description (as text)", texts(valid))

            still = await session.call_tool("still", {"description": STILL, "time": "0.5s"})
            images = [c for c in still.content if isinstance(c, ImageContent)]
            check(not still.is_error and len(images) == 1 and images[0].mime_type == "image/png", "still returns a PNG", texts(still))
            if images:
                png = base64.b64decode(images[0].data)
                check(png[:8] == b"\x89PNG\r\n\x1a\n", "the still is a PNG file")
                with open(os.path.join(ALLOWED, "still.png"), "wb") as f:
                    f.write(png)

            updates = []

            async def progress(done, total, message):
                updates.append((done, total, message))

            rendered = await session.call_tool("render", {"description": STILL, "output": "agent.mp4"}, progress_callback=progress)
            check(not rendered.is_error and os.path.getsize(os.path.join(ALLOWED, "agent.mp4")) > 0,
                  "render writes the movie inside the allowed folder", texts(rendered))
            check(len(updates) >= 1 and updates[-1][1] == 60, "render sends progress notifications", f"{updates}")

            outside = await session.call_tool("render", {"description": STILL, "output": os.path.join(OUTSIDE, "escape.mp4")})
            check(outside.is_error and "outside the allowed folders" in texts(outside), "an output outside is refused", texts(outside))
            sneaky = dict(STILL)
            sneaky["tracks"] = [{"kind": "video", "items": [{"type": "photo", "source": {"file": os.path.join(OUTSIDE, "secret.png")}, "duration": "1s"}]}]
            read_outside = await session.call_tool("still", {"description": sneaky, "time": "0s"})
            check(read_outside.is_error and "outside the allowed folders" in texts(read_outside), "an input outside is refused", texts(read_outside))
            check(os.listdir(OUTSIDE) == ["secret.png"], "nothing written outside", f"{os.listdir(OUTSIDE)}")

            started = time.monotonic()
            cancelled_updates = []

            async def long_progress(done, total, message):
                cancelled_updates.append(done)

            with anyio.move_on_after(3) as scope:
                await session.call_tool("render", {"description": LONG, "output": "long.mp4"}, progress_callback=long_progress)
            check(scope.cancelled_caught, "the long render was still going after 3 s (so it is cancelled)")
            # The server stops the render at its next frame and deletes the partial file.
            deadline = time.monotonic() + 10
            while leftovers(ALLOWED, "long") and time.monotonic() < deadline:
                await anyio.sleep(0.1)
            check(not leftovers(ALLOWED, "long"), "cancelling leaves no file", f"{leftovers(ALLOWED, 'long')}")
            check(len(cancelled_updates) >= 1 and cancelled_updates[-1] < 600, "the cancelled render had started and not finished",
                  f"{cancelled_updates[-3:]} after {time.monotonic() - started:.1f} s")

            # The server still answers after a cancellation.
            templates = await session.call_tool("templates", {})
            check(not templates.is_error, "templates answers after a cancellation", texts(templates))


anyio.run(main)
sys.exit(1 if failures else 0)
