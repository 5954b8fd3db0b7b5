#!/usr/bin/env python3
"""Compares one real web-player run with `bufprobe simulate` on the same media and trace, by the criteria
of Benchmarks/README.md ("webplayers.sh"): same stall count, startup within 0.5 s or 25 %, total stall time
within 1 s or 25 % (for the DASH players, the time the picture was frozen instead: stalls and audio playing
on alone), the same video variant on >= 90 % of segments.

Usage: compare.py CASE_DIR   (holds meta.json, requests.jsonl from shaper.py, timeline.jsonl from the page,
simulate.json from `bufprobe simulate --json`); prints one JSON line, the case's figures and verdict.

Real figures, all times from the start of the first /media request (the trace's time 0, as simulate's
session starts when play is pressed):
- startup: hls.js and dash.js, the first `playing` event of the video element (gst_player.py and
  vlc_player.py post `video.*` events by the rules in their docstrings); Shaka 3.1 holds the playback
  rate at 0 while it buffers, so the later of the first `playing` and the first `buffering: false`.
- stalls: after startup, hls.js and dash.js from each `waiting` to the next `playing`; Shaka from each
  `buffering: true` to the next `buffering: false`. A stall still open when the session ended (a fatal error,
  the time limit) counts, up to the last event.
- per-segment variant: from the shaper's log, the last complete request of each video segment (HLS
  `vI_NNN.ts`; DASH `chunk-R-NNNNN.m4s`, representations 0-2 video, 3 audio).
Simulated per-segment variants: as for the real run, the last complete video request of each segment in
simulate's `request_log` (a fast switch's `replacement` included); from a report without a request log, the
first variant, then each ABR switch's `to` from its `segment` on.
The variant share counts the segments either one fetched: when both sessions stopped early (hls.js's fatal
stall, which simulate models), the segments neither fetched are left out, not counted as misses. Both must
also agree on whether playback reached the end.
"""
import json
import os
import re
import sys


def load_lines(path):
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []


def real_figures(case, meta):
    requests = load_lines(os.path.join(case, "requests.jsonl"))
    timelines = load_lines(os.path.join(case, "timeline.jsonl"))
    if not requests or not timelines:
        return {"error": "no requests or no timeline (the page never reported)"}
    t0 = min(r["start"] for r in requests)
    tl = timelines[-1]
    events = [(e["t"] / 1000 - t0, e["type"], e["detail"]) for e in tl.get("events", [])]
    shaka = meta["player"] == "shaka"
    play_on = "shaka.buffering" if shaka else "video.playing"
    first_playing = next((t for t, ty, _ in events if ty == "video.playing"), None)
    startup = first_playing
    if shaka and first_playing is not None:
        unbuffer = next((t for t, ty, d in events if ty == "shaka.buffering" and d is False), None)
        startup = max(first_playing, unbuffer) if unbuffer is not None else None
    stalls, open_at = [], None
    end_time = events[-1][0] if events else 0
    if startup is not None:
        for t, ty, d in events:
            if t <= startup:
                continue
            if ty == "video.ended":
                open_at = None  # Chromium fires `waiting` at the very end on some builds: not a stall.
                break
            starts = (ty == "shaka.buffering" and d is True) if shaka else ty == "video.waiting"
            ends = (ty == "shaka.buffering" and d is False) if shaka else ty == "video.playing"
            if starts and open_at is None:
                open_at = t
            elif ends and open_at is not None:
                stalls.append([round(open_at, 3), round(t - open_at, 3)])
                open_at = None
        if open_at is not None:
            stalls.append([round(open_at, 3), round(end_time - open_at, 3), "open at the end"])
    variants = {}
    for r in sorted(requests, key=lambda r: r["end"]):
        if r["bytes"] != r["size"]:
            continue
        m = re.search(r"/v(\d+)_(\d+)\.ts$", r["path"]) or re.search(r"/chunk-(\d+)-(\d+)\.m4s$", r["path"])
        if not m:
            continue
        v, n = int(m.group(1)), int(m.group(2))
        if r["path"].endswith(".m4s"):
            if v == 3:
                continue
            n -= 1
        variants[n] = v
    errors = [[round(t, 3), ty, d] for t, ty, d in events if ty.endswith("error") or ty == "play.rejected"]
    stall_time = round(sum(s[1] for s in stalls), 3)
    return {"startup": None if startup is None else round(startup, 3), "stall_count": len(stalls),
            "stall_time": stall_time, "stalls": stalls,
            "frozen_picture_time": frozen_picture(tl, t0, startup, events, stall_time),
            "variants": [variants.get(k) for k in range(meta["segments"])],
            "ended": any(ty == "video.ended" for _, ty, _ in events), "reason": tl.get("reason"),
            "errors": errors, "connections": len({r["conn"] for r in requests}),
            "version": next((d for _, ty, d in events if ty == "version"), None)}


