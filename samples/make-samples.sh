#!/usr/bin/env bash
# Regenerates every committed media sample in this directory from FFmpeg's lavfi sources only.
# Usage: samples/make-samples.sh            (writes next to this script)
#        samples/make-samples.sh --verify   (only prints the ffprobe summary of the committed files)
# Output is deterministic for a given FFmpeg/x264/libvpx/libopus build (bitexact flags, one thread),
# but another FFmpeg version may produce different bytes: the tests compare against ffprobe at run time,
# never against sizes written here.
set -euo pipefail

cd "$(dirname "$0")"

FFMPEG=(ffmpeg -hide_banner -nostdin -loglevel error -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -map_chapters -1)

# Media shared by the 10 s H.264 + AAC family: a moving test card and a 440 Hz tone with a beep every second.
W=320 H=180 FPS=25 DUR=10
VSRC="testsrc2=size=${W}x${H}:rate=${FPS}:duration=${DUR}"
ASRC="sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${DUR}"
# GOP of exactly 2 s (50 frames at 25 fps), no scene-cut keyframes, 2 B-frames, one thread for determinism.
# b-adapt=0 keeps both B-frames in every mini-GOP so reordering (pts != dts) is always present.
X264=(-c:v libx264 -preset fast -threads 1 -pix_fmt yuv420p
      -g $((2 * FPS)) -keyint_min $((2 * FPS)) -sc_threshold 0 -bf 2 -x264-params b-adapt=0)
AAC=(-c:a aac -ac 2 -b:a 48k)

verify() {
  local f
  local total=0
  for f in "$@"; do
    printf '== %s (%s bytes)\n' "$f" "$(stat -c %s "$f")"
    ffprobe -v error -count_packets \
      -show_entries stream=index,codec_name,nb_read_packets:format=duration,format_name \
      -of compact=p=0 "$f" || true
    total=$((total + $(stat -c %s "$f")))
  done
  printf '== total %s bytes in %s files\n' "$total" "$#"
}

all_files() {
  ls -1 ./*.mp4 ./*.mkv ./*.ts ./*.flv ./*.mp3 ./*.opus ./*.wav hls/*.m3u8 hls/*/*.ts 2>/dev/null | sed 's|^\./||'
}

if [[ "${1:-}" == "--verify" ]]; then
  # shellcheck disable=SC2046
  verify $(all_files)
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "h264-aac.mp4: 10 s H.264 (B-frames, 2 s GOP) + AAC, faststart"
"${FFMPEG[@]}" -f lavfi -i "$VSRC" -f lavfi -i "$ASRC" \
  "${X264[@]}" -b:v 160k -maxrate 200k -bufsize 400k "${AAC[@]}" \
  "${BITEXACT[@]}" -movflags +faststart h264-aac.mp4

# The other containers carry exactly the same encoded packets (stream copy).
echo "h264-aac-moov-at-end.mp4: same media, moov after mdat"
"${FFMPEG[@]}" -i h264-aac.mp4 -map 0 -c copy "${BITEXACT[@]}" h264-aac-moov-at-end.mp4

echo "fragmented.mp4: same media, fragmented (empty moov, moof per keyframe)"
"${FFMPEG[@]}" -i h264-aac.mp4 -map 0 -c copy "${BITEXACT[@]}" \
  -movflags frag_keyframe+empty_moov+default_base_moof fragmented.mp4

echo "h264-aac.ts: same media, MPEG-TS"
"${FFMPEG[@]}" -i h264-aac.mp4 -map 0 -c copy "${BITEXACT[@]}" -f mpegts h264-aac.ts

echo "h264-aac.flv: same media, FLV"
"${FFMPEG[@]}" -i h264-aac.mp4 -map 0 -c copy "${BITEXACT[@]}" -f flv h264-aac.flv

echo "vp9-opus.mkv: 10 s VP9 + Opus in Matroska"
"${FFMPEG[@]}" -f lavfi -i "$VSRC" -f lavfi -i "$ASRC" \
  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -threads 1 -row-mt 0 -pix_fmt yuv420p \
  -g $((2 * FPS)) -b:v 160k -c:a libopus -ac 2 -b:a 48k \
  "${BITEXACT[@]}" vp9-opus.mkv

