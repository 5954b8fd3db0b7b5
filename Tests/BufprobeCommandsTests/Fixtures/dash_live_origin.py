#!/usr/bin/env python3
"""A low-latency DASH origin for the live DASH tests (issue 22): serves the files an `ffmpeg -f dash
-streaming 1 -ldash 1` process writes into --root, and holds a request for a segment the muxer has not
written yet until it appears (at most --hold seconds, then 404), as LL-DASH origins hold requests for the
segment being made. Standard library only; run through serving.py (--root, --host, PORT n on stdout).

Why not nginx alone: nginx answers 404 for a segment the muxer has not renamed into place yet, and FFmpeg
5.1's dash demuxer then moves to the next segment number at once, running ahead of the live edge by
hundreds of numbers a second (measured), so no playback could be checked.

  /time            the current UTC time, ISO 8601 with milliseconds (for UTCTiming http-xsdate), shifted by
                   --clock-offset seconds (a server clock ahead of this machine's)
  /<file>          the file under --root; a missing *.m4s is waited for (--hold), then 404
  /missing/<file>  always 404 (a manifest may be pointed here to list segments that are not served)

--drop-every=N answers 404 at once for every media segment whose number is a multiple of N (the fault twin:
segments the manifest lists but the origin lost).
"""
import datetime
import http.server
import os
import re
import sys
import time

OWN = ("--hold=", "--clock-offset=", "--drop-every=")
sys.argv, extra = [a for a in sys.argv if not a.startswith(OWN)], [a for a in sys.argv if a.startswith(OWN)]
HOLD = 3.0
CLOCK_OFFSET = 0.0
DROP_EVERY = 0
for argument in extra:
    name, value = argument.split("=", 1)
    if name == "--hold":
        HOLD = float(value)
    elif name == "--drop-every":
        DROP_EVERY = int(value)
    else:
        CLOCK_OFFSET = float(value)

from serving import serve


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, format, *args):
        pass

    def answer(self, status, body, content_type="application/octet-stream"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/time":
            now = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=CLOCK_OFFSET)
            text = now.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (now.microsecond // 1000)
            return self.answer(200, text.encode(), "text/plain")
        if path.startswith("/missing/"):
            return self.answer(404, b"not here\n", "text/plain")
        name = os.path.normpath(path.lstrip("/"))
        if name.startswith("..") or os.path.isabs(name):
            return self.answer(404, b"", "text/plain")
        full = os.path.join(self.root, name)
        number = re.search(r"-(\d+)\.m4s$", name)
        if DROP_EVERY > 0 and number and int(number.group(1)) % DROP_EVERY == 0:
            return self.answer(404, b"lost\n", "text/plain")
        deadline = time.monotonic() + (HOLD if name.endswith(".m4s") else 0)
        while not os.path.isfile(full) and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            with open(full, "rb") as handle:
                body = handle.read()
        except OSError:
            return self.answer(404, b"not found\n", "text/plain")
        kind = "application/dash+xml" if name.endswith(".mpd") else "video/mp4"
        self.answer(200, body, kind)


serve(Handler)
