#!/usr/bin/env bash
# Benchmark: `bufprobe simulate` on two hours of synthetic 30 fps video + audio (about 553,000
# packets) at three bandwidths (above, near and below the media's rate), in a release build. Goal: under
# 1 s each. The references measured in the same run are the same media at half the length (1 hour,
# about 277,000 packets) and at 1 s (process start-up, nearly no packets): the ratio
# (t(2h) - t(1s)) / (t(1h) - t(1s)) should be close to 2 if the engine is linear in the number of packets.
# Then a real two-hour H.264 + AAC file (made once by ffmpeg, as probe-bench.sh makes its files): simulating it
# against probing it, the CPU ratio (goal <= 1.5), and peak memory of synthetic media at 1 h and 100 h
# (generated lazily: the same at both lengths).
#
# Usage:  Benchmarks/simulate-bench.sh
# Env:    BUFPROBE=/path/to/bufprobe   use this binary instead of building `swift build -c release`
#         RUNS=3                       runs per case; the medians are printed
# Needs:  GNU time as /usr/bin/time (Debian package `time`), bc, python3.
#         BITRATE=3Mbit                the synthetic media's rate
#         SKIP_REAL=1                  skip the real-file and memory parts
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
root=$(cd "$here/.." && pwd)
RUNS=${RUNS:-3}
BITRATE=${BITRATE:-3Mbit}

bufprobe=$(release_bufprobe "$root")
read -r base base_wall <<<"$(median_time "$bufprobe" simulate --bitrate "$BITRATE" --duration 1s --bandwidth 10Mbit --json)"
echo "process start-up (1 s of media): cpu $base s, wall $base_wall s"
printf '%-10s %9s %9s %9s %9s %10s %7s %9s\n' bandwidth "2h cpu" "2h wall" "1h cpu" "1h wall" linearity stalls startup
for bandwidth in 10Mbit 3.2Mbit 2Mbit; do
  read -r long long_wall <<<"$(median_time "$bufprobe" simulate --bitrate "$BITRATE" --duration 2h --bandwidth "$bandwidth" --latency 50ms --json)"
  read -r short short_wall <<<"$(median_time "$bufprobe" simulate --bitrate "$BITRATE" --duration 1h --bandwidth "$bandwidth" --latency 50ms --json)"
  summary=$("$bufprobe" simulate --bitrate "$BITRATE" --duration 2h --bandwidth "$bandwidth" --latency 50ms --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["stall_count"], d["startup_delay"])')
  ratio=$(echo "($long - $base) / ($short - $base)" | bc -l)
  printf '%-10s %9s %9s %9s %9s %10.2f %7s %9s\n' "$bandwidth" "$long" "$long_wall" "$short" "$short_wall" "$ratio" $summary
done
echo "packets in 2h: $(python3 -c 'print(int(7200 * 30) + int(7200 * 48000 / 1024))') (30 fps video + 1024-sample 48 kHz audio); linearity: (cpu(2h) - cpu(1s)) / (cpu(1h) - cpu(1s)), 2 when linear"

[[ -n "${SKIP_REAL:-}" ]] && exit 0
out="$here/out"
mkdir -p "$out"
real="$out/h264-aac-120min.mp4"
generate_media 120 "$real"
read -r probe_cpu probe_wall <<<"$(median_time "$bufprobe" probe --json "$real")"
read -r sim_cpu sim_wall <<<"$(median_time "$bufprobe" simulate "$real" --bandwidth 10Mbit --json)"
printf 'real 2 h H.264+AAC: probe cpu %s s (wall %s), simulate cpu %s s (wall %s), simulate/probe cpu %.2f (goal <= 1.5)\n' \
  "$probe_cpu" "$probe_wall" "$sim_cpu" "$sim_wall" "$(echo "$sim_cpu / $probe_cpu" | bc -l)"
for length in 1h 100h; do
  rss=$( { /usr/bin/time -f "%M" "$bufprobe" simulate --bitrate "$BITRATE" --duration "$length" --bandwidth 10Mbit --json >/dev/null; } 2>&1 | tail -1)
  echo "synthetic $length: peak RSS $((rss / 1024)) MiB"
done
