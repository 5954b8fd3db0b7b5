#!/usr/bin/env bash
# Captures what the bufprobe binary says, to compare a refactor's before and after byte for byte: `--help`
# of every command, `probe --json`, `simulate --json --bandwidth 3Mbit` and `check --json` on every sample
# (each media file in samples/ and the HLS ladder samples/hls/master.m3u8), with the exit status of each.
# Masked, as they depend on the wall clock or the process: check's wall-clock fields (docs/json.md: wall
# seconds, the throughput and what was played by the time the read ended, the numbers in its reason),
# probe's read_time, and the addresses in FFmpeg's log lines; everything else must stay identical.
# Usage: scripts/behaviour-capture.sh OUT_DIR [BINARY]   (default binary: .build/debug/bufprobe)
# Compare: diff -r BEFORE_DIR AFTER_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/behaviour-capture.sh OUT_DIR [BINARY]}
bin=${2:-.build/debug/bufprobe}
mkdir -p "$out"

# Wall-clock keys of check's JSON (anywhere in the document), replaced by "masked"; numbers in its reason
# as N.
mask='walk(if type == "object" then with_entries(
    if (.key | test("^(open_time|first_packet_time|startup_delay|realtime_factor|sampled_duration|elapsed|played_wall_time|at|hold_min|hold_mean|hold_max|throughput_bps|played|buffered_ahead|stall_time|rebuffer_ratio|read_time)$"))
    then .value = "masked"
    elif .key == "reason" and (.value | type) == "string" then .value |= gsub("\\b[0-9]+(\\.[0-9]+)?"; "N")
    else . end) else . end)'

run() { # name, command...
    local name=$1; shift
    local status=0
    "$@" >"$out/$name.out" 2>"$out/$name.err" || status=$?
    echo "$status" >"$out/$name.status"
}

run help "$bin" --help
run version "$bin" --version
for command in probe check simulate serve; do
    run "help-$command" "$bin" help "$command"
    run "help-flag-$command" "$bin" "$command" --help
done

masked() { # name: the JSON output through $mask, FFmpeg's addresses out of stderr
    local name=$1
    if jq -e . "$out/$name.out" >/dev/null 2>&1; then
        jq -S "$mask" "$out/$name.out" >"$out/$name.out.masked"
        mv "$out/$name.out.masked" "$out/$name.out"
    fi
    addresses "$name"
}
addresses() { sed -i -E 's/ @ 0x[0-9a-f]+\]/ @ 0xADDR]/' "$out/$1.err"; }

# Usage errors of the values every front end validates the same way (exit 64 and the sentence).
index=0
for words in "check --timeout 0 x" "check --duration -1 x" "check --header nocolon x" "check --all-variants-segments 0 x" \
    "check --max-startup 0 x" "check --max-stalls -1 x" "check --start 5 --resume 2 x" "probe --timeout 0 x" \
    "simulate --bandwidth 0 x"; do
    index=$((index + 1))
    # shellcheck disable=SC2086  # the words are split on purpose
    run "usage-$index" "$bin" $words
done

samples=()
for f in samples/*; do
    case "$f" in *.sh | *.md) continue ;; esac
    [ -f "$f" ] && samples+=("$f")
done
samples+=(samples/hls/master.m3u8)

for f in "${samples[@]}"; do
    name=$(echo "$f" | tr '/' '_')
    run "probe-$name" "$bin" probe --json "$f"
    masked probe-$name
    run "simulate-$name" "$bin" simulate --json --bandwidth 3Mbit "$f"
    addresses "simulate-$name"
    run "check-$name" "$bin" check --json "$f"
    masked "check-$name"
done
echo "captured ${#samples[@]} samples into $out"
