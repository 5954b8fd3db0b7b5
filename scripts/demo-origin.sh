#!/usr/bin/env bash
# The demo origin the README's examples run against, on 127.0.0.1 only:
#   nginx serving samples/ at full speed (/), at 20,000 bytes/s (/slow/, `limit_rate 20000`), and
#   a live HLS stream (/live/index.m3u8) that `ffmpeg -re` writes (2 s segments, 6 listed, program date-time).
# It prints the URLs, runs until Ctrl-C or SIGTERM, then stops both and removes its temporary directory.
#
#   scripts/demo-origin.sh                           # port 8081
#   BUFPROBE_DEMO_PORT=8090 scripts/demo-origin.sh   # another port
#
# The nginx configuration (scripts/demo-origin/nginx.conf.in) and the ffmpeg arguments
# (scripts/demo-origin/live-hls.args, one per line) are the tests' too (Tests/TestSupport/NginxServer.swift,
# LiveHLSSource.swift). Needs nginx (Debian: nginx-light) and ffmpeg with libx264.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
port=${BUFPROBE_DEMO_PORT:-8081}
slow_rate=20000
nginx=${NGINX:-/usr/sbin/nginx}
[[ -x $nginx ]] || nginx=$(command -v nginx) || { echo "demo-origin: nginx not found (apt-get install nginx-light)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "demo-origin: ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bufprobe-demo-origin.XXXXXX")
mkdir -p "$work/live"
nginx_pid=
ffmpeg_pid=
alive=0
stop() {
    trap - EXIT INT TERM
    local pids=() pid
    for pid in $ffmpeg_pid $nginx_pid; do kill "$pid" 2>/dev/null && pids+=("$pid"); done
    # A child started with SIGTERM blocked (a parent's signal mask is inherited) does not end on it: after
    # 5 s, SIGKILL, nginx's workers first (they outlive a killed master).
    for _ in $(seq 50); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        (( alive )) || break
        sleep 0.1
    done
    if (( ${#pids[@]} )) && (( alive )); then
        [[ -n $nginx_pid ]] && pkill -KILL -P "$nginx_pid" 2>/dev/null
        for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    fi
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

mapfile -t ffmpeg_args < "$root/scripts/demo-origin/live-hls.args"
(cd "$work/live" && exec ffmpeg "${ffmpeg_args[@]}") &
ffmpeg_pid=$!

user=
[[ $(id -u) == 0 ]] && user="user root;"$'\n'
locations="        location /slow/ { alias $root/samples/; limit_rate $slow_rate; limit_rate_after 0; }
        location /live/ { alias $work/live/; }"
conf=$(<"$root/scripts/demo-origin/nginx.conf.in")
conf=${conf//@USER@/$user}
conf=${conf//@PREFIX@/$work}
conf=${conf//@PORT@/$port}
conf=${conf//@ROOT@/$root/samples}
conf=${conf//@LOCATIONS@/$locations}
printf '%s\n' "$conf" > "$work/nginx.conf"
"$nginx" -c "$work/nginx.conf" -p "$work/" -e "$work/error.log" -g 'daemon off;' &
nginx_pid=$!

for _ in $(seq 100); do
    if ! kill -0 "$nginx_pid" 2>/dev/null; then
        echo "demo-origin: nginx did not start on 127.0.0.1:$port:" >&2
        cat "$work/error.log" >&2 || true
        exit 1
    fi
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.05
done

cat <<EOF
demo origin on 127.0.0.1:$port (Ctrl-C stops it)
  http://127.0.0.1:$port/h264-aac.mp4         samples/ at full speed
  http://127.0.0.1:$port/slow/h264-aac.mp4    samples/ at $slow_rate bytes/s (limit_rate $slow_rate)
  http://127.0.0.1:$port/live/index.m3u8      live HLS from ffmpeg -re (playable about 8 s after start)
EOF

# Returns when either child ends (or a signal's trap runs): the origin is of no use with one of them gone.
wait -n "$ffmpeg_pid" "$nginx_pid" || true
echo "demo-origin: $( kill -0 "$nginx_pid" 2>/dev/null && echo ffmpeg || echo nginx ) stopped" >&2
exit 1
