#!/usr/bin/env bash
# `bufprobe validate` of a clean 3-variant HLS VOD stream on loopback (every segment read) against FFmpeg
# reading each variant's playlist in turn (`ffmpeg -i VARIANT -c copy -f null -`), and its memory on a
# stream four times as long (Benchmarks/README.md, "validate-bench.sh").
#
#   Benchmarks/validate-bench.sh                 (20 and 40 minutes; 10 minutes for the memory pair too)
#   MINUTES=20 RUNS=3 BUFPROBE=.build/release/bufprobe Benchmarks/validate-bench.sh
#
# The stream: a 60 s clip per variant (320x180 300k, 640x360 800k, 960x540 1600k, H.264 with a keyframe
# every 2 s, 64k AAC muxed), looped with -c copy into MPEG-TS segments of 4 s, so a long stream costs no
# encoding. nginx (Debian nginx-light) serves it on 127.0.0.1 with no rate limit. Prints, for MINUTES:
# validate's and FFmpeg's median wall and CPU time over RUNS runs, their ratio (the target: at most 1.5),
# the media seconds per variant per wall second (at least 100), and the peak RSS of validate on 10 and 40
# minutes (flat: within 10 %). Needs ffmpeg, nginx, GNU time.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source Benchmarks/common.sh
RUNS=${RUNS:-3}
MINUTES=${MINUTES:-20}
OUT=${OUT:-$ROOT/Benchmarks/out/validate}
BUFPROBE=$(release_bufprobe "$ROOT")
mkdir -p "$OUT/www"

# One clip per variant, then each stream length made by looping the clips (-c copy).
make_stream() {
  local minutes=$1 dir="$OUT/www/s$1"
  [[ -s "$dir/master.m3u8" ]] && return 0
  echo "== making the $minutes-minute stream (reused on later runs)"
  mkdir -p "$dir"
  local master="#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
  for v in "1 320x180 300k" "2 640x360 800k" "3 960x540 1600k"; do
    set -- $v
    local clip="$OUT/clip$1.ts"
    if [[ ! -s "$clip" ]]; then
      ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=$2:rate=25:duration=60" \
        -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" -c:v libx264 -preset veryfast -b:v "$3" \
        -maxrate "$3" -bufsize "$3" -g 50 -keyint_min 50 -sc_threshold 0 -pix_fmt yuv420p -c:a aac -b:a 64k "$clip.part.ts"
      mv "$clip.part.ts" "$clip"
    fi
    mkdir -p "$dir/v$1"
    ffmpeg -hide_banner -nostdin -loglevel error -y -stream_loop $((minutes - 1)) -i "$clip" -c copy -f hls -hls_time 4 \
      -hls_playlist_type vod -hls_segment_filename "$dir/v$1/seg%05d.ts" "$dir/v$1/index.m3u8"
  done
  # The attributes as a packager writes them: BANDWIDTH and AVERAGE-BANDWIDTH as validate measured them on
  # these clips (the loops repeat the same segments, so every length has the same figures), CODECS with
  # each encode's level. The stream breaks no rule: its report must have no finding.
  printf "%b" "$master" > "$dir/master.m3u8"
  for v in "1 320x180 430000 405000 avc1.64000c" "2 640x360 980000 918000 avc1.64001e" "3 960x540 1860000 1740000 avc1.64001f"; do
    set -- $v
    printf '#EXT-X-STREAM-INF:BANDWIDTH=%s,AVERAGE-BANDWIDTH=%s,RESOLUTION=%s,CODECS="%s,mp4a.40.2"\nv%s/index.m3u8\n' \
      "$3" "$4" "$2" "$5" "$1" >> "$dir/master.m3u8"
  done
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
cat > "$OUT/nginx.conf" <<EOF
worker_processes 1;
pid $OUT/nginx.pid;
error_log $OUT/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $OUT/body;
    proxy_temp_path $OUT/proxy;
    fastcgi_temp_path $OUT/fastcgi;
    uwsgi_temp_path $OUT/uwsgi;
    scgi_temp_path $OUT/scgi;
    types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
    server { listen 127.0.0.1:$PORT; root $OUT/www; }
}
EOF
[[ $(id -u) == 0 ]] && sed -i '1i user root;' "$OUT/nginx.conf"

for minutes in 10 "$MINUTES" 40; do make_stream "$minutes"; done
/usr/sbin/nginx -c "$OUT/nginx.conf" -p "$OUT/" -e "$OUT/nginx-error.log" -g "daemon off;" &
NGINX_PID=$!
trap 'kill $NGINX_PID 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/s10/master.m3u8" && break; sleep 0.1; done
url() { echo "http://127.0.0.1:$PORT/s$1/$2"; }

# FFmpeg reading every variant in turn, as one command for median_time.
ffmpeg_all() {
  for v in 1 2 3; do ffmpeg -hide_banner -nostdin -loglevel error -i "$(url "$1" "v$v/index.m3u8")" -c copy -f null - || return 1; done
}
export -f ffmpeg_all url
export PORT

echo "bufprobe: $BUFPROBE; $RUNS runs each; nginx on 127.0.0.1:$PORT"
"$BUFPROBE" validate --json "$(url "$MINUTES" master.m3u8)" > "$OUT/validate-$MINUTES.json" || true
python3 - "$OUT/validate-$MINUTES.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"validate read {d['segments_read']} segments of {sum(v['segments_listed'] for v in d['variants'])}, "
      f"{d['bytes_read'] / 1e6:.1f} MB, {d['must_fix']} must-fix and {d['should_fix']} should-fix findings, not read: {d['not_read'] or 'none'}")
EOF
read -r vcpu vwall <<<"$(median_time "$BUFPROBE" validate "$(url "$MINUTES" master.m3u8)")"
read -r fcpu fwall <<<"$(median_time bash -c "ffmpeg_all $MINUTES")"
python3 - "$MINUTES" "$vcpu" "$vwall" "$fcpu" "$fwall" <<'EOF'
import sys
minutes, vcpu, vwall, fcpu, fwall = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"{minutes}-minute stream, 3 variants: validate {vwall:.2f} s wall ({vcpu:.2f} s CPU); "
      f"ffmpeg -c copy -f null - per variant in turn {fwall:.2f} s wall ({fcpu:.2f} s CPU)")
print(f"ratio validate / ffmpeg: {vwall / fwall:.2f} wall, {vcpu / fcpu:.2f} CPU (target: at most 1.5 wall)")
print(f"media seconds per variant per wall second: {minutes * 60 / vwall:.0f}x real time (target: at least 100x)")
EOF
for minutes in 10 40; do
  /usr/bin/time -f "%M" -o "$OUT/rss-$minutes" "$BUFPROBE" validate "$(url "$minutes" master.m3u8)" > /dev/null || true
done
python3 - "$(tail -1 "$OUT/rss-10")" "$(tail -1 "$OUT/rss-40")" <<'EOF'
import sys
a, b = int(sys.argv[1]), int(sys.argv[2])
print(f"peak RSS: 10 minutes {a / 1024:.1f} MB, 40 minutes {b / 1024:.1f} MB ({(b - a) / a * 100:+.1f} %; target: within 10 %)")
EOF