def frozen_picture(tl, t0, startup, events, stall_time):
    """Seconds the picture did not move after startup: the page's samples (every 250 ms) whose decoded frame
    count (`getVideoPlaybackQuality().totalVideoFrames`) did not grow while not paused, up to `ended`. With
    a separate audio track Chromium plays the audio on for up to 3 s after the video runs dry, a frozen
    picture the element's `waiting` does not show. A timeline without frame counts gives the stall time."""
    samples = [x for x in tl.get("samples", []) if isinstance(x.get("frames"), dict)]
    if startup is None or len(samples) < 2:
        return stall_time
    end = next((t for t, ty, _ in events if ty == "video.ended"), None)
    frozen = 0.0
    for a, b in zip(samples, samples[1:]):
        ta, tb = a["t"] / 1000 - t0, b["t"] / 1000 - t0
        if ta < startup or (end is not None and tb > end) or a.get("paused"):
            continue
        if b["frames"].get("total") == a["frames"].get("total"):
            frozen += tb - ta
    return round(frozen, 3)


def simulated_figures(case, meta):
    path = os.path.join(case, "simulate.json")
    try:
        s = json.load(open(path))
    except (OSError, ValueError) as e:
        return {"error": f"simulate.json: {e}"}
    if "error" in s:
        return {"error": s["error"]}   # run-case.sh's "no preset yet": simulate knows no such --player
    abr = s.get("abr") or {}
    switches = sorted(abr.get("switches", []), key=lambda w: w["segment"])
    if switches:
        first = switches[0]["from"]
    else:
        used = [v["variant"] for v in abr.get("variants", []) if v.get("segments")]
        first = used[0] if used else 0
    variants = []
    for k in range(meta["segments"]):
        v = first
        for w in switches:
            if w["segment"] <= k:
                v = w["to"]
        variants.append(v)
    log = s.get("request_log")
    if log is not None:
        # What simulate fetched, by the same rule as the real run: the last complete video request of each
        # segment (a fast switch's `replacement` included); a segment never fetched (the session ended
        # first, as after hls.js's fatal stall) has no variant.
        variants = [None] * meta["segments"]
        for r in sorted(log, key=lambda r: r.get("end") or 0):
            k = r.get("segment")
            if r.get("track") == "video" and r.get("kind") in ("segment", "replacement") and not r.get("abandoned") \
                    and k is not None and 0 <= k < len(variants):
                variants[k] = r["variant"]
    stall_time = round(s.get("stall_time") or 0, 3)
    frozen = s.get("frozen_picture_time")
    return {"startup": s.get("startup_delay"), "stall_count": s.get("stall_count"),
            "stall_time": stall_time, "frozen_picture_time": stall_time if frozen is None else round(frozen, 3),
            "stalls": [[round(x["start"], 3), round(x["duration"], 3)] for x in s.get("stalls", [])],
            "variants": variants, "ended": s.get("ended")}


def verdict(real, sim, dash=False):
    if "error" in real or "error" in sim or real.get("startup") is None:
        return {"agree": False, "failed": ["no real figures" if "error" in real or real.get("startup") is None
                                           else sim.get("error", "no simulated figures")]}
    failed = []
    if real["stall_count"] != sim["stall_count"]:
        failed.append("stall count")
    if sim["startup"] is None or abs(real["startup"] - sim["startup"]) > max(0.5, 0.25 * real["startup"]):
        failed.append("startup")
    # For a DASH player (separate audio and video source buffers) the time is what the viewer sees: the
    # picture frozen, stalls and audio playing on alone; hls.js's muxed segments freeze only in stalls.
    key, label = ("frozen_picture_time", "frozen picture") if dash else ("stall_time", "stall time")
    if abs(real[key] - sim[key]) > max(1.0, 0.25 * real[key]):
        failed.append(label)
    if bool(real.get("ended")) != bool(sim.get("ended")):
        failed.append("ended")
    # Over the segments either one fetched: a segment both left unfetched (both sessions stopped before
    # it) is neither a match nor a miss.
    pairs = [(a, b) for a, b in zip(real["variants"], sim["variants"]) if a is not None or b is not None]
    share = sum(1 for a, b in pairs if a == b) / len(pairs) if pairs else 0
    if share < 0.9:
        failed.append("variants")
    return {"agree": not failed, "failed": failed, "same_variant_share": round(share, 3)}


def main():
    case = sys.argv[1]
    meta = json.load(open(os.path.join(case, "meta.json")))
    real, sim = real_figures(case, meta), simulated_figures(case, meta)
    dash = meta["media"].endswith(".mpd")
    print(json.dumps({**meta, "real": real, "simulate": sim, "verdict": verdict(real, sim, dash)}))


if __name__ == "__main__":
    main()
