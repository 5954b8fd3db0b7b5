#!/usr/bin/env bash
# Benchmark: `bufprobe simulate --abr` on a two-hour, six-variant HLS ladder (2 s segments, 3,600
# per variant; sizes from #EXT-X-BYTERANGE, so nothing but playlists is written) over a two-hour bandwidth
# trace (one step per second, 0.3 to 12 Mbit/s, seeded), for every rule, in a release build. Goal: under
# 1 s each. References measured in the same run: process start-up with the same ladder cut to 10 s (one
# request per segment still, five segments), and the same two hours with one variant (--variant, no --abr),
# so the figures show what the ladder and the rule add over the one-variant engine.
#
# Usage:  Benchmarks/abr-bench.sh
# Env:    BUFPROBE=/path/to/bufprobe   use this binary instead of building `swift build -c release`
#         RUNS=3                       runs per case; the medians are printed
# Needs:  GNU time as /usr/bin/time (Debian package `time`), python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
root=$(cd "$here/.." && pwd)
RUNS=${RUNS:-3}
out="$here/out/abr"
mkdir -p "$out"

bufprobe=$(release_bufprobe "$root")

# The ladders (2 h and 10 s) and the trace, made once.
python3 - "$out" <<'PY'
import os, random, sys
out = sys.argv[1]
rates = [300_000, 750_000, 1_200_000, 2_400_000, 4_800_000, 8_000_000]
for name, count in (("long", 3600), ("short", 5)):
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    master = "#EXTM3U\n#EXT-X-VERSION:4\n"
    for index, rate in enumerate(rates):
        master += f"#EXT-X-STREAM-INF:BANDWIDTH={rate}\nv{index}.m3u8\n"
        rng = random.Random(index)
        lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        offset = 0
        for _ in range(count):
            size = int(rate * 2 / 8 * rng.uniform(0.7, 1.3))  # VBR segments around the declared rate
            lines += ["#EXTINF:2.0,", f"#EXT-X-BYTERANGE:{size}@{offset}", f"v{index}.ts"]
            offset += size
        lines.append("#EXT-X-ENDLIST")
        open(os.path.join(directory, f"v{index}.m3u8"), "w").write("\n".join(lines) + "\n")
    open(os.path.join(directory, "master.m3u8"), "w").write(master)
rng = random.Random(12)
level = 3.0
with open(os.path.join(out, "trace-2h.txt"), "w") as trace:
    trace.write("# seconds Mbit/s: a seeded random walk, 2 h\n")
    for second in range(7200):
        level = min(12.0, max(0.3, level * rng.uniform(0.85, 1.17)))
        trace.write(f"{second} {level:.3f}\n")
PY


trace="$out/trace-2h.txt"
read -r base base_wall <<<"$(median_time "$bufprobe" simulate "$out/short/master.m3u8" --abr throughput --trace "$trace" --json)"
echo "start-up (the ladder cut to 10 s): cpu $base s, wall $base_wall s"
read -r one one_wall <<<"$(median_time "$bufprobe" simulate "$out/long/master.m3u8" --variant 3 --trace "$trace" --latency 50ms --json)"
echo "2 h, one variant (--variant 3, no --abr): cpu $one s, wall $one_wall s"
printf '%-12s %8s %8s %9s %7s %10s %9s\n' rule "cpu s" "wall s" switches stalls "avg kbit/s" qoe
for rule in fixed throughput bola dynamic "throughput --abandon"; do
  # shellcheck disable=SC2086
  read -r cpu wall <<<"$(median_time "$bufprobe" simulate "$out/long/master.m3u8" --abr $rule --trace "$trace" --latency 50ms --json)"
  # shellcheck disable=SC2086
  summary=$("$bufprobe" simulate "$out/long/master.m3u8" --abr $rule --trace "$trace" --latency 50ms --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); a = d["abr"]; print(a["switch_count"], d["stall_count"], round(a["average_bit_rate"] / 1000), a["qoe"]["score"])')
  printf '%-12s %8s %8s %9s %7s %10s %9s\n' "${rule/ --abandon/+abandon}" "$cpu" "$wall" $summary
done
echo "goal: under 1 s each (2 h of 2 s segments = 3,600 requests, 6 variants, a 7,200-step trace)"