echo "sine.mp3: 10 s MP3 (CBR 64 kbit/s, mono)"
"${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=44100:duration=${DUR}" \
  -c:a libmp3lame -b:a 64k -ac 1 "${BITEXACT[@]}" -write_xing 0 -id3v2_version 0 sine.mp3

echo "sine.opus: 10 s Opus in Ogg"
"${FFMPEG[@]}" -f lavfi -i "$ASRC" -c:a libopus -b:a 48k -ac 2 "${BITEXACT[@]}" -f ogg sine.opus

echo "cbr.wav: 10 s PCM s16le, 8 kHz mono (exactly 16,000 bytes/s, 160,000 data bytes)"
"${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=${DUR}" \
  -c:a pcm_s16le -ar 8000 -ac 1 "${BITEXACT[@]}" cbr.wav

echo "gap.ts: media 0-4 s, then a 3 s hole, then media 7-10 s (timestamps jump for audio and video)"
# Two separately encoded parts joined by the concat demuxer: declaring the first part 7 s long makes the
# second part's timestamps start at 7 s, so the hole is real in both streams and the content (the test
# card's clock) matches the timestamps.
"${FFMPEG[@]}" -f lavfi -i "testsrc2=size=${W}x${H}:rate=${FPS}:duration=4" \
  -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=4" \
  "${X264[@]}" -b:v 160k -maxrate 200k -bufsize 400k "${AAC[@]}" "${BITEXACT[@]}" -f mpegts "$tmp/part1.ts"
"${FFMPEG[@]}" -f lavfi -i "testsrc2=size=${W}x${H}:rate=${FPS}:duration=${DUR},trim=start=7,setpts=PTS-STARTPTS" \
  -f lavfi -i "sine=frequency=660:beep_factor=4:sample_rate=48000:duration=3" \
  "${X264[@]}" -b:v 160k -maxrate 200k -bufsize 400k "${AAC[@]}" "${BITEXACT[@]}" -f mpegts "$tmp/part2.ts"
printf "file '%s'\nduration 7\nfile '%s'\n" "$tmp/part1.ts" "$tmp/part2.ts" > "$tmp/gap.txt"
"${FFMPEG[@]}" -f concat -safe 0 -i "$tmp/gap.txt" -map 0 -c copy "${BITEXACT[@]}" -f mpegts gap.ts

echo "dense-start.mp4: 20 s, first 5 s dense noise (~800 kbit/s), then a static card (a few kbit/s)"
"${FFMPEG[@]}" \
  -f lavfi -i "smptebars=size=${W}x${H}:rate=${FPS}:duration=20,noise=alls=100:allf=t+u:all_seed=42:enable='lt(t,5)'" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=20" \
  "${X264[@]}" -crf 30 -maxrate 800k -bufsize 800k -c:a aac -ac 1 -b:a 32k \
  "${BITEXACT[@]}" -movflags +faststart dense-start.mp4

echo "hls/: VOD master playlist with two variants (180p low, 360p high), 2 s segments"
rm -rf hls
mkdir -p hls
"${FFMPEG[@]}" \
  -f lavfi -i "testsrc2=size=640x360:rate=${FPS}:duration=${DUR}" -f lavfi -i "$ASRC" \
  -filter_complex "[0:v]split=2[vlo][vhi];[vlo]scale=${W}:${H}[lo];[1:a]asplit=2[alo][ahi]" \
  -map "[lo]" -map "[alo]" -map "[vhi]" -map "[ahi]" \
  "${X264[@]}" \
  -b:v:0 150k -maxrate:v:0 180k -bufsize:v:0 180k \
  -b:v:1 400k -maxrate:v:1 480k -bufsize:v:1 480k \
  "${AAC[@]}" \
  "${BITEXACT[@]}" \
  -f hls -hls_time 2 -hls_playlist_type vod -hls_flags independent_segments \
  -hls_segment_type mpegts -hls_segment_filename 'hls/%v/seg%03d.ts' \
  -var_stream_map "v:0,a:0,name:low v:1,a:1,name:high" \
  -master_pl_name master.m3u8 'hls/%v/index.m3u8'

