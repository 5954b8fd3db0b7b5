#!/usr/bin/env python3
"""One shared shaped link for one web player, on 127.0.0.1 (Python stdlib, asyncio).

An HTTP/1.1 static server (keep-alive, Range) with three roots:
  /media/...  the test media, SHAPED: every byte of every connection goes through one link whose rate
              follows a rate trace, so a player that fetches audio and video on separate connections gets
              the trace's rate in total, not per connection (nginx's limit_rate is per connection);
  /lib/...    the player builds (../shared/webplayers), unshaped;
  /page/...   the player page, unshaped;
and POST /collect, where the page sends its timeline (one JSON document per POST, appended as a line to
--timeline). A POST whose document has "final": true makes the server exit after answering it.

The link is a token bucket of --depth seconds (default 20 ms): each chunk of --chunk bytes reserves the
link from max(now - depth, when the link is next free) for bits / rate(t) seconds, integrating the trace's
steps, and is written when its reservation ends. Without the depth every chunk would lose the event loop's
wake-up delay (about 1 ms, 22 % of a 1,448-byte chunk at 2.5 Mbit/s); with it a busy link delivers the trace's
rate. A response's first chunk is reserved from now, never from the past: an idle link gives no burst
(with a 20 ms burst, a 0.6 s segment at 3 Mbit/s arrived at 3.1 Mbit/s). A /media response's headers are
sent at once, unshaped, before its first chunk's reservation, so the time to first byte is the loopback's
plus the first chunk. A chunk is one TCP segment's payload (1,448 bytes), as a real link delivers: the
browser reports a response's first byte when its first chunk is in, and hls.js leaves that time out of
its bandwidth samples (`simulate --player hlsjs` models the same 1,448 bytes); with 4 kB chunks the
samples read 1.8 % over a 3 Mbit/s link. Connections waiting for the link take turns chunk by chunk. The trace is
the file format `bufprobe simulate --trace` reads: "seconds Mbit/s" per line, each row's rate holding until
the next row's time, the last row lasting as long as the one before it (1 s when alone), looped; its clock
starts at the first /media request, as simulate's starts when play is pressed. No latency is added.

Every /media request is logged to --log as a JSON line: conn, path, range, status, start, end (epoch
seconds, when the last byte was written), bytes (body bytes written).
"""
import argparse
import asyncio
import json
import mimetypes
import os
import sys
import time
import urllib.parse

MIME = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".mpd": "application/dash+xml",
        ".m4s": "video/iso.segment", ".mp4": "video/mp4", ".js": "text/javascript", ".html": "text/html"}


