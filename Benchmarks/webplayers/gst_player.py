#!/usr/bin/python3
"""GStreamer's playbin3 as a harness player: plays URL headless and POSTs the same timeline document the web
page (timeline.js) posts, to the shaper's /collect, so compare.py reads both alike.

Usage: gst_player.py URL COLLECT_URL [LIMIT_SECONDS]   (Debian's /usr/bin/python3: python3-gst-1.0)

The application modelled is gst-play-1.0's (subprojects/gst-plugins-base/tools/gst-play.c, 1.22): the
pipeline is set to PLAYING at once; a BUFFERING message below 100 % pauses it (when not live), the next
100 % message sets it back to PLAYING. A bare playbin3 application that ignores BUFFERING messages never
pauses: it plays on until the sinks run dry. The sinks are fakevideosink and fakeaudiosink with sync=true,
so the decoded media is rendered against the pipeline clock as a real device's would be.

The timeline (times are epoch milliseconds, the clock of the shaper's request log):
- samples: every 100 ms, the position (query_position, s), the pipeline state, the last buffering percent;
- `video.playing`: playback began or resumed, the first poll at which the position advanced, back-dated by
  the advance (the playhead moves at 1x, so it started moving `advance` seconds before the poll);
- `video.waiting`: a stall began: a poll interval after startup in which the position did not advance
  (under 2 ms) while not within 0.15 s of the duration, dated when the position last moved (the previous
  poll plus the advance then made). Both a buffering pause and a sink running dry without one show so;
- `video.ended`: EOS; `gst.buffering` (percent), `gst.state`, `gst.element` (the demuxer's element
  messages, such as its variant switch statistics) and `gst.error` for diagnostics.
A stall therefore lasts at least one poll interval: a freeze under 100 ms may go unseen.
The session ends at EOS, at an error, or at LIMIT seconds (default 100); a watchdog thread posts what was
recorded and exits the process 15 s after the limit whatever the main loop is doing.
"""
import json
import os
import sys
import threading
import time
import urllib.request

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

POLL_MS = 100
STUCK = 0.002      # seconds of position advance under which a poll interval counts as not advancing
END_MARGIN = 0.15  # seconds before the duration within which a frozen position is the end, not a stall


