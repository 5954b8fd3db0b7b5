#!/usr/bin/env bash
# `bufprobe probe --json` against the bare libavformat read loop (read-loop.c) and
# against `ffprobe -count_packets`, on a 5-minute and a 60-minute H.264 + AAC MP4, all measured in one run.
# Prints median wall time (hyperfine), the ratios bufprobe/C-loop and bufprobe/ffprobe, CPU time, peak RSS
# of each, and (CALLGRIND=1) instruction counts, which a busy machine does not disturb.
#
# Usage:  Benchmarks/probe-bench.sh
# Env:    BUFPROBE=/path/to/bufprobe   use this binary instead of building `swift build -c release`
#         BUFPROBE=skip                measure only the C loop and ffprobe (before `probe` exists)
#         SWIFT_BUILD_FLAGS="..."      flags for the release build (default: --static-swift-stdlib, the
#                                      self-contained binary; "" for the dynamically linked one)
#         CALLGRIND=1                  also count instructions with valgrind --tool=callgrind (the longest
#                                      file; about a minute per command)
#         (mediaio-read-loop, MediaIO's loop without probe's analysis, is built and timed too)
#         RUNS=5 WARMUP=1              hyperfine settings
#         PAIRS=15                     interleaved rounds (C loop, bufprobe, C loop, bufprobe...) on the
#                                      longest file; the goal is judged on their median paired ratio
#         LENGTHS="5 60"               file lengths in minutes (generated once into Benchmarks/out/, reused)
# Needs:  cc, pkg-config, libavformat-dev/libavcodec-dev/libavutil-dev, ffmpeg, hyperfine, jq, and GNU time
#         as /usr/bin/time (Debian package `time`).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
root=$(cd "$here/.." && pwd)
out="$here/out"
RUNS=${RUNS:-7}
WARMUP=${WARMUP:-1}
LENGTHS=${LENGTHS:-"5 60"}
SWIFT_BUILD_FLAGS=${SWIFT_BUILD_FLAGS---static-swift-stdlib}
CALLGRIND=${CALLGRIND:-0}
PAIRS=${PAIRS:-15}
mkdir -p "$out"