def parse_trace(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.replace(",", " ").split()
        rows.append((float(parts[0]), float(parts[1]) * 1e6))
    steps = []
    for i, (t, rate) in enumerate(rows):
        if i + 1 < len(rows):
            duration = rows[i + 1][0] - t
        else:
            duration = (t - rows[i - 1][0]) if i > 0 else 1.0
        steps.append((duration, rate))
    if not any(rate > 0 for _, rate in steps):
        raise SystemExit(f"{path}: the trace never lets data through")
    return steps


class Link:
    """The one shared link: a clock of reservations over the looped trace."""

    def __init__(self, steps, depth):
        self.steps = steps
        self.depth = depth
        self.period = sum(d for d, _ in steps)
        self.t0 = None
        self.free = 0.0   # link-relative seconds at which the link is next free

    def start(self, now):
        if self.t0 is None:
            self.t0 = now

    def finish(self, start, bits):
        """Link-relative time at which `bits` sent from link-relative `start` have all gone through."""
        t = start
        loop, offset = divmod(t, self.period)
        index, acc = 0, 0.0
        while acc + self.steps[index][0] <= offset:
            acc += self.steps[index][0]
            index += 1
        left_in_step = acc + self.steps[index][0] - offset
        while True:
            rate = self.steps[index][1]
            if rate > 0 and bits <= rate * left_in_step:
                return t + bits / rate
            bits -= rate * left_in_step
            t += left_in_step
            index = (index + 1) % len(self.steps)
            left_in_step = self.steps[index][0]

    async def send(self, writer, data, chunk):
        for i in range(0, len(data), chunk):
            piece = data[i:i + chunk]
            now = time.time() - self.t0
            # A response's first chunk starts no earlier than now: an idle link gives no burst, so a
            # request's bytes take exactly bits / rate, as simulate's do. Its later chunks may start up to
            # `depth` in the past, making up for the event loop's wake-up delay.
            begin = max(now if i == 0 else now - self.depth, self.free, 0.0)
            end = self.finish(begin, len(piece) * 8)
            self.free = end
            delay = end - (time.time() - self.t0)
            if delay > 0:
                await asyncio.sleep(delay)
            writer.write(piece)
            await writer.drain()
            yield len(piece)


class Server:
    def __init__(self, args):
        self.args = args
        # Resolved, so a root reached through a symbolic link (a builds folder linked into place) serves.
        self.roots = {"media": os.path.realpath(args.media), "lib": os.path.realpath(args.lib),
                      "page": os.path.realpath(args.page)}
        self.link = Link(parse_trace(args.trace), args.depth)
        self.log = open(args.log, "a", buffering=1)
        self.timeline = open(args.timeline, "a", buffering=1)
        self.connections = 0
        self.done = asyncio.Event()

    async def handle(self, reader, writer):
        self.connections += 1
        conn = self.connections
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                method, target, _ = line.decode("latin-1").split(" ", 2)
                headers = {}
                while True:
                    h = await reader.readline()
                    if h in (b"\r\n", b"\n", b""):
                        break
                    k, _, v = h.decode("latin-1").partition(":")
                    headers[k.strip().lower()] = v.strip()
                body = b""
                if "content-length" in headers:
                    body = await reader.readexactly(int(headers["content-length"]))
                if method == "POST":
                    await self.collect(writer, target, body)
                elif method in ("GET", "HEAD"):
                    await self.get(writer, conn, method, target, headers)
                else:
                    self.respond_head(writer, 405, 0, "text/plain")
                if self.done.is_set() or headers.get("connection", "").lower() == "close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError, ValueError, asyncio.CancelledError):
            return
        finally:
            writer.close()

    def respond_head(self, writer, status, length, ctype, extra=()):
        reason = {200: "OK", 206: "Partial Content", 404: "Not Found", 405: "Method Not Allowed",
                  416: "Range Not Satisfiable"}.get(status, "OK")
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {length}", f"Content-Type: {ctype}",
                 "Cache-Control: no-store", "Accept-Ranges: bytes", "Access-Control-Allow-Origin: *", *extra]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    async def collect(self, writer, target, body):
        try:
            document = json.loads(body)
        except ValueError:
            document = {"unparsed": body.decode("utf-8", "replace")}
        document["received"] = time.time()
        self.timeline.write(json.dumps(document) + "\n")
        self.respond_head(writer, 200, 0, "text/plain")
        await writer.drain()
        if isinstance(document, dict) and document.get("final"):
            self.done.set()

    async def get(self, writer, conn, method, target, headers):
        start = time.time()
        path = urllib.parse.unquote(urllib.parse.urlsplit(target).path)
        root, _, rest = path.lstrip("/").partition("/")
        base = self.roots.get(root)
        # normpath, not realpath: ".." cannot climb out of the root, and a file linked into it still serves.
        file = os.path.normpath(os.path.join(base, rest)) if base else None
        if not file or not file.startswith(base + os.sep) or not os.path.isfile(file):
            self.respond_head(writer, 404, 0, "text/plain")
            await writer.drain()
            return
        data = open(file, "rb").read()
        status, extra, rng = 200, [], headers.get("range")
        if rng and rng.startswith("bytes="):
            first, _, last = rng[6:].split(",")[0].partition("-")
            if first:
                a, b = int(first), int(last) if last else len(data) - 1
            else:
                a, b = len(data) - int(last), len(data) - 1
            b = min(b, len(data) - 1)
            if a > b:
                self.respond_head(writer, 416, 0, "text/plain", [f"Content-Range: bytes */{len(data)}"])
                return
            extra = [f"Content-Range: bytes {a}-{b}/{len(data)}"]
            data, status = data[a:b + 1], 206
        ctype = MIME.get(os.path.splitext(file)[1]) or mimetypes.guess_type(file)[0] or "application/octet-stream"
        self.respond_head(writer, status, len(data), ctype, extra)
        sent = 0
        if method == "GET":
            if root == "media":
                # The headers go out at once, as a link with no latency sends them: held back with the
                # first shaped chunk, they reached the player a chunk's time late (11 ms at 3 Mbit/s), a
                # time to first byte that hls.js leaves out of its bandwidth samples.
                await writer.drain()
                self.link.start(start)
                try:
                    async for n in self.link.send(writer, data, self.args.chunk):
                        sent += n
                finally:
                    self.log.write(json.dumps({"conn": conn, "path": path, "range": rng, "status": status,
                                               "start": start, "end": time.time(), "bytes": sent,
                                               "size": len(data)}) + "\n")
            else:
                writer.write(data)
                sent = len(data)
        await writer.drain()


async def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--media", required=True)
    p.add_argument("--lib", required=True)
    p.add_argument("--page", required=True)
    p.add_argument("--trace", required=True)
    p.add_argument("--log", required=True, help="request log, JSON lines")
    p.add_argument("--timeline", required=True, help="collected timelines, JSON lines")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--chunk", type=int, default=1448, help="bytes per link reservation (default 1448, one TCP segment)")
    p.add_argument("--depth", type=float, default=0.02, help="token bucket depth in seconds (default 0.02)")
    args = p.parse_args()
    server = Server(args)
    srv = await asyncio.start_server(server.handle, "127.0.0.1", args.port)
    port = srv.sockets[0].getsockname()[1]
    print(port, flush=True)
    async with srv:
        await server.done.wait()
        await asyncio.sleep(0.2)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
