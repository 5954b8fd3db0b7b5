#!/usr/bin/env bash
# One real web player beside `bufprobe simulate` on one shaped link: the case runner that webplayers.sh and
# the test suite (WebPlayerAgreementTests) share.
#
# Usage: run-case.sh PLAYER TRACE MEDIA_DIR CASE_DIR [SIMULATE_ARGS...]
#   PLAYER      hlsjs | dashjs | shaka (HLS media for hls.js, DASH for the others)
#   TRACE       a rate trace in `simulate --trace`'s format, followed by the link and by simulate alike
#   MEDIA_DIR   made by make_media.py (its media.json gives the segment count)
#   CASE_DIR    emptied, then filled: meta.json, requests.jsonl (shaper), timeline.jsonl (the page),
#               chromium.log, simulate.json; the comparison (compare.py's JSON line) is printed on stdout.
# Environment: BUFPROBE (the binary, required), WEBPLAYERS_LIB (the player builds, required), LIMIT (the
# session's bound in seconds, default 100), CHROMIUM_LOCK (a file: when set, the real run waits for an
# exclusive flock on it, so that runs started by several people on one machine take turns), RESIM=1 (keep
# CASE_DIR's recorded real run and only rerun simulate and the comparison: for a model change).
# Chromium is started headless (--headless=new, autoplay muted) with a fresh profile and killed with its
# process group when the page reports or the bound passes; the shaper serves on 127.0.0.1 only.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 4 ]] || { echo "usage: run-case.sh PLAYER TRACE MEDIA_DIR CASE_DIR [SIMULATE_ARGS...]" >&2; exit 2; }
player=$1 trace=$2 media=$3 dir=$4
shift 4
: "${BUFPROBE:?set BUFPROBE to the bufprobe binary}" "${WEBPLAYERS_LIB:?set WEBPLAYERS_LIB to the player builds}"
LIMIT=${LIMIT:-100}
case $player in
  hlsjs) src=hls/master.m3u8 ;;
  dashjs | shaka) src=dash/manifest.mpd ;;
  *) echo "run-case.sh: unknown player '$player' (hlsjs, dashjs or shaka)" >&2; exit 2 ;;
esac
segments=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["segments"])' "$media/media.json")

SHAPER_PID="" CHROME_PID=""
cleanup() {
  [[ -n "$CHROME_PID" ]] && kill -- "-$CHROME_PID" 2>/dev/null || true
  [[ -n "$SHAPER_PID" ]] && kill "$SHAPER_PID" 2>/dev/null || true
  CHROME_PID="" SHAPER_PID=""
  wait 2>/dev/null || true
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
  # shellcheck disable=SC2068
  "$BUFPROBE" simulate "$media/$src" $@ --trace "$trace" --json > "$dir/simulate.json" 2> "$dir/simulate.log" || true
  python3 "$HERE/compare.py" "$dir"
  exit 0
fi
if [[ -n "${CHROMIUM_LOCK:-}" ]]; then exec 9> "$CHROMIUM_LOCK"; flock 9; fi
rm -rf "$dir"; mkdir -p "$dir"
python3 - "$dir/meta.json" "$player" "$(basename "$trace" .txt)" "$src" "$segments" "$*" "$LIMIT" <<'PY'
import json, sys
path, player, case, src, segments, args, limit = sys.argv[1:]
json.dump({"player": player, "case": case, "media": src, "segments": int(segments), "simulate_args": args,
           "limit": int(limit)}, open(path, "w"))
PY
python3 "$HERE/shaper.py" --media "$media" --lib "$WEBPLAYERS_LIB" --page "$HERE" --trace "$trace" \
  --log "$dir/requests.jsonl" --timeline "$dir/timeline.jsonl" > "$dir/port" 2> "$dir/shaper.log" &
SHAPER_PID=$!
for _ in $(seq 100); do [[ -s "$dir/port" ]] && break; sleep 0.1; done
[[ -s "$dir/port" ]] || { echo "run-case.sh: the shaper did not start (see $dir/shaper.log)" >&2; exit 1; }
port=$(cat "$dir/port")
# A fresh profile per run: no cache, no stored bandwidth estimate.
setsid chromium --headless=new --no-sandbox --autoplay-policy=no-user-gesture-required \
  --user-data-dir="$dir/profile" --no-first-run --no-default-browser-check --disable-gpu --mute-audio \
  --disable-background-timer-throttling --disable-renderer-backgrounding --enable-logging=stderr --v=0 \
  "http://127.0.0.1:$port/page/player.html?player=$player&src=/media/$src&limit=$LIMIT" \
  > "$dir/chromium.log" 2>&1 &
CHROME_PID=$!
waited=0
while kill -0 "$SHAPER_PID" 2>/dev/null && (( waited < (LIMIT + 20) * 10 )); do sleep 0.1; waited=$((waited + 1)); done
cleanup
rm -rf "$dir/profile"
# shellcheck disable=SC2068
"$BUFPROBE" simulate "$media/$src" $@ --trace "$trace" --json > "$dir/simulate.json" 2> "$dir/simulate.log" || true
python3 "$HERE/compare.py" "$dir"
