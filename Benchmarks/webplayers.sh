#!/usr/bin/env bash
# Real web players against `bufprobe simulate`, on one shared shaped link (Benchmarks/README.md, "webplayers.sh").
#
# For each player (hls.js, dash.js, Shaka: the builds in ../shared/webplayers/, never committed) and each
# case (a rate trace), this plays ffmpeg-made media (a 300k/800k/2000k ladder + AAC, 2 s segments, 30 s; HLS
# for hls.js, DASH for dash.js and Shaka) in Debian's headless Chromium through Benchmarks/webplayers/
# shaper.py, which shapes all of the player's connections through one link following the trace, then runs
# `bufprobe simulate` on the same media with the same --trace and the closest preset, and prints per case:
# startup, stalls (count, total), per-segment video variant, and whether they agree by the criteria in Benchmarks/README.md
# (same stall count; startup within 0.5 s or 25 %; stall time within 1 s or 25 %; same variant on >= 90 % of
# segments). Runs are sequential, one Chromium at a time, each bounded by LIMIT seconds.
# PLAYERS="gstreamer vlc" plays the HLS master in GStreamer 1.22's playbin3 (webplayers/gst_player.py) and in
# VLC 3.0 through libvlc (webplayers/vlc_player.py) instead, through the same shaper, traces and comparison,
# with no Chromium (docs/players/gstreamer-vlc-sources.md); until simulate has a preset for one, its rows
# say "no preset yet" and RESIM=1 compares the recorded runs later.
#
# Usage: Benchmarks/webplayers.sh            (all players, all cases)
#        PLAYERS="shaka" CASES="c200k step" Benchmarks/webplayers.sh
#        KEEP=1 CASES="dip" Benchmarks/webplayers.sh   (keep out/webplayers/results.jsonl's other cases)
#        RESIM=1 Benchmarks/webplayers.sh   (rerun only simulate over the real runs recorded in $OUT/runs)
#        RUNS=1 Benchmarks/webplayers.sh    (one run of each case; by default three, and the table says which
#                                            cases agree in all of them)
# Environment: BUFPROBE (default: .build/debug/bufprobe, built when missing), WEBPLAYERS_LIB (default
# ../shared/webplayers beside the checkout), OUT (default Benchmarks/out/webplayers), LIMIT (default 100),
# RESIM and CHROMIUM_LOCK (webplayers/run-case.sh says what they do), SEGMENT (the segment duration in
# seconds, default 2; 6 gives DASH a minBufferTime of 12 s, above Shaka's 10 s buffering goal) and
# MEDIA_SECONDS (the clip's length, default 30, a multiple of SEGMENT). Another ladder wants its own OUT.
# Everything stays on 127.0.0.1. Raw timelines: $OUT/runs/<player>-<case>/.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE="$ROOT/Benchmarks/webplayers"
LIB=${WEBPLAYERS_LIB:-$ROOT/../shared/webplayers}
OUT=${OUT:-$ROOT/Benchmarks/out/webplayers}
LIMIT=${LIMIT:-100}
PLAYERS=${PLAYERS:-hlsjs dashjs shaka}
ALL_CASES="c5000k c2500k c1500k c1000k c700k c400k c200k step stepup dip 3g 4g"
CASES=${CASES:-$ALL_CASES}
BUFPROBE=${BUFPROBE:-$ROOT/.build/debug/bufprobe}
RUNS=${RUNS:-3}
# The test suite's Chromium lock (TestCache.exclusively("chromium")): a benchmark and a test run on one
# checkout take turns instead of running two Chromiums against each other's timings.
export CHROMIUM_LOCK=${CHROMIUM_LOCK:-$ROOT/.build/test-cache/chromium.lock}
mkdir -p "$(dirname "$CHROMIUM_LOCK")"

web=0
for player in $PLAYERS; do case $player in hlsjs | dashjs | shaka) web=1 ;; esac; done
if (( web )); then
  for f in hls.min.js dash.all.min.js shaka-player.compiled.js; do
    [[ -f "$LIB/$f" ]] || { echo "webplayers.sh: $LIB/$f is missing; set WEBPLAYERS_LIB to the folder of the player builds" >&2; exit 2; }
  done
  command -v chromium >/dev/null || { echo "webplayers.sh: chromium is not installed (apt-get install chromium)" >&2; exit 2; }
fi
if [[ ! -x "$BUFPROBE" ]]; then (cd "$ROOT" && swift build --product bufprobe >&2); fi

trap 'exit 130' INT TERM

