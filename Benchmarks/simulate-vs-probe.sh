#!/usr/bin/env bash
# Benchmark: simulating a two-hour single file against probing it. Goal: `simulate --json
# --bandwidth 3Mbit` at most 1.25x `probe --json` on the same file (wall time, hyperfine -N), release build.
# The file is samples/h264-aac.mp4 looped 720 times with -c copy (7,204 s, 518,400 packets, 191 MB), made
# once into Benchmarks/out/.
#
# Prints, in one run: the load average; hyperfine's medians and their ratio; then ROUNDS interleaved rounds
# (probe, then simulate, back to back) timed by GNU time, with the medians of user+system CPU and of wall
# time per command and their ratios. On a shared machine the wall ratio follows the other jobs; the CPU
# ratio moves less, and the interleaved wall ratio is steadier than hyperfine's blocks (see probe-bench.sh
# on why).
#
# Usage:  Benchmarks/simulate-vs-probe.sh
# Env:    BUFPROBE=/path/to/bufprobe   use this binary instead of building `swift build -c release`
#         ROUNDS=7                     interleaved rounds; HYPERFINE_RUNS=10 hyperfine runs per command
#         BANDWIDTH=3Mbit              simulate's --bandwidth
# Needs:  ffmpeg, hyperfine, python3, bc, GNU time as /usr/bin/time (Debian package `time`).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/common.sh"
ROUNDS=${ROUNDS:-7}
HYPERFINE_RUNS=${HYPERFINE_RUNS:-10}
BANDWIDTH=${BANDWIDTH:-3Mbit}

bufprobe=$(release_bufprobe "$root")

out="$here/out"
mkdir -p "$out"
file="$out/h264-aac-loop720.mp4"
if [[ ! -s "$file" ]]; then
  echo "== generating $file (samples/h264-aac.mp4 looped 720 times; reused on later runs)" >&2
  ffmpeg -hide_banner -nostdin -loglevel error -y -stream_loop 719 -i "$root/samples/h264-aac.mp4" -c copy \
    "$file.part.mp4"
  mv "$file.part.mp4" "$file"
fi

median() { sort -g | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup 1 --runs "$HYPERFINE_RUNS" --export-json "$out/simulate-vs-probe.json" \
  "$bufprobe probe $file --json" "$bufprobe simulate $file --json --bandwidth $BANDWIDTH" >/dev/null
read -r probe_med sim_med < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["median"], r[1]["median"])' "$out/simulate-vs-probe.json")
printf 'hyperfine medians (wall, s): probe %.3f, simulate %.3f, ratio %.2fx\n' "$probe_med" "$sim_med" \
  "$(echo "$sim_med / $probe_med" | bc -l)"

probe_cpu=() probe_wall=() sim_cpu=() sim_wall=()
timed() { { /usr/bin/time -f "%e %U %S" "$@" >/dev/null; } 2>&1 | tail -1; }
for _ in $(seq "$ROUNDS"); do
  read -r w u s <<<"$(timed "$bufprobe" probe "$file" --json)"
  probe_wall+=("$w"); probe_cpu+=("$(echo "$u + $s" | bc -l)")
  read -r w u s <<<"$(timed "$bufprobe" simulate "$file" --json --bandwidth "$BANDWIDTH")"
  sim_wall+=("$w"); sim_cpu+=("$(echo "$u + $s" | bc -l)")
done
pc=$(printf '%s\n' "${probe_cpu[@]}" | median); sc=$(printf '%s\n' "${sim_cpu[@]}" | median)
pw=$(printf '%s\n' "${probe_wall[@]}" | median); sw=$(printf '%s\n' "${sim_wall[@]}" | median)
printf 'interleaved, %s rounds, medians: cpu (user+sys) probe %s s, simulate %s s, ratio %.2fx; wall probe %s s, simulate %s s, ratio %.2fx\n' \
  "$ROUNDS" "$pc" "$sc" "$(echo "$sc / $pc" | bc -l)" "$pw" "$sw" "$(echo "$sw / $pw" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
