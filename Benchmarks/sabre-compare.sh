#!/usr/bin/env bash
# `bufprobe simulate --abr RULE` beside Sabre on the same ladders (real ffmpeg-made HLS segments) and
# 19 traces, segment by segment: 38 runs per rule, each counted as agreeing when at least 95 % of its
# segments got Sabre's variant. See Benchmarks/sabre_compare.py for the ladders, traces and how the buffers
# are aligned.
#
# Usage:  Benchmarks/sabre-compare.sh SABRE_CHECKOUT [RULE...]
#         SABRE_CHECKOUT: a checkout of UMass-LIDS/sabre (src/sabre.py, example/); nothing of it is copied.
#         e.g. Benchmarks/sabre-compare.sh SABRE_CHECKOUT throughput bola
# Env:    BUFPROBE=/path/to/bufprobe   (default: .build/debug/bufprobe, built if missing)
# Needs:  python3, ffmpeg (libx264).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[[ $# -ge 1 && -f "$1/src/sabre.py" ]] || { echo "usage: $0 SABRE_CHECKOUT [RULE...] (a folder with src/sabre.py)" >&2; exit 64; }
sabre=$(cd "$1" && pwd)
shift
bufprobe=${BUFPROBE:-$root/.build/debug/bufprobe}
if [[ ! -x "$bufprobe" ]]; then
  swift build --package-path "$root" --product bufprobe >&2
fi
out="$here/out/sabre"
mkdir -p "$out"
python3 "$here/sabre_compare.py" "$sabre" "$root" "$bufprobe" "$out" "$@"
