#!/usr/bin/env python3
"""An HTTP server that tries to drive the terminal of whoever reads its answers, for the escape tests.

Standard library only. Binds 127.0.0.1 on a free port, prints "PORT <n>" on its first line of stdout,
and answers:

  /reason/<code>        HTTP <code> with a reason phrase full of control sequences (OSC title + BEL,
                        clear screen, C1 CSI U+009B as UTF-8, DEL)
  /hls/index.m3u8       an HLS VOD media playlist whose segment URIs carry the same sequences; every
                        segment request is answered 404 with the hostile reason phrase
  /file/<path>          a file under --root, whole (so a playlist can point at real media)

It stops when its standard input closes or it receives SIGTERM.
"""
import http.server
import os

from serving import serve

# ESC ] 0;title BEL sets the window title, ESC [2J clears the screen, U+009B is the 8-bit CSI.
EVIL = "\x1b]0;pwned\x07\x1b[2J\u009b31mred\x7f"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, format, *args):
        pass

    def send_evil(self, code):
        body = b"no\n"
        # The status line is latin-1 on the wire; the UTF-8 bytes of U+009B go out as they are.
        self.send_response_only(code, EVIL.encode("utf-8").decode("latin-1"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        parts = path.lstrip("/").split("/")
        if parts[0] == "reason" and len(parts) > 1:
            self.send_evil(int(parts[1]))
        elif path == "/hls/index.m3u8":
            lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
            for index in range(2):
                lines += ["#EXTINF:2.0,", "seg%d%s.ts" % (index, EVIL)]
            lines.append("#EXT-X-ENDLIST")
            body = ("\n".join(lines) + "\n").encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.apple.mpegurl")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif parts[0] == "file":
            full = os.path.join(self.root, *parts[1:])
            try:
                with open(full, "rb") as f:
                    body = f.read()
            except OSError:
                self.send_evil(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_evil(404)


if __name__ == "__main__":
    serve(Handler)
