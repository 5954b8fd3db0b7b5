#!/usr/bin/env python3
"""Makes the web-player harness's media with ffmpeg: one 3-variant ladder (300k/800k/2000k H.264, 2 s
segments, keyframes at every segment boundary) plus one 64 kbit/s AAC track, 30 s (or SECONDS), encoded once and
packaged twice from the same encodes (streams copied): HLS (MPEG-TS, audio muxed into each variant, so a
player and `simulate` fetch the same bytes) and DASH (one video adaptation set of 3 representations and one
audio adaptation set, SegmentTemplate). Usage: make_media.py OUT_DIR [SECONDS [SEGMENT]] (reused when already
made with the same length and segment duration; SEGMENT, default 2, is also the keyframe interval, and
ffmpeg's DASH muxer writes minBufferTime as twice it); writes OUT_DIR/media.json,
{"seconds": S, "segments": S / SEGMENT, "segment": SEGMENT}."""
import json
import os
import subprocess
import sys

RATES = [300, 800, 2000]          # kbit/s, video
SIZES = ["480x270", "640x360", "1280x720"]
SECONDS = 2                       # segment duration, unless given
DURATION = 30
FPS = 30


def run(args):
    subprocess.run(["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", *args], check=True)


def main():
    out = sys.argv[1]
    duration = int(sys.argv[2]) if len(sys.argv) > 2 else DURATION
    segment = int(sys.argv[3]) if len(sys.argv) > 3 else SECONDS
    if segment <= 0 or duration <= 0 or duration % segment:
        sys.exit(f"make_media.py: the length must be a positive multiple of {segment} s, not {duration}")
    done = os.path.join(out, "media.json")
    if os.path.exists(done):
        made = json.load(open(done))
        if made.get("seconds") == duration and made.get("segment", SECONDS) == segment:
            return
    enc, hls, dash = (os.path.join(out, d) for d in ("enc", "hls", "dash"))
    for d in (enc, hls, dash):
        os.makedirs(d, exist_ok=True)
    # Same source recipe as sabre_compare.py's ladders: noise over the test pattern so segment sizes vary
    # around the declared rate as real content's do.
    source = (f"testsrc2=size={{}}:rate={FPS}:duration={duration},"
              f"noise=alls=12:allf=t,hue=s='1+0.5*sin(t/7)'")
    for i, (rate, size) in enumerate(zip(RATES, SIZES)):
        run(["-f", "lavfi", "-i", source.format(size), "-c:v", "libx264", "-preset", "ultrafast",
             "-profile:v", "main", "-b:v", f"{rate}k", "-maxrate", f"{int(rate * 1.5)}k", "-bufsize", f"{rate * 2}k",
             "-g", str(segment * FPS), "-keyint_min", str(segment * FPS), "-sc_threshold", "0",
             "-pix_fmt", "yuv420p", "-an", os.path.join(enc, f"v{i}.mp4")])
    run(["-f", "lavfi", "-i", f"sine=frequency=440:beep_factor=4:sample_rate=48000:duration={duration}",
         "-c:a", "aac", "-ac", "2", "-b:a", "64k", os.path.join(enc, "a.mp4")])
    audio = os.path.join(enc, "a.mp4")
    for i, rate in enumerate(RATES):
        run(["-i", os.path.join(enc, f"v{i}.mp4"), "-i", audio, "-map", "0:v", "-map", "1:a", "-c", "copy",
             "-f", "hls", "-hls_time", str(segment), "-hls_playlist_type", "vod",
             "-hls_segment_filename", os.path.join(hls, f"v{i}_%03d.ts"), os.path.join(hls, f"v{i}.m3u8")])
    with open(os.path.join(hls, "master.m3u8"), "w") as f:
        f.write("#EXTM3U\n#EXT-X-VERSION:3\n")
        for i, (rate, size) in enumerate(zip(RATES, SIZES)):
            f.write(f'#EXT-X-STREAM-INF:BANDWIDTH={(rate + 64) * 1000},RESOLUTION={size},'
                    f'CODECS="avc1.4d401f,mp4a.40.2"\nv{i}.m3u8\n')
    inputs = []
    for i in range(len(RATES)):
        inputs += ["-i", os.path.join(enc, f"v{i}.mp4")]
    maps = []
    for i in range(len(RATES)):
        maps += ["-map", f"{i}:v"]
    maps += ["-map", f"{len(RATES)}:a"]
    # Representation ids 0..2 are the video variants, 3 the audio; segment names carry the id.
    run([*inputs, "-i", audio, *maps, "-c", "copy", "-f", "dash", "-seg_duration", str(segment),
         "-use_template", "1", "-use_timeline", "0",
         "-adaptation_sets", "id=0,streams=v id=1,streams=a",
         "-init_seg_name", "init-$RepresentationID$.m4s",
         "-media_seg_name", "chunk-$RepresentationID$-$Number%05d$.m4s",
         os.path.join(dash, "manifest.mpd")])
    with open(done, "w") as f:
        json.dump({"seconds": duration, "segments": duration // segment, "segment": segment}, f)


if __name__ == "__main__":
    main()
