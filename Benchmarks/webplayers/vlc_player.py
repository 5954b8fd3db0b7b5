#!/usr/bin/python3
"""VLC (libvlc 3.0 through Debian's python3-vlc) as a harness player: plays URL headless at VLC's default
settings and POSTs the same timeline document the web page (timeline.js) posts, to the shaper's /collect,
so compare.py reads both alike.

Usage: vlc_player.py URL COLLECT_URL [LIMIT_SECONDS]
VLC refuses to run as root: run-case.sh starts this under `setpriv --reuid=65534 --regid=65534
--clear-groups` with HOME in a folder that user may write; the timeline goes to the shaper over HTTP, so
nothing else needs writing. The instance is `--intf=dummy --aout=dummy --no-video-title-show` with the
memory video output below (no window, no sound device; video is decoded and shown on the clock).

Playing and stalled are VLC's own clock state, as libvlc reports it: the MediaPlayerBuffering event carries
the core's buffering level (es_out: the media held over the media it must hold, pts_delay, before it starts
the clock); 100 % is sent when the clock starts, and a level under 100 % after that means the clock was
stopped to rebuffer (a late PCR: es_out raises pts_delay and restarts buffering). get_time() cannot serve:
VLC updates it only about every 250 ms, from the demuxer's progress minus an estimate of the buffered delay.
Nor can the pictures alone: while VLC rebuffers, the memory video output shows pictures as they are decoded
(at the link's pace, slow motion with the clock stopped), and with the clock running it can show none for a
while (late pictures dropped). The pictures give the frozen picture instead. Times are epoch milliseconds.
- `video.playing` (startup): the first buffering event at 100 %;
- a stall: `video.waiting` at the first event under 100 % after that, `video.playing` at the next at 100 %;
- `video.ended`: the Ended state; `vlc.buffering` (the level at 0, 100 and each 10 % step), `vlc.state`,
  `vlc.error` for diagnostics;
- samples: every 100 ms, get_time() (s), get_state(), the last buffering level and `frames` {"total": the
  pictures shown so far}, from which compare.py takes the frozen picture as from the page's samples. The
  video output is libvlc's memory output (video_set_callbacks, a 64x36 RV32 picture): its display callback
  counts each picture shown.
The session ends at the Ended or Error state or at LIMIT seconds (default 100); a watchdog thread posts
what was recorded and exits the process 15 s after the limit whatever libvlc is doing.
"""
import ctypes
import json
import os
import sys
import threading
import time
import urllib.request

import vlc

POLL = 0.1
W, H = 64, 36


class Runner:
    def __init__(self, url, collect, limit):
        self.url, self.collect, self.limit = url, collect, limit
        self.events, self.samples = [], []
        self.lock = threading.Lock()
        self.posted = False
        self.percent = None
        self.started = self.stalled = False
        self.instance = vlc.Instance(["--intf=dummy", "--aout=dummy", "--no-video-title-show",
                                      "--no-media-library"])
        if self.instance is None:
            raise SystemExit("vlc_player.py: libvlc would not start (is this root? see setpriv in run-case.sh)")
        self.player = self.instance.media_player_new()
        self.player.set_media(self.instance.media_new(url))
        # The memory video output: one 64x36 RV32 buffer, reused; the display callback stamps each picture.
        self.shown = []
        self.buffer = ctypes.create_string_buffer(W * H * 4 + 32)
        base = ctypes.addressof(self.buffer)
        self.plane = ctypes.c_void_p(base + (-base) % 32)
        self.callbacks = (vlc.CallbackDecorators.VideoLockCb(self.lock_picture),
                          vlc.CallbackDecorators.VideoUnlockCb(lambda *_: None),
                          vlc.CallbackDecorators.VideoDisplayCb(lambda *_: self.shown.append(time.time())))
        self.player.video_set_callbacks(*self.callbacks, None)
        self.player.video_set_format("RV32", W, H, W * 4)
        em = self.player.event_manager()
        em.event_attach(vlc.EventType.MediaPlayerBuffering, self.on_buffering)

    def log(self, kind, detail=None, t=None):
        with self.lock:
            self.events.append({"t": round((time.time() if t is None else t) * 1000, 1), "type": kind,
                                "detail": detail})

    def lock_picture(self, _opaque, planes):
        planes[0] = self.plane.value
        return None

    def on_buffering(self, event):
        # Debian's python3-vlc 3.0.18121 declares no union for the event: libvlc_event_t holds the buffering
        # event's float `new_cache` where that binding puts `meta_type`, after `type` and `obj`.
        percent = round(ctypes.c_float.from_address(ctypes.addressof(event) + vlc.Event.meta_type.offset).value, 1)
        if percent in (0, 100) or self.percent is None or int(percent) // 10 != int(self.percent) // 10:
            self.log("vlc.buffering", percent)
        self.percent = percent
        # The clock state from the level: started at the first 100 %, stalled under 100 % after that.
        if not self.started:
            if percent >= 100:
                self.started = True
                self.log("video.playing", {"buffering": percent, "startup": True})
        elif not self.stalled and percent < 100:
            self.stalled = True
            self.log("video.waiting", {"buffering": percent})
        elif self.stalled and percent >= 100:
            self.stalled = False
            self.log("video.playing", {"buffering": percent})

    def post(self, reason):
        with self.lock:
            if self.posted:
                return
            self.posted = True
            document = {"player": "vlc", "src": self.url, "final": True, "reason": reason,
                        "ua": "libvlc (vlc_player.py)", "version": vlc.libvlc_get_version().decode(),
                        "events": list(self.events), "samples": list(self.samples), "segments": []}
        body = json.dumps(document).encode()
        try:
            urllib.request.urlopen(urllib.request.Request(self.collect, data=body, method="POST"), timeout=10)
        except OSError as e:
            print(f"vlc_player.py: could not post the timeline to {self.collect}: {e}", file=sys.stderr)

    def watchdog(self):
        time.sleep(self.limit + 15)
        self.log("finish", "watchdog")
        self.post("watchdog")
        os._exit(3)

    def run(self):
        threading.Thread(target=self.watchdog, daemon=True).start()
        self.log("page", {"player": "vlc", "src": self.url})
        self.log("version", vlc.libvlc_get_version().decode())
        begin = time.time()
        if self.player.play() != 0:
            self.log("vlc.error", {"message": "play() failed", "fatal": True})
            return self.finish("fatal play")
        last_state = None
        while True:
            time.sleep(POLL)
            now = time.time()
            state = self.player.get_state()
            ms = self.player.get_time()
            media = None if ms is None or ms < 0 else ms / 1000
            with self.lock:
                self.samples.append({"t": round(now * 1000, 1), "currentTime": media, "state": str(state),
                                     "paused": state != vlc.State.Playing, "buffering": self.percent,
                                     "frames": {"total": len(self.shown)}})
            if state != last_state:
                self.log("vlc.state", str(state))
                last_state = state
            if state == vlc.State.Ended:
                self.log("video.ended", {"currentTime": media, "pictures": len(self.shown)})
                return self.finish("ended")
            if state == vlc.State.Error:
                self.log("vlc.error", {"message": "the player reported an error", "fatal": True})
                return self.finish("fatal error")
            if now - begin > self.limit:
                return self.finish("limit")

    def finish(self, reason):
        self.log("finish", reason)
        self.post(reason)
        self.player.stop()
        self.player.release()
        self.instance.release()


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: vlc_player.py URL COLLECT_URL [LIMIT_SECONDS]")
    Runner(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 100.0).run()


if __name__ == "__main__":
    main()
