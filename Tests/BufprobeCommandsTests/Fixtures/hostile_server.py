#!/usr/bin/env python3
"""An HTTP server that attacks its client, for bufprobe's hostile-input tests (issue 10).

Standard library only. Binds 127.0.0.1 on a free port, prints "PORT <n>" on its first line of stdout,
serves files under --root, and stops when its standard input closes. By first path component:

  /file/<path>                  the file, whole
  /stalled/<dir>/index.m3u8     a live media playlist of <dir>/seg000.ts..seg002.ts that never grows and
                                never ends (no EXT-X-ENDLIST); /stalled/<dir>/<segment> serves the segment
  /growing/<dir>/index.m3u8     a live media playlist (no EXT-X-ENDLIST, media sequence 0) that grows by 10,000
                                entries per request and never slides: seg000.ts..seg002.ts of <dir> in turn, each
                                entry's URI with its own query (?n=<number>); each URL (query included, e.g.
                                ?id=<k>) grows apart; ?entries=<n> adds n per request instead of 10,000;
                                ?start=<n> makes the first request list n more (a playlist already near the
                                16 MiB read limit without that many requests first)
  /many/index.m3u8              a VOD playlist of 40 segments (the same 2 s file), counted when asked for
                                as /count/many/index.m3u8
  /endless/<name>.m3u8          a playlist body that never ends (segment after segment, forever)
  /endless-media/<name>         an octet-stream body that never ends
  /slow-endless/<name>.m3u8     a playlist body that never ends, 64 KiB every 0.2 s (far below 16 MiB in a timeout)
  /huge-extinf/index.m3u8       a VOD playlist of the low samples whose second #EXTINF is 1e308
  /loop/self.m3u8               a master playlist that lists itself
  /loop/a.m3u8, /loop/b.m3u8    two masters that list each other
  /local/master.m3u8?path=P     a master whose first variant is file://P (a local file of the client), the
                                second <root>/hls/low (served as /local/low/...)
  /silent-variant/master.m3u8   a master with two variants: silent.m3u8 never answers, the other is
                                <root>/hls/low (served as /silent-variant/low/...)
  /count/<mode>/...             the same as /<mode>/..., and every request is counted
  /requests                     the counted requests so far: one "<monotonic seconds> <path>" per line
"""
import http.server
import os
import threading
import time
import urllib.parse

from serving import serve

TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    requests = []
    lock = threading.Lock()
    growing = {}

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = url.path.lstrip("/").split("/")
        if parts[0] == "count":
            with self.lock:
                self.requests.append("%.3f %s" % (time.monotonic(), url.path))
            parts = parts[1:]
        mode, rest = parts[0], "/".join(parts[1:])
        try:
            if mode == "file":
                self.send_file(rest)
            elif mode == "requests":
                with self.lock:
                    self.send_body("\n".join(self.requests).encode(), "text/plain")
            elif mode == "stalled":
                if rest.endswith(".m3u8"):
                    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
                    for sequence in range(3):
                        lines += ["#EXTINF:2.000000,", "seg%03d.ts" % sequence]
                    self.send_text(lines)
                else:
                    self.send_file(rest)
            elif mode == "growing":
                if rest.endswith(".m3u8"):
                    self.send_growing(self.path, int(query.get("entries", ["10000"])[0]), int(query.get("start", ["0"])[0]))
                else:
                    self.send_file(rest)
            elif mode == "many":
                lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
                for number in range(40):
                    lines += ["#EXTINF:2.000000,", "/count/file/hls/low/seg000.ts?n=%d" % number]
                self.send_text(lines + ["#EXT-X-ENDLIST"])
            elif mode == "endless":
                self.send_endless(b"#EXTM3U\n#EXT-X-TARGETDURATION:2\n", b"#EXTINF:2.0,\nsegment-with-a-long-name.ts\n",
                                  TYPES[".m3u8"])
            elif mode == "slow-endless":
                self.send_endless(b"#EXTM3U\n#EXT-X-TARGETDURATION:2\n", b"#EXTINF:2.0,\nsegment-with-a-long-name.ts\n",
                                  TYPES[".m3u8"], pause=0.2)
            elif mode == "huge-extinf":
                if rest.endswith(".m3u8"):
                    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
                    for sequence, duration in enumerate(["2.000000", "1e308", "2.000000"]):
                        lines += ["#EXTINF:%s," % duration, "seg%03d.ts" % sequence]
                    self.send_text(lines + ["#EXT-X-ENDLIST"])
                else:
                    self.send_file("hls/low/" + rest)
            elif mode == "endless-media":
                self.send_endless(b"", b"\0" * 65536, "application/octet-stream")
            elif mode == "loop":
                target = {"self.m3u8": "self.m3u8", "a.m3u8": "b.m3u8", "b.m3u8": "a.m3u8"}.get(rest)
                if target is None:
                    self.send_status(404)
                else:
                    self.send_text(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=300000", target])
            elif mode == "local":
                if rest == "master.m3u8":
                    self.send_text(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=300000", "file://" + query["path"][0],
                                    "#EXT-X-STREAM-INF:BANDWIDTH=300000", "low/index.m3u8"])
                else:
                    self.send_file("hls/" + rest)
            elif mode == "silent-variant":
                if rest == "master.m3u8":
                    self.send_text(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=600000", "silent.m3u8",
                                    "#EXT-X-STREAM-INF:BANDWIDTH=300000", "low/index.m3u8"])
                elif rest == "silent.m3u8":
                    while True:
                        time.sleep(0.2)
                else:
                    self.send_file("hls/" + rest)
            else:
                self.send_status(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_growing(self, key, step, start):
        # Each URL's body so far is kept and only the new entries are made: a body near 16 MiB is then made
        # in milliseconds, not the half second a join of 450,000 lines takes, so checks that reload at once
        # are not paced by this server.
        with self.lock:
            count, body = self.growing.get(key, (0, b"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"))
            added = step + (start if count == 0 else 0)
            body += "".join("#EXTINF:2.000000,\nseg%03d.ts?n=%d\n" % (number % 3, number)
                            for number in range(count, count + added)).encode()
            self.growing[key] = (count + added, body)
        self.send_body(body, TYPES[".m3u8"])

    def send_body(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_text(self, lines):
        self.send_body(("\n".join(lines) + "\n").encode(), TYPES[".m3u8"])

    def send_status(self, code):
        body = ("%d\n" % code).encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_endless(self, head, unit, content_type, pause=0):
        # No Content-Length and no chunking: the body ends when the connection closes, which it never does.
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(head)
        block = unit * max(1, 65536 // len(unit))
        while True:
            self.wfile.write(block)
            if pause:
                self.wfile.flush()
                time.sleep(pause)

    def send_file(self, relative):
        path = os.path.normpath(os.path.join(self.root, relative))
        if not path.startswith(os.path.abspath(self.root)) or not os.path.isfile(path):
            self.send_status(404)
            return
        with open(path, "rb") as f:
            self.send_body(f.read(), TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))


if __name__ == "__main__":
    serve(Handler)
