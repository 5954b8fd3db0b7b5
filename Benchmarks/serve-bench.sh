#!/usr/bin/env bash
# `bufprobe serve` under N concurrent real-time checks: nginx on 127.0.0.1 serves N 1 Mbit/s streams
# (limit_rate 125000 bytes/s), N `/probe` requests run at once through one exporter, and the exporter's own
# CPU time (/proc/PID/stat) and resident memory (/proc/PID/status) are read before and after.
#
#   Benchmarks/serve-bench.sh                      # N = 64 256 512, 20 s checks, the debug build
#   NS="64 512" SECONDS_PER_CHECK=20 BUFPROBE=.build/release/bufprobe Benchmarks/serve-bench.sh
#
# Prints per N: requests answered 200, verdicts, CPU seconds, CPU per stream-second (and the checks one core
# could run at that rate), the RSS before the checks, the peak RSS (VmHWM), and (peak - before) / N per check.
# Needs nginx (Debian nginx-light), ffmpeg, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh

NS=${NS:-"64 256 512"}
SECONDS_PER_CHECK=${SECONDS_PER_CHECK:-20}
BUFPROBE=${BUFPROBE:-.build/debug/bufprobe}
RATE=125000                        # bytes per second: 1 Mbit/s
OUT=Benchmarks/out/serve-bench
mkdir -p "$OUT/www"
OUT=$(cd "$OUT" && pwd)
TICKS=$(getconf CLK_TCK)

# One 1 Mbit/s file (900 kbit/s CBR video + 64 kbit/s audio, faststart), reused by later runs; every stream
# is its own URL (?n=i) so nginx serves N independent bodies.
MEDIA="$OUT/www/stream-1mbit.mp4"
if [[ ! -s "$MEDIA" ]]; then
  echo "== generating $MEDIA (3 min at 1 Mbit/s; reused on later runs)"
  ffmpeg -hide_banner -nostdin -loglevel error -y \
    -f lavfi -i "testsrc2=size=640x360:rate=25:duration=180" \
    -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=180" \
    -c:v libx264 -preset ultrafast -b:v 880k -minrate 880k -maxrate 880k -bufsize 880k -x264-params nal-hrd=cbr \
    -g 50 -pix_fmt yuv420p -c:a aac -ac 2 -b:a 64k -movflags +faststart "$MEDIA.part.mp4"
  mv "$MEDIA.part.mp4" "$MEDIA"
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

NGINX_PORT=$(free_port)
cat > "$OUT/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile 8192;
pid $OUT/nginx.pid;
error_log $OUT/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $OUT/body;
    proxy_temp_path $OUT/proxy;
    fastcgi_temp_path $OUT/fastcgi;
    uwsgi_temp_path $OUT/uwsgi;
    scgi_temp_path $OUT/scgi;
    types { video/mp4 mp4; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $OUT/www;
        location / { limit_rate $RATE; limit_rate_after 0; }
    }
}
EOF
[[ $(id -u) == 0 ]] && sed -i '1i user root;' "$OUT/nginx.conf"
/usr/sbin/nginx -c "$OUT/nginx.conf" -p "$OUT/" -e "$OUT/nginx-error.log" -g "daemon off;" &
NGINX_PID=$!
SERVE_PID=
cleanup() {
  [[ -n "$SERVE_PID" ]] && kill "$SERVE_PID" 2>/dev/null || true
  kill "$NGINX_PID" 2>/dev/null || true
}
trap cleanup EXIT
sleep 0.5

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
status_kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

echo "bufprobe: $BUFPROBE ($("$BUFPROBE" --version 2>/dev/null | head -1 || echo unknown)); $(nproc) cores; checks of ${SECONDS_PER_CHECK} s"
printf '%6s %6s %-24s %8s %14s %12s %9s %9s %9s\n' N "200s" verdicts "cpu s" "cpu/stream-s" "checks/core" "rss0 MB" "peak MB" "MB/check"
for N in $NS; do
  SERVE_PORT=$(free_port)
  "$BUFPROBE" serve --listen "127.0.0.1:$SERVE_PORT" --max-parallel "$N" 2> "$OUT/serve-$N.log" &
  SERVE_PID=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$SERVE_PORT/-/healthy" && break; sleep 0.1; done
  rss0=$(status_kb "$SERVE_PID" VmRSS)
  cpu0=$(cpu_ticks "$SERVE_PID")
  rm -f "$OUT"/answer-*
  for i in $(seq "$N"); do
    target="http%3A%2F%2F127.0.0.1%3A$NGINX_PORT%2Fstream-1mbit.mp4%3Fn%3D$i"
    curl -s -m $((SECONDS_PER_CHECK + 30)) -H "X-Prometheus-Scrape-Timeout-Seconds: $((SECONDS_PER_CHECK + 5))" \
      -o "$OUT/answer-$i" -w '%{http_code}\n' \
      "http://127.0.0.1:$SERVE_PORT/probe?target=$target&duration=${SECONDS_PER_CHECK}s" > "$OUT/answer-$i.status" &
  done
  wait $(jobs -p | grep -v -e "^$NGINX_PID\$" -e "^$SERVE_PID\$") 2>/dev/null || true
  cpu1=$(cpu_ticks "$SERVE_PID")
  peak=$(status_kb "$SERVE_PID" VmHWM)
  kill "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true; SERVE_PID=
  ok=$(cat "$OUT"/answer-*.status | grep -c '^200$' || true)
  verdicts=$(cat "$OUT"/answer-[0-9]* 2>/dev/null | awk '/^bufprobe_verdict\{verdict="[a-z]+"\} 1(\.0)?$/ { split($0, a, "\""); n[a[2]]++ } END { for (v in n) printf "%s=%d ", v, n[v] }')
  awk -v n="$N" -v ok="$ok" -v verdicts="${verdicts:-none}" -v c0="$cpu0" -v c1="$cpu1" -v t="$TICKS" -v s="$SECONDS_PER_CHECK" -v r0="$rss0" -v p="$peak" 'BEGIN {
    cpu = (c1 - c0) / t; per = cpu / (n * s)
    printf "%6d %6d %-24s %8.2f %14.6f %12.0f %9.1f %9.1f %9.2f\n", n, ok, verdicts, cpu, per, (per > 0 ? 1 / per : 0), r0 / 1024, p / 1024, (p - r0) / 1024 / n
  }'
done
