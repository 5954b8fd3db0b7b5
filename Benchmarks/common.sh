# Shared by the benchmark scripts (sourced, not run): timing and the generated test media.

# The bufprobe binary to measure, printed: $BUFPROBE when set, else a release build of the checkout at $1
# (built here, its output on stderr). Fails without GNU time as /usr/bin/time, which every script needs.
release_bufprobe() {
  [[ -x /usr/bin/time ]] || { echo "error: /usr/bin/time is required (apt-get install time)" >&2; return 1; }
  if [[ -n "${BUFPROBE:-}" ]]; then echo "$BUFPROBE"; return 0; fi
  echo "== building bufprobe (release)" >&2
  swift build -c release --package-path "$1" --product bufprobe >&2
  echo "$1/.build/release/bufprobe"
}

# Median CPU time (user + system, steadier than wall time on a shared machine) and median wall time, in
# seconds, of RUNS runs of the command given as arguments; prints "cpu wall".
median_time() {
  local cpu=() wall=()
  for _ in $(seq "$RUNS"); do
    local line
    line=$( { /usr/bin/time -f "%e %U %S" "$@" >/dev/null; } 2>&1 | tail -1)
    wall+=("$(echo "$line" | awk '{ print $1 }')")
    cpu+=("$(echo "$line" | awk '{ print $2 + $3 }')")
  done
  printf '%s\n' "${cpu[@]}" | sort -g | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }'
  printf ' %s\n' "${wall[@]}" | sort -g | awk '{ a[NR] = $1 } END { printf " %.3f", a[int((NR + 1) / 2)] }'
}

# Writes $2 unless it exists: $1 minutes of 320x180 25 fps H.264 (250 kbit/s) + 64 kbit/s AAC, faststart
# MP4 (60 minutes is 90,000 video + 168,750 audio packets, about 140 MB). Reused by later runs.
generate_media() {
  [[ -s "$2" ]] && return 0
  local seconds=$(( $1 * 60 ))
  echo "== generating $2 ($1 min; reused on later runs)"
  ffmpeg -hide_banner -nostdin -loglevel error -y \
    -f lavfi -i "testsrc2=size=320x180:rate=25:duration=$seconds" \
    -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=$seconds" \
    -c:v libx264 -preset ultrafast -b:v 250k -g 50 -pix_fmt yuv420p -c:a aac -ac 2 -b:a 64k \
    -movflags +faststart "$2.part.mp4"
  mv "$2.part.mp4" "$2"
}
