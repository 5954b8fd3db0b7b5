#!/usr/bin/env bash
# Makes the fuzz target's seed corpus in Fuzz/seeds/: one tiny file per container bufprobe reads, all made
# from FFmpeg's lavfi sources (like samples/make-samples.sh), plus HLS playlists whose segments are data:
# URIs (a memory input may open nothing else). Small on purpose: libFuzzer mutates whole files, so a
# few kilobytes each keep thousands of executions per minute. Corpus entries that libFuzzer found
# interesting live beside these, under Fuzz/seeds/found/ (Fuzz/run-fuzz.sh --merge adds them).
# Usage: Fuzz/make-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/seeds"

FFMPEG=(ffmpeg -hide_banner -nostdin -loglevel error -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -map_chapters -1)
# 0.6 s of a 64x36 test card at 10 fps (a keyframe every 3 frames, B-frames) and a 8 kHz tone.
VSRC="testsrc2=size=64x36:rate=10:duration=0.6"
ASRC="sine=frequency=440:sample_rate=8000:duration=0.6"
X264=(-c:v libx264 -preset ultrafast -threads 1 -g 3 -bf 2 -pix_fmt yuv420p)
AAC=(-c:a aac -ac 1 -b:a 16k)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

av() { "${FFMPEG[@]}" -f lavfi -i "$VSRC" -f lavfi -i "$ASRC" "$@"; }

av "${X264[@]}" "${AAC[@]}" "${BITEXACT[@]}" -movflags +faststart tiny.mp4
"${FFMPEG[@]}" -i tiny.mp4 -map 0 -c copy "${BITEXACT[@]}" tiny-moov-at-end.mp4
"${FFMPEG[@]}" -i tiny.mp4 -map 0 -c copy "${BITEXACT[@]}" -movflags +frag_keyframe+empty_moov tiny-fragmented.mp4
"${FFMPEG[@]}" -i tiny.mp4 -map 0 -c copy "${BITEXACT[@]}" tiny.ts
"${FFMPEG[@]}" -i tiny.mp4 -map 0 -c copy "${BITEXACT[@]}" tiny.flv
"${FFMPEG[@]}" -i tiny.mp4 -map 0 -c copy "${BITEXACT[@]}" tiny.mkv
av -map 1 -c:a pcm_s16le "${BITEXACT[@]}" tiny.wav
av -map 1 -c:a libmp3lame -b:a 8k "${BITEXACT[@]}" tiny.mp3
av -map 1 -c:a libopus -b:a 6k "${BITEXACT[@]}" tiny.ogg
# Audio only, then video and audio on other PIDs: streams that appear after opening (issue 10, item 1).
# With the same PMT the new PIDs are found while opening; in crashers/, 3 s of audio and then a second
# program (other PMT PID and service id) adds them mid-file, which trapped MediaInput.readPacket.
av -map 1 "${AAC[@]}" "${BITEXACT[@]}" -mpegts_start_pid 0x200 "$tmp/audio.ts"
cat "$tmp/audio.ts" tiny.ts > tiny-newpid.ts
"${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=3" "${AAC[@]}" "${BITEXACT[@]}" \
  -mpegts_start_pid 0x200 "$tmp/audio3s.ts"
"${FFMPEG[@]}" -i tiny.ts -map 0 -c copy "${BITEXACT[@]}" -mpegts_pmt_start_pid 0x1100 -mpegts_service_id 2 \
  -mpegts_start_pid 0x300 "$tmp/program2.ts"
mkdir -p ../crashers
cat "$tmp/audio3s.ts" "$tmp/program2.ts" > ../crashers/newpid-second-program.ts

# HLS: segments as data: URIs (a memory input may open nothing else). FFmpeg reads at most 4096
# characters of a playlist line, so the segment is 0.3 s of audio alone (1880 bytes, 2508 in base64).
"${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.3" -c:a aac -ac 1 -b:a 8k \
  "${BITEXACT[@]}" "$tmp/segment.ts"
segment="data:video/mp2t;base64,$(base64 -w0 "$tmp/segment.ts")"
media() {  # media playlist: $1 segments, $2 a tag before the second and later ones
  printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n'
  for ((i = 0; i < $1; i++)); do
    [ "$i" -gt 0 ] && [ -n "$2" ] && printf '%s\n' "$2"
    printf '#EXTINF:0.3,\n%s\n' "$segment"
  done
  printf '#EXT-X-ENDLIST\n'
}
media 2 "" > tiny.m3u8
# The same segment twice: its timestamps restart, as after an ad break (issue 10, item 13).
media 2 "#EXT-X-DISCONTINUITY" > tiny-discontinuity.m3u8
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"\ndata:application/vnd.apple.mpegurl;base64,%s\n' \
  "$(media 1 "" | base64 -w0)" > tiny-master.m3u8

ls -l
du -ch . | tail -1