need() { command -v "$1" >/dev/null || { echo "error: $1 is required ($2)" >&2; exit 1; }; }
need cc "apt-get install build-essential"
need pkg-config "apt-get install pkg-config"
need ffmpeg "apt-get install ffmpeg"
need ffprobe "apt-get install ffmpeg"
need hyperfine "apt-get install hyperfine"
need jq "apt-get install jq"
[[ -x /usr/bin/time ]] || { echo "error: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }

echo "== building the C read loop"
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -o "$out/read-loop" "$here/read-loop.c" \
  $(pkg-config --cflags --libs libavformat libavcodec libavutil)

bufprobe=${BUFPROBE:-}
if [[ "$bufprobe" == skip ]]; then
  bufprobe=""
  echo "== BUFPROBE=skip: measuring only the C loop and ffprobe"
elif [[ -z "$bufprobe" ]]; then
  echo "== building bufprobe (release)"
  # shellcheck disable=SC2086
  (cd "$root" && swift build -c release $SWIFT_BUILD_FLAGS --product bufprobe)
  bufprobe="$(cd "$root" && swift build -c release $SWIFT_BUILD_FLAGS --show-bin-path)/bufprobe"
fi
if [[ -n "$bufprobe" && ! -x "$bufprobe" ]]; then
  echo "error: $bufprobe is not an executable" >&2
  exit 1
fi

# The Swift reference: MediaIO's loop without probe's analysis (skipped with BUFPROBE=skip).
mediaio=""
if [[ -n "$bufprobe" ]]; then
  echo "== building mediaio-read-loop (release)"
  # shellcheck disable=SC2086
  (cd "$root" && swift build -c release $SWIFT_BUILD_FLAGS --product mediaio-read-loop)
  mediaio="$(cd "$root" && swift build -c release $SWIFT_BUILD_FLAGS --show-bin-path)/mediaio-read-loop"
fi

# Long files: made by common.sh's generate_media (H.264 + AAC test card, faststart), generated once.

ffprobe_counts() { # packets per stream, space separated, in stream order
  ffprobe -v error -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$1" | tr '\n' ' ' | sed 's/ *$//'
}
cloop_counts() {
  "$out/read-loop" "$1" | awk '/^stream /{ print $5 }' | tr '\n' ' ' | sed 's/ *$//'
}
bufprobe_counts() {
  "$bufprobe" probe --json "$1" | jq -r '[.streams[].packets] | map(tostring) | join(" ")'
}
peak_rss_kib() { # $@ = command; prints the peak resident set size in KiB
  /usr/bin/time -f %M -o "$out/rss.txt" "$@" >/dev/null 2>&1 || true
  tail -n 1 "$out/rss.txt"
}
median() { # $1 = hyperfine JSON, $2 = command name
  jq -r --arg n "$2" '.results[] | select(.command == $n) | .median' "$1"
}
cpu() { # $1 = hyperfine JSON, $2 = command name: mean user + system CPU seconds, steadier on a busy machine
  jq -r --arg n "$2" '.results[] | select(.command == $n) | .user + .system' "$1"
}

declare -A row
for minutes in $LENGTHS; do
  file="$out/h264-aac-${minutes}min.mp4"
  generate_media "$minutes" "$file"

  # The comparison is only fair if every reader returns the same packets.
  expected=$(ffprobe_counts "$file")
  got=$(cloop_counts "$file")
  [[ "$got" == "$expected" ]] || { echo "error: C loop counted [$got], ffprobe [$expected] on $file" >&2; exit 1; }
  if [[ -n "$bufprobe" ]]; then
    got=$(bufprobe_counts "$file")
    [[ "$got" == "$expected" ]] || echo "warning: bufprobe counted [$got], ffprobe [$expected] on $file" >&2
  fi

  json="$out/hyperfine-${minutes}min.json"
  # -N runs each command without an intermediate shell (hyperfine sends stdout to /dev/null itself), so
  # no shell start-up is added to the short runs.
  commands=()
  [[ -n "$bufprobe" ]] && commands+=(-n bufprobe "'$bufprobe' probe --json '$file'")
  commands+=(-n c-loop "'$out/read-loop' '$file'")
  [[ -n "$mediaio" ]] && commands+=(-n mediaio "'$mediaio' '$file'")
  commands+=(-n ffprobe "ffprobe -v error -count_packets -show_entries stream=nb_read_packets '$file'")
  echo "== timing $minutes min ($expected packets per stream)"
  hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" --export-json "$json" "${commands[@]}"

  row[$minutes,size]=$(stat -c %s "$file")
  row[$minutes,packets]=$(tr ' ' '\n' <<< "$expected" | awk '{ s += $1 } END { print s }')
  row[$minutes,c]=$(median "$json" c-loop)
  row[$minutes,ff]=$(median "$json" ffprobe)
  row[$minutes,cpu_c]=$(cpu "$json" c-loop)
  row[$minutes,cpu_ff]=$(cpu "$json" ffprobe)
  if [[ -n "$mediaio" ]]; then
    row[$minutes,io]=$(median "$json" mediaio)
    row[$minutes,cpu_io]=$(cpu "$json" mediaio)
  fi
  row[$minutes,rss_c]=$(peak_rss_kib "$out/read-loop" "$file")
  row[$minutes,rss_ff]=$(peak_rss_kib ffprobe -v error -count_packets -show_entries stream=nb_read_packets "$file")
  if [[ -n "$bufprobe" ]]; then
    row[$minutes,bp]=$(median "$json" bufprobe)
    row[$minutes,cpu_bp]=$(cpu "$json" bufprobe)
    row[$minutes,rss_bp]=$(peak_rss_kib "$bufprobe" probe --json "$file")
  else
    row[$minutes,bp]=nan
    row[$minutes,cpu_bp]=nan
    row[$minutes,rss_bp]=nan
  fi
done

echo
echo "== results (median of $RUNS runs after $WARMUP warm-up; times in seconds, peak RSS in MiB)"
printf '%-7s %9s %8s | %9s %9s %9s | %8s %8s | %8s %8s %8s %10s\n' \
  length MB packets bufprobe c-loop ffprobe bp/c bp/ffp rss-bp rss-c rss-ffp "rss bp-c"
for minutes in $LENGTHS; do
  awk -v m="$minutes" -v size="${row[$minutes,size]}" -v n="${row[$minutes,packets]}" \
      -v bp="${row[$minutes,bp]}" -v c="${row[$minutes,c]}" -v ff="${row[$minutes,ff]}" \
      -v rbp="${row[$minutes,rss_bp]}" -v rc="${row[$minutes,rss_c]}" -v rff="${row[$minutes,rss_ff]}" '
    function num(x) { return x != "nan" && x != "" }
    function t(x) { return num(x) ? sprintf("%.4f", x) : "-" }
    function r(a, b) { return num(a) && num(b) && b > 0 ? sprintf("%.2fx", a / b) : "-" }
    function mib(x) { return num(x) ? sprintf("%.1f", x / 1024) : "-" }
    BEGIN {
      printf "%-7s %9.1f %8d | %9s %9s %9s | %8s %8s | %8s %8s %8s %10s\n", m " min", size / 1048576, n,
        t(bp), t(c), t(ff), r(bp, c), r(bp, ff), mib(rbp), mib(rc), mib(rff), (num(rbp) ? mib(rbp - rc) : "-")
    }'
done
echo
echo "CPU time (mean user + system, seconds): less sensitive than wall time to other jobs on the machine"
printf '%-7s | %9s %9s %9s | %8s %8s\n' length bufprobe c-loop ffprobe bp/c bp/ffp
for minutes in $LENGTHS; do
  awk -v m="$minutes" -v bp="${row[$minutes,cpu_bp]}" -v c="${row[$minutes,cpu_c]}" -v ff="${row[$minutes,cpu_ff]}" '
    function num(x) { return x != "nan" && x != "" }
    function t(x) { return num(x) ? sprintf("%.4f", x) : "-" }
    function r(a, b) { return num(a) && num(b) && b > 0 ? sprintf("%.2fx", a / b) : "-" }
    BEGIN { printf "%-7s | %9s %9s %9s | %8s %8s\n", m " min", t(bp), t(c), t(ff), r(bp, c), r(bp, ff) }'
done
first=${LENGTHS%% *}
last=${LENGTHS##* }
if [[ "$first" != "$last" ]]; then
  awk -v a="$first" -v b="$last" -v bp1="${row[$first,rss_bp]}" -v bp2="${row[$last,rss_bp]}" \
      -v c1="${row[$first,rss_c]}" -v c2="${row[$last,rss_c]}" -v f1="${row[$first,rss_ff]}" -v f2="${row[$last,rss_ff]}" '
    function num(x) { return x != "nan" && x != "" }
    BEGIN {
      printf "peak RSS growth %s min -> %s min: ", a, b
      if (num(bp1)) printf "bufprobe %+.1f MiB, ", (bp2 - bp1) / 1024
      printf "C loop %+.1f MiB, ffprobe %+.1f MiB", (c2 - c1) / 1024, (f2 - f1) / 1024
      if (num(bp1)) printf "; bufprobe above the C loop: %.1f -> %.1f MiB", (bp1 - c1) / 1024, (bp2 - c2) / 1024
      printf "\n"
    }'
  echo "(libavformat's MP4 demuxer keeps the whole sample table in memory, so the C loop itself grows with"
  echo " the file; what bufprobe adds on top of it is the figure that must stay flat.)"
fi
echo "raw hyperfine results: $out/hyperfine-*.json"
if [[ -n "$mediaio" ]]; then
  echo
  echo "MediaIO's loop alone (mediaio-read-loop: the Swift layer without probe's analysis) against the C loop"
  printf '%-7s | %9s %9s | %8s %8s\n' length wall cpu wall/c cpu/c
  for minutes in $LENGTHS; do
    awk -v m="$minutes" -v w="${row[$minutes,io]}" -v cp="${row[$minutes,cpu_io]}" -v c="${row[$minutes,c]}" -v cc="${row[$minutes,cpu_c]}" '
      BEGIN { printf "%-7s | %9.4f %9.4f | %7.2fx %7.2fx\n", m " min", w, cp, w / c, cp / cc }'
  done
fi
if [[ -n "$bufprobe" ]]; then
  # hyperfine times all runs of one command, then all of the next: on a machine whose speed drifts (a VM
  # whose host is busy in phases) the two medians come from different phases. Interleaved rounds time
  # the C loop and bufprobe back to back, PAIRS times, and the ratio of each pair cancels the drift.
  file="$out/h264-aac-${last}min.mp4"
  echo
  echo "== interleaved: $PAIRS rounds of (C loop, bufprobe probe --json) on the $last min file"
  wall() { # $@ = command; prints its wall time in seconds (bash's clock, the same fork/exec for both)
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }'
  }
  pairs="$out/pairs-${last}min.txt"
  : > "$pairs"
  "$out/read-loop" "$file" >/dev/null
  "$bufprobe" probe --json "$file" >/dev/null
  for ((i = 0; i < PAIRS; i++)); do
    tc=$(wall "$out/read-loop" "$file")
    tb=$(wall "$bufprobe" probe --json "$file")
    echo "$tc $tb" >> "$pairs"
  done
  paired=$(awk '{ print $2 / $1 }' "$pairs" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')
  mc=$(awk '{ print $1 }' "$pairs" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')
  mb=$(awk '{ print $2 }' "$pairs" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')
  printf 'median C loop %.4f s, median bufprobe %.4f s, median of the %d paired ratios %.3fx (raw pairs: %s)\n' \
    "$mc" "$mb" "$PAIRS" "$paired" "$pairs"
  echo
  awk -v m="$last" -v bp="${row[$last,bp]}" -v c="${row[$last,c]}" -v cbp="${row[$last,cpu_bp]}" -v cc="${row[$last,cpu_c]}" -v p="$paired" '
    BEGIN {
      r = bp / c
      printf "goal on the %s min file: bufprobe/C loop <= 1.10x: interleaved paired median %.2fx, %s; hyperfine medians %.2fx; CPU time %.2fx\n",
        m, p, (p <= 1.10 ? "met" : "NOT met"), r, cbp / cc
    }'
fi
if [[ "$CALLGRIND" == 1 ]]; then
  command -v valgrind >/dev/null || { echo "error: valgrind is required for CALLGRIND=1 (apt-get install valgrind)" >&2; exit 1; }
  cc -O2 -shared -fPIC -o "$out/valgrind-sigsuspend.so" "$here/valgrind-sigsuspend.c"
  file="$out/h264-aac-${last}min.mp4"
  instructions() { # $@ = command; prints "total busiest-thread": instructions executed by all threads
    # (libraries included), and by the thread that executed the most (bufprobe's reading thread, whose
    # count bounds the wall time when the analysis thread has a core of its own)
    rm -f "$out"/callgrind.out*
    LD_PRELOAD="$out/valgrind-sigsuspend.so" valgrind --tool=callgrind --separate-threads=yes \
      --callgrind-out-file="$out/callgrind.out" "$@" >/dev/null 2>&1 || true
    cat "$out"/callgrind.out-* | awk '/^totals:/ { s += $2; if ($2 > m) m = $2 } END { printf "%.0f %.0f\n", s, m }'
  }
  echo
  echo "== instructions on the $last min file (valgrind --tool=callgrind; bufprobe varies by ~2 % between runs,"
  echo "   with the heap layout of its threads; the C loop by less than 0.01 %)"
  read -r ic _ < <(instructions "$out/read-loop" "$file")
  printf '%-10s %15s %10s %15s %10s\n' "" "all threads" "/ c-loop" "busiest thread" "/ c-loop"
  printf '%-10s %15s\n' c-loop "$ic"
  if [[ -n "$bufprobe" ]]; then
    # valgrind 3.19 cannot read the DWARF 5 of a -g build: count on a copy without debug sections.
    objcopy --strip-debug "$bufprobe" "$out/bufprobe-nodebug"
    for run in 1 2 3; do
      read -r ib it < <(instructions "$out/bufprobe-nodebug" probe --json "$file")
      awk -v n="$run" -v b="$ib" -v t="$it" -v c="$ic" \
        'BEGIN { printf "%-10s %15.0f %9.3fx %15.0f %9.3fx\n", "bufprobe " n, b, b / c, t, t / c }'
    done
  fi
fi
