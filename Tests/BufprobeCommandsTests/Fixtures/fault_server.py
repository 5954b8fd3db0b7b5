#!/usr/bin/env python3
"""A small HTTP server that misbehaves on purpose, for the `bufprobe check` tests.

Standard library only. Binds 127.0.0.1 on a free port (or --port), prints "PORT <n>" on its first line
of stdout, then serves files under --root according to the first path component:

  /file/<path>                    the file, whole, at full speed (Range requests honoured)
  /silent/<anything>              accepts the connection, reads the request, never answers
  /status/<code>/<anything>       answers with HTTP <code> and a short body
  /pause/<offset>/<seconds>/<path>  sends the headers (full Content-Length) and <offset> bytes at once,
                                  waits <seconds>, then sends the rest
  /drip/<bytes>/<path>            sends the headers (full Content-Length), then <bytes> bytes every 0.2 s:
                                  never silent for long, never done soon
  /close/<offset>/<path>          sends the headers (full Content-Length) and <offset> bytes, then closes
  /missing/<name>/<path>          serves <path> like /file/, except that any file named <name> is a 404
                                  (relative URIs in a playlist keep the prefix, so a segment 404s); ':' in
                                  <name> stands for '/', so low:seg000.ts is only hls/low/seg000.ts
  /requires/<header>/<value>/<path>  serves <path> like /file/ only to requests carrying that header
                                  value, else 403 (playlist segments keep the prefix, so they need it too)
  /slowhead/<ms>/<path>           serves <path> like /file/, each response's head sent <ms> ms after the
                                  request arrived (relative URIs in a playlist keep the prefix, so every
                                  segment's request waits too): a request latency the tests know
  /live/<dir>/index.m3u8          a live HLS media playlist over <dir>/seg000.ts...seg004.ts (2 s each):
                                  three segments when first asked for, one more every 2 s after, a
                                  sliding window of three, no EXT-X-ENDLIST until the last segment is
                                  out; /live/<dir>/<segment> serves the segment

It stops when its standard input closes or it receives SIGTERM, so the test that started it can end it.
"""
import http.server
import os
import re
import threading
import time

from serving import serve

TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".mp4": "video/mp4",
         ".mkv": "video/x-matroska", ".mp3": "audio/mpeg"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, format, *args):  # keep the test output clean
        pass

    def do_GET(self):
        parts = self.path.split("?")[0].lstrip("/").split("/")
        mode = parts[0]
        try:
            if mode == "file":
                self.send_file("/".join(parts[1:]))
            elif mode == "silent":
                self.stay_silent()
            elif mode == "status":
                self.send_status(int(parts[1]))
            elif mode == "pause":
                self.send_file("/".join(parts[3:]), split=int(parts[1]), pause=float(parts[2]))
            elif mode == "drip":
                self.send_file("/".join(parts[2:]), drip=int(parts[1]))
            elif mode == "close":
                self.send_file("/".join(parts[2:]), split=int(parts[1]), close=True)
            elif mode == "requires":
                if self.headers.get(parts[1]) == parts[2]:
                    self.send_file("/".join(parts[3:]))
                else:
                    self.send_status(403)
            elif mode == "live":
                rest = "/".join(parts[1:])
                if rest.endswith(".m3u8"):
                    self.send_live_playlist(os.path.dirname(rest))
                else:
                    self.send_file(rest)
            elif mode == "slowhead":
                time.sleep(int(parts[1]) / 1000)
                self.send_file("/".join(parts[2:]))
            elif mode == "missing":
                rest = "/".join(parts[2:])
                missing = parts[1].replace(":", "/")
                if rest == missing or rest.endswith("/" + missing):
                    self.send_status(404)
                else:
                    self.send_file(rest)
            else:
                self.send_status(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    live_started = {}
    live_lock = threading.Lock()

    def send_live_playlist(self, directory):
        with self.live_lock:
            started = self.live_started.setdefault(directory, time.monotonic())
        available = min(5, 3 + int((time.monotonic() - started) / 2))
        first = available - 3
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:%d" % first]
        for sequence in range(first, available):
            lines += ["#EXTINF:2.000000,", "seg%03d.ts" % sequence]
        if available == 5:
            lines.append("#EXT-X-ENDLIST")
        body = ("\n".join(lines) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", TYPES[".m3u8"])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stay_silent(self):
        # Hold the connection open without a byte until the client gives up or the server stops.
        while True:
            time.sleep(0.2)

    def send_status(self, code):
        body = ("%d\n" % code).encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_file(self, relative, split=None, pause=0.0, close=False, drip=None):
        path = os.path.normpath(os.path.join(self.root, relative))
        if not path.startswith(os.path.abspath(self.root)) or not os.path.isfile(path):
            self.send_status(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        start, end = 0, len(data) - 1
        match = re.match(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        partial = match is not None and (int(match.group(1)) > 0 or match.group(2))
        if match:
            start = int(match.group(1))
            if match.group(2):
                end = min(end, int(match.group(2)))
        if start >= len(data):
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % len(data))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = data[start:end + 1]
        self.send_response(206 if partial else 200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        if partial:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))
        self.end_headers()
        if drip is not None:
            for offset in range(0, len(body), max(1, drip)):
                self.wfile.write(body[offset:offset + max(1, drip)])
                self.wfile.flush()
                time.sleep(0.2)
            return
        if split is None:
            self.wfile.write(body)
            return
        # Offsets count from the start of the file, so a range request resumes past the fault.
        cut = max(0, split - start)
        self.wfile.write(body[:cut])
        self.wfile.flush()
        if close:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        time.sleep(pause)
        self.wfile.write(body[cut:])


if __name__ == "__main__":
    serve(Handler)
