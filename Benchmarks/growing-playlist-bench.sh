#!/usr/bin/env bash
# Memory of checks of a hostile live playlist that grows by 10,000 entries per reload and never slides
# (hostile_server.py's /growing/; ENTRIES per reload): one `bufprobe check` and N checks at once through `serve`.
#
#   BUFPROBE=.build/debug/bufprobe SECONDS_PER_CHECK=10 N=8 ENTRIES=10000 START=0 SHARED=0 Benchmarks/growing-playlist-bench.sh
#
# START: entries the playlist lists at its first request besides ENTRIES (300000: an 11 MB first load);
# SHARED=1: the N checks through serve play one playlist (each check's loads grow it for all), as one
# popular live URL would be, instead of one playlist each.
#
# Prints the peak RSS (VmHWM) of one check of that playlist and of one check of a 3-entry live playlist
# (the same server, ?entries=3), then serve's RSS before the N checks, its peak during them and
# (peak - before) / N.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-8}
SECONDS_PER_CHECK=${SECONDS_PER_CHECK:-10}
ENTRIES=${ENTRIES:-10000}
START=${START:-0}
SHARED=${SHARED:-0}
BUFPROBE=${BUFPROBE:-.build/debug/bufprobe}
OUT=Benchmarks/out/growing-playlist
mkdir -p "$OUT"

coproc SERVER { python3 Tests/BufprobeCommandsTests/Fixtures/hostile_server.py --root samples; }
SERVER_PID=$SERVER_PID
read -r _ PORT <&"${SERVER[0]}"
SERVE_PID=
cleanup() {
  [[ -n "$SERVE_PID" ]] && kill "$SERVE_PID" 2>/dev/null || true
  kill "$SERVER_PID" 2>/dev/null || true
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
status_kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }
playlist() { echo "http://127.0.0.1:$PORT/growing/hls/low/index.m3u8?id=$1$$${2:-}"; }

echo "bufprobe: $BUFPROBE; checks of ${SECONDS_PER_CHECK} s; the playlist lists $START more at its first load and grows by $ENTRIES entries a reload"
for what in 3-entry growing; do
  extra="&entries=$ENTRIES&start=$START"; [[ $what == 3-entry ]] && extra="&entries=3"
  /usr/bin/time -f "%M" -o "$OUT/time-$what" "$BUFPROBE" check --json --duration "${SECONDS_PER_CHECK}s" \
    "$(playlist "one-$what-" "$extra")" > "$OUT/check-$what.json" 2> "$OUT/check-$what.log" || true
  printf 'one check, %-18s peak RSS %7.1f MB, reloads %s\n' "$what playlist:" "$(awk 'END { print $1 / 1024 }' "$OUT/time-$what")" \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["playlist_health"]["reloads"])' "$OUT/check-$what.json" 2>/dev/null || echo '?')"
done

SERVE_PORT=$(free_port)
"$BUFPROBE" serve --listen "127.0.0.1:$SERVE_PORT" --max-parallel "$N" 2> "$OUT/serve.log" &
SERVE_PID=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$SERVE_PORT/-/healthy" && break; sleep 0.1; done
rss0=$(status_kb "$SERVE_PID" VmRSS)
pids=()
for i in $(seq "$N"); do
  key="serve-$i-"; [[ $SHARED == 1 ]] && key="serve-shared-"
  target=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$(playlist "$key" "&entries=$ENTRIES&start=$START")")
  curl -s -m $((SECONDS_PER_CHECK + 30)) -H "X-Prometheus-Scrape-Timeout-Seconds: $((SECONDS_PER_CHECK + 5))" \
    -o "$OUT/answer-$i" -w '%{http_code}\n' "http://127.0.0.1:$SERVE_PORT/probe?target=$target&duration=${SECONDS_PER_CHECK}s" \
    > "$OUT/answer-$i.status" &
  pids+=($!)
done
wait "${pids[@]}" || true
peak=$(status_kb "$SERVE_PID" VmHWM)
ok=$(cat "$OUT"/answer-*.status | grep -c '^200$' || true)
awk -v n="$N" -v ok="$ok" -v r0="$rss0" -v p="$peak" 'BEGIN {
  printf "serve, %d checks at once (%d answered 200): RSS before %.1f MB, peak %.1f MB, (peak - before) / N %.1f MB\n", n, ok, r0 / 1024, p / 1024, (p - r0) / 1024 / n
}'
