#!/usr/bin/env python3
"""A live low-latency HLS origin (RFC 8216bis) made from real media, for the LL-HLS tests of `bufprobe check`.

Standard library plus the ffmpeg and ffprobe on PATH; 127.0.0.1 only, "PORT <n>" first, stops when stdin closes
(as serving.py's servers).

At start ffmpeg re-encodes --sample (once for all origins given the same --cache folder) (looped to --seconds of media) to fragmented MP4 with a keyframe every
0.8 s and a fragment every 0.4 s (`frag_keyframe+empty_moov+default_base_moof`, `-frag_duration 400000`): each
moof+mdat fragment is one part (0.4 s), six parts are one segment (2.4 s), and a part is INDEPENDENT when its
first video packet is a keyframe (ffprobe says which), so every other part is. The first 3 segments are
"published" at once (the stream seems to have been running); after that each part is published when the
wall clock reaches its end, so the newest part is never in the future. EXT-X-PROGRAM-DATE-TIME is the
publish clock: part i starts at (origin start - 3 segments + its media start).

/live.m3u8: `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=14.4`,
`#EXT-X-PART-INF:PART-TARGET=0.4`, the last 5 segments, the parts of the last 2 and of the one in progress,
and a preload hint for the next part. `_HLS_msn=M&_HLS_part=P` is held until that part is published (a part
index past the end of segment M means part 0 of M+1, as §6.2.5.2 says), 400 when it is more than two
segments ahead, 503 when it does not come within 3 target durations. `_HLS_skip=YES` answers a delta
update (EXT-X-SKIP) when CAN-SKIP-UNTIL allows. /master.m3u8 lists the playlist twice (two bandwidths).
/init.mp4, /segN.m4s and /partN.P.m4s serve the bytes.

--fault makes a faulty twin:
  ignore-blocking      answers every playlist request at once with the current playlist
  long-part            part 2 of each segment is two fragments (0.8 s, over PART-TARGET), declared so
  missing-hint         the preload hint names a URI that is never listed nor served
  false-independent    every part is flagged INDEPENDENT=YES, also those that start without a keyframe
  wrong-skip           a delta update's SKIPPED-SEGMENTS is one more than the segments it left out
  endless-part         part 3 of every segment after the preloaded ones never ends: 1 kB every 0.1 s, no length
"""
import argparse
import fcntl
import json
import os
import subprocess
import tempfile
import threading
import time
import urllib.parse

import http.server

import serving

PART_TARGET = 0.4
PARTS_PER_SEGMENT = 6
PRELOADED_SEGMENTS = 3
WINDOW_SEGMENTS = 5


def encode(sample, seconds, directory):
    """Fragmented MP4 of `seconds` of `sample` looped; returns its path."""
    out = os.path.join(directory, "stream.mp4")
    subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", "-1", "-i", sample, "-t", str(seconds),
         "-c:v", "libx264", "-preset", "ultrafast", "-g", "20", "-keyint_min", "20", "-sc_threshold", "0",
         "-r", "25", "-c:a", "aac", "-b:a", "64k", "-f", "mp4",
         "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "400000", out],
        check=True)
    return out


def cached(sample, seconds, cache):
    """The encoding of `sample` in `cache`, made once (under a lock: origins started together wait for the
    first), named after the sample's size and time and the seconds, so a changed sample is encoded again."""
    os.makedirs(cache, exist_ok=True)
    info = os.stat(sample)
    name = "llhls-%s-%d-%d-%g.mp4" % (os.path.basename(sample), info.st_size, int(info.st_mtime), seconds)
    path = os.path.join(cache, name)
    with open(os.path.join(cache, "llhls.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path):
            with tempfile.TemporaryDirectory(dir=cache) as directory:
                os.rename(encode(sample, seconds, directory), path)
    return path


def boxes(data):
    pos = 0
    while pos + 8 <= len(data):
        size = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8].decode("latin-1")
        if size < 8:
            break
        yield kind, pos, size
        pos += size


def cut(path):
    """(init bytes, [fragment dict: bytes, duration, independent])."""
    data = open(path, "rb").read()
    init_end = None
    starts = []
    for kind, pos, size in boxes(data):
        if kind == "moof":
            if init_end is None:
                init_end = pos
            starts.append(pos)
    ends = starts[1:] + [len(data)]
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,pos,flags",
         "-of", "json", path], check=True, capture_output=True).stdout
    packets = json.loads(probe)["packets"]
    fragments = []
    for start, end in zip(starts, ends):
        inside = [p for p in packets if start <= int(p["pos"]) < end]
        if not inside:
            continue
        first = min(inside, key=lambda p: int(p["pos"]))
        fragments.append({"bytes": data[start:end], "pts": float(first["pts_time"]),
                          "independent": "K" in first["flags"]})
    for this, following in zip(fragments, fragments[1:]):
        this["duration"] = following["pts"] - this["pts"]
    if fragments:
        fragments[-1]["duration"] = PART_TARGET
    return data[:init_end], fragments


