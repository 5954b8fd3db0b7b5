"""Serves --root's files over HTTP and remembers what each request carried: its path with the query, its
User-Agent and its CMCD headers. GET /__requests answers them as JSON lines (and is not itself recorded),
so a test reads what bufprobe sent from the server's side."""
import http.server
import json
import os
import threading

from serving import serve

RECORDS = []
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    root = "."
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/__requests":
            with LOCK:
                body = "".join(json.dumps(record) + "\n" for record in RECORDS).encode()
            self.answer(200, "application/x-ndjson", body)
            return
        with LOCK:
            RECORDS.append({
                "path": self.path,
                "user_agent": self.headers.get("User-Agent"),
                "cmcd": {name: value for name, value in self.headers.items() if name.lower().startswith("cmcd-")},
            })
        relative = self.path.split("?", 1)[0].lstrip("/")
        path = os.path.realpath(os.path.join(self.root, relative))
        if not path.startswith(self.root + os.sep) or not os.path.isfile(path):
            self.answer(404, "text/plain", b"not found\n")
            return
        with open(path, "rb") as file:
            body = file.read()
        kind = "application/vnd.apple.mpegurl" if path.endswith(".m3u8") else "video/mp2t" if path.endswith(".ts") else "video/mp4"
        self.answer(200, kind, body)

    def answer(self, status, kind, body):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    serve(Handler)