class Runner:
    def __init__(self, url, collect, limit):
        self.url, self.collect, self.limit = url, collect, limit
        self.events, self.samples = [], []
        self.lock = threading.Lock()
        self.posted = False
        self.buffering = False
        self.percent = None
        self.is_live = False
        self.started = False
        self.stalled = False
        self.prev = None  # (wall seconds, position seconds) at the previous poll
        self.last_move = None
        self.pipeline = Gst.ElementFactory.make("playbin3", "player")
        if self.pipeline is None:
            raise SystemExit("gst_player.py: playbin3 is not available (gstreamer1.0-plugins-base)")
        vsink = Gst.ElementFactory.make("fakevideosink", "vsink") or Gst.ElementFactory.make("fakesink", "vsink")
        asink = Gst.ElementFactory.make("fakeaudiosink", "asink") or Gst.ElementFactory.make("fakesink", "asink")
        for sink in (vsink, asink):
            sink.set_property("sync", True)
        self.pipeline.set_property("video-sink", vsink)
        self.pipeline.set_property("audio-sink", asink)
        self.pipeline.set_property("uri", url)
        self.loop = GLib.MainLoop()

    def log(self, kind, detail=None, t=None):
        with self.lock:
            self.events.append({"t": round((time.time() if t is None else t) * 1000, 1), "type": kind,
                                "detail": detail})

    def document(self, reason):
        with self.lock:
            return {"player": "gstreamer", "src": self.url, "final": True, "reason": reason,
                    "ua": "playbin3 (gst_player.py)", "version": Gst.version_string(),
                    "events": list(self.events), "samples": list(self.samples), "segments": []}

    def post(self, reason):
        with self.lock:
            if self.posted:
                return
            self.posted = True
        body = json.dumps(self.document(reason)).encode()
        try:
            urllib.request.urlopen(urllib.request.Request(self.collect, data=body, method="POST"), timeout=10)
        except OSError as e:
            print(f"gst_player.py: could not post the timeline to {self.collect}: {e}", file=sys.stderr)

    def finish(self, reason):
        if self.posted:
            return False
        self.log("finish", reason)
        self.post(reason)
        self.pipeline.set_state(Gst.State.NULL)
        self.loop.quit()
        return False

    def position(self):
        ok, pos = self.pipeline.query_position(Gst.Format.TIME)
        return pos / Gst.SECOND if ok and pos >= 0 else None

    def duration(self):
        ok, dur = self.pipeline.query_duration(Gst.Format.TIME)
        return dur / Gst.SECOND if ok and dur > 0 else None

    def poll(self):
        now = time.time()
        pos = self.position()
        state = self.pipeline.get_state(0)[1]
        with self.lock:
            self.samples.append({"t": round(now * 1000, 1), "currentTime": pos,
                                 "paused": state != Gst.State.PLAYING, "state": state.value_nick,
                                 "buffering": self.percent})
        if pos is None:
            return True
        if self.prev is None:
            self.prev = (now, pos)
            return True
        t_prev, p_prev = self.prev
        advance = pos - p_prev
        if advance > STUCK:
            moved_from = max(t_prev, now - advance)
            if not self.started:
                self.started = True
                self.log("video.playing", {"currentTime": pos, "startup": True}, t=moved_from)
            elif self.stalled:
                self.stalled = False
                self.log("video.playing", {"currentTime": pos}, t=moved_from)
            self.last_move = min(now, t_prev + advance)
        elif self.started and not self.stalled:
            dur = self.duration()
            if dur is None or pos < dur - END_MARGIN:
                self.stalled = True
                self.log("video.waiting", {"currentTime": pos, "buffering": self.percent},
                         t=self.last_move if self.last_move is not None else t_prev)
        self.prev = (now, pos)
        return True

    def on_message(self, _bus, msg):
        t = msg.type
        if t == Gst.MessageType.BUFFERING:
            percent = msg.parse_buffering()
            # Logged at 0, 100 and each 10 % step: the demuxer posts every percent.
            if percent in (0, 100) or self.percent is None or percent // 10 != self.percent // 10:
                self.log("gst.buffering", percent)
            self.percent = percent
            # gst-play-1.0's rule: pause below 100 %, play again at 100 %, nothing for a live pipeline.
            if percent == 100:
                if self.buffering:
                    self.buffering = False
                    if not self.is_live:
                        self.pipeline.set_state(Gst.State.PLAYING)
            elif not self.buffering:
                if not self.is_live:
                    self.pipeline.set_state(Gst.State.PAUSED)
                self.buffering = True
        elif t == Gst.MessageType.EOS:
            self.log("video.ended", {"currentTime": self.position()})
            GLib.timeout_add(300, self.finish, "ended")
        elif t == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            self.log("gst.error", {"message": err.message, "debug": (debug or "")[:300], "fatal": True})
            self.finish("fatal " + err.message)
        elif t == Gst.MessageType.STATE_CHANGED and msg.src == self.pipeline:
            old, new, _ = msg.parse_state_changed()
            self.log("gst.state", {"from": old.value_nick, "to": new.value_nick})
        elif t == Gst.MessageType.ELEMENT and msg.get_structure() is not None:
            s = msg.get_structure()
            if s.get_name().startswith("adaptive-streaming"):
                self.log("gst.element", s.to_string()[:400])
        elif t == Gst.MessageType.CLOCK_LOST:
            self.pipeline.set_state(Gst.State.PAUSED)
            self.pipeline.set_state(Gst.State.PLAYING)
        return True

    def watchdog(self):
        time.sleep(self.limit + 15)
        self.log("finish", "watchdog")
        self.post("watchdog")
        os._exit(3)

    def run(self):
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)
        threading.Thread(target=self.watchdog, daemon=True).start()
        self.log("page", {"player": "gstreamer", "src": self.url})
        self.log("version", Gst.version_string())
        ret = self.pipeline.set_state(Gst.State.PLAYING)
        if ret == Gst.StateChangeReturn.FAILURE:
            self.log("gst.error", {"message": "could not set the pipeline to PLAYING", "fatal": True})
            self.finish("fatal state change")
            return
        self.is_live = ret == Gst.StateChangeReturn.NO_PREROLL
        GLib.timeout_add(POLL_MS, self.poll)
        GLib.timeout_add(int(self.limit * 1000), self.finish, "limit")
        self.loop.run()


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: gst_player.py URL COLLECT_URL [LIMIT_SECONDS]")
    Gst.init(None)
    Runner(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 100.0).run()


if __name__ == "__main__":
    main()