class Stream:
    """Parts grouped into segments, each with its publish time and program date-time."""

    def __init__(self, init, fragments, fault):
        self.init = init
        self.fault = fault
        self.segments = []  # each a list of parts: dict bytes, duration, independent, start (media s)
        group = []
        media = 0.0
        index = 0
        while index < len(fragments):
            fragment = dict(fragments[index])
            if fault == "long-part" and len(group) == 2 and index + 1 < len(fragments):
                following = fragments[index + 1]
                fragment["bytes"] = fragment["bytes"] + following["bytes"]
                fragment["duration"] += following["duration"]
                index += 1
            index += 1
            fragment["start"] = media
            media += fragment["duration"]
            group.append(fragment)
            if len(group) == PARTS_PER_SEGMENT or (fault == "long-part" and len(group) == PARTS_PER_SEGMENT - 1):
                self.segments.append(group)
                group = []
        self.segment_duration = PART_TARGET * PARTS_PER_SEGMENT
        preroll = sum(p["duration"] for s in self.segments[:PRELOADED_SEGMENTS] for p in s)
        self.started = time.time()
        # Wall (Unix) time of media time 0: the preloaded segments are already in the past.
        self.zero = self.started - preroll
        self.condition = threading.Condition()

    def published(self, now=None):
        """(msn, part count) of every published part: complete segments and the one in progress."""
        now = time.time() if now is None else now
        result = []
        for msn, segment in enumerate(self.segments):
            count = sum(1 for p in segment if self.zero + p["start"] + p["duration"] <= now + 1e-6)
            result.append((msn, count))
            if count < len(segment):
                break
        return result

    def has_part(self, msn, part, now=None):
        state = dict(self.published(now))
        return msn in state and state[msn] > part

    def normalize(self, msn, part):
        """A part index past the end of its segment is part 0 of the next (§6.2.5.2)."""
        if 0 <= msn < len(self.segments) and part is not None and part >= len(self.segments[msn]):
            return msn + 1, 0
        return msn, part

    def playlist(self, skip=False):
        published = self.published()
        if not published:
            return "#EXTM3U\n"
        last_msn, last_count = published[-1]
        complete = [msn for msn, count in published if count == len(self.segments[msn])]
        first = max(0, (complete[-1] + 1 if complete else 0) - WINDOW_SEGMENTS)
        lines = ["#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:3",
                 "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=14.4",
                 "#EXT-X-PART-INF:PART-TARGET=%.1f" % PART_TARGET,
                 "#EXT-X-MEDIA-SEQUENCE:%d" % first, '#EXT-X-MAP:URI="init.mp4"']
        skipped = 0
        if skip:
            # Skip what is older than CAN-SKIP-UNTIL (14.4 s = 6 segments) from the end: with a 5-segment
            # window, the first 2 segments when the window is full, to keep the test short.
            skipped = 2 if len(complete) - first >= 4 else 0
            if skipped:
                told = skipped + 1 if self.fault == "wrong-skip" else skipped
                lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=%d" % told)
        for msn in range(first + skipped, last_msn + 1):
            segment = self.segments[msn]
            count = dict(published)[msn]
            lines.append("#EXT-X-PROGRAM-DATE-TIME:%s" % iso(self.zero + segment[0]["start"]))
            if msn >= last_msn - 2:
                for index in range(count):
                    part = segment[index]
                    independent = part["independent"] or self.fault == "false-independent"
                    lines.append('#EXT-X-PART:DURATION=%.5f,URI="part%d.%d.m4s"%s' % (
                        part["duration"], msn, index, ",INDEPENDENT=YES" if independent else ""))
            if count == len(segment):
                lines.append("#EXTINF:%.5f," % sum(p["duration"] for p in segment))
                lines.append("seg%d.m4s" % msn)
        next_msn, next_part = self.normalize(last_msn, last_count)
        if next_msn < len(self.segments):
            name = "part%d.%d.m4s" % (next_msn, next_part)
            if self.fault == "missing-hint":
                name = "hint%d.%d.m4s" % (next_msn, next_part)
            lines.append('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="%s"' % name)
        return "\n".join(lines) + "\n"


