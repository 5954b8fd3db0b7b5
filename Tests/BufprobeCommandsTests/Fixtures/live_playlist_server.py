#!/usr/bin/env python3
"""A live HLS media playlist that misbehaves over time, for the playlist-health test of `bufprobe check`.

Standard library only; runs through serving.py (127.0.0.1, "PORT <n>" first, stops when stdin closes).
Serves --root/segNNN.ts (1 s MPEG-TS segments the test made with ffmpeg) and /live.m3u8, whose content
depends on the seconds t since it was first asked for (target duration 1 s, a window of 3 segments):

  0 <= t < 4   advancing: media sequence floor(t); segment 3 claims #EXTINF:1.6 (rounds to 2, over the
               1 s target duration)
  4 <= t < 9   frozen at media sequence 4 (stale once it is unchanged for more than 1.5 s)
  9 <= t       regressed: media sequence floor(t) - 8, so 4 -> 1 at t = 9, advancing again after

/master.m3u8 lists two variants, live.m3u8?v=low and live.m3u8?v=high (the same playlist).
/hostile.m3u8 answers each request with the next of a few live playlists carrying numbers at the edges of
64-bit integers and doubles (sequence numbers past the largest integer, negative ones, huge durations),
always over the same three segments.
/redirecting.m3u8 lists one variant, moved/live.m3u8, which answers 302 to /live.m3u8 (its segments are
only next to the playlist it redirects to).
"""
import http.server
import os
import threading
import time

from serving import serve


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    started = None
    lock = threading.Lock()

    def log_message(self, format, *args):  # keep the test output clean
        pass

    def do_GET(self):
        path = self.path.split("?")[0].lstrip("/")
        try:
            if path == "live.m3u8":
                self.send_playlist()
            elif path == "master.m3u8":
                body = ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000\nlive.m3u8?v=low\n"
                        "#EXT-X-STREAM-INF:BANDWIDTH=400000\nlive.m3u8?v=high\n").encode()
                self.send_body(200, "application/vnd.apple.mpegurl", body)
            elif path == "hostile.m3u8":
                self.send_hostile()
            elif path == "redirecting.m3u8":
                body = b"#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000\nmoved/live.m3u8\n"
                self.send_body(200, "application/vnd.apple.mpegurl", body)
            elif path == "moved/live.m3u8":
                self.send_response(302)
                self.send_header("Location", "/live.m3u8")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path.startswith("seg") and path.endswith(".ts") and "/" not in path:
                self.send_segment(path)
            else:
                self.send_body(404, "text/plain", b"404\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_playlist(self):
        with Handler.lock:
            if Handler.started is None:
                Handler.started = time.monotonic()
            t = time.monotonic() - Handler.started
        if t < 4:
            first = int(t)
        elif t < 9:
            first = 4
        else:
            first = int(t) - 8
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:%d" % first]
        for sequence in range(first, first + 3):
            lines += ["#EXTINF:%s," % ("1.600" if sequence == 3 else "1.000"), "seg%03d.ts" % sequence]
        self.send_body(200, "application/vnd.apple.mpegurl", ("\n".join(lines) + "\n").encode())

    hostile_count = 0
    HOSTILE = [
        ("9223372036854775806", "0", "1", "1.0"),
        ("-5", "-9223372036854775808", "1", "1.0"),
        ("99999999999999999999", "0", "1", "1.0"),
        ("9223372036854775805", "9223372036854775807", "1e308", "1e308"),
        ("0", "0", "1", "1.0"),
    ]

    def send_hostile(self):
        with Handler.lock:
            sequence, discontinuity, target, duration = Handler.HOSTILE[Handler.hostile_count % len(Handler.HOSTILE)]
            Handler.hostile_count += 1
        lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:%s" % target, "#EXT-X-MEDIA-SEQUENCE:%s" % sequence,
                 "#EXT-X-DISCONTINUITY-SEQUENCE:%s" % discontinuity, "#EXT-X-DISCONTINUITY"]
        for index in range(3):
            lines += ["#EXTINF:%s," % duration, "seg%03d.ts" % index]
        self.send_body(200, "application/vnd.apple.mpegurl", ("\n".join(lines) + "\n").encode())

    def send_segment(self, name):
        path = os.path.join(self.root, name)
        if not os.path.isfile(path):
            self.send_body(404, "text/plain", b"404\n")
            return
        with open(path, "rb") as f:
            self.send_body(200, "video/mp2t", f.read())

    def send_body(self, code, kind, body):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    serve(Handler)
