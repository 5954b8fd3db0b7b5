#!/usr/bin/env bash
# One real player beside `bufprobe simulate` on one shaped link: the case runner that webplayers.sh and
# the test suite (WebPlayerAgreementTests) share. The web players play in headless Chromium; GStreamer
# (gst_player.py, playbin3) and VLC (vlc_player.py, libvlc) play the same HLS master through the same
# shaper and post the same timeline (docs/players/gstreamer-vlc-sources.md, "The runners").
#
# Usage: run-case.sh PLAYER TRACE MEDIA_DIR CASE_DIR [SIMULATE_ARGS...]
#   PLAYER      hlsjs | dashjs | shaka | gstreamer | vlc (DASH media for dash.js and Shaka, HLS for the others)
#   TRACE       a rate trace in `simulate --trace`'s format, followed by the link and by simulate alike
#   MEDIA_DIR   made by make_media.py (its media.json gives the segment count)
#   CASE_DIR    emptied, then filled: meta.json, requests.jsonl (shaper), timeline.jsonl (the page),
#               chromium.log (player.log for GStreamer and VLC), simulate.json; the comparison (compare.py's
#               JSON line) is printed on stdout. When the binary knows no such --player yet, simulate.json
#               says "no preset yet" and the real run is kept (RESIM=1 compares it later).
# Environment: BUFPROBE (the binary, required), WEBPLAYERS_LIB (the player builds, required for the web
# players), LIMIT (the
# session's bound in seconds, default 100), CHROMIUM_LOCK (a file: when set, the real run waits for an
# exclusive flock on it, so that runs started by several people on one machine take turns), RESIM=1 (keep
# CASE_DIR's recorded real run and only rerun simulate and the comparison: for a model change).
# Chromium is started headless (--headless=new, autoplay muted) with a fresh profile and killed with its
# process group when the page reports or the bound passes; the shaper serves on 127.0.0.1 only. GStreamer and
# VLC need no Chromium and take no CHROMIUM_LOCK; VLC, which refuses to run as root, runs as nobody
# (setpriv) with a HOME of its own in CASE_DIR.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 4 ]] || { echo "usage: run-case.sh PLAYER TRACE MEDIA_DIR CASE_DIR [SIMULATE_ARGS...]" >&2; exit 2; }
player=$1 trace=$2 media=$3 dir=$4
shift 4
: "${BUFPROBE:?set BUFPROBE to the bufprobe binary}"
LIMIT=${LIMIT:-100}
web=1
case $player in
  hlsjs) src=hls/master.m3u8 ;;
  dashjs | shaka) src=dash/manifest.mpd ;;
  gstreamer | vlc) src=hls/master.m3u8 web=0 ;;
  *) echo "run-case.sh: unknown player '$player' (hlsjs, dashjs, shaka, gstreamer or vlc)" >&2; exit 2 ;;
esac
if (( web )); then : "${WEBPLAYERS_LIB:?set WEBPLAYERS_LIB to the player builds}"; fi
lib=${WEBPLAYERS_LIB:-$HERE}
segments=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["segments"])' "$media/media.json")

SHAPER_PID="" PLAYER_PID=""
cleanup() {
  [[ -n "$PLAYER_PID" ]] && kill -- "-$PLAYER_PID" 2>/dev/null || true
  [[ -n "$SHAPER_PID" ]] && kill "$SHAPER_PID" 2>/dev/null || true
  PLAYER_PID="" SHAPER_PID=""
  wait 2>/dev/null || true
}
# simulate beside the real run; a binary that knows no such --player yet leaves "no preset yet".
simulate() {
  # shellcheck disable=SC2068
  "$BUFPROBE" simulate "$media/$src" $@ --trace "$trace" --json > "$dir/simulate.json" 2> "$dir/simulate.log" || true
  if grep -q "is not a player bufprobe knows" "$dir/simulate.log"; then
    echo '{"error": "no preset yet"}' > "$dir/simulate.json"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ ${RESIM:-0} == 1 ]]; then
  [[ -s "$dir/timeline.jsonl" && -s "$dir/requests.jsonl" ]] || { echo "run-case.sh: RESIM=1 but $dir holds no recorded run" >&2; exit 2; }
  python3 - "$dir/meta.json" "$*" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1])); meta["simulate_args"] = sys.argv[2]
json.dump(meta, open(sys.argv[1], "w"))
PY
  simulate "$@"
  python3 "$HERE/compare.py" "$dir"
  exit 0
fi
if (( web )) && [[ -n "${CHROMIUM_LOCK:-}" ]]; then exec 9> "$CHROMIUM_LOCK"; flock 9; fi
rm -rf "$dir"; mkdir -p "$dir"
python3 - "$dir/meta.json" "$player" "$(basename "$trace" .txt)" "$src" "$segments" "$*" "$LIMIT" <<'PY'
import json, sys
path, player, case, src, segments, args, limit = sys.argv[1:]
json.dump({"player": player, "case": case, "media": src, "segments": int(segments), "simulate_args": args,
           "limit": int(limit)}, open(path, "w"))
PY
python3 "$HERE/shaper.py" --media "$media" --lib "$lib" --page "$HERE" --trace "$trace" \
  --log "$dir/requests.jsonl" --timeline "$dir/timeline.jsonl" > "$dir/port" 2> "$dir/shaper.log" &
SHAPER_PID=$!
for _ in $(seq 100); do [[ -s "$dir/port" ]] && break; sleep 0.1; done
[[ -s "$dir/port" ]] || { echo "run-case.sh: the shaper did not start (see $dir/shaper.log)" >&2; exit 1; }
port=$(cat "$dir/port")
url="http://127.0.0.1:$port/media/$src" collect="http://127.0.0.1:$port/collect"
if [[ $player == gstreamer ]]; then
  setsid /usr/bin/python3 "$HERE/gst_player.py" "$url" "$collect" "$LIMIT" > "$dir/player.log" 2>&1 &
  PLAYER_PID=$!
elif [[ $player == vlc ]]; then
  # VLC will not run as root: as nobody, with a HOME (its config and cache) that user may write.
  mkdir -p "$dir/home"
  as_nobody=()
  if (( EUID == 0 )); then chown 65534:65534 "$dir/home"; as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
  HOME="$dir/home" setsid "${as_nobody[@]}" /usr/bin/python3 "$HERE/vlc_player.py" "$url" "$collect" "$LIMIT" \
    > "$dir/player.log" 2>&1 &
  PLAYER_PID=$!
else
  # A fresh profile per run: no cache, no stored bandwidth estimate.
  setsid chromium --headless=new --no-sandbox --autoplay-policy=no-user-gesture-required \
    --user-data-dir="$dir/profile" --no-first-run --no-default-browser-check --disable-gpu --mute-audio \
    --disable-background-timer-throttling --disable-renderer-backgrounding --enable-logging=stderr --v=0 \
    "http://127.0.0.1:$port/page/player.html?player=$player&src=/media/$src&limit=$LIMIT" \
    > "$dir/chromium.log" 2>&1 &
  PLAYER_PID=$!
fi
waited=0
while kill -0 "$SHAPER_PID" 2>/dev/null && (( waited < (LIMIT + 20) * 10 )); do sleep 0.1; waited=$((waited + 1)); done
cleanup
rm -rf "$dir/profile" "$dir/home"
simulate "$@"
python3 "$HERE/compare.py" "$dir"
