#!/usr/bin/env python3
"""An origin that leads its client elsewhere, for the request-policy tests (issue 23): every path below
/to/<host>/<port>/ names, besides the case, the server it points at (O = http://<host>:<port>), which the
client must never request when only this origin is allowed. Also the server standing for O: every request
is counted. Standard library only; run through serving.py (--root, --host, PORT n on stdout).

  /to/H/P/redirect/<name>          302 to O/to/H/P/redirected/<name>
  /to/H/P/variant-best/master.m3u8 a master whose best variant (by BANDWIDTH) is O/media.m3u8
  /to/H/P/variant-low/master.m3u8  a master whose lower variant is O/media.m3u8 (the local one is played)
  /to/H/P/rendition/master.m3u8    a master whose audio rendition (#EXT-X-MEDIA, DEFAULT) is O/audio.m3u8
  /to/H/P/segments/index.m3u8      a VOD playlist: one local segment, then O/seg001.ts, O/seg002.ts
  /to/H/P/key/index.m3u8           AES-128 segments whose #EXT-X-KEY is O/key.bin
  /to/H/P/map/index.m3u8           segments whose #EXT-X-MAP init section is O/init.mp4
  /to/H/P/dash-base/manifest.mpd   a DASH manifest whose BaseURL is O/
  /to/H/P/dash-template/manifest.mpd  a DASH manifest whose SegmentTemplate URLs are absolute, on O
  /to/H/P/dash-redirect/manifest.mpd  a DASH manifest whose init section and segments are on this origin
                                   (/to/H/P/redirect/...), each answered with a redirect to O
  /to/H/P/dash-live/manifest.mpd   a live (type="dynamic") DASH manifest whose URLs are all on this origin
  /to/H/P/<case>/local.m3u8        <root>/hls/low/index.m3u8; /to/H/P/<case>/segNNN.ts its segments
  /requests                        the requests so far, one path per line (this one not counted)
  anything else                    404, counted
"""
import http.server
import os
import threading
import urllib.parse

from serving import serve

M3U8 = "application/vnd.apple.mpegurl"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    requests = []
    lock = threading.Lock()

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/requests":
            with self.lock:
                self.send_body("".join(line + "\n" for line in self.requests).encode(), "text/plain")
            return
        with self.lock:
            self.requests.append(path)
        parts = path.lstrip("/").split("/")
        if len(parts) < 5 or parts[0] != "to":
            self.send_body(b"not here\n", "text/plain", status=404)
            return
        other = "http://%s:%s" % (parts[1], parts[2])
        case, name = parts[3], "/".join(parts[4:])
        low = os.path.join(self.root, "hls", "low")
        if case == "redirect":
            self.send_response(302)
            self.send_header("Location", "%s/to/%s/%s/redirected/%s" % (other, parts[1], parts[2], name))
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif name == "local.m3u8":
            self.send_file(os.path.join(low, "index.m3u8"), M3U8)
        elif name.startswith("seg") and name.endswith(".ts"):
            self.send_file(os.path.join(low, name), "video/mp2t")
        elif case in ("variant-best", "variant-low"):
            bandwidth = 900000 if case == "variant-best" else 100000
            self.send_lines([
                "#EXTM3U",
                "#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"avc1.64000C,mp4a.40.2\"", "local.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=%d,CODECS=\"avc1.64000C,mp4a.40.2\"" % bandwidth, other + "/media.m3u8"])
        elif case == "rendition":
            self.send_lines([
                "#EXTM3U",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"other\",DEFAULT=YES,AUTOSELECT=YES,URI=\"%s/audio.m3u8\"" % other,
                "#EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO=\"aud\"", "local.m3u8"])
        elif case in ("segments", "key", "map"):
            lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
            if case == "key":
                lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"%s/key.bin\",IV=0x00000000000000000000000000000001" % other)
            if case == "map":
                lines.append("#EXT-X-MAP:URI=\"%s/init.mp4\"" % other)
            for number in range(3):
                segment = "seg%03d.ts" % number
                lines += ["#EXTINF:2.000000,", segment if case != "segments" or number == 0 else "%s/%s" % (other, segment)]
            self.send_lines(lines + ["#EXT-X-ENDLIST"])
        elif case in ("dash-base", "dash-template", "dash-redirect", "dash-live"):
            base = "<BaseURL>%s/</BaseURL>" % other if case == "dash-base" else ""
            prefix = {"dash-base": "", "dash-template": other + "/", "dash-live": ""}.get(
                case, "/to/%s/%s/redirect/" % (parts[1], parts[2]))
            kind = "type=\"dynamic\" availabilityStartTime=\"2026-01-01T00:00:00Z\"" if case == "dash-live" else "type=\"static\""
            self.send_body((
                "<?xml version=\"1.0\"?>\n"
                "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" %s mediaPresentationDuration=\"PT6S\" "
                "minBufferTime=\"PT2S\" profiles=\"urn:mpeg:dash:profile:isoff-live:2011\">%s"
                "<Period><AdaptationSet mimeType=\"video/mp4\"><Representation id=\"v\" bandwidth=\"500000\" "
                "codecs=\"avc1.64000C\" width=\"320\" height=\"180\">"
                "<SegmentTemplate timescale=\"1\" duration=\"2\" startNumber=\"1\" "
                "initialization=\"%sinit-$RepresentationID$.mp4\" media=\"%schunk-$RepresentationID$-$Number$.m4s\"/>"
                "</Representation></AdaptationSet></Period></MPD>\n" % (kind, base, prefix, prefix)).encode(),
                "application/dash+xml")
        else:
            self.send_body(b"not here\n", "text/plain", status=404)

    def send_lines(self, lines):
        self.send_body(("\n".join(lines) + "\n").encode(), M3U8)

    def send_file(self, path, content_type):
        if not os.path.isfile(path):
            self.send_body(b"not here\n", "text/plain", status=404)
            return
        with open(path, "rb") as handle:
            self.send_body(handle.read(), content_type)

    def send_body(self, body, content_type, status=200):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    serve(Handler)