mkdir -p "$OUT/traces" "$OUT/runs"
python3 "$HERE/make_media.py" "$OUT/media" "${MEDIA_SECONDS:-30}" "${SEGMENT:-2}"

# Traces, in `simulate --trace`'s two-column "seconds Mbit/s" format. Constant rates above the ladder's
# top (2000k video + 64k audio), just above it, between the upper two, near and below the middle, near the
# bottom (300k + 64k) and below it; a step down (3 -> 0.5 at 10 s), a step up (0.5 -> 3 at 10 s), a dip
# (3, 0.2 from 8 to 16 s, 3); the repository's synthetic HSDPA-like 3G trace; a synthetic 4G-like trace (a seeded random
# walk, 1 s steps between 0.3 and 6 Mbit/s with dips, made here: not a measured log).
write_traces() {
  local t="$OUT/traces"
  echo "0 5.0" > "$t/c5000k.txt"; echo "0 2.5" > "$t/c2500k.txt"; echo "0 1.0" > "$t/c1000k.txt"
  echo "0 1.5" > "$t/c1500k.txt"; echo "0 0.7" > "$t/c700k.txt"
  echo "0 0.4" > "$t/c400k.txt"; echo "0 0.2" > "$t/c200k.txt"
  printf '0 3.0\n10 0.5\n20 0.5\n' > "$t/step.txt"
  printf '0 0.5\n10 3.0\n20 3.0\n' > "$t/stepup.txt"
  printf '0 3.0\n8 0.2\n16 3.0\n24 3.0\n' > "$t/dip.txt"
  cp "$ROOT/samples/traces/3g-hsdpa.txt" "$t/3g.txt"
  python3 - "$t/4g.txt" <<'PY'
import random, sys
r = random.Random(28); rate = 3.0; rows = ["# seconds Mbit/s: synthetic 4G-like random walk (seed 28), made by webplayers.sh"]
for s in range(120):
    rate = min(6.0, max(0.3, rate * r.uniform(0.7, 1.35)))
    if r.random() < 0.06: rate = r.uniform(0.3, 0.8)   # a dip, as a handover
    rows.append(f"{s} {rate:.3f}")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
}
write_traces

# Each player's preset is its whole player on simulate (its own ABR, first choice, estimator, switch and
# start rules: Sources/PlaybackModel/Players/), adaptive without --abr.
simulate_args() {
  case $1 in
    hlsjs) echo "--player hlsjs" ;;
    dashjs) echo "--player dashjs" ;;
    shaka) echo "--player shaka" ;;
    gstreamer) echo "--player gstreamer" ;;
    vlc) echo "--player vlc" ;;
  esac
}

# One run of one case: run 1 in runs/<player>-<case>, run k in runs/<player>-<case>-r<k>; its result line
# carries "run": k.
run_case() {
  local player=$1 case=$2 run=$3 dir="$OUT/runs/$1-$2" sim_args
  (( run > 1 )) && dir="$dir-r$run"
  sim_args=$(simulate_args "$player")
  # shellcheck disable=SC2086
  BUFPROBE=$BUFPROBE WEBPLAYERS_LIB=$LIB LIMIT=$LIMIT RESIM=${RESIM:-0} CHROMIUM_LOCK=$CHROMIUM_LOCK "$HERE/run-case.sh" "$player" "$OUT/traces/$case.txt" \
    "$OUT/media" "$dir" $sim_args \
    | python3 -c 'import json, sys; r = json.loads(sys.stdin.read()); r["run"] = int(sys.argv[1]); print(json.dumps(r))' "$run" \
    >> "$OUT/results.jsonl"
  python3 "$HERE/report.py" --one "$dir" < <(tail -1 "$OUT/results.jsonl")
}

if [[ ${KEEP:-0} == 1 && -f "$OUT/results.jsonl" ]]; then
  # Keep the other player x case results, drop the ones about to be rerun.
  python3 - "$OUT/results.jsonl" "$PLAYERS" "$CASES" <<'PY'
import json, sys
path, players, cases = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
rows = [l for l in open(path) if l.strip()]
keep = [l for l in rows if not (json.loads(l)["player"] in players and json.loads(l)["case"] in cases)]
open(path, "w").writelines(keep)
PY
else
  : > "$OUT/results.jsonl"
fi
# The runs one after another, each over every player and case: a claim of agreement holds in every run.
for ((run = 1; run <= RUNS; run++)); do
  for player in $PLAYERS; do
    for case in $CASES; do
      run_case "$player" "$case" "$run"
    done
  done
done
echo
python3 "$HERE/report.py" < "$OUT/results.jsonl" | tee "$OUT/table.md"
