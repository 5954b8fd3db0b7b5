#!/usr/bin/env bash
# Issue 6 benchmark: `bufprobe simulate` on two hours of synthetic 30 fps video + audio (about 553,000
# packets) at three bandwidths (above, near and below the media's rate), in a release build. Goal: under
# 1 s each. The reference measured in the same run is the same media at one tenth of the length (12
# minutes, about 55,000 packets): the ratio of the two times should be close to 10 if the engine is
# linear in the number of packets.
#
# Usage:  Benchmarks/simulate-bench.sh
# Env:    BUFPROBE=/path/to/bufprobe   use this binary instead of building `swift build -c release`
#         RUNS=3                       runs per case; the median is printed
#         BITRATE=3Mbit                the synthetic media's rate
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
RUNS=${RUNS:-3}
BITRATE=${BITRATE:-3Mbit}

bufprobe=${BUFPROBE:-}
if [[ -z "$bufprobe" ]]; then
  echo "== building bufprobe (release)" >&2
  swift build -c release --package-path "$root" --product bufprobe >&2
  bufprobe="$root/.build/release/bufprobe"
fi

# Median wall time in seconds of RUNS runs of the command given as arguments.
median() {
  local times=()
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }'
}

printf '%-12s %10s %10s %12s %8s %8s\n' bandwidth "2h (s)" "12m (s)" "ratio 2h/12m" stalls startup
for bandwidth in 10Mbit 3.2Mbit 2Mbit; do
  long=$(median "$bufprobe" simulate --bitrate "$BITRATE" --duration 2h --bandwidth "$bandwidth" --latency 50ms --json)
  short=$(median "$bufprobe" simulate --bitrate "$BITRATE" --duration 12m --bandwidth "$bandwidth" --latency 50ms --json)
  summary=$("$bufprobe" simulate --bitrate "$BITRATE" --duration 2h --bandwidth "$bandwidth" --latency 50ms --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["stall_count"], d["startup_delay"])')
  ratio=$(echo "$long / $short" | bc -l)
  printf '%-12s %10s %10s %12.2f %8s %8s\n' "$bandwidth" "$long" "$short" "$ratio" $summary
done
echo "packets in 2h: $(python3 -c 'print(int(7200 * 30) + int(7200 * 48000 / 1024))') (30 fps video + 1024-sample 48 kHz audio)"