def iso(unix):
    whole = int(unix)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + ".%03dZ" % int((unix - whole) * 1000)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    stream = None

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path.lstrip("/")
        query = urllib.parse.parse_qs(parsed.query)
        stream = Handler.stream
        try:
            if path == "master.m3u8":
                body = ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000\nlive.m3u8?v=low\n"
                        "#EXT-X-STREAM-INF:BANDWIDTH=900000\nlive.m3u8\n").encode()
                self.send_body(200, "application/vnd.apple.mpegurl", body)
            elif path == "live.m3u8":
                self.send_playlist(stream, query)
            elif path == "init.mp4":
                self.send_body(200, "video/mp4", stream.init)
            elif path.startswith("part") and path.endswith(".m4s"):
                msn, index = (int(x) for x in path[4:-4].split("."))
                if stream.fault == "endless-part" and index == 3 and msn >= PRELOADED_SEGMENTS:
                    self.send_response(200)
                    self.send_header("Content-Type", "video/mp4")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    while True:
                        self.wfile.write(b"\0" * 1000)
                        self.wfile.flush()
                        time.sleep(0.1)
                if not stream.has_part(msn, index):
                    self.send_body(404, "text/plain", b"404\n")
                else:
                    self.send_body(200, "video/mp4", stream.segments[msn][index]["bytes"])
            elif path.startswith("seg") and path.endswith(".m4s"):
                msn = int(path[3:-4])
                if not 0 <= msn < len(stream.segments) or not stream.has_part(msn, len(stream.segments[msn]) - 1):
                    self.send_body(404, "text/plain", b"404\n")
                else:
                    self.send_body(200, "video/mp4", b"".join(p["bytes"] for p in stream.segments[msn]))
            else:
                self.send_body(404, "text/plain", b"404\n")
        except (BrokenPipeError, ConnectionResetError, ValueError):
            pass

    def send_playlist(self, stream, query):
        skip = query.get("_HLS_skip", [""])[0] == "YES"
        if "_HLS_msn" in query and stream.fault != "ignore-blocking":
            msn = int(query["_HLS_msn"][0])
            part = int(query["_HLS_part"][0]) if "_HLS_part" in query else None
            msn, part = stream.normalize(msn, part)
            last_msn = stream.published()[-1][0]
            if msn > last_msn + 2:
                self.send_body(400, "text/plain", b"400 too far ahead\n")
                return
            wanted_part = part if part is not None else len(stream.segments[msn]) - 1 if msn < len(stream.segments) else 0
            deadline = time.time() + 3 * 3
            while not stream.has_part(msn, wanted_part):
                if time.time() > deadline or msn >= len(stream.segments):
                    self.send_body(503, "text/plain", b"503 not published in time\n")
                    return
                time.sleep(0.005)
        self.send_body(200, "application/vnd.apple.mpegurl", stream.playlist(skip=skip).encode())

    def send_body(self, code, kind, body):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", required=True)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--fault", default="")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cache", help="a folder to keep the encoding in, for the next origin")
    args = parser.parse_args()
    if args.cache:
        init, fragments = cut(cached(args.sample, args.seconds, args.cache))
    else:
        with tempfile.TemporaryDirectory() as directory:
            init, fragments = cut(encode(args.sample, args.seconds, directory))
    Handler.stream = Stream(init, fragments, args.fault)
    serving.run(Handler, port=args.port)


if __name__ == "__main__":
    main()