# The master playlist's BANDWIDTH must be the peak segment bit rate (RFC 8216 4.3.4.2), which hlsenc only
# estimates from the encoder's nominal rates: rewrite it from the real segment sizes and durations. Players
# and `bufprobe check` also compare it with the peak over 1 s of packets, so declare the larger of the two.
peak_bandwidth() { # $1 = media playlist
  local dir
  dir=$(dirname "$1")
  awk -v dir="$dir" '
    /^#EXTINF:/ { sub(/^#EXTINF:/, ""); sub(/,.*/, ""); dur = $0; next }
    /^[^#]/ && dur > 0 {
      cmd = "stat -c %s \"" dir "/" $0 "\""; cmd | getline size; close(cmd)
      rate = size * 8 / dur; if (rate > peak) peak = rate; dur = 0
    }
    END { printf "%d\n", peak + 0.999 }' "$1"
}
average_bandwidth() { # $1 = media playlist
  local dir
  dir=$(dirname "$1")
  awk -v dir="$dir" '
    /^#EXTINF:/ { sub(/^#EXTINF:/, ""); sub(/,.*/, ""); dur = $0; next }
    /^[^#]/ && dur > 0 {
      cmd = "stat -c %s \"" dir "/" $0 "\""; cmd | getline size; close(cmd)
      bytes += size; total += dur; dur = 0
    }
    END { printf "%d\n", bytes * 8 / total + 0.999 }' "$1"
}
peak_1s_packets() { # $1 = media playlist: peak of packet bytes in any 1 s window of dts, as bit/s
  local dir
  dir=$(dirname "$1")
  grep -v '^#' "$1" | sed "s|^|$dir/|" | xargs cat > "$tmp/variant.ts"
  ffprobe -v error -show_entries packet=dts_time,size -of csv=p=0 "$tmp/variant.ts" | awk -F, '
    { t[NR] = $1; s[NR] = $2; sum += $2; while (t[NR] - t[j + 1] >= 1.0) { j++; sum -= s[j] }
      if (sum > peak) peak = sum }
    END { printf "%d\n", peak * 8 }'
}
codecs() { # $1 = first segment: RFC 6381 avc1.PPCCLL from the stream's profile/level, AAC-LC
  local profile level
  # MPEG-TS lists each stream again under its program: keep the first answer only.
  profile=$(ffprobe -v error -select_streams v:0 -show_entries stream=profile -of csv=p=0 "$1" | sed -n 1p)
  level=$(ffprobe -v error -select_streams v:0 -show_entries stream=level -of csv=p=0 "$1" | sed -n 1p)
  case "$profile" in
    "Constrained Baseline") printf 'avc1.42C0%02X,mp4a.40.2' "$level" ;;
    Baseline) printf 'avc1.4200%02X,mp4a.40.2' "$level" ;;
    Main) printf 'avc1.4D00%02X,mp4a.40.2' "$level" ;;
    High) printf 'avc1.6400%02X,mp4a.40.2' "$level" ;;
    *) echo "unexpected H.264 profile $profile" >&2; exit 1 ;;
  esac
}
{
  echo "#EXTM3U"
  echo "#EXT-X-VERSION:6"
  echo "#EXT-X-INDEPENDENT-SEGMENTS"
  for v in low high; do
    res=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=s=x:p=0 "hls/$v/seg000.ts" |
          sed -n 1p)
    seg_peak=$(peak_bandwidth "hls/$v/index.m3u8")
    pkt_peak=$(peak_1s_packets "hls/$v/index.m3u8")
    echo "#EXT-X-STREAM-INF:BANDWIDTH=$(( seg_peak > pkt_peak ? seg_peak : pkt_peak )),AVERAGE-BANDWIDTH=$(average_bandwidth "hls/$v/index.m3u8"),RESOLUTION=$res,FRAME-RATE=$FPS.000,CODECS=\"$(codecs "hls/$v/seg000.ts")\""
    echo "$v/index.m3u8"
  done
} > hls/master.m3u8

echo "truncated.{mp4,mkv,ts}: the faststart MP4, the Matroska and the MPEG-TS cut at 60% of their size"
cut60() { head -c $(( $(stat -c %s "$1") * 60 / 100 )) "$1" > "$2"; }
cut60 h264-aac.mp4 truncated.mp4
cut60 vp9-opus.mkv truncated.mkv
cut60 h264-aac.ts truncated.ts

# shellcheck disable=SC2046
verify $(all_files)
